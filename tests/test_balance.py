"""balance_report: fair seating, intervals against known references, probes, determinism."""

from __future__ import annotations

import json
import math

import pytest

from leyline_widget import BalanceReport, Rules, balance_report
from leyline_widget.agents.balance import mean_interval, wilson_interval
from leyline_widget.agents.bots import BOT_KINDS
from leyline_widget.agents.simulate import _power_cards

SMALL_GAME = Rules.default().replace(cards_per_element=6, grid_rows=2, grid_cols=3)


def _wilson_reference(k: int, n: int, z: float) -> tuple[float, float]:
    """Wilson's interval solved directly: the p with |k/n - p| = z * sqrt(p(1-p)/n)."""
    # (k/n - p)^2 = z^2 p (1-p) / n  ->  a p^2 + b p + c = 0
    phat = k / n
    a = 1 + z * z / n
    b = -(2 * phat + z * z / n)
    c = phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.mark.parametrize(("k", "n"), [(50, 100), (0, 10), (10, 10), (7, 23), (840, 1000)])
def test_the_wilson_interval_matches_the_quadratic_it_solves(k: int, n: int) -> None:
    low, high = wilson_interval(k, n)
    ref_low, ref_high = _wilson_reference(k, n, 1.959963984540054)
    assert low == pytest.approx(ref_low, abs=1e-12)
    assert high == pytest.approx(ref_high, abs=1e-12)


def test_the_wilson_interval_for_50_of_100_is_the_textbook_value() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    scipy_stats = pytest.importorskip("scipy.stats", reason="scipy gives a second reference")
    ci = scipy_stats.binomtest(50, 100).proportion_ci(confidence_level=0.95, method="wilson")
    assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_interval_helpers_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="trials"):
        wilson_interval(1, True)  # type: ignore[arg-type]
    assert wilson_interval(0, 0) == (0.0, 1.0)
    mean, low, high = mean_interval([2.0, 4.0, 6.0])
    assert mean == 4.0 and low == pytest.approx(4 - 1.959963984540054 * 2 / math.sqrt(3))
    assert high == pytest.approx(4 + 1.959963984540054 * 2 / math.sqrt(3))


def test_a_report_measures_the_first_seat_with_the_seats_rotated() -> None:
    report = balance_report(SMALL_GAME, ["greedy", "random"], games=40, seed=3, jobs=1,
                            probe_games=10)
    assert isinstance(report, BalanceReport)
    assert report.games == 40 and sum(report.end_reasons.values()) == 40
    assert report.first_seat_win_rate == report.first_seat_wins / 40
    assert report.first_seat_ci == wilson_interval(report.first_seat_wins, 40)
    low, high = report.first_seat_ci
    assert low <= report.first_seat_win_rate <= high
    assert 0.5 <= report.fair_rate <= 1.0  # two seats; a shared victory counts for both
    assert report.seats == ("greedy", "random")
    mean, mlow, mhigh = report.first_seat_margin
    assert mlow <= mean <= mhigh
    assert set(report.probes) == {"scouting", "power_loops", "stalemates", "idle_ends"}
    for probe in report.probes.values():
        assert probe.low <= probe.effect <= probe.high


def test_a_report_is_deterministic_for_a_seed_and_json_safe() -> None:
    one = balance_report(SMALL_GAME, ["greedy", "memory"], games=12, seed=5, jobs=1,
                         probe_games=6)
    two = balance_report(SMALL_GAME, ["greedy", "memory"], games=12, seed=5, jobs=1,
                         probe_games=6)
    assert one.to_dict() == two.to_dict()
    assert json.loads(json.dumps(one.to_dict())) == one.to_dict()
    other = balance_report(SMALL_GAME, ["greedy", "memory"], games=12, seed=6, jobs=1,
                           probe_games=6)
    assert other.to_dict() != one.to_dict()


def test_the_markdown_names_every_figure() -> None:
    report = balance_report(SMALL_GAME.replace(round_limit=2), ["random", "random", "random"],
                            games=9, seed=1, jobs=1, probes=False)
    text = report.to_markdown()
    assert text.startswith("## Balance report: cards_per_element=6,grid_rows=2,grid_cols=3,"
                           "round_limit=2\n")
    for words in ("first-seat win rate", "fair rate", "game length", "End reasons:",
                  "round_limit", "power_loops", "stalemates", "idle_ends"):
        assert words in text
    assert "scouting" not in report.probes
    assert report.end_reasons.get("round_limit", 0) + report.end_reasons.get("stalemate", 0) \
        + report.end_reasons.get("deck", 0) == 9


def test_the_end_reasons_and_the_idle_probe_count_idle_ends() -> None:
    report = balance_report(SMALL_GAME.replace(idle_round_limit=1), ["random", "random"],
                            games=30, seed=2, jobs=1, probes=False)
    idle = report.end_reasons.get("idle", 0)
    assert idle > 0
    assert report.probes["idle_ends"].effect == idle / 30
    assert report.probes["stalemates"].effect == report.end_reasons.get("stalemate", 0) / 30


def test_the_scouting_probe_finds_the_free_look_and_the_house_rule_closes_it() -> None:
    seed_rules = balance_report(Rules.default(), ["greedy", "greedy"], games=4, seed=1, jobs=1,
                                probe_games=40).probes["scouting"]
    no_refund = balance_report(Rules.default().replace(deactivate_refund=False),
                               ["greedy", "greedy"], games=4, seed=1, jobs=1,
                               probe_games=40).probes["scouting"]
    assert seed_rules.games == no_refund.games == 40
    assert seed_rules.low > 0, seed_rules     # the scout wins clearly with the refund
    assert no_refund.high < seed_rules.low    # and loses its edge without it
    assert "scout=True" in seed_rules.meaning


def test_the_power_loop_probe_sees_wildfire_when_majors_are_cheap() -> None:
    cheap = SMALL_GAME.replace(major_threshold=2, minor_threshold=2)
    report = balance_report(cheap, ["greedy", "greedy"], games=30, seed=4, jobs=1, probes=False)
    assert report.probes["power_loops"].effect > 0


def test_power_cards_count_only_what_spark_or_wildfire_made_possible() -> None:
    rules = Rules.default()  # 3 activations, threshold 2

    def collects(*counts: int) -> list[dict[str, object]]:
        return [{"type": "collect", "count": c} for c in counts]

    assert _power_cards(rules, {"wildfire"}, collects(1, 1, 1)) == 3   # three lone cards
    assert _power_cards(rules, {"wildfire"}, collects(2, 1)) == 1
    assert _power_cards(rules, {"spark"}, collects(2, 2)) == 1         # the fourth activation
    assert _power_cards(rules, {"spark"}, collects(3)) == 0
    assert _power_cards(rules, {"spark", "wildfire"}, collects(2, 1, 1)) == 2
    assert _power_cards(rules, {"spark"}, [{"type": "pass"}]) == 0


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
def test_every_bot_kind_takes_a_seat(kind: str) -> None:
    report = balance_report(SMALL_GAME.replace(round_limit=2), [kind, "random"], games=2,
                            seed=1, jobs=1, probes=False)
    assert report.seats[0] == kind


@pytest.mark.parametrize(("seats", "games", "words"), [
    (["greedy"], 4, "2 to 4 seats"),
    ("greedy", 4, "2 to 4 seats"),
    (["greedy", "smart"], 4, "unknown bot kind"),
    (["greedy", "greedy"], 0, "games must be a whole number >= 1"),
    (["greedy", "greedy"], True, "games must be a whole number >= 1"),
])
def test_nonsense_is_refused_before_any_game(seats: object, games: object, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        balance_report(Rules.default(), seats, games=games, seed=1)  # type: ignore[arg-type]


def test_the_plot_draws_the_rates_with_error_bars() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    report = balance_report(SMALL_GAME, ["greedy", "random"], games=6, seed=1, jobs=1,
                            probes=False)
    ax = report.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["first seat - fair", "power_loops", "stalemates", "idle_ends"]
