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
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO, free_port

from leyline_widget.tables.client import TableClient

PG_BIN = Path("/usr/lib/postgresql")


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
    """A move from the legal ones the server sent: mostly not ending a phase early, so games
    collect cards and use powers, but they end (random players' games end by deck or
    stalemate)."""
    actions = frame["actions"]
    rest = [a for a in actions if a["type"] != "end_phase"]
    if rest and rng.random() < 0.8:
        return dict(rng.choice(rest))
    return dict(rng.choice(actions))


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
