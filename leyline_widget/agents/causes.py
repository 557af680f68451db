"""Why a move lost cards: the coach's fixed list of causes, each with its cost in cards.

The search (:mod:`~leyline_widget.agents.expert`) says *how much* a move lost against the best
option; this module says *why*, from a fixed set of causes a player can learn from:

===================  ============================================================
``memory_slip``      you had seen the card and played as if it were something else
``guess``            you activated a card you had never seen
``left_collection``  a collection you knew stayed on the grid
``gift``             the move leaves the next player a collection or a power threshold
``costly_token``     a Binding token that costs a Study card (or locks you out) for little
``unused_power``     a power left unused in Phase 1
``wasted_power``     a power used to no effect, or to less effect than another choice
``early_end``        ending a phase while it still had something worth doing
``late_end``         playing on where ending the phase was best
===================  ============================================================

:func:`find_cause` takes a :class:`Decision` (what the seat saw, what it played, the best option
and the loss) and names the first cause that fits, in the order above; a move that lost at least
0.3 cards (a verdict worse than "good") always gets one. The cost of a cause is the loss the
search measured for the move: the cause is the coach's account of where those cards went.

The words follow DESIGN.md ("Words count as much as cards"): a card is named by its element
only through ``names`` (:class:`~leyline_widget.agents.cardnames.CardNames`: the cards face-up
where the words are shown); other cards by their slots, never grouped with a named element or
a face-up card.

>>> from leyline_widget.teach.scenario import Scenario
>>> from leyline_widget.core.actions import Activate
>>> s = Scenario(players=2).grid("fire water ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1)
>>> s = s.phase("activation")
>>> game = s.build()
>>> d = Decision.at(game, 0, Activate(2), s.seen_cards(0), loss=1.0)
>>> find_cause(d).kind
'guess'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, UsePower
from ..core.game import Game, IllegalActionError
from ..core.rules import Rules
from ..core.types import Observation
from .cardnames import CardNames
from .expert import Option, action_words, determinize, known_grid

__all__ = ["CAUSES", "Cause", "Decision", "find_cause", "handed"]

#: Every cause the coach names, with its name in words (the module docstring's table).
CAUSES: dict[str, str] = {
    "memory_slip": "a memory slip",
    "guess": "a guess at an unseen card",
    "left_collection": "a collection left on the grid",
    "gift": "a gift to the next player",
    "costly_token": "a costly token",
    "unused_power": "a power left unused",
    "wasted_power": "a power used to no effect",
    "early_end": "ending the phase too early",
    "late_end": "ending the phase too late",
}
#: A cause is named for every move that lost at least this many cards (worse than "good").
NAMED_FROM = 0.3


@dataclass(frozen=True)
class Cause:
    """One reason a move lost cards: ``kind`` (a key of :data:`CAUSES`), its ``cost`` in
    cards of expected final margin, and ``words``: what happened, in the rules' words."""

    kind: str
    cost: float
    words: str

    def sentence(self) -> str:
        """What happened, then the cause and its cost: ``"You had seen ... . Cause: a memory
        slip, 1.2 cards."``"""
        return f"{self.words[0].upper()}{self.words[1:]}. Cause: {CAUSES[self.kind]}, " \
               f"{self.cost:.1f} cards."


@dataclass(frozen=True)
class Decision:
    """What the coach knows of one decision: the seat's observation ``obs`` and ``known`` grid,
    the ``played`` action and the option it leads into (``played_opt``), the ``best`` option,
    the ``loss`` in cards, and ``names``: the cards the words may name by element."""

    obs: Observation | Mapping[str, Any]
    known: Mapping[int, str]
    rules: Rules
    seat: int
    played: Action
    best: Option
    played_opt: Option | None
    loss: float
    names: CardNames

    @classmethod
    def at(cls, game: Game, seat: int, played: Action, known: Mapping[int, str],
           loss: float, best: Sequence[Action] = (EndPhase(),),
           plan: Sequence[Action] | None = None, names: CardNames | None = None) -> Decision:
        """A decision read off ``game`` (for tests and scenarios): the seat's observation,
        ``best`` as the best option's actions, ``plan`` the played option's (default: just
        ``played``)."""
        obs = game.observation(seat)

        def words(actions: Sequence[Action]) -> str:
            return ", ".join(f"activate slot {a.slot}" if isinstance(a, Activate)
                             else action_words(a, game.rules) for a in actions)

        plan = tuple(plan or (played,))
        return cls(obs, dict(known), game.rules, seat, played,
                   Option("best", tuple(best), words(best)),
                   Option("played", plan, words(plan)), loss,
                   CardNames.at(obs) if names is None else names)


# ---------------------------------------------------------------------------- what a plan leaves
@dataclass(frozen=True)
class Offer:
    """What a position leaves the next player, counting only cards the seat knows: for each
    element they could collect next turn, the cards left (``slots``), how many they could
    take, and the power tiers that would unlock for them."""

    player: int
    chances: dict[str, tuple[tuple[int, ...], int, tuple[str, ...]]]

    @property
    def size(self) -> int:
        """The largest collection left to the next player (0: none)."""
        return max((take for _s, take, _u in self.chances.values()), default=0)

    @property
    def unlocks(self) -> set[tuple[str, str]]:
        """(element, tier) of every power the next player could unlock next turn."""
        return {(el, t) for el, (_s, _k, tiers) in self.chances.items() for t in tiers}


def handed(d: Decision, option: Option | None) -> Offer | None:
    """What ``option`` (applied from the decision) leaves the next player, counting only cards
    the seat knows; None when the option cannot be applied."""
    if option is None:
        return None
    obs = d.obs
    players = obs["players"]
    nxt = (d.seat + 1) % len(players)
    if nxt == d.seat:
        return None
    game = determinize(d.rules, obs, d.known, random.Random(0))  # type: ignore[arg-type]
    try:
        for a in option.actions:
            game.apply(a)
    except IllegalActionError:
        return None
    mine = known_grid(obs, d.known)
    study = players[nxt]["study"]
    by_el: dict[str, list[int]] = {}
    for s, cell in enumerate(game.observation(None)["grid"]):
        el = cell["element"]
        if cell["card"] == "empty" or el is None or mine.get(s) != el:
            continue
        if any(n > study.get(t, 0) for t, n in cell["tokens"].items()):
            continue  # Binding tokens the next player's Study does not satisfy
        by_el.setdefault(el, []).append(s)
    rules = d.rules
    chances: dict[str, tuple[tuple[int, ...], int, tuple[str, ...]]] = {}
    for el, slots in by_el.items():
        take = min(len(slots), rules.activations_per_turn)
        if take < rules.collect_threshold:
            continue
        have = study.get(el, 0)
        unlocks = rules.unlocked_between(el, have, have + take)[::-1]  # Minor first
        chances[el] = (tuple(slots), take, unlocks)
    return Offer(nxt, chances)


# ---------------------------------------------------------------------------- the causes
def _collected(option: Option | None) -> set[int]:
    if option is None:
        return set()
    return {a.slot for a in option.actions if isinstance(a, Activate)}


def _plan_slots(d: Decision, option: Option | None) -> set[int]:
    """The slots an activation option ends up collecting: the cards it activates and the
    active ones it keeps."""
    if option is None:
        return set()
    dropped = {a.slot for a in option.actions if isinstance(a, Deactivate)}
    active = {s for s, c in enumerate(d.obs["grid"]) if c["card"] == "active"}
    return (active - dropped) | _collected(option)


def _own_unlock(d: Decision, slots: set[int]) -> str:
    """", which would unlock your Minor power" when collecting ``slots`` crosses a power
    threshold of the seat's own (public Study counts, cards the seat knows)."""
    mine = known_grid(d.obs, d.known)
    study = d.obs["players"][d.seat]["study"]
    by_el: dict[str, int] = {}
    for s in slots:
        if s in mine:
            by_el[mine[s]] = by_el.get(mine[s], 0) + 1
    tiers = sorted({t for el, k in by_el.items()
                    for t in d.rules.unlocked_between(el, study.get(el, 0), study.get(el, 0) + k)},
                   reverse=True)
    if not tiers:
        return ""
    return ", which would unlock your " + " and ".join(t.capitalize() for t in tiers) + " power"


def _slip(d: Decision, s: int) -> str | None:
    """A memory slip at ``Activate(s)``: the seat knew the card and activated it where it
    could not be collected (beside other elements as if it matched, or with nothing to pair)."""
    obs, known, names = d.obs, d.known, d.names
    grid = obs["grid"]
    el = known.get(s)
    if el is None:
        return None
    active = {t: grid[t]["element"] for t, c in enumerate(grid) if c["card"] == "active"}
    thr = obs["collect_threshold"]
    lone = [t for t, e in active.items() if e != el
            and sum(1 for x in active.values() if x == e) < thr]
    left = obs["activations"]["limit"] - obs["activations"]["used"] - 1
    same = [t for t, e in known.items() if e == el and t != s and grid[t]["card"] != "empty"]
    card = names.card(s, el)
    if lone:
        other = names.grouped(lone, active)
        like = "the two matched" if len(lone) == 1 else "it matched one of them"
        return f"you had seen {card}, but you activated it beside {other} as if {like}"
    if s not in _plan_slots(d, d.best) and (not same or left <= 0) and not any(
            e == el for e in active.values()):
        return f"you had seen {card} and could not pair it this turn"
    return None


def _gift(d: Decision, unlocks_only: bool) -> str | None:
    played, best = handed(d, d.played_opt), handed(d, d.best)
    if played is None or best is None:
        return None
    new = played.unlocks - best.unlocks
    if new:
        el = sorted(new)[0][0]
    elif not unlocks_only and played.size > best.size:
        el = max(played.chances, key=lambda e: played.chances[e][1])
    else:
        return None
    slots, take, tiers = played.chances[el]
    who = d.obs["players"][played.player]["name"]
    # The cards left stay face-down: named by their slots, never with a face-up card.
    where = "" if any(s in d.names.face_up for s in slots) else f" ({', '.join(map(str, slots))})"
    what = f"{len(slots)} matching cards you had seen{where}"
    if tiers:
        what += (f": {take} of them would unlock their "
                 + " and ".join(t.capitalize() for t in tiers) + " power")
    return f"your move leaves {who} {what}; the best plan was to {d.best.label}"


def _activation(d: Decision) -> Cause | None:
    played, best, loss = d.played, d.best, d.loss
    collect_best = _plan_slots(d, best)
    if isinstance(played, Activate):
        s = played.slot
        if d.known.get(s) is None and d.obs["grid"][s]["element"] is None:
            return Cause("guess", loss, f"you had not seen slot {s}, so activating it was a "
                                        f"guess; the best plan was to {best.label}")
        slip = _slip(d, s)
        if slip is not None:
            return Cause("memory_slip", loss, f"{slip}; the best plan was to {best.label}")
        if not collect_best:
            return Cause("late_end", loss, f"you played on where ending Phase 2 now "
                                           f"({best.label}) was best")
    active = [t for t, c in enumerate(d.obs["grid"]) if c["card"] == "active"]
    if isinstance(played, EndPhase) and not active and collect_best:
        # A pass: the collection left is the point; what it hands the next player follows.
        what = d.names.grouped(collect_best, d.known) or "cards you knew"
        gift = _gift(d, unlocks_only=False)
        return Cause("left_collection", loss,
                     f"passing left a collection you knew on the grid: {what}"
                     f"{_own_unlock(d, collect_best)}"
                     + (f" ({gift.split(';')[0]})" if gift else ""))
    # Handing the next player a power threshold is the point of a move that does it; a
    # bigger collection left to them comes after the collections the seat left itself.
    gift = _gift(d, unlocks_only=True)
    if gift is not None:
        return Cause("gift", loss, gift)
    collect_played = _plan_slots(d, d.played_opt)
    if isinstance(played, EndPhase) and collect_best - collect_played:
        return Cause("early_end", loss, f"you ended Phase 2 with more to collect: the best "
                                        f"plan was to {best.label}"
                                        f"{_own_unlock(d, collect_best)}")
    gift = _gift(d, unlocks_only=False)
    if gift is not None:
        return Cause("gift", loss, gift)
    if collect_best - collect_played:
        return Cause("left_collection", loss, f"your plan leaves a collection you knew on the "
                                              f"grid; the best plan was to {best.label}"
                                              f"{_own_unlock(d, collect_best)}")
    return Cause("late_end", loss, f"the cards you collect this way cost you later; the best "
                                   f"plan was to {best.label}")


def _token(d: Decision, a: PlaceToken) -> Cause:
    players = d.obs["players"]
    n = len(players)
    cell = d.obs["grid"][a.slot]
    new = cell["tokens"].get(a.element, 0) + 1
    locked = [players[(d.seat + k) % n]["name"] for k in range(1, n)
              if new > players[(d.seat + k) % n]["study"].get(a.element, 0)]
    mine = players[d.seat]["study"].get(a.element, 0) - (a.source == "supply")
    what = d.names.card(a.slot, d.known.get(a.slot))
    paid = "this token cost a Study card" if a.source == "supply" else "this token was free"
    parts = [paid, f"locks {' and '.join(locked)} out of {what}" if locked
             else f"locks no opponent out of {what}"]
    if new > mine:
        parts.append("and locks you out of it too")
    words = f"{parts[0]}, {parts[1]}" + (f" {parts[2]}" if len(parts) > 2 else "")
    better = "ending the phase" if isinstance(d.best.actions[0], EndPhase) else d.best.label
    if a.source == "supply" or new > mine:
        return Cause("costly_token", d.loss, f"{words}; better: {better}")
    return Cause("late_end", d.loss, f"{words}; ending the phase was better than this token"
                 if isinstance(d.best.actions[0], EndPhase) else f"{words}; better: {better}")


def _power(d: Decision, a: UsePower) -> Cause:
    pw = d.rules.power(a.element, a.tier)
    name = pw.name if pw is not None else f"the {a.element} {a.tier} power"
    if pw is not None and pw.effect.kind in ("swap", "peek"):
        return Cause("wasted_power", d.loss,
                     f"{name} shows or moves nothing a perfect memory does not already hold "
                     "(every grid card was shown to all when placed); better: "
                     f"{d.best.label}")
    return Cause("wasted_power", d.loss, f"{name} here did less than {d.best.label}")


def find_cause(d: Decision) -> Cause | None:
    """The cause of a move's loss (module docstring), or None for a move within
    :data:`NAMED_FROM` cards of the best (nothing to explain) or a refill (every slot is the
    same choice)."""
    if d.loss < NAMED_FROM:
        return None
    phase = d.obs["phase"]
    played = d.played
    if phase == "refill":
        return None
    if phase == "activation":
        return _activation(d)
    if isinstance(played, PlaceToken):
        return _token(d, played)
    if isinstance(played, UsePower):
        return _power(d, played)
    first = d.best.actions[0] if d.best.actions else EndPhase()
    if phase == "abilities":
        return Cause("unused_power", d.loss, f"you ended Phase 1 without using a power you "
                                             f"had; better: {d.best.label}")
    if phase == "binding" and isinstance(first, PlaceToken):
        return Cause("early_end", d.loss, f"you ended the turn without the token that was "
                                          f"worth it: {d.best.label}")
    return Cause("early_end", d.loss, f"ending the phase here was worse than {d.best.label}")
