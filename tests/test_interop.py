"""The adapters: a sound fixed action numbering, per-player views, OpenSpiel, PettingZoo and
Gymnasium. Each ecosystem's tests skip (with the reason) only when its extra is missing."""

from __future__ import annotations

import json
import random
from math import comb
from typing import Any

import pytest
from support import SMALL

from leyline_widget import Activate, Deactivate, EndPhase, Game, Rules, UsePower, visible_events
from leyline_widget.core.knowledge import Knowledge
from leyline_widget.interop.encoding import ActionSpace, view_size, view_vector

MID = Rules.default().replace(cards_per_element=6, grid_rows=2, grid_cols=3)


# ------------------------------------------------------------------ the action numbering

def _expected_size(rules: Rules) -> int:
    g, e = rules.grid_size, len(rules.elements)
    targets = {"spark": 1, "wildfire": 1, "sanctuary": 1, "ripple": comb(g, 2), "tide": g,
               "unbind": g, "whisper": g, "gale": g + comb(g, 2) + comb(g, 3)}
    return 3 * g + 1 + g * e * 3 + sum(targets[pw.effect.id] for pw in rules.powers)


@pytest.mark.parametrize("rules", [Rules.default(), SMALL, MID],
                         ids=["default", "small", "mid"])
def test_every_number_is_one_action_and_back(rules: Rules) -> None:
    space = ActionSpace(rules)
    assert space.size == _expected_size(rules)
    actions = [space.decode(i) for i in range(space.size)]
    assert len(set(actions)) == space.size
    assert [space.encode(a) for a in actions] == list(range(space.size))


def test_the_default_rules_have_584_actions_and_gale_is_the_big_block() -> None:
    space = ActionSpace(Rules.default())
    assert space.size == 584
    gale = [a for a in map(space.decode, range(space.size))
            if isinstance(a, UsePower) and a.element == "wind" and a.tier == "major"]
    assert len(gale) == 12 + 66 + 220


def test_the_largest_grid_is_numbered_without_a_table() -> None:
    # Ripple and Gale would list too many target choices on 400 slots (the 50,000 bound).
    powers = [p for p in Rules.default().powers if p.name not in ("Ripple", "Gale")]
    rules = Rules.default().replace(grid_rows=20, grid_cols=20, cards_per_element=100,
                                    powers=powers)
    space = ActionSpace(rules)
    assert space.size == _expected_size(rules) == 3 * 400 + 1 + 400 * 4 * 3 + 3 + 3 * 400
    last = space.decode(space.size - 1)
    assert last == UsePower("wind", "minor", (399,))
    assert space.encode(UsePower("wind", "minor", (0,))) == space.size - 400


def test_every_legal_action_of_random_games_is_numbered() -> None:
    for rules, players in ((Rules.default(), 2), (MID.replace(major_threshold=3), 3)):
        space = ActionSpace(rules)
        game = Game.new(players=players, seed=5, rules=rules)
        rng = random.Random(5)
        while not game.is_over:
            legal = game.legal_actions()
            numbers = space.legal(game)
            assert [space.decode(n) for n in numbers] == sorted(
                legal, key=space.encode)
            assert sum(space.mask(game)) == len(legal)
            game.apply(rng.choice(legal))


def test_bad_numbers_and_foreign_actions_are_refused() -> None:
    space = ActionSpace(SMALL)
    for bad in (-1, space.size, True, 1.5, "3", None):
        with pytest.raises(ValueError, match="action number must be"):
            space.decode(bad)  # type: ignore[arg-type]
    assert space.decode(3) is space.decode(3)  # each number decoded once per space
    with pytest.raises(ValueError, match="targets must be distinct slots"):
        space.encode(UsePower("water", "minor", (2, 1)))
    with pytest.raises(ValueError, match="no such power"):
        space.encode(UsePower("light", "minor"))


# ------------------------------------------------------------------ per-player views

def _views(game: Game, minds: list[Knowledge]) -> list[list[float]]:
    return [view_vector(game.observation(p), game.rules, minds[p])
            for p in range(len(game.players))]


def test_a_redealt_deck_leaves_every_players_view_unchanged() -> None:
    """The views hold nothing but what each seat was shown."""
    rules = MID.replace(major_threshold=3)
    game = Game.new(players=2, seed=9, rules=rules)
    minds = [Knowledge(p) for p in range(2)]
    for p in range(2):
        minds[p].observe(visible_events(game.events_since(0), p))
    rng = random.Random(9)
    for _ in range(60):
        if game.is_over:
            break
        events = game.apply(rng.choice(game.legal_actions()))
        for p in range(2):
            minds[p].observe(visible_events(events, p))
        position = game.position()
        if len(position["deck"]) > 2:
            rest = position["deck"][1:]
            rng.shuffle(rest)
            redealt = Game.from_position({**position, "deck": [position["deck"][0], *rest]})
            assert _views(redealt, minds) == _views(game, minds)
    assert len(_views(game, minds)[0]) == view_size(rules, 2)


def test_memory_enters_the_view_only_with_knowledge() -> None:
    game = Game.new(players=1, seed=2, rules=SMALL)
    mind = Knowledge(0)
    mind.observe(game.events_since(0))
    with_memory = view_vector(game.observation(0), SMALL, mind)
    without = view_vector(game.observation(0), SMALL)
    assert with_memory != without and len(with_memory) == len(without)
    with pytest.raises(ValueError, match="one seat"):
        view_vector(game.observation(None), SMALL)


# ------------------------------------------------------------------ OpenSpiel

def _spiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import leyline_widget.interop.openspiel  # noqa: F401  (registers python_leyline)

    return pyspiel


def test_openspiel_registers_python_leyline_with_players_and_rules() -> None:
    pyspiel = _spiel()
    game = pyspiel.load_game("python_leyline", {"players": 2})
    assert game.num_players() == 2 and game.num_distinct_actions() == 584
    assert game.max_chance_outcomes() == 4
    small = pyspiel.load_game("python_leyline",
                              {"players": 3, "rules": json.dumps(SMALL.to_dict())})
    assert small.num_players() == 3
    assert small.num_distinct_actions() == ActionSpace(SMALL).size
    state = small.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    with pytest.raises(Exception, match="players must be from 1 to 4"):
        pyspiel.load_game("python_leyline", {"players": 5})


def test_openspiel_random_simulation_checks_pass() -> None:
    pyspiel = _spiel()
    for players in (1, 2, 4):
        game = pyspiel.load_game("python_leyline",
                                 {"players": players, "rules": json.dumps(SMALL.to_dict())})
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def _deal(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])


def test_the_deal_is_a_chance_node_per_card_weighted_by_what_is_left() -> None:
    pyspiel = _spiel()
    game = pyspiel.load_game("python_leyline", {"players": 1,
                                                "rules": json.dumps(SMALL.to_dict())})
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(0)  # three fire cards: fire is gone from the outcomes
    assert state.chance_outcomes() == [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]
    _deal(state, random.Random(1))
    assert state.current_player() == 0
    assert sum(1 for el in state.game.initial_deck[:3] if el == "fire") == 3


def test_information_states_hold_only_the_players_view_and_resampling_keeps_them() -> None:
    pyspiel = _spiel()
    game = pyspiel.load_game("python_leyline", {"players": 2,
                                                "rules": json.dumps(MID.to_dict())})
    state = game.new_initial_state()
    rng = random.Random(3)
    _deal(state, rng)
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
        for p in range(2):
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
    game = state.game
    info, seen = state.information_state_string(0), state.observation_string(0)
    assert info.startswith(f"seat 0 | step {game.step} | ")
    assert "step" not in seen and seen.startswith("seat 0 | turn ")
    # Every grid card was shown to all when it landed: the information state names them all,
    # the observation only the face-up ones.
    grid = [game.card(s) for s in range(MID.grid_size)]
    assert " | grid " + " ".join(el + ("*" if s in game.seat_view(0).active else "")
                                  for s, el in enumerate(grid)) + " | " in info
    assert seen.count("?") == MID.grid_size - len(game.seat_view(0).active)


def test_the_information_state_is_one_line_of_what_the_seat_knows() -> None:
    pyspiel = _spiel()
    game = pyspiel.load_game("python_leyline", {"players": 2})
    state = game.new_initial_state()
    assert state.information_state_string(1) == "dealing 0/48"
    _deal(state, random.Random(6))
    g = state.game
    parts = state.information_state_string(1).split(" | ")
    assert parts[:3] == ["seat 1", "step 0", "turn 1 activation player 0"]
    assert parts[3] == "grid " + " ".join(g.card(s) for s in range(12))
    assert parts[5] == f"deck 36 top {g.deck_top}"
    assert parts[6:] == ["study 0/0/0/0 0/0/0/0", "markers 0/0/0/0 0/0/0/0",
                         "marker tokens 0/0/0/0 0/0/0/0", "supply 5/5/5/5", "pool 0/0/0/0",
                         "activations 0/3", "threshold 2", "used -"]
    # The same view gives the same string, whatever the cards nobody was shown.
    other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
    assert other.game.deck != g.deck
    assert other.information_state_string(1) == state.information_state_string(1)


def test_an_information_state_never_comes_back() -> None:
    # Activate then Deactivate returns to the same cards, not to the same moment: a search
    # keyed by information states (ISMCTS) must not find a loop there.
    pyspiel = _spiel()
    game = pyspiel.load_game("python_leyline", {"players": 2})
    state = game.new_initial_state()
    _deal(state, random.Random(4))
    assert state.game is not None and state.game.phase == "activation"
    before = state.information_state_string(0)
    space = game.space
    seen, tensor = state.observation_string(0), state.information_state_tensor(0)
    state.apply_action(space.encode(Activate(0)))
    state.apply_action(space.encode(Deactivate(0)))
    assert state.observation_string(0) == seen  # the same cards face up...
    assert state.information_state_string(0) != before  # ...at another moment
    assert state.information_state_tensor(0) != tensor
    assert state.information_state_tensor(0)[-2] == state.game.step == 2


def test_the_legal_actions_are_pyspiels_own_answer_at_every_node() -> None:
    # legal_actions is answered in Python; pyspiel's C++ State.legal_actions (which asks the
    # state back through _legal_actions) must give the same lists, chance and end included.
    pyspiel = _spiel()
    cpp = pyspiel.State.legal_actions
    game = pyspiel.load_game("python_leyline", {"players": 2,
                                                "rules": json.dumps(MID.to_dict())})
    rng = random.Random(8)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            for player in (None, 0, 1):
                args = () if player is None else (player,)
                assert state.legal_actions(*args) == cpp(state, *args)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            legal.clear()  # the caller's own list
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            state.apply_action(rng.choice(legal))


def test_a_copied_state_keeps_its_history_and_goes_its_own_way() -> None:
    pyspiel = _spiel()
    import copy

    game = pyspiel.load_game("python_leyline", {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(10)
    _deal(state, rng)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    for other in (state.clone(), copy.deepcopy(state),
                  game.deserialize_state(state.serialize())):
        assert other.history() == state.history() and str(other) == str(state)
        assert other.game is not state.game and other.legal_actions() == state.legal_actions()
        before = state.game.state_hash()
        other.apply_action(other.legal_actions()[0])
        assert state.game.state_hash() == before and len(other.history()) == len(
            state.history()) + 1


def test_openspiel_mcts_and_ismcts_bots_play_full_games() -> None:
    pyspiel = _spiel()
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    # A 2x3 grid: on the 2x2 one, four lone elements often end the game at set-up.
    game = pyspiel.load_game("python_leyline", {"players": 2,
                                                "rules": json.dumps(MID.to_dict())})
    seed = 0
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator,
                         random_state=rs),
            ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6,
                             random_state=rs)]
    state = game.new_initial_state()
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 5 and state.game.is_over
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    assert returns == [1.0 / len(state.game.winners()) if p in state.game.winners()
                       else 0.0 for p in range(2)]


# ------------------------------------------------------------------ PettingZoo, Gymnasium

def test_the_pettingzoo_env_passes_the_api_and_seed_tests() -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    from pettingzoo.test import api_test, seed_test

    from leyline_widget.interop.pettingzoo import env

    api_test(env(players=2), num_cycles=200)
    api_test(env(players=3, rules=SMALL), num_cycles=200)
    seed_test(lambda: env(players=2, rules=SMALL), num_cycles=100)


def test_a_pettingzoo_game_played_to_its_end_rewards_the_winners() -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    from leyline_widget.interop.pettingzoo import env

    e = env(players=2, rules=SMALL)
    e.reset(seed=4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(e.game.legal_actions())
        e.step(int(random.Random(len(e.game.actions)).choice(mask.nonzero()[0])))
    assert e.game is not None and e.game.is_over
    winners = e.game.winners()
    assert totals == {f"player_{p}": (1 / len(winners) if p in winners else 0.0)
                      for p in range(2)}


def test_the_gymnasium_solo_env_passes_the_env_checker() -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from gymnasium.utils.env_checker import check_env

    from leyline_widget.interop.gym import LeylineSoloEnv

    check_env(LeylineSoloEnv(), skip_render_check=True)
    check_env(LeylineSoloEnv(rules=SMALL), skip_render_check=True)


def test_a_solo_episode_returns_the_final_score_and_refuses_illegal_moves() -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from leyline_widget.interop.gym import LeylineSoloEnv

    env = LeylineSoloEnv(rules=SMALL)
    obs, info = env.reset(seed=7)
    assert env.observation_space.contains(obs) and info["deal"] >= 0
    illegal = next(i for i, m in enumerate(obs["action_mask"]) if not m)
    before = env.game.state_hash()
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == 0.0 and not terminated and "illegal" in info
    assert env.game.state_hash() == before
    total = 0.0
    rng = random.Random(7)
    terminated = truncated = False
    while not (terminated or truncated):
        choices = obs["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(choices)))
        total += float(reward)
    assert terminated and total == info["score"] == env.game.scores()[0]
    assert env.space.decode(env.space.encode(EndPhase())) == EndPhase()


def test_openspiel_refuses_an_action_outside_its_space_by_name_and_changes_nothing() -> None:
    pyspiel = _spiel()
    import numpy as np

    game = pyspiel.load_game("python_leyline", {"players": 2})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="a card's element is a number from 0 to 3, got 7"):
        state.apply_action(7)
    _deal(state, random.Random(2))
    before = str(state)
    for junk in (-1, 10**9, 1.5, None, True, "3"):
        with pytest.raises(ValueError, match=r"an action is a number from 0 to \d+, got "):
            state.apply_action(junk)
        assert str(state) == before
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert str(state) != before
