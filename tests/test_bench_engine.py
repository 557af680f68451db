"""benchmarks/bench_engine.py's pyspiel floor plays through pyspiel as the adapter does."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from benchmarks.bench_engine import pyspiel_floor


def test_the_pyspiel_floor_plays_its_hundred_checked_actions_through_pyspiel() -> None:
    run = pyspiel_floor()
    assert run is not None
    assert run(random.Random(1)) == 100
