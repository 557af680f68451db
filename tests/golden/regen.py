"""Golden playthroughs: whole games written out step by step, checked in and compared.

Each file in this folder records one game (OpenSpiel-style playthrough): the rules, the dealt
deck, and for set-up and every action its events, the legal actions, and the observation of
every viewer (the all-seeing ``"all"`` and each player) afterwards. Events that a player sees
differently (a private peek) are listed again, filtered, under ``"seen_by"``.
``tests/test_golden.py`` replays every case and compares, so any change of behaviour shows up
as a diff of these files in review.

After an intended change of behaviour, rewrite them from the repository root with::

    .venv/bin/python tests/golden/regen.py          # or: python -m tests.golden.regen
    .venv/bin/python tests/golden/regen.py --check  # only compare; exit status 1 on a change

The actions come from a seeded random policy that leans towards collecting pairs, using powers
and placing tokens. It is frozen here, apart from the bots of the package, so that the files
change only when the engine does.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from leyline_widget import (
    Action,
    Activate,
    Deactivate,
    EndPhase,
    Game,
    PlaceToken,
    Refill,
    Rules,
    UsePower,
    visible_events,
)

GOLDEN_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(GOLDEN_DIR.parent))  # run as a script, it still finds tests/support.py
from support import lively  # noqa: E402

FORMAT, VERSION = "leyline-golden", 1

_MID = {"cards_per_element": 6, "grid_rows": 2, "grid_cols": 3}

#: name -> how the game is dealt and played. ``max_actions`` truncates long games so that every
#: file stays well under 400 KB; ``rules`` are changes to ``Rules.default()``.
CASES: dict[str, dict[str, Any]] = {
    # One player, the default game, ended by a turn limit: Whisper, tokens paid from the supply.
    "solo_turn_limit_seed1": {"players": 1, "seed": 1, "rules": {"turn_limit": 10},
                              "max_actions": 400},
    # Two players on a 2x3 grid with Majors at 3: Sanctuary, Unbind, Ripple, tokens to the
    # Spent markers and to the Token Pool, claimed from both; ends in a stalemate.
    "duel_powers_seed20": {"players": 2, "seed": 20, "rules": {**_MID, "major_threshold": 3},
                           "max_actions": 400},
    # Three players without tokens: Ripple, Tide, a Whisper only its user sees; the deck runs
    # out.
    "trio_deck_end_seed15": {"players": 3, "seed": 15,
                             "rules": {"cards_per_element": 4, "grid_rows": 2, "grid_cols": 3,
                                       "tokens_per_element": 0, "major_threshold": 3},
                             "max_actions": 400},
    # Four players, the default game: its first turns only.
    "quartet_default_seed42": {"players": 4, "seed": 42, "rules": {}, "max_actions": 34},
}


def policy(game: Game, rng: random.Random) -> Action:
    """The golden games' policy: lively random play (see tests/support.py)."""
    return lively(game, rng, bias=0.7, tokens=0.3)


def short(action: Action) -> str:
    """A compact, readable name for a legal action."""
    if isinstance(action, (Activate, Deactivate, Refill)):
        return f"{action.type} {action.slot}"
    if isinstance(action, PlaceToken):
        return f"place_token {action.slot} {action.element} {action.source}"
    if isinstance(action, UsePower):
        return f"use_power {action.element} {action.tier} " + ",".join(map(str, action.targets))
    assert isinstance(action, EndPhase)
    return "end_phase"


def _record(game: Game, action: Action | None, events: list[dict[str, Any]]) -> dict[str, Any]:
    viewers = range(len(game.players))
    seen_by = {}
    for p in viewers:
        seen = visible_events(events, p)
        if seen != events:
            seen_by[str(p)] = seen
    return {
        "step": game.step,
        "action": None if action is None else action.to_dict(),
        "events": events,
        "seen_by": seen_by,
        "legal": [short(a) for a in game.legal_actions()],
        "observations": {"all": game.observation(None),
                         **{str(p): game.observation(p) for p in viewers}},
    }


def playthrough(name: str) -> dict[str, Any]:
    """Deal and play the case ``name``; return the whole record."""
    case = CASES[name]
    rules = Rules.default().replace(**case["rules"])
    game = Game.new(players=case["players"], seed=case["seed"], rules=rules)
    rng = random.Random(case["seed"])
    steps = [_record(game, None, list(game.event_log[0]))]
    while not game.is_over and game.step < case["max_actions"]:
        action = policy(game, rng)
        events = game.apply(action)
        steps.append(_record(game, action, events))
    return {
        "format": FORMAT, "version": VERSION, "name": name, "case": case,
        "rules": rules.to_dict(), "players": list(game.players),
        "initial_deck": list(game.initial_deck),
        "truncated": not game.is_over,
        "result": {"end_reason": game.end_reason, "scores": game.scores(),
                   "winners": game.winners(), "turns": game.turn},
        "steps": steps,
    }


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(record: dict[str, Any]) -> str:
    """The record as JSON, one event or observation per line so that diffs stay readable."""
    out = ["{"]
    for key, value in record.items():
        if key != "steps":
            out.append(f"  {_line(key)}: {_line(value)},")
    out.append('  "steps": [')
    for i, step in enumerate(record["steps"]):
        out.append("    {")
        out.append(f'      "step": {step["step"]}, "action": {_line(step["action"])},')
        out.append('      "events": [' + ",".join(
            f"\n        {_line(ev)}" for ev in step["events"]) + "],")
        out.append(f'      "seen_by": {_line(step["seen_by"])},')
        out.append(f'      "legal": {_line(step["legal"])},')
        obs = step["observations"]
        out.append('      "observations": {' + ",".join(
            f"\n        {_line(k)}: {_line(v)}" for k, v in obs.items()) + "}")
        out.append("    }" + ("," if i < len(record["steps"]) - 1 else ""))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the checked-in files instead of writing them")
    args = parser.parse_args(argv)
    changed = []
    for name in CASES:
        text = render(playthrough(name))
        target = path(name)
        if target.exists() and target.read_text(encoding="utf-8") == text:
            continue
        changed.append(name)
        if not args.check:
            target.write_text(text, encoding="utf-8")
        print(f"{'differs' if args.check else 'wrote'}: {target} ({len(text) // 1024} KB)")
    if args.check and changed:
        return 1
    if not changed:
        print("golden playthroughs are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
