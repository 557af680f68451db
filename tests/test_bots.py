"""Bots: legal play, strength ordering, memory, seeding, and no access to hidden state."""

from __future__ import annotations

import math
import random
import statistics
from typing import Any

import pytest
from support import SMALL

from leyline_widget import Activate, Game, Refill, Rules
from leyline_widget.agents.bots import (
    _STATE,
    BOT_KINDS,
    Bot,
    BotSeat,
    GreedyBot,
    MemoryBot,
    make_bot,
)
from leyline_widget.core.actions import Action
from leyline_widget.core.game import Phase, visible_events

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
    seat = BotSeat(GreedyBot(seed=1), 0)
    play(first, [seat, BotSeat(GreedyBot(seed=2), 1)])
    fresh = BotSeat(GreedyBot(seed=1), 0)
    seat.act(second)
    fresh.act(second)
    assert isinstance(seat.bot, GreedyBot) and isinstance(fresh.bot, GreedyBot)
    assert seat.bot.known() == fresh.bot.known() == {s: second.card(s) for s in range(12)}


# ---------------------------------------------------------------- hidden information
class Peeker(Bot):
    """A would-be cheat: activates the first inert card whose element its view shows."""

    name = "peeker"

    def choose(self, observation: dict[str, Any], legal: list[Action]) -> Action:
        for a in legal:
            if isinstance(a, Activate) and observation["grid"][a.slot]["element"] == "fire":
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
    """GreedyBot asked afresh before every move (fed every event before it)."""

    def queued(self, legal: list[Action]) -> Action | None:
        return None

    def planned(self, legal: list[Action]) -> Action | None:
        return None


@pytest.mark.parametrize("rules", VARIANTS, ids=["default", "small", "wide", "powers"])
def test_planning_ahead_changes_no_move(rules: Rules) -> None:
    # GreedyBot decides a turn's activations at once (sparing observations); the moves must
    # be exactly those it would choose one at a time.
    for seed in range(6):
        players = 1 + seed % 4
        runs = []
        for cls in (GreedyBot, Unplanned):
            game = Game.new(players=players, seed=seed, rules=rules)
            runs.append(play(game, [BotSeat(cls(seed=seed + p), p) for p in range(players)]))
        assert runs[0] == runs[1]


def test_a_subclass_overriding_see_top_is_told_through_it_at_every_decision() -> None:
    # BotSeat asks a GreedyBot for a decision's observe, see_top and planned in one call; a
    # subclass overriding one of them is asked through each, as before, and plays the same.
    told: list[int] = []
    game = Game.new(players=2, seed=0)

    class Told(GreedyBot):
        def see_top(self, top: str | None) -> None:
            assert top == game.deck_top
            told.append(game.step)
            super().see_top(top)

    for seed in range(4):
        runs = []
        for cls in (GreedyBot, Told):
            told.clear()
            game = Game.new(players=2, seed=seed)
            seats = [BotSeat(cls(seed=seed + p), p) for p in range(2)]
            decisions, moves = [], []
            while not game.is_over:
                seat = seats[game.active_player]
                action = seat.act(game)
                if seat._fed == game.step + 1:  # fed up to now: a decision
                    decisions.append(game.step)
                moves.append(action)
                game.apply(action)
            runs.append(moves)
        assert runs[0] == runs[1]
        assert decisions and set(decisions) <= set(told)


def test_the_events_after_one_the_state_cannot_follow_still_reach_the_memory() -> None:
    game = Game.new(players=2, seed=1)
    bot = GreedyBot(seed=1)
    seats = [BotSeat(bot, 0), BotSeat(GreedyBot(seed=2), 1)]
    while not bot._live:
        game.apply(seats[game.active_player].act(game))
    element = next(el for el in game.rules.elements if bot.known().get(0) != el)
    bot.observe([{"type": "mystery"}, {"type": "reveal", "slot": 0, "element": element,
                                        "cause": "whisper", "visible_to": [0]}])
    assert not bot._live  # asked afresh next time
    assert bot.known()[0] == element


def test_a_refill_after_its_own_is_chosen_from_the_queue() -> None:
    # A refill right after the bot's own refill is chosen in queued(), told the new deck top
    # and not yet fed the reveal of the card it placed: the moves are those of a bot fed and
    # asked afresh before every move, and the events still reach it once each, in order.
    queued_refills = 0

    class Counted(GreedyBot):
        def queued(self, legal: list[Action]) -> Action | None:
            nonlocal queued_refills
            action = super().queued(legal)
            queued_refills += isinstance(action, Refill)
            return action

    for seed in range(6):
        runs = []
        for cls in (Counted, Unplanned):
            game = Game.new(players=2, seed=seed)
            runs.append(play(game, [BotSeat(cls(seed=seed + p), p) for p in range(2)]))
        assert runs[0] == runs[1]
    assert queued_refills > 20


NO_REFUND = Rules.default().replace(deactivate_refund=False)


@pytest.mark.parametrize("rules", [*VARIANTS, NO_REFUND],
                         ids=["default", "small", "wide", "powers", "no-refund"])
def test_the_state_followed_from_events_is_the_observations(rules: Rules) -> None:
    # GreedyBot keeps a compact state of the position up to date from events (and the deck
    # top it is told) instead of asking for a new observation: at every decision it must be
    # exactly the state a new observation gives. Random and scouting seats make every event
    # kind; a scout's deactivation without the refund leaves its activation spent.
    followed: set[str] = set()

    def state(bot: GreedyBot) -> dict[str, Any]:
        return {name: getattr(bot, name) for name in (*_STATE, "_top")}

    class Watched(BotSeat):
        def act(self, game: Game) -> Action:
            bot = self.bot
            assert isinstance(bot, GreedyBot)
            before = bot._live and game is self._game
            pending = game.events_since(self._fed)
            action = super().act(game)
            # Checked where the bot decided (it was fed up to now; the events of forced and
            # queued moves wait for its next decision).
            if bot._live and bot._top_known and self._fed == game.step + 1:
                fresh = GreedyBot()
                fresh.start(game.rules, self.seat)
                fresh._load(game.observation(self.seat))
                assert state(bot) == state(fresh)
                if before:  # followed through these events
                    followed.update(ev["type"] for ev in pending)
            return action

    kinds = [("greedy", {}), ("memory", {"capacity": 3, "decay": 0.2, "scout": True}),
             ("greedy", {"scout": True})]
    for seed in range(12):
        players = 2 + seed % 3
        game = Game.new(players=players, seed=seed, rules=rules)
        seats: list[BotSeat] = []
        for p in range(players):
            kind, params = ("random", {}) if p == 1 else kinds[(p + seed) % len(kinds)]
            bot = make_bot(kind, seed=seed * 10 + p, **params)
            seats.append(Watched(bot, p) if isinstance(bot, GreedyBot) else BotSeat(bot, p))
        play(game, seats)
    assert {"activate", "reveal", "collect", "turn", "phase"} <= followed
    if rules is VARIANTS[0]:
        assert {"flip_back", "deactivate", "power", "pass"} <= followed
    if rules is VARIANTS[3]:
        assert {"place_token", "token_return", "swap", "tide"} <= followed


def test_a_bot_is_fed_each_event_once_in_order_up_to_its_last_move() -> None:
    # Forced moves and the rest of a plan do not feed the bot (their events wait for its next
    # decision), and a bot seated at a new game is first fed what it was owed at the old one:
    # in all, every event up to its last move, once, in order, as before.
    seen: list[dict[str, Any]] = []

    class Recorder(GreedyBot):
        def observe(self, events: list[dict[str, Any]]) -> None:
            seen.extend(events)
            super().observe(events)

    owing = 0
    for seed in range(6):
        seen.clear()
        players = 1 + seed % 2  # alone, it makes the game's last move: often a planned one
        game = Game.new(players=players, seed=seed)
        seat = BotSeat(Recorder(seed=1), 0)
        other = BotSeat(GreedyBot(seed=2), 1)
        last = 0
        while not game.is_over:
            if game.active_player == 0:
                last = game.step
            game.apply((seat if game.active_player == 0 else other).act(game))
        owed = [ev for step in game.event_log[:last + 1] for ev in step]
        owing += len(seen) < len(owed)  # its last moves' events still owed
        seat.act(Game.new(players=2, seed=seed + 10))
        assert seen[:len(owed)] == visible_events(owed, 0)
        fresh = Game.new(players=2, seed=seed + 10).events_since(0)
        assert seen[len(owed):] == visible_events(fresh, 0)
    assert owing


# ---------------------------------------------------------------- going live at a deal
#: House rules beside VARIANTS: a capped major power, no refund, more activations, a fifth
#: element, scarce tokens with early majors.
HOUSE = [
    Rules.default().replace(major_uses_per_game=1),
    NO_REFUND,
    Rules.default().replace(collect_threshold=3, activations_per_turn=4),
    Rules.default().replace(elements=("fire", "water", "earth", "wind", "light")),
    Rules.default().replace(tokens_per_element=1, major_threshold=3),
]


class Observing(GreedyBot):
    """GreedyBot as it was before :meth:`Bot.dealt`: it loads its state from the first
    observation it is given (BotSeat calls dealt only where a class overrides it)."""

    dealt = Bot.dealt


@pytest.mark.parametrize("rules", [*VARIANTS, *HOUSE],
                         ids=["default", "small", "wide", "powers", "major1", "no-refund",
                              "thr3", "five", "tokens"])
def test_a_bot_dealt_in_follows_the_observations_state_from_the_first_event(
        rules: Rules) -> None:
    # Seated at a game dealt afresh, GreedyBot (and MemoryBot) take their compact state from
    # the blank position before the set-up reveals: at every decision, the first included,
    # it is the state an observation there gives, no observation is ever built for them, and
    # every move is the one of a bot that loaded its first observation.
    decisions = firsts = 0
    chosen: list[int] = []

    class Watched(BotSeat):
        def act(self, game: Game) -> Action:
            bot = self.bot
            assert isinstance(bot, GreedyBot)
            first = game is not self._game
            action = super().act(game)
            if self._fed == game.step + 1:  # it decided here, fed up to now
                nonlocal decisions, firsts
                assert bot._live and bot._top_known
                fresh = GreedyBot()
                fresh.start(game.rules, self.seat)
                fresh._load(game.observation(self.seat))
                assert {name: getattr(bot, name) for name in (*_STATE, "_top")} == {
                    name: getattr(fresh, name) for name in (*_STATE, "_top")}
                decisions += 1
                firsts += first
            return action

    class Counted(GreedyBot):
        def choose(self, observation: dict[str, Any], legal: list[Action]) -> Action:
            chosen.append(1)
            return super().choose(observation, legal)

    class CountedMemory(MemoryBot):
        def choose(self, observation: dict[str, Any], legal: list[Action]) -> Action:
            chosen.append(1)
            return super().choose(observation, legal)

    kinds: list[tuple[type[GreedyBot], type[GreedyBot], dict[str, Any]]] = [
        (Counted, Observing, {}), (Counted, Observing, {"scout": True}),
        (CountedMemory, MemoryBot, {"capacity": 3, "decay": 0.2})]
    for seed in range(9):
        players = 2 + seed % 3
        runs = []
        for watched in (True, False):
            game = Game.new(players=players, seed=seed, rules=rules)
            seats: list[BotSeat] = []
            for p in range(players):
                if p == 1 and seed % 2:
                    seats.append(BotSeat(make_bot("random", seed=seed), p))
                    continue
                dealt_in, observing, params = kinds[(p + seed) % len(kinds)]
                if not watched and observing is MemoryBot:
                    observing = type("ObservingMemory", (MemoryBot,), {"dealt": Bot.dealt})
                cls = dealt_in if watched else observing
                bot = cls(seed=seed * 10 + p, **params)
                seats.append(Watched(bot, p) if watched else BotSeat(bot, p))
            runs.append(play(game, seats))
        assert runs[0] == runs[1]
    assert not chosen
    assert decisions > 100 and firsts > 15, (decisions, firsts)


def test_a_bot_deciding_from_observations_is_still_given_them() -> None:
    # A subclass whose _choose reads the observation (as the expert's does) is asked with a
    # new one at every decision outside the refills, at a dealt game too; and a game begun
    # from a position is no deal: a GreedyBot takes its state from a first observation there.
    turns: list[int] = []

    class FromView(GreedyBot):
        def _choose(self, observation: dict[str, Any], legal: list[Action]) -> Action:
            turns.append(observation["turn"])
            return legal[-1]  # (no plan: each of its decisions is a choice of its own)

    class Asked(GreedyBot):
        def choose(self, observation: dict[str, Any], legal: list[Action]) -> Action:
            turns.append(observation["turn"])
            return super().choose(observation, legal)

    decisions = 0
    for seed in range(4):
        game = Game.new(players=2, seed=seed)
        seats = [BotSeat(FromView(seed=1), 0), BotSeat(GreedyBot(seed=2), 1)]
        while not game.is_over:
            if game.active_player == 0 and game.phase is not Phase.REFILL:
                decisions += len(game.legal_actions()) > 1
            game.apply(seats[game.active_player].act(game))
    assert len(turns) == decisions > 20
    turns.clear()
    BotSeat(Asked(seed=1), 0).act(Game.new(players=2, seed=5))
    assert turns == []  # dealt in: no observation
    BotSeat(Asked(seed=1), 0).act(Game.from_position(Game.new(players=2, seed=5).position()))
    assert turns == [1]


def test_the_generator_is_made_at_its_first_use_with_the_same_draws() -> None:
    # Bot.rng is random.Random(seed), to read or assign; GreedyBot and its subclasses make it
    # when it is first read (a RandomBot draws at every move: it makes it at once).
    for kind in ("greedy", "memory", "expert"):
        expected = random.Random(5)
        bot = make_bot(kind, seed=5)
        assert "rng" not in vars(bot)  # not made yet: a game may never draw from it
        bot.seed = 6  # (the seed it was made with is the one that counts, as ever)
        assert [bot.rng.random() for _ in range(5)] == [expected.random() for _ in range(5)]
        assert bot.rng is bot.rng
        other = random.Random(9)
        bot.rng = other
        assert bot.rng is other
    assert "rng" in vars(make_bot("random", seed=5))
    legal: list[Action] = [Activate(s) for s in range(10)]
    bot, expected = make_bot("random", seed=5), random.Random(5)
    assert [bot.choose({}, legal) for _ in range(20)] == [legal[expected.randrange(10)]
                                                         for _ in range(20)]
    bot.rng, again = random.Random(9), random.Random(9)
    assert [bot.choose({}, legal) for _ in range(20)] == [legal[again.randrange(10)]
                                                         for _ in range(20)]
    unseeded = [make_bot("greedy").rng.random() for _ in range(2)]
    assert unseeded[0] != unseeded[1]
