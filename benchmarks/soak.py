"""Soak and fuzz the widgets as a page drives them: ``python -m benchmarks soak [N [FIRST]]``.

Plays N random games (1 to 4 seats; the default rules and a power-heavy variant; bot seats and
hot-seat humans; every viewer kind) through :class:`LeylineWidget` and :class:`ReplayWidget`,
only by ``send_message`` and ``set_state`` as the page would, and after every message scans
every synced trait for the element of a card its viewer may not see:

- ``view``: an inert card's element is null for every viewer but the teacher;
- ``events`` (and each step's events in a replay's ``line``): an event that names an element
  with a ``visible_to`` list not holding the viewer is a leak;
- ``legal``: a refusal reason for an inert card names its element only when one of the card's
  (public) tokens has it;
- ``memory``: empty for every viewer but the teacher.

Some games are shown by a second widget on the same Game (the teacher's view, or another
seat's board), which must stay in step (its view and step the game's after every message);
some lose their kernel mid-game (the widgets forgotten, as by a restart) and go on from
``LeylineWidget.resume()``, which must give the same step, view, legal moves and viewer; every
game that autosaves must end as a replay file with the game's moves.

Each game also replays every junk-message family of issue 14 (bools for numbers, floats for
seats, negative steps, bot steps without a bot, huge input, a tag with a trailing newline)
and checks each is refused with a short error and changes nothing; then round-trips the
replay through JSON and through both offline pages (the replay page and ``to_html``),
scanning the page's data for the same leaks. Prints the counts; exits 1 on any leak, junk
accepted or exception escaped.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from leyline_widget import Game, Replay, Rules, saved_games
from leyline_widget.core.types import Observation
from leyline_widget.widgets import together
from leyline_widget.widgets.book import replay_book, unstream
from leyline_widget.widgets.export import replay_html
from leyline_widget.widgets.play import LeylineWidget
from leyline_widget.widgets.replay import ReplayWidget

__all__ = ["main", "soak"]

POWER_HEAVY = Rules.default().replace(minor_threshold=1, major_threshold=2, collect_threshold=2)
BOTS = ("random", "greedy", "memory")
MAX_ERROR = 400  # a refusal that quotes input quotes at most about 80 characters of it


class Soak:
    def __init__(self) -> None:
        self.games = self.messages = self.scanned = 0
        self.leaks: list[str] = []
        self.accepted: list[str] = []
        self.escaped: list[str] = []
        self.resumed = self.views = 0
        self.differ: list[str] = []  # a second view out of step, or a resume that differs

    # -- scanning ------------------------------------------------------------------------
    def leak(self, where: str, what: str) -> None:
        self.leaks.append(f"{where}: {what}")

    def scan_events(self, where: str, events: Any, seat: int | None) -> None:
        if seat is None:
            return
        for ev in events:
            seen = ev.get("visible_to", "all")
            if ev.get("element") is not None and seen != "all" and seat not in seen:
                self.leak(where, f"event {ev} shows a private reveal to seat {seat}")

    def scan_view(self, where: str, view: dict[str, Any], seat: int | None) -> None:
        if seat is None:
            return
        for slot, cell in enumerate(view["grid"]):
            if cell["card"] == "inert" and cell["element"] is not None:
                self.leak(where, f"slot {slot} is inert but shows {cell['element']}")

    def scan_legal(self, where: str, legal: dict[str, Any], truth: Observation,
                   seat: int | None) -> None:
        if seat is None:
            return
        for slot, why in (legal.get("blocked") or {}).items():
            cell = truth["grid"][int(slot)]
            hidden = cell["element"]
            if cell["card"] == "inert" and hidden and hidden.lower() in why.lower() and not (
                    cell["tokens"].get(hidden)):
                self.leak(where, f"the reason for slot {slot} names its element: {why}")

    def scan_play(self, w: LeylineWidget, where: str) -> None:
        self.scanned += 1
        seat = w.seat()
        self.scan_view(where, w.view, seat)
        self.scan_events(where, w.events["items"], seat)
        self.scan_legal(where, w.legal, w.game.observation(None), seat)
        if seat is not None and w.memory:
            self.leak(where, "memory report shown to a player")
        if w.final_grid and not w.game.is_over:
            self.leak(where, "the final grid sent before the game is over")

    def scan_replay(self, r: ReplayWidget, where: str) -> None:
        self.scanned += 1
        seat = r.viewer
        self.scan_view(where, r.view, seat)
        for entry in r.line:
            self.scan_events(where, entry.get("events", []), seat)
        if seat is not None and r.memory:
            self.leak(where, "memory report shown to a player")
        truth = r.game.observation(None)
        if r.view["grid"] != [
                {**c, "element": c["element"] if seat is None or c["card"] != "inert" else None}
                for c in truth["grid"]]:
            self.leak(where, "the view is not the game at the shown step")

    # -- driving -------------------------------------------------------------------------
    def send(self, widget: Any, content: Any) -> None:
        self.messages += 1
        try:
            widget.send_message(content)
        except Exception as err:
            self.escaped.append(f"{type(err).__name__}: {str(err)[:200]} <- {str(content)[:80]}")

    def write(self, widget: Any, state: dict[str, Any]) -> None:
        self.messages += 1
        try:
            widget.set_state(state)
        except Exception as err:
            self.escaped.append(f"{type(err).__name__}: {str(err)[:200]} <- {str(state)[:80]}")

    def refused(self, widget: Any, where: str, junk: Any, write: bool) -> None:
        before = json.dumps({k: getattr(widget, k) for k in ("view", "legal", "viewer")},
                            sort_keys=True, default=str)
        widget.error = ""
        (self.write if write else self.send)(widget, junk)
        after = json.dumps({k: getattr(widget, k) for k in ("view", "legal", "viewer")},
                           sort_keys=True, default=str)
        label = f"{where} {'write' if write else 'message'} {str(junk)[:60]}"
        if not widget.error:
            self.accepted.append(f"{label}: no error")
        elif len(widget.error) > MAX_ERROR:
            self.accepted.append(f"{label}: a {len(widget.error)}-character error")
        if before != after:
            self.accepted.append(f"{label}: changed the widget")

    def junk_play(self, w: LeylineWidget, rng: random.Random, big: bool) -> None:
        step = w.game.step
        families: list[tuple[Any, bool]] = [
            ({"bot_delay_ms": True}, True), ({"bot_delay_ms": 1.0}, True),
            ({"bot_delay_ms": -5}, True), ({"show_memory_of": 1.0}, True),
            ({"show_memory_of": True}, True), ({"view": {}}, True),
            ({"type": "bot_step", "step": -1}, False), ({"type": "bot_step", "step": 10**100},
                                                         False),
            ({"type": "bot_step", "step": True}, False),
            ({"type": "action", "action": {"type": "activate", "slot": True}, "step": step},
             False),
            ({"type": "action", "action": {"type": "use_power", "element": "wind",
                                           "tier": "minor", "targets": [0] * 100}}, False),
            ({"type": "nonsense\n"}, False), (["not", "an", "object"], False),
        ]
        if big:
            families += [
                ({"type": "action", "action": {"type": "use_power", "element": "wind",
                                               "tier": "minor",
                                               "targets": list(range(10**6))}}, False),
                ({"type": "x" * 10**6}, False), ({"show_memory_of": "m" * 10**6}, True)]
        for junk, write in rng.sample(families, k=min(len(families), 5 + 10 * big)):
            self.refused(w, "play", junk, write)

    def junk_replay(self, r: ReplayWidget, rng: random.Random) -> None:
        families: list[tuple[Any, bool]] = [
            ({"viewer": True}, True), ({"viewer": 1.0}, True), ({"step": True}, True),
            ({"step": -5}, True), ({"step": 1.0}, True), ({"variation": False}, True),
            ({"show_memory_of": 0.0}, True), ({"step": 10**100}, True),
            ({"type": "annotate", "step": 0, "text": "x", "tags": ["spoiler\n"]}, False),
            ({"type": "annotate", "step": -1, "text": "x"}, False),
            ({"type": "remove_note", "step": 0, "variation": None, "index": True}, False),
            ({"type": "edit_note", "step": "0"}, False),
        ]
        for junk, write in rng.sample(families, k=6):
            self.refused(r, "replay", junk, write)

    def play_game(self, g: int, folder: Path) -> None:
        rng = random.Random(g)
        players = rng.randint(1, 4)
        rules = (Rules.default() if rng.random() < 0.5 else POWER_HEAVY).replace(
            turn_limit=rng.randint(2, 3 * players + 3))
        kinds = [rng.choice(BOTS) if rng.random() < 0.4 else None for _ in range(players)]
        humans = [p for p, k in enumerate(kinds) if k is None]
        if not humans:
            kinds[0], humans = None, [0]
        choices: list[int | str] = (["active", "teacher", humans[0]] if len(humans) == 1
                                    else ["active", "teacher"])
        viewer: int | str | None = rng.choice(choices)
        game = Game.new(players=[f"P{p}" for p in range(players)], seed=rng.randrange(2**32),
                        rules=rules)
        bots = {p: k for p, k in enumerate(kinds) if k is not None}
        # Some games lose their kernel at a step (and so autosave); some have a second view.
        lose_at = rng.randint(1, 60) if rng.random() < 0.3 else None
        home = folder / f"home-{g}"
        os.environ["LEYLINE_HOME"] = str(home)
        w = LeylineWidget(game, viewer="teacher" if viewer == "teacher" else viewer,
                          bots=bots, bot_seed=g, deal_ms=0,
                          show_memory_of=0 if viewer == "teacher" else None,
                          autosave=lose_at is not None)
        other: LeylineWidget | None = None
        if rng.random() < 0.3:
            eyes: list[int | str] = [*(p for p in humans if p != viewer), "teacher"]
            other = LeylineWidget(game, viewer=rng.choice(eyes), deal_ms=0)
            self.views += 1
        self.games += 1
        where = f"game {g} ({players}p, viewer {viewer})"
        self.scan_play(w, where)
        while not w.game.is_over:
            if lose_at is not None and w.game.step >= lose_at:
                w, other, lose_at = self.lose_kernel(w, other, f"{where} step {w.game.step}")
                continue
            if isinstance(w.handoff.get("to"), int):
                # Hot-seat: the board waits, hidden, until the next player takes the seat.
                self.send(w, {"type": "ready"})
                self.scan_play(w, f"{where} hand-off at step {w.game.step}")
                continue
            if w.legal.get("bot"):
                self.send(w if other is None or rng.random() < 0.5 else other,
                          {"type": "bot_step", "step": w.game.step})
            elif other is not None and other.legal.get("actor") is not None and (
                    rng.random() < 0.5):
                # The second board makes this move: the first must follow.
                action = rng.choice(w.game.legal_actions())
                self.send(other, {"type": "action", "action": action.to_dict(),
                                  "step": w.game.step})
                if other.error:
                    self.accepted.append(f"{where}: the second view refused a legal move: "
                                         f"{other.error}")
                    break
            else:
                action = rng.choice(w.game.legal_actions())
                self.send(w, {"type": "action", "action": action.to_dict(),
                              "step": w.game.step})
                if w.error:
                    self.accepted.append(f"{where}: a legal move was refused: {w.error}")
                    break
            self.scan_play(w, f"{where} step {w.game.step}")
            if other is not None:
                self.scan_play(other, f"{where} second view step {w.game.step}")
                self.in_step(w, other, f"{where} step {w.game.step}")
            if rng.random() < 0.05:
                self.junk_play(w, rng, big=False)
        self.junk_play(w, rng, big=g == 0)
        if (home / "games").exists():
            kept = saved_games()
            if [(s.finished, s.step) for s in kept] != [(True, w.game.step)] or (
                    kept[0].replay().actions != w.game.actions):
                self.differ.append(f"{where}: the finished game was not kept as its replay "
                                   f"({[(s.finished, s.step, s.error) for s in kept]})")
        # the offline play page holds exactly the widget's synced state
        page = w.to_html(folder / "play.html").read_text("utf-8")
        found = re.search(r'id="leyline-board-state">(.*?)</script>', page, re.S)
        state = json.loads(found.group(1)) if found else {}
        self.scan_view(f"{where} play page", state.get("view", {"grid": []}), w.seat())
        self.scan_events(f"{where} play page", state.get("events", {}).get("items", []),
                         w.seat())
        self.replay_game(Replay.from_game(w.game), rng, where, folder)

    def in_step(self, w: LeylineWidget, other: LeylineWidget, where: str) -> None:
        """A second view of the game shows the same step, through its own eyes."""
        game = w.game
        if other.game is not game or other.legal.get("step") != game.step or (
                other.view != game.observation(other.seat())):
            self.differ.append(f"{where}: the second view is out of step "
                               f"(step {other.legal.get('step')}, game {game.step})")

    def lose_kernel(self, w: LeylineWidget, other: LeylineWidget | None,
                    where: str) -> tuple[LeylineWidget, None, None]:
        """A kernel restart: every widget of this process is forgotten; then resume."""
        before = {"step": w.game.step, "hash": w.game.state_hash(), "view": w.view,
                  "legal": w.legal, "viewer": w.viewer, "info": w.info}
        for gone in (w, other):
            if gone is not None:
                gone.close()
        together._TABLES.clear()
        together._SAVES.clear()
        self.resumed += 1
        try:
            back = LeylineWidget.resume()
        except Exception as err:
            self.escaped.append(f"{where}: resume failed: {type(err).__name__}: {err}"[:300])
            raise
        after = {"step": back.game.step, "hash": back.game.state_hash(), "view": back.view,
                 "legal": back.legal, "viewer": back.viewer, "info": back.info}
        for key, value in before.items():
            if after[key] != value:
                self.differ.append(f"{where}: the resumed game's {key} differs")
        if back.events["items"]:
            self.differ.append(f"{where}: the resumed board shows the last reveals again")
        self.scan_play(back, f"{where} resumed")
        return back, None, None

    def replay_game(self, replay: Replay, rng: random.Random, where: str, folder: Path) -> None:
        text = replay.to_json()
        back = Replay.from_json(text)
        if back.to_json() != text:
            self.leak(where, "the replay JSON does not round-trip")
        n = len(replay.players)
        seat = rng.randrange(n)
        r = ReplayWidget(back, viewer=seat, allow_all_seeing=rng.random() < 0.5)
        self.scan_replay(r, f"{where} replay")
        for _ in range(rng.randint(3, 8)):
            choice = rng.random()
            if choice < 0.6:
                self.write(r, {"step": rng.randint(0, len(back))})
            elif choice < 0.8:
                self.write(r, {"viewer": rng.choice(r.viewers)})
            else:
                self.send(r, {"type": "annotate", "step": r.step, "text": "soak",
                              "tags": ["spoiler"]})
            self.scan_replay(r, f"{where} replay step {r.step} viewer {r.viewer}")
        self.junk_replay(r, rng)
        # the offline replay page: its book is exactly replay_book's, and a player's book
        # holds only that player's views
        page = replay_html(back, folder / "replay.html", seat).read_text("utf-8")
        found = re.search(r'id="leyline-replay-book">(.*?)</script>', page, re.S)
        book = json.loads(found.group(1)) if found else None
        if book != json.loads(json.dumps(replay_book(back, seat))):
            self.leak(where, "the replay page's book is not replay_book's")
        elif book is not None:
            if set(book["frames"]) != {str(seat)}:
                self.leak(where, f"a page for seat {seat} holds views {sorted(book['frames'])}")
            for frames in book["frames"][str(seat)].values():
                for view in unstream(frames):
                    self.scan_view(f"{where} replay page", view, seat)
        self.scanned += 1


def soak(games: int, first: int = 0) -> Soak:
    """Play ``games`` soak games, numbered from ``first`` (each game's number is its seed);
    returns the tally (see the module docstring)."""
    tally = Soak()
    home = os.environ.get("LEYLINE_HOME")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for g in range(first, first + games):
                try:
                    tally.play_game(g, Path(tmp))
                except Exception as err:
                    tally.escaped.append(f"game {g}: {type(err).__name__}: {str(err)[:300]}")
        finally:  # the soak's saved games were in its temporary folder, never the user's
            if home is None:
                os.environ.pop("LEYLINE_HOME", None)
            else:
                os.environ["LEYLINE_HOME"] = home
    return tally


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 300
    first = int(args[1]) if len(args) > 1 else 0  # soak N FIRST: games FIRST .. FIRST+N-1
    start = time.perf_counter()
    t = soak(games, first)
    took = time.perf_counter() - start
    print(f"soak: {t.games} games, {t.messages} messages, {t.scanned} states scanned, "
          f"{len(t.leaks)} leaks found, {len(t.accepted)} junk accepted, "
          f"{len(t.escaped)} exceptions escaped; {t.resumed} kernels lost and resumed, "
          f"{t.views} games with a second view, {len(t.differ)} out of step ({took:.1f} s)")
    for problem in (t.leaks + t.accepted + t.escaped + t.differ)[:20]:
        print("  ", problem)
    return 1 if t.leaks or t.accepted or t.escaped or t.differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
