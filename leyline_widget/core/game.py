"""The Leyline referee: state, legal actions, transitions and per-player views.

The engine is the functional core: it knows nothing of widgets. A :class:`Game` is a
mutable position with its history; :meth:`Game.clone` gives an independent copy.

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

import hashlib
import operator
import random
from array import array
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from itertools import compress
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

from . import powers as _powers
from .actions import SOURCES, Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from .echo import quote
from .rules import Power, Rules
from .types import Cell, Event, Observation, PlayerView
from .view import SeatView

__all__ = [
    "END_REASONS",
    "MAX_PLAYERS",
    "ONLOOKER",
    "Game",
    "IllegalActionError",
    "Phase",
    "check_deck",
    "parse_action",
    "visible_events",
]

#: An action type's check (raises IllegalActionError) and effect (appends events; True when
#: one of them is private, see _Record; None or False when none is).
_Effect: TypeAlias = Callable[["Game", Any, list[Event]], "bool | None"]
_Move = tuple[Callable[["Game", Any], None], _Effect]

MAX_PLAYERS = 4

#: Why a game ended (``end_reason``): the deck ran out, nobody can ever collect again, too many
#: idle rounds, or the turn or round limit (RULES.md, interpretations 6, 8 and 9).
END_REASONS = ("deck", "stalemate", "idle", "turn_limit", "round_limit")


class Phase(StrEnum):
    """The phase of the turn; the value is what observations carry."""

    ABILITIES = "abilities"
    ACTIVATION = "activation"
    REFILL = "refill"
    BINDING = "binding"
    GAME_OVER = "game_over"


# The phases as module globals: an Enum member read off its class goes through the metaclass
# and costs several times a global, and the hot paths test the phase at every step.
_P_ABILITIES = Phase.ABILITIES
_P_ACTIVATION = Phase.ACTIVATION
_P_REFILL = Phase.REFILL
_P_BINDING = Phase.BINDING
_P_GAME_OVER = Phase.GAME_OVER


class IllegalActionError(ValueError):
    """An action the rules forbid now. ``rule`` names the rule; the state is unchanged."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


#: Rules.default(), made once: Rules are frozen, and validating them costs more than dealing.
_DEFAULT_RULES = Rules.default()
_END_PHASE = EndPhase()
_ACTIVATE: list[Activate] = []
_DEACTIVATE: list[Deactivate] = []
_REFILL: list[Refill] = []
_PLACE: dict[tuple[int, str, str], PlaceToken] = {}
#: Tide's and Unbind's uses by (element, tier, slot): a power of the rules on a grid slot, so
#: as few as the rules' powers times the largest grid.
_ONE_TARGET: dict[tuple[str, str, int], UsePower] = {}
#: Phase 2's free activations by slot, in slot order: a copy with the active slots popped
#: leaves the activations still open at C speed.
_Free: TypeAlias = dict[int, Activate]
#: Every slot's activation, by grid size (no token in the way, or Sanctuary).
_ALL_FREE: dict[int, _Free] = {}
#: A refill's reveal event, copied and filled in by each (never changed itself).
_REFILL_REVEAL: Event = {"type": "reveal", "slot": 0, "element": "", "cause": "refill",
                         "visible_to": "all"}
#: Phase 2's deactivations by the active slots, in the order they were activated.
_DEACTIVATIONS: dict[tuple[int, ...], tuple[Deactivate, ...]] = {}

#: A legal action list, with the ids of its actions when it is a long one kept in _LEGAL:
#: apply() recognises an action taken from the list by identity and skips its checks (the list
#: keeps its actions alive, so no other object can carry one of those ids meanwhile).
_Legal: TypeAlias = tuple[list[Action], dict[int, None] | None]
#: Legal lists by what alone decides them (phase, grid size and the key legal_actions builds):
#: random play meets the same few thousand again and again. Cleared when full.
_LEGAL: dict[tuple[Any, ...], _Legal] = {}
_LEGAL_MAX = 4096  # as the per-phase caches before it: a Phase 1 list can hold 300 actions
_NO_ACTIONS: _Legal = ([], None)
#: State hash v2's text for n active slots, one byte per number and no house rules (most hashes).
_ONE_BYTE = tuple(f"{n}|1".encode() for n in range(8))
#: State hash v2's keyed blake2b by key (elements and players), only ever copied.
_HASHERS: dict[bytes, hashlib.blake2b] = {}
#: Phase 1 uses of one power by (power, grid size, bound slots and deck top where they matter).
_USES: dict[tuple[Any, ...], list[UsePower]] = {}


_V = TypeVar("_V")


def _keep(cache: dict[Any, _V], key: Any, value: _V, limit: int = _LEGAL_MAX) -> _V:
    """Store ``value`` under ``key`` in one of the module's caches, emptied when it holds
    ``limit`` entries (random play meets the same few thousand keys again and again, so a
    cleared cache fills again at once, and no cache grows without bound)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


def _remember(key: tuple[Any, ...], actions: list[Action]) -> _Legal:
    """Keep a legal list built for ``key`` (callers look the key up in _LEGAL first, inline:
    most lists are found there)."""
    return _keep(_LEGAL, key, (actions, dict.fromkeys(map(id, actions))))


def _refills(empty: tuple[int, ...]) -> _Legal:
    """The refill phase's legal list: a refill of each empty slot, in slot order."""
    key = (_P_REFILL, empty)
    return _LEGAL.get(key) or _remember(key, [_cached(_REFILL, Refill, s) for s in empty])


def _every_free(size: int) -> _Free:
    """Every slot's activation (no token in the way, or Sanctuary), kept in _ALL_FREE."""
    return _keep(_ALL_FREE, size, dict(enumerate(_activates(size)[:size])), 256)


def _activates(size: int) -> list[Activate]:
    _cached(_ACTIVATE, Activate, size - 1)
    return _ACTIVATE


def _deactivates(size: int) -> list[Deactivate]:
    _cached(_DEACTIVATE, Deactivate, size - 1)
    return _DEACTIVATE


def _cached(cache: list[Any], cls: type, slot: int) -> Any:
    # Legal action lists are rebuilt on every step of a simulation: share the values.
    while len(cache) <= slot:
        cache.append(cls(len(cache)))
    return cache[slot]


def _place(slot: int, element: str, source: str) -> PlaceToken:
    key = (slot, element, source)
    action = _PLACE.get(key)
    if action is None:
        action = _PLACE[key] = PlaceToken(slot, element, source)
    return action


def _one_target(element: str, tier: str, slot: int) -> UsePower:
    key = (element, tier, slot)
    action = _ONE_TARGET.get(key)
    if action is None:
        action = _ONE_TARGET[key] = UsePower(element, tier, (slot,))
    return action


def _a(word: str) -> str:
    """``word`` with its indefinite article: "an earth", "a fire"."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: One step of a game's history: (its action, None for set-up; its events; the record before;
#: its step number; the number of the latest step up to it that made a private event, one
#: seen by some seats only, or -1). Records never change, so clones and replay snapshots share
#: them; a plain tuple keeps apply() cheap.
_Record: TypeAlias = "tuple[Action | None, list[Event], _Record | None, int, int]"


#: What stays fixed for a whole game: rules, players, seed, player and element counts, element
#: index by name, power table, powers ``major_uses_per_game`` caps, state hash key, deck as dealt.
_Fixed: TypeAlias = tuple[Rules, tuple[str, ...], int | None, int, int, dict[str, int],
                         tuple[tuple[int, int, int, str, str], ...], tuple[int, ...], bytes,
                         tuple[str, ...]]
#: A position kept by Game.freeze: Game._make's arguments, in its order.
Frozen: TypeAlias = tuple[_Fixed, dict[str, Any] | None, bytes, int, list[int], list[int],
                          list[int], list[int], list[int], list[int], list[int], list[int],
                          Phase, int, int, int, bool, bool, int, str | None, _Record,
                          _Free | None, int, tuple[int, ...], int,
                          tuple[bytes, int, bytes] | None, bytes | None,
                          tuple[bytes, bool, bytes] | None, _Legal | None]


#: The events of a game's steps from the first one asked for (visible_events_since) on, in
#: one list: that first step, the events, and where each step's events begin in them (by
#: step less the first). A bot's seat asks for the steps since its last decision before
#: each one, so each ask is then one slice, where walking the records back cost a step each.
#: Kept from the first ask on, by apply(); never shared (a clone starts none).
_Tail: TypeAlias = "tuple[int, list[Event], list[int]]"


def _origin(events: list[Event]) -> _Record:
    return (None, events, None, 0, -1)  # set-up reveals are public


def _private(events: list[Event]) -> bool:
    """Whether one of ``events`` is seen by some seats only (for a history read back, whose
    records were written without the mark)."""
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
    """One game of Leyline: the position, whose turn it is, and how it got here."""

    __slots__ = (
        "_fixed", "rules", "players", "seed", "_n", "_e", "_eidx", "_ptab", "_capped", "_hkey",
        "_initial_deck", "_start", "_deck", "_deck_pos", "_grid", "_active", "_tokens", "_study",
        "_markers", "_mtokens", "_supply", "_pool", "_phase", "_turn", "_player", "_bonus",
        "_wildfire", "_sanctuary", "_used", "_end_reason", "_last", "_free", "_spent", "_majors",
        "_busy", "_dsum", "_hhead", "_hbody", "_legal", "_over", "_step", "_top", "_tail",
    )

    rules: Rules
    players: tuple[str, ...]
    seed: int | None
    _n: int                        # players
    _e: int                        # elements
    _eidx: dict[str, int]          # element -> index
    _ptab: tuple[tuple[int, int, int, str, str], ...]   # see _power_table
    _fixed: _Fixed                 # rules to _initial_deck (never change), as one value
    _free: _Free | None  # what the active player may activate, per Phase 2
    _hkey: bytes                   # state hash key: the elements and players (64 bytes)
    _dsum: tuple[bytes, int, bytes] | None  # cached digest of the deck's rest: deck, pos, digest
    _hhead: bytes | None           # state hash text of the turn's fields (see _hash_head)
    _hbody: tuple[bytes, bool, bytes] | None  # state hash's grid and counts (see _hash_body)
    _initial_deck: tuple[str, ...]
    _start: dict[str, Any] | None  # the position a game from a position began at
    _deck: bytes                   # element index per card, top first (bytes: cheap to hash)
    _deck_pos: int                 # index of the face-up top in _deck
    _grid: list[int]               # element index per slot, -1 when empty
    _active: list[int]             # slots activated this turn
    _tokens: list[int]             # slot * e + element -> Binding tokens
    _study: list[int]              # player * e + element -> cards
    _markers: list[int]            # player * e + element -> Spent markers
    _mtokens: list[int]            # player * e + element -> tokens stacked on markers
    _supply: list[int]
    _pool: list[int]               # the shared Token Pool
    _phase: Phase
    _turn: int
    _player: int
    _bonus: int                    # Spark's extra activations this turn
    _wildfire: bool
    _sanctuary: bool
    _used: int                     # bitmask over rules.powers: powers used this turn
    _spent: int                    # activations spent on deactivated cards (refund off)
    _majors: tuple[int, ...]       # player * powers + power index -> uses this game
    _busy: int                     # the last turn with a collection, token or power (0: none)
    _capped: tuple[int, ...]       # indices of the powers major_uses_per_game caps
    _end_reason: str | None
    _last: _Record                 # the newest record of the shared history
    _step: int                     # _last's step number (set with it): what step reads
    _legal: _Legal | None          # legal_actions() of this very state, once asked for
    _over: bool                    # _phase is GAME_OVER (set with it): what is_over reads
    _top: str | None               # the face-up top's element (set at each draw and Tide)
    _tail: _Tail | None            # the events since the first step asked for (see _Tail)

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, players: int | Sequence[str] = 1, seed: int | None = None,
            rules: Rules | None = None, deck: Sequence[str] | None = None) -> Game:
        """Deal a new game.

        ``players`` is a count (1 to 4) or a list of names; ``deck`` an explicit order, top
        first, which must hold exactly the rules' cards; otherwise the deck is shuffled from
        ``seed`` (a random seed is drawn and kept in ``game.seed`` when none is given).
        """
        rules = _DEFAULT_RULES if rules is None else rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
        names = player_names(players)
        if deck is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**32)
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise ValueError(f"seed must be an integer, got {quote(seed)}")
            order = _deal(seed, len(rules.elements), rules.cards_per_element)
            # The names at C speed: one itemgetter call reads every card's element (an
            # itemgetter of one index gives the item, not a tuple: a one-card deck).
            initial: tuple[str, ...] = (operator.itemgetter(*order)(rules.elements)
                                        if len(order) > 1 else (rules.elements[order[0]],))
        else:
            initial = tuple(check_deck(rules, deck))
            order = None
        fixed = _fixed_fields(rules, names, seed, initial)
        if order is None:
            order = list(map(fixed[5].__getitem__, initial))
        els = rules.elements
        e, size, n = len(els), rules.grid_size, len(names)
        # The set-up draws, written out: the grid takes the deck's first cards, in slot order
        # (what a refill does card by card).
        game = cls._make(
            fixed, None, bytes(order), size, order[:size], [], [0] * (size * e),
            [0] * (n * e), [0] * (n * e), [0] * (n * e), [rules.tokens_per_element] * e, [0] * e,
            _P_ACTIVATION, 1, 0, 0, False, False, 0, None, _origin([]), None, 0,
            (0,) * (n * len(rules.powers)), 0, None, None, None, None)
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
    def _make(cls, fixed: _Fixed, start: dict[str, Any] | None, deck: bytes, deck_pos: int,
              grid: list[int], active: list[int], tokens: list[int], study: list[int],
              markers: list[int], mtokens: list[int], supply: list[int], pool: list[int],
              phase: Phase, turn: int, player: int, bonus: int, wildfire: bool,
              sanctuary: bool, used: int, end_reason: str | None, last: _Record,
              free: _Free | None, spent: int, majors: tuple[int, ...], busy: int,
              dsum: tuple[bytes, int, bytes] | None, hhead: bytes | None,
              hbody: tuple[bytes, bool, bytes] | None, legal: _Legal | None) -> Game:
        """The one place that knows every field of a Game: :meth:`new`, :meth:`clone` and the
        position loader all build through it (lists are taken as they are, not copied).

        ``fixed`` (see :func:`_fixed_fields`) carries the fields fixed for the whole game as one
        value, so that a clone passes one argument for them: clone() is the hot caller.
        """
        g = cls.__new__(cls)
        g._fixed = fixed
        (g.rules, g.players, g.seed, g._n, g._e, g._eidx, g._ptab, g._capped, g._hkey,
         g._initial_deck) = fixed
        g._start = start
        g._deck = deck
        g._deck_pos = deck_pos
        g._top = fixed[0].elements[deck[deck_pos]] if deck_pos < len(deck) else None
        g._grid = grid
        g._active = active
        g._tokens = tokens
        g._study = study
        g._markers = markers
        g._mtokens = mtokens
        g._supply = supply
        g._pool = pool
        g._phase = phase
        g._over = phase is _P_GAME_OVER
        g._turn = turn
        g._player = player
        g._bonus = bonus
        g._wildfire = wildfire
        g._sanctuary = sanctuary
        g._used = used
        g._end_reason = end_reason
        g._last = last
        g._step = last[3]
        g._free = free
        g._spent = spent
        g._majors = majors
        g._busy = busy
        g._dsum = dsum
        g._hhead = hhead
        g._hbody = hbody
        g._legal = legal
        g._tail = None
        return g

    # ------------------------------------------------------------------ reading
    # Properties whose getters are C code: a play loop reads them at every step (a bot's seat
    # reads the phase, turn and mover at each move), and a Python getter's frame cost about
    # 1.5% of a random-play step each. The type checker is shown them as plain properties.
    if TYPE_CHECKING:
        @property
        def phase(self) -> Phase: ...

        @property
        def active_player(self) -> int: ...

        @property
        def turn(self) -> int: ...
    else:
        phase = property(operator.attrgetter("_phase"),
                         doc="The phase being played (GAME_OVER once the game is over).")
        active_player = property(operator.attrgetter("_player"), doc="The seat to move.")
        turn = property(operator.attrgetter("_turn"), doc="The turn number, 1-based.")
    is_over = property(cast("Callable[[Game], bool]", operator.attrgetter("_over")),
                       doc="Whether the game is over (its phase is GAME_OVER).")

    @property
    def end_reason(self) -> str | None:
        """One of :data:`END_REASONS` once the game is over, else None."""
        return self._end_reason

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

    # A C getter too: a bot's seat reads the step at every move (see phase).
    if TYPE_CHECKING:
        @property
        def step(self) -> int: ...
    else:
        step = property(operator.attrgetter("_step"),
                        doc="How many actions have been applied since set-up.")

    def events_since(self, step: int) -> list[Event]:
        """The events of every step from ``step`` on (0 includes set-up), in order, all-seeing.

        Filter them with :func:`visible_events` before they reach a player. The cost grows
        with the steps asked for, not with the game's length.
        """
        return self.visible_events_since(step, None)

    def visible_events_since(self, step: int, viewer: int | None) -> list[Event]:
        """``visible_events(self.events_since(step), viewer)``, the same list, built cheaper:
        a bot's seat asks for it before each decision."""
        last = self._last
        if viewer is not None and last[4] >= step:
            # A step asked for made a private event: the steps that made one are filtered.
            return [ev for r in _chain(last, step)
                    for ev in (visible_events(r[1], viewer) if r[4] == r[3] else r[1])]
        tail = self._tail
        if tail is not None and type(step) is int and tail[0] <= step <= last[3]:
            return tail[1][tail[2][step - tail[0]]:]
        out: list[Event] = []
        starts: list[int] = []
        for r in _chain(last, step):
            starts.append(len(out))
            out += r[1]  # joined at C speed
        if type(step) is int and 0 <= step <= last[3] and (tail is None or step < tail[0]):
            # Kept from here on, apply() adding each step (an int step of this history: one
            # entry in starts per step).
            self._tail = (step, out, starts)
            return out[:]
        return out

    @property
    def event_log(self) -> tuple[tuple[Event, ...], ...]:
        """Events per step: entry 0 is set-up, entry i the events of action i."""
        return tuple(tuple(r[1]) for r in _chain(self._last, 0))

    @property
    def deck(self) -> tuple[str, ...]:
        """The cards left in the deck, top first (all-seeing: only the top is public)."""
        els = self.rules.elements
        return tuple(els[c] for c in self._deck[self._deck_pos:])

    # A C getter too: a bot's seat reads it before most decisions (see phase).
    if TYPE_CHECKING:
        @property
        def deck_top(self) -> str | None: ...
    else:
        deck_top = property(
            operator.attrgetter("_top"),
            doc="The face-up top card of the deck (public), or None when the deck is empty.")

    def turn_state(self) -> tuple[int, int, Phase, int, str | None]:
        """``(active_player, step, phase, turn, deck_top)``, all public, in one call: what a
        bot's seat reads before each move."""
        # Read here, where the fields are plain slots: each C getter above costs about 480
        # instructions (valgrind) against about 80 for a slot, and a seat reads four or five
        # per move; one C getter of all five (attrgetter) still costs 1,350 against 1,000.
        return self._player, self._step, self._phase, self._turn, self._top

    def seat_view(self, seat: int) -> SeatView:
        """What ``seat`` knows now with perfect memory (see :class:`~.view.SeatView`)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise ValueError(f"seat must be a player from 0 to {self._n - 1}, got {quote(seat)}")
        return SeatView(self, seat)

    def card(self, slot: int) -> str | None:
        """The element of the card in ``slot`` (all-seeing), or None for an empty slot."""
        c = self._grid[slot]
        return None if c < 0 else self.rules.elements[c]

    def study(self, player: int) -> dict[str, int]:
        e = self._e
        return dict(zip(self.rules.elements, self._study[player * e:(player + 1) * e]))

    def scores(self) -> list[int]:
        """Cards in each player's Study (Spent markers do not score)."""
        e = self._e
        return [sum(self._study[p * e:(p + 1) * e]) for p in range(self._n)]

    def winners(self) -> list[int]:
        """The players with the top score once the game is over (ties share); [] before."""
        if not self.is_over:
            return []
        scores = self.scores()
        top = max(scores)
        return [p for p, s in enumerate(scores) if s == top]

    def activations_left(self) -> int:
        return self.rules.activations_per_turn + self._bonus - len(self._active) - self._spent

    def major_uses(self, player: int) -> dict[str, int]:
        """How often ``player`` has used each power this game, by power key (``fire:major``)."""
        k = len(self.rules.powers)
        return {pw.key: self._majors[player * k + i] for i, pw in enumerate(self.rules.powers)
                if self._majors[player * k + i]}

    def unlocked(self, player: int) -> list[Power]:
        """The powers ``player``'s Study unlocks now."""
        base = player * self._e
        powers = self.rules.powers
        return [powers[i] for i, element, need, _, _ in self._ptab
                if self._study[base + element] >= need]

    # ------------------------------------------------------------------ views
    def observation(self, viewer: int | None = None) -> Observation:
        """The position as ``viewer`` sees it (JSON-safe); ``None`` is the all-seeing view.

        Inert cards carry ``element: None`` for every player viewer: what a player glimpsed
        reaches them as events, never as state.
        """
        if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                                   or not 0 <= viewer < self._n):
            raise ValueError(f"viewer must be None or a player from 0 to {self._n - 1}, "
                             f"got {quote(viewer)}")
        els = self.rules.elements
        e = self._e
        active = self._active
        all_tokens = self._tokens
        bound = any(all_tokens)
        grid: list[Cell] = []
        for slot, c in enumerate(self._grid):
            if bound:
                here = all_tokens[slot * e:(slot + 1) * e]
                tokens = {els[i]: t for i, t in enumerate(here) if t} if any(here) else {}
            else:
                tokens = {}
            if c < 0:
                grid.append({"card": "empty", "element": None, "tokens": tokens})
            elif slot in active:
                grid.append({"card": "active", "element": els[c], "tokens": tokens})
            elif viewer is None:
                grid.append({"card": "inert", "element": els[c], "tokens": tokens})
            else:
                grid.append({"card": "inert", "element": None, "tokens": tokens})
        players: list[PlayerView] = []
        scores: list[int] = []
        study = self._study
        for p, name in enumerate(self.players):
            lo, hi = p * e, (p + 1) * e
            scores.append(sum(study[lo:hi]))
            players.append({
                "name": name,
                "study": dict(zip(els, study[lo:hi])),
                "markers": dict(zip(els, self._markers[lo:hi])),
                "marker_tokens": dict(zip(els, self._mtokens[lo:hi])),
                "score": scores[p],
                "unlocked": [key for _, element, need, _, key in self._ptab
                             if study[lo + element] >= need],
            })
        over = self._phase is _P_GAME_OVER
        deck_count = len(self._deck) - self._deck_pos
        return {
            "viewer": viewer,
            "phase": self._phase._value_,
            "turn": self._turn,
            "active_player": self._player,
            "elements": list(els),
            "grid_rows": self.rules.grid_rows,
            "grid_cols": self.rules.grid_cols,
            "deck": {"count": deck_count,
                     "top": els[self._deck[self._deck_pos]] if deck_count else None},
            "grid": grid,
            "players": players,
            "supply": dict(zip(els, self._supply)),
            "pool": dict(zip(els, self._pool)),
            "activations": {"used": len(self._active) + self._spent,
                            "limit": self.rules.activations_per_turn + self._bonus},
            "collect_threshold": self._threshold(),
            "effects": [name for name, on in (("wildfire", self._wildfire),
                                              ("sanctuary", self._sanctuary)) if on],
            "powers_used": [key for i, _, _, _, key in self._ptab if self._used >> i & 1],
            "is_over": over,
            "end_reason": self._end_reason,
            "scores": scores,
            "winners": ([p for p, s in enumerate(scores) if s == max(scores)] if over else []),
        }

    def state_hash(self, version: int = 2) -> str:
        """A stable digest of the whole position (hidden cards included), as hex.

        ``version`` picks the recipe. 2, the default and what replay files of format version
        2 record, digests the position's numbers as bytes (64-bit words when one passes 255)
        under a key made of the elements and players. 1 is the older recipe (a digest of the
        position's ``repr``), kept so that files of format version 1 still verify. Both
        cover the same fields and the rest of the deck; only the encoding differs.
        """
        if version != 2:
            if version == 1:
                return self._hash_v1()
            raise ValueError(f"state hash version must be 1 or 2, got {version!r}")
        head = self._hhead
        if head is None:
            head = self._hhead = self._hash_head()
        body = self._hbody
        if body is None:
            body = self._hbody = self._hash_body()
        grid, wide, tail = body
        active = sorted(self._active)
        # Numbers take one byte each unless one passes 255; then all take 8.
        if wide:
            width, words = 8, array("q", active).tobytes() + tail
        elif not active or active[-1] < 256:
            width, words = 1, bytes(active) + tail
        else:  # a slot past 255 (grids have up to 400) widens every number
            width, words = 8, array("q", [*active, *tail]).tobytes()
        rest = self._dsum  # the deck's rest changes only at a draw or a Tide: digest it then
        if rest is None or rest[0] is not self._deck or rest[1] != self._deck_pos:
            rest = (self._deck, self._deck_pos, hashlib.blake2b(
                memoryview(self._deck)[self._deck_pos:], digest_size=16).digest())
            self._dsum = rest
        house = ""
        if self._spent or self._capped or self.rules.idle_round_limit is not None:
            house = self._house_words()
        # A keyed hasher is made once per key (keying costs a compression) and copied; kept
        # out of the Game, which stays picklable.
        hasher = _HASHERS.get(self._hkey)
        if hasher is None:
            hasher = _keep(_HASHERS, self._hkey,
                           hashlib.blake2b(digest_size=16, key=self._hkey), 256)
        digest = hasher.copy()
        n = len(active)
        middle = (_ONE_BYTE[n] if width == 1 and not house and n < len(_ONE_BYTE)
                  else f"{n}|{width}{house}".encode())
        digest.update(b"".join((head, middle, grid, words, rest[2])))
        return digest.hexdigest()

    def _hash_head(self) -> bytes:
        """The start of state_hash's (version 2) text: the phase and this turn's fields.
        Kept until one of them changes: every place that sets them (a phase entered, a turn
        begun or reset, a power used, the game over) drops it, and most actions keep it."""
        # %-formatting makes the f-string's text in about half the time (bools as 0 and 1):
        # a replay load builds this at most steps.
        return ("%s|%s|%d|%d%d|%d|%d|%d|" % (  # noqa: UP031
            self._phase._value_, self._end_reason, self._used, self._wildfire, self._sanctuary,
            self._turn, self._player, self._bonus)).encode()

    def _hash_body(self) -> tuple[bytes, bool, bytes]:
        """state_hash's (version 2) grid bytes, whether a count passes 255, and the counts
        (tokens, Studies, markers, marker stacks, supply, pool). Kept until one of them
        changes: every place that changes them (here and in powers.resolve) drops it."""
        grid = array("b", self._grid).tobytes()  # element indices (fewer than 33) or -1
        counts = [*self._tokens, *self._study, *self._markers, *self._mtokens, *self._supply,
                  *self._pool]
        try:
            return grid, False, bytes(counts)
        except ValueError:  # a count past 255
            return grid, True, array("q", counts).tobytes()

    def _house_state(self) -> bool:
        """Whether house-rule state (spent activations, Major uses, idle turns) can matter."""
        return bool(self._spent or self._capped or self.rules.idle_round_limit is not None)

    def _house_words(self) -> str:
        """The house-rule state in state_hash's version 2, when it can matter."""
        if not self._house_state():
            return ""
        # A list's repr, as when _majors was a list: the hashes stored in files stay the same.
        return f"|{self._spent}|{list(self._majors)}|{self._turn - self._busy}"

    def _hash_v1(self) -> str:
        state: tuple[object, ...] = (
                 self.rules.elements, self.players, self._grid, sorted(self._active),
                 self._tokens, self._study, self._markers, self._mtokens, self._supply,
                 self._pool, self._phase._value_, self._turn, self._player, self._bonus,
                 self._wildfire, self._sanctuary, self._used, self._end_reason)
        if self._house_state():
            # House-rule state, only where it can matter: seed-rules games hash as before.
            state = (*state, self._spent, list(self._majors), self._turn - self._busy)
        digest = hashlib.blake2b(repr(state).encode(), digest_size=16)
        # The deck can be long (replays of big variants): it is kept as bytes and hashed in
        # place.
        digest.update(memoryview(self._deck)[self._deck_pos:])
        return digest.hexdigest()

    def clone(self) -> Game:
        """An independent copy. The history is shared, not copied: its records never change,
        and each game only adds records after its own last one, so a clone costs the same at
        any game length. Tuples, bytes and the cached legal list are never changed in place,
        so they are shared too."""
        return Game._make(
            self._fixed, self._start, self._deck, self._deck_pos, self._grid[:], self._active[:],
            self._tokens[:], self._study[:], self._markers[:], self._mtokens[:], self._supply[:],
            self._pool[:], self._phase, self._turn, self._player, self._bonus, self._wildfire,
            self._sanctuary, self._used, self._end_reason, self._last, self._free, self._spent,
            self._majors, self._busy, self._dsum, self._hhead, self._hbody,
            self._legal)

    def freeze(self, previous: Frozen | None = None) -> Frozen:
        """This position as an opaque value to keep and :meth:`thaw` later, for keepers of
        many positions of one game (a replay keeps one per step; a tuple costs several times
        less than a Game).

        ``previous`` is an earlier frozen position of this same game; while this game's grid,
        tokens and counts are those of ``previous`` (the state hash's cached part tells: any
        change drops it), they share its lists rather than copying them. Never move the lists
        of a frozen position: thaw it.
        """
        body = self._hbody
        if previous is None or body is None or previous[27] is not body:  # [27]: the hash body
            # Copied: this game moves on.
            grid, tokens, study, markers = (self._grid[:], self._tokens[:], self._study[:],
                                            self._markers[:])
            mtokens, supply, pool = self._mtokens[:], self._supply[:], self._pool[:]
        else:
            grid, tokens, study, markers = previous[4], previous[6], previous[7], previous[8]
            mtokens, supply, pool = previous[9], previous[10], previous[11]
        return (self._fixed, self._start, self._deck, self._deck_pos, grid, self._active[:],
                tokens, study, markers, mtokens, supply, pool, self._phase, self._turn,
                self._player, self._bonus, self._wildfire, self._sanctuary, self._used,
                self._end_reason, self._last, self._free, self._spent, self._majors,
                self._busy, self._dsum, self._hhead, body, self._legal)

    @classmethod
    def thaw(cls, frozen: Frozen) -> Game:
        """A game at a position kept by :meth:`freeze`, independent of it (as :meth:`clone`)."""
        (fixed, start, deck, pos, grid, active, tokens, study, markers, mtokens, supply, pool,
         phase, turn, player, bonus, wildfire, sanctuary, used, end_reason, last, free, spent,
         majors, busy, dsum, hhead, hbody, legal) = frozen
        return cls._make(fixed, start, deck, pos, grid[:], active[:], tokens[:], study[:],
                         markers[:], mtokens[:], supply[:], pool[:], phase, turn, player, bonus,
                         wildfire, sanctuary, used, end_reason, last, free, spent, majors, busy,
                         dsum, hhead, hbody, legal)

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickle and deepcopy state: every field but the cached legal list, whose ids mean
        nothing to another process or to a copy's actions. The history goes as a flat list
        of (action, events, step), oldest first: its records nest one inside the next, and
        pickle and deepcopy recurse once per level (a few hundred steps overflowed them)."""
        state = {name: getattr(self, name) for name in Game.__slots__}
        state["_legal"] = None
        state["_tail"] = None  # found again when asked: a view of the history it carries
        state["_last"] = [(r[0], r[1], r[3]) for r in _chain(self._last, 0)]
        return None, state

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Undo :meth:`__getstate__`: the fields, and the history's records linked again."""
        fields = state[1]
        for name, value in fields.items():
            setattr(self, name, value)
        history = fields["_last"]
        if not isinstance(history, list):  # a record as it is: pickled before it went flat
            history = [(r[0], r[1], r[3]) for r in _chain(history, 0)]
        # Which steps hold a private event is read back from the events themselves (records
        # pickled before they carried the mark have none).
        last: _Record | None = None
        private = -1
        for action, events, step in history:
            if _private(events):
                private = step
            last = (action, events, last, step, private)
        assert last is not None  # the set-up record is always there
        self._last = last
        self._step = last[3]
        self._tail = None  # the history's records are new ones
        # Derived, so found again (a game pickled before the field was kept has none).
        deck, pos = self._deck, self._deck_pos
        self._top = self.rules.elements[deck[pos]] if pos < len(deck) else None

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
        els = self.rules.elements
        e = self._e

        def counts(values: list[int], row: int) -> dict[str, int]:
            return {els[i]: v for i, v in enumerate(values[row * e:(row + 1) * e]) if v}

        return {
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "deck": list(self.deck),
            "grid": [None if c < 0 else els[c] for c in self._grid],
            "active": list(self._active),
            "tokens": [counts(self._tokens, s) for s in range(len(self._grid))],
            "study": [counts(self._study, p) for p in range(self._n)],
            "markers": [counts(self._markers, p) for p in range(self._n)],
            "marker_tokens": [counts(self._mtokens, p) for p in range(self._n)],
            "pool": counts(self._pool, 0),
            "phase": self._phase.value,
            "turn": self._turn,
            "active_player": self._player,
            "bonus_activations": self._bonus,
            "effects": [name for name, on in (("wildfire", self._wildfire),
                                              ("sanctuary", self._sanctuary)) if on],
            "powers_used": [pw.key for i, pw in enumerate(self.rules.powers)
                            if self._used >> i & 1],
            "end_reason": self._end_reason,
            "spent_activations": self._spent,
            "powers_used_in_game": [
                {pw.key: self._majors[p * len(self.rules.powers) + i]
                 for i, pw in enumerate(self.rules.powers)
                 if self._majors[p * len(self.rules.powers) + i]} for p in range(self._n)],
            "busy_turn": self._busy,
        }

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
        return (f"<Game {len(self.players)}p turn {self._turn} player {self._player} "
                f"{self._phase.value} scores {self.scores()}>")

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        """Every action legal now, in a fixed order (RULES.md: "What is legal in each phase")."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return legal[0][:]  # a copy: the cached list is shared with clones and apply()

    def _list_legal(self) -> _Legal:
        phase = self._phase
        if phase is _P_ACTIVATION:
            # Phase 2 always starts on a full grid and removes nothing before it ends; tokens
            # and Studies stand still meanwhile, so the free slots are found once per phase.
            free = self._free
            if free is None:
                free = self._free = self._free_activations()
            active = self._active
            limit = self.rules.activations_per_turn + self._bonus - self._spent
            if not active:
                return ([*free.values(), _END_PHASE] if limit > 0 else [_END_PHASE]), None
            # The deactivations of these active slots, in slot order (the slots are kept in
            # the order they were activated): shared, as a few hundred orders recur all game.
            order = tuple(active)
            deactivations = _DEACTIVATIONS.get(order)
            if deactivations is None:
                deactivations = _keep(_DEACTIVATIONS, order,
                                      tuple([_DEACTIVATE[s] for s in sorted(active)]))
            if len(active) >= limit:
                return [*deactivations, _END_PHASE], None
            # Too many combinations to cache (tokens lie anywhere): built from a copy, since
            # free is shared with clones and never changed.
            left = free.copy()
            for s in active:
                left.pop(s, None)
            return [*left.values(), *deactivations, _END_PHASE], None
        if phase is _P_BINDING:
            size = len(self._grid)
            sources = tuple(self._sources())  # the grid is always full then
            key: tuple[Any, ...] = (phase, size, sources)
            return _LEGAL.get(key) or _remember(key, [
                *(_place(s, element, source) for s in range(size) for element, source in sources),
                _END_PHASE])
        if phase is _P_REFILL:
            # Most refill lists never come here: apply() and _collect hand them on.
            grid = self._grid
            return _refills(tuple(compress(range(len(grid)), map((-1).__eq__, grid))))
        if phase is _P_ABILITIES:
            # Phase 1 has a full grid: which powers have targets, and which targets, depend
            # only on its size and, for Tide and Unbind, on which cards are bound and (Tide)
            # whether the deck has a top card.
            base = self._player * self._e
            study = self._study
            powers = self.rules.powers
            # A plain loop: a generator costs a frame switch per power, and any() another.
            found_ready: list[tuple[str, str, str]] = []
            targeted = False  # Tide or Unbind is ready
            for i, element, need, effect, _ in self._ptab:
                if (study[base + element] >= need and not self._used >> i & 1
                        and not (self._capped and self._exhausted(self._player, i))):
                    found_ready.append((powers[i].element, powers[i].tier, effect))
                    targeted = targeted or effect in ("tide", "unbind")
            ready = tuple(found_ready)
            bound = deck = None
            if targeted:
                bound = _powers.bound_slots(self)
                deck = self._deck_pos < len(self._deck)
            size = len(self._grid)
            key = (phase, size, ready, bound, deck)
            return _LEGAL.get(key) or _remember(key, self._phase1_list(ready, bound, deck))
        return _NO_ACTIONS

    def _phase1_list(self, ready: tuple[tuple[str, str, str], ...], bound: tuple[int, ...] | None,
                     deck: bool | None) -> list[Action]:
        out: list[Action] = []
        for power in ready:
            out += self._uses(power, bound, deck)
        out.append(_END_PHASE)
        return out

    def is_legal(self, action: Action) -> bool:
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> str | None:
        """The rule ``action`` breaks now, in words, or None when it is legal."""
        try:
            self._check(action)
        except IllegalActionError as err:
            return str(err)
        return None

    def _free_activations(self) -> _Free:
        """Activations of the slots whose tokens the active player's Study satisfies
        (Sanctuary ignores tokens), in slot order."""
        size = len(self._grid)
        if len(_DEACTIVATE) < size:  # Phase 2 lists from these shared lists
            _activates(size)
            _deactivates(size)
        tokens = self._tokens
        if self._sanctuary or not any(tokens):
            return _ALL_FREE.get(size) or _every_free(size)
        e = self._e
        base = self._player * e
        study = self._study[base:base + e]
        # A slot is blocked where one of its counts passes the Study's count of its element.
        # Most counts are 0: the others are found at C speed and only they are compared.
        free = (_ALL_FREE.get(size) or _every_free(size)).copy()
        for i in compress(range(len(tokens)), tokens):
            if tokens[i] > study[i % e]:
                free.pop(i // e, None)
        return free

    def _sources(self) -> list[tuple[str, str]]:
        """(element, source) pairs that can pay for a token now, in rules then SOURCES order."""
        out = []
        base = self._player * self._e
        for i, el in enumerate(self.rules.elements):
            if self._supply[i] and self._study[base + i]:
                out.append((el, "supply"))
            if self._mtokens[base + i]:
                out.append((el, "marker"))
            if self._pool[i] and self._markers[base + i]:
                out.append((el, "pool"))
        return out

    def _uses(self, power: tuple[str, str, str], bound: tuple[int, ...] | None,
              deck: bool | None) -> list[UsePower]:
        """A ready power's legal uses in Phase 1 (none when it has no target), shared."""
        element, tier, effect = power
        tide = effect == "tide"
        key = (power, len(self._grid), bound if tide or effect == "unbind" else None,
               deck if tide else None)
        uses = _USES.get(key)
        if uses is None:
            if not _powers.has_target(self, effect):
                uses = []
            elif tide or effect == "unbind":
                # Their lists change with every binding (random play meets thousands of
                # them), made of the same few single-slot uses: those are shared.
                uses = [_one_target(element, tier, slot)
                        for (slot,) in _powers.target_choices(self, effect)]
            else:
                uses = [UsePower(element, tier, targets)
                        for targets in _powers.target_choices(self, effect)]
            _keep(_USES, key, uses)
        return uses

    def _any_power_ready(self) -> bool:
        base = self._player * self._e
        study = self._study
        for index, element, need, effect, _ in self._ptab:
            if (study[base + element] >= need and not self._used >> index & 1
                    and not (self._capped and self._exhausted(self._player, index))
                    and _powers.has_target(self, effect)):
                return True
        return False

    def _threshold(self) -> int:
        return 1 if self._wildfire else self.rules.collect_threshold

    def _slot_error(self, slot: int) -> None:
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(self._grid):
            raise IllegalActionError(
                f"slot {quote(slot)} does not exist: the grid has slots 0 to {len(self._grid) - 1}",
                "grid")

    def _check(self, action: Action) -> _Move:
        """Raise IllegalActionError naming the rule when ``action`` is not legal now; else
        return its move (check and effect) from ``_MOVES``."""
        move = _MOVES.get(type(action))
        if move is None:
            raise IllegalActionError(f"{quote(action)} is not a Leyline action", "actions")
        if self._phase is _P_GAME_OVER:
            raise IllegalActionError(f"the game is over ({self._end_reason}); no action is legal",
                                     "game end")
        move[0](self, action)
        return move

    def _check_end_phase(self, action: EndPhase) -> None:
        if self._phase is _P_REFILL:
            left = self._grid.count(-1)
            raise IllegalActionError(
                f"every empty grid slot must be refilled before Phase 3 "
                f"({_plural(left, 'empty slot')} left)", "refill")

    def _check_activate(self, action: Activate) -> None:
        if self._phase is not _P_ACTIVATION:
            self._check_phase(_P_ACTIVATION, "cards are activated")
        s = action.slot
        if not 0 <= s < len(self._grid):
            self._slot_error(s)
        if self._grid[s] < 0:
            raise IllegalActionError(f"slot {s} is empty", "activation")
        if s in self._active:
            raise IllegalActionError(
                f"slot {s} is already activated; select it again to deactivate it and refund "
                f"the activation", "activation")
        limit = self.rules.activations_per_turn + self._bonus
        if len(self._active) + self._spent >= limit:
            if not self.rules.deactivate_refund:
                raise IllegalActionError(
                    f"you have used all {limit} activations this turn; under this house rule a "
                    f"deactivated card does not refund its activation", "activation")
            raise IllegalActionError(
                f"you have used all {limit} activations this turn; deactivate a card to "
                f"get one back", "activation")
        e = self._e
        base = s * e
        if not self._sanctuary and any(self._tokens[base:base + e]):
            pbase = self._player * e
            for i, el in enumerate(self.rules.elements):
                need = self._tokens[base + i]
                have = self._study[pbase + i]
                if need > have:
                    raise IllegalActionError(
                        f"slot {s} is bound by {_plural(need, el + ' token')} and your "
                        f"Study holds {have} {el}", "binding")

    def _check_deactivate(self, action: Deactivate) -> None:
        self._check_phase(_P_ACTIVATION, "cards are deactivated")
        self._slot_error(action.slot)
        if action.slot not in self._active:
            raise IllegalActionError(f"slot {action.slot} is not activated", "activation")

    def _check_refill(self, action: Refill) -> None:
        self._check_phase(_P_REFILL, "empty slots are refilled")
        self._slot_error(action.slot)
        if self._grid[action.slot] >= 0:
            raise IllegalActionError(
                f"slot {action.slot} holds a card; only empty slots are refilled", "refill")

    def _check_phase(self, phase: Phase, what: str) -> None:
        if self._phase is not phase:
            raise IllegalActionError(
                f"{what} in the {phase.value} phase; it is now the {self._phase.value} phase",
                "turn structure")

    def _element(self, element: object) -> int:
        index = self._eidx.get(element) if isinstance(element, str) else None
        if index is None:
            raise IllegalActionError(
                f"unknown element {quote(element)}; elements are {', '.join(self.rules.elements)}",
                "elements")
        return index

    def _check_place(self, action: PlaceToken) -> None:
        self._check_phase(_P_BINDING, "Binding Spell tokens are placed")
        self._slot_error(action.slot)
        i = self._element(action.element)
        el = action.element
        if self._grid[action.slot] < 0:
            raise IllegalActionError(f"slot {action.slot} is empty; tokens go on cards", "tokens")
        pi = self._player * self._e + i
        if action.source == "supply":
            if not self._supply[i]:
                raise IllegalActionError(f"the supply has no {el} tokens left", "placing tokens")
            if not self._study[pi]:
                raise IllegalActionError(
                    f"{_a(el)} token from the supply is paid by discarding {_a(el)} card from your "
                    f"Study, and your Study holds no {el}", "placing tokens")
        elif action.source == "marker":
            if not self._mtokens[pi]:
                raise IllegalActionError(
                    f"no {el} tokens are stacked on your Spent {el} marker", "placing tokens")
        elif action.source == "pool":
            if not self._pool[i]:
                raise IllegalActionError(f"the Token Pool holds no {el} tokens", "placing tokens")
            if not self._markers[pi]:
                raise IllegalActionError(
                    f"taking {_a(el)} token from the Token Pool needs a Spent {el} marker, and you "
                    f"have none", "placing tokens")
        else:
            raise IllegalActionError(
                f"token source must be one of {', '.join(SOURCES)}, got {quote(action.source)}",
                "placing tokens")

    def _check_power(self, action: UsePower) -> None:
        self._check_phase(_P_ABILITIES, "powers are used")
        self._element(action.element)
        found = [(i, pw) for i, pw in enumerate(self.rules.powers)
                 if pw.element == action.element and pw.tier == action.tier]
        if not found:
            raise IllegalActionError(
                f"{action.element} has no {action.tier} power in these rules", "powers")
        index, pw = found[0]
        need = self.rules.threshold(pw.tier)
        have = self._study[self._player * self._e + self._eidx[pw.element]]
        if have < need:
            raise IllegalActionError(
                f"{pw.name} unlocks at {need} {pw.element} in your Study, and you have {have}",
                "powers")
        if self._used >> index & 1:
            raise IllegalActionError(f"{pw.name} was already used this turn", "powers")
        if self._exhausted(self._player, index):
            raise IllegalActionError(
                f"{pw.name} was already used {_plural(self._uses_cap(), 'time')} this game, "
                "as often as this house rule allows a Major power", "powers")
        problem = _powers.target_problem(self, pw, action.targets)
        if problem:
            raise IllegalActionError(f"{pw.name}: {problem}", "powers")

    # ------------------------------------------------------------------ transitions
    def apply(self, action: Action | Mapping[str, Any]) -> list[Event]:
        """Apply a legal action and return its events (JSON-safe dicts).

        Raises :class:`IllegalActionError` naming the rule, with the state unchanged.
        An action dict (``{"type": "activate", "slot": 3}``) is parsed first.
        """
        legal = self._legal
        listed = False
        if legal is not None:
            ids = legal[1]
            if ids is not None:
                listed = id(action) in ids
            else:  # a short list
                for a in legal[0]:
                    if a is action:
                        listed = True
                        break
        if listed:
            # One of the actions legal_actions() listed for this very state (so an Action):
            # legal already.
            act: Action = action  # type: ignore[assignment]
            effect = _EFFECTS[type(act)]
        else:
            act = action if isinstance(action, Action) else parse_action(action)
            effect = self._check(act)[1]
        self._legal = None
        events: list[Event] = []
        # An effect says whether it made a private event: a seat's view of the steps since one
        # that made none (visible_events_since) needs no look at their events.
        private = effect(self, act, events)
        if effect is _REFILLED and legal is not None and self._phase is _P_REFILL:
            # A refill that leaves the phase open empties nothing and changes nothing else the
            # list depends on: the next list is this one less that refill, in the same order
            # (found at C speed, where _list_legal would scan the grid).
            rest = legal[0][:]
            rest.remove(act)
            self._legal = (rest, None)
        last = self._last
        step = last[3] + 1
        self._last = (act, events, last, step, step if private else last[4])
        self._step = step
        tail = self._tail
        if tail is not None:  # this game's events were asked for: see _Tail
            flat = tail[1]
            tail[2].append(len(flat))
            flat += events
        return events

    def _do_activate(self, action: Activate, events: list[Event]) -> None:
        slot = action.slot
        self._active.append(slot)
        events.append({"type": "activate", "player": self._player, "slot": slot,
                       "element": self.rules.elements[self._grid[slot]]})

    def _do_deactivate(self, action: Deactivate, events: list[Event]) -> None:
        self._active.remove(action.slot)
        if not self.rules.deactivate_refund:
            self._spent += 1
        events.append({"type": "deactivate", "player": self._player, "slot": action.slot})

    def _do_refill(self, action: Refill, events: list[Event]) -> None:
        # The draw written here, its only caller (set-up writes its own out): a call of its own
        # cost ~500 instructions of the ~5,000 a refill's effect takes.
        slot = action.slot
        deck = self._deck
        pos = self._deck_pos
        card = deck[pos]
        pos += 1
        self._deck_pos = pos
        grid = self._grid
        grid[slot] = card
        self._hbody = None
        els = self.rules.elements
        self._top = els[deck[pos]] if pos < len(deck) else None
        # A copy of the event's form with its two changing values set: ~1,000 instructions,
        # where a dict display of five keys costs ~1,600 (the keys keep the form's order).
        ev = _REFILL_REVEAL.copy()
        ev["slot"] = slot
        ev["element"] = els[card]
        events.append(ev)
        if -1 not in grid:
            self._enter(_P_BINDING, events)
        elif pos >= len(deck):
            self._game_over("deck", events)

    def _enter(self, phase: Phase, events: list[Event]) -> None:
        self._hhead = None
        self._phase = phase
        self._free = None
        events.append({"type": "phase", "phase": phase._value_, "player": self._player})

    def _end_phase(self, action: EndPhase, events: list[Event]) -> None:
        phase = self._phase
        if phase is _P_ABILITIES:
            self._enter(_P_ACTIVATION, events)
        elif phase is _P_ACTIVATION:
            self._collect(events)
        elif phase is _P_BINDING:
            self._end_turn(events)

    def _collect(self, events: list[Event]) -> None:
        """End of Phase 2: collect every element with enough activations, flip back the rest.

        Phase 2 begins on a full grid (every phase but the refill has one) and empties no slot
        before it ends, so the collected slots are the empty ones afterwards.
        """
        p = self._player
        active = self._active
        self._active = []
        self._spent = 0
        if not active:
            events.append({"type": "pass", "player": p})
            self._enter(_P_BINDING, events)
            return
        grid = self._grid
        order = sorted(active)
        # The active slots by element, each in slot order. The elements are met in slot order,
        # but the events go in element order: only the collected ones are sorted (usually one).
        groups: dict[int, list[int]] = {}
        for s in order:
            slots = groups.get(grid[s])
            if slots is None:
                groups[grid[s]] = [s]
            else:
                slots.append(s)
        threshold = self._threshold()
        taken = []  # a plain loop: a comprehension is a function made and called each time
        for c, slots in groups.items():
            if len(slots) >= threshold:
                taken.append(c)
        if not taken:
            events.append({"type": "flip_back", "player": p, "slots": order})
            self._enter(_P_BINDING, events)
            return
        if len(taken) > 1:
            taken.sort()
        els = self.rules.elements
        e = self._e
        study = self._study
        tokens = self._tokens
        # Whether any card carries a token, counted at C speed (any() of the counts costs
        # several times more): most collections free none.
        bound = tokens.count(0) != len(tokens)
        freed: list[tuple[int, int, int]] = []  # (slot, element, count)
        for c in taken:
            slots = groups[c]
            study[p * e + c] += len(slots)
            events.append({"type": "collect", "player": p, "element": els[c], "slots": slots,
                           "count": len(slots)})
            for s in slots:
                grid[s] = -1
                if bound:
                    base = s * e
                    for i in range(e):
                        count = tokens[base + i]
                        if count:
                            freed.append((s, i, count))
                            tokens[base + i] = 0
        self._hbody = None
        self._busy = self._turn
        # The collected slots are now the empty ones; the rest flip back (both in slot order).
        if len(taken) == len(groups):
            emptied = order
        else:
            emptied = []
            flipped = []
            for s in order:
                if grid[s] < 0:
                    emptied.append(s)
                else:
                    flipped.append(s)
            events.append({"type": "flip_back", "player": p, "slots": flipped})
        for s, i, count in freed:
            self._return_tokens(s, i, count, events)
        if self._deck_pos >= len(self._deck):
            self._game_over("deck", events)
        else:
            self._enter(_P_REFILL, events)
            # The refill list is the emptied slots' (handed on: no scan of the grid for it).
            self._legal = _refills(tuple(emptied))

    def _return_tokens(self, slot: int, i: int, count: int, events: list[Event]) -> None:
        """Freed tokens go to the active player's matching Spent marker, else to the pool."""
        pi = self._player * self._e + i
        self._hbody = None
        if self._markers[pi]:
            self._mtokens[pi] += count
            to = "marker"
        else:
            self._pool[i] += count
            to = "pool"
        events.append({"type": "token_return", "player": self._player, "slot": slot,
                       "element": self.rules.elements[i], "count": count, "to": to})

    def _do_place(self, action: PlaceToken, events: list[Event]) -> None:
        i = self._eidx[action.element]
        pi = self._player * self._e + i
        if action.source == "supply":
            self._supply[i] -= 1
            self._study[pi] -= 1
            self._markers[pi] += 1
        elif action.source == "marker":
            self._mtokens[pi] -= 1
        else:
            self._pool[i] -= 1
        self._tokens[action.slot * self._e + i] += 1
        self._hbody = None
        self._busy = self._turn
        events.append({"type": "place_token", "player": self._player, "slot": action.slot,
                       "element": action.element, "source": action.source})

    def _do_power(self, action: UsePower, events: list[Event]) -> bool:
        # The power's index (checked to exist), by a plain loop: a generator is a frame of
        # its own.
        powers = self.rules.powers
        index = 0
        while powers[index].element != action.element or powers[index].tier != action.tier:
            index += 1
        pw = powers[index]
        self._hhead = None  # powers used, and the effects and bonus the power may set
        self._used |= 1 << index
        majors = list(self._majors)
        majors[self._player * len(self.rules.powers) + index] += 1
        self._majors = tuple(majors)
        self._busy = self._turn
        events.append({"type": "power", "player": self._player, "element": pw.element,
                       "tier": pw.tier, "name": pw.name, "effect": pw.effect,
                       "targets": list(action.targets)})
        private = _powers.resolve(self, pw.effect, action.targets, events)
        if not self._any_power_ready():
            self._enter(_P_ACTIVATION, events)
        return private

    def _end_turn(self, events: list[Event]) -> None:
        """The end checks, in RULES.md's order (interpretation 9): turn limit, round limit,
        idle rounds, stalemate. The turn counter only moves on when the game goes on."""
        rules = self.rules
        turn = self._turn
        if rules.turn_limit is not None and turn >= rules.turn_limit:
            self._game_over("turn_limit", events)
        elif rules.round_limit is not None and turn >= rules.round_limit * self._n:
            self._game_over("round_limit", events)
        elif (rules.idle_round_limit is not None
              and turn - self._busy >= rules.idle_round_limit * self._n):
            self._game_over("idle", events)
        else:
            # The turn's effects are over; a limit leaves them on record, as it always has.
            # (The phase and the state hash's head are set anew below, by either way out.)
            self._bonus = 0
            self._wildfire = False
            self._sanctuary = False
            self._used = 0  # bitmask over rules.powers: powers used this turn
            self._spent = 0
            if self._stalemate():
                self._game_over("stalemate", events)
                return
            self._turn = turn + 1
            self._player = (self._player + 1) % self._n
            self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        self._hhead = None  # a new turn, player and phase
        self._phase = _P_ABILITIES if self._any_power_ready() else _P_ACTIVATION
        self._free = None
        events.append({"type": "turn", "turn": self._turn, "player": self._player,
                       "phase": self._phase._value_})

    def _game_over(self, reason: str, events: list[Event], turns: int | None = None) -> None:
        """End the game; ``turns`` is the turns played (the current one unless told)."""
        self._hhead = None
        self._phase = _P_GAME_OVER
        self._over = True
        self._end_reason = reason
        self._active = []
        events.append({"type": "game_over", "reason": reason, "scores": self.scores(),
                       "winners": self.winners(),
                       "turns": self._turn if turns is None else turns})

    def _uses_cap(self) -> int:
        cap = self.rules.major_uses_per_game
        return 0 if cap is None else cap

    def _exhausted(self, player: int, index: int) -> bool:
        """True when ``major_uses_per_game`` forbids ``player`` power ``index`` from now on."""
        return (index in self._capped and self._majors[player * len(self.rules.powers) + index]
                >= self._uses_cap())

    def _effects(self, player: int) -> set[str]:
        """The effects of every power ``player``'s Study unlocks now."""
        base = player * self._e
        study = self._study
        # A plain loop: a comprehension is a function call of its own, and this runs for
        # every player at every end of turn.
        out = set()
        for index, element, need, effect, _ in self._ptab:
            if study[base + element] >= need and not (
                    self._capped and self._exhausted(player, index)):
                out.add(effect)
        return out

    def _stalemate(self) -> bool:
        """True when no player can ever collect again (RULES.md, interpretation 8).

        Without a collection, the grid's cards and their tokens change only by Ripple (which
        moves cards with their tokens), Tide and Unbind (counted below); tokens are otherwise
        only added, and Studies only fall: so if nobody can collect even then, nobody ever will.
        """
        e = self._e
        tokens = self._tokens
        grid = self._grid
        # Rules validation keeps the threshold within one turn's activations, so enough
        # token-free cards of one element mean a collection is possible.
        threshold = self.rules.collect_threshold
        # A card with a token holds at least one nonzero count, so the cards less the nonzero
        # counts are token-free at least; more of them than e * (threshold - 1) means some
        # element has enough (counted at C speed: most ends of turn stop here). The grid is
        # full (at set-up and at the end of Phase 3): its size is its card count.
        if len(grid) - (len(tokens) - tokens.count(0)) > e * (threshold - 1):
            return False
        free = [0] * e  # token-free cards per element: anyone may activate them
        bound: list[tuple[int, tuple[int, ...]]] = []
        # The token counts slot by slot, cut into rows at C speed (a slice per slot costs more),
        # each compared with a row of zeros (cheaper than any(): no call, no iterator).
        zero = (0,) * e
        for c, here in zip(grid, zip(*[iter(tokens)] * e)):
            if c >= 0:
                if here != zero:
                    bound.append((c, here))
                else:
                    free[c] += 1
                    if free[c] >= threshold:
                        return False
        # A collection some player can make now, with no power, settles it: powers below only
        # ever add cards a player may activate (and Wildfire lowers the need).
        for q in range(self._n):
            study = self._study[q * e:(q + 1) * e]
            counts = free[:]
            for c, here in bound:
                if all(map(operator.le, here, study)):
                    counts[c] += 1
                    if counts[c] >= threshold:
                        return False
        # Plain loops from here on (this runs at every end of turn): a comprehension or a
        # generator is a function call of its own.
        effects = []
        unbind = tide = False
        for q in range(self._n):
            fx = self._effects(q)
            effects.append(fx)
            unbind = unbind or "unbind" in fx
            tide = tide or "tide" in fx
        # Unbind can, in time, strip every token: then every card is as good as token-free.
        # It cannot change which elements lie on the grid, so lone elements stay lone.
        if unbind:
            for c, _ in bound:
                free[c] += 1
            bound = []
        # Tide swaps a token-free card with the face-up deck top, turn after turn: those cards
        # and the top can be arranged at will, but one of them always stays on the deck (the
        # cards below the top never come up without a refill).
        pos = self._deck_pos
        if pos < len(self._deck) and tide:
            room = sum(free)
            free[self._deck[pos]] += 1
            for c in range(e):
                if free[c] > room:
                    free[c] = room
        for q, fx in enumerate(effects):
            acts = self.rules.activations_per_turn + (1 if "spark" in fx else 0)
            need = 1 if "wildfire" in fx else self.rules.collect_threshold
            if need > acts:
                continue
            counts = free[:]
            study = self._study[q * e:(q + 1) * e]
            for c, here in bound:
                if "sanctuary" in fx or all(map(operator.le, here, study)):
                    counts[c] += 1
            if max(counts) >= need:
                return False
        return True


#: The moves of Leyline, declared in one place: each action type's check and effect.
_MOVES: dict[type, _Move] = {
    Activate: (Game._check_activate, Game._do_activate),
    Deactivate: (Game._check_deactivate, Game._do_deactivate),
    EndPhase: (Game._check_end_phase, Game._end_phase),
    Refill: (Game._check_refill, Game._do_refill),
    PlaceToken: (Game._check_place, Game._do_place),
    UsePower: (Game._check_power, Game._do_power),
}


#: Each action type's effect alone, for the actions apply() knows to be legal.
_EFFECTS: dict[type, _Effect] = {
    kind: move[1] for kind, move in _MOVES.items()}
_REFILLED: _Effect = Game._do_refill  # what apply() hands the next refill list on after


def _power_table(rules: Rules) -> tuple[tuple[int, int, int, str, str], ...]:
    """(index, element index, threshold, effect, key) per power: rules.powers for hot paths."""
    return tuple((i, rules.elements.index(pw.element), rules.threshold(pw.tier), pw.effect,
                  pw.key) for i, pw in enumerate(rules.powers))


#: What _fixed_fields derives from the rules and players alone, by the rules' id and the
#: players (the entry keeps the rules alive, so no other Rules takes that id meanwhile):
#: simulations deal game after game under the same rules.
_DERIVED: dict[tuple[int, tuple[str, ...]], tuple[Rules, _Fixed]] = {}


def _fixed_fields(rules: Rules, players: tuple[str, ...], seed: int | None,
          initial_deck: tuple[str, ...]) -> _Fixed:
    found = _DERIVED.get((id(rules), players))
    if found is None:
        capped = (() if rules.major_uses_per_game is None else
                  tuple(i for i, pw in enumerate(rules.powers) if pw.tier == "major"))
        hkey = hashlib.blake2b(repr((rules.elements, players)).encode(), digest_size=64,
                               person=b"leyline-state-2").digest()
        found = _keep(_DERIVED, (id(rules), players), (rules, (
            rules, players, None, len(players), len(rules.elements),
            {el: i for i, el in enumerate(rules.elements)}, _power_table(rules), capped, hkey,
            ())), 64)
    (_, players, _, n, e, eidx, ptab, capped, hkey, _) = found[1]
    return (rules, players, seed, n, e, eidx, ptab, capped, hkey, initial_deck)


#: By element count and cards per element, what _deal starts from: the deck in rules order,
#: and Fisher-Yates's steps (position, random bits its draw takes).
_DEALS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}


def _deal(seed: int, elements: int, per_element: int) -> list[int]:
    """The deck dealt from ``seed``, top first, as element indices: the cards in rules order
    (``per_element`` of each element) shuffled exactly as ``random.Random(seed).shuffle``
    does in Python 3.11 (tests/test_engine.py proves it), written out here so that a deal
    costs less and stays the same under a future Python whose shuffle draws differently.

    Step by step from the last position down, ``j`` is drawn uniformly below ``i + 1`` from
    ``i + 1``'s bit length of random bits, drawn again while too large (what 3.11's
    ``_randbelow`` does); a plain loop over precomputed steps, with no call per draw but the
    generator's own.
    """
    found = _DEALS.get((elements, per_element))
    if found is None:
        found = _keep(_DEALS, (elements, per_element), (
            tuple(c for c in range(elements) for _ in range(per_element)),
            tuple((i, (i + 1).bit_length()) for i in range(elements * per_element - 1, 0, -1))),
            64)
    cards, steps = list(found[0]), found[1]
    bits = random.Random(seed).getrandbits
    for i, k in steps:
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


#: The default names by player count ("Player 1", ...): most games are dealt by count.
_NAMES = {n: tuple(f"Player {i + 1}" for i in range(n)) for n in range(1, MAX_PLAYERS + 1)}


def player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if type(players) is int and players in _NAMES:
        return _NAMES[players]
    if isinstance(players, bool):
        raise ValueError(f"players must be a count from 1 to {MAX_PLAYERS} or a list of names")
    if isinstance(players, int):
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be from 1 to {MAX_PLAYERS}, got {players}")
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError(f"players must be a count from 1 to {MAX_PLAYERS} or a list of names, "
                         f"got {quote(players)}")
    names = tuple(players)
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, got {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"player names must be non-empty strings, got {quote(name)}")
    return names


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


def check_deck(rules: Rules, deck: Sequence[str]) -> list[str]:
    """Validate an explicit deck (top first) against ``rules``; return it as a list."""
    if isinstance(deck, str) or not isinstance(deck, Sequence):
        raise ValueError(f"deck must be a list of element names, got {type(deck).__name__}")
    cards = list(deck)
    for i, card in enumerate(cards):
        if card not in rules.elements:
            raise ValueError(f"deck card {i} is {quote(card)}, not one of "
                             f"{', '.join(rules.elements)}")
    if len(cards) != rules.deck_size:
        raise ValueError(f"deck has {len(cards)} cards; these rules need {rules.deck_size} "
                         f"({rules.cards_per_element} of each element)")
    for el in rules.elements:
        count = cards.count(el)
        if count != rules.cards_per_element:
            raise ValueError(f"deck has {count} {el} cards; these rules need "
                             f"{rules.cards_per_element} of each element")
    return cards


#: The viewer who is no player (a spectator, a shared Markdown record): every private reveal
#: reaches them without its element. ``None`` is the all-seeing teacher.
ONLOOKER = -1


def visible_events(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """The events as ``viewer`` may see them: private reveals of others lose their element.

    ``viewer`` is a seat, :data:`ONLOOKER` (no seat: every private reveal is hidden) or None
    (all-seeing: nothing is hidden). This is the one filter of who sees what.

    >>> visible_events([{"type": "reveal", "slot": 1, "element": "fire", "cause": "whisper",
    ...                  "visible_to": [0]}], 1)
    [{'type': 'reveal', 'slot': 1, 'element': None, 'cause': 'whisper', 'visible_to': [0]}]
    """
    out = []
    for ev in events:
        seen = ev.get("visible_to", "all")
        if viewer is not None and seen != "all" and viewer not in seen:
            ev = {**ev, "element": None}
        out.append(ev)
    return out
