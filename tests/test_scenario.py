"""The scenario builder: readable set-ups, automatic filling, and clear refusals."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise

import pytest
from support import SMALL

from leyline_widget import Activate, Game, Phase, Refill, Rules
from leyline_widget.teach.scenario import Scenario


def _all_cards(position: dict) -> Counter:
    """Every card of a position, wherever it lies."""
    cards: Counter = Counter(position["deck"])
    cards.update(c for c in position["grid"] if c is not None)
    for row in position["study"] + position["markers"]:
        cards.update(row)
    return cards


def test_a_scenario_sets_every_part_of_the_position() -> None:
    s = (Scenario(players=["Ada", "Grace"])
         .grid("F wa ? ? / ? ? Water ? / ? ? ? wi")
         .seen(0, 1, 6)
         .tokens(1, wind=2, fire=1)
         .study(0, wind=2, fire=1)
         .markers(1, earth=1, stacked={"earth": 2})
         .pool(fire=1)
         .deck_top("earth", "fire")
         .turn(4, active_player=1)
         .phase("binding"))
    game = s.build()
    pos = game.position()
    assert [game.card(i) for i in (0, 1, 6, 11)] == ["fire", "water", "water", "wind"]
    assert pos["tokens"][1] == {"wind": 2, "fire": 1}
    assert pos["study"] == [{"fire": 1, "wind": 2}, {}]
    assert pos["markers"] == [{}, {"earth": 1}]
    assert pos["marker_tokens"] == [{}, {"earth": 2}]
    assert pos["pool"] == {"fire": 1}
    assert pos["deck"][:2] == ["earth", "fire"]
    assert (game.phase, game.turn, game.active_player) == (Phase.BINDING, 4, 1)
    assert game.observation(0)["supply"] == {"fire": 3, "water": 5, "earth": 3, "wind": 3}
    assert _all_cards(pos) == {el: 12 for el in game.rules.elements}
    assert s.seen_cards(0) == {0: "fire", 1: "water", 6: "water"}
    assert s.seen_cards(1) == {}
    assert s.learner == 1


def test_the_rest_is_filled_in_a_fixed_order_and_a_seed_reshuffles_only_the_rest() -> None:
    base = Scenario().grid("f ? ? ? / ? ? ? ? / ? ? ? wi").deck_top("earth")
    one, two = base.build(), base.build()
    assert one.state_hash() == two.state_hash()
    # Round-robin keeps the filled-in cards mixed: no two neighbours alike in a fresh scenario.
    dealt = [one.card(s) for s in range(1, 11)]
    assert all(a != b for a, b in pairwise(dealt))
    other = base.with_seed(5).build()
    assert other.state_hash() != one.state_hash()
    for game in (one, other):
        assert (game.card(0), game.card(11), game.deck[0]) == ("fire", "wind", "earth")
        assert _all_cards(game.position()) == {el: 12 for el in game.rules.elements}


def test_builder_methods_return_new_scenarios() -> None:
    base = Scenario().grid("f ? ? ? / ? ? ? ? / ? ? ? ?")
    base.study(0, fire=2).seen(0)
    assert base.build().study(0) == {el: 0 for el in Rules.default().elements}
    assert base.seen_cards() == {}


def test_position_is_json_and_rebuilds_the_same_game() -> None:
    s = Scenario(rules=SMALL).grid("f . / ? e").phase("refill").tokens(0, water=1)
    pos = json.loads(json.dumps(s.position()))
    game = s.build()
    assert Game.from_position(pos).state_hash() == game.state_hash()
    assert game.legal_actions() == [Refill(1)]


def test_active_cards_are_known_to_every_player() -> None:
    s = Scenario(players=2).grid("e ? ? ? / e ? ? ? / ? ? ? ?").active(0, 4)
    game = s.build()
    assert game.observation(1)["grid"][0] == {"card": "active", "element": "earth", "tokens": {}}
    assert s.seen_cards(1) == {0: "earth", 4: "earth"}
    assert Activate(0) not in game.legal_actions()


@pytest.mark.parametrize(("build", "message"), [
    (lambda: Scenario().grid("f f f f / f f f f / f f f f").study(0, fire=1).build(),
     "scenario: it places 13 fire cards (grid 12, Studies 1); these rules have 12"),
    (lambda: Scenario().tokens(0, wind=3).tokens(1, wind=2).pool(wind=1).build(),
     "scenario: the position uses 6 wind tokens (cards, marker stacks and pool); these rules "
     "have 5"),
    (lambda: Scenario().grid("w ? ? ?  / ? ? ? ? / ? ? ? ?"),
     "grid slot 0: 'w' is ambiguous (water, wind); write more letters"),
    (lambda: Scenario().grid("x ? ? ? / ? ? ? ? / ? ? ? ?"),
     "grid slot 0: 'x' is not an element; write one of fire, water, earth, wind (or a unique "
     "prefix: f, wa, e, wi)"),
    (lambda: Scenario().grid("f ? ? ? / ? ? ?"),
     "grid: the layout has 2 rows; these rules' grid has 3"),
    (lambda: Scenario().grid("f ? ? ? / ? ? ? / ? ? ? ? ?"),
     "grid: row 1 has 3 cells; rows have 4"),
    (lambda: Scenario().grid(["fire"] * 11),
     "grid: the layout has 11 cells; these rules' grid has 12 slots (3 rows x 4 columns)"),
    (lambda: Scenario().seen(3).build(),
     "seen: slot 3 is '?' (any card); a card a player has seen must be named in the grid"),
    (lambda: Scenario().seen(12), "seen: slot 12 does not exist; the grid has slots 0 to 11"),
    (lambda: Scenario().study(1, fire=1), "study: player 1 does not exist; players are 0 to 0"),
    (lambda: Scenario().study(0, fire=-1), "study[0].fire must be a whole number of at least 0"),
    (lambda: Scenario().grid("f ? ? ? / ? ? ? ? / ? ? ? .").build(),
     "scenario: phase activation needs a full grid; 1 slot(s) are empty"),
    (lambda: Scenario().markers(0, stacked={"fire": 1}).build(),
     "scenario: marker_tokens[0].fire: tokens are stacked on a Spent fire marker that player 0 "
     "does not have"),
    (lambda: Scenario(rules=SMALL).grid("f . / ? e").phase("refill").tokens(1, fire=1).build(),
     "scenario: tokens[1]: slot 1 is empty, and tokens lie only on cards"),
    (lambda: Scenario(rules=SMALL).deck("fire").build(),
     "scenario: the deck was given in full, so every other card must be placed, but 1 fire, "
     "2 water, 2 earth, 2 wind are left over"),
    (lambda: Scenario(rules=SMALL).study(0, fire=3, water=3, earth=3, wind=2).build(),
     "scenario: the grid has 4 '?' slots but only 1 cards are left to fill them"),
    (lambda: Scenario().phase("lunch"), "phase must be one of abilities, activation"),
    (lambda: Scenario().effects("frost").build(), "scenario: effects: unknown effect 'frost'"),
    (lambda: Scenario().active(1, 1), "active lists a slot twice: [1, 1]"),
])
def test_impossible_set_ups_are_refused_with_a_clear_message(build, message) -> None:
    with pytest.raises(ValueError) as err:
        build()
    assert str(err.value).startswith(message)
