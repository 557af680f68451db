"""The golden playthroughs in tests/golden/ still describe what the engine does.

A failure here means behaviour changed. If the change is intended, rewrite the files with
``.venv/bin/python tests/golden/regen.py`` and review the diff of tests/golden/*.json.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from golden import regen

from leyline_widget import Action, Game, Rules

REWRITE = "if intended, rewrite with: .venv/bin/python tests/golden/regen.py"


def _stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(regen.path(name).read_text(encoding="utf-8"))
    return data


def _first_difference(old: dict[str, Any], new: dict[str, Any]) -> str:
    for key in old.keys() | new.keys():
        if key != "steps" and old.get(key) != new.get(key):
            return f"{key!r}: {old.get(key)!r} became {new.get(key)!r}"
    for a, b in zip(old["steps"], new["steps"]):
        for key in a.keys() | b.keys():
            if a.get(key) != b.get(key):
                return f"step {a['step']} {key!r}:\n  was {a.get(key)!r}\n  now {b.get(key)!r}"
    return f"{len(old['steps'])} steps became {len(new['steps'])}"


@pytest.mark.parametrize("name", list(regen.CASES))
def test_a_regenerated_playthrough_matches_its_file(name: str) -> None:
    stored = _stored(name)
    fresh = regen.playthrough(name)
    if stored != json.loads(json.dumps(fresh)):
        pytest.fail(f"{name}: {_first_difference(stored, fresh)}\n{REWRITE}")
    assert regen.path(name).read_text(encoding="utf-8") == regen.render(fresh), REWRITE


@pytest.mark.parametrize("name", list(regen.CASES))
def test_the_stored_actions_replay_to_the_stored_events_and_views(name: str) -> None:
    """The files as data, apart from the policy that chose the moves: replayed through a
    fresh Game, every action gives the recorded events, legal actions and observations."""
    stored = _stored(name)
    assert (stored["format"], stored["version"]) == (regen.FORMAT, regen.VERSION)
    game = Game.new(players=stored["players"], rules=Rules.from_dict(stored["rules"]),
                    deck=stored["initial_deck"])
    steps = stored["steps"]
    assert steps[0]["action"] is None and steps[0]["events"] == list(game.event_log[0])
    for step in steps:
        if step["action"] is not None:
            assert game.apply(Action.from_dict(step["action"])) == step["events"], step["step"]
        assert game.step == step["step"]
        assert [regen.short(a) for a in game.legal_actions()] == step["legal"], step["step"]
        views = {"all": game.observation(None),
                 **{str(p): game.observation(p) for p in range(len(game.players))}}
        assert views == step["observations"], step["step"]
    assert stored["truncated"] == (not game.is_over)
    assert stored["result"] == {"end_reason": game.end_reason, "scores": game.scores(),
                                "winners": game.winners(), "turns": game.turn}


def test_the_playthroughs_cover_the_rules_worth_reviewing() -> None:
    seen: set[str] = set()
    players: set[int] = set()
    for name in regen.CASES:
        stored = _stored(name)
        players.add(len(stored["players"]))
        for step in stored["steps"]:
            for ev in step["events"]:
                detail = {"reveal": "cause", "token_return": "to", "place_token": "source",
                          "game_over": "reason", "power": "name"}.get(ev["type"])
                seen.add(ev["type"] + (f":{ev[detail]}" if detail else ""))
            for p, events in step["seen_by"].items():
                # A private peek: its element is hidden from everyone but its user.
                assert all(ev["element"] is None for ev in events if ev["type"] == "reveal"
                           and ev["visible_to"] != "all"), p
                seen.add("hidden from another player")
    assert players == {1, 2, 3, 4}
    assert {
        "reveal:setup", "reveal:refill", "reveal:tide", "reveal:whisper", "activate",
        "deactivate", "pass", "collect", "flip_back", "phase", "turn", "swap", "tide",
        "place_token:supply", "place_token:marker", "place_token:pool", "token_return:marker",
        "token_return:pool", "power:Ripple", "power:Tide", "power:Unbind", "power:Sanctuary",
        "power:Whisper", "game_over:deck", "game_over:stalemate", "game_over:turn_limit",
        "hidden from another player",
    } <= seen


def test_every_golden_file_is_a_known_case_and_small() -> None:
    files = sorted(regen.GOLDEN_DIR.glob("*.json"))
    assert sorted(f.stem for f in files) == sorted(regen.CASES)
    for f in files:
        assert f.stat().st_size < 400_000, f"{f.name} is {f.stat().st_size // 1024} KB"
