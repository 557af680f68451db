"""examples/01_play.ipynb, the notebook `./dev play` opens: a cell for each way to play (solo,
against the expert with Hint, hot-seat), and words that read the same in JupyterLab and under
Voila (which shows the outputs and the text, never the code cells)."""

from __future__ import annotations

import json
import re
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "01_play.ipynb"


def _cells(kind: str) -> list[str]:
    cells = json.loads(NOTEBOOK.read_text("utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == kind]


def test_a_cell_for_each_way_to_play() -> None:
    code = _cells("code")
    boards = [c for c in code if "LeylineWidget(" in c]
    solo = [c for c in boards if re.search(r"players=\[\"You\"\]", c)]
    expert = [c for c in boards if '"expert"' in c and "hints=True" in c]
    hot_seat = [c for c in boards if re.search(r'players=\["\w+", "\w+"\]', c)
                and not re.search(r'"(random|memory|greedy|expert)"', c)]
    assert solo and expert and hot_seat, code


def test_the_words_read_under_voila() -> None:
    text = "\n".join(_cells("markdown"))
    # Voila runs every cell itself and hides the code: no instruction to run cells by hand
    # addressed to everyone, no key to press in a notebook that Voila does not have.
    assert "Shift+Enter" not in text and "Run the cells below" not in text
    for line in text.splitlines():
        if re.search(r"\brun\b.*\bcells?\b", line, re.I):
            assert "JupyterLab" in line and "Voila" in line, line
    assert "expert" in text and "Hint" in text and "Hot-seat" in text
