"""What each power does: its legal targets and its effect on a game.

Powers are declared as data in :mod:`leyline_widget.core.rules` (element, tier, effect id,
words); this module is the code behind the eight effect ids. The engine calls it only for
Phase 1, when every slot holds an inert card.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from .echo import quote

if TYPE_CHECKING:
    from .game import Game
    from .rules import Power
    from .types import Event

__all__ = ["NO_TARGET", "bound_slots", "has_target", "resolve", "target_choices", "target_problem"]

#: Effects that take no target; they only change this turn's limits.
NO_TARGET = ("spark", "wildfire", "sanctuary")


def _cards(game: Game) -> list[int]:
    return [s for s, c in enumerate(game._grid) if c >= 0]


def _bound(game: Game, slot: int) -> bool:
    e = game._e
    return any(game._tokens[slot * e:(slot + 1) * e])


def _rows(game: Game) -> Iterator[tuple[int, ...]]:
    """The token counts slot by slot, cut at C speed (cheaper than a slice per slot)."""
    return zip(*[iter(game._tokens)] * game._e)


def bound_slots(game: Game) -> tuple[int, ...]:
    """Slots whose card carries at least one Binding token."""
    if not any(game._tokens):
        return ()
    # Plain loops here and in has_target: a comprehension or generator is a call of its own,
    # and Phase 1 asks at every turn.
    out = []
    for s, (c, here) in enumerate(zip(game._grid, _rows(game))):
        if c >= 0 and any(here):
            out.append(s)
    return tuple(out)


def has_target(game: Game, effect: str) -> bool:
    """Whether ``effect`` has at least one legal target choice now."""
    if effect in NO_TARGET:
        return True
    grid = game._grid
    if effect == "ripple":
        return len(grid) - grid.count(-1) >= 2
    if effect == "tide":
        if game._deck_pos >= len(game._deck):
            return False
        for c, here in zip(grid, _rows(game)):  # noqa: SIM110 - no generator (see above)
            if c >= 0 and not any(here):
                return True
        return False
    if effect == "unbind":
        for c, here in zip(grid, _rows(game)):  # noqa: SIM110 - no generator (see above)
            if c >= 0 and any(here):
                return True
        return False
    return grid.count(-1) < len(grid)  # whisper, gale: any card


def target_choices(game: Game, effect: str) -> list[tuple[int, ...]]:
    """Every legal target tuple for ``effect``, each in ascending slot order."""
    if effect in NO_TARGET:
        return [()]
    cards = _cards(game)
    if effect == "ripple":
        return list(combinations(cards, 2))
    if effect == "tide":
        if game._deck_pos >= len(game._deck):
            return []
        return [(s,) for s in cards if not _bound(game, s)]
    if effect == "unbind":
        return [(s,) for s in cards if _bound(game, s)]
    if effect == "whisper":
        return [(s,) for s in cards]
    # gale: one to three distinct cards
    return [t for k in (1, 2, 3) for t in combinations(cards, k)]


def target_problem(game: Game, power: Power, targets: Sequence[int]) -> str | None:
    """Why ``targets`` are not a legal choice for ``power``, or None when they are."""
    effect = power.effect
    targets = tuple(targets)
    size = len(game._grid)
    for t in targets:
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < size:
            return f"slot {quote(t)} does not exist: the grid has slots 0 to {size - 1}"
    if list(targets) != sorted(set(targets)):
        return "target slots must be distinct and in ascending order"
    expected = {"ripple": (2, 2), "tide": (1, 1), "unbind": (1, 1), "whisper": (1, 1),
                "gale": (1, 3)}.get(effect, (0, 0))
    low, high = expected
    if not low <= len(targets) <= high:
        want = {0: "no target", 1: "one slot", 2: "two slots"}.get(low, "")
        if (low, high) == (1, 3):
            want = "one to three slots"
        return f"takes {want}, got {len(targets)}"
    for t in targets:
        if game._grid[t] < 0:
            return f"slot {t} is empty"
    if effect == "tide":
        if game._deck_pos >= len(game._deck):
            return "the Leyline deck is empty, so there is no top card to swap with"
        if _bound(game, targets[0]):
            return f"slot {targets[0]} carries Binding tokens; Tide needs a token-free card"
    if effect == "unbind" and not _bound(game, targets[0]):
        return f"slot {targets[0]} carries no Binding tokens"
    return None


def resolve(game: Game, effect: str, targets: Sequence[int], events: list[Event]) -> bool:
    """Carry out ``effect`` on ``game`` (targets already checked). True when it made a private
    event (one that some seats see without its element): the game's history marks the step."""
    els = game.rules.elements
    if effect in ("ripple", "tide", "unbind"):
        game._hbody = None  # they move cards or tokens: the state hash's cached body is stale
    if effect == "spark":
        game._bonus += 1
    elif effect == "wildfire":
        game._wildfire = True
    elif effect == "sanctuary":
        game._sanctuary = True
    elif effect == "ripple":
        a, b = targets
        e = game._e
        g, tk = game._grid, game._tokens
        g[a], g[b] = g[b], g[a]
        tk[a * e:(a + 1) * e], tk[b * e:(b + 1) * e] = tk[b * e:(b + 1) * e], tk[a * e:(a + 1) * e]
        events.append({"type": "swap", "slots": [a, b]})
    elif effect == "tide":
        (s,) = targets
        pos = game._deck_pos
        old, new = game._grid[s], game._deck[pos]
        game._grid[s] = new
        game._deck = game._deck[:pos] + bytes((old,)) + game._deck[pos + 1:]
        game._top = els[old]
        # The old card becomes the face-up top of the deck: public, like any deck top.
        events.append({"type": "tide", "slot": s, "to_deck": els[old]})
        events.append({"type": "reveal", "slot": s, "element": els[new], "cause": "tide",
                       "visible_to": "all"})
    elif effect == "unbind":
        (s,) = targets
        e = game._e
        for i in range(e):
            count = game._tokens[s * e + i]
            if count:
                game._tokens[s * e + i] = 0
                game._return_tokens(s, i, count, events)
    elif effect in ("whisper", "gale"):
        for s in targets:
            events.append({"type": "reveal", "slot": s, "element": els[game._grid[s]],
                           "cause": effect, "visible_to": [game._player]})
        return True  # the game's only private events
    else:  # pragma: no cover - Rules validation admits only the effects above
        raise AssertionError(effect)
    return False
