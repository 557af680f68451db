"""One game, many views: the play widgets that show one Game stay in step and share its save.

Every :class:`~leyline_widget.widgets.play.LeylineWidget` made on a Game joins that Game's
:class:`Table` (made by the first). A move made from any of them is saved once (the Table's
:class:`~leyline_widget.replays.saves.Journal`, when autosave is on), and only then shown by
every widget on the Game, each through its own viewer's eyes: a player's board and the
teacher's view beside it never go stale. The widgets also share the Game's bot seats, so a
bot's move is played once whichever board asks for it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..agents.bots import Bot, BotSeat
from ..core.actions import Action
from ..core.files import WriteError
from ..core.game import Game, Phase
from ..core.types import Event
from ..replays.saves import Journal

if TYPE_CHECKING:
    from .play import LeylineWidget

__all__ = ["Table", "table_for"]


class Table:
    """The widgets on one Game, its bot seats (``specs``: seat -> kind or Bot, and the seated
    ``bots``, set by the first widget) and its save (``journal``: None when not saved)."""

    def __init__(self, game: Game, journal: Journal | None = None) -> None:
        self.game = game
        self.journal = journal
        self.autosave: bool | None = None if journal is None else True  # the first widget's
        self.specs: dict[int, Bot | str] | None = None
        self.bots: dict[int, BotSeat] | None = None
        self.widgets: weakref.WeakSet[LeylineWidget] = weakref.WeakSet()
        _TABLES[id(game)] = self

    def join(self, widget: LeylineWidget) -> None:
        self.widgets.add(widget)

    def leave(self, widget: LeylineWidget) -> None:
        self.widgets.discard(widget)

    def start_save(self, autosave: bool, settings: Callable[[], Mapping[str, Any]]) -> str:
        """Start saving the Game when the first widget asks for it (later widgets share what
        the first chose); ``""``, or why the Game cannot be saved."""
        if self.autosave is not None:
            return ""
        self.autosave = autosave
        if not autosave or self.game.is_over:
            return ""
        try:
            self.journal = Journal.start(self.game, settings())
        except WriteError as err:
            return f"this game is not being saved: {err}"
        _SAVES[self.journal.id] = self
        return ""

    def moved(self, action: Action, events: list[Event], before: Phase,
              origin: Any = None) -> str:
        """``action`` was just applied to the Game: save it, then show it on every widget but
        ``origin`` (the widget that made it shows it with its own batch). Returns ``""``, or
        why the move could not be saved (it is shown all the same: the game goes on, unsaved,
        rather than lose the move)."""
        problem = self._save(lambda journal: journal.moved(action, self.game))
        for widget in list(self.widgets):
            if widget is not origin:
                widget._moved(events, before)
        return problem

    def replaced(self, game: Game) -> str:
        """The Game went back (a take-back of Binding tokens): ``game`` is now the one every
        widget shows."""
        _TABLES.pop(id(self.game), None)
        self.game = game
        _TABLES[id(game)] = self
        problem = self._save(lambda journal: journal.back(game.step))
        for widget in list(self.widgets):
            widget._replaced(game)
        return problem

    def _save(self, write: Callable[[Journal], None]) -> str:
        journal = self.journal
        if journal is None:
            return ""
        try:
            write(journal)
        except WriteError as err:
            self.journal = None  # one clear error, not one per click
            return f"the move was made but not saved, and saving stops: {err}"
        return ""


#: Each live Game's Table, by the Game's identity (a Table holds its Game, so while the entry
#: lives the identity cannot be reused by another Game).
_TABLES: weakref.WeakValueDictionary[int, Table] = weakref.WeakValueDictionary()
#: The Table of each save being written in this kernel, by save id.
_SAVES: weakref.WeakValueDictionary[str, Table] = weakref.WeakValueDictionary()


def table_for(game: Game) -> Table:
    """The Table of ``game``: the one its widgets share, or a new one."""
    table = _TABLES.get(id(game))
    if table is not None and table.game is game:
        return table
    return Table(game)


def table_saving(id: str) -> Table | None:
    """The Table in this kernel writing the save ``id``, if any (resuming it joins that)."""
    table = _SAVES.get(id)
    journal = None if table is None else table.journal
    return table if journal is not None and not journal.done else None


def adopt(game: Game, journal: Journal) -> Table:
    """A Table for a game read back from its save, which goes on writing that save."""
    table = Table(game, journal)
    _SAVES[journal.id] = table
    return table
