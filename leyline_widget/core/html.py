"""Small static HTML of a position, for a notebook's rich display (``Game._repr_html_``).

Plain string building over an observation, so it shows exactly what that viewer may see:
:func:`view_html` of ``game.observation(p)`` is seat ``p``'s view (inert cards hidden, as ``?``);
``game.observation(None)`` is the all-seeing view, labelled so. Every name is escaped.

>>> from leyline_widget import Game
>>> game = Game.new(players=["Ada <3"], seed=1)
>>> html = player_view_html(game, 0)
>>> "Ada &lt;3" in html and "Ada <3" not in html and "wind" not in html.split("deck")[0]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

__all__ = ["ALL_SEEING", "player_view_html", "view_html"]

#: The label of a Game's own rich display: a Game knows every card.
ALL_SEEING = "all-seeing view (every card)"

_HIDDEN = "background:repeating-linear-gradient(45deg,#eee,#eee 4px,#ddd 4px,#ddd 8px)"
_CELL = ("border:1px solid #999;border-radius:4px;width:4.2em;height:2.6em;text-align:center;"
         "vertical-align:middle;font-size:0.85em;padding:2px")


def _tokens(tokens: Mapping[str, int]) -> str:
    return " ".join(f"{n}&times;{escape(el)}" for el, n in tokens.items() if n)


def _cell(cell: Mapping[str, Any]) -> str:
    card, element = cell["card"], cell.get("element")
    if card == "empty":
        text, style = "&middot;", "opacity:0.5"
    elif card == "active":
        text, style = f"<b>{escape(str(element))}</b>", "background:#ffe9a8"
    elif element is None:
        text, style = "?", _HIDDEN
    else:  # an inert card in the all-seeing view
        text, style = f"<i>{escape(str(element))}</i>", ""
    tokens = _tokens(cell.get("tokens", {}))
    extra = f"<br><small>{tokens}</small>" if tokens else ""
    return f'<td style="{_CELL};{style}">{text}{extra}</td>'


def view_html(obs: Mapping[str, Any], label: str) -> str:
    """A small table of the position ``obs`` (an observation), headed by ``label``."""
    cols = int(obs.get("grid_cols") or 1)
    grid = obs["grid"]
    rows = "".join("<tr>" + "".join(_cell(c) for c in grid[i:i + cols]) + "</tr>"
                   for i in range(0, len(grid), cols))
    players = obs["players"]
    if obs.get("is_over"):
        winners = ", ".join(escape(players[w]["name"]) for w in obs.get("winners", []))
        now = f"game over ({escape(str(obs.get('end_reason')))}); won by {winners}"
    else:
        now = (f"turn {obs['turn']}, {escape(str(obs['phase']))}: "
               f"{escape(players[obs['active_player']]['name'])} to play")
    deck = obs["deck"]
    top = escape(str(deck["top"])) if deck.get("top") else "none"
    scores = "".join(
        f"<tr><td>{'&#9656; ' if p == obs.get('active_player') else ''}"
        f"{escape(info['name'])}</td><td style='text-align:right'>{info['score']}</td>"
        f"<td><small>{_tokens(info['study'])}</small></td></tr>"
        for p, info in enumerate(players))
    return (f'<div class="leyline-static" style="font-family:system-ui,sans-serif">'
            f"<div><b>Leyline</b> &middot; {now} &middot; <i>{escape(label)}</i></div>"
            f'<table style="border-collapse:separate;border-spacing:3px;display:inline-table;'
            f'vertical-align:top">{rows}</table>'
            f'<table style="display:inline-table;vertical-align:top;margin-left:1em">'
            f"<tr><td colspan=3>deck: {deck['count']} cards, top {top}</td></tr>"
            f"<tr><th>player</th><th>score</th><th>study</th></tr>{scores}</table></div>")


def player_view_html(game: Game, viewer: int | None) -> str:
    """:func:`view_html` of ``game.observation(viewer)``, labelled with whose view it is."""
    obs = game.observation(viewer)
    label = ALL_SEEING if viewer is None else f"{game.players[viewer]}'s view (seat {viewer})"
    return view_html(obs, label)
