// Lessons (LessonWidget, mode "lesson"). A lesson page is a lesson
// panel (course navigator, instruction, step k of n, hints, feedback, controls) above the play
// board, mounted unchanged: the kernel grades every click with the lesson, so the board needs
// nothing lesson-specific beyond drawing the cards the learner remembers (`remembered`).
import { hostTheme } from "./board.js";
import { h } from "./dom.js";
import { mount } from "./mount.js";
import { playMode } from "./play.js";
import { plural } from "./words.js";

/** @typedef {import("./types").LessonEntry} LessonEntry */
/** @typedef {import("./types").LessonPanelState} LessonPanelState */
/** @typedef {import("./types").LessonState} LessonState */

/**
 * How each kind of lesson feedback looks and reads: a word first, never colour alone.
 * @type {Record<string, {tone: string, label: string}>}
 */
export const FEEDBACK_LOOKS = {
  illegal: { tone: "bad", label: "Not allowed" },
  unseen: { tone: "bad", label: "That would be a guess" },
  wrong: { tone: "bad", label: "Not what this step asks" },
  retry: { tone: "info", label: "Retry first" },
  progress: { tone: "ok", label: "Good" },
  solved: { tone: "good", label: "Solved" },
  done: { tone: "good", label: "Lesson complete" },
  skipped: { tone: "info", label: "Shown" },
};

/** @type {Record<string, string>} */
const LESSON_STATUS = { new: "not started", started: "in progress", done: "done" };

/**
 * What the Next button does and says for a lesson state.
 * @param {LessonState} lesson
 * @returns {{label: string, message: object | null}}
 */
export function nextAction(lesson) {
  if (lesson.done) {
    return lesson.next_lesson ? { label: "Next lesson →", message: { type: "goto", lesson: lesson.next_lesson } }
      : { label: "Lesson complete ✓", message: null };
  }
  if (lesson.status === "solved") return { label: "Next step →", message: { type: "next" } };
  return { label: "Skip step (show me)", message: { type: "next" } };
}

/**
 * Steps finished in this lesson (what the progress bar shows).
 * @param {LessonState} lesson
 * @returns {number}
 */
export function stepsDone(lesson) {
  if (lesson.done) return lesson.total;
  return lesson.step + (lesson.status === "solved" ? 1 : 0);
}

/**
 * @param {Document} doc
 * @param {LessonPanelState} st
 * @returns {HTMLElement | null}
 */
function courseNav(doc, st) {
  const lessons = st.lessons || [];
  if (lessons.length < 2) return null;
  const done = lessons.filter((l) => l.status === "done").length;
  return h(doc, "nav", { class: "ll-course", "aria-label": "Course" },
    h(doc, "label", { class: "ll-pick" }, "Lesson ",
      h(doc, "select", { "data-act": "lesson-pick", "aria-label": "Choose a lesson" },
        lessons.map((l, i) => h(doc, "option", { value: l.id, selected: l.current },
          `${i + 1}. ${l.title}${l.status === "done" ? " ✓" : l.status === "started" ? " …" : ""}` +
          ` (${l.elsewhere ? "done in another lesson widget" : LESSON_STATUS[l.status] || l.status})`)))),
    h(doc, "span", { class: "ll-coursedone" }, `${done} of ${plural(lessons.length, "lesson")} done`));
}

/**
 * The lesson panel as a fresh DOM tree, from {lesson, lessons, ack} (pure).
 * @param {LessonPanelState} st
 * @param {Document} doc
 * @returns {HTMLElement}
 */
export function renderLesson(st, doc) {
  const lesson = st.lesson || {};
  if (!lesson.lesson) return h(doc, "div", { class: "leyline ll-lesson" }, "Loading the lesson…");
  const fb = lesson.feedback;
  const look = fb ? FEEDBACK_LOOKS[fb.kind] || { tone: "info", label: fb.kind } : null;
  const finished = stepsDone(lesson);
  const next = nextAction(lesson);
  const wrong = lesson.status === "wrong";
  /**
   * @param {string} act
   * @param {string} label
   * @param {{primary?: boolean, disabled?: boolean, title?: string}} [extra]
   */
  const btn = (act, label, extra = {}) => h(doc, "button", {
    type: "button", class: `ll-btn${extra.primary ? " ll-primary" : ""}`, "data-act": act,
    "aria-disabled": extra.disabled ? "true" : null, title: extra.title || null,
  }, label);
  const number = lesson.count > 1 ? `Lesson ${lesson.index + 1} of ${lesson.count} · ` : "";
  return h(doc, "div", {
    class: "leyline ll-lesson", "data-lesson": lesson.lesson, "data-status": lesson.status,
    "data-lesson-step": lesson.step, "data-ack": st.ack === undefined ? "" : st.ack,
    "data-ll-theme": hostTheme(doc),
  },
  courseNav(doc, st),
  h(doc, "header", { class: "ll-lhead" },
    h(doc, "h3", { class: "ll-ltitle" }, number, lesson.title),
    h(doc, "span", { class: "ll-tag" }, lesson.section)),
  lesson.intro ? h(doc, "p", { class: "ll-intro" }, lesson.intro) : null,
  h(doc, "details", { class: "ll-rule" }, h(doc, "summary", {}, "The rule this lesson teaches"),
    h(doc, "blockquote", {}, lesson.rule)),
  h(doc, "div", { class: "ll-progress" },
    h(doc, "span", { class: "ll-stepno" }, lesson.done ? `All ${plural(lesson.total, "step")} done`
      : `Step ${lesson.step + 1} of ${lesson.total}`),
    h(doc, "span", {
      class: "ll-bar", role: "progressbar", "aria-label": "Steps done", "aria-valuemin": 0,
      "aria-valuemax": lesson.total, "aria-valuenow": finished,
      "aria-valuetext": `${finished} of ${plural(lesson.total, "step")} done`,
    }, h(doc, "span", { class: "ll-fill", style: `width:${Math.round((100 * finished) / Math.max(1, lesson.total))}%` })),
    lesson.mistakes ? h(doc, "span", { class: "ll-mistakes" }, plural(lesson.mistakes, "mistake")) : null),
  lesson.done ? lessonSummary(doc, lesson) : h(doc, "p", { class: "ll-instruction" }, h(doc, "strong", {}, "Your task: "),
    lesson.instruction),
  h(doc, "div", {
    class: `ll-feedback${look ? ` ll-fb-${look.tone}` : " ll-hidden"}`, role: "status",
    "aria-live": "polite", "aria-atomic": "true", "data-kind": fb ? fb.kind : null,
  }, fb ? [h(doc, "strong", {}, `${/** @type {{label: string}} */ (look).label}: `), fb.text] : null),
  (lesson.hints || []).length ? h(doc, "ul", { class: "ll-hints", "aria-label": "Hints" },
    lesson.hints.map((t) => h(doc, "li", {}, t))) : null,
  h(doc, "div", { class: "ll-controls", role: "group", "aria-label": "Lesson controls" },
    btn("lesson-hint", lesson.done ? "Hint" : lesson.hints_left ? `Hint (${lesson.hints_left} left)` : "No more hints",
      { disabled: !lesson.hints_left || lesson.done, title: "Show the next hint; the last one names the moves" }),
    btn("lesson-retry", "Retry step", { primary: wrong, disabled: lesson.done, title: "Put the cards back as they were when this step began" }),
    btn("lesson-next", next.label, { primary: !wrong && (lesson.status === "solved" || lesson.done), disabled: !next.message }),
    btn("lesson-restart", "Restart lesson", { title: "Start this lesson again from the beginning" })),
  (st.remembered || []).some((e) => e) ? h(doc, "p", { class: "ll-note" },
    "Faint cards marked “remembered” are inert cards you know: given by the lesson, or seen when they were revealed to you.") : null);
}

/**
 * A finished lesson: what it taught, how it went, and the way on (the board is put away).
 * @param {Document} doc
 * @param {LessonState} lesson
 * @returns {HTMLElement}
 */
export function lessonSummary(doc, lesson) {
  const recall = lesson.recall;
  const facts = [
    `${plural(lesson.total, "step")} done`,
    lesson.mistakes ? plural(lesson.mistakes, "mistake") : "no mistakes",
    lesson.hints_used ? plural(lesson.hints_used, "hint") + " used" : "no hints",
  ];
  if (recall && recall.asked) facts.push(`${recall.first_try} of ${recall.asked} recalled at the first try`);
  if ((lesson.skipped || []).length) facts.push(`${plural(lesson.skipped.length, "step")} shown rather than played`);
  return h(doc, "section", { class: "ll-lsummary", "aria-label": "Lesson summary" },
    h(doc, "p", { class: "ll-instruction" }, h(doc, "strong", {}, "Lesson complete. "), lesson.summary || ""),
    h(doc, "p", {}, `${facts.join(" · ")}.`),
    lesson.next_lesson ? h(doc, "p", { class: "ll-note" }, `Next: ${lesson.next_title || lesson.next_lesson}.`)
      : h(doc, "p", { class: "ll-note" }, "That was the last lesson of the course."));
}

/** @type {import("./types").Mode} */
export function lessonMode({ model, el }) {
  return mount(model, el, "leyline ll-lesson", (m) => {
    const host = m.doc.createElement("div");
    host.className = "ll-lessonboard";
    el.append(host);
    let board = playMode({ model, el: host });
    /** @type {number | undefined} */
    let epoch = (model.get("lesson") || {}).epoch;

    /** @returns {LessonPanelState} */
    const state = () => ({
      lesson: model.get("lesson") || {}, lessons: model.get("lessons") || [], ack: model.get("ack"),
      remembered: model.get("remembered") || [],
    });

    function onChange() {
      const now = (model.get("lesson") || {}).epoch;
      if (now !== epoch) {
        // The kernel put the board back (retry, restart, skip, another lesson): brief reveals and
        // log lines of the undone attempt must not linger, so the board starts afresh.
        epoch = now;
        board();
        board = playMode({ model, el: host });
      }
      m.schedule();
    }

    /** @param {MouseEvent} event */
    function onClick(event) {
      const button = /** @type {Element} */ (event.target).closest("[data-act]");
      if (!button || !m.root().contains(button) || button.getAttribute("aria-disabled") === "true") return;
      const act = button.getAttribute("data-act") || "";
      /** @type {Record<string, string>} */
      const simple = { "lesson-hint": "hint", "lesson-retry": "retry", "lesson-restart": "restart" };
      /** @type {object | null} */
      let message = simple[act] ? { type: simple[act] } : null;
      if (act === "lesson-next") message = nextAction(model.get("lesson") || {}).message;
      if (!message) return;
      button.classList.add("ll-pending");
      model.send(message);
    }

    /** @param {Event} event */
    function onPick(event) {
      const target = /** @type {HTMLSelectElement | null} */ (event.target);
      if (target && target.getAttribute("data-act") === "lesson-pick") model.send({ type: "goto", lesson: target.value });
    }

    return {
      draw: () => {
        const st = state();
        // A finished lesson is finished: its summary and the next lesson, no live board.
        host.hidden = Boolean(st.lesson.done);
        m.show(renderLesson(st, m.doc));
      },
      onChange,
      listeners: { click: onClick, change: onPick },
      teardown() {
        board();
        host.remove();
      },
    };
  });
}
