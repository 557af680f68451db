"""Powers as data (DESIGN.md): a designer writes a power's effect as a kind with parameters,
and it plays everywhere with no code change: legal lists, every bot (the expert too),
replays (rules carry their powers), and the widget."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hand import deck_for

from leyline_widget import Game, Power, Replay, Rules, UsePower
from leyline_widget.agents.bots import BotSeat, make_bot
from leyline_widget.core.powers import KINDS, Effect

BASE = Rules.default().replace(collect_threshold=3, activations_per_turn=4, major_threshold=4)


def _power(element: str, tier: str, effect: dict[str, Any], name: str) -> Power:
    return Power(element, tier, effect, name, f"{name}: a designer's power.",
                 f"Click {name} in Phase 1.")


#: One power of each kind, each with parameters other than the default powers'.
INVENTED = [
    _power("fire", "minor", {"kind": "extra_activations", "n": 2}, "Surge"),
    _power("fire", "major", {"kind": "collect_threshold", "n": 2}, "Kindle"),
    _power("water", "minor", {"kind": "swap_with_deck"}, "Undertow"),
    _power("water", "major", {"kind": "swap"}, "Eddy"),
    _power("earth", "minor", {"kind": "remove_tokens", "cards": 2}, "Erode"),
    _power("earth", "major", {"kind": "ignore_tokens"}, "Bedrock"),
    _power("wind", "minor", {"kind": "peek", "cards": 2}, "Breeze"),
    _power("wind", "major", {"kind": "peek", "cards": 4}, "Squall"),
]
RULES = BASE.replace(powers=INVENTED)


def test_every_kind_is_invented_and_the_rules_round_trip_through_json() -> None:
    assert {p.effect.kind for p in INVENTED} == set(KINDS)
    again = Rules.from_dict(json.loads(json.dumps(RULES.to_dict())))
    assert again == RULES
    assert RULES.to_dict()["powers"][6]["effect"] == {"kind": "peek", "cards": 2}
    # The defaults keep their old ids in files, so earlier files read the same.
    assert Rules.default().to_dict()["powers"][0]["effect"] == "spark"
    assert Rules.default().powers[0].effect == Effect("extra_activations", n=1)


@pytest.mark.parametrize("data, words", [
    ({"kind": "peek", "cards": 0}, "peek: cards must be from 1 to 5, got 0"),
    ({"kind": "peek", "cards": True}, "peek: cards must be from 1 to 5, got True"),
    ({"kind": "extra_activations", "n": 11}, "extra_activations: n must be from 1 to 10"),
    ({"kind": "swap", "n": 1}, "effect swap takes no 'n'"),
    ({"kind": "fly"}, "unknown effect kind 'fly'"),
    ({"cards": 1}, "unknown effect kind None"),
    ("zap", "unknown effect 'zap'"),
    (7, "an effect must be an id or an object, got 7"),
])
def test_a_bad_effect_is_refused_naming_the_field(data: object, words: str) -> None:
    with pytest.raises(ValueError, match="power 'Bad'") as info:
        Power("fire", "minor", data, "Bad", "", "")  # type: ignore[arg-type]
    assert words in str(info.value)


def test_a_threshold_power_cannot_raise_the_rules_threshold() -> None:
    kindle = _power("fire", "major", {"kind": "collect_threshold", "n": 3}, "Kindle")
    with pytest.raises(ValueError, match=r"collect_threshold n \(3\) must not exceed"):
        Rules.default().replace(powers=[kindle])


def test_a_ruleset_whose_phase1_list_would_be_too_long_is_refused_naming_the_power() -> None:
    wide = _power("wind", "major", {"kind": "peek", "cards": 5}, "Tempest")
    with pytest.raises(ValueError) as info:
        Rules.default().replace(grid_rows=5, grid_cols=5, powers=[wide])
    assert "power 'Tempest' would list 68,405 target choices on a 25-slot grid" in str(info.value)
    # The same power fits a small grid.
    assert Rules.default().replace(powers=[wide]).powers == (wide,)


def _in_phase1(rules: Rules, study: dict[str, int], **extra: Any) -> Game:
    """Ada's Phase 1 on a mixed grid, her Study taken from the deck's bottom."""
    cards = deck_for(rules, "water wind earth fire " * 3)
    for el, n in study.items():
        for _ in range(n):
            del cards[len(cards) - 1 - cards[::-1].index(el)]
    size = rules.grid_size
    return Game.from_position({
        "rules": rules.to_dict(), "players": ["Ada", "Bo"], "grid": cards[:size],
        "deck": cards[size:], "study": [study, {}], "phase": "abilities", **extra})


def test_each_kind_resolves_with_its_parameters() -> None:
    game = _in_phase1(RULES, {"fire": 4, "wind": 4})
    uses = [a for a in game.legal_actions() if isinstance(a, UsePower)]
    squall = [a for a in uses if a.element == "wind" and a.tier == "major"]
    assert max(len(a.targets) for a in squall) == 4  # peek at up to 4 cards
    assert {len(a.targets) for a in uses if a.tier == "minor" and a.element == "wind"} == {1, 2}
    game.apply(UsePower("fire", "minor"))
    game.apply(UsePower("fire", "major"))
    events = game.apply(UsePower("wind", "minor", (0, 5)))
    assert [e["cause"] for e in events if e["type"] == "reveal"] == ["peek", "peek"]
    assert [e["visible_to"] for e in events if e["type"] == "reveal"] == [[0], [0]]
    view = game.observation(0)
    assert view["activations"]["limit"] == 6 and view["collect_threshold"] == 2
    assert view["effects"] == ["wildfire"]  # the threshold is lowered this turn
    assert game.seat_view(0).known.keys() >= {0, 5}
    # The position carries the lowered threshold, and reads back to the same game.
    assert game.position()["turn_threshold"] == 2
    assert Game.from_position(game.position()).state_hash() == game.state_hash()


@pytest.mark.parametrize("power", INVENTED + list(Rules.default().powers), ids=lambda p: p.name)
def test_whether_a_power_has_a_target_agrees_with_its_count_of_targets(power: Power) -> None:
    for cards in range(0, 5):
        for bound in range(0, cards + 1):
            for deck in (False, True):
                counted = power.effect.count_targets(cards, bound, deck)
                listed = sum(1 for _ in power.effect.targets(list(range(cards)), set(range(bound)),
                                                              deck))
                assert counted == listed
                assert power.effect.has_targets(cards, bound, deck) == (counted > 0)


def test_remove_tokens_takes_up_to_its_cards_and_returns_them() -> None:
    tokens = [{"fire": 1}, {"water": 1}, {}, {"earth": 1}] + [{}] * 8
    game = _in_phase1(RULES, {"earth": 2}, tokens=tokens, pool={"fire": 0})
    uses = [a.targets for a in game.legal_actions() if isinstance(a, UsePower)]
    assert (0, 1) in uses and (0, 1, 3) not in uses and (2,) not in uses
    events = game.apply(UsePower("earth", "minor", (0, 3)))
    returns = [(e["slot"], e["element"], e["to"]) for e in events if e["type"] == "token_return"]
    assert returns == [(0, "fire", "pool"), (3, "earth", "pool")]
    assert game.observation(None)["grid"][1]["tokens"] == {"water": 1}


KINDS_OF_BOT = ["random", "greedy", "memory", "expert"]


@pytest.mark.parametrize("kind", KINDS_OF_BOT)
def test_every_bot_plays_whole_games_with_invented_powers_and_the_replay_replays(
        kind: str) -> None:
    used: Counter[str] = Counter()
    for seed in range(3 if kind != "expert" else 1):
        game = Game.new(players=2, seed=seed, rules=RULES)
        params = {"budget": 2} if kind == "expert" else {}
        seats = [BotSeat(make_bot(kind, seed=seed, **params), 0),
                 BotSeat(make_bot("greedy" if kind == "random" else kind, seed=seed + 9), 1)]
        while not game.is_over and game.step < 3000:
            for ev in game.apply(seats[game.active_player].act(game)):
                if ev["type"] == "power":
                    used[ev["name"]] += 1
        assert game.is_over
        replay = Replay.from_json(Replay.from_game(game).to_json())
        assert replay.rules == RULES
        assert replay.game_at(len(replay)).state_hash() == game.state_hash()
        again = Game.new(players=2, seed=seed, rules=RULES)
        for action in game.actions:
            again.apply(action)
        assert again.state_hash() == game.state_hash()
    assert used, "no invented power was used"


def test_the_random_bots_use_every_invented_power() -> None:
    used: Counter[str] = Counter()
    for seed in range(40):
        game = Game.new(players=2, seed=seed, rules=RULES)
        seats = [BotSeat(make_bot("random", seed=seed * 2 + p), p) for p in range(2)]
        while not game.is_over and game.step < 3000:
            for ev in game.apply(seats[game.active_player].act(game)):
                if ev["type"] == "power":
                    used[ev["name"]] += 1
    assert set(used) == {p.name for p in INVENTED}, used


def test_an_old_replay_with_effect_ids_loads() -> None:
    game = Game.new(players=2, seed=5)
    while not game.is_over and game.step < 60:
        game.apply(game.legal_actions()[0])
    text = Replay.from_game(game).to_json()
    assert '"effect":"spark"' in text.replace(' ', '')
    assert Replay.from_json(text).game_at(game.step).state_hash() == game.state_hash()
