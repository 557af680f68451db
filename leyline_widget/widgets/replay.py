"""Watch a recorded game in Jupyter, annotate it, and share it as one offline HTML page.

:class:`ReplayWidget` is a thin adapter over a :class:`~leyline_widget.replays.replay.Replay` on
the same board as the play widget. The page scrubs (slider, first / back / forward / last, autoplay,
arrow keys), lists every action of the line in words, shows the notes of the shown step and lets you
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
  action, the ``action``, and its ``events`` as :func:`~leyline_widget.core.game.visible_events`
  shows them to the viewer); the page words them and shows the step's events;
- ``annotations``: the notes on the shown line (``step``, ``variation`` owning it, ``index``,
  ``text``, ``tags``, ``highlights``); note text is untrusted and the page shows it as text;
- ``memory``: with ``show_memory_of`` (a player) and the all-seeing viewer, the teacher's
  :func:`~leyline_widget.teach.memory.memory_report` of that player at the shown step, else ``{}``;
- ``hide_tags``: notes carrying one of these tags start hidden (the page can show them).

Messages from the page: ``annotate`` (``step``, ``text``, ``tags``, ``highlights``),
``edit_note`` and ``remove_note`` (``step``, ``variation``, ``index``, and for an edit the new
``text``, ``tags``, ``highlights``). The replay validates each; a refusal sets ``error``.

>>> from leyline_widget import Game
>>> game = Game.new(players=["Ada", "Bo"], seed=7)
>>> for _ in range(6):
...     _ = game.apply(game.legal_actions()[0])
>>> r = ReplayWidget(Replay.from_game(game))
>>> r.step = 3
>>> r.view == Replay.from_game(game).game_at(3).observation(None)
True
>>> r.send_message({"type": "annotate", "step": 3, "text": "<b>look</b>", "tags": ["hint"]})
>>> r.replay.annotations[3][0].text, r.annotations[0]["text"]
('<b>look</b>', '<b>look</b>')
>>> r.viewer = 1
>>> any(c["element"] for c in r.view["grid"] if c["card"] == "inert")
False
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, cast

import traitlets

from ..core.echo import quote
from ..core.game import Game
from ..replays.replay import Note, Replay, StepError, VariationError, make_note
from ..teach.memory import memory_report
from .base import BoardWidget, Handler, Message, PageCheck, count, only, seat_or_none
from .book import chain, line_end, line_list, main_or, note_entries, step_entries
from .presenters import TEACHER, game_info

__all__ = ["ReplayWidget"]


# ---------------------------------------------------------------------------- the widget
class _Checked(traitlets.Any):
    """Any value, None included, always through the widget's validator: traitlets skips
    validators for None on traits that allow None, and None (all-seeing) must be checked."""

    allow_none = False


class ReplayWidget(BoardWidget):
    """Watch and annotate a :class:`~leyline_widget.replays.replay.Replay` in a notebook.

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
    _page_writable: ClassVar[dict[str, PageCheck]] = {
        "step": count, "variation": count, "viewer": seat_or_none, "show_memory_of": seat_or_none}

    def __init__(self, replay: Replay, *, step: int = 0, variation: int | None = None,
                 viewer: int | str | None = TEACHER, allow_all_seeing: bool = True,
                 show_memory_of: int | None = None, hide_tags: Iterable[str] = ("spoiler",),
                 reveal_ms: int = 1500) -> None:
        if not isinstance(replay, Replay):
            raise ValueError(f"replay must be a Replay, got {type(replay).__name__} (a Game's "
                             "is Replay.from_game(game); a file's is Replay.load(path))")
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
        return self.replay.game_at(self.step, main_or(self.variation))

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
        game = self.replay.branch(self.step, name, main_or(self.variation))
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
                             f"got assets={quote(assets)}")
        memory_of = self.show_memory_of if self.viewer is None else None
        from .export import replay_html

        return replay_html(self.replay, path, self.viewer, step=self.step,
                                 variation=main_or(self.variation), title=title,
                                 hide_tags=self.hide_tags, show_memory_of=memory_of,
                                 reveal_ms=self.reveal_ms)

    def _summary(self) -> str:
        """``2p step 3 of 6, main line, viewer teacher`` (see :meth:`__repr__`)."""
        line = "main line" if self.variation == 0 else f"variation {self.variation}"
        viewer = self.viewer
        eyes = ("teacher" if viewer is None
                else f"{self.replay.players[viewer]} (seat {viewer})")
        return (f"{len(self.replay.players)}p step {self.step} of "
                f"{line_end(self.replay, self.variation)}, {line}, viewer {eyes}")

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
                                       f"('teacher', all-seeing), got {quote(value)}")
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
            raise traitlets.TraitError(f"step {quote(value)} is outside {where}, which has "
                                       "steps 0 to "
                                       f"{end}")
        return int(value + end + 1 if value < 0 else value)

    @traitlets.validate("show_memory_of")
    def _check_memory_of(self, proposal: Any) -> int | None:
        value = proposal["value"]
        n = len(self.replay.players)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value < n):
            raise traitlets.TraitError(f"the memory panel (show_memory_of) shows a player from "
                                       f"0 to {n - 1}, or nobody (None); got {quote(value)}")
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
        variation = main_or(self.variation)
        end = line_end(self.replay, self.variation)
        self.line = step_entries(self.replay.game_at(end, variation), self.viewer)
        self.annotations = note_entries(self.replay, self.variation)

    def _show_step(self) -> None:
        game = self.game
        viewer = self.viewer
        self.view = cast(dict[str, Any], game.observation(viewer))
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
        return main_or(owner)

    def _handlers(self) -> dict[str, Handler]:
        return {"annotate": self._on_annotate, "edit_note": self._on_edit,
                "remove_note": self._on_remove}

    def _note_step(self, content: Message, kind: str) -> int:
        if "step" not in content:
            raise ValueError(f"a {kind} message needs the integer 'step' of the note")
        step = content["step"]
        end = line_end(self.replay, self.variation)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= end:
            raise StepError(f"a {kind} message needs a step from 0 to {end}, got {quote(step)}")
        return step

    def _note_at(self, content: Message, kind: str) -> tuple[int, int | None, list[Note], int]:
        """The step, owning line, notes and index a note message points at (checked)."""
        step = self._note_step(content, kind)
        owner = content.get("variation", 0)
        ids = [vid for vid, _s, _e in chain(self.replay, self.variation)]
        if isinstance(owner, bool) or owner not in ids:
            raise VariationError(f"a {kind} message needs the 'variation' owning the note, one "
                                 f"of the lines shown ({', '.join(map(str, ids))}), got "
                                 f"{quote(owner)}")
        line = main_or(owner)
        notes = (self.replay.annotations if line is None
                 else self.replay.variation(line).annotations).get(step, [])
        index = content.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(notes):
            raise StepError(f"step {step} has {len(notes)} note(s) there; there is no note "
                            f"{quote(index)} (was it removed meanwhile?)")
        return step, line, notes, index

    def _on_annotate(self, content: Message) -> None:
        only(content, "annotate", ("step", "text", "tags", "highlights"))
        step = self._note_step(content, "annotate")
        self.annotate(content.get("text", ""), content.get("tags", ()),
                      content.get("highlights", ()), step=step)
        self.error = ""

    def _on_edit(self, content: Message) -> None:
        only(content, "edit_note", ("step", "variation", "index", "text", "tags", "highlights"))
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
        only(content, "remove_note", ("step", "variation", "index"))
        step, line, _notes, index = self._note_at(content, "remove_note")
        self.replay.remove_annotation(step, index, line)
        self.annotations = note_entries(self.replay, self.variation)
        self.error = ""
