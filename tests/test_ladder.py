"""The bot ladder: Bradley-Terry ratings, intervals, determinism and bad input."""

from __future__ import annotations

import math

import pytest

from leyline_widget import Rules
from leyline_widget.agents.ladder import bradley_terry, ladder


def test_bradley_terry_recovers_known_strengths() -> None:
    # Expected points from strengths 1, 2 and 4 over many games: ratings 0, ~120, ~241.
    strength = {"a": 1.0, "b": 2.0, "c": 4.0}
    n = 100_000
    results = {}
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        results[(x, y)] = (n * strength[x] / (strength[x] + strength[y]), n)
    r = bradley_terry(list(strength), results)
    assert r["a"] == 0
    assert r["b"] == pytest.approx(400 * math.log10(2), abs=1.0)
    assert r["c"] == pytest.approx(400 * math.log10(4), abs=1.0)


def test_bradley_terry_keeps_an_unbeaten_entrant_finite() -> None:
    r = bradley_terry(["a", "b"], {("a", "b"): (0.0, 10)})
    assert 0 < r["b"] < 1000


def test_the_ladder_puts_memory_above_random_and_is_deterministic() -> None:
    rules = Rules.default()
    table = ladder(["random", "greedy"], games=24, seed=3, rules=rules, jobs=1)
    again = ladder(["random", "greedy"], games=24, seed=3, rules=rules, jobs=1)
    assert table.to_dict() == again.to_dict()
    top, bottom = table.rows
    assert (top.name, bottom.name) == ("greedy", "random")
    assert top.low > 0          # the interval excludes "no better than random"
    assert top.low <= top.rating <= top.high
    assert top.games == bottom.games == 24
    assert top.score + bottom.score == pytest.approx(1.0)
    assert "| 1 | greedy |" in table.to_markdown()


def test_the_intervals_lie_around_the_ratings() -> None:
    # The bootstrap's fits lean to the middle; the rating must still lie in the middle half
    # of its interval, not at one end (it was printed as "541 to 1066" for a rating of 988).
    table = ladder(["random", ("memory", {"capacity": 2}), ("memory", {"capacity": 6}),
                    "greedy"], games=16, seed=2, jobs=1)
    for row in table.rows:
        if row.name == "random":  # the anchor: rated 0 by definition
            assert row.low == row.rating == row.high == 0
        else:
            quarter = (row.high - row.low) / 4
            assert row.low + quarter <= row.rating <= row.high - quarter, row


@pytest.mark.parametrize(("entrants", "games", "message"), [
    (["greedy", "greedy"], 10, "entrants must differ"),
    (["greedy"], 10, "at least two entrants"),
    (["greedy", "random"], 1, "games (per pair)"),
    (["greedy", "random"], True, "games (per pair)"),
    (["greedy", "clever"], 10, "unknown bot kind"),
])
def test_the_ladder_refuses_nonsense(entrants: list[str], games: int, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ladder(entrants, games=games, jobs=1)


def test_the_ladder_is_the_same_on_one_pool_of_workers() -> None:
    one = ladder(["random", "greedy", ("memory", {"capacity": 2})], games=6, seed=5, jobs=1)
    two = ladder(["random", "greedy", ("memory", {"capacity": 2})], games=6, seed=5, jobs=2)
    assert one.to_dict() == two.to_dict()


def test_a_lopsided_pair_stops_once_its_interval_settles_it() -> None:
    table = ladder(["random", "greedy"], games=40, seed=3, jobs=1, least=8)
    top, bottom = table.rows
    assert (top.name, bottom.name) == ("greedy", "random")
    assert 8 <= top.games < 40 and top.games % 8 == 0
    assert table.to_dict() == ladder(["random", "greedy"], games=40, seed=3, jobs=1,
                                     least=8).to_dict()
    for bad in (3, 0, True, "8"):
        with pytest.raises(ValueError, match="least"):
            ladder(["random", "greedy"], games=10, jobs=1, least=bad)  # type: ignore[arg-type]
