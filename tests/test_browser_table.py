"""Play at the table (issue 10) in a real JupyterLab 4 and again in Notebook 7, by clicks and
keys: the deal's Ready step, a whole hot-seat game with the hand-off screen at every change of
seat (and a scan of the page for anything the incoming seat may not see), a Whisper then a quick
end of turn, a view rendered again after a reveal, notebook shortcuts kept out of the widget, a
game against the greedy bot, and axe-core on every view in light and dark. Screenshots:
test-output/<test>/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    ELEMENT_WORDS,
    Lab,
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_fixture,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    run_all_cells,
    set_theme,
    widget_state,
)
from browser_support import axe_violations as _axe
from browser_support import notebook_json as make_notebook
from browser_support import play_turn_step as _play_turn_step
from browser_support import press_ready as _ready
from browser_support import scan_seat as _scan_seat

pytestmark = [pytest.mark.browser, pytest.mark.jupyter]

SETUP = (
    "from leyline_widget import *\n"
    "from leyline_widget.widgets.lesson import LessonWidget\n"
    "small = Rules.default().replace(cards_per_element=4, grid_rows=2, grid_cols=3, turn_limit=6)\n"
    "deck = ['wind','wind','fire','water','earth','fire','water','earth','fire','water','earth',"
    "'fire','water','earth','wind','wind']\n"
    "g = Game.new(players=['Ada', 'Grace'], rules=small.replace(turn_limit=None), deck=deck)\n"
    "for a in [Activate(0), Activate(1), EndPhase(), Refill(0), Refill(1), EndPhase(), EndPhase(),"
    " EndPhase()]:\n"
    "    g.apply(a)"
)
TABLE = make_notebook([
    SETUP,
    "hs = LeylineWidget(players=['Ada', 'Grace'], seed=3, rules=small, reveal_ms=600,\n"
    "                   deal_ms=900)\nhs",
    "wh = LeylineWidget(g, reveal_ms=20000)\nwh",
    "bot = LeylineWidget(players=['You', 'greedy'], seed=4, rules=small, bot_delay_ms=0,\n"
    "                    deal_ms=600)\nbot",
    "teacher = LeylineWidget(players=2, seed=1, viewer='teacher', deal_ms=0)\nteacher",
    "LessonWidget()",
    "rp = ReplayWidget(Replay.from_game(g), viewer=0, step=3)\nrp",
], markdown="# Play at the table (test copy)")

_jupyterlab = lab_fixture({"table.ipynb": TABLE})
_notebook7 = lab_fixture({"table.ipynb": TABLE}, app="notebook")


@pytest.fixture(scope="module", params=["jupyterlab", "notebook7"])
def lab(request: pytest.FixtureRequest) -> Lab:
    """Every test here runs in JupyterLab 4 and again in Notebook 7 (issue 10's done-when)."""
    server: Lab = request.getfixturevalue(f"_{request.param}")
    return server


def _cells(page: Any) -> int:
    return int(page.locator(".jp-Notebook .jp-Cell").count())


def test_hot_seat_game_deal_whisper_rerender_and_keys(lab: Lab, browser: Any,  # noqa: F811
                                                       output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "table.ipynb", width=1100, height=1200)
    run_all_cells(page, widgets=6, timeout=120_000)
    roots = page.locator(".leyline[data-mode=play]")
    hs, wh = roots.nth(0), roots.nth(1)

    # The deal: nothing shown until Ready; then the grid face-up once; the kernel knows.
    hs.scroll_into_view_if_needed()
    assert hs.get_attribute("data-deal") == "waiting"
    _scan_seat(hs)
    hs.screenshot(path=str(output_dir / "deal-ready-light.png"))
    hs.locator("[data-act=deal-ready]").click()
    page.wait_for_selector(".leyline[data-mode=play] .ll-glimpse", timeout=15_000)
    hs.screenshot(path=str(output_dir / "deal-shown-light.png"))
    page.wait_for_function("(el) => el.dataset.deal === 'none'", arg=hs.element_handle(),
                           timeout=20_000)
    _scan_seat(hs)
    assert lab.kernel_json("table.ipynb", "hs.shown_seq") >= 1

    # Notebook shortcuts do nothing while a card has focus.
    before = _cells(page)
    hs.locator("[data-act=card]").first.focus()
    for key in ["Escape", "d", "d", "a", "b", "x", "z"]:
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert _cells(page) == before

    # A whole hot-seat game by clicks: the hand-off screen at every change of seat.
    handoffs = 0
    clicked: list[int] = []
    for _ in range(400):
        if hs.locator(".ll-handoff").count():
            text = hs.inner_text()
            assert "click when ready" in text and not ELEMENT_WORDS.search(text)
            assert not ELEMENT_WORDS.search(hs.evaluate("(el) => el.innerHTML"))
            if handoffs == 0:
                hs.screenshot(path=str(output_dir / "handoff-light.png"))
            handoffs += 1
            click_and_wait(page, hs, hs.locator("[data-act=handoff-ready]"))
            _scan_seat(hs)
            continue
        if widget_state(hs)["over"]:
            break
        _play_turn_step(page, hs, clicked)
    assert widget_state(hs)["over"] and handoffs >= 5
    assert lab.kernel_json("table.ipynb", "hs.game.is_over") is True
    hs.screenshot(path=str(output_dir / "hotseat-over-light.png"))
    assert hs.locator(".ll-fulllog .ll-logturn").count() >= 6

    # A Whisper, seen by Ada; a second view of the same widget shows no reveal.
    wh.scroll_into_view_if_needed()
    wh.locator('[data-key="wind:minor"]').click()
    click_and_wait(page, wh, wh.locator("[data-act=card][data-slot='3']"))
    page.wait_for_function("(el) => !!el.querySelector('.ll-glimpse')", arg=wh.element_handle())
    wh.screenshot(path=str(output_dir / "whisper-light.png"))
    page.evaluate("""() => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        nb.activeCellIndex = nb.widgets.length - 1;
    }""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:insert-cell-below')")
    page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.activeCell.model
        .sharedModel.setSource('wh')""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell')")
    page.wait_for_function(
        "() => document.querySelectorAll('.leyline[data-mode=play]').length >= 5", timeout=30_000)
    again = page.locator(".leyline[data-mode=play]").last
    page.wait_for_timeout(500)
    _scan_seat(again)
    assert again.locator(".ll-glimpse").count() == 0
    assert wh.locator(".ll-glimpse").count() == 1  # the first view still shows Ada's peek

    # A quick end of turn: the hand-off hides the board; Grace's board shows no peek.
    click_and_wait(page, wh, wh.locator("[data-act=end]"))   # pass
    click_and_wait(page, wh, wh.locator("[data-act=end]"))   # end turn
    assert wh.locator(".ll-handoff").count() == 1
    assert not ELEMENT_WORDS.search(wh.evaluate("(el) => el.innerHTML"))
    click_and_wait(page, wh, wh.locator("[data-act=handoff-ready]"))
    _scan_seat(wh)
    assert wh.locator(".ll-grid .ll-flag, .ll-grid .ll-glimpse").count() == 0
    # Grace sees that Ada peeked at slot 3 (everyone saw the power used), never what she saw.
    assert "peeked at" in (wh.locator("[data-slot='3']").get_attribute("aria-label") or "")
    no_widget_errors(page)


def test_greedy_bot_game_and_axe_on_every_view(lab: Lab, browser: Any,  # noqa: F811
                                               output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "table.ipynb", width=1100, height=1200)
    run_all_cells(page, widgets=6, timeout=120_000)
    roots = page.locator(".leyline[data-mode=play]")
    hs, bot, teacher = roots.nth(0), roots.nth(2), roots.nth(3)
    lesson = page.locator(".leyline.ll-lesson").first
    replay = page.locator(".leyline.ll-replay").first
    violations: list[str] = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for name, root in (("play", bot), ("teacher", teacher), ("lesson", lesson),
                           ("replay", replay)):
            root.scroll_into_view_if_needed()
            root.screenshot(path=str(output_dir / f"{name}-{theme}.png"))
            violations += _axe(page, root, f"{name}/{theme}")
        lesson_board = page.locator(".ll-lessonboard .leyline").first
        violations += _axe(page, lesson_board, f"lesson-board/{theme}")
    set_theme(page, "light")

    # Against the greedy bot, by clicks, to the end; then a rematch (the bot goes first).
    bot.scroll_into_view_if_needed()
    _ready(page, bot)
    clicked: list[int] = []
    for _ in range(300):
        state = widget_state(bot)
        if state["over"]:
            break
        if "is playing" in state["prompt"] or bot.locator(
                "[data-act=end], [data-act=no-power]").count() == 0:
            page.wait_for_timeout(100)
            continue
        _play_turn_step(page, bot, clicked)
    assert widget_state(bot)["over"]
    bot.screenshot(path=str(output_dir / "bot-over-light.png"))
    violations += _axe(page, bot.locator(".ll-over"), "game-over/light")
    # The seat menu: the rematch is against the expert bot (each kind moves with its player).
    bot.locator("[data-act=seat-kind][data-seat='1']").select_option("expert")
    click_and_wait(page, bot, bot.locator("[data-act=rematch]"))
    assert lab.kernel_json("table.ipynb", "list(bot.game.players)") == ["Expert bot", "You"]
    assert lab.kernel_json("table.ipynb", "bot.info['players'][0]['bot']") == "expert"

    # The hot-seat hand-off screen, light and dark.
    hs.scroll_into_view_if_needed()
    _ready(page, hs)
    # A pass with an empty Study: no token can be placed, so the turn ends by itself.
    click_and_wait(page, hs, hs.locator("[data-act=end]"))
    # The page draws the hand-off once the turn's reveals have played.
    hs.locator(".ll-handoff").wait_for(timeout=15_000)
    for theme in ("light", "dark"):
        set_theme(page, theme)
        hs.screenshot(path=str(output_dir / f"handoff-{theme}.png"))
        violations += _axe(page, hs, f"handoff/{theme}")
    assert not violations, "\n".join(violations)
