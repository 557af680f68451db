"""Bots: seeded policies that play Leyline from what their seat may see.

A :class:`Bot` never receives a :class:`~leyline_widget.core.game.Game`. It is fed the events
its seat was shown (private reveals of other players arrive without their element) and, on
its turn, the seat's observation and the legal actions (which depend only on public state).
:class:`BotSeat` is the only code that touches the game, so a bot cannot read hidden cards.

>>> from leyline_widget import Game
>>> game = Game.new(players=2, seed=3)
>>> seats = [BotSeat(make_bot("greedy", seed=1), 0), BotSeat(make_bot("random", seed=2), 1)]
>>> while not game.is_over:
...     _ = game.apply(seats[game.active_player].act(game))
>>> game.end_reason in ("deck", "stalemate")
True
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from ..core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, Phase, visible_events
from ..core.knowledge import Knowledge
from ..core.rules import Rules
from ..core.types import Event, Observation

__all__ = ["BOT_KINDS", "Bot", "BotSeat", "FadingKnowledge", "GreedyBot", "MemoryBot", "RandomBot",
           "make_bot"]

#: The phase's end: EndPhase() is one value, the very one in the engine's legal lists, which
#: apply() knows by identity (so it checks a bot's phase end no more).
_END = EndPhase()
#: GreedyBot._catch_up's signature: events, deck top, legal actions -> a move or None.
_CatchUp = Callable[[list[Event], str | None, list[Action]], Action | None]
_V = TypeVar("_V")
#: What a bot knows before it is seated (rules are frozen values: one serves every bot).
_DEFAULT_RULES = Rules.default()


class _Table:
    """What bots derive from a ruleset: worked out once per ruleset, not once per bot and game
    (rules are frozen values, so one table serves every bot at every game of those rules)."""

    __slots__ = ("rules", "by_key", "keys", "unlocks", "apart", "powers", "levels", "tiers",
                 "reaches", "unlocked", "ranks", "slots", "zeros", "bare")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.by_key = {pw.key: pw.effect.id for pw in rules.powers}  # "element:tier" -> effect
        self.keys = tuple(self.by_key)  # power keys in the rules' order (as observations list)
        self.unlocks = tuple((pw.key, pw.element, rules.threshold(pw.tier))
                             for pw in rules.powers)
        # element -> for each count of its cards a Study may hold (no more than there are),
        # how many of its powers that count unlocks: a change of count unlocks or locks one
        # exactly when the two entries differ (one test, where a loop tested each power).
        self.levels: dict[str, tuple[int, ...]] = {el: tuple(
            sum(1 for _, e, need in self.unlocks if e == el and need <= n)
            for n in range(rules.cards_per_element + 1)) for el in rules.elements}
        self.apart = _apart(rules.grid_rows, rules.grid_cols)
        self.tiers = (rules.minor_threshold, rules.major_threshold)  # Study counts that unlock
        # "element:tier" -> (effect, (element, tier)): a power as Phase 1 choices need it.
        self.powers = {pw.key: (pw.effect.id, (pw.element, pw.tier)) for pw in rules.powers}
        # (element, tier) -> the power's place in the rules: Phase 1 lists them in that order.
        self.ranks = {(pw.element, pw.tier): i for i, pw in enumerate(rules.powers)}
        # unlocked keys -> what a player with those powers reaches (see reach); a game sees a
        # few dozen sets of powers, so each is worked out once.
        self.reaches: dict[tuple[str, ...], tuple[int, int, bool]] = {}
        # a Study's counts, in the rules' element order -> the power keys they unlock
        self.unlocked: dict[tuple[int, ...], list[str]] = {}
        # What GreedyBot.dealt copies at every deal (each built anew cost several times its
        # copy): every grid slot, a count of 0 per element in the rules' order (never changed
        # itself), and what an empty Study unlocks (shared, as unlocked_by's lists are).
        self.slots = frozenset(range(rules.grid_size))
        self.zeros = dict.fromkeys(rules.elements, 0)
        self.bare = self.unlocked_by(self.zeros)

    def unlocked_by(self, study: dict[str, int]) -> list[str]:
        """The power keys a Study of these counts unlocks, in the rules' order; ``study``
        lists the rules' elements in their order (as GreedyBot keeps it). Found once per set
        of counts (a game sees a few dozen), the list is shared: it is never changed."""
        key = tuple(study.values())
        found = self.unlocked.get(key)
        if found is None:
            if len(self.unlocked) >= 4096:
                self.unlocked.clear()
            found = self.unlocked[key] = [k for k, el, need in self.unlocks
                                          if study[el] >= need]
        return found

    def reach(self, unlocked: list[str]) -> tuple[int, int, bool]:
        """Activations and collect threshold a player with these powers unlocked can reach,
        and whether Sanctuary is among them (tokens then stop nothing)."""
        key = tuple(unlocked)
        found = self.reaches.get(key)
        if found is None:
            rules = self.rules
            acts, thr, sanctuary = rules.activations_per_turn, rules.collect_threshold, False
            for k in key:
                effect = self.by_key.get(k)
                if effect == "spark":
                    acts += 1
                elif effect == "wildfire":
                    thr = 1
                elif effect == "sanctuary":
                    sanctuary = True
            if len(self.reaches) >= 1024:
                self.reaches.clear()
            found = self.reaches[key] = (acts, thr, sanctuary)
        return found


_TABLES: dict[int, _Table] = {}


def _table(rules: Rules) -> _Table:
    """The table of ``rules``, found by identity (hashing a ruleset costs more than its table
    saves); a table keeps its rules alive, so no other ruleset can take its id meanwhile."""
    table = _TABLES.get(id(rules))
    if table is None or table.rules is not rules:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        table = _TABLES[id(rules)] = _Table(rules)
    return table


class Bot:
    """A policy for one seat. Subclasses override :meth:`choose` (and :meth:`observe`).

    ``rng`` is the bot's random generator, ``random.Random(seed)``: read it, or assign
    another.
    """

    name = "bot"
    rng: random.Random                      # public: see the class docstring
    rules: Rules                            # public: the ruleset of the game it sits at
    seat: int
    _table: _Table                          # what follows from the rules, shared by every bot
    _by_key: dict[str, str]                 # "element:tier" -> power effect
    #: True in a class that makes ``rng`` at its first use instead (see GreedyBot.rng).
    _rng_later = False

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        if self._rng_later:
            self._rng_seed = seed  # what rng is seeded with, whatever is assigned to seed
        else:
            self.rng = random.Random(seed)
        self.start(_DEFAULT_RULES, 0)

    def start(self, rules: Rules, seat: int) -> None:
        """Learn the (public) ruleset and the seat before the first event of a game arrives.

        A bot seated at another game (or at a rewound one) is started again: it forgets
        what it knew and keeps its random generator running.
        """
        self.rules = rules
        self.seat = seat
        self._table = table = _table(rules)
        self._by_key = table.by_key

    def dealt(self, players: int) -> None:
        """Told, right after :meth:`start`, that the game was dealt afresh for ``players``
        players and that its events will come from the very first (the set-up reveals); by
        default ignored.

        :class:`BotSeat` calls it only for such a game (not one begun from a position, nor
        one the bot joins without being fed its events) and only when the bot's class
        overrides it. The position before those events follows from the rules and the
        player count alone (an empty grid, no tokens, empty Studies and spent markers, no
        power used, no effect on), so a bot that follows the position from events can do so
        from the first without asking for an observation.
        """

    def observe(self, events: list[Event]) -> None:
        """Take in events already filtered for this bot's seat (oldest first)."""

    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        """Pick one of ``legal`` (never empty) from the seat's ``observation``."""
        raise NotImplementedError

    def see_top(self, top: str | None) -> None:
        """Told the face-up deck top (public) before each choice; by default ignored.

        No event names a new top when a card is drawn, so a bot that follows the position
        from events learns it here."""

    def planned(self, legal: list[Action]) -> Action | None:
        """The move this bot can make without a new observation, if any.

        A bot that decided several moves at once (all the activations of a turn) returns
        them here one by one, or one that knows all its choice needs (it saw the position
        and every change since) decides here; :class:`BotSeat` then skips building the
        observation. It must be the move :meth:`choose` would make now. None means: ask
        :meth:`choose`.
        """
        return None

    def queued(self, legal: list[Action]) -> Action | None:
        """The next move of a plan this bot made at its last choice, if any is left and legal.

        :class:`BotSeat` asks for it first, and only while the game is still in the phase and
        turn of that choice: the events since are then the bot's own planned moves, which
        cannot change the plan, so they wait for its next decision. None means: observe,
        then :meth:`planned` or :meth:`choose`. In the refill phase the bot is told the deck
        top first (:meth:`see_top`): a bot that knows what its own refills revealed (each the
        top it was told) may choose the next one here.
        """
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """Uniform over the legal actions.

    >>> RandomBot(seed=1).choose({}, [Activate(0), Activate(1), _END]) in (Activate(0),
    ...                                                                   Activate(1), _END)
    True
    """

    name = "random"

    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]

    def planned(self, legal: list[Action]) -> Action | None:
        # A uniform pick needs no observation: decide here, so none is built.
        return legal[self.rng.randrange(len(legal))]


#: The fields of GreedyBot's compact state, in its docstring's order.
_STATE = ("_phase", "_used", "_limit", "_thr", "_empty", "_active", "_bound", "_study",
         "_unlocked", "_gone", "_powers_used", "_effects")


class GreedyBot(Bot):
    """Perfect memory of every card it was shown; plays for the best provable collection.

    What it remembers: the element of each grid slot it has seen (set-up and refill reveals,
    activations, its own Whisper and Gale peeks, Tide), moved by Ripple swaps and dropped when
    the card is collected; and which of those facts every player saw (for denial with Binding
    tokens). Card counting completes the picture: when only one element has unseen cards
    left, every unknown card is of that element. It is fed by events: it keeps a compact
    state of the position (only what its decisions read: the phase, the activations, which
    slots are empty, active or bound, each Study and its unlocked powers, the cards out of
    play, the turn's powers and effects), brought up to date from every event and from the
    deck top it is told before each choice (:meth:`Bot.see_top`), so that it decides without
    observations (:meth:`Bot.planned`). At a game dealt afresh the state is the blank
    position before the set-up (:meth:`Bot.dealt`), so it needs no observation at all;
    elsewhere (a game begun from a position) it loads the state from the observation of its
    first choice. An event it cannot follow (the game's end) drops the state.

    Policy, phase by phase:

    - Abilities: peek with Whisper/Gale at unknown cards, Unbind a card that locks it out,
      Tide the face-up deck top in when that makes its best collection bigger, then Spark,
      Wildfire and Sanctuary (they never hurt). Ripple is never used: swaps are public, so
      they cannot fool a player who remembers.
    - Activation: activate known cards of the element with the largest collection it can
      prove (a power it would unlock breaks ties); with activations to spare, turn over
      unknown cards only while a collection could still come of it; never uses Deactivate
      (see ``scout``). The whole collection is planned at once (:meth:`Bot.planned`).
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

    _mind: Knowledge         # the core's fold of what this seat was shown
    _known: dict[int, str]   # _mind.known: slot -> element this bot remembers
    _public: set[int]        # _mind.public: remembered slots whose element everyone saw
    _peeked: set[int]        # activated only to look; deactivated next
    _looked: set[int]        # slots scouted this turn (each once: no endless loop)
    _plan: list[Action]      # moves decided ahead within this phase
    _top: str | None         # the face-up deck top, while _top_known
    _top_known: bool
    _uses: dict[tuple[str, str], UsePower]  # (element, tier) -> its use without targets
    _apart: tuple[tuple[int, ...], ...]     # slot, slot -> steps apart on the grid
    _fades: bool                            # _recall does something
    _plain: bool                            # _mind is a plain Knowledge (see observe)
    _decides: bool                          # _choose is this class's: planned() may decide
    _foresees: bool                         # it may learn its own refills ahead (see queued)
    _placed: tuple[int, str] | None         # its last refill: the slot and the card (the top)
    # The compact state (see the class docstring), the position as far as the decisions go;
    # _live says it follows the position (it was loaded from this seat's observation and every
    # event since was followed). These are exactly the fields _STATE lists.
    _live: bool
    _phase: str                             # an observation's "phase"
    _used: int                              # activations used this turn, of _limit
    _limit: int
    _thr: int                               # cards of an element that are collected
    _empty: set[int]                        # empty slots
    _active: dict[int, str]                 # active slot -> its (face-up) element
    _bound: dict[int, dict[str, int]]       # slot with tokens -> element -> tokens
    _study: list[dict[str, int]]            # per player: element -> cards in their Study
    _unlocked: list[list[str]]              # per player: unlocked power keys, rules' order
    _gone: dict[str, int]                   # element -> cards in Studies and spent markers
    _powers_used: set[str]                  # power keys used this turn
    _effects: set[str]                      # "wildfire", "sanctuary": on this turn
    # The fields above are slots, not entries of the instance's dict: CPython 3.11 lays out an
    # instance's dict by its class's shared keys only up to 29 of them, and past that every
    # read and write of an attribute goes a slower way (~17% per read, measured); the bot
    # had 35 and reads them at every event. The settings (rules, seat, seed...) stay in the
    # dict, which a subclass's own fields join.
    __slots__ = ("_mind", "_known", "_public", "_peeked", "_looked", "_plan", "_top",
                 "_top_known", "_uses", "_apart", "_fades", "_plain", "_decides", "_foresees",
                 "_placed", "_live", *_STATE)

    def __init__(self, seed: int | None = None, scout: bool = False) -> None:
        super().__init__(seed)
        self.scout = bool(scout)

    _rng_later = True

    # (mypy reads a cached_property as read-only; it is not: an assigned value shadows it)
    @functools.cached_property
    def rng(self) -> random.Random:  # type: ignore[override]
        """``random.Random(seed)``, made at its first use: its moves seldom draw (many games
        never do) and seeding a generator costs more than a move, so the bot goes without
        one until then, with the very draws of one made with it. Kept in the instance once
        made (assigning another replaces it), so each read after is a plain attribute's.

        Only here, not on Bot: any class attribute of that name makes every read of it a
        slower lookup, and a RandomBot reads it at every move.
        """
        return random.Random(self._rng_seed)

    def start(self, rules: Rules, seat: int) -> None:
        super().start(rules, seat)
        self._mind = mind = self._new_mind(seat)
        self._known, self._public = mind.known, mind.public
        # The core's own fold, without sightings: observe() can do its work on the way.
        self._plain = type(mind) is Knowledge and mind.plain
        self._peeked, self._looked = set(), set()
        self._plan = []
        self._live, self._top, self._top_known = False, None, False
        self._uses = {}
        self._apart = self._table.apart
        cls = type(self)
        # A bot of perfect memory has nothing to let fade before a decision.
        self._fades = cls._recall is not GreedyBot._recall
        # A subclass deciding from observations (the expert) is given a new one each time.
        self._decides = cls._choose is GreedyBot._choose
        # Learning a card twice changes nothing only for the core's plain fold, and only
        # without fading before each decision.
        self._foresees = self._plain and not self._fades
        self._placed = None

    # ------------------------------------------------------------------ memory
    def _new_mind(self, seat: int) -> Knowledge:
        """The knowledge fold this bot keeps: perfect memory here."""
        return Knowledge(seat)

    def _recall(self) -> None:
        """Called before each decision: a forgetful bot's memory fades here."""

    def known(self) -> dict[int, str]:
        """What this bot remembers now: slot -> element."""
        self._recall()
        return dict(self._known)

    def observe(self, events: list[Event]) -> None:
        if not (self._plain and self._live):
            self._observe_any(events)
            return
        # The common case, a plain Knowledge and a live state: the work of _observe_any,
        # without testing either at every event (a decision is fed about six, and every
        # simulated move of a rollout comes through here).
        known, public, plan = self._known, self._public, self._plan
        active, empty = self._active, self._empty
        drawn = False  # a draw came after the last top it was told (stored once, at the end)
        for ev in events:
            # The kinds by how often a game brings them (draws, activations, phases).
            kind = ev["type"]
            if kind == "reveal":
                slot = ev["slot"]
                if ev["cause"] in _DRAWS:
                    # A draw is public and names its card (the engine's always do, and no
                    # seat's view hides it): two tests fewer on the most frequent event.
                    known[slot] = ev["element"]
                    public.add(slot)
                    drawn = True
                    # Drawn onto an empty slot (so untokened), it lies inert, face down.
                    empty.discard(slot)
                else:
                    element = ev["element"]
                    if element is not None:
                        known[slot] = element
                        if ev["visible_to"] == "all":
                            public.add(slot)
            elif kind == "activate":
                slot = ev["slot"]
                known[slot] = active[slot] = ev["element"]
                public.add(slot)
                self._used += 1
            elif kind == "phase":
                if plan:  # (most often spent already: a test costs less than a call)
                    plan.clear()
                phase = self._phase = ev["phase"]
                if phase != "activation":
                    self._used = 0
            elif kind == "turn":
                if self._looked:  # (only a scout fills it, and _peeked only with it)
                    self._peeked.clear()
                    self._looked.clear()
                if plan:
                    plan.clear()
                self._follow_turn(ev)
            elif kind == "collect":
                for slot in ev["slots"]:
                    known.pop(slot, None)
                    public.discard(slot)
                self._follow_collect(ev)
            else:
                if kind == "swap" or kind == "tide":
                    self._mind.take(ev)  # (rare: they move or forget what it knew)
                    if kind == "tide":
                        self._top, self._top_known = ev["to_deck"], True
                        drawn = False
                if not self._follow(ev):
                    # The state cannot follow (the game ended): the rest as for any bot.
                    if drawn:
                        self._top_known = False
                    self._live = False
                    self._observe_any(_after(events, ev))
                    return
        if drawn:
            self._top_known = False

    def _observe_any(self, events: list[Event]) -> None:
        """:meth:`observe` for any knowledge fold, with or without a live state."""
        mind, plain = self._mind, self._plain
        if not plain:
            mind.observe(events)  # what it remembers: the core's fold of these events
        known, public, plan = self._known, self._public, self._plan
        live = self._live
        if live:  # the compact state's sets, changed in place here and by _follow
            active, empty = self._active, self._empty
        for ev in events:
            # The kinds of most events come first, most frequent first (draws, activations,
            # phases), and the state follows them here; the rest go through _follow. A plain
            # Knowledge's fold (Knowledge.take: learn what an activation or a reveal shows,
            # forget what a collection or Tide takes away) is done on the way, in the same
            # pass: every simulated move comes through here.
            kind = ev["type"]
            if kind == "reveal":
                slot = ev["slot"]
                if plain:
                    element = ev["element"]
                    if element is not None:
                        known[slot] = element
                        if ev["visible_to"] == "all":
                            public.add(slot)
                if ev["cause"] in _DRAWS:
                    self._top_known = False
                    if live:
                        # Drawn onto an empty slot (so untokened), it lies inert, face down.
                        empty.discard(slot)
                # A Tide reveal leaves an inert untokened card inert; a peek changes nothing.
            elif kind == "activate":
                slot, element = ev["slot"], ev["element"]
                if plain:
                    known[slot] = element
                    public.add(slot)
                if live:
                    active[slot] = element
                    self._used += 1
            elif kind == "phase":
                plan.clear()
                if live:
                    phase = self._phase = ev["phase"]
                    if phase != "activation":
                        self._used = 0  # Phase 2 is over: none in use
            else:
                if kind == "turn":
                    self._peeked.clear()
                    self._looked.clear()
                    plan.clear()
                elif plain:
                    if kind == "collect":
                        for slot in ev["slots"]:
                            known.pop(slot, None)
                            public.discard(slot)
                    elif kind == "swap" or kind == "tide":
                        mind.take(ev)  # (rare: they move or forget what it knew)
                if kind == "tide":
                    self._top, self._top_known = ev["to_deck"], True
                if live and not self._follow(ev):
                    live = self._live = False

    def _follow(self, ev: Event) -> bool:
        """Bring the compact state up to date with ``ev``, as one loaded from a new
        observation would be, for the kinds :meth:`observe` leaves to it. The deck top is not
        kept: a draw names the card drawn, not the one under it, so the top is told
        separately (:meth:`see_top`). False when the state cannot follow (the game ended, or
        an event this code does not know)."""
        kind = ev["type"]
        if kind == "turn":  # (the kinds by how often a game brings them)
            self._follow_turn(ev)
        elif kind == "collect":
            self._follow_collect(ev)
        elif kind == "power":
            # Targets act through the events that follow (swap, tide, reveal, token_return).
            effect = ev["effect"]
            self._powers_used.add(f"{ev['element']}:{ev['tier']}")
            if effect == "spark":
                self._limit += 1
            elif effect == "wildfire" or effect == "sanctuary":
                self._effects.add(effect)
                if effect == "wildfire":
                    self._thr = 1
        elif kind == "flip_back":
            active = self._active
            for s in ev["slots"]:
                del active[s]
        elif kind == "place_token":
            el, slot = ev["element"], ev["slot"]
            tokens = self._bound.get(slot)
            if tokens is None:
                self._bound[slot] = {el: 1}
            else:
                tokens[el] = tokens.get(el, 0) + 1
            if ev["source"] == "supply":
                # A Study card becomes a spent marker: still out of play (_gone), one card
                # less in the Study.
                self._restudy(ev["player"], el, -1)
        elif kind == "token_return":
            slot = ev["slot"]
            tokens = self._bound.get(slot)
            if tokens is not None:  # unbound; a collected card's slot is clear already
                tokens.pop(ev["element"], None)
                if not tokens:
                    del self._bound[slot]
        elif kind == "deactivate":
            del self._active[ev["slot"]]
            if self.rules.deactivate_refund:
                self._used -= 1  # else the activation stays spent
        elif kind == "swap":
            a, b = ev["slots"]
            # A card moves with its tokens.
            _swap(self._active, a, b)
            _swap(self._bound, a, b)
            empty = self._empty
            ea, eb = a in empty, b in empty
            if ea != eb:
                empty.symmetric_difference_update((a, b))
        elif kind != "tide" and kind != "pass":
            return False
        return True

    # A turn and a collection, the kinds of _follow that most events of the rest are, each
    # on its own: observe's live loop calls them without going through _follow's tests.
    def _follow_turn(self, ev: Event) -> None:
        rules = self.rules
        self._phase = ev["phase"]
        self._used, self._limit = 0, rules.activations_per_turn
        self._thr = rules.collect_threshold
        if self._effects:  # (most turns use no power: a test costs less than a call)
            self._effects.clear()
        if self._powers_used:
            self._powers_used.clear()

    def _follow_collect(self, ev: Event) -> None:
        active, empty, bound = self._active, self._empty, self._bound
        slots = ev["slots"]
        for s in slots:
            del active[s]
            empty.add(s)
        if bound:  # (most often no card is)
            for s in slots:
                bound.pop(s, None)  # its tokens go back (token_return events follow)
        el, count = ev["element"], ev["count"]
        self._gone[el] += count
        self._restudy(ev["player"], el, count)

    def _restudy(self, player: int, element: str, change: int) -> None:
        """``change`` cards more of ``element`` in ``player``'s Study, and what it unlocks."""
        study = self._study[player]
        was = study[element]
        study[element] = now = was + change
        levels = self._table.levels[element]
        if levels[was] != levels[now]:  # a power of that element unlocks or locks again
            self._unlocked[player] = self._table.unlocked_by(study)

    def _load(self, obs: Observation) -> None:
        """The compact state of the position ``obs`` shows (what the decisions read)."""
        self._phase = obs["phase"]
        acts = obs["activations"]
        self._used, self._limit = acts["used"], acts["limit"]
        self._thr = obs["collect_threshold"]
        # The grid in one pass (three comprehensions walked it three times).
        empty: set[int] = set()
        active: dict[int, str] = {}
        bound: dict[int, dict[str, int]] = {}
        for s, c in enumerate(obs["grid"]):
            card = c["card"]
            if card == "empty":
                empty.add(s)
            elif card == "active":
                active[s] = c["element"]
            if c["tokens"]:
                bound[s] = dict(c["tokens"])
        self._empty, self._active, self._bound = empty, active, bound
        players = obs["players"]
        elements = self.rules.elements
        # Each Study in the rules' element order (see _Table.unlocked_by).
        self._study = [{el: p["study"][el] for el in elements} for p in players]
        self._unlocked = [list(p["unlocked"]) for p in players]
        gone = dict.fromkeys(elements, 0)
        for p in players:
            study, markers = p["study"], p["markers"]
            for el in elements:
                gone[el] += study[el] + markers[el]
        self._gone = gone
        self._powers_used = set(obs["powers_used"])
        self._effects = set(obs["effects"])
        self._top, self._top_known = obs["deck"]["top"], True

    def dealt(self, players: int) -> None:
        # The compact state of the position before the set-up reveals, as _load would read it
        # from an observation there: the bot follows the game from its first event, and so
        # needs no observation all game (see planned).
        rules, table = self.rules, self._table
        self._phase = "activation"  # (a deal's phase until its turn event names the first)
        self._used, self._limit = 0, rules.activations_per_turn
        self._thr = rules.collect_threshold
        self._empty = set(table.slots)
        self._active, self._bound = {}, {}
        zeros = table.zeros
        self._gone = zeros.copy()
        study: list[dict[str, int]] = []
        for _ in range(players):  # (a comprehension is a call of its own)
            study.append(zeros.copy())
        self._study = study
        # What an empty Study unlocks (nothing, unless a house rule unlocks a power at 0
        # cards): the table's shared list, as _restudy keeps it (never changed in place).
        self._unlocked = [table.bare] * players
        self._powers_used, self._effects = set(), set()
        self._top, self._top_known = None, False  # the deck top is told before each choice
        self._live = True

    def queued(self, legal: list[Action]) -> Action | None:
        placed = self._placed
        if placed is None:  # the common case: the next activation or the phase's end
            return self._next_planned(legal) if self._plan else None
        self._placed = None
        if self._top_known and type(legal[0]) is Refill:
            # Still refilling in the turn of its last refill: the events since are the reveals
            # of the cards it placed itself, each the deck top it was told, and it was told
            # the new top (BotSeat tells it before asking here in the refill phase). It learns
            # the card now as that reveal will teach it (a plain fold learns it again then,
            # changing nothing) and decides the next refill as it would once fed.
            slot, element = placed
            self._known[slot] = element
            self._public.add(slot)
            if self._live:
                self._empty.discard(slot)
            return self._refill(self._top, legal)
        return self._next_planned(legal)

    def _next_planned(self, legal: list[Action]) -> Action | None:
        """The next move of the plan, if it is still legal (else the plan is dropped)."""
        plan = self._plan
        if plan:
            action = plan.pop(0)
            if legal[-1] is action:  # the phase's end, last in the list
                return action
            for a in legal:  # planned moves are the engine's own values: found by identity
                if a is action:
                    return action
            if action in legal:
                return action
            plan.clear()
        return None

    def planned(self, legal: list[Action]) -> Action | None:
        if self._plan:
            action = self._next_planned(legal)
            if action is not None:
                return action
        # Decisions from what the bot already knows are the ones a new observation would give:
        # the compact state was loaded from the last observation and brought up to date (see
        # _follow), the deck top was told, and a refill needs only that top.
        if self._top_known:
            if self._live and self._decides:
                return self._decide(legal)
            if legal and isinstance(legal[0], Refill):
                self._plan.clear()
                self._placed = None
                if len(legal) == 1:
                    return legal[0]
                self._recall()
                return self._refill(self._top, legal)
        return None

    def see_top(self, top: str | None) -> None:
        # With the deck top, the state kept from events is all a decision needs: told it, the
        # bot decides in planned().
        self._top, self._top_known = top, True

    def _catch_up(self, events: list[Event], top: str | None, legal: list[Action]) -> Action | None:
        """``observe(events)``, ``see_top(top)``, then ``planned(legal)``, in one call: how
        :class:`BotSeat` asks a bot whose class keeps this class's three (see
        ``BotSeat._adopt``) at a decision with more than one legal action. Most decisions are
        then made from the followed state without another call of the protocol."""
        self.observe(events)
        self._top, self._top_known = top, True
        if self._live and self._decides and not self._plan:
            return self._choice(legal)  # what planned() does, told the top, with no plan left
        return self.planned(legal)

    # ------------------------------------------------------------------ choosing
    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        self._placed = None  # (a subclass's _choose may not go through _decide)
        self._load(observation)
        # This seat's own view is kept, and brought up to date from the events that follow.
        self._live = "deck" in observation and observation.get("viewer") == self.seat
        return self._choose(observation, legal)

    def _choose(self, observation: Observation, legal: list[Action]) -> Action:
        """Decide from ``observation``, which :meth:`choose` has loaded as the state; a
        subclass that decides otherwise overrides this (and is then asked with a new
        observation at each decision)."""
        return self._decide(legal)

    def _decide(self, legal: list[Action]) -> Action:
        """The choice from the compact state (loaded or followed) and the legal actions."""
        if self._plan:
            self._plan.clear()
        if len(legal) == 1:
            self._placed = None
            return legal[0]
        return self._choice(legal)

    def _choice(self, legal: list[Action]) -> Action:
        """:meth:`_decide` with no plan left and more than one legal action (as BotSeat asks:
        it makes a forced move itself)."""
        self._placed = None
        if self._fades:
            self._recall()
        phase = self._phase  # (the phases by how often a game decides in them)
        if phase == "refill":
            return self._refill(self._top, legal)
        if phase == "abilities":
            return self._abilities(legal)
        if phase == "activation":
            return self._activation(legal)
        if phase == "binding":
            return self._binding(legal)
        return legal[0]

    def _deduced(self) -> str | None:
        """The element every unknown card must have, when card counting proves it."""
        total = self.rules.cards_per_element
        unseen = {el: total - gone for el, gone in self._gone.items()}
        active, empty = self._active, self._empty
        for el in active.values():
            unseen[el] -= 1
        for s, el in self._known.items():
            if s not in active and s not in empty:  # an inert card it remembers
                unseen[el] -= 1
        top = self._top
        if top is not None:
            unseen[top] -= 1
        left = [el for el, n in unseen.items() if n > 0]
        return left[0] if len(left) == 1 else None

    def _activation(self, legal: list[Action]) -> Action:
        thr = self._thr
        used = self._used
        left = self._limit - used
        if self.scout and self._peeked:
            # Undo a scouting activation as soon as its card is seen.
            for a in legal:
                if isinstance(a, Deactivate) and a.slot in self._peeked:
                    self._peeked.discard(a.slot)
                    return a
        if left <= 0:
            return _END
        active: dict[str, int] = {}
        if used:  # each active card took an activation
            for face in self._active.values():
                active[face] = active.get(face, 0) + 1
        # The legal actions themselves are kept (not their slots): the engine shares them,
        # so a plan of them is checked against the next legal list by identity.
        avail: dict[str, list[Action]] = {}
        unknown: list[Activate] = []
        known = self._known
        for a in legal:
            if type(a) is Activate:
                el = known.get(a.slot)
                if el is None:
                    unknown.append(a)
                elif el in avail:
                    avail[el].append(a)
                else:
                    avail[el] = [a]
        if unknown:
            el = self._deduced()
            if el is not None:
                avail.setdefault(el, []).extend(unknown)
                unknown = []
        study = self._study[self.seat]
        minor, major = self._table.tiers
        # The best collection by (score, active cards, element), compared field by field:
        # a tuple per element, min() (its argument parsing) and any() over a generator each
        # cost more than the comparisons themselves. Scores are in quarter cards: whole
        # numbers (small ones are shared objects, where each float sum was a new one).
        best_score, best_have, best_el = -1, 0, ""
        for el, slots in avail.items():
            # (most often no card is active yet: a test costs less than a call)
            have = active.get(el, 0) if active else 0
            n = len(slots)
            take = have + (n if n < left else left)
            if take < thr or take <= have:
                continue
            # A collection that unlocks a power is worth a little more than its cards. (A
            # Study counts every element of the rules, as _load and dealt() make it.)
            had = study[el]
            after = had + take
            score = 4 * take + (1 if had < minor <= after else 0) + (
                1 if had < major <= after else 0)
            if score > best_score or (score == best_score and (
                    have > best_have or (have == best_have and el > best_el))):
                best_score, best_have, best_el = score, have, el
        if best_el:
            el = best_el
            # The whole collection is decided now; the choices after each of these
            # activations would be the same, so they are queued rather than recomputed.
            moves = avail[el]
            n = len(moves)
            count = n if n < left else left
            if count < n:
                moves = moves[:count]
            self._plan = moves[1:]
            rest = left - count
            # The phase ends with it, unless unknown cards or another collection remain.
            ends = rest == 0 or not unknown
            if ends and rest:
                for other, more in avail.items():
                    n = len(more)
                    if other != el and active.get(other, 0) + (rest if rest < n else n) >= thr:
                        ends = False
                        break
            if ends:
                self._plan.append(_END)
            return moves[0]
        fresh = [a for a in unknown if a.slot not in self._looked] if self.scout else []
        if fresh:
            move = fresh[self.rng.randrange(len(fresh))]
            self._peeked.add(move.slot)
            self._looked.add(move.slot)
            return move
        if unknown:
            # Turn over an unknown card only while some element could still be collected
            # from the active, known and unknown cards within the activations left.
            for element in self.rules.elements:
                have = active.get(element, 0)
                if have + min(left, len(avail.get(element, ())) + len(unknown)) >= thr:
                    return unknown[self.rng.randrange(len(unknown))]
        return _END

    def _inert(self) -> list[int]:
        """The slots holding an inert card, in order."""
        empty, active = self._empty, self._active
        if not empty and not active:  # (Phases 1 and 3: a full grid, no card active)
            return list(range(self.rules.grid_size))
        return [s for s in range(self.rules.grid_size) if s not in empty and s not in active]

    def _abilities(self, legal: list[Action]) -> Action:
        # Which powers are ready follows from the state (unlocked, unused, a target exists),
        # which spares scanning the hundreds of Gale and Ripple target choices.
        used = self._powers_used
        ready: dict[str, tuple[str, str]] = {}
        powers = self._table.powers
        for key in self._unlocked[self.seat]:
            if key not in used:
                effect, power = powers[key]
                ready.setdefault(effect, power)
        if self.rules.major_uses_per_game is not None:
            # A Major power used up for the game is unlocked but no longer offered.
            offered = {(a.element, a.tier) for a in legal if isinstance(a, UsePower)}
            ready = {fx: et for fx, et in ready.items() if et in offered}
        if not ready:
            return _END
        known = self._known
        if ("gale" in ready or "whisper" in ready) and len(known) < self.rules.grid_size:
            # (A bot that remembers a card in every slot has none left to peek at.)
            unknown = [s for s in self._inert() if s not in known]
            if unknown:
                open_ = self._open_slots()
                unknown.sort(key=lambda s: (s not in open_, s))
                if "gale" in ready:
                    return self._use(legal, ready["gale"], tuple(sorted(unknown[:3])))
                return self._use(legal, ready["whisper"], (unknown[0],))
        if "unbind" in ready and self._bound:
            locked = sorted(self._bound)
            if locked:
                open_ = self._open_slots()
                locked = [s for s in locked if s not in open_]
            if locked:
                locked.sort(key=lambda s: (s not in known, s))
                return self._use(legal, ready["unbind"], (locked[0],))
        if "tide" in ready:
            target = self._tide()
            if target is not None:
                return self._use(legal, ready["tide"], (target,))
        for effect in ("spark", "wildfire"):
            if effect in ready:
                return self._use(legal, ready[effect])
        if "sanctuary" in ready and self._bound:
            return self._use(legal, ready["sanctuary"])
        return _END

    def _use(self, legal: list[Action], power: tuple[str, str],
             targets: tuple[int, ...] = ()) -> UsePower:
        """The use of ``power`` on ``targets``: the legal list's own action when it holds one
        (apply() knows a listed action by identity and skips its checks), else a new one.

        Phase 1 lists the ready powers in the rules' order, each power's target choices fewest
        first and then in ascending order, and EndPhase last (core.powers.target_choices):
        sorted by (power, number of targets, targets). The search gallops from the start (the
        first powers, Spark and Wildfire by default, are the ones most often used without a
        target: found at the first steps), then bisects, so the hundreds of Gale and Ripple
        choices cost a few steps. A list not in that order (not the engine's) is only searched
        in vain: the use is then built, as it was."""
        # The list's first use is tried before any search: Spark, first in the default rules'
        # order and used without targets, is the use most often made (the search's keys cost
        # more than this test). The condition is the search's own final test.
        a, searched = legal[0], False
        while not (type(a) is UsePower and a.targets == targets and a.element == power[0]
                   and a.tier == power[1]):
            if searched:
                return self._new_use(power, targets)
            searched = True
            ranks = self._table.ranks
            want = (ranks[power], len(targets), targets)
            end = len(legal) - 1  # (EndPhase)
            lo, hi, step = 0, end, 1
            while lo < hi:  # galloping: legal[lo - 1] (if any) sorts before the use
                at = lo + step - 1
                if at >= hi:
                    break
                a = legal[at]
                if type(a) is not UsePower:
                    return self._new_use(power, targets)
                if (ranks.get((a.element, a.tier), -1), len(a.targets), a.targets) >= want:
                    hi = at
                    break
                lo, step = at + 1, step + step
            while lo < hi:
                mid = (lo + hi) >> 1
                a = legal[mid]
                if type(a) is not UsePower:
                    return self._new_use(power, targets)
                if (ranks.get((a.element, a.tier), -1), len(a.targets), a.targets) < want:
                    lo = mid + 1
                else:
                    hi = mid
            a = legal[lo]
        return a

    def _new_use(self, power: tuple[str, str], targets: tuple[int, ...]) -> UsePower:
        """A use the legal list does not hold as expected; one without targets is made once
        per game (actions are values)."""
        if targets:
            return UsePower(*power, targets)
        action = self._uses.get(power)
        if action is None:
            action = self._uses[power] = UsePower(*power)
        return action

    def _open_slots(self) -> set[int]:
        """Cards this bot may activate under their Binding tokens."""
        inert = self._inert()
        if "sanctuary" in self._effects:
            return set(inert)
        study, bound = self._study[self.seat], self._bound
        if not bound:  # (most often no card is)
            return set(inert)
        return {s for s in inert if s not in bound or all(
            n <= study[el] for el, n in bound[s].items())}

    def _tide(self) -> int | None:
        """The token-free card to swap for the face-up deck top, when that makes a bigger
        collection possible this turn."""
        top = self._top
        if top is None:
            return None
        known = self._known
        acts, thr, _ = self._table.reach(self._unlocked[self.seat])
        open_ = self._open_slots()
        counts: dict[str, int] = {}
        for s in open_:
            el = known.get(s)
            if el is not None:
                counts[el] = n = counts.get(el, 0) + 1
                if n >= acts:
                    # A collection of acts cards is there already, as big as any (or none is
                    # collected, acts < thr): no swap makes a bigger one, and the rest of the
                    # cards need not be counted.
                    return None
        now = _best_take(counts.values(), acts, thr)
        # One more card of the top's element is the most a swap adds: when that collection
        # would not beat the best one now, no swap does.
        tops = counts.get(top, 0)
        gained = tops + 1 if tops < acts else acts
        if gained < thr or gained <= now:
            return None
        best, best_slot = now, None
        bound = self._bound
        # The best collection after a swap depends only on the element sent back (None: an
        # unknown card, or one it may not activate): worked out once per element.
        afters: dict[str | None, int] = {}
        for s in range(self.rules.grid_size):
            if s in bound or known.get(s) == top:
                continue
            el = known.get(s) if s in open_ else None
            after = afters.get(el)
            if after is None:
                counts[top] = tops + 1
                if el is not None:
                    counts[el] -= 1
                after = afters[el] = _best_take(counts.values(), acts, thr)
                counts[top] = tops
                if el is not None:
                    counts[el] += 1
            # Prefer sending back an unknown card: a known one may pair later.
            if after > best or (after == best and best > now and el is None
                                and best_slot is not None and best_slot in known):
                best, best_slot = after, s
        return best_slot

    def _refill(self, top: str | None, legal: list[Action]) -> Action:
        if top is None:
            return legal[0]
        # The remembered cards of the top's element. A refill is the most frequent decision
        # of a game: plain loops, as a call per card (min over a map) costs more than a step,
        # and a comprehension is a call of its own.
        same = []
        for s, el in self._known.items():
            if el == top:
                same.append(s)
        best = legal[0]
        if same:
            apart = self._apart
            best_d = -1
            for a in legal:
                if isinstance(a, Refill):
                    row = apart[a.slot]
                    d = len(row)  # (more steps than any two slots are apart)
                    for t in same:
                        if row[t] < d:
                            d = row[t]
                    if d > best_d:
                        best, best_d = a, d
        if self._foresees and isinstance(best, Refill):
            self._placed = (best.slot, top)
        return best

    def _binding(self, legal: list[Action]) -> Action:
        studies = self._study
        n = len(studies)
        if n == 1:
            return _END
        me = self.seat
        opp = (me + 1) % n
        table, unlocked = self._table, self._unlocked[opp]
        # (_Table.reach's lookup inline: every binding asks, and the sets of powers recur)
        reach = table.reaches.get(tuple(unlocked))
        acts, thr, sanctuary = reach if reach is not None else table.reach(unlocked)
        if sanctuary:
            return _END  # Sanctuary ignores every token: binding cannot stop them
        # The threat first: it is most often nothing, and then no token is worth weighing.
        opp_study = studies[opp]
        active, empty, bound = self._active, self._empty, self._bound
        known, public = self._known, self._public
        # The publicly seen inert cards they may activate. Between the refill and the turn's
        # end no card is active and none missing, and most often none is bound: then that is
        # every card everyone saw.
        if active or empty or bound:
            seen: Any = [s for s in public if s not in active and s not in empty and (
                s not in bound or all(t <= opp_study[el] for el, t in bound[s].items()))]
        else:
            seen = public
        # A token cuts the threat only where one element alone makes it, with no more cards
        # than they can activate and fewer of each other element (see below): at most acts +
        # (elements - 1) x (acts - 1) cards in all. With more, no token is worth weighing, so
        # none is counted (the most common case: a full grid of cards everyone saw).
        if len(seen) > acts + (len(self.rules.elements) - 1) * (acts - 1):
            return _END
        counts: dict[str, int] = {}
        if seen is public and len(public) == len(known):
            # Every card it remembers is public (the most common case): their elements are
            # counted at C speed, one count per element.
            faces = list(known.values())
            for el in self.rules.elements:
                counts[el] = c = faces.count(el)
                if c > acts:
                    # They take acts of these: another element doing as much, or this one
                    # with a card to spare, and one token less changes nothing (see below).
                    return _END
        else:
            for s in seen:  # (a loop step costs less than a call of a map or of dict.get)
                el = known[s]
                if el in counts:
                    counts[el] += 1
                else:
                    counts[el] = 1
        # Their best collection (the threat), and the element that alone makes it.
        threat, top, ties = 0, "", 0
        for el, c in counts.items():
            take = c if c < acts else acts
            if take >= thr:
                if take > threat:
                    threat, top, ties = take, el, 1
                elif take == threat:
                    ties += 1
        # A token is worth placing only where one card less cuts the threat: on the one
        # element that makes it, with no more cards than they can activate. Most often there
        # is no threat, or another element (or a spare card) would make it just the same.
        if not threat or ties > 1 or counts[top] > acts:
            return _END
        counts[top] -= 1
        gain = threat - _best_take(counts.values(), acts, thr)
        slots = [s for s in seen if known[s] == top]
        free: dict[str, PlaceToken] = {}
        paid: dict[str, PlaceToken] = {}
        for a in legal:
            if isinstance(a, PlaceToken):
                if a.source == "supply":
                    paid.setdefault(a.element, a)
                else:
                    free.setdefault(a.element, a)
        my_study = studies[me]
        best: tuple[int, bool, int, str, str] | None = None
        for cost, options in ((0, free), (1, paid)):
            if cost and gain < 2:
                continue  # a Study card is worth paying only to break a whole collection
            for el in options:
                for s in slots:
                    tokens = bound.get(s)
                    new = (0 if tokens is None else tokens.get(el, 0)) + 1
                    if new <= opp_study[el]:
                        continue
                    keep = new <= my_study[el] - cost
                    key = (gain - cost, keep, -s, el, options[el].source)
                    if best is None or key > best:
                        best = key
        if best is None:
            return _END
        _net, _keep, neg_s, el, source = best
        slot = -neg_s
        # The legal list's own token, when it holds one (apply() then skips its checks): Phase
        # 3 lists every slot with the same (element, source) pairs, in slot order, then
        # EndPhase, so the slot's pairs are the slot-th run of them.
        k = (len(legal) - 1) // self.rules.grid_size
        for a in legal[slot * k:slot * k + k]:
            if (type(a) is PlaceToken and a.slot == slot and a.element == el
                    and a.source == source):
                return a
        return PlaceToken(slot, el, source)


_REFILLING = Phase.REFILL

#: Reveals that draw from the deck (a new, unseen card comes up on top).
_DRAWS = ("setup", "refill")


@functools.lru_cache(maxsize=16)
def _apart(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Steps between every two slots of a ``rows`` x ``cols`` grid (row plus column moves)."""
    at = [divmod(s, cols) for s in range(rows * cols)]
    return tuple(tuple(abs(r - q) + abs(c - d) for q, d in at) for r, c in at)


def _after(events: list[Event], ev: Event) -> list[Event]:
    """The events after ``ev``, found by identity (another event may be equal to it)."""
    for at, e in enumerate(events):
        if e is ev:
            return events[at + 1:]
    raise ValueError("the event is not in the list")


def _swap(where: dict[int, _V], a: int, b: int) -> None:
    """Exchange what ``where`` holds for slots ``a`` and ``b`` (either may hold nothing)."""
    va, vb = where.pop(a, None), where.pop(b, None)
    if vb is not None:
        where[a] = vb
    if va is not None:
        where[b] = va


def _best_take(counts: Any, acts: int, thr: int) -> int:
    """The most cards one collection can take, given cards per element it may activate."""
    best = 0
    for c in counts:
        take = c if c < acts else acts
        if take >= thr and take > best:
            best = take
    return best


class MemoryBot(GreedyBot):
    """GreedyBot with a human-like memory; at ``capacity=inf, decay=0`` it is GreedyBot.

    - ``capacity``: how many grid cards it can hold in mind at once (default 7, "seven plus
      or minus two"); learning one more pushes out the one it learned or refreshed longest ago.
    - ``decay``: the chance that a remembered card fades each time another card is seen
      (default 0.05); a fact survives ``n`` later cards with probability ``(1 - decay)**n``.

    Forgetting is drawn from its own seeded generator, so the same seed forgets the same
    things, and the play choices draw from the same generator as GreedyBot's.

    >>> MemoryBot(seed=1, capacity=2).capacity
    2
    """

    name = "memory"
    _mind: FadingKnowledge

    def __init__(self, seed: int | None = None, capacity: float = 7, decay: float = 0.05,
                 scout: bool = False) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, (int, float)) or not (
                capacity >= 0):
            raise ValueError(f"capacity must be a number of cards >= 0 (or inf), got "
                             f"{quote(capacity)}")
        if capacity != math.inf and capacity != int(capacity):
            raise ValueError(f"capacity must be a whole number or inf, got {quote(capacity)}")
        if isinstance(decay, bool) or not isinstance(decay, (int, float)) or not 0 <= decay <= 1:
            raise ValueError(f"decay must be a probability from 0 to 1, got {quote(decay)}")
        self.capacity = capacity
        self.decay = float(decay)
        self._forget_rng = random.Random(None if seed is None else f"forget:{seed}")
        super().__init__(seed, scout=scout)

    def _new_mind(self, seat: int) -> Knowledge:
        return FadingKnowledge(seat, self.capacity, self.decay, self._forget_rng)

    def _recall(self) -> None:
        self._mind.recall()


class FadingKnowledge(Knowledge):
    """The core's knowledge fold with a human-like memory (see :class:`MemoryBot`).

    ``rng`` draws when each fact fades; it is the bot's, and keeps running across games.
    """

    __slots__ = ("capacity", "decay", "rng", "_count", "_stamp", "_expires")

    def __init__(self, seat: int, capacity: float, decay: float, rng: random.Random) -> None:
        self.capacity, self.decay, self.rng = capacity, decay, rng
        self._count = 0                      # cards seen so far
        self._stamp: dict[int, int] = {}      # slot -> when it was learned or refreshed
        self._expires: dict[int, float] = {}  # slot -> card count at which it fades
        super().__init__(seat)

    def learn(self, slot: int, element: str, public: bool, step: int = 0, turn: int = 0,
              how: str = "") -> None:
        self._count += 1
        if self.capacity <= 0:
            return
        super().learn(slot, element, public, step, turn, how)
        self._stamp[slot] = self._count
        if self.decay <= 0:
            self._expires[slot] = math.inf
        elif self.decay >= 1:
            self._expires[slot] = self._count + 1
        else:
            u = 1.0 - self.rng.random()  # in (0, 1]
            self._expires[slot] = self._count + 1 + math.floor(
                math.log(u) / math.log1p(-self.decay))
        if len(self.known) > self.capacity:
            oldest = min(self._stamp, key=self._stamp.__getitem__)
            self.forget(oldest)

    def forget(self, slot: int) -> None:
        super().forget(slot)
        self._stamp.pop(slot, None)
        self._expires.pop(slot, None)

    def swap(self, a: int, b: int) -> None:
        super().swap(a, b)
        for d in (self._stamp, self._expires):
            va, vb = d.pop(a, None), d.pop(b, None)
            if vb is not None:
                d[a] = vb  # type: ignore[assignment]
            if va is not None:
                d[b] = va  # type: ignore[assignment]

    def recall(self) -> None:
        """Let the facts whose time has come fade."""
        faded = [s for s, t in self._expires.items() if t <= self._count]
        for s in faded:
            self.forget(s)


#: ``observe`` methods known to neither keep nor change the events they are given: bots
#: using them are fed the game's own event dicts rather than copies.
_READS_ONLY = frozenset({Bot.observe, GreedyBot.observe})

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

    Before each decision the bot observes the events of every step since it last observed,
    as :func:`~leyline_widget.core.game.visible_events` shows them to the seat, then chooses
    from the seat's observation and the legal actions. When only one action is legal the bot
    is not asked, and while the game is in the phase and turn of the bot's last decision the
    rest of a plan made there is played first (:meth:`Bot.queued`): the events of those steps
    wait for its next decision (a bot's knowledge is a fold of its events, in order, so when
    they arrive changes nothing it decides; a bot seated at a new game is first fed the ones
    it is owed). Before a choice it is told the public deck top (:meth:`Bot.see_top`), and so
    before a queued move in the refill phase, where the next card matters; when
    the bot can move without a new observation (it keeps the position up to date from events:
    :meth:`Bot.planned`), none is built. A bot started at a game dealt afresh (not begun
    from a position) is told so with the player count (:meth:`Bot.dealt`), when its class
    overrides that hook: it is fed that game's events from the very first. A bot whose class
    keeps GreedyBot's own :meth:`~Bot.observe`, :meth:`~Bot.see_top` and :meth:`~Bot.planned`
    is asked the three of a decision in one call (``GreedyBot._catch_up``): the same events, top
    and legal actions, in that order; a class overriding any of them is asked through each.
    """

    def __init__(self, bot: Bot, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ValueError(f"seat must be a player number, got {quote(seat)}")
        self.bot = bot
        self.seat = seat
        self._fed = 0
        self._game: Game | None = None
        # What the bot's class overrides, looked up once per bot rather than at every move.
        self._seen: Bot | None = None
        self._feeds = self._copies = self._tells = self._queues = self._deals = False
        self._catch_up: _CatchUp | None = None  # GreedyBot._catch_up, for a bot it serves
        self._turn, self._phase = 0, Phase.GAME_OVER  # turn and phase of its last decision
        self._owed = 0  # steps up to its last move: the events it is owed by its next decision

    def _adopt(self, bot: Bot) -> None:
        cls = type(bot)
        self._seen = bot
        self._feeds = cls.observe is not Bot.observe  # a bot that ignores events is fed none
        # Copies for a bot that may keep or change what it is given, so the log stays intact.
        self._copies = cls.observe not in _READS_ONLY
        self._tells = cls.see_top is not Bot.see_top
        self._queues = cls.queued is not Bot.queued
        self._deals = cls.dealt is not Bot.dealt
        # A bot of GreedyBot's own observe, see_top and planned is asked the three at once.
        self._catch_up = bot._catch_up if isinstance(bot, GreedyBot) and (
            cls.observe, cls.see_top, cls.planned) == (
            GreedyBot.observe, GreedyBot.see_top, GreedyBot.planned) else None

    def _restart(self, game: Game) -> None:
        """A new game, or this one rewound: the bot starts afresh from its first event."""
        old, fed = self._game, self._fed
        if old is not None and old is not game and fed < self._owed and self._feeds:
            # First the events of its last moves there, which it made with no decision after
            # them: a bot whose generator runs on across games (MemoryBot's forgetting draws
            # as it learns) must have seen every event up to its last move, as ever.
            events = visible_events([ev for evs in old.event_log[fed:self._owed] for ev in evs],
                                    self.seat)
            self.bot.observe([Event(**ev) for ev in events] if self._copies else events)
        self._game, self._fed, self._turn, self._phase = game, 0, 0, Phase.GAME_OVER
        self.bot.start(game.rules, self.seat)
        if self._deals and game.start_position is None:
            # Dealt afresh, and fed from step 0 (the set-up reveals) by its next decision.
            self.bot.dealt(len(game.players))

    def _reseat(self, game: Game, step: int) -> None:
        """A new bot in the seat (what its class overrides is looked up again), or a new game
        or this one rewound (the bot starts afresh)."""
        if self.bot is not self._seen:
            self._adopt(self.bot)
        if game is not self._game or step + 1 < self._fed:
            self._restart(game)

    def _refusal(self, game: Game, legal: list[Action]) -> ValueError:
        """Why this seat cannot act in ``game``: it is over, or another seat's turn."""
        if not legal:  # only a finished game has none
            return ValueError("the game is over; no action is legal")
        return ValueError(f"it is player {game.active_player}'s turn, not seat {self.seat}'s")

    def act(self, game: Game) -> Action:
        """Feed the bot what its seat saw since it last observed and return its choice."""
        # Every move comes through here (the forced and queued ones too): the common case is
        # tested first with as few reads of the game as it needs.
        legal = game.legal_actions()
        mover, step, phase, turn, top = game.turn_state()
        if mover != self.seat or not legal:
            raise self._refusal(game, legal)
        bot = self.bot
        after = step + 1  # the steps up to this move, which its next decision is fed
        if bot is not self._seen or game is not self._game or after < self._fed:
            self._reseat(game, step)
        self._owed = after
        if len(legal) == 1:
            return legal[0]  # a forced move is no decision: nothing to observe or build yet
        if phase is self._phase and turn == self._turn:
            if self._queues:
                if phase is _REFILLING and self._tells:
                    bot.see_top(top)  # the next refill's card: public, all it needs
                action = bot.queued(legal)
                if action is not None:
                    return action
        else:
            self._turn, self._phase = turn, phase
        catch_up = self._catch_up
        if catch_up is not None:  # the three calls below in one
            events = game.visible_events_since(self._fed, mover)  # (mover is the seat)
            self._fed = after
            action = catch_up(events, top, legal)
            if action is not None:
                return action
            return bot.choose(game.observation(mover), legal)
        if self._feeds:
            events = game.visible_events_since(self._fed, mover)
            if self._copies:
                events = [Event(**ev) for ev in events]
            bot.observe(events)
        self._fed = after
        if self._tells:
            bot.see_top(top)  # public; with the events, all a following bot needs
        action = bot.planned(legal)
        if action is not None:
            return action
        return bot.choose(game.observation(mover), legal)


# The expert (a search bot built on GreedyBot) registers itself as "expert" in BOT_KINDS when
# imported; importing it here makes the kind available wherever bots are (simulate, the CLI,
# the widget). It imports this module, which is complete by now.
from . import expert as _expert  # noqa: E402,F401
