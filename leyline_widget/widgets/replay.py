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

- ``glyphs``: the glyphs on the shown line's moves (step as a string -> glyph); ``scores``:
  each seat's score at every step of the line (the score graph);
- ``explore`` (two-way): a move made on the board at the shown step goes into a variation
  (refused unless ``allow_explore``; off by default on a player's page); ``choices``: the legal
  actions at the shown step while exploring or training (``[]`` otherwise);
- ``train``: the seat a learner plays in "guess the move" (``ReplayWidget(replay, train=seat)``,
  viewer locked to that seat), with ``training`` (``seat``, ``right``, ``total``, ``last``);
- ``puzzle``: with ``ReplayWidget(replay, puzzles=seat)``, the seat's mistakes and blunders of
  its review set as puzzles ("find a better move"; any move within 0.3 cards of the best solves
  one): ``total``, ``index``, ``move`` and ``verdict`` of the current one, ``answered``,
  ``solved``, ``done``, and ``last`` (the answer: ``solved``, ``loss``, ``played``, ``best``,
  ``reason``, ``cause``) once it is answered. Like guess the move, the page then holds nothing
  of the moves after the one to find (``line``, ``scores``, ``glyphs``, notes) until it is
  answered, and offers no download;
- ``export``: a download the page asked for (``seq``, ``kind``, ``name``, ``mime``, ``text``);
- ``analyses``: the coach's reviews the viewer may see (:func:`~.book.analysis_entries`: a
  player's view shows that seat's own review only; none while guessing the move), drawn as the
  evaluation graph, verdict marks in the move list and "Best was" at each reviewed move;
  ``analysis_progress``: the run started by :meth:`ReplayWidget.analyse` or the Analyse button
  (``seat``, ``done``, ``total``, ``running``, ``error``, ``cancelled``, ``stepped``, ``run``).

Messages from the page: ``annotate`` (``step``, ``text``, ``tags``, ``highlights``),
``edit_note`` and ``remove_note`` (``step``, ``variation``, ``index``, and for an edit the new
``text``, ``tags``, ``highlights``); ``glyph`` (``step``, ``glyph`` or null); ``action``
(``action``, ``step``: a move while exploring); ``promote``, ``rename`` (``name``) and
``delete_variation`` (each with the ``variation`` id); ``guess`` (``action``, ``step``) while
training or solving a puzzle; ``puzzle`` (``index``, optional: the next one by default);
``puzzles`` (``seat``: the studio turns into that seat's puzzles, :meth:`start_puzzles`);
``export`` (``kind``: ``json``, ``markdown`` or ``html``, and for a page the
``viewer``: a seat or null); ``analyse`` (``seat``, optional ``budget``: runs the coach in a
background thread, or in steps where the kernel has no threads; a player's view may analyse only
its own seat); ``analyse_step`` (``run``, ``done``: the page asks for the next decision of a
stepped analysis, see :meth:`ReplayWidget.analyse`) and ``analyse_cancel``; ``show_line``
(``step``: the coach's best line from the move that led there, see :meth:`show_line`). The
replay validates each; a refusal sets ``error``.

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

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar, cast

import traitlets

from ..agents.analysis import ANALYSIS_BUDGET, analysis_steps
from ..agents.puzzles import Puzzle, judge, puzzles_of
from ..core.actions import Action
from ..core.echo import quote
from ..core.game import Game, IllegalActionError
from ..replays.replay import Note, Replay, StepError, VariationError, make_note
from ..teach.memory import memory_report
from .base import BoardWidget, Handler, Message, PageCheck, count, flag, only, seat_or_none
from .book import (
    analysis_entries,
    chain,
    glyph_entries,
    line_end,
    line_list,
    main_or,
    note_entries,
    score_series,
    step_entries,
)
from .presenters import TEACHER, game_info, legal_summary, sentence
from .runs import StepRun, threads_available

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
    ``analysis_budget`` is the coach's rollouts per decision when the page's Analyse button runs
    it (:meth:`analyse`).

    After changing the replay from Python (``replay.annotate``, moves on a game from
    ``replay.branch``), call :meth:`refresh`; :meth:`annotate` and :meth:`branch` refresh for
    you. :meth:`to_html` writes the standalone page of what is shown.

    >>> from leyline_widget import Activate, Game, Replay
    >>> game = Game.new(players=["Ada", "Bo"], seed=7)
    >>> events = game.apply(Activate(3))
    >>> r = ReplayWidget(Replay.from_game(game))
    >>> r.step = 1
    >>> r
    <ReplayWidget 2p step 1 of 1, main line, viewer teacher>
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
    glyphs = traitlets.Dict().tag(sync=True)
    scores: traitlets.List[list[int]] = traitlets.List().tag(sync=True)
    explore = traitlets.Bool(False).tag(sync=True)
    allow_explore = traitlets.Bool(True).tag(sync=True)
    choices: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    train = traitlets.Any(None).tag(sync=True)
    training = traitlets.Dict().tag(sync=True)
    export = traitlets.Dict().tag(sync=True)
    analyses: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    analysis_progress = traitlets.Dict().tag(sync=True)
    puzzle = traitlets.Dict().tag(sync=True)
    _page_writable: ClassVar[dict[str, PageCheck]] = {
        "step": count, "variation": count, "viewer": seat_or_none, "show_memory_of": seat_or_none,
        "explore": flag}

    def __init__(self, replay: Replay, *, step: int = 0, variation: int | None = None,
                 viewer: int | str | None = TEACHER, allow_all_seeing: bool = True,
                 show_memory_of: int | None = None, hide_tags: Iterable[str] = ("spoiler",),
                 reveal_ms: int = 1500, allow_explore: bool | None = None,
                 explore: bool = False, train: int | None = None,
                 analysis_budget: int = ANALYSIS_BUDGET, puzzles: int | None = None) -> None:
        if not isinstance(replay, Replay):
            raise ValueError(f"replay must be a Replay, got {type(replay).__name__} (a Game's "
                             "is Replay.from_game(game); a file's is Replay.load(path))")
        n = len(replay.players)
        self._puzzles: list[Puzzle] | None = None
        self._puzzle_moves: dict[int, dict[str, Any]] = {}
        self._answered: dict[int, bool] = {}  # puzzle index -> solved at the first try
        self._puzzle_index = 0
        self._review_seed = 0
        if puzzles is not None:
            if train is not None:
                raise ValueError("train and puzzles are two modes; choose one")
            self._load_puzzles(replay, puzzles)
            # The learner plays that seat, as in guess the move: its view, no branching.
            train = puzzles
            step = self._first_puzzle()
        if train is not None:
            if isinstance(train, bool) or not isinstance(train, int) or not 0 <= train < n:
                raise ValueError(f"train must be a seat from 0 to {n - 1}, got {quote(train)}")
            # Guess the move: the learner sees only what that seat saw, and cannot branch.
            viewer, allow_all_seeing, allow_explore, explore = train, False, False, False
            show_memory_of = None
        if allow_explore is None:  # a player's page explores only when the author says so
            allow_explore = bool(allow_all_seeing)
        if explore and not allow_explore:
            raise ValueError("explore=True needs allow_explore=True")
        self.replay = replay
        self._allow_all_seeing = bool(allow_all_seeing)
        self._ready = False
        self._busy = False
        if viewer in (None, TEACHER) and not allow_all_seeing:
            viewer = 0
        super().__init__(mode="replay", reveal_ms=reveal_ms,
                         info=game_info(replay.game_at(0), {}))
        self._guessed: set[tuple[int, int]] = set()  # (variation, step) already guessed
        # Guess the move starts at the step asked for: the moves before it are the story so far.
        self._train_from = 0
        self._analysing: StepRun | None = None
        self._finish_analysis: Callable[[], None] = lambda: None
        self._runs = 0  # analyses started, so a stepped run's page names the run it drives
        #: Rollouts per decision when the page's Analyse button asks (no budget of its own).
        self.analysis_budget = analysis_budget
        self.train = train
        with self.hold_sync():
            self.allow_explore = bool(allow_explore)
            self.explore = bool(explore)
            if train is not None:
                self.training = {"seat": train, "right": 0, "total": 0, "last": None}
                self.editable = False
            if puzzles is not None:
                self.puzzle = self._puzzle_state(None)
            self.hide_tags = sorted(set(hide_tags))
            self.viewers = self._viewer_menu()
            self.lines = line_list(replay)
            self.memory_choices = list(range(len(replay.players)))
            self.variation = 0 if variation is None else variation
            self.viewer = viewer
            self.step = step
            if train is not None and puzzles is None:
                self._train_from = self.step
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
            self.lines = self._line_menu()
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
            self.lines = self._line_menu()
            self.variation = found.id
        return game

    def to_html(self, path: str | Path, *, title: str = "Leyline replay",
                assets: str = "inline") -> Path:
        """Write the standalone page (:meth:`Replay.to_html`) of the shown line, from the shown
        step, for the shown viewer (the all-seeing page holds every player's view too)."""
        if self.train is not None:
            raise ValueError("no page while guessing the move: it would hold the moves still to "
                             "guess")
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
        if self.train is not None:
            return [self.train]
        seats: list[int | None] = list(range(len(self.replay.players)))
        return [None, *seats] if self._allow_all_seeing else seats

    @traitlets.validate("explore")
    def _check_explore(self, proposal: Any) -> bool:
        value = proposal["value"]
        if value and not self.allow_explore:
            raise traitlets.TraitError("exploring (making moves into variations) is switched off "
                                       "for this replay (allow_explore=False)")
        return bool(value)

    @traitlets.validate("viewer")
    def _check_viewer(self, proposal: Any) -> int | None:
        value = proposal["value"]
        n = len(self.replay.players)
        if self.train is not None and value != self.train:
            raise traitlets.TraitError(f"this replay trains seat {self.train}: the view stays "
                                       "that seat's")
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
        if value != 0 and self.train is not None:
            raise traitlets.TraitError("guess the move and puzzles show the main line only")
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
        value = int(value + end + 1 if value < 0 else value)
        if self._ready and self.train is not None and value > self._frontier():
            raise traitlets.TraitError(f"step {value} is after the move to guess (step "
                                       f"{self._frontier()}): guess that move first")
        return value

    @traitlets.validate("show_memory_of")
    def _check_memory_of(self, proposal: Any) -> int | None:
        value = proposal["value"]
        n = len(self.replay.players)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value < n):
            raise traitlets.TraitError(f"the memory panel (show_memory_of) shows a player from "
                                       f"0 to {n - 1}, or nobody (None); got {quote(value)}")
        return value

    @traitlets.observe("step", "variation", "viewer", "show_memory_of", "explore")
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
            if change["name"] in ("variation", "viewer") or len(self.line) != self._seen_to() + 1:
                self.lines = self._line_menu()
                self._show_line()
            self._show_step()
            self.error = ""

    def _show_line(self) -> None:
        """The line's step entries and notes, for the viewer."""
        variation = main_or(self.variation)
        end = line_end(self.replay, self.variation)
        # Guess the move and puzzles hold nothing of the moves after the one to guess.
        upto = self._seen_to()
        if self.train is not None:
            self.lines = self._line_menu()
        self.line = step_entries(self.replay.game_at(end, variation), self.viewer)[:upto + 1]
        self.annotations = [n for n in note_entries(self.replay, self.variation)
                            if n["step"] <= upto]
        self.glyphs = {k: g for k, g in glyph_entries(self.replay, self.variation).items()
                       if int(k) <= upto}
        self.scores = score_series(self.replay, self.variation)[:upto + 1]
        self._show_analyses()

    def _line_menu(self) -> list[dict[str, Any]]:
        """The line menu; while guessing, the main line only as far as the move to guess (the
        length of the game is the future too)."""
        lines = line_list(self.replay)
        if self.train is None:
            return lines
        # Only the main line: a variation may hold the move to guess (the coach's own line).
        return [{**lines[0], "end": min(lines[0]["end"], self._frontier())}]

    def _seen_to(self) -> int:
        """The last step the page may hold: the line's end, or in guess the move and puzzles
        the step of the move to guess (the recorded move once it is guessed)."""
        return self._frontier() if self.train is not None else line_end(self.replay,
                                                                         self.variation)

    def _frontier(self) -> int:
        end = line_end(self.replay, self.variation)
        if self._puzzles is not None:
            if not self._puzzles:
                return 0
            step = self._puzzles[self._puzzle_index].step
            return step + 1 if self._puzzle_index in self._answered else step
        game = self.replay.game_at(0, main_or(self.variation))
        for k, action in enumerate(self.replay.line(main_or(self.variation))):
            if k >= self._train_from and game.active_player == self.train and (
                    self.variation, k) not in self._guessed:
                return k
            game.apply(action)
        return end

    def _show_analyses(self) -> None:
        # A player's view shows that seat's review only; guess the move shows none (spoilers),
        # puzzles only the moves already answered.
        if self._puzzles is not None:
            done = {self._puzzles[i].step + 1 for i in self._answered}
            self.analyses = [{**a, "moves": [m for m in a["moves"] if m["step"] in done]}
                             for a in analysis_entries(self.replay, 0, self.train)]
            return
        self.analyses = ([] if self.train is not None
                         else analysis_entries(self.replay, self.variation, self.viewer))

    def _show_step(self) -> None:
        game = self.game
        viewer = self.viewer
        self.view = cast(dict[str, Any], game.observation(viewer))
        self.legal = {"step": self.step, "actor": None, "variation": self.variation}
        self.choices = []
        deciding = (self.train is not None and game.active_player == self.train
                    and (self._puzzle_open() if self._puzzles is not None
                         else self.step <= self._frontier())
                    and self.step < line_end(self.replay, self.variation))
        if not game.is_over and (self.explore or deciding):
            # The board shows what the side to move may do; the page lists every legal move.
            legal = legal_summary(game, game.active_player)
            legal["variation"] = self.variation
            self.legal = legal
            self.choices = [{"action": a.to_dict()} for a in game.legal_actions()]
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
        out: dict[str, Handler] = {
            "glyph": self._on_glyph, "action": self._on_action, "promote": self._on_promote,
            "rename": self._on_rename, "delete_variation": self._on_delete,
            "guess": self._on_guess, "export": self._on_export, "analyse": self._on_analyse,
            "analyse_step": self._on_analyse_step, "analyse_cancel": self._on_analyse_cancel,
            "puzzle": self._on_puzzle, "puzzles": self._on_puzzles,
            "show_line": self._on_show_line}
        if self.editable:
            out.update({"annotate": self._on_annotate, "edit_note": self._on_edit,
                        "remove_note": self._on_remove})
        return out

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

    # -- the studio: glyphs, exploring, the tree, guess the move, downloads ----------------
    def set_glyph(self, glyph: str | None, step: int | None = None) -> None:
        """Mark the move that led to the shown step (or ``step``) of the shown line."""
        at = self.step if step is None else step
        self.replay.set_glyph(at, glyph, self._glyph_owner(at))
        self.glyphs = glyph_entries(self.replay, self.variation)

    def _glyph_owner(self, step: int) -> int | None:
        owner = 0
        for vid, start, _end in chain(self.replay, self.variation):
            if start < step:
                owner = vid
        return main_or(owner)

    def _step_of(self, content: Message, kind: str) -> int:
        step = content.get("step")
        if isinstance(step, bool) or not isinstance(step, int) or step != self.step:
            raise StepError(f"a {kind} message is for the shown step {self.step}, got "
                            f"{quote(step)} (the page moved meanwhile?)")
        return step

    def _variation_id(self, content: Message, kind: str) -> int:
        vid = content.get("variation")
        if isinstance(vid, bool) or not isinstance(vid, int) or vid < 1:
            raise VariationError(f"a {kind} message needs the id of a variation, got {quote(vid)}")
        self.replay.variation(vid)  # unknown ids raise, naming the known ones
        return vid

    def _on_glyph(self, content: Message) -> None:
        only(content, "glyph", ("step", "glyph"))
        if not self.editable:
            raise ValueError("glyphs are read-only here")
        step = self._note_step(content, "glyph")
        glyph = content.get("glyph")
        if glyph is not None and not isinstance(glyph, str):
            raise ValueError(f"a glyph message needs a glyph string or null, got {quote(glyph)}")
        self.set_glyph(glyph, step)
        self.error = ""

    def _on_action(self, content: Message) -> None:
        only(content, "action", ("action", "step"))
        if not self.explore:
            raise ValueError("moves on the board need explore mode (the Explore switch)")
        step = self._step_of(content, "action")
        action = Action.from_dict(content.get("action"))
        variation = main_or(self.variation)
        game = self.replay.game_at(step, variation)
        why = game.why_illegal(action)
        if why is not None:
            raise IllegalActionError(why)
        line = self.replay.line(variation)
        with self.hold_sync():
            if step < len(line) and line[step] == action:  # the move played: just step on
                self.step = step + 1
            elif variation is not None and step == line_end(self.replay, self.variation) \
                    and not self.replay.variation(variation).live:
                self.replay.extend(variation, [action])  # the end of a variation: continue it
                self.lines = self._line_menu()
                self.step = step + 1
            else:
                v = self.replay.add_variation(step, [action], None, variation)
                self.lines = self._line_menu()
                self.variation = v.id
                self.step = step + 1
            self.refresh()
        self.error = ""

    def _on_promote(self, content: Message) -> None:
        only(content, "promote", ("variation",))
        if not self.editable:
            raise ValueError("the variations are read-only here")
        vid = self._variation_id(content, "promote")
        v = self.replay.variation(vid)
        self.replay.promote(vid)
        with self.hold_sync():
            self.lines = self._line_menu()
            # Show the line that now holds the promoted moves: its parent.
            self.variation = 0 if v.parent is None else v.parent
            self.refresh()
        self.error = ""

    def _on_rename(self, content: Message) -> None:
        only(content, "rename", ("variation", "name"))
        if not self.editable:
            raise ValueError("the variations are read-only here")
        vid = self._variation_id(content, "rename")
        name = content.get("name")
        if not isinstance(name, str):
            raise ValueError(f"a rename message needs the new name as a string, got {quote(name)}")
        self.replay.rename(vid, name.strip())
        self.lines = self._line_menu()
        self.error = ""

    def _on_delete(self, content: Message) -> None:
        only(content, "delete_variation", ("variation",))
        if not self.editable:
            raise ValueError("the variations are read-only here")
        vid = self._variation_id(content, "delete_variation")
        shown = {v for v, _s, _e in chain(self.replay, self.variation)}
        v = self.replay.variation(vid)
        self.replay.remove(vid)
        with self.hold_sync():
            self.lines = self._line_menu()
            if vid in shown:
                self.variation = 0 if v.parent is None else v.parent
            self.refresh()
        self.error = ""

    def _on_guess(self, content: Message) -> None:
        only(content, "guess", ("action", "step"))
        if self.train is None:
            raise ValueError("guessing needs a training replay (ReplayWidget(replay, train=seat))")
        step = self._step_of(content, "guess")
        guess = Action.from_dict(content.get("action"))
        variation = main_or(self.variation)
        game = self.replay.game_at(step, variation)
        line = self.replay.line(variation)
        if game.active_player != self.train or step >= len(line):
            raise ValueError(f"step {step} is not a decision of seat {self.train} with a recorded "
                             "move")
        why = game.why_illegal(guess)
        if why is not None:
            raise IllegalActionError(why)
        if self._puzzles is not None:
            self._answer(step, guess, game)
            return
        played = line[step]
        right = guess == played
        key = (self.variation, step)
        t = dict(self.training)
        if key not in self._guessed:  # a second try at the same move does not count
            self._guessed.add(key)
            t["total"] = int(t.get("total", 0)) + 1
            t["right"] = int(t.get("right", 0)) + int(right)
        t["last"] = {"step": step, "guess": guess.to_dict(), "played": played.to_dict(),
                     "right": right}
        with self.hold_sync():
            self.training = t
            self._show_line()  # the guessed move may be shown now, not the next ones
            self.step = step + 1  # show the recorded move
        self.error = ""

    # -- puzzles: the seat's mistakes and blunders, "find a better move" ------------------
    def _puzzle_state(self, last: dict[str, Any] | None) -> dict[str, Any]:
        puzzles = self._puzzles or []
        current = puzzles[self._puzzle_index] if puzzles else None
        return {"seat": self.train, "total": len(puzzles), "index": self._puzzle_index,
                "answered": len(self._answered), "solved": sum(self._answered.values()),
                # the move to find (move N leads to step N), and its verdict: the premise
                "move": None if current is None else current.step + 1,
                "verdict": None if current is None else current.verdict,
                "done": self._puzzle_index in self._answered, "last": last}

    def _load_puzzles(self, replay: Replay, seat: int) -> None:
        n = len(replay.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"puzzles must be a seat from 0 to {n - 1}, got {quote(seat)}")
        review = replay.analyses.get(seat)
        if review is None:
            raise ValueError(f"puzzles need seat {seat}'s review on the replay: run "
                             f"ReplayWidget(replay).analyse({seat}, wait=True) (or "
                             f"replay.set_analysis({seat}, analyse(replay, "
                             f"player={seat}).to_dict())) first")
        self._puzzles = puzzles_of(review)
        self._puzzle_moves = {int(m["step"]): m for m in review["moves"]}
        self._review_seed = int(review["seed"])

    def _first_puzzle(self) -> int:
        return self._puzzles[0].step if self._puzzles else 0

    def start_puzzles(self, seat: int) -> None:
        """Turn this studio into puzzles of ``seat``'s mistakes and blunders, as
        ``ReplayWidget(replay, puzzles=seat)`` (the studio's Puzzles button): the view locks to
        that seat, and the page holds nothing past the puzzle until it is answered. One way: a
        new ``ReplayWidget(replay)`` shows the studio again."""
        if self.train is not None:
            raise ValueError("this replay is already guessing the move or solving puzzles")
        if self.viewer is not None and seat != self.viewer:
            raise ValueError(f"this page shows seat {self.viewer}'s view: its puzzles only")
        if self._analysing is not None and self._analysing.is_alive():
            raise ValueError("an analysis is running; wait for it to finish")
        self._load_puzzles(self.replay, seat)
        self._ready = False
        with self.hold_sync():
            self.train = seat
            self._allow_all_seeing = False
            self.explore = False
            self.allow_explore = False
            self.editable = False
            self.show_memory_of = None
            self.variation = 0
            self.viewer = seat
            self.viewers = self._viewer_menu()
            self.training = {"seat": seat, "right": 0, "total": 0, "last": None}
            self.puzzle = self._puzzle_state(None)
            self.step = self._first_puzzle()
            self._ready = True
            self.refresh()
        self.error = ""

    def _on_puzzles(self, content: Message) -> None:
        only(content, "puzzles", ("seat",))
        seat = content.get("seat", self.viewer)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ValueError(f"puzzles are of a seat, got {quote(seat)}")
        self.start_puzzles(seat)

    def _puzzle_open(self) -> bool:
        """Whether the shown step is the current puzzle, still to answer."""
        puzzles = self._puzzles or []
        return (bool(puzzles) and self._puzzle_index not in self._answered
                and self.step == puzzles[self._puzzle_index].step)

    def _answer(self, step: int, guess: Action, game: Game) -> None:
        assert self._puzzles is not None
        index = self._puzzle_index
        p = self._puzzles[index]
        if step != p.step or index in self._answered:
            raise ValueError("this puzzle is answered; go on to the next one")
        move = self._puzzle_moves[p.step]
        judged = judge(game, move, guess, seed=self._review_seed)
        self._answered[index] = judged.solved
        last = {"index": index, "move": p.step + 1, "guess": guess.to_dict(),
                "solved": judged.solved, "loss": round(judged.loss, 2),
                "played": move["played"], "best": move["best"], "verdict": move["verdict"],
                "reason": move["reason"], "cause": move.get("cause", "")}
        with self.hold_sync():
            self.puzzle = self._puzzle_state(last)
            self.training = {**self.training, "right": self.puzzle["solved"],
                             "total": self.puzzle["answered"]}
            self._show_line()
            self.step = p.step + 1  # the recorded move, where the review's words were written
        self.error = ""

    def next_puzzle(self, index: int | None = None) -> None:
        """Go on to the next puzzle (or puzzle ``index``, counted from 0) in puzzle mode."""
        if self._puzzles is None:
            raise ValueError("puzzles need a puzzle replay (ReplayWidget(replay, puzzles=seat))")
        n = len(self._puzzles)
        if index is None:
            index = self._puzzle_index + 1
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
            raise ValueError(f"there are {n} puzzles: ask for one from 0 to {n - 1}, got "
                             f"{quote(index)}")
        self._puzzle_index = index
        with self.hold_sync():
            self._show_line()
            self.puzzle = self._puzzle_state(None)
            self.step = self._puzzles[index].step
        self.error = ""

    # -- the coach's line ("Show the line", as an engine line) ---------------------------
    def show_line(self, step: int | None = None) -> int:
        """Play the coach's best line from the reviewed move that led to ``step`` (default: the
        shown step) as a variation named "Coach's line, move N", and show its first move;
        returns the variation's id (asked twice, the same variation is shown again)."""
        if self.train is not None:
            raise ValueError("no coach's line while guessing the move or solving puzzles")
        at = self.step if step is None else step
        # Reviews cover the main line; the viewer sees its own seat's only.
        move = next((m for a in analysis_entries(self.replay, 0, self.viewer)
                     for m in a["moves"] if m["step"] == at), None)
        if move is None:
            raise ValueError(f"move {quote(at)} has no review on this page: analyse that seat "
                             "first")
        start, name = at - 1, f"Coach's line, move {at}"
        found = next((v for v in self.replay.variations
                      if v.name == name and v.step == start and v.parent is None), None)
        if found is None:
            game = self.replay.game_at(start)
            actions: list[Action] = []
            for a in move["best_line"]:
                action = Action.from_dict(a)
                if game.is_over or not game.is_legal(action):
                    break  # the line was searched on one sampled deck: it stops where it ends
                game.apply(action)
                actions.append(action)
            found = self.replay.add_variation(start, actions, name)
        with self.hold_sync():
            self.lines = self._line_menu()
            self.variation = found.id
            self.step = start + 1
            self.refresh()
        self.error = ""
        return found.id

    def _on_show_line(self, content: Message) -> None:
        only(content, "show_line", ("step",))
        self.show_line(self._step_of(content, "show_line"))

    def _on_puzzle(self, content: Message) -> None:
        only(content, "puzzle", ("index",))
        self.next_puzzle(content.get("index"))

    def _on_export(self, content: Message) -> None:
        only(content, "export", ("kind", "viewer"))
        kind = content.get("kind")
        viewer = content.get("viewer", self.viewer)
        if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                                   or not 0 <= viewer < len(self.replay.players)):
            raise ValueError(f"an export is for a seat or null (the teacher), got {quote(viewer)}")
        if viewer is None and not self.allow_all_seeing:
            raise ValueError("the all-seeing export is switched off here; choose a seat")
        if self.train is not None:
            raise ValueError("downloads are off while guessing the move: the file would hold "
                             "the moves still to guess")
        if kind == "json" and not self.allow_all_seeing:
            raise ValueError("the replay file names every card: it is not offered on a "
                             "player's page")
        base = "leyline-replay" if not self.replay.players else (
            "leyline-" + "-".join("".join(ch for ch in p if ch.isalnum())[:16] or "player"
                                  for p in self.replay.players))
        seq = int(self.export.get("seq", 0)) + 1
        if kind == "json":
            out = {"name": base + ".leyline.json", "mime": "application/json",
                   "text": self.replay.to_json()}
        elif kind == "markdown":
            from ..teach.markdown import replay_markdown

            out = {"name": base + ".md", "mime": "text/markdown",
                   "text": replay_markdown(self.replay, main_or(self.variation),
                                           hide_tags=self.hide_tags)}
        elif kind == "html":
            import tempfile

            from .export import replay_html

            with tempfile.TemporaryDirectory() as folder:
                path = replay_html(self.replay, Path(folder) / "page.html", viewer,
                                   step=self.step, variation=main_or(self.variation),
                                   hide_tags=self.hide_tags)
                text = path.read_text("utf-8")
            who = "teacher" if viewer is None else f"seat{viewer}"
            out = {"name": f"{base}-{who}.html", "mime": "text/html", "text": text}
        else:
            raise ValueError(f"an export is 'json', 'markdown' or 'html', got {quote(kind)}")
        self.export = {"seq": seq, "kind": kind, **out}
        self.error = ""

    # -- the coach -----------------------------------------------------------------------
    def analyse(self, seat: int, budget: int = ANALYSIS_BUDGET, seed: int = 0,
                wait: bool = False) -> StepRun:
        """Run the coach (:func:`~leyline_widget.agents.analysis.analyse`) on ``seat``'s moves of
        the main line while the page keeps drawing: ``analysis_progress`` (``seat``, ``done``,
        ``total``, ``running``, ``error``, ``cancelled``, ``stepped``, ``run``) follows it, and
        when it is done the review is attached to the replay (``replay.set_analysis``) and shown.
        A player's page analyses only its own seat.

        Where the kernel can start a thread the analysis runs in one; where it cannot (Pyodide
        in JupyterLite) it is ``stepped``: the page asks for one decision at a time
        (``analyse_step`` messages), so progress shows and Cancel answers between decisions.
        Returns the run: ``join()`` waits for it (with no thread, it finishes the steps in the
        caller), ``cancel()`` (or :meth:`cancel_analysis`) stops it; ``wait=True`` joins first.

        >>> from leyline_widget import Game, Replay
        >>> game = Game.new(players=2, seed=4)
        >>> for _ in range(4):
        ...     _ = game.apply(game.legal_actions()[-1])
        >>> w = ReplayWidget(Replay.from_game(game))
        >>> run = w.analyse(0, budget=4, wait=True)
        >>> w.analysis_progress["done"], w.analysis_progress["running"], len(w.analyses)
        (1, False, 1)
        """
        n = len(self.replay.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"an analysis is of a seat from 0 to {n - 1}, got {quote(seat)}")
        if self.train is not None:
            raise ValueError("no analysis while guessing the move (it would tell the answers)")
        if self.viewer is not None and seat != self.viewer:
            raise ValueError(f"this page shows seat {self.viewer}'s view: it may analyse only "
                             "that seat")
        if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= 10_000:
            raise ValueError(f"budget must be a whole number of rollouts from 1 to 10000, got "
                             f"{quote(budget)}")
        if self._analysing is not None and self._analysing.is_alive():
            raise ValueError("an analysis is already running; wait for it to finish")
        start = self.replay.game_at(0)
        actions = self.replay.actions

        class _Snapshot:  # what analyse reads, fixed now: the run never touches the replay
            def __init__(self) -> None:
                self.actions = actions

            def game_at(self, i: int) -> Game:
                return start.clone()

        stepped = not threads_available()
        self._runs += 1
        shown = {"seat": seat, "done": 0, "total": 0, "running": True, "error": "",
                 "cancelled": False, "stepped": stepped, "run": self._runs}
        self.analysis_progress = shown

        def progress(done: int, total: int) -> None:
            self.analysis_progress = {**shown, "done": done, "total": total}

        run = StepRun(analysis_steps(_Snapshot(), seat, seed=seed, budget=budget), progress)
        ended = threading.Event()

        def finish() -> None:
            if ended.is_set():
                return
            ended.set()
            error = ""
            if run.error is not None:  # shown on the page, not lost in a thread
                error = sentence(str(run.error))
            elif run.cancelled:
                pass
            elif self.replay.actions == actions:  # the main line did not change meanwhile
                self.replay.set_analysis(seat, run.result.to_dict())
                self._show_analyses()
            else:
                error = "the main line changed during the analysis; analyse again"
            self.analysis_progress = {**self.analysis_progress, "running": False, "error": error,
                                      "cancelled": run.cancelled}

        self._analysing = run
        self._finish_analysis = finish
        if stepped:
            # The first step only counts the decisions (done stays 0): taken here, so that each
            # request of the page, which asks once per (run, done), judges one decision.
            if not run.step() or wait:
                run.join()
                finish()
        else:
            run.start_thread(f"leyline-analyse-{seat}", finish)
            if wait:
                run.join()
        return run

    def cancel_analysis(self) -> None:
        """Stop the running analysis, if any: nothing is attached, and ``analysis_progress``
        says ``cancelled`` (a thread stops after the decision it is judging).

        >>> from leyline_widget import Game, Replay
        >>> w = ReplayWidget(Replay.from_game(Game.new(players=2, seed=4)))
        >>> w.cancel_analysis()   # nothing running: nothing happens
        >>> w.analysis_progress
        {}
        """
        run = self._analysing
        if run is None or not run.is_alive():
            return
        run.cancel()
        if self.analysis_progress.get("stepped"):
            self._finish_analysis()

    def _on_analyse_step(self, content: Message) -> None:
        only(content, "analyse_step", ("run", "done"))
        run, shown = self._analysing, self.analysis_progress
        # A step asked twice (two views of this widget), late, or for an ended run: no answer.
        if (run is None or not run.is_alive() or not shown.get("stepped")
                or content.get("run") != shown.get("run")
                or content.get("done") != shown.get("done")):
            return
        if not run.step():
            self._finish_analysis()

    def _on_analyse_cancel(self, content: Message) -> None:
        only(content, "analyse_cancel", ())
        self.cancel_analysis()
        self.error = ""

    def _on_analyse(self, content: Message) -> None:
        only(content, "analyse", ("seat", "budget"))
        seat = content.get("seat", self.viewer)
        budget = content.get("budget", self.analysis_budget)
        self.analyse(seat, budget)
        self.error = ""
