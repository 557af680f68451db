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
from ..core.game import Game, Phase

__all__ = ["ACTIVE", "TEACHER", "escape_html", "game_info", "legal_summary", "parse_seats",
           "sentence"]

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
