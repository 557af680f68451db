"""Build hooks of the documentation site (mkdocs.yml ``hooks:``).

- The example notebooks are executed at build time (or taken from ``$LEYLINE_EXECUTED_EXAMPLES``,
  where ``./dev test-examples`` has just run them from the wheel), and every Leyline widget in
  their outputs becomes its static board: the offline page ``board_html`` writes (the bundle
  inlined, read-only, no CDN), shown in an iframe. mkdocs-jupyter then renders the notebooks.
- A public name without a docstring or without an example, or missing from the API reference,
  is a warning, so ``mkdocs build --strict`` fails on it (the same checks as
  tests/test_docstrings.py, which they come from).
- The built site loads nothing from outside: a script, stylesheet, image or frame with an
  http(s) source is a warning, so the strict build fails on it.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

log = logging.getLogger("mkdocs.hooks.leyline")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CACHE = ROOT / ".cache" / "docs"
CELL_TIMEOUT = 300  # seconds a cell may take on a loaded 2-core machine
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: What the last build took to execute the notebooks (seconds), for ./dev docs to print.
timings: dict[str, float] = {}


def _tests_module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"_docs_{name}", ROOT / "tests" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- docstrings and the reference


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    checks = _tests_module("test_docstrings")
    for name in checks.undocumented():
        log.warning("%s has no docstring (every public name needs one)", name)
    for name in checks.without_example():
        log.warning("%s's docstring has no example (a '>>>' line)", name)
    for name in checks.not_in_reference(Path(config.docs_dir) / "reference"):
        log.warning("%s is in leyline_widget.__all__ but not in the API reference", name)
    return config


_ROLE = re.compile(r":(?:func|class|meth|attr|mod|data|obj|exc):(?=<code>)")


def on_page_content(html_text: str, **_: Any) -> str:
    # Docstrings name other objects with Sphinx roles (:func:`x`), which help() shows as they
    # are; on the site the code span alone reads better.
    return _ROLE.sub("", html_text)


_EMPTY_SCRIPT = re.compile(r"<script src=\"\">\s*</script>")


def on_post_page(output: str, **_: Any) -> str:
    # mkdocs-jupyter's MathJax loader with no MathJax URL set: an empty src would load the
    # page itself as a script. The notebooks hold no math; nothing is loaded instead.
    return _EMPTY_SCRIPT.sub("", output)


# ---------------------------------------------------------------- notebooks


@event_priority(100)  # before mkdocs-jupyter picks the notebooks up
def on_files(files: Files, config: MkDocsConfig) -> Files:
    out = _rendered_notebooks()
    for path in sorted(out.rglob("*")):
        if path.is_file():
            files.append(File(path.relative_to(out).as_posix(), str(out), config.site_dir,
                              config.use_directory_urls))
    return files


def _package_digest() -> str:
    # Executed outputs depend on the notebook and on the package: any change re-executes.
    digest = hashlib.sha256()
    package = ROOT / "leyline_widget"
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".js", ".css", ".json") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _rendered_notebooks() -> Path:
    """The folder of executed notebooks with static boards, made once per notebook and package
    version (.cache/docs); its layout is the site's: examples/NAME.ipynb and the boards."""
    sources = sorted(EXAMPLES.glob("*.ipynb"))
    package = _package_digest()
    key = hashlib.sha256(package.encode())
    for path in sources:
        key.update(path.name.encode())
        key.update(path.read_bytes())
    out = CACHE / key.hexdigest()[:16]
    if (out / "done").is_file():
        log.info("Example notebooks: already executed for this package (%s)", out)
        return out
    shutil.rmtree(CACHE, ignore_errors=True)
    folder = out / "examples"
    folder.mkdir(parents=True)
    executed = _executed(sources)
    for path in sources:
        nb = executed[path.name]
        boards = _static_boards(nb, folder / path.stem, path.stem)
        (folder / path.name).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
        log.info("%s: %d widgets as static boards", path.name, boards)
    (out / "done").write_text(json.dumps(timings, indent=1) + "\n", encoding="utf-8")
    return out


def _executed(sources: list[Path]) -> dict[str, dict[str, Any]]:
    ready = os.environ.get("LEYLINE_EXECUTED_EXAMPLES")
    if ready:
        # ./dev test has just run every notebook from the wheel (./dev test-examples --save).
        found = {p.name: Path(ready) / p.name for p in sources}
        missing = [n for n, p in found.items() if not p.is_file()]
        if missing:
            raise RuntimeError(f"$LEYLINE_EXECUTED_EXAMPLES ({ready}) lacks {', '.join(missing)}")
        log.info("Example notebooks: the executed copies in %s", ready)
        return {n: json.loads(p.read_text("utf-8")) for n, p in found.items()}
    import nbformat
    from nbclient import NotebookClient

    result: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="leyline-docs-") as tmp:
        # A copy of the folder: the notebooks write files beside themselves.
        work = Path(tmp) / "examples"
        shutil.copytree(EXAMPLES, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        for path in sources:
            start = time.perf_counter()
            nb = nbformat.read(work / path.name, as_version=4)
            NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                           resources={"metadata": {"path": str(work)}}).execute()
            timings[path.name] = round(time.perf_counter() - start, 1)
            log.info("Executed %s in %.1f s", path.name, timings[path.name])
            errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                      if o.get("output_type") == "error"]
            if errors:
                raise RuntimeError(f"{path.name}: {errors[0].get('ename')}: "
                                   f"{errors[0].get('evalue')}")
            result[path.name] = json.loads(nbformat.writes(nb))
    return result


class _SavedBoard:
    """A widget as the notebook saved it (its synced state), read as ``BoardWidget`` reads its
    own state, so the page shows exactly what ``w.to_html()`` would have (no more than the
    viewer may see, no reveal left in it)."""

    def __init__(self, state: dict[str, Any], label: str) -> None:
        self._state = state
        self._label = label

    def trait_names(self, sync: bool = False) -> list[str]:
        return list(self._state)

    def get_state(self, key: list[str]) -> dict[str, Any]:
        return {k: self._state[k] for k in key}

    @property
    def legal(self) -> dict[str, Any]:
        return dict(self._state.get("legal") or {})

    def static_state(self) -> dict[str, Any]:
        from leyline_widget.widgets.base import BoardWidget

        return BoardWidget.static_state(self)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return self._label


def _static_boards(nb: dict[str, Any], folder: Path, stem: str) -> int:
    from leyline_widget.widgets.export import board_html

    saved = (nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}))
    count = 0
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            view = data.get(WIDGET_VIEW)
            if view is None:
                continue
            model = saved.get(view.get("model_id"), {}).get("state", {})
            del data[WIDGET_VIEW]
            if "mode" not in model or "view" not in model:
                continue  # not a Leyline board: its text/plain stays
            count += 1
            name = f"board-{count}.html"
            label = f"A Leyline {model['mode']} widget of {stem}.ipynb"
            board_html(_SavedBoard(model, label), folder / name, title=label)
            data.pop("text/plain", None)
            data["text/html"] = (
                f'<iframe class="leyline-board" src="{name}" title="{html.escape(label)}" '
                f'loading="lazy"></iframe>')
    nb.get("metadata", {}).pop("widgets", None)
    return count


# ---------------------------------------------------------------- nothing from outside

_OUTSIDE = re.compile(
    r"<(script|link|img|iframe|source|video|audio)\b[^>]*?\b(src|href)\s*=\s*[\"']?"
    r"((?:https?:)?//[^\"' >]+)", re.IGNORECASE)


def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    pages = 0
    for path in sorted(site.rglob("*.html")):
        pages += 1
        text = path.read_text("utf-8", errors="replace")
        for tag, _attr, url in _OUTSIDE.findall(text):
            if tag.lower() == "link" and _is_plain_link(text, url):
                continue
            log.warning("%s loads %s from outside the site (<%s>): vendor it or drop it",
                        path.relative_to(site), url, tag)
    log.info("Built %d HTML files into %s", pages, site)
    if timings:
        log.info("Notebook execution: %s", ", ".join(f"{k} {v} s" for k, v in timings.items()))
    sys.stdout.flush()


def _is_plain_link(text: str, url: str) -> bool:
    # <link rel="canonical"> and the like name a page; only stylesheets, icons and preloads load.
    for tag in re.findall(r"<link\b[^>]*>", text, re.IGNORECASE):
        if url in tag:
            rel = re.search(r"rel\s*=\s*[\"']?([^\"' >]+)", tag, re.IGNORECASE)
            return bool(rel) and rel.group(1).lower() not in (
                "stylesheet", "icon", "preload", "modulepreload", "prefetch", "manifest")
    return False
