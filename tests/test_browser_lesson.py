"""The rules tutorial in a real JupyterLab, driven through headless Chromium by clicks and keys.

A lesson is completed by clicking, with a guess at a never-seen card and a wrong move on the way,
each answered in words; the course navigator and the teacher's memory panel are used too.
Screenshots go to test-output/<test>/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    EXAMPLES,
    Lab,
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_fixture,
    notebook_json,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    run_all_cells,
    set_theme,
)

pytestmark = [pytest.mark.browser, pytest.mark.jupyter]

NOTEBOOK = "02_rules_tutorial.ipynb"
#: Find the first lesson's widget in the kernel: the tutorial shows it without a name. Widgets
#: are kept in creation order, so it comes before the Python demo of the same lesson.
FIND = ("from ipywidgets.widgets.widget import _instances as _i\n"
        "_found = [w for w in _i.values() if type(w).__name__ == 'LessonWidget' "
        "and len(w.lessons) == 1 and w.lesson['lesson'] == 'activate-collect']\n")

#: A course widget, then a single-lesson widget of its first lesson, in one notebook (one kernel).
PROGRESS = notebook_json([
    "from leyline_widget import LessonWidget\ncourse = LessonWidget.course(reveal_ms=0)\ncourse",
    "single = LessonWidget('activate-collect', reveal_ms=0)\nsingle",
])

lab = lab_fixture({NOTEBOOK: EXAMPLES / NOTEBOOK, "progress.ipynb": PROGRESS})


def panel_state(panel: Any) -> dict[str, Any]:
    return panel.evaluate("""(el) => ({
        status: el.dataset.status, step: Number(el.dataset.lessonStep), ack: Number(el.dataset.ack),
        stepno: el.querySelector('.ll-stepno').textContent,
        kind: el.querySelector('[role=status]').dataset.kind || null,
        feedback: el.querySelector('[role=status]').textContent,
        progress: Number(el.querySelector('[role=progressbar]').getAttribute('aria-valuenow')),
        next: el.querySelector('[data-act=lesson-next]').textContent,
    })""")


def board_cards(board: Any) -> list[dict[str, Any]]:
    return board.evaluate("""(el) => [...el.querySelectorAll('[data-act=card]')].map((c) => ({
        slot: Number(c.dataset.slot), card: c.dataset.card, element: c.dataset.element || null,
        remembered: c.classList.contains('ll-remembered')}))""")


def test_a_lesson_is_completed_by_clicking(lab: Lab, browser: Any,  # noqa: F811
                                           output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, NOTEBOOK, width=1100, height=1200)
    run_all_cells(page, widgets=14, timeout=120_000)
    panel = page.locator(".ll-lesson").first
    board = page.locator(".ll-lessonboard").first.locator(".leyline")
    panel.scroll_into_view_if_needed()
    widget = page.locator(".ll-lesson").first.locator("xpath=..")
    widget.screenshot(path=str(output_dir / "1-start.png"))
    state = panel_state(panel)
    assert state["stepno"] == "Step 1 of 3" and state["kind"] is None and state["progress"] == 0
    cards = board_cards(board)
    # The learner's memory shows; every other inert card is blank in the page.
    assert {c["slot"]: c["element"] for c in cards if c["remembered"]} == {
        1: "water", 3: "fire", 6: "water"}
    assert all(c["element"] is None for c in cards if not c["remembered"])

    # A guess at a card never seen: refused in words, nothing moves.
    click_and_wait(page, panel, board.locator("[data-act=card][data-slot='7']"))
    state = panel_state(panel)
    assert state["kind"] == "unseen"
    assert "You have never seen the card in slot 7" in state["feedback"]
    assert board_cards(board)[7]["card"] == "inert"

    # A wrong move: the lone Fire. Its feedback, and the card stays up until Retry.
    click_and_wait(page, panel, board.locator("[data-act=card][data-slot='3']"))
    state = panel_state(panel)
    assert state["kind"] == "wrong" and state["status"] == "wrong"
    assert state["feedback"].startswith("Not what this step asks: Slot 3 is the Fire you remember")
    assert board_cards(board)[3] == {"slot": 3, "card": "active", "element": "fire",
                                     "remembered": False}
    widget.screenshot(path=str(output_dir / "2-wrong-move.png"))
    click_and_wait(page, panel, board.locator("[data-act=card][data-slot='1']"))
    assert "Press Retry" in (board.locator("[role=alert]").text_content() or "")
    click_and_wait(page, panel, panel.locator("[data-act=lesson-retry]"))
    state = panel_state(panel)
    assert state["status"] == "playing" and state["kind"] is None
    assert board_cards(board)[3]["card"] == "inert" and board_cards(board)[3]["remembered"]

    # A hint, then the expected moves; Next by keyboard.
    click_and_wait(page, panel, panel.locator("[data-act=lesson-hint]"))
    assert "slots 1 and 6" in (panel.locator(".ll-hints").text_content() or "")
    click_and_wait(page, panel, board.locator("[data-act=card][data-slot='1']"))
    state = panel_state(panel)
    assert state["kind"] == "solved" and state["next"] == "Next step →" and state["progress"] == 1
    widget.screenshot(path=str(output_dir / "3-solved.png"))
    panel.locator("[data-act=lesson-next]").focus()
    ack = panel.get_attribute("data-ack")
    page.keyboard.press("Enter")
    page.wait_for_function("([el, a]) => el.dataset.ack !== a", arg=[panel.element_handle(), ack])
    assert panel_state(panel)["stepno"] == "Step 2 of 3"
    click_and_wait(page, panel, board.locator("[data-act=card][data-slot='6']"))
    click_and_wait(page, panel, panel.locator("[data-act=lesson-next]"))
    click_and_wait(page, panel, board.locator("[data-act=end]"))   # Collect
    state = panel_state(panel)
    assert state["kind"] == "done" and state["status"] == "done" and state["progress"] == 3
    assert state["feedback"].startswith("Lesson complete: Both Water cards went into your Study")
    assert state["stepno"] == "All 3 steps done"
    widget.screenshot(path=str(output_dir / "4-done.png"))

    kernel = lab.kernel_json(NOTEBOOK, "dict(n=len(_found), done=_w.session.done, "
                             "mistakes=_w.session.mistakes, study=_w.game.study(0), "
                             "step=_w.game.step)", setup=FIND + "_w = _found[0]")
    assert kernel["n"] == 2   # this one and the demo that Python drives
    assert kernel["done"] and kernel["mistakes"] == 2 and kernel["step"] == 3
    assert {el: n for el, n in kernel["study"].items() if n} == {"water": 2}

    set_theme(page, "dark")
    panel.scroll_into_view_if_needed()
    widget.screenshot(path=str(output_dir / "5-done-dark.png"))
    errors = [e for e in page.errors if "leyline" in e.lower() or "anywidget" in e.lower()]
    assert not errors, errors


def test_course_navigator_and_teacher_memory_panel(lab: Lab, browser: Any,  # noqa: F811
                                                   output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, NOTEBOOK, width=1100, height=1400)
    run_all_cells(page, widgets=14, timeout=120_000)
    course = page.locator(".ll-course").first.locator("xpath=..")
    course.scroll_into_view_if_needed()
    options = course.locator("[data-act=lesson-pick] option")
    assert options.count() == 23  # the 12 lessons of the rules and 11 recall lessons
    ack = course.get_attribute("data-ack")
    course.locator("[data-act=lesson-pick]").select_option("game-end")
    page.wait_for_function("([el, a]) => el.dataset.ack !== a", arg=[course.element_handle(), ack])
    assert course.get_attribute("data-lesson") == "game-end"
    assert "Lesson 12 of 23" in (course.locator(".ll-ltitle").text_content() or "")
    board = course.locator("xpath=following-sibling::*[1]").locator(".leyline")
    assert board.locator("[data-act=card]").count() == 4
    course.locator("xpath=..").screenshot(path=str(output_dir / "course-game-end.png"))

    memory = page.locator(".ll-memory").first
    memory.scroll_into_view_if_needed()
    assert memory.locator(".ll-mem").count() == 12
    assert (memory.get_attribute("aria-label") or "").startswith("Memory of Random bot")
    memory.locator("xpath=ancestor::div[contains(@class,'leyline')][1]").screenshot(
        path=str(output_dir / "teacher-memory.png"))
    memory.locator("[data-act=memory-of]").select_option("1")
    page.wait_for_function(
        "(el) => (el.getAttribute('aria-label') || '').startsWith('Memory of Memory bot')",
        arg=memory.element_handle(), timeout=15_000)
    memory.screenshot(path=str(output_dir / "teacher-memory-other-player.png"))


def test_skip_shows_its_moves_and_a_lesson_done_in_one_widget_counts_in_the_course(
        lab: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "progress.ipynb", width=1100, height=1400)
    run_all_cells(page, widgets=2, timeout=120_000)
    panels = page.locator(".ll-lesson[data-lesson]")
    course, single = panels.nth(0), panels.nth(1)
    board = page.locator(".ll-lessonboard").nth(1).locator(".leyline")
    done = course.locator(".ll-coursedone")
    assert done.text_content() == "0 of 23 lessons done"

    # Skip step (show me): the board rings the slot its solution played, and says so.
    single.scroll_into_view_if_needed()
    assert single.locator("[data-act=lesson-next]").text_content() == "Skip step (show me)"
    click_and_wait(page, single, single.locator("[data-act=lesson-next]"))
    shown = board.locator(".ll-card.ll-shown")
    page.wait_for_function("(el) => el.querySelectorAll('.ll-shown').length === 1",
                           arg=board.element_handle(), timeout=15_000)
    assert shown.get_attribute("data-slot") == "1"
    assert "The skipped step: activated" in (shown.get_attribute("aria-label") or "")
    page.wait_for_timeout(600)  # the flip's motion cue is over: the picture shows the ring
    single.locator("xpath=..").screenshot(path=str(output_dir / "skip-shown.png"))
    click_and_wait(page, single, board.locator("[data-act=card][data-slot='6']"))
    assert board.locator(".ll-shown").count() == 0, "the learner's move ends the highlight"
    click_and_wait(page, single, single.locator("[data-act=lesson-next]"))
    click_and_wait(page, single, board.locator("[data-act=end]"))   # Collect
    assert panel_state(single)["status"] == "done"

    # The course widget above, in the same kernel, counts it at once.
    page.wait_for_function("(el) => el.textContent === '1 of 23 lessons done'",
                           arg=done.element_handle(), timeout=15_000)
    first = course.locator("[data-act=lesson-pick] option").first
    assert first.text_content() == "1. Activate and collect ✓ (done in another lesson widget)"
    course.scroll_into_view_if_needed()
    course.screenshot(path=str(output_dir / "course-counts-single.png"))
    errors = [e for e in page.errors if "leyline" in e.lower() or "anywidget" in e.lower()]
    assert not errors, errors
