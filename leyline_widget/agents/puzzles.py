"""Learn from your mistakes: a review's mistakes and blunders set as puzzles.

Each move of a seat's review (:class:`~leyline_widget.agents.analysis.Review`, or its
``to_dict()`` as a replay stores it) judged a ``mistake`` or a ``blunder`` becomes a puzzle:
the position before it, from that seat's view, "find a better move". Any move within
:data:`ACCEPT` cards of the best solves it. A move is valued from the review's own options
(a Phase 2 move counts as the best plan holding it); a move none of them holds (an
equivalent card of the same group, a lone activation, another target for a swap) is valued
by a search of that decision from the seat's knowledge, against that search's own best.

Nothing here names a card: the page shows the answer after the guess, on the step the
recorded move led to, where the review's reason was worded.

>>> from leyline_widget import Game, Replay, analyse
>>> game = Game.new(players=2, seed=4)
>>> for _ in range(4):
...     _ = game.apply(game.legal_actions()[-1])   # pass, pass, ...
>>> review = analyse(Replay.from_game(game), player=0, budget=8).to_dict()
>>> [p.step for p in puzzles_of(review)]
[0]
>>> judge(Replay.from_game(game).game_at(0), review["moves"][0], game.actions[0]).solved
False
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.actions import Action, EndPhase
from ..core.game import Game, visible_events
from ..core.knowledge import Knowledge
from .expert import search

__all__ = ["ACCEPT", "PUZZLE_VERDICTS", "Judged", "Puzzle", "judge", "puzzles_of"]

#: A move within this many cards of the best solves a puzzle.
ACCEPT = 0.3
#: The verdicts set as puzzles.
PUZZLE_VERDICTS = ("mistake", "blunder")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the decision at ``step`` (the action's 0-based index; the page's move
    ``step + 1``) of ``seat``, judged ``verdict`` for ``loss`` cards."""

    step: int
    seat: int
    verdict: str
    loss: float


@dataclass(frozen=True)
class Judged:
    """A guess at a puzzle: ``solved`` when it is within :data:`ACCEPT` cards of the best,
    and the cards it gives up (``loss``)."""

    solved: bool
    loss: float


def puzzles_of(review: Mapping[str, Any]) -> list[Puzzle]:
    """The puzzles of a review (``Review.to_dict()``): its mistakes and blunders, in order."""
    seat = int(review["player"])
    return [Puzzle(int(m["step"]), seat, str(m["verdict"]), float(m["loss"]))
            for m in review.get("moves", []) if m.get("verdict") in PUZZLE_VERDICTS]


def _option_value(game: Game, move: Mapping[str, Any], guess: Action) -> float | None:
    g = guess.to_dict()
    options: Sequence[Mapping[str, Any]] = move.get("options") or []
    if game.phase.value == "activation":
        if isinstance(guess, EndPhase):
            # Ending now keeps the active cards and activates nothing more: the plan that
            # neither activates nor deactivates a card.
            values = [o["value"] for o in options
                      if all(a["type"] == "end_phase" for a in o["actions"])]
        else:
            values = [o["value"] for o in options if g in o["actions"]]
    else:
        values = [o["value"] for o in options if o["actions"] and o["actions"][0] == g]
    return max(values) if values else None


def judge(game: Game, move: Mapping[str, Any], guess: Action, seed: int = 0,
          budget: int = 24) -> Judged:
    """Judge ``guess`` at the puzzle of ``move`` (one move of a review's dict), ``game`` being
    the position before it. ``guess`` must be legal there."""
    # The yardstick is the review's best move (its verdicts were measured against it).
    best = _option_value(game, move, Action.from_dict(move["best"]))
    value = _option_value(game, move, guess)
    if guess.to_dict() == move["played"]:
        loss = float(move["loss"])
    elif best is not None and value is not None:
        loss = max(0.0, best - value)
    else:
        seat = game.active_player
        fold = Knowledge(seat)
        fold.observe(visible_events(game.events_since(0), seat))
        legal = game.legal_actions()
        ev = search(game.observation(seat), dict(fold.known), legal, game.rules, seat,
                    random.Random(f"puzzle:{seed}:{game.step}"), budget, all_options=True,
                    reply=True)
        top = max(ev.value_of(a) for a in legal)
        loss = max(0.0, top - ev.value_of(guess))
    return Judged(loss <= ACCEPT, loss)
