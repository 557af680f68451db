"""A replay as Markdown for a notebook: players, result, every step in words, and its notes.

Only public information appears (no private peeks), and untrusted text (names, notes) is
escaped so it cannot add links, images, HTML or maths.

>>> from leyline_widget import Game, Replay, Activate
>>> game = Game.new(players=["Ada"], seed=2)
>>> _ = game.apply(Activate(0))
>>> print(replay_markdown(Replay.from_game(game)).splitlines()[0])
# Leyline replay: Ada
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..core.game import ONLOOKER, Game, visible_events
from ..core.rules import Rules
from ..core.types import Event
from ..replays.replay import Replay
from .words import END_REASONS, phrases

__all__ = ["md_escape", "replay_markdown"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~$=-])")


def md_escape(text: str) -> str:
    """Escape untrusted text for Markdown: no links, images, HTML, code or maths.

    >>> md_escape("[x](http://a) <b>")
    '\\\\[x\\\\]\\\\(http://a\\\\) &lt;b&gt;'
    """
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    # A line starting "12." would become a numbered list item.
    return re.sub(r"^(\s*\d+)([.)])", r"\1\\\2", text)


def replay_markdown(replay: Replay, variation: int | None = None,
                    hide_tags: Iterable[str] = ()) -> str:
    """The line (the main line, or ``variation``) as Markdown.

    Notes carrying any of ``hide_tags`` (for example ``"spoiler"``) are left out.

    >>> from leyline_widget import Activate, Game, Replay
    >>> game = Game.new(players=["Ada", "Bo"], seed=7)
    >>> events = game.apply(Activate(3))
    >>> replay = Replay.from_game(game)
    >>> note = replay.annotate(1, "Watch slot 3")
    >>> print(replay_markdown(replay).splitlines()[0])
    # Leyline replay: Ada, Bo
    >>> "Watch slot 3" in replay_markdown(replay)
    True
    """
    hidden = set(hide_tags)
    names = replay.players
    end = len(replay.line(variation))
    out = [f"# Leyline replay: {md_escape(', '.join(names))}", ""]
    final = replay.game_at(end, variation)
    rule_changes = _rule_changes(replay.rules)
    out.append(f"**Rules:** {md_escape(rule_changes) if rule_changes else 'default'}  ")
    if variation is not None:
        v = replay.variation(variation)
        out.append(f"**Variation:** {md_escape(v.name)} (from step {v.step})  ")
    out.append(f"**Actions:** {end}  ")
    out.append(f"**Result:** {md_escape(_result_words(final))}")
    player = 0
    for step in replay.steps(variation):
        if step.action is not None:
            words = _describe(step.events, player, names)
            out += ["", f"**{step.step}.** {words}"]
        player = step.observation["active_player"]
        shown = [n for n in step.notes if not hidden & set(n.tags)]
        skipped = len(step.notes) - len(shown)
        for note in shown:
            out.append("")
            tags = f" *({md_escape(', '.join(note.tags))})*" if note.tags else ""
            slots = (f" *slots {', '.join(map(str, note.highlights))}*"
                     if note.highlights else "")
            lines = note.text.split("\n") or [""]
            out.append(f"> **Note{tags}{slots}:** {md_escape(lines[0])}"
                       + ("  " if lines[1:] else ""))
            out.extend(f"> {md_escape(text)}  " for text in lines[1:])
        if skipped:
            out += ["", f"*({skipped} hidden note{'s' if skipped > 1 else ''})*"]
        # The action that ends a turn announces the next one: head the steps that follow.
        for ev in step.events:
            if ev["type"] == "turn":
                out += ["", f"### Turn {ev['turn']}: {md_escape(names[ev['player']])}"]
    variations = replay.variations
    if variation is None and variations:
        out += ["", "## Variations", ""]
        for v in variations:
            where = "the main line" if v.parent is None else f"variation {v.parent}"
            out.append(f"- {v.id}: {md_escape(v.name)}, {len(v.actions)} action(s) from step "
                       f"{v.step} of {where}")
    return "\n".join(out) + "\n"


def _rule_changes(rules: Rules) -> str:
    default = Rules.default().to_dict()
    mine = rules.to_dict()
    return ", ".join(f"{k} {mine[k]}" for k in mine if k != "powers" and mine[k] != default[k])


def _result_words(game: Game) -> str:
    scores = ", ".join(f"{name} {s}" for name, s in zip(game.players, game.scores()))
    if not game.is_over:
        return f"in progress at turn {game.turn} (scores: {scores})"
    reason = END_REASONS.get(game.end_reason or "", "")
    winners = " and ".join(game.players[p] for p in game.winners())
    return f"{winners} won; {reason} (scores: {scores})"


def _describe(events: Sequence[Event], player: int, names: Sequence[str]) -> str:
    """One public Markdown sentence for an action's events (no private peeks).

    Names come from the file (players) or the rules (powers): they are escaped. Element ids are
    safe (the rules allow only ``[a-z0-9_]``, and display names drop the ``_``).
    """
    said = [ev for ev in visible_events(events, ONLOOKER)
            if ev["type"] not in ("turn", "phase")]
    parts = phrases(said, names, escape=md_escape)
    who = md_escape(names[player])
    if any(ev["type"] == "turn" for ev in events):
        parts.append(f"{who} ends the turn")
    if not parts:
        parts.append(f"{who} ends the phase")
    return "; ".join(parts)
