"""The documentation site's build code (docs/_hooks/): docstring examples become code blocks,
a widget in a notebook becomes its static offline board, and any page loading something from
outside the site is caught (the strict build then fails)."""

from __future__ import annotations

import importlib.util
import json
import logging
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HOOKS = Path(__file__).resolve().parents[1] / "docs" / "_hooks"


def hook(name: str) -> ModuleType:
    pytest.importorskip("mkdocs")
    spec = importlib.util.spec_from_file_location(f"_docs_hook_{name}", HOOKS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_and_literal_blocks_become_code_blocks() -> None:
    fence = hook("doctests").fence_examples
    text = "Make one.\n\n>>> Activate(3)\nActivate(slot=3)\n\nThen run::\n\n    leyline lite\n"
    assert fence(text) == ("Make one.\n\n```pycon\n>>> Activate(3)\nActivate(slot=3)\n```\n\n"
                           "Then run:\n\n```\nleyline lite\n```\n")


def test_a_notebook_widget_becomes_its_static_board(tmp_path: Path) -> None:
    from leyline_widget import LeylineWidget

    leyline = hook("leyline")
    w = LeylineWidget(players=["You"], seed=3, deal_ms=0, autosave=False)
    state: dict[str, Any] = json.loads(json.dumps(w.get_state()))
    nb = {"cells": [{"cell_type": "code", "outputs": [
        {"output_type": "display_data", "data": {
            "text/plain": "LeylineWidget(...)",
            leyline.WIDGET_VIEW: {"model_id": "m1", "version_major": 2}}},
        {"output_type": "display_data", "data": {
            "text/plain": "IntSlider()", leyline.WIDGET_VIEW: {"model_id": "m2"}}}]}],
        "metadata": {"widgets": {leyline.WIDGET_STATE: {"state": {
            "m1": {"state": state}, "m2": {"state": {"value": 3}}}}}}}
    assert leyline._static_boards(nb, tmp_path, "01_play") == 1
    first, second = nb["cells"][0]["outputs"]
    assert 'src="board-1.html"' in first["data"]["text/html"]
    assert second["data"] == {"text/plain": "IntSlider()"}  # not a board: its text stays
    assert "widgets" not in nb["metadata"]
    page = (tmp_path / "board-1.html").read_text("utf-8")
    board = json.loads(page.split('id="leyline-board-state">', 1)[1].split("</script>", 1)[0])
    assert board == w.static_state()  # exactly what w.to_html() shows: no more
    assert "http://" not in page and "https://" not in page


def test_a_page_loading_from_outside_fails_the_build(tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    leyline = hook("leyline")
    (tmp_path / "ok.html").write_text(
        '<link rel="canonical" href="https://example.org/x/"><a href="https://example.org">x</a>'
        '<script src="assets/app.js"></script>', "utf-8")
    (tmp_path / "bad.html").write_text(
        '<link rel="stylesheet" href="https://fonts.example.org/css">'
        "<script src='//cdn.example.org/x.js'></script>", "utf-8")

    class Config:
        site_dir = str(tmp_path)

    with caplog.at_level(logging.WARNING):
        leyline.on_post_build(Config())
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 2 and all(m.startswith("bad.html loads") for m in warned)
