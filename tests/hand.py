"""Hand-built positions for the rule and power tests.

A test names the cards that matter (the grid takes the first ``grid_size`` of them, slot 0
first; the next ones are the face-up deck top and below) and :func:`deck_for` completes the
deck with the remaining cards in element order, so every deck holds exactly the rules' cards.

>>> from support import SMALL
>>> deck_for(SMALL, "wind wind")[:4], len(deck_for(SMALL, "wind wind"))
(['wind', 'wind', 'fire', 'fire'], 12)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from support import SMALL

from leyline_widget import Action, EndPhase, Game, IllegalActionError, Phase, Rules

#: SMALL with the Major powers within reach: 3 cards of one element unlock them.
SMALL_MAJOR = SMALL.replace(major_threshold=3)
#: A 2x3 grid over 6 cards of each element: room for several collections of one element.
MID = Rules.default().replace(cards_per_element=6, grid_rows=2, grid_cols=3)


def deck_for(rules: Rules, top: str | Sequence[str]) -> list[str]:
    """A full deck for ``rules`` starting with ``top`` (space-separated or a list)."""
    cards = top.split() if isinstance(top, str) else list(top)
    left = Counter({e: rules.cards_per_element for e in rules.elements})
    left.subtract(cards)
    if any(n < 0 for n in left.values()):
        raise AssertionError(f"{cards} holds more than {rules.cards_per_element} of an element")
    return cards + [e for e in rules.elements for _ in range(left[e])]


def new(top: str | Sequence[str], rules: Rules = SMALL, players: int | Sequence[str] = 1) -> Game:
    """A game dealt from a hand-built deck (see :func:`deck_for`)."""
    return Game.new(players=players, rules=rules, deck=deck_for(rules, top))


def play(game: Game, *actions: Action) -> list[dict[str, object]]:
    """Apply ``actions`` in order; return all their events."""
    out: list[dict[str, object]] = []
    for action in actions:
        out.extend(game.apply(action))
    return out


def refused(game: Game, action: Action | dict[str, object], *words: str,
            rule: str | None = None) -> IllegalActionError:
    """Assert that ``action`` is refused with ``words`` in the message and nothing changes."""
    before = (game.state_hash(), game.step, game.observation(None), len(game.legal_actions()))
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)  # type: ignore[arg-type]
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    if rule is not None:
        assert info.value.rule == rule, info.value.rule
    after = (game.state_hash(), game.step, game.observation(None), len(game.legal_actions()))
    assert after == before
    if isinstance(action, Action):
        assert game.why_illegal(action) == message
        assert action not in game.legal_actions()
    return info.value


def types(events: Sequence[dict[str, object]]) -> list[object]:
    return [ev["type"] for ev in events]


def to_activation(game: Game) -> None:
    """Skip Phase 1 when the turn starts with usable powers."""
    if game.phase is Phase.ABILITIES:
        game.apply(EndPhase())
