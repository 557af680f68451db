"""A Griffe extension for the API reference (mkdocs.yml, mkdocstrings ``extensions``).

The docstrings are written for ``help()`` and pytest's doctests: examples as ``>>>`` lines and
literal blocks after ``::``. Markdown would read ``>>>`` as nested quotes, so each example and
each literal block becomes a fenced code block before the page is rendered.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    """``text`` with every ``>>>`` example and ``::`` literal block fenced as code."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = len(line) - len(line.lstrip())
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i].strip())
                i += 1
            out += [" " * indent + "```pycon", *(" " * indent + b for b in block),
                    " " * indent + "```"]
            continue
        if line.rstrip().endswith("::") and not line.lstrip().startswith(">>>"):
            # "... as follows::" then an indented block: the text keeps one colon.
            out.append(line.rstrip()[:-1] if line.strip() != "::" else "")
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            base = len(line) - len(line.lstrip())
            block = []
            while i < len(lines) and (not lines[i].strip()
                                      or len(lines[i]) - len(lines[i].lstrip()) > base):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            if block:
                cut = min(len(b) - len(b.lstrip()) for b in block if b.strip())
                out += ["", " " * base + "```", *(" " * base + b[cut:] for b in block),
                        " " * base + "```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the examples of every docstring of the package once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _walk(pkg, set())


def _walk(obj: Any, seen: set[str]) -> None:
    if obj.path in seen or getattr(obj, "is_alias", False):
        return
    seen.add(obj.path)
    if obj.docstring is not None and getattr(obj.docstring, "_fenced", False) is False:
        obj.docstring.value = fence_examples(obj.docstring.value)
        obj.docstring._fenced = True
    for member in list(obj.members.values()):
        _walk(member, seen)
