"""Lessons that teach the rules: a scenario, then short steps graded on the learner's knowledge.

A :class:`Step` says what it asks (``instruction``), which moves solve it (``accept`` patterns,
a ``goal`` check on the resulting state, or both), which moves are fine on the way (``allow``),
``hints``, and ``wrong`` feedback for legal moves that are not what it asks. A
:class:`LessonSession` runs one lesson for a learner and is what a widget drives: ``try_action``,
``hint``, ``retry``, ``next`` and a JSON-safe :meth:`LessonSession.state`.

Grading uses only what the learner could know: their observation, the cards the scenario declares
seen, and what was revealed to them since. Activating a card they have never seen is refused as a
guess (unless the step explicitly accepts it), so no verdict ever depends on a hidden card.

>>> from leyline_widget.teach.scenario import Scenario
>>> from leyline_widget import Activate, EndPhase
>>> lesson = Lesson("pair", "A pair", "Activation and Collection", "Collect any element with 2+.",
...     Scenario().grid("f ? ? ? / ? f ? ? / ? ? ? ?").seen(0, 5),
...     steps=(Step("Activate the Fire at slot 0.", accept=Activate(0)),
...            Step("Activate the other Fire.", accept=Activate(5)),
...            Step("Click Collect.", accept=EndPhase(), goal=collected("fire"))))
>>> s = lesson.session()
>>> s.try_action(Activate(2))["kind"]     # never seen: a guess, refused
'unseen'
>>> s.try_action({"type": "activate", "slot": 0})["kind"]
'solved'
>>> s.try_action(Activate(5))["kind"], s.try_action(EndPhase())["kind"]
('solved', 'done')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import quote
from ..core.game import Game, IllegalActionError, parse_action, visible_events
from ..core.rules import Rules
from ..core.types import Event, Observation
from ..core.wording import element_name, slot_list
from .memory import Memory, memory_report
from .scenario import Scenario
from .words import phrases

__all__ = [
    "Activated",
    "Check",
    "Collected",
    "Feedback",
    "GameEnded",
    "InPhase",
    "Lesson",
    "LessonSession",
    "Pattern",
    "Step",
    "StepContext",
    "TokenOnKnown",
    "activated",
    "collected",
    "describe_action",
    "describe_events",
    "game_over",
    "in_phase",
    "matches",
    "token_on",
]

#: A move a step names: an exact action, or a dict matched against ``action.to_dict()`` on the
#: keys it gives (``{"type": "place_token", "element": "fire"}`` is any Fire token placement).
Pattern = Action | Mapping[str, Any]


def matches(pattern: Pattern, action: Action) -> bool:
    """Whether ``action`` is the move ``pattern`` names.

    >>> matches({"type": "place_token", "source": "pool"}, PlaceToken(3, "earth", "pool"))
    True
    >>> matches(Activate(2), Activate(3))
    False
    """
    if isinstance(pattern, Action):
        return pattern == action
    d = action.to_dict()
    return all(k in d and d[k] == v for k, v in pattern.items())


def _pattern(value: object, where: str) -> Pattern:
    if isinstance(value, Action):
        return value
    if isinstance(value, Mapping):
        kind = value.get("type")
        if kind not in Action._registry:
            raise ValueError(f"{where}: a move pattern needs a known 'type', got {quote(kind)}")
        return dict(value)
    raise ValueError(f"{where}: a move is an Action or a dict pattern, got {quote(value)}")


def _patterns(value: object, where: str) -> tuple[Pattern, ...]:
    if isinstance(value, (Action, Mapping)):
        return (_pattern(value, where),)
    if isinstance(value, Sequence) and not isinstance(value, str):
        return tuple(_pattern(v, where) for v in value)
    raise ValueError(f"{where}: expected a move or a list of moves, got {quote(value)}")


# ---------------------------------------------------------------------- checks
@dataclass(frozen=True)
class StepContext:
    """What a check may look at: the learner's view only."""

    player: int
    observation: Mapping[str, Any]
    events: tuple[Event, ...]  # visible to the learner, since this attempt at the step began
    memory: Memory
    action: Action


class Check(Protocol):
    """A goal on the state a step reaches. ``failure`` explains a miss (optional)."""

    def __call__(self, ctx: StepContext) -> bool: ...


def _collected(ctx: StepContext) -> dict[str, int]:
    got: dict[str, int] = {}
    for ev in ctx.events:
        if ev["type"] == "collect" and ev["player"] == ctx.player:
            got[ev["element"]] = got.get(ev["element"], 0) + ev["count"]
    return got


@dataclass(frozen=True)
class Collected:
    """The learner collected each of ``elements`` (any element when empty), ``count`` or more
    cards of each when given."""

    elements: tuple[str, ...] = ()
    count: int | None = None

    def __call__(self, ctx: StepContext) -> bool:
        got = _collected(ctx)
        if not self.elements:
            return bool(got) and (self.count is None or max(got.values()) >= self.count)
        return all(got.get(el, 0) >= (self.count or 1) for el in self.elements)

    def failure(self, ctx: StepContext) -> str:
        got = _collected(ctx)
        if not got:
            return "Nothing was collected."
        have = ", ".join(f"{n} {element_name(el)}" for el, n in got.items())
        want = " and ".join(element_name(el) for el in self.elements) or "one element"
        more = f" ({self.count} or more cards)" if self.count else ""
        return f"You collected {have}; this step asks for {want}{more}."


def collected(*elements: str, count: int | None = None) -> Collected:
    """Goal: the learner collected these elements (any, when none is named)."""
    return Collected(tuple(elements), count)


@dataclass(frozen=True)
class Activated:
    """These slots are all activated now."""

    slots: tuple[int, ...]

    def __call__(self, ctx: StepContext) -> bool:
        grid = ctx.observation["grid"]
        return all(grid[s]["card"] == "active" for s in self.slots)

    def failure(self, ctx: StepContext) -> str:
        return f"This step wants {slot_list(self.slots)} activated together."


def activated(*slots: int) -> Activated:
    """Goal: these slots are all activated."""
    return Activated(tuple(slots))


@dataclass(frozen=True)
class InPhase:
    """The turn has reached ``phase`` (a :class:`Phase` value)."""

    phase: str

    def __call__(self, ctx: StepContext) -> bool:
        return bool(ctx.observation["phase"] == self.phase)

    def failure(self, ctx: StepContext) -> str:
        return f"The turn is in the {ctx.observation['phase']} phase, not {self.phase}."


def in_phase(phase: str) -> InPhase:
    """Goal: the turn has reached ``phase``."""
    return InPhase(str(phase))


@dataclass(frozen=True)
class GameEnded:
    """The game is over, with exactly these ``winners`` when given."""

    winners: tuple[int, ...] | None = None

    def __call__(self, ctx: StepContext) -> bool:
        obs = ctx.observation
        return bool(obs["is_over"]) and (
            self.winners is None or tuple(obs["winners"]) == self.winners)

    def failure(self, ctx: StepContext) -> str:
        obs = ctx.observation
        if not obs["is_over"]:
            return "The game is not over yet."
        return f"The game ended with scores {obs['scores']}; this step wanted another result."


def game_over(winners: Sequence[int] | None = None) -> GameEnded:
    """Goal: the game is over (with these winners)."""
    return GameEnded(None if winners is None else tuple(winners))


@dataclass(frozen=True)
class TokenOnKnown:
    """The learner placed a ``token`` token on a card they know is ``card``."""

    token: str
    card: str

    def __call__(self, ctx: StepContext) -> bool:
        return any(ev["type"] == "place_token" and ev["player"] == ctx.player
                   and ev["element"] == self.token
                   and ctx.memory.element(ev["slot"]) == self.card for ev in ctx.events)

    def failure(self, ctx: StepContext) -> str:
        return (f"This step asks for a {element_name(self.token)} token on the "
                f"{element_name(self.card)} card you know.")


def token_on(token: str, card: str) -> TokenOnKnown:
    """Goal: a ``token`` token now lies on a card the learner knows is ``card``."""
    return TokenOnKnown(token, card)


# ---------------------------------------------------------------------- words
def describe_action(action: Action, rules: Rules | None = None) -> str:
    """An action in words, for hints.

    >>> describe_action(PlaceToken(3, "fire", "supply"))
    'place a Fire token on slot 3, paid from the supply'
    """
    if isinstance(action, Activate):
        return f"activate slot {action.slot}"
    if isinstance(action, Deactivate):
        return f"deactivate slot {action.slot}"
    if isinstance(action, Refill):
        return f"refill slot {action.slot}"
    if isinstance(action, EndPhase):
        return "end the phase"
    if isinstance(action, PlaceToken):
        source = {"supply": "paid from the supply", "marker": "free from your Spent marker",
                  "pool": "free from the Token Pool"}.get(action.source, action.source)
        return f"place a {element_name(action.element)} token on slot {action.slot}, {source}"
    if isinstance(action, UsePower):
        power = rules.power(action.element, action.tier) if rules else None
        name = power.name if power else f"the {action.tier} {element_name(action.element)} power"
        on = f" on {slot_list(action.targets)}" if action.targets else ""
        return f"use {name}{on}"
    return repr(action)


def describe_events(events: Sequence[Event], viewer: int, players: Sequence[str]) -> list[str]:
    """What happened, in short phrases, as ``viewer`` saw it."""
    return phrases(visible_events(events, viewer), players, viewer)


# ---------------------------------------------------------------------- lessons
def _actions(value: object, where: str) -> tuple[Action, ...]:
    if isinstance(value, (Action, Mapping)):
        value = (value,)
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise ValueError(f"{where}: expected a list of actions, got {quote(value)}")
    return tuple(v if isinstance(v, Action) else Action.from_dict(v) for v in value)


@dataclass(frozen=True)
class Step:
    """One thing to do. Solved by a move matching ``accept`` (when given) that leaves ``goal``
    true (when given); moves matching ``allow`` are steps on the way; any other legal move is
    wrong, explained by the first matching ``wrong`` entry, else ``otherwise``, else the goal's
    failure. ``solution`` is the expected moves (by default the first exact ``accept`` action);
    ``then`` moves are played automatically once the step is solved.

    >>> step = Step("Collect the two Fire cards.", accept=EndPhase(), goal=collected("fire"),
    ...             allow=(Activate(0), Activate(1)))
    >>> step.instruction
    'Collect the two Fire cards.'
    """

    instruction: str
    accept: Any = ()
    goal: Check | None = None
    allow: Any = ()
    solution: Any = ()
    hints: Sequence[str] = ()
    wrong: Any = ()
    otherwise: str = ""
    success: str = ""
    then: Any = ()

    def __post_init__(self) -> None:
        where = f"step {self.instruction[:40]!r}"
        accept = _patterns(self.accept, f"{where} accept")
        object.__setattr__(self, "accept", accept)
        object.__setattr__(self, "allow", _patterns(self.allow, f"{where} allow"))
        if not accept and self.goal is None:
            raise ValueError(f"{where}: a step needs accepted moves or a goal")
        wrong: Any = self.wrong
        items = list(wrong.items()) if isinstance(wrong, Mapping) else list(wrong)
        object.__setattr__(self, "wrong", tuple(
            (_pattern(p, f"{where} wrong"), str(text)) for p, text in items))
        solution = _actions(self.solution, f"{where} solution")
        if not solution:
            exact = [p for p in accept if isinstance(p, Action)]
            if not exact:
                raise ValueError(f"{where}: give a solution (no exact accepted move)")
            solution = (exact[0],)
        object.__setattr__(self, "solution", solution)
        object.__setattr__(self, "then", _actions(self.then, f"{where} then"))
        object.__setattr__(self, "hints", tuple(self.hints))

    def to_dict(self) -> dict[str, Any]:
        """The words of the step (the checks stay in Python)."""
        return {"instruction": self.instruction, "hints": list(self.hints),
                "success": self.success,
                "solution": [a.to_dict() for a in self.solution]}


@dataclass(frozen=True)
class Lesson:
    """A titled scenario and its steps, teaching the seed ``rule`` of one ``section``.

    >>> pair = Lesson("pair", "Collect a pair", "Activation", "Two of an element are collected.",
    ...               Scenario().grid("f f ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1),
    ...               steps=(Step("Collect the two Fire cards.", accept=EndPhase(),
    ...                           goal=collected("fire"), allow=(Activate(0), Activate(1))),))
    >>> session = pair.session()
    >>> [session.try_action(a)["kind"] for a in (Activate(0), Activate(1), EndPhase())]
    ['progress', 'progress', 'done']
    """

    id: str
    title: str
    section: str
    rule: str
    scenario: Scenario
    steps: tuple[Step, ...]
    intro: str = ""
    summary: str = ""
    #: A recall lesson tests memory: the cards the learner "remembers" are shown face up once
    #: at the start (as the deal is), then never again; its tasks name elements, not slots,
    #: and its grade counts the steps solved at the first try (no mistake, no hint).
    recall: bool = False
    #: A recall lesson's id of the lesson it tests from memory (same rule, same scenario).
    recall_of: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        if not self.steps:
            raise ValueError(f"lesson {quote(self.id)} has no steps")

    def session(self) -> LessonSession:
        """A fresh run of this lesson."""
        return LessonSession(self)

    def to_dict(self) -> dict[str, Any]:
        """The lesson's words as JSON-safe data (its checks stay in Python).

        >>> from leyline_widget.teach.course import lesson
        >>> lesson("binding").to_dict()["id"]
        'binding'
        """
        return {"id": self.id, "title": self.title, "section": self.section, "rule": self.rule,
                "intro": self.intro, "summary": self.summary, "recall": self.recall,
                "recall_of": self.recall_of,
                "steps": [s.to_dict() for s in self.steps]}


Feedback = dict[str, Any]


class LessonSession:
    """One learner working through one lesson; every method returns JSON-safe data.

    Status is ``playing``, ``wrong`` (a legal move that is not what the step asks: the cards
    stay where it left them until :meth:`retry`), ``solved`` (:meth:`next` moves on; playing on
    moves on by itself) or ``done``.

    >>> from leyline_widget.teach.course import lesson
    >>> session = lesson("activate-collect").session()
    >>> session.state()["status"]
    'playing'
    >>> session.try_action({"type": "activate", "slot": 7})["kind"]    # never seen: a guess
    'unseen'
    """

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.restart()

    def restart(self) -> None:
        """Start the lesson again from its scenario."""
        lesson = self.lesson
        self.player = lesson.scenario.learner
        self.known = lesson.scenario.seen_cards(self.player)
        self.game: Game = lesson.scenario.build()
        self.memory = Memory(self.game.rules.grid_size, self.player, self.known,
                             turn=self.game.turn)
        self.index = 0
        self.status = "playing"
        self.feedback: Feedback | None = None
        self.hints_shown = 0
        self.mistakes = 0
        self.skipped: list[int] = []
        self.events: list[Event] = []  # visible events of the latest move, for the front-end
        if lesson.recall:
            # The cards to remember are shown once, face up, as a deal is (the page glimpses
            # them); after that only the learner's memory holds them.
            grid = self.game.observation(None)["grid"]
            self.events = [{"type": "reveal", "slot": s, "element": grid[s]["element"],
                            "cause": "setup", "visible_to": "all"}
                           for s in sorted(self.known) if grid[s]["card"] == "inert"]
        #: What the last skipped step played (its visible events), until the learner moves on.
        self.shown: list[Event] = []
        self._attempt: list[Event] = []
        self._start = (self.game.clone(), self.memory.copy())
        self.hints_used = 0  # hints of the steps before this one
        self.recall_asked = 0  # recall lesson: steps finished, and those right at once
        self.recall_first = 0
        self._step_mistakes = 0
        self._skipping = False

    # ------------------------------------------------------------------ reading
    @property
    def step(self) -> Step:
        """The step the learner is on.

        >>> from leyline_widget.teach.course import lesson
        >>> lesson("activate-collect").session().step is lesson("activate-collect").steps[0]
        True
        """
        return self.lesson.steps[self.index]

    @property
    def done(self) -> bool:
        """Whether every step of the lesson is done.

        >>> from leyline_widget.teach.course import lesson
        >>> lesson("activate-collect").session().done
        False
        """
        return self.status == "done"

    def observation(self) -> Observation:
        """The learner's view of the game."""
        return self.game.observation(self.player)

    def state(self) -> dict[str, Any]:
        """Everything a lesson front-end shows, JSON-safe."""
        step = self.step
        hints = self._hints()
        lesson = self.lesson
        return {
            "lesson": lesson.id, "title": lesson.title, "section": lesson.section,
            "rule": lesson.rule, "intro": lesson.intro,
            "step": self.index, "total": len(lesson.steps), "instruction": step.instruction,
            "status": self.status, "done": self.done, "feedback": self.feedback,
            "hints": hints[:self.hints_shown], "hints_left": len(hints) - self.hints_shown,
            "remembered": self.memory.remembered(), "mistakes": self.mistakes,
            "skipped": list(self.skipped), "player": self.player, "events": list(self.events),
            "summary": lesson.summary, "hints_used": self.hints_used + self.hints_shown,
            "recall": ({"asked": self.recall_asked, "first_try": self.recall_first}
                       if lesson.recall else None),
        }

    def memory_report(self) -> dict[str, Any]:
        """The teacher's memory view of the learner in this lesson so far."""
        return memory_report(self.game, self.player, known=self.known)

    # ------------------------------------------------------------------ acting
    def try_action(self, action: Action | Mapping[str, Any]) -> Feedback:
        """Grade and, when legal, play ``action``; returns the feedback (also in ``state``)."""
        if self.status == "done":
            return self._say("done", "This lesson is complete.")
        if self.status == "wrong":
            return self._say("retry", "Press Retry to put the cards back and try again.",
                             keep=True)
        if self.status == "solved":
            self.next()
        self.shown = []
        step = self.step
        try:
            act = parse_action(action)
        except IllegalActionError as err:
            return self._mistake("illegal", str(err), err.rule)
        explicit = any(matches(p, act) for p in (*step.accept, *step.allow))
        if (isinstance(act, Activate) and not explicit and self.game.is_legal(act)
                and self.memory.element(act.slot) is None):
            return self._mistake("unseen", self._unseen_text(act.slot))
        turn = self.game.turn
        try:
            events = self.game.apply(act)
        except IllegalActionError as err:
            return self._mistake("illegal", str(err), err.rule)
        self._observe(events, turn, fresh=True)
        ctx = StepContext(self.player, self.observation(), tuple(self._attempt), self.memory,
                          act)
        accepted = not step.accept or any(matches(p, act) for p in step.accept)
        if accepted and (step.goal is None or step.goal(ctx)):
            return self._solved()
        if any(matches(p, act) for p in step.allow):
            happened = describe_events(events, self.player, self.game.players)
            return self._say("progress", _sentence(happened) or "Good.")
        self.status = "wrong"
        return self._mistake("wrong", self._wrong_text(step, act, ctx, accepted))

    def hint(self) -> str:
        """The next hint of this step; the last one shows the expected moves. On a step that
        is already solved (or a finished lesson) it spends nothing and says so."""
        if self.status in ("solved", "done"):
            return ("This lesson is finished: no hint needed." if self.status == "done"
                    else "This step is already solved: no hint spent. Go on to the next step.")
        hints = self._hints()
        self.hints_shown = min(self.hints_shown + 1, len(hints))
        return hints[self.hints_shown - 1]

    def retry(self) -> None:
        """Put the game back as it was when this step began."""
        game, memory = self._start
        self.game, self.memory = game.clone(), memory.copy()
        self.status = "playing"
        self.feedback = None
        self.events = []
        self.shown = []
        self._attempt = []

    def next(self) -> None:
        """Move to the next step; an unsolved step is first played out by its solution."""
        if self.status == "done":
            return
        skipped = self.status != "solved"
        if skipped:
            self._skip()
            if self.status == "done":
                return
        self.index += 1
        self.hints_used += self.hints_shown
        self._step_mistakes = self.mistakes
        self.status = "playing"
        # A skipped step's success text tells what its moves did; its events stay for display.
        self.feedback = (self._say("skipped", self.lesson.steps[self.index - 1].success
                                   or "Step shown.")
                         if skipped else None)
        self.hints_shown = 0
        self._attempt = []
        self._start = (self.game.clone(), self.memory.copy())

    # ------------------------------------------------------------------ inside
    def _hints(self) -> list[str]:
        rules = self.game.rules
        show = ", then ".join(describe_action(a, rules) for a in self.step.solution)
        return [*self.step.hints, f"Show me: {show}."]

    def _observe(self, events: list[Event], turn: int, fresh: bool) -> None:
        self.memory.observe(events, self.game.step, turn)
        seen = visible_events(events, self.player)
        self._attempt.extend(seen)
        self.events = seen if fresh else [*self.events, *seen]

    def _say(self, kind: str, text: str, rule: str = "", keep: bool = False) -> Feedback:
        feedback = {"kind": kind, "text": text, "rule": rule}
        if not keep:
            self.feedback = feedback
        return feedback

    def _mistake(self, kind: str, text: str, rule: str = "") -> Feedback:
        self.mistakes += 1
        return self._say(kind, text, rule)

    def _solved(self) -> Feedback:
        step = self.step
        for action in step.then:
            turn = self.game.turn
            self._observe(self.game.apply(action), turn, fresh=False)
        last = self.index == len(self.lesson.steps) - 1
        if self.lesson.recall:
            self.recall_asked += 1
            clean = self.hints_shown == 0 and self.mistakes == self._step_mistakes
            if clean and not self._skipping:
                self.recall_first += 1
        self.status = "done" if last else "solved"
        text = step.success or "Well done."
        if last:
            text += " " + (self.lesson.summary or "Lesson complete.")
        return self._say("done" if last else "solved", text)

    def _skip(self) -> None:
        self.retry()
        self.skipped.append(self.index)
        mistakes = self.mistakes
        feedback: Feedback = {}
        self._skipping = True
        try:
            for action in self.step.solution:
                feedback = self.try_action(action)
        finally:
            self._skipping = False
        self.mistakes = mistakes
        self.shown = list(self._attempt)
        if feedback.get("kind") not in ("solved", "done"):
            raise RuntimeError(f"lesson {quote(self.lesson.id)} step {self.index}: its solution "
                               f"does "
                               f"not solve it ({feedback.get('text')})")

    def _remembered_text(self) -> str:
        obs = self.observation()
        by: dict[str, list[int]] = {}
        for s, el in enumerate(self.memory.remembered()):
            if el is not None and obs["grid"][s]["card"] == "inert":
                by.setdefault(el, []).append(s)
        if not by:
            return "You remember no inert card yet."
        return "You remember " + "; ".join(
            f"{element_name(el)} at {slot_list(slots)}" for el, slots in by.items()) + "."

    def _unseen_text(self, slot: int) -> str:
        text = (f"You have never seen the card in slot {slot}: activating it would be a guess, "
                f"and this step asks for cards you know.")
        # A recall lesson tests that memory: it does not hand the cards out again.
        return text + (" Think back to the cards you were shown." if self.lesson.recall
                       else f" {self._remembered_text()}")

    def _wrong_text(self, step: Step, act: Action, ctx: StepContext, accepted: bool) -> str:
        text = next((t for p, t in step.wrong if matches(p, act)), "")
        failure: Callable[[StepContext], str] | None = getattr(step.goal, "failure", None)
        if not text and failure is not None and (accepted or not step.otherwise):
            text = failure(ctx)
        if not text:
            text = step.otherwise or "That move is legal, but it is not what this step asks."
        happened = _sentence(describe_events(self._attempt, self.player, self.game.players))
        if happened:
            text += f" What happened: {happened}"
        return text + " Press Retry to try again."


def _sentence(parts: Sequence[str]) -> str:
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
