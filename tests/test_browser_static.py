"""A static HTML export of the widget (no kernel), opened in headless Chromium from disk with
the network off: the default page is one self-contained file, read-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    browser,  # noqa: F401  (a pytest fixture)
    open_static,
    output_dir,  # noqa: F401  (a pytest fixture)
    widget_state,
)

from leyline_widget import Activate, EndPhase, Game
from leyline_widget.widgets.play import LeylineWidget

pytestmark = pytest.mark.browser


def _played() -> LeylineWidget:
    """A two-player game a few moves in: an active card, a collection, tokens on the grid."""
    w = LeylineWidget(Game.new(players=["Ada", "Grace"], seed=7))
    w.play(Activate(0))
    w.play(Activate(1))
    return w


@pytest.mark.parametrize("assets", ["inline", "copy"])
def test_static_html_renders_the_board(browser: Any, output_dir: Path,  # noqa: F811
                                       assets: str) -> None:
    w = _played()
    page_path = w.to_html(output_dir / "game.html", title="Leyline export", assets=assets)
    page = open_static(browser, page_path, width=900, height=1000)
    root = page.locator(".leyline").first
    state = widget_state(root)
    view = w.view
    assert state["phase"] == view["phase"] and state["step"] == w.game.step
    assert [c["card"] for c in state["cards"]] == [c["card"] for c in view["grid"]]
    page.wait_for_function("(el) => !el.querySelector('.ll-glimpse')", arg=root.element_handle(),
                           timeout=10_000)
    for shown, cell in zip(widget_state(root)["cards"], view["grid"]):
        assert shown["element"] == (cell["element"] if cell["card"] == "active" else None)
    assert page.title() == "Leyline export"
    assert "Grace" in (root.locator(".ll-scores").text_content() or "")
    root.screenshot(path=str(output_dir / f"static-{assets}.png"))
    assert not [e for e in page.errors if "cdn" in e.lower() or "failed" in e.lower()], page.errors
    if assets == "inline":
        assert page_path.stat().st_size < 300 * 1024
        note = page.locator("#leyline-board-note")
        assert "cannot reach a kernel" in (note.text_content() or "")
        before = w.game.state_hash()
        # Nothing is clickable; a click on a card changes nothing (there is no kernel).
        root.locator("[data-act=card]").first.click(force=True)
        assert widget_state(root)["step"] == w.game.step and w.game.state_hash() == before


def test_static_html_in_dark_mode_and_game_over(browser: Any, output_dir: Path) -> None:  # noqa: F811
    w = LeylineWidget(players=["You", "greedy"], seed=3)
    while not w.game.is_over:
        if w.legal.get("bot"):
            w.step_bots(1)
        else:
            w.play(EndPhase())
    page_path = w.to_html(output_dir / "over.html")
    page = open_static(browser, page_path, width=900, height=1100, dark=True)
    root = page.locator(".leyline").first
    assert widget_state(root)["over"]
    text = root.locator(".ll-over").text_content() or ""
    assert "Winner" in text and "Greedy bot" in text
    root.screenshot(path=str(output_dir / "static-game-over.png"))
