"""The Leyline referee: the position, legal actions, transitions and per-player views.

The engine is the functional core: it knows nothing of widgets. A :class:`Game` is a
position (:class:`~leyline_widget.core.position.Position`) with its rules, players and
history; :meth:`Game.clone` gives an independent copy.

>>> game = Game.new(players=2, seed=7)
>>> game.phase, game.turn, game.active_player
(<Phase.ACTIVATION: 'activation'>, 1, 0)
>>> events = game.apply(Activate(0))
>>> events[0]["type"], game.observation(1)["grid"][0]["card"]
('activate', 'active')
>>> game.apply(Activate(0))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
leyline_widget.core.game.IllegalActionError: slot 0 is already activated; ...
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import StrEnum
from itertools import compress
from typing import Any, NoReturn, TypeAlias, TypeVar

from .actions import (
    SOURCES,
    Action,
    Activate,
    Deactivate,
    EndPhase,
    PlaceToken,
    Refill,
    UsePower,
    listed,
)
from .digest import count_bytes, counts, deck_digest, digest, digest_key, digest_v1, keyed
from .echo import quote
from .position import Position
from .resolve import RESOLVE
from .rules import MAX_GRID, MAX_PLAYERS, Power, Rules, check_deck, deal_order, player_names
from .types import Cell, Event, Observation, PlayerView
from .view import ONLOOKER, SeatView, visible_events

__all__ = [
    "END_REASONS",
    "MAX_PLAYERS",
    "ONLOOKER",
    "Game",
    "IllegalActionError",
    "Phase",
    "check_deck",
    "parse_action",
    "player_names",
    "visible_events",
]

#: Why a game ended (``end_reason``): the deck ran out, nobody can ever collect again, too many
#: idle rounds, or the turn or round limit (RULES.md, interpretations 6, 8 and 9).
END_REASONS = ("deck", "stalemate", "idle", "turn_limit", "round_limit")


_A = TypeVar("_A", bound=Action)


class Phase(StrEnum):
    """The phase of the turn; the value is what observations carry.

    >>> Phase.ACTIVATION.value, Phase("binding")
    ('activation', <Phase.BINDING: 'binding'>)
    """

    ABILITIES = "abilities"
    ACTIVATION = "activation"
    REFILL = "refill"
    BINDING = "binding"
    GAME_OVER = "game_over"


#: The phases of a turn, in order, and the game's end.
ABILITIES, ACTIVATION, REFILL, BINDING, GAME_OVER = Phase


class IllegalActionError(ValueError):
    """An action the rules forbid now. ``rule`` names the rule; the state is unchanged.

    >>> from leyline_widget import Refill
    >>> game = Game.new(players=["Ada"], seed=1)
    >>> try:
    ...     game.apply(Refill(0))
    ... except IllegalActionError as err:
    ...     print(f"{err.rule}: {err}")
    turn structure: empty slots are refilled in the refill phase; it is now the activation phase
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


_END_PHASE = EndPhase()
#: The slot actions of every grid slot the rules allow, made once: actions are values.
_ACTIVATE = tuple(Activate(s) for s in range(MAX_GRID))
_DEACTIVATE = tuple(Deactivate(s) for s in range(MAX_GRID))
_REFILL = tuple(Refill(s) for s in range(MAX_GRID))


def _a(word: str) -> str:
    """``word`` with its indefinite article: "an earth", "a fire"."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: One step of a game's history: (its action, None for set-up; its events; the record before;
#: its step number; the number of the latest step up to it that made a private event, one
#: seen by some seats only, or -1). Records never change, so clones and replay snapshots share
#: them.
_Record: TypeAlias = "tuple[Action | None, list[Event], _Record | None, int, int]"
#: A position kept by :meth:`Game.freeze` to :meth:`Game.thaw` later: the game it was kept
#: from (whose rules and players it shares), its newest history record then (records never
#: change) and the position's values (:meth:`Position.frozen`).
Frozen: TypeAlias = "tuple[Game, _Record, tuple[Any, ...]]"


def _origin(events: list[Event]) -> _Record:
    return (None, events, None, 0, -1)  # set-up reveals are public


def _private(events: list[Event]) -> bool:
    """Whether one of ``events`` is seen by some seats only."""
    return any(ev.get("visible_to", "all") != "all" for ev in events)


def _chain(last: _Record, first: int) -> list[_Record]:
    """The records from step ``first`` to ``last``, oldest first."""
    out: list[_Record] = []
    r: _Record | None = last
    while r is not None and r[3] >= first:
        out.append(r)
        r = r[2]
    out.reverse()
    return out


class Game:
    """One game of Leyline: the position, whose turn it is, and how it got here.

    >>> from leyline_widget import Activate
    >>> game = Game.new(players=["Ada", "Grace"], seed=7)
    >>> game.phase, game.turn, game.active_player
    (<Phase.ACTIVATION: 'activation'>, 1, 0)
    >>> game.legal_actions()[:3]
    [Activate(slot=0), Activate(slot=1), Activate(slot=2)]
    >>> game.apply(Activate(3))
    [{'type': 'activate', 'player': 0, 'slot': 3, 'element': 'water'}]
    >>> game.observation(1)["grid"][3]["element"]    # face up now: Grace sees it too
    'water'
    """

    __slots__ = ("rules", "players", "seed", "_initial_deck", "_start", "_pos", "_last", "_e",
                 "_eidx", "_pidx", "_needs", "_hkey")

    rules: Rules
    players: tuple[str, ...]
    seed: int | None
    _initial_deck: tuple[str, ...]
    _start: dict[str, Any] | None  # the position a game from a position began at
    _pos: Position
    _last: _Record                 # the newest record of the history
    _e: int                        # the rules' element count
    _eidx: dict[str, int]          # element -> its index in the rules
    _pidx: dict[tuple[str, str], int]  # (element, tier) -> the power's index in the rules
    _needs: tuple[tuple[int, int, int], ...]  # per power: index, element index, cards to unlock
    _hkey: bytes                   # the state hash's key (see _from)

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, players: int | Sequence[str] = 1, seed: int | None = None,
            rules: Rules | None = None, deck: Sequence[str] | None = None) -> Game:
        """Deal a new game.

        ``players`` is a count (1 to 4) or a list of names; ``deck`` an explicit order, top
        first, which must hold exactly the rules' cards; otherwise the deck is shuffled from
        ``seed`` (a random seed is drawn and kept in ``game.seed`` when none is given).
        """
        rules = Rules.default() if rules is None else rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
        names = player_names(players)
        els = rules.elements
        if deck is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**32)
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise ValueError(f"seed must be an integer, got {quote(seed)}")
            order = deal_order(seed, len(els), rules.cards_per_element)
        else:
            index = {el: i for i, el in enumerate(els)}
            order = [index[el] for el in check_deck(rules, deck)]
        e, size, n = len(els), rules.grid_size, len(names)
        everyone = (1 << n) - 1
        # Set-up: the grid is filled from the deck top in slot order, each card shown to all.
        pos = Position(
            bytes(order), size, order[:size], [], [0] * (size * e), [0] * (n * e), [0] * (n * e),
            [0] * (n * e), [rules.tokens_per_element] * e, [0] * e, ACTIVATION, 1, 0, 0,
            None, False, 0, 0, (0,) * (n * len(rules.powers)), 0, None, [everyone] * size)
        game = cls._from(rules, names, seed, tuple([els[c] for c in order]), pos)
        events: list[Event] = [
            {"type": "reveal", "slot": slot, "element": els[c], "cause": "setup",
             "visible_to": "all"} for slot, c in enumerate(order[:size])]
        if game._stalemate():
            game._game_over("stalemate", events, turns=0)  # no turn was played
        else:
            game._begin_turn(events)
        game._last = _origin(events)
        return game

    @classmethod
    def _from(cls, rules: Rules, players: tuple[str, ...], seed: int | None,
              initial_deck: tuple[str, ...], pos: Position,
              last: _Record | None = None, start: dict[str, Any] | None = None) -> Game:
        """A game of ``rules`` and ``players`` at ``pos`` (taken as it is, not copied)."""
        g = cls.__new__(cls)
        g.rules, g.players, g.seed, g._initial_deck = rules, players, seed, initial_deck
        g._start = start
        g._pos = pos
        g._last = _origin([]) if last is None else last
        g._e = len(rules.elements)
        g._eidx = {el: i for i, el in enumerate(rules.elements)}
        g._pidx = {(pw.element, pw.tier): i for i, pw in enumerate(rules.powers)}
        g._needs = tuple([(i, g._eidx[pw.element], rules.threshold(pw.tier))
                          for i, pw in enumerate(rules.powers)])
        g._hkey = digest_key(rules, players)
        return g

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> Phase:
        """The phase being played (GAME_OVER once the game is over)."""
        return self._pos.phase

    @property
    def active_player(self) -> int:
        """The seat to move."""
        return self._pos.player

    @property
    def turn(self) -> int:
        """The turn number, 1-based."""
        return self._pos.turn

    @property
    def is_over(self) -> bool:
        """Whether the game is over (its phase is GAME_OVER)."""
        return self._pos.phase is GAME_OVER

    @property
    def end_reason(self) -> str | None:
        """One of :data:`END_REASONS` once the game is over, else None."""
        return self._pos.end_reason

    @property
    def initial_deck(self) -> tuple[str, ...]:
        """The deck as dealt, top first (the grid took the first cards)."""
        return self._initial_deck

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since set-up, in order."""
        return tuple(r[0] for r in _chain(self._last, 1) if r[0] is not None)

    def actions_since(self, step: int) -> list[Action]:
        """The actions applied after the first ``step`` ones (cost: the steps asked for)."""
        return [r[0] for r in _chain(self._last, step + 1) if r[0] is not None]

    @property
    def step(self) -> int:
        """How many actions have been applied since set-up."""
        return self._last[3]

    def events_since(self, step: int) -> list[Event]:
        """The events of every step from ``step`` on (0 includes set-up), in order, all-seeing.

        Filter them with :func:`visible_events` before they reach a player. The cost grows
        with the steps asked for, not with the game's length.
        """
        return [ev for r in _chain(self._last, step) for ev in r[1]]

    def visible_events_since(self, step: int, viewer: int | None) -> list[Event]:
        """``visible_events(self.events_since(step), viewer)``: the steps whose events some
        seats may not see are filtered, the others taken as they are."""
        return [ev for r in _chain(self._last, step)
                for ev in (visible_events(r[1], viewer) if r[4] == r[3] else r[1])]

    @property
    def event_log(self) -> tuple[tuple[Event, ...], ...]:
        """Events per step: entry 0 is set-up, entry i the events of action i."""
        return tuple(tuple(r[1]) for r in _chain(self._last, 0))

    @property
    def deck(self) -> tuple[str, ...]:
        """The cards left in the deck, top first (all-seeing: only the top is public)."""
        els = self.rules.elements
        return tuple(els[c] for c in self._pos.deck[self._pos.deck_pos:])

    @property
    def deck_top(self) -> str | None:
        """The face-up top card of the deck (public), or None when the deck is empty."""
        pos = self._pos
        return self.rules.elements[pos.deck[pos.deck_pos]] if pos.deck_pos < len(pos.deck) \
            else None

    def turn_state(self) -> tuple[int, int, Phase, int, str | None]:
        """``(active_player, step, phase, turn, deck_top)``, all public, in one call."""
        return self._pos.player, self.step, self._pos.phase, self._pos.turn, self.deck_top

    def seat_view(self, seat: int) -> SeatView:
        """What ``seat`` knows now with perfect memory (see :class:`~.view.SeatView`).

        >>> Game.new(players=2, seed=1).seat_view(1).known[0] in Rules.default().elements
        True
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(
                self.players):
            raise ValueError(f"seat must be a player from 0 to {len(self.players) - 1}, "
                             f"got {quote(seat)}")
        return SeatView(self, seat)

    def card(self, slot: int) -> str | None:
        """The element of the card in ``slot`` (all-seeing), or None for an empty slot."""
        c = self._pos.grid[slot]
        return None if c < 0 else self.rules.elements[c]

    def study(self, player: int) -> dict[str, int]:
        """``player``'s Study: element -> cards."""
        e = self._e
        return dict(zip(self.rules.elements, self._pos.study[player * e:(player + 1) * e]))

    def scores(self) -> list[int]:
        """Cards in each player's Study (Spent markers do not score)."""
        e, study = self._e, self._pos.study
        return [sum(study[p * e:(p + 1) * e]) for p in range(len(self.players))]

    def winners(self) -> list[int]:
        """The players with the top score once the game is over (ties share); [] before."""
        if not self.is_over:
            return []
        scores = self.scores()
        top = max(scores)
        return [p for p, s in enumerate(scores) if s == top]

    def activations_left(self) -> int:
        """Activations the active player may still make this turn."""
        pos = self._pos
        return self.rules.activations_per_turn + pos.bonus - len(pos.active) - pos.spent

    def major_uses(self, player: int) -> dict[str, int]:
        """How often ``player`` has used each power this game, by power key (``fire:major``)."""
        k = len(self.rules.powers)
        majors = self._pos.majors
        return {pw.key: majors[player * k + i] for i, pw in enumerate(self.rules.powers)
                if majors[player * k + i]}

    def unlocked(self, player: int) -> list[Power]:
        """The powers ``player``'s Study unlocks now."""
        powers = self.rules.powers
        return [powers[i] for i in self._unlocked(player)]

    def _unlocked(self, player: int) -> list[int]:
        """The powers (by index) whose element ``player``'s Study holds enough cards of (2 for
        a Minor power, 5 for a Major one by default)."""
        study, base = self._pos.study, player * self._e
        return [i for i, element, need in self._needs if study[base + element] >= need]

    # ------------------------------------------------------------------ which powers now
    def power_problem(self, power: int | str, player: int | None = None, *,
                      this_turn: bool = True, target: bool = True) -> str | None:
        """Why ``player`` (the active one by default) cannot use ``power`` (its index in the
        rules' powers, or its key ``"water:minor"``), in words; None when they can.

        This is the one answer to "which powers can be used": the legal lists, Phase 1's
        skipping, the stalemate test, the bots and the page all ask it. A power is usable when
        the Study unlocks it and a Major power's uses this game are not spent; ``this_turn``
        also asks that it was not used this turn, and ``target`` that it has a legal target
        now. (Whether it is Phase 1 is the phase's question, not the power's.)

        >>> game = Game.new(players=2, seed=7)
        >>> game.power_problem("fire:minor")
        'Spark unlocks at 2 fire in your Study, and you have 0'
        """
        powers = self.rules.powers
        if isinstance(power, str):
            keys = [pw.key for pw in powers]
            if power not in keys:
                raise ValueError(f"no power {quote(power)} in these rules")
            power = keys.index(power)
        p = self._pos.player if player is None else player
        problem = self._problem(power, p, this_turn)
        if problem is None and target and not powers[power].effect.has_targets(
                *self._target_counts()):
            return f"{powers[power].name} has no legal target now"
        return problem

    def ready_powers(self, player: int | None = None) -> list[Power]:
        """The powers ``player`` (the active one by default) can use now, in the rules'
        order: unlocked, unused this turn, not used up for the game, with a target (what
        :meth:`power_problem` finds no problem with)."""
        powers = self.rules.powers
        return [powers[i] for i in self._ready(self._pos.player if player is None else player)]

    def _ready(self, player: int) -> tuple[int, ...]:
        """:meth:`ready_powers` by index."""
        found = self._usable(player, True)
        if not found:
            return ()
        powers = self.rules.powers
        cards, bound, deck = self._target_counts()  # the same grid for every power
        return tuple([i for i in found if powers[i].effect.has_targets(cards, bound, deck)])

    def _usable(self, player: int, this_turn: bool) -> list[int]:
        """The powers (by index) ``player`` may use, targets aside: unlocked, not used up for
        the game (a house rule's cap on a Major power's uses) and, with ``this_turn``, not
        used this turn."""
        found = self._unlocked(player)
        pos = self._pos
        if found and this_turn and pos.used:
            found = [i for i in found if not pos.used >> i & 1]
        cap = self.rules.major_uses_per_game
        if found and cap is not None:
            powers, k = self.rules.powers, len(self.rules.powers)
            found = [i for i in found
                     if powers[i].tier != "major" or pos.majors[player * k + i] < cap]
        return found

    def _problem(self, index: int, player: int, this_turn: bool) -> str | None:
        """:meth:`power_problem` but for the targets: why :meth:`_usable` leaves the power
        out, in words."""
        if index in self._usable(player, this_turn):
            return None
        pos, pw = self._pos, self.rules.powers[index]
        if index not in self._unlocked(player):
            _, element, need = self._needs[index]
            have = pos.study[player * self._e + element]
            return f"{pw.name} unlocks at {need} {pw.element} in your Study, and you have {have}"
        if this_turn and pos.used >> index & 1:
            return f"{pw.name} was already used this turn"
        cap = self.rules.major_uses_per_game
        return (f"{pw.name} was already used {_plural(cap or 0, 'time')} this game, as often as "
                "this house rule allows a Major power")

    def _target_counts(self) -> tuple[int, int, bool]:
        """Cards on the grid, cards carrying Binding tokens, and whether the deck has a top."""
        pos = self._pos
        return (len(pos.grid) - pos.grid.count(-1), len(self._bound()),
                pos.deck_pos < len(pos.deck))

    def _bound(self) -> set[int]:
        """The slots whose card carries at least one Binding token (tokens lie only on cards)."""
        tokens, e = self._pos.tokens, self._e
        if not any(tokens):  # (most often no card carries any)
            return set()
        return {i // e for i in compress(range(len(tokens)), tokens)}

    def _threshold(self) -> int:
        threshold = self._pos.threshold
        return self.rules.collect_threshold if threshold is None else threshold

    # ------------------------------------------------------------------ views
    def observation(self, viewer: int | None = None) -> Observation:
        """The position as ``viewer`` sees it (JSON-safe); ``None`` is the all-seeing view.

        Inert cards carry ``element: None`` for every player viewer: what a player glimpsed
        reaches them as events, never as state.
        """
        if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                                   or not 0 <= viewer < len(self.players)):
            raise ValueError(f"viewer must be None or a player from 0 to "
                             f"{len(self.players) - 1}, got {quote(viewer)}")
        els = self.rules.elements
        e = self._e
        pos = self._pos
        grid: list[Cell] = []
        for slot, c in enumerate(pos.grid):
            here = pos.tokens[slot * e:(slot + 1) * e]
            tokens = {els[i]: t for i, t in enumerate(here) if t}
            if c < 0:
                grid.append({"card": "empty", "element": None, "tokens": tokens})
            elif slot in pos.active:
                grid.append({"card": "active", "element": els[c], "tokens": tokens})
            else:
                grid.append({"card": "inert", "element": els[c] if viewer is None else None,
                             "tokens": tokens})
        players: list[PlayerView] = []
        scores = self.scores()
        for p, name in enumerate(self.players):
            lo, hi = p * e, (p + 1) * e
            players.append({
                "name": name,
                "study": dict(zip(els, pos.study[lo:hi])),
                "markers": dict(zip(els, pos.markers[lo:hi])),
                "marker_tokens": dict(zip(els, pos.marker_tokens[lo:hi])),
                "score": scores[p],
                "unlocked": [pw.key for pw in self.unlocked(p)],
            })
        over = pos.phase is GAME_OVER
        return {
            "viewer": viewer,
            "phase": str(pos.phase),
            "turn": pos.turn,
            "active_player": pos.player,
            "elements": list(els),
            "grid_rows": self.rules.grid_rows,
            "grid_cols": self.rules.grid_cols,
            "deck": {"count": len(pos.deck) - pos.deck_pos, "top": self.deck_top},
            "grid": grid,
            "players": players,
            "supply": dict(zip(els, pos.supply)),
            "pool": dict(zip(els, pos.pool)),
            "activations": {"used": len(pos.active) + pos.spent,
                            "limit": self.rules.activations_per_turn + pos.bonus},
            "collect_threshold": self._threshold(),
            "effects": self._effect_names(),
            "powers_used": [pw.key for i, pw in enumerate(self.rules.powers)
                            if pos.used >> i & 1],
            "is_over": over,
            "end_reason": pos.end_reason,
            "scores": scores,
            "winners": self.winners(),
        }

    def _effect_names(self) -> list[str]:
        """This turn's lasting effects by their default powers' names: "wildfire" while the
        collect threshold is lowered, "sanctuary" while tokens are ignored."""
        pos = self._pos
        return [name for name, on in (("wildfire", pos.threshold is not None),
                                      ("sanctuary", pos.ignore_tokens)) if on]

    # ------------------------------------------------------------------ the state hash
    def state_hash(self, version: int = 2) -> str:
        """A stable digest of the whole position (hidden cards included), as hex.

        ``version`` picks the recipe. 2, the default and what replay files of format version
        2 record, digests the position's numbers as bytes (64-bit words when one passes 255)
        under a key made of the elements and players. 1 is the older recipe (a digest of the
        position's ``repr``), kept so that files of format version 1 still verify. Both
        cover the same fields and the rest of the deck; only the encoding differs.
        """
        if version == 2:
            return digest(self._pos, self.rules, self._hkey)
        if version == 1:
            return digest_v1(self._pos, self.rules, self.players)
        raise ValueError(f"state hash version must be 1 or 2, got {quote(version)}")

    def hashed(self, actions: Iterable[Action]) -> Iterator[str]:
        """Apply ``actions`` in turn, yielding the state hash after each (what a replay checks
        at every step); an illegal one raises :class:`IllegalActionError` there, as
        :meth:`apply` does. The digest of the rest of the deck is carried from step to step
        while that part of the deck stands still (only a refill or a Tide moves it), and the
        bytes of the counts while they stand still.

        >>> game, other = Game.new(players=2, seed=5), Game.new(players=2, seed=5)
        >>> next(game.hashed([Activate(0)])) == (other.apply(Activate(0)), other.state_hash())[1]
        True
        """
        pos = self._pos
        deck, at, rest = pos.deck, pos.deck_pos, deck_digest(pos)
        start = keyed(self._hkey)
        kept: tuple[list[int], ...] = ()  # the counts as last taken in, and their bytes
        tally = None
        for action in actions:
            self.apply(action)
            pos = self._pos
            if pos.deck_pos != at or pos.deck != deck:
                deck, at, rest = pos.deck, pos.deck_pos, deck_digest(pos)
            if counts(pos) != kept:  # most steps collect, place and pay nothing
                kept, tally = tuple([row[:] for row in counts(pos)]), count_bytes(pos)
            yield digest(pos, self.rules, self._hkey, rest, start, tally)

    # ------------------------------------------------------------------ copies
    def clone(self) -> Game:
        """An independent copy. The history is shared, not copied: its records never change,
        and each game only adds records after its own last one. What the rules and players
        give (fixed for the game) is shared too; only the position is copied."""
        return self._at(self._last, self._pos.copy())

    def _at(self, last: _Record, pos: Position) -> Game:
        """This game at ``pos`` (taken as it is) with ``last`` the newest record of its
        history."""
        game = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(game, name, getattr(self, name))
        game._last, game._pos = last, pos
        return game

    def freeze(self, previous: Frozen | None = None) -> Frozen:
        """This position as a value to keep and :meth:`thaw` later (a replay keeps one every
        step). ``previous``, a position of this game frozen before, shares what has not
        changed since."""
        return self, self._last, self._pos.frozen(None if previous is None else previous[2])

    @classmethod
    def thaw(cls, frozen: Frozen) -> Game:
        """A game at a position kept by :meth:`freeze`, independent of it."""
        kept, last, values = frozen
        return kept._at(last, Position.thawed(values))

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickle and deepcopy state. The history goes as a flat list of (action, events,
        step), oldest first: its records nest one inside the next, and pickle and deepcopy
        recurse once per level (a few hundred steps overflowed them)."""
        state = {name: getattr(self, name) for name in Game.__slots__}
        state["_last"] = [(r[0], r[1], r[3]) for r in _chain(self._last, 0)]
        return None, state

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Undo :meth:`__getstate__`: the fields, and the history's records linked again."""
        fields = state[1]
        for name, value in fields.items():
            setattr(self, name, value)
        last: _Record | None = None
        private = -1
        for action, events, step in fields["_last"]:
            if _private(events):
                private = step
            last = (action, events, last, step, private)
        assert last is not None  # the set-up record is always there
        self._last = last

    def redeal(self, seat: int, seed: int) -> Game:
        """A game ``seat`` cannot tell from this one: every card it was never shown (the deck
        below its face-up top, and any grid card it has not seen) shuffled among those places
        from ``seed``. Searches over what a seat may know (ISMCTS, the expert) play such games;
        the copy keeps no history (its events would name the real cards).

        >>> game = Game.new(players=2, seed=3)
        >>> other = game.redeal(0, seed=1)
        >>> other.observation(0) == game.observation(0), other.deck[0] == game.deck[0]
        (True, True)
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(
                self.players):
            raise ValueError(f"seat must be a player from 0 to {len(self.players) - 1}, "
                             f"got {quote(seat)}")
        game = self.clone()
        game._last = (None, [], None, self.step, -1)
        pos = game._pos
        bit = 1 << seat
        slots = [s for s, c in enumerate(pos.grid) if c >= 0 and not pos.seen[s] & bit]
        top = pos.deck_pos + 1
        cards = [pos.grid[s] for s in slots] + list(pos.deck[top:])
        random.Random(seed).shuffle(cards)
        for s, c in zip(slots, cards):
            pos.grid[s] = c
        pos.deck = pos.deck[:top] + bytes(cards[len(slots):])
        return game

    # ------------------------------------------------------------------ positions
    @property
    def start_position(self) -> dict[str, Any] | None:
        """The position this game started from when made by :meth:`from_position`, else None
        (a dealt game starts from ``initial_deck``)."""
        return self._start

    def position(self) -> dict[str, Any]:
        """The whole position, hidden cards included, as a JSON-safe dict.

        :meth:`from_position` reads it back; lessons and scenarios are written in this form.

        >>> game = Game.new(players=1, seed=3)
        >>> Game.from_position(game.position()).state_hash() == game.state_hash()
        True
        """
        from .position import dump_position

        return dump_position(self)

    @classmethod
    def from_position(cls, position: Mapping[str, Any]) -> Game:
        """A game starting at ``position`` (the form :meth:`position` writes).

        Fields other than ``grid`` and ``deck`` may be left out (empty Studies, no tokens,
        turn 1, player 0, the ACTIVATION phase). The supply is what the rules' tokens leave once
        cards, marker stacks and the pool have theirs. Nonsense raises ``ValueError`` naming the
        field: every card of the rules must be somewhere exactly once, tokens cannot exceed the
        rules' supply, and the phase must fit the grid (empty slots only while refilling).
        """
        from .position import load_position

        return load_position(position)

    def _repr_html_(self) -> str:
        """A notebook's rich display: a small static board, the all-seeing view (a Game knows
        every card); ``core.html.player_view_html(game, p)`` draws seat ``p``'s view."""
        from .html import player_view_html

        return player_view_html(self, None)

    def __repr__(self) -> str:
        return (f"<Game {len(self.players)}p turn {self.turn} player {self.active_player} "
                f"{self.phase.value} scores {self.scores()}>")

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        """Every action legal now, in a fixed order (RULES.md: "What is legal in each phase")."""
        pos = self._pos
        phase = pos.phase
        out: list[Action] = []
        if phase is ACTIVATION:
            active = pos.active
            if len(active) + pos.spent < self.rules.activations_per_turn + pos.bonus:
                out += [_ACTIVATE[s] for s in pos.offered if s not in active]
            out += [_DEACTIVATE[s] for s in sorted(active)]
            out.append(_END_PHASE)
            return out
        if phase is BINDING:
            return [*_placements(self.rules.elements, len(pos.grid), self._sources()),
                    _END_PHASE]
        if phase is REFILL:
            return [_REFILL[s] for s, c in enumerate(pos.grid) if c < 0]
        if phase is ABILITIES:
            if pos.ready:  # Phase 1 is played on a full grid
                _uses(out, self.rules.powers, pos.ready, len(pos.grid), self._bound(),
                      pos.deck_pos < len(pos.deck))
            out.append(_END_PHASE)
        return out

    def _offered(self) -> tuple[int, ...]:
        """The cards the active player may activate in Phase 2, played on a full grid: those
        whose Binding tokens their Study satisfies (all of them while tokens are ignored), in
        slot order."""
        pos = self._pos
        blocked = () if pos.ignore_tokens else self._blocked(pos.player)
        return tuple([s for s in range(len(pos.grid)) if s not in blocked])

    def _blocked(self, player: int) -> set[int]:
        """The slots whose Binding tokens ``player``'s Study does not satisfy: a token of an
        element beyond the cards of that element the Study holds."""
        pos, e = self._pos, self._e
        tokens = pos.tokens
        if not any(tokens):  # (most often no card carries any)
            return set()
        study = pos.study[player * e:(player + 1) * e]
        # Only the counts of the slots that carry tokens are compared (most carry none).
        return {i // e for i in compress(range(len(tokens)), tokens) if tokens[i] > study[i % e]}

    def _sources(self) -> tuple[int, ...]:
        """The element and source pairs that can pay for a token now, in rules then SOURCES
        order, each as ``element * 3 + source`` (the source's index in SOURCES)."""
        out = []
        pos = self._pos
        base = pos.player * self._e
        for i in range(self._e):
            if pos.supply[i] and pos.study[base + i]:
                out.append(3 * i)
            if pos.marker_tokens[base + i]:
                out.append(3 * i + 1)
            if pos.pool[i] and pos.markers[base + i]:
                out.append(3 * i + 2)
        return tuple(out)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (:meth:`why_illegal` says why not).

        >>> Game.new(players=1, seed=1).is_legal(Activate(0))
        True
        """
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def why_illegal(self, action: Action) -> str | None:
        """The rule ``action`` breaks now, in words, or None when it is legal."""
        try:
            self._check(action)
        except IllegalActionError as err:
            return str(err)
        return None

    def _slot_error(self, slot: int) -> None:
        size = len(self._pos.grid)
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < size:
            raise IllegalActionError(
                f"slot {quote(slot)} does not exist: the grid has slots 0 to {size - 1}", "grid")

    def _check(self, action: Action) -> _Move:
        """Raise IllegalActionError naming the rule when ``action`` is not legal now; else
        return its move (check and effect) from ``_MOVES``."""
        move = _MOVES.get(type(action))
        if move is None:
            raise IllegalActionError(f"{quote(action)} is not a Leyline action", "actions")
        if self._pos.phase is GAME_OVER:
            raise IllegalActionError(
                f"the game is over ({self._pos.end_reason}); no action is legal", "game end")
        move[0](self, action)
        return move

    def _check_end_phase(self, action: EndPhase) -> None:
        if self._pos.phase is REFILL:
            left = self._pos.grid.count(-1)
            raise IllegalActionError(
                f"every empty grid slot must be refilled before Phase 3 "
                f"({_plural(left, 'empty slot')} left)", "refill")

    def _check_activate(self, action: Activate) -> None:
        pos, s = self._pos, action.slot
        if pos.phase is not ACTIVATION:
            self._wrong_phase(ACTIVATION, "cards are activated")
        # Legal when offered this Phase 2 (a card whose Binding tokens the Study satisfies),
        # not active yet, with an activation left; else the rule it breaks is found below.
        if s not in pos.offered or s in pos.active or (
                len(pos.active) + pos.spent >= self.rules.activations_per_turn + pos.bonus):
            self._why_not_activate(s)

    def _why_not_activate(self, s: int) -> None:
        pos = self._pos
        self._slot_error(s)
        if pos.grid[s] < 0:
            raise IllegalActionError(f"slot {s} is empty", "activation")
        if s in pos.active:
            raise IllegalActionError(
                f"slot {s} is already activated; select it again to deactivate it and refund "
                f"the activation", "activation")
        limit = self.rules.activations_per_turn + pos.bonus
        if len(pos.active) + pos.spent >= limit:
            if not self.rules.deactivate_refund:
                raise IllegalActionError(
                    f"you have used all {limit} activations this turn; under this house rule a "
                    f"deactivated card does not refund its activation", "activation")
            raise IllegalActionError(
                f"you have used all {limit} activations this turn; deactivate a card to "
                f"get one back", "activation")
        if pos.ignore_tokens:
            return
        e = self._e
        for i, el in enumerate(self.rules.elements):
            need = pos.tokens[s * e + i]
            have = pos.study[pos.player * e + i]
            if need > have:
                raise IllegalActionError(
                    f"slot {s} is bound by {_plural(need, el + ' token')} and your "
                    f"Study holds {have} {el}", "binding")

    def _check_deactivate(self, action: Deactivate) -> None:
        if self._pos.phase is not ACTIVATION:
            self._wrong_phase(ACTIVATION, "cards are deactivated")
        if action.slot not in self._pos.active:
            self._slot_error(action.slot)
            raise IllegalActionError(f"slot {action.slot} is not activated", "activation")

    def _check_refill(self, action: Refill) -> None:
        pos, s = self._pos, action.slot
        if pos.phase is not REFILL:
            self._wrong_phase(REFILL, "empty slots are refilled")
        if type(s) is not int or not 0 <= s < len(pos.grid):
            self._slot_error(s)
        if pos.grid[s] >= 0:
            raise IllegalActionError(f"slot {s} holds a card; only empty slots are refilled",
                                     "refill")

    def _wrong_phase(self, phase: Phase, what: str) -> NoReturn:
        raise IllegalActionError(
            f"{what} in the {phase.value} phase; it is now the {self._pos.phase.value} phase",
            "turn structure")

    def _element(self, element: object) -> int:
        index = self._eidx.get(element) if isinstance(element, str) else None
        if index is None:
            raise IllegalActionError(
                f"unknown element {quote(element)}; elements are {', '.join(self.rules.elements)}",
                "elements")
        return index

    def _check_place(self, action: PlaceToken) -> None:
        if self._pos.phase is not BINDING:
            self._wrong_phase(BINDING, "Binding Spell tokens are placed")
        self._slot_error(action.slot)
        i = self._element(action.element)
        el = action.element
        pos = self._pos
        if pos.grid[action.slot] < 0:
            raise IllegalActionError(f"slot {action.slot} is empty; tokens go on cards", "tokens")
        pi = pos.player * self._e + i
        if action.source == "supply":
            if not pos.supply[i]:
                raise IllegalActionError(f"the supply has no {el} tokens left", "placing tokens")
            if not pos.study[pi]:
                raise IllegalActionError(
                    f"{_a(el)} token from the supply is paid by discarding {_a(el)} card from your "
                    f"Study, and your Study holds no {el}", "placing tokens")
        elif action.source == "marker":
            if not pos.marker_tokens[pi]:
                raise IllegalActionError(
                    f"no {el} tokens are stacked on your Spent {el} marker", "placing tokens")
        elif action.source == "pool":
            if not pos.pool[i]:
                raise IllegalActionError(f"the Token Pool holds no {el} tokens", "placing tokens")
            if not pos.markers[pi]:
                raise IllegalActionError(
                    f"taking {_a(el)} token from the Token Pool needs a Spent {el} marker, and you "
                    f"have none", "placing tokens")
        else:
            raise IllegalActionError(
                f"token source must be one of {', '.join(SOURCES)}, got {quote(action.source)}",
                "placing tokens")

    def _power_index(self, action: UsePower) -> int:
        index = self._pidx.get((action.element, action.tier)) if isinstance(
            action.tier, str) else None
        if index is not None:
            return index
        raise IllegalActionError(
            f"{action.element} has no {action.tier} power in these rules", "powers")

    def _check_power(self, action: UsePower) -> None:
        if self._pos.phase is not ABILITIES:
            self._wrong_phase(ABILITIES, "powers are used")
        self._element(action.element)
        index = self._power_index(action)
        pos = self._pos
        if index not in pos.ready:
            problem = self._problem(index, pos.player, True)
            if problem is not None:  # else it has no legal target: the check below says why
                raise IllegalActionError(problem, "powers")
        pw = self.rules.powers[index]
        cards = range(len(pos.grid)) if -1 not in pos.grid else {
            s for s, c in enumerate(pos.grid) if c >= 0}
        problem = pw.effect.target_problem(tuple(action.targets), len(pos.grid), cards,
                                           self._bound(), pos.deck_pos < len(pos.deck), pw.name)
        if problem:
            raise IllegalActionError(f"{pw.name}: {problem}", "powers")

    # ------------------------------------------------------------------ transitions
    def apply(self, action: Action | Mapping[str, Any]) -> list[Event]:
        """Apply a legal action and return its events (JSON-safe dicts).

        Raises :class:`IllegalActionError` naming the rule, with the state unchanged.
        An action dict (``{"type": "activate", "slot": 3}``) is parsed first.
        """
        act = action if isinstance(action, Action) else parse_action(action)
        effect = self._check(act)[1]
        events: list[Event] = []
        # An effect says whether it made a private event (one some seats see without its
        # element): a seat's view of the steps since (visible_events_since) filters those.
        private = effect(self, act, events)
        last = self._last
        step = last[3] + 1
        self._last = (act, events, last, step, step if private else last[4])
        return events

    def _do_activate(self, action: Activate, events: list[Event]) -> None:
        pos = self._pos
        pos.active.append(action.slot)
        pos.seen[action.slot] = (1 << len(self.players)) - 1  # face up, for everyone to see
        events.append({"type": "activate", "player": pos.player, "slot": action.slot,
                       "element": self.rules.elements[pos.grid[action.slot]]})

    def _do_deactivate(self, action: Deactivate, events: list[Event]) -> None:
        pos = self._pos
        pos.active.remove(action.slot)
        if not self.rules.deactivate_refund:
            pos.spent += 1
        events.append({"type": "deactivate", "player": pos.player, "slot": action.slot})

    def _do_refill(self, action: Refill, events: list[Event]) -> None:
        """The deck's top card goes into the slot, briefly revealed to all."""
        pos = self._pos
        card = pos.deck[pos.deck_pos]
        pos.deck_pos += 1
        pos.grid[action.slot] = card
        pos.seen[action.slot] = (1 << len(self.players)) - 1
        events.append({"type": "reveal", "slot": action.slot,
                       "element": self.rules.elements[card], "cause": "refill",
                       "visible_to": "all"})
        if -1 not in pos.grid:
            self._enter(BINDING, events)
        elif pos.deck_pos >= len(pos.deck):
            self._game_over("deck", events)

    def _enter(self, phase: Phase, events: list[Event]) -> None:
        self._pos.phase = phase
        if phase is ACTIVATION:
            self._pos.offered = self._offered()
        events.append({"type": "phase", "phase": str(phase), "player": self._pos.player})

    def _end_phase(self, action: EndPhase, events: list[Event]) -> None:
        phase = self._pos.phase
        if phase is ABILITIES:
            self._enter(ACTIVATION, events)
        elif phase is ACTIVATION:
            self._collect(events)
        elif phase is BINDING:
            self._end_turn(events)

    def _collect(self, events: list[Event]) -> None:
        """End of Phase 2: for each element among the activated cards, collect them all when
        there are at least the collect threshold of them; the rest flip back to inert."""
        pos = self._pos
        p = pos.player
        active, pos.active, pos.spent = sorted(pos.active), [], 0
        if not active:
            events.append({"type": "pass", "player": p})
            self._enter(BINDING, events)
            return
        grid = pos.grid
        groups: dict[int, list[int]] = {}  # the active slots by element, in slot order
        for s in active:
            groups.setdefault(grid[s], []).append(s)
        threshold = self._threshold()
        taken = sorted([c for c, slots in groups.items() if len(slots) >= threshold])
        if not taken:
            events.append({"type": "flip_back", "player": p, "slots": active})
            self._enter(BINDING, events)
            return
        els, e, tokens = self.rules.elements, self._e, pos.tokens
        carrying = any(tokens)  # only a card carrying tokens frees any
        freed: list[tuple[int, int, int]] = []  # (slot, element, count): removals resolve first
        for c in taken:
            slots = groups[c]
            pos.study[p * e + c] += len(slots)
            events.append({"type": "collect", "player": p, "element": els[c], "slots": slots,
                           "count": len(slots)})
            for s in slots:
                grid[s] = -1
                pos.seen[s] = 0
                for i in range(s * e, s * e + e) if carrying else ():
                    if tokens[i]:
                        freed.append((s, i - s * e, tokens[i]))
                        tokens[i] = 0
        pos.busy = pos.turn
        if len(taken) < len(groups):
            events.append({"type": "flip_back", "player": p,
                           "slots": [s for s in active if grid[s] >= 0]})
        for s, i, count in freed:
            self._return_tokens(s, i, count, events)
        if pos.deck_pos >= len(pos.deck):
            self._game_over("deck", events)
        else:
            self._enter(REFILL, events)

    def _return_tokens(self, slot: int, i: int, count: int, events: list[Event]) -> None:
        """Freed tokens go to the active player's matching Spent marker, else to the pool."""
        pos = self._pos
        pi = pos.player * self._e + i
        if pos.markers[pi]:
            pos.marker_tokens[pi] += count
            to = "marker"
        else:
            pos.pool[i] += count
            to = "pool"
        events.append({"type": "token_return", "player": pos.player, "slot": slot,
                       "element": self.rules.elements[i], "count": count, "to": to})

    def _do_place(self, action: PlaceToken, events: list[Event]) -> None:
        pos = self._pos
        i = self._eidx[action.element]
        pi = pos.player * self._e + i
        if action.source == "supply":  # paid: the Study card becomes a Spent marker
            pos.supply[i] -= 1
            pos.study[pi] -= 1
            pos.markers[pi] += 1
        elif action.source == "marker":
            pos.marker_tokens[pi] -= 1
        else:
            pos.pool[i] -= 1
        pos.tokens[action.slot * self._e + i] += 1
        pos.busy = pos.turn
        events.append({"type": "place_token", "player": pos.player, "slot": action.slot,
                       "element": action.element, "source": action.source})

    def _do_power(self, action: UsePower, events: list[Event]) -> bool:
        pos = self._pos
        index = self._pidx[action.element, action.tier]
        pw = self.rules.powers[index]
        pos.used |= 1 << index
        majors = list(pos.majors)
        majors[pos.player * len(self.rules.powers) + index] += 1
        pos.majors = tuple(majors)
        pos.busy = pos.turn
        events.append({"type": "power", "player": pos.player, "element": pw.element,
                       "tier": pw.tier, "name": pw.name, "effect": pw.effect.id,
                       "targets": list(action.targets)})
        private = RESOLVE[pw.effect.kind](self, pw, tuple(action.targets), events)
        pos.ready = self._ready(pos.player)
        if not pos.ready:  # Phase 1 ends by itself once no usable power is left
            self._enter(ACTIVATION, events)
        return private

    def _end_turn(self, events: list[Event]) -> None:
        """The end checks, in RULES.md's order (interpretation 9): turn limit, round limit,
        idle rounds, stalemate. The turn counter only moves on when the game goes on."""
        rules, pos = self.rules, self._pos
        turn, n = pos.turn, len(self.players)
        if rules.turn_limit is not None and turn >= rules.turn_limit:
            self._game_over("turn_limit", events)
        elif rules.round_limit is not None and turn >= rules.round_limit * n:
            self._game_over("round_limit", events)
        elif rules.idle_round_limit is not None and turn - pos.busy >= rules.idle_round_limit * n:
            self._game_over("idle", events)
        else:
            # The turn's effects are over (a limit leaves them on record).
            pos.bonus, pos.threshold, pos.ignore_tokens, pos.used, pos.spent = 0, None, False, 0, 0
            if self._stalemate():
                self._game_over("stalemate", events)
                return
            pos.turn = turn + 1
            pos.player = (pos.player + 1) % n
            self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        """Phase 1 is skipped when the player has no usable power."""
        pos = self._pos
        pos.ready = self._ready(pos.player)
        pos.phase = ABILITIES if pos.ready else ACTIVATION
        if pos.phase is ACTIVATION:
            pos.offered = self._offered()
        events.append({"type": "turn", "turn": pos.turn, "player": pos.player,
                       "phase": str(pos.phase)})

    def _game_over(self, reason: str, events: list[Event], turns: int | None = None) -> None:
        """End the game; ``turns`` is the turns played (the current one unless told)."""
        pos = self._pos
        pos.phase = GAME_OVER
        pos.end_reason = reason
        pos.active = []
        events.append({"type": "game_over", "reason": reason, "scores": self.scores(),
                       "winners": self.winners(),
                       "turns": pos.turn if turns is None else turns})

    def _stalemate(self) -> bool:
        """True when no player can ever collect again (RULES.md, interpretation 8).

        Without a collection, the grid's cards and their tokens change only by powers that
        swap cards (which move cards with their tokens), swap with the deck or remove tokens
        (counted below); tokens are otherwise only added, and Studies only fall: so if nobody
        can collect even then, nobody ever will. Judged from the grid, the face-up deck top,
        tokens and Studies: never from a card nobody has seen.
        """
        pos, e = self._pos, self._e
        threshold = self.rules.collect_threshold
        # A card with tokens holds at least one count that is not zero, so at least this
        # many cards are token-free; more than e x (threshold - 1) of them leave some element
        # with threshold token-free cards (the pigeonhole), which anyone can collect.
        if len(pos.grid) - pos.grid.count(-1) - (len(pos.tokens) - pos.tokens.count(0)) > e * (
                threshold - 1):
            return False
        bound: list[tuple[int, list[int]]] = []
        carrying = self._bound()
        if carrying:
            free = [0] * e  # token-free cards per element: anyone may activate them
            for s, c in enumerate(pos.grid):
                if c < 0:
                    continue
                if s in carrying:
                    bound.append((c, pos.tokens[s * e:(s + 1) * e]))
                else:
                    free[c] += 1
        else:
            free = [pos.grid.count(c) for c in range(e)]
        if max(free, default=0) >= threshold:
            return False  # enough token-free cards of one element: anyone can collect them
        # What each player's powers can ever do for a collection, by kind (a Major power used
        # up for the game does nothing more).
        reach = []
        for q in range(len(self.players)):
            kinds = [self.rules.powers[i].effect for i in self._usable(q, this_turn=False)]
            reach.append(kinds)
        everyone = [fx.kind for kinds in reach for fx in kinds]
        # Removing tokens can, in time, strip every token: then every card is as good as
        # token-free. It cannot change which elements lie on the grid.
        if "remove_tokens" in everyone:
            for c, _ in bound:
                free[c] += 1
            bound = []
        # Swapping with the deck moves a token-free card and the face-up top, turn after turn:
        # those cards and the top can be arranged at will, but one of them always stays on the
        # deck (the cards below the top never come up without a refill).
        if pos.deck_pos < len(pos.deck) and "swap_with_deck" in everyone:
            room = sum(free)
            free[pos.deck[pos.deck_pos]] += 1
            free = [min(f, room) for f in free]
        for q, kinds in enumerate(reach):
            acts = self.rules.activations_per_turn + sum(
                fx.n for fx in kinds if fx.kind == "extra_activations")
            need = min([threshold, *(fx.n for fx in kinds if fx.kind == "collect_threshold")])
            if need > acts:
                continue
            ignore = any(fx.kind == "ignore_tokens" for fx in kinds)
            study = pos.study[q * e:(q + 1) * e]
            counts = free[:]
            for c, here in bound:
                if ignore or all(map(operator.le, here, study)):
                    counts[c] += 1
            if max(counts) >= need:
                return False
        return True


#: The moves of Leyline, declared in one place: each action type's check and effect (which
#: appends its events and says whether one of them is private).
_Move = tuple[Callable[[Game, Any], None], Callable[[Game, Any, list[Event]], "bool | None"]]
_MOVES: dict[type, _Move] = {
    Activate: (Game._check_activate, Game._do_activate),
    Deactivate: (Game._check_deactivate, Game._do_deactivate),
    EndPhase: (Game._check_end_phase, Game._end_phase),
    Refill: (Game._check_refill, Game._do_refill),
    PlaceToken: (Game._check_place, Game._do_place),
    UsePower: (Game._check_power, Game._do_power),
}

#: Phase 1's uses of a power and Phase 3's token placements, by exactly what they depend on:
#: for uses, the power's element, tier, kind and cards, the grid's size (Phase 1 is played on a
#: full grid) and, where its kind looks at them, the cards carrying tokens and whether the deck
#: has a top;
#: for placements, the elements, the grid's size and which element and source pairs can pay.
#: Games ask for the same lists turn after turn (Gale alone lists 298 target choices on the
#: default grid, and every card may take a token of each paying pair). Emptied when it holds
#: _LISTED_MAX lists.
_LISTED: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_LISTED_MAX = 4096


def _uses(out: list[Action], powers: tuple[Power, ...], ready: tuple[int, ...], size: int,
          bound: set[int], deck: bool) -> None:
    """Add to ``out`` every use of the ``ready`` ones of ``powers`` (by index, in the rules'
    order) on a full grid of ``size`` slots, each power's target choices in the order
    :meth:`Effect.targets` gives them."""
    for i in ready:
        pw = powers[i]
        kind = pw.effect.kind
        key = (pw.element, pw.tier, kind, pw.effect.cards, size,
               frozenset(bound) if kind in ("swap_with_deck", "remove_tokens") else None,
               deck if kind == "swap_with_deck" else None)
        uses: tuple[UsePower, ...] | None = _LISTED.get(key)
        if uses is None:
            uses = _keep(key, tuple(listed(UsePower, pw.element, pw.tier, targets)
                                    for targets in pw.effect.targets(list(range(size)), bound,
                                                                     deck)))
        out += uses


def _placements(elements: tuple[str, ...], size: int, pairs: tuple[int, ...]
                ) -> tuple[PlaceToken, ...]:
    """Every placement of a token paid by one of ``pairs`` (``element * 3 + source``, in that
    order) on each of ``size`` slots, slot by slot."""
    key = (elements, size, pairs)
    places: tuple[PlaceToken, ...] | None = _LISTED.get(key)
    if places is None:
        places = _keep(key, tuple(listed(PlaceToken, s, elements[k // 3], SOURCES[k % 3])
                                  for s in range(size) for k in pairs))
    return places


def _keep(key: tuple[Any, ...], actions: tuple[_A, ...]) -> tuple[_A, ...]:
    if len(_LISTED) >= _LISTED_MAX:
        _LISTED.clear()
    _LISTED[key] = actions
    return actions


def parse_action(data: object) -> Action:
    """An action from its dict form, or IllegalActionError("malformed action: ...").

    >>> parse_action({"type": "refill", "slot": 2})
    Refill(slot=2)
    """
    if isinstance(data, Action):
        return data
    try:
        return Action.from_dict(data)
    except ValueError as err:
        raise IllegalActionError(f"malformed action: {err}", "actions") from None
