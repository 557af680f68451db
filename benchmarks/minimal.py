"""A minimal model of Leyline, the yardstick for the engine's speed (issue 24).

The same game as :class:`leyline_widget.core.game.Game` under the default rules (four
elements of 12 cards, a 3x4 grid, 3 activations, collect at 2, Minor powers at 2 and Major at
5 in the Study, 5 tokens of each element, the eight default powers, the deactivation refund,
no turn, round or idle limit), written the plainest fast way: flat lists of ints, actions as
tuples, no events, no validation, no history, no views. Its legal lists hold the same actions
in the same order as ``Game.legal_actions()``, so one random loop plays the same games on both
(tests/test_minimal_model.py proves it, step by step).

Actions (see :func:`action_dict` for the engine's dict form):
``(ACTIVATE, slot)``, ``(DEACTIVATE, slot)``, ``(END,)``, ``(REFILL, slot)``,
``(PLACE, slot, element, source)`` with source 0 supply, 1 marker, 2 pool, and
``(POWER, power, targets)`` with ``power`` the index in the default powers.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

ELEMENTS = ("fire", "water", "earth", "wind")
E = len(ELEMENTS)
PER_ELEMENT = 12
SIZE = 12
ACTIVATIONS = 3
COLLECT = 2
MINOR, MAJOR = 2, 5
TOKENS = 5
SOURCES = ("supply", "marker", "pool")

# The default powers in the rules' order: power k belongs to element k // 2, Minor when k is
# even, Major when odd.
SPARK, WILDFIRE, RIPPLE, TIDE, UNBIND, SANCTUARY, WHISPER, GALE = range(8)
POWERS = 8

# Phases, in no particular order.
ABILITIES, ACTIVATION, REFILL, BINDING, OVER = range(5)
PHASES = ("abilities", "activation", "refill", "binding", "game_over")

ACTIVATE, DEACTIVATE, END, REFILL_SLOT, PLACE, POWER = range(6)
Action = tuple[Any, ...]
_ACT = [(ACTIVATE, s) for s in range(SIZE)]
_DEACT = [(DEACTIVATE, s) for s in range(SIZE)]
_REFILL = [(REFILL_SLOT, s) for s in range(SIZE)]
_END: Action = (END,)


def deal(seed: int) -> list[int]:
    """The deck, top first, as the engine deals it: ``core/rules.py:deal_order`` writes out Python
    3.11's ``random.shuffle`` so that its deals outlive a change of Python; the model just
    calls it (tests/test_minimal_model.py would see a Python whose shuffle draws otherwise)."""
    cards = [c for c in range(E) for _ in range(PER_ELEMENT)]
    random.Random(seed).shuffle(cards)
    return cards


class Mini:
    """One game. ``tokens[slot * E + element]``; ``study``, ``markers`` and ``mtok`` (tokens
    stacked on Spent markers) by ``player * E + element``."""

    __slots__ = ("n", "deck", "dp", "grid", "active", "tokens", "study", "markers", "mtok",
                 "supply", "pool", "phase", "turn", "player", "bonus", "threshold", "ignore",
                 "used", "reason")

    def __init__(self, seed: int, players: int = 2) -> None:
        n = self.n = players
        self.deck = deal(seed)
        self.grid = self.deck[:SIZE]
        self.dp = SIZE
        self.active: list[int] = []
        self.tokens = [0] * (SIZE * E)
        self.study = [0] * (n * E)
        self.markers = [0] * (n * E)
        self.mtok = [0] * (n * E)
        self.supply = [TOKENS] * E
        self.pool = [0] * E
        self.turn, self.player = 1, 0
        self.bonus, self.threshold, self.ignore, self.used = 0, COLLECT, False, 0
        self.reason: str | None = None
        self.phase = ACTIVATION
        if self.stalemate():
            self.over("stalemate")
        else:
            self.begin_turn()

    def scores(self) -> list[int]:
        return [sum(self.study[p * E:(p + 1) * E]) for p in range(self.n)]

    def unlocked(self, p: int, k: int) -> bool:
        return self.study[p * E + k // 2] >= (MAJOR if k & 1 else MINOR)

    # ------------------------------------------------------------------ legal lists
    def ready(self) -> list[int]:
        """The powers the active player can use now: unlocked, unused this turn, with a
        target."""
        grid, tokens = self.grid, self.tokens
        cards = bound = 0
        for s in range(SIZE):
            if grid[s] >= 0:
                cards += 1
                b = s * E
                if tokens[b] or tokens[b + 1] or tokens[b + 2] or tokens[b + 3]:
                    bound += 1
        deck = self.dp < len(self.deck)
        targets = (True, True, cards >= 2, deck and cards > bound, bound > 0, True, cards > 0,
                   cards > 0)
        p, used = self.player, self.used
        return [k for k in range(POWERS)
                if not used >> k & 1 and self.unlocked(p, k) and targets[k]]

    def legal(self) -> list[Action]:
        phase = self.phase
        if phase == ACTIVATION:
            active = self.active
            out: list[Action] = [_DEACT[s] for s in sorted(active)]
            if len(active) < ACTIVATIONS + self.bonus:
                grid, tokens, ignore = self.grid, self.tokens, self.ignore
                b = self.player * E
                s0, s1, s2, s3 = self.study[b:b + E]
                out[:0] = [_ACT[s] for s in range(SIZE) if grid[s] >= 0 and s not in active and (
                    ignore or (tokens[s * E] <= s0 and tokens[s * E + 1] <= s1
                               and tokens[s * E + 2] <= s2 and tokens[s * E + 3] <= s3))]
            out.append(_END)
            return out
        if phase == BINDING:
            b = self.player * E
            sources = []
            for i in range(E):
                if self.supply[i] and self.study[b + i]:
                    sources.append((i, 0))
                if self.mtok[b + i]:
                    sources.append((i, 1))
                if self.pool[i] and self.markers[b + i]:
                    sources.append((i, 2))
            out = [(PLACE, s, i, src) for s in range(SIZE) for i, src in sources]
            out.append(_END)
            return out
        if phase == REFILL:
            return [_REFILL[s] for s in range(SIZE) if self.grid[s] < 0]
        if phase == ABILITIES:
            tokens = self.tokens
            cards = [s for s in range(SIZE) if self.grid[s] >= 0]
            bound = [s for s in cards if any(tokens[s * E:(s + 1) * E])]
            out = []
            for k in self.ready():
                if k == RIPPLE:
                    choices: list[tuple[int, ...]] = list(combinations(cards, 2))
                elif k == TIDE:
                    choices = [(s,) for s in cards if s not in bound]
                elif k == UNBIND:
                    choices = [(s,) for s in bound]
                elif k == WHISPER:
                    choices = [(s,) for s in cards]
                elif k == GALE:
                    choices = [*combinations(cards, 1), *combinations(cards, 2),
                               *combinations(cards, 3)]
                else:
                    choices = [()]
                out += [(POWER, k, t) for t in choices]
            out.append(_END)
            return out
        return []

    # ------------------------------------------------------------------ transitions
    def apply(self, a: Action) -> None:
        kind = a[0]
        if kind == ACTIVATE:
            self.active.append(a[1])
        elif kind == DEACTIVATE:
            self.active.remove(a[1])  # the refund: the activation is free again
        elif kind == END:
            if self.phase == ACTIVATION:
                self.collect()
            elif self.phase == BINDING:
                self.end_turn()
            else:
                self.phase = ACTIVATION
        elif kind == REFILL_SLOT:
            self.grid[a[1]] = self.deck[self.dp]
            self.dp += 1
            if -1 not in self.grid:
                self.phase = BINDING
            elif self.dp >= len(self.deck):
                self.over("deck")
        elif kind == PLACE:
            _, s, i, src = a
            pi = self.player * E + i
            if src == 0:  # paid: the Study card becomes a Spent marker
                self.supply[i] -= 1
                self.study[pi] -= 1
                self.markers[pi] += 1
            elif src == 1:
                self.mtok[pi] -= 1
            else:
                self.pool[i] -= 1
            self.tokens[s * E + i] += 1
        else:
            self.use(a[1], a[2])

    def use(self, k: int, targets: tuple[int, ...]) -> None:
        self.used |= 1 << k
        if k == SPARK:
            self.bonus += 1
        elif k == WILDFIRE:
            self.threshold = 1
        elif k == SANCTUARY:
            self.ignore = True
        elif k == RIPPLE:  # the cards trade places with their tokens
            a, b = targets
            grid, tokens = self.grid, self.tokens
            grid[a], grid[b] = grid[b], grid[a]
            ta, tb = tokens[a * E:(a + 1) * E], tokens[b * E:(b + 1) * E]
            tokens[a * E:(a + 1) * E], tokens[b * E:(b + 1) * E] = tb, ta
        elif k == TIDE:  # a token-free card and the deck top trade places
            s = targets[0]
            self.grid[s], self.deck[self.dp] = self.deck[self.dp], self.grid[s]
        elif k == UNBIND:
            for s in targets:
                for i in range(E):
                    count = self.tokens[s * E + i]
                    if count:
                        self.tokens[s * E + i] = 0
                        self.give_back(i, count)
        # Whisper and Gale show cards: no change to the game.
        if not self.ready():
            self.phase = ACTIVATION

    def collect(self) -> None:
        """End of Phase 2: each element with at least the threshold of activated cards is
        collected, with its tokens returned; the rest flip back."""
        active, self.active = sorted(self.active), []
        groups: dict[int, list[int]] = {}
        for s in active:
            groups.setdefault(self.grid[s], []).append(s)
        taken = sorted(c for c, slots in groups.items() if len(slots) >= self.threshold)
        if not taken:
            self.phase = BINDING
            return
        p, tokens = self.player, self.tokens
        freed = []
        for c in taken:
            slots = groups[c]
            self.study[p * E + c] += len(slots)
            for s in slots:
                self.grid[s] = -1
                for i in range(E):
                    if tokens[s * E + i]:
                        freed.append((i, tokens[s * E + i]))
                        tokens[s * E + i] = 0
        for i, count in freed:
            self.give_back(i, count)
        if self.dp >= len(self.deck):
            self.over("deck")
        else:
            self.phase = REFILL

    def give_back(self, i: int, count: int) -> None:
        """Freed tokens go to the active player's matching Spent marker, else to the pool."""
        pi = self.player * E + i
        if self.markers[pi]:
            self.mtok[pi] += count
        else:
            self.pool[i] += count

    def end_turn(self) -> None:
        self.bonus, self.threshold, self.ignore, self.used = 0, COLLECT, False, 0
        if self.stalemate():
            self.over("stalemate")
            return
        self.turn += 1
        self.player = (self.player + 1) % self.n
        self.begin_turn()

    def begin_turn(self) -> None:
        self.phase = ABILITIES if self.ready() else ACTIVATION

    def over(self, reason: str) -> None:
        self.phase, self.reason, self.active = OVER, reason, []

    def stalemate(self) -> bool:
        """Nobody can ever collect again (RULES.md, interpretation 8): token-free cards, cards
        whose tokens a Study satisfies, Unbind freeing every card, Tide arranging token-free
        cards with the deck top, Wildfire and Sanctuary, as the engine judges it."""
        free = [0] * E
        bound = []
        for s in range(SIZE):
            c = self.grid[s]
            if c >= 0:
                here = self.tokens[s * E:(s + 1) * E]
                if any(here):
                    bound.append((c, here))
                else:
                    free[c] += 1
        unlocked = [{k for k in range(POWERS) if self.unlocked(q, k)} for q in range(self.n)]
        anyone = set().union(*unlocked)
        if UNBIND in anyone:
            for c, _ in bound:
                free[c] += 1
            bound = []
        if self.dp < len(self.deck) and TIDE in anyone:
            room = sum(free)
            free[self.deck[self.dp]] += 1
            free = [min(f, room) for f in free]
        for q, ks in enumerate(unlocked):
            # 3 activations (4 with Spark) always reach a threshold of 2 (1 with Wildfire).
            need = 1 if WILDFIRE in ks else COLLECT
            study = self.study[q * E:(q + 1) * E]
            counts = free[:]
            for c, here in bound:
                if SANCTUARY in ks or all(h <= x for h, x in zip(here, study)):
                    counts[c] += 1
            if max(counts) >= need:
                return False
        return True


_KEYS = [(ELEMENTS[k // 2], "major" if k & 1 else "minor") for k in range(POWERS)]


def action_dict(a: Action) -> dict[str, Any]:
    """The engine's dict form of a model action (``Action.to_dict``)."""
    kind = a[0]
    if kind == END:
        return {"type": "end_phase"}
    if kind == PLACE:
        return {"type": "place_token", "slot": a[1], "element": ELEMENTS[a[2]],
                "source": SOURCES[a[3]]}
    if kind == POWER:
        element, tier = _KEYS[a[1]]
        return {"type": "use_power", "element": element, "tier": tier, "targets": list(a[2])}
    return {"type": ("activate", "deactivate", "", "refill")[kind], "slot": a[1]}


def random_game(rng: random.Random) -> int:
    """One whole game of uniformly random legal play (2 players); returns its action count."""
    game = Mini(rng.randrange(2**31))
    n = 0
    while game.phase != OVER:
        game.apply(rng.choice(game.legal()))
        n += 1
    return n
