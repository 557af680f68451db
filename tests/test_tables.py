"""Tables over the network (issue 29), against real ``leyline serve`` processes on 127.0.0.1
with a real SQLite file: whole games between two kernel clients with a spectator and a
teacher watching (every frame scanned), forged moves, junk frames, cross-origin sockets, bots,
turn timers, the lobby and the teacher's room, and kill -9 in the middle of 20 tables.
"""

from __future__ import annotations

import json
import random
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tables_support import SHORT, Server, check_restart, new_table, play_turns, scan_frame, server

from leyline_widget import EndPhase, Replay, Rules
from leyline_widget.tables.client import TableClient, TableError, request
from leyline_widget.tables.store import open_store
from leyline_widget.widgets.play import LeylineWidget

#: A whole game to its end, kept to CI's time: 30 turns (random players' games under the
#: default rules run about 40 turns; the end by turn limit is a rule like the others).
GAME = Rules.default().replace(turn_limit=30).to_dict()


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("tables")
    with server(f"sqlite:///{folder / 'tables.db'}", folder / "server.log") as s:
        yield s


def teacher_link(url: str, table: str, key: str) -> str:
    return f"{url}/t/{table}#teacher={key}"


def test_two_kernels_play_a_whole_game_while_a_spectator_and_a_teacher_watch(
        srv: Server) -> None:
    cls = request(srv.url, "/api/classes", {"name": "Year 9"})
    made = new_table(srv.url, ["Ada", "Grace"], seed=11, rules=GAME,
                     **{"class": cls["teacher_key"]})
    ada = LeylineWidget.join(made["seats"][0]["link"], record=True)  # a notebook's kernel
    grace = TableClient(made["seats"][1]["link"], board=True, record=True)
    spectator = TableClient(made["spectator"], board=True, record=True)
    teacher = TableClient(teacher_link(srv.url, made["table"], cls["teacher_key"]), board=True,
                          record=True)
    try:
        assert ada.wait(0) and ada.view["viewer"] == 0 and ada.info["players"][1]["name"] == \
            "Grace"
        # A click from the page goes to the server as a move; the answer bumps ack.
        step = ada.legal["step"]
        first = {"type": "activate", "slot": ada.legal["activate"][0]}
        ada.send_message({"type": "action", "action": first, "step": step})
        assert ada.wait(step + 1) and ada.error == ""
        # ... and a refused one names the rule and changes nothing.
        ada.send_message({"type": "action", "action": {"type": "refill", "slot": 0},
                          "step": step + 1})
        assert ada.client.wait(lambda c: ada.error != "", 10)
        assert "Refill" in ada.error or "refill" in ada.error
        assert ada.client.state is not None and ada.client.state["step"] == step + 1
        helper = threading.Thread(target=play_turns, args=(grace, 1, random.Random(2)))
        helper.start()
        play_turns(ada.client, 0, random.Random(1))
        helper.join(120)
        assert not helper.is_alive()
        final = grace.state
        assert final is not None and final["over"]
        for watcher in (spectator, teacher):
            assert watcher.wait(lambda c: c.state is not None and c.state["over"], 30)
        # Every frame to a seat or a spectator holds nothing it may not see ...
        problems = [p for seat, c in ((0, ada.client), (1, grace), (-1, spectator))
                    for f in c.frames for p in scan_frame(f, seat)]
        assert problems == []
        assert ada.client.frames and grace.frames and spectator.frames
        # ... while the teacher's view is the all-seeing one.
        assert any(cell["card"] == "inert" and cell["element"] is not None
                   for f in teacher.frames if f["type"] == "state"
                   for cell in f["view"]["grid"])
        # A spectator and a teacher only watch.
        for watcher in (spectator, teacher):
            with pytest.raises(TableError) as err:
                watcher.move(EndPhase(), step=final["step"])
            assert err.value.field in ("role", "turn")
        # The finished table keeps its replay: its seats and its teacher download it.
        replay = request_text(srv.url, f"/api/tables/{made['table']}/replay",
                              made["seats"][1]["secret"])
        assert len(Replay.from_json(replay).actions) == final["step"]
        room = request(srv.url, "/api/class", bearer=cls["teacher_key"])
        assert [t["table"] for t in room["tables"]] == [made["table"]]
        assert room["tables"][0]["status"] == "over"
        replays = request(srv.url, "/api/class/replays", bearer=cls["teacher_key"])
        assert Replay.from_json(json.dumps(replays["replays"][made["table"]])).actions == \
            Replay.from_json(replay).actions
        with pytest.raises(TableError):
            request(srv.url, f"/api/tables/{made['table']}/replay", bearer=made["watch"])
    finally:
        for c in (grace, spectator, teacher):
            c.close()
        ada.close()


def request_text(url: str, path: str, bearer: str) -> str:
    req = urllib.request.Request(url + path, headers={"authorization": f"Bearer {bearer}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        text: str = resp.read().decode()
    return text


def test_no_forged_move_is_accepted_in_1000_tries(srv: Server) -> None:
    made = new_table(srv.url, ["Ada", "Grace"], seed=5, rules=SHORT)
    link = made["seats"][0]["link"].split("?")[0]
    ada = TableClient(made["seats"][0]["link"])
    # Three connections of each: every one stays under the rate limit, so each try is refused
    # for the rule it breaks, not for the rate.
    graces = [TableClient(made["seats"][1]["link"]) for _ in range(3)]
    spectators = [TableClient(made["spectator"]) for _ in range(3)]
    tries = accepted = 0
    try:
        assert ada.wait(lambda c: c.state is not None and c.online)
        start = ada.state["step"] if ada.state else -1
        action = ada.state["actions"][0] if ada.state else {}
        rng = random.Random(3)
        # Wrong and missing secrets: the hello is refused, no seat is taken.
        for i in range(300):
            key = "".join(rng.choice("abcdefghijkLMNOP0123456789-_") for _ in range(32))
            secret = key if i % 3 else made["seats"][0]["secret"][:-1] + "x"
            bad = TableClient(f"{link}?seat={secret}", reconnect=False)
            with pytest.raises(TableError) as err:
                bad.wait(lambda c: False, 10)
            assert err.value.field == "secret"
            bad.close()
            tries += 1
        # The other seat's secret, out of its turn; the spectator; a move with no id or
        # another step: refused, whatever the action.
        for i in range(700):
            who = (graces if i % 2 else spectators)[i % 6 // 2]
            try:
                who.move(action, step=start, timeout=10)
                accepted += 1
            except TableError as err:
                assert err.field in ("turn", "role"), err
            tries += 1
        assert tries == 1000 and accepted == 0
        assert ada.state is not None and ada.state["step"] == start
        # The seat's own secret in its turn is taken.
        assert ada.move(action) == start + 1
    finally:
        for c in (ada, *graces, *spectators):
            c.close()


def junk_answers(client: TableClient, frames: list[Any]) -> list[dict[str, Any]]:
    answers = []
    for junk in frames:
        before = len(client.frames)
        assert client.send(junk if isinstance(junk, str) else json.dumps(junk))
        assert client.wait(lambda c, n=before: any(
            f["type"] == "error" for f in c.frames[n:]), 10), junk
        answers.append(next(f for f in client.frames[before:] if f["type"] == "error"))
    return answers


def test_junk_frames_are_refused_naming_the_field_and_change_nothing(srv: Server) -> None:
    made = new_table(srv.url, ["Ada", "Grace"], seed=9, rules=SHORT)
    ada = TableClient(made["seats"][0]["link"], record=True)
    try:
        assert ada.wait(lambda c: c.state is not None)
        assert ada.state is not None
        step = ada.state["step"]
        junk = ["not json", "[1, 2]", "{}", {"type": "fly"}, {"type": "move"},
                {"type": "move", "id": 900001, "step": step},
                {"type": "move", "id": 900002, "step": step, "action": {"type": "activate"}},
                {"type": "move", "id": 900003, "step": True, "action": {"type": "end_phase"}},
                {"type": "move", "id": 900004, "step": step + 5, "action": {"type": "end_phase"}},
                {"type": "move", "id": 900005, "step": step,
                 "action": {"type": "refill", "slot": 0}},
                {"type": "move", "id": 900006, "step": step, "action": {"type": "end_phase"},
                 "extra": 1},
                {"type": "move", "id": "x" * 500, "step": step, "action": {}},
                {"type": "hello", "secret": made["seats"][1]["secret"]},
                {"type": "ping", "junk": [0] * 2000}]
        fields = [a["field"] for a in junk_answers(ada, junk)]
        assert fields == ["frame", "type", "type", "type", "id", "action", "action", "step",
                          "step", "action", "extra", "id", "type", "junk"]
        assert all(len(json.dumps(a)) < 800 for a in ada.frames if a["type"] == "error")
        # A frame over the size limit closes the socket; the client comes back by itself.
        assert ada.send("x" * 20_000)
        assert ada.wait(lambda c: c.connections >= 2, 20)
        assert ada.state is not None and ada.state["step"] == step
        assert ada.move(EndPhase()) == step + 1
    finally:
        ada.close()


def test_cross_origin_websockets_are_refused_unless_allowed(tmp_path: Path) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with server(f"sqlite:///{tmp_path / 't.db'}", tmp_path / "log",
                extra=("--allow-origin", "https://school.example")) as s:
        made = new_table(s.url, ["Ada", "greedy"])
        url = f"ws://127.0.0.1:{s.port}/ws/{made['table']}"
        with pytest.raises(InvalidStatus), connect(
                url, origin="https://evil.example"):  # type: ignore[arg-type]
            pass
        for origin in ("https://school.example", s.url):
            with connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                ws.send(json.dumps({"type": "hello", "watch": made["watch"]}))
                assert json.loads(ws.recv(10))["type"] == "welcome"


def test_a_bot_seat_and_a_turn_timer_play_at_the_servers_pace(srv: Server) -> None:
    made = new_table(srv.url, ["Ada", "greedy"], seed=4, rules=SHORT, bot_delay_ms=0)
    ada = TableClient(made["seats"][0]["link"])
    try:
        play_turns(ada, 0, random.Random(4))
        assert ada.state is not None and ada.state["over"]
        assert ada.state["bots"] == {"1": "greedy"}
    finally:
        ada.close()
    timed = new_table(srv.url, ["Ada", "Grace"], seed=4, turn_seconds=1)
    grace = TableClient(timed["seats"][1]["link"])
    try:
        # Nobody plays seat 0: after a second its turn ends by itself, and Grace is to play.
        assert grace.wait(lambda c: c.state is not None and c.state["active_player"] == 1, 20)
        assert grace.state is not None and grace.state["deadline"] is not None
    finally:
        grace.close()


def test_the_lobby_lists_a_players_tables_and_whose_turn_it_is(srv: Server) -> None:
    one = new_table(srv.url, ["Ada", "Grace"], rules=SHORT)
    two = new_table(srv.url, ["Grace", "Ada"], rules=SHORT)
    links = [{"table": one["table"], "secret": one["seats"][0]["secret"]},
             {"table": two["table"], "secret": two["seats"][1]["secret"]},
             {"table": two["table"], "secret": "forged-secret-forged-secret"}]
    lobby = request(srv.url, "/api/lobby", {"links": links})["tables"]
    assert [(t.get("seat"), t.get("your_turn")) for t in lobby] == [(0, True), (1, False),
                                                                    (None, None)]
    assert "error" in lobby[2] and "players" not in lobby[2]
    for body, field in (({"links": "x"}, "links"), ({"links": [{"table": 1}]}, "links"),
                        ({"seats": ["Ada"] * 5}, "seats"), ({"seats": ["greedy"]}, "seats"),
                        ({"seats": ["Ada"], "seed": -1}, "seed"),
                        ({"seats": ["Ada"], "rules": {"grid_rows": 0}}, "rules"),
                        ({"seats": ["Ada"], "class": "no-such-key-no-such-key"}, "class")):
        path = "/api/lobby" if "links" in body else "/api/tables"
        with pytest.raises(TableError) as err:
            request(srv.url, path, body)
        assert err.value.field == field
    with pytest.raises(urllib.error.HTTPError) as http:
        urllib.request.urlopen(urllib.request.Request(
            srv.url + "/api/tables", data=b"x" * 40_000,
            headers={"content-type": "application/json"}), timeout=10)
    assert http.value.code == 413


def test_kill_9_in_the_middle_of_20_tables_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    s = Server(db, tmp_path / "server.log").start()
    try:
        check_restart([s], lambda: [s], db, tables=20)
    finally:
        s.stop()


def test_the_command_line_makes_tables_and_classes(srv: Server,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from leyline_widget.cli import main

    assert main(["table", "class", "--server", srv.url, "--name", "Year 9"]) == 0
    out = capsys.readouterr().out
    key = out.split("teacher's key: ")[1].split()[0]
    assert main(["table", "new", "--server", srv.url, "--seat", "Ada", "--seat", "greedy",
                 "--class", key, "--turn-seconds", "3600"]) == 0
    out = capsys.readouterr().out
    assert "Ada: http://127.0.0.1" in out and "?seat=" in out and "a greedy bot" in out
    assert "spectators: http://" in out and "?watch=" in out
    with pytest.raises(SystemExit) as exit_:
        main(["table", "new", "--server", srv.url, "--seat", "greedy"])
    assert exit_.value.code == 2
    assert "seats: a table needs at least one person's seat" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--db", "mysql://nowhere"])
    assert "is not a sqlite:/// or postgresql:// URL" in capsys.readouterr().err
    # The pages are served, and hold no secret of their own.
    for path in ("/lobby", "/class", f"/t/{out and 'x'}"):
        with urllib.request.urlopen(srv.url + path, timeout=10) as resp:
            html = resp.read().decode()
        assert "<!doctype html>" in html and key not in html


def test_the_store_records_each_step_once(tmp_path: Path) -> None:
    from leyline_widget.tables.store import Conflict

    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    store.add_table("t1", None, {"players": ["Ada"]}, "w", ["h"])
    store.add_move("t1", 0, {"type": "end_phase"}, 0, "seat", over=False, replay=None)
    with pytest.raises(Conflict):
        store.add_move("t1", 0, {"type": "activate", "slot": 1}, 0, "seat", over=False,
                       replay=None)
    assert [m.action for m in store.moves("t1")] == [{"type": "end_phase"}]
    assert store.steps(["t1", "nope"]) == {"t1": 1}
    store.close()
