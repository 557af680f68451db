"""The replay studio: glyphs, the variation tree from the page, chapters (Study), format
migration (version 1 files), exploring, guess the move and downloads."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from leyline_widget import Game, Replay, ReplayFormatError, ReplayWidget, Study
from leyline_widget.replays.replay import GLYPHS, VERSION, StepError
from leyline_widget.teach.memory import memory_report, memory_reports
from leyline_widget.widgets.book import glyph_entries, replay_book, score_series


def played(seed: int = 5, limit: int = 40, players: int = 2) -> Game:
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while game.step < limit and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def as_version_1(replay: Replay) -> str:
    """The file an older leyline_widget wrote: version 1, recipe-1 hashes, no glyphs."""
    data = replay.to_dict()
    data["version"] = 1

    def hashes(variation: int | None, first: int, last: int) -> list[str]:
        return [replay.game_at(i, variation).state_hash(1) for i in range(first, last + 1)]

    data["hashes"] = hashes(None, 0, len(replay))
    data.pop("glyphs")
    for v in data["variations"]:
        v.pop("glyphs")
        v["hashes"] = hashes(v["id"], v["step"] + 1, v["step"] + len(v["actions"]))
    return json.dumps(data)


# ---------------------------------------------------------------------------- glyphs
def test_glyphs_round_trip_and_validation() -> None:
    replay = Replay.from_game(played())
    for step, glyph in zip(range(1, 7), GLYPHS):
        replay.set_glyph(step, glyph)
    replay.set_glyph(3, None)
    assert replay.glyphs == {1: "!!", 2: "!", 4: "?!", 5: "?", 6: "??"}
    copy = Replay.from_json(replay.to_json())
    assert copy.glyphs == replay.glyphs and copy.glyph(6) == "??"
    with pytest.raises(ValueError, match="a glyph is one of"):
        replay.set_glyph(2, "!!!")
    with pytest.raises(StepError, match="set-up has no move"):
        replay.set_glyph(0, "!")
    side = replay.add_variation(10, [replay.game_at(10).legal_actions()[-1]], name="side")
    with pytest.raises(StepError, match="mark it on its parent line"):
        replay.set_glyph(10, "?", variation=side.id)
    replay.set_glyph(11, "!?", variation=side.id)
    assert replay.glyph(11, side.id) == "!?" and replay.glyph(4, side.id) == "?!"
    assert glyph_entries(replay, side.id) == {"1": "!!", "2": "!", "4": "?!", "5": "?",
                                              "6": "??", "11": "!?"}


def test_promote_moves_glyphs_with_their_moves() -> None:
    replay = Replay.from_game(played())
    replay.set_glyph(12, "?")
    replay.set_glyph(5, "!")
    side = replay.add_variation(10, [replay.game_at(10).legal_actions()[-1]], name="side")
    replay.set_glyph(11, "!!", variation=side.id)
    former = replay.promote(side.id)
    assert former is not None
    assert replay.glyphs == {5: "!", 11: "!!"}
    assert replay.variation(former.id).glyphs == {12: "?"}
    assert Replay.from_json(replay.to_json()).glyphs == {5: "!", 11: "!!"}


# ---------------------------------------------------------------------------- migration
def test_version_1_files_still_load_and_save_as_the_current_version() -> None:
    replay = Replay.from_game(played(limit=50))
    replay.annotate(4, "old note", tags=["hint"])
    replay.add_variation(20, [replay.game_at(20).legal_actions()[-1]], name="old side")
    old = as_version_1(replay)
    loaded = Replay.from_json(old)
    assert loaded.actions == replay.actions and loaded.annotations[4][0].text == "old note"
    assert [v.name for v in loaded.variations] == ["old side"]
    again = json.loads(loaded.to_json())
    assert again["version"] == VERSION == 3
    assert again["hashes"] == [replay.state_hash(i) for i in range(len(replay) + 1)]
    # A version-1 file carrying version-2 hashes (or edited ones) is refused.
    bad = json.loads(old)
    bad["hashes"][7] = replay.state_hash(7)
    with pytest.raises(ReplayFormatError, match="step 7: state hash mismatch"):
        Replay.from_json(json.dumps(bad))


def test_state_hash_recipes_differ_but_both_are_stable() -> None:
    game = played(limit=30)
    copy = Game.from_position(game.position())
    assert copy.state_hash() == game.state_hash() and copy.state_hash(1) == game.state_hash(1)
    assert game.state_hash() != game.state_hash(1)
    with pytest.raises(ValueError, match="must be 1 or 2"):
        game.state_hash(3)


# ---------------------------------------------------------------------------- chapters
def test_study_chapters_round_trip() -> None:
    study = Study("Two games", notes="Compare the openings")
    first = Replay.from_game(played(seed=1))
    first.set_glyph(3, "?!")
    study.add(first, "Ada's game", notes="Watch slot 3")
    study.add(Replay.from_game(played(seed=2, players=3)))
    assert [c.name for c in study.chapters] == ["Ada's game", "Chapter 2"]
    copy = Study.from_json(study.to_json())
    assert copy.title == "Two games" and copy.notes == "Compare the openings"
    assert copy.chapters[0].notes == "Watch slot 3" and copy.chapters[0].replay.glyphs == {3: "?!"}
    assert len(copy.chapters[1].replay.players) == 3
    copy.rename(1, "Three seats")
    copy.move(1, 0)
    assert [c.name for c in copy] == ["Three seats", "Ada's game"]
    copy.remove(0)
    assert len(copy) == 1


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda d: d.update(format="leyline-replay"), "a single replay: use Replay.from_json"),
    (lambda d: d.update(version=2), "newer than this leyline_widget reads"),
    (lambda d: d.update(version=True), "field 'version' must be an integer"),
    (lambda d: d.update(extra=1), "unknown field(s) 'extra'"),
    (lambda d: d.update(title="a\nb"), "field 'title'"),
    (lambda d: d.update(chapters={}), "field 'chapters' must be a list"),
    (lambda d: d["chapters"].append(3), "field 'chapters[2]' must be an object"),
    (lambda d: d["chapters"][0].update(name=""), "field 'chapters[0]'"),
    (lambda d: d["chapters"][0].update(notes="\x1b[2J"), "control character"),
    (lambda d: d["chapters"][0].pop("replay"), "field 'chapters[0].replay' is missing"),
    (lambda d: d["chapters"][1]["replay"]["hashes"].__setitem__(4, "0" * 32),
     "chapter 2 ('second'): step 4: state hash mismatch"),
    (lambda d: d["chapters"][0]["replay"]["glyphs"].append({"step": 1, "glyph": "?!?"}),
     "chapter 1 ('first'): field 'glyphs[1].glyph'"),
])
def test_damaged_studies_are_refused(change: Any, fragment: str) -> None:
    study = Study("S")
    first = Replay.from_game(played(seed=3))
    first.set_glyph(2, "!")
    study.add(first, "first")
    study.add(Replay.from_game(played(seed=4)), "second")
    data = json.loads(study.to_json())
    change(data)
    with pytest.raises(ReplayFormatError) as info:
        Study.from_json(json.dumps(data))
    assert fragment in str(info.value)


# ---------------------------------------------------------------------------- memory fold
def test_memory_reports_fold_equals_one_report_per_step() -> None:
    game = played(seed=9, limit=80)
    reports = list(memory_reports(game, 0))
    assert len(reports) == 81
    for i in (0, 1, 17, 40, 80):
        assert reports[i] == memory_report(game, 0, upto_step=i)
    assert list(memory_reports(game, 1, first=30)) == list(memory_reports(game, 1))[30:]


# ---------------------------------------------------------------------------- the widget
def test_explore_from_the_page_makes_and_extends_a_variation() -> None:
    replay = Replay.from_game(played(limit=30))
    w = ReplayWidget(replay, step=10, explore=True)
    assert w.choices and w.legal["actor"] == w.view["active_player"]
    recorded = replay.actions[10].to_dict()
    w.send_message({"type": "action", "action": recorded, "step": 10})
    assert (w.step, w.variation, w.error) == (11, 0, "")  # the recorded move: just step on
    other = next(c["action"] for c in w.choices if c["action"] != replay.actions[11].to_dict())
    w.send_message({"type": "action", "action": other, "step": 11})
    assert w.error == "" and w.variation == 1 and w.step == 12
    v = replay.variation(1)
    assert (v.step, [a.to_dict() for a in v.actions]) == (11, [other])
    nxt = w.choices[0]["action"]
    w.send_message({"type": "action", "action": nxt, "step": 12})
    assert replay.variation(1).end == 13 and w.step == 13 and w.variation == 1
    w.send_message({"type": "action", "action": {"type": "activate", "slot": 99}, "step": 13})
    assert "Slot 99" in w.error and replay.variation(1).end == 13
    w.send_message({"type": "action", "action": nxt, "step": 3})
    assert "the shown step 13" in w.error


def test_tree_operations_from_the_page_are_validated() -> None:
    replay = Replay.from_game(played(limit=30))
    side = replay.add_variation(8, [replay.game_at(8).legal_actions()[-1]], name="side")
    w = ReplayWidget(replay)
    w.send_message({"type": "rename", "variation": side.id, "name": "pass early"})
    assert replay.variation(side.id).name == "pass early" and w.lines[1]["name"] == "pass early"
    w.send_message({"type": "rename", "variation": side.id, "name": "\x1b"})
    assert "variation name" in w.error
    w.send_message({"type": "rename", "variation": 99, "name": "x"})
    assert "No variation 99" in w.error
    w.send_message({"type": "promote", "variation": True})
    assert "Needs the id of a variation" in w.error or "needs the id" in w.error
    w.send_message({"type": "glyph", "step": 9, "glyph": "??"})
    assert replay.glyphs == {9: "??"} and w.glyphs == {"9": "??"}
    w.send_message({"type": "glyph", "step": 9, "glyph": "nope"})
    assert "glyph is one of" in w.error
    w.variation = side.id
    w.send_message({"type": "promote", "variation": side.id})
    assert w.error == "" and w.variation == 0 and len(replay) == 9
    former = replay.variations[0]
    assert former.name == "former main line" and former.glyphs == {9: "??"}
    w.send_message({"type": "delete_variation", "variation": former.id})
    assert w.error == "" and replay.variations == [] and len(w.lines) == 1


def test_a_players_page_does_not_explore_unless_allowed() -> None:
    replay = Replay.from_game(played(limit=20))
    w = ReplayWidget(replay, viewer=1, allow_all_seeing=False)
    w.set_state({"explore": True})
    assert not w.explore and "switched off" in w.error
    assert ReplayWidget(replay, viewer=1, allow_all_seeing=False, allow_explore=True,
                        explore=True).explore


def test_guess_the_move_scores_and_stays_in_the_seat() -> None:
    replay = Replay.from_game(played(limit=40))
    w = ReplayWidget(replay, train=0)
    assert w.viewer == 0 and not w.allow_all_seeing and not w.explore
    w.set_state({"viewer": None})
    assert w.viewer == 0 and w.error
    while w.view["active_player"] != 0:
        w.step += 1
    step = w.step
    played_move = replay.actions[step].to_dict()
    w.send_message({"type": "guess", "action": played_move, "step": step})
    assert w.training["right"] == 1 and w.training["total"] == 1 and w.step == step + 1
    assert w.training["last"]["right"] is True
    w.step = step
    wrong = next(c["action"] for c in w.choices if c["action"] != played_move)
    w.send_message({"type": "guess", "action": wrong, "step": step})
    assert w.training["total"] == 1  # the same move again does not count twice
    assert w.training["last"]["right"] is False
    # No all-seeing knowledge in what the learner is sent.
    assert all(c["element"] is None for c in w.view["grid"] if c["card"] == "inert")


def test_exports_are_built_on_request_only() -> None:
    replay = Replay.from_game(played(limit=20))
    w = ReplayWidget(replay)
    assert w.export == {}
    w.send_message({"type": "export", "kind": "json"})
    assert w.export["name"].endswith(".leyline.json")
    assert Replay.from_json(w.export["text"]).actions == replay.actions
    w.send_message({"type": "export", "kind": "markdown"})
    assert w.export["text"].startswith("# Leyline replay")
    w.send_message({"type": "export", "kind": "html", "viewer": 1})
    assert "<!DOCTYPE html>" in w.export["text"] and w.export["name"].endswith("seat1.html")
    seat = ReplayWidget(replay, viewer=1, allow_all_seeing=False)
    seat.send_message({"type": "export", "kind": "json"})
    assert "not offered on a player's page" in seat.error and seat.export == {}
    seat.send_message({"type": "export", "kind": "html", "viewer": None})
    assert "switched off" in seat.error


def test_score_series_and_book_fields() -> None:
    replay = Replay.from_game(played(limit=60))
    replay.set_glyph(5, "!")
    scores = score_series(replay, 0)
    assert len(scores) == 61 and scores[-1] == replay.game_at(60).scores()
    book = replay_book(replay, 1)
    assert book["glyphs"]["0"] == {"5": "!"} and book["scores"]["0"] == scores
    assert "json" not in book["downloads"] and book["downloads"]["markdown"].startswith("#")
    assert "json" in replay_book(replay)["downloads"]


def test_study_load_names_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ReplayFormatError, match="no study file at"):
        Study.load(tmp_path / "nope.json")
    with pytest.raises(ReplayFormatError, match="is a folder, not a study file"):
        Study.load(tmp_path)
