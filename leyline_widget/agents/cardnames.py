"""How the coach names a grid card: by its element only while the card is face-up.

The coach's words (a review's reason, an option's label, a hint) are shown at one step of a
game: a review on the step its move led to, a hint on the position it was asked at. The game is
about what a player remembers, so those words must not remember for them: a card inert at that
step is named by its slot ("the card you had seen at slot 5"), never by what it is. A card is
face-up when the step's player view shows its element (an active card), or when the move itself
collected it (the collection was shown to all and the element is now in a Study). Elements of
tokens, Studies, Spent markers and powers are public and stay named; those words never go
through here.

>>> names = CardNames({2: "fire"})
>>> names.card(2, "fire"), names.card(5, "water"), names.card(7, None)
('the Fire at slot 2', 'the card you had seen at slot 5', 'slot 7')
>>> names.cards([3, 7], "water"), names.cards([2], "fire")
('the matching cards you had seen at slots 3 and 7', 'the Fire at slot 2')
>>> names.grouped([2, 3, 7], {2: "fire", 3: "water", 7: "water"})
'the Fire at slot 2 and the matching cards you had seen at slots 3 and 7'
>>> names.count(2, [3, 7], "water"), names.count(1, [2], "fire")
('2 matching cards', '1 Fire')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..core.types import Event, Observation
from ..core.wording import element_name, slot_list

__all__ = ["CardNames"]


class CardNames:
    """The grid cards whose element may be named at one step (module docstring): ``face_up``
    maps their slots to their elements. Every coach sentence about a card asks this."""

    def __init__(self, face_up: Mapping[int, str] | None = None) -> None:
        self.face_up: dict[int, str] = dict(face_up or {})

    @classmethod
    def at(cls, obs: Observation, events: Sequence[Event] = ()) -> CardNames:
        """The names allowed at the step of ``obs`` (a player's view: inert cards carry no
        element there), reached by a move whose ``events`` are given (its collections)."""
        face_up: dict[int, str] = {}
        for ev in events:
            if ev["type"] == "collect":
                for s in ev["slots"]:
                    face_up[s] = ev["element"]
        for s, cell in enumerate(obs["grid"]):
            if cell["element"] is not None:
                face_up[s] = cell["element"]
        return cls(face_up)

    def __repr__(self) -> str:
        return f"CardNames({self.face_up!r})"

    def shows(self, slots: Iterable[int], element: str | None) -> bool:
        """Whether every card of ``slots`` is face-up as ``element`` (so it may be named)."""
        ss = list(slots)
        return bool(ss) and element is not None and all(
            self.face_up.get(s) == element for s in ss)

    def card(self, slot: int, element: str | None) -> str:
        """One card the seat knows as ``element`` (None: never seen), as a noun phrase."""
        if self.shows([slot], element):
            return f"the {element_name(str(element))} at slot {slot}"
        if element is None:
            return f"slot {slot}"
        return f"the card you had seen at slot {slot}"

    def cards(self, slots: Sequence[int], element: str | None) -> str:
        """Cards the seat knows to share ``element``, as a noun phrase."""
        if len(slots) == 1:
            return self.card(slots[0], element)
        if self.shows(slots, element):
            return f"{element_name(str(element))} at {slot_list(slots)}"
        if element is None:
            return f"the cards at {slot_list(slots)}"
        return f"the matching cards you had seen at {slot_list(slots)}"

    def grouped(self, slots: Iterable[int], known: Mapping[int, str]) -> str:
        """Cards by the element the seat knows each as (unknown ones left out), each
        element's cards as :meth:`cards` names them, joined with "and"."""
        by_el: dict[str, list[int]] = {}
        for s in sorted(set(slots)):
            if known.get(s):
                by_el.setdefault(known[s], []).append(s)
        return " and ".join(self.cards(ss, el) for el, ss in sorted(by_el.items()))

    def count(self, k: int, slots: Sequence[int], element: str) -> str:
        """``k`` cards of ``element`` at ``slots`` (a plan's part): "2 Water" while they are
        all face-up, else "2 matching cards"."""
        if self.shows(slots, element):
            return f"{k} {element_name(element)}"
        return f"{k} matching card" + ("" if k == 1 else "s")
