"""The bots' moves are pinned: a digest of many games' move lists, recorded before the bots
were made faster (issue 13). Speed work must not change one decision; a deliberate change of
policy updates the digests here, and says why in its commit."""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import pytest

from leyline_widget import Game, Rules
from leyline_widget.agents.bots import BotSeat, make_bot

R = Rules.default()
RULES = {
    "default": R,
    "major1": R.replace(major_uses_per_game=1),
    "no-refund": R.replace(deactivate_refund=False),
    "2x3": R.replace(cards_per_element=6, grid_rows=2, grid_cols=3),
    "3x5": R.replace(grid_cols=5),
    "thr3": R.replace(collect_threshold=3, activations_per_turn=4),
    "five": R.replace(elements=("fire", "water", "earth", "wind", "light")),
    "tokens": R.replace(tokens_per_element=1, major_threshold=3),
}
Seat = tuple[str, dict[str, Any]]
GREEDY: Seat = ("greedy", {})
SCOUT: Seat = ("greedy", {"scout": True})
MEMORY: Seat = ("memory", {})
FORGETFUL: Seat = ("memory", {"capacity": 3, "decay": 0.2})
RANDOM: Seat = ("random", {})
#: (rules, seats, seeds): every bot kind and option, 1 to 4 players, house rules.
CASES: list[tuple[str, list[Seat], int]] = [
    *((rules, [GREEDY, GREEDY], 6) for rules in RULES),
    *((rules, [MEMORY, FORGETFUL], 4) for rules in RULES),
    *((rules, [SCOUT, RANDOM], 4) for rules in RULES),
    ("default", [GREEDY], 6),
    ("default", [GREEDY, MEMORY, SCOUT], 4),
    ("no-refund", [SCOUT, FORGETFUL, GREEDY, RANDOM], 4),
    ("major1", [FORGETFUL, SCOUT, MEMORY, GREEDY], 4),
]


def moves(rules: Rules, seats: list[Seat], seed: int) -> list[str]:
    game = Game.new(players=len(seats), seed=seed, rules=rules)
    drivers = [BotSeat(make_bot(kind, seed=seed * 7 + p, **params), p)
               for p, (kind, params) in enumerate(seats)]
    while not game.is_over:
        game.apply(drivers[game.active_player].act(game))
    return [repr(a) for a in game.actions]


def digest(games: list[list[str]]) -> str:
    return hashlib.sha256("\n".join(";".join(g) for g in games).encode()).hexdigest()[:16]


def all_cases() -> str:
    return digest([moves(RULES[rules], seats, seed)
                   for rules, seats, count in CASES for seed in range(count)])


def test_the_bots_play_the_pinned_moves() -> None:
    assert all_cases() == PINNED["cases"]


def test_bots_seated_again_and_midgame_play_the_pinned_moves() -> None:
    # The same seats play game after game (each bot starts afresh, its generator runs on),
    # and bots take over a game that random play began (their first view is mid-game).
    seats = [BotSeat(make_bot("greedy", seed=1), 0), BotSeat(make_bot("memory", seed=2), 1)]
    games = []
    for seed in range(8):
        game = Game.new(players=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(40) if seed % 2 else 0):
            if not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
        game = game.clone()
        while not game.is_over:
            game.apply(seats[game.active_player].act(game))
        games.append([repr(a) for a in game.actions])
    assert digest(games) == PINNED["again"]


@pytest.mark.parametrize("capacity,decay", [(0, 0.05), (math.inf, 0.3), (5, 1.0)])
def test_memory_extremes_play_the_pinned_moves(capacity: float, decay: float) -> None:
    games = [moves(R, [("memory", {"capacity": capacity, "decay": decay}), GREEDY], seed)
             for seed in range(4)]
    assert digest(games) == PINNED[f"memory {capacity} {decay}"]


def test_the_expert_plays_the_pinned_moves() -> None:
    # The expert builds on GreedyBot: its rollouts are GreedyBot games.
    assert digest([moves(R, [("expert", {"budget": 3}), GREEDY], 1)]) == PINNED["expert"]


PINNED = {
    "cases": "3f7f8e3df3ef7c1e",
    "again": "1f77e0b9cd11a249",
    "memory 0 0.05": "4f95f9ece280f684",
    "memory inf 0.3": "517b79e91afd0ba1",
    "memory 5 1.0": "205b1224dca9ff28",
    "expert": "c7bba3770fafec8c",
}
