"""Batch simulation of bot games under rule variants.

Every game draws its deal seed and its bots' seeds from ``(seed, game index)`` alone, so the
rows are the same whatever executor runs them, with however many workers, in whatever order.
Games run in chunks on any :class:`concurrent.futures.Executor`: by default a local process
pool; at scale a Dask cluster's executor::

    from distributed import Client
    client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
    rows = simulate(rules, ["greedy", "memory"], games=100_000, seed=1,
                    executor=client.get_executor())

(``pip install leyline_widget[dask]`` installs ``dask[distributed]``.) :func:`local_dask`
starts the local cluster the CLI's ``--dask-workers`` uses, tuned for long CPU-bound tasks.

>>> rows = simulate(Rules.default(), ["greedy", "random"], games=3, seed=5, jobs=1)
>>> [r["game"] for r in rows], rows[0]["variant"], rows[0]["seats"]
([0, 1, 2], 'default', 'greedy,random')
>>> rows == simulate(Rules.default(), ["greedy", "random"], games=3, seed=5, jobs=1)
True
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import multiprocessing
import os
import random
import signal
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future
from concurrent.futures import wait as futures_wait
from html import escape
from multiprocessing.connection import Connection, wait
from typing import Any

from ..core.actions import Activate, Deactivate, Refill
from ..core.echo import quote
from ..core.game import MAX_PLAYERS, Game
from ..core.rules import Rules
from .bots import BOT_KINDS, BotSeat, make_bot

#: A seat: a bot kind, or a (kind, params) pair such as ("memory", {"capacity": 4}).
SeatSpec = str | tuple[str, Mapping[str, Any]]
Row = dict[str, Any]

#: Actions after which a game is stopped (end_reason "action_cap"); bots end far sooner.
MAX_ACTIONS = 20_000


class Rows(list[Row]):
    """The rows of a simulation: a plain list of dicts, sorted by game index.

    :meth:`to_frame` gives a pandas DataFrame (pandas is an optional dependency).
    """

    def to_frame(self) -> Any:
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is in the dev extra
            raise ImportError(
                "Rows.to_frame() needs pandas: pip install leyline_widget[pandas]") from None
        return pd.DataFrame(list(self))

    def _repr_html_(self, limit: int = 20) -> str:
        """A notebook's rich display: the rows as a table (the first ``limit``)."""
        columns = list(dict.fromkeys(k for row in self[:limit] for k in row))
        head = "".join(f"<th>{escape(str(c))}</th>" for c in columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(str(row.get(c, '')))}</td>" for c in columns)
            + "</tr>" for row in self[:limit])
        more = (f"<p>&hellip; {len(self) - limit} more rows (rows.to_frame() for all)</p>"
                if len(self) > limit else "")
        return (f"<div><p>{len(self)} simulated games</p><table><thead><tr>{head}</tr>"
                f"</thead><tbody>{body}</tbody></table>{more}</div>")


def parse_seat(spec: SeatSpec) -> tuple[str, dict[str, Any]]:
    """Validate a seat: ``"greedy"`` or ``("memory", {"capacity": 4})``.

    >>> parse_seat(("memory", {"capacity": 4}))
    ('memory', {'capacity': 4})
    >>> parse_seat("smart")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot kind 'smart'; kinds are random, greedy, memory, expert
    """
    if isinstance(spec, str):
        kind, params = spec, {}
    elif (isinstance(spec, (tuple, list)) and len(spec) == 2 and isinstance(spec[0], str)
          and isinstance(spec[1], Mapping)):
        kind, params = spec[0], dict(spec[1])
    else:
        raise ValueError(f"a seat is a bot kind or a (kind, params) pair, got {quote(spec)}")
    make_bot(kind, seed=0, **params)  # the bot's own validation, before any game runs
    return kind, params


def seat_label(kind: str, params: Mapping[str, Any]) -> str:
    """``greedy`` or ``memory(capacity=4;decay=0.1)``: how rows name a seat.

    Rows join the seats of a game with commas, so parameters are separated by semicolons.
    """
    if not params:
        return kind
    return f"{kind}({';'.join(f'{k}={v}' for k, v in sorted(params.items()))})"


def seat_labels(row: Row) -> list[str]:
    """A row's seats in play order, as :func:`seat_label` names them.

    >>> seat_labels({"seats": "greedy,memory(capacity=4;decay=0.1)"})
    ['greedy', 'memory(capacity=4;decay=0.1)']
    """
    # Labels hold no commas (parameters use semicolons), so a plain split is exact.
    return str(row["seats"]).split(",")


def points_of(row: Row, label: str) -> float:
    """The points of the seat named ``label`` in a game: 1 for a win, 1/k for a victory
    shared by k, 0 for a loss (the first such seat when several share the label)."""
    winners = row["winners"]
    return 1.0 / len(winners) if seat_labels(row).index(label) in winners else 0.0


def variant_label(rules: Rules, base: Rules | None = None) -> str:
    """The fields in which ``rules`` differ from ``base`` (default rules), as ``k=v,...``.

    >>> variant_label(Rules.default().replace(grid_cols=5, turn_limit=30))
    'grid_cols=5,turn_limit=30'
    """
    base = Rules.default() if base is None else base
    mine, theirs = rules.to_dict(), base.to_dict()
    changed = [k for k in mine if mine[k] != theirs[k]]
    if not changed:
        return "default"
    parts = []
    for k in changed:
        v = mine[k]
        if k == "powers":
            v = "+".join(f"{p['element']}:{p['tier']}:{p['effect']}" for p in v)
        elif k == "elements":
            v = "+".join(v)
        parts.append(f"{k}={v}")
    return ",".join(parts)


def game_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """The deal seed and one bot seed per player for game ``index`` of a run.

    String seeds hash with SHA-512 in :mod:`random`, so they are the same in every process.

    >>> game_seeds(1, 0, 2) == game_seeds(1, 0, 2) != game_seeds(1, 1, 2)
    True
    """
    rng = random.Random(f"leyline:{seed}:{index}")
    deal = rng.getrandbits(32)
    return deal, [rng.getrandbits(32) for _ in range(players)]


#: The moves on one grid slot: they collect nothing, place no token and use no power, so
#: play_game counts nothing in their events.
_SLOT_MOVES = frozenset((Activate, Deactivate, Refill))


def play_game(rules: Rules, seats: Sequence[tuple[str, dict[str, Any]]], seed: int, index: int,
              variant: str = "", rotate: bool = False,
              max_actions: int = MAX_ACTIONS, detail: bool = False) -> Row:
    """Play game ``index`` of a run to its end and describe it in one row.

    ``detail=True`` adds, per seat, ``power_cards_p``: the cards that seat collected only thanks
    to Spark or Wildfire (the balance report's power-loop probe): in a turn with Wildfire,
    every card of an element collected below the collect threshold; with Spark, the cards
    beyond what the turn's own activations could have collected.
    """
    n = len(seats)
    order = list(seats)
    if rotate:
        shift = index % n
        order = order[shift:] + order[:shift]
    deal, bot_seeds = game_seeds(seed, index, n)
    game = Game.new(players=n, seed=deal, rules=rules)
    drivers = [BotSeat(make_bot(kind, seed=bot_seeds[p], **params), p)
               for p, (kind, params) in enumerate(order)]
    collections = [0] * n
    tokens = [0] * n
    paid = [0] * n
    powers = [0] * n
    power_cards = [0] * n
    fire: set[str] = set()  # Spark and Wildfire, when used this turn (detail only)
    fire_turn = 0
    actions = 0
    while not game.is_over and actions < max_actions:
        action = drivers[game.active_player].act(game)
        events = game.apply(action)
        actions += 1
        if type(action) in _SLOT_MOVES:
            continue
        if detail and fire and fire_turn == game.turn:
            power_cards[game.active_player] += _power_cards(rules, fire, events)
        for ev in events:
            kind = ev["type"]
            if kind == "collect":
                collections[ev["player"]] += 1
            elif kind == "place_token":
                tokens[ev["player"]] += 1
                if ev["source"] == "supply":
                    paid[ev["player"]] += 1
            elif kind == "power":
                powers[ev["player"]] += 1
                if detail and ev["effect"] in ("spark", "wildfire"):
                    if fire_turn != game.turn:
                        fire, fire_turn = set(), game.turn
                    fire.add(ev["effect"])
    scores = game.scores()
    top = max(scores)
    row: Row = {
        "game": index,
        "seed": deal,
        "variant": variant or variant_label(rules),
        "players": n,
        "seats": ",".join(seat_label(k, p) for k, p in order),
        "end_reason": game.end_reason or "action_cap",
        "turns": game.turn,
        "actions": actions,
        "scores": scores,
        "winners": [p for p, s in enumerate(scores) if s == top],
        "collections": sum(collections),
        "tokens_placed": sum(tokens),
        "tokens_paid": sum(paid),
        "powers_used": sum(powers),
    }
    for p in range(MAX_PLAYERS):
        row[f"score_{p}"] = scores[p] if p < n else None
    for p in range(n):
        row[f"collections_{p}"] = collections[p]
        row[f"tokens_{p}"] = tokens[p]
        row[f"powers_{p}"] = powers[p]
        if detail:
            row[f"power_cards_{p}"] = power_cards[p]
    return row


def _power_cards(rules: Rules, fire: set[str], events: Sequence[Mapping[str, Any]]) -> int:
    """The cards these events collect that only Spark or Wildfire (``fire``) made possible."""
    counts: list[int] = [ev["count"] for ev in events if ev["type"] == "collect"]
    if not counts:
        return 0
    plain = sum(c for c in counts if c >= rules.collect_threshold or "wildfire" not in fire)
    if "spark" in fire:
        plain = min(plain, rules.activations_per_turn)
    return sum(counts) - plain


def _play_chunk(jobs: list[tuple[Rules, str, dict[str, Any]]],
                seats: list[tuple[str, dict[str, Any]]], seed: int, indices: list[int],
                rotate: bool, max_actions: int, detail: bool = False) -> list[Row]:
    """Play the games ``indices`` of each variant job; run inside a worker."""
    out = []
    for index in indices:
        for rules, label, extra in jobs:
            row = play_game(rules, seats, seed, index, label, rotate, max_actions, detail)
            row.update(extra)
            out.append(row)
    return out


def _check_games(games: object) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number >= 0, got {quote(games)}")
    return games


def _check_seats(seats: Sequence[SeatSpec]) -> list[tuple[str, dict[str, Any]]]:
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise ValueError(f"seats must be a list of bot kinds, got {quote(seats)}")
    if not 1 <= len(seats) <= MAX_PLAYERS:
        raise ValueError(f"a game has 1 to {MAX_PLAYERS} seats, got {len(seats)}")
    return [parse_seat(s) for s in seats]


@contextlib.contextmanager
def _heap_set_aside() -> Iterator[None]:
    """The caller's objects out of the cyclic collector's walks for a run (``gc.freeze``): a
    full collection walks every object alive, and a notebook's kernel holds millions (pandas,
    plots), so a long run paid for that walk again and again; in a worker forked meanwhile it
    also wrote to pages shared with the parent, copying them. Objects made during the run are
    collected as ever; ``gc.unfreeze`` gives the caller's back at the end."""
    if gc.get_freeze_count():  # the caller froze them, or a run is under way: as they are
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


class SimulationError(RuntimeError):
    """Games of a run that could not be played: ``games`` lists them as ``(first, last)``
    ranges of game indices; the message names them and the error (the worker's error, with
    its traceback, is the ``__cause__``)."""

    def __init__(self, message: str, games: Sequence[tuple[int, int]]) -> None:
        super().__init__(message)
        self.games = list(games)


def _span(games: Sequence[tuple[int, int]]) -> str:
    text = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in games[:4])
    return "game" + ("s" if len(games) > 1 or games[0][0] != games[0][1] else "") + " " + text + (
        f" and {len(games) - 4} more ranges" if len(games) > 4 else "")


class _Chunks(Sequence[list[int]]):
    """The run's games in chunks of ``per``, each made only when a worker asks for it: a run
    of any length costs a few numbers here, not a list per chunk."""

    def __init__(self, games: int, per: int) -> None:
        self.games, self.per = games, per

    def __len__(self) -> int:
        return -(-self.games // self.per)

    def bounds(self, index: int) -> tuple[int, int]:
        """The first and the last game of chunk ``index``."""
        return index * self.per, min(self.games, (index + 1) * self.per) - 1

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int) or not 0 <= index < len(self):
            raise IndexError(index)
        first, last = self.bounds(index)
        return list(range(first, last + 1))


def _check_run(seats: Sequence[SeatSpec], games: int, seed: int,
               jobs_n: int | None) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    parsed = _check_seats(seats)
    games = _check_games(games)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {quote(seed)}")
    if jobs_n is not None and (isinstance(jobs_n, bool) or not isinstance(jobs_n, int)
                               or jobs_n < 1):
        raise ValueError(f"jobs must be a whole number >= 1, got {quote(jobs_n)}")
    return parsed, games


def _stream(jobs: list[tuple[Rules, str, dict[str, Any]]],
            parsed: list[tuple[str, dict[str, Any]]], games: int, seed: int,
            executor: Executor | None, jobs_n: int | None, rotate: bool,
            progress: Callable[[int, int], None] | None, max_actions: int,
            detail: bool = False) -> Generator[tuple[int, list[Row]], None, None]:
    """``(first game, rows)`` of each chunk as it finishes (in any order); the rows of a chunk
    are in game order. A chunk that fails raises :class:`SimulationError` naming its games
    (after the chunks already finished were yielded)."""
    total = games * len(jobs)
    workers = worker_count(jobs_n, games)
    with _heap_set_aside():
        done = 0
        if progress:
            progress(0, total)
        play = functools.partial(_play_chunk, jobs, parsed, seed, rotate=rotate,
                                 max_actions=max_actions, detail=detail)
        parts: Generator[tuple[int, list[Row]], None, None]
        if executor is None and workers == 1:  # here, in this process
            chunks = _Chunks(games, 50)
            parts = _here(chunks, play)
        else:
            # Enough chunks to balance the workers and to move the progress bar, each big
            # enough to make the cost of shipping it negligible. A cluster's executor pays a
            # scheduler round trip per task (Dask, measured: ~3 ms of this process's CPU, as
            # much as 4 GreedyBot games), so it gets two per worker, up to 400 games each.
            per = max(1, min(200, games // (workers * 8) or 1) if executor is None
                      else min(400, games // (workers * 2) or 1))
            chunks = _Chunks(games, per)
            parts = (_local_pool(workers, chunks, play) if executor is None
                     else _on_executor(executor, chunks, play, workers))
        with contextlib.closing(parts):  # an error here stops the workers at once
            for index, part in parts:
                yield chunks.bounds(index)[0], part
                done += len(part)
                if progress:
                    progress(done, total)


def _words(err: BaseException) -> str:
    """An error in words for a message: its kind and its text, cut short."""
    text = str(err)
    return f"{type(err).__name__}: {text if len(text) <= 200 else text[:197] + '...'}"


def _failed(chunks: _Chunks, indices: Iterable[int], why: str) -> SimulationError:
    ranges: list[tuple[int, int]] = []
    for i in sorted(indices):
        first, last = chunks.bounds(i)
        if ranges and ranges[-1][1] + 1 == first:
            ranges[-1] = (ranges[-1][0], last)
        else:
            ranges.append((first, last))
    return SimulationError(f"{_span(ranges)} failed: {why}", ranges)


def _here(chunks: _Chunks, play: Callable[[list[int]], list[Row]]
          ) -> Generator[tuple[int, list[Row]], None, None]:
    """Each chunk played in this process, in order."""
    for index in range(len(chunks)):
        try:
            rows = play(chunks[index])
        except Exception as err:
            raise _failed(chunks, [index], _words(err)) from err
        yield index, rows


def _run(jobs: list[tuple[Rules, str, dict[str, Any]]], seats: Sequence[SeatSpec], games: int,
         seed: int, executor: Executor | None, jobs_n: int | None, rotate: bool,
         progress: Callable[[int, int], None] | None, max_actions: int,
         detail: bool = False) -> Rows:
    parsed, games = _check_run(seats, games, seed, jobs_n)
    rows: list[Row] = []
    for _, part in _stream(jobs, parsed, games, seed, executor, jobs_n, rotate, progress,
                           max_actions, detail):
        rows.extend(part)
    return _sorted(rows)


def _on_executor(executor: Executor, chunks: _Chunks,
                 play: Callable[[list[int]], list[Row]], workers: int
                 ) -> Generator[tuple[int, list[Row]], None, None]:
    """Each chunk's rows, as the caller's executor finishes them. Chunks are submitted as
    earlier ones finish, a few per worker at a time, so a long run holds a few futures, not
    one per chunk."""
    window = 2 * max(workers, getattr(executor, "_max_workers", 0) or 0, 32)
    pending: dict[Future[list[Row]], int] = {}
    upcoming = iter(range(len(chunks)))
    try:
        for index in itertools.islice(upcoming, window):
            pending[executor.submit(play, chunks[index])] = index
        while pending:
            finished, _ = futures_wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                index = pending.pop(fut)
                try:
                    rows = fut.result()
                except Exception as err:
                    raise _failed(chunks, [index], _words(err)) from err
                for nxt in itertools.islice(upcoming, 1):
                    pending[executor.submit(play, chunks[nxt])] = nxt
                yield index, rows
    finally:
        for fut in pending:
            fut.cancel()


class _RemoteTraceback(Exception):
    """A worker's traceback, as the ``__cause__`` of the error it raised."""

    def __str__(self) -> str:
        return str(self.args[0])


def _serve(conn: Connection, taken: Any, chunks: Sequence[list[int]],
           play: Callable[[list[int]], list[Row]], inherited: Sequence[Connection] = ()
           ) -> None:
    """A pool worker: take the next chunk not yet taken, send its index and rows (a list),
    and so on until none is left; an error is sent as it is raised, with the chunk's index and
    its traceback (a 3-tuple), and ends the worker."""
    # An interrupt is the parent's to handle (it stops the workers): none from a terminal's
    # Ctrl-C here, which would print a traceback from every worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # terminate() stops it, whatever the parent's
    # A forked worker holds copies of the parent's reading ends (its own pipe's and the
    # workers' before it): closed, so that once the parent is gone a send fails at once
    # instead of blocking for ever on a pipe that a sibling keeps open and never reads.
    for reader in inherited:
        reader.close()
    index = -1
    try:
        while True:
            with taken.get_lock():
                index = taken.value
                taken.value = index + 1
            if index >= len(chunks):
                break
            conn.send((index, play(chunks[index])))
    except Exception as err:
        text = "".join(traceback.format_exception(err))
        try:
            conn.send((index, err, text))
        except Exception:  # an error that cannot be pickled: its words, then
            with contextlib.suppress(OSError):  # or the parent has stopped reading: no one
                conn.send((index, RuntimeError(f"{type(err).__name__}: {err}"), text))
    finally:
        conn.close()


def _local_pool(workers: int, chunks: _Chunks,
                play: Callable[[list[int]], list[Row]]
                ) -> Generator[tuple[int, list[Row]], None, None]:
    """Each chunk's index and rows played by ``workers`` processes of this machine, as they
    finish.

    Lighter than a ProcessPoolExecutor (its manager and feeder threads, a queue each way, the
    arguments pickled for every chunk), on which the same 600 GreedyBot games measured 3-12%
    more CPU in all: each worker here takes the next chunk from a shared counter and sends its
    rows down its own pipe, and the parent only reads the pipes.
    """
    ctx = multiprocessing.get_context()
    taken = ctx.Value("i", 0)
    procs: list[Any] = []
    readers: list[Connection] = []
    received: set[int] = set()
    try:
        for _ in range(workers):
            reader, writer = ctx.Pipe(duplex=False)
            inherited = [*readers, reader] if ctx.get_start_method() == "fork" else []
            proc = ctx.Process(target=_serve, args=(writer, taken, chunks, play, inherited))
            proc.start()
            writer.close()  # the worker's end: the pipe reads EOF once the worker is gone
            procs.append(proc)
            readers.append(reader)
        failed: list[int] = []
        first: BaseException | None = None
        while readers:
            for ready in wait(readers):
                assert isinstance(ready, Connection)
                try:
                    message = ready.recv()
                except EOFError:
                    readers.remove(ready)
                    continue
                if len(message) == 3:  # (index, error, traceback); rows come as a pair
                    index, err, text = message
                    failed.append(index)
                    if first is None:
                        first = _remote(err, text)
                        # No new chunk for anyone; the chunks under way are finished and
                        # kept (or fail too, and are named), then the error is raised.
                        with taken.get_lock():
                            taken.value = len(chunks)
                    continue
                received.add(message[0])
                yield message
        if first is not None:
            raise _failed(chunks, failed, _words(first)) from first
        if len(received) < len(chunks):
            for proc in procs:
                proc.join()
            codes = ", ".join(str(p.exitcode) for p in procs if p.exitcode)
            why = ("a simulation worker stopped before its games were played "
                   f"(exit code {codes or 0})")
            lost = [i for i in range(min(len(chunks), taken.value)) if i not in received]
            raise _failed(chunks, lost or range(len(chunks)), why)
    finally:
        # Stopped before their pipes close, so that none writes to a closed one meanwhile.
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for reader in readers:
            reader.close()
        for proc in procs:
            proc.join()


def _remote(err: BaseException, text: str) -> BaseException:
    """The worker's error, with its traceback (as text) for its cause."""
    err.__cause__ = _RemoteTraceback(text)
    return err


def worker_count(jobs: int | None, games: int) -> int:
    """Local worker processes for ``games`` games: ``jobs`` (default one per CPU), capped at
    the CPUs and at the games to play, so that no run starts more processes than can work.

    >>> worker_count(100_000, 3) <= 3, worker_count(None, 0)
    (True, 1)
    """
    cpus = os.cpu_count() or 1
    return max(1, min(cpus if jobs is None else jobs, cpus, games))


#: Dask settings for :func:`local_dask`. An idle local cluster otherwise burns about a tenth
#: of a core (measured: ~100 ms of CPU per second with 2 workers, ~15 ms with these): the
#: workers' stack profiler samples every 10 ms, every event loop ticks every 20 ms and a
#: system monitor polls psutil twice a second. Games are long pure-Python tasks: none of
#: that helps them, and the dashboard that would show it is off.
DASK_LOCAL_CONFIG: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "10s",
}


@contextlib.contextmanager
def local_dask(workers: int) -> Iterator[Any]:
    """A ``distributed.Client`` of a local cluster of ``workers`` single-threaded processes,
    closed on exit; ``client.get_executor()`` runs :func:`simulate`. Needs Dask (ImportError
    without it). No memory limit: a worker holds one chunk of games' rows at a time.
    """
    import dask
    import distributed

    # distributed has no type hints for these: called through Any.
    local_cluster: Any = distributed.LocalCluster
    dask_client: Any = distributed.Client
    with dask.config.set(DASK_LOCAL_CONFIG):
        # Read when the scheduler and the nannies start; nannies pass it to their workers.
        cluster: Any = local_cluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
            memory_limit=0)
    try:
        client: Any = dask_client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def _sorted(rows: list[Row]) -> Rows:
    return Rows(sorted(rows, key=lambda r: (r["game"], r.get("variant_index", 0))))


def simulate(rules: Rules, seats: Sequence[SeatSpec], games: int, seed: int,
             executor: Executor | None = None, *, jobs: int | None = None,
             rotate: bool = False, progress: Callable[[int, int], None] | None = None,
             max_actions: int = MAX_ACTIONS, detail: bool = False) -> Rows:
    """Play ``games`` games of ``rules`` between ``seats`` and return one row per game.

    ``seats`` lists one bot per player: a kind of :data:`~leyline_widget.agents.bots.BOT_KINDS` or a
    ``(kind, params)`` pair. ``rotate=True`` shifts the seating by one for each game, so every
    bot plays first equally often. ``executor`` runs the games (any
    :class:`concurrent.futures.Executor`, such as ``distributed.Client(...).get_executor()``);
    without one, ``jobs`` local processes do (default: one per CPU; ``jobs=1`` plays in this
    process; more jobs than CPUs or games are capped, see :func:`worker_count`).
    ``progress(done, total)`` is called as games finish. ``detail=True`` adds the columns of
    :func:`play_game`'s detail.

    Each row holds: ``game`` (index), ``seed`` (deal seed), ``variant``, ``players``,
    ``seats``, ``end_reason`` (one of :data:`~leyline_widget.core.game.END_REASONS`: "deck",
    "stalemate", "idle", "turn_limit", "round_limit"; or "action_cap" after
    ``max_actions``), ``turns``, ``actions``, ``scores`` and ``score_0..score_3``, ``winners``,
    ``collections``, ``tokens_placed``, ``tokens_paid`` (from the supply), ``powers_used``,
    and per seat ``collections_p``, ``tokens_p``, ``powers_p``.

    >>> from leyline_widget import Rules
    >>> rows = simulate(Rules.default(), ["random", "greedy"], games=2, seed=1, jobs=1)
    >>> len(rows), rows[0]["end_reason"], rows[0]["scores"]
    (2, 'deck', [0, 29])
    """
    return _run(_simulate_jobs(rules), seats, games, seed, executor, jobs, rotate, progress,
                max_actions, detail)


def _simulate_jobs(rules: Rules) -> list[tuple[Rules, str, dict[str, Any]]]:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
    return [(rules, variant_label(rules), {})]


def iter_simulate(rules: Rules, seats: Sequence[SeatSpec], games: int, seed: int,
                  executor: Executor | None = None, *, jobs: int | None = None,
                  rotate: bool = False, progress: Callable[[int, int], None] | None = None,
                  max_actions: int = MAX_ACTIONS, detail: bool = False
                  ) -> Generator[tuple[int, list[Row]], None, None]:
    """:func:`simulate`'s rows as they are played: ``(first game, rows)`` per chunk of games,
    chunks in the order they finish (rows within a chunk in game order), so a caller can keep
    each finished game (write it out) while the run goes on, and memory stays flat for any
    number of games. Everything is checked before it returns (nothing is played until the
    first chunk is asked for). A chunk that fails raises :class:`SimulationError` naming its
    games; closing the iterator (or an error in ``progress``) stops the workers.

    >>> [(first, len(rows)) for first, rows in iter_simulate(
    ...     Rules.default(), ["random"], games=60, seed=1, jobs=1)]
    [(0, 50), (50, 10)]
    """
    jobs_list = _simulate_jobs(rules)
    parsed, games = _check_run(seats, games, seed, jobs)
    return _stream(jobs_list, parsed, games, seed, executor, jobs, rotate, progress,
                   max_actions, detail)


def sweep(base_rules: Rules, grid: Mapping[str, Iterable[Any]], seats: Sequence[SeatSpec],
          games: int, seed: int, executor: Executor | None = None, *, jobs: int | None = None,
          rotate: bool = False, progress: Callable[[int, int], None] | None = None,
          max_actions: int = MAX_ACTIONS) -> Rows:
    """Simulate every combination of ``grid``'s values over ``base_rules``.

    ``grid`` maps a Rules field to the values to try; each row gains one column per field,
    and ``variant_index`` (the variant's place in the product, which orders the rows of a game).
    Game ``i`` of every variant uses the same seeds, so variants are compared on the same
    deals (a variant that changes the deck size still shuffles from the same seed). Every
    variant is validated before any game runs.

    >>> rows = sweep(Rules.default(), {"grid_cols": [3, 4]}, ["greedy", "greedy"], games=2,
    ...              seed=1, jobs=1)
    >>> [(r["game"], r["grid_cols"]) for r in rows]
    [(0, 3), (0, 4), (1, 3), (1, 4)]
    """
    return _run(_sweep_jobs(base_rules, grid), seats, games, seed, executor, jobs, rotate,
                progress, max_actions)


def _sweep_jobs(base_rules: Rules, grid: Mapping[str, Iterable[Any]]
                ) -> list[tuple[Rules, str, dict[str, Any]]]:
    if not isinstance(base_rules, Rules):
        raise ValueError(f"base_rules must be a Rules, got {type(base_rules).__name__}")
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("the sweep grid must map at least one Rules field to a list of values")
    fields = list(grid)
    values = []
    for f in fields:
        vs = grid[f]
        if isinstance(vs, (str, bytes)) or not isinstance(vs, Iterable):
            raise ValueError(f"sweep values for {f} must be a list, got {quote(vs)}")
        vs = list(vs)
        if not vs:
            raise ValueError(f"sweep values for {f} are empty")
        values.append(vs)
    jobs_list: list[tuple[Rules, str, dict[str, Any]]] = []
    for i, combo in enumerate(itertools.product(*values)):
        change = dict(zip(fields, combo))
        rules = base_rules.replace(**change)
        extra = {**change, "variant_index": i}
        jobs_list.append((rules, variant_label(rules), extra))
    return jobs_list


def iter_sweep(base_rules: Rules, grid: Mapping[str, Iterable[Any]], seats: Sequence[SeatSpec],
               games: int, seed: int, executor: Executor | None = None, *,
               jobs: int | None = None, rotate: bool = False,
               progress: Callable[[int, int], None] | None = None,
               max_actions: int = MAX_ACTIONS) -> Generator[tuple[int, list[Row]], None, None]:
    """:func:`sweep`'s rows as they are played, chunk by chunk, as :func:`iter_simulate`."""
    jobs_list = _sweep_jobs(base_rules, grid)
    parsed, games = _check_run(seats, games, seed, jobs)
    return _stream(jobs_list, parsed, games, seed, executor, jobs, rotate, progress,
                   max_actions)


__all__ = ["BOT_KINDS", "DASK_LOCAL_CONFIG", "MAX_ACTIONS", "Rows", "SimulationError",
           "game_seeds", "iter_simulate", "iter_sweep", "local_dask", "parse_seat", "play_game",
           "points_of", "seat_label", "seat_labels", "simulate", "sweep", "variant_label",
           "worker_count"]
