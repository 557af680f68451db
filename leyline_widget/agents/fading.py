"""A seat's knowledge with a human-like memory: what :class:`~.bots.MemoryBot` remembers."""

from __future__ import annotations

import math
import random

from ..core.knowledge import Knowledge

__all__ = ["FadingKnowledge"]


class FadingKnowledge(Knowledge):
    """The core's knowledge fold with a human-like memory (see :class:`MemoryBot`).

    ``rng`` draws when each fact fades; it is the bot's, and keeps running across games.
    """

    __slots__ = ("capacity", "decay", "rng", "_count", "_stamp", "_expires")

    def __init__(self, seat: int, capacity: float, decay: float, rng: random.Random) -> None:
        self.capacity, self.decay, self.rng = capacity, decay, rng
        self._count = 0                      # cards seen so far
        self._stamp: dict[int, int] = {}      # slot -> when it was learned or refreshed
        self._expires: dict[int, float] = {}  # slot -> card count at which it fades
        super().__init__(seat)

    def learn(self, slot: int, element: str, public: bool, step: int = 0, turn: int = 0,
              how: str = "") -> None:
        self._count += 1
        if self.capacity <= 0:
            return
        super().learn(slot, element, public, step, turn, how)
        self._stamp[slot] = self._count
        if self.decay <= 0:
            self._expires[slot] = math.inf
        elif self.decay >= 1:
            self._expires[slot] = self._count + 1
        else:
            u = 1.0 - self.rng.random()  # in (0, 1]
            self._expires[slot] = self._count + 1 + math.floor(
                math.log(u) / math.log1p(-self.decay))
        if len(self.known) > self.capacity:
            oldest = min(self._stamp, key=self._stamp.__getitem__)
            self.forget(oldest)

    def forget(self, slot: int) -> None:
        super().forget(slot)
        self._stamp.pop(slot, None)
        self._expires.pop(slot, None)

    def swap(self, a: int, b: int) -> None:
        super().swap(a, b)
        for d in (self._stamp, self._expires):
            va, vb = d.pop(a, None), d.pop(b, None)
            if vb is not None:
                d[a] = vb  # type: ignore[assignment]
            if va is not None:
                d[b] = va  # type: ignore[assignment]

    def recall(self) -> None:
        """Let the facts whose time has come fade."""
        faded = [s for s, t in self._expires.items() if t <= self._count]
        for s in faded:
            self.forget(s)
