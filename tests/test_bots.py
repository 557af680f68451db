"""Bots: legal play, strength ordering, memory, seeding, and no access to hidden state."""

from __future__ import annotations

import math
import random
import statistics
from typing import Any

import pytest
from support import SMALL

from leyline_widget import Activate, Deactivate, Game, Power, Rules
from leyline_widget.agents.bots import (
    BOT_KINDS,
    Bot,
    BotSeat,
    GreedyBot,
    MemoryBot,
    _kind,
    make_bot,
)
from leyline_widget.core.actions import Action
from leyline_widget.core.game import visible_events
from leyline_widget.core.view import SeatView

VARIANTS = [
    Rules.default(),
    SMALL,
    Rules.default().replace(grid_cols=5, activations_per_turn=4),
    # Powers unlock at once: every power, target and token source gets exercised.
    Rules.default().replace(minor_threshold=1, major_threshold=2, collect_threshold=1),
]

BOTS: list[tuple[str, dict[str, Any]]] = [
    ("random", {}), ("greedy", {}), ("greedy", {"scout": True}), ("memory", {}),
    ("memory", {"capacity": 2, "decay": 0.3}),
]


def play(game: Game, seats: list[BotSeat], cap: int = 20_000) -> list[Action]:
    """Play to the end, checking every bot move against the legal list first."""
    moves = []
    while not game.is_over:
        legal = game.legal_actions()
        action = seats[game.active_player].act(game)
        assert action in legal, (action, game.phase, game.why_illegal(action))
        game.apply(action)
        moves.append(action)
        assert len(moves) < cap, "game did not end"
    return moves


def seats_for(kinds: list[tuple[str, dict[str, Any]]], seed: int) -> list[BotSeat]:
    return [BotSeat(make_bot(k, seed=seed * 10 + p, **params), p)
            for p, (k, params) in enumerate(kinds)]


@pytest.mark.parametrize("rules", VARIANTS, ids=["default", "small", "wide", "powers"])
def test_bots_only_make_legal_moves(rules: Rules) -> None:
    rng = random.Random(7)
    for seed in range(12):
        players = 1 + seed % 4
        kinds = [BOTS[rng.randrange(len(BOTS))] for _ in range(players)]
        game = Game.new(players=players, seed=seed, rules=rules)
        play(game, seats_for(kinds, seed))
        assert game.end_reason in ("deck", "stalemate")


def test_every_power_and_source_is_used_by_some_bot() -> None:
    # Guards the legality test above: it must reach the phases that matter.
    seen_powers: set[str] = set()
    sources: set[str] = set()
    for seed in range(12):
        players = 2 + seed % 3
        game = Game.new(players=players, seed=seed, rules=VARIANTS[3])
        kinds = [("greedy", {}), ("memory", {"capacity": 3, "decay": 0.2}), ("random", {})]
        play(game, seats_for((kinds * 2)[:players], seed))
        for step in game.event_log:
            for ev in step:
                if ev["type"] == "power":
                    seen_powers.add(ev["effect"])
                elif ev["type"] == "place_token":
                    sources.add(ev["source"])
    assert {"spark", "wildfire", "whisper", "gale", "tide", "unbind"} <= seen_powers
    assert "supply" in sources


def greedy_vs_random(games: int) -> tuple[list[int], list[int]]:
    greedy, rand = [], []
    for seed in range(games):
        order = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        game = Game.new(players=2, seed=seed)
        play(game, seats_for([(k, {}) for k in order], seed))
        scores = game.scores()
        greedy.append(scores[order.index("greedy")])
        rand.append(scores[order.index("random")])
    return greedy, rand


def test_greedy_beats_random_by_a_wide_margin() -> None:
    greedy, rand = greedy_vs_random(20)
    assert all(g > r for g, r in zip(greedy, rand))
    assert statistics.fmean(greedy) - statistics.fmean(rand) > 20


def memory_score(capacity: float, games: int) -> float:
    """Mean score of a MemoryBot against a GreedyBot, each first in half of the games."""
    total = 0
    for seed in range(games):
        mine = seed % 2
        kinds: list[tuple[str, dict[str, Any]]] = [("greedy", {})] * 2
        kinds[mine] = ("memory", {"capacity": capacity, "decay": 0.0})
        game = Game.new(players=2, seed=1000 + seed)
        play(game, seats_for(kinds, seed))
        total += game.scores()[mine]
    return total / games


def test_memory_bot_scores_more_with_more_memory() -> None:
    low, mid, high = (memory_score(c, 40) for c in (1, 5, math.inf))
    assert low + 1 < mid < high - 1, (low, mid, high)


def test_memory_bot_at_full_memory_plays_exactly_as_greedy() -> None:
    for seed in range(6):
        players = 1 + seed % 4
        games = []
        for kind, params in (("greedy", {}), ("memory", {"capacity": math.inf, "decay": 0})):
            game = Game.new(players=players, seed=seed)
            games.append(play(game, seats_for([(kind, params)] * players, seed)))
        assert games[0] == games[1]


def test_memory_bot_forgets_with_capacity_and_decay() -> None:
    game = Game.new(players=1, seed=3)
    small = MemoryBot(seed=1, capacity=3, decay=0.0)
    full = MemoryBot(seed=1, capacity=math.inf, decay=0.0)
    fading = MemoryBot(seed=1, capacity=math.inf, decay=0.5)
    for bot in (small, full, fading):
        bot.observe(visible_events(game.events_since(0), 0))
    assert len(full.known()) == 12
    # The last three cards revealed at set-up are the ones a capacity of 3 keeps.
    assert small.known() == {s: game.card(s) for s in (9, 10, 11)}
    assert 0 < len(fading.known()) < 12
    assert all(game.card(s) == el for s, el in fading.known().items())


@pytest.mark.parametrize("params", [{"capacity": -1}, {"capacity": 2.5}, {"decay": 1.5},
                                    {"decay": "x"}, {"wisdom": 3}])
def test_bad_memory_parameters_are_refused(params: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"capacity|decay|parameters"):
        make_bot("memory", seed=1, **params)


def test_make_bot_knows_every_kind_and_refuses_others() -> None:
    for kind, cls in BOT_KINDS.items():
        bot = make_bot(kind, seed=3)
        assert isinstance(bot, cls) and bot.name == kind
    with pytest.raises(ValueError, match="unknown bot kind 'smart'"):
        make_bot("smart")


@pytest.mark.parametrize("kind", list(BOT_KINDS))
def test_same_seed_same_play(kind: str) -> None:
    runs = []
    for bot_seed in (5, 5, 6):
        game = Game.new(players=2, seed=11)
        seats = [BotSeat(make_bot(kind, seed=bot_seed + p), p) for p in range(2)]
        runs.append(play(game, seats))
    assert runs[0] == runs[1]
    if kind == "random":
        assert runs[0] != runs[2]


def test_bot_seat_acts_only_on_its_turn() -> None:
    game = Game.new(players=2, seed=1)
    seat = BotSeat(make_bot("greedy", seed=1), 1)
    with pytest.raises(ValueError, match="player 0's turn"):
        seat.act(game)


def test_a_seat_moved_to_another_game_starts_afresh() -> None:
    first, second = Game.new(players=2, seed=1), Game.new(players=2, seed=2)
    seat = BotSeat(MemoryBot(seed=1, capacity=math.inf, decay=0), 0)
    play(first, [seat, BotSeat(GreedyBot(seed=2), 1)])
    fresh = BotSeat(MemoryBot(seed=1, capacity=math.inf, decay=0), 0)
    seat.act(second)
    fresh.act(second)
    assert isinstance(seat.bot, MemoryBot) and isinstance(fresh.bot, MemoryBot)
    assert seat.bot.known() == fresh.bot.known() == {s: second.card(s) for s in range(12)}


# ---------------------------------------------------------------- hidden information
class Peeker(Bot):
    """A would-be cheat: activates the first inert card whose element its view shows."""

    name = "peeker"

    def choose(self, view: Any, legal: list[Action]) -> Action:
        grid = view.observation["grid"] if isinstance(view, SeatView) else view["grid"]
        for a in legal:
            if isinstance(a, Activate) and grid[a.slot]["element"] == "fire":
                return a
        return legal[-1]


def redealt(position: dict[str, Any], seed: int) -> dict[str, Any]:
    """The same position with the inert grid cards and the deck under its top re-dealt."""
    hidden = list(position["grid"]) + position["deck"][1:]
    rng = random.Random(seed)
    while True:
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        if shuffled[: len(position["grid"])] != hidden[: len(position["grid"])]:
            break
    size = len(position["grid"])
    return {**position, "grid": shuffled[:size], "deck": position["deck"][:1] + shuffled[size:]}


def lockstep(a: Game, b: Game, make: Any, viewer_seat: int = 0) -> int:
    """Play the same bots in ``a`` and ``b`` while seat ``viewer_seat`` sees the same in both.

    Returns the number of that seat's decisions made on identical views (its moves must be
    identical there). Other seats share moves between the games so the views stay aligned.
    """
    seats_a, seats_b = make(), make()
    fed = 0
    compared = 0
    while not a.is_over and not b.is_over:
        view_a = (visible_events(a.events_since(fed), viewer_seat), a.observation(viewer_seat))
        view_b = (visible_events(b.events_since(fed), viewer_seat), b.observation(viewer_seat))
        if view_a != view_b:
            break
        fed = a.step + 1
        p = a.active_player
        move_a = seats_a[p].act(a)
        move_b = seats_b[p].act(b)
        if p == viewer_seat:
            assert move_a == move_b, f"same view, different moves at step {a.step}"
            compared += 1
        elif move_a != move_b:
            break
        a.apply(move_a)
        b.apply(move_b)
    return compared


def bottom_redealt(deck: tuple[str, ...], seed: int, count: int = 8) -> list[str]:
    """The deck with its last ``count`` cards re-dealt: hidden until the last refills."""
    head, tail = list(deck[:-count]), list(deck[-count:])
    rng = random.Random(seed)
    shuffled = tail[:]
    while shuffled == tail:
        rng.shuffle(shuffled)
    return head + shuffled


@pytest.mark.parametrize("kind", ["greedy", "memory", "random"])
def test_no_bot_reads_hidden_cards(kind: str) -> None:
    def make() -> list[BotSeat]:
        return [BotSeat(make_bot(kind, seed=4), 0), BotSeat(make_bot("greedy", seed=5), 1)]

    # The hidden deck: re-deal its bottom; moves agree as long as the views do.
    long_runs = []
    for seed in range(4):
        first = Game.new(players=2, seed=seed, rules=VARIANTS[3])
        deck = first.initial_deck
        a = Game.new(players=2, deck=list(deck), rules=VARIANTS[3])
        b = Game.new(players=2, deck=bottom_redealt(deck, seed), rules=VARIANTS[3])
        assert a.state_hash() != b.state_hash()
        long_runs.append(lockstep(a, b, make))
    assert min(long_runs) >= 5 and sum(long_runs) >= 40, long_runs
    # Hidden grid cards: a position nobody has seen, its inert cards re-dealt.
    compared = 0
    for seed in range(8):
        start = Game.new(players=2, seed=seed, rules=VARIANTS[3]).position()
        a = Game.from_position(start)
        b = Game.from_position(redealt(start, seed))
        assert a.observation(0) == b.observation(0) and a.state_hash() != b.state_hash()
        compared += lockstep(a, b, make)
    assert compared >= 8


def test_a_bot_that_tries_to_peek_sees_nothing() -> None:
    # The Peeker would play differently on the two deals if it saw inert elements; through a
    # BotSeat it sees None and plays the same.
    for seed in range(5):
        start = Game.new(players=1, seed=seed).position()
        a = Game.from_position(start)
        b = Game.from_position(redealt(start, seed))
        moves_a = BotSeat(Peeker(seed=1), 0).act(a)
        moves_b = BotSeat(Peeker(seed=1), 0).act(b)
        assert moves_a == moves_b == legal_last(a)
        # Fed the all-seeing view instead, it would pick a fire card: the check has teeth.
        cheat = Peeker(seed=1).choose(a.observation(None), a.legal_actions())
        assert isinstance(cheat, Activate) and a.card(cheat.slot) == "fire"


def legal_last(game: Game) -> Action:
    return game.legal_actions()[-1]


def test_private_peeks_of_others_reach_a_bot_without_their_element() -> None:
    game = Game.new(players=2, seed=2, rules=VARIANTS[3])
    seen: list[dict[str, Any]] = []

    class Recorder(GreedyBot):
        def observe(self, events: list[dict[str, Any]]) -> None:
            seen.extend(events)
            super().observe(events)

    seats = [BotSeat(make_bot("memory", seed=1, capacity=1, decay=0.5), 0),
             BotSeat(Recorder(seed=2), 1)]
    play(game, seats)
    private = [ev for ev in seen if ev["type"] == "reveal" and ev["visible_to"] == [0]]
    assert private and all(ev["element"] is None for ev in private)


class Unplanned(GreedyBot):
    """GreedyBot asked afresh before every move (no plan played)."""

    def queued(self, view: SeatView, legal: list[Action]) -> Action | None:
        return None


def _shared_kinds() -> Rules:
    """Powers unlocked at once, with a second power of the kinds GreedyBot uses in a row in
    Phase 1 (extra activations, a lower threshold) in place of Ripple and Whisper."""
    twins = {("water", "minor"): ({"kind": "extra_activations", "n": 2}, "Surge"),
             ("wind", "minor"): ({"kind": "collect_threshold", "n": 1}, "Kindle")}
    powers = [Power(pw.element, pw.tier, twins[pw.element, pw.tier][0],
                    twins[pw.element, pw.tier][1], "", "")
              if (pw.element, pw.tier) in twins else pw for pw in Rules.default().powers]
    return VARIANTS[3].replace(powers=powers)


@pytest.mark.parametrize("rules", [*VARIANTS, _shared_kinds()],
                         ids=["default", "small", "wide", "powers", "shared-kinds"])
def test_planning_ahead_changes_no_move(rules: Rules) -> None:
    # GreedyBot decides a turn's activations at once; the moves must be exactly those it
    # would choose one at a time.
    for seed in range(6):
        players = 1 + seed % 4
        runs = []
        for cls in (GreedyBot, Unplanned):
            game = Game.new(players=players, seed=seed, rules=rules)
            runs.append(play(game, [BotSeat(cls(seed=seed + p), p) for p in range(players)]))
        assert runs[0] == runs[1]


def test_only_bots_whose_memory_is_limited_fold_events() -> None:
    assert MemoryBot.observe is not Bot.observe
    for kind in ("random", "greedy", "expert"):
        assert type(make_bot(kind, seed=1)).observe is Bot.observe, kind


def test_no_bot_reads_game_internals() -> None:
    from pathlib import Path

    import leyline_widget.agents.bots as bots
    import leyline_widget.agents.expert as expert

    for module in (bots, expert):
        text = Path(module.__file__ or "").read_text()
        for word in ("game._", "view._", "g._", "det._"):
            assert word not in text, (module.__name__, word)


def test_a_power_is_read_by_its_kind() -> None:
    kinds = {pw.effect.id: _kind(pw) for pw in Rules.default().powers}
    assert kinds["gale"] == ("peek", 3) and kinds["spark"] == ("extra_activations", 1)
    assert kinds["tide"] == ("swap_with_deck", 0) and kinds["unbind"] == ("remove_tokens", 1)
    surge = Power("fire", "minor", {"kind": "extra_activations", "n": 2}, "Surge", "", "")
    assert _kind(surge) == ("extra_activations", 2)
    breeze = Power("wind", "minor", {"kind": "peek", "cards": 2}, "Breeze", "", "")
    assert _kind(breeze) == ("peek", 2)


def test_a_bot_is_fed_each_event_once_in_order_up_to_its_last_move() -> None:
    # Forced moves do not feed the bot (their events wait for its next decision), and a bot
    # seated at a new game is first fed what it was owed at the old one: in all, every event
    # up to its last move, once, in order.
    seen: list[dict[str, Any]] = []

    class Recorder(MemoryBot):
        def observe(self, events: list[dict[str, Any]]) -> None:
            seen.extend(events)
            super().observe(events)

    owing = 0
    for seed in range(6):
        seen.clear()
        players = 1 + seed % 2  # alone, it makes the game's last move: often a forced one
        game = Game.new(players=players, seed=seed)
        seat = BotSeat(Recorder(seed=1, capacity=math.inf, decay=0), 0)
        other = BotSeat(GreedyBot(seed=2), 1)
        last = 0
        while not game.is_over:
            forced = len(game.legal_actions()) == 1
            if game.active_player == 0:
                last = game.step
            game.apply((seat if game.active_player == 0 else other).act(game))
            if forced and last == game.step - 1 and game.step > 20 * (seed + 1):
                break  # moved away right after a forced move: its events are owed
        owed = [ev for step in game.event_log[:last + 1] for ev in step]
        owing += len(seen) < len(owed)  # its last moves' events still owed
        seat.act(Game.new(players=2, seed=seed + 10))
        assert seen[:len(owed)] == visible_events(owed, 0)
        fresh = Game.new(players=2, seed=seed + 10).events_since(0)
        assert seen[len(owed):] == visible_events(fresh, 0)
    assert owing


def test_a_greedy_bot_at_a_game_begun_from_a_position_knows_only_what_it_was_shown() -> None:
    start = Game.new(players=2, seed=3).position()
    game = Game.from_position(start)
    view = game.seat_view(0)
    assert view.seen == {} and view.known == {}
    bots = [BotSeat(GreedyBot(seed=p), p) for p in range(2)]
    while game.step < 12:
        game.apply(bots[game.active_player].act(game))
    view = game.seat_view(0)
    assert view.seen and all(game.card(s) == el for s, el in view.seen.items())


def test_the_generator_is_the_seeds() -> None:
    for kind in ("greedy", "memory", "expert", "random"):
        expected = random.Random(5)
        bot = make_bot(kind, seed=5)
        assert [bot.rng.random() for _ in range(5)] == [expected.random() for _ in range(5)]
    legal: list[Action] = [Activate(s) for s in range(10)]
    bot, expected = make_bot("random", seed=5), random.Random(5)
    view = Game.new(players=1, seed=1).seat_view(0)
    assert [bot.choose(view, legal) for _ in range(20)] == [legal[expected.randrange(10)]
                                                           for _ in range(20)]
    unseeded = [make_bot("greedy").rng.random() for _ in range(2)]
    assert unseeded[0] != unseeded[1]


def test_the_legal_list_is_built_only_for_a_decision_that_reads_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # BotSeat hands a bot the legal actions as a sequence that lists them only when it is
    # indexed or iterated: a forced move is found from the rules, a planned move is asked of
    # the game by value, and GreedyBot's Phase 1 and Phase 3 decisions read the view alone.
    listed: dict[str, int] = {}
    counts = {"planned": 0}
    real_list, real_queued = Game.legal_actions, GreedyBot.queued

    def counting_list(game: Game) -> list[Action]:
        listed[game.phase.value] = listed.get(game.phase.value, 0) + 1
        return real_list(game)

    def counting_queued(bot: GreedyBot, view: SeatView, legal: Any) -> Action | None:
        move = real_queued(bot, view, legal)
        counts["planned"] += move is not None
        return move

    monkeypatch.setattr(Game, "legal_actions", counting_list)
    monkeypatch.setattr(GreedyBot, "queued", counting_queued)
    for seed in range(4):
        listed.clear()
        counts.update(planned=0)
        game = Game.new(players=2, seed=seed)
        seats = [BotSeat(GreedyBot(seed=seed + p), p) for p in range(2)]
        while not game.is_over:
            game.apply(seats[game.active_player].act(game))
        assert counts["planned"] > 0
        assert sum(listed.values()) + counts["planned"] < game.step
        assert set(listed) <= {"activation", "refill"}, listed


def test_a_plan_is_dropped_when_the_game_moved_on_by_another_move() -> None:
    # GreedyBot plays the rest of a collection while the game moves on by its own moves alone;
    # once another move was applied (here its card deactivated again, as by a player taking
    # over its seat), it decides afresh from the game as it is, as a bot with no plan would.
    tried = 0
    for seed in range(20):
        game = Game.new(players=2, seed=seed)
        bot = GreedyBot(seed=seed)
        seat = BotSeat(bot, game.active_player)
        first = seat.act(game)
        plan = bot._plan  # the rest of a collection, when one was planned
        if not (isinstance(first, Activate) and plan and isinstance(plan[0], Activate)):
            continue
        game.apply(first)
        game.apply(Deactivate(first.slot))
        fresh = GreedyBot(seed=seed)
        fresh.start(game.rules, seat.seat)
        expected = fresh.choose(game.seat_view(seat.seat), game.legal_actions())
        assert seat.act(game) == expected
        tried += 1
    assert tried >= 3
