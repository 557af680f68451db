"""What one seat can know: a read-only view of the position for a seat with perfect memory.

Every grid card is shown to every seat when it lands (set-up, refill, Tide), so a seat that
remembers everything it was shown knows the whole grid; what nobody knows is the deck below its
face-up top. A :class:`SeatView` is that knowledge, read straight from the position: the
perfect-memory bots (greedy, the expert and its rollouts) decide from it and need no fold of
events. (A game begun from a position is the exception: there a seat knows only the cards shown
since the game began, and its own peeks.) Forgetful players fold events through
:class:`~leyline_widget.core.knowledge.Knowledge` instead.

The view reads the game as it is when each attribute is first read, and keeps that value: read
what a decision needs before the game moves on.

>>> from leyline_widget.core.game import Game
>>> game = Game.new(players=2, seed=7)
>>> view = game.seat_view(1)
>>> view.phase, view.active_player, len(view.known)
(<Phase.ACTIVATION: 'activation'>, 0, 12)
>>> view.known[0] == game.card(0)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

if TYPE_CHECKING:
    from .game import Game, Phase
    from .rules import Power, Rules
    from .types import Observation

from .actions import SOURCES, Action
from .types import Event

__all__ = ["ONLOOKER", "LegalActions", "SeatView", "visible_events"]

_T = TypeVar("_T")


class cached_property(Generic[_T]):
    """A read-only attribute of a view, worked out when first read and kept in the view (the
    view reads the game as it is then), with no lock: a view belongs to one decision."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, view: None, owner: type | None = None) -> cached_property[_T]: ...

    @overload
    def __get__(self, view: object, owner: type | None = None) -> _T: ...

    def __get__(self, view: object, owner: type | None = None) -> Any:
        if view is None:
            return self
        value = view.__dict__[self.name] = self.func(view)
        return value


class SeatView:
    """One seat's knowledge of the position (perfect memory). Every attribute is read-only.

    Element counts are mappings over every element of the rules, in the rules' order.
    """

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat
        self.rules: Rules = game.rules
        self.players: int = len(game.players)
        self._pos = pos = game._pos
        self.phase: Phase = pos.phase
        self.turn: int = pos.turn
        self.active_player: int = pos.player

    @cached_property
    def step(self) -> int:
        """Actions applied since set-up."""
        return self._game.step

    @cached_property
    def deck_top(self) -> str | None:
        """The face-up top card of the Leyline deck (public), or None when it is empty."""
        return self._game.deck_top

    # ------------------------------------------------------------------ the grid
    @cached_property
    def known(self) -> Mapping[int, str]:
        """Slot -> element of every card on the grid this seat knows (inert or active)."""
        els, pos = self.rules.elements, self._pos
        bit, seen = 1 << self.seat, pos.seen
        # (an empty slot is known to no seat)
        return {s: els[c] for s, c in enumerate(pos.grid) if seen[s] & bit}

    def slots_of(self, element: str) -> list[int]:
        """The known slots whose card is of ``element``, in slot order (:attr:`known` read
        for one element).

        >>> from leyline_widget.core.game import Game
        >>> game = Game.new(players=2, seed=7)
        >>> all(game.card(s) == "fire" for s in game.seat_view(0).slots_of("fire"))
        True
        """
        c, bit, seen = self.rules.elements.index(element), 1 << self.seat, self._pos.seen
        return [s for s, card in enumerate(self._pos.grid) if card == c and seen[s] & bit]

    @cached_property
    def public(self) -> frozenset[int]:
        """The known slots whose card every seat was shown (what an opponent may remember)."""
        everyone, seen = (1 << self.players) - 1, self._pos.seen
        # (an empty slot is known to no seat)
        return frozenset([s for s, shown in enumerate(seen) if shown == everyone])

    @cached_property
    def seen(self) -> Mapping[int, str]:
        """The grid cards this seat was shown since the game began: :attr:`known` (every card
        in a game dealt afresh; in a game begun from a position, those shown since)."""
        return self.known

    @cached_property
    def seen_by_all(self) -> frozenset[int]:
        """The slots of :attr:`seen` whose card every seat was shown: :attr:`public`."""
        return self.public

    @cached_property
    def empty(self) -> frozenset[int]:
        """Empty grid slots (only between a collection and the end of the refill)."""
        grid = self._pos.grid
        if -1 not in grid:
            return frozenset()
        return frozenset([s for s, c in enumerate(grid) if c < 0])

    @cached_property
    def active(self) -> Mapping[int, str]:
        """Slot -> element of the cards activated this turn, in the order they were activated."""
        pos = self._pos
        els = self.rules.elements
        return {s: els[pos.grid[s]] for s in pos.active}

    @cached_property
    def tokens(self) -> Mapping[int, Mapping[str, int]]:
        """Slot -> element -> Binding tokens, for the slots whose card carries any."""
        pos = self._pos
        els = self.rules.elements
        e = len(els)
        out: dict[int, dict[str, int]] = {}
        tokens = pos.tokens
        if not any(tokens):  # (most often no card carries any)
            return out
        for s in range(len(pos.grid)):
            row = tokens[s * e:(s + 1) * e]
            if any(row):
                out[s] = {els[i]: n for i, n in enumerate(row) if n}
        return out

    # ------------------------------------------------------------------ players
    def _rows(self, values: list[int]) -> tuple[Mapping[str, int], ...]:
        els = self.rules.elements
        e = len(els)
        return tuple([dict(zip(els, values[i:i + e])) for i in range(0, self.players * e, e)])

    @cached_property
    def study(self) -> tuple[Mapping[str, int], ...]:
        """Per player: element -> cards in their Study."""
        return self._rows(self._pos.study)

    def study_of(self, player: int) -> Mapping[str, int]:
        """One player's row of :attr:`study` (element -> cards in their Study), read alone.

        >>> from leyline_widget.core.game import Game
        >>> view = Game.new(players=3, seed=7).seat_view(0)
        >>> view.study_of(2) == view.study[2]
        True
        """
        els = self.rules.elements
        e = len(els)
        return dict(zip(els, self._pos.study[player * e:(player + 1) * e]))

    @cached_property
    def markers(self) -> tuple[Mapping[str, int], ...]:
        """Per player: element -> Spent markers."""
        return self._rows(self._pos.markers)

    @cached_property
    def marker_tokens(self) -> tuple[Mapping[str, int], ...]:
        """Per player: element -> tokens stacked on their Spent markers."""
        return self._rows(self._pos.marker_tokens)

    @cached_property
    def supply(self) -> Mapping[str, int]:
        """Element -> Binding tokens left in the supply."""
        return dict(zip(self.rules.elements, self._pos.supply))

    @cached_property
    def pool(self) -> Mapping[str, int]:
        """Element -> tokens in the shared Token Pool."""
        return dict(zip(self.rules.elements, self._pos.pool))

    @cached_property
    def token_sources(self) -> tuple[tuple[str, str], ...]:
        """The (element, source) pairs that can pay for a Binding token now, the active
        player's (Phase 3), in the rules' order of elements, then ``supply``, ``marker``,
        ``pool``: a supply token is paid with a Study card of its element, a marker's with the
        tokens stacked on that Spent marker, a Token Pool's needs a Spent marker of its element.

        >>> from leyline_widget.core.game import Game
        >>> Game.new(players=2, seed=7).seat_view(0).token_sources
        ()
        """
        if self.phase != "binding":
            return ()
        els = self.rules.elements
        return tuple([(els[k // 3], SOURCES[k % 3]) for k in self._game._sources()])

    @cached_property
    def unlocked(self) -> tuple[tuple[str, ...], ...]:
        """Per player: the keys of the powers their Study unlocks now, in the rules' order."""
        return tuple(tuple(pw.key for pw in self._game.unlocked(p)) for p in range(self.players))

    # ------------------------------------------------------------------ this turn
    @cached_property
    def deck_count(self) -> int:
        """Cards left in the Leyline deck (the top one face up)."""
        return len(self._pos.deck) - self._pos.deck_pos

    @cached_property
    def activations_used(self) -> int:
        """Activations spent this turn (active cards, and deactivations that refund none)."""
        return len(self._pos.active) + self._pos.spent

    @cached_property
    def activations_left(self) -> int:
        """Activations the active player may still make this turn (Phase 2)."""
        return self._game.activations_left()

    @cached_property
    def activation_limit(self) -> int:
        """Activations this turn: the rules' plus extra ones from powers."""
        return self.rules.activations_per_turn + self._pos.bonus

    @cached_property
    def collect_threshold(self) -> int:
        """Cards of one element that are collected this turn (powers may lower it)."""
        return self._game._threshold()

    @cached_property
    def ignore_tokens(self) -> bool:
        """Whether Binding tokens restrict no activation this turn (a power such as
        Sanctuary)."""
        return self._pos.ignore_tokens

    @cached_property
    def turns_since_collection(self) -> int:
        """Turns begun since the last collection (anyone's), this one included, in this game
        (in a game begun from a position, since it began)."""
        turns = 0
        for step in reversed(self._game.event_log):
            for ev in reversed(step):
                if ev["type"] == "collect":
                    return turns
                turns += ev["type"] == "turn"
        return turns

    @cached_property
    def observation(self) -> Observation:
        """This seat's observation (the JSON form of what it sees now)."""
        return self._game.observation(self.seat)

    @cached_property
    def powers_used(self) -> frozenset[str]:
        """Keys of the powers the active player used this turn."""
        return frozenset(pw.key for i, pw in enumerate(self.rules.powers)
                         if self._pos.used >> i & 1)

    @cached_property
    def usable(self) -> tuple[Power, ...]:
        """The powers the active player can use now (in Phase 1): unlocked, unused this turn,
        not used up for the game, and with at least one legal target; in the rules' order."""
        if self.phase != "abilities":
            return ()
        powers = self.rules.powers
        return tuple([powers[i] for i in self._pos.ready])


class LegalActions(Sequence[Action]):
    """The actions legal now in ``game``: :meth:`~.game.Game.legal_actions` as a sequence
    worked out only as far as it is asked (as python-chess's ``board.legal_moves``).

    ``len(legal)`` counts them from the parts the list is made of (the cards offered this
    Phase 2, the active cards, the pairs that can pay for a Binding token, the empty slots, the
    ready powers' target choices) without listing them; ``action in legal`` asks the game about
    that one action, by value, as :meth:`~.game.Game.apply` will; indexing, iterating or
    comparing lists them, once, in :meth:`~.game.Game.legal_actions`'s order. Like a
    :class:`SeatView` it belongs to one decision: read it before the game moves on.

    >>> from leyline_widget.core.game import Game
    >>> from leyline_widget.core.actions import Activate, EndPhase
    >>> game = Game.new(players=2, seed=7)
    >>> legal = LegalActions(game)
    >>> len(legal), Activate(0) in legal, EndPhase() in legal, legal[0]
    (13, True, True, Activate(slot=0))
    >>> legal == game.legal_actions()
    True
    """

    __slots__ = ("_game", "_listed")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._listed: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._listed is None:
            self._listed = self._game.legal_actions()
        return self._listed

    def __len__(self) -> int:
        if self._listed is not None:
            return len(self._listed)
        game = self._game
        pos = game._pos
        phase = pos.phase
        if phase == "activation":  # each card offered and not active, with an activation left
            active = pos.active    # each active card to deactivate, and EndPhase
            n = len(active) + 1
            if game.activations_left() > 0:
                n += len([s for s in pos.offered if s not in active])
            return n
        if phase == "binding":  # a token on any card, paid by each pair that can pay; EndPhase
            return len(pos.grid) * len(game._sources()) + 1
        if phase == "refill":  # each empty slot
            return pos.grid.count(-1)
        if phase == "abilities":  # each target choice of each ready power; EndPhase
            counts, powers = game._target_counts(), game.rules.powers
            return 1 + sum([powers[i].effect.count_targets(*counts) for i in pos.ready])
        return len(self._list())

    def only(self) -> Action | None:
        """The one legal action when no other is legal (a forced move), else None. A ready
        power in Phase 1 (it has a legal target), an active card in Phase 2 (it can be
        deactivated) or a card offered with an activation left mean a choice besides
        EndPhase, with no need to count them.

        >>> from leyline_widget.core.game import Game
        >>> LegalActions(Game.new(players=2, seed=7)).only() is None
        True
        """
        game = self._game
        pos = game._pos
        phase = pos.phase
        if phase == "abilities":
            several = bool(pos.ready)
        elif phase == "activation":
            several = bool(pos.active) or (bool(pos.offered) and game.activations_left() > 0)
        else:
            several = len(self) != 1
        return None if several else self[0]

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        return self._list()[index]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._game.is_legal(action)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            other = other._list()
        return isinstance(other, (list, tuple)) and self._list() == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({self._list()!r})"


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
