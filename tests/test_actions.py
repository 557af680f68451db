"""The action vocabulary: values, JSON form, and malformed input from the front-end."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest
from hand import new, refused

from leyline_widget import (
    Action,
    Activate,
    Deactivate,
    EndPhase,
    Game,
    PlaceToken,
    Refill,
    UsePower,
)

EVERY_KIND: list[Action] = [
    Activate(3), Deactivate(0), EndPhase(), Refill(11), PlaceToken(2, "wind", "pool"),
    UsePower("fire", "minor"), UsePower("wind", "major", (0, 4, 7)),
]


def test_to_dict_is_the_designed_form() -> None:
    assert Activate(3).to_dict() == {"type": "activate", "slot": 3}
    assert Deactivate(3).to_dict() == {"type": "deactivate", "slot": 3}
    assert EndPhase().to_dict() == {"type": "end_phase"}
    assert Refill(5).to_dict() == {"type": "refill", "slot": 5}
    assert PlaceToken(1, "fire", "supply").to_dict() == {
        "type": "place_token", "slot": 1, "element": "fire", "source": "supply"}
    assert UsePower("water", "minor", (1, 3)).to_dict() == {
        "type": "use_power", "element": "water", "tier": "minor", "targets": [1, 3]}


@pytest.mark.parametrize("action", EVERY_KIND, ids=lambda a: type(a).__name__)
def test_from_dict_round_trips_every_action_through_json(action: Action) -> None:
    text = json.dumps(action.to_dict())
    again = Action.from_dict(json.loads(text))
    assert again == action and type(again) is type(action)
    assert hash(again) == hash(action)


def test_actions_are_immutable_values_equal_by_content() -> None:
    assert Activate(3) == Activate(3) and Activate(3) != Deactivate(3) and Activate(3) != Refill(3)
    assert UsePower("wind", "major", [0, 2]) == UsePower("wind", "major", (0, 2))
    assert UsePower("wind", "major", [0, 2]).targets == (0, 2)
    assert len({Activate(1), Activate(1), EndPhase(), EndPhase()}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        Activate(3).slot = 4  # type: ignore[misc]


def test_end_phase_is_one_value_the_legal_lists_share() -> None:
    # apply() knows its legal list's actions by identity: a caller's EndPhase() is that one,
    # through JSON, pickle and copies too.
    game = Game.new(players=2, seed=1)
    assert EndPhase() is EndPhase() is game.legal_actions()[-1]
    assert Action.from_dict({"type": "end_phase"}) is EndPhase()
    assert pickle.loads(pickle.dumps(EndPhase())) is copy.deepcopy(EndPhase()) is EndPhase()


def test_use_power_targets_default_to_empty() -> None:
    assert Action.from_dict({"type": "use_power", "element": "fire", "tier": "minor"}) == UsePower(
        "fire", "minor")


MALFORMED: list[tuple[Any, str]] = [
    (None, "an action must be an object, got NoneType"),
    ([1], "an action must be an object, got list"),
    ("activate", "an action must be an object, got str"),
    ({"slot": 1}, "unknown action type None; types are activate, deactivate, end_phase, refill, "
                  "place_token, use_power"),
    ({"type": "fly"}, "unknown action type 'fly'"),
    ({"type": 5}, "unknown action type 5"),
    ({"type": "activate"}, "activate needs an integer 'slot', got None"),
    ({"type": "activate", "slot": True}, "activate needs an integer 'slot', got True"),
    ({"type": "activate", "slot": 1.0}, "activate needs an integer 'slot', got 1.0"),
    ({"type": "activate", "slot": 1, "x": 2}, "activate has unexpected field(s) x"),
    ({"type": "deactivate", "slot": "1"}, "deactivate needs an integer 'slot', got '1'"),
    ({"type": "refill", "slot": None}, "refill needs an integer 'slot', got None"),
    ({"type": "end_phase", "slot": 1}, "end_phase has unexpected field(s) slot"),
    ({"type": "place_token", "slot": 1, "element": "fire"},
     "place_token needs a string 'source', got None"),
    ({"type": "place_token", "slot": 1, "element": 3, "source": "supply"},
     "place_token needs a string 'element', got 3"),
    ({"type": "place_token", "slot": 1, "element": "fire", "source": "bank"},
     "place_token source must be one of supply, marker, pool, got 'bank'"),
    ({"type": "use_power", "element": "fire"}, "use_power needs a string 'tier', got None"),
    ({"type": "use_power", "element": "fire", "tier": "mega"},
     "use_power tier must be 'minor' or 'major', got 'mega'"),
    ({"type": "use_power", "element": "fire", "tier": "minor", "targets": "12"},
     "use_power targets must be a list of slot numbers, got '12'"),
    ({"type": "use_power", "element": "fire", "tier": "minor", "targets": [True]},
     "use_power targets must be a list of slot numbers"),
    ({"type": "use_power", "element": "fire", "tier": "minor", "targets": [1.5]},
     "use_power targets must be a list of slot numbers"),
    ({"type": "use_power", "element": "fire", "tier": "minor", "targets": list(range(65))},
     "use_power targets must be a list of slot numbers"),
    ({"type": "use_power", "element": 7, "tier": "minor"},
     "use_power needs a string 'element', got 7"),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_malformed_dicts_raise_value_error_naming_the_field(data: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        Action.from_dict(data)
    assert message in str(info.value)


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_a_game_refuses_malformed_dicts_and_changes_nothing(data: Any, message: str) -> None:
    game = new("fire fire water earth")
    err = refused(game, data, "malformed action: " + message, rule="actions")
    assert isinstance(err, ValueError)


def test_well_formed_but_impossible_dicts_are_refused_by_the_rules() -> None:
    game = new("fire fire water earth")
    refused(game, {"type": "deactivate", "slot": -1}, "slot -1 does not exist", rule="grid")
    refused(game, {"type": "place_token", "slot": 0, "element": "aether", "source": "pool"},
            "Binding Spell tokens are placed in the binding phase")


def test_an_object_that_is_not_an_action_is_refused() -> None:
    game = new("fire fire water earth")
    refused(game, object(), "malformed action: an action must be an object")  # type: ignore
