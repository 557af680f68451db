"""This checkout against an older one, side by side in one run: CPU of the bot workloads.

    python -m benchmarks.compare OLD_SRC_DIR [--rounds 3] [--games 2000]

``OLD_SRC_DIR`` is the root of another source tree of the package, for instance a worktree of
the commit before issue 24 (``git worktree add /work/bench-old 6e8107b``). Each measure runs in
a fresh subprocess whose ``PYTHONPATH`` (and working folder) is one tree, so each imports its
own ``leyline_widget`` (the subprocess checks it did); the two trees alternate round by round,
so a busy spell of the shared machine hits both alike. Measured (issue 24, "Done when"):

- ``greedy``: ``simulate(Rules.default(), ["greedy", "greedy"], games=2000, seed=1, jobs=2)``;
- ``expert``: one game of ExpertBot (default budget) in seat 0 against GreedyBot, deal seed 1.

CPU is the subprocess's own and that of the worker processes it waited for
(``resource.getrusage``, RUSAGE_SELF plus RUSAGE_CHILDREN, user plus system), counted from
after the imports to the end of the workload. Each line prints the median over the rounds and
the ratio new / old (issue 24's target: at most 1.0x), and whether both trees played the same
games (same scores and lengths: the bots' moves are pinned, so they should).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

#: Run in the subprocess, inside one tree: the workload, then one JSON line.
_CHILD = r"""
import json, resource, sys

def cpu():
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total

import leyline_widget
from leyline_widget import Rules
from leyline_widget.agents.simulate import simulate

workload, games = sys.argv[1], int(sys.argv[2])
start = cpu()
if workload == "greedy":
    rows = simulate(Rules.default(), ["greedy", "greedy"], games=games, seed=1, jobs=2)
else:
    rows = simulate(Rules.default(), ["expert", "greedy"], games=1, seed=1, jobs=1)
spent = cpu() - start
played = [(r["scores"], r["actions"], r["end_reason"]) for r in rows]
print(json.dumps({"cpu": spent, "package": leyline_widget.__file__, "played": played}))
"""

WORKLOADS = ("greedy", "expert")


def measure(tree: Path, workload: str, games: int) -> dict[str, Any]:
    """One workload in a fresh subprocess importing the package from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", _CHILD, workload, str(games)], cwd=tree,
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{workload} in {tree} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    package = Path(result["package"]).resolve()
    if not package.is_relative_to(tree.resolve()):
        raise RuntimeError(f"{tree}: the subprocess imported {package}, not this tree's package")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("old", type=Path, help="root of the older source tree")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000, help="GreedyBot games (default 2000)")
    parser.add_argument("--only", choices=WORKLOADS, help="measure one workload only")
    args = parser.parse_args(argv)
    new = Path(__file__).resolve().parent.parent
    old = args.old.resolve()
    if not (old / "leyline_widget" / "__init__.py").is_file():
        parser.error(f"{old} holds no leyline_widget package")
    trees = {"old": old, "new": new}
    workloads = [args.only] if args.only else list(WORKLOADS)
    cpu: dict[tuple[str, str], list[float]] = {(w, t): [] for w in workloads for t in trees}
    played: dict[tuple[str, str], Any] = {}
    for r in range(args.rounds):
        order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
        for w in workloads:
            for t in order:
                result = measure(trees[t], w, args.games)
                cpu[w, t].append(result["cpu"])
                played[w, t] = result["played"]
                print(f"round {r + 1} {w:6} {t}: {result['cpu']:8.2f} s CPU", flush=True)
    print(f"\nold: {old}\nnew: {new}\nmedians over {args.rounds} rounds, CPU seconds "
          "(process + children):")
    labels = {"greedy": f"{args.games} GreedyBot games (simulate, jobs=2)",
              "expert": "1 ExpertBot game vs GreedyBot (default budget)"}
    for w in workloads:
        o, n = statistics.median(cpu[w, "old"]), statistics.median(cpu[w, "new"])
        same = "same games" if played[w, "old"] == played[w, "new"] else "DIFFERENT games"
        print(f"  {labels[w]:48} old {o:8.2f}  new {n:8.2f}  new/old {n / o:5.2f}x  ({same}; "
              "target <= 1.0x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
