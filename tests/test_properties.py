"""Properties over random legal play: many seeds, rulesets and 1 to 4 players.

Each example deals a game from a Hypothesis-drawn seed and plays it with a seeded policy that
is random but leans towards the interesting moves (collecting pairs, using powers, placing
tokens), so that every rule is exercised. Whole-file runtime is kept near half a minute.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

from hand import MID, SMALL_MAJOR
from hypothesis import given, settings
from hypothesis import strategies as st
from support import SMALL, lively

from leyline_widget import (
    Action,
    Activate,
    Deactivate,
    EndPhase,
    Game,
    IllegalActionError,
    PlaceToken,
    Refill,
    Rules,
    UsePower,
)
from leyline_widget.core.actions import SOURCES
from leyline_widget.core.game import END_REASONS

RULESETS = [
    Rules.default(),
    Rules.default(),  # twice: the default game is the one that matters most
    SMALL,
    SMALL_MAJOR,
    MID,
    MID.replace(major_threshold=3, tokens_per_element=2),
    Rules.default().replace(elements=("fire", "water", "earth", "wind", "light"),
                            cards_per_element=4, grid_rows=2, grid_cols=3, major_threshold=3),
    Rules.default().replace(turn_limit=12, activations_per_turn=2),
]

games = st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 4), st.sampled_from(RULESETS))

#: Each house rule of DESIGN.md on its own, over the rulesets where it bites.
HOUSE_RULES = [
    Rules.default().replace(deactivate_refund=False),
    MID.replace(deactivate_refund=False),
    SMALL_MAJOR.replace(major_uses_per_game=1),
    MID.replace(major_threshold=3, major_uses_per_game=2),
    Rules.default().replace(round_limit=4),
    MID.replace(round_limit=1),
    Rules.default().replace(idle_round_limit=1),
    MID.replace(idle_round_limit=3),
    Rules.default().replace(round_limit=6, idle_round_limit=2, deactivate_refund=False,
                            major_uses_per_game=1),
]
house_games = st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 4),
                        st.sampled_from(HOUSE_RULES))


def walk(seed: int, players: int, rules: Rules, limit: int = 3000) -> Iterator[Game]:
    """The game after set-up and after each action of a lively random game, to its end."""
    game = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    yield game
    for _ in range(limit):
        if game.is_over:
            return
        game.apply(lively(game, rng))
        yield game
    raise AssertionError(f"game did not end within {limit} actions")


def _cards(game: Game) -> dict[str, int]:
    obs = game.observation(None)
    held = dict.fromkeys(game.rules.elements, 0)
    for el in game.deck:
        held[el] += 1
    for cell in obs["grid"]:
        if cell["card"] != "empty":
            held[cell["element"]] += 1
    for p in obs["players"]:
        for el in held:
            held[el] += p["study"][el] + p["markers"][el]
    return held


def _tokens(game: Game) -> dict[str, int]:
    obs = game.observation(None)
    held = {el: obs["supply"][el] + obs["pool"][el] for el in game.rules.elements}
    for cell in obs["grid"]:
        for el, n in cell["tokens"].items():
            held[el] += n
    for p in obs["players"]:
        for el in held:
            held[el] += p["marker_tokens"][el]
    return held


@settings(max_examples=150, deadline=None)
@given(games)
def test_cards_and_tokens_are_conserved(case: tuple[int, int, Rules]) -> None:
    seed, players, rules = case
    cards = dict.fromkeys(rules.elements, rules.cards_per_element)
    tokens = dict.fromkeys(rules.elements, rules.tokens_per_element)
    for game in walk(seed, players, rules):
        assert _cards(game) == cards
        assert _tokens(game) == tokens
        obs = game.observation(None)
        assert all(v >= 0 for p in obs["players"] for part in ("study", "markers",
                   "marker_tokens") for v in p[part].values())
        assert obs["scores"] == [sum(p["study"].values()) for p in obs["players"]]
        assert obs["deck"] == {"count": len(game.deck),
                               "top": game.deck[0] if game.deck else None}


def _candidates(game: Game, rng: random.Random) -> list[Action]:
    """Every kind of action, legal or not: all slots (and one past each end), elements
    (and an unknown one), sources, powers and target shapes."""
    size = game.rules.grid_size
    slots = range(-1, size + 1)
    elements = [*game.rules.elements, "aether"]
    out: list[Action] = [EndPhase()]
    out += [kind(s) for kind in (Activate, Deactivate, Refill) for s in slots]
    out += [PlaceToken(s, el, src) for s in slots for el in elements for src in SOURCES]
    for el in elements:
        for tier in ("minor", "major", "mega"):
            out.append(UsePower(el, tier))
            for k in (1, 2, 3, 4):
                out.append(UsePower(el, tier, tuple(sorted(rng.sample(range(-1, size + 1), k)))))
            out.append(UsePower(el, tier, (1, 0)))
    return out


@settings(max_examples=60, deadline=None)
@given(games)
def test_apply_succeeds_exactly_for_the_legal_actions(case: tuple[int, int, Rules]) -> None:
    seed, players, rules = case
    rng = random.Random(~seed)
    for game in walk(seed, players, rules):
        legal = game.legal_actions()
        assert len(set(legal)) == len(legal)
        before = game.state_hash()
        sample = rng.sample(_candidates(game, rng), 12) + rng.sample(legal, min(4, len(legal)))
        for action in sample:
            if action in legal:
                assert game.why_illegal(action) is None
                trial = game.clone()
                trial.apply(action)
                assert trial.step == game.step + 1
            else:
                assert game.why_illegal(action)
                try:
                    game.apply(action)
                except IllegalActionError as err:
                    assert err.rule and str(err)
                else:
                    raise AssertionError(f"{action} applied but is not in legal_actions()")
                assert game.state_hash() == before
        assert game.state_hash() == before


@settings(max_examples=40, deadline=None)
@given(games)
def test_what_the_engine_keeps_up_to_date_is_what_the_position_gives(
        case: tuple[int, int, Rules]) -> None:
    """apply() and the end of Phase 2 hand the next refill list on rather than scan the grid,
    and the deck top is kept at each draw and Tide: every list must be the one a copy of the
    position with no list kept (a pickled copy drops it) finds afresh, in the same order, and
    the top the deck's first card, in the game and in its copies."""
    seed, players, rules = case
    for game in walk(seed, players, rules):
        copy = pickle.loads(pickle.dumps(game))
        assert copy.legal_actions() == game.legal_actions()
        top = game.deck[0] if game.deck else None
        assert game.deck_top == copy.deck_top == game.clone().deck_top == top
        assert Game.from_position(game.position()).deck_top == top


@settings(max_examples=20, deadline=None)
@given(games)
def test_a_seats_view_is_the_five_reads_it_stands_for(case: tuple[int, int, Rules]) -> None:
    """turn_state() (what BotSeat reads before each move, in one call) is the mover, step,
    phase, turn and deck top, in the game, its clone and a pickled copy, to the game's end."""
    seed, players, rules = case
    for game in walk(seed, players, rules):
        for g in (game, game.clone(), pickle.loads(pickle.dumps(game))):
            assert g.turn_state() == (game.active_player, game.step, game.phase, game.turn,
                                     game.deck_top)


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_legal_action_applies_with_json_safe_events(case: tuple[int, int, Rules]) -> None:
    seed, players, rules = case
    rng = random.Random(seed)
    for game in walk(seed, players, rules):
        legal = game.legal_actions()
        if game.is_over:
            assert legal == []
            break
        for action in rng.sample(legal, min(len(legal), 25)):
            trial = game.clone()
            events = trial.apply(action)
            assert json.loads(json.dumps(events)) == events
            assert trial.event_log[-1] == tuple(events) and trial.actions[-1] == action
            assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action


@settings(max_examples=60, deadline=None)
@given(games)
def test_same_seed_and_actions_give_the_same_hashes_and_events(
        case: tuple[int, int, Rules]) -> None:
    seed, players, rules = case
    hashes = [g.state_hash() for g in walk(seed, players, rules)]
    first = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not first.is_over:
        first.apply(lively(first, rng))
    # The same seed, and the dealt deck given explicitly, replay to the same states.
    for again in (Game.new(players=players, seed=seed, rules=rules),
                  Game.new(players=players, rules=rules, deck=first.initial_deck)):
        seen = [again.state_hash()]
        for action in first.actions:
            again.apply(action)
            seen.append(again.state_hash())
        assert seen == hashes
        assert again.event_log == first.event_log
        assert again.observation(None) == first.observation(None)


def _views(game: Game) -> list[dict[str, Any]]:
    return [game.observation(p) for p in range(len(game.players))]


@settings(max_examples=80, deadline=None)
@given(games)
def test_redealing_hidden_cards_changes_no_players_view(case: tuple[int, int, Rules]) -> None:
    """Permute the elements of every inert grid card and of the deck below its top: no
    player's observation, and no legal action, may change."""
    seed, players, rules = case
    rng = random.Random(seed ^ 0x5EED)
    for game in walk(seed, players, rules):
        if game.is_over or rng.random() < 0.7:
            continue
        position = game.position()
        grid, deck = position["grid"], position["deck"]
        hidden = [("grid", s) for s, c in enumerate(grid)
                  if c is not None and s not in position["active"]]
        hidden += [("deck", i) for i in range(1, len(deck))]
        cards = [position[where][i] for where, i in hidden]
        rng.shuffle(cards)
        for (where, i), card in zip(hidden, cards):
            position[where][i] = card
        other = Game.from_position(position)
        assert _views(other) == _views(game)
        assert other.legal_actions() == game.legal_actions()


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 400))
def test_a_redealt_deck_replays_with_every_view_unchanged(case: tuple[int, int, Rules],
                                                         stop: int) -> None:
    """A second game whose deck differs only below the top card at step ``stop`` (cards no
    one has seen yet) accepts the same actions and shows every player the same views."""
    seed, players, rules = case
    game = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_over and game.step < stop:
        game.apply(lively(game, rng))
    drawn = rules.grid_size + sum(1 for ev in game.events_since(1)
                                  if ev["type"] == "reveal" and ev["cause"] == "refill")
    deck = list(game.initial_deck)
    unseen = deck[drawn + 1:]
    rng.shuffle(unseen)
    deck[drawn + 1:] = unseen
    other = Game.new(players=players, rules=rules, deck=deck)
    views = [_views(other)]
    for action in game.actions:
        other.apply(action)
        views.append(_views(other))
    replayed = Game.new(players=players, rules=rules, deck=game.initial_deck)
    assert _views(replayed) == views[0]
    for action, view in zip(game.actions, views[1:]):
        replayed.apply(action)
        assert _views(replayed) == view


@settings(max_examples=200, deadline=None)
@given(games, st.booleans())
def test_every_game_ends_and_names_its_winners(case: tuple[int, int, Rules],
                                                uniform: bool) -> None:
    seed, players, rules = case
    game = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(5000):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()) if uniform else lively(game, rng))
    assert game.is_over, "the game did not end within 5000 actions"
    _ended_properly(game)


def _ended_properly(game: Game) -> None:
    rules = game.rules
    assert game.end_reason in END_REASONS
    if game.end_reason == "turn_limit":
        assert game.turn == rules.turn_limit
    if game.end_reason == "round_limit":
        assert rules.round_limit is not None
        assert game.turn == rules.round_limit * len(game.players)
    if game.end_reason == "idle":
        assert rules.idle_round_limit is not None
        assert game.turn >= rules.idle_round_limit * len(game.players)
    scores = game.scores()
    assert game.winners() == [p for p, s in enumerate(scores) if s == max(scores)]
    last = game.events_since(game.step)[-1]
    # Turns played: none when set-up already ended the game (interpretation 6).
    assert last == {"type": "game_over", "reason": game.end_reason, "scores": scores,
                    "winners": game.winners(), "turns": game.turn if game.step else 0}
    assert game.legal_actions() == []


@settings(max_examples=120, deadline=None)
@given(house_games, st.booleans())
def test_every_game_ends_under_each_house_rule_and_conserves_cards_and_tokens(
        case: tuple[int, int, Rules], uniform: bool) -> None:
    seed, players, rules = case
    cards = dict.fromkeys(rules.elements, rules.cards_per_element)
    tokens = dict.fromkeys(rules.elements, rules.tokens_per_element)
    game = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(5000):
        if game.is_over:
            break
        legal = game.legal_actions()
        action = rng.choice(legal) if uniform else lively(game, rng)
        assert game.why_illegal(action) is None
        game.apply(action)
        assert _cards(game) == cards
        assert _tokens(game) == tokens
        obs = game.observation(None)
        assert 0 <= obs["activations"]["used"] <= obs["activations"]["limit"]
        if rules.major_uses_per_game is not None:
            for p in range(players):
                assert all(n <= rules.major_uses_per_game
                           for key, n in game.major_uses(p).items() if key.endswith(":major"))
    assert game.is_over, "the game did not end within 5000 actions"
    _ended_properly(game)
    # The house-rule state survives a position round trip.
    again = Game.from_position(game.position())
    assert again.state_hash() == game.state_hash()


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 300))
def test_a_clone_is_independent_of_its_original(case: tuple[int, int, Rules], at: int) -> None:
    seed, players, rules = case
    game = Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_over and game.step < at:
        game.apply(lively(game, rng))
    copy = game.clone()
    assert copy.state_hash() == game.state_hash() and copy.event_log == game.event_log
    frozen = (game.state_hash(), game.observation(None), game.event_log, game.actions)
    for _ in range(30):
        if copy.is_over:
            break
        copy.apply(lively(copy, rng))
    assert (game.state_hash(), game.observation(None), game.event_log, game.actions) == frozen
    frozen_copy = (copy.state_hash(), copy.observation(None), copy.event_log, copy.actions)
    for _ in range(30):
        if game.is_over:
            break
        game.apply(lively(game, rng))
    assert (copy.state_hash(), copy.observation(None), copy.event_log, copy.actions) == (
        frozen_copy)


@settings(max_examples=20, deadline=None)
@given(st.one_of(games, house_games))
def test_hashes_kept_from_step_to_step_match_a_fresh_game_at_each_position(
        case: tuple[int, int, Rules]) -> None:
    # A game keeps parts of its state hash from one step to the next (and hands them to its
    # clones): a part left stale by some move would show here as a difference from a game
    # read afresh from the same position, which computes everything.
    seed, players, rules = case
    for game in walk(seed, players, rules):
        fresh = Game.from_position(game.position())
        assert game.state_hash() == fresh.state_hash()
        assert game.state_hash(1) == fresh.state_hash(1)
        assert game.clone().state_hash() == fresh.state_hash()
