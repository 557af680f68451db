// The coach's Hint button in play mode: shown only when the widget has hints on and the seat may
// act; the suggestion shows only to the seat it was made for; a click asks the kernel.
import { test } from "node:test";
import assert from "node:assert/strict";

import { coachHint, renderBoard } from "../src/board.js";
import { newUi } from "../src/play.js";
import { dom } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));
const player = (name) => ({ name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [] });
const view = {
  viewer: 0, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS, grid_rows: 3, grid_cols: 4,
  deck: { count: 36, top: "wind" }, grid: Array.from({ length: 12 }, () => ({ card: "inert", element: null, tokens: {} })),
  players: [player("Ada"), player("Grace")], supply: counts(5), pool: counts(),
  activations: { used: 0, limit: 3 }, collect_threshold: 2, effects: [], powers_used: [],
  is_over: false, end_reason: null, scores: [0, 0], winners: [],
};
const info = { elements: ELEMENTS, players: [{ name: "Ada", bot: null }, { name: "Grace", bot: null }], powers: [] };
const legal = { step: 0, actor: 0, end: true, activate: [...Array(12).keys()], deactivate: [], blocked: {}, powers: {}, why_power: {} };
const suggestion = { action: { type: "activate", slot: 3 }, label: "collect 2 wind (slots 3, 7)", reason: "The coach's plan.", value: 1 };

function board(extra) {
  const doc = dom().window.document;
  return renderBoard({ mode: "play", view, info, legal, error: "", deal_ms: 0, handoff: {}, ...extra }, newUi(), doc);
}

test("no Hint button unless the widget has hints on", () => {
  assert.equal(board({ hint: {} }).querySelector("[data-act=hint]"), null);
  assert.ok(board({ hint: { enabled: true, used: [0, 0] } }).querySelector("[data-act=hint]"));
  assert.equal(board({ hint: { enabled: true, used: [0, 0] }, legal: { ...legal, actor: null } })
    .querySelector("[data-act=hint]"), null);
});

test("the suggestion shows to its own seat only, with the count of hints used", () => {
  const doc = dom().window.document;
  const mine = coachHint(doc, { view, info, legal, hint: { enabled: true, used: [2, 0], seat: 0, suggestion } });
  assert.ok(mine);
  assert.match(mine.textContent, /slot 3/);
  assert.match(mine.textContent, /Hints used this game: 2/);
  const theirs = coachHint(doc, { view: { ...view, viewer: 1 }, info, legal, hint: { enabled: true, used: [2, 0], seat: 0, suggestion } });
  assert.equal(theirs, null);
});
