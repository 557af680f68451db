"""Helpers shared by the tests: hand-built rulesets and random legal play."""

from __future__ import annotations

import random

from leyline_widget import Game, Rules

#: A small ruleset for hand-built positions: 2x2 grid, 3 cards of each element (12 cards).
SMALL = Rules.default().replace(cards_per_element=3, grid_rows=2, grid_cols=2)


def play_random(game: Game, seed: int, max_actions: int = 100_000) -> Game:
    """Play uniformly random legal actions until the game ends."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"game did not end within {max_actions} actions")
