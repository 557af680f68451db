"""At the table, round two (issue 27), in a real JupyterLab: a move before Ready refused, a
routine turn in five clicks, Phase 1 as a choice and the mover's own Ripple on the board, the
coach's hint on the grid, the other seats' turn in a line and the newest log entry in view, the
final grid face up, a finished lesson's summary, the board within 1280x800 and clean at 800 px,
and axe-core in light and dark. Screenshots: test-output/<test>/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import axe_violations as _axe
from browser_support import (
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_fixture,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    press_ready,
    run_all_cells,
    set_theme,
    widget_state,
)
from browser_support import notebook_json as make_notebook

pytestmark = [pytest.mark.browser, pytest.mark.jupyter]

SETUP = (
    "from leyline_widget import *\n"
    "from leyline_widget.widgets.lesson import LessonWidget\n"
    "from leyline_widget.teach.course import lesson\n"
    "small = Rules.default().replace(cards_per_element=4, grid_rows=3, grid_cols=4)\n"
    # Slots 0 and 1 are a Fire pair; the deck then brings Water, Earth, Wind, ...
    "deck = ['fire', 'fire'] + [e for e in ('water', 'earth', 'wind') for _ in range(12)]"
    " + ['fire'] * 10\n"
    "rip = ['water', 'water', 'fire', 'earth', 'wind', 'fire', 'earth', 'wind', 'fire', 'earth',"
    " 'wind', 'fire', 'water', 'water', 'earth', 'wind']\n"
    "g = Game.new(players=['You'], rules=small, deck=rip)\n"
    "for a in [Activate(0), Activate(1), EndPhase(), Refill(0), Refill(1), EndPhase()]:\n"
    "    g.apply(a)"
)
NOTEBOOK = make_notebook([
    SETUP,
    "solo = LeylineWidget(Game.new(players=['You'], deck=deck), deal_ms=700)\nsolo",
    "ripple = LeylineWidget(g, deal_ms=0)\nripple",
    "duel = LeylineWidget(players=['You', 'greedy'], seed=4, rules=small, hints=True,\n"
    "                     bot_delay_ms=0, deal_ms=600)\nduel",
    "over = LeylineWidget(players=['greedy', 'greedy'], seed=2, rules=small.replace("
    "turn_limit=4), bot_delay_ms=0, deal_ms=0)\nover",
    "learn = LessonWidget(lesson('recall-pair'), reveal_ms=400)\nlearn",
], markdown="# At the table, round two (test copy)")

lab = lab_fixture({"round2.ipynb": NOTEBOOK})


def _roots(page: Any) -> Any:
    return page.locator(".leyline[data-mode=play]")


def _count_click(page: Any, root: Any, target: Any, clicks: list[str], name: str) -> None:
    clicks.append(name)
    click_and_wait(page, root, target)


def test_the_table_round_two(lab: Any, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "round2.ipynb", width=1280, height=800)
    run_all_cells(page, widgets=5, timeout=120_000)
    roots = _roots(page)
    solo, ripple, duel, over = roots.nth(0), roots.nth(1), roots.nth(2), roots.nth(3)

    # -- the deal first: a move before Ready is refused by the kernel, and nothing changes.
    solo.scroll_into_view_if_needed()
    assert solo.get_attribute("data-deal") == "waiting"
    click_and_wait(page, solo, solo.locator("[data-act=end]"))
    assert "deal has not been shown" in widget_state(solo)["error"]
    assert lab.kernel_json("round2.ipynb", "solo.game.step") == 0
    solo.screenshot(path=str(output_dir / "1-move-before-ready-refused.png"))

    # -- the board within 1280x800 in JupyterLab: grid, deck, prompt, actions, own Study.
    page.evaluate("(el) => el.scrollIntoView({block: 'start'})", solo.element_handle())
    box = solo.evaluate("""(el) => {
        const top = el.querySelector('.ll-status').getBoundingClientRect().top;
        const main = el.querySelector('.ll-main').getBoundingClientRect();
        const area = document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook')
            .getBoundingClientRect();
        return {height: main.bottom - top, room: window.innerHeight - Math.max(area.top, 0)};
    }""")
    assert box["height"] <= box["room"], box
    page.screenshot(path=str(output_dir / "2-board-in-1280x800.png"))

    # -- a routine turn in five clicks: flip, flip, Collect, Fill, End turn.
    press_ready(page, solo)
    clicks: list[str] = []
    _count_click(page, solo, solo.locator("[data-act=card][data-slot='0']"), clicks, "flip")
    _count_click(page, solo, solo.locator("[data-act=card][data-slot='1']"), clicks, "flip")
    _count_click(page, solo, solo.locator("[data-act=end]"), clicks, "collect")
    assert widget_state(solo)["phase"] == "refill"
    _count_click(page, solo, solo.locator("[data-act=refill-all]"), clicks, "refill")
    assert widget_state(solo)["phase"] == "binding"
    _count_click(page, solo, solo.locator("[data-act=end]"), clicks, "end")
    assert len(clicks) == 5
    assert lab.kernel_json("round2.ipynb", "[solo.game.turn, solo.game.scores()]") == [2, [2]]
    # Disabled buttons look disabled: none is drawn as the main (filled) button.
    solo.screenshot(path=str(output_dir / "3-after-a-five-click-turn.png"))

    # -- Phase 1 as a choice; the mover's own Ripple is marked where it acted.
    ripple.scroll_into_view_if_needed()
    assert ripple.locator(".ll-choice [data-act=no-power]").count() == 1
    ripple.locator(".ll-choice [data-act=choose-power]").first.click()
    ripple.locator("[data-act=card][data-slot='4']").click()
    click_and_wait(page, ripple, ripple.locator("[data-act=card][data-slot='7']"))
    page.wait_for_function("(el) => el.querySelectorAll('.ll-mk-swapped').length === 2",
                           arg=ripple.element_handle())
    ripple.screenshot(path=str(output_dir / "4-own-ripple-marked.png"))

    # -- the hint on the board: its slots marked, in words once.
    duel.scroll_into_view_if_needed()
    press_ready(page, duel)
    click_and_wait(page, duel, duel.locator("[data-act=hint]"))
    plan = lab.kernel_json("round2.ipynb", "sorted({s for a in duel.hint['suggestion']['plan'] "
                                           "for s in ([a['slot']] if 'slot' in a else [])"
                                           " + a.get('targets', [])})")
    marked = duel.evaluate("(el) => [...el.querySelectorAll('[data-act=card].ll-hinted')]"
                           ".map((c) => Number(c.dataset.slot))")
    assert marked == plan
    text = duel.locator(".ll-coach-hint").inner_text()
    assert text.lower().count("end the phase") <= 1
    duel.screenshot(path=str(output_dir / "5-hint-on-the-board.png"))

    # -- after the bot's turn: its turn in one line, and the newest log entry in view.
    click_and_wait(page, duel, duel.locator("[data-act=end]"))  # pass: the turn ends by itself
    page.wait_for_function(
        "(el) => el.querySelector('.ll-prompt').textContent.startsWith('You:')",
        arg=duel.element_handle(), timeout=60_000)
    recap = duel.locator(".ll-recap").inner_text()
    assert "Greedy bot" in recap
    log = duel.evaluate("""(el) => {
        const box = el.querySelector('.ll-fulllog');
        const first = box.querySelector('.ll-logturn');
        const r = first.getBoundingClientRect(), b = box.getBoundingClientRect();
        return {top: box.scrollTop, turn: first.dataset.turn, inBox: r.top >= b.top - 1};
    }""")
    assert log["top"] == 0 and log["inBox"]
    assert int(log["turn"]) == lab.kernel_json("round2.ipynb", "duel.game.turn")
    duel.screenshot(path=str(output_dir / "6-after-the-bot-turn.png"))

    # -- the final grid face up once the game is over.
    over.scroll_into_view_if_needed()
    page.wait_for_function("(el) => el.querySelector('.ll-over')", arg=over.element_handle(),
                           timeout=60_000)
    faces = over.evaluate("(el) => [...el.querySelectorAll('[data-act=card]')]"
                          ".filter((c) => c.dataset.card !== 'empty')"
                          ".map((c) => c.dataset.element || '')")
    assert faces and all(faces), faces
    over.screenshot(path=str(output_dir / "7-final-grid-face-up.png"))

    # -- a finished lesson: its summary and the next lesson, no live board.
    learn = page.locator(".leyline.ll-lesson").first
    learn.scroll_into_view_if_needed()
    board = page.locator(".ll-lessonboard").first
    for slot in (1, 6):
        click_and_wait(page, learn, board.locator(f"[data-act=card][data-slot='{slot}']"))
    click_and_wait(page, learn, board.locator("[data-act=end]"))
    click_and_wait(page, learn, learn.locator("[data-act=lesson-next]"))
    page.wait_for_timeout(600)
    click_and_wait(page, learn, board.locator("[data-act=card][data-slot='3']"))
    page.wait_for_selector(".ll-lsummary")
    assert "recalled at the first try" in learn.locator(".ll-lsummary").inner_text()
    assert not board.is_visible()
    learn.screenshot(path=str(output_dir / "8-lesson-summary.png"))

    # -- axe-core, light and dark.
    problems: list[str] = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for i, root in enumerate((solo, ripple, duel, over, learn)):
            problems += _axe(page, root, f"{theme} widget {i}")
        duel.screenshot(path=str(output_dir / f"9-duel-{theme}.png"))
    assert problems == []
    no_widget_errors(page)


def test_clean_at_800_px(lab: Any, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "round2.ipynb", width=800, height=900)
    run_all_cells(page, widgets=5, timeout=120_000)
    duel = _roots(page).nth(2)
    duel.scroll_into_view_if_needed()
    fit = duel.evaluate("""(el) => {
        const grid = el.querySelector('.ll-grid').getBoundingClientRect();
        const deck = el.querySelector('.ll-side').getBoundingClientRect();
        const table = el.querySelector('.ll-study table');
        return {beside: deck.top < grid.bottom && deck.left >= grid.right - 1,
                study: table.scrollWidth <= table.parentElement.clientWidth + 1,
                root: el.scrollWidth <= el.clientWidth + 1};
    }""")
    duel.screenshot(path=str(output_dir / "800px.png"))
    assert fit == {"beside": True, "study": True, "root": True}, fit
    no_widget_errors(page)
