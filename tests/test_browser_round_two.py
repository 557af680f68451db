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


def _fits(page: Any, root: Any) -> dict[str, float]:
    """The board from its status line to the end of its Study, and the window's room below the
    notebook's top (scrolled to the board's top first)."""
    page.evaluate("(el) => el.scrollIntoView({block: 'start'})", root.element_handle())
    return dict(root.evaluate("""(el) => {
        const top = el.querySelector('.ll-status').getBoundingClientRect().top;
        const main = el.querySelector('.ll-main').getBoundingClientRect();
        const area = document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook')
            .getBoundingClientRect();
        return {height: main.bottom - top, room: window.innerHeight - Math.max(area.top, 0)};
    }"""))


def _narrow(root: Any) -> dict[str, bool]:
    """At 800 px: the deck beside the grid, the Study table and the board within their boxes."""
    return dict(root.evaluate("""(el) => {
        const grid = el.querySelector('.ll-grid').getBoundingClientRect();
        const deck = el.querySelector('.ll-side').getBoundingClientRect();
        const table = el.querySelector('.ll-study table');
        return {beside: deck.top < grid.bottom && deck.left >= grid.right - 1,
                study: table.scrollWidth <= table.parentElement.clientWidth + 1,
                root: el.scrollWidth <= el.clientWidth + 1};
    }"""))


def _hint_marked(server: Any, nb: str, root: Any, widget: str) -> tuple[list[int], list[int]]:
    """The slots of the coach's plan (from the kernel) and the slots marked on the grid."""
    plan = server.kernel_json(nb, f"sorted({{s for a in {widget}.hint['suggestion']['plan'] "
                                  "for s in ([a['slot']] if 'slot' in a else [])"
                                  " + a.get('targets', [])})")
    marked = root.evaluate("(el) => [...el.querySelectorAll('[data-act=card].ll-hinted')]"
                           ".map((c) => Number(c.dataset.slot))")
    return marked, plan


def _log_head(root: Any) -> dict[str, Any]:
    """The full log's scroll, its first (newest) turn and whether that turn is in view."""
    return dict(root.evaluate("""(el) => {
        const box = el.querySelector('.ll-fulllog');
        const first = box.querySelector('.ll-logturn');
        const r = first.getBoundingClientRect(), b = box.getBoundingClientRect();
        return {top: box.scrollTop, turn: Number(first.dataset.turn), inBox: r.top >= b.top - 1};
    }"""))


def _final_faces(page: Any, root: Any) -> list[str]:
    """Once the game is over: the element each card on the grid shows ("" for none)."""
    root.scroll_into_view_if_needed()
    page.wait_for_function("(el) => el.querySelector('.ll-over')", arg=root.element_handle(),
                           timeout=60_000)
    return list(root.evaluate("(el) => [...el.querySelectorAll('[data-act=card]')]"
                              ".filter((c) => c.dataset.card !== 'empty')"
                              ".map((c) => c.dataset.element || '')"))


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
    box = _fits(page, solo)
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
    marked, plan = _hint_marked(lab, "round2.ipynb", duel, "duel")
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
    log = _log_head(duel)
    assert log["top"] == 0 and log["inBox"]
    assert int(log["turn"]) == lab.kernel_json("round2.ipynb", "duel.game.turn")
    duel.screenshot(path=str(output_dir / "6-after-the-bot-turn.png"))

    # -- the final grid face up once the game is over.
    faces = _final_faces(page, over)
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
    fit = _narrow(duel)
    duel.screenshot(path=str(output_dir / "800px.png"))
    assert fit == {"beside": True, "study": True, "root": True}, fit
    no_widget_errors(page)


# ---------------------------------------------------------------------------- Notebook 7
# Where Notebook 7 differs from JupyterLab for the same faults: its command-mode shortcuts
# match keys earlier (r turns a cell raw, c copies, b inserts, h opens help), its page has its
# own header and toolbar above the notebook, and one notebook fills the window's width. So the
# board's keys (Ready, flip, Collect, Fill, End turn, Hint) must reach the board and nothing
# else, and the board must fit there too. The other seat's powers on the board, the final grid
# and a recall lesson's summary are checked in the same page.
NB7_NOTEBOOK = make_notebook([
    SETUP + "\nfrom leyline_widget.teach.scenario import Scenario",
    "solo = LeylineWidget(Game.new(players=['You'], deck=deck), deal_ms=700)\nsolo",
    "duel = LeylineWidget(players=['You', 'greedy'], seed=4, rules=small, hints=True,\n"
    "                     bot_delay_ms=0, deal_ms=600)\nduel",
    # The Rival's seat is played from Python (as a bot's would be) on a second view of the game.
    "g2 = (Scenario(players=['You', 'Rival']).grid('? ? f ? / ? ? ? f / ? ? ? ?')\n"
    "      .tokens(2, wind=2).study(1, water=2, earth=2).build())\n"
    "you = LeylineWidget(g2, viewer=0, deal_ms=0)\n"
    "rival = LeylineWidget(g2, viewer=1, deal_ms=0)\nyou",
    "over = LeylineWidget(players=['greedy', 'greedy'], seed=2, rules=small.replace("
    "turn_limit=4), bot_delay_ms=0, deal_ms=0)\nover",
    "learn = LessonWidget(lesson('recall-gale-tide'), reveal_ms=400)\nlearn",
], markdown="# At the table, round two, in Notebook 7 (test copy)")

notebook7 = lab_fixture({"round2nb7.ipynb": NB7_NOTEBOOK}, app="notebook")


def _cells(page: Any) -> list[str]:
    """The notebook's cells as its model holds them: their types, in order."""
    return list(page.evaluate("() => Array.from(window.jupyterapp.shell.currentWidget"
                              ".content.model.cells, (c) => c.type)"))


def _key(page: Any, root: Any, key: str) -> None:
    """Press ``key`` on the focused part of the board and wait for the kernel's answer."""
    ack = root.get_attribute("data-ack")
    page.keyboard.press(key)
    try:
        page.wait_for_function("([el, a]) => el.dataset.ack !== a",
                               arg=[root.element_handle(), ack], timeout=15_000)
    except Exception as err:  # say which key went where
        focus = page.evaluate("() => document.activeElement && document.activeElement.outerHTML"
                              ".slice(0, 200)")
        raise AssertionError(f"key {key!r}: no answer; focus on {focus}; "
                             f"prompt {widget_state(root)['prompt']!r}") from err


def test_notebook7_round_two(notebook7: Any, browser: Any, output_dir: Path) -> None:  # noqa: F811
    nb = "round2nb7.ipynb"
    page = open_notebook(browser, notebook7, nb, width=1280, height=800)
    assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
    run_all_cells(page, widgets=5, timeout=120_000)
    cells = _cells(page)
    roots = _roots(page)
    solo, duel, you, over = roots.nth(0), roots.nth(1), roots.nth(2), roots.nth(3)

    # -- the deal first: E (End) before Ready is refused by the kernel; the notebook is untouched.
    solo.scroll_into_view_if_needed()
    assert solo.get_attribute("data-deal") == "waiting"
    solo.locator("[data-act=card][data-slot='0']").focus()
    _key(page, solo, "e")
    assert "deal has not been shown" in widget_state(solo)["error"]
    assert notebook7.kernel_json(nb, "solo.game.step") == 0
    solo.screenshot(path=str(output_dir / "nb7-1-move-before-ready-refused.png"))

    # -- the board within 1280x800 under Notebook 7's header and toolbar.
    box = _fits(page, solo)
    page.screenshot(path=str(output_dir / "nb7-2-board-in-1280x800.png"))
    assert box["height"] <= box["room"], box

    # -- a routine turn by keys alone: R, then flip, flip (Enter), Collect (E), Fill (F),
    # End turn (E); Notebook 7's own shortcuts for these keys do nothing to the notebook.
    solo.locator("[data-act=card][data-slot='0']").focus()
    page.keyboard.press("r")
    page.wait_for_function("(el) => el.dataset.deal === 'none'", arg=solo.element_handle(),
                           timeout=20_000)
    keys: list[str] = []
    for key in ("Enter", "ArrowRight", "Enter", "e", "f", "e"):
        if key == "ArrowRight":
            page.keyboard.press(key)
            continue
        keys.append(key)
        _key(page, solo, key)
    assert len(keys) == 5
    assert notebook7.kernel_json(nb, "[solo.game.turn, solo.game.scores()]") == [2, [2]]
    assert _cells(page) == cells
    solo.screenshot(path=str(output_dir / "nb7-3-after-a-five-key-turn.png"))

    # -- Hint (H) marks its plan's slots on the grid.
    duel.scroll_into_view_if_needed()
    duel.locator("[data-act=card][data-slot='0']").focus()
    page.keyboard.press("r")
    page.wait_for_function("(el) => el.dataset.deal === 'none'", arg=duel.element_handle(),
                           timeout=20_000)
    duel.locator("[data-act=card][data-slot='0']").focus()
    _key(page, duel, "h")
    marked, plan = _hint_marked(notebook7, nb, duel, "duel")
    duel.screenshot(path=str(output_dir / "nb7-4-hint-on-the-board.png"))
    assert marked == plan, (marked, plan)
    assert duel.locator(".ll-coach-hint").count() == 1
    assert _cells(page) == cells

    # -- the other seat's turn: one line above the board, its Unbind and Ripple on the cards,
    # and the newest log entry first and in view.
    notebook7.run_in_kernel(nb, "you.play(EndPhase()); you.play(EndPhase())\n"
                                "rival.play(UsePower('earth', 'minor', (2,)))\n"
                                "rival.play(UsePower('water', 'minor', (2, 5)))\n"
                                "rival.play(EndPhase()); rival.play(EndPhase())")
    you.scroll_into_view_if_needed()
    page.wait_for_function("(el) => el.querySelector('.ll-recap')", arg=you.element_handle(),
                           timeout=15_000)
    recap = you.locator(".ll-recap").inner_text()
    assert "Rival used Unbind" in recap and "Ripple" in recap, recap
    marks = you.evaluate("""(el) => Object.fromEntries([2, 5].map((s) => [s,
        [...el.querySelectorAll(`[data-act=card][data-slot='${s}'] .ll-mk`)]
            .map((m) => m.className.replace('ll-mk ll-mk-', ''))]))""")
    assert "unbound" in marks["2"] and "swapped" in marks["2"] and "swapped" in marks["5"], marks
    log = _log_head(you)
    assert log == {"top": 0, "turn": 3, "inBox": True}, log
    you.screenshot(path=str(output_dir / "nb7-5-the-other-seats-powers.png"))

    # -- the final grid face up once the game is over.
    faces = _final_faces(page, over)
    assert faces and all(faces), faces
    over.screenshot(path=str(output_dir / "nb7-6-final-grid-face-up.png"))

    # -- a recall lesson: element-named tasks, hints from "think back" to the slots, and once
    # finished its summary (first-try recalls counted), no live board.
    learn = page.locator(".leyline.ll-lesson").first
    learn.scroll_into_view_if_needed()
    click_and_wait(page, learn, learn.locator("[data-act=lesson-next]"))  # Gale, shown
    assert "slot" not in learn.locator(".ll-instruction").inner_text()
    for _ in range(2):
        click_and_wait(page, learn, learn.locator("[data-act=lesson-hint]"))
    hints = learn.locator(".ll-hints li").all_inner_texts()
    assert hints[0].startswith("Think back") and "slot 5" in hints[1], hints
    learn.screenshot(path=str(output_dir / "nb7-7-recall-hints.png"))
    notebook7.run_in_kernel(nb, "while not learn.session.done:\n"
                                "    for a in learn.session.step.solution:\n"
                                "        learn.try_action(a)\n"
                                "    learn.next()")
    page.wait_for_selector(".ll-lsummary")
    summary = learn.locator(".ll-lsummary").inner_text()
    assert "1 of 3 recalled at the first try" in summary, summary
    assert not page.locator(".ll-lessonboard").first.is_visible()
    learn.screenshot(path=str(output_dir / "nb7-8-lesson-summary.png"))

    # -- axe-core, light and dark.
    problems: list[str] = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for i, root in enumerate((solo, duel, you, over, learn)):
            problems += _axe(page, root, f"{theme} widget {i}")
        you.screenshot(path=str(output_dir / f"nb7-9-you-{theme}.png"))
    assert problems == []
    assert _cells(page) == cells
    no_widget_errors(page)


def test_notebook7_clean_at_800_px(notebook7: Any, browser: Any,  # noqa: F811
                                   output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, notebook7, "round2nb7.ipynb", width=800, height=900)
    run_all_cells(page, widgets=5, timeout=120_000)
    duel = _roots(page).nth(1)
    duel.scroll_into_view_if_needed()
    fit = _narrow(duel)
    duel.screenshot(path=str(output_dir / "nb7-800px.png"))
    page.screenshot(path=str(output_dir / "nb7-800px-page.png"))
    assert fit == {"beside": True, "study": True, "root": True}, fit
    no_widget_errors(page)
