"""Leyline as an OpenSpiel game: ``import leyline_widget.interop.openspiel`` registers
``python_leyline`` (``pip install leyline_widget[openspiel]``).

    import pyspiel
    import leyline_widget.interop.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_leyline", {"players": 2})
    game = pyspiel.load_game("python_leyline", {"players": 3, "rules": rules.to_json()})

Parameters: ``players`` (1 to 4) and ``rules``, a JSON object of Rules fields (``Rules.to_dict``;
missing fields take the defaults; ``""`` is the default ruleset).

**Chance.** The game starts with one chance node per card of the deck, top first: each
chooses the element of the next card among the elements still left, with probability
proportional to how many are left, so the deal is a uniform shuffle chosen incrementally.
Then the engine deals the grid from that deck and play begins.

**Actions** are numbered by :class:`~leyline_widget.interop.encoding.ActionSpace` (584 under
the default rules). The engine puts no bound on a game's length (the Deactivate refund lets
a player flip cards for ever), so a state is terminal after ``max_game_length`` player
actions too (20,000, as :func:`~leyline_widget.agents.simulate.simulate` caps games).

**Views.** Each player's observation (``observation_string``/``observation_tensor``) is built
from ``Game.observation(player)`` alone: what is face up now. The information state (perfect
recall) adds what that player remembers: every card it was shown, which is what
``Game.seat_view(player)`` knows (every grid card is shown to all when it lands; peeks to their
player), and the step, so that no two moments of a game share an information state (an
activation and its deactivation return to the same cards, not to the same moment). Nobody ever
sees the deck below its face-up top, so :meth:`LeylineState.resample_from_infostate` (ISMCTS)
re-deals exactly what the player was never shown (``Game.redeal``).

**Returns.** With 2 to 4 players a game is worth 1 shared among its winners (ties share the
victory), 0 to the others; solo, the score over the deck size.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.echo import quote
from ..core.game import MAX_PLAYERS, Game
from ..core.rules import Rules
from .encoding import ActionSpace, view_size, view_vector

__all__ = ["MAX_GAME_ACTIONS", "LeylineGame", "LeylineObserver", "LeylineState", "rules_param"]

#: Player actions after which a state counts as terminal (see the module text).
MAX_GAME_ACTIONS = 20_000

_DEFAULT_PARAMS = {"players": 2, "rules": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_leyline",
    long_name="Python Leyline",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS)


def rules_param(text: str) -> Rules:
    """The ``rules`` parameter: a JSON object of Rules fields, or ``""`` for the defaults."""
    if not text:
        return Rules.default()
    try:
        data = json.loads(text)
    except ValueError as err:
        raise ValueError(f"the rules parameter must be a JSON object: {err}") from None
    return Rules.from_dict(data)


class LeylineGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: one ruleset and a number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        players = params["players"]
        if isinstance(players, bool) or not isinstance(players, int) or not (
                1 <= players <= MAX_PLAYERS):
            raise ValueError(f"players must be from 1 to {MAX_PLAYERS}, got {quote(players)}")
        self.rules = rules_param(params["rules"])
        self.players = players
        self.space = ActionSpace(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=len(self.rules.elements),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=self.rules.deck_size + MAX_GAME_ACTIONS)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> LeylineState:
        return LeylineState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> LeylineObserver:
        perfect = True if iig_obs_type is None else bool(iig_obs_type.perfect_recall)
        return LeylineObserver(self, perfect, params)


class LeylineState(pyspiel.State):  # type: ignore[misc]
    """A position: the deal so far (chance), then a Game."""

    def __init__(self, game: LeylineGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._players = game.players
        self._space = game.space
        self._deal: list[str] = []
        self._left = dict.fromkeys(game.rules.elements, game.rules.cards_per_element)
        self.game: Game | None = None
        self._moves = 0
        # Who moves now (a pyspiel.PlayerId while dealing and once over), set after each action.
        self._player = int(pyspiel.PlayerId.CHANCE)

    @property
    def dealt(self) -> int:
        """Cards dealt into the deck so far by the chance nodes."""
        return len(self._deal)

    # ------------------------------------------------------------------ the pyspiel API
    def current_player(self) -> int:
        return self._player

    def _moved(self) -> None:
        """After an action: who moves next, or nobody once the game is over."""
        game = self.game
        if game is None:
            self._player = int(pyspiel.PlayerId.CHANCE)
        elif game.is_over or self._moves >= MAX_GAME_ACTIONS:
            self._player = int(pyspiel.PlayerId.TERMINAL)
        else:
            self._player = game.active_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None and player == self.game.active_player
        return self._space.legal(self.game)

    def apply_action(self, action: Any) -> None:
        """Apply action number ``action``; anything but a whole number of this game's action
        space (numpy integers included) is refused with a short ``ValueError`` naming it, and
        changes nothing (OpenSpiel itself would stop at -1 with its own internal check)."""
        top = len(self._rules.elements) if self.game is None else self._space.size
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not (
                0 <= action < top):
            what = "a card's element" if self.game is None else "an action"
            raise ValueError(f"{what} is a number from 0 to {top - 1}, got {quote(action)}")
        super().apply_action(int(action))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self._left.values())
        return [(i, n / total) for i, n in enumerate(self._left.values()) if n]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            element = self._rules.elements[action]
            if not self._left[element]:
                raise ValueError(f"no {element} card is left to deal")
            self._left[element] -= 1
            self._deal.append(element)
            if len(self._deal) == self._rules.deck_size:
                self.game = Game.new(players=self._players, rules=self._rules, deck=self._deal)
                self._moved()
            return
        self.game.apply(self._space.decode(action))
        self._moves += 1
        self._moved()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._rules.elements[action]}"
        return json.dumps(self._space.decode(action).to_dict(), sort_keys=True)

    def is_terminal(self) -> bool:
        return self._player == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._players
        assert self.game is not None
        scores = self.game.scores()
        if self._players == 1:
            return [scores[0] / self._rules.deck_size]
        top = max(scores)
        winners = [p for p, s in enumerate(scores) if s == top]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self._players)]

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {len(self._deal)} of {self._rules.deck_size} cards"
        return json.dumps(self.game.observation(None), sort_keys=True)

    def __deepcopy__(self, memo: dict[int, Any]) -> LeylineState:
        # OpenSpiel clones a Python state with deepcopy; a Game clones cheaply on its own.
        new = LeylineState(self.get_game())
        new._deal = list(self._deal)
        new._left = dict(self._left)
        new.game = None if self.game is None else self.game.clone()
        new._moves = self._moves
        new._player = self._player
        return new

    def resample_from_infostate(self, player: int, sampler: Any = None) -> LeylineState:
        """A state ``player`` cannot tell from this one: what it was never shown (the deck
        below its face-up top, and grid cards it has not seen) is re-dealt."""
        new = self.__deepcopy__({})
        if self.game is None:
            return new
        seed = int(sampler() * 2**32) if callable(sampler) else random.getrandbits(32)
        new.game = self.game.redeal(player, seed)
        new._moved()
        return new


class LeylineObserver:
    """OpenSpiel's observer: one player's view as a tensor and a string.

    ``perfect_recall=True`` (the information state) adds the player's memory of the grid.
    """

    def __init__(self, game: LeylineGame, perfect_recall: bool,
                 params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = perfect_recall
        self.rules = game.rules
        size = view_size(game.rules, game.players) + 1  # + "dealing done" flag
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: LeylineState, player: int) -> None:
        self.tensor.fill(0)
        if state.game is None:
            return
        mind = state.game.seat_view(player) if self.perfect_recall else None
        self.tensor[:-1] = view_vector(state.game.observation(player), self.rules, mind)
        self.tensor[-1] = 1.0

    def string_from(self, state: LeylineState, player: int) -> str:
        if state.game is None:
            return f"dealing {state.dealt}/{self.rules.deck_size}"
        view: dict[str, Any] = {"observation": state.game.observation(player)}
        if self.perfect_recall:
            known = state.game.seat_view(player).known
            view["known"] = {str(s): el for s, el in sorted(known.items())}
            view["step"] = state.game.step
        return json.dumps(view, sort_keys=True)


pyspiel.register_game(_GAME_TYPE, LeylineGame)
