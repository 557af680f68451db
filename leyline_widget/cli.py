"""The ``leyline`` command: simulate bot games under rule variants from a shell.

    leyline simulate --games 1000 --seat greedy --seat memory --set grid_cols=5 \\
        --jobs 2 --out results.csv

``--seat KIND`` or ``--seat KIND:param=value,...`` (one per player, 1 to 4; default two
GreedyBots), ``--set FIELD=VALUE`` changes a Rules field, ``--sweep FIELD=V1,V2,...`` tries
each value (several ``--sweep`` give their product). Values are read as JSON when they parse
(``5``, ``null``, ``["fire","water"]``), as a list when they hold commas (``--set``), else
as text. Bad input gets the Rules validation message and exit code 2. A progress bar goes to
stderr on long runs; the summary table goes to stdout; ``--out`` writes one row per game
(``.csv``, ``.json`` or ``.jsonl``).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from .agents.simulate import Row, parse_seat, seat_label, simulate, sweep
from .core.rules import Rules

__all__ = ["PROGRESS_FROM", "Progress", "UsageError", "main", "summary"]

#: Runs of at least this many games draw a progress bar.
PROGRESS_FROM = 200


class UsageError(Exception):
    """Bad command-line input: printed after ``leyline: error:``, exit code 2."""


def _value(text: str, lists: bool) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        pass
    if lists and "," in text:
        return [_value(part.strip(), False) for part in text.split(",")]
    return text


def _pair(text: str, option: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise UsageError(f"{option} expects FIELD=VALUE, got {text!r}")
    return name.strip(), value.strip()


def _seat(text: str) -> tuple[str, dict[str, Any]]:
    kind, _, rest = text.partition(":")
    params: dict[str, Any] = {}
    if rest:
        for item in rest.split(","):
            k, v = _pair(item, "--seat parameters")
            value = _value(v, False)
            if value == "inf":
                value = math.inf
            params[k] = value
    try:
        return parse_seat((kind.strip(), params))
    except ValueError as err:
        raise UsageError(f"--seat {text}: {err}") from None


class Progress:
    """A one-line progress bar on stderr; plain lines when stderr is not a terminal."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.perf_counter()
        self.tty = stream.isatty()
        self.last = -1.0
        self.marks = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.start
        if self.tty:
            if done < total and now - self.last < 0.1:
                return
            self.last = now
            full = self.width * done // max(total, 1)
            rate = done / elapsed if elapsed > 0 else 0.0
            self.stream.write(f"\r[{'#' * full}{'.' * (self.width - full)}] {done}/{total} games"
                              f"  {elapsed:5.1f} s  {rate:6.0f} games/s")
            if done == total:
                self.stream.write("\n")
        else:
            # Logs get a line at each quarter rather than a stream of carriage returns.
            quarter = 4 * done // max(total, 1)
            if quarter <= self.marks and done < total:
                return
            self.marks = quarter
            self.stream.write(f"{done}/{total} games  {elapsed:.1f} s\n")
        self.stream.flush()


def _write(rows: Sequence[Row], path: str) -> None:
    if path.endswith(".json"):
        with open(path, "w") as f:
            json.dump(list(rows), f, indent=1, default=_jsonable)
            f.write("\n")
    elif path.endswith(".jsonl"):
        with open(path, "w") as f:
            for row in rows:
                f.write(json.dumps(row, default=_jsonable) + "\n")
    else:
        columns: list[str] = []
        for row in rows:
            columns.extend(k for k in row if k not in columns)
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow({k: json.dumps(v) if isinstance(v, (list, tuple, dict)) else v
                                 for k, v in row.items()})


def _jsonable(value: object) -> Any:
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def summary(rows: Sequence[Row], rotate: bool = False) -> str:
    """A plain-text table: per variant and seat (or bot, when seats rotate) the mean score,
    its standard deviation and the share of games won (ties count for every winner); then
    game length and end reasons per variant.
    """
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(row["variant"], []).append(row)
    lines = []
    head = ("variant", "bot" if rotate else "seat", "games", "mean score", "sd", "win %")
    table: list[tuple[str, ...]] = [head]
    notes = []
    for variant, rs in groups.items():
        scores: dict[str, list[int]] = {}
        wins: dict[str, int] = {}
        for r in rs:
            labels = _split_seats(r["seats"])
            for p, label in enumerate(labels):
                key = label if rotate else f"{p} {label}"
                scores.setdefault(key, []).append(r["scores"][p])
                wins[key] = wins.get(key, 0) + (p in r["winners"])
        for key, ss in scores.items():
            sd = statistics.stdev(ss) if len(ss) > 1 else 0.0
            table.append((variant, key, str(len(ss)), f"{statistics.fmean(ss):.2f}", f"{sd:.2f}",
                          f"{100 * wins[key] / len(ss):.1f}"))
        reasons: dict[str, int] = {}
        for r in rs:
            reasons[r["end_reason"]] = reasons.get(r["end_reason"], 0) + 1
        turns = statistics.fmean(r["turns"] for r in rs) if rs else 0.0
        notes.append(f"{variant}: {len(rs)} games, mean {turns:.1f} turns, ended by "
                     + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    widths = [max(len(line[i]) for line in table) for i in range(len(head))]
    for i, line in enumerate(table):
        lines.append("  ".join(c.ljust(w) if j < 2 else c.rjust(w)
                               for j, (c, w) in enumerate(zip(line, widths))).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join([*lines, "", *notes])


def _split_seats(text: str) -> list[str]:
    # Seat labels hold no commas (parameters use semicolons), so a plain split is exact.
    return text.split(",")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="leyline", description="Leyline tools.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = sub.add_parser(
        "simulate", help="play bot games under a ruleset and summarise them",
        description="Play bot games under a ruleset (or a sweep of variants) and summarise them.")
    sim.add_argument("--games", type=int, default=100, help="games per variant (default 100)")
    sim.add_argument("--seat", action="append", default=[], metavar="KIND[:k=v,...]",
                     help="a bot per player: random, greedy, memory (e.g. memory:capacity=4); "
                          "repeat for each player (default: two greedy)")
    sim.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                     help="change a Rules field (repeatable)")
    sim.add_argument("--sweep", action="append", default=[], metavar="FIELD=V1,V2,...",
                     help="try each value of a Rules field (repeatable: the product)")
    sim.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    sim.add_argument("--jobs", type=int, default=None,
                     help="local worker processes (default: one per CPU; 1 = no pool)")
    sim.add_argument("--rotate", action="store_true",
                     help="rotate the seating each game so every bot starts equally often")
    sim.add_argument("--out", metavar="PATH", help="write the rows to .csv, .json or .jsonl")
    sim.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    return parser


def _simulate(args: argparse.Namespace) -> int:
    if args.games < 0:
        raise UsageError(f"--games must be at least 0, got {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.out and not args.out.endswith((".csv", ".json", ".jsonl")):
        raise UsageError(f"--out must end in .csv, .json or .jsonl, got {args.out!r}")
    seats = [_seat(s) for s in args.seat] or [("greedy", {}), ("greedy", {})]
    if len(seats) > 4:
        raise UsageError(f"a game has 1 to 4 seats, got {len(seats)} --seat options")
    changes = dict(_pair(s, "--set") for s in args.set)
    try:
        rules = Rules.default().replace(**{k: _value(v, True) for k, v in changes.items()})
    except ValueError as err:
        raise UsageError(f"--set: {err}") from None
    grid: dict[str, list[Any]] = {}
    for text in args.sweep:
        name, listed = _pair(text, "--sweep")
        grid[name] = [_value(v.strip(), False) for v in listed.split(",")]
    total = args.games * math.prod(len(v) for v in grid.values())
    progress = None
    if not args.no_progress and total >= PROGRESS_FROM:
        progress = Progress(sys.stderr)
    start = time.perf_counter()
    if grid:
        try:
            # Validate every variant before any game runs, with the Rules message.
            for name, values in grid.items():
                for v in values:
                    rules.replace(**{name: v})
        except ValueError as err:
            raise UsageError(f"--sweep: {err}") from None
        rows = sweep(rules, grid, seats, args.games, args.seed, jobs=args.jobs,
                     rotate=args.rotate, progress=progress)
    else:
        rows = simulate(rules, seats, args.games, args.seed, jobs=args.jobs, rotate=args.rotate,
                        progress=progress)
    elapsed = time.perf_counter() - start
    if args.out:
        _write(rows, args.out)
    print(summary(rows, rotate=args.rotate))
    rate = len(rows) / elapsed if elapsed > 0 else 0.0
    print(f"{len(rows)} games in {elapsed:.1f} s ({rate:.0f} games/s); seats: "
          + ", ".join(seat_label(k, p) for k, p in seats)
          + (f"; rows written to {args.out}" if args.out else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return _simulate(args)
    except UsageError as err:
        parser.exit(2, f"leyline: error: {err}\n")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
