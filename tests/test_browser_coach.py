"""The coach on the offline replay page in real Chromium: the evaluation graph, verdict marks in
the move list and "Best was" at a reviewed move, from the book alone (file://, offline); a
player's page shows that seat's review only. Screenshots go to test-output/<test>/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    Lab,
    browser,  # noqa: F401  (a pytest fixture)
    lab_fixture,
    new_page,
    no_widget_errors,
    open_notebook,
    output_dir,  # noqa: F401  (a pytest fixture)
    run_all_cells,
)
from browser_support import notebook_json as make_notebook
from support import lively
from test_coach_words import face_up, hidden_names

from leyline_widget import Game, Replay, analyse, replay_html

pytestmark = pytest.mark.browser


def _analysed() -> Replay:
    game = Game.new(players=["Ada", "Bo"], seed=3)
    rng = random.Random(3)
    while not game.is_over and game.step < 80:
        game.apply(lively(game, rng))
    replay = Replay.from_game(game)
    for seat in (0, 1):
        replay.set_analysis(seat, analyse(replay, seat, budget=4).to_dict())
    return replay


def _open(browser: Any, path: Path) -> Any:  # noqa: F811
    page = new_page(browser, width=1200, height=1700)
    page.context.set_offline(True)
    page.goto(path.resolve().as_uri())
    page.wait_for_selector(".leyline.ll-replay .ll-grid", timeout=30_000)
    return page


def test_offline_page_shows_the_coach(browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _analysed()
    review = replay.analysis(0)
    assert review is not None
    marked = [m for m in review["moves"] if m["verdict"] in ("inaccuracy", "mistake", "blunder")]
    assert marked, "the sample game needs a slip to show"
    target = marked[0]["step"] + 1  # the step the move led to
    path = replay_html(replay, output_dir / "coach.html", step=target)
    page = _open(browser, path)
    root = page.locator(".leyline").first
    graph = root.locator(".ll-evalgraph")
    assert graph.is_visible()
    assert root.locator(".ll-evalgraph .ll-gpoint").count() == sum(
        len(a["moves"]) for a in replay.analyses.values())
    badge = root.locator(f'.ll-move[data-step="{target}"] .ll-verdict')
    assert badge.is_visible() and badge.get_attribute("aria-label") == marked[0]["verdict"]
    coach = root.locator(".ll-coach")
    assert marked[0]["reason"] in (coach.text_content() or "")
    assert "Best was:" in (coach.text_content() or "") or marked[0]["best"] == marked[0]["played"]
    # The whole panel (verdict line, "Best was", reason) names no card inert at that step.
    shown = replay.game_at(target)
    assert not hidden_names(coach.text_content() or "",
                            face_up(shown, shown.event_log[target]), shown.rules)
    root.screenshot(path=str(output_dir / "coach-teacher.png"))
    # A click on the graph seeks: a point goes to its step, elsewhere by position.
    other = review["moves"][-1]["step"] + 1
    root.locator(f'.ll-evalgraph .ll-gpoint[data-step="{other}"]').first.click(force=True)
    page.wait_for_function("([el, s]) => Number(el.dataset.step) === s",
                           arg=[root.element_handle(), other], timeout=15_000)
    box = graph.bounding_box()
    graph.click(position={"x": 2, "y": box["height"] - 3})
    page.wait_for_function("(el) => Number(el.dataset.step) <= 2", arg=root.element_handle(),
                           timeout=15_000)
    assert not page.errors, page.errors


def test_a_players_page_holds_its_own_review_only(browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _analysed()
    path = replay_html(replay, output_dir / "bo.html", viewer=1, step=len(replay))
    text = path.read_text("utf-8")
    own = {m["reason"] for m in (replay.analysis(1) or {})["moves"]}
    theirs = {m["reason"] for m in (replay.analysis(0) or {})["moves"]} - own
    assert theirs and not any(r in text for r in theirs), "Ada's review is not in Bo's page"
    page = _open(browser, path)
    root = page.locator(".leyline").first
    steps = root.evaluate("(el) => [...el.querySelectorAll('.ll-evalgraph .ll-gpoint')]"
                          ".map((p) => Number(p.dataset.step))")
    assert steps == [m["step"] + 1 for m in (replay.analysis(1) or {})["moves"]]
    root.screenshot(path=str(output_dir / "coach-bo.png"))
    assert not page.errors, page.errors


# ---------------------------------------------------------------------------- JupyterLab
COACH_NOTEBOOK = make_notebook([
    "import random\n"
    "from leyline_widget import Game, Replay, ReplayWidget\n"
    "game = Game.new(players=['Ada', 'Bo'], seed=5)\n"
    "rng = random.Random(5)\n"
    "while game.step < 60 and not game.is_over:\n"
    "    game.apply(rng.choice(game.legal_actions()))\n"
    "replay = Replay.from_game(game)",
    "r = ReplayWidget(replay, step=10, viewer=1, analysis_budget=24)\nr",
], markdown="# The coach in the studio (test notebook)")

lab = lab_fixture({"coach.ipynb": COACH_NOTEBOOK})


@pytest.mark.jupyter
def test_analyse_button_in_jupyterlab(lab: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, lab, "coach.ipynb", height=1800)
    page.context.set_default_timeout(30_000)
    run_all_cells(page, widgets=1)
    root = page.locator(".leyline.ll-replay").first
    root.scroll_into_view_if_needed()
    button = root.locator("[data-act=analyse]")
    assert button.get_attribute("data-seat") == "1", "a player's page analyses its own seat"
    button.click()
    # Progress reaches the page while the kernel works (a background thread).
    page.wait_for_selector(".ll-analyseprogress", timeout=30_000)
    page.wait_for_function(
        "(el) => el.querySelectorAll('.ll-evalgraph .ll-gpoint').length > 0",
        arg=root.element_handle(), timeout=120_000)
    done = lab.kernel_json("coach.ipynb", "[r.analysis_progress, len(r.replay.analysis(1)['moves'])"
                           ", sorted(r.replay.analyses)]")
    assert done[0]["running"] is False and done[0]["error"] == ""
    assert done[0]["done"] == done[0]["total"] == done[1] > 0 and done[2] == [1]
    assert root.locator(".ll-evalgraph .ll-gpoint").count() == done[1]
    assert "decisions analysed" in (root.locator(".ll-analyse").text_content() or "")
    root.screenshot(path=str(output_dir / "lab-analysed.png"))
    no_widget_errors(page)


def test_best_was_marks_the_best_plan_on_the_board(browser: Any, output_dir: Path) -> None:  # noqa: F811
    replay = _analysed()
    review = replay.analysis(0)
    assert review is not None
    from leyline_widget.widgets.book import best_line, plan_slots

    target = next(m for m in review["moves"] if m["best"] != m["played"]
                  and plan_slots(best_line(m), m["best"]))
    slots = plan_slots(best_line(target), target["best"])
    path = replay_html(replay, output_dir / "best.html", step=target["step"] + 1)
    page = _open(browser, path)
    root = page.locator(".leyline").first
    marked = root.evaluate("(el) => [...el.querySelectorAll('.ll-card.ll-best')]"
                           ".map((c) => Number(c.dataset.slot))")
    assert sorted(marked) == slots
    assert "(marked on the board)" in (root.locator(".ll-coachbest").text_content() or "")
    # A standalone page has no kernel to play the line: no button that cannot work.
    assert root.locator("[data-act=show-line]").count() == 0
    root.screenshot(path=str(output_dir / "best-was.png"))
    # A step whose move was the best (or not reviewed) marks nothing.
    same = next(m for m in review["moves"] if m["best"] == m["played"])
    page.evaluate("() => 0")
    path2 = replay_html(replay, output_dir / "same.html", step=same["step"] + 1)
    page2 = _open(browser, path2)
    assert page2.locator(".leyline .ll-card.ll-best").count() == 0
    assert not page.errors and not page2.errors, page.errors + page2.errors


LINE_NOTEBOOK = make_notebook([
    "import random\n"
    "from leyline_widget import Game, Replay, ReplayWidget, analyse\n"
    "from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot\n"
    "game = Game.new(players=['Ada', 'Bo'], seed=3)\n"
    "seats = [BotSeat(MemoryBot(seed=3, capacity=3), 0), BotSeat(GreedyBot(seed=4), 1)]\n"
    "while not game.is_over and game.step < 70:\n"
    "    game.apply(seats[game.active_player].act(game))\n"
    "replay = Replay.from_game(game)\n"
    "replay.set_analysis(0, analyse(replay, player=0, budget=6).to_dict())\n"
    "slip = next(m for m in replay.analyses[0]['moves'] if m['verdict'] in ('mistake', 'blunder'))",
    "r = ReplayWidget(replay, step=slip['step'] + 1)\nr",
    "p = ReplayWidget(replay, puzzles=0)\np",
], markdown="# The coach's line and puzzles (test notebook)")

line_lab = lab_fixture({"line.ipynb": LINE_NOTEBOOK})


@pytest.mark.jupyter
def test_show_the_line_and_solve_a_puzzle_in_jupyterlab(
        line_lab: Lab, browser: Any, output_dir: Path) -> None:  # noqa: F811
    page = open_notebook(browser, line_lab, "line.ipynb", height=2400)
    page.context.set_default_timeout(30_000)
    run_all_cells(page, widgets=2)
    boards = page.locator(".leyline.ll-replay")
    studio, puzzles = boards.nth(0), boards.nth(1)
    studio.scroll_into_view_if_needed()
    assert studio.locator(".ll-card.ll-best").count() >= 1
    studio.locator("[data-act=show-line]").click()
    page.wait_for_function("(el) => el.dataset.variation !== '0'", arg=studio.element_handle(),
                           timeout=30_000)
    got = line_lab.kernel_json("line.ipynb", "[r.variation, r.replay.variation(r.variation).name,"
                               " r.replay.line(r.variation)[slip['step']].to_dict()"
                               " == slip['best'], r.step == slip['step'] + 1]")
    assert got[0] != 0 and got[1].startswith("Coach's line, move ") and got[2] and got[3]
    assert "Coach's line" in (studio.locator(".ll-side").text_content() or "")
    studio.screenshot(path=str(output_dir / "lab-line.png"))
    # The puzzle: play the coach's best move from the menu; the page counts it solved.
    puzzles.scroll_into_view_if_needed()
    panel = puzzles.locator(".ll-puzzles")
    assert "Find a better move" in (panel.text_content() or "")
    best = line_lab.kernel_json("line.ipynb", "[i for i, c in enumerate(p.choices) if "
                                "c['action'] == next(m for m in replay.analyses[0]['moves'] "
                                "if m['step'] == p.step)['best']][0]")
    puzzles.locator("[data-act=choice]").select_option(str(best))
    puzzles.locator("[data-act=play-choice]").click()
    page.wait_for_function("(el) => !!el.querySelector('.ll-puzzles .ll-right')",
                           arg=puzzles.element_handle(), timeout=30_000)
    assert "Solved: 1 of 1 answered" in (panel.text_content() or "")
    assert line_lab.kernel_json("line.ipynb", "p.puzzle['solved']") == 1
    puzzles.screenshot(path=str(output_dir / "lab-puzzle-solved.png"))
    puzzles.locator("[data-act=puzzle-next]").click()
    page.wait_for_function("(el) => !el.querySelector('.ll-puzzles .ll-right')",
                           arg=puzzles.element_handle(), timeout=30_000)
    # The studio's own button turns it into Ada's puzzles (from the main line, whose review
    # holds her mistakes).
    line_lab.kernel_json("line.ipynb", "setattr(r, 'variation', 0) or r.variation")
    page.wait_for_function("(el) => el.dataset.variation === '0'", arg=studio.element_handle(),
                           timeout=30_000)
    studio.scroll_into_view_if_needed()
    studio.locator("[data-act=puzzles][data-seat='0']").click()
    page.wait_for_function("(el) => !!el.querySelector('.ll-puzzles [data-act=choice]')",
                           arg=studio.element_handle(), timeout=30_000)
    assert line_lab.kernel_json("line.ipynb", "[r.train, r.viewer, r.puzzle['total'] > 0]") == [
        0, 0, True]
    studio.screenshot(path=str(output_dir / "lab-studio-puzzles.png"))
    no_widget_errors(page)
