"""The widget in a real JupyterLab, driven through headless Chromium by clicks and keys only.

One server serves both tests: examples/01_play.ipynb itself, and a copy-style notebook with a
smaller ruleset so that a whole solo game by clicking stays short. Screenshots of each phase
(light and dark theme) go to test-output/<test>/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    EXAMPLES,
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
from browser_support import notebook_json as make_notebook

pytestmark = [pytest.mark.browser, pytest.mark.jupyter]

SMALL_GAME = make_notebook([
    "from leyline_widget import LeylineWidget, Rules\n"
    "rules = Rules.default().replace(cards_per_element=4, grid_rows=2, grid_cols=3)",
    "w = LeylineWidget(players=['You'], seed=3, rules=rules, reveal_ms=2500)\nw",
], markdown="# A short solo game (test copy)")

lab = lab_fixture({"01_play.ipynb": EXAMPLES / "01_play.ipynb", "small_game.ipynb": SMALL_GAME})


def test_play_notebook_runs_and_answers_clicks_and_keys(lab: Lab, browser: Any,  # noqa: F811
                                                        output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "01_play.ipynb", height=1300)
    run_all_cells(page, widgets=3)
    solo, duel = page.locator(".leyline").nth(0), page.locator(".leyline").nth(1)
    solo.scroll_into_view_if_needed()
    solo.screenshot(path=str(output_dir / "solo-light-setup.png"))
    first = widget_state(solo)
    assert first["phase"] == "activation" and len(first["cards"]) == 12
    assert {c["card"] for c in first["cards"]} == {"inert"}
    assert all(c["element"] is None for c in first["cards"])  # the deal waits for Ready
    solo.locator("[data-act=deal-ready]").click()
    duel.locator("[data-act=deal-ready]").click()
    # Set-up reveal: the cards are shown element-up briefly, then turn inert.
    page.wait_for_function("(el) => !el.querySelector('.ll-glimpse')", arg=solo.element_handle(),
                           timeout=10_000)
    assert all(c["element"] is None for c in widget_state(solo)["cards"])

    # A click: the card turns active, and the kernel's game agrees.
    click_and_wait(page, solo, solo.locator("[data-act=card][data-slot='3']"))
    state = widget_state(solo)
    assert state["cards"][3]["card"] == "active" and state["cards"][3]["element"]
    assert lab.kernel_json("01_play.ipynb", "[solo.game.step, solo.game.card(3)]") == [
        1, state["cards"][3]["element"]]

    # Keyboard only: focus the grid, move right, press Enter to activate slot 4.
    solo.locator("[data-act=card][data-slot='3']").focus()
    ack = solo.get_attribute("data-ack")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.slot") == "4"
    page.keyboard.press("Enter")
    page.wait_for_function("([el, a]) => el.dataset.ack !== a", arg=[solo.element_handle(), ack])
    assert widget_state(solo)["cards"][4]["card"] == "active"
    # A third activation, then a fourth click: refused in words, and nothing changes.
    click_and_wait(page, solo, solo.locator("[data-act=card][data-slot='5']"))
    before = lab.kernel_json("01_play.ipynb", "solo.game.step")
    click_and_wait(page, solo, solo.locator("[data-act=card][data-slot='6']"))
    assert "used all 3 activations" in widget_state(solo)["error"]
    assert widget_state(solo)["cards"][6]["card"] == "inert"
    assert lab.kernel_json("01_play.ipynb", "solo.game.step") == before == 3
    solo.screenshot(path=str(output_dir / "solo-light-refusal.png"))

    # Against a bot: pass and end the turn; the bot then plays by itself, step by step.
    duel.scroll_into_view_if_needed()
    # A pass with an empty Study: no token can be placed, so the turn ends by itself.
    click_and_wait(page, duel, duel.locator("[data-act=end]"))   # pass
    page.wait_for_function("(el) => Number(el.dataset.step) >= 3", arg=duel.element_handle())
    duel.screenshot(path=str(output_dir / "duel-light-bot-turn.png"))
    assert re.search(r"Expert bot is playing|You", widget_state(duel)["prompt"])
    page.wait_for_function(
        "(el) => el.querySelector('.ll-prompt').textContent.startsWith('You:')",
        arg=duel.element_handle(), timeout=30_000)
    steps = lab.kernel_json("01_play.ipynb", "[duel.game.step, duel.game.active_player]")
    assert steps[0] == widget_state(duel)["step"] and steps[1] == 0
    assert "bot" not in widget_state(duel)["error"].lower()

    set_theme(page, "dark")
    solo.scroll_into_view_if_needed()
    solo.screenshot(path=str(output_dir / "solo-dark.png"))
    duel.screenshot(path=str(output_dir / "duel-dark.png"))
    no_widget_errors(page)


def _learn(known: dict[int, str], state: dict[str, Any]) -> None:
    for c in state["cards"]:
        if c["card"] == "empty":
            known.pop(c["slot"], None)
        elif c["element"]:
            known[c["slot"]] = c["element"]


def _activation_choice(known: dict[int, str], state: dict[str, Any],
                       tried: set[int]) -> int | None:
    """The card a player with a good memory clicks next, or None to collect/pass."""
    cards = state["cards"]
    legal = [c["slot"] for c in cards if c["card"] == "inert" and "ll-legal" in c["cls"]]
    active = [known[c["slot"]] for c in cards if c["card"] == "active" and c["slot"] in known]
    left = int(re.search(r"(\d+) of (\d+) left", state["prompt"]).group(1)) if re.search(
        r"(\d+) of (\d+) left", state["prompt"]) else 0
    if left <= 0:
        return None
    for s in legal:  # complete a pair with the card already up
        if s in known and known[s] in active:
            return s
    by_el: dict[str, list[int]] = {}
    for s in legal:
        if s in known:
            by_el.setdefault(known[s], []).append(s)
    pairs = [slots for slots in by_el.values() if len(slots) >= 2]
    if pairs and left >= 2 and not active:
        return pairs[0][0]
    unknown = [s for s in legal if s not in known and s not in tried]
    if unknown and (not active or left >= 1):
        return unknown[0]
    return None


def test_a_whole_solo_game_by_clicking(lab: Lab, browser: Any,  # noqa: F811
                                       output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "small_game.ipynb", width=1000, height=1100)
    run_all_cells(page, widgets=1)
    root = page.locator(".leyline").first
    known: dict[int, str] = {}
    shots: set[str] = set()
    placed = used_power = False
    clicks = 0
    tried: set[int] = set()
    turn = 0
    root.locator("[data-act=deal-ready]").click()
    page.wait_for_selector(".leyline .ll-glimpse", timeout=15_000)
    while clicks < 400:
        state = widget_state(root)
        _learn(known, state)
        phase = state["phase"]
        if phase not in shots:
            shots.add(phase)
            root.screenshot(path=str(output_dir / f"{len(shots)}-{phase}.png"))
        if state["over"]:
            break
        if state["turn"] != turn:
            turn, tried = state["turn"], set()
        clicks += 1
        if phase == "abilities":
            usable = root.locator(".ll-power.ll-usable")
            if not used_power and usable.count():
                usable.first.click()
                page.wait_for_selector(".leyline .ll-powerinfo")
                spec = page.locator(".leyline .ll-prompt").text_content() or ""
                need = re.search(r"click (\d+)", spec)
                if need:
                    for cand in root.locator(".ll-candidate").all()[:int(need.group(1))]:
                        cand.click()
                    if root.locator("[data-act=use-power]").count():
                        click_and_wait(page, root, root.locator("[data-act=use-power]"))
                    else:
                        page.wait_for_timeout(300)
                else:
                    click_and_wait(page, root, root.locator("[data-act=use-power]"))
                used_power = True
                root.screenshot(path=str(output_dir / "power-used.png"))
            else:  # Phase 1's choice: no power this turn
                click_and_wait(page, root, root.locator("[data-act=no-power]"))
        elif phase == "activation":
            slot = _activation_choice(known, state, tried)
            if slot is None:
                click_and_wait(page, root, root.locator("[data-act=end]"))
            else:
                tried.add(slot)
                click_and_wait(page, root, root.locator(f"[data-act=card][data-slot='{slot}']"))
        elif phase == "refill":
            click_and_wait(page, root, root.locator("[data-act=card].ll-legal").first)
        elif phase == "binding":
            ok = root.locator("[data-act=source].ll-ok")
            if not placed and ok.count():
                ok.first.click()
                page.wait_for_selector(".leyline [data-act=source][aria-pressed=true]")
                root.screenshot(path=str(output_dir / "binding-source-chosen.png"))
                click_and_wait(page, root, root.locator("[data-act=card][data-card=inert]").first)
                placed = True
            else:
                click_and_wait(page, root, root.locator("[data-act=end]"))
        assert not widget_state(root)["error"].strip(" ×"), widget_state(root)["error"]
    final = widget_state(root)
    assert final["over"], f"the game did not end in {clicks} clicks"
    kernel = lab.kernel_json("small_game.ipynb",
                             "dict(over=w.game.is_over, step=w.game.step, turn=w.game.turn, "
                             "study=w.game.study(0), score=w.game.scores()[0], "
                             "grid=[c['card'] for c in w.game.observation(0)['grid']])")
    assert kernel["over"]
    assert kernel["step"] == final["step"]
    assert kernel["turn"] == final["turn"]
    assert kernel["study"] == final["study"]
    assert kernel["score"] == final["score"]
    assert kernel["grid"] == [c["card"] for c in final["cards"]]
    over_text = root.locator(".ll-over").text_content() or ""
    assert f"Final score {kernel['score']}" in over_text
    assert {"activation", "refill", "binding", "game_over"} <= shots, shots
    set_theme(page, "dark")
    root.screenshot(path=str(output_dir / "game-over-dark.png"))


def test_the_server_loaded_the_nodelay_extension(lab: Lab) -> None:
    # Enabled for this server (opt-in, widgets/server.py): the kernel's websockets run without
    # Nagle's algorithm, so a click's update no longer waits on a delayed acknowledgement.
    assert "kernel websockets send without delay (TCP_NODELAY)" in lab.log.read_text("utf-8")
