"""The table server under load: 100 tables, each with two bot players that play over
WebSockets on loopback against ONE ``leyline serve`` process (SQLite store, every move
committed before it is acknowledged).

Each bot is a client like a notebook's: it waits for its seat's state frame, picks a move from
the legal ones the server sent, sends it, and waits for the acknowledgement. The round trip is
from sending a move to its ``ack`` (the move is then on disk), and to the state frame that
follows. Printed: p50 and p95 of both, moves a second over the run, error frames, and the
server's memory per idle table (its resident size before and after 200 more tables that
nobody plays). The bots run in this process, on the same machine as the server: their own CPU
time is part of what the figures measure.

    python -m benchmarks tables          # or: python -m benchmarks.bench_tables [TABLES]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from leyline_widget import Rules

TABLES = 100
IDLE_TABLES = 200
#: Games of 8 turns: about 40 moves each, 4,000 moves in all.
RULES = Rules.default().replace(turn_limit=8).to_dict()


def _start(db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "leyline_widget.cli", "serve", "--db", db, "--port", str(port)],
        stdout=log.open("ab"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/lobby", timeout=2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"leyline serve did not start: {log.read_text()[-2000:]}")


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST, waiting out the server's HTTP rate limit (10 a second per address)."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    while True:
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                out: dict[str, Any] = json.loads(resp.read())
            return out
        except urllib.error.HTTPError as err:
            if err.code != 429:
                raise
            time.sleep(0.2)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_s(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    plays = [a for a in actions if a["type"] not in ("end_phase", "deactivate")]
    ends = [a for a in actions if a["type"] == "end_phase"]
    if plays and (not ends or rng.random() < 0.7):
        return rng.choice(plays)
    return rng.choice(ends or actions)


async def _bot(port: int, table: str, secret: str, seat: int, seed: int,
               acks: list[float], states: list[float], errors: list[str]) -> int:
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    moves = 0
    async with connect(f"ws://127.0.0.1:{port}/ws/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "secret": secret}))
        sent_at: float | None = None
        acked_at: float | None = None
        async for text in ws:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "error":
                errors.append(frame["error"])
                sent_at = None
            elif kind == "ack" and sent_at is not None:
                acked_at = time.perf_counter()
                acks.append(acked_at - sent_at)
            elif kind == "state":
                if sent_at is not None and acked_at is not None:
                    states.append(time.perf_counter() - sent_at)
                    sent_at = acked_at = None
                if frame["over"]:
                    return moves
                if frame["active_player"] == seat and frame["actions"] and sent_at is None:
                    sent_at = time.perf_counter()
                    moves += 1
                    await ws.send(json.dumps({"type": "move", "id": moves, "step": frame["step"],
                                              "action": _choose(frame["actions"], rng)}))
    return moves


async def _play(port: int, made: list[dict[str, Any]]) -> tuple[int, float, list[float],
                                                                 list[float], list[str]]:
    acks: list[float] = []
    states: list[float] = []
    errors: list[str] = []
    start = time.perf_counter()
    counts = await asyncio.gather(*[
        _bot(port, m["table"], m["seats"][seat]["secret"], seat, i * 2 + seat, acks, states,
             errors) for i, m in enumerate(made) for seat in (0, 1)])
    return sum(counts), time.perf_counter() - start, acks, states, errors


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run(tables: int = TABLES, idle: int = IDLE_TABLES) -> dict[str, float]:
    from browser_support import free_port  # the tests' helper: a free port on 127.0.0.1

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = _start(f"sqlite:///{tmp}/tables.db", port, Path(tmp) / "server.log")
        url = f"http://127.0.0.1:{port}"
        try:
            made = [_post(url + "/api/tables", {"seats": ["Ada", "Grace"], "seed": i,
                                                "rules": RULES}) for i in range(tables)]
            cpu, mine = _cpu_s(proc.pid), time.process_time()
            moves, seconds, acks, states, errors = asyncio.run(_play(port, made))
            cpu, mine = _cpu_s(proc.pid) - cpu, time.process_time() - mine
            before = _rss_kib(proc.pid)
            for i in range(idle):
                _post(url + "/api/tables", {"seats": ["Ada", "Grace"], "seed": 10_000 + i})
            after = _rss_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    return {"tables": tables, "moves": moves, "seconds": seconds,
            "moves_per_s": moves / seconds, "ack_p50_ms": _pct(acks, 0.5),
            "ack_p95_ms": _pct(acks, 0.95), "state_p50_ms": _pct(states, 0.5),
            "state_p95_ms": _pct(states, 0.95), "errors": len(errors),
            "idle_kib_per_table": (after - before) / idle,
            "server_cpu_ms_per_move": cpu / moves * 1000,
            "bots_cpu_ms_per_move": mine / moves * 1000,
            "load": os.getloadavg()[0], "cpus": os.cpu_count() or 1}


def main(tables: int = TABLES) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    r = run(tables)
    print(f"{r['tables']:.0f} tables x 2 bots over WebSockets, one server process (SQLite):")
    print(f"  {r['moves']:.0f} moves in {r['seconds']:.1f} s: {r['moves_per_s']:.0f} moves/s, "
          f"{r['errors']:.0f} error frames")
    print(f"  move -> ack (recorded):  p50 {r['ack_p50_ms']:.1f} ms, p95 {r['ack_p95_ms']:.1f} ms")
    print(f"  move -> state frame:     p50 {r['state_p50_ms']:.1f} ms, "
          f"p95 {r['state_p95_ms']:.1f} ms")
    print(f"  CPU per move: server {r['server_cpu_ms_per_move']:.2f} ms, the bots "
          f"{r['bots_cpu_ms_per_move']:.2f} ms (load average {r['load']:.1f} on "
          f"{r['cpus']:.0f} CPUs: the wall-clock figures share the machine)")
    print(f"  memory per idle table: {r['idle_kib_per_table']:.1f} KiB "
          f"(server resident size over {IDLE_TABLES} more tables)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else TABLES)
