"""ExpertBot strength and speed, and analyse() timing.

- Win rate of ExpertBot (default budget) against GreedyBot and against MemoryBot(capacity=4),
  two seats, default rules, seats alternated game by game (``simulate(..., rotate=True)``),
  with a 95% Wilson interval. A tie counts as half a win (ties are also reported).
- Time per expert decision (mean and worst), for the default and the quick budget.
- analyse() of a typical two-seat game at the default analysis budget.

Run: ``python -m benchmarks expert`` or ``python -m benchmarks.bench_expert --games 400``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from leyline_widget import Game, Replay, Rules, analyse
from leyline_widget.agents.balance import wilson_interval as wilson
from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot
from leyline_widget.agents.expert import DEFAULT_BUDGET, QUICK_BUDGET, QUICK_HORIZON, ExpertBot
from leyline_widget.agents.simulate import simulate


def win_rate(opponent: Any, games: int, jobs: int, budget: int,
             minutes: float | None = None) -> dict[str, Any]:
    """Expert against ``opponent`` over ``games`` games (seats alternated), played in chunks
    of 20 (run seed 1, 2, ...) so that ``minutes`` can stop it early with what is done."""
    wins = ties = 0
    first = [0.0, 0]
    second = [0.0, 0]
    played = 0
    start = time.perf_counter()
    chunk = 0
    while played < games:
        if minutes is not None and time.perf_counter() - start > minutes * 60:
            break
        n = min(20, games - played)
        chunk += 1
        rows = simulate(Rules.default(), [("expert", {"budget": budget}), opponent], games=n,
                        seed=chunk, jobs=jobs, rotate=True)
        for r in rows:
            seat = 0 if r["seats"].startswith("expert") else 1
            won = seat in r["winners"]
            tie = won and len(r["winners"]) > 1
            wins += won and not tie
            ties += tie
            side = first if seat == 0 else second
            side[0] += 0.5 if tie else won
            side[1] += 1
        played += len(rows)
    score = wins + ties / 2
    lo, hi = wilson(score, played)
    return {"games": played, "wins": wins, "ties": ties, "rate": score / max(1, played),
            "ci": (lo, hi), "first": first, "second": second}


def decision_times(budget: int | str, games: int = 2) -> tuple[float, float, int]:
    """Mean and worst seconds per expert decision over ``games`` games against GreedyBot."""
    times: list[float] = []
    for seed in range(games):
        game = Game.new(players=2, seed=100 + seed)
        expert = ExpertBot(seed=seed, budget=budget)
        seats = [BotSeat(expert, seed % 2), BotSeat(GreedyBot(seed=seed), 1 - seed % 2)]
        seats.sort(key=lambda s: s.seat)
        while not game.is_over:
            before = expert.decisions
            start = time.perf_counter()
            action = seats[game.active_player].act(game)
            spent = time.perf_counter() - start
            if expert.decisions != before:
                times.append(spent)
            game.apply(action)
    return sum(times) / len(times), max(times), len(times)


def analyse_time(games: int = 3) -> tuple[float, float, int]:
    """Mean seconds of analyse() (both seats' decisions, one seat at a time) per game."""
    spent = []
    actions = 0
    for seed in range(games):
        game = Game.new(players=2, seed=200 + seed)
        seats = [BotSeat(MemoryBot(seed=seed, capacity=4), 0), BotSeat(GreedyBot(seed=seed), 1)]
        while not game.is_over:
            game.apply(seats[game.active_player].act(game))
        actions += game.step
        start = time.perf_counter()
        analyse(Replay.from_game(game), player=0, seed=0)
        spent.append(time.perf_counter() - start)
    return sum(spent) / len(spent), max(spent), actions // games


def timings(budget: int) -> None:
    mean, worst, n = decision_times(budget)
    print(f"  decision time, budget {budget}: mean {mean * 1000:.0f} ms, worst "
          f"{worst * 1000:.0f} ms over {n} decisions (target <= 250 ms)")
    mean, worst, n = decision_times("quick")
    print(f"  decision time, quick ({QUICK_BUDGET} rollouts of {QUICK_HORIZON} turns): mean "
          f"{mean * 1000:.0f} ms, worst "
          f"{worst * 1000:.0f} ms over {n} decisions (Hint limit 1 s)")
    mean, worst, length = analyse_time()
    print(f"  analyse(): mean {mean:.1f} s, worst {worst:.1f} s per game of ~{length} actions "
          "(CPU per 120 actions: python -m benchmarks coach)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_expert")
    parser.add_argument("--games", type=int, default=200, help="games per opponent (200)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-greedy", action="store_true")
    parser.add_argument("--skip-timing", action="store_true")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop each win-rate run after about this long (reports the games "
                             "played)")
    args = parser.parse_args([] if argv is None else argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs before the run")
    if not args.skip_timing:
        timings(args.budget)
    opponents: list[tuple[str, Any]] = []
    if not args.skip_greedy:
        opponents.append(("greedy", "greedy"))
    if not args.skip_memory:
        opponents.append(("memory(capacity=4)", ("memory", {"capacity": 4})))
    for name, spec in opponents:
        start = time.perf_counter()
        r = win_rate(spec, args.games, args.jobs, args.budget, args.minutes)
        lo, hi = r["ci"]
        f, s = r["first"], r["second"]
        slo, shi = wilson(s[0], s[1])
        print(f"  expert vs {name}: {r['rate']:.1%} (95% CI {lo:.1%}-{hi:.1%}) over "
              f"{r['games']} games, {r['wins']} wins + {r['ties']} ties (a tie counts half); "
              f"first seat {f[0]:g}/{f[1]}, second seat {s[0]:g}/{s[1]} = "
              f"{s[0] / max(1, s[1]):.1%} (95% CI {slo:.1%}-{shi:.1%}) "
              f"({time.perf_counter() - start:.0f} s; targets against greedy: >= 93% overall, "
              ">= 85% as second seat)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
