// Unit tests of the lesson mode and the teacher's memory panel: jsdom and a fake anywidget model.
// Run with `node --test js/tests/` from the repository root.
import { test } from "node:test";
import assert from "node:assert/strict";

import { MODES } from "../src/index.js";
import { FEEDBACK_LOOKS, nextAction, renderLesson, stepsDone } from "../src/lesson.js";
import { memoryPanel } from "../src/memory.js";
import { FakeModel, dom, mount as mountModel, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));

function view(extra = {}) {
  return {
    viewer: 0, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS,
    grid_rows: 3, grid_cols: 4, deck: { count: 36, top: "wind" },
    grid: Array.from({ length: 12 }, () => ({ card: "inert", element: null, tokens: {} })),
    players: [{ name: "You", study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [] }],
    supply: counts(5), pool: counts(), activations: { used: 0, limit: 3 }, collect_threshold: 2,
    effects: [], powers_used: [], is_over: false, end_reason: null, scores: [0], winners: [], ...extra,
  };
}

/** The shape of LessonWidget.lesson (LessonSession.state() and the course place). */
function lessonState(extra = {}) {
  return {
    lesson: "activate-collect", title: "Activate and collect", section: "Activation and Collection",
    rule: "The active player may activate up to 3 Leylines.", intro: "Collect a pair.",
    step: 0, total: 3, instruction: "Activate one of the two Water cards.", status: "playing",
    done: false, feedback: null, hints: [], hints_left: 2, mistakes: 0, skipped: [], player: 0,
    index: 0, count: 12, epoch: 0, next_lesson: "deactivate-pass", ...extra,
  };
}

const LESSONS = [
  { id: "activate-collect", title: "Activate and collect", status: "started", current: true },
  { id: "deactivate-pass", title: "Deactivate, and pass", status: "done", current: false },
  { id: "flip-back", title: "Flip back", status: "new", current: false },
];

function remembered() {
  const out = Array(12).fill(null);
  out[1] = "water";
  out[6] = "water";
  out[3] = "fire";
  return out;
}

function state(extra = {}) {
  return {
    mode: "lesson", view: view(), info: { elements: ELEMENTS, players: [{ name: "You", bot: null }], powers: [] },
    legal: { step: 0, actor: 0, end: true, activate: [...Array(12).keys()], deactivate: [], blocked: {}, powers: {}, why_power: {} },
    error: "", ack: 0, reveal_ms: 1500, events: { seq: 1, step: 0, items: [] },
    lesson: lessonState(), lessons: LESSONS, remembered: remembered(), ...extra,
  };
}

const mount = (st) => mountModel(new FakeModel(st));
const panelOf = (el) => el.querySelector(".ll-lesson");
const card = (el, slot) => el.querySelector(`[data-act=card][data-slot="${slot}"]`);

test("lesson mode: the lesson panel above the unchanged play board", async () => {
  assert.equal(typeof MODES.lesson, "function");
  const { el, cleanup } = mount(state());
  await tick();
  const panel = panelOf(el);
  assert.ok(panel, "lesson panel");
  assert.ok(el.querySelector(".ll-lessonboard .leyline .ll-grid"), "the play board below it");
  assert.equal(el.querySelector(".ll-lessonboard .leyline").getAttribute("data-mode"), "lesson");
  assert.match(panel.querySelector(".ll-ltitle").textContent, /^Lesson 1 of 12 · Activate and collect$/);
  assert.equal(panel.querySelector(".ll-stepno").textContent, "Step 1 of 3");
  assert.match(panel.querySelector(".ll-instruction").textContent, /Your task: Activate one of the two Water/);
  const bar = panel.querySelector("[role=progressbar]");
  assert.equal(bar.getAttribute("aria-valuenow"), "0");
  assert.equal(bar.getAttribute("aria-valuemax"), "3");
  assert.match(panel.querySelector("blockquote").textContent, /activate up to 3 Leylines/);
  const live = panel.querySelector(".ll-feedback");
  assert.equal(live.getAttribute("aria-live"), "polite");
  assert.ok(live.classList.contains("ll-hidden"), "no feedback yet");
  // Course navigator: every lesson, its progress, the current one chosen.
  const options = [...panel.querySelectorAll("[data-act=lesson-pick] option")];
  assert.deepEqual(options.map((o) => o.textContent), [
    "1. Activate and collect … (in progress)", "2. Deactivate, and pass ✓ (done)", "3. Flip back (not started)"]);
  assert.equal(panel.querySelector("[data-act=lesson-pick]").value, "activate-collect");
  assert.equal(panel.querySelector(".ll-coursedone").textContent, "1 of 3 lessons done");
  cleanup();
});

test("remembered cards are drawn faintly with their element; unseen cards stay blank", async () => {
  const { el, model, cleanup } = mount(state());
  await tick();
  for (const [slot, element] of [[1, "water"], [3, "fire"], [6, "water"]]) {
    const c = card(el, slot);
    assert.ok(c.classList.contains("ll-remembered"), `slot ${slot}`);
    assert.equal(c.getAttribute("data-element"), element);
    assert.match(c.getAttribute("aria-label"), new RegExp(`inert card you remember as ${element[0].toUpperCase()}`));
  }
  for (const slot of [0, 2, 4, 5, 7, 8, 9, 10, 11]) {
    const c = card(el, slot);
    assert.ok(c.classList.contains("ll-inert"));
    assert.equal(c.getAttribute("data-element"), null);
  }
  assert.match(panelOf(el).textContent, /remembered/);
  // An activated card shows its own face, not the memory.
  const grid = view().grid.slice();
  grid[3] = { card: "active", element: "fire", tokens: {} };
  const mem = remembered();
  mem[3] = null;
  model.update({ view: view({ grid }), remembered: mem, ack: 1 });
  await tick();
  assert.ok(card(el, 3).classList.contains("ll-active"));
  // Nothing remembered: no legend, no faint cards.
  model.update({ remembered: Array(12).fill(null), ack: 2 });
  await tick();
  assert.equal(el.querySelectorAll(".ll-remembered").length, 0);
  assert.doesNotMatch(panelOf(el).textContent, /remembered/);
  cleanup();
});

test("a card click goes to the kernel as an action; the lesson grades it", async () => {
  const { el, model, cleanup } = mount(state());
  await tick();
  card(el, 2).click();
  assert.deepEqual(model.sent, [{ type: "action", action: { type: "activate", slot: 2 }, step: 0 }]);
  cleanup();
});

test("feedback: every kind has a word and a tone, in an ARIA live region", async () => {
  const { el, model, cleanup } = mount(state());
  const tones = {};
  for (const [kind, look] of Object.entries(FEEDBACK_LOOKS)) {
    model.update({ lesson: lessonState({ feedback: { kind, text: `Text of ${kind}.`, rule: "" } }) });
    await tick();
    const live = panelOf(el).querySelector("[role=status]");
    assert.equal(live.getAttribute("aria-live"), "polite");
    assert.equal(live.getAttribute("aria-atomic"), "true");
    assert.equal(live.getAttribute("data-kind"), kind);
    assert.ok(live.classList.contains(`ll-fb-${look.tone}`), kind);
    assert.equal(live.textContent, `${look.label}: Text of ${kind}.`);
    tones[kind] = look.tone;
  }
  for (const kind of ["illegal", "unseen", "wrong"]) assert.equal(tones[kind], "bad");
  assert.equal(tones.solved, "good");
  assert.equal(tones.done, "good");
  assert.equal(tones.progress, "ok");
  cleanup();
});

test("controls: Hint, Retry, Next/Skip and Restart send their messages", async () => {
  const { el, model, cleanup } = mount(state());
  await tick();
  const click = async (act) => {
    panelOf(el).querySelector(`[data-act=${act}]`).click();
    await tick();
  };
  await click("lesson-hint");
  await click("lesson-retry");
  await click("lesson-next");
  await click("lesson-restart");
  assert.deepEqual(model.sent, [{ type: "hint" }, { type: "retry" }, { type: "next" }, { type: "restart" }]);
  assert.equal(panelOf(el).querySelector("[data-act=lesson-next]").textContent, "Skip step (show me)");
  // No hints left: the button says so and sends nothing. A wrong move makes Retry the primary.
  model.sent = [];
  model.update({ lesson: lessonState({ hints: ["One.", "Show me: activate slot 1."], hints_left: 0, status: "wrong" }), ack: 1 });
  await tick();
  const panel = panelOf(el);
  assert.equal(panel.querySelector("[data-act=lesson-hint]").getAttribute("aria-disabled"), "true");
  assert.equal(panel.querySelector("[data-act=lesson-hint]").textContent, "No more hints");
  assert.deepEqual([...panel.querySelectorAll(".ll-hints li")].map((li) => li.textContent),
    ["One.", "Show me: activate slot 1."]);
  assert.ok(panel.querySelector("[data-act=lesson-retry]").classList.contains("ll-primary"));
  await click("lesson-hint");
  assert.deepEqual(model.sent, []);
  // Solved: Next step. Done: the next lesson, then nothing after the last one.
  model.update({ lesson: lessonState({ status: "solved" }), ack: 2 });
  await tick();
  assert.equal(panelOf(el).querySelector("[data-act=lesson-next]").textContent, "Next step →");
  model.update({ lesson: lessonState({ status: "done", done: true, step: 2 }), ack: 3 });
  await tick();
  assert.equal(panelOf(el).querySelector(".ll-stepno").textContent, "All 3 steps done");
  assert.equal(panelOf(el).querySelector("[role=progressbar]").getAttribute("aria-valuenow"), "3");
  await click("lesson-next");
  assert.deepEqual(model.sent, [{ type: "goto", lesson: "deactivate-pass" }]);
  model.update({ lesson: lessonState({ status: "done", done: true, step: 2, next_lesson: null }), ack: 4 });
  await tick();
  assert.equal(panelOf(el).querySelector("[data-act=lesson-next]").getAttribute("aria-disabled"), "true");
  assert.equal(panelOf(el).querySelector("[data-act=lesson-next]").textContent, "Lesson complete ✓");
  cleanup();
});

test("the navigator's menu opens another lesson; buttons keep focus across updates", async () => {
  const { el, model, window, cleanup } = mount(state());
  await tick();
  const select = panelOf(el).querySelector("[data-act=lesson-pick]");
  select.value = "flip-back";
  select.dispatchEvent(new window.Event("change", { bubbles: true }));
  assert.deepEqual(model.sent, [{ type: "goto", lesson: "flip-back" }]);
  const retry = panelOf(el).querySelector("[data-act=lesson-retry]");
  retry.focus();
  model.update({ lesson: lessonState({ status: "wrong", mistakes: 1 }), ack: 1 });
  await tick();
  assert.equal(window.document.activeElement, retry, "the same button node, still focused");
  assert.equal(panelOf(el).querySelector(".ll-mistakes").textContent, "1 mistake");
  cleanup();
});

test("a new epoch (retry, restart, skip, another lesson) starts the board afresh", async () => {
  const { el, model, cleanup } = mount(state({ reveal_ms: 60_000 }));
  await tick();
  model.update({
    events: { seq: 2, step: 1, items: [{ type: "reveal", slot: 5, element: "earth", cause: "refill", visible_to: "all" }] },
    ack: 1,
  });
  await tick();
  assert.ok(card(el, 5).classList.contains("ll-glimpse"));
  assert.match(el.querySelector(".ll-log").textContent, /Slot 5 refilled/);
  model.update({ lesson: lessonState({ epoch: 1 }), events: { seq: 3, step: 0, items: [] }, ack: 2 });
  await tick();
  assert.ok(card(el, 5).classList.contains("ll-inert"), "the undone glimpse is gone");
  assert.equal(card(el, 5).getAttribute("data-element"), null);
  assert.equal(el.querySelector(".ll-log").textContent, "");
  assert.equal(el.querySelectorAll(".ll-grid").length, 1);
  cleanup();
  assert.equal(model.listeners(), 0);
  assert.equal(el.children.length, 0);
});

test("a skipped step highlights what its solution did, in words too; the next move clears it", async () => {
  const { el, model, cleanup } = mount(state());
  await tick();
  assert.equal(el.querySelectorAll(".ll-shown").length, 0);
  const grid = view().grid.slice();
  grid[1] = { card: "active", element: "water", tokens: {} };
  model.update({
    view: view({ grid }), ack: 1,
    lesson: lessonState({ step: 1, epoch: 1, skipped: [0], shown: { 1: ["activated"] },
      feedback: { kind: "skipped", text: "You activated slot 1." } }),
  });
  await tick();
  const c = card(el, 1);
  assert.ok(c.classList.contains("ll-shown") && c.classList.contains("ll-marked"));
  assert.match(c.getAttribute("aria-label"), /\. The skipped step: activated(\.|$)/);
  assert.equal(c.querySelector(".ll-mk-activated").textContent, "▲");
  assert.equal(el.querySelectorAll(".ll-shown").length, 1, "only the slot it played");
  // The learner's next move: the kernel drops the highlight.
  model.update({ lesson: lessonState({ step: 1, epoch: 1, skipped: [0], shown: {} }), ack: 2 });
  await tick();
  assert.equal(el.querySelectorAll(".ll-shown, .ll-marked").length, 0);
  cleanup();
});

test("the course menu counts a lesson finished in another lesson widget, and says so", async () => {
  const lessons = [LESSONS[0], LESSONS[1], { ...LESSONS[2], status: "done", elsewhere: true }];
  const { el, cleanup } = mount(state({ lessons }));
  await tick();
  const options = [...panelOf(el).querySelectorAll("[data-act=lesson-pick] option")];
  assert.equal(options[2].textContent, "3. Flip back ✓ (done in another lesson widget)");
  assert.equal(panelOf(el).querySelector(".ll-coursedone").textContent, "2 of 3 lessons done");
  cleanup();
});

test("pure helpers: steps done and the Next action", () => {
  assert.equal(stepsDone(lessonState({ step: 1 })), 1);
  assert.equal(stepsDone(lessonState({ step: 1, status: "solved" })), 2);
  assert.equal(stepsDone(lessonState({ done: true, status: "done" })), 3);
  assert.deepEqual(nextAction(lessonState()).message, { type: "next" });
  assert.equal(nextAction(lessonState({ done: true, next_lesson: null })).message, null);
  const window = dom();
  const loading = renderLesson({}, window.document);
  assert.match(loading.textContent, /Loading/);
});

// ---------------------------------------------------------------------------- memory panel
function report() {
  const slots = Array.from({ length: 12 }, (_, s) => ({
    slot: s, state: "inert", tokens: {}, card: ELEMENTS[s % 4], seen: s < 8, remembered: s < 8 ? ELEMENTS[s % 4] : null,
    seen_step: s < 8 ? 0 : null, seen_turn: s < 8 ? 1 : null, how: s < 8 ? "setup" : null, turns_ago: s < 8 ? 2 : null,
  }));
  slots[11] = { ...slots[11], state: "empty", card: null };
  return {
    player: 1, name: "Grace", step: 9, turn: 3, slots, seen: [0, 1, 2, 3, 4, 5, 6, 7], never_seen: [8, 9, 10],
    missed: [{ turn: 2, step: 4, best: 2, plan: { water: 2 }, options: { water: [1, 5] }, collected: {}, got: 0, elements: ["water"] }],
    summary: { cards: 11, seen: 8, never_seen: 3, missed: 1 },
  };
}

function teacherState(extra = {}) {
  const players = [{ name: "Ada", bot: null }, { name: "Grace", bot: null }];
  return {
    ...state(), mode: "play", lesson: undefined, lessons: undefined, remembered: undefined,
    view: view({ viewer: null, players: players.map((p) => ({ ...view().players[0], name: p.name })), scores: [0, 0] }),
    info: { elements: ELEMENTS, players, powers: [] }, memory: report(), show_memory_of: 1, ...extra,
  };
}

test("memory panel: seen (when, how), never seen, and missed collections", () => {
  const window = dom();
  const st = teacherState();
  const panel = memoryPanel(window.document, st);
  assert.equal(panel.getAttribute("aria-label"), "Memory of Grace");
  assert.match(panel.textContent, /Seen 8 of 11 cards on the grid; never seen: slots 8, 9 and 10\./);
  const cells = [...panel.querySelectorAll(".ll-mem")];
  assert.equal(cells.length, 12);
  assert.equal(cells[1].getAttribute("data-seen"), "true");
  assert.match(cells[1].getAttribute("aria-label"), /Slot 1: Water, seen on turn 1, at set-up/);
  assert.equal(cells[9].getAttribute("data-seen"), "false");
  assert.match(cells[9].getAttribute("aria-label"), /Slot 9: Water, never seen/);
  assert.ok(cells[11].classList.contains("ll-mem-empty"));
  assert.match(panel.querySelector(".ll-missed").textContent,
    /Turn 2: could have collected 2 from what they had seen — 2 Water \(slots 1 and 5\); collected 0 \(missed Water\)\./);
  assert.equal(memoryPanel(window.document, { ...st, memory: {} }), null);
  const none = memoryPanel(window.document, { ...st, memory: { ...report(), missed: [] } });
  assert.match(none.textContent, /None so far/);
});

test("the live teacher view shows the panel, and its menu switches the player", async () => {
  const { el, model, window, cleanup } = mount(teacherState());
  await tick();
  const panel = el.querySelector(".ll-memory");
  assert.ok(panel, "memory panel in the play board");
  const select = panel.querySelector("[data-act=memory-of]");
  assert.equal(select.value, "1");
  select.value = "0";
  select.dispatchEvent(new window.Event("change", { bubbles: true }));
  assert.equal(model.get("show_memory_of"), 0);
  assert.equal(model.saved, 1);
  model.update({ memory: {}, ack: 1 });
  await tick();
  assert.equal(el.querySelector(".ll-memory"), null, "no report, no panel");
  cleanup();
});
