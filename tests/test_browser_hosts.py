"""The play widget in the other hosts (issue 10): Notebook 7 (a real ``jupyter notebook``
server) and marimo (``marimo run`` and ``marimo edit`` on examples/marimo_play.py), driven
through headless Chromium by clicks and keys, with the host's light and dark theme (and, for
marimo, a browser whose own colour scheme says the opposite). Screenshots: test-output/<test>/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    ELEMENT_WORDS,
    EXAMPLES,
    Lab,
    Marimo,
    axe_violations,
    board_luminance,
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_fixture,
    local_only,
    marimo_app,
    new_page,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    play_turn_step,
    press_ready,
    require_chromium,
    run_all_cells,
    scan_seat,
    set_theme,
    widget_state,
)
from browser_support import notebook_json as make_notebook

pytestmark = [pytest.mark.browser]

HOT_SEAT = make_notebook([
    "from leyline_widget import LeylineWidget, Rules\n"
    "small = Rules.default().replace(cards_per_element=4, grid_rows=2, grid_cols=3)",
    "hs = LeylineWidget(players=['Ada', 'Grace'], seed=3, rules=small, reveal_ms=600,\n"
    "                   deal_ms=900)\nhs",
], markdown="# Hot-seat in Notebook 7 (test copy)")

notebook7 = lab_fixture({"hotseat.ipynb": HOT_SEAT}, app="notebook")
MARIMO_NOTEBOOK = EXAMPLES / "marimo_play.py"


def _cells(page: Any) -> list[int]:
    """The notebook's cells as its model counts them and as the page shows them."""
    return [int(page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.content.model.cells.length")),
        int(page.locator(".jp-Notebook .jp-Cell").count())]


def _settle(page: Any) -> None:
    """Two animation frames: whatever the last keys set off in the page has been drawn."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(() => r(null))))")


def _theme_is(page: Any, root: Any, theme: str) -> None:
    page.wait_for_function("([el, t]) => el.dataset.llTheme === t",
                           arg=[root.element_handle(), theme], timeout=15_000)
    lum = board_luminance(root)
    assert (lum > 0.6) if theme == "light" else (lum < 0.1), (theme, lum)


def _to_handoff(page: Any, root: Any) -> None:
    """Play the seat's turn by clicks until the hand-off screen hides the board."""
    clicked: list[int] = []
    for _ in range(40):
        if root.locator(".ll-handoff").count():
            return
        play_turn_step(page, root, clicked)
    raise AssertionError(f"no hand-off screen: {root.inner_text()[:600]}")


def _check_handoff(root: Any, to: str) -> None:
    text = root.inner_text()
    assert f"Pass to {to}" in text and "click when ready" in text, text[:400]
    assert not ELEMENT_WORDS.search(root.evaluate("(el) => el.innerHTML"))


@pytest.mark.jupyter
def test_notebook7_clicks_keys_shortcuts_handoff_themes_and_axe(
        notebook7: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, notebook7, "hotseat.ipynb", width=1100, height=1200,
                         offline=True)
    assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
    run_all_cells(page, widgets=1)
    root = page.locator(".leyline[data-mode=play]").first
    root.scroll_into_view_if_needed()
    _theme_is(page, root, "light")
    assert root.get_attribute("data-deal") == "waiting"
    scan_seat(root)
    press_ready(page, root)
    scan_seat(root)

    # A click, checked in the DOM and in the kernel.
    click_and_wait(page, root, root.locator("[data-act=card][data-slot='0']"))
    card = widget_state(root)["cards"][0]
    assert card["card"] == "active" and card["element"]
    assert notebook7.kernel_json("hotseat.ipynb", "[hs.game.step, hs.game.card(0)]") == [
        1, card["element"]]
    # The keyboard: arrow to slot 1, Enter activates it.
    root.locator("[data-act=card][data-slot='0']").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.slot") == "1"
    ack = root.get_attribute("data-ack")
    page.keyboard.press("Enter")
    page.wait_for_function("([el, a]) => el.dataset.ack !== a", arg=[root.element_handle(), ack])
    assert widget_state(root)["cards"][1]["card"] == "active"
    root.screenshot(path=str(output_dir / "notebook7-play-light.png"))

    # Notebook 7's command-mode shortcuts do nothing while a card has focus...
    before = _cells(page)
    root.locator("[data-act=card][data-slot='2']").focus()
    for key in ["Escape", "d", "d", "a", "b", "x", "z"]:
        page.keyboard.press(key)
    _settle(page)
    assert _cells(page) == before
    assert notebook7.kernel_json("hotseat.ipynb", "hs.game.step") == 2
    # ...and the same keys do reach the notebook from one of its own cells (so the check
    # above could fail): "a" inserts a cell, "d d" deletes it again.
    page.locator(".jp-Notebook .jp-Cell .jp-InputPrompt").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("a")
    page.wait_for_function("(n) => window.jupyterapp.shell.currentWidget.content.model"
                           ".cells.length === n + 1", arg=before[0])
    page.keyboard.press("d")
    page.keyboard.press("d")
    page.wait_for_function("(n) => window.jupyterapp.shell.currentWidget.content.model"
                           ".cells.length === n", arg=before[0])

    # The change of seat: a hand-off screen hides the board, in light and dark.
    root.scroll_into_view_if_needed()
    _to_handoff(page, root)
    violations: list[str] = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        _theme_is(page, root, theme)
        _check_handoff(root, "Grace")
        page.screenshot(path=str(output_dir / f"notebook7-page-handoff-{theme}.png"))
        root.screenshot(path=str(output_dir / f"notebook7-handoff-{theme}.png"))
        violations += axe_violations(page, root, f"handoff/{theme}")
    click_and_wait(page, root, root.locator("[data-act=handoff-ready]"))
    scan_seat(root)
    assert widget_state(root)["prompt"].startswith("Grace")
    # Grace's board in dark, then light again: the board follows each switch.
    click_and_wait(page, root, root.locator(".ll-card.ll-legal[data-card=inert]").first)
    root.screenshot(path=str(output_dir / "notebook7-play-dark.png"))
    violations += axe_violations(page, root, "play/dark")
    set_theme(page, "light")
    _theme_is(page, root, "light")
    violations += axe_violations(page, root, "play/light")
    assert not violations, "\n".join(violations)
    assert notebook7.kernel_json("hotseat.ipynb", "hs.game.active_player") == 1
    assert page.refused == [], page.refused  # Notebook 7 and the widget need no network
    no_widget_errors(page)


@pytest.fixture(scope="module")
def marimo() -> Iterator[Marimo]:
    require_chromium()
    with marimo_app(MARIMO_NOTEBOOK, theme="light") as app:
        yield app


def _open_marimo(browser: Any, app: Marimo) -> tuple[Any, Any, list[str]]:  # noqa: F811
    """The notebook in a browser whose own colour scheme is dark, with nothing but the local
    server reachable; a fresh marimo session (``marimo run`` starts one per page)."""
    page = new_page(browser, width=1100, height=1300, dark=True)
    refused = local_only(page, app.url)
    page.goto(app.url)
    page.wait_for_selector(".leyline[data-mode=play] .ll-grid", timeout=60_000)
    return page, page.locator(".leyline[data-mode=play]").first, refused


def test_marimo_renders_answers_clicks_and_follows_its_theme(
        marimo: Marimo, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page, root, refused = _open_marimo(browser, marimo)
    # marimo says light; the browser (prefers-color-scheme) says dark: the board is light.
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    assert "light" in page.evaluate("() => document.body.className")
    _theme_is(page, root, "light")
    page.screenshot(path=str(output_dir / "marimo-page-light-os-dark.png"))
    root.screenshot(path=str(output_dir / "marimo-deal-light.png"))
    scan_seat(root)
    press_ready(page, root)
    scan_seat(root)

    click_and_wait(page, root, root.locator("[data-act=card][data-slot='3']"))
    state = widget_state(root)
    assert state["step"] == 1 and state["cards"][3]["card"] == "active"
    assert state["cards"][3]["element"]
    root.locator("[data-act=card][data-slot='3']").focus()
    page.keyboard.press("ArrowRight")
    ack = root.get_attribute("data-ack")
    page.keyboard.press("Enter")
    page.wait_for_function("([el, a]) => el.dataset.ack !== a", arg=[root.element_handle(), ack])
    state = widget_state(root)
    assert state["step"] == 2 and state["cards"][4]["card"] == "active"
    assert "1 of 3 left" in state["prompt"], state["prompt"]
    root.screenshot(path=str(output_dir / "marimo-play-light.png"))
    violations = axe_violations(page, root, "marimo/light")

    _to_handoff(page, root)
    _check_handoff(root, "Grace")
    root.screenshot(path=str(output_dir / "marimo-handoff-light.png"))
    click_and_wait(page, root, root.locator("[data-act=handoff-ready]"))
    scan_seat(root)
    assert widget_state(root)["prompt"].startswith("Grace")

    # marimo switched to dark (its setting, read at the next page load): the board is dark.
    marimo.set_theme("dark")
    try:
        dark, droot, refused_dark = _open_marimo(browser, marimo)
    finally:
        marimo.set_theme("light")
    assert "dark" in dark.evaluate("() => document.body.className")
    _theme_is(dark, droot, "dark")
    press_ready(dark, droot)
    click_and_wait(dark, droot, droot.locator("[data-act=card][data-slot='0']"))
    assert widget_state(droot)["cards"][0]["card"] == "active"
    droot.screenshot(path=str(output_dir / "marimo-play-dark.png"))
    dark.screenshot(path=str(output_dir / "marimo-page-dark.png"))
    violations += axe_violations(dark, droot, "marimo/dark")
    # A switch while the page is open (as marimo's settings menu does) repaints the board.
    dark.evaluate("() => { document.body.classList.replace('dark', 'light'); "
                  "document.body.classList.replace('dark-theme', 'light-theme'); }")
    _theme_is(dark, droot, "light")
    assert not violations, "\n".join(violations)
    assert refused == [] and refused_dark == [], refused + refused_dark
    for p in (page, dark):
        no_widget_errors(p)


@pytest.fixture(scope="module")
def marimo_editor() -> Iterator[Marimo]:
    require_chromium()
    with marimo_app(MARIMO_NOTEBOOK, mode="edit") as app:
        yield app


def _marimo_cells(page: Any) -> int:
    return int(page.evaluate("() => document.querySelectorAll('.marimo-cell').length"))


def test_marimo_editor_shortcuts_stay_out_of_the_widget(
        marimo_editor: Marimo, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = new_page(browser, width=1200, height=1000)
    refused = local_only(page, marimo_editor.url)
    page.goto(marimo_editor.url)
    page.wait_for_selector(".leyline[data-mode=play] .ll-grid", timeout=90_000)
    root = page.locator(".leyline[data-mode=play]").first
    press_ready(page, root)
    click_and_wait(page, root, root.locator("[data-act=card][data-slot='3']"))
    # marimo's command mode (Escape, then d d deletes a cell, a / b insert one): not from a card.
    before = _marimo_cells(page)
    root.locator("[data-act=card][data-slot='5']").focus()
    for key in ["Escape", "d", "d", "a", "b", "x", "z"]:
        page.keyboard.press(key)
    _settle(page)
    assert _marimo_cells(page) == before
    assert widget_state(root)["step"] == 1
    root.screenshot(path=str(output_dir / "marimo-editor-light.png"))
    # The same keys do reach marimo from one of its cells (so the check above could fail).
    page.locator(".marimo-cell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("a")
    page.wait_for_function("(n) => document.querySelectorAll('.marimo-cell').length === n + 1",
                           arg=before, timeout=15_000)
    assert refused == [], refused
