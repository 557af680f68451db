"""The ``leyline`` command end to end: output files, summary, progress, bad input."""

from __future__ import annotations

import csv
import importlib
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from leyline_widget import __version__, balance_report, cli
from leyline_widget.agents.simulate import simulate, sweep
from leyline_widget.cli import main
from leyline_widget.core.rules import Rules

simulate_module = importlib.import_module("leyline_widget.agents.simulate")


run = run_cli


def test_simulate_writes_rows_and_a_summary(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "results.csv"
    code, out, err = run(["simulate", "--games", "30", "--seat", "greedy", "--seat", "memory",
                          "--set", "grid_cols=5", "--jobs", "1", "--seed", "3",
                          "--out", str(out_file)], capsys)
    assert code == 0, err
    with out_file.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 30 and {r["variant"] for r in rows} == {"grid_cols=5"}
    expected = simulate(Rules.default().replace(grid_cols=5), ["greedy", "memory"], games=30,
                        seed=3, jobs=1)
    assert [json.loads(r["scores"]) for r in rows] == [r["scores"] for r in expected]
    assert "0 greedy" in out and "1 memory" in out and "win %" in out
    assert "30 games in" in out


def test_sweep_rotate_and_json_output(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "rows.json"
    code, out, _ = run(["simulate", "--games", "4", "--seat", "memory:capacity=inf,decay=0",
                        "--seat", "random", "--sweep", "activations_per_turn=3,4", "--rotate",
                        "--jobs", "1", "--out", str(out_file)], capsys)
    assert code == 0
    rows = json.loads(out_file.read_text())
    assert [r["activations_per_turn"] for r in rows] == [3, 4] * 4
    assert "memory(capacity=inf;decay=0)" in out and "activations_per_turn=4" in out


def test_progress_bar_on_long_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["simulate", "--games", "200", "--seat", "random", "--set",
                        "cards_per_element=3", "--set", "grid_rows=2", "--set", "grid_cols=2",
                        "--jobs", "1"], capsys)
    assert code == 0 and "200/200 games" in err
    code, _, err = run(["simulate", "--games", "10", "--seat", "random", "--jobs", "1"], capsys)
    assert code == 0 and err == ""


@pytest.mark.parametrize(("args", "message"), [
    (["--set", "grid_cols=50"], "larger than the deck"),
    (["--set", "colour=5"], "unknown rules field(s) colour"),
    (["--set", "grid_cols=many"], "grid_cols must be a whole number, got 'many'"),
    (["--set", "grid_cols"], "--set expects FIELD=VALUE"),
    (["--sweep", "collect_threshold=2,0"], "collect_threshold must be at least 1"),
    (["--seat", "genius"], "unknown bot kind 'genius'"),
    (["--seat", "memory:capacity=-1"], "capacity must be"),
    (["--games", "-3"], "--games must be at least 1"),
    (["--games", "0"], "--games must be at least 1"),
    (["--out", "rows.xlsx"], "--out must end in .csv"),
])
def test_bad_input_exits_2_with_the_reason(args: list[str], message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["simulate", "--games", "2", "--jobs", "1", *args], capsys)
    assert code == 2
    assert message in err and out == ""
    assert list(tmp_path.iterdir()) == []


def test_installed_command_runs(tmp_path: Path) -> None:
    # The real entry point, through the interpreter that has the package.
    proc = subprocess.run(
        [sys.executable, "-m", "leyline_widget.cli", "simulate", "--games", "3", "--jobs", "1",
         "--set", "grid_rows=20"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 2 and "larger than the deck" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "leyline_widget.cli", "simulate", "--games", "3", "--jobs", "2"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "default: 3 games" in proc.stdout


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"leyline {__version__}"


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any game played an error: checks must come first."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(cli, "iter_simulate", refuse)
    monkeypatch.setattr(cli, "iter_sweep", refuse)
    monkeypatch.setattr(cli, "balance_report", refuse)


@pytest.mark.parametrize("command", ["simulate", "balance"])
@pytest.mark.parametrize(("out", "message"), [
    ("/no/such/dir/x{ext}", "the folder /no/such/dir does not exist"),
    ("{tmp}/folder{ext}", "is a directory"),
    ("{tmp}/rows.xlsx", "--out must end in"),
])
def test_the_out_path_is_checked_before_any_game(command: str, out: str, message: str,
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _no_games(monkeypatch)
    ext = ".md" if command == "balance" else ".csv"
    (tmp_path / f"folder{ext}").mkdir()
    out = out.format(tmp=tmp_path, ext=ext)
    code, stdout, err = run([command, "--games", "5", "--out", out], capsys)
    assert code == 2, err
    assert message in err and "Traceback" not in err and stdout == ""


def test_each_command_refuses_the_other_commands_formats(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _no_games(monkeypatch)
    code, _, err = run(["balance", "--out", str(tmp_path / "r.csv")], capsys)
    assert code == 2 and "--out must end in .md or .json" in err
    code, _, err = run(["simulate", "--out", str(tmp_path / "r.md")], capsys)
    assert code == 2 and "--out must end in .csv, .json, .jsonl or .parquet" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "--games must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--dask-workers", "0"], "--dask-workers must be from 1"),
    (["--scheduler", "localhost"], "--scheduler expects an address"),
    (["--seat", "greedy"], "needs 2 to 4 --seat options"),
    (["--probe-games", "0"], "--probe-games must be at least 1"),
])
def test_balance_refuses_bad_input_with_exit_2(args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _no_games(monkeypatch)
    code, out, err = run(["balance", *args], capsys)
    assert code == 2 and message in err and out == ""


def test_scheduler_and_local_dask_workers_exclude_each_other(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["simulate", "--scheduler", "tcp://a:1", "--dask-workers", "1"], capsys)
    assert code == 2 and "not allowed with argument" in err


def test_balance_writes_markdown_and_json(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    md = tmp_path / "report.md"
    args = ["balance", "--set", "cards_per_element=6", "--set", "grid_rows=2", "--set",
            "grid_cols=3", "--set", "deactivate_refund=false", "--seat", "greedy", "--seat",
            "random", "--games", "8", "--probe-games", "4", "--jobs", "1", "--seed", "2"]
    code, out, err = run([*args, "--out", str(md)], capsys)
    assert code == 0, err
    text = md.read_text()
    assert text.startswith("## Balance report: cards_per_element=6,grid_rows=2,grid_cols=3,"
                           "deactivate_refund=False")
    assert text in out and "first-seat win rate" in text
    js = tmp_path / "report.json"
    code, _, err = run([*args, "--out", str(js)], capsys)
    assert code == 0, err
    data = json.loads(js.read_text())
    rules = Rules.default().replace(cards_per_element=6, grid_rows=2, grid_cols=3,
                                    deactivate_refund=False)
    expected = balance_report(rules, ["greedy", "random"], games=8, seed=2, jobs=1,
                              probe_games=4)
    assert data == json.loads(json.dumps(expected.to_dict()))


def test_parquet_output_holds_the_rows(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="the parquet extra is not installed")
    path = tmp_path / "rows.parquet"
    code, _, err = run(["simulate", "--games", "6", "--seat", "greedy", "--seat", "random",
                        "--sweep", "grid_cols=3,4", "--jobs", "1", "--out", str(path)], capsys)
    assert code == 0, err
    table = pq.read_table(path).to_pylist()
    expected = sweep(Rules.default(), {"grid_cols": [3, 4]}, ["greedy", "random"], games=6,
                     seed=0, jobs=1)
    assert table == [dict(r) for r in expected]


def test_jobs_are_capped_at_the_cpus_and_the_games(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    def recording(workers: int, chunks: list[list[int]],
                  play: Callable[[list[int]], list[dict[str, Any]]]
                  ) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        """Stands in for the process pool: records its size, plays the chunks here."""
        started.append(workers)
        for index, chunk in enumerate(chunks):
            yield index, play(chunk)

    monkeypatch.setattr(simulate_module, "_local_pool", recording)
    monkeypatch.setattr(simulate_module.os, "cpu_count", lambda: 2)
    code, _, err = run(["simulate", "--games", "6", "--seat", "random", "--jobs", "100000"],
                       capsys)
    assert code == 0, err
    assert started == [2]  # the CPUs
    monkeypatch.setattr(simulate_module.os, "cpu_count", lambda: 64)
    code, _, err = run(["simulate", "--games", "3", "--seat", "random", "--jobs", "100000"],
                       capsys)
    assert code == 0 and started == [2, 3]  # the games
    code, _, err = run(["simulate", "--games", "1", "--seat", "random", "--jobs", "100000"],
                       capsys)
    assert code == 0 and started == [2, 3]  # one game: played here, no pool at all


def test_simulate_and_balance_run_on_a_local_dask_cluster(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    path = tmp_path / "rows.json"
    code, _, err = run(["simulate", "--games", "6", "--seat", "greedy", "--seat", "random",
                        "--dask-workers", "1", "--no-progress", "--out", str(path)], capsys)
    assert code == 0, err
    rows = json.loads(path.read_text())
    local = simulate(Rules.default(), ["greedy", "random"], games=6, seed=0, jobs=1)
    assert rows == json.loads(json.dumps(list(local)))
    report = tmp_path / "report.json"
    code, _, err = run(["balance", "--games", "4", "--probe-games", "2", "--dask-workers", "1",
                        "--out", str(report)], capsys)
    assert code == 0, err
    expected = balance_report(Rules.default(), ["greedy", "greedy"], games=4, seed=0, jobs=1,
                              probe_games=2)
    assert json.loads(report.read_text()) == json.loads(json.dumps(expected.to_dict()))


def test_ladder_writes_a_table_and_a_plot(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out, plot = tmp_path / "ladder.json", tmp_path / "ladder.png"
    code = main(["ladder", "--seat", "random", "--seat", "greedy", "--games", "6", "--jobs", "1",
                 "--seed", "2", "--out", str(out), "--plot", str(plot), "--no-progress"])
    assert code == 0
    data = json.loads(out.read_text())
    assert [r["name"] for r in data["rows"]] == ["greedy", "random"]
    assert data["rows"][1]["rating"] == 0          # random anchors the scale
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| 1 | greedy |" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "1"], "--games (per pair) must be at least 2"),
    (["--seat", "greedy", "--seat", "greedy", "--games", "4"], "entrants must differ"),
    (["--seat", "greedy", "--seat", "random", "--plot", "x.svg"], "--plot must end in .png"),
    (["--seat", "greedy", "--seat", "random", "--out", "/no/such/dir/l.md"], "does not exist"),
])
def test_ladder_refuses_nonsense_with_exit_2(args: list[str], message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["ladder", *args, "--jobs", "1"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_ladder_checks_the_dask_flags_like_the_other_commands(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["ladder", "--seat", "greedy", "--seat", "random", "--scheduler", "localhost"])
    assert stop.value.code == 2
    assert "--scheduler expects an address" in capsys.readouterr().err
