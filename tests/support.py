"""Helpers shared by the tests: hand-built rulesets and random legal play."""

from __future__ import annotations

import random
from typing import Any

from leyline_widget import Activate, Deactivate, Game, PlaceToken, Rules, UsePower
from leyline_widget.core.actions import Action

#: A small ruleset for hand-built positions: 2x2 grid, 3 cards of each element (12 cards).
SMALL = Rules.default().replace(cards_per_element=3, grid_rows=2, grid_cols=2)


def play_random(game: Game, seed: int, max_actions: int = 100_000) -> Game:
    """Play uniformly random legal actions until the game ends."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"game did not end within {max_actions} actions")


def lively(game: Game, rng: random.Random, bias: float = 0.6, tokens: float = 0.4) -> Action:
    """A random legal action, often (``bias``) one that collects, uses a power or places a
    token (``tokens``): random play that reaches the interesting rules."""
    legal = game.legal_actions()
    if rng.random() < bias:
        powers = [a for a in legal if isinstance(a, UsePower)]
        if powers:
            return rng.choice(powers)
        places = [a for a in legal if isinstance(a, PlaceToken)]
        if places and rng.random() < tokens:
            return rng.choice(places)
        active = {game.card(a.slot) for a in legal if isinstance(a, Deactivate)}
        acts = [a for a in legal if isinstance(a, Activate)]
        pairs = [a for a in acts if game.card(a.slot) in active
                 or sum(game.card(b.slot) == game.card(a.slot) for b in acts) >= 2]
        if pairs:
            return rng.choice(pairs)
    return rng.choice(legal)


def run_cli(args: list[str], capsys: Any) -> tuple[int, str, str]:
    """``leyline ARGS`` in this process: the exit code, stdout and stderr (``capsys``)."""
    from leyline_widget.cli import main

    try:
        code = main(args)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
#: The page's messages that are moves: a play widget refuses them until the deal was shown.
MOVES = ("action", "bot_step", "undo", "hint")


def deal_shown(w: Any, content: Any) -> None:
    """Before a move from the page, what the page says once the players pressed Ready and the
    deal is on screen (``{"type": "shown"}``): a play widget takes no move before that."""
    if not (isinstance(content, dict) and content.get("type") in MOVES):
        return
    seq = getattr(w, "shown_seq", None)
    if isinstance(seq, int) and seq < w.events["seq"]:
        w._handle_msg({"content": {"data": {"method": "custom", "content": {
            "type": "shown", "seq": w.events["seq"]}}}, "buffers": []})
