"""Replays: round trips, seeking, notes, variations, rule exploration, Markdown."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import SMALL

from leyline_widget import (
    Activate,
    EndPhase,
    Game,
    IllegalActionError,
    Replay,
    ReplayFormatError,
    Rules,
    UsePower,
    replay_markdown,
)
from leyline_widget.replays.replay import Note, StepError, VariationError


def record(game: Game, seed: int, limit: int = 400) -> list[dict[str, Any]]:
    """Play random legal actions, noting every step's hash and every viewer's observation."""
    rng = random.Random(seed)
    viewers: list[int | None] = [None, *range(len(game.players))]

    def snap() -> dict[str, Any]:
        return {"hash": game.state_hash(),
                "obs": {v: game.observation(v) for v in viewers}}

    steps = [snap()]
    while not game.is_over and game.step < limit:
        game.apply(rng.choice(game.legal_actions()))
        steps.append(snap())
    return steps


def played(seed: int = 3, players: int = 2, rules: Rules | None = None,
           limit: int = 10_000) -> Game:
    game = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_over and game.step < limit:
        game.apply(rng.choice(game.legal_actions()))
    return game


def same_game(a: Game, b: Game) -> None:
    assert a.state_hash() == b.state_hash()
    assert a.observation(None) == b.observation(None)
    assert a.actions == b.actions
    assert a.event_log == b.event_log
    assert a.seed == b.seed and a.players == b.players and a.rules == b.rules


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), small=st.booleans())
def test_json_round_trip_keeps_every_hash_and_view(seed: int, players: int, small: bool) -> None:
    game = Game.new(players=players, seed=seed, rules=SMALL if small else None)
    live = record(game, seed)
    loaded = Replay.from_json(Replay.from_game(game).to_json())
    assert len(loaded) == game.step == len(live) - 1
    for viewer in [None, *range(players)]:
        seen = list(loaded.steps(viewer=viewer))
        assert [s.state_hash for s in seen] == [s["hash"] for s in live]
        assert [s.observation for s in seen] == [s["obs"][viewer] for s in live]
    # game_at(i) is the live game at step i, history included.
    rng = random.Random(seed)
    for i in sorted({0, len(loaded), *rng.sample(range(len(loaded) + 1),
                                                 min(25, len(loaded) + 1))}):
        at = loaded.game_at(i)
        assert at.state_hash() == live[i]["hash"]
        assert at.actions == game.actions[:i]
        assert at.event_log == game.event_log[:i + 1]
    same_game(loaded.game_at(len(loaded)), game)


def test_every_step_of_a_game_seeks_to_the_live_position() -> None:
    game = Game.new(players=3, seed=11)
    live = record(game, 11)
    replay = Replay.from_json(Replay.from_game(game).to_json())
    for i in range(len(replay) + 1):
        assert replay.game_at(i).state_hash() == live[i]["hash"]
        assert replay.state_hash(i) == live[i]["hash"]
    # Seeks give independent games: playing on one leaves the replay alone.
    first = replay.game_at(0)
    first.apply(first.legal_actions()[0])
    assert replay.game_at(0).step == 0 and replay.game_at(0).state_hash() == live[0]["hash"]


def test_game_replay_is_a_snapshot_and_len_counts_actions() -> None:
    game = played(seed=5, limit=40)
    replay = Replay.from_game(game)
    assert len(replay) == 40 and replay.actions == game.actions
    game.apply(game.legal_actions()[0])
    assert len(replay) == 40 and len(Replay.from_game(game)) == 41
    assert replay.players == game.players and replay.rules == game.rules
    assert replay.initial_deck == game.initial_deck and replay.seed == 5


def test_json_top_level_and_save_load(tmp_path: Any) -> None:
    game = played(seed=2, limit=60)
    replay = Replay.from_game(game)
    data = json.loads(replay.to_json())
    assert data["format"] == "leyline-replay" and data["version"] == 3
    assert len(data["hashes"]) == len(data["actions"]) + 1 == 61
    assert data["initial_deck"] == list(game.initial_deck)
    path = tmp_path / "game.json"
    replay.save(path, indent=1)
    loaded = Replay.load(path)
    assert loaded.to_json() == replay.to_json()
    same_game(loaded.game_at(-1), game)


def test_steps_yield_actions_events_and_views() -> None:
    game = played(seed=9, limit=50)
    steps = list(Replay.from_game(game).steps(viewer=0))
    assert steps[0].action is None and steps[0].step == 0
    assert [s.action for s in steps[1:]] == list(game.actions)
    assert [s.events for s in steps] == [list(e) for e in game.event_log]
    for s in steps:
        assert all(c["element"] is None for c in s.observation["grid"] if c["card"] == "inert")
    with pytest.raises(ValueError, match="viewer"):
        Replay.from_game(game).steps(viewer=7)


def game_with_peek() -> tuple[Game, int, dict[str, Any]]:
    """A random 2-player game in which somebody peeks (Whisper or Gale), the step, the event."""
    for seed in range(200):
        game = played(seed=seed, players=2, limit=600)
        peeks = [(i, ev) for i, evs in enumerate(game.event_log) for ev in evs
                 if ev["type"] == "reveal" and ev["visible_to"] != "all"]
        if peeks:
            return game, *peeks[0]
    raise AssertionError("no game with a private peek")


def test_private_peeks_stay_private_in_steps() -> None:
    game, i, ev = game_with_peek()
    peeker = ev["visible_to"][0]
    other = 1 - peeker
    mine = list(Replay.from_game(game).steps(viewer=peeker))[i].events
    theirs = list(Replay.from_game(game).steps(viewer=other))[i].events
    assert any(e.get("element") == ev["element"] and e["type"] == "reveal" for e in mine)
    assert all(e.get("element") is None for e in theirs if e["type"] == "reveal")


def test_step_numbers_are_checked() -> None:
    replay = Replay.from_game(played(seed=1, limit=20))
    assert replay.game_at(-1).step == 20 and replay.game_at(-21).step == 0
    for bad in (21, -22, 1.5, "3", True):
        with pytest.raises(StepError, match="step"):
            replay.game_at(bad)  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        replay.annotate(99, "too far")


def test_a_game_from_a_position_replays() -> None:
    start = Game.new(players=2, seed=4)
    for _ in range(7):
        start.apply(start.legal_actions()[-1])
    game = Game.from_position(start.position())
    rng = random.Random(4)
    for _ in range(40):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    data = json.loads(Replay.from_game(game).to_json())
    assert "initial_deck" not in data and data["start_position"]["turn"] == start.turn
    loaded = Replay.from_json(json.dumps(data))
    same_game(loaded.game_at(-1), game)
    assert loaded.start_position == game.start_position


# ---------------------------------------------------------------------- notes
def test_annotations_with_tags_and_highlights_round_trip() -> None:
    replay = Replay.from_game(played(seed=6, limit=30))
    a = replay.annotate(0, "Set-up: fire in the corners")
    b = replay.annotate(12, "Spoiler: this wins", tags=["spoiler", "key", "spoiler"],
                        highlights=[7, 3])
    replay.annotate(12, "", highlights=[1])
    assert a == Note("Set-up: fire in the corners")
    assert b.tags == ("spoiler", "key") and b.highlights == (3, 7) and b["text"].startswith("Sp")
    assert list(replay.annotations) == [0, 12] and len(replay.annotations[12]) == 2
    loaded = Replay.from_json(replay.to_json())
    assert loaded.annotations == replay.annotations
    replay.remove_annotation(12, 0)
    assert [n.text for n in replay.annotations[12]] == [""]
    replay.remove_annotation(12)
    assert 12 not in replay.annotations
    # annotations is a copy: editing it changes nothing.
    replay.annotations[0].clear()
    assert len(replay.annotations[0]) == 1


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"text": "x" * 10_001}, "10001 characters long; the limit is 10000"),
    ({"text": "bell\x07"}, "control character"),
    ({"text": "\x1b[31mred"}, "control character"),
    ({"text": 42}, "note text must be a string"),
    ({"text": "   "}, "needs text or highlighted slots"),
    ({"text": "ok", "tags": "spoiler"}, "tags must be a list"),
    ({"text": "ok", "tags": ["Spoiler!"]}, "is not a tag"),
    ({"text": "ok", "tags": [f"t{i}" for i in range(17)]}, "at most 16 tags"),
    ({"text": "ok", "highlights": [12]}, "not a grid slot"),
    ({"text": "ok", "highlights": [True]}, "not a grid slot"),
])
def test_bad_notes_are_refused(kwargs: dict[str, Any], message: str) -> None:
    replay = Replay.from_game(played(seed=6, limit=10))
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        replay.annotate(3, **kwargs)
    assert replay.annotations == {}


def test_note_text_is_kept_verbatim_but_escaped_in_markdown() -> None:
    replay = Replay.from_game(played(seed=8, limit=12))
    evil = ("<script>alert(1)</script> [click](javascript:x) ![t](http://t/p.png) $\\href{x}{y}$ "
            "`code` *bold*\n1. list")
    replay.annotate(4, evil, tags=["hint"])
    replay.annotate(5, "the answer is slot 3", tags=["spoiler"])
    assert replay.annotations[4][0].text == evil
    md = replay_markdown(replay, hide_tags=["spoiler"])
    assert "<script" not in md and "&lt;script&gt;" in md
    assert "](" not in md and "![" not in md and "\\$" in md and "\\`code\\`" in md
    assert "\n> 1\\. list" in md
    assert "the answer is slot 3" not in md and "(1 hidden note)" in md
    assert "the answer is slot 3" in replay_markdown(replay)


def test_markdown_tells_the_game() -> None:
    game = Game.new(players=["Ada", "Bo"], seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    replay = Replay.from_game(game)
    replay.branch(4, name="other idea")
    end_of_turn_1 = next(i for i, evs in enumerate(game.event_log)
                         if i and any(ev["type"] == "turn" for ev in evs))
    replay.annotate(end_of_turn_1, "Ada is done")
    md = replay_markdown(replay)
    assert md.startswith("# Leyline replay: Ada, Bo")
    assert "### Turn 2: Bo" in md and f"**{len(replay)}.**" in md
    assert md.index(f"**{end_of_turn_1}.** Ada ends the turn") < md.index("Ada is done") < md.index(
        "### Turn 2: Bo")
    assert "won;" in md and "## Variations" in md and "other idea" in md


def test_markdown_leaves_out_private_peeks() -> None:
    game, step, _ = game_with_peek()
    md = replay_markdown(Replay.from_game(game))
    (line,) = [t for t in md.splitlines() if t.startswith(f"**{step}.**")]
    assert "uses" in line and not any(el in line for el in game.rules.elements)


# ---------------------------------------------------------------------- variations
def test_branch_records_moves_as_a_variation() -> None:
    game = played(seed=12, limit=40)
    replay = Replay.from_game(game)
    side = replay.branch(10, name="pass here")
    same_game(side, replay.game_at(10))
    view = replay.variation_of(side)
    assert view is not None and view.live and view.name == "pass here" and view.step == 10
    side.apply(side.legal_actions()[-1])
    side.apply(side.legal_actions()[-1])
    (var,) = replay.variations
    assert var.actions == side.actions[10:] and var.end == 12 and var.parent is None
    assert replay.line(var.id) == side.actions
    same_game(replay.game_at(12, variation=var.id), side)
    assert replay.game_at(5, variation=var.id).state_hash() == replay.state_hash(5)
    replay.rename(var.id, "a quiet turn")
    assert replay.variation(var.id).name == "a quiet turn"
    # Notes on the variation's own steps; the steps before belong to the main line.
    replay.annotate(12, "then this", variation=var.id)
    replay.annotate(10, "instead:", variation=var.id)
    with pytest.raises(StepError, match="branches off at step 10"):
        replay.annotate(9, "no", variation=var.id)
    # The JSON round trip keeps the variation, its moves and notes.
    loaded = Replay.from_json(replay.to_json())
    (copy,) = loaded.variations
    assert (copy.id, copy.name, copy.step, copy.actions) == (var.id, "a quiet turn", 10,
                                                            var.actions)
    assert copy.annotations == replay.variation(var.id).annotations and not copy.live
    same_game(loaded.game_at(-1, variation=copy.id), side)
    # Moves played after the round trip still reach the original replay only.
    side.apply(side.legal_actions()[-1])
    assert len(replay.variation(var.id).actions) == 3
    assert len(loaded.variation(copy.id).actions) == 2


def test_nested_variations_promote_and_remove() -> None:
    game = played(seed=21, limit=60)
    replay = Replay.from_game(game)
    main_before = replay.actions
    outer = replay.branch(20, name="outer")
    for _ in range(10):
        outer.apply(random.Random(1).choice(outer.legal_actions()))
    outer_id = replay.variation_of(outer).id  # type: ignore[union-attr]
    inner = replay.branch(25, name="inner", variation=outer_id)
    inner.apply(inner.legal_actions()[-1])
    inner_id = replay.variation_of(inner).id  # type: ignore[union-attr]
    # Branching at or before outer's own start belongs to the main line.
    sibling = replay.add_variation(20, [], name="sibling", parent=outer_id)
    assert sibling.parent is None and sibling.step == 20
    assert replay.variation(inner_id).parent == outer_id
    replay.annotate(40, "main later", variation=None)
    replay.annotate(27, "outer later", variation=outer_id)
    replay.annotate(26, "inner note", variation=inner_id)

    # Promote inner into outer: outer's moves from step 25 become a new variation.
    demoted = replay.promote(inner_id)
    assert demoted is not None and demoted.name == "former outer" and demoted.parent == outer_id
    assert demoted.step == 25 and demoted.annotations == {27: [Note("outer later")]}
    assert replay.line(outer_id) == inner.actions
    assert replay.variation(outer_id).annotations == {26: [Note("inner note")]}
    with pytest.raises(VariationError, match="no variation"):
        replay.variation(inner_id)
    same_game(replay.game_at(-1, variation=outer_id), inner)

    # Promote outer to the main line: the old main line is kept as a variation.
    former = replay.promote(outer_id)
    assert former is not None and former.name == "former main line"
    assert replay.actions == inner.actions and len(replay) == inner.step
    assert replay.line(former.id) == main_before
    assert replay.annotations[26] == [Note("inner note")]
    assert replay.variation(demoted.id).parent is None  # its parent was promoted away
    assert replay.variation(former.id).annotations == {40: [Note("main later")]}
    loaded = Replay.from_json(replay.to_json())
    assert [(v.id, v.parent, v.step, v.actions) for v in loaded.variations] == [
        (v.id, v.parent, v.step, v.actions) for v in replay.variations]
    same_game(loaded.game_at(-1), replay.game_at(-1))

    # Remove takes the variations inside with it.
    replay.add_variation(30, [EndPhase()] if replay.game_at(30, former.id).phase.value in (
        "abilities", "activation", "binding") else [], parent=former.id, name="deep")
    count = len(replay.variations)
    replay.remove(former.id)
    assert len(replay.variations) == count - 2
    with pytest.raises(VariationError):
        replay.remove(former.id)
    with pytest.raises(VariationError, match="main line"):
        replay.promote(None)  # type: ignore[arg-type]


def test_promote_at_the_end_of_the_line_just_extends_it() -> None:
    game = played(seed=4, limit=10)
    replay = Replay.from_game(game)
    side = replay.branch(10)
    side.apply(side.legal_actions()[-1])
    vid = replay.variations[0].id
    assert replay.variations[0].name == f"Variation {vid}"
    assert replay.promote(vid) is None
    assert replay.actions == side.actions and replay.variations == []


def test_add_variation_checks_every_action() -> None:
    replay = Replay.from_game(played(seed=7, limit=30))
    game = replay.game_at(10)
    moves = []
    rng = random.Random(0)
    for _ in range(5):
        action = rng.choice(game.legal_actions())
        game.apply(action)
        moves.append(action)
    var = replay.add_variation(10, [m.to_dict() for m in moves], name="by hand")
    assert var.actions == tuple(moves)
    with pytest.raises(IllegalActionError, match=r"action 0 of the variation .* is illegal at "
                                                 r"step 11: slot 99 does not exist"):
        replay.add_variation(10, [Activate(99)])
    with pytest.raises(IllegalActionError, match="malformed"):
        replay.add_variation(10, [{"type": "fly"}])
    with pytest.raises(ValueError, match="variation name"):
        replay.add_variation(10, [], name="  ")
    assert len(replay.variations) == 1
    with pytest.raises(VariationError, match="no variation 99"):
        replay.game_at(0, variation=99)


# ---------------------------------------------------------------------- rule exploration
def test_rerun_under_the_same_rules_changes_nothing() -> None:
    game = played(seed=13)
    report = Replay.from_game(game).rerun(game.rules)
    assert report.same and report.step is None and report.first_difference is None
    assert report.legal == report.actions == game.step
    assert "outcome is the same" in str(report)


def test_rerun_finds_the_first_illegal_step() -> None:
    game = played(seed=13)
    report = Replay.from_game(game).rerun(Rules.default().replace(turn_limit=2))
    assert not report.same and report.illegal_step is not None
    assert report.reason is not None and "game is over (turn_limit)" in report.reason
    assert report.game.turn == 2 and report.outcome["end_reason"] == "turn_limit"
    assert str(report).startswith(f"step {report.illegal_step}: ")
    # Only Spark in the rules: any other power used is now illegal.
    spark_only = Rules.default().replace(powers=[p for p in Rules.default().powers
                                                 if p.effect == "spark"])
    uses = [i for i, a in enumerate(game.actions, 1)
            if isinstance(a, UsePower) and (a.element, a.tier) != ("fire", "minor")]
    assert uses, "seed 13 uses powers"
    report = Replay.from_game(game).rerun(spark_only)
    assert report.illegal_step == uses[0] and report.legal == uses[0] - 1
    assert report.reason is not None and "power" in report.reason  # skipped Phase 1


def test_rerun_reports_a_different_outcome_with_legal_actions() -> None:
    game = played(seed=2)
    assert game.end_reason == "stalemate", "seed 2 ends in a stalemate as a turn closes"
    # The same turns, but the turn limit ends the game as the last turn closes (game.turn is
    # the last turn played: a stalemate does not start another).
    report = Replay.from_game(game).rerun(game.rules.replace(turn_limit=game.turn))
    assert report.illegal_step is None and not report.same
    assert report.outcome["end_reason"] == "turn_limit"
    assert report.outcome["scores"] == report.original["scores"]
    assert report.step == report.first_difference == game.step
    assert "outcome differs" in str(report)
    # More Binding tokens change the supply from set-up but nothing else that matters.
    report = Replay.from_game(game).rerun(game.rules.replace(tokens_per_element=9))
    assert report.first_difference == 0 and report.illegal_step is None
    assert report.outcome["scores"] == report.original["scores"]


def test_rerun_refuses_rules_the_deck_does_not_fit() -> None:
    replay = Replay.from_game(played(seed=1, limit=10))
    with pytest.raises(ValueError, match="does not fit these rules: deck has 48 cards"):
        replay.rerun(Rules.default().replace(cards_per_element=10))


# ---------------------------------------------------------------------- boundaries
def test_replay_module_needs_no_widget_library() -> None:
    code = ("import sys, leyline_widget.replays.replay, leyline_widget\n"
            "leyline_widget.Replay\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('anywidget', 'ipywidgets', 'traitlets')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_replay_errors_are_value_errors() -> None:
    assert issubclass(ReplayFormatError, ValueError)
    with pytest.raises(TypeError):
        Replay("not a game")  # type: ignore[arg-type]
