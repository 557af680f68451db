"""Where the kernel cannot start a thread (Pyodide), the coach's analysis runs in steps the page
drives: one decision per ``analyse_step`` message, progress after each, Cancel between them.

The kernel is told it has no threads the way Pyodide tells it: ``Thread.start`` raises
"can't start new thread". The widget asks for that capability, not for a platform's name.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from leyline_widget import Game, Replay, ReplayWidget, analyse
from leyline_widget.agents.analysis import Review, analysis_steps
from leyline_widget.widgets import runs


def short_game() -> Replay:
    game = Game.new(players=["Ada", "Bo"], seed=3)
    rng = random.Random(3)
    for _ in range(40):
        if game.turn > 4 or game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return Replay.from_game(game)


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    runs.threads_available.cache_clear()
    monkeypatch.setattr(threading.Thread, "start", refuse)
    yield
    monkeypatch.undo()
    runs.threads_available.cache_clear()


def test_analysis_steps_give_the_same_review_as_analyse() -> None:
    replay = short_game()
    steps = analysis_steps(replay, 0, budget=2)
    seen = []
    while True:
        try:
            seen.append(next(steps))
        except StopIteration as end:
            review: Review = end.value
            break
    total = seen[0][1]
    assert seen == [(i, total) for i in range(total + 1)] and total > 0
    assert review == analyse(replay, 0, budget=2)


def test_the_page_drives_a_stepped_analysis(no_threads: None) -> None:
    assert runs.threads_available() is False
    replay = short_game()
    w = ReplayWidget(replay)
    seen: list[dict[str, Any]] = []
    w.observe(lambda change: seen.append(dict(change["new"])), "analysis_progress")
    w.send_message({"type": "analyse", "seat": 0, "budget": 2})
    assert w.error == ""
    progress = w.analysis_progress
    assert progress["stepped"] is True and progress["running"] is True
    asked: set[tuple[int, int]] = set()
    while w.analysis_progress["running"]:
        p = w.analysis_progress
        # The page asks once per (run, done) it is shown (js/src/replay.js): each of its
        # requests must move the analysis on, or it would wait for ever.
        assert (p["run"], p["done"]) not in asked, f"the page would not ask again: {p}"
        asked.add((p["run"], p["done"]))
        w.send_message({"type": "analyse_step", "run": p["run"], "done": p["done"]})
        answer = w.analysis_progress
        # A request sent twice (two views of the widget) is answered once.
        w.send_message({"type": "analyse_step", "run": p["run"], "done": p["done"]})
        assert w.analysis_progress == answer
        assert len(asked) < 100
    final = w.analysis_progress
    assert final["error"] == "" and final["cancelled"] is False
    assert final["done"] == final["total"] > 0
    assert [p["done"] for p in seen if p["running"] and p["total"]] == list(
        range(final["total"] + 1))
    assert Review.from_dict(replay.analysis(0) or {}) == analyse(replay, 0, budget=2)
    assert [a["player"] for a in w.analyses] == [0]
    # A late request for the finished run changes nothing.
    w.send_message({"type": "analyse_step", "run": final["run"], "done": final["done"]})
    assert w.analysis_progress == final and w.error == ""


def test_cancel_stops_a_stepped_analysis(no_threads: None) -> None:
    replay = short_game()
    w = ReplayWidget(replay)
    w.send_message({"type": "analyse", "seat": 1, "budget": 2})
    p = w.analysis_progress
    w.send_message({"type": "analyse_step", "run": p["run"], "done": p["done"]})
    w.send_message({"type": "analyse_cancel"})
    final = w.analysis_progress
    assert final["running"] is False and final["cancelled"] is True and final["error"] == ""
    assert replay.analysis(1) is None and w.analyses == []
    w.send_message({"type": "analyse_step", "run": final["run"], "done": final["done"]})
    assert w.analysis_progress == final
    # A new run may start at once, and wait=True finishes it in the caller.
    w.analyse(1, budget=2, wait=True)
    assert w.analysis_progress["run"] == final["run"] + 1
    assert w.analysis_progress["running"] is False and replay.analysis(1) is not None


def test_cancel_stops_a_threaded_analysis_between_decisions() -> None:
    assert runs.threads_available()
    replay = short_game()
    w = ReplayWidget(replay)
    gate = threading.Event()
    original = w.analysis_progress

    def slow_progress(change: Any) -> None:
        if change["new"].get("done") == 1:
            gate.wait(10)

    w.observe(slow_progress, "analysis_progress")
    run = w.analyse(0, budget=2)
    assert w.analysis_progress is not original
    w.cancel_analysis()
    gate.set()
    run.join(60)
    final = w.analysis_progress
    assert final["running"] is False and final["cancelled"] is True
    assert final["done"] < final["total"] and replay.analysis(0) is None


def test_step_messages_are_checked() -> None:
    w = ReplayWidget(short_game())
    w.send_message({"type": "analyse_step", "run": 1, "done": 0, "extra": 1})
    assert "unexpected field" in w.error
    w.send_message({"type": "analyse_cancel", "now": True})
    assert "unexpected field" in w.error
