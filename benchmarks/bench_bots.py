"""Bot speed: two-player GreedyBot games per second per core, and scaling over workers.

Targets (issue: bots and rule-variant simulation): at least 500 two-player GreedyBot games/s
on one core, and at least 1.8x that on 2 workers. Baselines from the same run, on the same
games: the engine alone replaying the bots' moves (``apply``), then with the two inputs every
bot decision needs (``legal_actions`` and the seat's ``observation``). Their gap to the bot
figure is the bots' own thinking; the gap between the baselines is the engine's cost of
showing a seat its position, which no bot can avoid under the Bot API.

Run: ``python -m benchmarks bots`` (or ``python -m benchmarks.bench_bots``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from leyline_widget import Game, Rules
from leyline_widget.actions import Action
from leyline_widget.bots import BotSeat, make_bot
from leyline_widget.engine import visible_events
from leyline_widget.simulate import simulate

GAMES = 150          # per one-core measurement
SCALE_GAMES = 600    # per worker-count measurement


def _best_rate(run: Callable[[], int], repeats: int = 3) -> float:
    """Items per second of ``run`` (which returns how many it did), best of ``repeats``."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        count = run()
        best = max(best, count / (time.perf_counter() - start))
    return best


def bot_games(kind: str, games: int = GAMES,
              repeats: int = 3) -> tuple[float, list[tuple[int, list[Action]]]]:
    """Two-player games/s of ``kind`` bots in this process; also the games' moves."""
    record: list[tuple[int, list[Action]]] = []

    def run() -> int:
        record.clear()
        for seed in range(games):
            game = Game.new(players=2, seed=seed)
            seats = [BotSeat(make_bot(kind, seed=seed * 2 + p), p) for p in range(2)]
            while not game.is_over:
                game.apply(seats[game.active_player].act(game))
            record.append((seed, list(game.actions)))
        return games

    return _best_rate(run, repeats), list(record)


def replay_rate(record: list[tuple[int, list[Action]]], views: bool, repeats: int = 3) -> float:
    """Games/s replaying ``record`` with the engine alone, optionally building each mover's
    inputs (visible events, legal actions, observation) as a BotSeat does."""

    def run() -> int:
        for seed, actions in record:
            game = Game.new(players=2, seed=seed)
            fed = [0, 0]
            for action in actions:
                if views:
                    p = game.active_player
                    visible_events(game.events_since(fed[p]), p)
                    fed[p] = game.step + 1
                    if len(game.legal_actions()) > 1:
                        game.observation(p)
                game.apply(action)
        return len(record)

    return _best_rate(run, repeats)


def scaling(workers: int, games: int = SCALE_GAMES) -> float:
    """Games/s of ``simulate`` over ``workers`` local processes (pool start-up included)."""
    start = time.perf_counter()
    simulate(Rules.default(), ["greedy", "greedy"], games=games, seed=1, jobs=workers)
    return games / (time.perf_counter() - start)


def main() -> None:
    load = os.getloadavg()[0]
    cpus = os.cpu_count() or 1
    _, record = bot_games("greedy", games=GAMES)
    actions = sum(len(a) for _, a in record) / len(record)
    # Interleave the measurements, best of three rounds each, so that load from other
    # processes hits them alike.
    best = {"engine": 0.0, "inputs": 0.0, "greedy": 0.0, "memory": 0.0}
    for _ in range(3):
        best["engine"] = max(best["engine"], replay_rate(record, views=False, repeats=1))
        best["inputs"] = max(best["inputs"], replay_rate(record, views=True, repeats=1))
        best["greedy"] = max(best["greedy"], bot_games("greedy", repeats=1)[0])
        best["memory"] = max(best["memory"], bot_games("memory", repeats=1)[0])
    rand, _ = bot_games("random", games=GAMES // 5)
    engine, inputs, greedy = best["engine"], best["inputs"], best["greedy"]
    print(f"load average {load:.2f} on {cpus} CPUs before the run (others share the machine)")
    print(f"  engine alone, replaying the GreedyBot games: {engine:8.0f} games/s")
    print(f"  + each move's legal actions and observation: {inputs:8.0f} games/s"
          "  (the ceiling for any bot)")
    print(f"  GreedyBot vs GreedyBot, one core:            {greedy:8.0f} games/s"
          f"  ({actions:.0f} actions/game; target 500)")
    print(f"  MemoryBot vs MemoryBot, one core:            {best['memory']:8.0f} games/s")
    print(f"  RandomBot vs RandomBot, one core:            {rand:8.0f} games/s"
          "  (random games are ~5x longer)")
    engine_ms, views_ms = 1000 / engine, 1000 / inputs - 1000 / engine
    bots_ms = 1000 / greedy - 1000 / inputs
    print(f"  per GreedyBot game: {1000 / greedy:.2f} ms = engine {engine_ms:.2f} + seat views "
          f"(legal actions, observations, events) {views_ms:.2f} + bots {bots_ms:.2f}")
    one = scaling(1)
    two = scaling(2)
    print(f"  simulate(), {SCALE_GAMES} GreedyBot games: 1 worker {one:.0f} games/s, "
          f"2 workers {two:.0f} games/s: {two / one:.2f}x (target 1.8x; load now "
          f"{os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
