"""The table server's page in real Chromium (issue 29): a browser page and a notebook kernel's
client play at one table; the page says when it is offline (kill -9 of the server) and comes
back by itself, caught up; every WebSocket frame the page receives is scanned, and so is the
board. Screenshots: test-output/<test>/.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    new_page,
    no_widget_errors,
    output_dir,  # noqa: F401  (a pytest fixture)
    scan_seat,
)
from tables_support import SHORT, Server, choose, new_table, scan_frame

from leyline_widget.tables.client import TableClient

pytestmark = [pytest.mark.browser]


def test_a_page_and_a_kernel_play_at_one_table_through_a_server_restart(
        browser: Any, output_dir: Path, tmp_path: Path) -> None:  # noqa: F811
    s = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path / "server.log").start()
    grace: TableClient | None = None
    try:
        made = new_table(s.url, ["Ada", "Grace"], seed=21, rules=SHORT)
        grace = TableClient(made["seats"][1]["link"])
        page = new_page(browser)
        frames: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames.append(json.loads(payload))))
        page.goto(made["seats"][0]["link"])
        root = page.locator(".leyline")
        page.wait_for_selector(".leyline .ll-grid", timeout=30_000)
        status = page.locator("#net")
        assert status.get_attribute("data-online") == "true"
        assert "Online" in status.inner_text()
        page.screenshot(path=str(output_dir / "1-seat-ada.png"))
        # Ada clicks a card: the server records the move, and Grace's kernel sees it.
        card = root.locator("[data-act=card][data-card=inert]").first
        click_and_wait(page, root, card)
        assert grace.wait(lambda c: c.state is not None and c.state["step"] == 1, 10)
        # The set-up cards are shown briefly (reveal_ms), then lie inert: none stays face up.
        page.wait_for_function(
            "(el) => !el.querySelector('[data-act=card]:not([data-card=active])[data-element]')",
            arg=root.element_handle(), timeout=15_000)
        scan_seat(root)
        # The server dies (kill -9): the page says it is offline ...
        s.kill()
        page.wait_for_function("() => document.querySelector('#net').dataset.online === "
                               "'false'", timeout=10_000)
        assert "Offline" in status.inner_text()
        page.screenshot(path=str(output_dir / "2-offline.png"))
        # ... and once the server is back, reconnects by itself, at the recorded step.
        s.start()
        page.wait_for_function("() => document.querySelector('#net').dataset.online === "
                               "'true'", timeout=30_000)
        # Ada ends her turn from the page; Grace plays hers from the kernel, and so on for
        # three turns; the page follows every move.
        rng = random.Random(5)
        for _ in range(3):
            page.wait_for_selector(".leyline [data-act=end]:not([aria-disabled=true])",
                                   timeout=20_000)
            while True:
                end = root.locator("[data-act=end]")
                if end.get_attribute("aria-disabled") == "true":
                    break
                click_and_wait(page, root, end)
                state = grace.state
                if state is not None and state["active_player"] == 1:
                    break
                page.wait_for_timeout(50)
            assert grace.wait(lambda c: c.state is not None and (
                c.state["over"] or c.state["active_player"] == 1), 20)
            while grace.state is not None and not grace.state["over"] and \
                    grace.state["active_player"] == 1:
                grace.move(choose(grace.state, rng))
            if grace.state is not None and grace.state["over"]:
                break
        step = grace.state["step"] if grace.state else -1
        # The page receives the last move's state (on a busy machine, a moment after Grace's
        # kernel does); Playwright hands over frames while the page waits.
        def seen() -> bool:
            return any(f.get("type") == "state" and f["step"] == step for f in frames)
        for _ in range(300):
            if seen():
                break
            page.wait_for_timeout(100)
        assert step >= 0 and seen(), (step, [f.get("step") for f in frames[-5:]])
        scan_seat(root)
        page.screenshot(path=str(output_dir / "3-after-turns.png"))
        problems = [p for f in frames for p in scan_frame(f, 0)]
        assert problems == []
        no_widget_errors(page)
    finally:
        if grace is not None:
            grace.close()
        s.stop()


def test_the_teachers_room_lists_the_class_and_opens_the_all_seeing_view(
        browser: Any, output_dir: Path, tmp_path: Path) -> None:  # noqa: F811
    from leyline_widget.tables.client import request

    s = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path / "server.log").start()
    try:
        cls = request(s.url, "/api/classes", {"name": "Year 9"})
        made = [new_table(s.url, seats, rules=SHORT, **{"class": cls["teacher_key"]})
                for seats in (["Ada", "Grace"], ["Alan", "greedy"])]
        page = new_page(browser)
        page.goto(cls["room"])
        page.wait_for_selector("#list tr", timeout=15_000)
        rows = page.locator("#list tr")
        assert rows.count() == 2
        assert "Ada vs Grace" in rows.nth(0).inner_text()
        assert "Alan vs Greedy bot" in rows.nth(1).inner_text()
        page.screenshot(path=str(output_dir / "1-room.png"))
        rows.nth(0).locator("a").click()
        page.wait_for_selector(".leyline .ll-grid", timeout=30_000)
        assert "teacher" in page.locator("#net").inner_text()
        # The teacher sees every card's element; the page of a seat of the same table none.
        faces = page.locator(".leyline [data-act=card][data-element]").count()
        assert faces == 12
        page.screenshot(path=str(output_dir / "2-teacher-view.png"))
        seat = new_page(browser)
        seat.goto(made[0]["seats"][1]["link"])
        seat.wait_for_selector(".leyline .ll-grid", timeout=30_000)
        seat.wait_for_timeout(2000)  # the deal's reveal is over
        scan_seat(seat.locator(".leyline"))
        no_widget_errors(page)
        no_widget_errors(seat)
    finally:
        s.stop()


@pytest.mark.jupyter
def test_a_notebook_takes_its_seat_with_join_in_jupyterlab(
        browser: Any, output_dir: Path, tmp_path: Path) -> None:  # noqa: F811
    from browser_support import jupyter_lab, notebook_json, open_notebook, run_all_cells

    s = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path / "server.log").start()
    grace: TableClient | None = None
    notebook = notebook_json([
        "from leyline_widget import LeylineWidget\n"
        "w = LeylineWidget.join(open('link.txt').read().strip())\nw"])
    try:
        made = new_table(s.url, ["Ada", "Grace"], seed=8, rules=SHORT)
        grace = TableClient(made["seats"][1]["link"])
        with jupyter_lab({"join.ipynb": notebook}) as lab:
            (lab.root / "link.txt").write_text(made["seats"][0]["link"])
            page = open_notebook(browser, lab, "join.ipynb")
            run_all_cells(page)
            root = page.locator(".leyline").first
            page.screenshot(path=str(output_dir / "1-joined.png"))
            # A click in the notebook's board is a move at the table: the kernel sends it.
            click_and_wait(page, root, root.locator("[data-act=card][data-card=inert]").first)
            assert grace.wait(lambda c: c.state is not None and c.state["step"] == 1, 15)
            click_and_wait(page, root, root.locator("[data-act=end]"))
            assert grace.wait(lambda c: c.state is not None and c.state["step"] == 2, 15)
            # The server dies: the board says so; it comes back by itself with the server.
            s.kill()
            page.wait_for_selector(".leyline .ll-error:not(.ll-hidden)", timeout=15_000)
            assert "Offline" in root.locator(".ll-error").inner_text()
            page.screenshot(path=str(output_dir / "2-offline.png"))
            s.start()
            page.wait_for_function(
                "(el) => el.querySelector('.ll-error').classList.contains('ll-hidden')",
                arg=root.element_handle(), timeout=30_000)
            assert lab.kernel_json("join.ipynb", "w.online") is True
            assert lab.kernel_json("join.ipynb", "w.view['viewer']") == 0
            scan_seat(root)
            no_widget_errors(page)
    finally:
        if grace is not None:
            grace.close()
        s.stop()


def test_the_lobby_lists_this_browsers_tables_and_whose_turn_it_is(
        browser: Any, output_dir: Path, tmp_path: Path) -> None:  # noqa: F811
    from tables_support import play_turns

    s = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path / "server.log").start()
    clients: list[TableClient] = []
    try:
        mine = new_table(s.url, ["Ada", "Grace"], seed=1, rules=SHORT)  # Ada to play
        theirs = new_table(s.url, ["Grace", "Ada"], seed=2, rules=SHORT)  # Grace to play
        done = new_table(s.url, ["Ada", "greedy"], seed=3, rules=SHORT, bot_delay_ms=0)
        other = new_table(s.url, ["Alan", "Joan"], seed=4, rules=SHORT)  # not this browser's
        ada_done = TableClient(done["seats"][0]["link"])
        clients.append(ada_done)
        play_turns(ada_done, 0, random.Random(3))
        page = new_page(browser, width=1000, height=700)
        # The page of each seat this browser sits at keeps its link for the lobby.
        for made, seat in ((mine, 0), (theirs, 1), (done, 0)):
            page.goto(made["seats"][seat]["link"])
            page.wait_for_selector(".leyline .ll-grid", timeout=30_000)
        page.goto(s.url + "/lobby")
        page.wait_for_selector("#list tbody tr", timeout=15_000)
        rows = page.locator("#list tbody tr")

        def table_rows() -> list[list[str]]:
            return [[c.strip() for c in rows.nth(i).inner_text().split("\t")]
                    for i in range(rows.count())]

        # Its turn first, then the game going on, then the finished one; no other table.
        got = table_rows()
        assert [r[:2] + r[3:4] for r in got] == [
            ["Ada vs Grace", "Ada", "Your turn"], ["Grace vs Ada", "Ada", "Grace's turn"],
            ["Ada vs Greedy bot", "Ada", "Game over"]], got
        assert "Alan" not in page.locator("#list").inner_text()
        assert "1 waiting for you" in page.locator("#msg").inner_text()
        page.screenshot(path=str(output_dir / "1-lobby.png"))
        # Grace ends her turn (from her kernel): the lobby says it is Ada's turn there too.
        grace = TableClient(theirs["seats"][0]["link"])
        clients.append(grace)
        assert grace.wait(lambda c: c.state is not None and c.online)
        while grace.state is not None and grace.state["active_player"] == 0:
            grace.move(choose(grace.state, random.Random(6)))
        page.reload()
        page.wait_for_function("() => document.querySelectorAll("
                               "'#list tbody tr[data-your-turn=true]').length === 2",
                               timeout=20_000)
        assert "2 waiting for you" in page.locator("#msg").inner_text()
        page.screenshot(path=str(output_dir / "2-lobby-your-turn-twice.png"))
        # A link opens its table's page, at the seat.
        rows.nth(0).locator("a").click()
        page.wait_for_selector(".leyline .ll-grid", timeout=30_000)
        assert "playing as Ada" in page.locator("#net").inner_text()
        no_widget_errors(page)
        assert other["table"] not in json.dumps(page.evaluate(
            "() => localStorage.getItem('leyline-links')"))
    finally:
        for c in clients:
            c.close()
        s.stop()


def past(step: int) -> Any:
    """Whether a client's table has moved past ``step`` (or is over)."""
    return lambda c: c.state is not None and (c.state["step"] > step or c.state["over"])


@pytest.mark.jupyter
def test_notebook7_kernel_and_a_browser_page_play_a_whole_game(
        browser: Any, output_dir: Path, tmp_path: Path) -> None:  # noqa: F811
    """Ada sits at the table from Notebook 7 (``LeylineWidget.join``: the kernel holds the
    socket), Grace from the server's page in another browser; every move of the game is a
    click on one board or the other, and each board follows the other's moves."""
    from browser_support import (
        jupyter_lab,
        notebook_json,
        open_notebook,
        play_turn_step,
        run_all_cells,
    )

    s = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path / "server.log").start()
    notebook = notebook_json([
        "from leyline_widget import LeylineWidget\n"
        "w = LeylineWidget.join(open('link.txt').read().strip())\nw"])
    watch: TableClient | None = None
    try:
        made = new_table(s.url, ["Ada", "Grace"], seed=12, rules=SHORT)
        watch = TableClient(made["spectator"], record=True)
        with jupyter_lab({"join.ipynb": notebook}, app="notebook") as nb7:
            (nb7.root / "link.txt").write_text(made["seats"][0]["link"])
            ada_page = open_notebook(browser, nb7, "join.ipynb", width=1100, height=1200)
            assert ada_page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
            run_all_cells(ada_page)
            ada = ada_page.locator(".leyline").first
            grace_page = new_page(browser, width=1100, height=1000)
            grace_page.goto(made["seats"][1]["link"])
            grace_page.wait_for_selector(".leyline .ll-grid", timeout=30_000)
            grace = grace_page.locator(".leyline")
            boards = [(ada_page, ada), (grace_page, grace)]
            clicked: list[list[int]] = [[], []]
            shot = False
            for _ in range(400):
                state = watch.state
                assert state is not None
                if state["over"]:
                    break
                seat = state["active_player"]
                page, root = boards[seat]
                # The mover's board shows the step the table is at before it is clicked.
                page.wait_for_function("([el, s]) => Number(el.dataset.step) === s",
                                       arg=[root.element_handle(), state["step"]],
                                       timeout=20_000)
                play_turn_step(page, root, clicked[seat])
                assert watch.wait(past(state["step"]), 20)
                if not shot and state["view"]["turn"] >= 2:
                    ada_page.screenshot(path=str(output_dir / "1-notebook7-ada.png"))
                    grace_page.screenshot(path=str(output_dir / "2-page-grace.png"))
                    shot = True
            assert watch.state is not None and watch.state["over"]
            for page, root in boards:
                page.wait_for_selector(".leyline .ll-over", timeout=20_000)
                scan_seat(root)
                no_widget_errors(page)
            ada_page.screenshot(path=str(output_dir / "3-notebook7-over.png"))
            grace_page.screenshot(path=str(output_dir / "4-page-over.png"))
            assert nb7.kernel_json("join.ipynb", "w.view['is_over']") is True
            problems = [p for f in watch.frames for p in scan_frame(f, -1)]
            assert problems == []
    finally:
        if watch is not None:
            watch.close()
        s.stop()
