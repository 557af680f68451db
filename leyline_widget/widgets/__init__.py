"""The anywidget shells (play, replay, lesson) and static HTML export.

This is the only layer that imports anywidget, ipywidgets or traitlets; its modules load on
first use, so ``import leyline_widget.widgets`` alone stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..core.echo import quote

__all__ = ["LessonWidget", "LeylineWidget", "ReplayWidget"]

_LAZY = {"LeylineWidget": "play", "ReplayWidget": "replay", "LessonWidget": "lesson"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {quote(__name__)} has no attribute {quote(name)}")
    return getattr(import_module(f".{module}", __name__), name)
