from support import play_random

from leyline_widget import Game


def test_random_games_end() -> None:
    for seed in range(5):
        game = play_random(Game.new(players=1 + seed % 4, seed=seed), seed)
        assert game.end_reason in ("deck", "stalemate")
