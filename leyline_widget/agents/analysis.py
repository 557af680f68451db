"""The coach: judge every decision of one seat from what that seat could know.

:func:`analyse` replays a game, feeds the seat the events it was shown
(:func:`~leyline_widget.core.game.visible_events`) into the same memory fold the bots use
(:class:`~leyline_widget.core.knowledge.Knowledge`), and at each of the seat's decisions (an
action of that seat where more than one action was legal) runs the expert's search
(:func:`~leyline_widget.agents.expert.search`) on the seat's observation and memory alone. The
determinizations are drawn from ``(seed, step)`` only, so re-dealing every card the seat never
saw leaves the review unchanged.

``loss`` is the expected final score margin (own score minus the best opponent's, in cards)
lost against the best option. Verdicts, by loss in cards:

====================  ===============================
``best``              loss <= 0.05, or the best option itself
``good``              loss < 0.3
``inaccuracy``        loss < 0.75
``mistake``           loss < 1.5
``blunder``           loss >= 1.5
====================  ===============================

>>> from leyline_widget import Game, Replay
>>> game = Game.new(players=2, seed=4)
>>> for _ in range(4):
...     _ = game.apply(game.legal_actions()[-1])   # pass, pass, ...
>>> review = analyse(Replay.from_game(game), player=0, seed=0, budget=8)
>>> [m.step for m in review.moves], review.moves[0].verdict
([0], 'blunder')
>>> Review.from_dict(review.to_dict()) == review
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from ..core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, visible_events
from ..core.knowledge import Knowledge
from ..core.rules import Rules
from ..core.types import Observation
from ..core.wording import slot_list
from .cardnames import CardNames
from .causes import CAUSES, Decision, find_cause
from .expert import (
    Evaluation,
    Option,
    Plan,
    Table,
    _describe_plan,
    _group,
    action_words,
    search,
)

#: Rollouts per decision in an analysis (each option at least one, on common decks).
ANALYSIS_BUDGET = 20
#: Rollouts of the Hint button: as an analysis (its p95 is far under a quarter second).
HINT_BUDGET = ANALYSIS_BUDGET
#: Upper loss bounds (in cards) of each verdict but "blunder"; "best" is also the best option.
THRESHOLDS = (("best", 0.05), ("good", 0.3), ("inaccuracy", 0.75), ("mistake", 1.5))
VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")


class ReplayLike(Protocol):
    """What :func:`analyse` needs of a replay: the game after set-up and the actions."""

    @property
    def actions(self) -> Sequence[Action]: ...

    def game_at(self, i: int) -> Game: ...


def verdict(loss: float, is_best: bool = False) -> str:
    """The verdict for a ``loss`` in cards (module docstring).

    >>> verdict(0.0), verdict(0.2), verdict(0.5), verdict(1.0), verdict(3.0)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    if is_best:
        return "best"
    for name, bound in THRESHOLDS:
        if loss <= bound if name == "best" else loss < bound:
            return name
    return "blunder"


@dataclass
class MoveReview:
    """The review of one decision: what was played, what was best, and why."""

    step: int
    player: int
    played: Action
    best: Action
    loss: float
    verdict: str
    reason: str
    options: list[dict[str, Any]] = field(default_factory=list)
    #: the value of the position at the decision (its best value), in cards of final margin
    value_before: float = 0.0
    #: the value given to the move played (``value_before - loss``)
    value_played: float = 0.0
    #: the best line from here: the best option, then the continuation to the end of the next
    #: player's turn ("Show the line"; replay it and stop at the first illegal move)
    line: list[Action] = field(default_factory=list)
    #: the same from the move played (what it handed the next player)
    played_line: list[Action] = field(default_factory=list)
    #: the cause the reason names (a key of agents/causes.py ``CAUSES``); "" for a move within
    #: 0.3 cards of the best
    cause: str = ""

    @property
    def move(self) -> int:
        """The move's number as the page and the notebooks give it: move N is the N-th action
        of the line, the one that leads to step N (``step`` is its 0-based index)."""
        return self.step + 1

    def to_dict(self) -> dict[str, Any]:
        out = {"step": self.step, "player": self.player, "played": self.played.to_dict(),
               "best": self.best.to_dict(), "loss": self.loss, "verdict": self.verdict,
               "reason": self.reason, "options": [dict(o) for o in self.options],
               "value_before": self.value_before, "value_played": self.value_played,
               "line": [a.to_dict() for a in self.line],
               "played_line": [a.to_dict() for a in self.played_line]}
        if self.cause:
            out["cause"] = self.cause
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveReview:
        try:
            move = cls(step=int(data["step"]), player=int(data["player"]),
                       played=Action.from_dict(data["played"]),
                       best=Action.from_dict(data["best"]), loss=float(data["loss"]),
                       verdict=str(data["verdict"]), reason=str(data["reason"]),
                       options=[dict(o) for o in data.get("options", [])],
                       value_before=float(data.get("value_before", 0.0)),
                       value_played=float(data.get("value_played", 0.0)),
                       line=[Action.from_dict(a) for a in data.get("line", [])],
                       played_line=[Action.from_dict(a) for a in data.get("played_line", [])],
                       cause=str(data.get("cause", "")))
        except (KeyError, TypeError) as err:
            raise ValueError(f"a move review needs step, player, played, best, loss, verdict "
                             f"and reason: {err}") from None
        if move.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, "
                             f"got {quote(move.verdict)}")
        return move


@dataclass
class Review:
    """Every decision of ``player`` in a game, judged from that seat's knowledge."""

    player: int
    seed: int
    budget: int
    moves: list[MoveReview]
    #: ``values[i]``: the value of the position after ``i`` actions from this seat's view (the
    #: graph's one number): at its decisions ``value_before``, after its move ``value_played``,
    #: in other seats' turns the value after its last move; the last is the final margin
    values: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (:meth:`from_dict` reads it back)."""
        return {"player": self.player, "seed": self.seed, "budget": self.budget,
                "moves": [m.to_dict() for m in self.moves], "values": list(self.values)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Review:
        if not isinstance(data, Mapping) or not isinstance(data.get("moves"), list):
            raise ValueError("a review must be an object with a 'moves' list")
        return cls(player=int(data["player"]), seed=int(data["seed"]),
                   budget=int(data["budget"]),
                   moves=[MoveReview.from_dict(m) for m in data["moves"]],
                   values=[float(v) for v in data.get("values", [])])

    def counts(self) -> dict[str, int]:
        """How many moves got each verdict."""
        out = dict.fromkeys(VERDICTS, 0)
        for m in self.moves:
            out[m.verdict] += 1
        return out


# ---------------------------------------------------------------------- words
def _aligned(option: Option, obs: Observation, known: Mapping[int, str], played: Action,
             names: CardNames) -> Option:
    """``option`` with the played card in it: a plan picks the first cards of each group of
    interchangeable cards (same element, same tokens), so a move that takes another card of
    the same group is the same plan; its words must then name the card played."""
    if obs["phase"] != "activation" or not isinstance(played, Activate):
        return option
    acts = [a.slot for a in option.actions if isinstance(a, Activate)]
    if played.slot in acts:
        return option
    group = _group(obs, known, played.slot)
    swap = next((t for t in acts if _group(obs, known, t) == group), None)
    if swap is None:
        return option
    actions = tuple(Activate(played.slot) if a == Activate(swap) else a for a in option.actions)
    dropped = {a.slot for a in actions if isinstance(a, Deactivate)}
    kept = [s for s, c in enumerate(obs["grid"]) if c["card"] == "active" and s not in dropped]
    picked: dict[tuple[str, tuple[Any, ...]], list[int]] = {}
    for s in kept + [a.slot for a in actions if isinstance(a, Activate)]:
        picked.setdefault(_group(obs, known, s), []).append(s)
    plan = Plan({g: len(ss) for g, ss in picked.items()},
                tuple(sorted(s for ss in picked.values() for s in ss)), option.key,
                {g: tuple(sorted(ss)) for g, ss in picked.items()})
    return Option(option.key, actions, _describe_plan(plan, names))


def cause_in(reason: str) -> str:
    """The cause a reason names (a key of :data:`~leyline_widget.agents.causes.CAUSES`), or
    "" for a move with nothing to explain: a reason with a cause ends "Cause: <its name>, <cost>
    cards."

    >>> cause_in("You had seen the Fire at slot 5 ... . Cause: a memory slip, 1.2 cards.")
    'memory_slip'
    >>> cause_in("Activating slot 3 is part of the best plan: activate slot 3.")
    ''
    """
    _, _, tail = reason.rpartition(" Cause: ")
    return next((k for k, words in CAUSES.items() if tail.startswith(words + ", ")), "")


def _reason(obs: Mapping[str, Any], known: Mapping[int, str], rules: Rules, seat: int,
            played: Action, best: Option, played_opt: Option | None, loss: float,
            is_best: bool, names: CardNames) -> str:
    # ``obs`` and ``known`` are the decision's; the words are shown on the step the move led
    # to, so every card in them is named through ``names`` (that step's face-up cards). A move
    # that lost at least 0.3 cards names its cause (agents/causes.py) and what it cost.
    best = _aligned(best, cast(Observation, obs), known, played, names)
    if played_opt is not None:
        played_opt = _aligned(played_opt, cast(Observation, obs), known, played, names)
    decision = Decision(obs, known, rules, seat, played, best, played_opt, loss, names)
    cause = find_cause(decision)
    if cause is not None:
        return cause.sentence()
    return _fine_words(decision, is_best)


def _fine_words(d: Decision, is_best: bool) -> str:
    """The words for a move within 0.3 cards of the best: what it is part of, never a claim
    the move contradicts (a move called part of the best plan is in it)."""
    obs, played, best, loss, names = d.obs, d.played, d.best, d.loss, d.names
    close = "" if is_best or loss <= 0.05 else f" (within {loss:.1f} cards)"
    phase = obs["phase"]
    if phase == "refill":
        return ("Where a refilled card goes changes nothing for players who remember every "
                "reveal: empty slots carry no tokens, and every card is shown to all as it is "
                "placed.")
    if isinstance(played, Activate):
        card = names.card(played.slot, d.known.get(played.slot))
        if d.known.get(played.slot) is None and obs["grid"][played.slot]["element"] is None:
            return (f"Activating slot {played.slot} was a guess at a card you had not seen, but "
                    f"it costs nothing here{close}: the plan is still to {best.label}.")
        if played in best.actions:
            return f"Activating {card} is part of the best plan{close}: {best.label}."
        plan = d.played_opt
        if plan is not None and played in plan.actions:
            return f"Activating {card} leads to a plan as good as the best{close}: {plan.label}."
        return (f"Activating {card} changes nothing{close}: a card activated below the collect "
                f"threshold flips back when the phase ends; the plan is still to {best.label}.")
    if isinstance(played, Deactivate):
        return (f"Deactivating slot {played.slot} refunds the activation; the best plan was to "
                f"{best.label}{close}.")
    if isinstance(played, PlaceToken):
        return (f"{action_words(played, d.rules).capitalize()} was as good as any "
                f"choice{close}.")
    if isinstance(played, UsePower):
        return f"Using {action_words(played, d.rules)} here was as good as any choice{close}."
    if phase == "activation":
        what = d.played_opt.label if d.played_opt is not None else "pass"
        return f"Ending Phase 2 here was the best plan{close}: {what}."
    return f"Ending the phase here was as good as any choice{close}."


# ---------------------------------------------------------------------- analysis
def _led_by(first: Action, option: Option, ev: Evaluation) -> list[Action]:
    """The option's line (:meth:`Evaluation.line`) starting with ``first``: a plan's
    activations may come in any order, so ``first`` leads when the plan holds it."""
    line = list(ev.line(option.key))
    plan = len(option.actions)
    if line[:1] != [first]:
        if first in line[:plan] and not any(isinstance(a, Deactivate) for a in line[:plan]):
            line.remove(first)
            line.insert(0, first)
        else:
            line = [first]
    return line


def _review(obs: Mapping[str, Any], known: dict[int, str], rules: Rules, seat: int, step: int,
            played: Action, ev: Evaluation, names: CardNames) -> MoveReview:
    # In Phase 2 the cards already activated count as committed: a Deactivate is judged on
    # its own, but it is not the yardstick of the other moves (or every earlier slip would be
    # charged again at each later activation).
    values = {a: ev.value_of(a) for a in ev.covers
              if a == played or not isinstance(a, Deactivate)}
    legal = list(values)
    reachable = {k for a in legal for k in ev.covers.get(a, []) if k in ev.values}
    top = [o for o in ev.options if o.key in reachable]
    plan = set(max(top, key=lambda o: ev.values[o.key]).actions) if top else set()
    best_first = max(legal, key=lambda a: (values[a], a == played, a in plan,
                                           isinstance(a, Activate), -legal.index(a)))
    best_value = values[best_first]
    value = values.get(played, best_value)
    loss = max(0.0, best_value - value)
    if loss <= 1e-9:
        loss = 0.0
    is_best = value >= best_value
    in_best = [o for o in ev.options if o.key in ev.covers.get(best_first, []) and o.key in
               ev.values]
    best = max(in_best, key=lambda o: ev.values[o.key]) if in_best else ev.best_option()
    covers = ev.covers.get(played, [])
    cands = [o for o in ev.options if o.key in covers and o.key in ev.values]
    played_opt = max(cands, key=lambda o: ev.values[o.key]) if cands else None
    reason = _reason(obs, known, rules, seat, played, best, played_opt, loss, is_best, names)
    options = [{"key": o.key, "label": o.label, "actions": [a.to_dict() for a in o.actions],
                "value": ev.values[o.key], "rollouts": ev.counts.get(o.key, 0)}
               for o in ev.options if o.key in ev.values]
    options.sort(key=lambda o: -ev.values[str(o["key"])])
    line = _led_by(best_first, best, ev)
    played_line = _led_by(played, played_opt, ev) if played_opt is not None else [played]
    return MoveReview(step=step, player=seat, played=played, best=best_first, loss=loss,
                      verdict=verdict(loss, is_best), reason=reason, options=options,
                      value_before=best_value, value_played=best_value - loss, line=line,
                      played_line=played_line, cause=cause_in(reason))


def analyse(replay: ReplayLike, player: int = 0, seed: int = 0, budget: int = ANALYSIS_BUDGET,
            progress: Callable[[int, int], None] | None = None,
            horizon: int | None = None, known: Mapping[int, str] | None = None) -> Review:
    """Judge every decision of ``player`` in ``replay`` (module docstring).

    ``replay`` is a :class:`~leyline_widget.replays.replay.Replay` or anything with ``game_at(0)``
    (the game after set-up) and ``actions``. ``progress(done, total)`` is called after each
    decision. The same replay, seed and budget give the same review. ``known`` is what the
    seat knew before the first action of a game begun from a position (for a
    :class:`~leyline_widget.teach.scenario.Scenario`, its ``seen_cards(player)``); a dealt game's
    set-up reveals are in its events already. :func:`analysis_steps` is the same review one
    decision at a time.

    >>> from leyline_widget import Game, Replay
    >>> game = Game.new(players=2, seed=4)
    >>> _ = game.apply(game.legal_actions()[-1])
    >>> analyse(Replay.from_game(game), player=0, budget=4).moves[0].step
    0
    """
    steps = analysis_steps(replay, player, seed, budget, horizon, known)
    while True:
        try:
            done, total = next(steps)
        except StopIteration as finished:
            review: Review = finished.value
            return review
        if progress:
            progress(done, total)


def analysis_steps(replay: ReplayLike, player: int = 0, seed: int = 0,
                   budget: int = ANALYSIS_BUDGET, horizon: int | None = None,
                   known: Mapping[int, str] | None = None,
                   ) -> Generator[tuple[int, int], None, Review]:
    """:func:`analyse` one decision at a time, for a host without threads (Pyodide): each
    ``next()`` judges one decision and yields ``(done, total)`` (the first yields
    ``(0, total)`` before any search), and the generator returns the :class:`Review`. A caller
    that stops asking cancels the analysis; nothing else is left running.

    >>> from leyline_widget import Game, Replay
    >>> game = Game.new(players=2, seed=4)
    >>> for _ in range(4):
    ...     _ = game.apply(game.legal_actions()[-1])
    >>> steps = analysis_steps(Replay.from_game(game), player=0, budget=4)
    >>> next(steps), next(steps)
    ((0, 1), (1, 1))
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {quote(seed)}")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"budget must be a whole number of rollouts >= 1, got {quote(budget)}")
    start = replay.game_at(0)
    n = len(start.players)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be a seat from 0 to {n - 1}, got {quote(player)}")
    actions = list(replay.actions)
    # First pass: which steps are decisions of this seat (for progress).
    g = start.clone()
    decisions: list[int] = []
    for i, a in enumerate(actions):
        if g.active_player == player and not g.is_over and len(g.legal_actions()) > 1:
            decisions.append(i)
        g.apply(a)
    total = len(decisions)
    yield 0, total
    rules = start.rules
    fold = Knowledge(player, known)
    fed = 0
    g = start.clone()
    moves: list[MoveReview] = []
    # The decisions of one Phase 2 share one table of decks and values, drawn at the phase's
    # first decision: later activations of the same turn lead into the same plans, so the
    # value given to a move is the best value at the next decision.
    phase_tables: dict[int, tuple[Table, int]] = {}
    values: list[float] = [0.0]
    first: int | None = None
    wanted = set(decisions)
    for i, a in enumerate(actions):
        if i in wanted:
            fold.observe(visible_events(g.events_since(fed), player))
            fed = g.step + 1
            obs = g.observation(player)
            memory = dict(fold.known)
            legal = g.legal_actions()
            # The review is shown on the step this move leads to: it may name only the cards
            # face-up there (or collected by the move).
            after = g.clone()
            events = after.apply(a)
            names = CardNames.at(after.observation(player), events)
            rng = random.Random(f"analyse:{seed}:{i}")
            table: Table | None = None
            since: Sequence[Action] = ()
            if obs["phase"] == "activation":
                shared = phase_tables.get(obs["turn"])
                if shared is not None:
                    table, begun = shared
                    since = actions[begun:i]
            ev = search(obs, memory, legal, rules, player, rng, budget, horizon,
                        all_options=True, names=names, table=table, since=since, reply=True)
            if obs["phase"] == "activation" and table is None and ev.table is not None:
                phase_tables[obs["turn"]] = (ev.table, i)
            move = _review(obs, memory, rules, player, i, a, ev, names)
            if len(ev.options) == 1 and not ev.counts.get(ev.options[0].key):
                # A decision with one option (a refill) changes nothing: the value stands.
                move.value_before = move.value_played = values[-1]
            moves.append(move)
            if first is None:  # before it, the seat's value is the one it first finds
                first = i
                values[:] = [move.value_before] * len(values)
            values[-1] = move.value_before
            values.append(move.value_played)
            yield len(moves), total
            g = after
        else:
            g.apply(a)
            values.append(values[-1])
    if g.is_over:
        scores = g.scores()
        values[-1] = float(scores[player] - max(
            (s for q, s in enumerate(scores) if q != player), default=0))
    return Review(player=player, seed=seed, budget=budget, moves=moves, values=values)


__all__ = [
    "ANALYSIS_BUDGET",
    "HINT_BUDGET",
    "THRESHOLDS",
    "VERDICTS",
    "Hint",
    "MoveReview",
    "Review",
    "analyse",
    "analysis_steps",
    "hint",
    "verdict",
]



@dataclass(frozen=True)
class Hint:
    """The coach's suggestion for the seat to move: the first ``action`` of its best plan
    (``label``, in words), why, and the plan's expected final score margin in cards."""

    action: Action
    label: str
    reason: str
    value: float
    #: the whole plan, ``action`` first (the page marks its slots on the board)
    plan: tuple[Action, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "label": self.label, "reason": self.reason,
                "value": round(self.value, 2), "plan": [a.to_dict() for a in self.plan]}


def hint(game: Game, seat: int, budget: int = HINT_BUDGET, seed: int = 0) -> Hint:
    """What the expert would play now as ``seat``, from that seat's information alone.

    The seat's knowledge is folded from the events it was shown since set-up (as a bot's is),
    so the hint knows no more than a player with a perfect memory would; the unseen deck is
    determinized from ``(seed, step)``. For the Hint button (:data:`HINT_BUDGET`: well under
    a quarter second). ``value`` is the value of the position (its best option's).

    >>> from leyline_widget import Game
    >>> h = hint(Game.new(players=2, seed=4), seat=0, budget=4)
    >>> h.action in Game.new(players=2, seed=4).legal_actions()
    True
    """
    n = len(game.players)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be from 0 to {n - 1}, got {quote(seat)}")
    if game.is_over:
        raise ValueError("the game is over: there is no move to suggest")
    if game.active_player != seat:
        raise ValueError(f"it is {game.players[game.active_player]}'s turn, not "
                         f"{game.players[seat]}'s")
    fold = Knowledge(seat)
    fold.observe(visible_events(game.events_since(0), seat))
    legal = game.legal_actions()
    obs = game.observation(seat)
    rng = random.Random(f"hint:{seed}:{game.step}")
    ev = search(obs, dict(fold.known), legal, game.rules, seat, rng, budget, reply=True)
    best = ev.best_option()
    value = ev.values.get(best.key, 0.0)
    first = best.actions[0] if best.actions else legal[0]
    if first not in legal:  # the plan's first step is always legal; keep the promise anyway
        first = legal[0]
    label = _plan_words(best.actions, game.rules)
    reason = (f"The coach's plan, from what you have been shown: {label}. Expected final "
              f"margin {value:+.1f} cards against the best opponent.")
    plan = tuple(best.actions) if best.actions and best.actions[0] == first else (first,)
    return Hint(first, label, reason, value, plan)


def _plan_words(actions: Sequence[Action], rules: Rules) -> str:
    """A plan in words that name slots, never a card's element: the hint travels in synced
    state, which must not hold what an inert card is (the player clicks the slots named)."""
    acts = [a.slot for a in actions if isinstance(a, Activate)]
    parts = [f"activate {slot_list(acts)}"] if acts else []
    for a in actions:
        if isinstance(a, PlaceToken):
            parts.append(f"place {action_words(a, rules)}")
        elif isinstance(a, Refill):
            parts.append(f"refill slot {a.slot}")
        elif isinstance(a, UsePower):
            parts.append(f"use {action_words(a, rules)}")
        elif isinstance(a, EndPhase) and not parts:
            parts.append("end the phase (pass)")
    if acts:
        parts.append("then end the phase")
    return ", ".join(parts) if parts else "end the phase"
