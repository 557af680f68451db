"""The table server under load: 100 tables, each with two bot players that play over
WebSockets on loopback against ONE ``leyline serve`` process (SQLite store, every move
committed before it is acknowledged).

Each bot is a client like a notebook's: it waits for its seat's state frame, picks a move from
the legal ones the server sent, sends it, and waits for the acknowledgement. The round trip is
from sending a move to its ``ack`` (the move is then on disk), and to the state frame that
follows. Printed: p50 and p95 of both, moves a second over the run, error frames, the CPU
time of the server and of the bots (this process: the load generator shares the machine with
the server), and the server's memory per idle table (its resident size before and after 200
more tables that nobody plays; then the same with tables that have left memory).

Two paces. Flat out (``--think-ms 0``), every table always has a move in flight: the server
is saturated, and by Little's law a move's round trip is the tables in play over the moves a
second, whatever the server does with them; this run measures capacity. At a player's pace
(``--think-ms 600``, the server's own bots' pace), each bot waits that long before it moves:
this run measures the round trip a player feels with that many tables in play.

    python -m benchmarks tables     # 100 tables flat out and at 600 ms, then 10 tables
    python -m benchmarks.bench_tables [TABLES] [--think-ms MS]
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


def _start(db: str, port: int, log: Path, evict_after: float = 600) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "leyline_widget.cli", "serve", "--db", db, "--port", str(port),
         "--evict-after", str(evict_after)],
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


async def _bot(port: int, table: str, secret: str, seat: int, seed: int, think: float,
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
                    if think:
                        await asyncio.sleep(think * (0.5 + rng.random()))  # a player's pause
                    sent_at = time.perf_counter()
                    moves += 1
                    await ws.send(json.dumps({"type": "move", "id": moves, "step": frame["step"],
                                              "action": _choose(frame["actions"], rng)}))
    return moves


async def _play(port: int, made: list[dict[str, Any]], think: float
                ) -> tuple[int, float, list[float], list[float], list[str]]:
    acks: list[float] = []
    states: list[float] = []
    errors: list[str] = []
    start = time.perf_counter()
    counts = await asyncio.gather(*[
        _bot(port, m["table"], m["seats"][seat]["secret"], seat, i * 2 + seat, think, acks,
             states, errors) for i, m in enumerate(made) for seat in (0, 1)])
    return sum(counts), time.perf_counter() - start, acks, states, errors


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _idle_kib(url: str, pid: int, tables: int) -> float:
    """The server's resident size grown per table over ``tables`` new tables nobody plays."""
    before = _rss_kib(pid)
    for i in range(tables):
        _post(url + "/api/tables", {"seats": ["Ada", "Grace"], "seed": 10_000 + i})
    return (_rss_kib(pid) - before) / tables


def _evicted_kib(tmp: str, tables: int) -> float:
    """The same, on a server that drops idle tables from memory after a second: what an idle
    table costs once it has left memory (its rows stay in the store)."""
    from browser_support import free_port

    port = free_port()
    proc = _start(f"sqlite:///{tmp}/evicted.db", port, Path(tmp) / "evicted.log", 1)
    url = f"http://127.0.0.1:{port}"
    try:
        _idle_kib(url, proc.pid, 20)  # the server's own first allocations
        time.sleep(3)
        before = _rss_kib(proc.pid)
        for i in range(tables):
            _post(url + "/api/tables", {"seats": ["Ada", "Grace"], "seed": 20_000 + i})
        time.sleep(3)  # the last of them leave memory too
        return (_rss_kib(proc.pid) - before) / tables
    finally:
        proc.terminate()
        proc.wait(10)


def run(tables: int = TABLES, idle: int = IDLE_TABLES, think_ms: float = 0) -> dict[str, float]:
    from browser_support import free_port  # the tests' helper: a free port on 127.0.0.1

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = _start(f"sqlite:///{tmp}/tables.db", port, Path(tmp) / "server.log")
        url = f"http://127.0.0.1:{port}"
        try:
            made = [_post(url + "/api/tables", {"seats": ["Ada", "Grace"], "seed": i,
                                                "rules": RULES}) for i in range(tables)]
            cpu, mine = _cpu_s(proc.pid), time.process_time()
            moves, seconds, acks, states, errors = asyncio.run(_play(port, made,
                                                                     think_ms / 1000))
            cpu, mine = _cpu_s(proc.pid) - cpu, time.process_time() - mine
            idle_kib = _idle_kib(url, proc.pid, idle) if idle else 0.0
        finally:
            proc.terminate()
            proc.wait(10)
        evicted_kib = _evicted_kib(tmp, idle) if idle else 0.0
    return {"tables": tables, "think_ms": think_ms, "moves": moves, "seconds": seconds,
            "moves_per_s": moves / seconds, "ack_p50_ms": _pct(acks, 0.5),
            "ack_p95_ms": _pct(acks, 0.95), "state_p50_ms": _pct(states, 0.5),
            "state_p95_ms": _pct(states, 0.95), "errors": len(errors),
            "idle_kib_per_table": idle_kib, "evicted_kib_per_table": evicted_kib,
            "server_cpu_ms_per_move": cpu / moves * 1000,
            "bots_cpu_ms_per_move": mine / moves * 1000,
            "server_cpu_share": cpu / seconds, "bots_cpu_share": mine / seconds,
            "load": os.getloadavg()[0], "cpus": os.cpu_count() or 1}


def report(r: dict[str, float]) -> None:
    pace = "flat out" if not r["think_ms"] else f"a bot thinks ~{r['think_ms']:.0f} ms a move"
    print(f"{r['tables']:.0f} tables x 2 bots over WebSockets, one server process (SQLite), "
          f"{pace}:")
    print(f"  {r['moves']:.0f} moves in {r['seconds']:.1f} s: {r['moves_per_s']:.0f} moves/s, "
          f"{r['errors']:.0f} error frames")
    print(f"  move -> ack (recorded):  p50 {r['ack_p50_ms']:.1f} ms, p95 {r['ack_p95_ms']:.1f} ms")
    print(f"  move -> state frame:     p50 {r['state_p50_ms']:.1f} ms, "
          f"p95 {r['state_p95_ms']:.1f} ms")
    print(f"  CPU per move: server {r['server_cpu_ms_per_move']:.2f} ms, the bots "
          f"{r['bots_cpu_ms_per_move']:.2f} ms; CPU used over the run: server "
          f"{r['server_cpu_share']:.0%} of a core, the bots (load generator) "
          f"{r['bots_cpu_share']:.0%} (load average {r['load']:.1f} on {r['cpus']:.0f} CPUs: "
          "the wall-clock figures share the machine)")
    if r["idle_kib_per_table"] or r["evicted_kib_per_table"]:
        print(f"  memory per idle table: {r['idle_kib_per_table']:.1f} KiB in memory, "
              f"{r['evicted_kib_per_table']:.1f} KiB once evicted (server resident size over "
              f"{IDLE_TABLES} more tables)")


def main(argv: list[str] | None = None) -> None:
    import argparse

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tables")
    parser.add_argument("tables", nargs="?", type=int, default=None)
    parser.add_argument("--think-ms", type=float, default=None)
    args = parser.parse_args([] if argv is None else argv)
    if args.tables is None and args.think_ms is None:
        # The whole set: capacity and a player's pace at 100 tables, then 10 tables.
        for tables, think, idle in ((TABLES, 0, IDLE_TABLES), (TABLES, 600, 0), (10, 0, 0),
                                    (10, 600, 0)):
            report(run(tables, idle, think))
        return
    report(run(args.tables or TABLES, IDLE_TABLES, args.think_ms or 0))


if __name__ == "__main__":
    main(sys.argv[1:])
