"""What one seat knows of the grid: the one fold of the events that seat was shown.

Leyline is a memory game. Every card is shown when it reaches the grid, then lies inert, and
the events a seat is shown (as :func:`~leyline_widget.core.game.visible_events` filters them)
are all it learns: reveals and activations teach it the card in a slot, a Ripple swap moves
what it knows with the card, a collection or Tide takes the card away. The teacher's memory
report, the lessons and every bot read their knowledge from this one fold; forgetful bots
subclass it (see :class:`~leyline_widget.agents.bots.MemoryBot`).

Knowledge follows the card, not the slot:

>>> k = Knowledge(seat=1, known={1: "water"})
>>> k.observe([{"type": "swap", "slots": [1, 3]}])
>>> k.known
{3: 'water'}
>>> k.observe([{"type": "reveal", "slot": 0, "element": None, "cause": "whisper",
...             "visible_to": [0]}])   # seat 0's private peek, as seat 1 sees it
>>> 0 in k.known
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .types import Event

__all__ = ["Knowledge", "Sighting"]


@dataclass(frozen=True)
class Sighting:
    """The last time a seat saw the card now in a slot: its element, the step (0 = set-up,
    i = during the i-th action), the turn, and how (``setup``, ``refill``, ``tide``, ``whisper``,
    ``gale``, ``activate``, or ``given`` for cards a scenario declares known)."""

    element: str
    step: int
    turn: int
    how: str

    def to_dict(self) -> dict[str, Any]:
        return {"element": self.element, "step": self.step, "turn": self.turn, "how": self.how}


class Knowledge:
    """One seat's knowledge of each grid slot, updated from the events it was shown.

    ``known`` maps slot -> element; ``public`` holds the known slots whose element every seat
    saw too (set-up, refills, Tide, activations: what an opponent may also remember); with
    ``sightings=True``, :meth:`sighting` also says when and how each card was seen. Feed it
    events already filtered for the seat. Subclasses change what is kept by overriding
    :meth:`learn`, :meth:`forget` and :meth:`swap`; they must mutate ``known`` and ``public``,
    never rebind them, since readers keep references to both.
    """

    __slots__ = ("known", "public", "seat", "_seen")

    def __init__(self, seat: int, known: Mapping[int, str] | None = None, *,
                 sightings: bool = False, turn: int = 1) -> None:
        self.seat = seat
        self.known: dict[int, str] = {}
        self.public: set[int] = set()
        self._seen: dict[int, Sighting] | None = {} if sightings else None
        for slot, element in (known or {}).items():
            self.learn(slot, element, False, 0, turn, "given")

    def copy(self) -> Knowledge:
        new = type(self).__new__(type(self))
        new.seat = self.seat
        new.known = dict(self.known)
        new.public = set(self.public)
        new._seen = None if self._seen is None else dict(self._seen)
        return new

    # ------------------------------------------------------------------ the fold
    def observe(self, events: Iterable[Event], step: int = 0, turn: int = 0) -> None:
        """Fold in the events of one step (already as this seat may see them)."""
        for ev in events:
            self.take(ev, step, turn)

    @property
    def plain(self) -> bool:
        """True without sightings: :meth:`learn` and :meth:`forget` then change only ``known``
        and ``public`` (in this class; a subclass says for itself)."""
        return self._seen is None

    def take(self, ev: Event, step: int = 0, turn: int = 0) -> None:
        """Fold in one event."""
        kind = ev["type"]
        if kind == "reveal":
            element = ev["element"]
            if element is not None:
                self.learn(ev["slot"], element, ev["visible_to"] == "all", step, turn,
                           ev["cause"])
        elif kind == "activate":
            self.learn(ev["slot"], ev["element"], True, step, turn, "activate")
        elif kind == "collect":
            for s in ev["slots"]:
                self.forget(s)
        elif kind == "swap":
            a, b = ev["slots"]
            self.swap(a, b)
        elif kind == "tide":
            # The old card goes to the deck; the reveal that follows names the new one.
            self.forget(ev["slot"])

    def learn(self, slot: int, element: str, public: bool, step: int = 0, turn: int = 0,
              how: str = "") -> None:
        self.known[slot] = element
        if public:  # a private look at a card everyone saw leaves it public
            self.public.add(slot)
        if self._seen is not None:
            self._seen[slot] = Sighting(element, step, turn, how)

    def forget(self, slot: int) -> None:
        self.known.pop(slot, None)
        self.public.discard(slot)
        if self._seen is not None:
            self._seen.pop(slot, None)

    def swap(self, a: int, b: int) -> None:
        known, public = self.known, self.public
        ka, kb = known.pop(a, None), known.pop(b, None)
        pa, pb = a in public, b in public
        public.discard(a)
        public.discard(b)
        if kb is not None:
            known[a] = kb
            if pb:
                public.add(a)
        if ka is not None:
            known[b] = ka
            if pa:
                public.add(b)
        seen = self._seen
        if seen is not None:
            sa, sb = seen.pop(a, None), seen.pop(b, None)
            if sb is not None:
                seen[a] = sb
            if sa is not None:
                seen[b] = sa

    # ------------------------------------------------------------------ reading
    def element(self, slot: int) -> str | None:
        """The element this seat knows is in ``slot``, or None if it never saw that card."""
        return self.known.get(slot)

    def sighting(self, slot: int) -> Sighting | None:
        """When and how the card in ``slot`` was seen (needs ``sightings=True``)."""
        if self._seen is None:
            raise ValueError("this Knowledge keeps no sightings (make it with sightings=True)")
        return self._seen.get(slot)
