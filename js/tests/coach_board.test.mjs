// The coach on the board (js/src/coach.js): "Best was" marks the best plan's slots, "Show the
// line" only where a kernel can play it, the puzzle panel, and no downloads while guessing.
import assert from "node:assert/strict";
import test from "node:test";

import { whole } from "../src/dom.js";
import { analyseBar, bestSlots, coachPanel, puzzlePanel } from "../src/coach.js";
import { choiceMenu, exportBar } from "../src/studio.js";
import { dom } from "./fake_model.mjs";

const INFO = { elements: ["fire", "water"], players: [{ name: "Ada" }, { name: "Bo" }], powers: [] };
const move = (step, extra = {}) => ({
  step, played: { type: "activate", slot: 0 }, best: { type: "activate", slot: 3 }, loss: 1, verdict: "mistake",
  reason: "You had seen <b>it</b>. Cause: a memory slip, 1.0 cards.", best_value: 1, played_value: 0,
  best_line: [{ type: "activate", slot: 3 }, { type: "activate", slot: 5 }, { type: "end_phase" }], best_slots: [3, 5], ...extra,
});
const state = (extra = {}) => ({
  info: INFO, step: 2, variation: 0, viewer: null, viewers: [null, 0, 1], train: null, line: [], choices: [],
  analyses: [{ player: 0, moves: [move(2), move(4, { best: { type: "activate", slot: 0 } })] }], analysis_progress: {}, ...extra,
});

test("Best was marks the best plan's slots, and nothing where the move played was the best", () => {
  assert.deepEqual(bestSlots(state(), 2), [3, 5]);
  assert.deepEqual(bestSlots(state(), 4), []);
  assert.deepEqual(bestSlots(state(), 3), []);
  const doc = dom().document;
  const panel = whole(coachPanel(doc, state(), 2));
  assert.match(panel.querySelector(".ll-coachbest").textContent, /Best was: Activate slot 3 \(marked on the board\)/);
  assert.equal(panel.querySelectorAll("[data-act=show-line]").length, 1);
  // A standalone page (no kernel) and a training page offer no line.
  assert.equal(whole(coachPanel(doc, state({ analysis_progress: null }), 2)).querySelectorAll("[data-act=show-line]").length, 0);
  // The reason is text, never markup.
  assert.equal(panel.querySelector(".ll-coachreason b"), null);
});

test("the studio offers puzzles from a seat's mistakes; none while training", () => {
  const doc = dom().document;
  const bar = whole(analyseBar(doc, state()));
  const buttons = [...bar.querySelectorAll("[data-act=puzzles]")];
  assert.deepEqual(buttons.map((b) => b.getAttribute("data-seat")), ["0"]);
  assert.match(buttons[0].textContent, /Puzzles from Ada's mistakes/);
  assert.equal(analyseBar(doc, state({ train: 0 })), null);
});

test("the puzzle panel asks, then answers with the reason and counts what is solved", () => {
  const doc = dom().document;
  const choices = [{ action: { type: "activate", slot: 3 } }, { action: { type: "end_phase" } }];
  const asking = whole(puzzlePanel(doc, state({ train: 0, choices, puzzle: { seat: 0, total: 3, index: 0, answered: 0, solved: 0, move: 5, verdict: "blunder", done: false, last: null } }), choiceMenu));
  assert.match(asking.textContent, /Find a better move: puzzle 1 of 3/);
  assert.match(asking.textContent, /Move 5: Ada played a blunder here/);
  assert.equal(asking.querySelectorAll("[data-act=choice] option").length, 2);
  const last = { index: 0, move: 5, guess: { type: "activate", slot: 3 }, solved: true, loss: 0, played: { type: "end_phase" }, best: { type: "activate", slot: 3 }, verdict: "blunder", reason: "Passing left <i>it</i>." };
  const answered = whole(puzzlePanel(doc, state({ train: 0, puzzle: { seat: 0, total: 3, index: 0, answered: 1, solved: 1, move: 5, verdict: "blunder", done: true, last } }), choiceMenu));
  assert.match(answered.querySelector(".ll-right").textContent, /Solved: Activate slot 3 is within 0.3 cards/);
  assert.match(answered.textContent, /Solved: 1 of 1 answered \(3 in all\)/);
  assert.equal(answered.querySelector(".ll-coachreason").textContent, "Passing left <i>it</i>.");
  assert.equal(answered.querySelectorAll("[data-act=puzzle-next]").length, 1);
  assert.equal(puzzlePanel(doc, state(), choiceMenu), null);
});

test("no download is offered while guessing the move or solving puzzles", () => {
  const doc = dom().document;
  assert.equal(exportBar(doc, state({ train: 0 })), "");
  assert.notEqual(exportBar(doc, state()), "");
});
