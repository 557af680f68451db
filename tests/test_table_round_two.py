"""At the table, round two (issue 27), kernel side: no move before the deal is shown, a turn
that ends by itself when no token can be placed, one click for "no power, activate this card",
the other seats' turns in a line, power marks for the mover too, the final grid face up once
the game is over, and recall lessons that test memory."""

from __future__ import annotations

from typing import Any

import pytest
from support import SMALL

from leyline_widget import Activate, EndPhase, Game, Refill, UsePower
from leyline_widget.core.powers import LEGACY
from leyline_widget.teach.course import RECALL, lesson
from leyline_widget.widgets.lesson import LessonWidget
from leyline_widget.widgets.play import LeylineWidget
from leyline_widget.widgets.presenters import effect_of, turn_summary


def custom(w: Any, content: Any) -> None:
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def shown(w: LeylineWidget) -> None:
    custom(w, {"type": "shown", "seq": w.events["seq"]})


def test_no_move_of_the_page_before_the_deal_is_shown() -> None:
    w = LeylineWidget(players=["You", "greedy"], seed=5, hints=True)
    assert w.deal_ms > 0
    for message in ({"type": "action", "action": {"type": "end_phase"}},
                    {"type": "hint"}, {"type": "undo"}):
        before = w.game.state_hash()
        custom(w, message)
        assert w.error == "The deal has not been shown yet: press Ready to see the grid first."
        assert w.game.state_hash() == before and w.game.step == 0
    # An illegal move is refused for its own rule, deal or not.
    custom(w, {"type": "action", "action": {"type": "refill", "slot": 0}})
    assert "refill" in w.error.lower() and "deal" not in w.error
    shown(w)  # the page pressed Ready and showed the deal
    custom(w, {"type": "action", "action": {"type": "activate", "slot": 0}})
    assert w.error == "" and w.game.step == 1
    # A script is not held back, and deal_ms=0 means there is no deal to wait for.
    LeylineWidget(players=1, seed=2).play(Activate(0))
    quick = LeylineWidget(players=1, seed=2, deal_ms=0)
    custom(quick, {"type": "action", "action": {"type": "activate", "slot": 0}})
    assert quick.error == "" and quick.game.step == 1


def test_a_new_game_deals_again_and_waits_again() -> None:
    w = LeylineWidget(players=1, seed=2)
    shown(w)
    custom(w, {"type": "new_game"})
    custom(w, {"type": "action", "action": {"type": "activate", "slot": 0}})
    assert w.error.startswith("The deal has not been shown yet")


def test_the_turn_ends_by_itself_when_no_token_can_be_placed() -> None:
    w = LeylineWidget(players=["Ada", "Grace"], seed=3, deal_ms=0)
    # A pass with an empty Study: nothing can pay for a token, so the pass ends the turn.
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert w.error == "" and w.game.active_player == 1 and w.game.turn == 2
    # The batch holds the whole turn: the pass and the turn passing.
    kinds = [ev["type"] for ev in w.events["items"]]
    assert "pass" in kinds and "turn" in kinds
    # A seat that asked to confirm keeps its End turn.
    custom(w, {"type": "ready"})
    custom(w, {"type": "prefs", "confirm_end": True})
    assert w.prefs["confirm_end"] == [1]
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert w.game.phase.value == "binding" and w.game.active_player == 1
    # The Python API plays one move at a time, as before.
    solo = LeylineWidget(players=1, seed=3, deal_ms=0)
    solo.play(EndPhase())
    assert solo.game.phase.value == "binding"


def test_prefs_are_checked_and_per_seat() -> None:
    w = LeylineWidget(players=["Ada", "Grace"], seed=3, deal_ms=0)
    for bad in ({"type": "prefs", "skip_phase1": 1}, {"type": "prefs", "colour": True}):
        custom(w, bad)
        assert w.error and w.prefs == {"skip_phase1": [], "confirm_end": []}
    custom(w, {"type": "prefs", "skip_phase1": True})
    assert w.prefs["skip_phase1"] == [0] and w.error == ""
    with pytest.raises(ValueError, match="seat"):
        w.set_prefs(5, skip_phase1=True)


def test_one_click_ends_phase_1_and_activates_the_card() -> None:
    # Ada holds two Water after this set-up: Ripple makes Phase 1 stop for her.
    deck = ["water", "water", "fire", "earth", "wind", "fire", "earth", "wind", "fire", "earth",
            "wind", "fire", "water", "water", "earth", "wind"] + ["fire"] * 0
    game = Game.new(players=1, rules=SMALL.replace(cards_per_element=4, grid_rows=3,
                                                    grid_cols=4), deck=deck)
    for a in (Activate(0), Activate(1), EndPhase(), Refill(0), Refill(1)):
        game.apply(a)
    start = game.clone()
    w = LeylineWidget(game, deal_ms=0)
    w.set_prefs(0, confirm_end=True)
    w.play(EndPhase())
    assert w.game.phase.value == "abilities"
    # "then" follows only the end of Phase 1.
    custom(w, {"type": "action", "action": {"type": "activate", "slot": 2},
               "then": {"type": "activate", "slot": 3}})
    assert "then" in w.error and w.game.phase.value == "abilities"
    custom(w, {"type": "action", "action": {"type": "end_phase"},
               "then": {"type": "activate", "slot": 2}})
    assert w.error == "" and w.game.phase.value == "activation"
    assert w.view["grid"][2]["card"] == "active"
    # The mover sees where their own power acted: Ripple's two slots are marked.
    w2 = LeylineWidget(start, deal_ms=0)
    w2.set_prefs(0, confirm_end=True)
    w2.play(EndPhase())
    w2.play(UsePower("water", "minor", (4, 7)))
    assert w2.log["marks"]["4"] == ["swapped"] and w2.log["marks"]["7"] == ["swapped"]


def test_the_other_seats_turns_in_a_line_name_no_hidden_card() -> None:
    w = LeylineWidget(players=["You", "greedy"], seed=5, deal_ms=0, viewer=0)
    w.play(EndPhase())
    if w.game.active_player == 0:
        w.play(EndPhase())
    w.step_bots()
    recap = w.log["recap"]
    assert recap and recap[-1]["player"] == 1
    text = recap[-1]["text"]
    assert text.startswith("Greedy bot ")
    # Elements appear only for what left the grid (collected) or a token: never "activated X".
    assert "activated" not in text or "card" in text
    summary = turn_summary([{"type": "activate", "player": 1, "slot": 0},
                            {"type": "flip_back", "slots": [0]}], ["You", "Bot"], 0, 1)
    assert summary == "Bot activated 1 card and collected nothing"


def test_effects_by_kind() -> None:
    assert effect_of("ripple") == {"kind": "swap"}
    assert {effect_of(k)["kind"] for k in LEGACY} == {
        "extra_activations", "collect_threshold", "ignore_tokens", "swap", "swap_with_deck",
        "remove_tokens", "peek"}
    w = LeylineWidget(players=1, seed=1, deal_ms=0)
    assert [p["kind"] for p in w.info["powers"]][:2] == ["extra_activations",
                                                          "collect_threshold"]


def test_the_final_grid_is_sent_face_up_only_once_the_game_is_over() -> None:
    w = LeylineWidget(players=["greedy", "greedy"], seed=2, deal_ms=0,
                      rules=SMALL.replace(turn_limit=4))
    assert w.final_grid == []
    w.step_bots(max_actions=3)
    assert w.final_grid == [] and not w.game.is_over
    w.step_bots()
    assert w.game.is_over
    everyone = w.game.observation(None)["grid"]
    assert w.final_grid == [cell["element"] for cell in everyone]
    assert w.game.observation(0)["grid"] != everyone or all(
        c["card"] != "inert" for c in everyone)


def _solve(w: LessonWidget) -> None:
    for action in w.session.step.solution:
        custom(w, {"type": "action", "action": action.to_dict()})


def test_a_recall_lesson_shows_the_cards_once_then_hands_out_nothing() -> None:
    w = LessonWidget(lesson("recall-pair"))
    reveals = [ev for ev in w.events["items"] if ev["type"] == "reveal"]
    assert sorted(ev["slot"] for ev in reveals) == [1, 3, 6]
    assert all(el is None for el in w.remembered)
    assert "slot" not in w.lesson["instruction"]


def test_a_learner_who_remembers_passes_at_the_first_try() -> None:
    for item in RECALL:
        w = LessonWidget(item)
        while not w.session.done:
            _solve(w)
            if not w.session.done:
                custom(w, {"type": "next"})
        state = w.lesson
        assert state["recall"] == {"asked": len(item.steps), "first_try": len(item.steps)}
        assert state["mistakes"] == 0 and state["hints_used"] == 0
        assert state["done"] and state["summary"]


def test_a_learner_who_forgets_gets_escalating_hints() -> None:
    w = LessonWidget(lesson("recall-pair"))
    custom(w, {"type": "action", "action": {"type": "activate", "slot": 0}})  # never shown
    assert w.lesson["feedback"]["kind"] == "unseen"
    assert "Water at" not in w.lesson["feedback"]["text"]  # it does not hand the cards out
    custom(w, {"type": "hint"})
    first = w.lesson["hints"][-1]
    assert "Think back" in first and "slot" not in first
    custom(w, {"type": "hint"})
    assert "slots 1 and 6" in w.lesson["hints"][-1]
    custom(w, {"type": "hint"})
    assert w.lesson["hints"][-1].startswith("Show me")
    _solve(w)
    custom(w, {"type": "next"})
    _solve(w)
    assert w.session.done
    assert w.lesson["recall"] == {"asked": 2, "first_try": 1}
    assert w.lesson["hints_used"] == 3
    # Finished: no move is invited.
    assert w.legal["actor"] is None


def test_one_click_fills_every_empty_slot_in_order() -> None:
    deck = [el for el in ("fire", "water", "earth", "wind") for _ in range(12)]
    w = LeylineWidget(Game.new(players=1, deck=deck), deal_ms=0)
    custom(w, {"type": "refill_all"})
    assert "no empty slot" in w.error
    for a in (Activate(0), Activate(1), EndPhase()):
        w.play(a)
    assert w.game.phase.value == "refill"
    custom(w, {"type": "refill_all", "step": w.game.step})
    assert w.error == "" and w.game.phase.value == "binding"
    assert [ev["slot"] for ev in w.events["items"] if ev["type"] == "reveal"] == [0, 1]
