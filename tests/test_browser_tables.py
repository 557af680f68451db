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
        page.wait_for_function(f"() => JSON.stringify(document.querySelector('.leyline')"
                               f".dataset).length > 0 && {step} >= 0")
        assert any(f.get("type") == "state" and f["step"] == step for f in frames)
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
