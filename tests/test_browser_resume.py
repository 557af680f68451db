"""A kernel restart in a real JupyterLab (issue 26): the old board says it has lost its kernel
and how to resume, takes no clicks, and ``LeylineWidget.resume()`` in the new kernel shows the
same game at the same step with the same view. Screenshots go to test-output/<test>/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    Lab,
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_command,
    lab_fixture,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    wait_kernel_idle,
    widget_state,
)
from browser_support import notebook_json as make_notebook

pytestmark = [pytest.mark.browser, pytest.mark.jupyter]

GAME = make_notebook([
    "from leyline_widget import LeylineWidget\n"
    "w = LeylineWidget(players=['You', 'greedy'], seed=3, deal_ms=0, reveal_ms=0)\nw",
    "from leyline_widget import LeylineWidget\nr = LeylineWidget.resume()\nr",
], markdown="# Resume after a kernel restart (test)")

lab = lab_fixture({"game.ipynb": GAME})


def faces(state: dict[str, Any]) -> list[tuple[int, str, str | None]]:
    """Each card as the board shows it (without its passing animation)."""
    return [(c["slot"], c["card"], c["element"]) for c in state["cards"]]


def test_a_restarted_kernel_leaves_a_board_that_says_so_and_resume_goes_on(
        lab: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "game.ipynb", height=1400)
    lab_command(page, "notebook:run-cell-and-select-next")   # the title (markdown)
    lab_command(page, "notebook:run-cell-and-select-next")   # the game's cell, not resume's
    page.wait_for_selector(".leyline .ll-grid", timeout=60_000)
    wait_kernel_idle(page)
    old = page.locator(".leyline").first
    for slot in (0, 5, 9):
        click_and_wait(page, old, old.locator(f"[data-act=card][data-slot='{slot}']"))
    before = widget_state(old)
    assert before["step"] == 3 and not before["error"]
    old.screenshot(path=str(output_dir / "1-before-restart.png"))
    # Kernel > Restart Kernel..., and the dialog's Restart, as a user does it.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:restart-kernel'); }")
    page.locator(".jp-Dialog .jp-mod-accept").click()
    note = page.locator(".ll-lost-note")
    note.wait_for(timeout=30_000)
    text = note.text_content() or ""
    assert "lost its kernel" in text
    assert note.locator("code").text_content() == (
        "from leyline_widget import LeylineWidget; LeylineWidget.resume()")
    wait_kernel_idle(page)
    page.locator(".jp-OutputArea-output").first.screenshot(
        path=str(output_dir / "2-kernel-lost.png"))
    # The board looks dead and is: a click reaches nothing and changes nothing.
    assert old.evaluate("(el) => getComputedStyle(el).pointerEvents") == "none"
    old.locator("[data-act=card][data-slot='2']").click(force=True)
    page.wait_for_timeout(500)
    assert faces(widget_state(old)) == faces(before)

    page.locator(".jp-CodeCell").nth(1).locator(".jp-InputPrompt").click()  # resume's cell
    lab_command(page, "notebook:run-cell")   # r = LeylineWidget.resume()
    page.wait_for_function("() => document.querySelectorAll('.leyline .ll-grid').length >= 2",
                           timeout=60_000)
    wait_kernel_idle(page)
    new = page.locator(".leyline").nth(1)
    new.scroll_into_view_if_needed()
    after = widget_state(new)
    assert after["step"] == before["step"] and after["phase"] == before["phase"]
    assert faces(after) == faces(before) and after["prompt"] == before["prompt"]
    assert page.locator(".ll-lost-note").count() == 1   # the resumed board is live
    new.screenshot(path=str(output_dir / "3-resumed.png"))
    assert lab.kernel_json("game.ipynb", "[r.game.step, r.viewer, r.info['players'][1]['bot']]"
                           ) == [3, "active", "greedy"]
    # It plays on, and the move is saved to the same game.
    click_and_wait(page, new, new.locator("[data-act=end]"))
    assert lab.kernel_json(
        "game.ipynb", "[g.step for g in __import__('leyline_widget').saved_games()]") == [
            widget_state(new)["step"]]
    no_widget_errors(page)
