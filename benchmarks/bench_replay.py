"""Replay speed and size: random seek in a 10,000-action replay against replaying from the
start (same run), load and save times, file size and memory.

Targets (replay issue): median seek under 100 microseconds and at least 100x faster than
replaying from the start.

The long game is genuine: a 2-player game under ``cards_per_element=300`` (a 1,200-card deck)
with random legal play that rarely places Binding tokens, so it neither runs out of cards nor
locks up before 10,000 actions.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
import types
from collections.abc import Callable

from leyline_widget import Game, PlaceToken, Replay, Rules

ACTIONS = 10_000
SEEKS = 2_000
BASELINE_SEEKS = 40


def long_game(actions: int = ACTIONS) -> Game:
    """A legal game of exactly ``actions`` actions (still running at the end)."""
    rules = Rules.default().replace(cards_per_element=300)
    for seed in range(100):
        game = Game.new(players=2, seed=seed, rules=rules)
        rng = random.Random(seed)
        while game.step < actions and not game.is_over:
            legal = game.legal_actions()
            if rng.random() > 0.05:  # mostly leave tokens alone: bound grids lock up
                legal = [a for a in legal if not isinstance(a, PlaceToken)] or legal
            game.apply(rng.choice(legal))
        if game.step == actions:
            return game
    raise RuntimeError(f"no random game reached {actions} actions")


def _timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def deep_size(root: object) -> int:
    """Bytes of every object reachable from ``root`` (types, modules and functions aside).

    Agrees with tracemalloc's count for a loaded replay within 1%, at a fraction of the time.
    """
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def main() -> None:
    game = long_game()
    print(f"replay: a genuine {game.step:,}-action game, 2 players, deck of "
          f"{game.rules.deck_size:,} cards (turn {game.turn})")

    fresh = Replay.from_game(game)
    first_save = _timed(fresh.to_json)  # includes the one re-run that computes every hash
    text = fresh.to_json()
    save = min(_timed(fresh.to_json) for _ in range(3))
    loads = [_timed(lambda: Replay.from_json(text)) for _ in range(3)]
    print(f"save (to_json)              {save * 1e3:10.1f} ms  (first call, hashing every step: "
          f"{first_save * 1e3:.0f} ms)")
    print(f"load (from_json, re-run + every hash checked) {min(loads) * 1e3:8.1f} ms")
    print(f"file size                   {len(text) / 1024:10.1f} KiB")
    replay = Replay.from_json(text)
    held = deep_size(replay)
    print(f"replay memory (loaded)      {held / 2**20:10.1f} MiB  ({held / len(replay):,.0f} bytes "
          "per action: events history, snapshots, hashes)")
    rng = random.Random(0)
    steps = [rng.randrange(len(replay) + 1) for _ in range(SEEKS)]
    seek = []
    for i in steps:
        start = time.perf_counter()
        replay.game_at(i)
        seek.append(time.perf_counter() - start)
    actions = replay.actions
    baseline = []
    for i in steps[:BASELINE_SEEKS]:
        start = time.perf_counter()
        g = Game.new(players=list(replay.players), seed=replay.seed, rules=replay.rules,
                     deck=replay.initial_deck)
        for action in actions[:i]:
            g.apply(action)
        baseline.append(time.perf_counter() - start)
    fast, slow = statistics.median(seek), statistics.median(baseline)
    print(f"seek game_at(i), random i   {fast * 1e6:10.1f} us median over {SEEKS:,} seeks "
          "(target < 100 us)")
    print(f"replay from the start       {slow * 1e6:10.1f} us median over {BASELINE_SEEKS} seeks")
    print(f"ratio                       {slow / fast:10.0f}x   (target >= 100x)")


if __name__ == "__main__":
    main()
