"""Powers as data: an effect is a kind with parameters, and each kind has one resolver.

A power (see :class:`~leyline_widget.core.rules.Power`) carries an :class:`Effect`. The eight
default powers are effects of seven kinds; a designer writes a new power as data
(``{"kind": "peek", "cards": 2}``) and it plays everywhere, with no code change.

>>> Effect.parse("gale")
Effect(kind='peek', n=0, cards=3)
>>> Effect.parse({"kind": "extra_activations", "n": 2}).to_data()
{'kind': 'extra_activations', 'n': 2}
>>> Effect.parse("spark").to_data()   # a default effect keeps its old id in files
'spark'
>>> Effect.parse({"kind": "peek", "cards": 9})
Traceback (most recent call last):
...
ValueError: effect peek: cards must be from 1 to 5, got 9
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from .echo import quote

__all__ = ["KINDS", "LEGACY", "Effect"]

#: The effect kinds and their parameters: name -> (low, high); a high of None is bounded by
#: the rules (a collect threshold can only be lowered). DESIGN.md, "Powers as data".
KINDS: dict[str, dict[str, tuple[int, int | None]]] = {
    "extra_activations": {"n": (1, 10)},
    "collect_threshold": {"n": (1, None)},
    "ignore_tokens": {},
    "swap": {},
    "swap_with_deck": {},
    "remove_tokens": {"cards": (1, 3)},
    "peek": {"cards": (1, 5)},
}

#: The old effect ids, which still read as the default powers' effects (earlier files).
LEGACY: dict[str, tuple[str, int, int]] = {
    "spark": ("extra_activations", 1, 0),
    "wildfire": ("collect_threshold", 1, 0),
    "sanctuary": ("ignore_tokens", 0, 0),
    "ripple": ("swap", 0, 0),
    "tide": ("swap_with_deck", 0, 0),
    "unbind": ("remove_tokens", 0, 1),
    "whisper": ("peek", 0, 1),
    "gale": ("peek", 0, 3),
}
_BY_VALUE = {value: name for name, value in LEGACY.items()}


@dataclass(frozen=True)
class Effect:
    """What a power does: a ``kind`` of :data:`KINDS` and its parameters (``n`` for the
    kinds that change a number this turn, ``cards`` for those that pick cards; 0 when the
    kind takes none)."""

    kind: str
    n: int = 0
    cards: int = 0

    def __post_init__(self) -> None:
        spec = KINDS.get(self.kind) if isinstance(self.kind, str) else None
        if spec is None:
            raise ValueError(f"unknown effect kind {quote(self.kind)}; kinds are "
                             f"{', '.join(KINDS)}")
        for name in ("n", "cards"):
            value = getattr(self, name)
            if name not in spec:
                if value != 0:
                    raise ValueError(f"effect {self.kind} takes no {quote(name)}")
                continue
            low, high = spec[name]
            top = 1000 if high is None else high
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
                raise ValueError(f"effect {self.kind}: {name} must be from {low} to {top}, "
                                 f"got {quote(value)}")

    @classmethod
    def parse(cls, data: object) -> Effect:
        """An effect from an old id (``"gale"``), a mapping (``{"kind": "peek", "cards": 2}``)
        or an Effect; ``ValueError`` naming the field otherwise."""
        if isinstance(data, Effect):
            return data
        if isinstance(data, str):
            if data in LEGACY:
                return cls(*LEGACY[data])
            raise ValueError(f"unknown effect {quote(data)}; effects are a kind "
                             f"({', '.join(KINDS)}) or one of {', '.join(LEGACY)}")
        if not isinstance(data, Mapping):
            raise ValueError(f"an effect must be an id or an object, got {quote(data)}")
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise ValueError(f"unknown effect kind {quote(kind)}; kinds are {', '.join(KINDS)}")
        extra = sorted(str(k) for k in data if k != "kind" and k not in KINDS[kind])
        if extra:
            raise ValueError(f"effect {kind} takes no {', '.join(map(repr, extra))}")
        params = {name: data.get(name, KINDS[kind][name][0]) for name in KINDS[kind]}
        return cls(kind, **params)

    @property
    def id(self) -> str:
        """The old id of a default effect (``"gale"``), else the kind: what events and
        reveals name the effect by."""
        return _BY_VALUE.get((self.kind, self.n, self.cards), self.kind)

    def to_data(self) -> str | dict[str, Any]:
        """The file form: a default effect's old id (files stay as they were), else a
        mapping."""
        if (self.kind, self.n, self.cards) in _BY_VALUE:
            return self.id
        return {"kind": self.kind, **{name: getattr(self, name) for name in KINDS[self.kind]}}

    # ------------------------------------------------------------------ targets
    @property
    def target_sizes(self) -> tuple[int, int]:
        """How many target slots a use takes: (fewest, most)."""
        if self.kind == "swap":
            return 2, 2
        if self.kind == "swap_with_deck":
            return 1, 1
        if self.kind in ("remove_tokens", "peek"):
            return 1, self.cards
        return 0, 0

    def targets(self, cards: list[int], bound: set[int], deck: bool) -> Iterator[tuple[int, ...]]:
        """Every legal target choice, fewest slots first, each in ascending slot order, given
        the slots holding ``cards``, the ``bound`` ones (carrying Binding tokens) and whether
        the deck has a top card."""
        kind = self.kind
        if kind == "swap":
            yield from combinations(cards, 2)
            return
        if kind == "swap_with_deck":
            if deck:
                yield from ((s,) for s in cards if s not in bound)
            return
        if kind == "remove_tokens":
            cards = [s for s in cards if s in bound]
        elif kind != "peek":
            yield ()
            return
        for k in range(1, self.cards + 1):
            yield from combinations(cards, k)

    def count_targets(self, cards: int, bound: int, deck: bool) -> int:
        """How many target choices :meth:`targets` lists, counted without listing them."""
        kind = self.kind
        if kind == "swap":
            return comb(cards, 2)
        if kind == "swap_with_deck":
            return cards - bound if deck else 0
        if kind == "remove_tokens":
            return sum(comb(bound, k) for k in range(1, self.cards + 1))
        if kind == "peek":
            return sum(comb(cards, k) for k in range(1, self.cards + 1))
        return 1

    def has_targets(self, cards: int, bound: int, deck: bool) -> bool:
        """Whether :meth:`targets` lists any choice (``count_targets(...) > 0``)."""
        kind = self.kind
        if kind == "swap":
            return cards >= 2
        if kind == "swap_with_deck":
            return deck and cards > bound
        if kind == "remove_tokens":
            return bound > 0
        if kind == "peek":
            return cards > 0
        return True

    def target_problem(self, targets: tuple[int, ...], size: int, cards: Container[int],
                       bound: set[int], deck: bool, name: str = "it") -> str | None:
        """Why ``targets`` are not a legal choice now for the power called ``name``, or None
        when they are."""
        for t in targets:
            if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < size:
                return f"slot {quote(t)} does not exist: the grid has slots 0 to {size - 1}"
        if list(targets) != sorted(set(targets)):
            return "target slots must be distinct and in ascending order"
        low, high = self.target_sizes
        if not low <= len(targets) <= high:
            return f"takes {_how_many(low, high)}, got {len(targets)}"
        for t in targets:
            if t not in cards:
                return f"slot {t} is empty"
        if self.kind == "swap_with_deck":
            if not deck:
                return "the Leyline deck is empty, so there is no top card to swap with"
            if targets[0] in bound:
                return f"slot {targets[0]} carries Binding tokens; {name} needs a token-free card"
        if self.kind == "remove_tokens":
            for t in targets:
                if t not in bound:
                    return f"slot {t} carries no Binding tokens"
        return None


def _how_many(low: int, high: int) -> str:
    words = {0: "no target", 1: "one slot", 2: "two slots", 3: "three slots"}
    if low == high:
        return words.get(low, f"{low} slots")
    return f"{words.get(low, str(low)).split()[0]} to {words.get(high, f'{high} slots')}"
