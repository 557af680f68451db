"""What a player has seen of the grid, and the collections they could have made from it.

Leyline is a memory game: every card is glimpsed when it reaches the grid, then lies inert.
:class:`Memory` folds the events one player was shown (reveals, activations, swaps, collections)
into what that player can know about each grid slot. :func:`memory_report` is the teacher's view
built on it: for each slot, the card there now, whether the player has seen that very card and
when, and the turns on which they knew enough to collect an element but did not.

Knowledge comes only from :func:`~leyline_widget.core.game.visible_events` for the player plus
public state (tokens, Studies, phase), so re-dealing cards the player never saw changes nothing here
but the teacher's ``card`` column.

>>> from leyline_widget import Game, Activate
>>> game = Game.new(players=2, seed=7)
>>> report = memory_report(game, player=1)
>>> report["slots"][0]["seen"], report["slots"][0]["how"], report["never_seen"]
(True, 'setup', [])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..core.echo import quote
from ..core.game import Game, Phase, visible_events
from ..core.knowledge import Knowledge, Sighting
from ..core.rules import Rules
from ..core.types import Event

__all__ = ["Memory", "Sighting", "best_collection", "memory_report", "memory_reports",
           "start_of"]


class Memory:
    """One player's knowledge of each grid slot, with when and how each card was seen.

    The core's :class:`~leyline_widget.core.knowledge.Knowledge` fold, fed the events the
    player was shown (private reveals to others are hidden first), over a grid of
    ``grid_size`` slots.

    >>> m = Memory(4, player=0, known={1: "water"})
    >>> m.observe([{"type": "swap", "slots": [1, 3]}], step=1, turn=1)
    >>> m.remembered()
    [None, None, None, 'water']
    >>> m.observe([{"type": "reveal", "slot": 0, "element": "fire", "cause": "whisper",
    ...             "visible_to": [1]}], step=2, turn=2)
    >>> m.element(0) is None   # player 1's peek shows player 0 nothing
    True
    """

    __slots__ = ("_know", "_size")

    def __init__(self, grid_size: int, player: int, known: Mapping[int, str] | None = None,
                 *, turn: int = 1) -> None:
        self._size = grid_size
        self._know = Knowledge(player, known, sightings=True, turn=turn)

    @property
    def player(self) -> int:
        return self._know.seat

    def copy(self) -> Memory:
        new = Memory.__new__(Memory)
        new._size, new._know = self._size, self._know.copy()
        return new

    def observe(self, events: Iterable[Event], step: int, turn: int) -> None:
        """Fold in the events of one step; private reveals to others are hidden first."""
        self._know.observe(visible_events(list(events), self._know.seat), step, turn)

    def sighting(self, slot: int) -> Sighting | None:
        return self._know.sighting(slot)

    def element(self, slot: int) -> str | None:
        """The element the player knows is in ``slot``, or None if they never saw that card."""
        return self._know.element(slot)

    def remembered(self) -> list[str | None]:
        """The known element of every slot (None where the card was never seen)."""
        known = self._know.known
        return [known.get(s) for s in range(self._size)]


class _Replayable(Protocol):
    def game_at(self, i: int) -> Game: ...

    def __len__(self) -> int: ...


def start_of(game: Game) -> Game:
    """A fresh game at ``game``'s starting position (its set-up), without history."""
    start = game.start_position
    if start is not None:
        return Game.from_position(start)
    return Game.new(players=list(game.players), rules=game.rules, deck=game.initial_deck)


def _options(obs: Mapping[str, Any], memory: Memory, player: int) -> dict[str, list[int]]:
    """For each element, the cards the player knows they may activate this Phase 2.

    Active cards count too (deactivating refunds them). Uses only the player's own observation
    (public state) and their memory.
    """
    study = obs["players"][player]["study"]
    free = "sanctuary" in obs["effects"]
    out: dict[str, list[int]] = {}
    for s, cell in enumerate(obs["grid"]):
        if cell["card"] == "active":
            out.setdefault(cell["element"], []).append(s)
        elif cell["card"] == "inert":
            el = memory.element(s)
            if el is not None and (free or all(study.get(t, 0) >= k
                                               for t, k in cell["tokens"].items())):
                out.setdefault(el, []).append(s)
    return out


def best_collection(options: Mapping[str, Sequence[int]], need: int,
                    limit: int) -> tuple[int, dict[str, int]]:
    """The most cards one Phase 2 can collect: ``limit`` activations, ``need`` of an element.

    >>> best_collection({"fire": [0, 1, 2, 3], "water": [4, 5]}, need=2, limit=3)
    (3, {'fire': 3})
    >>> best_collection({"fire": [0, 1], "water": [4, 5]}, need=2, limit=4)
    (4, {'fire': 2, 'water': 2})
    """
    plans: dict[int, dict[str, int]] = {0: {}}  # activations used -> best plan
    for el, slots in options.items():
        for used, plan in list(plans.items()):
            for k in range(need, min(len(slots), limit - used) + 1):
                cand = {**plan, el: k}
                old = plans.get(used + k)
                if old is None or sum(cand.values()) > sum(old.values()):
                    plans[used + k] = cand
    plan = max(plans.values(), key=lambda p: sum(p.values()))
    return sum(plan.values()), plan


def memory_report(source: Game | _Replayable, player: int, upto_step: int | None = None, *,
                  known: Mapping[int, str] | None = None, truth: bool = True) -> dict[str, Any]:
    """The teacher's view of ``player``'s memory, as a JSON-safe dict.

    ``source`` is a live :class:`Game` or a replay (anything with ``game_at(i)`` and ``len``);
    ``upto_step`` looks at the game after that many actions (default: all). ``known`` gives the
    cards the player knows from the start (a scenario's seen cards). With ``truth=False`` the
    report leaves out the hidden truth (each slot's ``card``), so it depends only on what the
    player saw.

    The result has ``slots`` (one entry per grid slot: ``card``, ``state``, ``seen``,
    ``remembered``, ``seen_step``, ``seen_turn``, ``how``, ``turns_ago``), ``seen`` and
    ``never_seen`` (slot lists, cards only), ``missed`` and ``summary``.

    ``missed`` has one entry per Phase 2 of the player in which they collected fewer cards than
    they could have from what they knew (cards they remembered and were allowed to activate under
    the Binding tokens, Sanctuary and Wildfire of that moment, within their activations):
    ``turn``, ``step`` (when that chance was best), ``best`` and ``plan`` (``{element: cards}``),
    ``options`` (the known slots of each planned element), ``collected`` (``{element: cards}``),
    ``got``, and ``elements`` (planned elements they did not collect at all).

    >>> game = Game.new(players=["Ada"], seed=1)
    >>> memory_report(game, 0)["summary"]      # the deal shows every grid card once
    {'cards': 12, 'seen': 12, 'never_seen': 0, 'missed': 0}
    """
    if isinstance(source, Game):
        game = source
    elif hasattr(source, "game_at"):
        end = len(source) if upto_step is None else upto_step
        if isinstance(end, bool) or not isinstance(end, int) or not 0 <= end <= len(source):
            raise ValueError(f"upto_step must be from 0 to {len(source)}, got {quote(upto_step)}")
        game = source.game_at(end)
    else:
        raise ValueError(f"memory_report needs a Game or a Replay, got {type(source).__name__}")
    n = len(game.players)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be from 0 to {n - 1}, got {quote(player)}")
    actions = game.actions
    upto = len(actions) if upto_step is None else upto_step
    if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(actions):
        raise ValueError(f"upto_step must be from 0 to {len(actions)}, got {quote(upto_step)}")
    rules: Rules = game.rules
    size = rules.grid_size
    for slot, el in (known or {}).items():
        if not 0 <= slot < size or el not in rules.elements:
            raise ValueError(f"known: slot {quote(slot)} / element {quote(el)} is not on this grid")
    return next(_fold(game, player, upto, known, truth, upto))


def memory_reports(game: Game, player: int, *, first: int = 0,
                   known: Mapping[int, str] | None = None,
                   truth: bool = True) -> Iterator[dict[str, Any]]:
    """:func:`memory_report` of ``player`` at every step of ``game``'s history from ``first``
    to its end, in one walk: the memory is folded step by step, so the whole run costs about
    what one report at the end costs (the teacher's memory panel of a replay page).

    >>> from leyline_widget import Game
    >>> game = Game.new(players=2, seed=7)
    >>> for _ in range(5):
    ...     _ = game.apply(game.legal_actions()[0])
    >>> reports = list(memory_reports(game, 1))
    >>> len(reports), reports[3] == memory_report(game, 1, upto_step=3)
    (6, True)
    """
    n = len(game.players)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be from 0 to {n - 1}, got {quote(player)}")
    end = game.step
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first <= end:
        raise ValueError(f"first must be from 0 to {end}, got {quote(first)}")
    size = game.rules.grid_size
    for slot, el in (known or {}).items():
        if not 0 <= slot < size or el not in game.rules.elements:
            raise ValueError(f"known: slot {quote(slot)} / element {quote(el)} is not on this grid")
    return _fold(game, player, end, known, truth, first)


def _fold(game: Game, player: int, upto: int, known: Mapping[int, str] | None, truth: bool,
          first: int) -> Iterator[dict[str, Any]]:
    """The reports at steps ``first`` to ``upto`` of one walk through ``game``'s history."""
    actions = game.actions
    log = game.event_log
    size = game.rules.grid_size
    walk = start_of(game)
    memory = Memory(size, player, known, turn=walk.turn)
    memory.observe(log[0], 0, walk.turn)
    missed: list[dict[str, Any]] = []
    chance: dict[str, Any] | None = None  # the best collection known this Phase 2
    if first == 0:
        yield _report(game, walk, memory, missed, player, 0, truth)
    for i in range(1, upto + 1):
        mine = walk.active_player == player and walk.phase is Phase.ACTIVATION
        if mine:
            obs = walk.observation(player)
            options = _options(obs, memory, player)
            best, plan = best_collection(options, obs["collect_threshold"],
                                         obs["activations"]["limit"])
            if best and (chance is None or best > chance["best"]):
                chance = {"turn": walk.turn, "step": i - 1, "best": best, "plan": plan,
                          "options": {el: options[el] for el in plan}}
        turn = walk.turn
        walk.apply(actions[i - 1])
        memory.observe(log[i], i, turn)
        if mine and walk.phase is not Phase.ACTIVATION:
            got: dict[str, int] = {}
            for ev in log[i]:
                if ev["type"] == "collect" and ev["player"] == player:
                    got[ev["element"]] = got.get(ev["element"], 0) + ev["count"]
            if chance is not None and sum(got.values()) < chance["best"]:
                missed.append({**chance, "collected": got, "got": sum(got.values()),
                               "elements": [el for el in chance["plan"] if el not in got]})
            chance = None
        if i >= first:
            yield _report(game, walk, memory, missed, player, i, truth)


def _report(game: Game, walk: Game, memory: Memory, missed: list[dict[str, Any]], player: int,
            upto: int, truth: bool) -> dict[str, Any]:
    obs = walk.observation(player)
    now = walk.turn
    slots_out: list[dict[str, Any]] = []
    for s, cell in enumerate(obs["grid"]):
        seen = memory.sighting(s) if cell["card"] != "empty" else None
        entry: dict[str, Any] = {"slot": s, "state": cell["card"], "tokens": cell["tokens"]}
        if truth:
            entry["card"] = walk.card(s)
        entry.update({
            "seen": seen is not None,
            "remembered": None if seen is None else seen.element,
            "seen_step": None if seen is None else seen.step,
            "seen_turn": None if seen is None else seen.turn,
            "how": None if seen is None else seen.how,
            "turns_ago": None if seen is None else now - seen.turn,
        })
        slots_out.append(entry)
    cards = [e for e in slots_out if e["state"] != "empty"]
    return {
        "player": player,
        "name": game.players[player],
        "step": upto,
        "turn": now,
        "slots": slots_out,
        "seen": [e["slot"] for e in cards if e["seen"]],
        "never_seen": [e["slot"] for e in cards if not e["seen"]],
        "missed": list(missed),
        "summary": {"cards": len(cards), "seen": sum(e["seen"] for e in cards),
                    "never_seen": sum(not e["seen"] for e in cards), "missed": len(missed)},
    }
