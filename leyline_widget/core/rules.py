"""The ruleset: a frozen, validated value that every other module reads.

>>> rules = Rules.default()
>>> rules.grid_size, rules.deck_size
(12, 48)
>>> rules.replace(grid_cols=5).grid_size
15
>>> rules.replace(collect_threshold=0)
Traceback (most recent call last):
...
ValueError: collect_threshold must be at least 1, got 0
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .echo import names, quote
from .powers import LEGACY, Effect

__all__ = ["DEFAULT_POWERS", "EFFECTS", "MAX_COUNT", "MAX_DECK", "MAX_ELEMENTS", "MAX_GRID",
           "MAX_LEGAL", "MAX_PLAYERS", "MAX_TOKENS", "TIERS", "Effect", "Power", "Rules",
           "check_deck", "player_names"]

TIERS = ("minor", "major")

#: The old effect ids of the eight default powers (each reads as an :class:`Effect`); a new
#: power's effect is any kind of :data:`~leyline_widget.core.powers.KINDS` with parameters.
EFFECTS = tuple(LEGACY)

_ELEMENT_ID = re.compile(r"[a-z][a-z0-9_]{0,23}")  # matched whole (fullmatch)


@dataclass(frozen=True, init=False)
class Power:
    """One Minor or Major power: who owns it, what it does (an :class:`Effect`, written as
    data), and its words.

    >>> surge = Power("fire", "minor", {"kind": "extra_activations", "n": 2}, "Surge",
    ...               "+2 activations this turn.", "Click Surge in Phase 1.")
    >>> surge.key, surge.effect.kind, surge.effect.n
    ('fire:minor', 'extra_activations', 2)
    >>> Power("fire", "minor", "spark", "Spark", "+1 activation this turn", "...").effect.id
    'spark'
    """

    element: str
    tier: str
    effect: Effect
    name: str
    text: str
    instructions: str

    def __init__(self, element: str, tier: str, effect: Effect | str | Mapping[str, Any],
                 name: str, text: str, instructions: str) -> None:
        try:
            parsed = Effect.parse(effect)
        except ValueError as err:
            raise ValueError(f"power {quote(name)}: {err}") from None
        for field_name, value in (("element", element), ("tier", tier), ("effect", parsed),
                                  ("name", name), ("text", text),
                                  ("instructions", instructions)):
            object.__setattr__(self, field_name, value)

    @property
    def key(self) -> str:
        """``element:tier``, the power's name in observations and positions."""
        return f"{self.element}:{self.tier}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (a default effect as its old id); :meth:`from_dict` reads it."""
        d: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        d["effect"] = self.effect.to_data()
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Power:
        """A power from its dict form; ``ValueError`` naming the field at fault.

        >>> Power.from_dict({"element": "wind", "tier": "major", "name": "Breeze",
        ...     "effect": {"kind": "peek", "cards": 2}, "text": "Peek at two cards.",
        ...     "instructions": "Click Breeze, then two cards."}).effect.cards
        2
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a power must be an object, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in data]
        if missing:
            raise ValueError(f"power is missing field(s) {', '.join(missing)}")
        extra = sorted(str(k) for k in data if k not in names)
        if extra:
            raise ValueError(f"power has unknown field(s) {', '.join(map(quote, extra))}")
        for n in names:
            if n != "effect" and not isinstance(data[n], str):
                raise ValueError(f"power field {quote(n)} must be a string, got {quote(data[n])}")
        return cls(**{n: data[n] for n in names})


DEFAULT_POWERS: tuple[Power, ...] = (
    Power("fire", "minor", "spark", "Spark", "+1 activation this turn.",
          "Click Spark in Phase 1: you may activate one more card this turn."),
    Power("fire", "major", "wildfire", "Wildfire",
          "This turn the collect threshold is 1: every activated card is collected.",
          "Click Wildfire in Phase 1: at the end of Phase 2 every card you activated is "
          "collected, even a lone one."),
    Power("water", "minor", "ripple", "Ripple",
          "Swap two grid cards (tokens move with their card).",
          "Click Ripple in Phase 1, then click two cards on the grid: they trade places, "
          "carrying their tokens."),
    Power("water", "major", "tide", "Tide",
          "Swap a token-free grid card with the top deck card; the new grid card is briefly "
          "revealed.",
          "Click Tide in Phase 1, then click a card without tokens: it goes on top of the deck "
          "and the deck's top card takes its slot."),
    Power("earth", "minor", "unbind", "Unbind",
          "Remove all tokens from one card (returned as on collection).",
          "Click Unbind in Phase 1, then click a card with tokens: they go to your matching "
          "Spent markers, or to the Token Pool."),
    Power("earth", "major", "sanctuary", "Sanctuary",
          "Ignore Binding tokens when activating this turn.",
          "Click Sanctuary in Phase 1: in Phase 2 you may activate any card, bound or not."),
    Power("wind", "minor", "whisper", "Whisper",
          "Peek at one inert card (only you see it).",
          "Click Whisper in Phase 1, then click one card: only you see its element."),
    Power("wind", "major", "gale", "Gale",
          "Peek at up to three inert cards.",
          "Click Gale in Phase 1, then click one to three cards and confirm: only you see "
          "their elements."),
)


#: Upper bounds on every size (DESIGN.md): a variant beyond them is refused at once instead of
#: exhausting memory when it is dealt.
MAX_DECK = 10_000
MAX_GRID = 400
MAX_TOKENS = 1_000
MAX_ELEMENTS = 32
#: The most actions one legal list may hold: a ruleset whose powers could list more in
#: Phase 1 (Gale on a 400-slot grid would list 10.6 million target sets) is refused.
MAX_LEGAL = 50_000
#: Turn, round and idle limits and Major uses are counters, bounded only to stay sane numbers.
MAX_COUNT = 1_000_000


def _check_int(name: str, value: object, low: int, high: int = MAX_COUNT) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {quote(value)}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    if value > high:
        raise ValueError(f"{name} must be at most {high}, got {value}")


@dataclass(frozen=True)
class Rules:
    """A complete, validated ruleset. Build variants with :meth:`replace`.

    >>> rules = Rules.default().replace(grid_cols=5)
    >>> rules.grid_cols, Rules.from_dict(rules.to_dict()) == rules
    (5, True)
    >>> Rules.default().replace(collect_threshold=0)
    Traceback (most recent call last):
    ...
    ValueError: collect_threshold must be at least 1, got 0
    """

    elements: tuple[str, ...] = ("fire", "water", "earth", "wind")
    cards_per_element: int = 12
    grid_rows: int = 3
    grid_cols: int = 4
    activations_per_turn: int = 3
    collect_threshold: int = 2
    minor_threshold: int = 2
    major_threshold: int = 5
    tokens_per_element: int = 5
    turn_limit: int | None = None
    round_limit: int | None = None
    idle_round_limit: int | None = None
    deactivate_refund: bool = True
    major_uses_per_game: int | None = None
    powers: tuple[Power, ...] = field(default=DEFAULT_POWERS)

    def __post_init__(self) -> None:
        # Accept lists and dicts from callers and JSON, but store immutable values.
        elements: Any = self.elements
        if isinstance(elements, str) or not isinstance(elements, Iterable):
            raise ValueError(f"elements must be a list of element names, got {quote(elements)}")
        object.__setattr__(self, "elements", tuple(elements))
        powers: Any = self.powers
        if isinstance(powers, (str, Mapping)) or not isinstance(powers, Iterable):
            raise ValueError(f"powers must be a list of powers, got {quote(powers)}")
        powers = tuple(p if isinstance(p, Power) else Power.from_dict(p) for p in powers)
        if powers == DEFAULT_POWERS:
            # A variant with other elements keeps the default powers of those it still has.
            powers = tuple(p for p in powers if p.element in self.elements)
        object.__setattr__(self, "powers", powers)
        self._validate()

    def _validate(self) -> None:
        if not self.elements:
            raise ValueError("elements must name at least one element")
        if len(self.elements) > MAX_ELEMENTS:
            raise ValueError(f"elements must name at most {MAX_ELEMENTS} elements, "
                             f"got {len(self.elements)}")
        for e in self.elements:
            if not isinstance(e, str) or not _ELEMENT_ID.fullmatch(e):
                raise ValueError(
                    f"element {quote(e)} is not a valid id (lower-case letters, digits, _; "
                    "starting with a letter)")
        if len(set(self.elements)) != len(self.elements):
            raise ValueError(f"elements must be distinct, got {list(self.elements)}")
        _check_int("cards_per_element", self.cards_per_element, 1, MAX_DECK)
        _check_int("grid_rows", self.grid_rows, 1, MAX_GRID)
        _check_int("grid_cols", self.grid_cols, 1, MAX_GRID)
        for name in ("activations_per_turn", "collect_threshold", "minor_threshold",
                     "major_threshold"):
            _check_int(name, getattr(self, name), 1, MAX_DECK)
        _check_int("tokens_per_element", self.tokens_per_element, 0, MAX_TOKENS)
        for name in ("turn_limit", "round_limit", "idle_round_limit", "major_uses_per_game"):
            if getattr(self, name) is not None:
                _check_int(name, getattr(self, name), 1)
        if not isinstance(self.deactivate_refund, bool):
            raise ValueError(f"deactivate_refund must be true or false, "
                             f"got {quote(self.deactivate_refund)}")
        if self.deck_size > MAX_DECK:
            raise ValueError(f"the deck ({len(self.elements)} elements x {self.cards_per_element}"
                             f" = {self.deck_size} cards) is larger than {MAX_DECK} cards")
        if self.grid_size > MAX_GRID:
            raise ValueError(f"the grid ({self.grid_rows}x{self.grid_cols} = {self.grid_size} "
                             f"slots) is larger than {MAX_GRID} slots")
        if self.grid_size > self.deck_size:
            raise ValueError(
                f"the grid ({self.grid_rows}x{self.grid_cols} = {self.grid_size} slots) is larger "
                f"than the deck ({self.deck_size} cards)")
        if self.collect_threshold > self.activations_per_turn:
            raise ValueError(
                f"collect_threshold ({self.collect_threshold}) exceeds activations_per_turn "
                f"({self.activations_per_turn}): no element could ever be collected")
        if self.collect_threshold > self.cards_per_element:
            raise ValueError(
                f"collect_threshold ({self.collect_threshold}) exceeds cards_per_element "
                f"({self.cards_per_element}): no element could ever be collected")
        if self.major_threshold < self.minor_threshold:
            raise ValueError(
                f"major_threshold ({self.major_threshold}) must not be below minor_threshold "
                f"({self.minor_threshold})")
        seen: set[str] = set()
        for p in self.powers:
            if p.element not in self.elements:
                raise ValueError(f"power {quote(p.name)} belongs to unknown element "
                                 f"{quote(p.element)}")
            if p.tier not in TIERS:
                raise ValueError(f"power {quote(p.name)} has tier {quote(p.tier)}; tiers are "
                                 f"minor, major")
            if p.effect.kind == "collect_threshold" and p.effect.n > self.collect_threshold:
                raise ValueError(
                    f"power {quote(p.name)}: collect_threshold n ({p.effect.n}) must not exceed "
                    f"the rules' collect_threshold ({self.collect_threshold})")
            if p.key in seen:
                raise ValueError(f"two powers for {p.key}")
            seen.add(p.key)
        # Phase 1 lists every use of every ready power (the grid is full then; every card may
        # carry a token and the deck have a top).
        size = self.grid_size
        counts = [(p.effect.count_targets(size, size, True), p) for p in self.powers]
        total = sum(n for n, _ in counts) + 1
        if total > MAX_LEGAL:
            most, worst = max(counts, key=lambda c: c[0])
            raise ValueError(
                f"power {quote(worst.name)} would list {most:,} target choices on a {size}-slot "
                f"grid (Phase 1: {total:,} actions in all); a legal list may hold at most "
                f"{MAX_LEGAL:,}")

    @classmethod
    def default(cls) -> Rules:
        """The default ruleset (RULES.md): 4 elements x 12 cards, a 3x4 grid. Rules are
        values that never change, so every caller may share the one default."""
        return _DEFAULT if cls is Rules else cls()

    @property
    def grid_size(self) -> int:
        """Grid slots: rows x columns (12 by default)."""
        return self.grid_rows * self.grid_cols

    @property
    def deck_size(self) -> int:
        """Cards in the Leyline deck: elements x cards per element (48 by default)."""
        return self.cards_per_element * len(self.elements)

    def threshold(self, tier: str) -> int:
        """Cards of an element a Study needs to unlock a power of ``tier``."""
        return self.minor_threshold if tier == "minor" else self.major_threshold

    def unlocked_between(self, element: str, before: int, after: int) -> tuple[str, ...]:
        """The tiers of ``element``'s powers (Major first) that a Study going from ``before``
        to ``after`` cards of it would unlock: a forecast for words and bots; whether a power
        can be used now is :meth:`Game.power_problem`'s answer alone.

        >>> Rules.default().unlocked_between("fire", 1, 5)
        ('major', 'minor')
        >>> Rules.default().unlocked_between("fire", 2, 3)
        ()
        """
        return tuple(tier for tier in ("major", "minor")
                     if before < self.threshold(tier) <= after
                     and self.power(element, tier) is not None)

    def power(self, element: str, tier: str) -> Power | None:
        """The power of ``element`` and ``tier`` in these rules, or None."""
        for p in self.powers:
            if p.element == element and p.tier == tier:
                return p
        return None

    def replace(self, **changes: Any) -> Rules:
        """A validated variant; unknown fields and nonsense raise ``ValueError``.

        >>> Rules.default().replace(activations_per_turn=2).activations_per_turn
        2
        """
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown rules field(s) {names(unknown)}; "
                             f"fields are {', '.join(sorted(known))}")
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        if "elements" in changes and "powers" not in changes and set(self.powers) <= set(
                DEFAULT_POWERS):
            values["powers"] = DEFAULT_POWERS
        values.update(changes)
        return Rules(**values)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict; :meth:`from_dict` reads it back."""
        d: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        d["elements"] = list(self.elements)
        d["powers"] = [p.to_dict() for p in self.powers]
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from their dict form (a rules file, or a replay's); fields left out keep
        their defaults.

        >>> Rules.from_dict({"grid_cols": 5}).grid_size
        15
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be an object, got {type(data).__name__}")
        return cls.default().replace(**dict(data))


#: The most players a game seats (1 is the seed's single-player build).
MAX_PLAYERS = 4
#: The default names by player count ("Player 1", ...): most games are dealt by count.
_NAMES = {n: tuple(f"Player {i + 1}" for i in range(n)) for n in range(1, MAX_PLAYERS + 1)}


#: The default ruleset, validated once (:meth:`Rules.default`).
_DEFAULT = Rules()


def deal_order(seed: int, elements: int, per_element: int) -> list[int]:
    """The deck dealt from ``seed``, top first, as element indices: the cards in rules order
    (``per_element`` of each element) shuffled exactly as ``random.Random(seed).shuffle``
    does in Python 3.11 (tests/test_engine.py proves it), written out here so that the deal
    stays the same under a future Python whose shuffle draws differently: from the last
    position down, ``j`` is drawn uniformly below ``i + 1`` from ``i + 1``'s bit length of
    random bits, drawn again while too large.
    """
    cards = [c for c in range(elements) for _ in range(per_element)]
    bits = random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


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
