"""Tables on PostgreSQL with two server processes sharing it (issue 29): kill -9 of both in
the middle of 20 running tables, whose two seats talk to different processes, then a restart:
every acknowledged move is kept and every client reconnects and finishes its game.

PostgreSQL is Debian's, started by the test on 127.0.0.1 and stopped at the end; outside CI the
test skips when it is missing, in CI (LEYLINE_REQUIRE_BROWSER=1 or CI=true) it fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tables_support import Server, check_restart, postgres


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with postgres() as url:
        yield url


def test_two_processes_on_postgresql_survive_kill_9_with_20_tables(pg: str,
                                                                   tmp_path: Path) -> None:
    servers = [Server(pg, tmp_path / f"server{i}.log").start() for i in range(2)]
    try:
        check_restart(servers, lambda: servers, pg, tables=20)
    finally:
        for s in servers:
            s.stop()
