"""The coach never names the element of a card that is inert where its words are shown.

A review is shown on the step its move led to (``widgets/book.py:analysis_entries``: the
action's index + 1), a hint on the position it was asked at. There, an element word may name
only a card that is face-up (active, or collected by the move itself: the collection is shown
to all and the cards are in a Study now); tokens and powers are public and may be named.
The checks below are the engine's view, not the coach's helper: the active cards of the
all-seeing observation and the move's ``collect`` events.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from leyline_widget import Action, Activate, Deactivate, EndPhase, Game, PlaceToken, Rules, analyse
from leyline_widget.agents.analysis import MoveReview, hint
from leyline_widget.agents.bots import BotSeat, GreedyBot, MemoryBot
from leyline_widget.core.types import Event
from leyline_widget.replays.replay import Replay
from leyline_widget.teach.scenario import Scenario

R = Rules.default()
#: Rulesets that reach every kind of sentence: tokens and powers early, a fifth element,
#: four activations and a threshold of three, a small grid.
RULES = {
    "default": R,
    "tokens": R.replace(tokens_per_element=1, major_threshold=3),
    "five": R.replace(elements=("fire", "water", "earth", "wind", "light")),
    "thr3": R.replace(collect_threshold=3, activations_per_turn=4),
    "2x3": R.replace(cards_per_element=6, grid_rows=2, grid_cols=3),
}
CASES = [("default", 2, 1), ("default", 3, 2), ("tokens", 2, 3), ("tokens", 3, 4),
         ("five", 2, 5), ("thr3", 2, 6), ("2x3", 2, 7)]


def face_up(game: Game, events: Iterable[Event] = ()) -> dict[int, str]:
    """Slot -> element of the cards a text shown at ``game``'s step may name."""
    out = {s: str(ev["element"]) for ev in events if ev["type"] == "collect"
           for s in ev["slots"]}
    for s, cell in enumerate(game.observation(None)["grid"]):
        if cell["card"] == "active":
            out[s] = str(cell["element"])
    return out


def words_of(rules: Rules) -> str:
    return "|".join(el.replace("_", " ") for el in rules.elements)


def slots_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def hidden_names(text: str, shown: dict[int, str], rules: Rules) -> list[str]:
    """What in ``text`` names an element the step does not show: empty when all is well."""
    el = words_of(rules)
    bad: list[str] = []

    def check(mention: str, element: str, slots: Sequence[int]) -> None:
        if not slots or any(shown.get(s) != element.lower().replace(" ", "_") for s in slots):
            bad.append(mention)

    # The tokens a card is bound by are public ("2 matching cards bound by 1 Fire").
    text = re.sub(rf"\bbound by \d+ ({el})(?:, \d+ ({el}))*", "bound", text, flags=re.I)
    # Elements tied to slots: "Water at slots 3 and 7", "2 Water (slots 3, 7)",
    # "slot 5 (Water)", "slot 5 holds Water".
    for m in re.finditer(rf"\b({el}) at (slots? \d+(?:(?:, | and )\d+)*)", text, re.I):
        check(m.group(0), m.group(1), slots_in(m.group(2)))
    for m in re.finditer(rf"\b\d+ ({el})\b[^()]*\((slots? [\d, ]+)\)", text, re.I):
        check(m.group(0), m.group(1), slots_in(m.group(2)))
    for m in re.finditer(rf"\bslot (\d+) (?:\(|holds )({el})\b", text, re.I):
        check(m.group(0), m.group(2), [int(m.group(1))])
    # Then every element word at all, once the public phrases are taken out: a token placed
    # ("token fire on 3", "place a Fire token"), a power's key ("fire:minor").
    rest = re.sub(rf"\btoken ({el}) on\b|\ban? ({el}) token\b|\b({el}):(minor|major)\b", "",
                  text, flags=re.I)
    for m in re.finditer(rf"\b({el})\b", rest, re.I):
        if m.group(1).lower().replace(" ", "_") not in shown.values():
            bad.append(m.group(0))
    return bad


def bot_game(rules: Rules, players: int, seed: int, steps: int) -> tuple[Game, list[str]]:
    """A short game of a forgetful MemoryBot (it slips) against GreedyBots, and the problems
    found in the hints asked along the way."""
    game = Game.new(players=players, rules=rules, seed=seed)
    bots = [MemoryBot(seed=seed, capacity=3)] + [GreedyBot(seed=seed + p)
                                                 for p in range(1, players)]
    seats = [BotSeat(b, p) for p, b in enumerate(bots)]
    problems: list[str] = []
    while not game.is_over and game.step < steps:
        if game.step % 3 == 0 and len(game.legal_actions()) > 1:
            h = hint(game, game.active_player, budget=2, seed=seed)
            for text in (h.label, h.reason):
                problems += [f"hint at step {game.step}: {bad!r} in {text!r}"
                             for bad in hidden_names(text, face_up(game), rules)]
        game.apply(seats[game.active_player].act(game))
    return game, problems


def review_problems(game: Game, moves: Sequence[MoveReview]) -> list[str]:
    """Every reason and option label checked against the step its review is shown on."""
    problems: list[str] = []
    rules = game.rules
    start = Game.new(players=len(game.players), rules=rules, deck=list(game.initial_deck))
    by_step = {m.step: m for m in moves}
    g = start
    for i, action in enumerate(game.actions):
        events = g.apply(action)
        m = by_step.get(i)
        if m is None:
            continue
        shown = face_up(g, events)
        texts = [m.reason] + [str(o["label"]) for o in m.options]
        for text in texts:
            problems += [f"step {i + 1}: {bad!r} in {text!r}"
                         for bad in hidden_names(text, shown, rules)]
    return problems


@pytest.mark.parametrize(("rules", "players", "seed"), CASES)
def test_no_review_label_or_hint_names_a_card_inert_at_its_step(rules: str, players: int,
                                                                seed: int) -> None:
    game, problems = bot_game(RULES[rules], players, seed, steps=45)
    replay = Replay.from_game(game)
    for seat in range(min(players, 2)):
        review = analyse(replay, player=seat, seed=seed, budget=2)
        assert review.moves
        problems += review_problems(game, review.moves)
    assert not problems, "\n".join(problems[:10])


def test_the_checker_catches_what_it_is_for() -> None:
    # Guard of the guard: each way of naming an inert card is caught, public words are not.
    shown = {2: "fire"}
    for text in ("collect 2 water (slots 3, 7)", "Passing left Water at slots 3 and 7 (1.0)",
                 "Activating slot 5 (Water) is best", "slot 5 holds Water", "binds the Earth",
                 "collect 2 fire (slots 2, 4)", "locks Bo out of the Fire at slots 2 and 9"):
        assert hidden_names(text, shown, R), text
    for text in ("the Fire at slot 2", "collect 2 matching cards bound by 1 Water (slots 3, 7)",
                 "token earth on 1 from supply", "place a Wind token on slot 3",
                 "water:major [3]", "the card you had seen at slot 5"):
        assert not hidden_names(text, shown, R), text


def pair() -> tuple[Game, dict[int, str]]:
    # Water at 3 and 8, Fire at 5, seen by the seat (as in tests/test_analysis.py).
    return (Scenario(players=2).grid("? ? ? wa / ? f ? ? / wa ? ? ?").build(),
            {3: "water", 5: "fire", 8: "water"})


def reasons(game: Game, known: dict[int, str]) -> list[str]:
    class Line:
        def __init__(self) -> None:
            self.actions = list(game.actions)

        def game_at(self, i: int) -> Game:
            assert game.start_position is not None
            return Game.from_position(game.start_position)

    return [m.reason for m in analyse(Line(), player=0, budget=16, known=known).moves]


def test_a_pass_names_the_pair_it_left_by_slot() -> None:
    game, seen = pair()
    game.apply(EndPhase())
    (reason,) = reasons(game, seen)
    assert reason.startswith("Passing left a collection you knew on the grid: the matching "
                             "cards you had seen at slots 3 and 8")
    assert "water" not in reason.lower()


def test_a_plan_names_its_element_once_every_card_of_it_is_face_up() -> None:
    game, seen = pair()
    for a in (Activate(3), Activate(8), EndPhase()):
        game.apply(a)
    first, second, end = reasons(game, seen)
    # After the first activation slot 8 is still inert: the plan names it by slot.
    assert first == ("Activating the Water at slot 3 is part of the best plan: collect 2 "
                     "matching cards (slots 3, 8).")
    assert second == ("Activating the Water at slot 8 is part of the best plan: collect 2 Water "
                      "(slots 3, 8).")
    assert end == "Ending Phase 2 here was the best plan: collect 2 Water (slots 3, 8)."


def test_a_slip_says_what_kind_of_slip_and_names_only_face_up_cards() -> None:
    rules = Rules.default().replace(activations_per_turn=2)
    game = Scenario(players=2, rules=rules).grid("? ? ? wa / ? f ? ? / wa ? ? ?").build()
    for a in (Activate(3), Activate(5)):
        game.apply(a)
    slip = reasons(game, {3: "water", 5: "fire", 8: "water"})[1]
    assert slip.endswith("Cause: a memory slip, 4.2 cards.") or "Cause: a memory slip" in slip
    assert slip.startswith("You had seen the Fire at slot 5, but you activated "
                           "it beside the Water at slot 3 as if the two matched; the best plan "
                           "was to ")
    assert "(slots 3, 8)" in slip and "collect 2 matching cards" in slip  # 8 is inert


def test_a_token_names_the_card_it_binds_by_slot() -> None:
    # Phase 3, nothing active: the Water at slot 3 is inert, so the review says "slot 3".
    s = (Scenario(players=["Ada", "Bo"]).grid("? ? ? wa / ? f ? ? / wa ? ? ?").seen(3, 5, 8)
         .study(0, fire=2).phase("binding"))
    game = s.build()
    token = PlaceToken(3, "fire", "supply")
    game.apply(token)
    (reason,) = reasons(game, s.seen_cards())
    assert reason.startswith("This token cost a Study card, locks Bo out of the card you had "
                             "seen at slot 3"), reason
    assert not hidden_names(reason, face_up(game), game.rules)


@pytest.mark.parametrize("moves", [
    (EndPhase(),),                                   # a pass with a known pair
    (Activate(0), Activate(1), EndPhase()),          # two guesses
    (Activate(3), Activate(5), EndPhase()),          # a slip
    (Activate(3), Deactivate(3), Activate(8), Activate(3), EndPhase()),
])
def test_scripted_lines_name_no_inert_card(moves: tuple[Action, ...]) -> None:
    game, seen = pair()
    shown = []
    for a in moves:
        events = game.apply(a)
        shown.append(face_up(game, events))
    texts = reasons(game, seen)
    assert len(texts) == len(moves)
    for text, step in zip(texts, shown):
        assert not hidden_names(text, step, game.rules), text


def figures(review: Any) -> list[Any]:
    """What the coach decided, without its words: step, played, best, loss, verdict, and
    every option's key, value, rollouts and actions."""
    return [[m.step, m.played.to_dict(), m.best.to_dict(), m.loss, m.verdict,
             [[o["key"], o["value"], o["rollouts"], o["actions"]] for o in m.options]]
            for m in review.moves]


#: sha256 of :func:`figures` over the CASES' reviews, recorded before the coach's words were
#: changed to name inert cards by slot: the rewording changed no verdict, loss or value.
#: Re-pinned when the search moved to common decks and successive halving (issue 25): the
#: values changed by design, the words did not. Re-pinned again when the coach's plans came
#: to name the card played where another of its group was picked (options' actions, by design).
FIGURES = "b13e5b771bd3f7fc03ee30b7541912e356c69dd0710ec1168d149d5cd3e1b82d"


def test_the_rewording_changed_no_verdict_loss_or_value() -> None:
    out = []
    for rules, players, seed in CASES[:4]:
        game, _ = bot_game(RULES[rules], players, seed, steps=30)
        out.append(figures(analyse(Replay.from_game(game), player=0, seed=seed, budget=2)))
    digest = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()
    assert digest == FIGURES


def test_option_labels_read_in_the_rules_words() -> None:
    # The labels a page shows ("better: ...") use the power's name and the source's words;
    # the option keys stored in files stay the terse ids.
    from leyline_widget.agents.expert import _label
    from leyline_widget.agents.expert import action_words as _words
    from leyline_widget.core.actions import Refill, UsePower

    assert _words(PlaceToken(3, "earth", "supply"), R) == "an Earth token on slot 3 from the supply"
    assert _words(PlaceToken(0, "fire", "pool"), R) == "a Fire token on slot 0 from the Token Pool"
    assert _words(UsePower("fire", "minor", (3,)), R) == "Spark on slot 3"
    assert _words(UsePower("water", "minor", (7, 2)), R) == "Ripple on slots 2 and 7"
    assert _words(EndPhase(), R) == "end the phase" and _words(Refill(4), R) == "refill a slot"
    assert _label(UsePower("fire", "minor", (3,))) == "fire:minor [3]"
