"""House rules and bounds (DESIGN.md's default ruleset, interpretations 6, 9 and 10)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hand import SMALL_MAJOR, new, play, refused
from support import SMALL

from leyline_widget import (
    Activate,
    Deactivate,
    EndPhase,
    Game,
    Phase,
    PlaceToken,
    Refill,
    Replay,
    Rules,
    UsePower,
)
from leyline_widget.core.game import END_REASONS
from leyline_widget.teach.words import END_REASONS as END_WORDS

HOUSE_FIELDS = ("round_limit", "idle_round_limit", "deactivate_refund", "major_uses_per_game")


def test_the_house_rules_are_off_by_default_as_the_seed_plays() -> None:
    rules = Rules.default()
    assert (rules.round_limit, rules.idle_round_limit, rules.deactivate_refund,
            rules.major_uses_per_game) == (None, None, True, None)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("round_limit", 0, "round_limit must be at least 1"),
    ("round_limit", True, "round_limit must be a whole number"),
    ("round_limit", 2.0, "round_limit must be a whole number"),
    ("idle_round_limit", 0, "idle_round_limit must be at least 1"),
    ("idle_round_limit", False, "idle_round_limit must be a whole number"),
    ("major_uses_per_game", 0, "major_uses_per_game must be at least 1"),
    ("major_uses_per_game", True, "major_uses_per_game must be a whole number"),
    ("deactivate_refund", 1, "deactivate_refund must be true or false"),
    ("deactivate_refund", "no", "deactivate_refund must be true or false"),
    ("deactivate_refund", None, "deactivate_refund must be true or false"),
    ("turn_limit", 10**7, "turn_limit must be at most 1000000"),
])
def test_house_rule_fields_are_validated(field: str, value: object, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Rules.default().replace(**{field: value})


@pytest.mark.parametrize(("changes", "words"), [
    ({"cards_per_element": 10**9}, "cards_per_element must be at most 10000"),
    ({"cards_per_element": 2501}, "larger than 10000 cards"),
    ({"grid_rows": 20, "grid_cols": 21}, "larger than 400 slots"),
    ({"grid_rows": 401}, "grid_rows must be at most 400"),
    ({"tokens_per_element": 1001}, "tokens_per_element must be at most 1000"),
    ({"elements": [f"e{i}" for i in range(33)]}, "at most 32 elements"),
    ({"activations_per_turn": 10**6}, "activations_per_turn must be at most 10000"),
])
def test_every_size_has_an_upper_bound(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Rules.default().replace(**changes)


def test_the_largest_allowed_sizes_are_accepted_and_dealt() -> None:
    # Ripple and Gale would list 79,800 and 10.6 million target choices on 400 slots: the
    # 50,000-action bound refuses them (DESIGN.md, "Powers as data"); the rest fit.
    with pytest.raises(ValueError, match=r"power 'Gale' would list 10,667,000 target choices"):
        Rules.default().replace(cards_per_element=2500, grid_rows=20, grid_cols=20)
    powers = [p for p in Rules.default().powers if p.name not in ("Ripple", "Gale")]
    rules = Rules.default().replace(cards_per_element=2500, grid_rows=20, grid_cols=20,
                                    tokens_per_element=1000, powers=powers)
    assert rules.deck_size == 10_000 and rules.grid_size == 400
    game = Game.new(players=2, seed=1, rules=rules)
    assert len(game.deck) == 10_000 - 400


def test_rules_round_trip_the_house_rules_and_old_dicts_get_the_defaults() -> None:
    rules = Rules.default().replace(round_limit=5, idle_round_limit=2, deactivate_refund=False,
                                    major_uses_per_game=1)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    old = {k: v for k, v in Rules.default().to_dict().items() if k not in HOUSE_FIELDS}
    assert Rules.from_dict(old) == Rules.default()


def test_a_replay_round_trips_the_house_rules_and_an_old_replay_loads_with_defaults() -> None:
    rules = SMALL.replace(round_limit=3, deactivate_refund=False)
    game = Game.new(players=2, seed=4, rules=rules)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.end_reason in ("round_limit", "stalemate", "deck")
    again = Replay.from_json(Replay.from_game(game).to_json())
    assert again.game_at(len(again)).rules == rules
    assert again.game_at(len(again)).state_hash() == game.state_hash()
    # A replay written before these fields existed carries no such keys: defaults apply.
    plain = Game.new(players=1, seed=3)
    plain.apply(EndPhase())
    data = json.loads(Replay.from_game(plain).to_json())
    for field in HOUSE_FIELDS:
        data["rules"].pop(field)
    loaded = Replay.from_json(json.dumps(data))
    assert loaded.game_at(len(loaded)).rules == Rules.default()


# ------------------------------------------------------------------ limits and end reasons

def _pass_turn(game: Game) -> None:
    """End the active player's turn without doing anything."""
    while not game.is_over and game.phase is not Phase.BINDING:
        game.apply(EndPhase())
    if not game.is_over:
        game.apply(EndPhase())


def test_the_round_limit_ends_the_game_after_that_many_full_rounds() -> None:
    game = new("fire fire water water", rules=SMALL.replace(round_limit=2), players=2)
    for _ in range(3):
        _pass_turn(game)
    assert not game.is_over and game.turn == 4
    _pass_turn(game)
    assert game.is_over and game.end_reason == "round_limit" and game.turn == 4
    assert game.events_since(game.step)[-1]["turns"] == 4
    assert game.observation(0)["end_reason"] == "round_limit"


def test_the_idle_round_limit_ends_a_game_in_which_nobody_does_anything() -> None:
    rules = SMALL.replace(idle_round_limit=2)
    game = new("fire fire water water", rules=rules, players=2)
    for _ in range(3):
        _pass_turn(game)
    assert not game.is_over
    _pass_turn(game)
    assert game.end_reason == "idle" and game.turn == 4


def test_a_collection_a_token_or_a_power_resets_the_idle_count() -> None:
    rules = SMALL.replace(idle_round_limit=1)
    game = new("fire fire water water  earth earth", rules=rules, players=2)
    _pass_turn(game)                                          # turn 1: idle
    play(game, Activate(0), Activate(1), EndPhase(), Refill(0), Refill(1), EndPhase())
    assert not game.is_over and game.turn == 3                # turn 2 collected
    _pass_turn(game)                                          # turn 3: idle, one in a row
    assert not game.is_over
    play(game, EndPhase(), EndPhase(), PlaceToken(0, "fire", "supply"), EndPhase())
    assert not game.is_over and game.turn == 5                # turn 4 placed a token
    _pass_turn(game)
    assert not game.is_over
    _pass_turn(game)
    assert game.end_reason == "idle" and game.turn == 6


def test_the_end_checks_run_turn_limit_round_limit_idle_then_stalemate() -> None:
    top = "fire fire water water"
    both = SMALL.replace(turn_limit=2, round_limit=1, idle_round_limit=1)
    game = new(top, rules=both, players=2)
    _pass_turn(game)
    _pass_turn(game)
    assert game.end_reason == "turn_limit"
    game = new(top, rules=SMALL.replace(round_limit=1, idle_round_limit=1), players=2)
    _pass_turn(game)
    _pass_turn(game)
    assert game.end_reason == "round_limit"
    # Idle before stalemate: a position (never checked for a stalemate as it loads) of four
    # lone elements, passed: both checks hold at the end of the turn, idle comes first.
    position = {"rules": SMALL.to_dict(), "players": ["Ada"],
                "grid": ["fire", "water", "earth", "wind"],
                "deck": ["fire", "fire", "water", "water", "earth", "earth", "wind", "wind"]}
    for rules, reason in ((SMALL.replace(idle_round_limit=1), "idle"), (SMALL, "stalemate")):
        game = Game.from_position({**position, "rules": rules.to_dict()})
        _pass_turn(game)
        assert game.end_reason == reason and game.turn == 1


def test_end_reasons_are_listed_once_for_the_loader_and_in_words() -> None:
    assert set(END_REASONS) == {"deck", "stalemate", "idle", "turn_limit", "round_limit"}
    assert set(END_WORDS) == set(END_REASONS)


def test_the_position_loader_accepts_every_end_reason() -> None:
    game = new("fire fire water water", rules=SMALL.replace(round_limit=1))
    _pass_turn(game)
    position = game.position()
    assert position["end_reason"] == "round_limit"
    assert Game.from_position(position).end_reason == "round_limit"
    for reason in END_REASONS:
        assert Game.from_position({**position, "end_reason": reason}).end_reason == reason
    with pytest.raises(ValueError, match="end_reason must be one of deck, stalemate, idle"):
        Game.from_position({**position, "end_reason": "boredom"})


def test_a_stalemate_reports_only_the_turns_played() -> None:
    game = new("fire fire wind wind  earth water")
    play(game, Activate(0), Activate(1), EndPhase(), Refill(0), Refill(1),
         PlaceToken(2, "fire", "supply"), PlaceToken(2, "fire", "supply"), EndPhase())
    # Turn 1 closed and nobody can collect again: no turn 2 is started or counted.
    assert game.end_reason == "stalemate" and game.turn == 1 and game.active_player == 0
    assert game.events_since(game.step)[-1]["turns"] == 1
    at_setup = new("fire water earth wind", players=2)
    assert at_setup.events_since(0)[-1]["turns"] == 0 and at_setup.turn == 1


# ------------------------------------------------------------------ deactivation refund

def test_without_the_refund_a_deactivated_card_keeps_its_activation_spent() -> None:
    game = new("fire water earth fire", rules=SMALL.replace(deactivate_refund=False), players=2)
    play(game, Activate(0), Activate(1))
    events = game.apply(Deactivate(1))
    assert events == [{"type": "deactivate", "player": 0, "slot": 1}]
    assert game.observation(1)["grid"][1] == {"card": "inert", "element": None, "tokens": {}}
    assert game.observation(0)["activations"] == {"used": 2, "limit": 3}
    assert game.activations_left() == 1
    game.apply(Activate(3))
    assert [a for a in game.legal_actions() if isinstance(a, Activate)] == []
    refused(game, Activate(1), "does not refund its activation", rule="activation")
    events = game.apply(EndPhase())
    assert [ev["element"] for ev in events if ev["type"] == "collect"] == ["fire"]


def test_the_refund_house_rule_state_survives_clone_and_position() -> None:
    game = new("fire water earth fire", rules=SMALL.replace(deactivate_refund=False))
    play(game, Activate(1), Deactivate(1))
    assert game.position()["spent_activations"] == 1
    for copy in (game.clone(), Game.from_position(game.position())):
        assert copy.activations_left() == 2 and copy.state_hash() == game.state_hash()
    with pytest.raises(ValueError, match="deactivations refund their activation"):
        Game.from_position({**game.position(), "rules": SMALL.to_dict()})


# ------------------------------------------------------------------ Major uses per game

def _major_position(rules: Rules) -> dict[str, Any]:
    return {"rules": rules.to_dict(), "players": ["Ada"],
            "grid": ["water", "water", "earth", "earth"],
            "deck": ["water", "earth", "wind", "wind", "wind"],
            "study": [{"fire": 3}], "phase": "abilities"}


def test_major_uses_per_game_caps_each_major_power_per_player() -> None:
    game = Game.from_position(_major_position(SMALL_MAJOR.replace(major_uses_per_game=1)))
    assert UsePower("fire", "major") in game.legal_actions()
    play(game, UsePower("fire", "major"), EndPhase(), Activate(0), EndPhase(), Refill(0),
         EndPhase())
    assert game.turn == 2 and game.major_uses(0) == {"fire:major": 1}
    assert UsePower("fire", "major") not in game.legal_actions()
    assert UsePower("fire", "minor") in game.legal_actions()  # a Minor is never capped
    refused(game, UsePower("fire", "major"), "already used 1 time this game", rule="powers")
    again = Game.from_position(game.position())
    assert again.major_uses(0) == {"fire:major": 1}
    assert UsePower("fire", "major") not in again.legal_actions()


def test_without_the_cap_a_major_power_is_used_every_turn() -> None:
    game = Game.from_position(_major_position(SMALL_MAJOR))
    play(game, UsePower("fire", "major"), EndPhase(), Activate(0), EndPhase(), Refill(0),
         EndPhase())
    assert UsePower("fire", "major") in game.legal_actions()


@pytest.mark.parametrize(("used", "over"), [(0, False), (1, True)])
def test_a_spent_major_power_no_longer_counts_against_a_stalemate(used: int, over: bool) -> None:
    # Four lone elements: only Wildfire could ever collect one, until it is spent.
    rules = Rules.default().replace(cards_per_element=4, grid_rows=2, grid_cols=2,
                                    major_threshold=3, major_uses_per_game=1)
    position = {"rules": rules.to_dict(), "players": ["Ada"],
                "grid": ["water", "earth", "wind", "fire"],
                "deck": ["water"] * 3 + ["earth"] * 3 + ["wind"] * 3,
                "study": [{"fire": 3}], "phase": "activation",
                "powers_used_in_game": [{"fire:major": used}]}
    game = Game.from_position(position)
    play(game, EndPhase(), EndPhase())
    assert game.is_over is over
    assert game.end_reason == ("stalemate" if over else None)


def test_end_reason_words_name_the_new_ends() -> None:
    assert "round limit" in END_WORDS["round_limit"]
    assert "idle" in END_WORDS["idle"]
