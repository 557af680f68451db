"""Play at the table (issue 10), kernel side: the game log trait per viewer, reveals shown
once, the hot-seat hand-off, the deal's length, undo of Binding tokens, new game and rematch."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from support import deal_shown

from leyline_widget import Activate, Deactivate, EndPhase, Game, PlaceToken, Rules
from leyline_widget.widgets.play import LeylineWidget
from leyline_widget.widgets.presenters import GameLog, game_log

SMALL = Rules.default().replace(cards_per_element=4, grid_rows=2, grid_cols=3)
NAMED = re.compile(r"slot (\d+): (Fire|Water|Earth|Wind)$")


def custom(w: LeylineWidget, content: Any) -> None:
    deal_shown(w, content)  # as a page does after Ready
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def _scan(game: Game, seat: int) -> int:
    """Every line naming a card's element by its slot: the card was collected in that turn, or
    the line is in the turn being played and the card is face-up now. Returns lines checked."""
    log = game_log(game, seat)
    turns = log["turns"]
    grid = game.observation(seat)["grid"]
    checked = 0
    for i, turn in enumerate(turns):
        got = {m.group(1) for line in turn["lines"]
               if (m := re.search(r"collected \d+ (\w+)$", line))}
        for line in turn["lines"]:
            m = NAMED.search(line)
            if not m or "collected" in line:
                continue
            checked += 1
            slot, element = int(m.group(1)), m.group(2)
            face_up = grid[slot]["card"] == "active" and grid[slot]["element"] == element.lower()
            assert element in got or (i == len(turns) - 1 and face_up), (line, turn)
    return checked


@pytest.mark.parametrize("players", [1, 2, 3])
def test_log_never_names_an_inert_card(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(5):
        game = Game.new(players=players, seed=seed)
        for _ in range(250):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
            for seat in range(players):
                checked += _scan(game, seat)
    assert checked > 100


def test_log_words_and_the_teacher() -> None:
    game = Game.new(players=["Ada", "Grace"], seed=7)
    slot = 0
    game.apply(Activate(slot))
    element = game.card(slot)
    assert element is not None
    line = game_log(game, 0)["turns"][-1]["lines"][-1]
    assert line == f"You activated slot 0: {element.capitalize()}"
    assert game_log(game, 1)["turns"][-1]["lines"][-1].startswith("Ada activated slot 0: ")
    game.apply(EndPhase())  # one card: it flips back, and the log forgets its element
    lines = game_log(game, 0)["turns"][-1]["lines"]
    assert "You activated slot 0" in lines and "Slot 0 flipped back" in lines
    assert not any(element.capitalize() in ln for ln in lines)
    teacher = game_log(game, None)["turns"][-1]["lines"]
    assert f"Ada activated slot 0: {element.capitalize()}" in teacher


def test_a_card_activated_and_deactivated_in_a_row_is_one_line() -> None:
    # A look under the refund, again and again, is one line with a count (the log and every
    # update stay short however often a player does it); a card still up is its own line.
    game = Game.new(players=["Ada", "Grace"], seed=3)
    for action in [Activate(0), Deactivate(0)] * 3 + [Activate(1), Activate(0), Deactivate(0),
                                                      Deactivate(1), Activate(0), Activate(2)]:
        game.apply(action)
    up = {s: (game.card(s) or "").capitalize() for s in (0, 2)}
    assert game_log(game, 0)["turns"][-1]["lines"] == [
        "You activated and deactivated slot 0 (3 times)", "You activated slot 1",
        "You activated and deactivated slot 0", "You deactivated slot 1",
        f"You activated slot 0: {up[0]}", f"You activated slot 2: {up[2]}"]
    assert game_log(game, 1)["turns"][-1]["lines"][0] == (
        "Ada activated and deactivated slot 0 (3 times)")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_incremental_log_matches_a_full_rebuild(players: int) -> None:
    """One GameLog per viewer (the teacher too), updated at random steps (some skipped, so
    several steps arrive at once), equals the log built afresh from the whole game."""
    rng = random.Random(100 + players)
    compared = 0
    for seed in range(12 if players == 1 else 6):
        game = Game.new(players=players, seed=seed, rules=SMALL if seed % 3 == 2 else None)
        viewers: list[int | None] = [None, *range(players)]
        logs = {seat: GameLog(seat) for seat in viewers}
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            for seat in viewers:
                if game.is_over or rng.random() < 0.6:
                    assert logs[seat].update(game) == game_log(game, seat), (seed, seat)
                    compared += 1
    assert compared > 1000


def test_the_incremental_log_forgets_a_card_that_flipped_back() -> None:
    game = Game.new(players=["Ada", "Grace"], seed=7)
    log = GameLog(0)
    game.apply(Activate(0))
    element = game.card(0)
    assert element is not None
    line = log.update(game)["turns"][-1]["lines"][-1]
    assert line == f"You activated slot 0: {element.capitalize()}"
    game.apply(EndPhase())  # the one card flips back: the same turn's line loses its element
    lines = log.update(game)["turns"][-1]["lines"]
    assert "You activated slot 0" in lines
    assert not any(element.capitalize() in ln for ln in lines)
    other = Game.new(players=["Ada", "Grace"], seed=8)  # another game: the log starts afresh
    assert log.update(other) == game_log(other, 0)


def test_the_widget_log_follows_undo_new_game_and_the_seat() -> None:
    w = LeylineWidget(players=["Ada", "Grace"], seed=7, deal_ms=0, rules=SMALL)
    rng = random.Random(7)
    undone = games = 0
    for _ in range(600):
        game = w.game
        if game.is_over:
            w.new_game(seed=rng.randrange(100))
            games += 1
            continue
        if w.handoff:
            custom(w, {"type": "ready"})
        if w.legal.get("undo") and rng.random() < 0.3:
            w.undo()
            undone += 1
        else:
            w.play(rng.choice(game.legal_actions()))
        full = game_log(w.game, w.seat())
        assert [*w.log_past, *w.log["turns"]] == full["turns"]
        assert w.log["marks"] == full["marks"] and w.log["past"] == len(full["turns"]) - 1
    assert undone and games


class _Page:
    """What the page holds of the log, from the updates the kernel sends (as js/src/play.js
    pastTurns does): ``log_past`` when sent whole, then each ``log["recent"]`` appended."""

    def __init__(self, w: LeylineWidget) -> None:
        self.past: list[dict[str, Any]] = list(w.log_past)  # the state a page opens with
        self.sent_whole = 0
        w._send = self.receive  # type: ignore[method-assign]

    def receive(self, msg: dict[str, Any], buffers: Any = None) -> None:
        state = msg.get("state", {})
        if "log_past" in state:
            self.past = list(state["log_past"])
            self.sent_whole += 1
        recent = state.get("log", {}).get("recent")
        if recent:
            self.past = self.past[:recent["from"]] + recent["turns"]


def test_each_finished_turn_is_sent_once_and_the_page_copy_stays_whole() -> None:
    w = LeylineWidget(players=["Ada", "Grace"], seed=3, deal_ms=0, rules=SMALL)
    page = _Page(w)
    rng = random.Random(3)
    for i in range(700):
        if w.game.is_over:
            w.new_game(seed=i)
        elif w.handoff:
            custom(w, {"type": "ready"})
        elif i % 97 == 0:
            w.viewer = rng.choice(["teacher", 0, 1, "active"])
        elif w.legal.get("undo") and rng.random() < 0.3:
            custom(w, {"type": "undo"})
        elif w.actor() is None:  # a fixed seat's eyes, the other seat to play
            w.viewer = "active"
        else:
            custom(w, {"type": "action", "action": rng.choice(w.game.legal_actions()).to_dict()})
        full = game_log(w.game, w.seat())["turns"]
        assert page.past == full[:-1] == w.log_past, i
    # Sent whole only at a change of eyes, game or undo, not once per finished turn.
    solo = LeylineWidget(players=1, seed=4, deal_ms=0)
    page = _Page(solo)
    while not solo.game.is_over:
        custom(solo, {"type": "action",
                      "action": rng.choice(solo.game.legal_actions()).to_dict()})
    assert page.sent_whole == 0 and len(page.past) == solo.log["past"] > 10
    assert page.past == solo.log_past


def test_marks_show_the_other_seats_turn_without_elements() -> None:
    game = Game.new(players=["Ada", "Grace"], seed=7)
    game.apply(Activate(0))
    game.apply(Activate(1))
    game.apply(EndPhase())
    while game.active_player == 0:
        game.apply(game.legal_actions()[0] if game.phase.value == "refill" else EndPhase())
    marks = game_log(game, 1)["marks"]
    assert set(marks) >= {"0", "1"}
    assert all(k in {"flipped", "collected", "refilled", "bound", "swapped", "peeked", "tide"}
               for kinds in marks.values() for k in kinds)
    assert game_log(game, 0)["marks"] == {}  # Ada's own turn is not marked for her


def test_the_log_traits_survive_a_reload_and_split_finished_turns() -> None:
    w = LeylineWidget(players=2, seed=7)
    w.play(EndPhase())
    w.play(EndPhase())
    assert [t["turn"] for t in w.log_past] == [0, 1]
    assert w.log["turns"][0]["turn"] == 2 and w.log["past"] == 2
    assert w.log_past[1]["lines"] == ["Player 1 passed"]  # seen by Player 2 now


def test_shown_is_recorded_and_validated() -> None:
    w = LeylineWidget(players=1, seed=3)
    seq = w.events["seq"]
    ack = w.ack
    custom(w, {"type": "shown", "seq": seq})
    assert w.shown_seq == seq and w.error == ""
    # A notice answers no click: the ack (which clears a pending click's mark) stays.
    assert w.ack == ack
    custom(w, {"type": "shown", "seq": seq + 5})
    assert "not been sent" in w.error and w.shown_seq == seq
    custom(w, {"type": "shown", "seq": True})
    assert "integer" in w.error
    # Re-filtering a batch for other eyes keeps its number: it is not shown again.
    w.viewer = "teacher"
    assert w.events["seq"] == seq


def test_hand_off_between_humans_only() -> None:
    w = LeylineWidget(players=["Ada", "Grace"], seed=7)
    assert w.handoff == {}
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert w.handoff == {"to": 1, "from": 0}
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert w.error == "Pass the board to Grace first: Grace clicks when ready."
    custom(w, {"type": "ready"})
    assert w.handoff == {}
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert w.error == ""
    bot = LeylineWidget(players=["You", "greedy"], seed=5)
    bot.play(EndPhase())
    bot.play(EndPhase())
    bot.step_bots()
    assert bot.handoff == {}


def test_deal_ms_scales_with_the_grid() -> None:
    assert LeylineWidget(players=1, seed=1).deal_ms == 1500 + 300 * 12
    assert LeylineWidget(players=1, seed=1, rules=SMALL).deal_ms == 1500 + 300 * 6
    assert LeylineWidget(players=1, seed=1, deal_ms=2000).deal_ms == 2000
    with pytest.raises(Exception, match="deal time"):
        LeylineWidget(players=1, seed=1, deal_ms=-1)


def _to_binding(w: LeylineWidget) -> None:
    for _ in range(200):
        if w.game.phase.value == "binding":
            return
        legal = w.game.legal_actions()
        if w.game.phase.value == "activation" and w.game.activations_left() > 0:
            w.play(next(a for a in legal if isinstance(a, Activate)))
        elif w.game.phase.value == "refill":
            w.play(legal[0])
        else:
            w.play(EndPhase())
    raise AssertionError("no Binding phase reached")


def test_undo_takes_back_this_turns_tokens() -> None:
    deck = [el for el in ("fire", "water", "earth", "wind") for _ in range(12)]
    w = LeylineWidget(Game.new(players=1, deck=deck))  # slots 0 and 1 collect two Fire
    _to_binding(w)
    before = w.game.state_hash()
    step = w.game.step
    assert "undo" not in w.legal
    place = [a for a in w.game.legal_actions() if isinstance(a, PlaceToken)]
    assert place
    w.play(place[0])
    assert w.legal.get("undo") is True
    custom(w, {"type": "undo"})
    assert w.error == "" and w.game.step == step and w.game.state_hash() == before
    assert "undo" not in w.legal
    custom(w, {"type": "undo"})
    assert "nothing to undo" in w.error
    w.play(EndPhase())
    custom(w, {"type": "undo"})
    assert "Only Binding tokens" in w.error


def test_new_game_and_rematch_keep_settings_and_swap_seats() -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=5, rules=SMALL)
    w.rematch(seed=11)
    assert w.game.players == ("Greedy bot", "Ada") or list(w.game.players) == ["Greedy bot", "Ada"]
    assert w.info["players"][0]["bot"] == "greedy" and w.info["players"][1]["bot"] is None
    assert w.game.rules == SMALL and w.game.seed == 11
    assert w.legal.get("bot") == "greedy"
    w.step_bots()
    assert w.game.active_player == 1
    custom(w, {"type": "new_game"})
    assert w.error == "" and list(w.game.players) == ["Greedy bot", "Ada"]
    assert w.game.step == 0 and w.events["items"][0]["cause"] == "setup"


def test_new_game_and_rematch_choose_each_seats_kind() -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=5, rules=SMALL)
    custom(w, {"type": "new_game", "seats": ["human", "expert"]})
    assert w.error == "" and list(w.game.players) == ["Ada", "Expert bot"]
    assert w.info["players"][1]["bot"] == "expert" and w.legal.get("bot") is None
    w.play(EndPhase())
    w.play(EndPhase())
    assert w.legal.get("bot") == "expert" and w.step_bots() > 0
    # A rematch: each kind moves with its player (the bot now goes first).
    custom(w, {"type": "rematch", "seats": ["human", "memory"]})
    assert list(w.game.players) == ["Memory bot", "Ada"] and w.legal.get("bot") == "memory"
    # Bots become people and back; a seat that changes kind gets a name that says so.
    custom(w, {"type": "new_game", "seats": ["human", "human"]})
    assert list(w.game.players) == ["Player 1", "Ada"] and w.handoff == {}
    assert all(p["bot"] is None for p in w.info["players"])
    custom(w, {"type": "new_game", "seats": ["random", "human"]})
    assert list(w.game.players) == ["Random bot", "Ada"]


@pytest.mark.parametrize(("seats", "words"), [
    ("human", "seats must list the kind of each of the 2 seats"),
    (["human"], "seats must list the kind of each of the 2 seats"),
    (["human", "clever"], "seats: seat 1 must be one of human, random, greedy, memory, expert"),
    (["human", 3], "seats: seat 1 must be one of"),
])
def test_a_bad_seat_menu_changes_nothing(seats: Any, words: str) -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=5, rules=SMALL)
    before = (w.game, dict(w.info), w.legal)
    custom(w, {"type": "new_game", "seats": seats})
    assert words.lower() in w.error.lower() and (w.game, w.info, w.legal) == before
    fixed = LeylineWidget(players=["Ada", "Grace"], seed=5, rules=SMALL, viewer=0)
    custom(fixed, {"type": "rematch", "seats": ["greedy", "human"]})
    assert "seat 0 is this widget's player" in fixed.error and fixed.game.seed == 5


def test_session_records_finished_games() -> None:
    w = LeylineWidget(players=["greedy"], seed=2, rules=SMALL)
    w.step_bots()
    assert w.game.is_over and len(w.session) == 1
    assert w.session[0]["scores"] == w.game.scores()
    w.new_game(seed=3)
    w.step_bots()
    assert len(w.session) == 2


def test_hint_on_a_solved_step_spends_nothing() -> None:
    from leyline_widget.teach.course import lesson

    session = lesson("activate-collect").session()
    session.try_action(Activate(1))
    assert session.status == "solved"
    left = session.state()["hints_left"]
    assert "already solved" in session.hint()
    assert session.state()["hints_left"] == left and session.state()["hints"] == []


def test_a_view_with_an_old_copy_of_the_finished_turns_gets_them_whole() -> None:
    w = LeylineWidget(players=1, seed=3, deal_ms=0, rules=SMALL)
    stale = list(w.log_past)  # what a second view, opened later on the same model, starts from
    page = _Page(w)
    rng = random.Random(5)
    while len(w.log_past) < 4 and not w.game.is_over:
        custom(w, {"type": "action", "action": rng.choice(w.game.legal_actions()).to_dict()})
    assert len(stale) < len(w.log_past) and page.sent_whole == 0
    ack = w.ack
    custom(w, {"type": "log_sync"})
    assert page.sent_whole == 1 and page.past == w.log_past and w.error == ""
    assert w.ack == ack  # a notice: no click waits on it
    custom(w, {"type": "action", "action": rng.choice(w.game.legal_actions()).to_dict()})
    assert w.log["recent"]["from"] >= len(page.past) - 1
    custom(w, {"type": "log_sync", "extra": 1})
    assert "log_sync" in w.error
