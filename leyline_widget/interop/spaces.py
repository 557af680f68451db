"""What the Gymnasium and PettingZoo environments share: the ruleset and action numbering they
start from, and the observation space (a seat's view and its action mask)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.echo import quote
from ..core.rules import MAX_COUNT, Rules
from .encoding import ActionSpace, view_size

__all__ = ["RENDER_MODES", "ActionError", "action_number", "masked_observation_space", "setup"]

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


class ActionError(ValueError):
    """An environment was given something that is not an action number: a whole number
    (a Python or numpy integer) from 0 to the size of the action space, less one."""


def action_number(action: object, size: int) -> int:
    """``action`` as a plain ``int`` action number, or :class:`ActionError` naming what is
    wrong: ``"3"``, ``1.5``, ``None`` and ``True`` are not action numbers, and numbers
    outside ``0 .. size - 1`` are out of range. numpy integers (and a numpy integer array of
    one value, as some RL libraries give) are accepted.

    >>> action_number(np.int64(3), 584)
    3
    >>> action_number("3", 584)
    Traceback (most recent call last):
    ...
    leyline_widget.interop.spaces.ActionError: an action is a whole number from 0 to 583, got '3'
    """
    value: object = action
    if isinstance(value, np.ndarray) and value.size == 1 and value.ndim <= 1:
        value = value.reshape(()).item() if np.issubdtype(value.dtype, np.integer) else value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ActionError(f"an action is a whole number from 0 to {size - 1}, "
                          f"got {quote(action)}")
    number = int(value)
    if not 0 <= number < size:
        raise ActionError(f"action {quote(number)} is out of range: actions are numbered "
                          f"0 to {size - 1}")
    return number
