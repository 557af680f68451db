// The replay page's parts on their own: each panel (replay_panels.js) rendered in jsdom from a
// state alone, the standalone page's book look-ups (book.js) as plain functions, and the
// controller's click table against the buttons the page draws. Run with `node --test js/tests/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import { bookState, chainOf, deriveBook, lineEntries, ownerOf, shelfOf, viewerKey } from "../src/book.js";
import { REPLAY_CLICKS, renderReplay, replayState } from "../src/replay.js";
import {
  acting, dealShown, happenedPanel, lastStep, newReplayUi, noteItem, notesPanel, pickers, shownStep, transportBar,
} from "../src/replay_panels.js";
import { whole } from "../src/dom.js";
import { FakeModel, dom } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = () => Object.fromEntries(ELEMENTS.map((e) => [e, 0]));
const INFO = {
  elements: ELEMENTS, players: [{ name: "Ada", bot: null }, { name: "Bo <b>", bot: null }], powers: [],
  thresholds: { minor: 2, major: 5 }, activations: 3, collect_threshold: 2, turn_limit: null,
};
const SETUP = [0, 1, 2, 3].map((slot) => ({ type: "reveal", slot, element: ELEMENTS[slot], cause: "setup", visible_to: "all" }));
const LINE = [
  { turn: 1, player: 0, phase: "activation", action: null, events: SETUP },
  { turn: 1, player: 0, phase: "activation", action: { type: "activate", slot: 0 }, events: [{ type: "activate", player: 0, slot: 0, element: "fire" }] },
  { turn: 1, player: 0, phase: "activation", action: { type: "end_phase" }, events: [{ type: "flip_back", player: 0, slots: [0] }] },
];
const LINES = [{ id: 0, name: "Main line", parent: null, start: 0, end: 2 }, { id: 1, name: "Side <i>", parent: 0, start: 1, end: 2 }];

function view(extra = {}) {
  const player = (name) => ({ name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [] });
  return {
    viewer: null, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS, grid_rows: 2, grid_cols: 2,
    deck: { count: 8, top: "wind" }, grid: ELEMENTS.map((element) => ({ card: "inert", element, tokens: {} })),
    players: [player("Ada"), player("Bo")], supply: counts(), pool: counts(), activations: { used: 0, limit: 3 },
    collect_threshold: 2, effects: [], powers_used: [], is_over: false, end_reason: null, scores: [0, 0], winners: [], ...extra,
  };
}

/** A replay state at `step` (the position shown is the one asked for unless `legal` says otherwise). */
function state(step, extra = {}) {
  return {
    mode: "replay", view: view(), legal: { step, actor: null, variation: 0 }, info: INFO, error: "", ack: 0, step,
    variation: 0, viewer: null, viewers: [null, 0, 1], lines: LINES, line: LINE, annotations: [], memory: {},
    show_memory_of: null, memory_choices: [0, 1], hide_tags: ["spoiler"], editable: true, reveal_ms: 100, glyphs: {},
    scores: [], explore: false, allow_explore: false, choices: [], train: null, downloads: null, analyses: [],
    analysis_progress: null, ...extra,
  };
}

const doc = () => dom().document;
const acts = (node) => [...node.querySelectorAll("[data-act]")].map((b) => b.getAttribute("data-act"));

test("steps: the shown step is the kernel's until the one asked for arrives; the board acts only there", () => {
  assert.equal(lastStep(state(0)), 2);
  assert.equal(lastStep({ line: [] }), 0);
  assert.equal(shownStep(state(2, { legal: { step: 1 } })), 1, "asked for 2, 1 still shown");
  assert.equal(shownStep({ step: 2 }), 2);
  assert.equal(acting(state(1)), false, "no choices: nothing to play");
  const choices = [{ action: { type: "end_phase" }, text: "End" }];
  assert.equal(acting(state(1, { choices })), true);
  assert.equal(acting(state(2, { choices, legal: {} })), false, "no position summary for the shown step yet");
});

test("transport bar: the ends disable their buttons, the slider and words say the step", () => {
  const d = doc();
  const start = transportBar(d, state(0), newReplayUi());
  assert.deepEqual(acts(start), ["first", "back", "play", "forward", "last", "scrub", "speed"]);
  assert.equal(start.querySelector("[data-act=back]").getAttribute("aria-disabled"), "true");
  assert.equal(start.querySelector("[data-act=forward]").getAttribute("aria-disabled"), null);
  assert.equal(start.querySelector(".ll-stepof").textContent, "Step 0 / 2");
  const end = transportBar(d, state(2), { ...newReplayUi(), playing: true, speed: 400 });
  assert.equal(end.querySelector("[data-act=last]").getAttribute("aria-disabled"), "true");
  assert.equal(end.querySelector("[data-act=play]").textContent, "❚❚ Pause");
  assert.equal(end.querySelector("[data-act=play]").getAttribute("aria-pressed"), "true");
  assert.equal(end.querySelector("[data-act=scrub]").getAttribute("aria-valuetext"), "Step 2 of 2");
  assert.equal(end.querySelector("option[selected]").textContent, "fast");
});

test("pickers: lines (a variation indented, its untrusted name as text), viewers, the teacher's memory menu", () => {
  const d = doc();
  const all = pickers(d, state(0));
  const options = [...all.querySelectorAll("[data-act=line] option")].map((o) => o.textContent);
  assert.deepEqual(options, ["Main line (2 moves)", "↳ Side <i> (from step 1, 1 move)"]);
  assert.equal(all.querySelector("[data-act=line] i"), null);
  const viewers = [...all.querySelectorAll("[data-act=viewer] option")].map((o) => o.textContent);
  assert.deepEqual(viewers, ["All-seeing (teacher)", "Ada", "Bo <b>"]);
  assert.ok(all.querySelector("[data-act=memory-of]"), "the all-seeing viewer may show a player's memory");
  assert.equal(pickers(d, state(0, { viewer: 1 })).querySelector("[data-act=memory-of]"), null, "a player's eyes do not");
});

test("what happened: the deal waits for Ready on a player's page; a step's events in the viewer's words", () => {
  const d = doc();
  const player = state(0, { viewer: 0 });
  const deal = happenedPanel(d, player, LINE[0], newReplayUi());
  assert.equal(deal.querySelector(".ll-h").textContent, "Set-up");
  assert.match(deal.textContent, /4 cards dealt onto the grid/);
  assert.ok(deal.querySelector("[data-act=ready]"));
  assert.equal(dealShown(player, newReplayUi()), true);
  const dealt = happenedPanel(d, player, LINE[0], { ...newReplayUi(), dealt: true });
  assert.equal(dealt.querySelector("[data-act=ready]"), null);
  assert.ok(dealt.querySelector("[data-act=deal-again]"));
  assert.equal(happenedPanel(d, state(0), LINE[0]).querySelector("[data-act]"), null, "the teacher sees every card anyway");
  const step1 = happenedPanel(d, state(1), LINE[1]);
  assert.equal(step1.querySelector(".ll-h").textContent, "What happened at step 1");
  assert.match(step1.querySelector("li").textContent, /Ada activated slot 0/);
  assert.match(happenedPanel(d, state(1), { ...LINE[1], events: [] }).textContent, /Nothing this viewer could see/);
});

test("notes: the step's notes as text, hidden tags behind a button, the form only where notes are editable", () => {
  const d = doc();
  const note = (index, text, tags = []) => ({ variation: 0, step: 1, index, text, tags, highlights: [2] });
  const annotations = [note(0, "<img src=x onerror=alert(1)>"), note(1, "the answer", ["spoiler"]), { ...note(2, "elsewhere"), step: 2 }];
  const ui = newReplayUi();
  const panel = notesPanel(d, state(1, { annotations }), ui);
  assert.equal(panel.querySelectorAll(".ll-noteitem").length, 1, "the spoiler is hidden, the other step's note is not here");
  assert.equal(panel.querySelector(".ll-notetext").textContent, "<img src=x onerror=alert(1)>");
  assert.equal(panel.querySelector("img"), null);
  assert.equal(panel.querySelector("[data-act=toggle-hidden]").textContent, "Show 1 hidden note (spoiler)");
  assert.ok(panel.querySelector(".ll-noteform.ll-hidden"), "the form is there, closed");
  const shown = notesPanel(d, state(1, { annotations }), { ...ui, showHidden: true });
  assert.equal(shown.querySelectorAll(".ll-noteitem").length, 2);
  const readOnly = notesPanel(d, state(1, { annotations, editable: false }), ui);
  assert.equal(readOnly.querySelector(".ll-noteform"), null);
  assert.match(readOnly.textContent, /Notes are read-only in this page/);
  const item = noteItem(d, state(1), { ...ui, confirm: "0:1:0" }, annotations[0]);
  assert.equal(item.querySelector("[data-act=note-remove]").textContent, "Really delete?");
  assert.match(item.textContent, /points at slot 2/);
});

test("every button and menu the replay page draws has its handler in the controller", () => {
  const d = doc();
  const st = state(1, { allow_explore: true, choices: [{ action: { type: "end_phase" }, text: "End" }] });
  const page = whole(renderReplay(st, newReplayUi(), d, 0));
  const menus = new Set(["scrub", "speed", "line", "viewer", "memory-of", "explore", "note-text", "note-tags", "choice", "var-name", "analyse-seat"]);
  const missing = [...new Set(acts(page))].filter((a) => !menus.has(a) && !Object.hasOwn(REPLAY_CLICKS, a));
  assert.deepEqual(missing, []);
});

test("the board's Rules button opens the rules on the replay page too", () => {
  const d = doc();
  const ui = newReplayUi();
  assert.equal(whole(renderReplay(state(1), ui, d, 0)).querySelector(".ll-rules"), null);
  REPLAY_CLICKS.rules(/** @type {any} */ ({ ui }), /** @type {any} */ (null), state(1), /** @type {any} */ (null));
  assert.ok(whole(renderReplay(state(1), ui, d, 0)).querySelector(".ll-rules"));
});

test("replayState reads the traits, a missing one as its empty value", () => {
  const st = replayState(new FakeModel({ step: 3 }));
  assert.equal(st.step, 3);
  assert.equal(st.viewer, null, "no viewer trait: all-seeing");
  assert.deepEqual(st.line, []);
  assert.equal(st.downloads, null);
  assert.equal(replayState(new FakeModel({ viewer: 0 })).viewer, 0);
});

/** A book: the main line (3 steps) and a variation from step 1, all-seeing and seat 0. */
function book() {
  const frames = (n) => ({ base: view({ turn: n }), patches: [[[["turn"], n + 1]], [[["turn"], n + 2]]] });
  return {
    info: INFO, viewers: [null, 0], lines: LINES, start: { step: 0, variation: 0, viewer: null },
    frames: { all: { 0: frames(10), 1: frames(20) }, 0: { 0: frames(30), 1: frames(40) } },
    entries: {
      all: { 0: { base: LINE }, 1: { base: [{ ...LINE[1], turn: 9 }] } },
      0: { 0: { of: "all", patches: [[[0, "events", 0, "element"], null]] }, 1: { of: "all", patches: [] } },
    },
    notes: { 1: [{ variation: 1, step: 2, index: 0, text: "side", tags: [], highlights: [] }] },
  };
}

test("book look-ups: a variation's chain, which line owns a step, its entries from the set-up on", () => {
  const shelf = shelfOf(book());
  assert.deepEqual(chainOf(shelf, 1).map((l) => l.id), [0, 1]);
  assert.equal(ownerOf(shelf, 1, 1).id, 0, "up to its branch step a variation's steps are its parent's");
  assert.equal(ownerOf(shelf, 1, 2).id, 1);
  const entries = lineEntries(shelf, "all", 1);
  assert.deepEqual(entries.map((e) => e.turn), [1, 1, 9]);
  assert.equal(lineEntries(shelf, "all", 1), entries, "decoded once, then kept");
  assert.equal(lineEntries(shelf, "0", 0)[0].events[0].element, null, "a seat's entries are patched from the all-seeing ones");
  assert.equal(viewerKey(null), "all");
  assert.equal(viewerKey(0), "0");
});

test("deriveBook fills the position, and keeps the last valid choice for what the book lacks", () => {
  const b = book();
  const shelf = shelfOf(b);
  const st = bookState(b);
  const good = { ...st };
  assert.equal(st.editable, false);
  deriveBook(shelf, st, good);
  assert.equal(st.view.turn, 10);
  Object.assign(st, { variation: 1, step: 2 });
  deriveBook(shelf, st, good);
  assert.equal(st.view.turn, 20 + 1, "the variation's own second frame");
  assert.equal(st.annotations[0].text, "side");
  Object.assign(st, { viewer: 1, variation: 5, step: "x" });
  deriveBook(shelf, st, good);
  assert.deepEqual([st.viewer, st.variation, st.step], [null, 1, 2]);
  Object.assign(st, { viewer: 0, step: 99 });
  deriveBook(shelf, st, good);
  assert.deepEqual([st.viewer, st.step, st.view.turn], [0, 2, 41], "past the end: the last step, in seat 0's eyes");
});
