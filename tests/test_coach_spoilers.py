"""No spoilers where memory is tested (DESIGN.md, "Words count as much as cards").

- A hint during play names a face-down card by its slot only, and never groups it with a named
  element or a face-up card (over more than 1,000 hints, as synced in the play widget's
  ``hint`` trait), and the synced view holds no inert card's element meanwhile.
- Guess the move and puzzles hold nothing of the moves after the one to guess, in synced
  state or in an export, until it is guessed: a replay that goes on differently from that move
  gives the very same synced state.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_coach_words import face_up, hidden_names
from traitlets import TraitError

import leyline_widget.agents.analysis as coach
from leyline_widget import Game, LeylineWidget, Replay, ReplayWidget, Rules, analyse
from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot

R = Rules.default()
ELEMENTS = "|".join(R.elements)
HINTS = 1000


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def grouped_leaks(text: str, shown: dict[int, str]) -> list[str]:
    """Inference leaks: a face-down slot grouped with a face-up one or an element word (in one
    list of slots, or one parenthesis), or words that say cards match."""
    bad = []
    if re.search(r"\b(matching|match|same element|pair)\b", text, re.I):
        bad.append("says cards match")
    clauses = re.findall(r"\([^)]*\)", text) + re.findall(r"slots? \d+(?:(?:, | and )\d+)*",
                                                              text)
    for clause in clauses:
        slots = [int(n) for n in re.findall(r"\b\d+\b", clause)]
        down = [s for s in slots if s not in shown]
        if down and (any(s in shown for s in slots) or re.search(ELEMENTS, clause, re.I)):
            bad.append(clause)
    return bad


def inert_elements(state: dict[str, Any]) -> list[int]:
    view = state.get("view") or {}
    return [s for s, c in enumerate(view.get("grid", []))
            if c.get("card") == "inert" and c.get("element") is not None]


def test_a_thousand_hints_during_play_leak_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = coach.hint
    monkeypatch.setattr(coach, "hint", lambda game, seat, budget=1, seed=0: quick(
        game, seat, budget=1, seed=seed))
    hints = 0
    problems: list[str] = []
    seed = 0
    while hints < HINTS:
        seed += 1
        rules = R if seed % 3 else R.replace(tokens_per_element=1, major_threshold=3)
        w = LeylineWidget(players=["Ada", "Bo"], rules=rules, seed=seed, deal_ms=0, hints=True,
                          autosave=False)
        bots = [BotSeat(MemoryBot(seed=seed, capacity=3), 0),
                BotSeat(GreedyBot(seed=seed + 1), 1)]
        while not w.game.is_over and w.game.step < 160:
            game = w.game
            seat = game.active_player
            if len(game.legal_actions()) > 1:
                w.viewer = seat
                w.ask_hint()
                hints += 1
                shown = face_up(game)
                state = w.get_state([k for k in w.keys if not k.startswith("_")])
                s = state["hint"]["suggestion"]  # as synced
                for text in (s["label"], s["reason"]):
                    problems += [f"hint {seed}/{game.step}: {b!r} in {text!r}"
                                 for b in hidden_names(text, shown, rules)
                                 + grouped_leaks(text, shown)]
                if inert_elements(state):
                    problems.append(f"synced view {seed}/{game.step}: {inert_elements(state)}")
            w.play(bots[seat].act(game))
    assert hints >= HINTS
    assert problems == [], problems[:10]


# ---------------------------------------------------------------------------- the future
def played(seed: int, prefix: list[Any] | None = None, steps: int = 70) -> Replay:
    """A bot game; with ``prefix``, those actions first, then a different legal action, then
    random moves: a game that leaves the first one at that point."""
    game = Game.new(players=["Ada", "Bo"], seed=seed)
    rng = random.Random(seed)
    if prefix is None:
        seats = [BotSeat(MemoryBot(seed=seed, capacity=3), 0),
                 BotSeat(GreedyBot(seed=seed + 1), 1)]
        while not game.is_over and game.step < steps:
            game.apply(seats[game.active_player].act(game))
        return Replay.from_game(game)
    *before, answer = prefix
    for a in before:
        game.apply(a)
    game.apply(next(a for a in game.legal_actions() if a != answer))
    while not game.is_over and game.step < steps + 10:
        game.apply(rng.choice(game.legal_actions()))
    return Replay.from_game(game)


def synced(w: ReplayWidget) -> str:
    """Every synced trait but the references to other widget models (their ids differ)."""
    state = {k: v for k, v in w.get_state().items()
             if not (isinstance(v, str) and v.startswith("IPY_MODEL_"))}
    return json.dumps(state, sort_keys=True, default=str)


def guess_until(w: ReplayWidget, upto: int) -> None:
    """Guess every move of the seat before step ``upto`` (right), stepping over the others."""
    while w.step < upto:
        if w.choices:
            w.send_message({"type": "guess", "step": w.step,
                            "action": w.replay.actions[w.step].to_dict()})
            assert w.error == "", w.error
        else:
            w.step += 1


@pytest.mark.parametrize("seed", [3, 5])
def test_guess_the_move_holds_nothing_of_the_moves_to_guess(seed: int) -> None:
    replay = played(seed)
    decisions = [k for k in range(len(replay)) if replay.game_at(k).active_player == 0
                 and len(replay.game_at(k).legal_actions()) > 1]
    for k in decisions[1::6]:
        other = played(seed, list(replay.actions[:k + 1]))
        assert other.actions[:k] == replay.actions[:k] and other.actions[k] != replay.actions[k]
        a, b = ReplayWidget(replay, train=0), ReplayWidget(other, train=0)
        guess_until(a, k)
        guess_until(b, k)
        assert a.step == b.step == k and a.choices
        assert synced(a) == synced(b), k
        a.set_state({"step": k + 1})  # the page cannot step past the move to guess
        assert "guess that move first" in a.error and a.step == k
        with pytest.raises(TraitError):
            a.step = len(replay)


def test_guess_the_move_starts_at_the_step_asked_for() -> None:
    # ReplayWidget(replay, train=seat, step=k): the moves before k are the story so far; the
    # first move to guess is the seat's first at or after k, and nothing after it is synced.
    replay = played(3)
    w = ReplayWidget(replay, train=0, step=5)
    first = next(k for k in range(5, len(replay)) if replay.game_at(k).active_player == 0)
    assert w.step == 5 and w.error == ""
    assert len(w.get_state()["line"]) == first + 1
    with pytest.raises(TraitError, match="guess that move first"):
        w.step = first + 1


def test_no_download_while_guessing_the_move() -> None:
    w = ReplayWidget(played(3), train=0)
    for kind in ("markdown", "html", "json"):
        w.send_message({"type": "export", "kind": kind, "viewer": 0})
        assert "guessing the move" in w.error and w.export == {}
    with pytest.raises(ValueError, match="guessing the move"):
        w.to_html("never.html")


def reviewed(seed: int) -> Replay:
    replay = played(seed)
    replay.set_analysis(0, analyse(replay, player=0, seed=0, budget=6).to_dict())
    return replay


def test_a_puzzle_holds_nothing_of_its_answer_or_the_moves_after() -> None:
    replay = reviewed(3)
    w = ReplayWidget(replay, puzzles=0)
    assert w.puzzle["total"] >= 1
    for i in range(w.puzzle["total"]):
        if i:
            w.next_puzzle()
        k = w.step
        move = next(m for m in replay.analyses[0]["moves"] if m["step"] == k)
        state = w.get_state()
        assert len(state["line"]) == k + 1 and len(state["scores"]) == k + 1
        assert state["analyses"] == [] or all(not a["moves"] or max(
            m["step"] for m in a["moves"]) <= k for a in state["analyses"])
        assert state["puzzle"]["last"] is None and state["puzzle"]["move"] == k + 1
        text = synced(w)
        assert move["reason"] not in text
        assert not inert_elements(state)
        with pytest.raises(TraitError):
            w.step = k + 1
        w.send_message({"type": "export", "kind": "markdown"})
        assert w.export == {}
        w.send_message({"type": "guess", "step": k, "action": move["played"]})
        assert w.error == "" and w.step == k + 1 and w.puzzle["last"]["solved"] is False


def test_no_variation_while_guessing_not_even_the_coachs_line() -> None:
    replay = reviewed(3)
    ReplayWidget(replay).show_line(replay.analyses[0]["moves"][0]["step"] + 1)
    assert replay.variations
    for w in (ReplayWidget(replay, train=0), ReplayWidget(replay, puzzles=0)):
        assert [line["id"] for line in w.lines] == [0]
        w.set_state({"variation": replay.variations[0].id})
        assert w.variation == 0 and "main line only" in w.error
