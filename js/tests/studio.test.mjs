// The replay studio's builders (js/src/studio.js): moves by turn, the tree, glyphs, the graph,
// downloads, the explore and training panels.
import assert from "node:assert/strict";
import test from "node:test";

import {
  exportBar, explorePanel, glyphBar, markCurrent, movesByTurn, scoreGraph, shortStep, trainPanel, turnRows,
} from "../src/studio.js";
import { morph, whole } from "../src/dom.js";
import { newReplayUi } from "../src/replay.js";
import { dom } from "./fake_model.mjs";

const INFO = { elements: ["fire", "water"], players: [{ name: "Ada" }, { name: "Bo" }], powers: [{ key: "water:minor", name: "Ripple" }] };

function line() {
  const e = (turn, player, action, events = []) => ({ turn, player, phase: "activation", action, events });
  return [
    e(1, 0, null, [{ type: "reveal", slot: 0, element: "fire", cause: "setup" }]),
    e(1, 0, { type: "activate", slot: 3 }, [{ type: "activate", slot: 3, element: "water", player: 0 }]),
    e(1, 0, { type: "end_phase" }, [{ type: "phase", phase: "binding" }]),
    e(1, 0, { type: "end_phase" }, [{ type: "turn", turn: 2, player: 1 }]),
    e(2, 1, { type: "use_power", element: "water", tier: "minor", targets: [1, 2] }),
    e(2, 1, { type: "refill", slot: 1 }, [{ type: "reveal", slot: 1, element: "fire", cause: "refill" }]),
  ];
}

function state(extra = {}) {
  return {
    info: INFO, line: line(), step: 2, variation: 0, viewer: null, viewers: [null, 0, 1], editable: true,
    lines: [{ id: 0, name: "Main line", parent: null, start: 0, end: 5 }, { id: 1, name: "<b>Bo</b> waits", parent: 0, start: 3, end: 4 }],
    annotations: [{ step: 4, text: "x", tags: [], highlights: [] }], glyphs: { 1: "?!" }, scores: [[0, 0], [0, 0], [2, 0], [2, 0], [2, 1], [2, 1]],
    ...extra,
  };
}

test("short words and rows by turn", () => {
  const words = line().map((e) => shortStep(e, INFO));
  assert.deepEqual(words, ["set-up", "↑3 Water", "end phase", "end turn", "Ripple 1, 2", "+1 Fire"]);
  // A seat's page lists every step at once, so it names no card that may lie face-down now.
  assert.deepEqual(line().map((e) => shortStep(e, INFO, 0)),
    ["set-up", "↑3", "end phase", "end turn", "Ripple 1, 2", "+1"]);
  assert.deepEqual(turnRows(line()), [
    { turn: 0, player: -1, steps: [0] }, { turn: 1, player: 0, steps: [1, 2, 3] }, { turn: 2, player: 1, steps: [4, 5] }]);
});

test("moves by turn: one row a turn, the current move marked, the tree inline under its move", () => {
  const doc = dom().document;
  const st = state();
  const words = st.line.map((e) => shortStep(e, INFO));
  const el = whole(movesByTurn(doc, st, newReplayUi(), 2, words));
  const rows = el.querySelectorAll(".ll-turnrow");
  assert.equal(rows.length, 3);
  assert.equal(rows[1].querySelector(".ll-seat").textContent, "1. Ada");
  assert.equal(el.querySelector(".ll-move.ll-current").getAttribute("data-step"), "2");
  assert.equal(el.querySelector('.ll-move[data-step="1"] .ll-glyph').textContent, "?!");
  assert.ok(el.querySelector('.ll-move[data-step="4"] .ll-notemark'));
  // The variation sits right after the row holding move 3, named as text (not markup).
  const branch = el.querySelector('.ll-branch[data-after="3"]');
  assert.equal(branch.previousElementSibling, rows[1]);
  assert.match(branch.textContent, /<b>Bo<\/b> waits/);
  assert.equal(branch.querySelector("b"), null);
  for (const act of ["var-promote", "var-rename", "var-delete"]) assert.ok(branch.querySelector(`[data-act=${act}][data-variation="1"]`));
  // Read-only pages have no tree tools; training lists only the moves already played.
  assert.equal(whole(movesByTurn(doc, state({ editable: false }), newReplayUi(), 2, words)).querySelector("[data-act=var-promote]"), null);
  assert.equal(whole(movesByTurn(doc, state({ train: 0 }), newReplayUi(), 2, words)).querySelectorAll(".ll-move").length, 3);
  // The list is keyed by what it shows, not by the shown step: a seek sends an empty stand-in
  // under the same key, morph keeps the page's list, and markCurrent moves the highlight.
  const list = el.querySelector(".ll-movelist");
  const key = list.getAttribute("data-paint-key");
  const moved = movesByTurn(doc, st, newReplayUi(), 5, words);
  assert.equal(moved.querySelector("[data-paint-key]").getAttribute("data-paint-key"), key);
  assert.equal(moved.querySelectorAll(".ll-move").length, 0);
  morph(el, moved);
  assert.equal(el.querySelector(".ll-movelist"), list, "the page's list stays");
  assert.equal(list.querySelectorAll(".ll-move").length, 6);
  markCurrent(el, 5);
  assert.deepEqual(Array.from(el.querySelectorAll(".ll-move.ll-current"), (b) => b.getAttribute("data-step")), ["5"]);
  assert.equal(el.querySelector('.ll-move[data-step="2"]').hasAttribute("aria-current"), false);
  // A new glyph is news: another key, a full list.
  const glyphed = movesByTurn(doc, { ...st, glyphs: { 1: "!!" } }, newReplayUi(), 5, words);
  assert.notEqual(glyphed.querySelector("[data-paint-key]").getAttribute("data-paint-key"), key);
  morph(el, glyphed);
  assert.equal(el.querySelector('.ll-move[data-step="1"] .ll-glyph').textContent, "!!");
});

test("the glyph bar, the score graph and the downloads", () => {
  const doc = dom().document;
  const bar = glyphBar(doc, state(), 1);
  assert.deepEqual(Array.from(bar.querySelectorAll("[data-act=glyph]"), (b) => b.getAttribute("data-glyph")), ["!!", "!", "!?", "?!", "?", "??", ""]);
  assert.equal(bar.querySelector('[aria-pressed="true"]').getAttribute("data-glyph"), "?!");
  assert.equal(glyphBar(doc, state(), 0), null, "set-up has no move");
  assert.equal(glyphBar(doc, state({ editable: false }), 2), null);
  const graph = whole(scoreGraph(doc, state(), 3));
  assert.equal(graph.querySelectorAll("polyline").length, 2);
  assert.equal(graph.querySelector("svg").namespaceURI, "http://www.w3.org/2000/svg");
  assert.equal(graph.querySelector("[data-act=graph]").getAttribute("data-last"), "5");
  assert.match(graph.querySelector(".ll-glegend").textContent, /Ada 2.*Bo 0/);
  // A seek moves the marker and sends the curves as a stand-in under the same key.
  const st = state();
  const drawn = whole(scoreGraph(doc, st, 3));
  const curves = drawn.querySelector(".ll-gcurves").getAttribute("data-paint-key");
  const seek = scoreGraph(doc, st, 5);
  assert.equal(seek.querySelector("[data-paint-key]").getAttribute("data-paint-key"), curves);
  assert.equal(seek.querySelectorAll("polyline").length, 0);
  assert.equal(seek.querySelector(".ll-gnow").getAttribute("x1"), "600.0");
  morph(drawn, seek);
  assert.equal(drawn.querySelectorAll("polyline").length, 2, "the page keeps its curves");
  assert.equal(drawn.querySelector(".ll-gnow").getAttribute("x1"), "600.0");
  assert.match(drawn.querySelector(".ll-glegend").textContent, /Ada 2.*Bo 1/);
  const live = exportBar(doc, state());
  assert.deepEqual(Array.from(live.querySelectorAll("[data-act=download]"), (b) => [b.getAttribute("data-kind"), b.getAttribute("data-viewer")]),
    [["json", null], ["html", "all"], ["html", "0"], ["html", "1"], ["markdown", null]]);
  const seat = exportBar(doc, state({ viewers: [1] }));
  assert.equal(seat.querySelector("[data-kind=json]"), null, "a player's page offers no replay file");
  const book = exportBar(doc, state({ downloads: { markdown: "# x" } }));
  assert.deepEqual(Array.from(book.querySelectorAll("[data-act=download]"), (b) => b.getAttribute("data-kind")), ["markdown"]);
});

test("explore and training panels list the legal moves in words", () => {
  const doc = dom().document;
  const choices = [{ action: { type: "activate", slot: 2 } }, { action: { type: "end_phase" } }];
  assert.equal(explorePanel(doc, state({ allow_explore: false })), null);
  const ex = explorePanel(doc, state({ allow_explore: true, explore: true, choices }));
  assert.ok(ex.querySelector("[data-act=explore]").hasAttribute("checked"));
  assert.deepEqual(Array.from(ex.querySelectorAll("option"), (o) => o.textContent), ["Activate slot 2", "End the phase"]);
  const t = trainPanel(doc, state({
    train: 0, choices, training: { seat: 0, right: 1, total: 2, last: { step: 4, guess: { type: "end_phase" }, played: { type: "activate", slot: 2 }, right: false } },
  }));
  assert.match(t.querySelector(".ll-trainscore").textContent, /1 \/ 2/);
  assert.match(t.querySelector(".ll-trainlast").textContent, /You chose: End the phase\. Ada played: Activate slot 2/);
  assert.equal(t.querySelector("[data-act=play-choice]").textContent, "Guess this move");
  assert.equal(trainPanel(doc, state()), null);
});
