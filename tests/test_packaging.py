"""What ships: the licence, the metadata, the dependency range and the sdist's contents."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))


def test_an_mit_licence_file_ships() -> None:
    text = (REPO / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License") and "2026 leyline_widget developers" in text
    assert PROJECT["project"]["license"] == {"file": "LICENSE"}


def test_metadata_has_classifiers_and_keywords() -> None:
    meta = PROJECT["project"]
    assert "License :: OSI Approved :: MIT License" in meta["classifiers"]
    assert "Framework :: Jupyter" in meta["classifiers"]
    assert {"jupyter", "anywidget"} <= set(meta["keywords"])


def test_anywidget_range_admits_the_next_release() -> None:
    pins = [d for d in PROJECT["project"]["dependencies"] if d.startswith("anywidget")]
    assert pins == ["anywidget>=0.9,<1"]
    dev = (REPO / "dev").read_text("utf-8")
    assert "OLDEST_ANYWIDGET=0.9.0" in dev and "test-oldest" in (REPO / ".ci" / "run").read_text()


def test_the_sdist_holds_tests_docs_examples_and_every_readme_link() -> None:
    include = PROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"tests", "docs", "examples", "LICENSE", "CHANGELOG.md"} <= set(include)
    readme = (REPO / "README.md").read_text("utf-8")
    for target in re.findall(r"\]\(([^)#:]+)\)", readme):
        top = target.split("/")[0]
        assert (REPO / target).exists(), target
        assert top in include or target in include, f"README links {target}, not in the sdist"
