"""Idle tables leave the server's memory and come back from the store (issue 29): a table
nobody watches is dropped after ``evict_after`` seconds; its players reconnect, play on to the
end, and every acknowledged move is in the store and the replay. A table whose turn timer runs
while it is out of memory is woken when the timer runs out; one whose bot is to move stays
until the bot has moved.

The server runs in this process (uvicorn on 127.0.0.1, a real SQLite file) so that the test
can look at which tables it holds in memory.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import free_port
from tables_support import SHORT, choose, new_table

from leyline_widget import Replay
from leyline_widget.tables.client import TableClient
from leyline_widget.tables.server import MAX_FRAME, TableServer
from leyline_widget.tables.store import open_store


class InProcess:
    def __init__(self, server: TableServer, port: int) -> None:
        self.server = server
        self.url = f"http://127.0.0.1:{port}"


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[InProcess]:
    import uvicorn

    store = open_store(f"sqlite:///{tmp_path / 'tables.db'}")
    table_server = TableServer(store, poll=0.2, evict_after=0.5)
    port = free_port()
    running = uvicorn.Server(uvicorn.Config(
        table_server.app, host="127.0.0.1", port=port, log_level="warning",
        ws="websockets-sansio", ws_max_size=MAX_FRAME))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not running.started and time.monotonic() < end:
        time.sleep(0.05)
    assert running.started
    try:
        yield InProcess(table_server, port)
    finally:
        running.should_exit = True
        thread.join(10)
        store.close()


def wait_for(what: Any, timeout: float = 20) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if what():
            return True
        time.sleep(0.05)
    return False


def at_step(step: int, actions: bool = False) -> Callable[[TableClient], bool]:
    """Whether a client shows step ``step`` or later (with moves to make, if ``actions``)."""
    return lambda c: c.state is not None and c.state["step"] >= step and (
        not actions or bool(c.state["actions"]))


def play(clients: list[TableClient], rng: random.Random, moves: int,
         acked: list[tuple[int, dict[str, Any]]]) -> None:
    """Make ``moves`` moves (or play to the end), each by the seat whose turn it is."""
    for _ in range(moves):
        state = clients[0].state
        assert state is not None
        if state["over"]:
            return
        mover = clients[state["active_player"]]
        assert mover.wait(at_step(state["step"], actions=True), 10)
        assert mover.state is not None
        action = choose(mover.state, rng)
        step = mover.move(action)
        acked.append((step - 1, action))
        assert clients[0].wait(at_step(step))


def test_an_idle_table_is_dropped_from_memory_and_played_on_after_reloading(
        srv: InProcess) -> None:
    made = new_table(srv.url, ["Ada", "Grace"], seed=3, rules=SHORT)
    table = made["table"]
    links = [made["seats"][p]["link"] for p in (0, 1)]
    rng = random.Random(3)
    acked: list[tuple[int, dict[str, Any]]] = []
    clients = [TableClient(link) for link in links]
    try:
        assert all(c.wait(lambda c: c.state is not None and c.online) for c in clients)
        play(clients, rng, 12, acked)
        # Watched: it stays, however long it is left alone.
        time.sleep(1.2)
        assert table in srv.server.live
    finally:
        for c in clients:
            c.close()
    # Nobody watches: it leaves memory.
    assert wait_for(lambda: table not in srv.server.live)
    # Back again: loaded from the store at the last acknowledged move, and played to the end.
    clients = [TableClient(link) for link in links]
    try:
        assert all(c.wait(lambda c: c.state is not None and c.online) for c in clients)
        assert table in srv.server.live
        assert clients[0].state is not None and clients[0].state["step"] == len(acked)
        play(clients, rng, 10_000, acked)
        assert clients[0].state is not None and clients[0].state["over"]
    finally:
        for c in clients:
            c.close()
    store = srv.server.store
    recorded = {m.step: m.action for m in store.moves(table)}
    assert recorded == dict(acked)
    row = store.table(table)
    assert row is not None and row.status == "over" and row.replay is not None
    assert [a.to_dict() for a in Replay.from_json(row.replay).actions] == \
        [action for _, action in acked]


def test_a_turn_timer_wakes_a_table_out_of_memory_and_a_bot_keeps_its_table_in(
        srv: InProcess) -> None:
    timed = new_table(srv.url, ["Ada", "Grace"], seed=4, rules=SHORT, turn_seconds=2)
    table = timed["table"]
    assert wait_for(lambda: table not in srv.server.live, 10)  # nobody sits there
    # Two turns' timers run out while nobody watches: each wakes the table, which passes the
    # turn on and leaves memory again.
    assert wait_for(lambda: [m.cause for m in srv.server.store.moves(table)].count("timer") >= 4,
                    30)
    assert wait_for(lambda: table not in srv.server.live, 10)
    causes = {m.cause for m in srv.server.store.moves(table)}
    assert causes == {"timer"}
    turns = {m.seat for m in srv.server.store.moves(table)}
    assert turns == {0, 1}
    # Its seat comes back to the table where the timers left it.
    ada = TableClient(timed["seats"][0]["link"])
    try:
        assert ada.wait(lambda c: c.state is not None and c.online)
        assert ada.wait(lambda c: c.state is not None and
                        c.state["step"] == len(srv.server.store.moves(table)), 5)
    finally:
        ada.close()
    # A bot to move keeps its table in memory until its turn is over; then the table goes.
    bot = new_table(srv.url, ["Ada", "greedy"], seed=5, rules=SHORT, bot_delay_ms=5000)
    ada = TableClient(bot["seats"][0]["link"])
    try:
        assert ada.wait(lambda c: c.state is not None and c.online)
        while ada.state is not None and ada.state["active_player"] == 0:
            ada.move(choose(ada.state, random.Random(1)))
        made = len(srv.server.store.moves(bot["table"]))
    finally:
        ada.close()
    time.sleep(1.5)  # three times evict_after: long enough for an idle table to go
    assert bot["table"] in srv.server.live
    assert len(srv.server.store.moves(bot["table"])) == made  # the bot has not moved yet
    assert wait_for(lambda: bot["table"] not in srv.server.live, 90)
    assert srv.server.store.moves(bot["table"])[-1].cause == "bot"
    ada = TableClient(bot["seats"][0]["link"])
    try:
        assert ada.wait(lambda c: c.state is not None and c.online)
        assert ada.state is not None and ada.state["active_player"] == 0
    finally:
        ada.close()
