"""The referee: rules, actions, the Game, powers, positions, per-player views and knowledge.

Nothing here imports from the layers above (replays, agents, teach, interop, widgets), and
nothing here needs anywidget, ipywidgets or traitlets.

>>> from leyline_widget.core import Game, Activate
>>> game = Game.new(players=1, seed=1)
>>> game.apply(Activate(0))[0]["type"]
'activate'
"""

from .actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from .game import Game, IllegalActionError, Phase, visible_events
from .rules import Power, Rules

__all__ = [
    "Action", "Activate", "Deactivate", "EndPhase", "Game", "IllegalActionError", "Phase",
    "PlaceToken", "Power", "Refill", "Rules", "UsePower", "visible_events",
]
