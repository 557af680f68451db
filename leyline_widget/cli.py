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
import io
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, TextIO

from .agents.balance import balance_report
from .agents.ladder import default_entrants, ladder
from .agents.simulate import (
    Row,
    SimulationError,
    iter_simulate,
    iter_sweep,
    local_dask,
    parse_seat,
    seat_label,
    seat_labels,
)
from .core.echo import quote, quote_path
from .core.files import WriteError, commit, probe_folder, reason, write_atomic
from .core.rules import Rules
from .core.version import VERSION

__all__ = ["PROGRESS_FROM", "REPORT_FORMATS", "ROW_FORMATS", "Progress", "UsageError",
           "check_out", "main", "summary"]

#: Runs of at least this many games draw a progress bar.
PROGRESS_FROM = 200


class UsageError(Exception):
    """Bad command-line input: printed after ``leyline: error:``, exit code 2."""


class RunError(Exception):
    """A run that stopped (interrupted, a failed chunk, a failed write): printed after
    ``leyline:``, with what was kept, and the exit code given."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


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
        raise UsageError(f"{option} expects FIELD=VALUE, got {quote(text)}")
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
        raise UsageError(f"--seat {quote(text)[1:-1]}: {err}") from None


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


def check_out(path: str, formats: Sequence[str], option: str = "--out") -> None:
    """Refuse an ``--out`` path that could not be written, before any game is played: its
    ending, its folder (a probe file is written there and removed) and the format's library."""
    if not path.endswith(tuple(formats)):
        endings = (f"{', '.join(formats[:-1])} or {formats[-1]}" if len(formats) > 1
                   else formats[0])
        raise UsageError(f"{option} must end in {endings}, got {quote_path(path)}")
    if os.path.isdir(path):
        raise UsageError(f"{option} {quote_path(path)} is a directory, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {quote_path(path)}: the folder "
                         f"{quote_path(folder)[1:-1]} does not exist")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UsageError(f"{option} {quote_path(path)}: no permission to write there")
    try:
        probe_folder(folder)
    except WriteError as err:
        raise UsageError(f"{option} {quote_path(path)}: {err}") from None
    if path.endswith(".parquet"):
        _needs("pyarrow", "--out .parquet needs pyarrow: pip install leyline_widget[parquet]")


def _needs(module: str, message: str) -> None:
    try:
        __import__(module)
    except ImportError:
        raise UsageError(message) from None


def _cell(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, (list, tuple, dict)) else value


class RowFile:
    """The rows of a run, streamed to ``PATH.partial`` as games finish, renamed to ``PATH``
    when the run ends.

    After an interrupt or a failed chunk, :meth:`close` still ends the file well (the JSON
    array closed, the Parquet footer written) and renames it: ``PATH`` holds every finished
    game. If the run is killed outright, ``PATH.partial`` is left with every row written so
    far (CSV and JSONL are valid at every row boundary; JSON and Parquet only once closed).
    If writing fails (a full disk), ``PATH`` is left as it was, and the CSV or JSONL rows
    written so far stay in ``PATH.partial``.
    """

    #: Parquet rows per row group (at most this many rows wait here to be written), or
    #: fewer when EVERY seconds have passed since the last group.
    GROUP = 10_000
    EVERY = 5.0

    def __init__(self, path: str) -> None:
        self.path = path
        self.partial = path + ".partial"
        self.kind = os.path.splitext(path)[1]
        self.count = 0  # rows written and flushed
        self._good = 0  # the file's length at the last row boundary
        self._csv = False
        self._columns: list[str] = []
        self._parquet: Any = None
        self._held: list[Row] = []
        self._since = time.monotonic()
        binary = self.kind == ".parquet"
        self.file: Any = open(self.partial, "wb" if binary else "w",  # noqa: SIM115
                              encoding=None if binary else "utf-8",
                              newline=None if binary else "")
        if self.kind == ".json":
            self.file.write("[")

    def write(self, rows: Sequence[Row]) -> None:
        """Write a chunk of rows (in game order) and flush them to the file."""
        if not rows:
            return
        if self.kind == ".parquet":
            self._held.extend(rows)
            if len(self._held) >= self.GROUP or time.monotonic() - self._since > self.EVERY:
                self._flush_parquet()
            return
        if self.kind == ".csv":
            text = io.StringIO()
            if not self._csv:
                self._columns = list(dict.fromkeys(k for row in rows for k in row))
                self._csv = True
                csv.DictWriter(text, fieldnames=self._columns).writeheader()
            writer = csv.DictWriter(text, fieldnames=self._columns, extrasaction="ignore")
            for row in rows:
                writer.writerow({k: _cell(v) for k, v in row.items()})
            data = text.getvalue()
        else:
            lines = [json.dumps(row, default=_jsonable) for row in rows]
            data = ("\n".join(lines) + "\n" if self.kind == ".jsonl"
                    else ("," if self.count else "") + "\n" + ",\n".join(lines))
        try:
            self.file.write(data)
            self.file.flush()
        except BaseException:
            # Back to the last whole row, so that what the file holds stays readable.
            with contextlib.suppress(Exception):
                self.file.seek(self._good)
                self.file.truncate()
            raise
        self.count += len(rows)
        self._good = self.file.tell()

    def _flush_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._held:
            return
        if self._parquet is None:
            table = pa.Table.from_pylist(self._held)
            self._parquet = pq.ParquetWriter(self.file, table.schema)
        else:
            table = pa.Table.from_pylist(self._held, schema=self._parquet.schema)
        self._parquet.write_table(table)
        self.file.flush()
        self.count += len(self._held)
        self._held = []
        self._since = time.monotonic()

    def close(self) -> None:
        """End the file (whatever rows it holds), sync it and give it its name."""
        if self.kind == ".parquet":
            self._flush_parquet()
            if self._parquet is None:  # no row at all: an empty table
                import pyarrow as pa
                import pyarrow.parquet as pq

                pq.write_table(pa.table({}), self.file)
            else:
                self._parquet.close()
        elif self.kind == ".json":
            self.file.write("\n]\n")
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        commit(self.partial, self.path)

    def abandon(self) -> str:
        """After a failed write: keep the rows up to the last whole one in ``PATH.partial``
        (CSV, JSONL) or remove it; ``PATH`` is untouched. Says what was kept."""
        with contextlib.suppress(Exception):
            self.file.close()
        if self.kind in (".csv", ".jsonl") and self.count:
            try:
                os.truncate(self.partial, self._good)
                return f"the {self.count} games written before are in {self.partial}"
            except OSError:
                pass
        with contextlib.suppress(OSError):
            os.unlink(self.partial)
        return "no rows were kept"


class _Held:
    """Ctrl-C held back while a chunk of rows is written, so that no row is cut in half; the
    interrupt comes as soon as the chunk is written."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False

    def _handler(self, signum: int, frame: object) -> None:
        if self.depth:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Our handler for Ctrl-C (SIGINT) and SIGTERM (a job scheduler's stop) while the run
        lasts, where they have their default handlers (in the main thread only)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        ours = [sig for sig, handler in before.items()
                if handler in (signal.default_int_handler, signal.SIG_DFL)]
        for sig in ours:
            signal.signal(sig, self._handler)
        try:
            yield
        finally:
            for sig in ours:
                signal.signal(sig, before[sig])

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.depth -= 1
        if not self.depth and self.pending and kind is None:
            self.pending = False
            raise KeyboardInterrupt


class _InOrder:
    """Chunks of rows as workers finish them, handed on in game order (so the file and the
    summary are the same on any number of workers); a chunk that comes early waits here."""

    def __init__(self) -> None:
        self.next = 0
        self.waiting: dict[int, list[Row]] = {}

    def push(self, first: int, rows: list[Row]) -> Iterator[list[Row]]:
        self.waiting[first] = rows
        while self.next in self.waiting:
            part = self.waiting.pop(self.next)
            self.next = part[-1]["game"] + 1 if part else self.next + 1
            yield part

    def rest(self) -> Iterator[list[Row]]:
        """What still waits (after a gap left by a chunk that never finished)."""
        for first in sorted(self.waiting):
            yield self.waiting.pop(first)


def _jsonable(value: object) -> Any:
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


class _Scores:
    """One seat's (or bot's) scores, summed as games finish: count, mean and spread
    (Welford's running sums), wins."""

    __slots__ = ("m2", "mean", "n", "wins")

    def __init__(self) -> None:
        self.n, self.mean, self.m2, self.wins = 0, 0.0, 0.0, 0

    def add(self, score: int, won: bool) -> None:
        self.n += 1
        delta = score - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (score - self.mean)
        self.wins += won


class Tally:
    """What :func:`summary` prints, kept as rows come (a run of any length holds a few
    numbers per variant and seat, never the rows)."""

    def __init__(self, rotate: bool = False) -> None:
        self.rotate = rotate
        self.games = 0
        self.scores: dict[str, dict[str, _Scores]] = {}
        self.reasons: dict[str, dict[str, int]] = {}
        self.turns: dict[str, int] = {}

    def add(self, rows: Iterable[Row]) -> None:
        for r in rows:
            variant = r["variant"]
            seats = self.scores.setdefault(variant, {})
            for p, label in enumerate(seat_labels(r)):
                key = label if self.rotate else f"{p} {label}"
                seats.setdefault(key, _Scores()).add(r["scores"][p], p in r["winners"])
            reasons = self.reasons.setdefault(variant, {})
            reasons[r["end_reason"]] = reasons.get(r["end_reason"], 0) + 1
            self.turns[variant] = self.turns.get(variant, 0) + r["turns"]
            self.games += 1

    def text(self) -> str:
        """A plain-text table: per variant and seat (or bot, when seats rotate) the mean
        score, its standard deviation and the share of games won (ties count for every
        winner); then game length and end reasons per variant."""
        head = ("variant", "bot" if self.rotate else "seat", "games", "mean score", "sd",
                "win %")
        table: list[tuple[str, ...]] = [head]
        notes = []
        for variant, seats in self.scores.items():
            for key, sc in seats.items():
                sd = math.sqrt(sc.m2 / (sc.n - 1)) if sc.n > 1 else 0.0
                table.append((variant, key, str(sc.n), f"{sc.mean:.2f}", f"{sd:.2f}",
                              f"{100 * sc.wins / sc.n:.1f}"))
            games = sum(self.reasons[variant].values())
            notes.append(f"{variant}: {games} games, mean {self.turns[variant] / games:.1f} "
                         "turns, ended by " + ", ".join(
                             f"{k} {v}" for k, v in sorted(self.reasons[variant].items())))
        widths = [max(len(line[i]) for line in table) for i in range(len(head))]
        lines = []
        for i, line in enumerate(table):
            lines.append("  ".join(c.ljust(w) if j < 2 else c.rjust(w)
                                   for j, (c, w) in enumerate(zip(line, widths))).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join([*lines, "", *notes])


def summary(rows: Iterable[Row], rotate: bool = False) -> str:
    """A plain-text table of rows (:class:`Tally`): per variant and seat (or bot, when seats
    rotate) the mean score, its standard deviation and the share of games won (ties count
    for every winner); then game length and end reasons per variant.
    """
    tally = Tally(rotate)
    tally.add(rows)
    return tally.text()


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
        "ladder", help="rate bots in a round robin (Bradley-Terry, 95%% intervals)",
        description="Every pair of --seat entrants plays --games two-seat games, seats "
                    "alternated; the ratings (Elo scale, random = 0) come with bootstrap 95% "
                    "intervals. Default entrants: random, memory at capacities 2, 4 and 6, "
                    "greedy, and the expert at its quick and default budgets.")
    _common(lad, 40, REPORT_FORMATS)
    lad.add_argument("--plot", metavar="PATH.png", help="also draw the ratings to a PNG")
    lad.add_argument("--least", type=int, default=8, metavar="N",
                     help="play each pair in rounds of N games (even) and stop it once its 95%% "
                          "interval shows who is stronger; --games is the most a close pair "
                          "plays (8; 0 plays every pair all --games)")
    _lite_parser(sub)
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
                         f"got {quote(args.scheduler)}")


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
    out = RowFile(args.out) if args.out else None
    tally = Tally(args.rotate)
    order = _InOrder()

    held = _Held()

    def keep(parts: Iterable[list[Row]]) -> None:
        for part in parts:
            with held:  # a Ctrl-C waits until the chunk is written whole
                if out is not None:
                    out.write(part)
                tally.add(part)

    start = time.perf_counter()
    stopped: BaseException | None = None
    try:
        with held.installed():
            try:
                with _executor(args) as executor:
                    stream = (iter_sweep(rules, grid, seats, args.games, args.seed, executor,
                                         jobs=args.jobs, rotate=args.rotate, progress=progress)
                              if grid else
                              iter_simulate(rules, seats, args.games, args.seed, executor,
                                            jobs=args.jobs, rotate=args.rotate,
                                            progress=progress))
                    with contextlib.closing(stream):  # stops the workers on any error
                        for first, rows in stream:
                            keep(order.push(first, rows))
            except (KeyboardInterrupt, SimulationError) as err:
                stopped = err
            with held:  # finished games that wait behind one that never finished
                keep(order.rest())
                if out is not None and (tally.games or stopped is None):
                    out.close()
                elif out is not None:  # stopped before any game finished: PATH as it was
                    out.abandon()
                    out = None
                held.pending = False  # a Ctrl-C meanwhile: we are stopping anyway
    except OSError as err:
        kept = out.abandon() if out is not None else ""
        raise RunError(f"cannot write {args.out}: {reason(err)}; {tally.games} games were "
                       f"played; {kept}", 1) from None
    elapsed = time.perf_counter() - start
    if tally.games:
        print(tally.text())
    rate = tally.games / elapsed if elapsed > 0 else 0.0
    where = f"; rows written to {args.out}" if out is not None else ""
    if stopped is None:
        print(f"{tally.games} games in {elapsed:.1f} s ({rate:.0f} games/s); seats: "
              + ", ".join(seat_label(k, p) for k, p in seats) + where)
        return 0
    kept = (f"the {tally.games} finished games are in {args.out}" if out is not None
            else f"no game had finished; {args.out} was not written" if args.out
            else f"{tally.games} games had finished")
    if isinstance(stopped, KeyboardInterrupt):
        raise RunError(f"interrupted after {elapsed:.1f} s: {kept}", 130)
    raise RunError(f"{stopped}; {kept}", 1)


def _save(path: str, data: str | bytes, what: str) -> None:
    """Write an output file atomically; a failure (a full disk) is an error of the run
    that leaves any old file whole (the report itself was printed before)."""
    try:
        write_atomic(path, data)
    except OSError as err:
        raise RunError(f"{err}; the {what} is printed above", 1) from None


def _write_report(path: str, markdown: str, data: dict[str, Any]) -> None:
    """Write a report as ``.json`` (``data``) or Markdown, by the path's ending."""
    _save(path, json.dumps(data, indent=1) + "\n" if path.endswith(".json") else markdown,
          "report")


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
    print(text, end="")
    if args.out:
        _write_report(args.out, text, report.to_dict())
    print(f"{report.games} games in {elapsed:.1f} s"
          + (f"; report written to {args.out}" if args.out else ""))
    return 0


def _ladder(args: argparse.Namespace) -> int:
    _check_common(args, least_games=2, what=" (per pair)")
    entrants = [_seat(s) for s in args.seat] or default_entrants()
    rules = _rules(args)
    if args.out:
        check_out(args.out, REPORT_FORMATS)
    if args.plot:
        check_out(args.plot, (".png",), "--plot")
        _needs("matplotlib", "--plot needs matplotlib: pip install leyline_widget[examples]")
    progress = None if args.no_progress else Progress(sys.stderr)
    start = time.perf_counter()
    try:
        with _executor(args) as executor:
            table = ladder(entrants, args.games, args.seed, rules, executor=executor,
                           jobs=args.jobs, progress=progress, least=args.least or None)
    except ValueError as err:
        raise UsageError(str(err)) from None
    elapsed = time.perf_counter() - start
    text = table.to_markdown()
    print(text, end="")
    if args.out:
        _write_report(args.out, text, table.to_dict())
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        ax = table.plot()
        png = io.BytesIO()  # drawn in memory, then written as one file
        ax.figure.savefig(png, format="png", dpi=120, bbox_inches="tight")
        _save(args.plot, png.getvalue(), "table")
    pairs = len(table.pairs)
    played = sum(n for _, n in table.pairs.values())
    print(f"{pairs} pairs, {played} games (at most {args.games} a pair) in {elapsed:.1f} s"
          + (f"; table written to {args.out}" if args.out else ""))
    return 0


def _short(message: str, limit: int = 500) -> str:
    """A message cut to ``limit`` characters: the backstop for one that quotes its input in
    full (each should quote it short itself, ``core.echo``)."""
    return message if len(message) <= limit else message[:limit - 4].rstrip() + " ..."


# -- leyline lite: the in-browser site (widgets/lite.py) ------------------------------------

def _lite_parser(sub: Any) -> None:
    lite = sub.add_parser(
        "lite", help="build the in-browser site (JupyterLite + Pyodide): notebooks, lessons, play",
        description="Build a static JupyterLite site with the Pyodide kernel, this package's "
                    "wheel and every pure wheel it needs, the example notebooks that run in a "
                    "browser and the lessons. Everything is fetched now (PyPI, npm) and copied "
                    "in: the site works offline from any static host.")
    lite.add_argument("--out", required=True, metavar="DIR", help="the site's folder (replaced)")
    lite.add_argument("--notebook", action="append", default=[], metavar="NAME",
                      help="a notebook to include (repeatable; default: play, rules tutorial, "
                           "annotate a replay, coach, lessons): an example's name such as "
                           "01_play or play, a path to an .ipynb, coach, lessons, or "
                           "lesson:<id>")
    lite.add_argument("--wheel", metavar="PATH.whl",
                      help="this package's wheel (default: built from the source tree)")


def _lite(args: argparse.Namespace) -> int:
    from .widgets.lite import build_lite, resolve_notebook

    for spec in args.notebook:  # a bad name is refused before anything is fetched
        try:
            resolve_notebook(spec)
        except ValueError as err:
            raise UsageError(str(err)) from None
    if args.wheel and not Path(args.wheel).is_file():
        raise UsageError(f"--wheel: no file {quote_path(args.wheel)}")
    try:
        site = build_lite(args.out, args.notebook or None, wheel=args.wheel)
    except RuntimeError as err:
        print(f"leyline lite: {err}", file=sys.stderr)
        return 1
    print(site.summary())
    print(f"serve it with: python -m http.server -d {site.out} 8000, then open "
          "http://127.0.0.1:8000/lab/index.html")
    return 0


_COMMANDS = {"simulate": _simulate, "balance": _balance, "ladder": _ladder, "lite": _lite}


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
    srv.add_argument("--evict-after", type=float, default=120.0, metavar="SECONDS",
                     help="how long a table nobody watches stays in memory (120); it is "
                          "loaded again from --db when someone comes back")
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
    if not 0.1 <= args.evict_after <= 86400:
        raise UsageError(f"--evict-after must be from 0.1 to 86400 seconds, got "
                         f"{args.evict_after}")
    try:
        store = open_store(args.db)
    except ValueError as err:
        raise UsageError(str(err)) from None
    except Exception as err:  # the database cannot be reached: say so in a line
        raise UsageError(f"--db: cannot open {args.db}: {str(err)[:200]}") from None
    print(f"leyline: serving tables of {args.db} on http://{args.host}:{args.port}",
          file=sys.stderr, flush=True)
    serve(store, host=args.host, port=args.port, board=table_board, static=STATIC,
          origins=tuple(args.allow_origin), poll=args.poll, evict_after=args.evict_after)
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
        parser.exit(2, f"leyline: error: {_short(str(err))}\n")
    except RunError as err:
        sys.stdout.flush()
        print(f"leyline: {_short(str(err))}", file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        print("leyline: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
