"""Bots: seeded policies that play Leyline from what their seat may know.

A :class:`Bot` never receives a :class:`~leyline_widget.core.game.Game`. On its turn it is
given its seat's :class:`~leyline_widget.core.view.SeatView` (what a seat with perfect memory
knows) and the legal actions. A bot whose memory is limited also folds the events its seat
was shown (private peeks of other players arrive without their element). :class:`BotSeat` is
the only code that touches the game, so a bot cannot read hidden cards.

>>> from leyline_widget import Game
>>> game = Game.new(players=2, seed=3)
>>> seats = [BotSeat(make_bot("greedy", seed=1), 0), BotSeat(make_bot("random", seed=2), 1)]
>>> while not game.is_over:
...     _ = game.apply(seats[game.active_player].act(game))
>>> game.end_reason in ("deck", "stalemate")
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Container, Iterable, Mapping, Sequence
from typing import Any

from ..core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, Phase, visible_events
from ..core.rules import Power, Rules
from ..core.types import Event
from ..core.view import LegalActions, SeatView
from .fading import FadingKnowledge

__all__ = ["BOT_KINDS", "Bot", "BotSeat", "FadingKnowledge", "GreedyBot", "MemoryBot", "RandomBot",
           "make_bot"]

_END = EndPhase()
_IN_A_ROW = ("extra_activations", "collect_threshold")  # the kinds GreedyBot uses in a row
_ABILITIES, _ACTIVATION, _REFILL, _BINDING = (Phase.ABILITIES, Phase.ACTIVATION, Phase.REFILL,
                                              Phase.BINDING)

def _kind(power: Power) -> tuple[str, int]:
    """What ``power`` does, as its effect's kind and parameter (extra activations, the
    collect threshold, cards to peek at or to unbind; 0 where the kind takes none).

    >>> _kind(Rules.default().power("wind", "major"))
    ('peek', 3)
    """
    return power.effect.kind, power.effect.n or power.effect.cards


class Bot:
    """A policy for one seat. Subclasses override :meth:`choose` (and :meth:`observe`).

    ``rng`` is the bot's random generator, ``random.Random(seed)``: read it, or assign
    another.
    """

    name = "bot"
    rules: Rules                            # the ruleset of the game it sits at
    seat: int

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.seat = 0

    def start(self, rules: Rules, seat: int) -> None:
        """Learn the (public) ruleset and the seat before a game's first decision.

        :class:`BotSeat` starts it before its first decision at a game. A bot seated at
        another game (or at a rewound one) is started again: it forgets
        what it knew and keeps its random generator running.
        """
        self.rules = rules
        self.seat = seat

    def observe(self, events: list[Event]) -> None:
        """Take in events already filtered for this bot's seat (oldest first). Only a bot
        whose memory is limited overrides this: :class:`BotSeat` feeds no other."""

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty) from the seat's ``view``. :class:`BotSeat`
        passes a :class:`~leyline_widget.core.view.LegalActions`: a sequence that lists the
        actions only when it is indexed or iterated, and answers ``len`` and ``in`` without."""
        raise NotImplementedError

    def queued(self, view: SeatView, legal: Container[Action]) -> Action | None:
        """A move this bot decided on earlier for this turn and phase, when it is still legal
        (``move in legal``), or None: a bot that plans ahead (:class:`GreedyBot`) asks it
        first in :meth:`choose`. A bot that plans nothing ahead keeps this default."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """Uniform over the legal actions (it ignores the view).

    >>> RandomBot(seed=1).choose(None, [Activate(0), Activate(1), _END]) in (  # type: ignore
    ...     Activate(0), Activate(1), _END)
    True
    """

    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def _best_take(counts: Iterable[int], acts: int, thr: int) -> int:
    """The most cards one collection can take, given cards per element it may activate."""
    return max((take for c in counts if (take := min(c, acts)) >= thr), default=0)


def _may_activate(tokens: Mapping[str, int] | None, study: Mapping[str, int]) -> bool:
    """Whether a Study of ``study`` may activate a card under ``tokens``."""
    return tokens is None or all(n <= study[el] for el, n in tokens.items())


def _tally(elements: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for el in elements:
        counts[el] = counts.get(el, 0) + 1
    return counts


def _swapped(counts: Mapping[str, int], top: str, out: str | None) -> dict[str, int]:
    """``counts`` with a card of ``top`` in and one of ``out`` (if known) sent back."""
    after = dict(counts)
    after[top] = after.get(top, 0) + 1
    if out is not None:
        after[out] -= 1
    return after


def _threat(counts: Mapping[str, int], acts: int, thr: int) -> tuple[int, str]:
    """Their best collection, and the one element that alone makes it with no card to spare
    ("" when another element or a spare card would make it just the same)."""
    threat = _best_take(counts.values(), acts, thr)
    tops = [el for el, c in counts.items() if threat and min(c, acts) == threat]
    if len(tops) != 1 or counts[tops[0]] > acts:
        return threat, ""
    return threat, tops[0]


def _use(power: Power, targets: Iterable[int] = ()) -> Action:
    """The use of ``power`` on ``targets`` (the legal list offers each ready power's target
    choices in ascending slot order)."""
    return UsePower(power.element, power.tier, tuple(sorted(targets)))


class GreedyBot(Bot):
    """Perfect memory of every card it was shown; plays for the best provable collection.

    It remembers every grid card its seat was shown (:attr:`SeatView.known`: the whole grid in
    a game dealt afresh) and which of them every player saw (for denial with Binding tokens).
    Card counting completes the picture: when only one element has unseen cards left, every
    unknown card is of that element.

    Policy, phase by phase:

    - Abilities: peek (Whisper, Gale: the power that peeks at most) at unknown cards, Unbind a
      card that locks it out, Tide the face-up deck top in when that makes its best collection
      bigger, then extra activations (Spark), a lower collect threshold (Wildfire) and Binding
      tokens ignored (Sanctuary): they never hurt. Ripple is never used: swaps are public, so
      they cannot fool a player who remembers.
    - Activation: activate known cards of the element with the largest collection it can
      prove (a power it would unlock breaks ties); with activations to spare, turn over
      unknown cards only while a collection could still come of it; never uses Deactivate
      (see ``scout``). The whole collection is decided at once and played move by move.
    - Refill: between players who remember every public reveal, where a refilled card goes
      changes nothing (empty slots carry no tokens); against a forgetful player it helps to
      place each card far from the known cards of its element, so it does that.
    - Binding: spend free tokens (own Spent marker, Token Pool) to lock the next player out
      of the best collection they could make from publicly seen cards, keeping its own access
      when it can; pay from the supply (a Study card) only when that removes at least two
      cards from their best collection.

    ``scout=True`` also uses the seed rules' Deactivate refund to look at cards: activate an
    unknown card, see it, deactivate it, repeat. It is off by default because it turns the
    memory game into full information (see examples/04_rule_variants.ipynb).
    """

    name = "greedy"

    _plan: list[Action]                 # the rest of a collection decided at once
    _plan_at: tuple[int, Phase, int | None] | None  # turn, phase, step of its next move
    _peeked: set[int]                   # activated only to look; deactivated next
    _looked: set[int]                   # slots scouted this turn (each once: no endless loop)
    _scouted_turn: int

    def __init__(self, seed: int | None = None, scout: bool = False) -> None:
        super().__init__(seed)
        self.scout = bool(scout)
        self._plan, self._plan_at = [], None

    def start(self, rules: Rules, seat: int) -> None:
        super().start(rules, seat)
        self._plan, self._plan_at = [], None
        self._peeked, self._looked, self._scouted_turn = set(), set(), 0
        # (element, Study count that unlocks it, effect kind and parameter) of each power
        self._unlocks = [(pw.element, rules.threshold(pw.tier), *_kind(pw)) for pw in rules.powers]

    # ------------------------------------------------------------------ memory
    def _recall(self) -> None:
        """Called at each decision: a forgetful bot's memory fades here."""

    def _memory(self, view: SeatView) -> Mapping[int, str]:
        """What it remembers at a decision: slot -> element."""
        return view.known

    def _public(self, view: SeatView) -> Collection[int]:
        """The remembered slots whose card every seat saw (what an opponent may remember)."""
        return view.public

    def _slots_of(self, view: SeatView, element: str) -> list[int]:
        """The remembered slots holding a card of ``element``."""
        return view.slots_of(element)

    # ------------------------------------------------------------------ choosing
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        move = self.queued(view, legal)
        return move if move is not None else self.decide(view, legal)

    def queued(self, view: SeatView, legal: Container[Action]) -> Action | None:
        """The next move of the plan made at its last decision, while the game is still in
        that decision's turn and phase, has moved on by its own moves alone (one step each)
        and the move is legal; else None (the plan is dropped: a move it did not make, such as
        a player taking over its seat, may have changed what the plan was for)."""
        if not self._plan:
            return None
        at = self._plan_at  # (a step of None: any, for a plan made with no step known)
        if at is not None and at[:2] == (view.turn, view.phase) and at[2] in (None, view.step):
            move = self._plan.pop(0)
            if move in legal:
                self._plan_at = (view.turn, view.phase, view.step + 1)
                return move
        self._plan.clear()
        return None

    def _planned(self, view: SeatView, moves: list[Action]) -> None:
        """Keep ``moves`` to play after this decision's move, from the next step on."""
        self._plan, self._plan_at = moves, (view.turn, view.phase, view.step + 1)

    def decide(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A new decision (no plan left) from the view and the legal actions."""
        self._plan.clear()
        self._recall()
        phase = view.phase
        if phase is _REFILL:
            return self._refill(view, legal)
        if phase is _ABILITIES:
            return self._abilities(view, legal)
        if phase is _ACTIVATION:
            return self._activation(view, legal)
        if phase is _BINDING:
            return self._binding(view, legal)
        return legal[0]

    def _reach(self, study: Mapping[str, int]) -> tuple[int, int, bool]:
        """Activations and collect threshold a player with this Study can reach with the
        powers it unlocks, and whether Binding tokens then stop nothing (Sanctuary)."""
        acts, thr, ignore = self.rules.activations_per_turn, self.rules.collect_threshold, False
        for element, need, kind, n in self._unlocks:
            if study[element] < need:
                continue
            if kind == "extra_activations":
                acts += n
            elif kind == "collect_threshold":
                thr = min(thr, n)
            elif kind == "ignore_tokens":
                ignore = True
        return acts, thr, ignore

    def _deduced(self, view: SeatView, known: Mapping[int, str]) -> str | None:
        """The element every unknown card must have, when card counting proves it."""
        total = self.rules.cards_per_element
        unseen = {el: total - sum(s[el] for s in (*view.study, *view.markers))
                  for el in self.rules.elements}
        active, empty = view.active, view.empty
        out = [*active.values(), *(el for s, el in known.items()
                                   if s not in active and s not in empty)]  # inert, remembered
        if view.deck_top is not None:
            out.append(view.deck_top)
        for el in out:
            unseen[el] -= 1
        left = [el for el, n in unseen.items() if n > 0]
        return left[0] if len(left) == 1 else None

    # ------------------------------------------------------------------ Phase 2
    def _activation(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self._scouted_turn != view.turn:
            self._peeked.clear()
            self._looked.clear()
            self._scouted_turn = view.turn
        for a in legal if self._peeked else ():  # undo a scouting activation once seen
            if isinstance(a, Deactivate) and a.slot in self._peeked:
                self._peeked.discard(a.slot)
                return a
        left = view.activations_left
        if left <= 0:
            return _END
        active = _tally(view.active.values())
        known = self._memory(view)
        avail: dict[str, list[Action]] = {}
        unknown: list[Activate] = []
        for a in legal:
            if isinstance(a, Activate):
                el = known.get(a.slot)
                if el is None:
                    unknown.append(a)
                elif el in avail:
                    avail[el].append(a)
                else:
                    avail[el] = [a]
        if unknown and (el := self._deduced(view, known)) is not None:
            avail.setdefault(el, []).extend(unknown)
            unknown = []
        best = self._best_collection(view, avail, active, left)
        if best:
            return self._collect(view, avail[best], avail, active, left, bool(unknown))
        return self._turn_over(view, unknown, avail, active, left)

    def _best_collection(self, view: SeatView, avail: Mapping[str, list[Action]],
                         active: Mapping[str, int], left: int) -> str:
        """The element of the largest collection it can prove (a power it would unlock, then
        more cards already active, then the element's name break ties), or ""."""
        minor, major = self.rules.minor_threshold, self.rules.major_threshold
        thr = view.collect_threshold
        study: Mapping[str, int] | None = None
        best: tuple[int, int, str] = (-1, 0, "")
        for el, moves in avail.items():
            have = active.get(el, 0)
            take = have + (len(moves) if len(moves) < left else left)
            if take < thr or take <= have:
                continue
            if study is None:
                study = view.study_of(self.seat)
            had, after = study[el], study[el] + take
            found = (4 * take + (had < minor <= after) + (had < major <= after), have, el)
            if found > best:
                best = found
        return best[2]

    def _collect(self, view: SeatView, moves: list[Action], avail: Mapping[str, list[Action]],
                 active: Mapping[str, int], left: int, unknown: bool) -> Action:
        """The first activation of the collection of ``moves``, the rest planned; the phase
        ends with it unless unknown cards or another collection remain."""
        count = min(len(moves), left)
        self._planned(view, list(moves[1:count]))
        rest = left - count
        ends = rest == 0 or not unknown
        if ends and rest:
            ends = not any(more is not moves and active.get(el, 0) + min(rest, len(more))
                           >= view.collect_threshold for el, more in avail.items())
        if ends:
            self._plan.append(_END)
        return moves[0]

    def _turn_over(self, view: SeatView, unknown: list[Activate], avail: Mapping[str, list[Action]],
                   active: Mapping[str, int], left: int) -> Action:
        """With no collection to prove: scout, or turn over an unknown card while some element
        could still be collected from the active, known and unknown cards within the
        activations left; else end the phase."""
        fresh = [a for a in unknown if a.slot not in self._looked] if self.scout else []
        if fresh:
            move = fresh[self.rng.randrange(len(fresh))]
            self._peeked.add(move.slot)
            self._looked.add(move.slot)
            return move
        if unknown and any(
                active.get(el, 0) + min(left, len(avail.get(el, ())) + len(unknown))
                >= view.collect_threshold for el in self.rules.elements):
            return unknown[self.rng.randrange(len(unknown))]
        return _END

    # ------------------------------------------------------------------ Phase 1
    def _inert(self, view: SeatView) -> list[int]:
        """The slots holding an inert card, in order."""
        empty, active = view.empty, view.active
        return [s for s in range(self.rules.grid_size) if s not in empty and s not in active]

    def _abilities(self, view: SeatView, legal: Sequence[Action]) -> Action:
        ready: dict[str, tuple[Power, int]] = {}  # kind -> its usable power of most effect
        shared = False  # two usable powers of a kind used in a row (see _free_uses)
        for pw in view.usable:
            kind, n = _kind(pw)
            shared = shared or (kind in ready and kind in _IN_A_ROW)
            if kind not in ready or n > ready[kind][1]:
                ready[kind] = (pw, n)
        for kind, pick in (("peek", self._peek), ("remove_tokens", self._unbind),
                           ("swap_with_deck", self._tide)):
            if kind in ready:
                power, n = ready[kind]
                targets = pick(view, n)
                if targets:
                    return _use(power, targets)
        return self._free_uses(view, ready, shared)

    def _free_uses(self, view: SeatView, ready: Mapping[str, tuple[Power, int]],
                   shared: bool) -> Action:
        """Extra activations, a lower collect threshold, then Binding tokens ignored (while a
        card carries any), else the end of Phase 1: decided at once, as using them changes
        no card it knows, opens none and readies no other power. After Sanctuary it decides
        again (the cards it opens may make Tide worth it), and with two usable powers of one
        kind it decides after each use (the next may use the other)."""
        uses = [_use(ready[k][0]) for k in _IN_A_ROW if k in ready]
        if "ignore_tokens" in ready and view.tokens:
            uses.append(_use(ready["ignore_tokens"][0]))
        else:
            uses.append(_END)
        if not shared:
            self._planned(view, uses[1:])
        return uses[0]

    def _peek(self, view: SeatView, n: int) -> list[int]:
        """Up to ``n`` cards it does not know, those it may activate first."""
        known = self._memory(view)
        if len(known) >= self.rules.grid_size:
            return []
        open_ = self._open_slots(view)
        unknown = [s for s in self._inert(view) if s not in known]
        return sorted(unknown, key=lambda s: (s not in open_, s))[:n]

    def _unbind(self, view: SeatView, n: int) -> list[int]:
        """Up to ``n`` cards whose Binding tokens lock it out, known cards first."""
        if not view.tokens:
            return []
        open_, known = self._open_slots(view), self._memory(view)
        return sorted((s for s in view.tokens if s not in open_),
                      key=lambda s: (s not in known, s))[:n]

    def _open_slots(self, view: SeatView) -> set[int]:
        """Cards this bot may activate under their Binding tokens."""
        inert = self._inert(view)
        if view.ignore_tokens:
            return set(inert)
        study, bound = view.study[self.seat], view.tokens
        return {s for s in inert if _may_activate(bound.get(s), study)}

    def _tide(self, view: SeatView, _n: int = 0) -> list[int]:
        """The token-free card to swap for the face-up deck top, when that makes a bigger
        collection possible this turn (preferring to send back a card it does not know: a
        known one may pair later)."""
        top, known = view.deck_top, self._memory(view)
        acts, thr, _ = self._reach(view.study[self.seat])
        open_ = self._open_slots(view)
        counts = _tally(known[s] for s in open_ if s in known)
        now = _best_take(counts.values(), acts, thr)
        gained = min(counts.get(top, 0) + 1, acts) if top is not None else 0
        if top is None or gained < thr or gained <= now:
            return []  # one more card of the top's element would not beat the best now
        best, best_slot = now, -1
        for s in range(self.rules.grid_size):
            if s in view.tokens or known.get(s) == top:
                continue
            el = known.get(s) if s in open_ else None
            take = _best_take(_swapped(counts, top, el).values(), acts, thr)
            if take > best or (take == best and best > now and el is None and best_slot in known):
                best, best_slot = take, s
        return [best_slot] if best_slot >= 0 else []

    # ------------------------------------------------------------------ refill
    def _refill(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Each card as far from the remembered cards of its element as the empty slots let
        (steps along rows and columns to the nearest; the first empty slot of the farthest)."""
        top, cols = view.deck_top, self.rules.grid_cols
        if top is None or not (same := [divmod(s, cols) for s in self._slots_of(view, top)]):
            return legal[0]
        best, best_d = legal[0], -1
        for a in legal:
            if isinstance(a, Refill):
                r, c = divmod(a.slot, cols)
                d = min(abs(r - q) + abs(c - k) for q, k in same)  # steps to the nearest
                if d > best_d:
                    best, best_d = a, d
        return best

    # ------------------------------------------------------------------ Phase 3
    def _binding(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if view.players == 1:
            return _END
        opp = (self.seat + 1) % view.players
        opp_study = view.study_of(opp)
        acts, thr, ignore = self._reach(opp_study)
        if ignore:
            return _END  # Sanctuary ignores every token: binding cannot stop them
        bound = view.tokens
        # The publicly seen cards they may activate (in Phase 3 every card is inert and no
        # slot is empty).
        seen = [s for s in self._public(view)
                if s not in bound or _may_activate(bound[s], opp_study)]
        # A token cuts the threat only where one element alone makes it, with no more cards
        # than they can activate and fewer of each other element: at most acts + (elements -
        # 1) x (acts - 1) cards in all.
        if len(seen) > acts + (len(self.rules.elements) - 1) * (acts - 1):
            return _END
        known = self._memory(view)
        faces = [known[s] for s in seen]
        counts = {el: faces.count(el) for el in set(faces)}
        # Worth a token only where one card less cuts the threat.
        threat, top = _threat(counts, acts, thr)
        if not top:
            return _END
        counts[top] -= 1
        gain = threat - _best_take(counts.values(), acts, thr)
        slots = [s for s in seen if known[s] == top]
        return self._token(view, slots, gain, opp_study)

    def _token(self, view: SeatView, slots: list[int], gain: int,
               opp_study: Mapping[str, int]) -> Action:
        """The token that locks them out of one of ``slots``: free before paid (a Study card
        is worth paying only to break a whole collection), keeping its own access, on the
        lowest slot."""
        options: dict[tuple[int, str], str] = {}  # (cost, element) -> a source
        for el, source in view.token_sources:
            options.setdefault((int(source == "supply"), el), source)
        mine = view.study_of(self.seat)
        best = max(((gain - cost, new <= mine[el] - cost, -s, el, source)
                    for (cost, el), source in options.items() if not cost or gain >= 2
                    for s in slots
                    if (new := view.tokens.get(s, {}).get(el, 0) + 1) > opp_study[el]),
                   default=None)
        if best is None:
            return _END
        return PlaceToken(-best[2], best[3], best[4])


class MemoryBot(GreedyBot):
    """GreedyBot with a human-like memory; at ``capacity=inf, decay=0`` it is GreedyBot.

    - ``capacity``: how many grid cards it can hold in mind at once (default 7, "seven plus
      or minus two"); learning one more pushes out the one it learned or refreshed longest ago.
    - ``decay``: the chance that a remembered card fades each time another card is seen
      (default 0.05); a fact survives ``n`` later cards with probability ``(1 - decay)**n``.

    It folds the events its seat is shown (:class:`FadingKnowledge`) and lets what fades go
    before each decision. Forgetting is drawn from its own seeded generator, so the same seed
    forgets the same things, and the play choices draw from the same generator as
    GreedyBot's.

    >>> MemoryBot(seed=1, capacity=2).capacity
    2
    """

    name = "memory"
    _mind: FadingKnowledge

    def __init__(self, seed: int | None = None, capacity: float = 7, decay: float = 0.05,
                 scout: bool = False) -> None:
        self.capacity = _capacity(capacity)
        self.decay = _decay(decay)
        self._forget_rng = random.Random(None if seed is None else f"forget:{seed}")
        super().__init__(seed, scout=scout)
        self._forget()

    def start(self, rules: Rules, seat: int) -> None:
        super().start(rules, seat)
        self._forget()

    def _forget(self) -> None:
        self._mind = FadingKnowledge(self.seat, self.capacity, self.decay, self._forget_rng)

    def observe(self, events: list[Event]) -> None:
        self._mind.observe(events)

    def known(self) -> dict[int, str]:
        """What this bot remembers now (what has faded goes first): slot -> element."""
        self._mind.recall()
        return dict(self._mind.known)

    def _recall(self) -> None:
        self._mind.recall()

    def _memory(self, view: SeatView) -> Mapping[int, str]:
        return self._mind.known

    def _public(self, view: SeatView) -> Collection[int]:
        return self._mind.public

    def _slots_of(self, view: SeatView, element: str) -> list[int]:
        return [s for s, el in self._mind.known.items() if el == element]


def _capacity(capacity: Any) -> float:
    if isinstance(capacity, bool) or not isinstance(capacity, (int, float)) or not (
            capacity >= 0):
        raise ValueError(f"capacity must be a number of cards >= 0 (or inf), got "
                         f"{quote(capacity)}")
    if capacity != math.inf and capacity != int(capacity):
        raise ValueError(f"capacity must be a whole number or inf, got {quote(capacity)}")
    return capacity


def _decay(decay: Any) -> float:
    if isinstance(decay, bool) or not isinstance(decay, (int, float)) or not 0 <= decay <= 1:
        raise ValueError(f"decay must be a probability from 0 to 1, got {quote(decay)}")
    return float(decay)


BOT_KINDS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "memory": MemoryBot}


def make_bot(kind: str, seed: int | None = None, **params: Any) -> Bot:
    """A new bot of ``kind`` (a key of :data:`BOT_KINDS`), seeded.

    >>> make_bot("greedy", seed=4).name
    'greedy'
    >>> make_bot("clever")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot kind 'clever'; kinds are random, greedy, memory...
    """
    cls = BOT_KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown bot kind {quote(kind)}; kinds are {', '.join(BOT_KINDS)}")
    try:
        return cls(seed=seed, **params)
    except TypeError as err:
        raise ValueError(f"bad parameters for {kind} bot: {err}") from None


class BotSeat:
    """Drives one bot from a game: the only place where a bot and a Game meet.

    At each move with a choice (a forced move is no decision: the bot is not asked) a bot
    whose memory is limited (one that overrides :meth:`Bot.observe`) is first fed the events
    of every step since it was last fed, as
    :func:`~leyline_widget.core.game.visible_events` shows them to the seat; then the bot
    chooses from the seat's view and the legal actions. A bot seated at another game, or at
    this one rewound, is started afresh; one that folds events is first fed those it is owed
    by the old game (up to its last move there), so what it learned runs on in order.
    """

    def __init__(self, bot: Bot, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ValueError(f"seat must be a player number, got {quote(seat)}")
        self.bot = bot
        self.seat = seat
        self._game: Game | None = None
        self._started: Bot | None = None  # the bot last started here
        self._fed = self._owed = 0  # steps of the log fed, and up to its last move
        self._folds = False  # the bot's memory is limited: it is fed events

    def act(self, game: Game) -> Action:
        """Feed the bot what its seat saw since it was last fed and return its choice."""
        view = SeatView(game, self.seat)
        if view.phase is Phase.GAME_OVER or view.active_player != self.seat:
            raise self._refusal(game)
        now = game.step + 1  # steps of the event log: set-up and each action so far
        if self.bot is not self._started or game is not self._game or now < self._fed:
            self._restart(game)
        self._owed = now
        legal = LegalActions(game)
        forced = legal.only()
        if forced is not None:
            return forced
        if self._folds:
            self._feed(game.visible_events_since(self._fed, self.seat))
        self._fed = now
        return self.bot.choose(view, legal)

    def _feed(self, events: list[Event]) -> None:
        if self._folds:
            # Copies for a bot that may keep or change what it is given, so the log stays
            # intact (MemoryBot's fold only reads them).
            copies = type(self.bot).observe is not MemoryBot.observe
            self.bot.observe([Event(**ev) for ev in events] if copies else events)

    def _restart(self, game: Game) -> None:
        old = self._game
        if (old is not None and old is not game and self.bot is self._started
                and self._fed < self._owed and self._folds):
            self._feed(visible_events([ev for step in old.event_log[self._fed:self._owed]
                                       for ev in step], self.seat))
        self._game, self._started, self._fed, self._owed = game, self.bot, 0, 0
        self._folds = type(self.bot).observe is not Bot.observe
        self.bot.start(game.rules, self.seat)

    def _refusal(self, game: Game) -> ValueError:
        """Why this seat cannot act in ``game``: it is over, or another seat's turn."""
        if game.is_over:
            return ValueError("the game is over; no action is legal")
        return ValueError(f"it is player {game.active_player}'s turn, not seat {self.seat}'s")


# The expert (a search bot built on GreedyBot) registers itself as "expert" in BOT_KINDS when
# imported; importing it here makes the kind available wherever bots are (simulate, the CLI,
# the widget). It imports this module, which is complete by now.
from . import expert as _expert  # noqa: E402,F401
