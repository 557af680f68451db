"""The replay book: every position, step and note of a replay, precomputed for one viewer.

A standalone replay page looks positions up in the book instead of asking a kernel; the
ReplayWidget uses the same step entries. Pure: no anywidget or traitlets.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from ..core.echo import quote
from ..core.game import Game, visible_events
from ..core.types import Event
from ..replays.replay import Replay, StepError, VariationError
from ..teach.memory import memory_reports, start_of
from .presenters import game_info

__all__ = [
    "BOOK_FORMAT",
    "BOOK_VERSION",
    "analysis_entries",
    "best_line",
    "chain",
    "diff",
    "glyph_entries",
    "line_end",
    "line_list",
    "main_or",
    "note_entries",
    "patch",
    "plan_slots",
    "replay_book",
    "score_series",
    "step_entries",
    "stream",
    "unstream",
]

#: Format of the data a standalone replay page carries (see :func:`replay_book`).
BOOK_FORMAT = "leyline-replay-page"
BOOK_VERSION = 1


# ---------------------------------------------------------------------------- pure helpers
def main_or(variation: int) -> int | None:
    return None if variation == 0 else variation


def line_end(replay: Replay, variation: int) -> int:
    """The last step of the main line (0) or of a variation."""
    return len(replay) if variation == 0 else replay.variation(variation).end


def line_list(replay: Replay) -> list[dict[str, Any]]:
    """The main line and every variation, parents first: what the line menu offers."""
    out: list[dict[str, Any]] = [{"id": 0, "name": "Main line", "parent": None, "start": 0,
                                  "end": len(replay)}]
    out += [{"id": v.id, "name": v.name, "parent": 0 if v.parent is None else v.parent,
             "start": v.step, "end": v.end} for v in replay.variations]
    return out


def chain(replay: Replay, variation: int) -> list[tuple[int, int, int]]:
    """The lines from the main line down to ``variation``: (id, start, end) each."""
    out: list[tuple[int, int, int]] = []
    vid: int | None = main_or(variation)
    while vid is not None:
        v = replay.variation(vid)
        out.append((v.id, v.step, v.end))
        vid = v.parent
    out.append((0, 0, len(replay)))
    return out[::-1]


def _advance(state: tuple[int, int, str], events: Sequence[Event]) -> tuple[int, int, str]:
    """Turn, player and phase after a step, read off its events (the engine announces each
    change of phase and turn)."""
    turn, player, phase = state
    for ev in events:
        kind = ev["type"]
        if kind == "phase":
            phase = ev["phase"]
        elif kind == "turn":
            turn, player, phase = ev["turn"], ev["player"], ev["phase"]
        elif kind == "game_over":
            phase = "game_over"
    return turn, player, phase


def step_entries(game: Game, viewer: int | None, first: int = 0,
                 before: tuple[int, int, str] | None = None) -> list[dict[str, Any]]:
    """One entry per step of ``game``'s history from ``first``: the ``turn``, ``player`` and
    ``phase`` before the action, the ``action``, and its ``events`` as ``viewer`` may see them.

    ``before`` is (turn, player, phase) at step ``first - 1`` (at step 0 when ``first`` is 0);
    by default it is read off the history. Step 0 has no action: its events are the set-up
    reveals.

    >>> from leyline_widget import Game, Activate
    >>> game = Game.new(players=2, seed=7)
    >>> _ = game.apply(Activate(4))
    >>> [(e["turn"], e["player"], e["phase"], e["action"]) for e in step_entries(game, 1)]
    [(1, 0, 'activation', None), (1, 0, 'activation', {'type': 'activate', 'slot': 4})]
    """
    log = game.event_log
    actions = game.actions
    if before is None:
        origin = start_of(game)
        before = (origin.turn, origin.active_player, origin.phase.value)
        for k in range(1, first):
            before = _advance(before, log[k])
    state = before
    out: list[dict[str, Any]] = []
    for k in range(first, len(log)):
        out.append({"turn": state[0], "player": state[1], "phase": state[2],
                    "action": actions[k - 1].to_dict() if k else None,
                    "events": [dict(ev) for ev in visible_events(log[k], viewer)]})
        if k:
            state = _advance(state, log[k])
    return out


def note_entries(replay: Replay, variation: int) -> list[dict[str, Any]]:
    """The notes on a line as the page lists them, each with the line that owns it: a
    variation shows its parents' notes up to its branch step, and its own from there."""
    links = chain(replay, variation)
    out: list[dict[str, Any]] = []
    for i, (vid, start, end) in enumerate(links):
        below = links[i + 1][1] if i + 1 < len(links) else end
        notes = (replay.annotations if vid == 0 else replay.variation(vid).annotations)
        for step, items in notes.items():
            if start <= step <= below:
                out += [{"step": step, "variation": vid, "index": k, **n.to_dict()}
                        for k, n in enumerate(items)]
    out.sort(key=lambda n: n["step"])  # stable: a parent's notes before its variation's
    return out


def glyph_entries(replay: Replay, variation: int) -> dict[str, str]:
    """The glyphs on a line's moves, step (as a string) -> glyph: a variation shows its
    parents' glyphs up to its branch step, and its own after it."""
    links = chain(replay, variation)
    out: dict[str, str] = {}
    for i, (vid, start, end) in enumerate(links):
        below = links[i + 1][1] if i + 1 < len(links) else end
        glyphs = replay.glyphs if vid == 0 else replay.variation(vid).glyphs
        out.update({str(step): g for step, g in glyphs.items() if start < step <= below})
    return out


def analysis_entries(replay: Replay, variation: int, viewer: int | None) -> list[dict[str, Any]]:
    """The coach's reviews a page shows on a line, one per analysed seat: for a player
    viewer only that seat's own (a review names what its seat knew), for the all-seeing
    viewer every seat's. Reviews cover the main line; a variation shows the moves before it
    leaves the main line. Each move is keyed by the step it led to (as glyphs are): ``step``
    (the action's index + 1), ``played``, ``best``, ``loss``, ``verdict``, ``reason``, and
    ``best_value`` / ``played_value``: the seat's expected final score margin (own score minus
    the best opponent's) with the best option and with the move played (the eval graph), the
    ``cause`` the reason names, ``best_line`` (:func:`best_line`, what "Show the line" plays)
    and ``best_slots`` (:func:`plan_slots`, what "Best was" marks on the board).
    """
    links = chain(replay, variation)
    below = links[1][1] if len(links) > 1 else len(replay)
    out: list[dict[str, Any]] = []
    for seat, review in replay.analyses.items():
        if viewer is not None and seat != viewer:
            continue
        moves = []
        for m in review["moves"]:
            if m["step"] + 1 > below:
                continue
            options = m.get("options") or []
            holding = [o["value"] for o in options if m["best"] in o["actions"]]
            values = holding or [o["value"] for o in options]
            best_value = max(values) if values else None
            line = best_line(m)
            moves.append({"step": m["step"] + 1, "played": m["played"], "best": m["best"],
                          "loss": m["loss"], "verdict": m["verdict"], "reason": m["reason"],
                          "cause": m.get("cause", ""),
                          "best_value": best_value,
                          "played_value": None if best_value is None
                          else best_value - m["loss"],
                          "best_line": line, "best_slots": plan_slots(line, m["best"])})
        out.append({"player": seat, "budget": review["budget"], "moves": moves})
    return out


def best_line(move: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The best line from a reviewed decision (``Show the line``): the search's own line when
    the review carries one, else the best plan holding the best move (its options'
    actions), else the best move alone."""
    line = move.get("line")
    searched = [dict(a) for a in line] if isinstance(line, list) else []
    holding = [o for o in move.get("options") or [] if move["best"] in o["actions"]]
    plan: list[dict[str, Any]] = [dict(move["best"])]
    if holding:
        top = max(holding, key=lambda o: o["value"])
        actions = [dict(a) for a in top["actions"]]
        # A plan starts with the cards it drops; the line starts with the best move itself.
        first = actions.index(move["best"])
        plan = actions[first:first + 1] + actions[:first] + actions[first + 1:]
    # The search's line goes on into the next player's turn; where it stops short of the
    # plan (a plan that first drops cards), the whole plan is the line.
    return searched if len(searched) >= len(plan) else plan


def plan_slots(line: Sequence[Mapping[str, Any]], best: Mapping[str, Any]) -> list[int]:
    """The grid slots "Best was" marks on the board: the cards the best plan activates (or,
    outside Phase 2, the best move's slot and targets)."""
    acts = [a["slot"] for a in line if a.get("type") == "activate"]
    if best.get("type") == "activate" and acts:
        return sorted(set(acts))
    slots = [best["slot"]] if isinstance(best.get("slot"), int) else []
    return sorted(set(slots + [t for t in best.get("targets") or [] if isinstance(t, int)]))


def score_series(replay: Replay, variation: int) -> list[list[int]]:
    """Each seat's score (cards in its Study: public) at every step of a line, in one walk:
    what the score graph draws. An analysis can add its own series beside it later."""
    game = replay.game_at(0, main_or(variation))
    out = [game.scores()]
    for action in replay.line(main_or(variation)):
        game.apply(action)
        out.append(game.scores())
    return out


def diff(old: Any, new: Any, path: list[str | int] | None = None,
         out: list[list[Any]] | None = None) -> list[list[Any]]:
    """The changes from ``old`` to ``new`` (JSON values) as ``[path, value]`` pairs.

    Positions of one line change a little each step: the page keeps the first and these
    patches, which :func:`patch` (and its twin ``applyPatch`` in ``js/src/book.js``) apply.

    >>> diff({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]})
    [[['b', 1], 3]]
    """
    path = [] if path is None else path
    out = [] if out is None else out
    if old == new and type(old) is type(new):
        return out
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        for key in new:
            diff(old[key], new[key], [*path, key], out)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            diff(a, b, [*path, i], out)
    else:
        out.append([path, new])
    return out


def patch(base: Any, changes: Iterable[Sequence[Any]]) -> Any:
    """``base`` with the changes of :func:`diff` applied (a copy; ``base`` is unchanged).

    >>> patch({"a": 1, "b": [1, 2]}, [[["b", 1], 3]])
    {'a': 1, 'b': [1, 3]}
    """
    value = json.loads(json.dumps(base))
    for path, new in changes:
        if not path:
            value = json.loads(json.dumps(new))
            continue
        target = value
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = json.loads(json.dumps(new))
    return value


def stream(values: Iterable[Any]) -> dict[str, Any]:
    """A run of JSON values as its first one and the patches to each next one."""
    base: Any = None
    patches: list[list[list[Any]]] = []
    prev: Any = None
    for i, value in enumerate(values):
        if i == 0:
            base = value
        else:
            patches.append(diff(prev, value))
        prev = value
    return {"base": base, "patches": patches}


def unstream(data: Mapping[str, Any]) -> list[Any]:
    """Every value of a :func:`stream` (the Python twin of the page's decoder)."""
    values = [data["base"]]
    for changes in data["patches"]:
        values.append(patch(values[-1], changes))
    return values


def _viewer_key(viewer: int | None) -> str:
    return "all" if viewer is None else str(viewer)


def replay_book(replay: Replay, viewer: int | None = None, *, step: int = 0,
                variation: int | None = None, hide_tags: Iterable[str] = ("spoiler",),
                exclude_tags: Iterable[str] = (), show_memory_of: int | None = None,
                reveal_ms: int = 1500, downloads: bool = True) -> dict[str, Any]:
    """Everything a standalone replay page shows, precomputed for ``viewer`` (JSON-safe).

    For a player viewer the book holds only that player's observations and events: nothing of
    the all-seeing view is in it. For ``viewer=None`` it holds the all-seeing view and every
    player's, so the page's viewer menu works. Each line (the main line and every variation)
    stores its first position and the patches to each next one (see :func:`diff`); the page
    only looks positions up, it never applies a rule. ``show_memory_of`` (all-seeing books
    only) adds that player's memory report for every step. Notes carrying a tag of
    ``exclude_tags`` are left out of the book. Each line also carries its ``glyphs``, its
    ``scores`` (the score graph) and its ``analyses`` (:func:`analysis_entries`: for a player's
    page that seat's review only); with ``downloads`` the book holds the page's downloads: the
    Markdown of the start line (public words only), and on the all-seeing page the replay
    file itself (it names every card, so a player's page never holds it).
    """
    players = len(replay.players)
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < players):
        raise ValueError(f"viewer must be None (all-seeing) or a player from 0 to "
                         f"{players - 1}, got {quote(viewer)}")
    if show_memory_of is not None:
        if viewer is not None:
            raise ValueError("show_memory_of needs the all-seeing page (viewer=None): the memory "
                             "panel names every hidden card")
        if isinstance(show_memory_of, bool) or not isinstance(show_memory_of, int) or not (
                0 <= show_memory_of < players):
            raise ValueError(f"show_memory_of must be None or a player from 0 to {players - 1}, "
                             f"got {quote(show_memory_of)}")
    vid = 0 if variation is None else variation
    lines = line_list(replay)
    if vid not in {line["id"] for line in lines}:
        raise VariationError(f"no variation {quote(variation)}; variations are: "
                             f"{', '.join(str(line['id']) for line in lines[1:]) or 'none'}")
    end = line_end(replay, vid)
    if isinstance(step, bool) or not isinstance(step, int) or not -end - 1 <= step <= end:
        raise StepError(f"step {quote(step)} is outside the line shown, which has steps 0 to {end}")
    step = step + end + 1 if step < 0 else step
    viewers: list[int | None] = [None, *range(players)] if viewer is None else [viewer]
    excluded = set(exclude_tags)

    frames: dict[str, dict[str, Any]] = {_viewer_key(v): {} for v in viewers}
    entries: dict[str, dict[str, Any]] = {_viewer_key(v): {} for v in viewers}
    memory: dict[str, Any] | None = None
    if show_memory_of is not None:
        memory = {"player": show_memory_of, "lines": {}}
    for line in lines:
        lid, start, key = line["id"], line["start"], str(line["id"])
        game = replay.game_at(line["end"], main_or(lid))
        walk = replay.game_at(start, main_or(lid))
        before = (walk.turn, walk.active_player, walk.phase.value)
        actions = game.actions
        views: dict[str, list[dict[str, Any]]] = {_viewer_key(v): [] for v in viewers}
        for k in range(start, line["end"] + 1):
            if k > start:
                walk.apply(actions[k - 1])
            for v in viewers:
                views[_viewer_key(v)].append(cast(dict[str, Any], walk.observation(v)))
        # A variation's steps up to its branch step are its parent's: the page looks there.
        first = 0 if lid == 0 else start + 1
        shared = step_entries(game, viewers[0], first, before)
        for v in viewers:
            vk = _viewer_key(v)
            frames[vk][key] = stream(views[vk])
            if v == viewers[0]:
                entries[vk][key] = {"base": shared}
            else:
                # A player's entries differ from the all-seeing ones only where a peek was
                # private: the book keeps them as patches of those.
                own = step_entries(game, v, first, before)
                entries[vk][key] = {"of": "all", "patches": diff(shared, own)}
        if memory is not None:
            # One walk folds the memory step by step: linear in the line's length.
            memory["lines"][key] = stream(memory_reports(game, memory["player"], first=start))
    notes = {str(line["id"]): [n for n in note_entries(replay, line["id"])
                                if not excluded & set(n["tags"])] for line in lines}
    from ..core.version import VERSION as __version__

    files: dict[str, str] = {}
    if downloads:
        from ..teach.markdown import replay_markdown

        files["markdown"] = replay_markdown(replay, variation, hide_tags=sorted(
            set(hide_tags) | excluded))
        if viewer is None and not excluded:
            files["json"] = replay.to_json()
    return {
        "format": BOOK_FORMAT,
        "version": BOOK_VERSION,
        "generator": f"leyline_widget {__version__}",
        "info": game_info(replay.game_at(0), {}),
        "viewers": viewers,
        "lines": lines,
        "start": {"step": step, "variation": vid, "viewer": viewers[0]},
        "frames": frames,
        "entries": entries,
        "notes": notes,
        "memory": memory,
        "hide_tags": sorted(set(hide_tags)),
        "reveal_ms": reveal_ms,
        "glyphs": {str(line["id"]): glyph_entries(replay, line["id"]) for line in lines},
        "scores": {str(line["id"]): score_series(replay, line["id"]) for line in lines},
        # A player's book holds that seat's review alone; the all-seeing one every seat's.
        "analyses": {str(line["id"]): analysis_entries(replay, line["id"], viewer)
                     for line in lines},
        "downloads": files,
    }
