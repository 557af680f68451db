"""Bot speed: two-player GreedyBot games per second per core, and scaling over workers.

Targets (issue: bots and rule-variant simulation): at least 500 two-player GreedyBot games/s
on one core, and at least 1.8x that on 2 workers.

Baselines from the same run, replaying the very games the GreedyBots played:

- the engine alone (``Game.new`` and ``apply`` for each move);
- plus what a BotSeat builds for the mover: the legal actions at every move, and the seat's
  view (its grid read) where the bot decided;
- plus a view at every move with a choice (what a bot that plans nothing would cost).

The gap from the second baseline to the GreedyBot figure is the bots' own thinking.
Issue 13 (the lab) adds, each beside a baseline from the same run:

- per action in CPU time, a RandomBot game against bare engine random play of the same games
  (target at most 1.5x), and a GreedyBot game against the same baseline (target at most 2x),
  each with the bots' absolute overhead in microseconds per action;
- ``simulate`` on a 2-worker process pool against one worker, in CPU time per game (the
  machine is shared, so wall time says little): ``2 x cpu(1) / cpu(2)``, target at least
  1.8x; and the Dask path (a local cluster of 2 processes) within 1.3x of the pool's CPU per
  game, on the local cluster the CLI's ``--dask-workers`` starts. CPU time counts every
  process: this one, the pool's children (``RUSAGE_CHILDREN`` after shutdown) or the Dask
  workers (their ``time.process_time`` before and after); each figure is the best of
  interleaved rounds over the same games (one worker, the pool and Dask in each round).
  Beside them, the same games in two plain processes at once, each on its half with no pool
  at all: what this machine gives two busy processes (its cores may share a physical core,
  cache or memory bandwidth with each other or with other machines), so the ceiling for any
  2-worker pool here, and how close the pool comes to it.

Run: ``python -m benchmarks bots`` (or ``python -m benchmarks.bench_bots``).
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import random
import resource
import time
from collections.abc import Callable, Sequence
from typing import Any

from leyline_widget import Game, Rules
from leyline_widget.agents.bots import BotSeat, GreedyBot, make_bot
from leyline_widget.agents.simulate import (
    _heap_set_aside,
    local_dask,
    parse_seat,
    play_game,
    simulate,
)
from leyline_widget.core.actions import Action
from leyline_widget.core.view import SeatView

GAMES = 150          # per one-core measurement
SCALE_GAMES = 600    # per worker-count measurement
Record = list[tuple[int, list[Action], set[int]]]  # deal seed, moves, steps with an observation


def _timed(run: Callable[[], int]) -> float:
    """Items per second of one call of ``run`` (which returns how many it did)."""
    start = time.perf_counter()
    count = run()
    return count / (time.perf_counter() - start)


def bot_games(kind: str, games: int = GAMES) -> float:
    """Two-player games/s of ``kind`` bots on this core."""

    def run() -> int:
        for seed in range(games):
            game = Game.new(players=2, seed=seed)
            seats = [BotSeat(make_bot(kind, seed=seed * 2 + p), p) for p in range(2)]
            while not game.is_over:
                game.apply(seats[game.active_player].act(game))
        return games

    return _timed(run)


class _Counting(GreedyBot):
    """A GreedyBot that counts its decisions (a move not from a plan, with a choice)."""

    calls = 0

    def decide(self, view: SeatView, legal: Sequence[Action]) -> Action:
        self.calls += 1
        return super().decide(view, legal)


def greedy_record(games: int = GAMES) -> Record:
    """The GreedyBot games' moves, and the steps at which a bot was asked to choose."""
    record: Record = []
    for seed in range(games):
        game = Game.new(players=2, seed=seed)
        bots = [_Counting(seed=seed * 2 + p) for p in range(2)]
        seats = [BotSeat(bot, p) for p, bot in enumerate(bots)]
        asked: set[int] = set()
        while not game.is_over:
            bot = bots[game.active_player]
            before = bot.calls
            action = seats[game.active_player].act(game)
            if bot.calls != before:
                asked.add(game.step)
            game.apply(action)
        record.append((seed, list(game.actions), asked))
    return record


def replay_rate(record: Record, views: str) -> float:
    """Games/s replaying ``record``: ``views`` is "none" (engine alone), "asked" (what a
    BotSeat built for the GreedyBots) or "all" (an observation at every move with a choice)."""

    def run() -> int:
        for seed, actions, asked in record:
            game = Game.new(players=2, seed=seed)
            for step, action in enumerate(actions):
                if views != "none":
                    p = game.active_player
                    legal = game.legal_actions()
                    if step in asked or (views == "all" and len(legal) > 1):
                        _ = game.seat_view(p).known
                game.apply(action)
        return len(record)

    return _timed(run)


def scaling(workers: int, games: int = SCALE_GAMES) -> float:
    """Games/s of ``simulate`` over ``workers`` local processes (pool start-up included)."""
    start = time.perf_counter()
    simulate(Rules.default(), ["greedy", "greedy"], games=games, seed=1, jobs=workers)
    return games / (time.perf_counter() - start)


def engine_random_per_action(games: int = 40) -> float:
    """CPU microseconds per action of bare engine random play, 2 players: the very games two
    RandomBots seeded as in :func:`bot_per_action` play (a generator per seat, a uniform pick
    with ``randrange`` when more than one action is legal), without the bots."""
    actions, start = 0, time.process_time()
    for seed in range(games):
        game = Game.new(players=2, seed=seed)
        rngs = [random.Random(seed * 2 + p) for p in range(2)]
        while not game.is_over:
            legal = game.legal_actions()
            n = len(legal)
            game.apply(legal[0] if n == 1 else legal[rngs[game.active_player].randrange(n)])
            actions += 1
    return 1e6 * (time.process_time() - start) / actions


def bot_per_action(kind: str, games: int) -> float:
    """CPU microseconds per action of a two-seat game of ``kind`` bots driven by BotSeats."""
    actions, start = 0, time.process_time()
    for seed in range(games):
        game = Game.new(players=2, seed=seed)
        seats = [BotSeat(make_bot(kind, seed=seed * 2 + p), p) for p in range(2)]
        while not game.is_over:
            game.apply(seats[game.active_player].act(game))
            actions += 1
    return 1e6 * (time.process_time() - start) / actions


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pool_cpu_per_game(workers: int, games: int) -> float:
    """CPU seconds per game of ``simulate`` on a local pool of ``workers`` (1: in-process)."""
    own, kids = time.process_time(), _children_cpu()
    simulate(Rules.default(), ["greedy", "greedy"], games=games, seed=1, jobs=workers)
    return (time.process_time() - own + _children_cpu() - kids) / games


def _play_share(games: int, share: int, shares: int) -> None:
    """Play every ``shares``-th game of ``simulate``'s run, from the ``share``-th, in order."""
    rules, seats = Rules.default(), [parse_seat("greedy"), parse_seat("greedy")]
    for index in range(share, games, shares):
        play_game(rules, seats, 1, index)


def apart_cpu_per_game(games: int) -> float:
    """CPU seconds per game of the same games played by two plain processes at once, each on
    its half, with no pool: what this machine gives two busy processes, the most a 2-worker
    pool could scale to here."""
    kids = _children_cpu()
    procs = [multiprocessing.get_context("fork").Process(target=_play_share, args=(games, k, 2))
             for k in range(2)]
    with _heap_set_aside():  # forked as simulate forks its pool
        for proc in procs:
            proc.start()
    for proc in procs:
        proc.join()
    return (_children_cpu() - kids) / games


def _imported() -> str:
    """Run on each Dask worker: load the simulation code before any measured run."""
    import leyline_widget.agents.simulate as sim

    return sim.__name__


def _dask_round(client: Any, games: int) -> float:
    """CPU seconds per game of one ``simulate`` run on ``client``'s cluster: this process
    (client, scheduler) and every worker counted."""
    before = client.run(time.process_time)
    own = time.process_time()
    simulate(Rules.default(), ["greedy", "greedy"], games=games, seed=1,
             executor=client.get_executor())
    own = time.process_time() - own
    after = client.run(time.process_time)
    return float(own + sum(after[w] - before[w] for w in after)) / games


def _dask_cluster(workers: int) -> contextlib.AbstractContextManager[Any] | None:
    """The CLI's local Dask cluster (``local_dask``), or None without Dask."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return None
    return local_dask(workers)


def lab_figures(rounds: int = 5) -> None:
    """Issue 13's figures, each with its same-run baseline, in CPU time (the machine is
    shared: wall time says little); interleaved rounds, the best of each.

    The pool and Dask figures come from one loop: each round runs one worker, the 2-worker
    pool and the Dask cluster on the same games back to back, so that a spell of load from
    other processes falls on all three alike (run one after the other, a busy minute could
    land on one figure only and move the ratio by itself).
    """
    best = {"engine": math.inf, "random": math.inf, "greedy": math.inf}
    for _ in range(rounds):
        best["engine"] = min(best["engine"], engine_random_per_action())
        best["random"] = min(best["random"], bot_per_action("random", 40))
        best["greedy"] = min(best["greedy"], bot_per_action("greedy", 60))
    engine = best["engine"]
    print(f"  bare engine random play:   {engine:6.2f} us/action (baseline: the RandomBots' "
          "games, no bots)")
    for kind, name, target in (("random", "RandomBot", 1.5), ("greedy", "GreedyBot", 2.0)):
        us = best[kind]
        print(f"  {name} game:            {us:6.2f} us/action = engine + {us - engine:5.2f} us "
              f"= {us / engine:.2f}x the engine (target <= {target}x)")
    games = SCALE_GAMES
    one = two = apart = dask = math.inf
    cluster = _dask_cluster(2)
    with cluster or contextlib.nullcontext() as client:
        if client is not None:
            # Every worker warm (imports done) outside the measured runs, as in a long sweep.
            client.run(_imported)
            simulate(Rules.default(), ["greedy", "greedy"], games=8, seed=2,
                     executor=client.get_executor())
        for _ in range(rounds):
            one = min(one, pool_cpu_per_game(1, games))
            two = min(two, pool_cpu_per_game(2, games))
            apart = min(apart, apart_cpu_per_game(games))
            if client is not None:
                dask = min(dask, _dask_round(client, games))
    print(f"  simulate() CPU per game, {games} GreedyBot games (best of {rounds}): 1 worker "
          f"{1000 * one:.3f} ms, 2-worker pool {1000 * two:.3f} ms: scaling 2 x one / pool = "
          f"{2 * one / two:.2f}x (target >= 1.8x)")
    print(f"  the same games in 2 plain processes at once, no pool: {1000 * apart:.2f} ms: this "
          f"machine's ceiling for 2 workers {2 * one / apart:.2f}x; the pool costs "
          f"{two / apart:.2f}x that CPU per game")
    if cluster is None:
        print("  Dask not installed (pip install '.[dask]'): no Dask figure")
    else:
        print(f"  Dask local_dask(2) CPU per game (best of {rounds}) {1000 * dask:.2f} ms = "
              f"{dask / two:.2f}x the process pool's (target <= 1.3x)")


def main() -> None:
    load = os.getloadavg()[0]
    cpus = os.cpu_count() or 1
    record = greedy_record()
    moves = sum(len(a) for _, a, _ in record) / len(record)
    asked = sum(len(s) for _, _, s in record) / len(record)
    # Interleaved rounds, best of three each, so that load from other processes hits every
    # figure alike.
    names = ("engine", "asked", "all", "greedy", "memory")
    best = dict.fromkeys(names, 0.0)
    for _ in range(3):
        best["engine"] = max(best["engine"], replay_rate(record, "none"))
        best["asked"] = max(best["asked"], replay_rate(record, "asked"))
        best["all"] = max(best["all"], replay_rate(record, "all"))
        best["greedy"] = max(best["greedy"], bot_games("greedy"))
        best["memory"] = max(best["memory"], bot_games("memory"))
    rand = bot_games("random", games=GAMES // 5)
    engine, views, greedy = best["engine"], best["asked"], best["greedy"]
    print(f"load average {load:.2f} on {cpus} CPUs before the run (others share the machine)")
    print(f"  GreedyBot games: {moves:.0f} moves each, {asked:.0f} of them chosen from an "
          "observation (the rest forced or planned)")
    print(f"  engine alone, replaying those games:          {engine:7.0f} games/s")
    print(f"  + the BotSeat inputs the GreedyBots were given: {views:7.0f} games/s"
          "  (ceiling for these bots)")
    print(f"  + an observation at every move with a choice:   {best['all']:7.0f} games/s")
    print(f"  GreedyBot vs GreedyBot, one core:             {greedy:7.0f} games/s  (target 500)")
    print(f"  MemoryBot vs MemoryBot, one core:             {best['memory']:7.0f} games/s")
    print(f"  RandomBot vs RandomBot, one core:             {rand:7.0f} games/s"
          "  (random games are ~5x longer)")
    engine_ms, views_ms = 1000 / engine, 1000 / views - 1000 / engine
    bots_ms = 1000 / greedy - 1000 / views
    print(f"  per GreedyBot game {1000 / greedy:.2f} ms = engine {engine_ms:.2f} + seat inputs "
          f"(events, legal actions, observations) {views_ms:.2f} + bots' own {bots_ms:.2f}")
    one = scaling(1)
    two = scaling(2)
    print(f"  simulate(), {SCALE_GAMES} GreedyBot games: 1 worker {one:.0f} games/s, "
          f"2 workers {two:.0f} games/s: {two / one:.2f}x (target 1.8x; load now "
          f"{os.getloadavg()[0]:.2f})")
    lab_figures()


if __name__ == "__main__":
    main()
