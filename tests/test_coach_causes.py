"""The coach says why: one hand-built scenario per cause (agents/causes.py), every verdict
worse than "good" names its cause, and a reason never contradicts the move it judges."""

from __future__ import annotations

import re

import pytest

from leyline_widget import Activate, EndPhase, Game, PlaceToken, Replay, UsePower, analyse
from leyline_widget.agents.analysis import cause_in
from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot
from leyline_widget.agents.causes import CAUSES, Decision, find_cause
from leyline_widget.core.actions import Action
from leyline_widget.teach.scenario import Scenario


def two() -> Scenario:
    return Scenario(players=["Ada", "Bo"]).turn(1, 0)


def cause(s: Scenario, played: Action, best: tuple[Action, ...], loss: float = 1.0,
          plan: tuple[Action, ...] | None = None) -> tuple[str, str]:
    game = s.build()
    found = find_cause(Decision.at(game, 0, played, s.seen_cards(0), loss, best, plan))
    assert found is not None
    assert found.cost == loss
    return found.kind, found.sentence().lower()


def test_a_guess_at_a_card_never_seen() -> None:
    s = two().grid("fire fire ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1).phase("activation")
    kind, words = cause(s, Activate(5), (Activate(0), Activate(1), EndPhase()))
    assert kind == "guess" and "you had not seen slot 5" in words


def test_a_memory_slip_activates_a_seen_card_beside_another_element() -> None:
    s = (two().grid("fire water fire ? / ? ? ? ? / ? ? ? ?").seen(0, 1, 2).active(0)
         .phase("activation"))
    kind, words = cause(s, Activate(1), (Activate(2), EndPhase()))
    assert kind == "memory_slip"
    assert words.startswith("you had seen") and words.endswith("cause: a memory slip, 1.0 cards.")
    assert "as if the two matched" in words


def test_a_collection_left_on_the_grid_by_a_pass() -> None:
    s = (two().grid("earth earth ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1).study(1, earth=2)
         .phase("activation"))
    kind, words = cause(s, EndPhase(), (Activate(0), Activate(1), EndPhase()))
    assert kind == "left_collection" and "passing left a collection" in words


def test_a_gift_hands_the_next_player_a_power_threshold() -> None:
    # Ada collects her two Fire and leaves four Water she had seen; Bo holds one Water, so
    # three more unlock his Minor Water power. Collecting the Water leaves him nothing of it.
    s = (two().grid("water water water water / fire fire ? ? / ? ? ? ?")
         .seen(0, 1, 2, 3, 4, 5).study(1, water=1, fire=2).phase("activation"))
    kind, words = cause(s, Activate(4), (Activate(0), Activate(1), Activate(2), EndPhase()),
                        loss=2.0, plan=(Activate(4), Activate(5), EndPhase()))
    assert kind == "gift"
    assert "leaves bo 4 matching cards you had seen (0, 1, 2, 3)" in words
    assert "3 of them would unlock their minor power" in words
    assert not re.search(r"\b(water|fire)\b", words, re.I)  # the cards stay unnamed


def test_a_token_that_costs_a_study_card_for_little() -> None:
    s = (two().grid("fire water earth wind / ? ? ? ? / ? ? ? ?").seen(0, 1, 2, 3)
         .study(0, fire=2).study(1, fire=3).phase("binding"))
    kind, words = cause(s, PlaceToken(1, "fire", "supply"), (EndPhase(),))
    assert kind == "costly_token"
    assert "this token cost a study card, locks no opponent out of" in words


def test_a_power_left_unused() -> None:
    s = two().grid("fire fire fire ? / ? ? ? ? / ? ? ? ?").seen(0, 1, 2).study(0, fire=2)
    kind, words = cause(s.phase("abilities"), EndPhase(), (UsePower("fire", "minor"),))
    assert kind == "unused_power" and "without using a power" in words


def test_a_power_used_to_no_effect() -> None:
    s = two().grid("fire water ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1).study(0, water=2)
    kind, words = cause(s.phase("abilities"), UsePower("water", "minor", (0, 1)), (EndPhase(),))
    assert kind == "wasted_power" and "ripple" in words


def test_ending_phase_two_too_early() -> None:
    s = (two().grid("fire fire fire ? / ? ? ? ? / ? ? ? ?").seen(0, 1, 2).active(0, 1)
         .phase("activation"))
    kind, words = cause(s, EndPhase(), (Activate(2), EndPhase()))
    assert kind == "early_end" and "more to collect" in words


def test_ending_the_turn_too_early_without_the_token_that_was_worth_it() -> None:
    s = (two().grid("fire water earth wind / ? ? ? ? / ? ? ? ?").seen(0, 1, 2, 3)
         .markers(0, stacked={"fire": 1}, fire=1).phase("binding"))
    kind, _ = cause(s, EndPhase(), (PlaceToken(0, "fire", "marker"), EndPhase()))
    assert kind == "early_end"


def test_playing_on_where_ending_the_phase_was_best() -> None:
    s = two().grid("fire fire ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1).phase("activation")
    kind, words = cause(s, Activate(0), (EndPhase(),))
    assert kind == "late_end" and "ending phase 2 now" in words


def test_every_cause_has_a_scenario_here() -> None:
    with open(__file__, encoding="utf-8") as f:
        text = f.read()
    for kind in CAUSES:
        assert f'kind == "{kind}"' in text, kind


def test_a_small_loss_names_no_cause() -> None:
    s = two().grid("fire fire ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1).phase("activation")
    game = s.build()
    assert find_cause(Decision.at(game, 0, Activate(5), s.seen_cards(0), 0.2)) is None


def test_the_analysis_names_the_cause_of_a_pass_with_a_collection_on_the_grid() -> None:
    s = (two().grid("earth earth wind ? / ? ? ? ? / ? ? ? ?").seen(0, 1, 2)
         .study(1, earth=2).phase("activation"))
    game = s.build()
    game.apply(EndPhase())
    review = analyse(Replay.from_game(game), player=0, budget=8, known=s.seen_cards(0))
    m = review.moves[0]
    assert m.verdict in ("inaccuracy", "mistake", "blunder")
    assert m.cause == "left_collection" and cause_in(m.reason) == "left_collection"


# ---------------------------------------------------------------------------- many games
def reviewed(seed: int) -> list:  # type: ignore[type-arg]
    game = Game.new(players=2, seed=seed)
    seats = [BotSeat(MemoryBot(seed=seed, capacity=3), 0), BotSeat(GreedyBot(seed=seed + 1), 1)]
    while not game.is_over and game.step < 90:
        game.apply(seats[game.active_player].act(game))
    return analyse(Replay.from_game(game), player=0, seed=seed, budget=6).moves


@pytest.fixture(scope="module")
def moves() -> list:  # type: ignore[type-arg]
    return [m for seed in (1, 2, 3) for m in reviewed(seed)]


def test_every_verdict_worse_than_good_names_its_cause(moves: list) -> None:  # type: ignore[type-arg]
    bad = [m for m in moves if m.verdict in ("inaccuracy", "mistake", "blunder")]
    assert bad, "the forgetful bot slips: some moves must be judged worse than good"
    for m in bad:
        assert m.cause in CAUSES, (m.step, m.reason)
        assert m.reason.endswith(f"Cause: {CAUSES[m.cause]}, {m.loss:.1f} cards."), m.reason
    for m in moves:
        if m.verdict in ("best", "good"):
            assert m.cause == "", (m.step, m.reason)


def test_a_move_called_part_of_the_best_plan_is_in_it(moves: list) -> None:  # type: ignore[type-arg]
    checked = 0
    for m in moves:
        if "part of the best plan" not in m.reason:
            continue
        assert isinstance(m.played, Activate), m.reason
        plan = m.reason.split("part of the best plan", 1)[1]
        slots = {int(n) for group in re.findall(r"\(slots? ([\d, ]+)\)", plan)
                 for n in re.findall(r"\d+", group)}
        assert m.played.slot in slots, m.reason
        checked += 1
    assert checked >= 5
