"""The ``leyline`` command: simulate bot games under rule variants, and balance reports.

    leyline simulate --games 1000 --seat greedy --seat memory --set grid_cols=5 \\
        --jobs 2 --out results.csv
    leyline balance --set deactivate_refund=false --seat greedy --seat greedy --games 2000 \\
        --dask-workers 2 --out report.md

``--seat KIND`` or ``--seat KIND:param=value,...`` (one per player, 1 to 4; default two
GreedyBots), ``--set FIELD=VALUE`` changes a Rules field, ``--sweep FIELD=V1,V2,...`` tries
each value (several ``--sweep`` give their product). Values are read as JSON when they parse
(``5``, ``null``, ``["fire","water"]``), as a list when they hold commas (``--set``), else
as text. Bad input gets the Rules validation message and exit code 2. A progress bar goes to
stderr on long runs; the summary table goes to stdout; ``--out`` writes one row per game
(``.csv``, ``.json``, ``.jsonl`` or ``.parquet``, which needs pyarrow); ``leyline balance`` writes
its report as ``.md`` or ``.json``. The ``--out`` path and format are checked before any game is
played. ``--jobs`` local processes (capped at the CPUs and the games), or a Dask cluster:
``--scheduler tcp://host:port`` or ``--dask-workers N`` (a local cluster of N processes).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, TextIO

from .agents.balance import balance_report
from .agents.ladder import default_entrants, ladder
from .agents.simulate import Row, local_dask, parse_seat, seat_label, seat_labels, simulate, sweep
from .core.rules import Rules
from .core.version import VERSION

__all__ = ["PROGRESS_FROM", "REPORT_FORMATS", "ROW_FORMATS", "Progress", "UsageError",
           "check_out", "main", "summary"]

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


#: What ``--out`` may end in, per command.
ROW_FORMATS = (".csv", ".json", ".jsonl", ".parquet")
REPORT_FORMATS = (".md", ".json")


def check_out(path: str, formats: Sequence[str]) -> None:
    """Refuse an ``--out`` path that could not be written, before any game is played."""
    if not path.endswith(tuple(formats)):
        raise UsageError(f"--out must end in {', '.join(formats[:-1])} or {formats[-1]}, "
                         f"got {path!r}")
    if os.path.isdir(path):
        raise UsageError(f"--out {path!r} is a directory, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"--out {path!r}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"--out {path!r}: no permission to write there")
    if path.endswith(".parquet"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError("--out .parquet needs pyarrow: pip install leyline_widget[parquet]"
                             ) from None


def _write(rows: Sequence[Row], path: str) -> None:
    if path.endswith(".parquet"):
        _write_parquet(rows, path)
    elif path.endswith(".json"):
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


def _write_parquet(rows: Sequence[Row], path: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    # Every row of a run has the same columns but a sweep's; missing cells are nulls.
    table = pa.table({c: [row.get(c) for row in rows] for c in columns})
    pq.write_table(table, path)


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
            labels = seat_labels(r)
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


def _common(cmd: argparse.ArgumentParser, games: int, formats: Sequence[str]) -> None:
    cmd.add_argument("--games", type=int, default=games,
                     help=f"games per variant (default {games})")
    cmd.add_argument("--seat", action="append", default=[], metavar="KIND[:k=v,...]",
                     help="a bot per player: random, greedy, memory, ... (e.g. "
                          "memory:capacity=4); repeat for each player (default: two greedy)")
    cmd.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                     help="change a Rules field (repeatable)")
    cmd.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    cmd.add_argument("--jobs", type=int, default=None,
                     help="local worker processes (default: one per CPU; capped at the CPUs "
                          "and the games; 1 = no pool)")
    dask = cmd.add_mutually_exclusive_group()
    dask.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                      help="run the games on this Dask scheduler")
    dask.add_argument("--dask-workers", type=int, metavar="N",
                      help="run the games on a local Dask cluster of N worker processes")
    cmd.add_argument("--out", metavar="PATH",
                     help=f"write the results to {', '.join(formats)}")
    cmd.add_argument("--no-progress", action="store_true", help="never draw the progress bar")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="leyline", description="Leyline tools.")
    parser.add_argument("--version", action="version", version=f"leyline {VERSION}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = sub.add_parser(
        "simulate", help="play bot games under a ruleset and summarise them",
        description="Play bot games under a ruleset (or a sweep of variants) and summarise them.")
    _common(sim, 100, ROW_FORMATS)
    sim.add_argument("--sweep", action="append", default=[], metavar="FIELD=V1,V2,...",
                     help="try each value of a Rules field (repeatable: the product)")
    sim.add_argument("--rotate", action="store_true",
                     help="rotate the seating each game so every bot starts equally often")
    bal = sub.add_parser(
        "balance", help="a balance report: first-seat advantage and exploit probes",
        description="Play bot games (seats rotated) and write a balance report with 95% "
                    "intervals: first-seat win rate, margins, length, end reasons, probes.")
    _common(bal, 500, REPORT_FORMATS)
    bal.add_argument("--probe-games", type=int, default=None,
                     help="games of the scouting probe (default: --games)")
    bal.add_argument("--no-probes", action="store_true", help="skip the scouting probe")
    lad = sub.add_parser(
        "ladder", help="rate bots in a round robin (Bradley-Terry, 95% intervals)",
        description="Every pair of --seat entrants plays --games two-seat games, seats "
                    "alternated; the ratings (Elo scale, random = 0) come with bootstrap 95% "
                    "intervals. Default entrants: random, memory at capacities 2, 4 and 6, "
                    "greedy, and the expert at its quick and default budgets.")
    _common(lad, 40, REPORT_FORMATS)
    lad.add_argument("--plot", metavar="PATH.png", help="also draw the ratings to a PNG")
    _table_parsers(sub)
    return parser


def _rules(args: argparse.Namespace) -> Rules:
    """The rules of ``--set FIELD=VALUE`` (repeatable) over the defaults."""
    changes = dict(_pair(s, "--set") for s in args.set)
    try:
        return Rules.default().replace(**{k: _value(v, True) for k, v in changes.items()})
    except ValueError as err:
        raise UsageError(f"--set: {err}") from None


def _check_common(args: argparse.Namespace, least_games: int = 1, what: str = "") -> None:
    """The checks every command's shared flags get (``_common``), before any game is played."""
    if args.games < least_games:
        raise UsageError(f"--games{what} must be at least {least_games}, got {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.dask_workers is not None and not 1 <= args.dask_workers <= (os.cpu_count() or 1):
        raise UsageError(f"--dask-workers must be from 1 to the {os.cpu_count() or 1} CPUs, "
                         f"got {args.dask_workers}")
    if args.scheduler is not None and "://" not in args.scheduler:
        raise UsageError(f"--scheduler expects an address such as tcp://host:8786, "
                         f"got {args.scheduler!r}")


def _seats_and_rules(args: argparse.Namespace) -> tuple[list[tuple[str, dict[str, Any]]], Rules]:
    _check_common(args)
    seats = [_seat(s) for s in args.seat] or [("greedy", {}), ("greedy", {})]
    if len(seats) > 4:
        raise UsageError(f"a game has 1 to 4 seats, got {len(seats)} --seat options")
    rules = _rules(args)
    return seats, rules


@contextlib.contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Executor | None]:
    """A Dask executor for ``--scheduler`` or ``--dask-workers``, else None (local pool)."""
    if args.scheduler is None and args.dask_workers is None:
        yield None
        return
    try:
        import distributed
    except ImportError:
        raise UsageError("--scheduler and --dask-workers need Dask: "
                         "pip install leyline_widget[dask]") from None
    if args.scheduler is None:
        with local_dask(args.dask_workers) as local:
            yield local.get_executor()
        return
    # distributed has no type hints for Client: called through Any.
    dask_client: Any = distributed.Client
    try:
        client: Any = dask_client(args.scheduler, timeout=10)
    except (OSError, TimeoutError) as err:
        raise UsageError(f"--scheduler {args.scheduler}: {err}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()


def _simulate(args: argparse.Namespace) -> int:
    seats, rules = _seats_and_rules(args)
    if args.out:
        check_out(args.out, ROW_FORMATS)
    grid: dict[str, list[Any]] = {}
    for text in args.sweep:
        name, listed = _pair(text, "--sweep")
        grid[name] = [_value(v.strip(), False) for v in listed.split(",")]
    if grid:
        try:
            # Validate every variant before any game runs, with the Rules message.
            for name, values in grid.items():
                for v in values:
                    rules.replace(**{name: v})
        except ValueError as err:
            raise UsageError(f"--sweep: {err}") from None
    total = args.games * math.prod(len(v) for v in grid.values())
    progress = None
    if not args.no_progress and total >= PROGRESS_FROM:
        progress = Progress(sys.stderr)
    start = time.perf_counter()
    with _executor(args) as executor:
        if grid:
            rows = sweep(rules, grid, seats, args.games, args.seed, executor, jobs=args.jobs,
                         rotate=args.rotate, progress=progress)
        else:
            rows = simulate(rules, seats, args.games, args.seed, executor, jobs=args.jobs,
                            rotate=args.rotate, progress=progress)
    elapsed = time.perf_counter() - start
    if args.out:
        _write(rows, args.out)
    print(summary(rows, rotate=args.rotate))
    rate = len(rows) / elapsed if elapsed > 0 else 0.0
    print(f"{len(rows)} games in {elapsed:.1f} s ({rate:.0f} games/s); seats: "
          + ", ".join(seat_label(k, p) for k, p in seats)
          + (f"; rows written to {args.out}" if args.out else ""))
    return 0


def _write_report(path: str, markdown: str, data: dict[str, Any]) -> None:
    """Write a report as ``.json`` (``data``) or Markdown, by the path's ending."""
    with open(path, "w", encoding="utf-8") as f:
        if path.endswith(".json"):
            json.dump(data, f, indent=1)
            f.write("\n")
        else:
            f.write(markdown)


def _balance(args: argparse.Namespace) -> int:
    seats, rules = _seats_and_rules(args)
    if len(seats) < 2:
        raise UsageError("a balance report needs 2 to 4 --seat options")
    if args.probe_games is not None and args.probe_games < 1:
        raise UsageError(f"--probe-games must be at least 1, got {args.probe_games}")
    if args.out:
        check_out(args.out, REPORT_FORMATS)
    start = time.perf_counter()
    with _executor(args) as executor:
        report = balance_report(rules, seats, args.games, args.seed, executor, jobs=args.jobs,
                                probes=not args.no_probes, probe_games=args.probe_games)
    elapsed = time.perf_counter() - start
    text = report.to_markdown()
    if args.out:
        _write_report(args.out, text, report.to_dict())
    print(text, end="")
    print(f"{report.games} games in {elapsed:.1f} s"
          + (f"; report written to {args.out}" if args.out else ""))
    return 0


def _ladder(args: argparse.Namespace) -> int:
    _check_common(args, least_games=2, what=" (per pair)")
    entrants = [_seat(s) for s in args.seat] or default_entrants()
    rules = _rules(args)
    if args.out:
        check_out(args.out, REPORT_FORMATS)
    if args.plot and not args.plot.endswith(".png"):
        raise UsageError(f"--plot must end in .png, got {args.plot!r}")
    if args.plot:
        check_out(args.plot, (".png",))
    progress = None if args.no_progress else Progress(sys.stderr)
    start = time.perf_counter()
    try:
        with _executor(args) as executor:
            table = ladder(entrants, args.games, args.seed, rules, executor=executor,
                           jobs=args.jobs, progress=progress)
    except ValueError as err:
        raise UsageError(str(err)) from None
    elapsed = time.perf_counter() - start
    text = table.to_markdown()
    if args.out:
        _write_report(args.out, text, table.to_dict())
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        ax = table.plot()
        ax.figure.savefig(args.plot, dpi=120, bbox_inches="tight")
    print(text, end="")
    pairs = len(table.pairs)
    print(f"{pairs} pairs x {args.games} games in {elapsed:.1f} s"
          + (f"; table written to {args.out}" if args.out else ""))
    return 0


_COMMANDS = {"simulate": _simulate, "balance": _balance, "ladder": _ladder}


# -- play over the network: leyline serve, leyline table new / class ----------------------------
def _table_parsers(sub: Any) -> None:
    srv = sub.add_parser(
        "serve", help="run the table server (play over the network)",
        description="Serve tables over HTTP and WebSockets (docs/tables.md). Every accepted "
                    "move is committed to --db before it is acknowledged; a restarted server "
                    "resumes every table at its last accepted move.")
    srv.add_argument("--db", default="sqlite:///tables.db",
                     help="sqlite:///path.db (default: sqlite:///tables.db) or "
                          "postgresql://user@host/db (several server processes may share it)")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    srv.add_argument("--port", type=int, default=8765, help="port (8765)")
    srv.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                     help="a web origin (https://host:port) whose pages may open WebSockets "
                          "here besides the server's own (repeatable)")
    srv.add_argument("--poll", type=float, default=0.5, metavar="SECONDS",
                     help="how often to look for moves made through another server process")
    tab = sub.add_parser("table", help="create tables and classes on a table server",
                         description="Create a table or a class on a running table server.")
    tsub = tab.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    new = tsub.add_parser("new", help="a table: prints one private link per person's seat "
                                      "and a spectator link")
    new.add_argument("--server", required=True, help="http://host:port of the table server")
    new.add_argument("--seat", action="append", required=True, metavar="NAME_OR_BOT",
                     help="a player's name, or a bot kind (random, memory, greedy, expert); "
                          "one per seat, in turn order")
    new.add_argument("--seed", type=int, default=None, help="the deal's seed (random)")
    new.add_argument("--class", dest="class_key", default=None, metavar="TEACHER_KEY",
                     help="the teacher's key of the class this table belongs to")
    new.add_argument("--turn-seconds", type=int, default=None, metavar="N",
                     help="a turn timer: after N seconds the seat's turn ends by itself")
    new.add_argument("--bot-delay-ms", type=int, default=None, metavar="MS",
                     help="the pause before each bot move (600)")
    cls = tsub.add_parser("class", help="a class: prints the teacher's key and room link")
    cls.add_argument("--server", required=True, help="http://host:port of the table server")
    cls.add_argument("--name", default="Class", help="the class's name")


def _serve(args: argparse.Namespace) -> int:
    try:
        from .tables.server import serve
        from .tables.store import open_store
    except ImportError as err:
        raise UsageError(f"leyline serve needs the tables extra: pip install "
                         f"'leyline_widget[tables]' ({err})") from None
    from .widgets.assets import STATIC
    from .widgets.table import table_board

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be from 1 to 65535, got {args.port}")
    if not 0.05 <= args.poll <= 60:
        raise UsageError(f"--poll must be from 0.05 to 60 seconds, got {args.poll}")
    try:
        store = open_store(args.db)
    except ValueError as err:
        raise UsageError(str(err)) from None
    except Exception as err:  # the database cannot be reached: say so in a line
        raise UsageError(f"--db: cannot open {args.db}: {str(err)[:200]}") from None
    print(f"leyline: serving tables of {args.db} on http://{args.host}:{args.port}",
          file=sys.stderr, flush=True)
    serve(store, host=args.host, port=args.port, board=table_board, static=STATIC,
          origins=tuple(args.allow_origin), poll=args.poll)
    return 0


def _table(args: argparse.Namespace) -> int:
    from .tables.client import TableError, create_class, create_table

    try:
        if args.table_command == "class":
            made = create_class(args.server, args.name)
            print(f"class {made['name']} ({made['class']})")
            print(f"  teacher's key: {made['teacher_key']}")
            print(f"  teacher's room: {made['room']}")
            return 0
        options = {k: v for k, v in (("seed", args.seed), ("class", args.class_key),
                                     ("turn_seconds", args.turn_seconds),
                                     ("bot_delay_ms", args.bot_delay_ms)) if v is not None}
        made = create_table(args.server, args.seat, **options)
    except TableError as err:
        raise UsageError(f"{err.field or 'server'}: {err}") from None
    except OSError as err:
        raise UsageError(f"--server: cannot reach {args.server}: {str(err)[:200]}") from None
    print(f"table {made['table']}: {' vs '.join(made['players'])}")
    for seat in made["seats"]:
        if "link" in seat:
            print(f"  {seat['name']}: {seat['link']}")
        else:
            print(f"  {seat['name']}: a {seat['bot']} bot (played by the server)")
    print(f"  spectators: {made['spectator']}")
    return 0


_COMMANDS.update(serve=_serve, table=_table)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except UsageError as err:
        parser.exit(2, f"leyline: error: {err}\n")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
