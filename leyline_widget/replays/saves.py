"""Autosaves: every accepted move of a play widget is on disk before the page shows it.

A game being played is kept as a *journal* (``<id>.leyline-game``, JSON lines): the first line
says which game it is (its replay so far, and the widget's seats and viewer), each later line
is one accepted move, appended, flushed and synced to the disk before the widget shows it. An
append costs the same at any game length (a long turn of activate/deactivate included), where
rewriting the whole game at every click would cost more with each one; and a crash in the
middle of an append can only cut the last line short. That line was never acknowledged (the
page had not shown the move), so reading drops it and the game resumes at the move before.
The first line is written whole (:func:`~leyline_widget.core.files.write_atomic`).

When the game ends, the journal becomes a replay file (``<id>.json``, written atomically,
loadable with :meth:`Replay.load <leyline_widget.replays.replay.Replay.load>`), and the
journal goes.

The folder is ``$LEYLINE_HOME/games`` when ``LEYLINE_HOME`` is set, else ``games`` in the
user's data folder (platformdirs: ``~/.local/share/leyline_widget`` on Linux).

>>> import os, tempfile
>>> os.environ["LEYLINE_HOME"] = tempfile.mkdtemp()
>>> from leyline_widget import Game, Activate
>>> game = Game.new(players=["Ada"], seed=4)
>>> save = Journal.start(game, {"viewer": "active"})
>>> _ = game.apply(Activate(2)); save.moved(Activate(2), game)
>>> [(s.id == save.id, s.players, s.step, s.finished) for s in saved_games()]
[(True, ('Ada',), 1, False)]
>>> load(save.id)[0].state_hash() == game.state_hash()
True
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.actions import Action
from ..core.echo import quote
from ..core.files import WriteError, reason, write_atomic
from ..core.game import Game, IllegalActionError
from .replay import Replay, ReplayFormatError, parse_json, read_file

__all__ = ["HOME_ENV", "Journal", "SaveError", "SavedGame", "games_folder", "load",
           "saved_games"]

#: The environment variable that moves every saved game (tests point it at a temporary folder).
HOME_ENV = "LEYLINE_HOME"
FORMAT = "leyline-autosave"
VERSION = 1
JOURNAL = ".leyline-game"
FINISHED = ".json"
#: The largest save read (a 4,000-click turn is about 200 kB).
MAX_BYTES = 64 * 1024 * 1024


class SaveError(ValueError):
    """A saved game that cannot be read or resumed; the message names the file and why."""


def home() -> Path:
    """``$LEYLINE_HOME``, else the user's data folder for leyline_widget."""
    chosen = os.environ.get(HOME_ENV)
    if chosen:
        return Path(chosen).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("leyline_widget", appauthor=False))


def games_folder(create: bool = False) -> Path:
    """The folder of saved games (made, with its parents, when ``create``)."""
    folder = home() / "games"
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise WriteError(err.errno or 5, f"cannot make the folder for saved games "
                                             f"{folder}: {reason(err)} (set {HOME_ENV} to "
                                             "another folder)") from None
    return folder


@dataclass(frozen=True)
class SavedGame:
    """One saved game, as :func:`saved_games` lists it.

    ``id`` (give it to ``LeylineWidget.resume(id)``), ``players``, ``step`` (moves made),
    ``when`` (the last move, local time), ``finished`` (a replay file) and ``path``.
    ``error`` is ``""``, or why the file cannot be read (it is then listed, never resumed).
    """

    id: str
    players: tuple[str, ...]
    step: int
    when: dt.datetime
    finished: bool
    path: Path
    error: str = ""

    def replay(self) -> Replay:
        """The game as a :class:`Replay` (a finished game's file, or an unfinished one so far)."""
        if self.finished:
            return Replay.load(self.path, max_bytes=MAX_BYTES)
        return Replay.from_game(load(self.id)[0])


class Journal:
    """The save of one unfinished game: :meth:`start` writes its first line, :meth:`moved`
    appends each move, :meth:`back` records a take-back, :meth:`finish` turns it into a
    replay file."""

    def __init__(self, id: str, settings: Mapping[str, Any]) -> None:
        self.id = id
        self.settings = dict(settings)
        self.path = games_folder() / f"{id}{JOURNAL}"
        self.done = False

    @classmethod
    def start(cls, game: Game, settings: Mapping[str, Any]) -> Journal:
        """A new save of ``game`` as it is now; ``settings`` (JSON) say how to show it again."""
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        save = cls(f"{stamp}-{secrets.token_hex(3)}", settings)
        games_folder(create=True)
        head = {"format": FORMAT, "version": VERSION, "id": save.id,
                "settings": save.settings, "replay": Replay.from_game(game).to_dict()}
        write_atomic(save.path, json.dumps(head, separators=(",", ":")) + "\n")
        if game.is_over:
            save.finish(game)
        return save

    def _append(self, entry: Mapping[str, Any]) -> None:
        line = (json.dumps(entry, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            with open(self.path, "ab") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
        except OSError as err:
            raise WriteError(err.errno or 5, f"cannot save the move to {self.path}: "
                                             f"{reason(err)}") from None

    def moved(self, action: Action, game: Game) -> None:
        """Record ``action``, just applied to ``game``; a finished game becomes a replay."""
        if self.done:
            return
        self._append({"step": game.step - 1, "action": action.to_dict()})
        if game.is_over:
            self.finish(game)

    def back(self, step: int) -> None:
        """Record a take-back: the game returned to ``step`` (the moves after it are undone)."""
        if not self.done:
            self._append({"back": step})

    def finish(self, game: Game) -> None:
        """The game is over: keep it as a replay file and drop the journal."""
        write_atomic(self.path.with_name(f"{self.id}{FINISHED}"), Replay.from_game(game).to_json())
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self.done = True

    def resume(self) -> None:
        """Before appending to a journal read back from disk: cut a torn last line, which
        would otherwise run into the next move's line."""
        with open(self.path, "rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1
            if end != len(data):
                f.truncate(end)
                f.flush()
                os.fsync(f.fileno())


def _read(path: Path) -> tuple[dict[str, Any], Game]:
    """A journal's first line and its game at the last move on disk; SaveError if damaged."""
    where = path.name
    try:
        data = read_file(path, MAX_BYTES, "saved game")
    except ReplayFormatError as err:
        raise SaveError(str(err)) from None
    lines = data.split(b"\n")
    lines.pop()  # after the last newline: empty, or a move cut short (never acknowledged)
    if not lines:
        raise SaveError(f"{where}: the file is empty or cut short before its first line")
    try:
        head = parse_json(lines[0], MAX_BYTES, "saved game")
    except ReplayFormatError as err:
        raise SaveError(f"{where}: line 1: {err}") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SaveError(f"{where}: not a Leyline saved game (line 1 has no format "
                        f"{quote(FORMAT)})")
    version = head.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= VERSION:
        raise SaveError(f"{where}: format version {quote(version)} is not one this "
                        f"leyline_widget reads (1 to {VERSION})")
    if not isinstance(head.get("settings"), dict):
        raise SaveError(f"{where}: line 1 needs a 'settings' object")
    try:
        replay = Replay.from_dict(head.get("replay"))
    except ReplayFormatError as err:
        raise SaveError(f"{where}: line 1: the game's start: {err}") from None
    base = len(replay)
    moves: list[Action] = []
    for number, raw in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(raw)
            if not isinstance(entry, dict):
                raise ValueError("not an object")
            if "back" in entry:
                step = entry["back"]
                if isinstance(step, bool) or not isinstance(step, int) or not (
                        base <= step <= base + len(moves)):
                    raise ValueError(f"a take-back to step {quote(step)}")
                del moves[step - base:]
                continue
            if entry.get("step") != base + len(moves):
                raise ValueError(f"a move for step {quote(entry.get('step'))}, after step "
                                 f"{base + len(moves)}")
            moves.append(Action.from_dict(entry.get("action")))
        except (ValueError, RecursionError) as err:
            raise SaveError(f"{where}: line {number} is not a saved move: "
                            f"{str(err)[:160]}") from None
    game = replay.game_at(base)
    for i, action in enumerate(moves):
        try:
            game.apply(action)
        except IllegalActionError as err:
            raise SaveError(f"{where}: move {base + i + 1} is not legal there: "
                            f"{str(err)[:160]}") from None
    return head, game


def load(id: str) -> tuple[Game, dict[str, Any], Journal]:
    """The unfinished game saved as ``id`` at its last move, its settings, and its journal
    (ready to take the next moves). SaveError when there is none or it is damaged."""
    if not isinstance(id, str) or not id or "/" in id or "\\" in id or id.startswith("."):
        raise SaveError(f"no saved game has the id {quote(id)}")
    path = games_folder() / f"{id}{JOURNAL}"
    if not path.is_file():
        done = path.with_name(f"{id}{FINISHED}").is_file()
        raise SaveError(f"the game {quote(id)} is finished: load it with Replay.load("
                        f"{quote(str(path.with_name(id + FINISHED)))})" if done else
                        f"no unfinished game is saved as {quote(id)} in {path.parent}")
    head, game = _read(path)
    journal = Journal(id, head["settings"])
    journal.resume()
    return game, journal.settings, journal


def _when(path: Path) -> dt.datetime:
    try:
        return dt.datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        return dt.datetime.fromtimestamp(0)


def _entry(path: Path) -> SavedGame:
    finished = path.name.endswith(FINISHED)
    id = path.name[:-len(FINISHED if finished else JOURNAL)]
    when = _when(path)
    try:
        if finished:
            replay = Replay.load(path, max_bytes=MAX_BYTES)
            players, step = replay.players, len(replay)
        else:
            _, game = _read(path)
            players, step = game.players, game.step
    except (SaveError, ReplayFormatError) as err:
        return SavedGame(id, (), 0, when, finished, path, str(err)[:300])
    return SavedGame(id, tuple(players), step, when, finished, path)


def saved_games() -> list[SavedGame]:
    """Every saved game, newest first (by its last move): unfinished journals and finished
    replays. A damaged file is listed with its ``error`` and never raises.

    >>> import tempfile
    >>> from unittest import mock
    >>> with tempfile.TemporaryDirectory() as home:
    ...     with mock.patch.dict("os.environ", {"LEYLINE_HOME": home}):
    ...         print(saved_games())      # a new $LEYLINE_HOME: nothing saved yet
    []"""
    folder = games_folder()
    try:
        paths = [p for p in folder.iterdir()
                 if p.is_file() and not p.name.startswith(".")
                 and (p.name.endswith(JOURNAL) or p.name.endswith(FINISHED))]
    except OSError:
        return []  # no folder yet: nothing saved
    games = [_entry(p) for p in paths]
    games.sort(key=lambda g: (g.when, g.id), reverse=True)
    return games
