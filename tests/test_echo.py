"""Every echoed input is cut short (core/echo.py): a refusal repeats a line of what it was
given, never a megabyte. Widget messages are covered in test_hardening.py; here the doors of
the engine's rules, actions, replay and study files, the agents, the adapters and the CLI."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from leyline_widget import Action, Game, Replay, Rules, Study
from leyline_widget.agents.analysis import analyse
from leyline_widget.agents.balance import balance_report, wilson_interval
from leyline_widget.agents.ladder import ladder
from leyline_widget.agents.simulate import simulate, sweep
from leyline_widget.cli import main
from leyline_widget.core.rules import Power
from leyline_widget.interop.encoding import ActionSpace
from leyline_widget.teach.memory import memory_report

BIG = "a" * 1_000_000
#: The longest refusal a door may give (a sentence, with a few short quotes in it).
LONGEST = 600

PACKAGE = Path(__file__).resolve().parent.parent / "leyline_widget"


def refusal(call: Callable[[], object]) -> str:
    with pytest.raises(Exception) as info:
        call()
    return str(info.value)


def _replay_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Replay.from_game(Game.new(players=2, seed=1)).to_json())
    return data


#: Rules fields and a 1 MB value of each kind that a field may be given.
RULES_DOORS: dict[str, Callable[[], object]] = {
    **{f"{field}={kind}": (lambda f=field, v=value: Rules.default().replace(**{f: v}))
       for field in ("elements", "cards_per_element", "grid_rows", "turn_limit",
                     "deactivate_refund", "powers", "major_uses_per_game")
       for kind, value in (("text", BIG), ("list", [BIG, BIG]))},
    "unknown field": lambda: Rules.default().replace(**{BIG: 1}),
    "from_dict unknown field": lambda: Rules.from_dict({BIG: 1}),
    "power field": lambda: Power.from_dict({"element": "fire", "tier": "minor",
                                            "effect": "spark", "name": [BIG], "text": "",
                                            "instructions": ""}),
    "power of no element": lambda: Rules.default().replace(powers=[{
        "element": BIG, "tier": "minor", "effect": "spark", "name": BIG, "text": "",
        "instructions": ""}]),
}

@pytest.mark.parametrize("door", [
    name for name in RULES_DOORS])
def test_rules_refusals_are_short(door: str) -> None:
    assert len(refusal(RULES_DOORS[door])) <= LONGEST


OTHER_DOORS: dict[str, Callable[[], object]] = {
    "action type": lambda: Action.from_dict({"type": BIG}),
    "action slot": lambda: Action.from_dict({"type": "activate", "slot": BIG}),
    "action field": lambda: Action.from_dict({"type": "activate", "slot": 1, BIG: 1}),
    "replay unknown field": lambda: Replay.from_dict({**_replay_data(), BIG: 1}),
    "replay players": lambda: Replay.from_dict({**_replay_data(), "players": [BIG]}),
    "replay action": lambda: Replay.from_dict({**_replay_data(), "actions": [{"type": BIG}]}),
    "replay file name": lambda: Replay.load("/no/such/" + "d" * 5000 + ".json"),
    "study unknown field": lambda: Study.from_json(json.dumps({
        "format": "leyline-study", "version": 1, "title": "t", "chapters": [], BIG: 1})),
    "study format": lambda: Study.from_json(json.dumps({"format": BIG})),
    "simulate seats": lambda: simulate(Rules.default(), [BIG], games=1, seed=1),
    "simulate seed": lambda: simulate(Rules.default(), ["random"], games=1, seed=BIG),  # type: ignore[arg-type]
    "simulate games": lambda: simulate(Rules.default(), ["random"], games=BIG, seed=1),  # type: ignore[arg-type]
    "sweep values": lambda: sweep(Rules.default(), {"grid_cols": BIG}, ["random"], 1, 1),
    "balance seats": lambda: balance_report(Rules.default(), [BIG], games=1, seed=1),
    "balance games": lambda: balance_report(Rules.default(), ["random", "random"],
                                            games=BIG, seed=1),  # type: ignore[arg-type]
    "wilson": lambda: wilson_interval(1, BIG),  # type: ignore[arg-type]
    "ladder games": lambda: ladder(["random", "greedy"], games=BIG),  # type: ignore[arg-type]
    "analyse seed": lambda: analyse(Replay.from_game(Game.new(players=2, seed=1)), 0,
                                    seed=BIG),  # type: ignore[arg-type]
    "memory report player": lambda: memory_report(Game.new(players=2, seed=1), BIG),  # type: ignore[arg-type]
    "encoding decode": lambda: ActionSpace(Rules.default()).decode(BIG),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("door", list(OTHER_DOORS))
def test_other_refusals_are_short(door: str) -> None:
    assert len(refusal(OTHER_DOORS[door])) <= LONGEST


@pytest.mark.parametrize("args", [
    ["simulate", "--seat", "memory:" + BIG],
    ["simulate", "--seat", BIG],
    ["simulate", "--set", "grid_cols=" + BIG],
    ["simulate", "--set", "x" + BIG],
    ["simulate", "--set", "x" + BIG + "=1"],
    ["simulate", "--set", "deactivate_refund=" + BIG],
    ["simulate", "--sweep", "grid_cols=" + BIG],
    ["simulate", "--scheduler", BIG],
    ["simulate", "--out", BIG + ".xlsx"],
    ["simulate", "--out", "/no/such/" + "d" * 5000 + "/x.csv"],
    ["ladder", "--plot", BIG],
])
def test_cli_refusals_are_short(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*args, "--games", "2", "--jobs", "1"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("leyline: error: ") and len(err) <= LONGEST, err[:200]




def test_no_refusal_repeats_a_value_unshortened() -> None:
    """A message that names a value quotes it with ``quote`` (or ``names``), never ``!r``,
    which would repeat a megabyte in full."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "core/files.py":  # files.py: a slice; no imports
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                for sub in ast.walk(node.exc):
                    if isinstance(sub, ast.FormattedValue) and sub.conversion == ord("r"):
                        found.append(f"{rel}:{sub.lineno}: {ast.unparse(sub.value)}!r")
    assert found == []
