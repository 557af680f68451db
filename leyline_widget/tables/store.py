"""Where the tables live: SQLite by default, PostgreSQL by URL for several server processes.

A table is its spec (seat names, seed, rules, bot seats, timers) and the list of its accepted
moves; its position is always ``Game.new(spec)`` with those moves applied, so nothing but the
moves needs to be written as the game goes on. A move is one row keyed by (table, step): two
server processes that both try to record step 7 of a table cannot both succeed, and the one
that loses reads the winner's move instead. A move is committed (the transaction is durable:
SQLite in WAL mode with ``synchronous=FULL``, PostgreSQL's default commit) before the server
acknowledges it or shows it to anyone.

Only hashes of secrets are stored (:mod:`.secrets`). The standard library's ``sqlite3`` and
psycopg 3 are used directly rather than through an ORM: four small tables, six statements,
and the same SQL for both but for the placeholder.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from ..core.echo import quote

__all__ = ["Conflict", "MoveRow", "NewMove", "Store", "TableRow", "open_store"]

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS ll_classes (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, key_hash TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS ll_tables (
        id TEXT PRIMARY KEY, class_id TEXT, spec TEXT NOT NULL, watch_hash TEXT NOT NULL,
        seat_hashes TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL, step INTEGER NOT NULL, status TEXT NOT NULL,
        replay TEXT)""",
    "CREATE INDEX IF NOT EXISTS ll_tables_class ON ll_tables (class_id)",
    """CREATE TABLE IF NOT EXISTS ll_moves (
        table_id TEXT NOT NULL, step INTEGER NOT NULL, action TEXT NOT NULL,
        seat INTEGER NOT NULL, cause TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, step))""",
]


class Conflict(Exception):
    """Another server process recorded this step of the table first."""


@dataclass(frozen=True)
class TableRow:
    id: str
    class_id: str | None
    spec: dict[str, Any]
    watch_hash: str
    seat_hashes: list[str | None]
    created: float
    updated: float
    step: int
    status: str
    replay: str | None


@dataclass(frozen=True)
class MoveRow:
    step: int
    action: dict[str, Any]
    seat: int
    cause: str
    at: float


@dataclass(frozen=True)
class NewMove:
    """A move to record: move number ``step`` of a table, and whether it ended the game (with
    the replay then)."""

    table_id: str
    step: int
    action: dict[str, Any]
    seat: int
    cause: str
    over: bool
    replay: str | None


class _Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


_TABLE_COLUMNS = ("id, class_id, spec, watch_hash, seat_hashes, created, updated, step, status, "
                  "replay")


def _table(row: Sequence[Any]) -> TableRow:
    return TableRow(id=row[0], class_id=row[1], spec=json.loads(row[2]), watch_hash=row[3],
                    seat_hashes=json.loads(row[4]), created=float(row[5]),
                    updated=float(row[6]), step=int(row[7]), status=row[8], replay=row[9])


class Store:
    """One database connection, used from one thread at a time (the server gives it its own
    worker thread, so a commit never stalls the event loop's other tables)."""

    def __init__(self, conn: _Connection, *, param: str, duplicate: tuple[type[BaseException],
                 ...], url: str) -> None:
        self._conn = conn
        self._param = param
        self._duplicate = duplicate
        self._lock = threading.Lock()
        self.url = url
        with self._tx() as run:
            for statement in _SCHEMA:
                run(statement)

    @property
    def shared(self) -> bool:
        """Whether other server processes may write to the same tables (PostgreSQL)."""
        return self._param == "%s"

    def _sql(self, sql: str) -> str:
        return sql if self._param == "?" else sql.replace("?", "%s")

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._lock:
            def run(sql: str, params: Sequence[Any] = ()) -> Any:
                return self._conn.execute(self._sql(sql), params)
            try:
                yield run
                self._conn.commit()
            except BaseException:
                self._conn.rollback()
                raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- classes -------------------------------------------------------------------------
    def add_class(self, class_id: str, name: str, key_hash: str) -> None:
        with self._tx() as run:
            run("INSERT INTO ll_classes (id, name, key_hash, created) VALUES (?, ?, ?, ?)",
                (class_id, name, key_hash, time.time()))

    def classes_with_key(self, key_hash: str) -> list[tuple[str, str, str]]:
        """Every class as (id, name, key hash): the caller compares hashes in constant time."""
        with self._tx() as run:
            rows = run("SELECT id, name, key_hash FROM ll_classes").fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    # -- tables --------------------------------------------------------------------------
    def add_table(self, table_id: str, class_id: str | None, spec: dict[str, Any],
                  watch_hash: str, seat_hashes: Sequence[str | None]) -> None:
        now = time.time()
        with self._tx() as run:
            run(f"INSERT INTO ll_tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, class_id, json.dumps(spec), watch_hash, json.dumps(list(seat_hashes)),
                 now, now, 0, "playing", None))

    def table(self, table_id: str) -> TableRow | None:
        with self._tx() as run:
            row = run(f"SELECT {_TABLE_COLUMNS} FROM ll_tables WHERE id = ?",
                      (table_id,)).fetchone()
        return None if row is None else _table(row)

    def tables(self, *, class_id: str | None = None, status: str | None = None) -> list[TableRow]:
        sql = f"SELECT {_TABLE_COLUMNS} FROM ll_tables"
        where, params = [], []
        if class_id is not None:
            where.append("class_id = ?")
            params.append(class_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._tx() as run:
            rows = run(sql + " ORDER BY created, id", params).fetchall()
        return [_table(r) for r in rows]

    def moves(self, table_id: str, since: int = 0) -> list[MoveRow]:
        """The moves of a table from step ``since`` on, in order."""
        with self._tx() as run:
            rows = run("SELECT step, action, seat, cause, at FROM ll_moves WHERE table_id = ? "
                       "AND step >= ? ORDER BY step", (table_id, since)).fetchall()
        return [MoveRow(int(r[0]), json.loads(r[1]), int(r[2]), r[3], float(r[4])) for r in rows]

    def steps(self, table_ids: Sequence[str]) -> dict[str, int]:
        """How many moves each table has recorded (for a process to see another's moves)."""
        out: dict[str, int] = {}
        for i in range(0, len(table_ids), 500):  # a bounded statement, however many tables
            chunk = list(table_ids[i:i + 500])
            marks = ", ".join("?" for _ in chunk)
            with self._tx() as run:
                rows = run(f"SELECT id, step FROM ll_tables WHERE id IN ({marks})",
                           chunk).fetchall()
            out.update((r[0], int(r[1])) for r in rows)
        return out

    def add_move(self, table_id: str, step: int, action: dict[str, Any], seat: int, cause: str,
                 *, over: bool, replay: str | None) -> None:
        """Record move number ``step`` (0-based) and the table's new step, in one transaction;
        :class:`Conflict` when another process recorded that step first."""
        err = self.add_moves([NewMove(table_id, step, action, seat, cause, over, replay)])[0]
        if err is not None:
            raise err

    def add_moves(self, moves: Sequence[NewMove]) -> list[Conflict | None]:
        """Record moves of several tables in one transaction (one wait for the disk for all
        of them: a group commit); for each, None once it is recorded or the :class:`Conflict`
        that refused it. When one was recorded elsewhere first, each is recorded on its own."""
        try:
            with self._tx() as run:
                for move in moves:
                    self._insert(run, move)
            return [None] * len(moves)
        except self._duplicate:
            if len(moves) == 1:
                m = moves[0]
                return [Conflict(f"step {m.step} of table {m.table_id} is already recorded")]
        return [self.add_moves([m])[0] for m in moves]

    @staticmethod
    def _insert(run: Any, m: NewMove) -> None:
        now = time.time()
        run("INSERT INTO ll_moves (table_id, step, action, seat, cause, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (m.table_id, m.step, json.dumps(m.action), m.seat, m.cause, now))
        run("UPDATE ll_tables SET step = ?, updated = ?, status = ?, replay = ? WHERE id = ?",
            (m.step + 1, now, "over" if m.over else "playing", m.replay, m.table_id))


def _sqlite(path: str, url: str) -> Store:
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    # FULL: a commit is on disk when it returns (an acknowledged move survives a power cut).
    conn.execute("PRAGMA synchronous=FULL")
    return Store(conn, param="?", duplicate=(sqlite3.IntegrityError,), url=url)


def _postgres(url: str) -> Store:
    try:
        import psycopg
    except ImportError:
        raise ValueError("a postgresql:// store needs psycopg 3: pip install "
                         "'leyline_widget[tables]'") from None
    conn = psycopg.connect(url)
    return Store(conn, param="%s", duplicate=(psycopg.errors.UniqueViolation,), url=url)


def open_store(url: str) -> Store:
    """The store at ``url``: ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``,
    ``sqlite://:memory:`` or ``postgresql://user@host:port/database``.

    >>> open_store("mysql://x").url
    Traceback (most recent call last):
    ValueError: --db: 'mysql://x' is not a sqlite:/// or postgresql:// URL
    """
    if not isinstance(url, str):
        raise ValueError(f"--db must be a URL, got {quote(url)}")
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(url[len("sqlite://"):])
        if path.startswith("/"):
            path = path[1:]  # sqlite:///rel.db -> rel.db, sqlite:////abs.db -> /abs.db
        if not path:
            raise ValueError(f"--db: {quote(url)} names no file (sqlite:///tables.db)")
        return _sqlite(path, url)
    if parts.scheme in ("postgresql", "postgres"):
        return _postgres(url)
    raise ValueError(f"--db: {quote(url)} is not a sqlite:/// or postgresql:// URL")
