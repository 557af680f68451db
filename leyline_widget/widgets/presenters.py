"""Pure presenters for the widgets: what the page shows, computed from the game alone.

Nothing here imports anywidget or traitlets, so these are tested and reused without a kernel.

>>> from leyline_widget import Game
>>> legal_summary(Game.new(players=1, seed=3), 0)["activate"][:3]
[0, 1, 2]
>>> parse_seats(["You", "greedy"])
(['You', 'Greedy bot'], {1: 'greedy'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..agents.bots import BOT_KINDS
from ..core.actions import Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, Phase, visible_events
from ..core.types import Event

__all__ = ["ACTIVE", "TEACHER", "end_words", "escape_html", "game_info", "game_log",
           "legal_summary", "parse_seats", "sentence"]

#: ``viewer`` values: the active human seat (hot-seat), a fixed seat, or the teacher (None).
ACTIVE = "active"
TEACHER = "teacher"


def sentence(text: str) -> str:
    """An engine or parser message as a sentence: capital first letter, final stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


# ---------------------------------------------------------------------------- pure helpers
def legal_summary(game: Game, actor: int | None) -> dict[str, Any]:
    """What ``actor`` may do now, derived from ``game.legal_actions()`` (JSON-safe, compact).

    Keys present for every phase: ``step`` and ``actor``. When ``actor`` may act:
    ``end`` (EndPhase is legal), and by phase ``activate``/``deactivate`` slots with
    ``blocked`` (slot -> why not) for the other inert cards; ``refill`` slots; ``place``
    (element -> source -> ``""`` when it can pay, else why not); ``powers`` (usable power key
    -> ``min``/``max`` targets and candidate ``slots``); and always ``why_power`` (key -> why
    that power cannot be used now; ``"*"`` holds a reason shared by all). Nothing here
    depends on a hidden card.

    >>> game = Game.new(players=1, seed=3)
    >>> s = legal_summary(game, 0)
    >>> s["activate"], s["end"], s["deactivate"]
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], True, [])
    >>> legal_summary(game, None)
    {'step': 0, 'actor': None}
    """
    out: dict[str, Any] = {"step": game.step, "actor": actor}
    if actor is None or game.is_over:
        return out
    legal = game.legal_actions()
    out["end"] = any(isinstance(a, EndPhase) for a in legal)
    phase = game.phase
    grid = game.observation(actor)["grid"]
    if phase is Phase.ACTIVATION:
        activate = [a.slot for a in legal if isinstance(a, Activate)]
        out["activate"] = activate
        out["deactivate"] = [a.slot for a in legal if isinstance(a, Deactivate)]
        ok = set(activate)
        out["blocked"] = {
            str(s): sentence(game.why_illegal(Activate(s)) or "")
            for s, cell in enumerate(grid) if cell["card"] == "inert" and s not in ok}
    elif phase is Phase.REFILL:
        out["refill"] = [a.slot for a in legal if isinstance(a, Refill)]
    elif phase is Phase.BINDING:
        payable = {(a.element, a.source) for a in legal if isinstance(a, PlaceToken)}
        cards = [s for s, cell in enumerate(grid) if cell["card"] != "empty"]
        probe = cards[0] if cards else 0
        out["place"] = {
            el: {src: "" if (el, src) in payable
                 else sentence(game.why_illegal(PlaceToken(probe, el, src)) or "")
                 for src in ("supply", "marker", "pool")}
            for el in game.rules.elements}
    powers: dict[str, dict[str, Any]] = {}
    for a in legal:
        if isinstance(a, UsePower):
            key = f"{a.element}:{a.tier}"
            entry = powers.setdefault(key, {"min": len(a.targets), "max": len(a.targets),
                                            "slots": set()})
            entry["min"] = min(entry["min"], len(a.targets))
            entry["max"] = max(entry["max"], len(a.targets))
            entry["slots"].update(a.targets)
    for entry in powers.values():
        entry["slots"] = sorted(entry["slots"])
    out["powers"] = powers
    why: dict[str, str] = {}
    for pw in game.rules.powers:
        if pw.key in powers:
            continue
        reason = game.why_illegal(UsePower(pw.element, pw.tier, ())) or ""
        if not reason or reason.startswith(f"{pw.name}:"):
            # Unlocked, unused, in Phase 1: only the targets are missing.
            reason = f"{pw.name} has no legal target now"
        why[pw.key] = sentence(reason)
    # Outside Phase 1 every power has the same reason: send it once, as "*".
    common = set(why.values())
    out["why_power"] = {"*": common.pop()} if len(common) == 1 else why
    return out


def game_info(game: Game, bots: Mapping[int, str]) -> dict[str, Any]:
    """What the front-end needs once per game: elements, seats, thresholds, power words."""
    rules = game.rules
    return {
        "elements": list(rules.elements),
        "players": [{"name": name, "bot": bots.get(p)} for p, name in enumerate(game.players)],
        "powers": [{k: v for k, v in pw.to_dict().items() if k != "effect"} | {"key": pw.key}
                   for pw in rules.powers],
        "thresholds": {"minor": rules.minor_threshold, "major": rules.major_threshold},
        "activations": rules.activations_per_turn,
        "collect_threshold": rules.collect_threshold,
        "turn_limit": rules.turn_limit,
        "bot_kinds": list(BOT_KINDS),
    }


def _bot_name(kind: str, taken: Sequence[str]) -> str:
    base = f"{kind.capitalize()} bot"
    name, n = base, 2
    while name in taken:
        name, n = f"{base} {n}", n + 1
    return name


def parse_seats(players: int | Sequence[str]) -> tuple[list[str] | int, dict[int, str]]:
    """Split ``players`` into names for :meth:`Game.new` and bot seats (seat -> kind).

    An entry that is a bot kind (``"random"``, ``"greedy"``, ``"memory"``) becomes a bot.

    >>> parse_seats(["You", "greedy"])
    (['You', 'Greedy bot'], {1: 'greedy'})
    >>> parse_seats(2)
    (2, {})
    """
    if isinstance(players, str):
        raise ValueError(f"players must be a count or a list of names, got {quote(players)}")
    if isinstance(players, int):
        return players, {}  # Game.new validates counts and rejects a bare string
    names: list[str] = []
    bots: dict[int, str] = {}
    for p, entry in enumerate(players):
        kind = entry.strip().lower() if isinstance(entry, str) else None
        if kind in BOT_KINDS:
            bots[p] = kind
            names.append(_bot_name(kind, names))
        else:
            names.append(entry)
    return names, bots


def escape_html(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


# ---------------------------------------------------------------------------- the game log
def _cap(element: str) -> str:
    return element[:1].upper() + element[1:].replace("_", " ")


def _slots_words(slots: Sequence[int]) -> str:
    slots = list(slots)
    if len(slots) == 1:
        return f"slot {slots[0]}"
    return f"slots {', '.join(map(str, slots[:-1]))} and {slots[-1]}"


_END_WORDS = {
    "deck": "a card had to be refilled and the Leyline deck was empty",
    "stalemate": "no player could ever collect again (stalemate)",
    "idle": "too many rounds went by without a collection, token or power",
    "turn_limit": "the turn limit was reached",
    "round_limit": "the round limit was reached",
}


def end_words(reason: str | None) -> str:
    """Why a game ended, in words (``reason`` is the observation's ``end_reason``)."""
    return _END_WORDS.get(reason or "", reason or "")


class _Cards:
    """Which physical card is where, followed through the events (never its element).

    A card gets an id when it enters the grid (set-up, refill, Tide); Ripple swaps ids, a
    collection takes cards off the grid, Tide puts one on top of the deck (from where the next
    refill or Tide brings the same card back).
    """

    def __init__(self) -> None:
        self.slot: dict[int, int] = {}
        self.returned: list[int] = []
        self.next = 0

    def enter(self, slot: int) -> int:
        if self.returned:
            card = self.returned.pop()
        else:
            card, self.next = self.next, self.next + 1
        self.slot[slot] = card
        return card

    def at(self, slot: int) -> int:
        if slot not in self.slot:
            return self.enter(slot)  # a game from a position: its grid predates the log
        return self.slot[slot]


def game_log(game: Game, seat: int | None) -> dict[str, Any]:
    """The whole game in words for ``seat`` (None: the teacher), grouped by turn, JSON-safe.

    ``{"turns": [{"turn", "player", "lines"}], "marks": {slot: [kind, ...]}, "turns_played":
    [n per seat]}``. Built from ``game.event_log`` as :func:`visible_events` shows it to the
    seat, and it never remembers for the player: a line names a card's element only when
    that card has left the grid for good (collected) or, in the turn being played, is face-up
    now; a card that is inert again is named by its slot alone ("You activated slot 9"). So a
    finished turn's lines never change again (the widget sends them once). The teacher's log
    names everything. ``marks`` are what the other seats did on the board since
    this seat's last turn (slots flipped, collected, refilled, bound, swapped, peeked at), with
    no element: a memory aid that shows only what everyone saw happen.

    >>> from leyline_widget import Activate, EndPhase
    >>> g = Game.new(players=1, seed=3)
    >>> _ = g.apply(Activate(0)), g.apply(Activate(1))
    >>> game_log(g, 0)["turns"][-1]["lines"][-1].startswith("You activated slot 1: ")
    True
    >>> _ = g.apply(EndPhase())
    >>> [line for line in game_log(g, 0)["turns"][-1]["lines"] if "slot 1" in line][:1]
    ['You activated slot 1']
    """
    names = list(game.players)
    log = game.event_log
    cards = _Cards()
    collected: dict[int, int] = {}  # card -> index of the event that collected it
    # First pass: follow the cards, tagging each element-bearing event with its card id.
    tagged: list[tuple[Event, int | None]] = []
    for batch in log:
        for ev in visible_events(batch, seat):
            kind = ev.get("type")
            card: int | None = None
            if kind == "reveal":
                card = cards.at(ev["slot"]) if ev.get("cause") in ("whisper", "gale") else (
                    cards.enter(ev["slot"]))
            elif kind == "activate":
                card = cards.at(ev["slot"])
            elif kind == "collect":
                for s in ev["slots"]:
                    gone = cards.slot.pop(s, None)
                    if gone is not None:
                        collected[gone] = len(tagged)
            elif kind == "swap":
                a, b = ev["slots"]
                ca, cb = cards.at(a), cards.at(b)
                cards.slot[a], cards.slot[b] = cb, ca
            elif kind == "tide":
                card = cards.slot.pop(ev["slot"], None)
                if card is None:
                    card, cards.next = cards.next, cards.next + 1
                cards.returned.append(card)
            tagged.append((ev, card))
    grid = game.observation(None)["grid"]
    active_now = {cards.slot[s] for s, cell in enumerate(grid)
                  if cell["card"] == "active" and s in cards.slot}
    current_from = max((i for i, (ev, _) in enumerate(tagged) if ev.get("type") == "turn"),
                       default=0)
    # Where each event's turn ends: a card collected by then is named in that turn's lines.
    ends = [len(tagged)] * len(tagged)
    end = len(tagged)
    for i in range(len(tagged) - 1, -1, -1):
        ends[i] = end
        if tagged[i][0].get("type") == "turn":
            end = i
    end_of_all = len(tagged) + 1

    def named(card: int | None, element: str | None, index: int) -> str:
        if element is None:
            return ""
        if seat is None or (card is not None and collected.get(card, end_of_all) < ends[index]):
            return _cap(element)
        if index >= current_from and card in active_now:
            return _cap(element)
        return ""

    def who(p: int) -> str:
        return "You" if p == seat else names[p]

    def whose(p: int) -> str:
        return "your" if p == seat else f"{names[p]}'s"

    turns: list[dict[str, Any]] = [{"turn": 0, "player": None, "lines": []}]
    marks_by_turn: list[dict[int, list[str]]] = [{}]
    played = [0] * len(names)
    placing: list[Any] = []
    for index, (ev, card) in enumerate(tagged):
        kind = ev.get("type")
        group = turns[-1]
        marks = marks_by_turn[-1]
        line = ""

        def mark(slot: int, what: str, marks: dict[int, list[str]] = marks) -> None:
            kinds = marks.setdefault(slot, [])
            if what not in kinds:
                kinds.append(what)

        if kind == "turn":
            turns.append({"turn": ev["turn"], "player": ev["player"], "lines": []})
            marks_by_turn.append({})
            played[ev["player"]] += 1
            placing.clear()
            continue
        if kind == "reveal":
            cause = ev.get("cause")
            el = named(card, ev.get("element"), index)
            if cause == "setup":
                if not any(ln.startswith("The grid was dealt") for ln in group["lines"]):
                    line = "The grid was dealt face-up, each card shown to everyone once"
            elif cause == "refill":
                line = f"Slot {ev['slot']} refilled" + (f": {el}" if el else "")
                mark(ev["slot"], "refilled")
            elif cause == "tide":
                line = f"Tide brought a new card into slot {ev['slot']}" + (f": {el}" if el else "")
            elif cause in ("whisper", "gale"):
                seers = ev.get("visible_to")
                seen_by = [names[p] for p in seers] if isinstance(seers, list) else []
                if ev.get("element") is None:
                    line = f"Slot {ev['slot']} was peeked at (only {' and '.join(seen_by)} saw it)"
                elif seat is None:
                    line = (f"Peek at slot {ev['slot']}" + (f": {el}" if el else "")
                            + f" (seen by {' and '.join(seen_by)} only)")
                else:
                    line = f"You peeked at slot {ev['slot']}" + (f": {el}" if el else "")
                mark(ev["slot"], "peeked")
        elif kind == "activate":
            el = named(card, ev.get("element"), index)
            line = f"{who(ev['player'])} activated slot {ev['slot']}" + (f": {el}" if el else "")
        elif kind == "deactivate":
            line = f"{who(ev['player'])} deactivated slot {ev['slot']}"
            mark(ev["slot"], "flipped")
        elif kind == "pass":
            line = f"{who(ev['player'])} passed"
        elif kind == "collect":
            n = ev["count"]
            line = f"{who(ev['player'])} collected {n} {_cap(ev['element'])}"
            for s in ev["slots"]:
                mark(s, "collected")
        elif kind == "flip_back":
            slots = ev["slots"]
            line = f"{_slots_words(slots)[0].upper()}{_slots_words(slots)[1:]} flipped back"
            for s in slots:
                mark(s, "flipped")
        elif kind == "token_return":
            n = ev["count"]
            to = (f"{whose(ev['player'])} Spent marker" if ev.get("to") == "marker"
                  else "the Token Pool")
            line = (f"{n} {_cap(ev['element'])} token{'s' if n != 1 else ''} freed from slot "
                    f"{ev['slot']} to {to}")
        elif kind == "place_token":
            src = {"supply": "the Supply (paid with a Study card)", "marker": "a Spent marker",
                   "pool": "the Token Pool"}.get(ev.get("source", ""), str(ev.get("source")))
            key = (ev["player"], ev["element"], ev.get("source"))
            mark(ev["slot"], "bound")
            if placing and placing[0] == key and group["lines"]:
                # Placements in a row of one element from one source: one line.
                placing[1].append(ev["slot"])
                n = len(placing[1])
                group["lines"][-1] = (f"{who(ev['player'])} placed {n} {_cap(ev['element'])} "
                                      f"tokens from {src} on {_slots_words(placing[1])}")
                continue
            placing[:] = [key, [ev["slot"]]]
            group["lines"].append(f"{who(ev['player'])} placed a {_cap(ev['element'])} token "
                                  f"from {src} on slot {ev['slot']}")
            continue
        elif kind == "power":
            targets = ev.get("targets") or []
            line = f"{who(ev['player'])} used {ev['name']}" + (
                f" on {_slots_words(targets)}" if targets else "")
        elif kind == "swap":
            a, b = ev["slots"]
            line = f"Slots {a} and {b} swapped"
            mark(a, "swapped")
            mark(b, "swapped")
        elif kind == "tide":
            el = named(card, ev.get("to_deck"), index)
            line = f"Slot {ev['slot']}'s card went on top of the deck" + (f" ({el})" if el else "")
            mark(ev["slot"], "tide")
        elif kind == "game_over":
            line = f"Game over: {end_words(ev.get('reason'))}"
        if line:
            group["lines"].append(line)
            placing.clear()
    # The other seats' turns since this seat last played (the teacher: the last turn).
    marks_out: dict[int, list[str]] = {}
    groups = list(zip(turns, marks_by_turn))[1:]
    if seat is None:
        done = [m for g, m in groups[:-1]] if not game.is_over else [m for g, m in groups]
        chosen = done[-1:] if done else []
    else:
        chosen = []
        rest = groups[:-1] if groups and groups[-1][0]["player"] == seat else groups
        for g, m in reversed(rest):
            if g["player"] == seat:
                break
            chosen.append(m)
    for m in chosen:
        for slot, kinds in m.items():
            for k in kinds:
                if k not in marks_out.setdefault(slot, []):
                    marks_out[slot].append(k)
    if not turns[0]["lines"]:
        turns = turns[1:]
    return {"turns": turns, "marks": {str(s): k for s, k in sorted(marks_out.items())},
            "turns_played": played}
