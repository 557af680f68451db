"""ExpertBot: a determinized Monte Carlo search over what its seat knows.

What a seat can know
--------------------
Every grid card is shown to everyone when it is placed (set-up, refill, Tide), so a seat with
perfect memory knows the whole grid, and its seat view
(:class:`~leyline_widget.core.view.SeatView`) shows it. What nobody knows is the order of
the deck below its face-up top, and what the others will play. The counts of that hidden
deck are public: the rules' cards minus the Studies, Spent markers, the grid and the top.

The search (information-set Monte Carlo, after OpenSpiel's ``ismcts.py`` determinization)
-----------------------------------------------------------------------------------------
1. Determinize: build ``k`` full :class:`Game` positions consistent with the seat's
   information (known grid, public counts and tokens, face-up top) with the unseen deck
   dealt in an order drawn from a seeded generator (:func:`determinize`).
2. Options: the legal actions of the decision, with exact symmetries merged (two cards of the
   same element carrying the same tokens are interchangeable; where a refilled card goes, and
   a Ripple swap, change nothing for players who remember every public reveal; peeks teach a
   perfect-memory seat nothing). In Phase 2 an option is a whole *collection plan* (how many
   cards of which element/tokens group to activate, then end the phase), so the three
   activations of a turn are one decision.
3. Evaluate each option on every determinization with common random numbers: apply it, then
   play the rest of the game with GreedyBot policies for every seat (to the end, or for
   ``horizon`` more turns). The value is the final score margin (own score minus the best
   opponent's), plus, at a horizon, 0.25 per unlocked power more than that opponent.
   The next player's reply (a shallow tree over whole-phase options): the best option is
   played again against the next player's *best* reply, not GreedyBot's pick. At their Phase
   2 decision each of their whole-phase collection plans is played, then the policy to the
   end of the searching seat's next turn; the plan best for them there is their reply (kept
   on every deck, so it cannot know a deck's hidden order). While the option so searched
   loses first place, the next best is searched too. Token placements are valued the same
   way: a token's point is to cut the next player's best reply. (GreedyBot's own pick is
   their best reply in most positions, so the tree costs little and changes few moves.)
4. Budget: about ``budget`` rollouts per decision, spent by successive halving on the common
   decks: every option is rolled out on the first decks, the better half on more, and so on.
   An option's value is corrected by the most-played option on the same decks, so an option
   dropped early is still compared deck for deck. The generator is seeded by the bot's seed
   and the decision (the analysis: by its seed and the step), so games are reproducible.
5. Anti-stall: passing can be worth more than collecting (it shifts who draws the last
   card), and the seed's rules let everyone pass for ever; after a full round without a
   collection the expert does not pass while it can collect, so expert games end.

>>> from leyline_widget import Game
>>> from leyline_widget.agents.bots import BotSeat, make_bot
>>> game = Game.new(players=2, seed=3)
>>> seats = [BotSeat(ExpertBot(seed=1, budget=8), 0), BotSeat(make_bot("greedy", seed=2), 1)]
>>> for _ in range(12):
...     _ = game.apply(seats[game.active_player].act(game))
>>> game.step
12
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, IllegalActionError, Phase
from ..core.rules import Rules
from ..core.types import Observation
from ..core.view import LegalActions, SeatView
from ..core.wording import element_name, slot_list
from .bots import BOT_KINDS, GreedyBot
from .cardnames import CardNames

#: Rollouts per decision by default (successive halving spends at least one per option).
DEFAULT_BUDGET = 24
#: The quick expert's rollouts per decision.
QUICK_BUDGET = 8
#: Turns the quick expert's rollouts look ahead (it searches no reply either): a cheaper,
#: weaker search than the default (see benchmarks/bench_expert.py).
QUICK_HORIZON = 4
#: Turns the bot's rollouts look ahead by default (then the margin and the powers count):
#: as strong as whole games against GreedyBot, at a fraction of the cost.
DEFAULT_HORIZON = 6
#: When the budget is less than two rollouts an option, this many survive the screening on
#: the first deck.
FINALISTS = 4
#: Turns a reply of the next player is played on before it is judged (their turn, then the
#: searching seat's next): long enough to see what a reply leaves the seat after it.
REPLY_TURNS = 2
#: Cards a searched reply must gain the next player over their policy's own reply.
REPLY_MARGIN = 0.5
#: Value of one unlocked power, in cards, when a rollout stops at a horizon.
POWER_VALUE = 0.25

_END = EndPhase()


@dataclass(frozen=True)
class Option:
    """One choice at a decision: ``actions`` are applied in order from the position.

    ``first`` is the legal action it starts with; ``covers`` are the legal actions it stands
    for (exactly equivalent choices, or in Phase 2 the plans an action leads into).
    """

    key: str
    actions: tuple[Action, ...]
    label: str


def _counts_left(rules: Rules, obs: Observation, grid: Sequence[str | None]) -> dict[str, int]:
    """Cards of each element nobody can place: not in a Study, a Spent marker, on ``grid``
    or the face-up top. These are the cards below the top (and unknown grid cards)."""
    left = {el: rules.cards_per_element for el in rules.elements}
    for p in obs["players"]:
        for el in rules.elements:
            left[el] -= p["study"].get(el, 0) + p["markers"].get(el, 0)
    for cell in grid:
        if cell is not None:
            left[cell] -= 1
    top = obs["deck"]["top"]
    if top is not None:
        left[top] -= 1
    return left


def seat_element(obs: Observation | Mapping[str, Any], known: Mapping[int, str], s: int
                 ) -> str | None:
    """The element of the card at slot ``s`` as the seat knows it: face-up (active, or shown
    to everyone), else what the seat remembers (``known``), else None (not seen)."""
    el: str | None = obs["grid"][s]["element"]
    return el if el is not None else known.get(s)


def known_grid(obs: Observation | Mapping[str, Any], known: Mapping[int, str]
               ) -> dict[int, str]:
    """Slot -> element of every card the seat knows (:func:`seat_element`)."""
    return {s: el for s in range(len(obs["grid"]))
            if (el := seat_element(obs, known, s)) is not None}


def determinize(rules: Rules, obs: Observation, known: Mapping[int, str],
                rng: random.Random) -> Game:
    """A full Game consistent with ``obs`` (a seat's observation) and its ``known`` grid.

    Grid cards the seat does not know (only when its memory has gaps) and the deck below the
    face-up top are dealt from the cards left, in an order drawn from ``rng``.

    >>> game = Game.new(players=2, seed=5)
    >>> known = {s: game.card(s) for s in range(12)}
    >>> det = determinize(game.rules, game.observation(0), known, random.Random(1))
    >>> [det.card(s) for s in range(12)] == [game.card(s) for s in range(12)]
    True
    >>> det.deck[0] == game.deck[0] and sorted(det.deck) == sorted(game.deck)
    True
    """
    els = rules.elements
    grid: list[str | None] = []
    missing: list[int] = []
    active: list[int] = []
    for s, cell in enumerate(obs["grid"]):
        kind = cell["card"]
        if kind == "empty":
            grid.append(None)
        elif kind == "active":
            grid.append(cell["element"])
            active.append(s)
        else:
            el = seat_element(obs, known, s)
            grid.append(el)
            if el is None:
                missing.append(s)
    left = _counts_left(rules, obs, grid)
    pool = [el for el in els for _ in range(max(0, left[el]))]
    rng.shuffle(pool)
    for s in missing:
        grid[s] = pool.pop()
    top = obs["deck"]["top"]
    count = obs["deck"]["count"]
    deck = ([top] if top is not None else []) + pool
    if len(deck) != count:
        raise ValueError(f"the seat's information is inconsistent: {len(deck)} cards left for "
                         f"a deck of {count}")
    base = rules.activations_per_turn
    position = {
        "rules": rules,
        "players": [p["name"] for p in obs["players"]],
        "deck": deck,
        "grid": grid,
        "active": active,
        "tokens": [dict(cell["tokens"]) for cell in obs["grid"]],
        "study": [dict(p["study"]) for p in obs["players"]],
        "markers": [dict(p["markers"]) for p in obs["players"]],
        "marker_tokens": [dict(p["marker_tokens"]) for p in obs["players"]],
        "pool": dict(obs["pool"]),
        "phase": obs["phase"],
        "turn": obs["turn"],
        "active_player": obs["active_player"],
        "bonus_activations": obs["activations"]["limit"] - base,
        "effects": list(obs["effects"]),
        "powers_used": list(obs["powers_used"]),
        "end_reason": obs["end_reason"],
        # Every grid card was shown to every seat as it landed: the rollouts' bots know them.
        "grid_shown": True,
    }
    return Game.from_position(position)


def _policies(game: Game, seeds: Sequence[int]) -> list[GreedyBot]:
    """The continuation policy: a GreedyBot per seat, seeded by ``seeds``. In a determinized
    game every seat's view holds the whole grid (every grid card is shown to every seat)."""
    bots = []
    for p, bot_seed in enumerate(seeds[:len(game.players)]):
        bot = GreedyBot(seed=bot_seed)
        bot.start(game.rules, p)
        bots.append(bot)
    return bots


def _play(game: Game, bots: Sequence[GreedyBot], stop: int | None,
          record: list[Action] | None = None, reply_of: int | None = None) -> bool:
    """Play ``game`` on with ``bots`` until it ends or reaches turn ``stop``; with ``reply_of``,
    stop instead at that seat's Phase 2 decision (True when it was reached)."""
    while not game.is_over and (stop is None or game.turn < stop):
        legal = LegalActions(game)
        p = game.active_player
        move = legal.only()
        if move is None:
            if p == reply_of and game.phase is Phase.ACTIVATION:
                return True
            move = bots[p].choose(game.seat_view(p), legal)
        if record is not None:
            record.append(move)
        game.apply(move)
    return False


def rollout(game: Game, seeds: Sequence[int], seat: int, horizon: int | None = None,
            record: list[Action] | None = None) -> float:
    """Play ``game`` on with a GreedyBot per seat (the one continuation policy: each decides
    from its seat view, where it knows the whole determinized grid); return ``seat``'s value.

    The value is the score margin (own score minus the best opponent's) at the end, or after
    ``horizon`` more turns (rounded up to whole rounds, so that every seat plays as many) plus
    :data:`POWER_VALUE` per unlocked power more than that opponent. ``record`` receives the
    moves played. ``game`` is changed (pass a clone).
    """
    return evaluate(_played(game, seeds, seat, horizon, record)[0], seat)


def _played(game: Game, seeds: Sequence[int], seat: int, horizon: int | None,
            record: list[Action] | None = None, reply: bool | str = False
            ) -> tuple[Game, str]:
    """The position a rollout of ``game`` ends in, and the next player's reply in it.

    ``reply`` False (or ""): the continuation policy plays every seat. True: one ply of
    search for the next player: at their Phase 2 decision (reached with the policy) each of
    their whole-phase collection plans is played, then the policy to the end of ``seat``'s
    turn after it (:data:`REPLY_TURNS`); the plan best for *them* there is their reply (the
    policy's own unless another gains them :data:`REPLY_MARGIN`), and the position is that
    reply's branch played on to the horizon. A plan key: the next player plays that plan
    where it is one of theirs (a reply searched on another deck), else the policy's move.
    ``game`` is changed.
    """
    n = len(game.players)
    # Whole rounds: every seat plays as many turns before the rollout stops. With one turn
    # more for one seat, the margin at the stop counts its last collection with no reply from
    # the others, and an expert stopping after its own turn learned to leave cards for it.
    stop = None if horizon is None else game.turn + -(-horizon // n) * n
    nxt = (seat + 1) % n
    bots = _policies(game, seeds)
    if not reply or n == 1:
        _play(game, bots, stop, record)
        return game, ""
    if not _play(game, bots, stop, record, reply_of=nxt):
        return game, ""
    view = game.seat_view(nxt)
    legal = game.legal_actions()
    obs = game.observation(nxt)
    plans, groups = activation_plans(obs, view.known, legal, game.rules)
    if isinstance(reply, str):
        chosen = next((p for p in plans if p.key == reply), None)
        if chosen is not None:
            planned = plan_actions(chosen, obs)
            for a in planned:
                game.apply(a)
            if record is not None:
                record += planned
        _play(game, bots, stop, record)
        return game, reply
    whole = _whole_plans(obs, view.known, legal, game.rules)
    replies = [p for p in plans if p.key in whole]
    if len(replies) < 2:
        _play(game, bots, stop, record)
        return game, ""
    screen = game.turn + REPLY_TURNS
    g, branch, moves, key = _best_reply(game, seeds, bots, replies, groups, obs,
                                        screen if stop is None else min(stop, screen))
    if record is not None:
        record += moves
    _play(g, branch, stop, record)
    return g, key


def _best_reply(game: Game, seeds: Sequence[int], bots: list[GreedyBot], replies: list[Plan],
                groups: Mapping[tuple[str, tuple[Any, ...]], Sequence[int]], obs: Observation,
                screen: int) -> tuple[Game, list[GreedyBot], list[Action], str]:
    """The next player's best reply at their Phase 2 decision in ``game``: each plan of
    ``replies`` played, then the policy to turn ``screen``; the branch best for them, its
    policies, its moves and its plan key ("" for their policy's own reply)."""
    nxt = game.active_player
    # The policy's own reply first: another plan replaces it only when it is better for them
    # by REPLY_MARGIN, so a reply is not picked for the luck of one deck's order.
    g = game.clone()
    moves: list[Action] = []
    _play(g, bots, screen, moves)
    best = (evaluate(g, nxt) + REPLY_MARGIN, g, bots, moves, "")
    own = _collected_counts(moves, groups, obs["collect_threshold"])
    for plan in replies:
        if plan.counts == own:
            continue  # the policy's own reply, played above
        g = game.clone()
        moves = list(plan_actions(plan, obs))
        for a in moves:
            g.apply(a)
        branch = _policies(g, seeds)
        _play(g, branch, screen, moves)
        theirs = evaluate(g, nxt)
        if theirs > best[0]:
            best = (theirs, g, branch, moves, plan.key)
    return best[1:]


def _collected_counts(moves: Sequence[Action], groups: Mapping[tuple[str, tuple[Any, ...]],
                      Sequence[int]], threshold: int) -> dict[tuple[str, tuple[Any, ...]], int]:
    """The cards per group a Phase 2 played as ``moves`` collects (as :class:`Plan` counts):
    the cards still active when it ends, of elements activated ``threshold`` times or more."""
    active: list[int] = []
    for a in moves:
        if isinstance(a, Activate):
            active.append(a.slot)
        elif isinstance(a, Deactivate):
            active.remove(a.slot)
        elif isinstance(a, EndPhase):
            break
    slot_group = {s: g for g, ss in groups.items() for s in ss}
    counts: dict[tuple[str, tuple[Any, ...]], int] = {}
    for s in active:
        counts[slot_group[s]] = counts.get(slot_group[s], 0) + 1
    return _collected(counts, threshold)


def _collected(counts: Mapping[tuple[str, tuple[Any, ...]], int], threshold: int
               ) -> dict[tuple[str, tuple[Any, ...]], int]:
    """Of the active cards per group ``counts``, those collected at the end of Phase 2: the
    groups of elements activated ``threshold`` times or more (the rest flip back)."""
    per_el: dict[str, int] = {}
    for g, k in counts.items():
        per_el[g[0]] = per_el.get(g[0], 0) + k
    return {g: k for g, k in counts.items() if k and per_el[g[0]] >= threshold}


def evaluate(game: Game, seat: int) -> float:
    """Score margin of ``seat`` against the best opponent (+ powers when not over)."""
    scores = game.scores()
    if len(scores) == 1:
        return float(scores[0])
    best = max((s, q) for q, s in enumerate(scores) if q != seat)
    value = float(scores[seat] - best[0])
    if not game.is_over:
        value += POWER_VALUE * (len(game.unlocked(seat)) - len(game.unlocked(best[1])))
    return value


# ---------------------------------------------------------------------- options
#: The group of a card the seat has not seen starts so (then its slot).
_UNSEEN = "unseen card "


def _group(obs: Observation, known: Mapping[int, str], s: int) -> tuple[str, tuple[Any, ...]]:
    cell = obs["grid"][s]
    el = seat_element(obs, known, s)
    if el is None:
        # A card the seat has not seen is its own group: its element is a guess, so a plan
        # never counts it towards a collection (unless Wildfire collects every card).
        el = f"{_UNSEEN}{s}"
    return el, tuple(sorted(cell["tokens"].items()))


def _group_name(group: tuple[str, tuple[Any, ...]]) -> str:
    el, tokens = group
    if not tokens:
        return el
    return f"{el} bound by " + ", ".join(f"{n} {t}" for t, n in tokens)


@dataclass
class Plan:
    """A Phase 2 collection plan: cards per (element, tokens) group, then end the phase.
    ``picked`` holds the slots each group's cards are taken from (``slots`` is their union)."""

    counts: dict[tuple[str, tuple[Any, ...]], int]
    slots: tuple[int, ...]
    key: str
    picked: dict[tuple[str, tuple[Any, ...]], tuple[int, ...]] = field(default_factory=dict)


def activation_plans(obs: Observation, known: Mapping[int, str], legal: Sequence[Action],
                     rules: Rules) -> tuple[list[Plan], dict[tuple[str, tuple[Any, ...]],
                                                            list[int]]]:
    """Every collection plan from the cards the seat may activate or has activated.

    Cards of an element activated fewer times than the threshold flip back and change
    nothing, so plans only name collected cards (the key); the empty plan is a pass.
    """
    active = [s for s, c in enumerate(obs["grid"]) if c["card"] == "active"]
    free = [a.slot for a in legal if isinstance(a, Activate)]
    groups: dict[tuple[str, tuple[Any, ...]], list[int]] = {}
    for s in active + free:  # active cards first: a plan keeps them where it can
        groups.setdefault(_group(obs, known, s), []).append(s)
    limit = obs["activations"]["limit"]
    thr = obs["collect_threshold"]
    names = sorted(groups)
    ranges = [range(0, min(len(groups[g]), limit) + 1) for g in names]
    plans: dict[str, Plan] = {}
    for combo in itertools.product(*ranges):
        if sum(combo) > limit:
            continue
        counts = _collected(dict(zip(names, combo)), thr)
        key = ",".join(f"{k}x{_group_name(g)}" for g, k in sorted(counts.items())) or "pass"
        if key in plans:
            continue
        picked = {g: tuple(sorted(groups[g][:k])) for g, k in counts.items()}
        slots = tuple(sorted(s for ss in picked.values() for s in ss))
        plans[key] = Plan(counts, slots, key, picked)
    return list(plans.values()), groups


def _whole_plans(obs: Observation, known: Mapping[int, str], legal: Sequence[Action],
                 rules: Rules) -> set[str]:
    """The keys of the plans a bot weighs: the pass, and each plan that takes every card it
    can of the elements it collects (one more card of such an element, within the
    activations, only adds to the collection: a plan short of it gives the next player
    that card for nothing)."""
    plans, groups = activation_plans(obs, known, legal, rules)
    limit = obs["activations"]["limit"]
    keep = {"pass"}
    for plan in plans:
        used = sum(plan.counts.values())
        taken = {g[0] for g in plan.counts}
        if used >= limit or not any(g[0] in taken and plan.counts.get(g, 0) < len(ss)
                                    for g, ss in groups.items()):
            keep.add(plan.key)
    return keep


def plan_actions(plan: Plan, obs: Observation) -> tuple[Action, ...]:
    active = [s for s, c in enumerate(obs["grid"]) if c["card"] == "active"]
    out: list[Action] = [Deactivate(s) for s in active if s not in plan.slots]
    out += [Activate(s) for s in plan.slots if s not in active]
    out.append(_END)
    return tuple(out)


def _describe_plan(plan: Plan, names: CardNames) -> str:
    """A plan in words, each element's part with its slots; the element itself only where
    ``names`` lets every card of that part be named (an option's label reaches the player)."""
    if not plan.counts:
        return "pass (collect nothing)"
    parts: dict[str, list[tuple[tuple[Any, ...], int]]] = {}
    for g, k in sorted(plan.counts.items()):
        parts.setdefault(g[0], []).append((g[1], k))
    words = []
    for el, groups in parts.items():
        slots = sorted(s for g, ss in plan.picked.items() if g[0] == el for s in ss) \
            if plan.picked else list(plan.slots)
        total = sum(k for _, k in groups)
        what = (f"{total} card you had not seen" if el.startswith(_UNSEEN)
                else names.count(total, slots, el))
        bound = [(tokens, k) for tokens, k in groups if tokens]
        if bound and len(groups) == 1:
            what += f" bound by {_token_words(bound[0][0])}"
        elif bound:
            what += ", " + ", ".join(f"{k} bound by {_token_words(t)}" for t, k in bound)
        words.append(f"{what} (slot{'s' if len(slots) > 1 else ''} {', '.join(map(str, slots))})")
    return "collect " + " and ".join(words)


def _token_words(tokens: tuple[Any, ...]) -> str:
    return ", ".join(f"{n} {element_name(t)}" for t, n in tokens)


def options_for(obs: Observation, known: Mapping[int, str], legal: Sequence[Action], rules: Rules,
                seat: int, names: CardNames | None = None
                ) -> tuple[list[Option], dict[Action, list[str]]]:
    """The options to evaluate at a decision, and for each legal action the option keys it
    may lead to (its value is the best of them). Labels name the elements of the cards
    ``names`` allows (default: those face-up in ``obs``)."""
    phase = obs["phase"]
    covers: dict[Action, list[str]] = {}
    options: list[Option] = []
    if phase == "activation":
        plans, groups = activation_plans(obs, known, legal, rules)
        active = [s for s, c in enumerate(obs["grid"]) if c["card"] == "active"]
        slot_group = {s: g for g, ss in groups.items() for s in ss}
        act_counts: dict[tuple[str, tuple[Any, ...]], int] = {}
        for s in active:
            act_counts[slot_group[s]] = act_counts.get(slot_group[s], 0) + 1
        thr = obs["collect_threshold"]
        limit = obs["activations"]["limit"]
        names = CardNames.at(obs) if names is None else names
        for plan in plans:
            options.append(Option(plan.key, plan_actions(plan, obs), _describe_plan(plan, names)))

        def reach(need: dict[tuple[str, tuple[Any, ...]], int]) -> list[str]:
            # Plans reachable from the active set ``need`` (activating more cards): a plan
            # fits when its groups hold the needed cards, counting lone cards that flip back.
            out = []
            for plan in plans:
                used = sum(plan.counts.values())
                extra = 0
                ok = True
                for g, k in need.items():
                    have = plan.counts.get(g, 0)
                    if have < k:
                        # the lone cards must stay below the threshold for the element
                        per_el = sum(plan.counts.get(h, 0) for h in plan.counts if h[0] == g[0])
                        if per_el:
                            ok = False
                            break
                        extra += k - have
                if not ok or used + extra > limit:
                    continue
                lone: dict[str, int] = {}
                for g, k in need.items():
                    if plan.counts.get(g, 0) < k:
                        lone[g[0]] = lone.get(g[0], 0) + k
                if any(v >= thr for v in lone.values()):
                    continue
                out.append(plan.key)
            return out

        for a in legal:
            if isinstance(a, EndPhase):
                need_keys = reach(act_counts)
                exact = [k for k in need_keys if _plan_is(plans, k, act_counts, thr)]
                covers[a] = exact or need_keys[:1]
            elif isinstance(a, Activate):
                need = dict(act_counts)
                g = slot_group[a.slot]
                need[g] = need.get(g, 0) + 1
                covers[a] = reach(need)
            elif isinstance(a, Deactivate):
                need = dict(act_counts)
                g = slot_group[a.slot]
                need[g] -= 1
                covers[a] = reach({h: k for h, k in need.items() if k})
        return options, covers
    seen: dict[tuple[Any, ...], str] = {}
    for a in legal:
        sig: tuple[Any, ...]
        if isinstance(a, Refill):
            sig = ("refill",)  # empty slots carry no tokens: every slot is the same choice
        elif isinstance(a, PlaceToken):
            sig = ("token", _group(obs, known, a.slot), a.element, a.source)
        elif isinstance(a, UsePower):
            effect = _effect(rules, a)
            if effect in ("ripple", "whisper", "gale"):
                # A swap or a peek changes nothing a perfect memory does not already hold.
                sig = ("power", a.element, a.tier)
            elif effect in ("tide", "unbind"):
                sig = ("power", a.element, a.tier, _group(obs, known, a.targets[0]))
            else:
                sig = ("power", a.element, a.tier)
        else:
            sig = ("end",)
        key = seen.get(sig)
        if key is None:
            key = seen[sig] = _label(a)
            options.append(Option(key, (a,), action_words(a, rules)))
        covers[a] = [key]
    return options, covers


def _plan_is(plans: list[Plan], key: str, counts: dict[Any, int], thr: int) -> bool:
    want = _collected(counts, thr)
    return any(p.key == key and p.counts == want for p in plans)


def _effect(rules: Rules, a: UsePower) -> str:
    pw = rules.power(a.element, a.tier)
    return pw.effect.id if pw is not None else ""


#: The kinds of power whose use (and target) the expert searches; it plays the others as
#: GreedyBot does.
_SEARCHED_POWERS = ("remove_tokens", "swap_with_deck")


def _kind_of(rules: Rules, a: UsePower) -> str:
    pw = rules.power(a.element, a.tier)
    return pw.effect.kind if pw is not None else ""


def _label(a: Action) -> str:
    if isinstance(a, Refill):
        return "refill"
    if isinstance(a, PlaceToken):
        return f"token {a.element} on {a.slot} from {a.source}"
    if isinstance(a, UsePower):
        return f"{a.element}:{a.tier} {list(a.targets)}"
    if isinstance(a, EndPhase):
        return "end phase"
    return repr(a)


_SOURCE_WORDS = {"supply": "the supply", "marker": "your Spent marker", "pool": "the Token Pool"}


def action_words(a: Action, rules: Rules) -> str:
    """An action in the rules' words, as the coach's option labels and hints give it (an
    option's key, :func:`_label`, stays the terse id stored in replay files). Token and power
    elements are public, and a card is named by its slot."""
    if isinstance(a, Refill):
        return "refill a slot"
    if isinstance(a, PlaceToken):
        el = element_name(a.element)
        return (f"{'an' if el[0] in 'AEIOU' else 'a'} {el} token on slot {a.slot} from "
                f"{_SOURCE_WORDS.get(a.source, a.source)}")
    if isinstance(a, UsePower):
        pw = rules.power(a.element, a.tier)
        name = pw.name if pw is not None else f"{element_name(a.element)} {a.tier} power"
        return f"{name} on {slot_list(a.targets)}" if a.targets else name
    if isinstance(a, EndPhase):
        return "end the phase"
    return _label(a)


def _useful_token(obs: Observation, known: Mapping[int, str], a: PlaceToken, seat: int) -> float:
    """A cheap prior for a token: does it lock an opponent out of a card they could collect?
    Negative when it locks nobody out (pruned)."""
    cell = obs["grid"][a.slot]
    new = cell["tokens"].get(a.element, 0) + 1
    players = obs["players"]
    n = len(players)
    score = -1.0
    for k in range(1, n):
        opp = players[(seat + k) % n]
        if new > opp["study"].get(a.element, 0):
            score = max(score, 1.0 / k)
    if score < 0:
        return score
    mine = players[seat]["study"].get(a.element, 0) - (a.source == "supply")
    score += 0.5 * (new <= mine) + 0.5 * (a.source != "supply")
    score = float(score)
    # cards of an element with many copies on the grid are the ones worth locking
    el = known.get(a.slot)
    same = sum(1 for s, c in enumerate(obs["grid"]) if known.get(s) == el and not c["tokens"])
    return score + 0.2 * same


# ---------------------------------------------------------------------- search
class Table:
    """The common random numbers of a decision: determinized positions drawn in order from one
    generator, rollout seeds, and each option's rollout values on them (``samples[key][k]`` is
    the value on position ``k``, the same deck for every option). The decisions of one Phase 2
    share a table, so that the moves of a turn are valued on one set of decks and read the
    same numbers (the value a move is given is the best value at the next decision)."""

    def __init__(self, rules: Rules, obs: Observation, known: Mapping[int, str], seat: int,
                 rng: random.Random, horizon: int | None = None, win_weight: float = 0.0
                 ) -> None:
        self.rules, self.obs, self.known, self.seat = rules, obs, dict(known), seat
        self.rng, self.horizon, self.win_weight = rng, horizon, win_weight
        #: option key -> the next player's best reply searched for it (:meth:`screen`; "":
        #: their policy's own); its rollouts play that reply
        self.replies: dict[str, str] = {}
        self.dets: list[Game] = []
        self.seeds: list[list[int]] = []
        self.samples: dict[str, list[float]] = {}
        self.dead: set[str] = set()

    def det(self, k: int) -> Game:
        """Determinized position ``k`` (drawn on first use, in order)."""
        n = len(self.obs["players"])
        while len(self.dets) <= k:
            self.dets.append(determinize(self.rules, self.obs, self.known, self.rng))
            self.seeds.append([self.rng.getrandbits(32) for _ in range(n)])
        return self.dets[k]

    def run(self, option: Option, upto: int, since: Sequence[Action] = ()) -> None:
        """Roll ``option`` out on positions until it has ``upto`` values. ``since`` are the
        seat's moves made since the table's position (its own activations in Phase 2)."""
        got = self.samples.setdefault(option.key, [])
        while len(got) < upto and option.key not in self.dead:
            k = len(got)
            g = self.det(k).clone()
            try:
                for a in (*since, *option.actions):
                    g.apply(a)
            except IllegalActionError:
                self.dead.add(option.key)
                return
            g, _ = _played(g, self.seeds[k], self.seat, self.horizon,
                           reply=self.replies.get(option.key, ""))
            got.append(self._value(g))

    def _value(self, g: Game) -> float:
        v = evaluate(g, self.seat)
        if self.win_weight and g.is_over:
            scores = g.scores()
            top = max(scores)
            if scores[self.seat] == top:
                v += self.win_weight * (1.0 if scores.count(top) == 1 else 0.5)
        return v

    def screen(self, option: Option, since: Sequence[Action] = ()) -> bool:
        """Search the next player's best reply to ``option`` on the first deck (one ply over
        their whole-phase plans, :func:`_played`) and play it on every deck from then on: the
        option's values become its values against that reply. A reply picked on every deck
        would know each deck's hidden order. True when the reply is not their policy's own
        (the option's values were rolled out again)."""
        if option.key in self.replies or option.key in self.dead:
            return False
        g = self.det(0).clone()
        try:
            for a in (*since, *option.actions):
                g.apply(a)
        except IllegalActionError:
            self.dead.add(option.key)
            return False
        g, key = _played(g, self.seeds[0], self.seat, self.horizon, reply=True)
        self.replies[option.key] = key
        if not key:
            return False  # their policy's reply: the values already played it
        got = self.samples.get(option.key, [])
        n = len(got)
        self.samples[option.key] = [self._value(g)]
        self.run(option, max(1, n), since)
        return True

    def values(self, keys: Collection[str]) -> dict[str, float]:
        """The value of each option of ``keys`` with values: the mean of the option rolled out
        most (the yardstick) plus the option's mean difference from it on the decks where both
        were played, so an option screened on a few decks is compared on those decks and not
        on luck (common random numbers)."""
        have = {k: self.samples[k] for k in keys if self.samples.get(k) and k not in self.dead}
        if not have:
            return {}
        # The yardstick is chosen from the whole table, so a value does not depend on which
        # options a decision lists.
        every = {k: v for k, v in self.samples.items() if v and k not in self.dead}
        ref = max(every, key=lambda k: (len(every[k]), sum(every[k]) / len(every[k]), k))
        base = every[ref]
        mean = sum(base) / len(base)
        out = {}
        for k, got in have.items():
            n = len(got)
            out[k] = mean + sum(got[i] - base[i] for i in range(n)) / n
        return out

    def line(self, option: Option, since: Sequence[Action] = (), turns: int = 2
             ) -> tuple[Action, ...]:
        """``option`` then the continuation policy's moves on position 0 to the end of the next
        player's turn, cut before the first move that names a slot whose card the seat could
        not know (refilled from below the face-up top) or brings such a card in (Tide)."""
        g = self.det(0).clone()
        try:
            for a in (*since, *option.actions):
                g.apply(a)
        except IllegalActionError:
            return option.actions
        moves: list[Action] = []
        if not g.is_over:
            _played(g, self.seeds[0], self.seat, turns, moves, self.replies.get(option.key, ""))
        out = list(option.actions)
        unseen: set[int] = set()
        refills = 0
        for a in moves:
            slots = ({a.slot} if isinstance(a, (Activate, Deactivate, PlaceToken)) else
                     set(a.targets) if isinstance(a, UsePower) else set())
            if slots & unseen or (isinstance(a, UsePower) and refills
                                  and _effect(self.rules, a) in ("tide", "swap_with_deck")):
                break
            if isinstance(a, Refill):
                refills += 1
                if refills > 1:  # the first refill takes the face-up top; the rest are unseen
                    unseen.add(a.slot)
            out.append(a)
        return tuple(out)


@dataclass
class Evaluation:
    """What a search found: value and rollouts per option key.

    ``values[key]`` is the value of the position the option leads to (final score margin in
    cards, own minus the best opponent's, when the continuation policy plays on), on the
    table's common decks; ``samples[key]`` the value on each deck (index k is the same deck
    for every option). :attr:`value` is the value of the decision's position.
    """

    values: dict[str, float]
    counts: dict[str, int]
    options: list[Option]
    covers: dict[Action, list[str]]
    samples: dict[str, list[float]] = field(default_factory=dict)
    table: Table | None = field(default=None, repr=False, compare=False)
    #: the seat's moves since the table's position (a later decision of the same Phase 2)
    since: tuple[Action, ...] = ()

    def value_of(self, action: Action) -> float:
        keys = [k for k in self.covers.get(action, []) if k in self.values]
        if not keys:
            return float("-inf")
        return max(self.values[k] for k in keys)

    def best_option(self) -> Option:
        return max(self.options, key=lambda o: (self.values.get(o.key, float("-inf")),
                                                -self.options.index(o)))

    @property
    def value(self) -> float:
        """The value of the position before the decision: its best option's."""
        return max(self.values.values(), default=0.0)

    def line(self, key: str | None = None) -> tuple[Action, ...]:
        """The option ``key`` (default: the best) and the continuation policy's moves to the
        end of the next player's turn (:meth:`Table.line`): "Show the line". Replay it on the
        real game and stop at the first illegal move (later draws may differ)."""
        option = self.best_option() if key is None else next(
            (o for o in self.options if o.key == key), None)
        if option is None:
            raise ValueError(f"no option {quote(key)} at this decision")
        if self.table is None or (len(self.options) == 1 and not self.table.dets):
            return option.actions
        return self.table.line(option, self.since)


def search(obs: Observation, known: Mapping[int, str], legal: Sequence[Action], rules: Rules,
           seat: int, rng: random.Random, budget: int, horizon: int | None = None,
           time_ms: float | None = None, all_options: bool = False,
           win_weight: float = 0.0, dry: bool = False,
           no_pass: bool = False, names: CardNames | None = None,
           table: Table | None = None, since: Sequence[Action] = (),
           reply: bool = False) -> Evaluation:
    """Evaluate the options of a decision by determinized rollouts (see the module doc).

    ``all_options`` keeps every option (for analysis); otherwise tokens that lock nobody out
    are pruned first. ``win_weight`` adds that many cards for a win (half for a tie).
    ``dry`` only lists the options (no rollouts). ``no_pass`` drops the Phase 2 pass when a
    collection is possible. ``names`` decides which cards the options' labels may name by
    element (:func:`options_for`). ``table`` carries the decks and values of an earlier
    decision of the same phase (a Phase 2's decisions share one), ``since`` the seat's moves
    made since then: the values it holds are kept, and only options it has none of are rolled
    out, on its decks, as often as its least-played option (so the values of a turn agree); a
    new table is drawn from ``rng`` otherwise.

    The budget is spent by successive halving on common decks: every option is rolled out on
    the first decks, the better half goes on to more, and so on, so the best options get the
    most rollouts (at least one per option; about ``budget`` in all).

    ``reply`` adds one ply for the next player (a shallow tree over whole-phase options): the
    best option's values are played again against the next player's best reply
    (:meth:`Table.screen`), and the next best while the searched one loses first place.
    """
    options, covers = options_for(obs, known, legal, rules, seat, names)
    if obs["phase"] == "binding" and not all_options:
        # A token option's use is scored once: it both prunes and orders the options.
        use = {o.key: (_useful_token(obs, known, first, seat)
                       if isinstance(first := o.actions[0], PlaceToken) else 9.0)
               for o in options}
        keep = [o for o in options if use[o.key] >= 0]
        keep.sort(key=lambda o: -use[o.key])
        options = keep[:12]
    if obs["phase"] == "activation" and not all_options:
        whole = _whole_plans(obs, known, legal, rules)
        options = [o for o in options if o.key in whole] or options
    if no_pass and len(options) > 1 and obs["phase"] == "activation":
        options = [o for o in options if o.key != "pass"] or options
    if table is None:
        table = Table(rules, obs, known, seat, rng, horizon, win_weight)
    since = tuple(since)
    if dry:
        return Evaluation({}, {}, options, covers, table=table, since=since)
    if len(options) == 1:
        key = options[0].key
        got = table.samples.get(key, [])
        return Evaluation({key: table.values([key]).get(key, 0.0)}, {key: len(got)}, options,
                          covers, {key: list(got)}, table, since)
    live = [o for o in options if o.key not in table.dead]
    held = [len(table.samples[o.key]) for o in live if table.samples.get(o.key)]
    if held:
        for o in live:
            if not table.samples.get(o.key):
                table.run(o, min(held), since)
    elif time_ms is not None:
        deadline = time.perf_counter() + time_ms / 1000
        k = 0
        while live and (k == 0 or time.perf_counter() < deadline):
            k += 1
            for o in live:
                table.run(o, k, since)
            live = [o for o in live if o.key not in table.dead]
    elif budget < 2 * len(live):
        # Too few rollouts to halve: every option on the first deck, then the finalists
        # share what is left (at least one more deck each).
        for o in live:
            table.run(o, 1, since)
        live = sorted((o for o in live if o.key not in table.dead),
                      key=lambda o: -table.samples[o.key][0])
        rest = budget - len(options)
        live = live[:max(2, min(FINALISTS, rest))]
        for o in live:
            table.run(o, 1 + max(1, rest // len(live)), since)
    else:
        total = max(budget, len(live))
        rounds = max(1, math.ceil(math.log2(len(live))))
        target = 0
        spent = 0
        for r in range(rounds):
            per = max(1, (total - spent) // ((rounds - r) * max(1, len(live))))
            target += per
            for o in live:
                before = len(table.samples.get(o.key, []))
                table.run(o, target, since)
                spent += len(table.samples.get(o.key, [])) - before
            live = [o for o in live if o.key not in table.dead]
            if r < rounds - 1 and len(live) > 1:
                mean = {o.key: sum(table.samples[o.key][:target]) / target for o in live}
                live.sort(key=lambda o: -mean[o.key])
                live = live[:max(2, (len(live) + 1) // 2)]
        if live and spent < total:  # what halving's rounding left goes to the finalists
            target += max(1, (total - spent) // len(live))
            for o in live:
                table.run(o, target, since)
    keys = [o.key for o in options]
    values = table.values(keys)
    if reply and len(options) > 1:
        # The values so far are against the next player's policy: search their best reply to
        # the best option, and again while an option so searched loses first place (its
        # value against a better reply is lower).
        for _ in range(FINALISTS):
            top = max(options, key=lambda o: (values.get(o.key, float("-inf")),
                                              -options.index(o)))
            if not table.screen(top, since):
                break
            values = table.values(keys)
    counts = {k: len(table.samples.get(k, [])) for k in keys if k in values}
    samples = {k: list(table.samples[k]) for k in counts}
    return Evaluation(values, counts, options, covers, samples, table, since)


class ExpertBot(GreedyBot):
    """A search bot: determinized rollouts over what its seat has seen (module docstring).

    ``budget`` is rollouts per decision (an int, or ``"quick"`` for :data:`QUICK_BUDGET`
    rollouts of :data:`QUICK_HORIZON` turns and no reply search); with ``time_ms`` it searches
    for that long instead (not reproducible). ``horizon`` stops rollouts after that many turns
    (rounded up to whole rounds; default :data:`DEFAULT_HORIZON`, or :data:`QUICK_HORIZON` for
    the quick budget; None: to the end of the game). ``win_weight`` adds that many cards to a
    rollout's value for a win, so that a sure win beats a bigger gamble. ``reply`` searches the
    next player's best reply to the best options (:func:`search`; default: on, but for the quick
    budget).

    >>> from leyline_widget.agents.bots import make_bot
    >>> make_bot("expert", seed=1, budget=20).budget
    20
    >>> quick = ExpertBot(budget="quick")
    >>> quick.budget == QUICK_BUDGET, quick.horizon == QUICK_HORIZON, quick.reply
    (True, True, False)
    """

    name = "expert"

    def __init__(self, seed: int | None = None, budget: int | str = DEFAULT_BUDGET,
                 time_ms: float | None = None, horizon: int | str | None = "default",
                 win_weight: float = 2.0, reply: bool | None = None) -> None:
        super().__init__(seed)
        # "quick" is a preset: a cheaper, weaker search (shorter rollouts, no reply search)
        if horizon == "default":
            horizon = QUICK_HORIZON if budget == "quick" else DEFAULT_HORIZON
        if reply is None:
            reply = budget != "quick"
        if budget == "quick":
            budget = QUICK_BUDGET
        elif budget == "default":
            budget = DEFAULT_BUDGET
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"budget must be a whole number of rollouts >= 1 or 'quick', "
                             f"got {quote(budget)}")
        if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(
                time_ms, (int, float)) or time_ms <= 0):
            raise ValueError("time_ms must be a positive number of milliseconds, got "
                             f"{quote(time_ms)}")
        if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int)
                                    or horizon < 1):
            raise ValueError(f"horizon must be a whole number of turns >= 1 or None, "
                             f"got {quote(horizon)}")
        if isinstance(win_weight, bool) or not isinstance(win_weight, (int, float)) \
                or win_weight < 0:
            raise ValueError(f"win_weight must be a number >= 0, got {quote(win_weight)}")
        self.budget = budget
        self.time_ms = time_ms
        self.horizon = horizon
        self.win_weight = float(win_weight)
        if not isinstance(reply, bool):
            raise ValueError(f"reply must be true or false, got {quote(reply)}")
        self.reply = reply
        self.decisions = 0
        self.last: Evaluation | None = None

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed!r}, budget={self.budget!r})"

    def decide(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A new decision: searched (:func:`search`) from what the seat knows, but for the
        refill, where GreedyBot's spread is kept."""
        if view.phase == "refill":
            # Every empty slot is the same choice for players who remember (module doc);
            # against forgetful ones GreedyBot's spread is better, so keep it.
            return super().decide(view, legal)
        if view.phase == "abilities" and not any(
                isinstance(a, UsePower) and _kind_of(self.rules, a) in _SEARCHED_POWERS
                for a in legal):
            # Extra activations, a lower threshold and ignored tokens never hurt; a peek or a
            # swap of two grid cards teaches a perfect memory nothing: GreedyBot's order of
            # use is right, and only Unbind and Tide (which card?) are worth a search.
            return super().decide(view, legal)
        # Anti-stall: the seed's rules let a game go on for ever while everyone passes
        # (DESIGN.md, interpretation 9); after a full round without a collection the expert
        # does not pass while it can collect, so two experts always finish a game.
        move = self.search_move(view.observation, self._memory(view), legal,
                                no_pass=view.turns_since_collection > view.players)
        self._planned(view, self._plan)
        return move

    def search_move(self, observation: Observation, known: Mapping[int, str],
                    legal: Sequence[Action], no_pass: bool = False) -> Action:
        """The first action of the best option a search finds from ``observation`` and the
        ``known`` grid; the option's other actions are planned (:meth:`decide` keeps them to play
        while the game moves on by them alone). ``last`` keeps the search's evaluation."""
        self._plan.clear()
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        rng = random.Random(f"expert:{self.seed}:{observation['turn']}:{self.decisions}")
        ev = search(observation, known, legal, self.rules, self.seat, rng, self.budget,
                    self.horizon, self.time_ms, win_weight=self.win_weight, no_pass=no_pass,
                    reply=self.reply)
        self.last = ev
        first, *rest = ev.best_option().actions
        # (an observation tells no step: decide pins the plan to the next one)
        self._plan = list(rest)
        self._plan_at = (observation["turn"], Phase(observation["phase"]), None)
        return first


def _register() -> None:
    BOT_KINDS["expert"] = ExpertBot


_register()

__all__ = ["DEFAULT_BUDGET", "DEFAULT_HORIZON", "QUICK_BUDGET", "QUICK_HORIZON", "Evaluation",
           "ExpertBot", "Option", "Table", "determinize", "evaluate", "rollout", "search"]

