"""The replay studio in real Chromium: the offline pages (moves by turn, glyphs, score graph,
downloads from the book, the deal at step 0 on a player's page, the study's chapter menu) and
ReplayWidget in a real JupyterLab (branch from the board, promote, glyph, download buttons,
guess the move). Screenshots go to test-output/<test>/.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    ELEMENT_WORDS,
    Lab,
    browser,  # noqa: F401  (a pytest fixture)
    click_and_wait,
    lab_fixture,
    new_page,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    run_all_cells,
)
from browser_support import notebook_json as make_notebook
from support import lively

from leyline_widget import Game, Refill, Replay, Study, replay_html, study_html

pytestmark = pytest.mark.browser


def _replay(seed: int = 3, limit: int = 80, players: tuple[str, ...] = ("Ada", "Bo")) -> Replay:
    game = Game.new(players=list(players), seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.step < limit:
        game.apply(lively(game, rng))
    return Replay.from_game(game)


def _open(browser: Any, path: Path, **kwargs: Any) -> Any:  # noqa: F811
    page = new_page(browser, **kwargs)
    page.context.set_offline(True)
    page.goto(path.resolve().as_uri())
    page.wait_for_selector(".leyline.ll-replay .ll-grid", timeout=30_000)
    return page


def _step(page: Any, root: Any, step: int) -> None:
    page.wait_for_function("([el, s]) => Number(el.dataset.step) === s",
                           arg=[root.element_handle(), step], timeout=15_000)


#: Whether the move list shows its current move (scrolled within the list's own box).
_CURRENT_IN_VIEW = """(el) => {
  const box = el.querySelector('.ll-movelist').getBoundingClientRect();
  const cur = el.querySelector('.ll-movelist .ll-current').getBoundingClientRect();
  return cur.top >= box.top && cur.bottom <= box.bottom;
}"""


def _download(page: Any, target: Any, folder: Path) -> Path:
    with page.expect_download(timeout=30_000) as info:
        target.click()
    download = info.value
    path = folder / download.suggested_filename
    download.save_as(str(path))
    return path


def test_offline_page_moves_by_turn_glyphs_graph_and_downloads(
        browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _replay()
    replay.set_glyph(5, "?")
    replay.set_glyph(9, "!!")
    side = replay.add_variation(6, [replay.game_at(6).legal_actions()[-1]], name="Ada passes")
    path = replay_html(replay, output_dir / "teacher.html", step=8)
    page = _open(browser, path, width=1200, height=1500)
    root = page.locator(".leyline").first
    # One row per turn, its moves as buttons; the current move highlighted.
    rows = root.locator(".ll-turnrow")
    assert 2 < rows.count() < len(replay) / 2, "grouped by turn, not one row per action"
    assert root.locator(".ll-move.ll-current").get_attribute("data-step") == "8"
    assert root.locator('.ll-move[data-step="5"] .ll-glyph').text_content() == "?"
    # The variation shows inline under the move it branches from.
    branch = root.locator('.ll-branch[data-after="6"]')
    assert "Ada passes" in (branch.text_content() or "")
    # The score graph: a click seeks.
    graph = root.locator("[data-act=graph]")
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] * 0.5, "y": box["height"] / 2})
    _step(page, root, round(len(replay) * 0.5))
    # A seek scrolls the move list (not the page) to the current move.
    root.locator("[data-act=last]").click()
    _step(page, root, len(replay))
    page.wait_for_function(_CURRENT_IN_VIEW, arg=root.element_handle())
    root.locator('.ll-move[data-step="3"]').click()
    _step(page, root, 3)
    root.screenshot(path=str(output_dir / "teacher-page.png"))
    # Downloads come from the book: the replay file and the Markdown.
    saved = _download(page, root.locator("[data-act=download][data-kind=json]"), output_dir)
    assert Replay.load(saved).glyphs == {5: "?", 9: "!!"}
    md = _download(page, root.locator("[data-act=download][data-kind=markdown]"), output_dir)
    assert md.read_text("utf-8").startswith("# Leyline replay: Ada, Bo")
    # The variation from the tree.
    branch.locator(f'[data-act=line-go][data-variation="{side.id}"]').click()
    page.wait_for_function("(el) => el.dataset.variation === '1'", arg=root.element_handle())
    assert not page.errors, page.errors


def test_a_players_page_opens_on_the_deal_with_ready(
        browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _replay(seed=5, limit=40)
    path = replay_html(replay, output_dir / "bo.html", viewer=1)
    page = _open(browser, path, width=1100, height=1300)
    root = page.locator(".leyline").first
    dealt = [c["element"] for c in replay.game_at(0).observation(None)["grid"]]
    shown = root.evaluate("(el) => [...el.querySelectorAll('[data-act=card]')]"
                          ".map((c) => c.dataset.element || null)")
    assert shown == dealt, "step 0 shows the deal every player saw"
    root.screenshot(path=str(output_dir / "bo-deal.png"))
    root.locator("[data-act=ready]").click()
    page.wait_for_function("(el) => !el.querySelector('[data-act=card][data-element]')",
                           arg=root.element_handle())
    assert root.locator("[data-act=download][data-kind=json]").count() == 0, \
        "a player's page never holds the replay file (it names every card)"
    assert root.locator("[data-act=download][data-kind=markdown]").count() == 1
    root.screenshot(path=str(output_dir / "bo-ready.png"))
    # A refill is glimpsed, then the card lies inert: the words that stay (the prompt, "What
    # happened", the move list) do not name it.
    refill = next(k for k, a in enumerate(replay.actions, 1) if isinstance(a, Refill))
    root.locator(f'.ll-move[data-step="{refill}"]').click()
    _step(page, root, refill)
    page.wait_for_function("(el) => !el.querySelector('[data-act=card][data-element]')",
                           arg=root.element_handle())
    words = root.evaluate("(el) => el.querySelector('.ll-prompt').textContent + ' | ' + "
                          "el.querySelector('.ll-happened').textContent")
    assert "refill" in words.lower() and not ELEMENT_WORDS.search(words), words
    _no_inert_element(root)
    assert not page.errors, page.errors


def test_study_page_has_a_chapter_menu(browser: Any, output_dir: Path) -> None:  # noqa: F811
    study = Study("Two openings", notes="Compare how each seat starts")
    study.add(_replay(seed=3, limit=30), "Ada and Bo", notes="A quiet start")
    study.add(_replay(seed=8, limit=20, players=("Cy", "Di", "Ed")), "Three seats")
    path = study_html(study, output_dir / "study.html")
    page = _open(browser, path, width=1200, height=1400)
    chapters = page.locator("[data-act=chapter]")
    assert chapters.count() == 2
    assert page.locator(".ll-chapternotes").text_content() == "A quiet start"
    chapters.nth(1).click()
    page.wait_for_function("() => document.querySelector('.ll-chapternotes').textContent === ''")
    page.wait_for_selector(".leyline.ll-replay .ll-grid")
    assert page.locator("select[data-act=viewer] option").count() == 4  # teacher + 3 seats
    page.screenshot(path=str(output_dir / "study-chapter-2.png"), full_page=True)
    saved = _download(page, page.locator("[data-act=study-download]"), output_dir)
    assert [c.name for c in Study.load(saved).chapters] == ["Ada and Bo", "Three seats"]
    assert not page.errors, page.errors


# ---------------------------------------------------------------------------- JupyterLab
STUDIO_NOTEBOOK = make_notebook([
    "import random\n"
    "from leyline_widget import Game, Replay, ReplayWidget\n"
    "game = Game.new(players=['Ada', 'Bo'], seed=5)\n"
    "rng = random.Random(5)\n"
    "while game.step < 40 and not game.is_over:\n"
    "    game.apply(rng.choice(game.legal_actions()))\n"
    "replay = Replay.from_game(game)",
    "r = ReplayWidget(replay, step=4, explore=True)\nr",
    "t = ReplayWidget(Replay.from_game(game), train=0)\nt",
], markdown="# The replay studio (test notebook)")



def _explore_replay() -> tuple[Replay, int, int]:
    """A lively game with a two-target power usable in Phase 1 (step ``power``) and a Binding
    phase of seat 0 that can pay for a token (step ``binding``)."""
    from leyline_widget import Phase, PlaceToken, UsePower

    game = Game.new(players=["Ada", "Bo"], seed=6)
    rng = random.Random(6)
    power = binding = None
    while not game.is_over and game.step < 200:
        legal = game.legal_actions()
        if power is None and game.phase is Phase.ABILITIES and any(
                isinstance(a, UsePower) and len(a.targets) == 2 for a in legal):
            power = game.step
        if binding is None and game.phase is Phase.BINDING and game.active_player == 0 and any(
                isinstance(a, PlaceToken) and a.source == "supply" for a in legal):
            binding = game.step
        game.apply(lively(game, rng))
    assert power is not None and binding is not None, "seed 6 no longer reaches both"
    return Replay.from_game(game), power, binding


EXPLORE_REPLAY, POWER_STEP, BINDING_STEP = _explore_replay()
EXPLORE_NOTEBOOK = make_notebook([
    "from leyline_widget import Replay, ReplayWidget\n"
    f"text = {EXPLORE_REPLAY.to_json()!r}\n"
    "replay, replay2 = Replay.from_json(text), Replay.from_json(text)",
    f"r = ReplayWidget(replay, step={POWER_STEP}, explore=True)\nr",
    # A player's page where the author allows exploring.
    f"b = ReplayWidget(replay2, step={BINDING_STEP}, viewer=0, allow_all_seeing=False, "
    "allow_explore=True, explore=True)\nb",
], markdown="# Explore on the board (test notebook)")

lab = lab_fixture({"studio.ipynb": STUDIO_NOTEBOOK, "explore.ipynb": EXPLORE_NOTEBOOK})


def _no_inert_element(root: Any) -> None:
    """No inert card on a seat's page carries its element, and the move list (every step at
    once) names no activated or refilled card's element: most of them lie face-down now."""
    assert all(c is None for c in root.evaluate(
        "(el) => [...el.querySelectorAll('[data-act=card][data-card=inert]')]"
        ".map((c) => c.dataset.element || null)"))
    moves = root.evaluate("(el) => [...el.querySelectorAll('.ll-move')].map((m) => m.textContent)")
    assert moves, "the move list is on the page"
    named = [m for m in moves if re.match(r"[↑+]\d+ \w", m)]
    assert named == [], f"moves naming a card's element on a seat's page: {named[:5]}"


def _kernel(lab: Lab, expr: str) -> Any:
    return lab.kernel_json("studio.ipynb", expr)


@pytest.mark.jupyter
def test_studio_in_jupyterlab(lab: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "studio.ipynb", height=1800)
    page.context.set_default_timeout(30_000)
    run_all_cells(page, widgets=2)
    root = page.locator(".leyline.ll-replay").first
    root.scroll_into_view_if_needed()
    _step(page, root, 4)
    assert root.locator(".ll-turnrow").count() < 41 / 2

    # Branch from the board: a legal card other than the recorded move.
    recorded, legal = _kernel(lab, "[replay.actions[4].to_dict(), r.legal.get('activate', [])]")
    slot = next(s for s in legal if recorded != {"type": "activate", "slot": s})
    click_and_wait(page, root, root.locator(f'[data-act=card][data-slot="{slot}"]'))
    assert _kernel(lab, "[(v.step, [a.to_dict() for a in v.actions]) for v in replay.variations]"
                   ) == [[4, [{"type": "activate", "slot": slot}]]]
    page.wait_for_function("(el) => el.dataset.variation === '1'", arg=root.element_handle())
    _step(page, root, 5)
    # A glyph on that move.
    click_and_wait(page, root, root.locator('[data-act=glyph][data-glyph="!?"]'))
    assert _kernel(lab, "replay.variation(1).glyphs") == {"5": "!?"}
    root.screenshot(path=str(output_dir / "lab-branched.png"))
    # Promote it: the main line now plays that move.
    click_and_wait(page, root, root.locator('[data-act=var-promote][data-variation="1"]'))
    assert _kernel(lab, "[replay.actions[4].to_dict(), len(replay), replay.glyphs]") == [
        {"type": "activate", "slot": slot}, 5, {"5": "!?"}]
    page.wait_for_function("(el) => el.dataset.variation === '0'", arg=root.element_handle())
    # Downloads: the kernel builds the file only when asked; the page saves it.
    saved = _download(page, root.locator("[data-act=download][data-kind=json]"), output_dir)
    assert len(Replay.load(saved)) == 5
    md = _download(page, root.locator("[data-act=download][data-kind=markdown]"), output_dir)
    assert md.read_text("utf-8").startswith("# Leyline replay")
    html = _download(page, root.locator('[data-act=download][data-kind=html][data-viewer="1"]'),
                     output_dir)
    assert "leyline-replay-book" in html.read_text("utf-8")
    root.screenshot(path=str(output_dir / "lab-promoted.png"))

    # Guess the move, as seat 0 (Ada).
    train = page.locator(".leyline.ll-replay").nth(1)
    train.scroll_into_view_if_needed()
    train.locator("[data-act=ready]").click()  # the deal at step 0: the page's own button
    page.wait_for_function("(el) => !el.querySelector('[data-act=ready]')",
                           arg=train.element_handle())
    assert train.locator(".ll-train").count() == 1
    played = _kernel(lab, "t.replay.actions[0].to_dict()")
    options = train.locator("select[data-act=choice] option")
    texts = [options.nth(i).text_content() for i in range(options.count())]
    choices = _kernel(lab, "[c['action'] for c in t.choices]")
    index = choices.index(played)
    train.locator("select[data-act=choice]").select_option(str(index))
    click_and_wait(page, train, train.locator("[data-act=play-choice]"))
    assert _kernel(lab, "[t.training['right'], t.training['total'], t.step]") == [1, 1, 1]
    page.wait_for_function(
        "(el) => el.querySelector('.ll-trainscore').textContent.includes('1 / 1')",
        arg=train.element_handle())
    assert len(texts) == len(choices)
    _no_inert_element(train)
    train.screenshot(path=str(output_dir / "lab-guess.png"))
    no_widget_errors(page)


@pytest.mark.jupyter
def test_explore_powers_and_tokens_on_the_board(
        lab: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "explore.ipynb", height=1800)
    page.context.set_default_timeout(30_000)
    run_all_cells(page, widgets=2)

    def kernel(expr: str) -> Any:
        return lab.kernel_json("explore.ipynb", expr)

    # A power with two targets, from the teacher's page: its button, then two cards.
    root = page.locator(".leyline.ll-replay").first
    root.scroll_into_view_if_needed()
    _step(page, root, POWER_STEP)
    key, slots = kernel("next([k, v['slots']] for k, v in r.legal['powers'].items() "
                        "if v['max'] == 2)")
    a, b = slots[0], slots[1]
    before = kernel("[c['element'] for c in "
                    f"replay.game_at({POWER_STEP}).observation(None)['grid']]")
    root.locator(f'[data-act=power][data-key="{key}"]').click()
    page.wait_for_selector(".ll-powerinfo")
    root.locator(f'[data-act=card][data-slot="{a}"]').click()
    page.wait_for_function(f"(el) => el.querySelector('[data-act=card][data-slot=\"{a}\"]')"
                           ".classList.contains('ll-chosen')", arg=root.element_handle())
    root.screenshot(path=str(output_dir / "explore-power-target.png"))
    click_and_wait(page, root, root.locator(f'[data-act=card][data-slot="{b}"]'))
    element, tier = key.split(":")
    assert kernel("[(v.step, [x.to_dict() for x in v.actions]) for v in replay.variations]") == [
        [POWER_STEP, [{"type": "use_power", "element": element, "tier": tier,
                       "targets": [a, b]}]]]
    page.wait_for_function("(el) => el.dataset.variation === '1'", arg=root.element_handle())
    _step(page, root, POWER_STEP + 1)
    after = kernel("[c['element'] for c in r.game.observation(None)['grid']]")
    if key == "water:minor":  # Ripple: the two cards swapped, on the board as in the kernel
        assert (after[a], after[b]) == (before[b], before[a])
        assert root.locator(f'[data-act=card][data-slot="{a}"]').get_attribute(
            "data-element") == before[b]
    assert root.locator(".ll-powerinfo").count() == 0
    root.screenshot(path=str(output_dir / "explore-power-played.png"))

    # A Binding token on a player's page (exploring allowed by the author): element and
    # source, then the card.
    seat = page.locator(".leyline.ll-replay").nth(1)
    seat.scroll_into_view_if_needed()
    _step(page, seat, BINDING_STEP)
    token = kernel("next(c['action'] for c in b.choices if c['action']['type'] == 'place_token' "
                   "and c['action']['source'] == 'supply')")
    slot, el = token["slot"], token["element"]
    seat.locator(f'[data-act=card][data-slot="{slot}"]').click()
    page.wait_for_function("(el) => /Pick an element and a source/.test("
                           "el.querySelector('.ll-error').textContent)", arg=seat.element_handle())
    seat.locator(f'[data-act=source][data-element="{el}"][data-source=supply]').click()
    page.wait_for_function(f"(el) => el.querySelector('[data-act=source][data-element={el}]"
                           "[data-source=supply]').getAttribute('aria-pressed') === 'true'",
                           arg=seat.element_handle())
    seat.screenshot(path=str(output_dir / "explore-token-source.png"))
    click_and_wait(page, seat, seat.locator(f'[data-act=card][data-slot="{slot}"]'))
    assert kernel("[(v.step, [x.to_dict() for x in v.actions]) for v in replay2.variations]") == [
        [BINDING_STEP, [token]]]
    _step(page, seat, BINDING_STEP + 1)
    had = kernel(f"replay2.game_at({BINDING_STEP}).observation(0)['grid'][{slot}]['tokens']"
                 f".get('{el}', 0)")
    assert kernel(f"b.game.observation(0)['grid'][{slot}]['tokens'].get('{el}', 0)") == had + 1
    assert seat.locator(f'[data-act=card][data-slot="{slot}"] .ll-token[data-element="{el}"]'
                        ).count() == 1
    # The seat's page never shows an element that seat cannot see now: not in the synced
    # state, not on the page.
    assert all(e is None for e in kernel(
        "[c['element'] for c in b.view['grid'] if c['card'] == 'inert']"))
    _no_inert_element(seat)
    seat.screenshot(path=str(output_dir / "explore-token-placed.png"))
    no_widget_errors(page)
