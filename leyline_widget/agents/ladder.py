"""Bot ratings: a round-robin ladder with Bradley-Terry ratings and 95% intervals.

Every pair of entrants plays ``games`` two-seat games, seats alternated so that the first seat's
edge cancels out. A win scores 1, a shared victory 1/2. The Bradley-Terry model gives each
entrant a strength ``s`` with ``P(a beats b) = s_a / (s_a + s_b)``; ratings are on the Elo scale
(``400 * log10(s)``), anchored so the first entrant (random play, by default) is 0. The 95%
intervals come from a seeded parametric bootstrap of each pair's result (from its rate, smoothed
by half a win and half a loss), so the same seed gives the same table.

>>> table = ladder(["random", "greedy"], games=20, seed=1, jobs=1)
>>> [r.name for r in table.rows]
['greedy', 'random']
>>> table.rows[0].rating > 0 == table.rows[1].rating
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..core.echo import quote
from ..core.rules import Rules
from .balance import wilson_interval
from .bots import BOT_KINDS
from .simulate import SeatSpec, parse_seat, points_of, seat_label, simulate

__all__ = ["DEFAULT_ENTRANTS", "Ladder", "LadderRow", "bradley_terry", "ladder"]

#: The ladder of the coach issue: random; memory at capacities 2, 4, 6; greedy; and, when the
#: expert bot is installed, the expert at two budgets.
DEFAULT_ENTRANTS: tuple[SeatSpec, ...] = (
    "random", ("memory", {"capacity": 2}), ("memory", {"capacity": 4}),
    ("memory", {"capacity": 6}), "greedy",
)
_EXPERT_BUDGETS = ("quick", "default")

_BOOTSTRAP = 200


def default_entrants() -> list[SeatSpec]:
    """:data:`DEFAULT_ENTRANTS`, plus the expert at two budgets when that bot exists."""
    out: list[SeatSpec] = list(DEFAULT_ENTRANTS)
    if "expert" in BOT_KINDS:
        out += [("expert", {"budget": b}) for b in _EXPERT_BUDGETS]
    return out


@dataclass(frozen=True)
class LadderRow:
    """One entrant: its rating and 95% interval (Elo scale), games played and score share."""

    name: str
    rating: float
    low: float
    high: float
    games: int
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rating": round(self.rating, 1), "low": round(self.low, 1),
                "high": round(self.high, 1), "games": self.games, "score": round(self.score, 4)}


@dataclass(frozen=True)
class Ladder:
    """The ladder's result: ``rows`` best first, and the head-to-head scores."""

    rows: tuple[LadderRow, ...]
    #: (a, b) -> (points of a against b, games between them)
    pairs: dict[tuple[str, str], tuple[float, int]]
    games_per_pair: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {"rows": [r.to_dict() for r in self.rows], "games_per_pair": self.games_per_pair,
                "seed": self.seed,
                "pairs": [{"a": a, "b": b, "points": p, "games": n}
                          for (a, b), (p, n) in sorted(self.pairs.items())]}

    def to_frame(self) -> Any:
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self.rows])

    def to_markdown(self) -> str:
        lines = ["| rank | bot | rating | 95% interval | games | score |",
                 "| ---: | --- | ---: | --- | ---: | ---: |"]
        for i, r in enumerate(self.rows, 1):
            lines.append(f"| {i} | {r.name} | {r.rating:.0f} | {r.low:.0f} to {r.high:.0f} | "
                         f"{r.games} | {100 * r.score:.1f}% |")
        return "\n".join(lines) + "\n"

    def plot(self, ax: Any = None) -> Any:
        """The ratings with their intervals as a horizontal error-bar chart (matplotlib)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(self.rows)))
        rows = list(reversed(self.rows))
        ys = range(len(rows))
        ax.errorbar([r.rating for r in rows], ys,
                    xerr=[[r.rating - r.low for r in rows], [r.high - r.rating for r in rows]],
                    fmt="o", capsize=4)
        ax.set_yticks(list(ys), [r.name for r in rows])
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel("rating (Elo scale, 95% interval)")
        ax.set_title(f"Leyline bot ladder ({self.games_per_pair} games a pair)")
        return ax


def bradley_terry(names: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]],
                  iterations: int = 500) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm (Hunter 2004), as Elo-scale ratings with
    the first name at 0.

    ``results[(a, b)] = (points of a, games)`` for each played pair. A prior of half a win and
    half a loss against every other entrant keeps an unbeaten or winless entrant finite.

    >>> r = bradley_terry(["a", "b"], {("a", "b"): (30.0, 40)})
    >>> round(r["b"] - r["a"])   # 30 of 40 is 75%: about 190 Elo, shrunk a little by the prior
    -185
    """
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for (a, b), (points, n) in results.items():
        i, j = idx[a], idx[b]
        wins[i] += points
        wins[j] += n - points
        games[i][j] += n
        games[j][i] += n
    for i in range(k):  # the prior
        for j in range(k):
            if i != j:
                wins[i] += 0.5
                games[i][j] += 1.0
    s = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (s[i] + s[j]) for j in range(k) if j != i)
            new.append(wins[i] / denom if denom else s[i])
        total = sum(new)
        s = [v * k / total for v in new]
    base = math.log10(s[0])
    return {n: 400.0 * (math.log10(s[idx[n]]) - base) for n in names}


def _pair_points(rules: Rules, a: SeatSpec, b: SeatSpec, name_a: str, games: int, seed: int,
                 executor: Executor | None, jobs: int | None,
                 least: int | None = None) -> list[float]:
    """The points of ``a`` in each of ``games`` games against ``b``, seats alternated: 1 for a
    win, 1/k for a victory shared by k, 0 for a loss.

    With ``least``, the games come in rounds of ``least`` (seats alternated in each), and
    the pair stops once the 95% interval of its score leaves no doubt who is stronger (it
    excludes one half), or at ``games``."""
    if least is None or least >= games:
        rows = simulate(rules, [a, b], games=games, seed=seed, rotate=True, executor=executor,
                        jobs=jobs)
        return [points_of(row, name_a) for row in rows]
    points: list[float] = []
    rounds = 0
    while len(points) < games:
        n = min(least, games - len(points))
        rows = simulate(rules, [a, b], games=n, seed=seed * 1_000 + rounds, rotate=True,
                        executor=executor, jobs=jobs)
        rounds += 1
        points += [points_of(row, name_a) for row in rows]
        low, high = wilson_interval(sum(points), len(points))
        if low > 0.5 or high < 0.5:
            break
    return points


def ladder(entrants: Sequence[SeatSpec] | None = None, games: int = 40, seed: int = 1,
           rules: Rules | None = None, *, executor: Executor | None = None,
           jobs: int | None = None,
           progress: Callable[[int, int], None] | None = None,
           least: int | None = None) -> Ladder:
    """Play a round robin among ``entrants`` (bot kinds or ``(kind, params)``; default
    :func:`default_entrants`), ``games`` games a pair with seats alternated, and rate them.

    ``least`` (an even number >= 2) plays each pair in rounds of that many games and stops
    it once its 95% Wilson interval excludes a score of one half: a lopsided pair is settled
    in a round or two, and ``games`` is the most a close pair plays (``games_per_pair``).
    The table's games per entrant show what was played.

    >>> table = ladder(["random", "greedy"], games=2, seed=1, jobs=1)
    >>> [(row.name, row.games) for row in table.rows]      # best first
    [('greedy', 2), ('random', 2)]
    """
    specs = default_entrants() if entrants is None else list(entrants)
    parsed = [parse_seat(s) for s in specs]
    names = [seat_label(k, p) for k, p in parsed]
    if len(set(names)) != len(names):
        raise ValueError(f"entrants must differ, got {', '.join(names)}")
    if len(names) < 2:
        raise ValueError("a ladder needs at least two entrants")
    if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= 100_000:
        raise ValueError("games (per pair) must be a whole number from 2 to 100000, "
                         f"got {quote(games)}")
    if least is not None and (isinstance(least, bool) or not isinstance(least, int)
                              or least < 2 or least % 2):
        raise ValueError(f"least (games a round) must be an even whole number >= 2, "
                         f"got {quote(least)}")
    rules = Rules.default() if rules is None else rules
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    per_game: dict[tuple[str, str], list[float]] = {}
    # Each pair on simulate's own local pool unless an executor is given: its workers are
    # forked for the pair in about a millisecond, and take small chunks, so a pair of slow,
    # uneven bots (the expert) keeps both busy to its end.
    for done, (i, j) in enumerate(pairs):
        per_game[(names[i], names[j])] = _pair_points(
            rules, specs[i], specs[j], names[i], games, seed * 1_000 + done, executor, jobs,
            least)
        if progress is not None:
            progress(done + 1, len(pairs))
    totals = {pair: (sum(p), len(p)) for pair, p in per_game.items()}
    ratings = bradley_terry(names, totals)
    rng = random.Random(f"ladder:{seed}")
    samples: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(_BOOTSTRAP):
        resampled = {}
        for pair, (pts, count) in totals.items():
            # A parametric bootstrap from the smoothed rate, so that a pair won 10 out of 10
            # still carries the doubt 10 games leave.
            rate = (pts + 0.5) / (count + 1)
            resampled[pair] = (float(sum(rng.random() < rate for _ in range(count))), count)
        for n, r in bradley_terry(names, resampled, iterations=200).items():
            samples[n].append(r)
    out = []
    for n in names:
        got = [(pts if a == n else g - pts, g) for (a, b), (pts, g) in totals.items()
               if n in (a, b)]
        ordered = sorted(samples[n])
        # The bootstrap's spread around the estimate: the resampled fits lean towards the
        # middle (the smoothed rates and the prior both shrink them), so their percentiles
        # are moved by the distance from their median to the estimate.
        shift = ratings[n] - statistics.median(ordered)
        low = ordered[int(0.025 * (len(ordered) - 1))] + shift
        high = ordered[math.ceil(0.975 * (len(ordered) - 1))] + shift
        played = sum(g for _, g in got)
        out.append(LadderRow(n, ratings[n], low, high, played,
                             sum(p for p, _ in got) / played))
    out.sort(key=lambda r: -r.rating)
    return Ladder(tuple(out), totals, games, seed)
