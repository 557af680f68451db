"""The coach's Hint button in play: off by default, the expert's move from the seat's view,
counted in the log, dropped when its position goes, and blind to cards the seat never saw."""

from __future__ import annotations

import random

import pytest

from leyline_widget import EndPhase, Game, LeylineWidget
from leyline_widget.agents.analysis import hint


def test_hints_are_off_by_default() -> None:
    w = LeylineWidget(players=["Ada", "Bo"], seed=3, deal_ms=0)
    assert w.hint == {}
    w.send_message({"type": "hint"})
    assert "hints are off" in w.error.lower()


def test_a_hint_is_a_legal_move_counted_in_the_log_and_dropped_at_the_next_step() -> None:
    w = LeylineWidget(players=["Ada", "Bo"], seed=3, deal_ms=0, hints=True)
    w.send_message({"type": "hint"})
    assert w.error == ""
    s = w.hint["suggestion"]
    assert w.hint["used"] == [1, 0] and w.hint["seat"] == 0
    assert w.game.is_legal(Game.new(players=2, seed=3).legal_actions()[0].from_dict(s["action"]))
    assert "Ada asked the coach for a hint" in w.log["turns"][-1]["lines"]
    w.send_message({"type": "hint"})
    assert w.hint["used"] == [2, 0]
    assert "Ada asked the coach for 2 hints" in w.log["turns"][-1]["lines"]
    w.send_message({"type": "action", "action": s["action"]})
    assert w.error == "" and "suggestion" not in w.hint and w.hint["used"] == [2, 0]


def test_no_hint_for_a_seat_that_may_not_act() -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=3, deal_ms=0, hints=True, viewer=0)
    w.play(EndPhase())
    w.play(EndPhase())  # the bot is to move
    w.send_message({"type": "hint"})
    assert "their turn" in w.error


def test_hints_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="hints must be True or False"):
        LeylineWidget(players=1, seed=1, hints=1)  # type: ignore[arg-type]


def test_a_hint_knows_nothing_the_seat_never_saw() -> None:
    # Re-deal the deck below the face-up top (nobody has seen it) under the same actions and
    # events: the hint is the same.
    game = Game.new(players=2, seed=8)
    while game.step < 25 and not game.is_over:
        game.apply(game.legal_actions()[-1])
    seen = len(game.initial_deck) - len(game.deck) + 1
    rest = list(game.initial_deck[seen:])
    random.Random(4).shuffle(rest)
    other = Game.new(players=2, rules=game.rules, deck=[*game.initial_deck[:seen], *rest])
    for action in game.actions:
        other.apply(action)
    assert other.deck != game.deck and other.observation(0) == game.observation(0)
    seat = game.active_player
    assert hint(game, seat, budget=8) == hint(other, seat, budget=8)


def test_the_hint_names_slots_not_the_elements_of_inert_cards() -> None:
    # The hint travels in synced state, which never holds what an inert card is.
    w = LeylineWidget(players=["Ada", "Bo"], seed=3, deal_ms=0, hints=True)
    w.send_message({"type": "hint"})
    s = w.hint["suggestion"]
    assert s["action"]["type"] == "activate"
    text = (s["label"] + " " + s["reason"]).lower()
    assert "slot" in text
    assert not any(el in text for el in w.game.rules.elements), text
