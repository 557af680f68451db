"""The ``leyline`` command keeps what it did: every --help works, what can fail is checked
before the first game, rows are streamed as games finish, and an interrupt, a failed chunk or
a full disk keeps every finished game and says how many."""

from __future__ import annotations

import csv
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from leyline_widget import cli
from leyline_widget.agents.simulate import play_game, simulate
from leyline_widget.core.rules import Rules

simulate_module = importlib.import_module("leyline_widget.agents.simulate")


run = run_cli


@pytest.mark.parametrize("command", [[], ["simulate"], ["balance"], ["ladder"]])
def test_every_help_works(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*command, "--help"], capsys)
    assert code == 0 and err == ""
    assert out.startswith(f"usage: leyline {' '.join(command)}".rstrip())
    if not command:
        assert "95% intervals" in out and all(c in out for c in ("simulate", "balance"))
    else:
        assert "--out" in out and "--games" in out


def test_the_installed_command_prints_its_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "leyline_widget.cli", "--help"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and "ladder" in proc.stdout and proc.stderr == ""


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the input was checked")

    for name in ("iter_simulate", "iter_sweep", "balance_report", "ladder"):
        monkeypatch.setattr(cli, name, refuse)


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--out", "/proc/rows.csv"], "--out '/proc/rows.csv': cannot write in /proc"),
    (["balance", "--out", "/proc/report.md"], "cannot write in /proc"),
    (["ladder", "--seat", "random", "--seat", "greedy", "--plot", "/proc/l.png"],
     "--plot '/proc/l.png': cannot write in /proc"),
    (["ladder", "--seat", "random", "--seat", "greedy", "--plot", "l.svg"],
     "--plot must end in .png, got 'l.svg'"),
])
def test_an_unwritable_folder_is_found_by_a_probe_before_any_game(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _no_games(monkeypatch)
    code, out, err = run(args, capsys)
    assert code == 2 and message in err and out == "" and "Traceback" not in err


@pytest.mark.parametrize(("module", "args", "message"), [
    ("matplotlib", ["ladder", "--seat", "random", "--seat", "greedy", "--plot", "{tmp}/l.png"],
     "--plot needs matplotlib: pip install leyline_widget[examples]"),
    ("pyarrow", ["simulate", "--out", "{tmp}/rows.parquet"],
     "--out .parquet needs pyarrow: pip install leyline_widget[parquet]"),
])
def test_a_missing_library_is_found_before_any_game(
        module: str, args: list[str], message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _no_games(monkeypatch)
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    code, out, err = run([a.format(tmp=tmp_path) for a in args], capsys)
    assert code == 2 and message in err and out == ""
    assert list(tmp_path.iterdir()) == []  # the probe file is gone too


def _read(path: Path) -> list[dict[str, Any]]:
    """The rows of a CSV, JSON, JSONL or Parquet output, games as numbers."""
    if path.suffix == ".csv":
        with path.open() as f:
            return [{**r, "game": int(r["game"])} for r in csv.DictReader(f)]
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines()]
    if path.suffix == ".json":
        rows: list[dict[str, Any]] = json.loads(path.read_text())
        return rows
    pq = pytest.importorskip("pyarrow.parquet")
    table: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return table


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".json", ".parquet"])
def test_rows_are_streamed_in_game_order_on_two_workers(
        ext: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    if ext == ".parquet":
        pytest.importorskip("pyarrow")
        monkeypatch.setattr(cli.RowFile, "GROUP", 7)  # several row groups
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    path = tmp_path / f"rows{ext}"
    path.write_text("the old file")
    written: list[int] = []
    real = cli.RowFile.write

    def watch(self: cli.RowFile, rows: Any) -> None:
        real(self, rows)
        written.append(len(rows))
        assert not path.exists() or path.read_text(errors="replace") == "the old file"

    monkeypatch.setattr(cli.RowFile, "write", watch)
    code, _, err = run(["simulate", "--games", "40", "--seat", "random", "--seat", "greedy",
                        "--jobs", "2", "--out", str(path)], capsys)
    assert code == 0, err
    assert len(written) > 2 and sum(written) == 40  # chunk by chunk, not all at the end
    rows = _read(path)
    assert [r["game"] for r in rows] == list(range(40))
    expected = simulate(Rules.default(), ["random", "greedy"], games=40, seed=0, jobs=1)
    assert [int(r["seed"]) for r in rows] == [r["seed"] for r in expected]
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no .partial left


def _fails_from_game(first_bad: int) -> Any:
    def play(rules: Rules, seats: Any, seed: int, index: int, *args: Any) -> dict[str, Any]:
        if index >= first_bad:
            raise ValueError("no such card")
        return play_game(rules, seats, seed, index, *args)
    return play


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failed_chunk_keeps_every_finished_game_and_names_its_games(
        jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(simulate_module, "play_game", _fails_from_game(100))
    path = tmp_path / "rows.jsonl"
    code, out, err = run(["simulate", "--games", "150", "--seat", "random", "--jobs", jobs,
                          "--no-progress", "--out", str(path)], capsys)
    assert code == 1
    rows = _read(path)
    games = [r["game"] for r in rows]
    # The chunks that failed (on two workers, one each at most) hold game 100 and later
    # ones; every game before them (the chunks under way on the other worker included) is
    # kept.
    failed = re.search(r"games (\d+)-(\d+)(?:, (\d+)-(\d+))? failed: ValueError: no such "
                       r"card;", err)
    assert failed is not None, err
    first = int(failed[1])
    assert first <= 100 <= int(failed[4] or failed[2]) and (jobs == "2" or first == 100)
    assert games == list(range(first))
    assert f"the {len(rows)} finished games are in {path}" in err
    assert f"default: {len(rows)} games" in out  # the summary of what finished
    assert "Traceback" not in err


_INTERRUPTED = textwrap.dedent("""
    import sys
    from leyline_widget import cli
    sys.exit(cli.main(["simulate", "--games", "1000000", "--seat", "random", "--seat",
                       "random", "--jobs", "2", "--out", sys.argv[1]]))
""")


@pytest.mark.parametrize(("ext", "sig"), [(".csv", signal.SIGINT), (".json", signal.SIGTERM),
                                          (".parquet", signal.SIGINT)])
def test_an_interrupted_run_keeps_every_finished_row(ext: str, sig: int,
                                                     tmp_path: Path) -> None:
    if ext == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"rows{ext}"
    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPTED, str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    partial = Path(f"{path}.partial")
    deadline = time.monotonic() + 120
    # Until some rows are on disk (Parquet: a row group at least every 5 s).
    while not partial.exists() or partial.stat().st_size < 2_000:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(0.2)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    rows = _read(path)
    assert rows and f"the {len(rows)} finished games are in {path}" in err
    games = [r["game"] for r in rows]
    assert games == sorted(games) and len(set(games)) == len(games)
    assert games[: games.index(max(games))] == list(range(max(games)))[: len(games) - 1]
    # Each kept row is the game its seeds give.
    for row in rows[:: max(1, len(rows) // 5)]:
        assert int(row["seed"]) == play_game(Rules.default(), [("random", {})] * 2, 0,
                                             row["game"])["seed"]
    assert not partial.exists() and f"default: {len(rows)} games" in out
    assert "Traceback" not in err


_FULL_DISK = textwrap.dedent("""
    import resource, sys
    from leyline_widget import cli
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, resource.RLIM_INFINITY))
    sys.exit(cli.main(["simulate", "--games", "400", "--seat", "random", "--jobs", "1",
                       "--no-progress", "--out", sys.argv[1]]))
""")


def test_a_full_disk_keeps_the_old_file_and_the_rows_written(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text("game\n0\n")
    proc = subprocess.run([sys.executable, "-c", _FULL_DISK, str(path)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 1, proc.stderr
    assert path.read_text() == "game\n0\n"  # the old file, whole
    partial = Path(f"{path}.partial")
    with partial.open() as f:
        kept = list(csv.DictReader(f))
    assert kept and [int(r["game"]) for r in kept] == list(range(len(kept)))
    assert (f"cannot write {path}: the file is larger than this system allows" in proc.stderr)
    assert f"the {len(kept)} games written before are in {partial}" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_balance_prints_its_report_when_the_file_cannot_be_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.md"
    path.write_text("old report")

    def full(*args: Any, **kwargs: Any) -> None:
        raise cli.WriteError(28, f"cannot write {path}: the disk is full")

    monkeypatch.setattr(cli, "write_atomic", full)
    code, out, err = run(["balance", "--games", "4", "--no-probes", "--jobs", "1",
                          "--set", "cards_per_element=6", "--set", "grid_rows=2",
                          "--out", str(path)], capsys)
    assert code == 1 and "first-seat win rate" in out
    assert f"cannot write {path}: the disk is full; the report is printed above" in err
    assert path.read_text() == "old report"
