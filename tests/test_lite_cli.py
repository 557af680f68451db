"""``leyline lite``: what it is asked for is checked before anything is fetched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from leyline_widget.cli import main
from leyline_widget.widgets.lite import DEFAULT_NOTEBOOKS, _for_the_browser, resolve_notebook


def test_a_bad_notebook_name_is_refused_at_once(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["lite", "--out", str(tmp_path / "site"), "--notebook", "no-such-notebook"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--notebook 'no-such-notebook' names no notebook" in err and "lesson:<id>" in err
    assert not (tmp_path / "site").exists()
    with pytest.raises(SystemExit):
        main(["lite", "--out", str(tmp_path / "site"), "--wheel", str(tmp_path / "none.whl")])
    assert "--wheel: no file" in capsys.readouterr().err


def test_the_default_notebooks_start_by_installing_the_package() -> None:
    for spec in DEFAULT_NOTEBOOKS:
        nb = _for_the_browser(resolve_notebook(spec).content)
        first = nb["cells"][0]
        assert first["source"] == "%pip install -q leyline_widget"
        assert all(c.get("outputs", []) == [] for c in nb["cells"])
    assert resolve_notebook("play").name == "01_play.ipynb"
    assert resolve_notebook("lesson:binding").name == "lesson-binding.ipynb"


def test_the_site_s_own_cells_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cells the site writes itself (the coach, the lessons, the play notebook's short game)
    run here as they would in the browser's Python (the %pip cell aside)."""
    monkeypatch.setenv("LEYLINE_HOME", str(tmp_path))  # the short game saves as it is played
    monkeypatch.chdir(tmp_path)
    names: dict[str, Any] = {}
    for spec in ("coach", "lessons", "lesson:binding", "play"):
        nb = resolve_notebook(spec).content
        for cell in nb["cells"]:
            code = "".join(cell["source"])
            if cell["cell_type"] == "code" and ("short =" in code or spec != "play"):
                exec(compile(code, f"{spec}.ipynb", "exec"), names)
    assert len(names["replay"]) > 0 and names["coach"].analysis_budget == 8
    short = names["short"]
    assert short.game.rules.grid_size == 6 and short.game.rules.deck_size == 12
    cells = resolve_notebook("play").content["cells"]
    assert "A short game first" in "".join(cells[1]["source"])
