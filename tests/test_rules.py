"""Rules: the default ruleset (RULES.md), validated variants, explicit decks, power texts."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from support import SMALL

from leyline_widget import Game, Power, Rules
from leyline_widget.core.game import check_deck
from leyline_widget.core.rules import DEFAULT_POWERS, EFFECTS

_POWER = {"element": "fire", "tier": "minor", "effect": "spark", "name": "Kindle",
          "text": "t", "instructions": "i"}


def test_the_default_ruleset_is_designs_table() -> None:
    rules = Rules.default()
    assert rules.elements == ("fire", "water", "earth", "wind")
    assert (rules.cards_per_element, rules.deck_size) == (12, 48)
    assert (rules.grid_rows, rules.grid_cols, rules.grid_size) == (3, 4, 12)
    assert (rules.activations_per_turn, rules.collect_threshold) == (3, 2)
    assert (rules.minor_threshold, rules.major_threshold) == (2, 5)
    assert (rules.tokens_per_element, rules.turn_limit) == (5, None)
    assert rules == Rules()


def test_the_default_powers_are_designs_table() -> None:
    table = {(p.element, p.tier): (p.name, p.effect.id) for p in Rules.default().powers}
    assert table == {
        ("fire", "minor"): ("Spark", "spark"), ("fire", "major"): ("Wildfire", "wildfire"),
        ("water", "minor"): ("Ripple", "ripple"), ("water", "major"): ("Tide", "tide"),
        ("earth", "minor"): ("Unbind", "unbind"), ("earth", "major"): ("Sanctuary", "sanctuary"),
        ("wind", "minor"): ("Whisper", "whisper"), ("wind", "major"): ("Gale", "gale"),
    }
    assert sorted(p.effect.id for p in DEFAULT_POWERS) == sorted(EFFECTS)


def test_every_power_has_hover_text_and_click_instructions() -> None:
    """Seed: hover an unlocked button for the power text; click it for instructions."""
    for p in Rules.default().powers:
        assert p.text.strip() and p.instructions.strip() and p.name.strip()
        assert p.name in p.instructions or "Click" in p.instructions
    assert Rules.default().power("water", "major").text.startswith("Swap a token-free")


def test_thresholds_and_power_lookup() -> None:
    rules = Rules.default()
    assert (rules.threshold("minor"), rules.threshold("major")) == (2, 5)
    assert rules.power("wind", "major").name == "Gale"  # type: ignore[union-attr]
    assert rules.power("aether", "minor") is None
    assert DEFAULT_POWERS[0].key == "fire:minor"


def test_replace_makes_a_validated_variant_and_leaves_the_original() -> None:
    rules = Rules.default()
    variant = rules.replace(grid_cols=5, activations_per_turn=2, turn_limit=30)
    assert (variant.grid_size, variant.activations_per_turn, variant.turn_limit) == (15, 2, 30)
    assert rules.grid_size == 12 and rules.turn_limit is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.grid_cols = 9  # type: ignore[misc]


@pytest.mark.parametrize(("changes", "message"), [
    ({"colour": 1}, "unknown rules field(s) colour; fields are activations_per_turn, "),
    ({"collect_threshold": 0}, "collect_threshold must be at least 1, got 0"),
    ({"minor_threshold": 0}, "minor_threshold must be at least 1, got 0"),
    ({"major_threshold": 0}, "major_threshold must be at least 1, got 0"),
    ({"activations_per_turn": 0}, "activations_per_turn must be at least 1, got 0"),
    ({"cards_per_element": -3}, "cards_per_element must be at least 1, got -3"),
    ({"grid_rows": 0}, "grid_rows must be at least 1, got 0"),
    ({"tokens_per_element": -1}, "tokens_per_element must be at least 0, got -1"),
    ({"turn_limit": 0}, "turn_limit must be at least 1, got 0"),
    ({"grid_rows": True}, "grid_rows must be a whole number, got True"),
    ({"grid_cols": "4"}, "grid_cols must be a whole number, got '4'"),
    ({"cards_per_element": 2.0}, "cards_per_element must be a whole number, got 2.0"),
    ({"turn_limit": True}, "turn_limit must be a whole number, got True"),
    ({"tokens_per_element": None}, "tokens_per_element must be a whole number, got None"),
    ({"grid_rows": 7, "grid_cols": 7},
     "the grid (7x7 = 49 slots) is larger than the deck (48 cards)"),
    ({"collect_threshold": 4},
     "collect_threshold (4) exceeds activations_per_turn (3): no element could ever be collected"),
    ({"collect_threshold": 3, "cards_per_element": 2, "grid_rows": 2, "grid_cols": 2},
     "collect_threshold (3) exceeds cards_per_element (2)"),
    ({"major_threshold": 1}, "major_threshold (1) must not be below minor_threshold (2)"),
    ({"elements": "fire"}, "elements must be a list of element names, got 'fire'"),
    ({"elements": None}, "elements must be a list of element names, got None"),
    ({"elements": []}, "elements must name at least one element"),
    ({"elements": ["Fire"]}, "element 'Fire' is not a valid id"),
    ({"elements": [1]}, "element 1 is not a valid id"),
    ({"elements": ["fire", "fire"]}, "elements must be distinct, got ['fire', 'fire']"),
    ({"elements": [f"e{i}" for i in range(33)], "cards_per_element": 1, "collect_threshold": 1},
     "elements must name at most 32 elements, got 33"),
    ({"powers": "spark"}, "powers must be a list of powers, got 'spark'"),
    ({"powers": {"fire": "spark"}}, "powers must be a list of powers"),
    ({"powers": [5]}, "a power must be an object, got int"),
    ({"powers": [{"element": "fire"}]},
     "power is missing field(s) tier, effect, name, text, instructions"),
    ({"powers": [{**_POWER, "name": 3}]}, "power field 'name' must be a string, got 3"),
    ({"powers": [{**_POWER, "element": "aether"}]},
     "power 'Kindle' belongs to unknown element 'aether'"),
    ({"powers": [{**_POWER, "tier": "mega"}]}, "power 'Kindle' has tier 'mega'; tiers are minor"),
    ({"powers": [{**_POWER, "effect": "boom"}]}, "power 'Kindle': unknown effect 'boom'"),
    ({"powers": [_POWER, _POWER]}, "two powers for fire:minor"),
])
def test_nonsense_rules_raise_a_clear_value_error(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        Rules.default().replace(**changes)
    assert message in str(info.value)


def test_other_elements_keep_the_default_powers_of_those_still_present() -> None:
    rules = Rules.default().replace(elements=("fire", "water", "light"))
    assert [p.key for p in rules.powers] == ["fire:minor", "fire:major", "water:minor",
                                             "water:major"]
    assert rules.deck_size == 36


def test_custom_powers_are_accepted_as_dicts_and_power_values() -> None:
    rules = SMALL.replace(powers=[_POWER])
    assert rules.powers == (Power(**_POWER),)
    assert SMALL.replace(powers=(Power(**_POWER),)) == rules
    assert SMALL.replace(powers=()).powers == ()


def test_rules_round_trip_through_json() -> None:
    for rules in (Rules.default(), SMALL.replace(turn_limit=9, powers=[_POWER])):
        text = json.dumps(rules.to_dict())
        assert Rules.from_dict(json.loads(text)) == rules
    with pytest.raises(ValueError, match="rules must be an object, got list"):
        Rules.from_dict([1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown rules field"):
        Rules.from_dict({"grid": 3})


def test_power_from_dict_refuses_non_objects() -> None:
    with pytest.raises(ValueError, match="a power must be an object, got str"):
        Power.from_dict("spark")  # type: ignore[arg-type]
    assert Power.from_dict(Power(**_POWER).to_dict()) == Power(**_POWER)


# ---------------------------------------------------------------------------- explicit decks


def test_an_explicit_deck_is_dealt_in_order_without_shuffling() -> None:
    deck = [e for _ in range(3) for e in SMALL.elements]
    game = Game.new(rules=SMALL, deck=deck)
    assert game.initial_deck == tuple(deck)
    assert [game.card(s) for s in range(4)] == deck[:4]
    assert game.deck == tuple(deck[4:])
    assert game.seed is None


@pytest.mark.parametrize(("deck", "message"), [
    (["fire"] * 12, "deck has 12 fire cards; these rules need 3 of each element"),
    (["fire", "water", "earth", "wind"] * 2, "deck has 8 cards; these rules need 12 (3 of each"),
    (["fire", "water", "earth", "wind"] * 4, "deck has 16 cards"),
    (["aether"] * 12, "deck card 0 is 'aether', not one of fire, water, earth, wind"),
    (["fire", "water", "earth", 4] * 3, "deck card 3 is 4"),
    ("fire" * 12, "deck must be a list of element names, got str"),
    (12, "deck must be a list of element names, got int"),
])
def test_an_explicit_deck_must_hold_exactly_the_rules_cards(deck: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        Game.new(rules=SMALL, deck=deck)
    assert message in str(info.value)
    with pytest.raises(ValueError):
        check_deck(SMALL, deck)
