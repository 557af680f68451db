"""ExpertBot: the determinized search, its knowledge, and hand-built positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from leyline_widget import Activate, EndPhase, Game, PlaceToken, Refill, Rules, UsePower
from leyline_widget.agents.bots import BOT_KINDS, BotSeat, GreedyBot, make_bot
from leyline_widget.agents.expert import (
    DEFAULT_HORIZON,
    QUICK_BUDGET,
    QUICK_HORIZON,
    ExpertBot,
    _played,
    activation_plans,
    determinize,
    evaluate,
    rollout,
    search,
)
from leyline_widget.agents.simulate import parse_seat, simulate
from leyline_widget.core.actions import Action
from leyline_widget.teach.scenario import Scenario


def grid_of(game: Game) -> dict[int, str]:
    """Every card on the grid (what a seat that saw them all knows)."""
    return {s: el for s in range(game.rules.grid_size) if (el := game.card(s)) is not None}


def reveals(seen: dict[int, str]) -> list[dict[str, Any]]:
    """What a seat that has seen ``seen`` was shown, as reveal events."""
    return [{"type": "reveal", "slot": s, "element": el, "cause": "setup", "visible_to": "all"}
            for s, el in sorted(seen.items())]


def expert_choice(game: Game, seen: dict[int, str], seed: int = 1,
                  budget: int = 48) -> tuple[Action, ExpertBot]:
    """The expert's move at a hand-built position, knowing only ``seen``."""
    bot = ExpertBot(seed=seed, budget=budget)
    bot.start(game.rules, game.active_player)
    return bot.search_move(game.observation(game.active_player), seen,
                           game.legal_actions()), bot


def play_plan(bot: ExpertBot, game: Game, first: Action) -> list[Action]:
    """Apply ``first`` and the moves the bot queued after it; return them all."""
    done = [first]
    game.apply(first)
    while True:
        nxt = bot.queued(game.seat_view(bot.seat), game.legal_actions())
        if nxt is None or game.active_player != bot.seat:
            return done
        game.apply(nxt)
        done.append(nxt)
        if isinstance(nxt, EndPhase):
            return done


# ---------------------------------------------------------------- registration
def test_expert_is_a_bot_kind_with_parameters() -> None:
    assert BOT_KINDS["expert"] is ExpertBot
    bot = make_bot("expert", seed=2, budget=50)
    assert isinstance(bot, ExpertBot) and bot.budget == 50 and bot.name == "expert"
    assert make_bot("expert", budget="quick").budget == QUICK_BUDGET  # type: ignore[attr-defined]
    assert parse_seat(("expert", {"budget": 50})) == ("expert", {"budget": 50})
    for bad in ({"budget": 0}, {"budget": True}, {"budget": "lots"}, {"time_ms": -1},
                {"horizon": 0}, {"wisdom": 1}, {"reply": "yes"}):
        with pytest.raises(ValueError):
            make_bot("expert", seed=1, **bad)


def test_cli_seat_parses_expert_params() -> None:
    from leyline_widget.cli import _seat

    assert _seat("expert:budget=50") == ("expert", {"budget": 50})


def test_widget_knows_the_expert_seat() -> None:
    pytest.importorskip("anywidget")
    from leyline_widget.widgets.presenters import parse_seats

    names, bots = parse_seats(["You", "expert"])
    assert bots == {1: "expert"} and isinstance(names, list) and len(names) == 2
    from leyline_widget import EndPhase as End
    from leyline_widget import LeylineWidget

    w = LeylineWidget(players=["You", "expert"], seed=5)
    assert w.info["players"][1] == {"name": "Expert bot", "bot": "expert"}
    w.play(End())
    w.play(End())  # pass and end the turn: the expert moves
    assert w.step_bots() > 0 and w.game.active_player == 0 and w.game.turn == 3


def test_expert_plays_whole_games_in_simulate() -> None:
    rows = simulate(Rules.default(), [("expert", {"budget": 8}), "greedy"], games=2, seed=1,
                    jobs=1)
    assert len(rows) == 2
    assert all(r["end_reason"] in ("deck", "stalemate") for r in rows)
    again = simulate(Rules.default(), [("expert", {"budget": 8}), "greedy"], games=2, seed=1,
                     jobs=1)
    assert rows == again  # a simulation budget is reproducible


def test_expert_seat_is_fed_like_every_bot_and_knows_the_whole_grid() -> None:
    game = Game.new(players=2, seed=9)
    seats = [BotSeat(ExpertBot(seed=1, budget=6), 0), BotSeat(GreedyBot(seed=2), 1)]
    for _ in range(30):
        game.apply(seats[game.active_player].act(game))
    while game.active_player != 0 or len(game.legal_actions()) == 1 \
            or game.phase.value != "activation":  # a searched decision
        game.apply(seats[game.active_player].act(game))
    known: list[dict[int, str]] = []
    bot = seats[0].bot
    assert isinstance(bot, ExpertBot)
    search_move = bot.search_move

    def spy(observation: Any, seen: Any, legal: Any, no_pass: bool = False) -> Action:
        known.append(dict(seen))
        return search_move(observation, seen, legal, no_pass)

    bot.search_move = spy  # type: ignore[method-assign]
    seats[0].act(game)
    assert known == [grid_of(game)]


# ---------------------------------------------------------------- determinization
def test_determinizations_keep_public_facts_and_vary_the_hidden_deck() -> None:
    game = Game.new(players=2, seed=4)
    for a in (Activate(0), Activate(1), EndPhase()):
        game.apply(a)
    obs = game.observation(0)
    known = grid_of(game)
    decks = set()
    for k in range(6):
        det = determinize(game.rules, obs, known, random.Random(k))
        assert det.observation(0) == obs
        assert det.deck[0] == game.deck[0]
        assert sorted(det.deck) == sorted(game.deck)
        decks.add(det.deck)
    assert len(decks) > 1


def test_unknown_grid_cards_are_dealt_from_the_cards_left() -> None:
    game = Scenario(players=2).grid("wa ? ? ? / ? ? ? wa / ? ? ? ?").build()
    det = determinize(game.rules, game.observation(0), {0: "water", 7: "water"},
                      random.Random(3))
    assert det.card(0) == det.card(7) == "water"
    assert det.observation(0) == game.observation(0)


# ---------------------------------------------------------------- hidden information
def redeal_below_top(game: Game, seed: int) -> Game:
    """A new game with the same past but the never-seen deck below the top shuffled again,
    replayed through the same actions."""
    m = len(game.initial_deck) - len(game.deck) + 1
    rest = list(game.initial_deck[m:])
    random.Random(seed).shuffle(rest)
    other = Game.new(players=len(game.players), rules=game.rules,
                     deck=[*game.initial_deck[:m], *rest])
    for a in game.actions:
        other.apply(a)
    return other


def greedy_game_until(step: int, seed: int) -> Game:
    game = Game.new(players=2, seed=seed)
    seats = [BotSeat(GreedyBot(seed=1), 0), BotSeat(GreedyBot(seed=2), 1)]
    while game.step < step or game.active_player != 0 or len(game.legal_actions()) == 1 \
            or game.phase.value == "refill":
        game.apply(seats[game.active_player].act(game))
    return game


@pytest.mark.parametrize("seed", [3, 8])
def test_choice_is_unchanged_by_a_redeal_of_unseen_cards(seed: int) -> None:
    game = greedy_game_until(20, seed)
    other = redeal_below_top(game, 99)
    assert other.deck[0] == game.deck[0] and other.deck != game.deck  # a real re-deal
    assert [other.card(s) for s in range(12)] == [game.card(s) for s in range(12)]
    picks = []
    for g in (game, other):
        bot = ExpertBot(seed=5, budget=24)
        picks.append((BotSeat(bot, 0).act(g), bot.last and bot.last.values))
    assert picks[0] == picks[1]


# ---------------------------------------------------------------- hand-built positions
def test_collects_a_pair_it_has_seen() -> None:
    # Water at 3 and 8 (seen); everything else unknown to the expert.
    game = Scenario(players=2).grid("? ? ? wa / ? ? ? ? / wa ? ? ?").build()
    seen = {3: "water", 8: "water"}
    first, bot = expert_choice(game, seen)
    moves = play_plan(bot, game, first)
    assert isinstance(moves[-1], EndPhase)
    assert {a.slot for a in moves if isinstance(a, Activate)} >= {3, 8}
    assert game.study(0)["water"] >= 2


def test_prefers_the_larger_collection() -> None:
    # Three Wind beat two Earth. (With no Study, two Fire would be right: they unlock Spark,
    # an extra activation every turn; the search sees that, so the Studies here are such
    # that neither collection unlocks a power that matters.)
    game = (Scenario(players=2).grid("e wi ? wi / ? e ? ? / wi ? ? ?")
            .study(0, earth=2, wind=2).study(1, earth=2, wind=2).build())
    seen = {0: "earth", 1: "wind", 3: "wind", 5: "earth", 8: "wind"}
    first, bot = expert_choice(game, seen)
    moves = play_plan(bot, game, first)
    assert {a.slot for a in moves if isinstance(a, Activate)} == {1, 3, 8}


def test_plans_merge_interchangeable_cards() -> None:
    game = Scenario(players=2).grid("wa wa wa f / f e e wi / wi ? ? ?").build()
    obs = game.observation(0)
    known = grid_of(game)
    plans, groups = activation_plans(obs, known, game.legal_actions(), game.rules)
    keys = {p.key for p in plans}
    assert "3xwater" in keys and "2xwater" in keys and "pass" in keys
    assert groups[("water", ())][:3] == [0, 1, 2]
    assert all(game.card(s) == "water" for s in groups[("water", ())])
    # one plan per count of each group, never one per choice of slots
    assert len(keys) == len(plans)
    assert sum(p.key.startswith("2xwater") and "," not in p.key for p in plans) == 1


def test_binds_the_opponent_out_without_binding_its_own_next_collection() -> None:
    # Only the three Water cards can be collected (the rest carry Fire and Wind tokens that
    # nobody's Study satisfies). The opponent moves next and would take all three. A Water
    # token locks them out and, paid or free, leaves the expert its own access (Water in its
    # Study); an Earth token on a Water card would lock the expert out of it too.
    s = (Scenario(players=2).grid("wa f f wa / f f f wi / wi wa wi wi")
         .study(0, water=2).markers(0, stacked={"water": 1, "earth": 1}, water=1, earth=1)
         .phase("binding"))
    for slot in (1, 2, 4, 5, 6):
        s = s.tokens(slot, fire=1)
    for slot in (7, 8, 10, 11):
        s = s.tokens(slot, wind=1)
    game = s.build()
    seen = grid_of(game)
    first, bot = expert_choice(game, seen, budget=80)
    assert isinstance(first, PlaceToken)
    assert bot.last is not None
    ends = [k for k in bot.last.values if k == "end phase"]
    assert ends and bot.last.values[ends[0]] < max(bot.last.values.values()) - 1
    if seen[first.slot] == "water":
        own = game.study(0)[first.element] - (first.source == "supply")
        assert own >= 1  # the expert keeps its access to its own next collection


def test_refill_slot_changes_nothing_for_a_perfect_memory() -> None:
    # Why refills are not searched: every empty slot gives the same position up to
    # relabelling the slots (empty slots carry no tokens, no rule names a slot's place).
    game = (Scenario(players=2).grid("wa . . f / ? ? ? ? / ? ? ? ?").phase("refill")
            .tokens(3, wind=1).build())
    shapes = []
    for a in game.legal_actions():
        g = game.clone()
        g.apply(a)
        g.apply(g.legal_actions()[0])
        grid = g.observation(None)["grid"]
        shapes.append(sorted((c["element"], tuple(sorted(c["tokens"].items()))) for c in grid))
    assert len(game.legal_actions()) == 2 and shapes[0] == shapes[1]
    ev = search(game.observation(0), grid_of(game),
                game.legal_actions(), game.rules, 0, random.Random(1), 16, all_options=True)
    assert len(ev.options) == 1  # one option stands for both slots
    first, _ = expert_choice(game, {0: "water", 3: "fire"})
    assert isinstance(first, Refill)


def test_uses_tide_to_join_a_collection() -> None:
    # Ripple only relabels slots, which cannot help a perfect memory (see the report in
    # expert.py); Tide is the swap that matters: the face-up Water on the deck top joins the
    # two Water on the grid for a collection of three.
    game = (Scenario(players=2).grid("wa f e wi / wa f e wi / f e wi ?")
            .deck_top("water").study(0, water=5).study(1, wind=1)
            .phase("abilities").build())
    seen = grid_of(game)
    ev = search(game.observation(0), seen, game.legal_actions(), game.rules, 0,
                random.Random(2), 60, all_options=True)
    tide = [o for o in ev.options if isinstance(o.actions[0], UsePower)
            and o.actions[0].tier == "major"]
    end = [o for o in ev.options if isinstance(o.actions[0], EndPhase)]
    assert tide and end
    best_tide = max(ev.values[o.key] for o in tide)
    assert best_tide > ev.values[end[0].key]
    first, _ = expert_choice(game, seen, budget=60)
    assert isinstance(first, UsePower) and first.element == "water" and first.tier == "major"
    assert seen[first.targets[0]] != "water"


def reply_position() -> Game:
    """Seat 0 ends its Binding; seat 1 then holds three Water, bound by one Earth token each
    (their Study has the Earth, seat 0's has none), and three Fire. GreedyBot would take the
    Water (a tie broken by the element's name), leaving the Fire to seat 0; the best reply is
    the Fire, which leaves seat 0 nothing (the refills Earth, Wind, Fire pair with nothing)."""
    s = (Scenario(players=2).grid("wa wa wa f / f f e wi / e wi e wi").study(1, earth=1)
         .deck_top("earth", "wind", "fire").phase("binding"))
    for slot in (0, 1, 2):
        s = s.tokens(slot, earth=1)
    for slot in (6, 8, 10):
        s = s.tokens(slot, wind=1)
    for slot in (7, 9, 11):
        s = s.tokens(slot, water=1)
    # as in the expert's determinized positions, every seat was shown every grid card
    return Game.from_position({**s.position(), "grid_shown": True})


def test_the_next_players_best_reply_is_searched_not_greedys_pick() -> None:
    game = reply_position()
    plain: list[Action] = []
    g, key = _played(game.clone(), [1, 2], 0, 4, plain)
    assert key == "" and [a.slot for a in plain[1:4] if isinstance(a, Activate)] == [0, 1, 2]
    greedy_reply = evaluate(g, 0)
    searched: list[Action] = []
    g, key = _played(game.clone(), [1, 2], 0, 4, searched, reply=True)
    assert key == "3xfire"
    assert [a.slot for a in searched[1:4] if isinstance(a, Activate)] == [3, 4, 5]
    assert evaluate(g, 0) < greedy_reply - 2  # seat 0's value is the value after the best reply
    # A reply searched on one deck is played by name on another
    again: list[Action] = []
    _played(game.clone(), [1, 2], 0, 4, again, reply="3xfire")
    assert again == searched


def test_the_search_plays_its_best_option_against_the_best_reply() -> None:
    game = greedy_game_until(20, 3)
    obs, known, legal = game.observation(0), grid_of(game), game.legal_actions()
    ev = search(obs, known, legal, game.rules, 0, random.Random(4), 24, 6, reply=True)
    assert ev.table is not None and ev.best_option().key in ev.table.replies
    plain = search(obs, known, legal, game.rules, 0, random.Random(4), 24, 6)
    assert plain.table is not None and not plain.table.replies
    assert ExpertBot().reply and not ExpertBot(reply=False).reply


def test_the_quick_budget_is_a_cheaper_preset_that_parameters_override() -> None:
    quick = make_bot("expert", budget="quick")
    assert isinstance(quick, ExpertBot)
    assert (quick.budget, quick.horizon, quick.reply) == (QUICK_BUDGET, QUICK_HORIZON, False)
    full = ExpertBot(budget="quick", horizon=None, reply=True)
    assert (full.budget, full.horizon, full.reply) == (QUICK_BUDGET, None, True)
    assert (ExpertBot().horizon, ExpertBot(budget=8).horizon) == (DEFAULT_HORIZON,) * 2


def test_same_seed_same_choice_and_quick_budget_is_bounded() -> None:
    game = Game.new(players=2, seed=21)
    known = grid_of(game)
    picks = [expert_choice(game, known, seed=3, budget=QUICK_BUDGET)[0] for _ in range(2)]
    assert picks[0] == picks[1]


def test_a_time_budget_searches_for_about_that_long() -> None:
    import time

    game = Game.new(players=2, seed=22)
    bot = ExpertBot(seed=1, time_ms=60)
    start = time.perf_counter()
    action = BotSeat(bot, 0).act(game)
    spent = time.perf_counter() - start
    assert action in game.legal_actions()
    assert bot.last is not None and min(bot.last.counts.values()) >= 1
    assert spent >= 0.06


def test_two_experts_finish_a_game() -> None:
    # Passing can look best to both seats (it shifts who draws the last card); the
    # anti-stall rule keeps the game moving.
    game = Game.new(players=2, seed=11)
    seats = [BotSeat(ExpertBot(seed=5 + p, budget=8), p) for p in range(2)]
    while not game.is_over and game.step < 1000:
        game.apply(seats[game.active_player].act(game))
    assert game.is_over and game.end_reason in ("deck", "stalemate")


@pytest.mark.parametrize(("players", "horizon", "turns"), [(2, 1, 2), (2, 5, 6), (2, 6, 6),
                                                           (3, 4, 6)])
def test_a_rollout_stops_after_whole_rounds(players: int, horizon: int, turns: int) -> None:
    # A rollout that gave one seat a turn more valued its last collection with no reply, and
    # an expert with an odd horizon (stopping after its own turn) learned to leave its
    # collections for that turn: it lost nearly every game to GreedyBot.
    game = Game.new(players=players, seed=11)
    start = game.turn
    played = game.clone()
    rollout(played, list(range(players)), 0, horizon=horizon)
    assert played.is_over or played.turn == start + turns
