"""One position, read by all (issue 24): one list of a position's fields, one answer to "which
powers can be used now", and bots that decide from a seat's view without reading the Game."""

from __future__ import annotations

import ast
import itertools
import pickle
from dataclasses import fields
from pathlib import Path

import leyline_widget
from leyline_widget import Game, Rules, UsePower
from leyline_widget.core.actions import Action
from leyline_widget.core.position import FIELDS, Position

PACKAGE = Path(leyline_widget.__file__).parent
TIDE = ("water", "major")
EARLY = Rules.default().replace(major_threshold=2)


def _sources() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text("utf-8"))) for p in sorted(PACKAGE.rglob("*.py"))
            if "static" not in p.parts]


def test_the_position_fields_are_listed_once_and_every_copy_follows_them() -> None:
    assert tuple(f.name for f in fields(Position)) == FIELDS
    # The Game keeps its position as one value, not field by field.
    assert not set(FIELDS) & {name.lstrip("_") for name in Game.__slots__}
    game = Game.new(players=2, seed=3)
    for action in game.legal_actions()[:2]:
        game.apply(action)
    pos = game._pos
    copy = pos.copy()
    for name in FIELDS:
        a, b = getattr(pos, name), getattr(copy, name)
        assert a == b, name
        assert not isinstance(a, list) or a is not b, f"{name} is shared by a copy"
    for other in (game.clone(), Game.thaw(game.freeze()), pickle.loads(pickle.dumps(game))):
        assert all(getattr(other._pos, n) == getattr(pos, n) for n in FIELDS)
        assert other.state_hash() == game.state_hash()
    assert Game.from_position(game.position()).state_hash() == game.state_hash()


def test_no_function_of_the_core_passes_a_position_field_by_field() -> None:
    # The old _make took 29 positional fields; swapping two list[int] arguments passed mypy.
    wide = [f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}"
            for path, tree in _sources() if path.parent.name == "core"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and len(node.args.args) > 10]
    assert wide == []


def _calls_outside(attr: str, allowed: set[tuple[str, str]], call: bool = False) -> list[str]:
    """Where ``.attr`` is read (``call``: called) outside the allowed (module, function)
    places."""
    found = []
    for path, tree in _sources():
        module = str(path.relative_to(PACKAGE))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in ast.walk(func):
                if call:
                    node = node.func if isinstance(node, ast.Call) else None  # type: ignore
                if isinstance(node, ast.Attribute) and node.attr == attr and (
                        module, func.name) not in allowed:
                    found.append(f"{module}:{node.lineno} in {func.name}")
    return sorted(set(found))


def test_one_function_answers_which_powers_can_be_used() -> None:
    # Whether a Study unlocks a power, whether a Major power is used up for the game, and
    # whether a power was used this turn are decided in Game.power_problem (and _usable,
    # which it asks; _problem puts its answer in words); the legal lists, Phase 1's
    # skipping, the stalemate test, the seat view and the page all ask it.
    # (A bot's forecast of what a Study would unlock on a later turn reads the rules'
    # thresholds once, as it sits down; it decides no legality.)
    assert _calls_outside("threshold", {("core/game.py", "_from"), ("agents/bots.py", "start"),
                                        ("core/rules.py", "unlocked_between")},
                          call=True) == []
    assert _calls_outside("major_uses_per_game", {
        ("core/game.py", "_usable"), ("core/game.py", "_problem"),
        ("core/digest.py", "_house_state"),
        ("core/rules.py", "_validate")}) == []
    dealt = Game.new(players=2, seed=11)
    deck = list(dealt.deck)
    study = {"fire": deck.count("fire") and 2, "water": 2}
    for el, n in study.items():
        for _ in range(n):
            deck.remove(el)
    game = Game.from_position({"players": 2, "grid": [dealt.card(s) for s in range(12)],
                               "deck": deck, "study": [study, {}], "phase": "abilities"})
    ready = [pw.key for pw in game.ready_powers()]
    assert game.phase == "abilities" and ready
    listed = {f"{a.element}:{a.tier}" for a in game.legal_actions() if hasattr(a, "tier")}
    assert listed == set(ready)
    assert [pw.key for pw in game.seat_view(0).usable] == ready
    assert all(game.power_problem(key) is None for key in ready)


def test_every_card_the_seat_was_shown_is_in_its_view_and_nothing_else() -> None:
    game = Game.new(players=2, seed=4)
    view = game.seat_view(1)
    assert dict(view.known) == {s: game.card(s) for s in range(12)}
    assert view.public == frozenset(range(12))
    # A game from a position: a seat knows only what it has been shown since.
    start = Game.from_position(game.position())
    assert dict(start.seat_view(0).known) == {}
    start.apply(start.legal_actions()[0])  # an activation shows its card to every seat
    assert start.seat_view(1).known == {0: game.card(0)}


def _random_steps(seed: int, steps: int = 400, rules: Rules = EARLY
                  ) -> tuple[Game, list[Action]]:
    """A random game (Major powers unlock early: water's Tide moves the deck) and its
    actions."""
    import random

    game = Game.new(players=2, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_over and game.step < steps:
        game.apply(rng.choice(game.legal_actions()))
    return game, list(game.actions)


def test_the_ready_powers_kept_for_phase_1_are_the_ones_the_rules_give() -> None:
    # Phase 1 keeps the active player's ready powers in the position (found as it begins
    # and after each use); the legal list, the view and a check of a use read them.
    phase1 = 0
    for seed in range(8):
        _, actions = _random_steps(seed)
        game = Game.new(players=2, seed=seed, rules=EARLY)
        for action in actions:
            if game.phase == "abilities":
                phase1 += 1
                fresh = Game.from_position(game.position())  # found again from the fields
                ready = [pw.key for pw in fresh.ready_powers()]
                listed = {f"{a.element}:{a.tier}" for a in game.legal_actions()
                          if hasattr(a, "tier")}
                assert listed == set(ready)
                assert [pw.key for pw in game.seat_view(game.active_player).usable] == ready
            game.apply(action)
    assert phase1 > 20


def test_hashed_yields_each_steps_state_hash_and_frozen_positions_share_what_is_unchanged(
        ) -> None:
    tides = 0
    for seed in range(6):
        _, actions = _random_steps(seed)
        game, other = (Game.new(players=2, seed=seed, rules=EARLY) for _ in range(2))
        snap, kept = other.freeze(), []
        for action, digest in zip(actions, game.hashed(actions)):
            tides += isinstance(action, UsePower) and (action.element, action.tier) == TIDE
            other.apply(action)
            assert digest == other.state_hash()
            snap = other.freeze(snap)
            kept.append((snap, other.state_hash()))
        assert game.state_hash() == other.state_hash()
        assert [Game.thaw(s).state_hash() for s, _ in kept] == [h for _, h in kept]
        values = [s[2] for s, _ in kept]
        shared = sum(a is b for before, after in itertools.pairwise(values)
                     for a, b in zip(before, after) if isinstance(a, list))
        assert shared > len(values)  # most of a step's lists are the ones kept before
    assert tides > 0


def test_hashed_carries_the_counts_only_while_they_stand_still() -> None:
    # The bytes of the counts are carried from step to step while no collection, token or
    # payment changes them; a supply past 255 tokens takes every number in 8 bytes.
    for rules in (EARLY, EARLY.replace(tokens_per_element=300)):
        for seed in range(3):
            _, actions = _random_steps(seed, rules=rules)
            game, other = (Game.new(players=2, seed=seed, rules=rules) for _ in range(2))
            for action, digest in zip(actions, game.hashed(actions), strict=True):
                other.apply(action)
                assert digest == other.state_hash()
