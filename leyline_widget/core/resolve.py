"""What each kind of power does to the position: one resolver per effect kind.

Powers are data (DESIGN.md, "Powers as data"): a power's effect is a kind with parameters
(:mod:`~leyline_widget.core.powers`), and :data:`RESOLVE` holds the one resolver of each kind.
:meth:`Game.apply <leyline_widget.core.game.Game.apply>` checks a use of a power (its targets
included) before it calls the resolver, which appends the events it makes and returns True
when one of them is private (seen by some seats only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game
    from .rules import Power
    from .types import Event

__all__ = ["RESOLVE"]


def extra_activations(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]
                      ) -> bool:
    """More activations this turn (Spark: one)."""
    game._pos.bonus += pw.effect.n
    return False


def lower_threshold(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]
                    ) -> bool:
    """A lower collect threshold this turn (Wildfire: 1); a lower one already set stays."""
    game._pos.threshold = min(game._threshold(), pw.effect.n)
    return False


def ignore_tokens(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]) -> bool:
    """Binding tokens restrict no activation this turn (Sanctuary)."""
    game._pos.ignore_tokens = True
    return False


def swap(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]) -> bool:
    """Two grid cards trade places; their tokens, and what seats know, go with them."""
    pos, e = game._pos, game._e
    a, b = targets
    pos.grid[a], pos.grid[b] = pos.grid[b], pos.grid[a]
    pos.seen[a], pos.seen[b] = pos.seen[b], pos.seen[a]
    ta, tb = pos.tokens[a * e:(a + 1) * e], pos.tokens[b * e:(b + 1) * e]
    pos.tokens[a * e:(a + 1) * e], pos.tokens[b * e:(b + 1) * e] = tb, ta
    events.append({"type": "swap", "slots": [a, b]})
    return False


def swap_with_deck(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]
                   ) -> bool:
    """A token-free grid card and the face-up deck top trade places; the new grid card is
    revealed to all, and the old one is the deck's new (public) top."""
    pos, els = game._pos, game.rules.elements
    (s,) = targets
    at = pos.deck_pos
    old, new = pos.grid[s], pos.deck[at]
    pos.grid[s] = new
    pos.seen[s] = (1 << len(game.players)) - 1
    pos.deck = pos.deck[:at] + bytes((old,)) + pos.deck[at + 1:]
    events.append({"type": "tide", "slot": s, "to_deck": els[old]})
    events.append({"type": "reveal", "slot": s, "element": els[new],
                   "cause": pw.effect.id, "visible_to": "all"})
    return False


def remove_tokens(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]
                  ) -> bool:
    """Every token leaves the target cards, returned as on collection."""
    pos, e = game._pos, game._e
    for s in targets:
        for i in range(e):
            count = pos.tokens[s * e + i]
            if count:
                pos.tokens[s * e + i] = 0
                game._return_tokens(s, i, count, events)
    return False


def peek(game: Game, pw: Power, targets: tuple[int, ...], events: list[Event]) -> bool:
    """Only the player sees the target cards: the game's only private events."""
    pos = game._pos
    for s in targets:
        pos.seen[s] |= 1 << pos.player
        events.append({"type": "reveal", "slot": s,
                       "element": game.rules.elements[pos.grid[s]],
                       "cause": pw.effect.id, "visible_to": [pos.player]})
    return True


#: The resolver of each effect kind (powers.KINDS).
RESOLVE: dict[str, Callable[[Game, Power, tuple[int, ...], list[Event]], bool]] = {
    "extra_activations": extra_activations,
    "collect_threshold": lower_threshold,
    "ignore_tokens": ignore_tokens,
    "swap": swap,
    "swap_with_deck": swap_with_deck,
    "remove_tokens": remove_tokens,
    "peek": peek,
}
