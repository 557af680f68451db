"""Watch a recorded game in Jupyter, annotate it, and share it as one offline HTML page.

:class:`ReplayWidget` is a thin adapter over a :class:`~leyline_widget.replay.Replay` on the same
board as the play widget. The page scrubs (slider, first / back / forward / last, autoplay, arrow
keys), lists every action of the line in words, shows the notes of the shown step and lets you
add, edit and remove notes; it can switch the line (main line or a variation) and the viewer (a
player, or the all-seeing teacher). The kernel computes every position; JS decides nothing.

Synced traits, besides the board's (``view``, ``legal``, ``info``, ``error``):

- ``step`` (two-way): the step shown, 0 (set-up) to the end of the line; negative values set
  from Python count from the end, as in a list;
- ``variation`` (two-way): 0 for the main line, else a variation id;
- ``viewer`` (two-way): a player number, or None for the all-seeing view (refused when
  ``allow_all_seeing`` is False, so a page shared with students cannot ask for it);
- ``viewers``: the viewers the page may choose; ``lines``: the main line and every variation
  (``id``, ``name``, ``parent``, ``start``, ``end``);
- ``line``: one entry per step of the shown line (``turn``, ``player`` and ``phase`` before the
  action, the ``action``, and its ``events`` as :func:`~leyline_widget.engine.visible_events`
  shows them to the viewer); the page words them and shows the step's events;
- ``annotations``: the notes on the shown line (``step``, ``variation`` owning it, ``index``,
  ``text``, ``tags``, ``highlights``); note text is untrusted and the page shows it as text;
- ``memory``: with ``show_memory_of`` (a player) and the all-seeing viewer, the teacher's
  :func:`~leyline_widget.memory.memory_report` of that player at the shown step, else ``{}``;
- ``hide_tags``: notes carrying one of these tags start hidden (the page can show them).

Messages from the page: ``annotate`` (``step``, ``text``, ``tags``, ``highlights``),
``edit_note`` and ``remove_note`` (``step``, ``variation``, ``index``, and for an edit the new
``text``, ``tags``, ``highlights``). The replay validates each; a refusal sets ``error``.

>>> from leyline_widget import Game
>>> game = Game.new(players=["Ada", "Bo"], seed=7)
>>> for _ in range(6):
...     _ = game.apply(game.legal_actions()[0])
>>> r = ReplayWidget(game.replay)
>>> r.step = 3
>>> r.view == game.replay.game_at(3).observation(None)
True
>>> r.send_message({"type": "annotate", "step": 3, "text": "<b>look</b>", "tags": ["hint"]})
>>> r.replay.annotations[3][0].text, r.annotations[0]["text"]
('<b>look</b>', '<b>look</b>')
>>> r.viewer = 1
>>> any(c["element"] for c in r.view["grid"] if c["card"] == "inert")
False
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import traitlets

from ._static import asset
from .engine import Event, Game, visible_events
from .memory import memory_report, start_of
from .replay import Note, Replay, StepError, VariationError, make_note
from .widget import TEACHER, Handler, Message, _BoardWidget, _only, escape_html, game_info

__all__ = ["ReplayWidget", "replay_book", "write_replay_html"]

#: Format of the data a standalone replay page carries (see :func:`replay_book`).
BOOK_FORMAT = "leyline-replay-page"
BOOK_VERSION = 1


# ---------------------------------------------------------------------------- pure helpers
def _main_or(variation: int) -> int | None:
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
    vid: int | None = _main_or(variation)
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


def diff(old: Any, new: Any, path: list[str | int] | None = None,
         out: list[list[Any]] | None = None) -> list[list[Any]]:
    """The changes from ``old`` to ``new`` (JSON values) as ``[path, value]`` pairs.

    Positions of one line change a little each step: the page keeps the first and these
    patches, which :func:`patch` (and its twin ``applyPatch`` in ``widget.js``) apply.

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
                reveal_ms: int = 1500) -> dict[str, Any]:
    """Everything a standalone replay page shows, precomputed for ``viewer`` (JSON-safe).

    For a player viewer the book holds only that player's observations and events: nothing of
    the all-seeing view is in it. For ``viewer=None`` it holds the all-seeing view and every
    player's, so the page's viewer menu works. Each line (the main line and every variation)
    stores its first position and the patches to each next one (see :func:`diff`); the page
    only looks positions up, it never applies a rule. ``show_memory_of`` (all-seeing books
    only) adds that player's memory report for every step. Notes carrying a tag of
    ``exclude_tags`` are left out of the book.
    """
    players = len(replay.players)
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < players):
        raise ValueError(f"viewer must be None (all-seeing) or a player from 0 to "
                         f"{players - 1}, got {viewer!r}")
    if show_memory_of is not None:
        if viewer is not None:
            raise ValueError("show_memory_of needs the all-seeing page (viewer=None): the memory "
                             "panel names every hidden card")
        if isinstance(show_memory_of, bool) or not isinstance(show_memory_of, int) or not (
                0 <= show_memory_of < players):
            raise ValueError(f"show_memory_of must be None or a player from 0 to {players - 1}, "
                             f"got {show_memory_of!r}")
    vid = 0 if variation is None else variation
    lines = line_list(replay)
    if vid not in {line["id"] for line in lines}:
        raise VariationError(f"no variation {variation!r}; variations are: "
                             f"{', '.join(str(line['id']) for line in lines[1:]) or 'none'}")
    end = line_end(replay, vid)
    if isinstance(step, bool) or not isinstance(step, int) or not -end - 1 <= step <= end:
        raise StepError(f"step {step!r} is outside the line shown, which has steps 0 to {end}")
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
        game = replay.game_at(line["end"], _main_or(lid))
        walk = replay.game_at(start, _main_or(lid))
        before = (walk.turn, walk.active_player, walk.phase.value)
        actions = game.actions
        views: dict[str, list[dict[str, Any]]] = {_viewer_key(v): [] for v in viewers}
        reports: list[dict[str, Any]] = []
        for k in range(start, line["end"] + 1):
            if k > start:
                walk.apply(actions[k - 1])
            for v in viewers:
                views[_viewer_key(v)].append(walk.observation(v))
            if memory is not None:
                reports.append(memory_report(walk, memory["player"]))
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
            memory["lines"][key] = stream(reports)
    notes = {str(line["id"]): [n for n in note_entries(replay, line["id"])
                                if not excluded & set(n["tags"])] for line in lines}
    from . import __version__

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
    }



# ---------------------------------------------------------------------------- the widget
class _Checked(traitlets.Any):
    """Any value, None included, always through the widget's validator: traitlets skips
    validators for None on traits that allow None, and None (all-seeing) must be checked."""

    allow_none = False


class ReplayWidget(_BoardWidget):
    """Watch and annotate a :class:`~leyline_widget.replay.Replay` in a notebook.

    ``ReplayWidget(replay)`` shows step 0 of the main line; ``step``, ``variation`` (0 for the
    main line) and ``viewer`` (a player, or None / ``"teacher"`` for the all-seeing view) pick
    what is shown, from Python or from the page. ``allow_all_seeing=False`` takes the
    all-seeing view off the menu (for sharing with students: the kernel refuses it, whatever
    the page asks). ``show_memory_of`` (a player) adds the teacher's memory panel to the
    all-seeing view. Notes tagged with one of ``hide_tags`` start hidden in the page.

    After changing the replay from Python (``replay.annotate``, moves on a game from
    ``replay.branch``), call :meth:`refresh`; :meth:`annotate` and :meth:`branch` refresh for
    you. :meth:`to_html` writes the standalone page of what is shown.
    """

    step = traitlets.Int(0).tag(sync=True)
    variation = traitlets.Int(0).tag(sync=True)
    viewer = _Checked(None).tag(sync=True)
    viewers: traitlets.List[int | None] = traitlets.List().tag(sync=True)
    lines: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    line: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    annotations: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    memory = traitlets.Dict().tag(sync=True)
    show_memory_of = traitlets.Any(None).tag(sync=True)
    memory_choices: traitlets.List[int] = traitlets.List().tag(sync=True)
    hide_tags: traitlets.List[str] = traitlets.List(["spoiler"]).tag(sync=True)
    editable = traitlets.Bool(True).tag(sync=True)
    _client_writable = frozenset({"step", "variation", "viewer", "show_memory_of"})

    def __init__(self, replay: Replay, *, step: int = 0, variation: int | None = None,
                 viewer: int | str | None = TEACHER, allow_all_seeing: bool = True,
                 show_memory_of: int | None = None, hide_tags: Iterable[str] = ("spoiler",),
                 reveal_ms: int = 1500) -> None:
        if not isinstance(replay, Replay):
            raise ValueError(f"replay must be a Replay, got {type(replay).__name__} (a Game's "
                             "is game.replay; a file's is Replay.load(path))")
        self.replay = replay
        self._allow_all_seeing = bool(allow_all_seeing)
        self._ready = False
        self._busy = False
        if viewer in (None, TEACHER) and not allow_all_seeing:
            viewer = 0
        super().__init__(mode="replay", reveal_ms=reveal_ms,
                         info=game_info(replay.game_at(0), {}))
        with self.hold_sync():
            self.hide_tags = sorted(set(hide_tags))
            self.viewers = self._viewer_menu()
            self.lines = line_list(replay)
            self.memory_choices = list(range(len(replay.players)))
            self.variation = 0 if variation is None else variation
            self.viewer = viewer
            self.step = step
            self.show_memory_of = show_memory_of
            self._ready = True
            self.refresh()

    # -- Python API ----------------------------------------------------------------------
    @property
    def allow_all_seeing(self) -> bool:
        """Whether the all-seeing view may be shown (False: players' views only)."""
        return self._allow_all_seeing

    @allow_all_seeing.setter
    def allow_all_seeing(self, value: bool) -> None:
        self._allow_all_seeing = bool(value)
        with self.hold_sync():
            self.viewers = self._viewer_menu()
            if self.viewer is None and not value:
                self.viewer = 0

    @property
    def game(self) -> Game:
        """A new Game at the shown step of the shown line (changing it changes nothing here)."""
        return self.replay.game_at(self.step, _main_or(self.variation))

    def refresh(self) -> ReplayWidget:
        """Read the replay again: its variations, notes, and moves made on branched games."""
        with self.hold_sync():
            self.lines = line_list(self.replay)
            self._busy = True
            try:
                self.step = min(self.step, line_end(self.replay, self.variation))
            finally:
                self._busy = False
            self._show_line()
            self._show_step()
        return self

    def annotate(self, text: str, tags: Iterable[str] = (), highlights: Iterable[int] = (),
                 step: int | None = None) -> Note:
        """Add a note on the shown step (or ``step``) of the shown line; returns it."""
        at = self.step if step is None else step
        note = self.replay.annotate(at, text, tags, highlights, self._owner(at))
        self.annotations = note_entries(self.replay, self.variation)
        return note

    def branch(self, name: str | None = None) -> Game:
        """A Game at the shown step whose moves form a new variation, which is then shown.

        Make moves on it, then call :meth:`refresh` to see them here.
        """
        game = self.replay.branch(self.step, name, _main_or(self.variation))
        found = self.replay.variation_of(game)
        assert found is not None
        with self.hold_sync():
            self.lines = line_list(self.replay)
            self.variation = found.id
        return game

    def to_html(self, path: str | Path, *, title: str = "Leyline replay",
                assets: str = "inline") -> Path:
        """Write the standalone page (:meth:`Replay.to_html`) of the shown line, from the shown
        step, for the shown viewer (the all-seeing page holds every player's view too)."""
        if assets != "inline":
            raise ValueError(f"a replay page is always one self-contained file (assets='inline'), "
                             f"got assets={assets!r}")
        memory_of = self.show_memory_of if self.viewer is None else None
        return write_replay_html(self.replay, path, self.viewer, step=self.step,
                                 variation=_main_or(self.variation), title=title,
                                 hide_tags=self.hide_tags, show_memory_of=memory_of,
                                 reveal_ms=self.reveal_ms)

    # -- traits --------------------------------------------------------------------------
    def _viewer_menu(self) -> list[int | None]:
        seats: list[int | None] = list(range(len(self.replay.players)))
        return [None, *seats] if self._allow_all_seeing else seats

    @traitlets.validate("viewer")
    def _check_viewer(self, proposal: Any) -> int | None:
        value = proposal["value"]
        n = len(self.replay.players)
        if value is None or value == TEACHER:
            if not self._allow_all_seeing:
                raise traitlets.TraitError("the all-seeing view is switched off for this replay "
                                           "(allow_all_seeing=False); choose a player")
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            raise traitlets.TraitError(f"viewer must be a player from 0 to {n - 1} or None "
                                       f"('teacher', all-seeing), got {value!r}")
        return value

    @traitlets.validate("variation")
    def _check_variation(self, proposal: Any) -> int:
        value = proposal["value"]
        if value is None:
            return 0
        if value != 0:
            try:
                self.replay.variation(value)
            except VariationError as err:
                raise traitlets.TraitError(str(err)) from None
        return int(value)

    @traitlets.validate("step")
    def _check_step(self, proposal: Any) -> int:
        value = proposal["value"]
        end = line_end(self.replay, self.variation)
        if not -end - 1 <= value <= end:
            where = "the main line" if self.variation == 0 else f"variation {self.variation}"
            raise traitlets.TraitError(f"step {value} is outside {where}, which has steps 0 to "
                                       f"{end}")
        return int(value + end + 1 if value < 0 else value)

    @traitlets.validate("show_memory_of")
    def _check_memory_of(self, proposal: Any) -> int | None:
        value = proposal["value"]
        n = len(self.replay.players)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value < n):
            raise traitlets.TraitError(f"the memory panel (show_memory_of) shows a player from "
                                       f"0 to {n - 1}, or nobody (None); got {value!r}")
        return value

    @traitlets.observe("step", "variation", "viewer", "show_memory_of")
    def _shown_changed(self, change: Any) -> None:
        if not self._ready or self._busy:
            return
        with self.hold_sync():
            end = line_end(self.replay, self.variation)
            if change["name"] == "variation":
                self._busy = True
                try:  # keep the step when the new line has it, else its last
                    self.step = min(self.step, end)
                finally:
                    self._busy = False
            # A game from branch() may have moved on since the line was sent: send it again.
            if change["name"] in ("variation", "viewer") or len(self.line) != end + 1:
                self.lines = line_list(self.replay)
                self._show_line()
            self._show_step()
            self.error = ""

    def _show_line(self) -> None:
        """The line's step entries and notes, for the viewer."""
        variation = _main_or(self.variation)
        end = line_end(self.replay, self.variation)
        self.line = step_entries(self.replay.game_at(end, variation), self.viewer)
        self.annotations = note_entries(self.replay, self.variation)

    def _show_step(self) -> None:
        game = self.game
        viewer = self.viewer
        self.view = game.observation(viewer)
        self.legal = {"step": self.step, "actor": None, "variation": self.variation}
        memory_of = self.show_memory_of
        # The report names every hidden card: the all-seeing view only.
        self.memory = ({} if viewer is not None or memory_of is None
                       else memory_report(game, memory_of))

    # -- notes from the page -------------------------------------------------------------
    def _owner(self, step: int) -> int | None:
        """The line a new note on ``step`` of the shown line belongs to: the deepest line of
        the chain whose own steps include it."""
        owner = 0
        for vid, start, _end in chain(self.replay, self.variation):
            if start <= step:
                owner = vid
        return _main_or(owner)

    def _handlers(self) -> dict[str, Handler]:
        return {"annotate": self._on_annotate, "edit_note": self._on_edit,
                "remove_note": self._on_remove}

    def _note_step(self, content: Message, kind: str) -> int:
        if "step" not in content:
            raise ValueError(f"a {kind} message needs the integer 'step' of the note")
        step = content["step"]
        end = line_end(self.replay, self.variation)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= end:
            raise StepError(f"a {kind} message needs a step from 0 to {end}, got {step!r}")
        return step

    def _note_at(self, content: Message, kind: str) -> tuple[int, int | None, list[Note], int]:
        """The step, owning line, notes and index a note message points at (checked)."""
        step = self._note_step(content, kind)
        owner = content.get("variation", 0)
        ids = [vid for vid, _s, _e in chain(self.replay, self.variation)]
        if isinstance(owner, bool) or owner not in ids:
            raise VariationError(f"a {kind} message needs the 'variation' owning the note, one "
                                 f"of the lines shown ({', '.join(map(str, ids))}), got "
                                 f"{owner!r}")
        line = _main_or(owner)
        notes = (self.replay.annotations if line is None
                 else self.replay.variation(line).annotations).get(step, [])
        index = content.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(notes):
            raise StepError(f"step {step} has {len(notes)} note(s) there; there is no note "
                            f"{index!r} (was it removed meanwhile?)")
        return step, line, notes, index

    def _on_annotate(self, content: Message) -> None:
        _only(content, "annotate", ("step", "text", "tags", "highlights"))
        step = self._note_step(content, "annotate")
        self.annotate(content.get("text", ""), content.get("tags", ()),
                      content.get("highlights", ()), step=step)
        self.error = ""

    def _on_edit(self, content: Message) -> None:
        _only(content, "edit_note", ("step", "variation", "index", "text", "tags", "highlights"))
        step, line, notes, index = self._note_at(content, "edit_note")
        new = make_note(content.get("text", ""), content.get("tags", ()),
                        content.get("highlights", ()), self.replay.rules.grid_size)
        # The replay has no "replace": take the step's notes off and put them back in order,
        # all checked already, so nothing can fail half-way.
        self.replay.remove_annotation(step, None, line)
        for k, note in enumerate(notes):
            keep = new if k == index else note
            self.replay.annotate(step, keep.text, keep.tags, keep.highlights, line)
        self.annotations = note_entries(self.replay, self.variation)
        self.error = ""

    def _on_remove(self, content: Message) -> None:
        _only(content, "remove_note", ("step", "variation", "index"))
        step, line, _notes, index = self._note_at(content, "remove_note")
        self.replay.remove_annotation(step, index, line)
        self.annotations = note_entries(self.replay, self.variation)
        self.error = ""


# ---------------------------------------------------------------------------- standalone page
_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<title>{title}</title>
<style>
{css}
</style>
<style>body {{ font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 54rem;
  padding: 0 1rem; }} @media (prefers-color-scheme: dark) {{ body {{ background: #111;
  color: #eee; }} }} .ll-pagenote {{ font-size: 0.85em; opacity: 0.75; }}</style>
</head>
<body>
<noscript><p>This Leyline replay needs JavaScript to show the board.</p></noscript>
<div id="leyline-replay"></div>
<p class="ll-pagenote">{footer}</p>
<script type="application/json" id="leyline-replay-book">{book}</script>
<script type="module">{boot}</script>
</body>
</html>
"""

# The page runs widget.js from a Blob URL, exactly as anywidget does in Jupyter, over a
# model that looks positions up in the book instead of asking a kernel.
_BOOT = """
const root = document.getElementById("leyline-replay");
try {{
  const source = {source};
  const url = URL.createObjectURL(new Blob([source], {{ type: "text/javascript" }}));
  const widget = await import(url);
  URL.revokeObjectURL(url);
  const book = JSON.parse(document.getElementById("leyline-replay-book").textContent);
  widget.default.render({{ model: widget.bookModel(book), el: root }});
  root.querySelector(".leyline").focus({{ preventScroll: true }}); // the arrow keys work at once
}} catch (err) {{
  root.textContent = "This replay could not be shown: " + err;
}}
"""


def _script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no "<" can end it or open a comment."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def write_replay_html(replay: Replay, path: str | os.PathLike[str], viewer: int | None = None, *,
                      step: int = 0, variation: int | None = None, title: str | None = None,
                      hide_tags: Iterable[str] = ("spoiler",), exclude_tags: Iterable[str] = (),
                      show_memory_of: int | None = None, reveal_ms: int = 1500) -> Path:
    """Write the standalone replay page (see :meth:`Replay.to_html`); returns its path."""
    book = replay_book(replay, viewer, step=step, variation=variation, hide_tags=hide_tags,
                       exclude_tags=exclude_tags, show_memory_of=show_memory_of,
                       reveal_ms=reveal_ms)
    css = asset("widget.css").read_text("utf-8")
    if "</" in css:
        raise RuntimeError("widget.css must not contain '</': it is inlined in a <style> element")
    boot = _BOOT.format(source=_script_json(asset("widget.js").read_text("utf-8")))
    digest = base64.b64encode(hashlib.sha256(boot.encode("utf-8")).digest()).decode("ascii")
    # Only this page's own script runs (by its hash) and the module it imports from a Blob
    # URL; nothing can be fetched, so the page works offline and a note that smuggled in
    # markup could neither run a script nor load an image.
    csp = (f"default-src 'none'; script-src 'sha256-{digest}' blob:; "
           "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
    names = ", ".join(replay.players)
    who = ("all-seeing view (every card shown; players' views in the menu)" if viewer is None
           else f"{replay.players[viewer]}'s view only")
    page = _PAGE.format(
        csp=csp, generator=escape_html(book["generator"]),
        title=escape_html(title if title is not None else f"Leyline replay: {names}"),
        css=css, book=_script_json(book), boot=boot,
        footer=escape_html(f"Leyline replay of {names}, {len(replay)} actions; {who}. "
                           "Opens offline; arrow keys step through it."))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, "utf-8")
    return path
