"""Leyline as a PettingZoo AEC environment with action masks (``pip install
leyline_widget[rl]``).

    from leyline_widget.interop.pettingzoo import env
    e = env(players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(
            obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, in seat order. Actions are the fixed numbering of
:class:`~leyline_widget.interop.encoding.ActionSpace` (584 under the default rules); each
observation is a dict: ``observation``, the seat's view as numbers (its
``Game.observation(seat)`` and its memory, the Knowledge fold of the events it was shown:
nothing it has not seen), and ``action_mask`` (int8, 1 for each legal action). Rewards come at
the end: 1 shared among the winners, 0 to the others. An action must be a whole number
(numpy integers included) in range: anything else (``"3"``, ``1.5``, ``None``, ``True``) raises
:class:`~leyline_widget.interop.spaces.ActionError` and changes nothing; an illegal move
raises the engine's ``IllegalActionError``. A game is truncated after
``max_actions`` actions (default 20,000), since the rules bound no game's length.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.echo import quote
from ..core.game import MAX_PLAYERS, Game, visible_events
from ..core.knowledge import Knowledge
from ..core.rules import Rules
from .encoding import view_vector
from .spaces import action_number, masked_observation_space, setup

__all__ = ["LeylineAECEnv", "env"]


def env(players: int = 2, rules: Rules | None = None, max_actions: int = 20_000,
        render_mode: str | None = None) -> LeylineAECEnv:
    """A new AEC environment for ``players`` seats (1 to 4) under ``rules``."""
    return LeylineAECEnv(players, rules, max_actions, render_mode)


class LeylineAECEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment; see the module text."""

    metadata: ClassVar[dict[str, Any]] = {"name": "leyline_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, players: int = 2, rules: Rules | None = None, max_actions: int = 20_000,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not (
                1 <= players <= MAX_PLAYERS):
            raise ValueError(f"players must be from 1 to {MAX_PLAYERS}, got {quote(players)}")
        self.rules, self.space = setup(rules, render_mode)
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        obs_space = masked_observation_space(self.rules, players, self.space.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(2**32))
        self.game = Game.new(players=len(self.possible_agents), seed=deal, rules=self.rules)
        self.minds = [Knowledge(p) for p in range(len(self.possible_agents))]
        self._feed(self.game.events_since(0))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._actions = 0
        self.agent_selection = self.agents[self.game.active_player]
        if self.game.is_over:  # a stalemate at set-up
            self._finish()
            self._accumulate_rewards()

    def _feed(self, events: list[Any]) -> None:
        for p, mind in enumerate(self.minds):
            mind.observe(visible_events(events, p))

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        view = view_vector(self.game.observation(seat), self.rules, self.minds[seat])
        mask = np.zeros(self.space.size, np.int8)
        if self.game.active_player == seat and not self.game.is_over:
            mask[self.space.legal(self.game)] = 1
        return {"observation": np.asarray(view, np.float32), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        move = self.space.decode(action_number(action, self.space.size))
        self._cumulative_rewards[agent] = 0.0
        self._feed(self.game.apply(move))
        self._actions += 1
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.game.is_over:
            self._finish()
        elif self._actions >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agents[self.game.active_player]
        self._accumulate_rewards()

    def _finish(self) -> None:
        assert self.game is not None
        scores = self.game.scores()
        winners = self.game.winners()
        for p, a in enumerate(self.agents):
            self.rewards[a] = 1.0 / len(winners) if p in winners else 0.0
            self.infos[a] = {"scores": scores, "end_reason": self.game.end_reason}
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return repr(self.game)

    def close(self) -> None:
        pass
