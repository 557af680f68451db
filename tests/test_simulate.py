"""simulate and sweep: rows, determinism across executors, validation."""

from __future__ import annotations

import gc
import importlib
import multiprocessing
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from support import SMALL

from leyline_widget import Game, Rules
from leyline_widget.agents.bots import BotSeat, make_bot
from leyline_widget.agents.simulate import (
    SimulationError,
    game_seeds,
    iter_simulate,
    play_game,
    simulate,
    sweep,
)

simulate_module = importlib.import_module("leyline_widget.agents.simulate")
SEATS = ["greedy", ("memory", {"capacity": 3, "decay": 0.1})]


def test_rows_describe_each_game() -> None:
    rows = simulate(Rules.default(), SEATS, games=6, seed=3, jobs=1)
    assert [r["game"] for r in rows] == list(range(6))
    for r in rows:
        assert r["variant"] == "default" and r["players"] == 2
        assert r["seats"] == "greedy,memory(capacity=3;decay=0.1)"
        assert r["end_reason"] in ("deck", "stalemate")
        assert r["scores"] == [r["score_0"], r["score_1"]] and r["score_2"] is None
        assert r["winners"] == [p for p in (0, 1) if r["scores"][p] == max(r["scores"])]
        assert r["collections"] == r["collections_0"] + r["collections_1"] > 0
        assert r["tokens_placed"] == r["tokens_0"] + r["tokens_1"] >= r["tokens_paid"]
        assert r["powers_used"] == r["powers_0"] + r["powers_1"]
        assert r["turns"] > 1 and r["actions"] > r["turns"]


def test_a_row_is_the_game_replayed_from_its_seeds() -> None:
    row = simulate(Rules.default(), SEATS, games=3, seed=9, jobs=1)[2]
    deal, bot_seeds = game_seeds(9, 2, 2)
    game = Game.new(players=2, seed=deal)
    seats = [BotSeat(make_bot("greedy", seed=bot_seeds[0]), 0),
             BotSeat(make_bot("memory", seed=bot_seeds[1], capacity=3, decay=0.1), 1)]
    while not game.is_over:
        game.apply(seats[game.active_player].act(game))
    assert row["seed"] == deal and row["scores"] == game.scores() and row["turns"] == game.turn


def test_same_rows_with_one_and_two_workers_and_any_executor() -> None:
    one = simulate(Rules.default(), SEATS, games=24, seed=1, jobs=1)
    two = simulate(Rules.default(), SEATS, games=24, seed=1, jobs=2)
    with ThreadPoolExecutor(3) as pool:
        threads = simulate(Rules.default(), SEATS, games=24, seed=1, executor=pool)
    assert one == two == threads
    assert one != simulate(Rules.default(), SEATS, games=24, seed=2, jobs=1)


def _fails_in_a_worker(*args: Any, **kwargs: Any) -> Any:
    raise ValueError("no such card")


def _dies_in_a_worker(*args: Any, **kwargs: Any) -> Any:
    os._exit(3)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the workers see this test's stand-in only when forked")
def test_a_workers_error_reaches_the_caller_and_every_worker_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # two workers even on a one-CPU machine
    monkeypatch.setattr(simulate_module, "play_game", _fails_in_a_worker)
    with pytest.raises(SimulationError, match=r"^games? \d.* failed: ValueError: no such card$"
                       ) as raised:
        simulate(Rules.default(), SEATS, games=8, seed=1, jobs=2)
    error = raised.value.__cause__  # the worker's error, with the worker's traceback
    assert isinstance(error, ValueError)
    assert "_fails_in_a_worker" in str(error.__cause__)
    assert raised.value.games and all(0 <= a <= b < 8 for a, b in raised.value.games)
    assert multiprocessing.active_children() == []
    monkeypatch.setattr(simulate_module, "play_game", _dies_in_a_worker)
    with pytest.raises(SimulationError, match=r"failed: a simulation worker stopped .* "
                                              r"\(exit code 3"):
        simulate(Rules.default(), SEATS, games=8, seed=1, jobs=2)
    assert multiprocessing.active_children() == []


def test_a_failed_chunk_in_process_names_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    real = simulate_module.play_game

    def fails_at_game_57(rules: Rules, seats: Any, seed: int, index: int,
                         *args: Any) -> dict[str, Any]:
        if index == 57:
            raise ValueError("no such card")
        return real(rules, seats, seed, index, *args)

    monkeypatch.setattr(simulate_module, "play_game", fails_at_game_57)
    stream = iter_simulate(Rules.default(), ["random"], games=120, seed=1, jobs=1)
    firsts = []
    with pytest.raises(SimulationError, match=r"^games 50-99 failed: ValueError: no such card$"
                       ) as raised:
        for first, rows in stream:
            firsts.append((first, len(rows)))
    assert firsts == [(0, 50)] and raised.value.games == [(50, 99)]


def test_chunks_are_made_as_workers_ask() -> None:
    """A run of any length holds a few numbers for its chunks, not a list per chunk."""
    chunks = simulate_module._Chunks(10**12, 200)
    assert len(chunks) == 5 * 10**9 and chunks[7] == list(range(1400, 1600))
    assert chunks.bounds(len(chunks) - 1) == (10**12 - 200, 10**12 - 1)
    stream = iter_simulate(Rules.default(), ["random"], games=10**12, seed=1, jobs=1)
    first, rows = next(stream)
    stream.close()
    assert first == 0 and [r["game"] for r in rows] == list(range(50))


def test_an_error_in_the_progress_callback_stops_the_workers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)

    def progress(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(Rules.default(), SEATS, games=400, seed=1, jobs=2, progress=progress)
    assert multiprocessing.active_children() == []


def test_a_run_sets_the_callers_objects_aside_and_gives_them_back() -> None:
    """The collector skips the caller's objects during a run only (gc.freeze, undone after),
    and a caller's own freeze is left as it was."""
    frozen: list[int] = []

    def progress(done: int, total: int) -> None:
        frozen.append(gc.get_freeze_count())

    assert gc.get_freeze_count() == 0
    simulate(Rules.default(), ["random", "random"], games=3, seed=1, jobs=1, progress=progress)
    simulate(Rules.default(), ["random", "random"], games=3, seed=1, jobs=2, progress=progress)
    assert len(frozen) >= 4 and min(frozen) > 0
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        mine = gc.get_freeze_count()
        simulate(Rules.default(), ["random", "random"], games=2, seed=1, jobs=1)
        assert gc.get_freeze_count() == mine
    finally:
        gc.unfreeze()


def test_same_rows_on_a_dask_local_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = simulate(Rules.default(), SEATS, games=16, seed=4,
                           executor=client.get_executor())
    assert on_dask == simulate(Rules.default(), SEATS, games=16, seed=4, jobs=1)


def test_rotate_gives_every_bot_the_first_seat() -> None:
    rows = simulate(SMALL, ["greedy", "random", "memory"], games=6, seed=2, jobs=1, rotate=True)
    firsts = [r["seats"].split(",")[0] for r in rows]
    assert firsts == ["greedy", "random", "memory"] * 2


def test_sweep_runs_the_product_on_the_same_deals() -> None:
    rows = sweep(Rules.default(), {"grid_cols": [3, 4], "activations_per_turn": [3, 4]},
                 ["greedy", "greedy"], games=3, seed=5, jobs=1)
    assert len(rows) == 12
    combos = {(r["grid_cols"], r["activations_per_turn"]) for r in rows}
    assert combos == {(3, 3), (3, 4), (4, 3), (4, 4)}
    assert {r["variant"] for r in rows if r["grid_cols"] == 4 and r["activations_per_turn"] == 3} \
        == {"default"}
    for game in range(3):
        seeds = {r["seed"] for r in rows if r["game"] == game}
        assert len(seeds) == 1
    baseline = [r for r in rows if r["variant"] == "default"]
    plain = simulate(Rules.default(), ["greedy", "greedy"], games=3, seed=5, jobs=1)
    assert [r["scores"] for r in baseline] == [r["scores"] for r in plain]


def test_turn_limit_and_action_cap_end_games() -> None:
    rows = simulate(Rules.default().replace(turn_limit=3), ["greedy", "greedy"], games=2, seed=1,
                    jobs=1)
    assert {r["end_reason"] for r in rows} == {"turn_limit"} and {r["turns"] for r in rows} == {3}
    row = play_game(Rules.default(), [("random", {})], seed=1, index=0, max_actions=10)
    assert row["end_reason"] == "action_cap" and row["actions"] == 10


def test_bad_input_is_refused_before_any_game_runs() -> None:
    with pytest.raises(ValueError, match="grid_cols must be at least 1"):
        sweep(Rules.default(), {"grid_cols": [4, 0]}, ["greedy"], games=1, seed=1, jobs=1)
    with pytest.raises(ValueError, match="unknown rules field"):
        sweep(Rules.default(), {"colour": [1]}, ["greedy"], games=1, seed=1, jobs=1)
    with pytest.raises(ValueError, match="unknown bot kind"):
        simulate(Rules.default(), ["greedy", "genius"], games=1, seed=1, jobs=1)
    with pytest.raises(ValueError, match="1 to 4 seats"):
        simulate(Rules.default(), ["random"] * 5, games=1, seed=1, jobs=1)
    with pytest.raises(ValueError, match="games"):
        simulate(Rules.default(), ["random"], games=-1, seed=1, jobs=1)
    with pytest.raises(ValueError, match="capacity"):
        simulate(Rules.default(), [("memory", {"capacity": -2})], games=1, seed=1, jobs=1)


def test_rows_become_a_data_frame() -> None:
    pytest.importorskip("pandas")
    frame = simulate(SMALL, ["greedy", "random"], games=4, seed=1, jobs=1).to_frame()
    assert list(frame["game"]) == [0, 1, 2, 3]
    assert (frame["score_0"] >= frame["score_1"]).all()
