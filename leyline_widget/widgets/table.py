"""A seat at a table over the network, in a notebook: ``LeylineWidget.join(link)``.

The kernel is the client (:class:`~leyline_widget.tables.client.TableClient`): the table server
is the referee and sends this seat's board after every accepted move; the widget copies it into
the same traits the play mode renders from, and sends a click on to the server as a move. The
board is what :func:`table_board` makes on the server from the same presenters the local play
widget uses, so a table looks and reads the same in JupyterLab, Notebook 7 and the server's page.

>>> board = table_board(0)
>>> from leyline_widget import Game
>>> game = Game.new(players=["Ada", "Grace"], seed=2)
>>> out = board(game, game.observation(0), {}, [], 0)
>>> sorted(out), out["legal"]["actor"]
(['info', 'legal', 'log', 'log_past'], 0)
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping
from typing import Any, ClassVar

import traitlets

from ..core.actions import Action
from ..core.game import ONLOOKER, Game
from ..core.types import Event
from ..tables.client import TableClient
from .base import BoardWidget, Handler, Message, only, refusal, shown_batch
from .presenters import GameLog, game_info, legal_summary

__all__ = ["TableWidget", "table_board"]

Board = Any  # tables.server.Board: (game, view, bots, events, actor) -> board


def table_board(seat: int | None) -> Board:
    """The page's board for one connection at a table (``seat``: a player, None for the
    teacher, ``ONLOOKER`` for a spectator): ``legal`` (what this seat may click now), ``info``
    (once), and the game in words, whose finished turns go out once (``log_past`` whole on
    the first frame, then each new finished turn in ``log["recent"]``), as in the play widget.
    """
    log = GameLog(seat)
    held = -1  # finished turns the client holds; -1 before the first frame

    def board(game: Game, view: Mapping[str, Any], bots: Mapping[int, str],
              _events: list[Event], actor: int | None) -> dict[str, Any]:
        nonlocal held
        out: dict[str, Any] = {"legal": legal_summary(game, actor, view["grid"])}
        whole = log.update(game, view["grid"])
        turns = whole.pop("turns")
        past = turns[:-1]
        if held < 0 or held > len(past):
            out["info"] = game_info(game, bots)
            out["log_past"] = past
            recent: dict[str, Any] = {"from": len(past), "turns": []}
        else:
            recent = {"from": held, "turns": past[held:]}
        held = len(past)
        if seat == ONLOOKER:
            whole["marks"] = {}  # marks are "since your last turn": a spectator has none
        out["log"] = {**whole, "turns": turns[-1:], "past": len(past), "recent": recent}
        return out

    return board


class TableWidget(BoardWidget):
    """Play at a table over the network from a notebook (``LeylineWidget.join(link)``).

    ``link`` is a seat's link (``http://host:port/t/<table>?seat=<secret>``), a spectator's
    (``?watch=``) or a teacher's (``#teacher=<key>``). The connection comes back by itself after
    a drop; while it is down, ``online`` is False and ``error`` says so. :meth:`play` makes a
    move from Python and returns once the server has recorded it.
    """

    _NOTICES = BoardWidget._NOTICES | {"action", "log_sync", "bot_step"}

    log = traitlets.Dict().tag(sync=True)
    log_past: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    shown_seq = traitlets.Int(0).tag(sync=True)
    handoff = traitlets.Dict().tag(sync=True)
    deal_ms = traitlets.Int(0).tag(sync=True)
    bot_delay_ms = traitlets.Int(0).tag(sync=True)
    session: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    hint = traitlets.Dict().tag(sync=True)
    memory = traitlets.Dict().tag(sync=True)
    online = traitlets.Bool(False).tag(sync=True)
    _page_writable: ClassVar[dict[str, Any]] = {}

    def __init__(self, link: str, *, reveal_ms: int = 1500, record: bool = False) -> None:
        self._lock = threading.RLock()
        self._moves: dict[int, int] = {}  # move ids the page sent, waiting for the server
        self._ids = itertools.count(1_000_000)  # apart from TableClient.move's own ids
        super().__init__(mode="play", reveal_ms=reveal_ms)
        # record: keep every frame received in ``client.frames`` (tests scan them).
        self.client = TableClient(link, board=True, record=record, on_frame=self._on_frame)

    # -- frames from the server (the client's thread) ----------------------------------------
    def _on_frame(self, frame: dict[str, Any]) -> None:
        with self._lock, self.hold_sync():
            kind = frame.get("type")
            if kind == "offline":
                self.online = False
                self.error = ("Offline: the table server cannot be reached; reconnecting by "
                              "itself.")
            elif kind == "welcome":
                self.online = True
                if self.error.startswith("Offline"):
                    self.error = ""
            elif kind == "state":
                board = frame.get("board") or {}
                self.view = frame["view"]
                self.viewer = frame["view"].get("viewer")
                self.legal = board.get("legal", {})
                if "info" in board:
                    self.info = board["info"]
                if "log_past" in board:
                    self.log_past = board["log_past"]
                self.log = board.get("log", {})
                items = frame["events"]["items"]
                if items:
                    self._publish(items, frame["step"])
            elif kind == "ack" and frame.get("id") in self._moves:
                self._moves.pop(frame["id"])
                self.error = ""
                self.ack += 1
            elif kind == "error" and (frame.get("id") in self._moves or "id" not in frame):
                self._moves.pop(frame.get("id", -1), None)
                self.error = refusal(str(frame.get("error", "")))
                self.ack += 1

    # -- Python API ------------------------------------------------------------------------
    def play(self, action: Action | Mapping[str, Any], timeout: float = 30) -> int:
        """Make a move for this seat; the step after it once the server has recorded it.
        A refusal raises ``TableError`` naming the field or rule, and changes nothing."""
        return self.client.move(action, timeout=timeout)

    def wait(self, step: int, timeout: float = 30) -> bool:
        """Wait until the board shows step ``step`` (or later); False after ``timeout``."""
        return self.client.wait(lambda c: c.state is not None and c.state["step"] >= step,
                                timeout)

    def close(self) -> None:
        """Leave the table (the seat stays yours: its link takes it again) and close the
        widget."""
        self.client.close()
        super().close()

    def _summary(self) -> str:
        view = self.view
        where = "online" if self.client.online else "offline"
        return f"table {self.client.link.table}, turn {view.get('turn', '?')}, {where}"

    # -- messages from the page --------------------------------------------------------------
    def _handlers(self) -> dict[str, Handler]:
        return {"action": self._on_action, "shown": self._on_shown,
                "log_sync": self._on_log_sync, "bot_step": self._on_bot_step}

    def _on_action(self, content: Message) -> None:
        only(content, "action", ("action", "step"))
        step = content.get("step", self.legal.get("step"))
        if not isinstance(content.get("action"), dict):
            raise ValueError("an action message needs an 'action' object")
        with self._lock:
            msg_id = next(self._ids)
            self._moves[msg_id] = msg_id
        if not self.client.send({"type": "move", "id": msg_id, "step": step,
                                 "action": content["action"]}):
            with self._lock:
                self._moves.pop(msg_id, None)
            self.online = False
            raise ValueError("offline: the table server cannot be reached, so the move was not "
                             "sent; it reconnects by itself, try again then")

    def _on_shown(self, content: Message) -> None:
        self.shown_seq = max(self.shown_seq, shown_batch(content, self.events))

    def _on_log_sync(self, content: Message) -> None:
        only(content, "log_sync", ())
        self.client.send({"type": "sync"})

    def _on_bot_step(self, _content: Message) -> None:
        return  # the server plays the bots at its own pace

