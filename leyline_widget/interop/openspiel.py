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

**Views.** Each player's observation (``observation_string``/``observation_tensor``) is what
is face up now. The information state (perfect recall) adds what that player knows: every
grid card it was shown, which is what ``Game.seat_view(player)`` knows (every grid card is
shown to all when it lands; peeks to their player), and the step, so that no two moments of a
game share an information state (an activation and its deactivation return to the same cards,
not to the same moment). The strings are one line of fixed parts in a fixed order, for example
``seat 0 | step 5 | turn 3 activation player 0 | grid fire water* ... | tokens - | deck 36 top
fire | study 0/1/0/0 0/0/0/0 | ...`` (``*`` a face-up card, ``?`` a card the player does not
know, ``-`` an empty slot; counts per element in the rules' order, one group per seat); the
tensors hold the same view as numbers (the information state's also the step). Nobody ever
sees the deck below its face-up top, so :meth:`LeylineState.resample_from_infostate` (ISMCTS)
re-deals exactly what the player was never shown (``Game.redeal``).

**Copies.** ``state.clone()`` (and ``copy.deepcopy``) copies the position as ``Game.clone``
does, sharing the history that never changes, and keeps pyspiel's history of actions.

**Returns.** With 2 to 4 players a game is worth 1 shared among its winners (ties share the
victory), 0 to the others; solo, the score over the deck size.
"""

from __future__ import annotations

import copy
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


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: pyspiel's own apply_action, which records the action in the state's history.
_record_and_apply = pyspiel.State.apply_action


class _Engine:
    """The engine's side of a state: the deck dealt so far and the cards of each element (in
    the rules' order) not dealt yet, then the Game, and the action numbers legal at its step
    (None until asked). OpenSpiel clones a Python state by deep-copying each attribute; this
    one copies as the Game clones, sharing the history that never changes."""

    __slots__ = ("deal", "game", "left", "legal")

    def __init__(self, deal: list[str], left: list[int], game: Game | None = None,
                 legal: list[int] | None = None) -> None:
        self.deal = deal
        self.left = left
        self.game = game
        self.legal = legal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        if self.game is None:
            return _Engine(list(self.deal), list(self.left))
        # The same position has the same legal numbers, and the list is never changed.
        return _Engine(self.deal, self.left, self.game.clone(), self.legal)


class LeylineState(pyspiel.State):  # type: ignore[misc]
    """A position: the deal so far (chance), then a Game (:attr:`game`)."""

    def __init__(self, game: LeylineGame) -> None:
        super().__init__(game)
        self._space = game.space
        self._players = game.players
        self._engine = _Engine([], [game.rules.cards_per_element] * len(game.rules.elements))
        self._moves = 0
        #: Who moves now (a pyspiel.PlayerId while dealing and once over), set by each action.
        self._player = _CHANCE
        #: The action numbers accepted now: a card's element while dealing, then the space's.
        self._top = len(game.rules.elements)

    @property
    def game(self) -> Game | None:
        """The engine's game once the deck is dealt (None while dealing)."""
        return self._engine.game

    @property
    def dealt(self) -> int:
        """Cards dealt into the deck so far by the chance nodes."""
        return len(self._engine.deal)

    # ------------------------------------------------------------------ the pyspiel API
    def current_player(self) -> int:
        return self._player

    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action numbers, ascending, as pyspiel's ``State.legal_actions`` gives
        them: the chance outcomes at a chance node, none once the game is over or for a player
        who is not to move."""
        if self._player < 0:
            return [] if self._player == _TERMINAL else [n for n, _ in self.chance_outcomes()]
        if player is not None and player != self._player:
            return []
        engine = self._engine
        legal = engine.legal
        if legal is None:
            legal = engine.legal = self._space.numbers(
                engine.game.legal_actions())  # type: ignore[union-attr]
        return legal[:]  # the caller's own copy: the state keeps its list unchanged

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def apply_action(self, action: Any) -> None:
        """Apply action number ``action``; anything but a whole number of this game's action
        space (numpy integers included) is refused with a short ``ValueError`` naming it, and
        changes nothing (OpenSpiel itself would stop at -1 with its own internal check)."""
        if type(action) is not int or not 0 <= action < self._top:
            action = self._number(action)
        _record_and_apply(self, action)

    def _number(self, action: Any) -> int:
        """``action`` as an action number accepted now, or a ``ValueError`` naming it."""
        top = self._top
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not (
                0 <= action < top):
            what = "a card's element" if self.game is None else "an action"
            raise ValueError(f"{what} is a number from 0 to {top - 1}, got {quote(action)}")
        return int(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._engine.left
        total = sum(left)
        return [(i, n / total) for i, n in enumerate(left) if n]

    def _apply_action(self, action: int) -> None:
        engine = self._engine
        game = engine.game
        if game is None:
            self._deal_card(action)
            return
        game.apply(self._space.actions[action])
        engine.legal = None
        self._moves += 1
        self._player = _TERMINAL if game.is_over or self._moves >= MAX_GAME_ACTIONS \
            else game.active_player

    def _deal_card(self, index: int) -> None:
        """A chance node: the next card of the deck is of the element ``index``."""
        rules, engine = self._space.rules, self._engine
        if not engine.left[index]:
            raise ValueError(f"no {rules.elements[index]} card is left to deal")
        engine.left[index] -= 1
        engine.deal.append(rules.elements[index])
        if len(engine.deal) == rules.deck_size:
            game = engine.game = Game.new(players=self._players, rules=rules, deck=engine.deal)
            self._top = self._space.size
            self._player = _TERMINAL if game.is_over else game.active_player

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {self._space.rules.elements[action]}"
        return json.dumps(self._space.decode(action).to_dict(), sort_keys=True)

    def returns(self) -> list[float]:
        game = self.game
        if not self.is_terminal() or game is None:
            return [0.0] * self._players
        scores = game.scores()
        if self._players == 1:
            return [scores[0] / self._space.rules.deck_size]
        top = max(scores)
        winners = [p for p, s in enumerate(scores) if s == top]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self._players)]

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {self.dealt} of {self._space.rules.deck_size} cards"
        return json.dumps(self.game.observation(None), sort_keys=True)

    def __deepcopy__(self, memo: dict[int, Any]) -> LeylineState:
        # OpenSpiel's clone copies the history too; each attribute copies itself.
        new: LeylineState = self.clone()
        return new

    def resample_from_infostate(self, player: int, sampler: Any = None) -> LeylineState:
        """A state ``player`` cannot tell from this one: what it was never shown (the deck
        below its face-up top, and grid cards it has not seen) is re-dealt. Its history is
        empty: the real one would name the cards dealt."""
        new = LeylineState(self.get_game())
        engine = self._engine
        if engine.game is None:
            new._engine = copy.deepcopy(engine)
        else:
            seed = int(sampler() * 2**32) if callable(sampler) else random.getrandbits(32)
            new._engine = _Engine(engine.deal, engine.left, engine.game.redeal(player, seed))
        new._moves = self._moves
        new._player = self._player
        new._top = self._top
        return new


def _counts(rows: Any) -> str:
    """Per-element counts (mappings in the rules' order), one group per row."""
    return " ".join("/".join(map(str, row.values())) for row in rows)


def _view_string(game: Game, player: int, recall: bool) -> str:
    """One player's view in one line: with ``recall`` (the information state) the step and
    every card it knows; without, what is face up now. Every part is in a fixed order (the
    grid's slots, the rules' elements), so equal views give equal strings."""
    view = game.seat_view(player)
    known, active, empty = (view.known if recall else view.active), view.active, view.empty
    grid = ["-" if s in empty else known.get(s, "?") + ("*" if s in active else "")
            for s in range(game.rules.grid_size)]
    tokens = [f"{s}:" + ",".join(f"{el}={n}" for el, n in row.items())
              for s, row in view.tokens.items()]
    phase = view.phase.value if not game.is_over else f"over ({game.end_reason})"
    parts = [f"seat {player}", *([f"step {view.step}"] if recall else []),
             f"turn {view.turn} {phase} player {view.active_player}",
             "grid " + " ".join(grid), "tokens " + (" ".join(tokens) or "-"),
             f"deck {view.deck_count} top {view.deck_top or '-'}",
             "study " + _counts(view.study), "markers " + _counts(view.markers),
             "marker tokens " + _counts(view.marker_tokens),
             "supply " + _counts([view.supply]), "pool " + _counts([view.pool]),
             f"activations {view.activations_used}/{view.activation_limit}",
             f"threshold {view.collect_threshold}" + (" sanctuary" if view.ignore_tokens else ""),
             "used " + (",".join(sorted(view.powers_used)) or "-")]
    return " | ".join(parts)


class LeylineObserver:
    """OpenSpiel's observer: one player's view as a tensor and a string.

    ``perfect_recall=True`` (the information state) adds what the player knows of the grid
    and the step (the tensor's last but one number), so that no moment of a game comes back.
    """

    def __init__(self, game: LeylineGame, perfect_recall: bool,
                 params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = perfect_recall
        self.rules = game.rules
        size = view_size(game.rules, game.players) + perfect_recall + 1  # + "dealing done"
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: LeylineState, player: int) -> None:
        self.tensor.fill(0)
        game = state.game
        if game is None:
            return
        mind = game.seat_view(player) if self.perfect_recall else None
        self.tensor[:-1 - self.perfect_recall] = view_vector(game.observation(player),
                                                             self.rules, mind)
        if self.perfect_recall:
            self.tensor[-2] = game.step
        self.tensor[-1] = 1.0

    def string_from(self, state: LeylineState, player: int) -> str:
        if state.game is None:
            return f"dealing {state.dealt}/{self.rules.deck_size}"
        return _view_string(state.game, player, self.perfect_recall)


pyspiel.register_game(_GAME_TYPE, LeylineGame)
