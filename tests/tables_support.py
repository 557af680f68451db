"""Real table servers for the tests (and the load benchmark): ``leyline serve`` processes on
127.0.0.1 over a real SQLite file or a real PostgreSQL cluster, which a test may kill -9 and
start again; clients that play whole games; and the scan of every frame a seat receives.

PostgreSQL comes from Debian's ``postgresql`` package: a throwaway cluster in a temporary
folder, listening on 127.0.0.1 only, stopped at the end. Outside CI the PostgreSQL tests skip
when it is missing; in CI (``LEYLINE_REQUIRE_BROWSER=1`` or ``CI=true``) they fail instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO, free_port

from leyline_widget import Replay, Rules
from leyline_widget.tables.client import TableClient
from leyline_widget.tables.store import open_store

PG_BIN = Path("/usr/lib/postgresql")
#: Short games (8 turns) for the tests that play many tables at once.
SHORT = Rules.default().replace(turn_limit=8).to_dict()


def in_ci() -> bool:
    return os.environ.get("LEYLINE_REQUIRE_BROWSER") == "1" or os.environ.get("CI") == "true"


class Server:
    """One ``leyline serve`` process; :meth:`kill` is kill -9, :meth:`start` starts it again
    on the same port and store."""

    def __init__(self, db: str, log: Path, port: int | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.port = port or free_port()
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Server:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "leyline_widget.cli", "serve", "--db", self.db,
             "--port", str(self.port), "--poll", "0.2", *self.extra],
            stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"leyline serve exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/lobby", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"leyline serve did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def server(db: str, log: Path, **kwargs: Any) -> Iterator[Server]:
    s = Server(db, log, **kwargs).start()
    try:
        yield s
    finally:
        s.stop()


# ---------------------------------------------------------------------------- PostgreSQL
def _pg_tool(name: str) -> Path | None:
    versions = sorted(PG_BIN.glob("*/bin/" + name)) if PG_BIN.exists() else []
    return versions[-1] if versions else None


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on 127.0.0.1; yields its URL. Skips outside CI when
    Debian's postgresql is missing; fails in CI."""
    initdb, pg_ctl = _pg_tool("initdb"), _pg_tool("pg_ctl")
    if initdb is None or pg_ctl is None:
        message = "PostgreSQL is missing (apt-get install postgresql)"
        if in_ci():
            pytest.fail(f"PostgreSQL tests required in CI but {message}")
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix="leyline-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its own user runs it
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data = folder / "data"
    port = free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    subprocess.run([*as_user, str(initdb), "-D", str(data), "-A", "trust", "-U", "leyline",
                    "--no-sync"], **run)  # type: ignore[call-overload]
    subprocess.run([*as_user, str(pg_ctl), "-D", str(data), "-w", "-l", str(folder / "log"),
                    "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 "
                          "-c fsync=on", "start"], **run)  # type: ignore[call-overload]
    try:
        url = f"postgresql://leyline@127.0.0.1:{port}/postgres"
        yield url
    finally:
        subprocess.run([*as_user, str(pg_ctl), "-D", str(data), "-m", "immediate", "stop"],
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------- playing
def new_table(url: str, seats: list[str], **options: Any) -> dict[str, Any]:
    req = urllib.request.Request(url + "/api/tables", data=json.dumps(
        {"seats": seats, **options}).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        made: dict[str, Any] = json.loads(resp.read())
    return made


def choose(frame: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move from the legal ones the server sent: mostly a move that plays (activate, refill,
    a token, a power), seldom a take-back, so that turns stay short and games end."""
    actions = frame["actions"]
    plays = [a for a in actions if a["type"] not in ("end_phase", "deactivate")]
    ends = [a for a in actions if a["type"] == "end_phase"]
    if plays and (not ends or rng.random() < 0.7):
        return dict(rng.choice(plays))
    return dict(rng.choice(ends or actions))


def play_turns(client: TableClient, seat: int, rng: random.Random, *, until_over: bool = True,
               max_moves: int = 10_000, timeout: float = 120,
               acked: list[tuple[int, dict[str, Any]]] | None = None) -> int:
    """Play ``seat``'s moves as they come until the game ends; the moves made. Each
    acknowledged move is added to ``acked`` as (step, action). A move refused because the
    connection dropped is tried again once the client is back."""
    from leyline_widget.tables.client import TableError

    made = 0
    end = time.monotonic() + timeout
    while made < max_moves and time.monotonic() < end:
        client.wait(lambda c: c.state is not None and c.online and (
            c.state["over"] or (c.state["active_player"] == seat and bool(c.state["actions"]))),
            timeout=max(0.1, end - time.monotonic()))
        state = client.state
        if state is None or not client.online:
            continue
        if state["over"]:
            return made
        if state["active_player"] != seat or not state["actions"]:
            continue
        action = choose(state, rng)
        try:
            step = client.move(action, step=state["step"], timeout=20)
        except TableError as err:
            if err.field in ("connection", "step", "rate"):
                time.sleep(0.05)
                continue
            raise
        if acked is not None:
            acked.append((step - 1, action))
        made += 1
    raise AssertionError(f"seat {seat} did not finish in time (made {made} moves)")


def scan_frame(frame: dict[str, Any], seat: int | None) -> list[str]:
    """What a frame for ``seat`` (None: the teacher; -1: a spectator) holds that it must not:
    an inert card's element in the state, or another seat's private reveal. Empty when clean."""
    problems: list[str] = []
    if frame.get("type") != "state" or seat is None:
        return problems
    view = frame["view"]
    for slot, cell in enumerate(view["grid"]):
        if cell["card"] == "inert" and cell["element"] is not None:
            problems.append(f"step {frame['step']}: inert slot {slot} shows its element")
    for ev in frame["events"]["items"]:
        seen = ev.get("visible_to", "all")
        if seen != "all" and seat not in seen and ev.get("element") is not None:
            problems.append(f"step {frame['step']}: another seat's reveal {ev}")
    # The board's words: the frame's own state names no inert element, and its log names
    # elements only for cards face-up or gone (the play widget's rule, tested there); here
    # what matters is that nothing is in it that this seat's view does not hold.
    board = json.dumps(frame.get("board", {}))
    if '"deck"' in board and "order" in board:
        problems.append("the board names the deck's order")
    return problems


def check_restart(servers: list[Server], restart: Any, db: str, tables: int,
                  play_time: float = 240) -> None:
    """Play ``tables`` tables (two clients each, spread over ``servers``), kill -9 every
    server once the games are under way, start them again (``restart``), let the clients
    reconnect and finish, then check every acknowledged move against the store."""
    made = [new_table(servers[i % len(servers)].url, ["Ada", "Grace"], seed=i, rules=SHORT)
            for i in range(tables)]
    acked: dict[str, list[tuple[int, dict[str, Any]]]] = {m["table"]: [] for m in made}
    clients: list[TableClient] = []
    threads = []
    errors: list[BaseException] = []

    def run(client: TableClient, seat: int, table: str, seed: int) -> None:
        try:
            play_turns(client, seat, random.Random(seed), acked=acked[table], timeout=play_time)
        except BaseException as err:
            errors.append(err)

    for i, m in enumerate(made):
        for seat in (0, 1):
            # Seat 1 of a table talks to another server process than seat 0, when there are two.
            base = servers[(i + seat) % len(servers)].url
            link = m["seats"][seat]["link"].replace(m["seats"][seat]["link"].split("/t/")[0],
                                                    base)
            client = TableClient(link)
            clients.append(client)
            threads.append(threading.Thread(target=run, args=(client, seat, m["table"],
                                                              i * 2 + seat)))
    for t in threads:
        t.start()
    try:
        deadline = time.monotonic() + 60
        while sum(map(len, acked.values())) < 8 * tables and time.monotonic() < deadline:
            time.sleep(0.05)
        moved = sum(map(len, acked.values()))
        assert moved >= 8 * tables
        for s in servers:
            s.kill()
        before = {t: len(a) for t, a in acked.items()}
        time.sleep(0.5)
        for s in restart():
            s.start()
        for t in threads:
            t.join(play_time + 30)
        stuck = [(c.link.table, c.online, c.connections, c.state and c.state["step"],
                  c.state and c.state["active_player"]) for c, t in zip(clients, threads)
                 if t.is_alive() or (c.state is not None and not c.state["over"])]
        assert errors == [] and stuck == []
        assert all(c.connections >= 2 for c in clients)  # every client came back
        store = open_store(db)
        try:
            for m in made:
                moves = {row.step: row.action for row in store.moves(m["table"])}
                for step, action in acked[m["table"]]:
                    assert moves.get(step) == action, (m["table"], step)
                row = store.table(m["table"])
                assert row is not None and row.status == "over" and row.replay is not None
                assert len(Replay.from_json(row.replay).actions) == len(moves)
        finally:
            store.close()
        assert sum(before.values()) >= 8 * tables
    finally:
        for c in clients:
            c.close()
