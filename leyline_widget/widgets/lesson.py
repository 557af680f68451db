"""Lessons in Jupyter: :class:`LessonWidget`, a thin adapter over a
:class:`~leyline_widget.teach.lessons.LessonSession` on the same board as the play widget.

The page shows the lesson (title, the seed rule it teaches, the instruction of step k of n, hints,
feedback styled by its kind) above the board, and sends the learner's clicks as the play widget
does. The kernel grades each move with the session and answers in words; JS decides nothing.

Synced traits, besides the board's (``view``, ``legal``, ``info``, ``events``, ``error``):

- ``lesson``: :meth:`LessonSession.state` (without ``remembered``) plus ``index`` (place in the
  course), ``next_lesson`` (id or None), ``epoch`` (bumped when the board is put back, so the
  page drops brief reveals of an attempt that was undone) and ``shown``: after "Skip step
  (show me)", what the step's solution did to each slot (slot -> ``activated``,
  ``collected``, ``refilled``, ``bound``, ...; never an element), highlighted on the board
  until the learner's next move;
- ``lessons``: the course navigator, one entry per lesson with its progress; a lesson
  finished in any lesson widget of this kernel (:data:`~leyline_widget.teach.course.PROGRESS`)
  counts as done here too (``elsewhere``: finished in another widget, not in this one);
- ``remembered``: per grid slot, the element of an inert card the learner knows (cards the
  scenario says they remember, or that were revealed to them since), else None. This is the
  learner's own memory, drawn faintly on the board; a card they never saw never appears here.

Messages from the page: ``action`` (as in the play widget), ``hint``, ``retry``, ``next``
(skip or move on), ``restart`` and ``goto`` (``{"lesson": id}``). Each has a Python twin.

>>> from leyline_widget import Activate, EndPhase
>>> w = LessonWidget("activate-collect")
>>> w.lesson["instruction"][:27], w.lesson["step"], w.lesson["total"]
('You remember Water at slots', 0, 3)
>>> w.remembered[:4]
[None, 'water', None, 'fire']
>>> w.try_action({"type": "activate", "slot": 2})["kind"]    # never seen: a guess
'unseen'
>>> [w.try_action(a)["kind"] for a in (Activate(1), Activate(6), EndPhase())]
['solved', 'solved', 'done']
>>> w.lessons[0]["status"]
'done'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import traitlets

from ..core.actions import Action
from ..core.echo import quote
from ..core.game import Game
from ..teach.course import COURSE, PROGRESS
from ..teach.course import lesson as course_lesson
from ..teach.lessons import Feedback, Lesson, LessonSession
from .base import BoardWidget, Handler, Message, only
from .presenters import add_marks, game_info, legal_summary

__all__ = ["LessonWidget"]


def _resolve(item: object, field: str) -> Lesson:
    if isinstance(item, Lesson):
        return item
    if isinstance(item, str):
        return course_lesson(item)
    raise ValueError(f"{field} must be a Lesson or the id of a built-in lesson, got {quote(item)}")


class LessonWidget(BoardWidget):
    """Work through lessons in a notebook: instruction, progress, hints, feedback, retry, next.

    ``LessonWidget("flip-back")`` (an id of :data:`~leyline_widget.teach.course.COURSE`, or a
    :class:`~leyline_widget.teach.lessons.Lesson`) runs one lesson; ``LessonWidget()`` or
    :meth:`LessonWidget.course` runs the whole course with a navigator; ``lessons=[...]`` any
    list. Progress in each lesson is kept while the learner moves between them.
    ``reveal_ms`` is how long a card brought onto the grid (or peeked at) stays element-up.

    >>> w = LessonWidget.course()
    >>> len(w.lessons), w.lesson["lesson"]
    (23, 'activate-collect')
    >>> w.goto("game-end").lesson["title"]
    'The end of the game, and ties'
    """

    lesson = traitlets.Dict().tag(sync=True)
    lessons: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    remembered: traitlets.List[str | None] = traitlets.List().tag(sync=True)
    #: The last event batch the page has shown: a board rendered again never replays it.
    shown_seq = traitlets.Int(0).tag(sync=True)

    def __init__(self, lesson: Lesson | str | None = None, *,
                 lessons: Sequence[Lesson | str] | None = None, reveal_ms: int = 1500) -> None:
        first = None if lesson is None else _resolve(lesson, "lesson")
        if lessons is None:
            lessons = COURSE if first is None else [first]
        if isinstance(lessons, (str, Lesson)):
            raise ValueError("lessons must be a list of lessons or lesson ids")
        resolved = [_resolve(item, "lessons") for item in lessons]
        if not resolved:
            raise ValueError("lessons is empty: give at least one lesson")
        ids = [lsn.id for lsn in resolved]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"lessons lists {', '.join(twice)} more than once")
        start = resolved[0] if first is None else first
        if start.id not in ids:
            raise ValueError(f"lesson {quote(start.id)} is not among lessons ({', '.join(ids)})")
        self._course: tuple[Lesson, ...] = tuple(resolved)
        self._sessions: dict[str, LessonSession] = {}
        self._epoch = 0
        self.session = self._session_for(start)
        game = self.session.game
        super().__init__(mode="lesson", viewer=self.session.player, reveal_ms=reveal_ms,
                         info=game_info(game, {}))
        self._sync(publish=True)
        PROGRESS.watch(self._finished_elsewhere)

    @classmethod
    def course(cls, start: Lesson | str | None = None, *, reveal_ms: int = 1500) -> LessonWidget:
        """The whole built-in course with its navigator, at ``start`` (default: lesson 1)."""
        return cls(start, lessons=COURSE, reveal_ms=reveal_ms)

    # -- reading -------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The live game of the current lesson (the learner is ``session.player``)."""
        return self.session.game

    @property
    def course_lessons(self) -> tuple[Lesson, ...]:
        """The lessons this widget's navigator offers, in order."""
        return self._course

    def _session_for(self, lesson: Lesson) -> LessonSession:
        session = self._sessions.get(lesson.id)
        if session is None:
            session = self._sessions[lesson.id] = lesson.session()
        return session

    def _progress(self, lesson: Lesson) -> dict[str, Any]:
        session = self._sessions.get(lesson.id)
        if session is None:
            status, step, mistakes, skipped = "new", 0, 0, 0
        else:
            started = session.index or session.mistakes or session.game.step
            status = "done" if session.done else "started" if started else "new"
            step, mistakes, skipped = session.index, session.mistakes, len(session.skipped)
        elsewhere = status != "done" and lesson.id in PROGRESS
        return {"id": lesson.id, "title": lesson.title, "section": lesson.section,
                "steps": len(lesson.steps), "status": "done" if elsewhere else status,
                "elsewhere": elsewhere, "step": step,
                "mistakes": mistakes, "skipped": skipped,
                "current": lesson.id == self.session.lesson.id}

    # -- state ---------------------------------------------------------------------------
    def _sync(self, publish: bool, events: list[dict[str, Any]] | None = None) -> None:
        """Replace every synced trait from the session; publish ``events`` (by default the
        session's latest move) as a new batch if asked."""
        session = self.session
        game = session.game
        player = session.player
        state = session.state()
        memory = state.pop("remembered")
        latest = state.pop("events")  # they travel once, in the board's ``events`` trait
        view = session.observation()
        # Only inert cards need the learner's memory; active cards show their element anyway.
        remembered = [el if cell["card"] == "inert" and not session.lesson.recall else None
                      for el, cell in zip(memory, view["grid"], strict=True)]
        ids = [lsn.id for lsn in self._course]
        index = ids.index(session.lesson.id)
        # A finished lesson invites no move (its summary and the next lesson replace the board).
        actor = (None if game.is_over or session.done or game.active_player != player
                 else player)
        if session.done:
            PROGRESS.finish(session.lesson.id, session.mistakes)
        shown: dict[int, list[str]] = {}
        for ev in session.shown:
            add_marks(shown, ev, activations=True)
        with self.hold_sync():
            self.view = cast(dict[str, Any], view)
            self.legal = legal_summary(game, actor)
            self.remembered = remembered
            self.lesson = {**state, "index": index, "count": len(ids), "epoch": self._epoch,
                           "shown": {str(s): k for s, k in sorted(shown.items())},
                           "next_lesson": ids[index + 1] if index + 1 < len(ids) else None,
                           "next_title": (self._course[index + 1].title
                                          if index + 1 < len(ids) else None)}
            self.lessons = [self._progress(lsn) for lsn in self._course]
            if publish:
                self._publish(latest if events is None else events, game.step)

    def _finished_elsewhere(self) -> None:
        """A lesson widget of this kernel finished a lesson: the navigator counts it."""
        self.lessons = [self._progress(lsn) for lsn in self._course]

    def _reset_board(self) -> None:
        """The board was put back or replaced: the page starts its board afresh."""
        self._epoch += 1
        self.info = game_info(self.session.game, {})
        self.viewer = self.session.player

    # -- Python API (each is also a message from the page) --------------------------------
    def try_action(self, action: Action | Mapping[str, Any]) -> Feedback:
        """Grade and, when legal, play ``action`` as a click would; returns the feedback."""
        session = self.session
        game, step = session.game, session.game.step
        feedback = session.try_action(action)
        moved = session.game is not game or session.game.step != step
        with self.hold_sync():
            # "Press Retry" answers a click without changing the lesson's own feedback.
            self.error = feedback["text"] if feedback["kind"] == "retry" else ""
            self._sync(publish=moved)
        return feedback

    def hint(self) -> str:
        """Show the next hint of this step (the last one names the expected moves)."""
        text = self.session.hint()
        self._sync(publish=False)
        return text

    def retry(self) -> LessonWidget:
        """Put the cards back as they were when this step began."""
        self.session.retry()
        return self._changed()

    def next(self) -> LessonWidget:
        """Go on to the next step; an unsolved step is first shown by playing its solution."""
        skipping = self.session.status != "solved"
        self.session.next()
        if skipping:
            # The step was put back, then played by its solution: the page's board restarts.
            return self._changed()
        self.error = ""
        self._sync(publish=False)  # nothing moved: the last batch must not replay
        return self

    def restart(self) -> LessonWidget:
        """Start the current lesson again from its scenario."""
        self.session.restart()
        return self._changed()

    def goto(self, lesson: Lesson | str) -> LessonWidget:
        """Open another lesson of this widget's course (where the learner left it)."""
        wanted = _resolve(lesson, "lesson")
        found = next((lsn for lsn in self._course if lsn.id == wanted.id), None)
        if found is None:
            raise ValueError(f"lesson {quote(wanted.id)} is not in this widget's course; it has "
                             f"{', '.join(lsn.id for lsn in self._course)}")
        self.session = self._session_for(found)
        # The lesson's last move is old news there: no brief reveal replays on the way in.
        return self._changed(events=[])

    def _changed(self, events: list[dict[str, Any]] | None = None) -> LessonWidget:
        with self.hold_sync():
            self.error = ""
            self._reset_board()
            self._sync(publish=True, events=events)
        return self

    # -- messages ------------------------------------------------------------------------
    def _handlers(self) -> dict[str, Handler]:
        return {"action": self._on_action, "hint": self._on_plain(self.hint),
                "retry": self._on_plain(self.retry), "next": self._on_plain(self.next),
                "restart": self._on_plain(self.restart), "goto": self._on_goto,
                "shown": self._mark_shown}


    @staticmethod
    def _on_plain(method: Callable[[], object]) -> Handler:
        def handle(content: Message) -> None:
            only(content, str(content.get("type")), ())
            method()
        return handle

    def _on_action(self, content: Message) -> None:
        only(content, "action", ("action", "step"))
        if "step" in content:
            step = content["step"]
            if isinstance(step, bool) or not isinstance(step, int):
                raise ValueError(f"an action message needs an integer 'step', got {quote(step)}")
            if step != self.game.step:
                raise ValueError(f"that click was for step {quote(step)}, but the lesson has moved "
                                 "on "
                                 f"to step {self.game.step}; try again")
        if "action" not in content:
            raise ValueError("an action message needs an 'action' object")
        self.try_action(content["action"])

    def _on_goto(self, content: Message) -> None:
        only(content, "goto", ("lesson",))
        target = content.get("lesson")
        if not isinstance(target, str):
            raise ValueError(f"a goto message needs the 'lesson' id, got {quote(target)}")
        self.goto(target)
