"""Lessons: every built-in lesson is solved by its expected moves, wrong moves get the feedback
they should, and grading never depends on a card the learner has not seen."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from leyline_widget import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from leyline_widget.teach.course import COURSE, SECTIONS, course, lesson
from leyline_widget.teach.lessons import Lesson, LessonSession, Step, collected, matches
from leyline_widget.teach.scenario import Scenario

IDS = [lsn.id for lsn in COURSE]


def at_step(lsn: Lesson, index: int) -> LessonSession:
    session = lsn.session()
    for _ in range(index):
        session.next()
    assert session.index == index
    return session


def play_solutions(session: LessonSession) -> list[dict]:
    feedback = []
    for step in session.lesson.steps:
        for action in step.solution:
            feedback.append(session.try_action(action))
    return feedback


@pytest.mark.parametrize("lsn", COURSE, ids=IDS)
def test_every_lesson_is_solved_by_its_expected_moves(lsn: Lesson) -> None:
    session = lsn.session()
    states = []
    for index, step in enumerate(lsn.steps):
        for action in step.solution[:-1]:
            assert session.try_action(action)["kind"] == "progress", (index, action)
        last = session.try_action(step.solution[-1])
        assert last["kind"] == ("done" if index == len(lsn.steps) - 1 else "solved"), last
        assert last["text"].startswith(step.success)
        states.append(json.loads(json.dumps(session.state())))
    assert session.done and session.mistakes == 0 and session.skipped == []
    assert [s["step"] for s in states] == list(range(len(lsn.steps)))
    assert states[-1]["done"] is True


WRONG = [(lsn, i, pattern, text) for lsn in COURSE for i, step in enumerate(lsn.steps)
         for pattern, text in step.wrong if isinstance(pattern, Action)]


@pytest.mark.parametrize(("lsn", "index", "action", "text"), WRONG,
                         ids=[f"{w[0].id}-{w[1]}-{w[2]!r}" for w in WRONG])
def test_each_written_wrong_move_gets_its_feedback_and_retry_restores(
        lsn: Lesson, index: int, action: Action, text: str) -> None:
    session = at_step(lsn, index)
    before = session.game.state_hash()
    feedback = session.try_action(action)
    assert feedback["kind"] == "wrong"
    assert feedback["text"].startswith(text) and feedback["text"].endswith("Press Retry to try "
                                                                           "again.")
    assert session.status == "wrong" and session.mistakes == 1
    assert session.try_action(action)["kind"] == "retry"       # nothing more until Retry
    session.retry()
    assert session.game.state_hash() == before and session.status == "playing"
    assert session.try_action(lsn.steps[index].solution[0])["kind"] in ("progress", "solved",
                                                                         "done")


def test_an_illegal_move_gets_the_engines_message_and_changes_nothing() -> None:
    session = lesson("binding").session()
    before = session.game.state_hash()
    expected = session.game.why_illegal(Activate(9))
    feedback = session.try_action(Activate(9))
    assert feedback == {"kind": "illegal", "rule": "binding",
                        "text": "slot 9 is bound by 3 wind tokens and your Study holds 2 wind"}
    assert feedback["text"] == expected
    assert session.game.state_hash() == before and session.status == "playing"
    assert session.state()["feedback"] == feedback


@pytest.mark.parametrize(("lesson_id", "index", "action", "words"), [
    ("deactivate-pass", 0, Activate(11), "you have used all 3 activations this turn"),
    ("token-sources", 2, PlaceToken(0, "earth", "supply"), "your Study holds no earth"),
    ("token-return", 4, PlaceToken(0, "fire", "pool"), "the Token Pool holds no fire tokens"),
    ("cleanup-refill", 1, EndPhase(), "every empty grid slot must be refilled before Phase 3"),
    ("minor-powers", 0, UsePower("earth", "minor", (1,)), "Unbind unlocks at 2 earth"),
    ("game-end", 2, Activate(2), "cards are activated in the activation phase; it is now the "
                                 "refill phase"),
])
def test_illegal_moves_in_the_course(lesson_id: str, index: int, action: Action,
                                     words: str) -> None:
    session = at_step(lesson(lesson_id), index)
    feedback = session.try_action(action)
    assert feedback["kind"] == "illegal" and words in feedback["text"]


def test_a_never_seen_card_is_refused_as_a_guess_without_revealing_it() -> None:
    session = lesson("activate-collect").session()
    before = session.game.state_hash()
    feedback = session.try_action({"type": "activate", "slot": 7})
    assert feedback["kind"] == "unseen"
    assert feedback["text"] == (
        "You have never seen the card in slot 7: activating it would be a guess, and this step "
        "asks for cards you know. You remember Water at slots 1 and 6; Fire at slot 3.")
    assert session.game.state_hash() == before and session.game.step == 0


def test_a_legal_move_outside_the_goal_explains_what_happened() -> None:
    session = at_step(lesson("game-end"), 1)
    feedback = session.try_action(Deactivate(1))
    assert feedback["text"] == (
        "Two Earth cards would leave you at 4, behind your Rival's 5. Keep all three. What "
        "happened: You deactivate slot 1. Press Retry to try again.")
    session = at_step(lesson("cleanup-refill"), 3)
    feedback = session.try_action(PlaceToken(5, "fire", "supply"))
    assert feedback["text"].startswith("This step asks for a Fire token on the Earth card you "
                                       "know. What happened: You place a Fire Binding token on "
                                       "slot 5 from the supply")
    session = lesson("flip-back").session()
    session.try_action(Activate(2))
    session.try_action(Activate(7))
    feedback = session.try_action(EndPhase())
    assert feedback["kind"] == "wrong"
    assert "slots 2 and 7 flip back to inert" in feedback["text"]


def test_malformed_actions_are_feedback_not_crashes() -> None:
    session = lesson("activate-collect").session()
    feedback = session.try_action({"type": "fly"})
    assert feedback["kind"] == "illegal" and feedback["text"].startswith(
        "malformed action: unknown action type 'fly'")


def test_hints_end_with_the_expected_moves() -> None:
    session = lesson("flip-back").session()
    assert session.hint() == "Three activations: slots 2, 5 and 7."
    assert session.hint() == "Show me: activate slot 2, then activate slot 5, then activate " \
                             "slot 7."
    assert session.hint() == session.state()["hints"][-1]
    assert session.state()["hints_left"] == 0
    session = at_step(lesson("gale-tide"), 0)
    session.hint()
    assert session.hint() == "Show me: use Gale on slots 3, 7 and 11."


def test_next_plays_out_an_unsolved_step_and_reaches_the_end() -> None:
    for lsn in COURSE:
        session = lsn.session()
        for _ in lsn.steps:
            session.next()
        assert session.done and session.skipped == list(range(len(lsn.steps)))
        assert session.mistakes == 0


def test_solved_steps_move_on_by_playing_on() -> None:
    session = lesson("activate-collect").session()
    session.try_action(Activate(1))
    assert session.status == "solved" and session.index == 0
    assert session.try_action(Activate(6))["kind"] == "solved" and session.index == 1
    session.next()
    assert session.state()["instruction"].startswith("Click Collect")
    assert session.state()["feedback"] is None


def test_the_session_remembers_what_the_learner_saw() -> None:
    session = lesson("unbind-ripple").session()
    assert session.state()["remembered"][2] == "fire"
    session.next()
    session.next()   # Unbind, then Ripple swaps slots 2 and 5
    remembered = session.state()["remembered"]
    assert remembered[5] == "fire" and remembered[2] is None
    feedback = session.try_action(Activate(2))
    assert feedback["kind"] == "unseen" and "Fire at slots 5 and 7" in feedback["text"]
    report = session.memory_report()
    assert report["slots"][5]["seen"] and report["slots"][5]["how"] == "given"
    assert report["never_seen"] == [0, 1, 2, 3, 4, 6, 8, 9, 10, 11]


@pytest.mark.parametrize("lsn", COURSE, ids=IDS)
def test_grading_never_depends_on_cards_the_learner_has_not_seen(lsn: Lesson) -> None:
    """Re-dealing every card the scenario leaves to chance gives the same lesson."""
    def run(seed: int | None) -> list:
        dealt = dataclasses.replace(lsn, scenario=lsn.scenario.with_seed(seed))
        size = dealt.scenario.rules.grid_size
        # Try every slot, a fresh session each time: known, never seen, bound, refused...
        out = [dealt.session().try_action(Activate(s)) for s in range(size)]
        session = dealt.session()
        out += play_solutions(session)
        out.append(session.state())
        return out

    first = run(None)
    hashes = set()
    for seed in (1, 2):
        assert run(seed) == first
        hashes.add(lsn.scenario.with_seed(seed).build().state_hash())
    # The hidden cards really were dealt differently (the last lesson places every card).
    assert len(hashes) == 2 or lsn.id in ("game-end", "recall-game-end")


def test_the_course_covers_every_section_of_the_seed_rules() -> None:
    assert set(SECTIONS) <= {lsn.section for lsn in COURSE}
    # The lessons of the rules, and the recall versions of those that ask for remembered cards.
    assert 10 <= len([lsn for lsn in COURSE if not lsn.recall]) <= 14
    assert all(2 <= len(lsn.steps) <= 5 for lsn in COURSE)
    assert len(set(IDS)) == len(IDS)
    assert [c["id"] for c in course()] == IDS
    json.dumps([lsn.to_dict() for lsn in COURSE])


def _seed_rules() -> str | None:
    here = Path(__file__).resolve().parent
    for path in (here / "seed-rules.txt", here.parent.parent / "shared" / "seed-rules.txt"):
        if path.exists():
            return " ".join(path.read_text().split())
    return None


def test_each_lesson_quotes_the_seed_rules_word_for_word() -> None:
    text = _seed_rules()
    if text is None:
        pytest.skip("the seed rules text is not beside the repository")
    for lsn in COURSE:
        for part in lsn.rule.split(" [...] "):
            assert " ".join(part.replace("\n", " ").split()) in text, (lsn.id, part)


def test_steps_and_lessons_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="a step needs accepted moves or a goal"):
        Step("Do something.")
    with pytest.raises(ValueError, match="give a solution"):
        Step("Place a token.", accept={"type": "place_token"})
    with pytest.raises(ValueError, match="a move pattern needs a known 'type'"):
        Step("Fly.", accept={"type": "fly"})
    with pytest.raises(ValueError, match="has no steps"):
        Lesson("x", "X", "Refill", "", Scenario(), steps=())
    broken = Lesson("x", "X", "Refill", "", Scenario().grid("f ? ? ? / ? ? ? ? / ? ? ? ?")
                    .seen(0), steps=(Step("Refill.", accept=Refill(0)),))
    session = broken.session()
    with pytest.raises(RuntimeError, match="its solution does not solve it"):
        session.next()


def test_a_custom_goal_may_be_any_function_of_the_learners_view() -> None:
    pair = Step("Collect a pair you remember.", goal=collected(),
                allow=[{"type": "activate"}, {"type": "deactivate"}],
                solution=(Activate(0), Activate(5), EndPhase()))
    quick = Step("Pass.", goal=lambda ctx: ctx.observation["phase"] == "binding",
                 solution=EndPhase())
    lsn = Lesson("custom", "Custom", "Activation and Collection", "",
                 Scenario().grid("e ? ? ? / ? e ? ? / ? ? ? ?").seen(0, 5), steps=(pair, quick))
    session = lsn.session()
    assert [session.try_action(a)["kind"] for a in pair.solution] == ["progress", "progress",
                                                                      "solved"]
    assert matches({"type": "activate"}, Activate(3))


def test_restart_begins_the_lesson_again() -> None:
    session = lesson("token-sources").session()
    start = session.game.state_hash()
    session.next()
    session.try_action(EndPhase())
    session.restart()
    assert session.game.state_hash() == start and session.index == 0
    assert (session.mistakes, session.skipped, session.status) == (0, [], "playing")


RECALL_LESSONS = [lsn for lsn in COURSE if lsn.recall]


def _asks_for_remembered_cards(lsn: Lesson) -> bool:
    """The lesson's learner starts out knowing an inert card (one they must remember)."""
    scenario = lsn.scenario
    grid = scenario.build().observation(None)["grid"]
    return any(grid[s]["card"] == "inert" for s in scenario.seen_cards(scenario.learner))


def _memory_steps(lsn: Lesson) -> list[int]:
    return [i for i, step in enumerate(lsn.steps) if step.hints[0].startswith("Think back")]


def test_every_lesson_that_asks_for_remembered_cards_has_a_recall_version() -> None:
    asking = {lsn.id for lsn in COURSE if not lsn.recall and _asks_for_remembered_cards(lsn)}
    assert len(asking) >= 10
    versions = {lsn.recall_of: lsn for lsn in RECALL_LESSONS}
    assert set(versions) == asking
    for original, version in versions.items():
        assert (version.rule, version.section) == (lesson(original).rule,
                                                   lesson(original).section)


@pytest.mark.parametrize("lsn", RECALL_LESSONS, ids=[lsn.id for lsn in RECALL_LESSONS])
def test_a_recall_lesson_names_elements_and_its_hints_escalate(lsn: Lesson) -> None:
    memory = _memory_steps(lsn)
    assert memory, "a recall lesson asks for remembered cards at least once"
    for i in memory:
        step = lsn.steps[i]
        assert "slot" not in step.instruction, step.instruction
        # First where to think back to (no slot), then the slots, then the moves.
        assert "slot" not in step.hints[0].lower() and "slot" in step.hints[1], step.hints
    # The cards are shown once at the start, as a deal is, and are not handed out after.
    session = lsn.session()
    shown = sorted(ev["slot"] for ev in session.events if ev["type"] == "reveal")
    assert shown and set(shown) <= set(session.known)
    assert "You remember" not in json.dumps(session.state())


@pytest.mark.parametrize("lsn", RECALL_LESSONS, ids=[lsn.id for lsn in RECALL_LESSONS])
def test_a_learner_who_remembers_passes_a_recall_lesson_at_the_first_try(lsn: Lesson) -> None:
    session = lsn.session()
    play_solutions(session)
    state = session.state()
    assert state["done"] and state["mistakes"] == 0 and state["hints_used"] == 0
    assert state["recall"] == {"asked": len(lsn.steps), "first_try": len(lsn.steps)}


@pytest.mark.parametrize("lsn", RECALL_LESSONS, ids=[lsn.id for lsn in RECALL_LESSONS])
def test_a_learner_who_forgets_gets_escalating_hints_and_no_first_try(lsn: Lesson) -> None:
    session = lsn.session()
    memory = _memory_steps(lsn)
    for i, step in enumerate(lsn.steps):
        if i in memory:
            first, second, last = session.hint(), session.hint(), session.hint()
            assert first.startswith("Think back") and "slot" not in first.lower()
            assert "slot" in second
            assert last.startswith("Show me")
            assert session.hint() == last, "the last hint stays the last"
        for action in step.solution:
            session.try_action(action)
        if not session.done:
            session.next()
    state = session.state()
    assert state["done"] and state["hints_used"] == 3 * len(memory)
    assert state["recall"] == {"asked": len(lsn.steps), "first_try": len(lsn.steps) - len(memory)}


@pytest.mark.parametrize("lsn", RECALL_LESSONS, ids=[lsn.id for lsn in RECALL_LESSONS])
def test_a_guess_in_a_recall_lesson_is_refused_without_handing_the_cards_out(
        lsn: Lesson) -> None:
    session = lsn.session()
    while session.step.hints[0][:10] != "Think back":
        session.next()
    legal = session.game.legal_actions()
    guesses = [a for a in legal if isinstance(a, Activate)
               and session.memory.element(a.slot) is None]
    if not guesses:
        pytest.skip("this lesson's memory step is not an activation")
    feedback = session.try_action(guesses[0])
    assert feedback["kind"] == "unseen"
    assert "Think back" in feedback["text"] and "You remember" not in feedback["text"]
    assert session.mistakes == 1
