"""The action vocabulary: immutable values with a JSON form.

>>> Activate(3).to_dict()
{'type': 'activate', 'slot': 3}
>>> Action.from_dict({'type': 'place_token', 'slot': 0, 'element': 'fire', 'source': 'supply'})
PlaceToken(slot=0, element='fire', source='supply')
>>> Action.from_dict({'type': 'fly'})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown action type 'fly'; types are activate, deactivate, end_phase, ...
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .echo import names, quote

__all__ = [
    "SOURCES",
    "Action",
    "Activate",
    "Deactivate",
    "EndPhase",
    "PlaceToken",
    "Refill",
    "UsePower",
]

SOURCES = ("supply", "marker", "pool")


class Action:
    """Base of every action. Subclasses are frozen dataclasses.

    >>> Action.from_dict({"type": "activate", "slot": 3})
    Activate(slot=3)
    >>> Activate(3) == Activate(3), Activate(3).to_dict()
    (True, {'type': 'activate', 'slot': 3})
    """

    __slots__ = ()
    type: ClassVar[str] = ""
    _registry: ClassVar[dict[str, builtins.type[Action]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.type:  # abstract bases such as _SlotAction have no type
            Action._registry[cls.type] = cls

    def to_dict(self) -> dict[str, Any]:
        """The action as JSON-safe data (:meth:`from_dict` reads it back).

        >>> Action.from_dict(Activate(3).to_dict()) == Activate(3)
        True
        """
        raise NotImplementedError

    @staticmethod
    def from_dict(data: Any) -> Action:
        """Parse an action dict; malformed input raises ``ValueError`` naming the field."""
        cls: builtins.type[Action] | None
        if not isinstance(data, Mapping):
            raise ValueError(f"an action must be an object, got {type(data).__name__}")
        kind = data.get("type")
        cls = Action._registry.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise ValueError(
                f"unknown action type {quote(kind)}; types are {', '.join(Action._registry)}")
        return cls._parse(data)

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Action:
        raise NotImplementedError


def _require_slot(kind: str, slot: object) -> None:
    # bool is an int subclass: without this, Activate(True) would equal Activate(1).
    if isinstance(slot, bool) or not isinstance(slot, int):
        raise ValueError(f"{kind} needs an integer slot, got {quote(slot)}")


def _slot(data: Mapping[str, Any], kind: str, key: str = "slot") -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{kind} needs an integer {quote(key)}, got {quote(value)}")
    return value


def _text(data: Mapping[str, Any], kind: str, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{kind} needs a string {quote(key)}, got {quote(value)}")
    return value


def _only(data: Mapping[str, Any], kind: str, keys: tuple[str, ...]) -> None:
    extra = sorted(str(k) for k in data if k not in keys and k != "type")
    if extra:
        raise ValueError(f"{kind} has unexpected field(s) {names(extra)}")


@dataclass(frozen=True, slots=True)
class _SlotAction(Action):
    """An action on one grid slot: its JSON form is ``{"type": ..., "slot": n}``."""

    slot: int

    def __post_init__(self) -> None:
        _require_slot(self.type, self.slot)

    def to_dict(self) -> dict[str, Any]:
        """The action as JSON-safe data.

        >>> Activate(3).to_dict()
        {'type': 'activate', 'slot': 3}
        """
        return {"type": self.type, "slot": self.slot}

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Action:
        _only(data, cls.type, ("slot",))
        return cls(_slot(data, cls.type))


@dataclass(frozen=True, slots=True)
class Activate(_SlotAction):
    """Flip the inert card in ``slot`` to its Element side (Phase 2).

    >>> from leyline_widget import Game
    >>> game = Game.new(players=["Ada"], seed=1)
    >>> events = game.apply(Activate(3))
    >>> game.observation(0)["grid"][3]["card"]
    'active'
    >>> Activate(3).to_dict()
    {'type': 'activate', 'slot': 3}
    """

    type: ClassVar[str] = "activate"


@dataclass(frozen=True, slots=True)
class Deactivate(_SlotAction):
    """Flip an activated card back and refund its activation (Phase 2).

    >>> from leyline_widget import Game
    >>> game = Game.new(players=["Ada"], seed=1)
    >>> events = game.apply(Activate(3))
    >>> events = game.apply(Deactivate(3))
    >>> game.observation(0)["grid"][3]["card"]
    'inert'
    >>> Deactivate(3).to_dict()
    {'type': 'deactivate', 'slot': 3}
    """

    type: ClassVar[str] = "deactivate"


#: The one EndPhase of each class (see EndPhase.__new__).
_ONE: dict[type, Any] = {}


@dataclass(frozen=True, slots=True)
class EndPhase(Action):
    """Finish the current phase: skip abilities, pass or resolve Phase 2, end the turn.

    >>> from leyline_widget import Game
    >>> game = Game.new(players=["Ada", "Bo"], seed=7)
    >>> events = game.apply(EndPhase())    # Ada activates nothing: a pass
    >>> game.phase
    <Phase.BINDING: 'binding'>
    >>> events = game.apply(EndPhase())    # no token placed: Bo's turn
    >>> game.active_player, EndPhase().to_dict()
    (1, {'type': 'end_phase'})
    """

    type: ClassVar[str] = "end_phase"

    def __new__(cls) -> EndPhase:
        # One value per class, as it has no fields (every phase's end is the same action).
        one = _ONE.get(cls)
        if one is None:
            one = _ONE[cls] = object.__new__(cls)
        return one

    def to_dict(self) -> dict[str, Any]:
        """The action as JSON-safe data.

        >>> EndPhase().to_dict()
        {'type': 'end_phase'}
        """
        return {"type": "end_phase"}

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Action:
        _only(data, cls.type, ())
        return cls()


@dataclass(frozen=True, slots=True)
class Refill(_SlotAction):
    """Place the top card of the Leyline deck into the empty ``slot``.

    >>> Refill(2).to_dict()
    {'type': 'refill', 'slot': 2}
    >>> Action.from_dict({"type": "refill", "slot": 2})
    Refill(slot=2)
    """

    type: ClassVar[str] = "refill"


_A = TypeVar("_A", bound=Action)


def listed(cls: builtins.type[_A], *values: Any) -> _A:
    """An action the engine lists as legal. Its values come from the position itself (grid
    slots, the rules' elements and sources, target tuples in ascending order), so the checks
    a caller's action goes through are not repeated."""
    action = object.__new__(cls)
    names: tuple[str, ...] = cls.__slots__
    for name, value in zip(names, values):
        object.__setattr__(action, name, value)
    return action


@dataclass(frozen=True, slots=True)
class PlaceToken(Action):
    """Place one Binding Spell token of ``element`` on ``slot``, paid from ``source``.

    ``source`` is ``"supply"`` (discard a Study card, which becomes a Spent marker),
    ``"marker"`` (a token stacked on your own Spent marker) or ``"pool"`` (the Token Pool,
    needs a matching marker).

    >>> PlaceToken(4, "fire", "supply").to_dict()
    {'type': 'place_token', 'slot': 4, 'element': 'fire', 'source': 'supply'}
    """

    slot: int
    element: str
    source: str
    type: ClassVar[str] = "place_token"

    def __post_init__(self) -> None:
        _require_slot(self.type, self.slot)
        if not isinstance(self.element, str) or not isinstance(self.source, str):
            raise ValueError(f"place_token needs string element and source, got "
                             f"{quote(self.element)} and {quote(self.source)}")

    def to_dict(self) -> dict[str, Any]:
        """The action as JSON-safe data.

        >>> PlaceToken(2, "fire", "supply").to_dict()
        {'type': 'place_token', 'slot': 2, 'element': 'fire', 'source': 'supply'}
        """
        return {"type": "place_token", "slot": self.slot, "element": self.element,
                "source": self.source}

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Action:
        _only(data, cls.type, ("slot", "element", "source"))
        source = _text(data, cls.type, "source")
        if source not in SOURCES:
            raise ValueError(f"place_token source must be one of {', '.join(SOURCES)}, "
                             f"got {quote(source)}")
        return cls(_slot(data, cls.type), _text(data, cls.type, "element"), source)


@dataclass(frozen=True, slots=True)
class UsePower(Action):
    """Use the Minor or Major power of ``element`` in Phase 1, on target slots.

    >>> UsePower("wind", "major", (1, 4))     # Gale on slots 1 and 4
    UsePower(element='wind', tier='major', targets=(1, 4))
    >>> UsePower("wind", "major", (1, 4)).to_dict()["targets"]
    [1, 4]
    """

    element: str
    tier: str
    targets: tuple[int, ...] = ()
    type: ClassVar[str] = "use_power"

    def __post_init__(self) -> None:
        targets: Any = self.targets
        if not isinstance(targets, tuple):
            targets = tuple(targets)
            object.__setattr__(self, "targets", targets)
        for t in targets:
            _require_slot(self.type, t)

    def to_dict(self) -> dict[str, Any]:
        """The action as JSON-safe data.

        >>> UsePower("water", "minor", (1, 4)).to_dict()
        {'type': 'use_power', 'element': 'water', 'tier': 'minor', 'targets': [1, 4]}
        """
        return {"type": "use_power", "element": self.element, "tier": self.tier,
                "targets": list(self.targets)}

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Action:
        _only(data, cls.type, ("element", "tier", "targets"))
        tier = _text(data, cls.type, "tier")
        if tier not in ("minor", "major"):
            raise ValueError(f"use_power tier must be 'minor' or 'major', got {quote(tier)}")
        targets = data.get("targets", [])
        if not isinstance(targets, (list, tuple)) or len(targets) > 64 or any(
                isinstance(t, bool) or not isinstance(t, int) for t in targets):
            raise ValueError(f"use_power targets must be a list of slot numbers, got "
                             f"{quote(targets)}")
        return cls(_text(data, cls.type, "element"), tier, tuple(targets))
