"""The ``leyline`` command end to end: output files, summary, progress, bad input."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from leyline_widget.agents.simulate import simulate
from leyline_widget.cli import main
from leyline_widget.core.rules import Rules


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


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
    (["--games", "-3"], "--games must be at least 0"),
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
