// The coach in the replay studio (js/src/coach.js): verdict badges in the move list, the "Best
// was" panel, the evaluation graph (a click seeks), the Analyse button, and the book's filter.
import assert from "node:assert/strict";
import test from "node:test";

import { bookModel } from "../src/book.js";
import { whole } from "../src/dom.js";
import { VERDICT_MARKS, analyseBar, coachPanel, evalGraph, verdictBadge } from "../src/coach.js";
import { newReplayUi } from "../src/replay.js";
import { movesByTurn, shortStep } from "../src/studio.js";
import { FakeModel, dom, mount, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));
const INFO = { elements: ELEMENTS, players: [{ name: "Ada", bot: null }, { name: "Bo", bot: null }], powers: [], thresholds: { minor: 2, major: 5 }, activations: 3, collect_threshold: 2 };
const player = (name) => ({ name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [] });
const view = () => ({
  viewer: null, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS, grid_rows: 2, grid_cols: 2, deck: { count: 8, top: "wind" },
  grid: ELEMENTS.map((element) => ({ card: "inert", element, tokens: {} })), players: [player("Ada"), player("Bo")], supply: counts(5), pool: counts(),
  activations: { used: 0, limit: 3 }, collect_threshold: 2, effects: [], powers_used: [], is_over: false, end_reason: null, scores: [0, 0], winners: [],
});
const entry = (turn, p, action, events = []) => ({ turn, player: p, phase: "activation", action, events });
const LINE = [
  entry(1, 0, null), entry(1, 0, { type: "activate", slot: 0 }), entry(1, 0, { type: "end_phase" }),
  entry(1, 0, { type: "end_phase" }, [{ type: "turn", turn: 2, player: 1, phase: "activation" }]), entry(2, 1, { type: "activate", slot: 2 }),
];
const move = (step, verdict, extra = {}) => ({
  step, played: { type: "end_phase" }, best: { type: "activate", slot: 3 }, loss: verdict === "best" ? 0 : 2, verdict,
  reason: "Passing left a <b>collection</b> you knew on the grid.", best_value: 1.5, played_value: verdict === "best" ? 1.5 : -0.5, ...extra,
});
const ANALYSES = [
  { player: 0, budget: 8, moves: [move(1, "best", { played: { type: "activate", slot: 0 }, best: { type: "activate", slot: 0 } }), move(2, "mistake"), move(3, "blunder")] },
  { player: 1, budget: 8, moves: [move(4, "inaccuracy", { played: { type: "activate", slot: 2 } })] },
];
function state(extra = {}) {
  return {
    mode: "replay", view: view(), legal: { step: 2, actor: null, variation: 0 }, info: INFO, error: "", ack: 0, step: 2, variation: 0,
    viewer: null, viewers: [null, 0, 1], lines: [{ id: 0, name: "Main line", parent: null, start: 0, end: 4 }], line: LINE,
    annotations: [], memory: {}, show_memory_of: null, memory_choices: [], hide_tags: [], editable: true, reveal_ms: 0,
    glyphs: { 2: "!?" }, scores: [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], analyses: ANALYSES, events: { seq: 0, step: 0, items: [] }, ...extra,
  };
}

test("verdict badges: a coloured sign for inaccuracies, mistakes and blunders, named for screen readers", () => {
  const doc = dom().document;
  assert.deepEqual(VERDICT_MARKS, { inaccuracy: "?!", mistake: "?", blunder: "??" });
  assert.equal(verdictBadge(doc, "best"), null);
  assert.equal(verdictBadge(doc, "good"), null);
  const b = verdictBadge(doc, "mistake");
  assert.equal(b.textContent, "?");
  assert.equal(b.getAttribute("aria-label"), "mistake");
  const st = state();
  const el = whole(movesByTurn(doc, st, newReplayUi(), 2, LINE.map((e) => shortStep(e, INFO))));
  const at = (k) => el.querySelector(`.ll-move[data-step="${k}"]`);
  assert.equal(at(1).querySelector(".ll-verdict"), null, "a best move has no mark");
  assert.equal(at(2).querySelector(".ll-verdict").getAttribute("aria-label"), "mistake");
  assert.equal(at(2).querySelector(".ll-glyph").textContent, "!?", "the author's glyph stays, apart from the coach's mark");
  assert.equal(at(3).querySelector(".ll-verdict-blunder").textContent, "??");
  assert.equal(at(4).querySelector(".ll-verdict").getAttribute("aria-label"), "inaccuracy");
  // Guess the move: no verdict on moves not yet played.
  const train = whole(movesByTurn(doc, state({ train: 0, step: 2 }), newReplayUi(), 2, LINE.map((e) => shortStep(e, INFO))));
  assert.equal(train.querySelector('.ll-move[data-step="3"]'), null);
});

test("the coach panel: the verdict, 'Best was' in words and the reason, as text", () => {
  const doc = dom().document;
  const panel = coachPanel(doc, state(), 2);
  assert.match(panel.querySelector(".ll-coachverdict").textContent, /Ada: End the phase: mistake \(2\.0 cards/);
  assert.equal(panel.querySelector(".ll-coachbest").textContent, "Best was: Activate slot 3.");
  assert.equal(panel.querySelector(".ll-coachreason").textContent, "Passing left a <b>collection</b> you knew on the grid.");
  assert.equal(panel.querySelector(".ll-coachreason b"), null, "reasons are text, never markup");
  const best = coachPanel(doc, state(), 1);
  assert.equal(best.querySelector(".ll-coachbest"), null, "the best move needs no 'Best was'");
  assert.match(best.textContent, /best/);
  assert.equal(coachPanel(doc, state({ analyses: [] }), 2), null, "nothing without a review (and no kernel)");
});

test("the evaluation graph: a point per reviewed decision, coloured by verdict", () => {
  const doc = dom().document;
  const g = whole(evalGraph(doc, state(), 2));
  const points = g.querySelectorAll(".ll-gpoint");
  assert.equal(points.length, 4);
  assert.deepEqual(Array.from(points, (p) => p.getAttribute("data-step")), ["1", "2", "3", "4"]);
  assert.equal(g.querySelectorAll(".ll-geval").length, 2, "one series per analysed seat");
  assert.ok(g.querySelector(".ll-gpoint.ll-verdict-blunder"));
  assert.equal(evalGraph(doc, state({ analyses: [] }), 2), null);
  // Training draws only up to the shown step.
  assert.equal(whole(evalGraph(doc, state({ train: 0, step: 2 }), 2)).querySelectorAll(".ll-gpoint").length, 2);
  // A seek builds only the marker: the curves go as a stand-in under the same key.
  const st = state();
  const drawn = whole(evalGraph(doc, st, 2));
  const seek = evalGraph(doc, st, 4);
  assert.equal(seek.querySelector("[data-paint-key]").getAttribute("data-paint-key"),
    drawn.querySelector(".ll-gcurves").getAttribute("data-paint-key"));
  assert.equal(seek.querySelectorAll(".ll-gpoint").length, 0);
  assert.notEqual(seek.querySelector(".ll-gnow").getAttribute("x1"), drawn.querySelector(".ll-gnow").getAttribute("x1"));
});

test("the Analyse button: the viewer's own seat, a seat menu for the teacher, the progress bar", () => {
  const doc = dom().document;
  assert.equal(analyseBar(doc, state()), null, "no kernel run: a standalone page");
  const own = analyseBar(doc, state({ viewer: 1, analysis_progress: {} }));
  assert.equal(own.querySelector("[data-act=analyse]").getAttribute("data-seat"), "1");
  assert.equal(own.querySelector("[data-act=analyse-seat]"), null);
  const teacher = analyseBar(doc, state({ analysis_progress: { seat: 0, done: 3, total: 10, running: true } }));
  assert.equal(teacher.querySelectorAll("[data-act=analyse-seat] option").length, 2);
  assert.equal(teacher.querySelector("progress").getAttribute("value"), "3");
  assert.equal(teacher.querySelector("[data-act=analyse]").getAttribute("aria-disabled"), "true");
});

test("on the page: a click on a graph point seeks there; Analyse sends the seat", async () => {
  const model = new FakeModel(state({ viewer: 0, analyses: [ANALYSES[0]], analysis_progress: {} }));
  const { el, cleanup } = mount(model);
  await tick();
  const point = el.querySelector('.ll-evalgraph .ll-gpoint[data-step="3"]');
  assert.ok(point, "the eval graph is drawn");
  point.dispatchEvent(new el.ownerDocument.defaultView.MouseEvent("click", { bubbles: true }));
  assert.equal(model.get("step"), 3);
  assert.ok(model.saved > 0);
  assert.equal(el.querySelectorAll(".ll-movelist .ll-verdict").length, 2);
  assert.match(el.querySelector(".ll-coach").textContent, /Best was: Activate slot 3\./);
  el.querySelector("[data-act=analyse]").click();
  assert.deepEqual(model.sent.at(-1), { type: "analyse", seat: 0 });
  cleanup();
});

test("the book: a player's view shows that seat's review alone", () => {
  const frames = { base: view(), patches: [[], [], [], []] };
  const book = {
    start: { step: 2, variation: 0, viewer: null }, viewers: [null, 0, 1], lines: [{ id: 0, name: "Main line", parent: null, start: 0, end: 4 }],
    info: INFO, frames: { all: { 0: frames }, 0: { 0: frames }, 1: { 0: frames } },
    entries: { all: { 0: { base: LINE } }, 0: { 0: { of: "all", patches: [] } }, 1: { 0: { of: "all", patches: [] } } },
    analyses: { 0: ANALYSES },
  };
  const model = bookModel(book);
  assert.deepEqual(model.get("analyses").map((a) => a.player), [0, 1]);
  model.set("viewer", 1);
  model.save_changes();
  assert.deepEqual(model.get("analyses").map((a) => a.player), [1]);
  assert.equal(model.get("analysis_progress"), undefined, "a standalone page runs no analysis");
});
