"""The eight powers: effect, the targets legal_actions lists, refused targets, once per turn.

``SMALL_MAJOR`` (tests/hand.py) unlocks Major powers at 3 cards so that a 2x2 grid reaches
them in one turn; the default 5 is checked in test_engine.py.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest
from hand import MID, SMALL_MAJOR, new, play, refused, to_activation, types
from support import SMALL

from leyline_widget import (
    Activate,
    EndPhase,
    Game,
    IllegalActionError,
    Phase,
    PlaceToken,
    Refill,
    Rules,
    UsePower,
    visible_events,
)
from leyline_widget.core.rules import DEFAULT_POWERS


def _powers(game: Game) -> list[UsePower]:
    return [a for a in game.legal_actions() if isinstance(a, UsePower)]


def _collected(top: str, slots: tuple[int, ...], rules: Rules = SMALL, players: int = 1) -> Game:
    """Turn 1 collects ``slots``, refills them in order and ends; turn 2 (or 3 for 2 players,
    after player 1 passes) is at its start."""
    game = new(top, rules=rules, players=players)
    play(game, *[Activate(s) for s in slots], EndPhase(), *[Refill(s) for s in slots], EndPhase())
    if players == 2:
        play(game, EndPhase(), EndPhase())
    return game


# ---------------------------------------------------------------------------- fire


def test_spark_gives_one_more_activation_this_turn() -> None:
    game = _collected("fire fire water water  earth earth", (0, 1))
    assert game.phase is Phase.ABILITIES
    assert _powers(game) == [UsePower("fire", "minor")]
    events = game.apply(UsePower("fire", "minor"))
    assert events[0] == {"type": "power", "player": 0, "element": "fire", "tier": "minor",
                         "name": "Spark", "effect": "spark", "targets": []}
    assert game.phase is Phase.ACTIVATION
    assert game.observation(0)["activations"] == {"used": 0, "limit": 4}
    events = play(game, Activate(0), Activate(1), Activate(2), Activate(3), EndPhase())
    assert [ev["element"] for ev in events if ev["type"] == "collect"] == ["water", "earth"]
    play(game, Refill(0), Refill(1), Refill(2), Refill(3), EndPhase())
    assert game.observation(0)["activations"]["limit"] == 3  # for this turn only


def test_spark_takes_no_target() -> None:
    game = _collected("fire fire water water  earth earth", (0, 1))
    refused(game, UsePower("fire", "minor", (1,)), "Spark: takes no target, got 1",
            rule="powers")


def test_wildfire_collects_every_activated_card_even_a_lone_one() -> None:
    game = _collected("fire fire fire water  earth wind water", (0, 1, 2), rules=SMALL_MAJOR)
    assert _powers(game) == [UsePower("fire", "minor"), UsePower("fire", "major")]
    game.apply(UsePower("fire", "major"))
    assert game.phase is Phase.ABILITIES  # Spark is still usable
    obs = game.observation(0)
    assert obs["collect_threshold"] == 1 and obs["effects"] == ["wildfire"]
    play(game, EndPhase(), Activate(0), Activate(1))  # earth and wind: two lone cards
    events = game.apply(EndPhase())
    assert [(ev["element"], ev["count"]) for ev in events if ev["type"] == "collect"] == [
        ("earth", 1), ("wind", 1)]
    assert "flip_back" not in types(events)
    play(game, Refill(0), Refill(1), EndPhase())
    assert game.observation(0)["collect_threshold"] == 2


# ---------------------------------------------------------------------------- water


def _ripple_game() -> Game:
    """3 water collected, one paid as a token onto slot 3: 2 water keep Ripple unlocked."""
    game = new("water water water fire  earth earth wind")
    play(game, Activate(0), Activate(1), Activate(2), EndPhase(), Refill(0), Refill(1),
         Refill(2), PlaceToken(3, "water", "supply"), EndPhase())
    return game


def test_ripple_swaps_two_cards_and_their_tokens_move_with_them() -> None:
    game = _ripple_game()
    assert [game.card(s) for s in range(4)] == ["earth", "earth", "wind", "fire"]
    events = game.apply(UsePower("water", "minor", (1, 3)))
    assert events[:2] == [
        {"type": "power", "player": 0, "element": "water", "tier": "minor", "name": "Ripple",
         "effect": "ripple", "targets": [1, 3]},
        {"type": "swap", "slots": [1, 3]}]
    assert [game.card(s) for s in range(4)] == ["earth", "fire", "wind", "earth"]
    grid = game.observation(0)["grid"]
    assert grid[1]["tokens"] == {"water": 1} and grid[3]["tokens"] == {}
    assert grid[1]["element"] is None  # still inert: the swap reveals nothing


def test_ripple_lists_every_pair_of_cards_in_ascending_order() -> None:
    game = _ripple_game()
    assert _powers(game) == [UsePower("water", "minor", pair)
                             for pair in combinations(range(4), 2)]


@pytest.mark.parametrize(("targets", "words"), [
    ((1,), "takes two slots, got 1"),
    ((1, 2, 3), "takes two slots, got 3"),
    ((2, 2), "target slots must be distinct and in ascending order"),
    ((3, 1), "target slots must be distinct and in ascending order"),
    ((1, 4), "slot 4 does not exist: the grid has slots 0 to 3"),
    ((-1, 2), "slot -1 does not exist"),
])
def test_ripple_refuses_bad_targets(targets: tuple[int, ...], words: str) -> None:
    refused(_ripple_game(), UsePower("water", "minor", targets), "Ripple: " + words,
            rule="powers")


def test_a_bool_is_not_a_target_slot() -> None:
    game = _ripple_game()
    before = game.state_hash()
    # A bool is an int to Python; as a target it is refused before it can equal slot 1.
    with pytest.raises(ValueError, match="use_power needs an integer slot, got True"):
        game.apply(UsePower("water", "minor", (True, 2)))
    with pytest.raises(IllegalActionError, match=r"malformed action.*targets"):
        game.apply({"type": "use_power", "element": "water", "tier": "minor",
                    "targets": [True, 2]})
    assert game.state_hash() == before


def _tide_game() -> Game:
    """Turn 3 of a SMALL_MAJOR game: 3 water (Ripple, Tide), 2 fire, slot 3 bound by fire."""
    game = new("water water water fire  fire earth earth wind", rules=SMALL_MAJOR)
    play(game, Activate(0), Activate(1), Activate(2), EndPhase(), Refill(0), Refill(1),
         Refill(2), EndPhase())
    play(game, EndPhase(), Activate(0), Activate(3), EndPhase(), Refill(0), Refill(3),
         PlaceToken(2, "fire", "supply"), EndPhase())
    return game


def test_tide_swaps_a_token_free_card_with_the_deck_top_and_reveals_it() -> None:
    game = _tide_game()
    top = game.deck[0]
    old = game.card(1)
    count = game.observation(0)["deck"]["count"]
    events = game.apply(UsePower("water", "major", (1,)))
    assert events[1:3] == [
        {"type": "tide", "slot": 1, "to_deck": old},
        {"type": "reveal", "slot": 1, "element": top, "cause": "tide", "visible_to": "all"}]
    assert visible_events(events, 0) == events
    assert game.card(1) == top
    assert game.observation(0)["deck"] == {"count": count, "top": old}
    assert game.observation(0)["grid"][1] == {"card": "inert", "element": None, "tokens": {}}


def test_tide_lists_only_token_free_cards_and_refuses_bound_ones() -> None:
    game = _tide_game()
    assert game.observation(0)["grid"][2]["tokens"] == {"fire": 1}
    tides = [a.targets for a in _powers(game) if a.tier == "major"]
    assert tides == [(0,), (1,), (3,)]
    refused(game, UsePower("water", "major", (2,)),
            "Tide: slot 2 carries Binding tokens; Tide needs a token-free card")
    refused(game, UsePower("water", "major", ()), "Tide: takes one slot, got 0")


def test_tide_is_not_offered_when_the_deck_is_empty() -> None:
    rules = Rules.default().replace(elements=("fire", "water", "earth"), cards_per_element=3,
                                    grid_rows=2, grid_cols=2, major_threshold=3)
    game = Game.new(rules=rules, deck=["water", "water", "water", "earth", "fire", "fire", "fire",
                                       "earth", "earth"])
    play(game, Activate(0), Activate(1), Activate(2), EndPhase(), Refill(0), Refill(1),
         Refill(2), EndPhase(), EndPhase(), Activate(0), Activate(1), EndPhase(),
         Refill(0), Refill(1), EndPhase())
    assert game.observation(0)["deck"]["count"] == 0 and not game.is_over
    assert game.observation(0)["players"][0]["unlocked"] == [
        "fire:minor", "water:minor", "water:major"]
    assert {(a.element, a.tier) for a in _powers(game)} == {("fire", "minor"),
                                                            ("water", "minor")}
    refused(game, UsePower("water", "major", (0,)), "Tide: the Leyline deck is empty")


# ---------------------------------------------------------------------------- earth


def _unbind_game(players: int = 1) -> Game:
    """3 earth collected by player 0; slot 3 (water) bound by 2 fire tokens."""
    # Turn 2 collects fire and binds slot 3: player 0's own turn solo, player 1's with two.
    game = new("earth earth earth fire  fire wind water", players=players)
    play(game, Activate(0), Activate(1), Activate(2), EndPhase(), Refill(0), Refill(1),
         Refill(2), EndPhase())
    play(game, Activate(0), Activate(3), EndPhase(), Refill(0), Refill(3),
         PlaceToken(3, "fire", "supply"), PlaceToken(3, "fire", "supply"), EndPhase())
    assert game.active_player == 0 and game.phase is Phase.ABILITIES
    return game


def test_unbind_removes_every_token_from_a_card_back_to_your_marker() -> None:
    game = _unbind_game()
    assert _powers(game) == [UsePower("earth", "minor", (3,))]
    events = game.apply(UsePower("earth", "minor", (3,)))
    assert {"type": "token_return", "player": 0, "slot": 3, "element": "fire", "count": 2,
            "to": "marker"} in events
    obs = game.observation(0)
    assert obs["grid"][3]["tokens"] == {}
    assert obs["players"][0]["marker_tokens"]["fire"] == 2
    assert game.phase is Phase.ACTIVATION


def test_unbind_returns_tokens_to_the_pool_without_a_matching_marker() -> None:
    game = _unbind_game(players=2)
    events = game.apply(UsePower("earth", "minor", (3,)))
    assert [ev["to"] for ev in events if ev["type"] == "token_return"] == ["pool"]
    assert game.observation(1)["pool"]["fire"] == 2


def test_unbind_refuses_a_card_without_tokens() -> None:
    game = _unbind_game()
    refused(game, UsePower("earth", "minor", (1,)), "Unbind: slot 1 carries no Binding tokens")


def test_sanctuary_ignores_binding_tokens_this_turn() -> None:
    game = new("earth earth earth fire  fire wind water", rules=SMALL_MAJOR, players=2)
    play(game, Activate(0), Activate(1), Activate(2), EndPhase(), Refill(0), Refill(1),
         Refill(2), EndPhase())
    play(game, Activate(0), Activate(3), EndPhase(), Refill(0), Refill(3),
         PlaceToken(3, "fire", "supply"), PlaceToken(3, "fire", "supply"), EndPhase())
    assert [(a.element, a.tier, a.targets) for a in _powers(game)] == [
        ("earth", "minor", (3,)), ("earth", "major", ())]
    events = game.apply(UsePower("earth", "major"))
    assert events[0]["name"] == "Sanctuary" and game.phase is Phase.ABILITIES
    assert game.observation(1)["effects"] == ["sanctuary"]
    game.apply(EndPhase())
    assert Activate(3) in game.legal_actions()
    play(game, Activate(2), Activate(3))
    assert "collect" in types(game.apply(EndPhase()))
    play(game, Refill(2), Refill(3), EndPhase())
    assert game.observation(0)["effects"] == []  # for that turn only


def test_without_sanctuary_the_same_card_is_refused() -> None:
    game = _unbind_game(players=2)
    game.apply(EndPhase())
    refused(game, Activate(3), "slot 3 is bound by 2 fire tokens and your Study holds 0 fire",
            rule="binding")


# ---------------------------------------------------------------------------- wind


def test_whisper_shows_one_inert_card_to_its_user_only() -> None:
    game = _collected("wind wind fire fire  water earth", (0, 1), players=2)
    assert _powers(game) == [UsePower("wind", "minor", (s,)) for s in range(4)]
    before = {v: game.observation(v)["grid"] for v in (0, 1)}
    events = game.apply(UsePower("wind", "minor", (2,)))
    reveal = {"type": "reveal", "slot": 2, "element": "fire", "cause": "whisper",
              "visible_to": [0]}
    assert events[1] == reveal
    assert visible_events(events, 0)[1] == reveal
    assert visible_events(events, None)[1] == reveal
    assert visible_events(events, 1)[1] == {**reveal, "element": None}
    # The peek is an event, never state: the card stays inert and hidden in every view.
    assert {v: game.observation(v)["grid"] for v in (0, 1)} == before


@pytest.mark.parametrize(("targets", "words"), [
    ((), "takes one slot, got 0"),
    ((0, 1), "takes one slot, got 2"),
    ((7,), "slot 7 does not exist"),
])
def test_whisper_refuses_bad_targets(targets: tuple[int, ...], words: str) -> None:
    game = _collected("wind wind fire fire  water earth", (0, 1))
    refused(game, UsePower("wind", "minor", targets), "Whisper: " + words)


def test_gale_shows_up_to_three_cards_to_its_user_only() -> None:
    game = _collected("wind wind wind fire  fire water earth", (0, 1, 2), rules=SMALL_MAJOR,
                      players=2)
    gales = [a.targets for a in _powers(game) if a.tier == "major"]
    assert gales == [t for k in (1, 2, 3) for t in combinations(range(4), k)]
    events = game.apply(UsePower("wind", "major", (0, 2, 3)))
    reveals = [ev for ev in events if ev["type"] == "reveal"]
    assert [(ev["slot"], ev["element"], ev["cause"], ev["visible_to"]) for ev in reveals] == [
        (0, "fire", "gale", [0]), (2, "earth", "gale", [0]), (3, "fire", "gale", [0])]
    assert all(ev["element"] is None for ev in visible_events(reveals, 1))
    assert game.phase is Phase.ABILITIES  # Whisper is still usable


@pytest.mark.parametrize(("targets", "words"), [
    ((), "takes one to three slots, got 0"),
    ((0, 1, 2, 3), "takes one to three slots, got 4"),
    ((0, 0), "target slots must be distinct and in ascending order"),
])
def test_gale_refuses_bad_targets(targets: tuple[int, ...], words: str) -> None:
    game = _collected("wind wind wind fire  fire water earth", (0, 1, 2), rules=SMALL_MAJOR)
    refused(game, UsePower("wind", "major", targets), "Gale: " + words)


# ---------------------------------------------------------------------------- all powers


def test_each_power_is_used_once_per_turn() -> None:
    game = _collected("fire fire fire water  earth wind water", (0, 1, 2), rules=SMALL_MAJOR)
    game.apply(UsePower("fire", "minor"))
    assert game.phase is Phase.ABILITIES
    assert _powers(game) == [UsePower("fire", "major")]
    refused(game, UsePower("fire", "minor"), "Spark was already used this turn", rule="powers")
    assert game.observation(0)["powers_used"] == ["fire:minor"]
    play(game, EndPhase(), EndPhase(), EndPhase())
    assert game.observation(0)["powers_used"] == []
    assert _powers(game) == [UsePower("fire", "minor"), UsePower("fire", "major")]


def test_a_locked_power_is_refused_with_the_threshold() -> None:
    game = _collected("fire fire water water  earth earth", (0, 1))
    refused(game, UsePower("fire", "major"), "Wildfire unlocks at 5 fire in your Study, and you "
            "have 2", rule="powers")
    refused(game, UsePower("water", "minor", (0, 1)), "Ripple unlocks at 2 water in your Study, "
            "and you have 0")


def test_powers_are_used_only_in_phase1() -> None:
    game = _collected("fire fire water water  earth earth", (0, 1))
    game.apply(EndPhase())
    refused(game, UsePower("fire", "minor"), "powers are used in the abilities phase; it is now "
            "the activation phase", rule="turn structure")


def test_unknown_elements_and_missing_powers_are_refused() -> None:
    game = _collected("fire fire water water  earth earth", (0, 1))
    refused(game, UsePower("aether", "minor"), "unknown element 'aether'", rule="elements")
    refused(game, UsePower("fire", "mega"), "fire has no mega power in these rules")


def test_a_ruleset_can_give_an_element_no_power() -> None:
    rules = SMALL.replace(powers=[p for p in DEFAULT_POWERS if p.element != "fire"])
    game = _collected("fire fire water water  earth earth", (0, 1), rules=rules)
    assert game.phase is Phase.ACTIVATION
    game.apply(EndPhase())
    game.apply(EndPhase())
    to_activation(game)
    refused(game, UsePower("fire", "minor"), "in the abilities phase")


def test_a_ruleset_can_move_an_effect_to_another_element() -> None:
    powers = [p for p in DEFAULT_POWERS if p.key != "fire:minor"]
    spark = next(p for p in DEFAULT_POWERS if p.effect.id == "spark")
    powers.append(replace(spark, element="wind", tier="minor", name="Gust"))
    powers = [p for p in powers if p.key != "wind:minor" or p.name == "Gust"]
    rules = SMALL.replace(powers=powers)
    game = _collected("wind wind water water  earth earth", (0, 1), rules=rules)
    assert _powers(game) == [UsePower("wind", "minor")]
    events = game.apply(UsePower("wind", "minor"))
    assert events[0]["name"] == "Gust" and events[0]["effect"] == "spark"
    assert game.observation(0)["activations"]["limit"] == 4


def _all_powers() -> Game:
    """Phase 1 with every power unlocked (3 of each element, Majors at 3), two bound cards for
    Unbind, token-free cards and a deck for Tide."""
    return Game.from_position({
        "rules": MID.replace(major_threshold=3).to_dict(),
        "grid": ["fire", "water", "earth", "wind", "fire", "water"],
        "tokens": [{}, {}, {}, {}, {"wind": 1}, {"fire": 1}],
        "deck": ["earth", "wind", "fire", "water", "earth", "wind"],
        "study": [{"fire": 3, "water": 3, "earth": 3, "wind": 3}],
        "phase": "abilities"})


@pytest.mark.parametrize("key", [p.key for p in DEFAULT_POWERS])
def test_every_power_is_used_at_most_once_per_turn(key: str) -> None:
    game = _all_powers()
    element, tier = key.split(":")
    mine = [a for a in _powers(game) if (a.element, a.tier) == (element, tier)]
    assert mine, key
    game.apply(mine[0])
    assert game.phase is Phase.ABILITIES  # the other seven are still usable
    assert game.observation(0)["powers_used"] == [key]
    assert all((a.element, a.tier) != (element, tier) for a in _powers(game))
    name = game.rules.power(element, tier).name  # type: ignore[union-attr]
    refused(game, mine[-1], f"{name} was already used this turn", rule="powers")
    play(game, EndPhase(), EndPhase(), EndPhase())  # end Phase 1, pass, end the turn
    assert game.phase is Phase.ABILITIES and game.observation(0)["powers_used"] == []
    assert any((a.element, a.tier) == (element, tier) for a in _powers(game))
