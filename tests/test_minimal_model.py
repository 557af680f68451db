"""The benchmarks' minimal model (benchmarks/minimal.py) is the same game as the engine.

The engine's speed is judged against that model (benchmarks/bench_engine.py, issue 24), which
means something only if the model plays Leyline in full: every phase, the eight default
powers with their targets, the three token sources, refill, the stalemate test and the end of
the deck. So the two play the same random games side by side, choosing by index with one
random generator each, seeded alike, and must offer the same legal actions in the same order
at every step, in the same phase and seat, and end with the same scores and reason.
"""

from __future__ import annotations

import random
from typing import Any

from benchmarks.minimal import (
    BINDING,
    COLLECT,
    ELEMENTS,
    PER_ELEMENT,
    PHASES,
    SIZE,
    TOKENS,
    Action,
    E,
    Mini,
    action_dict,
)
from leyline_widget import Game
from leyline_widget.core.actions import Action as EngineAction
from leyline_widget.core.actions import PlaceToken, UsePower

_AS_ENGINE: dict[Action, EngineAction] = {}


def _as_engine(a: Action) -> EngineAction:
    """The engine's action equal to the model's ``a``, read from its dict form (kept: the
    same few hundred actions come back at every step)."""
    found = _AS_ENGINE.get(a)
    if found is None:
        found = _AS_ENGINE[a] = EngineAction.from_dict(action_dict(a))
    return found


def _choose(rng: random.Random, legal: list[EngineAction], binder: bool) -> int:
    """An index into ``legal``: uniform, or for a ``binder`` mostly a token or a power when
    one is legal (uniform play rarely binds the grid enough for the subtler stalemates: every
    pair locked for one player but not for another, or freed only by Unbind, Tide, Sanctuary
    or Wildfire)."""
    if binder and rng.random() < 0.9:
        keen = [k for k, a in enumerate(legal) if isinstance(a, (PlaceToken, UsePower))]
        if keen:
            return keen[rng.randrange(len(keen))]
    return rng.randrange(len(legal))


def _random_position(rng: random.Random) -> dict[str, Any]:
    """A random Binding-phase position of two players (``Game.position`` form).

    Half of them lock the grid: three elements that neither Study holds bind every card but
    up to three with all their tokens, and the fourth element's Study unlocks its Minor or
    Major power or not, so that whether anyone can ever collect again turns on the free
    cards, the deck top and that power (Unbind, Tide, Sanctuary, Wildfire...). The others
    have Studies of up to six of an element and tokens spread over cards, marker stacks and
    the pool. The deck is sometimes cut short (the cards below go to the Studies)."""
    cards = [c for c in range(E) for _ in range(PER_ELEMENT)]
    rng.shuffle(cards)
    grid, rest = cards[:SIZE], cards[SIZE:]
    lock = set(rng.sample(range(E), 3)) if rng.random() < 0.5 else set()
    study = [[0] * E for _ in range(2)]
    markers = [[0] * E for _ in range(2)]
    for p in range(2):
        for i in range(E):
            want = 0 if i in lock else rng.choice((0, 2, 5, 6) if lock else (0, 0, 1, 2, 3, 5, 6))
            for row, n in ((study, want), (markers, rng.choice((0, 0, 1)))):
                take = min(n, rest.count(i))
                for _ in range(take):
                    rest.remove(i)
                row[p][i] = take
    if rng.random() < 0.3:  # a short deck: the cards below go to the Studies
        keep = rng.randrange(len(rest) + 1)
        for c in rest[keep:]:
            study[rng.randrange(2)][c] += 1
        del rest[keep:]
    tokens = [[0] * E for _ in range(SIZE)]
    stacks = [[0] * E for _ in range(2)]
    pool = [0] * E
    bound = rng.sample(range(SIZE), SIZE - rng.randrange(4))
    for i in range(E):
        for _ in range(TOKENS if i in lock else rng.randrange(TOKENS + 1)):
            owners = [p for p in range(2) if markers[p][i]]
            where = rng.random()
            if i in lock:
                free = [s for s in bound if not any(tokens[s])]
                tokens[rng.choice(free or bound)][i] += 1
            elif where < 0.8:
                tokens[rng.randrange(SIZE)][i] += 1
            elif where < 0.9 and owners:
                stacks[rng.choice(owners)][i] += 1
            else:
                pool[i] += 1

    def named(row: list[int]) -> dict[str, int]:
        return {ELEMENTS[i]: n for i, n in enumerate(row) if n}

    return {"players": 2, "phase": "binding", "grid": [ELEMENTS[c] for c in grid],
            "deck": [ELEMENTS[c] for c in rest], "tokens": [named(t) for t in tokens],
            "study": [named(r) for r in study], "markers": [named(r) for r in markers],
            "marker_tokens": [named(r) for r in stacks], "pool": named(pool)}


def _mini_at(position: dict[str, Any]) -> Mini:
    """The model at a Binding-phase position of ``_random_position``."""
    mini = Mini.__new__(Mini)
    mini.n = 2
    mini.deck = [ELEMENTS.index(c) for c in position["deck"]]
    mini.dp = 0
    mini.grid = [ELEMENTS.index(c) for c in position["grid"]]
    mini.active = []

    def flat(rows: list[dict[str, int]]) -> list[int]:
        return [row.get(el, 0) for row in rows for el in ELEMENTS]

    mini.tokens = flat(position["tokens"])
    mini.study = flat(position["study"])
    mini.markers = flat(position["markers"])
    mini.mtok = flat(position["marker_tokens"])
    mini.pool = flat([position["pool"]])
    mini.supply = [TOKENS - mini.pool[i] - sum(mini.tokens[i::E]) - sum(mini.mtok[i::E])
                   for i in range(E)]
    mini.phase, mini.turn, mini.player = BINDING, 1, 0
    mini.bonus, mini.threshold, mini.ignore, mini.used = 0, COLLECT, False, 0
    mini.reason = None
    return mini


def _play_both(seed: int, binder: bool = False, start: bool = False,
               limit: int | None = None) -> set[str]:
    """Play one random game on both, dealt from ``seed`` or, with ``start``, from a random
    position, to its end or for ``limit`` actions; returns what it went through: action
    types, powers used, token sources and its end reason."""
    rng = random.Random(seed)
    if start:
        position = _random_position(rng)
        game, mini = Game.from_position(position), _mini_at(position)
    else:
        deal = rng.randrange(2**31)
        game, mini = Game.new(players=2, seed=deal), Mini(deal)
    steps, seen = 0, set()
    while True:
        legal = game.legal_actions()
        ours = mini.legal()
        assert legal == [_as_engine(a) for a in ours], (seed, steps)
        assert (game.phase.value, game.active_player, game.turn) == (
            PHASES[mini.phase], mini.player, mini.turn), (seed, steps)
        if game.is_over or steps == limit:
            break
        k = _choose(rng, legal, binder)
        data = legal[k].to_dict()
        seen.add(data["type"])
        if "tier" in data:
            seen.add(f"{data['element']}:{data['tier']}")
        if "source" in data:
            seen.add(data["source"])
        game.apply(legal[k])
        mini.apply(ours[k])
        steps += 1
    assert game.scores() == mini.scores(), seed
    assert game.end_reason == mini.reason, seed
    seen.add(f"end:{game.end_reason}")
    return seen


def test_the_minimal_model_plays_the_engines_game_step_for_step() -> None:
    seen: set[str] = set()
    for seed in range(100):
        seen |= _play_both(seed)
    # The games must reach every rule the model carries, or the comparison proves little.
    wanted = {"activate", "deactivate", "end_phase", "refill", "place_token", "use_power",
              "supply", "marker", "pool", "end:deck", "end:stalemate"}
    wanted |= {f"{el}:{tier}" for el in ELEMENTS for tier in ("minor", "major")}
    assert wanted <= seen, sorted(wanted - seen)


def test_the_minimal_model_matches_from_bound_positions_and_keen_binders() -> None:
    """Uniform play from the deal rarely reaches the subtler stalemates (a pair locked for one
    player and not the other, or freed only by Unbind, Tide, Sanctuary or Wildfire): games
    from random bound positions, and players keen to bind, do."""
    seen: set[str] = set()
    for seed in range(300):
        seen |= _play_both(seed, binder=seed % 2 == 0, start=True, limit=60)
    for seed in range(300, 330):
        seen |= _play_both(seed, binder=True)
    assert {"end:deck", "end:stalemate"} <= seen
