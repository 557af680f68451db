"""Hostile and damaged replay files: each is refused with a message naming the field or step."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from leyline_widget import Game, Replay, ReplayFormatError


def _make() -> tuple[str, dict[str, Any]]:
    game = Game.new(players=2, seed=31)
    rng = random.Random(31)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    replay = Replay.from_game(game)
    replay.annotate(3, "a note", tags=["hint"], highlights=[2])
    replay.set_glyph(4, "?!")
    side = replay.branch(20, name="side")
    for _ in range(6):
        side.apply(rng.choice(side.legal_actions()))
    replay.set_glyph(22, "!!", variation=1)
    text = replay.to_json()
    return text, json.loads(text)


TEXT, DATA = _make()


def refused(data: Any, *fragments: str) -> ReplayFormatError:
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(ReplayFormatError) as info:
        Replay.from_json(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return info.value


def edited(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    change(data)
    return data


def test_the_sample_loads() -> None:
    replay = Replay.from_json(TEXT)
    assert len(replay) == 60 and len(replay.variations) == 1
    assert replay.to_json() == TEXT


@pytest.mark.parametrize("cut", sorted({1, 2, 10, 57, 100, 500, *range(0, len(TEXT), 997),
                                        len(TEXT) - 2, len(TEXT) - 1}))
def test_truncated_files_are_refused(cut: int) -> None:
    refused(TEXT[:cut], "not valid JSON (truncated or damaged?)")


def test_empty_and_non_object_files_are_refused() -> None:
    refused("", "not valid JSON")
    refused("[1, 2]", "a replay is a JSON object, got list")
    refused('"leyline-replay"', "a replay is a JSON object, got str")
    refused(b"\xff\xfe{}", "not UTF-8")
    with pytest.raises(ReplayFormatError, match="JSON text, got int"):
        Replay.from_json(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(("change", "fragments"), [
    (lambda d: d.update(format="chess-pgn"), ("field 'format'", "not a Leyline replay")),
    (lambda d: d.pop("format"), ("field 'format'",)),
    (lambda d: d.update(version=4), ("version 4", "newer", "upgrade")),
    (lambda d: d.update(version=99, rules="from the future"), ("version 99", "newer")),
    (lambda d: d.update(version=0), ("field 'version' must be from 1 to 3",)),
    (lambda d: d.update(version="1"), ("field 'version' must be an integer",)),
    (lambda d: d.update(version=True), ("field 'version' must be an integer",)),
    (lambda d: d.update(version=1.0), ("field 'version' must be an integer",)),
    (lambda d: d.pop("version"), ("field 'version' is missing",)),
    (lambda d: d.update(extra=1), ("unknown field(s) 'extra'",)),
    (lambda d: d.update(rules=[]), ("field 'rules' must be an object",)),
    (lambda d: d["rules"].update(grid_rows="3"), ("field 'rules'", "grid_rows must be a whole")),
    (lambda d: d["rules"].update(grid_rows=2.0), ("field 'rules.grid_rows'", "not a whole")),
    (lambda d: d["rules"].update(colour="red"), ("field 'rules'", "unknown rules field")),
    (lambda d: d["rules"].update(elements=["fire", "Fire!"]), ("field 'rules'", "valid id")),
    (lambda d: d["rules"]["powers"][0].update(effect="nuke"), ("field 'rules'", "nuke")),
    (lambda d: d.update(players=[]), ("field 'players' must list 1 to 4",)),
    (lambda d: d.update(players=["a", "b", "c", "d", "e"]), ("field 'players'",)),
    (lambda d: d.update(players=[1, 2]), ("field 'players'",)),
    (lambda d: d.update(players="Ada"), ("field 'players' must be a list",)),
    (lambda d: d.update(players=["Ada", "Bo", "Cy"]), ("step 0 (set-up): state hash mismatch",)),
    (lambda d: d.update(seed="7"), ("field 'seed' must be an integer or null",)),
    (lambda d: d["initial_deck"].pop(), ("field 'initial_deck'", "47 cards")),
    (lambda d: d["initial_deck"].__setitem__(0, "aether"), ("field 'initial_deck'", "aether")),
    (lambda d: d.update(initial_deck="fire"), ("field 'initial_deck' must be a list",)),
    (lambda d: d.pop("initial_deck"), ("exactly one of the fields 'initial_deck'",)),
    (lambda d: d.update(start_position={}), ("exactly one of the fields",)),
    (lambda d: d["initial_deck"].reverse(), ("field 'seed'", "does not deal")),
    (lambda d: (d["initial_deck"].reverse(), d.update(seed=None)),
     ("step 0 (set-up): state hash mismatch",)),
    (lambda d: d.update(actions={}), ("field 'actions' must be a list",)),
    (lambda d: d.update(hashes=d["hashes"][:-1]), ("field 'hashes' must hold 61",)),
    (lambda d: d["hashes"].__setitem__(5, "XYZ"), ("field 'hashes[5]' must be 32 hex digits",)),
    (lambda d: d["hashes"].__setitem__(0, "0" * 32), ("step 0 (set-up): state hash mismatch",)),
    (lambda d: d["hashes"].__setitem__(5, "A" * 32), ("field 'hashes[5]' must be 32 hex digits",)),
    (lambda d: d["hashes"].__setitem__(5, "ab " * 10 + "cd"), ("field 'hashes[5]' must be 32",)),
    (lambda d: d["hashes"].__setitem__(5, 7), ("field 'hashes[5]' must be 32 hex digits",)),
    (lambda d: d["variations"][0]["actions"].__setitem__(2, {"type": "activate", "slot": 10**30}),
     ("field 'variations[0].actions[2].slot'", "out of range")),
    (lambda d: d["variations"][0]["actions"].__setitem__(2, {"type": "use_power",
                                                             "targets": [[[[[[[[[[1]]]]]]]]]]}),
     ("field 'variations[0].actions[2]", "nesting is deeper")),
    (lambda d: d["variations"][0]["hashes"].__setitem__(2, "0" * 32),
     ("step 23: state hash mismatch", "an action or a hash was edited")),
    # The first fault is named: an edited hash before an illegal action.
    (lambda d: (d["hashes"].__setitem__(17, "0" * 32),
                d["actions"].__setitem__(40, {"type": "activate", "slot": 99})),
     ("step 17: state hash mismatch",)),
    (lambda d: d["variations"][0]["hashes"].__setitem__(1, "g" * 32),
     ("field 'variations[0].hashes[1]' must be 32 hex digits",)),

    (lambda d: d["hashes"].__setitem__(17, "0" * 32),
     ("step 17: state hash mismatch", "an action or a hash was edited")),
    (lambda d: d["actions"].__setitem__(16, {"type": "fly"}),
     ("step 17: action {'type': 'fly'} is malformed", "unknown action type")),
    (lambda d: d["actions"].__setitem__(16, {"type": "activate"}),
     ("step 17:", "malformed", "integer 'slot'")),
    (lambda d: d["actions"].__setitem__(16, {"type": "activate", "slot": 99}),
     ("step 17: action {'type': 'activate', 'slot': 99} is illegal",
      "slot 99 does not exist")),
    (lambda d: d["actions"].__setitem__(16, {"type": "activate", "slot": 10**30}),
     ("field 'actions[16].slot'", "out of range")),
    (lambda d: d["actions"].__setitem__(16, "end_phase"), ("step 17:", "must be an object")),
    (lambda d: d["actions"].append({"type": "end_phase"}), ("field 'hashes' must hold 62",)),
    (lambda d: d.update(annotations={}), ("field 'annotations' must be a list",)),
    (lambda d: d["annotations"][0].update(step=62), ("annotations[0].step", "not on this line")),
    (lambda d: d["annotations"][0].update(step=-1), ("annotations[0].step",)),
    (lambda d: d["annotations"][0].update(text="x" * 10_001), ("annotations[0].text",
                                                               "10001 characters")),
    (lambda d: d["annotations"][0].update(text="\x1b[2J"), ("annotations[0]", "step 3",
                                                             "control character")),
    (lambda d: d["annotations"][0].update(tags=["<b>"]), ("annotations[0]", "is not a tag")),
    (lambda d: d["annotations"][0].update(highlights=[12]), ("annotations[0]",
                                                             "not a grid slot")),
    (lambda d: d["annotations"][0].update(colour=1), ("annotations[0]", "unknown field")),
    (lambda d: d["annotations"][0].pop("text"), ("annotations[0].text' is missing",)),
    (lambda d: d["annotations"].append(7), ("annotations[1]' must be an object",)),
    (lambda d: d.update(glyphs={}), ("field 'glyphs' must be a list",)),
    (lambda d: d["glyphs"].append(7), ("field 'glyphs[1]' must be an object",)),
    (lambda d: d["glyphs"][0].update(glyph="!!!"), ("glyphs[0].glyph", "not a glyph")),
    (lambda d: d["glyphs"][0].update(glyph=1), ("glyphs[0].glyph' must be a string",)),
    (lambda d: d["glyphs"][0].update(step=0), ("glyphs[0].step", "not a move of this line")),
    (lambda d: d["glyphs"][0].update(step=61), ("glyphs[0].step", "not a move of this line")),
    (lambda d: d["glyphs"][0].update(step=True), ("glyphs[0].step' must be an integer",)),
    (lambda d: d["glyphs"][0].update(why="?"), ("glyphs[0]", "unknown field(s) 'why'")),
    (lambda d: d["glyphs"].append({"step": 4, "glyph": "!"}), ("step 4 has two glyphs",)),
    (lambda d: d["variations"][0]["glyphs"][0].update(step=20),
     ("variations[0].glyphs[0].step", "steps 21 to 26")),
    (lambda d: d.update(version=1), ("field 'glyphs' is new in format version 2",)),
    (lambda d: d.update(variations=[1]), ("variations[0]' must be an object",)),
    (lambda d: d["variations"][0].update(id=0), ("variations[0].id", "new positive id")),
    (lambda d: d["variations"].append(copy.deepcopy(d["variations"][0])),
     ("variations[1].id", "not a new positive id")),
    (lambda d: d["variations"][0].update(parent=5), ("variations[0].parent",
                                                     "not the id of an earlier variation")),
    (lambda d: d["variations"][0].update(parent=True), ("variations[0].parent",)),
    (lambda d: d["variations"][0].update(step=61), ("variations[0].step", "0 to 60")),
    (lambda d: d["variations"][0].update(name=""), ("variations[0].name", "non-empty")),
    (lambda d: d["variations"][0].update(name=None), ("variations[0].name' must be a string",)),
    (lambda d: d["variations"][0]["hashes"].__setitem__(2, "f" * 32),
     ("variation 1 ('side'), step 23: state hash mismatch",)),
    (lambda d: d["variations"][0]["actions"].__setitem__(0, {"type": "refill", "slot": 0}),
     ("variation 1 ('side'), step 21: action {'type': 'refill', 'slot': 0} is illegal",)),
    (lambda d: d["variations"][0].update(moves=[]), ("variations[0]", "unknown field(s) 'moves'")),
    (lambda d: d["variations"][0]["annotations"].append({"step": 3, "text": "before"}),
     ("variations[0].annotations[0].step", "not on this line (steps 20 to 26)")),
])
def test_edited_fields_are_refused(change: Callable[[dict[str, Any]], object],
                                   fragments: tuple[str, ...]) -> None:
    error = refused(edited(change), *fragments)
    assert error.field is not None or error.step is not None


def test_an_action_equal_to_an_earlier_one_only_under_loose_types_is_refused() -> None:
    # Each distinct action is parsed once: {"slot": false} equals {"slot": 0} under == and
    # hashing, so the parse cache must not hand step 12 the action parsed at step 1.
    actions = DATA["actions"]
    assert actions[0] == actions[11] == {"type": "activate", "slot": 0}
    refused(edited(lambda d: d["actions"][11].update(slot=False)), "step 12:", "malformed")
    refused(edited(lambda d: d["actions"][11].update(slot=0.0)), "actions[11].slot",
            "not a whole number")


def test_an_edited_action_breaks_the_hash_chain() -> None:
    # Swap two actions for others that are legal there: only the hashes give it away.
    replay = Replay.from_json(TEXT)
    for k in range(len(replay)):
        game = replay.game_at(k)
        others = [a for a in game.legal_actions() if a != replay.actions[k]]
        if others:
            break
    data = edited(lambda d: d["actions"].__setitem__(k, others[0].to_dict()))
    refused(data, f"step {k + 1}", "state hash mismatch")


def test_a_variation_moved_to_another_step_is_refused() -> None:
    # (Moving it within the same turn can be harmless: random play toggles cards from step 9
    # to 28, and they all flip back at the variation's first EndPhase: such files are
    # consistent.) From another turn, the hashes give it away.
    refused(edited(lambda d: d["variations"][0].update(step=40, glyphs=[])),
            "variation 1 ('side'), step")


@pytest.mark.parametrize(("text", "fragment"), [
    ('{"format": "leyline-replay", "version": 1, "version": 1}', "the key 'version' appears twice"),
    ('{"format": "leyline-replay", "version": NaN}', "NaN is not a JSON number"),
    ('{"format": "leyline-replay", "version": Infinity}', "Infinity is not a JSON number"),
    ('{"format": "leyline-replay", "version": 1e400}', "field 'version' must be an integer"),
    ('{"format": "leyline-replay", "version": ' + "9" * 5000 + "}", "not valid replay JSON"),
    ("[" * 100_000 + "]" * 100_000, "nesting is too deep"),
])
def test_hostile_json_is_refused(text: str, fragment: str) -> None:
    refused(text, fragment)


def test_huge_numbers_and_deep_nesting_inside_fields_are_refused() -> None:
    refused(edited(lambda d: d["rules"].update(cards_per_element=2**70)), "rules.cards_per_element",
            "out of range")
    refused(edited(lambda d: d.update(seed=-(2**64))), "field 'seed'", "out of range")
    # Rules bound every size (DESIGN.md), so a huge deck or supply is refused as rules at once.
    refused(edited(lambda d: d["rules"].update(cards_per_element=10**15)), "field 'rules'",
            "cards_per_element must be at most 10000")
    refused(edited(lambda d: d["rules"].update(tokens_per_element=10**15)), "field 'rules'",
            "tokens_per_element must be at most 1000")
    refused(edited(lambda d: d["rules"].update(tokens_per_element=6)),
            "step 0 (set-up): state hash mismatch")
    nested: Any = 1
    for _ in range(20):
        nested = [nested]
    refused(edited(lambda d: d["annotations"][0].update(tags=nested)), "nesting is deeper")
    refused(edited(lambda d: d.update(generator="x" * 20_000)), "field 'generator'", "limit")


def test_size_limits(tmp_path: Any) -> None:
    assert len(Replay.from_json(TEXT + " " * 10)) == 60
    with pytest.raises(ReplayFormatError, match=r"limit is 1000 \(pass max_bytes"):
        Replay.from_json(TEXT, max_bytes=1000)
    with pytest.raises(ReplayFormatError, match="limit is 1000"):
        Replay.from_json(TEXT.encode(), max_bytes=1000)
    path = tmp_path / "big.json"
    path.write_text(TEXT)
    with pytest.raises(ReplayFormatError, match=r"the file is \d+ bytes; the limit is 1000"):
        Replay.load(path, max_bytes=1000)
    assert len(Replay.load(path)) == 60


def test_random_damage_is_refused_or_harmless() -> None:
    """Fuzz: flip, drop and duplicate characters. Every outcome is a clean refusal or a
    replay that survives its own round trip; nothing else escapes."""
    rng = random.Random(2024)
    alphabet = '{}[]",:0123456789abcdef -truenl'
    loaded = refusals = 0
    for _ in range(250):
        chars = list(TEXT)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            kind = rng.randrange(3)
            if kind == 0:
                chars[i] = rng.choice(alphabet)
            elif kind == 1:
                del chars[i]
            else:
                j = min(len(chars), i + rng.randint(1, 40))
                chars[i:i] = chars[i:j]
        text = "".join(chars)
        try:
            replay = Replay.from_json(text)
        except ReplayFormatError as err:
            assert str(err)
            refusals += 1
        else:
            assert Replay.from_json(replay.to_json()).to_json() == replay.to_json()
            loaded += 1
    assert refusals > 200  # almost all damage is caught; what loads is a consistent replay


def test_a_start_position_is_checked() -> None:
    start = Game.new(players=2, seed=5)
    for _ in range(4):
        start.apply(start.legal_actions()[-1])
    game = Game.from_position(start.position())
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    data = json.loads(Replay.from_game(game).to_json())
    assert len(Replay.from_json(json.dumps(data))) == 6

    def change(edit: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
        copied = copy.deepcopy(data)
        edit(copied)
        return copied

    refused(change(lambda d: d["start_position"]["grid"].pop()), "field 'start_position'",
            "grid must have 12 entries")
    refused(change(lambda d: d["start_position"]["players"].reverse()), "field 'start_position'",
            "rules and players")
    refused(change(lambda d: d.update(seed=5)), "field 'seed' must be null")
    refused(change(lambda d: d["start_position"].update(turn=9)),
            "step 0 (set-up): state hash mismatch")
    refused(change(lambda d: d.update(initial_deck=list(game.initial_deck))),
            "exactly one of the fields")
