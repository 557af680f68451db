"""Fixed action numbering and per-player feature vectors, shared by the OpenSpiel and
PettingZoo/Gymnasium adapters (pure Python: no numpy needed here).

**Actions.** For a ruleset with ``G`` grid slots and ``E`` elements every possible action has
one number, in blocks:

======================  ===================================  =============================
block                   size                                 default rules (G=12, E=4)
======================  ===================================  =============================
Activate(slot)          G                                    12
Deactivate(slot)        G                                    12
Refill(slot)            G                                    12
EndPhase()              1                                    1
PlaceToken(s, e, src)   G x E x 3 (supply, marker, pool)     144
UsePower, per power     1 (Spark, Wildfire, Sanctuary),      1, 1, 66, 12, 12, 1, 12, 298
                        C(G,2) (Ripple), G (Tide, Unbind,
                        Whisper), G + C(G,2) + C(G,3) (Gale)
======================  ===================================  =============================

584 actions under the default rules. Target sets are numbered by the combinatorial number
system (a sorted set ``c1 < c2 < c3`` is ``C(c1,1) + C(c2,2) + C(c3,3)`` within its size), so
no table is built: Gale on the largest grid (400 slots) has C(400,3) = 10,586,800 target sets,
and encoding or decoding one is still a few multiplications.

>>> space = ActionSpace(Rules.default())
>>> space.size
584
>>> space.decode(space.encode(UsePower("wind", "major", (2, 5, 11))))
UsePower(element='wind', tier='major', targets=(2, 5, 11))

**Views.** :func:`view_vector` turns one seat's observation (``Game.observation(seat)``) and,
for perfect recall, that seat's :class:`~leyline_widget.core.knowledge.Knowledge` into a flat
list of numbers; nothing else enters it, so it is the same for any re-deal of what the seat has
not seen. Seats are listed relative to the viewer (the viewer first).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from math import comb
from typing import Any

from ..core import actions
from ..core.actions import SOURCES, Action, EndPhase, PlaceToken, UsePower
from ..core.echo import quote
from ..core.game import Game, Phase
from ..core.knowledge import Knowledge
from ..core.rules import Rules
from ..core.types import Observation
from ..core.view import SeatView

__all__ = ["ActionSpace", "view_size", "view_vector"]

_PHASES = tuple(p.value for p in Phase)
#: The actions on one slot, numbered in this order, a block of G numbers each.
_SLOT_ACTIONS: tuple[type[actions.Activate | actions.Deactivate | actions.Refill], ...] = (
    actions.Activate, actions.Deactivate, actions.Refill)
#: Each token source's place in a slot's block of placements.
_SOURCE = {source: k for k, source in enumerate(SOURCES)}


def _rank(targets: Sequence[int]) -> int:
    """The colex rank of a sorted set among the sets of its size."""
    return sum(comb(c, i + 1) for i, c in enumerate(targets))


def _unrank(rank: int, k: int) -> tuple[int, ...]:
    out = []
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= rank:
            c += 1
        out.append(c)
        rank -= comb(c, i)
    return tuple(reversed(out))


class ActionSpace:
    """Every possible action of a ruleset, numbered 0 .. ``size - 1`` (see the module text)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        g, e = rules.grid_size, len(rules.elements)
        self._g, self._e = g, e
        #: The number of each power use met so far (by element, tier and targets), and the
        #: action of each number decoded so far: filled as they are met, since a space can
        #: number millions of target sets that a game never lists (at most this space's size,
        #: which the rules keep within bounds). Actions are values: one serves every game.
        self._uses: dict[tuple[str, str, tuple[int, ...]], int] = {}
        self.actions: Mapping[int, Action] = _Decoded(self._decode)
        #: The first number of each kind of slot action (numbered slot by slot).
        self._slots: dict[type, int] = {kind: k * g for k, kind in enumerate(_SLOT_ACTIONS)}
        self._elements = {el: i for i, el in enumerate(rules.elements)}
        self._place = 3 * g + 1
        start = self._place_end = self._place + g * e * len(SOURCES)
        #: per power: (offset, [(size k, block offset, block length), ...])
        self._powers: list[tuple[int, list[tuple[int, int, int]]]] = []
        for pw in rules.powers:
            blocks = []
            at = start
            low, high = pw.effect.target_sizes  # one block of numbers per target-set size
            for k in range(low, high + 1):
                n = comb(g, k)
                blocks.append((k, at, n))
                at += n
            self._powers.append((start, blocks))
            start = at
        self.size = start
        self._power_index = {(pw.element, pw.tier): i for i, pw in enumerate(rules.powers)}

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        # A numbering is fixed by its rules: every copy of a state (OpenSpiel deep-copies
        # each of a state's attributes) can share it.
        return self

    def encode(self, action: Action) -> int:
        """The number of ``action``; ``ValueError`` for one outside these rules."""
        g = self._g
        if isinstance(action, EndPhase):
            return 3 * g
        if isinstance(action, _SLOT_ACTIONS):
            if not 0 <= action.slot < g:
                raise ValueError(f"slot {action.slot} is not on a grid of {g} slots")
            return _SLOT_ACTIONS.index(type(action)) * g + action.slot
        if isinstance(action, PlaceToken):
            if not 0 <= action.slot < g or action.element not in self.rules.elements:
                raise ValueError(f"{quote(action)} is outside these rules")
            i = self.rules.elements.index(action.element)
            return self._place + (action.slot * self._e + i) * len(SOURCES) + SOURCES.index(
                action.source)
        if isinstance(action, UsePower):
            index = self._power_index.get((action.element, action.tier))
            if index is None:
                raise ValueError(f"{quote(action)}: no such power in these rules")
            targets = tuple(action.targets)
            for k, at, _ in self._powers[index][1]:
                if k == len(targets):
                    if list(targets) != sorted(set(targets)) or (targets and not (
                            targets[0] >= 0 and targets[-1] < g)):
                        raise ValueError(f"{quote(action)}: targets must be distinct slots, "
                                         "ascending")
                    return at + _rank(targets)
            raise ValueError(f"{quote(action)}: wrong number of targets")
        raise ValueError(f"{quote(action)} is not a Leyline action")

    def decode(self, number: int) -> Action:
        """The action numbered ``number`` (a whole number, numpy integers included)."""
        if type(number) is not int:
            number = _whole(number, self.size)
        return self.actions[number]

    def _decode(self, number: int) -> Action:
        g = self._g
        if type(number) is not int or not 0 <= number < self.size:
            raise ValueError(f"action number must be from 0 to {self.size - 1}, "
                             f"got {quote(number)}")
        if number < 3 * g:
            return _SLOT_ACTIONS[number // g](number % g)
        if number == 3 * g:
            return EndPhase()
        if number < self._place_end:
            rest = number - self._place
            rest, source = divmod(rest, len(SOURCES))
            slot, i = divmod(rest, self._e)
            return PlaceToken(slot, self.rules.elements[i], SOURCES[source])
        for pw, (_, blocks) in zip(self.rules.powers, self._powers):
            for k, at, n in blocks:
                if at <= number < at + n:
                    return UsePower(pw.element, pw.tier, _unrank(number - at, k))
        raise AssertionError("unreachable: every number below size has a block")

    def legal(self, game: Game) -> list[int]:
        """The numbers of the actions legal now, ascending."""
        return self.numbers(game.legal_actions())

    def numbers(self, actions: Iterable[Action]) -> list[int]:
        """The numbers of ``actions`` (the engine's own, such as a legal list), ascending."""
        slots, place, e, elements, uses = (self._slots, self._place, self._e, self._elements,
                                           self._uses)
        end = 3 * self._g
        out = []
        for action in actions:
            kind = type(action)
            at = slots.get(kind)
            if at is not None:  # a slot action: its kind's block, then the slot
                out.append(at + action.slot)  # type: ignore[attr-defined]
            elif kind is UsePower:
                key = (action.element, action.tier, action.targets)  # type: ignore[attr-defined]
                n = uses.get(key)
                if n is None:
                    n = uses[key] = self.encode(action)
                out.append(n)
            elif kind is PlaceToken:  # a placement: its slot, element and source
                out.append(place + (action.slot * e + elements[action.element])  # type: ignore
                           * len(SOURCES) + _SOURCE[action.source])  # type: ignore[attr-defined]
            elif kind is EndPhase:
                out.append(end)
            else:
                out.append(self.encode(action))  # not an engine action: encode names it
        out.sort()
        return out

    def mask(self, game: Game) -> list[int]:
        """1 for each legal action number, else 0 (a list of ``size``)."""
        out = [0] * self.size
        for n in self.legal(game):
            out[n] = 1
        return out


class _Decoded(dict[int, Action]):
    """Each action number's action, decoded when first asked for (a number outside the space
    raises ``ValueError`` and is not kept)."""

    __slots__ = ("_decode",)

    def __init__(self, decode: Callable[[int], Action]) -> None:
        super().__init__()
        self._decode = decode

    def __missing__(self, number: int) -> Action:
        action = self[number] = self._decode(number)
        return action


def _whole(number: object, size: int) -> int:
    """``number`` as a plain int when it is a whole number (a numpy integer, say); else the
    ``ValueError`` of a bad action number."""
    if not isinstance(number, bool):
        try:
            return operator.index(number)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"action number must be from 0 to {size - 1}, got {quote(number)}")


def view_size(rules: Rules, players: int) -> int:
    """The length of :func:`view_vector` for ``rules`` and ``players`` seats."""
    g, e = rules.grid_size, len(rules.elements)
    return (len(_PHASES) + players + g * (3 + 2 * e) + 1 + e + players * 3 * e + 2 * e
            + 3 + 2 + len(rules.powers) + 1)


def view_vector(obs: Observation, rules: Rules,
                knowledge: Knowledge | SeatView | None = None) -> list[float]:
    """One seat's view as numbers: its observation, plus its memory when ``knowledge`` is given.

    Without knowledge only face-up cards (active ones) show their element, as on the table;
    with it, every card the seat remembers does too.
    """
    els = rules.elements
    viewer = obs["viewer"]
    if viewer is None:
        raise ValueError("a view vector is for one seat; the all-seeing view has none")
    n = len(obs["players"])
    out: list[float] = [1.0 if obs["phase"] == p else 0.0 for p in _PHASES]
    out += [1.0 if (obs["active_player"] - viewer) % n == q else 0.0 for q in range(n)]
    known = knowledge.known if knowledge is not None else {}
    for slot, cell in enumerate(obs["grid"]):
        card = cell["card"]
        out += [float(card == "empty"), float(card == "inert"), float(card == "active")]
        element: Any = cell["element"] if card == "active" else known.get(slot)
        out += [1.0 if element == el else 0.0 for el in els]
        tokens = cell["tokens"]
        out += [float(tokens.get(el, 0)) for el in els]
    deck = obs["deck"]
    out.append(float(deck["count"]))
    out += [1.0 if deck["top"] == el else 0.0 for el in els]
    for q in range(n):
        p = obs["players"][(viewer + q) % n]
        for part in ("study", "markers", "marker_tokens"):
            values = p[part]
            out += [float(values[el]) for el in els]
    out += [float(obs["supply"][el]) for el in els]
    out += [float(obs["pool"][el]) for el in els]
    acts = obs["activations"]
    out += [float(acts["used"]), float(acts["limit"]), float(obs["collect_threshold"])]
    out += [float("wildfire" in obs["effects"]), float("sanctuary" in obs["effects"])]
    used = set(obs["powers_used"])
    out += [float(pw.key in used) for pw in rules.powers]
    out.append(float(obs["turn"]))
    assert len(out) == view_size(rules, n)
    return out
