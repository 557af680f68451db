"""Pure presenters for the widgets: what the page shows, computed from the game alone.

Nothing here imports anywidget or traitlets, so these are tested and reused without a kernel.

>>> from leyline_widget import Game
>>> legal_summary(Game.new(players=1, seed=3), 0)["activate"][:3]
[0, 1, 2]
>>> parse_seats(["You", "greedy"])
(['You', 'Greedy bot'], {1: 'greedy'})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..agents.bots import BOT_KINDS
from ..core.actions import Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, Phase, visible_events
from ..core.powers import KINDS, Effect
from ..core.types import Event
from ..core.wording import element_name, slot_list

__all__ = ["ACTIVE", "TEACHER", "GameLog", "add_marks", "bot_name", "effect_of",
           "end_words", "escape_html", "event_marks", "game_info", "game_log", "legal_summary",
           "parse_seats", "sentence", "turn_summary"]

#: ``viewer`` values: the active human seat (hot-seat), a fixed seat, or the teacher (None).
ACTIVE = "active"
TEACHER = "teacher"


def effect_of(effect: object) -> dict[str, Any]:
    """A power's effect as data, ``{"kind": ..., parameters}`` (DESIGN.md, "Powers as data"),
    from a rules' :class:`~leyline_widget.core.powers.Effect`, a dict with a ``kind``, or an id
    in an event (a default power's, ``"ripple"``, or a designer's power's kind). The page and
    the log speak of a power by its kind (its targets, the marks it leaves), never by its id.

    >>> effect_of("gale"), effect_of({"kind": "peek", "cards": 2})["cards"]
    ({'kind': 'peek', 'cards': 3}, 2)
    """
    try:
        parsed = Effect.parse(effect)
    except ValueError:
        return {"kind": effect if isinstance(effect, str) else "unknown"}
    return {"kind": parsed.kind, **{name: getattr(parsed, name) for name in KINDS[parsed.kind]}}


def sentence(text: str) -> str:
    """An engine or parser message as a sentence: capital first letter, final stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


# ---------------------------------------------------------------------------- pure helpers
def legal_summary(game: Game, actor: int | None,
                  grid: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """What ``actor`` may do now, derived from ``game.legal_actions()`` (JSON-safe, compact).

    Keys present for every phase: ``step`` and ``actor``. When ``actor`` may act:
    ``end`` (EndPhase is legal), and by phase ``activate``/``deactivate`` slots with
    ``blocked`` (slot -> why not) for the other inert cards; ``refill`` slots; ``place``
    (element -> source -> ``""`` when it can pay, else why not); ``powers`` (usable power key
    -> ``min``/``max`` targets and candidate ``slots``); and always ``why_power`` (key -> why
    that power cannot be used now; ``"*"`` holds a reason shared by all). Nothing here
    depends on a hidden card. ``grid``: the grid of an observation of this position (any
    viewer's: which cards are inert is public), when the caller made one already.

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
    if grid is None:
        grid = game.observation(actor)["grid"]
    if phase is Phase.ACTIVATION:
        activate = [a.slot for a in legal if isinstance(a, Activate)]
        out["activate"] = activate
        out["deactivate"] = [a.slot for a in legal if isinstance(a, Deactivate)]
        ok = set(activate)
        blocked = [s for s, cell in enumerate(grid) if cell["card"] == "inert" and s not in ok]
        if blocked and game.activations_left() <= 0:
            # With no activation left, every inert card is refused for that one reason (the
            # limit comes before any token check): one check, not one per card.
            shared = sentence(game.why_illegal(Activate(blocked[0])) or "")
            out["blocked"] = dict.fromkeys(map(str, blocked), shared)
        else:
            out["blocked"] = {str(s): sentence(game.why_illegal(Activate(s)) or "")
                              for s in blocked}
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
    rule_powers = game.rules.powers
    if phase is not Phase.ABILITIES and rule_powers:
        # The phase is checked before anything else about a power: outside Phase 1 one
        # check gives every power's reason (the "*" below), not one check per power.
        rule_powers = rule_powers[:1]
    for pw in rule_powers:
        if pw.key in powers:
            continue
        if phase is Phase.ABILITIES:  # the engine's one answer to "can this power be used"
            reason = game.power_problem(pw.key) or ""
        else:
            reason = game.why_illegal(UsePower(pw.element, pw.tier, ())) or ""
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
        "powers": [{k: v for k, v in pw.to_dict().items() if k != "effect"}
                   | {"key": pw.key, "kind": effect_of(pw.effect)["kind"]}
                   for pw in rules.powers],
        "thresholds": {"minor": rules.minor_threshold, "major": rules.major_threshold},
        "activations": rules.activations_per_turn,
        "collect_threshold": rules.collect_threshold,
        "turn_limit": rules.turn_limit,
        "bot_kinds": list(BOT_KINDS),
    }


def bot_name(kind: str, taken: Sequence[str]) -> str:
    """A bot seat's name (``Greedy bot``; ``Greedy bot 2`` when that is taken)."""
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
            names.append(bot_name(kind, names))
        else:
            names.append(entry)
    return names, bots


def escape_html(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


# ---------------------------------------------------------------------------- the game log
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


def _follow(cards: _Cards, ev: Event) -> tuple[int | None, list[int]]:
    """Follow one event's cards: the card the event names an element of, and the cards it
    collected (taken off the grid for good)."""
    kind = ev.get("type")
    if kind == "reveal":
        return (cards.at(ev["slot"]) if ev.get("cause") in ("whisper", "gale")
                else cards.enter(ev["slot"])), []
    if kind == "activate":
        return cards.at(ev["slot"]), []
    if kind == "collect":
        gone = [cards.slot.pop(s) for s in ev["slots"] if s in cards.slot]
        return None, gone
    if kind == "swap":
        a, b = ev["slots"]
        ca, cb = cards.at(a), cards.at(b)
        cards.slot[a], cards.slot[b] = cb, ca
    elif kind == "tide":
        card = cards.slot.pop(ev["slot"], None)
        if card is None:
            card, cards.next = cards.next, cards.next + 1
        cards.returned.append(card)
        return card, []
    return None, []


def event_marks(ev: Event, *, activations: bool = False) -> list[tuple[int, str]]:
    """The slots an event touched on the board, each with what happened to it (``flipped``,
    ``collected``, ``refilled``, ``bound``, ``swapped``, ``peeked``, ``tide``, ``unbound``; with
    ``activations``, ``activated`` too), never an element.

    >>> event_marks({"type": "collect", "slots": [2, 5], "element": "fire", "count": 2})
    [(2, 'collected'), (5, 'collected')]
    >>> event_marks({"type": "activate", "slot": 3, "player": 0}, activations=True)
    [(3, 'activated')]
    """
    kind = ev.get("type")
    if kind == "reveal":
        cause = ev.get("cause")
        if cause == "refill":
            return [(ev["slot"], "refilled")]
        return [(ev["slot"], "peeked")] if cause in ("whisper", "gale") else []
    if kind == "activate":
        return [(ev["slot"], "activated")] if activations else []
    if kind == "deactivate":
        return [(ev["slot"], "flipped")]
    if kind in ("collect", "flip_back", "swap"):
        what = {"collect": "collected", "flip_back": "flipped", "swap": "swapped"}[kind]
        return [(s, what) for s in ev["slots"]]
    if kind == "place_token":
        return [(ev["slot"], "bound")]
    if kind == "tide":
        return [(ev["slot"], "tide")]
    if kind == "power" and effect_of(ev.get("effect"))["kind"] == "remove_tokens":
        return [(s, "unbound") for s in ev.get("targets") or []]
    return []


#: The marks a power leaves (see :func:`event_marks`): the mover sees these on their own turn
#: too, so a Ripple or an Unbind shows where it acted.
POWER_MARKS = frozenset({"swapped", "unbound", "tide", "peeked"})


def add_marks(marks: dict[int, list[str]], ev: Event, *, activations: bool = False) -> None:
    """Add what ``ev`` did to each slot to ``marks`` (slot -> kinds, each kind once)."""
    for slot, what in event_marks(ev, activations=activations):
        kinds = marks.setdefault(slot, [])
        if what not in kinds:
            kinds.append(what)


#: A line that may name a card's element: (words before, card, element, how the element is
#: added: ": {}" or " ({})", words after); worded when the log is read (_TurnText.words).
_Named = tuple[str, int | None, str | None, str, str]


class _TurnText:
    """The lines of one turn, folded event by event as they come (each event read once).

    A line that may name a card's element keeps the card and the element (:data:`_Named`):
    whether the log may name it changes as cards flip back or are collected, so it is worded
    only when the log is read. A card activated and deactivated again (a look under the
    refund, or a change of mind) is one line however often it happens in a row, so a long
    turn of such looks stays a few lines and reading it costs the same at any length.
    """

    def __init__(self, names: Sequence[str], seat: int | None) -> None:
        self.names, self.seat = names, seat
        self.lines: list[str | _Named] = []
        self.placing: list[Any] = []
        # (player, slot) of the activation the last line is, and (player, slot, times) of the
        # "activated and deactivated" line before it.
        self.opened: tuple[int, int] | None = None
        self.looped: tuple[int, int, int] | None = None
        self.dealt = False

    def who(self, p: int) -> str:
        return "You" if p == self.seat else self.names[p]

    def whose(self, p: int) -> str:
        return "your" if p == self.seat else f"{self.names[p]}'s"

    def words(self, named: Callable[[int | None, str | None], str]) -> list[str]:
        """The lines; ``named`` gives an element's word when this log may name it (else "")."""
        out: list[str] = []
        for line in self.lines:
            if isinstance(line, str):
                out.append(line)
            else:
                before, card, element, form, after = line
                el = named(card, element)
                out.append(before + (form.format(el) if el else "") + after)
        return out

    def feed(self, ev: Event, card: int | None) -> None:
        """Take in the turn's next event; ``card`` is the card it names an element of."""
        kind = ev.get("type")
        lines, placing, who = self.lines, self.placing, self.who
        line: str | _Named = ""
        if kind == "reveal":
            cause = ev.get("cause")
            element = ev.get("element")
            if cause == "setup":
                if not self.dealt:
                    self.dealt = True
                    line = "The grid was dealt face-up, each card shown to everyone once"
            elif cause == "refill":
                line = (f"Slot {ev['slot']} refilled", card, element, ": {}", "")
            elif cause == "tide":
                line = (f"Tide brought a new card into slot {ev['slot']}", card, element, ": {}",
                        "")
            elif cause in ("whisper", "gale", "peek"):
                seers = ev.get("visible_to")
                seen_by = [self.names[p] for p in seers] if isinstance(seers, list) else []
                if element is None:
                    line = (f"Slot {ev['slot']} was peeked at (only {' and '.join(seen_by)} "
                            "saw it)")
                elif self.seat is None:
                    line = (f"Peek at slot {ev['slot']}", card, element, ": {}",
                            f" (seen by {' and '.join(seen_by)} only)")
                else:
                    line = (f"You peeked at slot {ev['slot']}", card, element, ": {}", "")
        elif kind == "activate":
            lines.append((f"{who(ev['player'])} activated slot {ev['slot']}", card,
                          ev.get("element"), ": {}", ""))
            placing.clear()
            self.opened = (ev["player"], ev["slot"])
            if self.looped is not None and self.looped[:2] != self.opened:
                self.looped = None  # the loop's line is no longer just before this one
            return
        elif kind == "deactivate":
            card_at = (ev["player"], ev["slot"])
            if self.opened == card_at:
                lines.pop()
                times = 1
                if self.looped is not None and self.looped[:2] == card_at and lines:
                    times = self.looped[2] + 1
                    lines.pop()
                lines.append(f"{who(card_at[0])} activated and deactivated slot {card_at[1]}"
                             + (f" ({times} times)" if times > 1 else ""))
                self.opened, self.looped = None, (*card_at, times)
                return
            line = f"{who(ev['player'])} deactivated slot {ev['slot']}"
        elif kind == "pass":
            line = f"{who(ev['player'])} passed"
        elif kind == "collect":
            line = f"{who(ev['player'])} collected {ev['count']} {element_name(ev['element'])}"
        elif kind == "flip_back":
            words = slot_list(ev["slots"])
            line = f"{words[0].upper()}{words[1:]} flipped back"
        elif kind == "token_return":
            n = ev["count"]
            to = (f"{self.whose(ev['player'])} Spent marker" if ev.get("to") == "marker"
                  else "the Token Pool")
            line = (f"{n} {element_name(ev['element'])} token{'s' if n != 1 else ''} freed "
                    f"from slot {ev['slot']} to {to}")
        elif kind == "place_token":
            src = {"supply": "the Supply (paid with a Study card)", "marker": "a Spent marker",
                   "pool": "the Token Pool"}.get(ev.get("source", ""), str(ev.get("source")))
            key = (ev["player"], ev["element"], ev.get("source"))
            if placing and placing[0] == key and lines:
                # Placements in a row of one element from one source: one line.
                placing[1].append(ev["slot"])
                n = len(placing[1])
                lines[-1] = (f"{who(ev['player'])} placed {n} {element_name(ev['element'])} "
                             f"tokens from {src} on {slot_list(placing[1])}")
                return
            placing[:] = [key, [ev["slot"]]]
            self.opened = self.looped = None
            lines.append(f"{who(ev['player'])} placed a {element_name(ev['element'])} token "
                         f"from {src} on slot {ev['slot']}")
            return
        elif kind == "power":
            targets = ev.get("targets") or []
            line = f"{who(ev['player'])} used {ev['name']}" + (
                f" on {slot_list(targets)}" if targets else "")
        elif kind == "swap":
            a, b = ev["slots"]
            line = f"Slots {a} and {b} swapped"
        elif kind == "tide":
            line = (f"Slot {ev['slot']}'s card went on top of the deck", card,
                    ev.get("to_deck"), " ({})", "")
        elif kind == "game_over":
            line = f"Game over: {end_words(ev.get('reason'))}"
        if line:
            lines.append(line)
            placing.clear()
            self.opened = self.looped = None


def turn_summary(events: Sequence[Event], names: Sequence[str], seat: int | None,
                 player: int) -> str:
    """One seat's turn in one line, for the other seats' glance at the board ("Greedy bot used
    Spark, collected 2 Water, placed a Fire token on slot 4"). It names an element only where
    everyone sees it for good: a collected card (it left the grid) and a Binding token; an
    activated card that flipped back is a count, never an element.

    >>> turn_summary([{"type": "power", "player": 1, "name": "Spark", "targets": []},
    ...               {"type": "activate", "player": 1, "slot": 0},
    ...               {"type": "activate", "player": 1, "slot": 3},
    ...               {"type": "collect", "player": 1, "element": "water", "count": 2},
    ...               {"type": "place_token", "player": 1, "slot": 4, "element": "fire",
    ...                "source": "supply"}], ["You", "Bot"], 0, 1)
    'Bot used Spark, collected 2 Water, placed a Fire token on slot 4'
    """
    parts: list[str] = []
    tokens: dict[str, list[int]] = {}
    refilled: list[int] = []
    flipped = collected = 0
    for ev in events:
        kind = ev.get("type")
        if kind == "power":
            targets = ev.get("targets") or []
            parts.append(f"used {ev['name']}" + (f" on {slot_list(targets)}" if targets else ""))
        elif kind == "activate":
            flipped += 1
        elif kind == "deactivate":
            flipped -= 1
        elif kind == "collect":
            collected += 1
            parts.append(f"collected {ev['count']} {element_name(ev['element'])}")
        elif kind == "pass":
            parts.append("passed")
        elif kind == "reveal" and ev.get("cause") == "refill":
            refilled.append(ev["slot"])
        elif kind == "place_token":
            tokens.setdefault(ev["element"], []).append(ev["slot"])
    if flipped > 0 and not collected:
        parts.append(f"activated {flipped} card{'s' if flipped != 1 else ''} and collected "
                     "nothing")
    if refilled:
        parts.append(f"refilled {slot_list(sorted(refilled))}")
    for el, slots in tokens.items():
        n = len(slots)
        parts.append(f"placed {'a' if n == 1 else n} {element_name(el)} token"
                     f"{'' if n == 1 else 's'} on {slot_list(slots)}")
    who = "You" if player == seat else names[player]
    return f"{who} " + (", ".join(parts) if parts else "ended the turn")


class GameLog:
    """The game in words for one ``seat`` (None: the teacher), kept up to date step by step.

    :meth:`update` reads only the events since the last call, so a step costs the same at any
    game length. The naming rule of :func:`game_log` makes this exact: a finished turn's lines
    name an element only for a card collected in that turn, so they never change again and
    are built once, when the turn ends; only the turn being played is built again at each
    step, because its lines name the cards that are face-up now (a card that flips back loses
    its element). A different game (new game, undo) or one that went back starts afresh.

    >>> from leyline_widget import Activate, EndPhase
    >>> g = Game.new(players=1, seed=3)
    >>> log = GameLog(0)
    >>> _ = g.apply(Activate(0)), g.apply(EndPhase()), g.apply(EndPhase())
    >>> log.update(g) == game_log(g, 0)
    True
    """

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self._start(None)

    def _start(self, game: Game | None) -> None:
        self._game = game
        self._step = -1  # the last step read (0 is the set-up)
        self._cards = _Cards()
        self._done: list[dict[str, Any]] = []  # finished turns, built once
        self._done_marks: list[dict[int, list[str]]] = []
        self._done_recaps: list[str] = []  # each finished turn in one line (turn_summary)
        self._head: dict[str, Any] = {"turn": 0, "player": None}  # the turn being played
        self._now = _TurnText(() if game is None else game.players, self.seat)
        self._marks_now: dict[int, list[str]] = {}  # what the turn being played did
        self._events_now: list[Event] = []  # its events (for its one-line summary)
        self._collected: set[int] = set()  # cards collected in the turn being played
        self._played = [0] * (0 if game is None else len(game.players))

    def update(self, game: Game,
               grid: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The log of ``game`` now (as :func:`game_log` returns it); the finished turns'
        dicts are shared between calls: copy one before changing it. ``grid``: as in
        :func:`legal_summary`, any viewer's grid of this position when the caller has one."""
        if game is not self._game or game.step < self._step:
            self._start(game)
        if game.step > self._step:
            for ev in visible_events(game.events_since(self._step + 1), self.seat):
                self._take(ev, game.players)
            self._step = game.step
        if grid is None:
            grid = game.observation(None)["grid"]
        slot_of = self._cards.slot
        face_up = {slot_of[s] for s, cell in enumerate(grid)
                   if cell["card"] == "active" and s in slot_of}
        seen = self._collected | face_up
        now = {**self._head, "lines": self._now.words(self._namer(seen))}
        turns = [*self._done, now]
        groups = [*zip(turns, [*self._done_marks, self._marks_now])][1:]
        marks = self._marks(groups, game.is_over)
        if self.seat is not None and self._head["player"] == self.seat:
            # The mover sees where their own powers acted this turn (a Ripple's two slots).
            for slot, kinds in self._marks_now.items():
                for k in kinds:
                    if k in POWER_MARKS and k not in marks.setdefault(slot, []):
                        marks[slot].append(k)
        if not turns[0]["lines"]:
            turns = turns[1:]
        return {"turns": turns, "marks": {str(s): k for s, k in sorted(marks.items())},
                "recap": self._recap(), "turns_played": list(self._played)}

    def _recap(self) -> list[dict[str, Any]]:
        """The other seats' finished turns since this seat's last one, a line each, oldest
        first (the teacher: the last finished turn)."""
        done = [(t, r) for t, r in zip(self._done, self._done_recaps, strict=True)
                if t["player"] is not None]
        if self.seat is None:
            chosen = done[-1:]
        else:
            chosen = []
            for t, r in reversed(done):
                if t["player"] == self.seat:
                    break
                chosen.append((t, r))
            chosen.reverse()
        return [{"turn": t["turn"], "player": t["player"], "text": r} for t, r in chosen[-3:]]

    def _namer(self, seen: set[int]) -> Callable[[int | None, str | None], str]:
        """An element's word when this log may name that card: the teacher's always, a seat's
        only for the cards in ``seen`` (collected in the turn, or face-up now)."""
        teacher = self.seat is None

        def named(card: int | None, element: str | None) -> str:
            if element is None or not (teacher or card in seen):
                return ""
            return element_name(element)
        return named

    def _take(self, ev: Event, names: Sequence[str]) -> None:
        if ev.get("type") == "turn":
            # The turn being played is over: its lines are final (collected cards only).
            done = {**self._head, "lines": self._now.words(self._namer(self._collected))}
            self._done.append(done)
            self._done_marks.append(self._marks_now)
            player = self._head["player"]
            self._done_recaps.append("" if player is None else turn_summary(
                self._events_now, names, self.seat, player))
            self._head = {"turn": ev["turn"], "player": ev["player"]}
            self._now, self._marks_now = _TurnText(names, self.seat), {}
            self._events_now = []
            self._collected = set()
            self._played[ev["player"]] += 1
            return
        card, gone = _follow(self._cards, ev)
        self._collected.update(gone)
        self._now.feed(ev, card)
        self._events_now.append(ev)
        add_marks(self._marks_now, ev)

    def _marks(self, groups: list[tuple[dict[str, Any], dict[int, list[str]]]],
               over: bool) -> dict[int, list[str]]:
        """What the other seats did since this seat's last turn (the teacher: the last
        finished turn), from each turn's marks."""
        chosen: list[dict[int, list[str]]] = []
        if self.seat is None:
            done = [m for _, m in (groups if over else groups[:-1])]
            chosen = done[-1:]
        else:
            rest = groups[:-1] if groups and groups[-1][0]["player"] == self.seat else groups
            for g, m in reversed(rest):
                if g["player"] == self.seat:
                    break
                chosen.append(m)
        out: dict[int, list[str]] = {}
        for m in chosen:
            for slot, kinds in m.items():
                for k in kinds:
                    if k not in out.setdefault(slot, []):
                        out[slot].append(k)
        return out


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
    no element: a memory aid that shows only what everyone saw happen. A widget keeps a
    :class:`GameLog` instead, which reads each step's events once.

    >>> from leyline_widget import Activate, EndPhase
    >>> g = Game.new(players=1, seed=3)
    >>> _ = g.apply(Activate(0)), g.apply(Activate(1))
    >>> game_log(g, 0)["turns"][-1]["lines"][-1].startswith("You activated slot 1: ")
    True
    >>> _ = g.apply(EndPhase())
    >>> [line for line in game_log(g, 0)["turns"][-1]["lines"] if "slot 1" in line][:1]
    ['You activated slot 1']
    """
    return GameLog(seat).update(game)
