"""Every example notebook runs top to bottom without error (nbclient, a real python3 kernel:
jupyter_client starts "python3" with this interpreter, so the package under test is the one
installed here).

Notebooks are found when the tests are collected, so a new one in examples/ is tested without
touching this file. Each runs in a temporary copy of examples/ so that nothing it writes (and no
output) lands in the repository.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
CELL_TIMEOUT = 180  # seconds; generous for a loaded 2-core machine, notebooks take ~10 s

pytestmark = pytest.mark.jupyter


def executed_from_the_wheel(path: Path) -> Any:
    """The notebook as ``./dev test`` ran it from the wheel (``tests/run_examples.py --save``,
    in ``$LEYLINE_EXECUTED_EXAMPLES``) just before pytest, when its cells are the current
    ones: each example then runs once per ``./dev test``, not twice."""
    import nbformat

    folder = os.environ.get("LEYLINE_EXECUTED_EXAMPLES")
    saved = Path(folder) / path.name if folder else None
    if saved is None or not saved.is_file():
        return None
    nb = nbformat.read(saved, as_version=4)
    now = nbformat.read(path, as_version=4)
    if [c.source for c in nb.cells] != [c.source for c in now.cells]:
        return None
    return nb


def execute(path: Path, tmp_path: Path) -> Any:
    """Run a copy of ``path`` in a fresh kernel with the copy's folder as working directory."""
    import nbformat
    from nbclient import NotebookClient

    ran = executed_from_the_wheel(path)
    if ran is not None:
        return ran
    work = tmp_path / "examples"
    shutil.copytree(EXAMPLES, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    nb = nbformat.read(work / path.name, as_version=4)
    NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(work)}}).execute()
    return nb


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Any]:
    """Each notebook is run once per test session, however many tests read its outputs."""
    runs: dict[Path, Any] = {}

    def run(path: Path) -> Any:
        if path not in runs:
            runs[path] = execute(path, tmp_path_factory.mktemp(path.stem))
        return runs[path]
    return run


def outputs(nb: Any, kind: str) -> list[Any]:
    return [out for cell in nb.cells if cell.cell_type == "code"
            for out in cell.get("outputs", []) if out.get("output_type") == kind]


def test_there_are_example_notebooks() -> None:
    names = {p.name for p in NOTEBOOKS}
    assert {"01_play.ipynb", "02_rules_tutorial.ipynb"} <= names, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_without_error(path: Path, executed: Callable[[Path], Any]) -> None:
    nb = executed(path)
    assert not outputs(nb, "error")
    kernel = nb.metadata.get("kernelspec", {}).get("name")
    assert kernel in (None, "python3"), f"{path.name} asks for kernel {kernel!r}"


def test_the_tutorial_shows_every_lesson_and_the_teacher_view(
        executed: Callable[[Path], Any]) -> None:
    from leyline_widget.teach.course import COURSE

    nb = executed(EXAMPLES / "02_rules_tutorial.ipynb")
    widgets = [out for out in outputs(nb, "display_data") + outputs(nb, "execute_result")
               if "application/vnd.jupyter.widget-view+json" in out.get("data", {})]
    # One widget per lesson, the course navigator, and the teacher's live game.
    # Every lesson of the rules (the recall versions are played from the course's menu).
    assert len(widgets) == len([lsn for lsn in COURSE if not lsn.recall]) + 2
    sources = "\n".join(cell.source for cell in nb.cells)
    for lesson in (lsn for lsn in COURSE if not lsn.recall):
        assert f'LessonWidget("{lesson.id}")' in sources
    text = "".join(out.get("text", "") for out in outputs(nb, "stream"))
    assert "You have never seen the card in slot 7" in text
    assert "   done: Both Water cards went into your Study" in text
    assert "Random bot: seen 12 of 12 cards" in text and "could have collected" in text


def test_the_rule_variants_finding_quotes_its_own_numbers(
        executed: Callable[[Path], Any]) -> None:
    nb = executed(EXAMPLES / "04_rule_variants.ipynb")
    printed = "".join(out.get("text", "") for out in outputs(nb, "stream"))
    images = sum("image/png" in out.get("data", {}) for out in outputs(nb, "display_data"))
    assert images >= 3
    # The finding's words quote this run's numbers: a change in the engine or the bots that moves
    # them must update the finding.
    finding = next(c.source for c in nb.cells if c.source.startswith("## Finding"))
    for line in printed.splitlines():
        for number in re.findall(r"\d+\.\d%", line):
            assert number in finding, (number, line)


def test_the_coach_notebook_reviews_a_game_and_rates_memory(
        executed: Callable[[Path], Any]) -> None:
    nb = executed(EXAMPLES / "05_coach.ipynb")
    printed = "".join(out.get("text", "") for out in outputs(nb, "stream"))
    images = sum("image/png" in out.get("data", {}) for out in outputs(nb, "display_data"))
    assert images >= 2  # the evaluation graph and the ladder
    assert "'blunder'" in printed and "'best'" in printed
    # The whole story: the review in the studio (set_analysis), its line, a puzzle solved.
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "replay.set_analysis(0, review.to_dict())" in code
    assert "Coach's line, move " in printed and re.search(r"True \d+ of \d+ solved", printed)
    # The finding the notebook states in words: memory is worth rating on this ladder.
    gain = re.search(r"over a 2-card memory: ([+-]\d+) Elo", printed)
    assert gain is not None and int(gain.group(1)) > 0, printed
