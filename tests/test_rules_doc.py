"""RULES.md keeps its promises: every seed sentence quoted, every reference real."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "RULES.md"
SEED = Path(__file__).resolve().parent / "seed-rules.txt"
#: Where the team keeps the original; compared when present.
SHARED_SEED = Path("/work/shared/seed-rules.txt")

TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
CODE_REF = re.compile(r"`(leyline_widget/[\w/]+)\.py:([\w.]+)`")
JS_REF = re.compile(r'`(js/tests/[\w.]+\.mjs)` "([^"]+)"')


def seed_sentences() -> list[str]:
    """The seed's sentences: headings (lines without end punctuation) are left out, bullets
    lose their dash, and a line with several sentences is split after each full stop."""
    out = []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or not re.search(r"[.:!?]$", line):
            continue
        line = line.removeprefix("- ")
        out.extend(re.split(r"(?<=[.!?])\s+(?=[A-Z])", line))
    return out


@cache
def _test_names(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(node.name for node in tree.body
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


def test_the_seed_copy_is_verbatim() -> None:
    if SHARED_SEED.exists():
        assert SEED.read_text(encoding="utf-8") == SHARED_SEED.read_text(encoding="utf-8")
    assert len(seed_sentences()) == 44


@pytest.mark.parametrize("sentence", seed_sentences())
def test_every_seed_sentence_is_quoted(sentence: str) -> None:
    quotes = {line[2:] for line in RULES_MD.read_text(encoding="utf-8").splitlines()
              if line.startswith("> ")}
    assert sentence in quotes, f"RULES.md does not quote: {sentence}"


def test_every_design_interpretation_has_a_section() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    for n in range(1, 11):
        assert re.search(rf"^### {n}\. ", text, re.MULTILINE), f"interpretation {n}"


def test_every_cited_test_exists() -> None:
    refs = TEST_REF.findall(RULES_MD.read_text(encoding="utf-8"))
    assert len(refs) > 100
    missing = [f"{path}::{name}" for path, name in refs
               if not (ROOT / path).exists() or name not in _test_names(path)]
    assert missing == []


def test_every_cited_function_exists() -> None:
    refs = CODE_REF.findall(RULES_MD.read_text(encoding="utf-8"))
    assert len(refs) > 40
    missing = []
    for module, qualname in set(refs):
        obj: object = importlib.import_module(module.replace("/", "."))
        for part in qualname.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            missing.append(f"{module}.py:{qualname}")
    assert sorted(missing) == []


def test_every_seed_sentence_is_followed_by_a_test_or_a_stated_reason() -> None:
    """Each quoted sentence's paragraph cites a test, or says why none is needed."""
    text = RULES_MD.read_text(encoding="utf-8")
    part = text.split("## DESIGN.md interpretations")[0]
    blocks = re.split(r"^> ", part, flags=re.MULTILINE)[1:]
    assert len(blocks) == len(seed_sentences())
    for block in blocks:
        assert TEST_REF.search(block) or "Flavour" in block, block[:80]


def test_every_cited_front_end_test_exists() -> None:
    refs = JS_REF.findall(RULES_MD.read_text(encoding="utf-8"))
    assert len(refs) >= 8
    missing = [f"{path} {name!r}" for path, name in refs
               if f'test("{name}"' not in (ROOT / path).read_text(encoding="utf-8")]
    assert missing == []
