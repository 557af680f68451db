"""Doctest collection skips the adapters whose optional extra is not installed."""

from __future__ import annotations

import importlib.util
import sys

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
