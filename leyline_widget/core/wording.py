"""The game's nouns in sentences: every layer's messages (the log, the lessons, the coach) name
elements and grid slots the same way.

>>> element_name("fire"), slot_list([2]), slot_list([7, 1, 5])
('Fire', 'slot 2', 'slots 1, 5 and 7')
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["element_name", "slot_list"]


def element_name(element: str) -> str:
    """The display name of an element id (ids are lowercase: ``"fire"`` -> ``"Fire"``)."""
    return element.replace("_", " ").capitalize()


def slot_list(slots: Iterable[int]) -> str:
    """Grid slots in ascending order: ``[2]`` -> ``"slot 2"``, ``[7, 1, 5]`` -> ``"slots 1, 5
    and 7"``."""
    ss = sorted(slots)
    if len(ss) == 1:
        return f"slot {ss[0]}"
    return "slots " + ", ".join(map(str, ss[:-1])) + f" and {ss[-1]}"
