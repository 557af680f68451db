"""Every mode of the front-end renders the same when the host delivers ``undefined`` for None.

Pyodide's comm (the kernel of JupyterLite) hands the page ``undefined`` where Python sent None;
JupyterLab hands it ``null``. The page reads the model at one boundary (js/src/index.js,
``hostModel``), so both must draw the same board, log and panels, with no "NaN", "undefined" or
"null" shown. The states here are real widget states (play, hot-seat, the teacher's view with
the memory panel, a finished game, a lesson and the course, a replay with the coach, training,
exploring); js/tests/host_nulls.mjs renders each in jsdom twice, once with every null replaced
by undefined. The standalone replay and study pages parse their data from JSON in the page (their
nulls stay null): they are checked for those words only.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from leyline_widget import (
    Game,
    LeylineWidget,
    Replay,
    ReplayWidget,
    Study,
    analyse,
)
from leyline_widget.widgets.book import replay_book
from leyline_widget.widgets.export import study_page_data
from leyline_widget.widgets.lesson import LessonWidget

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def synced(widget: Any) -> dict[str, Any]:
    """The state the front-end holds: every synced trait, as JSON carries it."""
    names = [n for n in widget.trait_names(sync=True) if not n.startswith("_")]
    state: dict[str, Any] = json.loads(json.dumps(widget.get_state(key=names)))
    return state


def played(players: list[str], seed: int, moves: int) -> Game:
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def states() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(name: str, state: dict[str, Any], kind: str = "widget") -> None:
        out.append({"name": name, "kind": kind, "state": state})

    add("play: set-up", synced(LeylineWidget(players=["You"], seed=2024)))
    mid = LeylineWidget(played(["You"], 3, 25), deal_ms=0, hints=True)
    mid.ask_hint()
    add("play: solo mid-game with a hint", synced(mid))
    add("play: hot-seat", synced(LeylineWidget(played(["Ada", "Bo"], 5, 9), deal_ms=0)))
    add("play: against a bot", synced(LeylineWidget(players=["You", "greedy"], seed=7,
                                                    deal_ms=0)))
    teacher = LeylineWidget(players=["random", "memory"], seed=11, viewer="teacher",
                            show_memory_of=0, bot_delay_ms=0, deal_ms=0)
    teacher.step_bots(40)
    add("play: teacher with the memory panel", synced(teacher))
    done = played(["Ada"], 9, 10_000)
    add("play: game over", synced(LeylineWidget(done, deal_ms=0)))
    add("lesson", synced(LessonWidget("activate-collect")))
    add("lesson: the course", synced(LessonWidget.course()))
    duel = played(["Ada", "Bo"], 11, 60)
    replay = Replay.from_game(duel)
    replay.annotate(3, "Look at the water.")
    replay.set_analysis(0, analyse(replay, 0, budget=2).to_dict())
    coach = ReplayWidget(replay, step=12, show_memory_of=1)
    add("replay: teacher with the coach and memory", synced(coach))
    add("replay: a player's view", synced(ReplayWidget(replay, viewer=1, step=20,
                                                      allow_all_seeing=False)))
    add("replay: guess the move", synced(ReplayWidget(replay, train=0, step=5)))
    add("replay: exploring", synced(ReplayWidget(replay, step=8, explore=True)))
    add("replay page (book)", replay_book(replay, None, step=4), "book")
    study = Study("Two games")
    study.add(replay, "Memory duel")
    study.add(Replay.from_game(played(["Ada"], 4, 30)), "Solo")
    add("study page", study_page_data(study), "study")
    return out


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_every_mode_renders_the_same_with_undefined_for_null(tmp_path: Path) -> None:
    entries = states()
    data = tmp_path / "states.json"
    data.write_text(json.dumps(entries), "utf-8")
    done = subprocess.run([str(NODE), str(ROOT / "js/tests/host_nulls.mjs"), str(data)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["name"] for r in results] == [e["name"] for e in entries]
    for r in results:
        assert r["size"] > 500, f"{r['name']}: nothing drawn"
        assert r["words"] == [], f"{r['name']} shows {r['words']}"
        assert r["same"], f"{r['name']} differs with undefined for null"


def test_a_trait_set_to_none_is_sent_as_the_page_null_mark_where_the_host_drops_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # In Pyodide a top-level None would reach the page as undefined and JSON would drop the
    # field: the update (the viewer back to the teacher) would never arrive. There the kernel
    # sends the mark js/src/index.js reads as null; elsewhere None stays null.
    from leyline_widget.widgets import base

    game = Game.new(players=2, seed=3)
    widget = ReplayWidget(Replay.from_game(game), viewer=0)
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(widget, "_send", lambda msg, buffers=None: sent.append(msg))

    def viewer_sent() -> Any:
        return [m["state"]["viewer"] for m in sent if "viewer" in m["state"]][-1]

    widget.viewer = None
    assert viewer_sent() is None
    monkeypatch.setattr(base, "NONE_DROPPED", True)
    widget.viewer = 1
    assert viewer_sent() == 1
    widget.viewer = None
    assert viewer_sent() == base.PAGE_NULL
    assert json.loads(json.dumps(viewer_sent())) == {"leyline": "null"}
    js = (ROOT / "js" / "src" / "index.js").read_text()
    assert 'PAGE_NULL = { leyline: "null" }' in js  # the page reads the same mark
