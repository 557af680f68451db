"""Doctest collection skips the adapters whose optional extra is not installed; no test writes
a saved game into the user's own data folder."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

collect_ignore = [path for module, path in (
    ("pyspiel", "leyline_widget/interop/openspiel.py"),
    ("pettingzoo", "leyline_widget/interop/pettingzoo.py"),
    ("gymnasium", "leyline_widget/interop/gym.py"),
    ("gymnasium", "leyline_widget/interop/spaces.py"),
    ("numpy", "leyline_widget/interop/gym.py"),
) if importlib.util.find_spec(module) is None]


@pytest.fixture(autouse=True)
def _fresh_lesson_progress() -> None:
    """Each test starts with no finished lessons: the record is per kernel (per process)."""
    course = sys.modules.get("leyline_widget.teach.course")
    if course is not None:
        course.PROGRESS.clear()


@pytest.fixture(autouse=True, scope="session")
def _leyline_home_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Autosaves go to a temporary folder for the whole run, set before any fixture starts a
    server or a kernel (they inherit it), so no test writes into the user's data folder."""
    before = os.environ.get("LEYLINE_HOME")
    os.environ["LEYLINE_HOME"] = str(tmp_path_factory.mktemp("leyline-home"))
    yield
    if before is None:
        os.environ.pop("LEYLINE_HOME", None)
    else:
        os.environ["LEYLINE_HOME"] = before


@pytest.fixture(autouse=True)
def _leyline_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no saved games: its own LEYLINE_HOME."""
    monkeypatch.setenv("LEYLINE_HOME", str(tmp_path / "leyline-home"))
