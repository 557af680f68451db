"""Learn from your mistakes: a review's mistakes and blunders as puzzles, from that seat's view;
any move within 0.3 cards of the best solves one; the answer explains with the reason; the
solved puzzles are counted."""

from __future__ import annotations

import pytest

from leyline_widget import Action, Game, Replay, ReplayWidget, analyse
from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot
from leyline_widget.agents.puzzles import ACCEPT, judge, puzzles_of


@pytest.fixture(scope="module")
def replay() -> Replay:
    game = Game.new(players=["Ada", "Bo"], seed=3)
    seats = [BotSeat(MemoryBot(seed=3, capacity=3), 0), BotSeat(GreedyBot(seed=4), 1)]
    while not game.is_over and game.step < 70:
        game.apply(seats[game.active_player].act(game))
    out = Replay.from_game(game)
    out.set_analysis(0, analyse(out, player=0, seed=0, budget=6).to_dict())
    return out


def test_puzzles_are_the_seats_mistakes_and_blunders(replay: Replay) -> None:
    review = replay.analyses[0]
    wanted = [m["step"] for m in review["moves"] if m["verdict"] in ("mistake", "blunder")]
    assert wanted and [p.step for p in puzzles_of(review)] == wanted


def test_the_best_move_solves_a_puzzle_and_the_move_played_does_not(replay: Replay) -> None:
    for m in replay.analyses[0]["moves"]:
        if m["verdict"] not in ("mistake", "blunder"):
            continue
        game = replay.game_at(m["step"])
        assert judge(game, m, Action.from_dict(m["best"])).solved
        played = judge(game, m, Action.from_dict(m["played"]))
        assert not played.solved and played.loss == m["loss"] > ACCEPT


def test_a_puzzle_widget_counts_solved_puzzles_and_explains_with_the_reason(
        replay: Replay) -> None:
    w = ReplayWidget(replay, puzzles=0)
    total = w.puzzle["total"]
    assert w.viewer == 0 and not w.allow_all_seeing and w.choices and total >= 2
    first = next(m for m in replay.analyses[0]["moves"] if m["step"] == w.step)
    w.send_message({"type": "guess", "step": w.step, "action": first["best"]})
    last = w.puzzle["last"]
    assert w.error == "" and last["solved"] is True and last["reason"] == first["reason"]
    assert w.puzzle["solved"] == 1 and w.puzzle["answered"] == 1 and w.puzzle["done"]
    assert w.step == first["step"] + 1 and not w.choices  # the recorded move, answered
    # The review of an answered puzzle is shown ("Best was" on the board), no other.
    assert [m["step"] for a in w.analyses for m in a["moves"]] == [first["step"] + 1]
    w.send_message({"type": "guess", "step": first["step"], "action": first["best"]})
    assert "answered" in w.error or "step" in w.error
    w.send_message({"type": "puzzle"})
    second = next(m for m in replay.analyses[0]["moves"] if m["step"] == w.step)
    assert w.error == "" and w.puzzle["index"] == 1 and w.puzzle["last"] is None
    w.send_message({"type": "guess", "step": w.step, "action": second["played"]})
    assert w.puzzle["last"]["solved"] is False and w.puzzle["solved"] == 1
    assert w.puzzle["answered"] == 2 and w.training["right"] == 1 and w.training["total"] == 2
    w.send_message({"type": "puzzle", "index": total})
    assert f"There are {total} puzzles" in w.error


def test_puzzles_need_the_seats_review() -> None:
    game = Game.new(players=2, seed=4)
    game.apply(game.legal_actions()[-1])
    with pytest.raises(ValueError, match="puzzles need seat 1's review"):
        ReplayWidget(Replay.from_game(game), puzzles=1)
    with pytest.raises(ValueError, match="puzzles must be a seat"):
        ReplayWidget(Replay.from_game(game), puzzles=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="choose one"):
        ReplayWidget(Replay.from_game(game), puzzles=0, train=0)


def test_show_the_line_plays_the_best_continuation_as_a_variation(replay: Replay) -> None:
    w = ReplayWidget(replay)
    move = next(m for m in replay.analyses[0]["moves"] if m["verdict"] == "blunder"
                or m["verdict"] == "mistake")
    shown = move["step"] + 1  # the page shows a move's review on the step it led to
    w.step = shown
    entry = next(m for a in w.analyses for m in a["moves"] if m["step"] == shown)
    assert entry["best_line"][0] == move["best"] and entry["best_slots"]
    if move["best"]["type"] == "activate":
        assert move["best"]["slot"] in entry["best_slots"]
    w.send_message({"type": "show_line", "step": shown})
    assert w.error == "" and w.variation != 0 and w.step == shown
    v = replay.variation(w.variation)
    assert v.name == f"Coach's line, move {shown}" and v.step == move["step"]
    assert replay.line(v.id)[move["step"]].to_dict() == move["best"]
    again = w.show_line(shown)
    assert again == v.id and len(replay.variations) == 1
    trainer = ReplayWidget(replay, train=0)
    trainer.send_message({"type": "show_line", "step": 0})
    assert "guessing" in trainer.error


def test_the_studio_turns_into_puzzles(replay: Replay) -> None:
    w = ReplayWidget(replay, viewer=0)
    w.send_message({"type": "puzzles", "seat": 1})
    assert "its puzzles only" in w.error and w.train is None
    w.send_message({"type": "puzzles", "seat": 0})
    assert w.error == "" and w.train == 0 and w.viewer == 0 and not w.allow_all_seeing
    first = puzzles_of(replay.analyses[0])[0]
    assert w.step == first.step and w.puzzle["total"] >= 1 and w.choices
    assert len(w.line) == first.step + 1 and all(not a["moves"] for a in w.analyses)
    w.send_message({"type": "puzzles", "seat": 0})
    assert "already" in w.error
