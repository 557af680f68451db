"""Replays in real Chromium: the standalone page from file:// (offline, keys, untrusted notes),
and ReplayWidget in a real JupyterLab (scrub, two-way step, add and edit a note).

Screenshots go to test-output/<test>/.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    Lab,
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_fixture,
    new_page,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    run_all_cells,
    set_theme,
)
from browser_support import notebook_json as make_notebook
from support import lively

from leyline_widget import Game, Replay, replay_html

pytestmark = pytest.mark.browser

EVIL = '<img src=x onerror="window.__pwned = 1; document.title = \'pwned\'">'


def _replay(seed: int = 3, limit: int = 80) -> Replay:
    game = Game.new(players=["Ada", "Bo"], seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.step < limit:
        game.apply(lively(game, rng))
    return Replay.from_game(game)


def _shown(root: Any) -> dict[str, Any]:
    """What the replay page shows: its step and every card's state and element."""
    return root.evaluate("""(el) => ({
        step: Number(el.dataset.step), last: Number(el.dataset.last), viewer: el.dataset.viewer,
        cards: [...el.querySelectorAll('[data-act=card]')].map((c) => [c.dataset.card,
            c.dataset.element || null]),
        prompt: el.querySelector('.ll-prompt').textContent,
        notes: [...el.querySelectorAll('.ll-notetext')].map((n) => n.textContent),
    })""")


def _cards(replay: Replay, step: int, viewer: int | None) -> list[list[Any]]:
    grid = replay.game_at(step).observation(viewer)["grid"]
    return [[c["card"], c["element"]] for c in grid]


def _wait_step(page: Any, root: Any, step: int) -> None:
    page.wait_for_function("([el, s]) => Number(el.dataset.step) === s",
                           arg=[root.element_handle(), step], timeout=15_000)


def _open_offline(browser: Any, path: Path, **kwargs: Any) -> Any:  # noqa: F811
    """Open a page from disk with the network cut, noting every request it makes."""
    page = new_page(browser, **kwargs)
    page.context.set_offline(True)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.requests = requests
    page.goto(path.resolve().as_uri())
    page.wait_for_selector(".leyline.ll-replay .ll-grid", timeout=30_000)
    return page


def test_standalone_page_opens_offline_scrubs_by_keys_and_shows_notes_as_text(
        browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _replay()
    replay.annotate(3, EVIL, tags=["hint"], highlights=[0, 5])
    replay.annotate(3, "Bo will remember slot 2", tags=["spoiler"])
    path = replay_html(replay, output_dir / "replay.html", step=2, show_memory_of=1)
    page = _open_offline(browser, path, width=1100, height=1500)
    root = page.locator(".leyline").first
    title = page.title()
    state = _shown(root)
    assert state["step"] == 2 and state["last"] == len(replay)
    assert state["cards"] == _cards(replay, 2, None)

    # The keyboard: arrows on a control, End and Home; the slider's own keys too.
    page.locator("[data-act=forward]").focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    _wait_step(page, root, 5)
    assert _shown(root)["cards"] == _cards(replay, 5, None)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    _wait_step(page, root, 3)
    state = _shown(root)
    assert state["cards"] == _cards(replay, 3, None)

    # The untrusted note is text: no image element, no handler ran, the title is unchanged.
    assert state["notes"] == [EVIL], "the spoiler note starts hidden"
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0
    assert page.evaluate("() => window.__pwned") is None
    assert page.title() == title
    highlighted = root.evaluate(
        "(el) => [...el.querySelectorAll('.ll-card.ll-hl')].map((c) => Number(c.dataset.slot))")
    assert highlighted == [0, 5]
    root.screenshot(path=str(output_dir / "page-step-3.png"))
    root.locator("[data-act=toggle-hidden]").click()
    page.wait_for_function("(el) => el.querySelectorAll('.ll-notetext').length === 2",
                           arg=root.element_handle())
    assert root.locator("[data-act=note-new]").count() == 0, "the page's notes are read-only"

    page.keyboard.press("End")
    _wait_step(page, root, len(replay))
    assert _shown(root)["cards"] == _cards(replay, len(replay), None)
    page.keyboard.press("Home")
    _wait_step(page, root, 0)
    page.locator("[data-act=scrub]").focus()
    page.keyboard.press("ArrowRight")
    _wait_step(page, root, 1)

    # The viewer menu holds the players' views; the memory panel is the all-seeing view's.
    assert root.locator(".ll-memory").count() == 1
    page.select_option("select[data-act=viewer]", "0")
    page.wait_for_function("(el) => el.dataset.viewer === '0'", arg=root.element_handle())
    assert _shown(root)["cards"] == _cards(replay, 1, 0)
    assert root.locator(".ll-memory").count() == 0
    root.screenshot(path=str(output_dir / "page-viewer-ada.png"))
    assert all(url.startswith(("file:", "blob:")) for url in page.requests), page.requests
    assert not page.errors, page.errors


def test_a_players_page_shows_only_their_eyes(browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _replay(seed=5, limit=60)
    path = replay_html(replay, output_dir / "bo.html", viewer=1, reveal_ms=150)
    page = _open_offline(browser, path, width=1000, height=1300, dark=True)
    root = page.locator(".leyline").first
    options = page.evaluate("() => [...document.querySelectorAll("
                            "'select[data-act=viewer] option')].map((o) => o.value)")
    assert options == ["1"]
    page.locator("[data-act=forward]").focus()
    for step in range(1, len(replay) + 1, 7):
        while _shown(root)["step"] < step:
            page.keyboard.press("ArrowRight")
        _wait_step(page, root, step)
        # A step forward glimpses what it brought onto the grid (shown to everyone) for
        # reveal_ms; then no inert card shows an element.
        page.wait_for_function("(el) => !el.querySelector('.ll-glimpse')",
                               arg=root.element_handle(), timeout=5_000)
        shown = _shown(root)["cards"]
        assert shown == _cards(replay, step, 1)
        assert all(e is None for card, e in shown if card == "inert")
    root.screenshot(path=str(output_dir / "page-bo-dark.png"))
    assert not page.errors, page.errors


# ---------------------------------------------------------------------------- JupyterLab
REPLAY_NOTEBOOK = make_notebook([
    "import random\n"
    "from leyline_widget import Game, Replay, ReplayWidget\n"
    "game = Game.new(players=['Ada', 'Bo'], seed=5)\n"
    "rng = random.Random(5)\n"
    "while game.step < 40 and not game.is_over:\n"
    "    game.apply(rng.choice(game.legal_actions()))\n"
    "replay = Replay.from_game(game)",
    "r = ReplayWidget(replay, step=2, show_memory_of=0)\nr",
], markdown="# A replay (test notebook)")

lab = lab_fixture({"replay.ipynb": REPLAY_NOTEBOOK})


def _kernel(lab: Lab, expr: str) -> Any:
    return lab.kernel_json("replay.ipynb", expr)


@pytest.mark.jupyter
def test_replay_widget_in_jupyterlab_scrubs_and_edits_a_note(lab: Lab, browser: Any,  # noqa: F811
                                                             output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "replay.ipynb", height=1500)
    run_all_cells(page, widgets=1)
    root = page.locator(".leyline.ll-replay").first
    root.scroll_into_view_if_needed()
    _wait_step(page, root, 2)

    # Scrub by a button, by a key on it, and by the moves list; the kernel follows.
    root.locator("[data-act=forward]").click()
    _wait_step(page, root, 3)
    page.keyboard.press("ArrowRight")
    _wait_step(page, root, 4)
    assert _kernel(lab, "r.step") == 4
    root.locator('.ll-move[data-step="9"]').click()
    _wait_step(page, root, 9)
    assert _kernel(lab, "[r.step, r.view == replay.game_at(9).observation(None)]") == [9, True]
    # Python moves it too: the trait is two-way.
    lab.run_in_kernel("replay.ipynb", "r.step = 12")
    _wait_step(page, root, 12)
    assert _shown(root)["cards"] == [[c["card"], c["element"]] for c in
                                     _kernel(lab, "r.view['grid']")]
    root.screenshot(path=str(output_dir / "lab-step-12.png"))

    # A note from the page: typed text (markup stays text), tags, two cards pointed at.
    root.locator("[data-act=note-new]").click()
    root.locator("[data-act=note-text]").fill("Ada <b>forgets</b> slot 4")
    root.locator("[data-act=note-tags]").fill("hint, Mistake")
    root.locator('[data-act=card][data-slot="4"]').click()
    root.locator('[data-act=card][data-slot="1"]').click()
    click_and_wait(page, root, root.locator("[data-act=note-save]"))
    notes = _kernel(lab, "[(n.text, n.tags, n.highlights) for n in replay.annotations[12]]")
    assert notes == [["Ada <b>forgets</b> slot 4", ["hint", "mistake"], [1, 4]]]
    page.wait_for_function("(el) => el.querySelectorAll('.ll-notetext').length === 1",
                           arg=root.element_handle())
    assert _shown(root)["notes"] == ["Ada <b>forgets</b> slot 4"]
    assert root.locator(".ll-notetext b").count() == 0
    root.screenshot(path=str(output_dir / "lab-note-added.png"))

    # Edit it: the form opens filled in; the kernel keeps the note in its place.
    root.locator("[data-act=note-edit]").click()
    assert root.locator("[data-act=note-text]").input_value() == "Ada <b>forgets</b> slot 4"
    root.locator("[data-act=note-text]").fill("Ada forgets slot 4 (she saw it on turn 1)")
    click_and_wait(page, root, root.locator("[data-act=note-save]"))
    assert _kernel(lab, "[n.text for n in replay.annotations[12]]") == [
        "Ada forgets slot 4 (she saw it on turn 1)"]
    page.wait_for_function(
        "(el) => el.querySelector('.ll-notetext').textContent.includes('turn 1')",
        arg=root.element_handle())
    # A refused note (a bad tag) is explained and changes nothing.
    root.locator("[data-act=note-new]").click()
    root.locator("[data-act=note-text]").fill("x")
    root.locator("[data-act=note-tags]").fill("no!")
    click_and_wait(page, root, root.locator("[data-act=note-save]"))
    assert "is not a tag" in (root.locator("[role=alert]").text_content() or "")
    assert _kernel(lab, "len(replay.annotations[12])") == 1

    # The viewer menu: Bo's eyes hide the memory panel and every inert element.
    page.select_option(".ll-replay select[data-act=viewer]", "1")
    page.wait_for_function("(el) => el.dataset.viewer === '1'", arg=root.element_handle())
    assert _kernel(lab, "[r.viewer, r.memory]") == [1, {}]
    assert all(e is None for card, e in _shown(root)["cards"] if card == "inert")
    set_theme(page, "dark")
    root.screenshot(path=str(output_dir / "lab-bo-dark.png"))
    no_widget_errors(page)
