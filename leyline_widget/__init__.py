"""Leyline, the memory card game, as a pure-Python engine and a Jupyter widget.

>>> from leyline_widget import Game, Activate
>>> game = Game.new(players=["Ada"], seed=1)
>>> game.observation(0)["grid"][0]["element"] is None   # inert cards hide their element
True
"""

from __future__ import annotations

from typing import Any

from .actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from .engine import Game, IllegalActionError, Phase, visible_events
from .rules import Power, Rules

__all__ = [
    "Action", "Activate", "Deactivate", "EndPhase", "Game", "IllegalActionError", "Lesson",
    "LessonSession", "LessonWidget", "LeylineWidget", "Phase", "PlaceToken", "Power", "Refill",
    "Replay", "ReplayFormatError", "ReplayWidget", "Rules", "Scenario", "Step", "UsePower",
    "memory_report", "visible_events",
]

__version__ = "0.1.0"

_LAZY = {
    "Replay": "replay", "ReplayFormatError": "replay",
    "Scenario": "scenario", "Lesson": "lessons", "Step": "lessons", "LessonSession": "lessons",
    "memory_report": "memory",
    "LeylineWidget": "widget", "ReplayWidget": "replay_widget", "LessonWidget": "lesson_widget",
}


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str) -> Any:
    # The engine imports without anywidget; widgets load on first use.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'leyline_widget' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f".{module}", __name__), name)
