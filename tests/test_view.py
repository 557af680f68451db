"""The seat view's legal actions: a sequence that answers len, in and the forced move from the
rules, and lists the actions only when asked, always agreeing with Game.legal_actions."""

from __future__ import annotations

import random

import pytest
from support import SMALL, lively

from leyline_widget import Game, PlaceToken, Rules
from leyline_widget.core.actions import Action, Activate, EndPhase, Refill
from leyline_widget.core.view import LegalActions

RULES = [
    Rules.default(),
    SMALL,
    # Powers unlock at once (every kind of target), no refund for a deactivation, a cap on
    # Major powers: the counts of every phase under the house rules.
    Rules.default().replace(minor_threshold=1, major_threshold=2, collect_threshold=1,
                            deactivate_refund=False, major_uses_per_game=1),
    Rules.default().replace(grid_cols=5, activations_per_turn=4),
]


def positions(rules: Rules, seed: int) -> list[Game]:
    """The positions of a lively random game (tokens placed, powers used), one per step."""
    rng = random.Random(seed)
    game = Game.new(players=1 + seed % 4, seed=seed, rules=rules)
    seen = [game.clone()]
    while not game.is_over and game.step < 600:
        game.apply(lively(game, rng))
        seen.append(game.clone())
    return seen


@pytest.mark.parametrize("rules", RULES, ids=["default", "small", "house", "wide"])
def test_the_legal_sequence_agrees_with_the_legal_list(rules: Rules) -> None:
    for seed in range(4):
        for game in positions(rules, seed):
            listed = game.legal_actions()
            legal = LegalActions(game)
            assert len(legal) == len(listed), (game.phase, game.step)
            assert legal.only() == (listed[0] if len(listed) == 1 else None)
            fresh = LegalActions(game)
            assert fresh == listed and list(fresh) == listed and fresh[-1:] == listed[-1:]
            for action in listed[:3]:
                assert action in legal
            for other in (Activate(0), Refill(0), EndPhase(), PlaceToken(0, "fire", "pool")):
                assert (other in legal) == (other in listed)


def test_a_forced_move_is_found_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(players=2, seed=7)
    legal = LegalActions(game)
    assert legal.only() is None and len(legal) == 13
    calls: list[int] = []
    real = Game.legal_actions

    def counting(g: Game) -> list[Action]:
        calls.append(1)
        return real(g)

    monkeypatch.setattr(Game, "legal_actions", counting)
    game.apply(Activate(0))
    fresh = LegalActions(game)
    # A card is active: Deactivate and EndPhase at least, so no forced move, and nothing listed.
    assert fresh.only() is None and Activate(0) not in fresh and calls == []
    assert fresh[0] == real(game)[0] and calls == [1]


def test_a_legal_sequence_is_not_hashable_and_prints_its_actions() -> None:
    game = Game.new(players=1, seed=1)
    legal = LegalActions(game)
    with pytest.raises(TypeError):
        hash(legal)
    assert repr(legal) == f"LegalActions({game.legal_actions()!r})"
    assert legal != "not a list" and legal == LegalActions(game)


def test_token_sources_are_the_sources_of_the_legal_placements() -> None:
    rules = Rules.default().replace(minor_threshold=1, major_threshold=2, collect_threshold=1)
    found = 0
    for seed in range(6):
        for game in positions(rules, seed):
            view = game.seat_view(game.active_player) if not game.is_over else None
            if view is None:
                continue
            placed = {(a.element, a.source): None for a in game.legal_actions()
                      if isinstance(a, PlaceToken)}
            assert list(view.token_sources) == list(placed)
            found += bool(placed)
    assert found
