"""Engine speed: random legal play against a minimal model of the same game, the OpenSpiel
adapter against the bare engine, and clone().

Targets (issue 24), each a ratio measured in the same run:

- engine random play at least 0.6x a minimal pure-Python model of the same game
  (benchmarks/minimal.py; tests/test_minimal_model.py proves it is the same game), under the
  same random loop;
- the OpenSpiel adapter (``pyspiel.load_game("python_leyline")``) at most 1.5x the bare
  engine's cost per player action, random play on both;
- at least 200k clones/s.

OpenSpiel's Python Kuhn poker is printed for information only: issue 24 retired the earlier
targets against it (issue 2: 2x; issue 13: 1.5x). Loops are timed in CPU seconds, in
interleaved slices (the machine is shared).

Where the adapter's extra cost goes, per player action, counted in instructions under
callgrind (noise-free with ``PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1``; 2026-12-04, 10 games,
5,157 player actions, before the engine's last speed-up): the bare engine 40.1k; numbering the
legal list and decoding the choice about 12.5k (``+ action numbers`` prints its share);
pyspiel's ``apply_action`` (the adapter's check of the number, the C++ call, its calls back to
``current_player`` and ``_apply_action``) about 12.5k; the state's own bookkeeping 5.8k; the
deal's 48 chance nodes 3.4k: 1.81x in all. ``pyspiel floor`` times a state that does nothing
(a fixed legal list of 8, the number checked, pyspiel's ``apply_action``): 9k instructions, and
by time ``lowest reachable`` prints about 1.3x before any numbering, bookkeeping or deal. That
is why issue 24's 1.5x cannot be met by a Python game on pyspiel: the floor and the numbering
alone come to about 1.5-1.6x, and a faster engine raises every such ratio. For scale,
OpenSpiel's Python Kuhn poker, whose rules are a few lines, spends more per action through
pyspiel than the bare engine spends on a whole Leyline action.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks import minimal
from leyline_widget import Game, Rules
from leyline_widget.interop.encoding import ActionSpace

SECONDS = 3.0
ROUNDS = 5


def _slice(run: Callable[[random.Random], int], rng: random.Random, seconds: float) -> float:
    """Actions per CPU second of ``run`` (which returns the actions it took) over one slice.
    CPU time: on a shared machine, the moments this process waits for a core are not its own."""
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        count += run(rng)
    return count / (time.process_time() - start)


def _rates(runs: list[Callable[[random.Random], int]],
           seconds: float = SECONDS) -> list[float]:
    """The best slice of each run, the runs' slices interleaved round by round so that a busy
    spell of the machine hits them alike."""
    rngs = [random.Random(0) for _ in runs]
    best = [0.0] * len(runs)
    for _ in range(ROUNDS):
        for k, run in enumerate(runs):
            best[k] = max(best[k], _slice(run, rngs[k], seconds / ROUNDS))
    return best


def leyline_game(rng: random.Random) -> int:
    """One whole game of uniformly random legal play (2 players); returns its action count."""
    game = Game.new(players=2, seed=rng.randrange(2**31))
    n = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def leyline_clones() -> float:
    """clone() calls per second over positions sampled from random games."""
    rng = random.Random(1)
    positions = []
    for _ in range(20):
        game = Game.new(players=2, seed=rng.randrange(2**31))
        for _ in range(rng.randrange(1, 120)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        positions.append(game)
    best = 0.0
    for _ in range(3):
        count, start = 0, time.process_time()
        while time.process_time() - start < SECONDS / 3:
            for g in positions:
                g.clone()
            count += len(positions)
        best = max(best, count / (time.process_time() - start))
    return best


_RULES = Rules.default()
_CARDS = tuple(el for el in _RULES.elements for _ in range(_RULES.cards_per_element))
_SPACE = ActionSpace(_RULES)


def leyline_dealt_game(rng: random.Random) -> int:
    """As :func:`leyline_game`, the deck shuffled by ``rng`` and given to ``Game.new`` as the
    adapter's chance nodes give it: the bare engine's side of the adapter's measure."""
    deck = list(_CARDS)
    rng.shuffle(deck)
    game = Game.new(players=2, deck=deck)
    n = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def leyline_numbered_game(rng: random.Random) -> int:
    """As :func:`leyline_dealt_game`, each step's legal list numbered and the chosen number
    decoded by the adapters' :class:`~leyline_widget.interop.encoding.ActionSpace`: the share of
    the adapter's cost that is the numbering (the rest is pyspiel's and the deal's)."""
    deck = list(_CARDS)
    rng.shuffle(deck)
    game = Game.new(players=2, deck=deck)
    numbers, actions = _SPACE.numbers, _SPACE.actions
    n = 0
    while not game.is_over:
        game.apply(actions[rng.choice(numbers(game.legal_actions()))])
        n += 1
    return n


def openspiel_game() -> Callable[[random.Random], int] | None:
    """OpenSpiel's Python Kuhn poker under the same random loop (information only)."""
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  registers the Python game
    except ImportError:
        return None
    return _spiel_loop(pyspiel.load_game("python_kuhn_poker"), count_chance=True)


def openspiel_leyline() -> Callable[[random.Random], int] | None:
    """Random play through the OpenSpiel adapter as OpenSpiel's examples play a game, counting
    player actions only: each chance node (the deal, card by card) is sampled from
    ``chance_outcomes``; its cost is part of the game's, as the bare engine's deal (a shuffle
    and ``Game.new``) is part of :func:`leyline_dealt_game`. Both sides do the same work per
    player action: the legal list (numbers here, actions there), a uniform choice and the
    engine's checked ``apply``; the adapter adds the numbering and pyspiel's own bookkeeping
    (its ``apply_action`` asks the state who moves and records the history)."""
    try:
        import pyspiel

        import leyline_widget.interop.openspiel  # noqa: F401  registers python_leyline
    except ImportError:
        return None
    return _spiel_loop(pyspiel.load_game("python_leyline", {"players": 2}), count_chance=False)


def pyspiel_floor() -> Callable[[random.Random], int] | None:
    """pyspiel's own cost per player action, with nothing of Leyline in it: a state of the
    ``python_leyline`` game whose legal list is a fixed one of 8 numbers (a Leyline step lists
    about 8 actions), whose ``apply_action`` checks the number as the adapter must (a bool, a
    float or a number out of range is refused with a ValueError) and whose callbacks do
    nothing, played by the same random loop. No adapter can cost less than the bare engine
    plus this (and the deal's chance nodes): it bounds the ratio issue 24 asks for."""
    try:
        import pyspiel

        import leyline_widget.interop.openspiel  # noqa: F401  registers python_leyline
    except ImportError:
        return None
    game = pyspiel.load_game("python_leyline", {"players": 2})
    record = pyspiel.State.apply_action
    numbers = list(range(8))
    top = game.num_distinct_actions()

    class Idle(pyspiel.State):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            return 0

        def is_terminal(self) -> bool:
            return self.moves >= 100

        def legal_actions(self, player: int | None = None) -> list[int]:
            return numbers[:]

        def apply_action(self, action: Any) -> None:
            if type(action) is not int or not 0 <= action < top:
                raise ValueError(f"action must be an action number, got {action!r}")
            record(self, action)

        def _apply_action(self, action: int) -> None:
            self.moves += 1

    def run(rng: random.Random) -> int:
        state = Idle()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return int(state.moves)

    return run


def _spiel_loop(game: Any, count_chance: bool) -> Callable[[random.Random], int]:
    def run(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
                n += count_chance
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n

    return run


def main() -> None:
    ours, model = _rates([leyline_game, minimal.random_game])
    print(f"leyline random play      {ours:12,.0f} actions/s (legal_actions + apply, 2 players)")
    print(f"minimal model            {model:12,.0f} actions/s (benchmarks/minimal.py, same loop)")
    print(f"ratio                    {ours / model:12.2f}x   (target >= 0.6x, issue 24)")
    adapter = openspiel_leyline()
    kuhn = openspiel_game()
    if adapter is None or kuhn is None:
        print("open_spiel not installed (pip install '.[bench]'): no adapter or Kuhn figures")
    else:
        floor = pyspiel_floor()
        assert floor is not None
        bare, numbered, spiel, idle = _rates([leyline_dealt_game, leyline_numbered_game, adapter,
                                              floor])
        print(f"bare engine, dealt deck  {bare:12,.0f} player actions/s")
        print(f" + action numbers        {numbered:12,.0f} player actions/s "
              f"({bare / numbered:.2f}x: the legal list numbered, the choice decoded)")
        print(f"openspiel python_leyline {spiel:12,.0f} player actions/s (chance nodes timed too)")
        print(f"cost per action          {bare / spiel:12.2f}x   the bare engine's "
              "(target <= 1.5x, issue 24)")
        print(f"pyspiel floor            {idle:12,.0f} actions/s (a state that does nothing: "
              f"the legal list of 8, the number checked, pyspiel's apply_action)")
        print(f"lowest reachable         {1 + bare / idle:12.2f}x   the bare engine's (bare "
              "engine + pyspiel's floor, before numbering, bookkeeping or the deal)")
        (theirs,) = _rates([kuhn])
        print(f"openspiel kuhn (python)  {theirs:12,.0f} actions/s (information only: issue 24 "
              "retired the targets against it)")
    clones = leyline_clones()
    print(f"leyline clone()          {clones:12,.0f} clones/s   (target >= 200,000)")


if __name__ == "__main__":
    main()
