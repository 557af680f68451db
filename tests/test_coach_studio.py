"""The coach in the replay studio: analyses saved in the replay (format version 3), checked on
load; the book and ReplayWidget show them, a player only its own seat's; Analyse runs in a
background thread with progress."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from leyline_widget import Game, Replay, ReplayFormatError, ReplayWidget, analyse
from leyline_widget.agents.analysis import Review
from leyline_widget.replays.replay import VERSION
from leyline_widget.widgets.book import analysis_entries, replay_book


def played(seed: int = 3, limit: int = 60) -> Game:
    game = Game.new(players=2, seed=seed)
    rng = random.Random(seed)
    while game.step < limit and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def analysed() -> tuple[Replay, Review, Review]:
    replay = Replay.from_game(played())
    first = analyse(replay, 0, budget=3)
    second = analyse(replay, 1, budget=3)
    replay.set_analysis(0, first.to_dict())
    replay.set_analysis(1, second.to_dict())
    return replay, first, second


REPLAY, REVIEW0, REVIEW1 = analysed()
TEXT = REPLAY.to_json()
DATA = json.loads(TEXT)


# ---------------------------------------------------------------------------- the format
def test_analyses_round_trip_and_give_back_the_review() -> None:
    assert DATA["version"] == VERSION == 3
    assert [a["player"] for a in DATA["analyses"]] == [0, 1]
    copy_ = Replay.from_json(TEXT)
    assert copy_.to_json() == TEXT
    assert Review.from_dict(copy_.analysis(0) or {}) == REVIEW0
    assert Review.from_dict(copy_.analysis(1) or {}) == REVIEW1
    assert copy_.analysis(0) is not copy_.analysis(0)  # copies
    copy_.set_analysis(1, None)
    assert list(copy_.analyses) == [0] and "analyses" in copy_.to_dict()
    copy_.set_analysis(0, None)
    assert "analyses" not in copy_.to_dict()


def test_set_analysis_checks_the_review() -> None:
    replay = Replay.from_game(played())
    with pytest.raises(ReplayFormatError, match="review is of seat 0, not of seat 1"):
        replay.set_analysis(1, REVIEW0.to_dict())
    bad = REVIEW0.to_dict()
    bad["moves"][0]["verdict"] = "dubious"
    with pytest.raises(ReplayFormatError, match=r"field 'analysis.moves\[0\].verdict'"):
        replay.set_analysis(0, bad)
    with pytest.raises(ValueError, match="player must be a seat"):
        replay.set_analysis(2, REVIEW0.to_dict())
    other = Replay.from_game(played(seed=4))
    with pytest.raises(ReplayFormatError, match=r"is not the action at step|was played by seat"):
        other.set_analysis(0, REVIEW0.to_dict())


def test_promoting_into_the_main_line_drops_the_analyses() -> None:
    replay = Replay.from_json(TEXT)
    v = replay.add_variation(10, [replay.game_at(10).legal_actions()[-1]], name="side")
    replay.promote(v.id)
    assert replay.analyses == {}


def as_version(version: int) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    data.pop("analyses")
    data["version"] = version
    return data


def test_version_2_files_still_load_and_may_not_carry_analyses() -> None:
    old = as_version(2)
    loaded = Replay.from_json(json.dumps(old))
    assert loaded.actions == REPLAY.actions and loaded.analyses == {}
    assert json.loads(loaded.to_json())["version"] == 3
    old["analyses"] = DATA["analyses"]
    with pytest.raises(ReplayFormatError, match="'analyses' is new in format version 3"):
        Replay.from_json(json.dumps(old))


def edited(change: Callable[[dict[str, Any]], object]) -> str:
    data = copy.deepcopy(DATA)
    change(data)
    return json.dumps(data)


def move0(d: dict[str, Any]) -> dict[str, Any]:
    m: dict[str, Any] = d["analyses"][0]["moves"][1]
    return m


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda d: d.update(analyses={}), "field 'analyses' must be a list"),
    (lambda d: d["analyses"].append(3), "field 'analyses[2]' must be an object"),
    (lambda d: d["analyses"][0].update(extra=1), "field 'analyses[0]': unknown field(s) 'extra'"),
    (lambda d: d["analyses"][0].update(player=5), "field 'analyses[0].player': 5 is not from 0"),
    (lambda d: d["analyses"][1].update(player=0), "field 'analyses[1].moves[0].player'"),
    (lambda d: d["analyses"].append(d["analyses"][0]), "seat 0 has two analyses"),
    (lambda d: d["analyses"][0].update(budget=0), "field 'analyses[0].budget'"),
    (lambda d: d["analyses"][0].pop("moves"), "field 'analyses[0].moves' is missing"),
    (lambda d: move0(d).update(step=999), "field 'analyses[0].moves[1].step'"),
    (lambda d: move0(d).update(step=0), "field 'analyses[0].moves[1].step'"),
    (lambda d: move0(d).update(player=1), "field 'analyses[0].moves[1].player'"),
    (lambda d: move0(d).update(verdict="dubious"), "field 'analyses[0].moves[1].verdict'"),
    (lambda d: move0(d).update(loss=-1), "field 'analyses[0].moves[1].loss' must be a finite"),
    (lambda d: move0(d).update(loss="1"), "field 'analyses[0].moves[1].loss'"),
    (lambda d: move0(d).update(loss=1e300), "field 'analyses[0].moves[1].loss'"),
    (lambda d: move0(d).update(best={"type": "fly"}), "field 'analyses[0].moves[1].best'"),
    (lambda d: move0(d).update(played={"type": "refill", "slot": 99}),
     "field 'analyses[0].moves[1].played'"),
    (lambda d: move0(d).update(reason="x" * 3000), "field 'analyses[0].moves[1].reason'"),
    (lambda d: move0(d).update(reason="\x1b[2J"), "control character"),
    (lambda d: move0(d).update(reason=3), "field 'analyses[0].moves[1].reason' must be a string"),
    (lambda d: move0(d).update(extra=1), "field 'analyses[0].moves[1]': unknown field(s)"),
    (lambda d: move0(d).update(options=[{"key": "a"}]), "field 'analyses[0].moves[1].options[0]'"),
    (lambda d: move0(d)["options"][0].update(value="x"), "options[0].value"),
    (lambda d: d["hashes"].__setitem__(0, 1.5), "field 'hashes[0]'"),  # fractions: analyses only
])
def test_damaged_analyses_are_refused(change: Callable[[dict[str, Any]], object],
                                      fragment: str) -> None:
    with pytest.raises(ReplayFormatError) as info:
        Replay.from_json(edited(change))
    assert fragment in str(info.value)


def test_an_analysis_in_the_wrong_seat_is_refused() -> None:
    data = copy.deepcopy(DATA)
    review = data["analyses"][0]
    review["player"] = 1
    for m in review["moves"]:
        m["player"] = 1
    data["analyses"] = [review]
    with pytest.raises(ReplayFormatError, match="was played by seat 0, not by seat 1"):
        Replay.from_json(json.dumps(data))


# ---------------------------------------------------------------------------- the book
def test_the_book_holds_the_reviews_a_viewer_may_see() -> None:
    teacher = replay_book(REPLAY)
    assert [a["player"] for a in teacher["analyses"]["0"]] == [0, 1]
    for seat in (0, 1):
        book = replay_book(REPLAY, viewer=seat)
        assert [a["player"] for a in book["analyses"]["0"]] == [seat]
        # Nothing of the other seat's review anywhere in that page's data.
        other = REVIEW1 if seat == 0 else REVIEW0
        text = json.dumps(book)
        for m in other.moves:
            if m.reason not in {x.reason for x in (REVIEW0 if seat == 0 else REVIEW1).moves}:
                assert m.reason not in text
    entries = teacher["analyses"]["0"][0]["moves"]
    first = REVIEW0.moves[0]
    assert entries[0]["step"] == first.step + 1  # the step the move led to, as glyphs
    assert entries[0]["verdict"] == first.verdict and entries[0]["best"] == first.best.to_dict()
    for e in entries:
        assert e["played_value"] == pytest.approx(e["best_value"] - e["loss"])


def test_a_variation_shows_the_reviews_before_it_leaves_the_main_line() -> None:
    replay = Replay.from_json(TEXT)
    v = replay.add_variation(20, [replay.game_at(20).legal_actions()[-1]], name="side")
    steps = [m["step"] for m in analysis_entries(replay, v.id, 0)[0]["moves"]]
    assert steps and max(steps) <= 20
    assert [m["step"] for m in analysis_entries(replay, 0, 0)[0]["moves"]][-1] > 20


# ---------------------------------------------------------------------------- the widget
def test_the_widget_shows_the_viewers_own_review_only() -> None:
    w = ReplayWidget(Replay.from_json(TEXT))
    assert [a["player"] for a in w.analyses] == [0, 1]
    w.viewer = 1
    assert [a["player"] for a in w.analyses] == [1]
    trainer = ReplayWidget(Replay.from_json(TEXT), train=0)
    assert trainer.analyses == []


def test_analyse_message_runs_in_a_thread_with_progress() -> None:
    replay = Replay.from_game(played(limit=40))
    w = ReplayWidget(replay, viewer=0, allow_all_seeing=False)
    seen: list[dict[str, Any]] = []
    w.observe(lambda change: seen.append(dict(change["new"])), "analysis_progress")
    w.send_message({"type": "analyse", "seat": 1, "budget": 2})
    assert "may analyse only that seat" in w.error and w._analysing is None
    w.send_message({"type": "analyse", "seat": 0, "budget": 2})
    assert w.error == ""
    assert w._analysing is not None
    w._analysing.join(60)
    final = w.analysis_progress
    assert final["running"] is False and final["error"] == "" and final["seat"] == 0
    assert final["done"] == final["total"] > 0
    running = [p["done"] for p in seen if p["total"] and p["running"]]
    assert running == list(range(final["total"] + 1))
    assert replay.analysis(0) is not None and [a["player"] for a in w.analyses] == [0]
    assert len(w.analyses[0]["moves"]) == final["total"]
    # Same seed and budget as analyse(): the same review.
    assert Review.from_dict(replay.analysis(0) or {}) == analyse(replay, 0, budget=2)
    w.send_message({"type": "analyse", "seat": 0, "budget": 0})
    assert "Budget must be" in w.error
    w.send_message({"type": "analyse", "seat": 0, "extra": 1})
    assert "unexpected field" in w.error
