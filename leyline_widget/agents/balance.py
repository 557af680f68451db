"""The game-design lab's report: is a ruleset fair, and which known exploits does it leave open?

:func:`balance_report` plays ``games`` bot games with the seating rotated (each bot sits first
equally often), then measures, each with a 95% interval:

* the first seat's win rate (Wilson interval) against the rate it would have if seats did not
  matter (``fair_rate``: a shared victory counts as a win for every winner, so with ``n`` seats
  the fair rate is the mean over games of winners / n);
* the first seat's score margin over the best other seat (a normal interval on the mean);
* game length in turns, and the end reasons;
* probes for the exploits the simulations found:
  - ``scouting``: the same bot with and without deactivate-scouting (``scout=True`` uses the
    seed's Deactivate refund to look at cards for free), head to head, seats alternated: the
    scout's points share (win 1, shared win 1/2) minus 1/2. The bot is a MemoryBot (the seats'
    first one, else capacity 3): perfect memory leaves nothing to scout;
  - ``power_loops``: how often Spark and Wildfire decide a game: the sole winner's margin over
    the runner-up is no larger than the cards only those powers let it collect (lone cards
    under Wildfire; cards beyond the turn's activations under Spark): without them it would
    not have won outright;
  - ``stalemates`` and ``idle_ends``: the share of games ended by a stalemate, or by the idle
    round limit.

Every game draws its seeds from ``(seed, probe, game index)``, so the report is the same for a
seed whatever executor ran it.

>>> report = balance_report(Rules.default(), ["greedy", "random"], games=6, seed=1, jobs=1,
...                         probe_games=4)
>>> report.games, sum(report.end_reasons.values())
(6, 6)
>>> low, high = report.first_seat_ci
>>> 0.0 <= low <= report.first_seat_win_rate <= high <= 1.0
True
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..core.echo import quote
from ..core.game import END_REASONS
from ..core.rules import Rules
from .simulate import (
    MAX_ACTIONS,
    Row,
    SeatSpec,
    parse_seat,
    points_of,
    seat_label,
    simulate,
    variant_label,
)

__all__ = ["BalanceReport", "Probe", "balance_report", "mean_interval", "wilson_interval"]

#: The scouting probe's bot when the report's seats have no MemoryBot.
SCOUT_MEMORY: dict[str, Any] = {"capacity": 3}

#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 0:
        raise ValueError(f"trials must be a whole number >= 0, got {quote(trials)}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be from 0 to {trials}, got {quote(successes)}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal 95% interval: ``(mean, low, high)``.

    >>> mean_interval([1.0, 3.0])
    (2.0, 0.0400360155, 3.9599639845)
    """
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, round(mean - half, 10), round(mean + half, 10)


@dataclass(frozen=True)
class Probe:
    """One exploit probe: an effect size with its 95% interval, over ``games`` games.

    ``effect`` is a rate (or, for scouting, a share minus 1/2); ``low`` and ``high`` bound it.
    """

    name: str
    effect: float
    low: float
    high: float
    games: int
    meaning: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "effect": self.effect, "low": self.low, "high": self.high,
                "games": self.games, "meaning": self.meaning}


@dataclass(frozen=True)
class BalanceReport:
    """What :func:`balance_report` found. Rates are shares of games, from 0 to 1.

    >>> report = balance_report(Rules.default(), ["random", "random"], games=4, seed=1, jobs=1,
    ...                         probes=False)
    >>> report.first_seat_win_rate, report.end_reasons
    (0.75, {'deck': 2, 'stalemate': 2})
    >>> print(report.to_markdown().splitlines()[0])
    ## Balance report: default
    """

    rules: Rules
    seats: tuple[str, ...]
    games: int
    seed: int
    first_seat_wins: int
    first_seat_win_rate: float
    first_seat_ci: tuple[float, float]
    fair_rate: float
    first_seat_margin: tuple[float, float, float]     # mean, low, high
    winning_margin: float                             # mean winner minus runner-up
    turns: tuple[float, float, float]                 # mean, low, high
    turns_range: tuple[int, int]
    end_reasons: dict[str, int]
    probes: dict[str, Probe] = field(default_factory=dict)

    @property
    def variant(self) -> str:
        """The ruleset's short label: "default", or the fields it changes.

        >>> from leyline_widget import Rules, balance_report
        >>> balance_report(Rules.default(), ["random", "random"], games=2, seed=1).variant
        'default'
        """
        return variant_label(self.rules)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of every figure."""
        return {
            "variant": self.variant, "rules": self.rules.to_dict(), "seats": list(self.seats),
            "games": self.games, "seed": self.seed,
            "first_seat_wins": self.first_seat_wins,
            "first_seat_win_rate": self.first_seat_win_rate,
            "first_seat_ci": list(self.first_seat_ci), "fair_rate": self.fair_rate,
            "first_seat_margin": list(self.first_seat_margin),
            "winning_margin": self.winning_margin,
            "turns": list(self.turns), "turns_range": list(self.turns_range),
            "end_reasons": dict(self.end_reasons),
            "probes": {k: p.to_dict() for k, p in self.probes.items()},
        }

    def to_markdown(self) -> str:
        """The report as a Markdown section: headline figures, end reasons, probes."""
        low, high = self.first_seat_ci
        m, ml, mh = self.first_seat_margin
        t, tl, th = self.turns
        lines = [
            f"## Balance report: {self.variant}",
            "",
            f"{self.games} games, seats {', '.join(self.seats)} (rotated each game), "
            f"seed {self.seed}.",
            "",
            "| measure | value | 95% interval |",
            "| --- | --- | --- |",
            f"| first-seat win rate | {self.first_seat_win_rate:.3f} | {low:.3f} to {high:.3f} |",
            f"| fair rate (seats exchangeable) | {self.fair_rate:.3f} | |",
            f"| first-seat score margin | {m:+.2f} | {ml:+.2f} to {mh:+.2f} |",
            f"| winning margin (mean) | {self.winning_margin:.2f} | |",
            f"| game length (turns) | {t:.1f} | {tl:.1f} to {th:.1f} "
            f"(range {self.turns_range[0]} to {self.turns_range[1]}) |",
            "",
            "End reasons: " + ", ".join(f"{k} {v}" for k, v in self.end_reasons.items()) + ".",
        ]
        if self.probes:
            lines += ["", "| probe | effect | 95% interval | games | meaning |",
                      "| --- | --- | --- | --- | --- |"]
            for p in self.probes.values():
                lines.append(f"| {p.name} | {p.effect:+.3f} | {p.low:+.3f} to {p.high:+.3f} | "
                             f"{p.games} | {p.meaning} |")
        verdict = "inside" if low <= self.fair_rate <= high else "outside"
        lines += ["", f"The fair rate {self.fair_rate:.3f} lies {verdict} the first seat's "
                      "interval."]
        return "\n".join(lines) + "\n"

    def plot(self, ax: Any = None) -> Any:
        """A bar chart of the first-seat rate and the probes with their intervals
        (matplotlib, an optional dependency); returns the Axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:  # pragma: no cover - matplotlib is in the dev extra
            raise ImportError("BalanceReport.plot() needs matplotlib: pip install matplotlib"
                              ) from None
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3))
        names = ["first seat - fair"] + [p.name for p in self.probes.values()]
        low, high = self.first_seat_ci
        gap = self.first_seat_win_rate - self.fair_rate
        values = [gap] + [p.effect for p in self.probes.values()]
        # Rounding can leave a bound a hair inside its estimate: bars never go negative.
        lows = [max(0.0, v) for v in [self.first_seat_win_rate - low]
                + [p.effect - p.low for p in self.probes.values()]]
        highs = [max(0.0, v) for v in [high - self.first_seat_win_rate]
                 + [p.high - p.effect for p in self.probes.values()]]
        ax.barh(names, values, xerr=[lows, highs], capsize=4, color="#6a8caf")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(self.variant)
        ax.set_xlabel("effect (share of games), 95% interval")
        return ax


def _first_seat(rows: Sequence[Row]) -> tuple[int, float, list[float]]:
    wins = sum(0 in r["winners"] for r in rows)
    fair = statistics.fmean(len(r["winners"]) / r["players"] for r in rows)
    margins = [r["scores"][0] - max(r["scores"][1:]) for r in rows if r["players"] > 1]
    return wins, fair, [float(m) for m in margins]


def _winning_margin(row: Row) -> int:
    ranked: list[int] = sorted(row["scores"], reverse=True)
    return ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0]


def _rate_probe(name: str, hits: int, games: int, meaning: str) -> Probe:
    low, high = wilson_interval(hits, games)
    return Probe(name, hits / games if games else 0.0, low, high, games, meaning)


def _power_loop(row: Row) -> bool:
    if len(row["winners"]) != 1 or row["players"] < 2:
        return False
    w = row["winners"][0]
    fire = row[f"power_cards_{w}"]
    return bool(fire) and _winning_margin(row) <= fire


def _scouting(rules: Rules, seats: Sequence[tuple[str, dict[str, Any]]], games: int, seed: int,
              run: dict[str, Any]) -> Probe:
    """The scout against the same bot without scouting, seats alternated. A bot with perfect
    memory (GreedyBot) knows every card it was shown, so scouting shows it nothing: the probe
    takes the report's first MemoryBot seat, or a MemoryBot of capacity 3."""
    kind, params = next(((k, p) for k, p in seats if k == "memory"), ("memory", SCOUT_MEMORY))
    plain = {**params, "scout": False}
    scout = {**params, "scout": True}
    rows = simulate(rules, [(kind, scout), (kind, plain)], games, seed, rotate=True, **run)
    label = seat_label(kind, scout)
    points = sum(points_of(r, label) for r in rows)
    low, high = wilson_interval(points, len(rows))
    return Probe("scouting", points / len(rows) - 0.5, low - 0.5, high - 0.5, len(rows),
                 f"{label}'s points share against {seat_label(kind, plain)} minus 1/2")


def balance_report(rules: Rules, seats: Sequence[SeatSpec], games: int, seed: int,
                   executor: Executor | None = None, *, jobs: int | None = None,
                   probes: bool = True, probe_games: int | None = None,
                   max_actions: int = MAX_ACTIONS) -> BalanceReport:
    """Play ``games`` games of ``rules`` between ``seats`` (rotated) and report on balance.

    ``seats`` takes any bot kind of :data:`~leyline_widget.agents.bots.BOT_KINDS` (or
    ``(kind, params)`` pairs), 2 to 4 of them. ``executor`` and ``jobs`` run the games as in
    :func:`~leyline_widget.agents.simulate.simulate` (a process pool, or a Dask client's
    executor). ``probes=False`` skips the scouting probe's extra games (the other probes come
    from the main games); ``probe_games`` is its game count (default ``games``).

    >>> from leyline_widget import Rules
    >>> rules = Rules.default().replace(deactivate_refund=False)
    >>> report = balance_report(rules, ["greedy", "greedy"], games=4, seed=1, jobs=1,
    ...                         probes=False)
    >>> report.games, 0 <= report.first_seat_ci[0] <= report.first_seat_ci[1] <= 1
    (4, True)
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence) or not (
            2 <= len(seats) <= 4):
        raise ValueError(f"a balance report needs 2 to 4 seats, got {quote(seats)}")
    parsed = [parse_seat(s) for s in seats]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {quote(games)}")
    if probe_games is None:
        probe_games = games
    if isinstance(probe_games, bool) or not isinstance(probe_games, int) or probe_games < 1:
        raise ValueError(f"probe_games must be a whole number >= 1, got {quote(probe_games)}")
    run: dict[str, Any] = {"executor": executor, "jobs": jobs, "max_actions": max_actions}
    rows = simulate(rules, parsed, games, seed, rotate=True, detail=True, **run)
    wins, fair, margins = _first_seat(rows)
    turns = [float(r["turns"]) for r in rows]
    reasons: dict[str, int] = {}
    for reason in (*END_REASONS, "action_cap"):
        count = sum(r["end_reason"] == reason for r in rows)
        if count:
            reasons[reason] = count
    found: dict[str, Probe] = {}
    if probes:
        # The probe's own seeds: a different stream from the main games.
        found["scouting"] = _scouting(rules, parsed, probe_games, seed * 7919 + 1, run)
    found["power_loops"] = _rate_probe(
        "power_loops", sum(_power_loop(r) for r in rows), len(rows),
        "share of games the sole winner would not have won without the cards only "
        "Spark or Wildfire let it collect")
    found["stalemates"] = _rate_probe("stalemates", reasons.get("stalemate", 0), len(rows),
                                      "share of games ended by a stalemate")
    found["idle_ends"] = _rate_probe("idle_ends", reasons.get("idle", 0), len(rows),
                                     "share of games ended by the idle round limit")
    return BalanceReport(
        rules=rules, seats=tuple(seat_label(k, p) for k, p in parsed), games=len(rows),
        seed=seed, first_seat_wins=wins, first_seat_win_rate=wins / len(rows),
        first_seat_ci=wilson_interval(wins, len(rows)), fair_rate=fair,
        first_seat_margin=mean_interval(margins),
        winning_margin=statistics.fmean(_winning_margin(r) for r in rows),
        turns=mean_interval(turns), turns_range=(int(min(turns)), int(max(turns))),
        end_reasons=reasons, probes=found)

