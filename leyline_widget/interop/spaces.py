"""What the Gymnasium and PettingZoo environments share: the ruleset and action numbering they
start from, and the observation space (a seat's view and its action mask)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.echo import quote
from ..core.rules import MAX_COUNT, Rules
from .encoding import ActionSpace, view_size

__all__ = ["RENDER_MODES", "masked_observation_space", "setup"]

RENDER_MODES = (None, "ansi")


def setup(rules: Rules | None, render_mode: str | None) -> tuple[Rules, ActionSpace]:
    """The environment's rules (default: the seed's) and their action numbering."""
    if render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or 'ansi', got {quote(render_mode)}")
    rules = Rules.default() if rules is None else rules
    return rules, ActionSpace(rules)


def masked_observation_space(rules: Rules, players: int, actions: int) -> spaces.Dict:
    """``observation``: the view vector; ``action_mask``: int8, 1 for each legal action."""
    box: Any = spaces.Box(0.0, float(MAX_COUNT), (view_size(rules, players),), np.float32)
    return spaces.Dict({"observation": box,
                        "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
