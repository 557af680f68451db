"""Leyline, the memory card game, as a pure-Python engine and a Jupyter widget.

The package is a house in layers, each a folder that imports only from the ones below it:
``core`` (the referee) <- ``replays`` <- ``agents``, ``teach``, ``interop`` <- ``widgets`` <-
``cli``. This module is the public API; everything above the core loads on first use, so
``import leyline_widget`` needs no anywidget.

>>> from leyline_widget import Game, Activate
>>> game = Game.new(players=["Ada"], seed=1)
>>> game.observation(0)["grid"][0]["element"] is None   # inert cards hide their element
True
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from .core.game import Game, IllegalActionError, Phase, visible_events
from .core.rules import Power, Rules
from .core.version import VERSION as __version__

__all__ = [
    "Action",
    "Activate",
    "BalanceReport",
    "Deactivate",
    "EndPhase",
    "ExpertBot",
    "Game",
    "IllegalActionError",
    "Lesson",
    "LessonSession",
    "LessonWidget",
    "LeylineWidget",
    "Phase",
    "PlaceToken",
    "Power",
    "Refill",
    "Replay",
    "ReplayFormatError",
    "ReplayWidget",
    "Rules",
    "Scenario",
    "Step",
    "Study",
    "UsePower",
    "__version__",
    "analyse",
    "balance_report",
    "ladder",
    "memory_report",
    "replay_html",
    "replay_markdown",
    "saved_games",
    "simulate",
    "study_html",
    "sweep",
    "visible_events",
]

_LAZY = {
    "Replay": "replays.replay", "ReplayFormatError": "replays.replay", "Study": "replays.study",
    "simulate": "agents.simulate", "sweep": "agents.simulate", "ladder": "agents.ladder",
    "balance_report": "agents.balance", "ExpertBot": "agents.expert",
    "analyse": "agents.analysis", "BalanceReport": "agents.balance",
    "Scenario": "teach.scenario", "Lesson": "teach.lessons", "Step": "teach.lessons",
    "LessonSession": "teach.lessons", "memory_report": "teach.memory",
    "replay_markdown": "teach.markdown", "saved_games": "replays.saves",
    "LeylineWidget": "widgets.play", "ReplayWidget": "widgets.replay",
    "LessonWidget": "widgets.lesson", "replay_html": "widgets.export",
    "study_html": "widgets.export",
}


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        from .core.echo import quote

        raise AttributeError(f"module 'leyline_widget' has no attribute {quote(name)}")
    return getattr(import_module(f".{module}", __name__), name)
