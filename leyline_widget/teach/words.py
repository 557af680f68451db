"""Events in words: one phrase per engine event, for lessons, replays and notebooks.

The JavaScript front-end has its own describer (it renders without a kernel); this module is the
Python one, so that lesson feedback and replay Markdown say the same thing the same way.

>>> players = ("Ada", "Bo")
>>> phrases([{"type": "collect", "player": 0, "element": "water", "slots": [1, 5], "count": 2}],
...         players)
['Ada collects 2 Water from slots 1 and 5']
>>> phrases([{"type": "pass", "player": 1}], players, viewer=1)
['you pass']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.types import Event
from ..core.wording import element_name, slot_list

__all__ = ["END_REASONS", "element_name", "phrases", "slot_list"]

#: Why a game ended, as a clause: "the game ended because ...".
END_REASONS = {
    "deck": "the deck ran out",
    "stalemate": "no one could collect again",
    "idle": "nobody collected, placed a token or used a power for the idle round limit",
    "turn_limit": "the turn limit was reached",
    "round_limit": "the round limit was reached",
}

_SOURCES = {"supply": "the supply", "marker": "{their} Spent marker", "pool": "the Token Pool"}


def phrases(events: Sequence[Event], players: Sequence[str], viewer: int | None = None,
            escape: Callable[[str], str] = str) -> list[str]:
    """One phrase per event, present tense; ``viewer``'s own moves read "you".

    Filter private reveals first (``visible_events``): a reveal without an
    element reads as a peek. ``escape`` is applied to names the game's files carry (player and
    power names), for Markdown or HTML output. Phase changes have no phrase.
    """
    out = []
    for ev in events:
        phrase = _phrase(ev, players, viewer, escape)
        if phrase:
            out.append(phrase)
    return out


def _phrase(ev: Event, players: Sequence[str], viewer: int | None,
            escape: Callable[[str], str]) -> str | None:
    def who(p: int) -> str:
        return "you" if p == viewer else escape(players[p])

    def act(p: int, verb: str) -> str:
        """Subject and verb, agreeing: "Ada collects", "you collect"."""
        if p == viewer:
            return f"you {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch")) else "s"
        return f"{escape(players[p])} {verb}{ending}"

    kind = ev["type"]
    el = element_name(ev["element"]) if ev.get("element") else None
    if kind == "activate":
        return f"{act(ev['player'], 'activate')} slot {ev['slot']} ({el})"
    if kind == "deactivate":
        return f"{act(ev['player'], 'deactivate')} slot {ev['slot']}"
    if kind == "pass":
        return act(ev["player"], "pass")
    if kind == "collect":
        return f"{act(ev['player'], 'collect')} {ev['count']} {el} from {slot_list(ev['slots'])}"
    if kind == "flip_back":
        verb = "flips" if len(ev["slots"]) == 1 else "flip"
        return f"{slot_list(ev['slots'])} {verb} back to inert"
    if kind == "token_return":
        their = "your" if ev["player"] == viewer else "their"
        place = f"{their} Spent marker" if ev["to"] == "marker" else "the Token Pool"
        tokens = "token goes" if ev["count"] == 1 else "tokens go"
        return f"{ev['count']} {el} {tokens} from slot {ev['slot']} to {place}"
    if kind == "place_token":
        their = "your" if ev["player"] == viewer else "their"
        source = (_SOURCES.get(ev["source"]) or str(ev["source"])).format(their=their)
        return (f"{act(ev['player'], 'place')} a {el} Binding token on slot {ev['slot']} "
                f"from {source}")
    if kind == "power":
        on = f" on {slot_list(ev['targets'])}" if ev["targets"] else ""
        return f"{act(ev['player'], 'use')} {escape(ev['name'])}{on}"
    if kind == "swap":
        return f"{slot_list(ev['slots'])} swap places"
    if kind == "tide":
        return f"the {element_name(ev['to_deck'])} from slot {ev['slot']} goes on top of the deck"
    if kind == "reveal":
        cause, slot = ev["cause"], ev["slot"]
        peeker = ev.get("visible_to")
        if isinstance(peeker, list) and peeker:
            seen = f": {el}" if el else ""
            return f"{act(peeker[0], 'peek')} at slot {slot}{seen}"
        return {"setup": f"slot {slot} is dealt {el}", "refill": f"slot {slot} is refilled: {el}",
                "tide": f"slot {slot} gets the {el} from the deck"}.get(
                    cause, f"slot {slot} shows {el}")
    if kind == "turn":
        return f"turn {ev['turn']} begins ({who(ev['player'])})"
    if kind == "game_over":
        names = ", ".join(who(p) for p in ev["winners"])
        scores = ", ".join(map(str, ev["scores"]))
        return f"the game ends ({ev['reason'].replace('_', ' ')}): scores {scores}, won by {names}"
    return None
