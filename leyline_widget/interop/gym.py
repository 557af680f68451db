"""Solo Leyline (the seed's single-player build) as a Gymnasium environment
(``pip install leyline_widget[rl]``).

    from leyline_widget.interop.gym import LeylineSoloEnv
    env = LeylineSoloEnv()
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(
        obs["action_mask"]))

Actions are the fixed numbering of :class:`~leyline_widget.interop.encoding.ActionSpace`; the
observation is a dict of ``observation`` (the seat's view and memory as numbers, see
:func:`~leyline_widget.interop.encoding.view_vector`) and ``action_mask`` (int8, 1 for each
legal action). The reward of a step is the change of the score (cards in the Study: a
collection adds, a token paid from the supply takes one away), so an episode's return is the
final score. A deal that ends at set-up (a stalemate) is dealt again at reset (up to
:data:`REDEALS` times). An illegal action changes nothing, earns 0 and is reported in
``info["illegal"]``; anything but a whole number from 0 to the action space's size less one
(``"3"``, ``1.5``, ``None``, ``True``) raises :class:`~leyline_widget.interop.spaces.ActionError`
and changes nothing. An episode is truncated after ``max_steps`` steps.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..core.game import Game
from ..core.knowledge import Knowledge
from ..core.rules import Rules
from .encoding import view_vector
from .spaces import action_number, masked_observation_space, setup

__all__ = ["REDEALS", "LeylineSoloEnv"]

#: Deals tried at reset for one that set-up does not end at once.
REDEALS = 100


class LeylineSoloEnv(gymnasium.Env[dict[str, Any], Any]):
    """One player against the deck; see the module text."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium's)

    def __init__(self, rules: Rules | None = None, max_steps: int = 5_000,
                 render_mode: str | None = None) -> None:
        self.rules, self.space = setup(rules, render_mode)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.space.size)
        self.observation_space = masked_observation_space(self.rules, 1, self.space.size)
        self.game: Game | None = None
        self.mind = Knowledge(0)
        self._steps = 0

    def _obs(self) -> dict[str, Any]:
        assert self.game is not None
        mask = np.zeros(self.space.size, np.int8)
        if not self.game.is_over:
            mask[self.space.legal(self.game)] = 1
        view = view_vector(self.game.observation(0), self.rules, self.mind)
        return {"observation": np.asarray(view, np.float32), "action_mask": mask}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(REDEALS):
            # A deal that set-up already ends (a stalemate) leaves no decision: deal again.
            deal = int(self.np_random.integers(2**32))
            game = Game.new(players=1, seed=deal, rules=self.rules)
            if not game.is_over:
                break
        self.game = game
        self.mind = Knowledge(0)
        self.mind.observe(game.events_since(0))
        self._steps = 0
        return self._obs(), {"deal": deal}

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        number = action_number(action, self.space.size)
        if self.game.end_reason is not None:
            raise RuntimeError("the episode is over: call reset()")
        self._steps += 1
        before = self.game.scores()[0]
        move = self.space.decode(number)
        info: dict[str, Any] = {}
        if self.game.is_legal(move):
            self.mind.observe(self.game.apply(move))
        else:
            info["illegal"] = self.game.why_illegal(move)
        reward = float(self.game.scores()[0] - before)
        terminated = self.game.is_over
        truncated = not terminated and self._steps >= self.max_steps
        if terminated:
            info["end_reason"] = self.game.end_reason
            info["score"] = self.game.scores()[0]
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return repr(self.game)
