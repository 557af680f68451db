"""The coach's numbers (issue 25): consistent values, and speed.

- Consistency: over reviewed games (both seats), the pairs of consecutive decisions of one
  seat inside one Phase 2 (only its own activations between them); the rate of pairs whose
  next decision's best value (``value_before``) differs from the value given to the move
  played (``value_played``) by more than 1 card, and the worst difference.
- analyse() CPU seconds per game (and per 120 actions) at the default analysis budget.
- Hint CPU milliseconds per call (mean, p95) over many positions of played games.

Run: ``python -m benchmarks coach`` or ``python -m benchmarks.bench_coach --games 6``.
CPU time (``time.process_time``) is measured, so other work on the machine counts little.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

from leyline_widget import Game, Replay
from leyline_widget.agents.analysis import ANALYSIS_BUDGET, HINT_BUDGET, Review, analyse, hint
from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot


def played_game(seed: int, capacity: int = 4) -> Game:
    """A game between a forgetful MemoryBot (seat 0) and GreedyBot (seat 1)."""
    game = Game.new(players=2, seed=seed)
    seats = [BotSeat(MemoryBot(seed=seed, capacity=capacity), 0),
             BotSeat(GreedyBot(seed=seed + 1), 1)]
    while not game.is_over:
        game.apply(seats[game.active_player].act(game))
    return game


def phase_pairs(game: Game, review: Review) -> list[float]:
    """For each pair of consecutive decisions of the review's seat in one Phase 2 of one turn
    (only its own moves between them), ``|value_before(next) - value_played(this)|``."""
    where: list[tuple[int, str]] = []
    g = Game.new(players=len(game.players), rules=game.rules, deck=list(game.initial_deck))
    for a in game.actions:
        where.append((g.turn, g.phase.value))
        g.apply(a)
    out = []
    for m1, m2 in zip(review.moves, review.moves[1:]):
        if where[m1.step] == where[m2.step] and where[m1.step][1] == "activation":
            out.append(abs(m2.value_before - m1.value_played))
    return out


def consistency(games: Sequence[Game], budget: int = ANALYSIS_BUDGET, seed: int = 0
                ) -> tuple[int, int, float, float]:
    """(pairs, pairs off by more than 1 card, worst difference, analyse CPU s per game)."""
    diffs: list[float] = []
    cpu = 0.0
    for game in games:
        for seat in range(len(game.players)):
            start = time.process_time()
            review = analyse(Replay.from_game(game), player=seat, seed=seed, budget=budget)
            cpu += time.process_time() - start
            diffs += phase_pairs(game, review)
    off = sum(d > 1.0 for d in diffs)
    return len(diffs), off, max(diffs, default=0.0), cpu / max(1, len(games))


def hint_times(games: Sequence[Game], every: int = 3) -> list[float]:
    """CPU seconds of hint() at every ``every``-th decision of each game (both seats)."""
    times = []
    for game in games:
        g = Game.new(players=len(game.players), rules=game.rules, deck=list(game.initial_deck))
        for i, a in enumerate(game.actions):
            if i % every == 0 and len(g.legal_actions()) > 1:
                start = time.process_time()
                hint(g, g.active_player, budget=HINT_BUDGET, seed=0)
                times.append(time.process_time() - start)
            g.apply(a)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_coach")
    parser.add_argument("--games", type=int, default=6, help="reviewed games (6)")
    parser.add_argument("--budget", type=int, default=ANALYSIS_BUDGET)
    args = parser.parse_args([] if argv is None else argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs before the run")
    games = [played_game(300 + k) for k in range(args.games)]
    length = sum(g.step for g in games) / len(games)
    pairs, off, worst, cpu = consistency(games, args.budget)
    print(f"  consistency: {off} of {pairs} same-Phase-2 pairs differ by more than 1 card "
          f"({off / max(1, pairs):.1%}; target <= 5%), worst {worst:.2f} cards, over "
          f"{len(games)} games x {len(games[0].players)} seats")
    per_seat = cpu / len(games[0].players)
    print(f"  analyse(), budget {args.budget}: {per_seat:.2f} CPU s per seat review of a game "
          f"of ~{length:.0f} actions = {per_seat * 120 / length:.2f} CPU s per 120 actions "
          "(target <= 2)")
    times = sorted(hint_times(games[:3]))
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"  hint(), budget {HINT_BUDGET}: mean {1000 * sum(times) / len(times):.0f} ms, p95 "
          f"{1000 * p95:.0f} ms, worst {1000 * times[-1]:.0f} ms CPU over {len(times)} hints "
          "(target p95 <= 250)")


if __name__ == "__main__":
    main(sys.argv[1:])
