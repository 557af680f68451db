// At the table, round two (issue 27): each new panel rendered on its own in jsdom, and the play
// controller's new paths (Phase 1's choice, one click for "no power, activate", keys, fill).
import { test } from "node:test";
import assert from "node:assert/strict";

import { renderBoard } from "../src/board.js";
import { lessonSummary } from "../src/lesson.js";
import { newUi } from "../src/play.js";
import {
  EFFECT_KINDS, effectKind, finalElement, hintPanel, hintSlots, keysLine, phaseChoice, prefsPanel, recapPanel,
} from "../src/table.js";
import { FakeModel, dom, mount as mountModel, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));
const player = (name, extra = {}) => ({
  name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [], ...extra,
});
const POWERS = [["fire", "minor", "Spark", "extra_activations"], ["water", "minor", "Ripple", "swap"]]
  .map(([element, tier, name, kind]) => ({ element, tier, name, kind, key: `${element}:${tier}`, text: `${name} text.`, instructions: "" }));

function state(extra = {}) {
  const view = {
    viewer: 0, phase: "activation", turn: 3, active_player: 0, elements: ELEMENTS, grid_rows: 3, grid_cols: 4,
    deck: { count: 30, top: "wind" }, grid: Array.from({ length: 12 }, () => ({ card: "inert", element: null, tokens: {} })),
    players: [player("You"), player("Greedy bot")], supply: counts(5), pool: counts(), activations: { used: 0, limit: 3 },
    collect_threshold: 2, effects: [], powers_used: [], is_over: false, end_reason: null, scores: [0, 0], winners: [],
    ...(extra.view || {}),
  };
  return {
    mode: "play", error: "", ack: 0, bot_delay_ms: 0, shown_seq: 1, deal_ms: 0, events: { seq: 1, items: [] },
    info: { elements: ELEMENTS, players: [{ name: "You", bot: null }, { name: "Greedy bot", bot: "greedy" }], powers: POWERS,
      thresholds: { minor: 2, major: 5 }, activations: 3 },
    legal: { step: 9, actor: 0, end: true, activate: [0, 1, 2], deactivate: [], blocked: {}, powers: {}, why_power: {} },
    prefs: { skip_phase1: [], confirm_end: [] }, ...extra, view,
  };
}

test("effects are keyed by kind: every default id maps to a kind", () => {
  assert.equal(effectKind("ripple"), "swap");
  assert.equal(effectKind({ kind: "peek", cards: 2 }), "peek");
  assert.equal(effectKind(POWERS[0]), "extra_activations");
  assert.deepEqual(new Set(Object.values(EFFECT_KINDS)), new Set(["extra_activations", "collect_threshold",
    "ignore_tokens", "swap", "swap_with_deck", "remove_tokens", "peek"]));
});

test("recapPanel: the other seats' turns, a line each; nothing without them", () => {
  const doc = dom().document;
  const st = state({ log: { turns: [], recap: [{ turn: 2, player: 1, text: "Greedy bot used Spark, collected 2 Water" }] } });
  const panel = recapPanel(doc, st);
  assert.match(panel.textContent, /Turn 2: Greedy bot used Spark, collected 2 Water/);
  assert.equal(recapPanel(doc, state({ log: { recap: [] } })), null);
});

test("phaseChoice: usable powers with keys, and No power; only in Phase 1 for the actor", () => {
  const doc = dom().document;
  const legal = { step: 4, actor: 0, end: true, powers: { "water:minor": { min: 2, max: 2, slots: [0, 1] } } };
  const st = state({ view: { phase: "abilities" }, legal });
  const panel = phaseChoice(doc, st, newUi());
  const buttons = [...panel.querySelectorAll("button")];
  assert.deepEqual(buttons.map((b) => b.getAttribute("data-act")), ["choose-power", "no-power"]);
  assert.equal(buttons[0].getAttribute("data-power"), "water:minor");
  assert.equal(buttons[0].getAttribute("data-keyno"), "1");
  assert.equal(phaseChoice(doc, state(), newUi()), null);
  assert.equal(phaseChoice(doc, state({ view: { phase: "abilities" }, legal: { ...legal, actor: null } }), newUi()), null);
});

test("prefsPanel: the acting seat's settings, checked as the kernel keeps them", () => {
  const doc = dom().document;
  const panel = prefsPanel(doc, state({ prefs: { skip_phase1: [0], confirm_end: [1] } }));
  const boxes = [...panel.querySelectorAll("input")];
  assert.deepEqual(boxes.map((b) => [b.getAttribute("data-pref"), b.hasAttribute("checked")]),
    [["skip_phase1", true], ["confirm_end", false]]);
  assert.equal(prefsPanel(doc, state({ legal: { step: 1, actor: null } })), null);
});

test("the hint: its plan's slots marked on the grid, words once, margin only when it says something", () => {
  const doc = dom().document;
  const plan = [{ type: "activate", slot: 2 }, { type: "activate", slot: 7 }, { type: "end_phase" }];
  const suggestion = { action: plan[0], label: "activate slots 2 and 7, then end the phase", reason: "", value: 0.2, plan };
  const st = state({ hint: { enabled: true, used: [1, 0], seat: 0, step: 9, suggestion } });
  assert.deepEqual(hintSlots(st), [2, 7]);
  const words = hintPanel(doc, st).textContent;
  assert.match(words, /Hint: Activate slots 2 and 7, then end the phase\./);
  assert.doesNotMatch(words, /margin/);
  const board = renderBoard(st, newUi(), doc);
  assert.deepEqual([...board.querySelectorAll(".ll-hinted[data-act=card]")].map((c) => Number(c.dataset.slot)), [2, 7]);
  // A hint of a position that has gone shows nowhere.
  assert.deepEqual(hintSlots({ ...st, legal: { ...st.legal, step: 10 } }), []);
  const big = state({ hint: { enabled: true, used: [1, 0], seat: 0, step: 9, suggestion: { ...suggestion, value: 4 } } });
  assert.match(hintPanel(doc, big).textContent, /Expected final margin: \+4\.0 cards/);
});

test("keysLine and the final grid face up only once the game is over", () => {
  const doc = dom().document;
  assert.match(keysLine(doc, state()).textContent, /E end \/ collect/);
  const final = ["fire", "water", null, ...Array(9).fill("wind")];
  const live = state({ final_grid: final });
  assert.equal(finalElement(live, 0), null);
  const over = state({ final_grid: final, view: { is_over: true, phase: "game_over", end_reason: "deck" }, legal: { step: 9, actor: null } });
  assert.equal(finalElement(over, 0), "fire");
  const board = renderBoard(over, newUi(), doc);
  const card0 = board.querySelector('[data-act=card][data-slot="0"]');
  assert.ok(card0.classList.contains("ll-final") && card0.getAttribute("data-element") === "fire");
  assert.match(card0.getAttribute("aria-label"), /face up now the game is over/);
});

test("lessonSummary: steps, mistakes, hints, first-try recalls, and the next lesson", () => {
  const doc = dom().document;
  const panel = lessonSummary(doc, { total: 2, mistakes: 1, hints_used: 3, recall: { asked: 2, first_try: 1 }, skipped: [],
    summary: "What you saw is what you can collect.", next_lesson: "recall-flip-back", next_title: "Recall: the card that flipped back" });
  assert.match(panel.textContent, /Lesson complete\. What you saw/);
  assert.match(panel.textContent, /1 of 2 recalled at the first try/);
  assert.match(panel.textContent, /Next: Recall: the card that flipped back\./);
});

test("Phase 1: a card click asks for the choice, or with skip_phase1 ends Phase 1 and activates in one message", async () => {
  const legal = { step: 4, actor: 0, end: true, powers: { "water:minor": { min: 2, max: 2, slots: [0, 1, 2] } } };
  const model = new FakeModel(state({ view: { phase: "abilities" }, legal }));
  const { el, cleanup } = mountModel(model);
  await tick();
  el.querySelector('[data-act=card][data-slot="5"]').click();
  await tick();
  assert.equal(model.sent.length, 0);
  assert.match(el.querySelector("[role=alert]").textContent, /No power this turn/);
  model.update({ prefs: { skip_phase1: [0], confirm_end: [] } });
  await tick();
  el.querySelector('[data-act=card][data-slot="5"]').click();
  assert.deepEqual(model.sent.at(-1), { type: "action", action: { type: "end_phase" }, step: 4, then: { type: "activate", slot: 5 } });
  // Keys: N is No power, 1 chooses the first power (it takes targets: nothing is sent yet).
  const card = el.querySelector('[data-act=card][data-slot="0"]');
  card.dispatchEvent(new el.ownerDocument.defaultView.KeyboardEvent("keydown", { key: "1", bubbles: true }));
  await tick();
  assert.equal(el.querySelector(".ll-choice [data-act=choose-power]").getAttribute("aria-pressed"), "true");
  card.dispatchEvent(new el.ownerDocument.defaultView.KeyboardEvent("keydown", { key: "n", bubbles: true }));
  assert.deepEqual(model.sent.at(-1), { type: "action", action: { type: "end_phase" }, step: 4 });
  cleanup();
});

test("Refill: one click (or F) fills every empty slot in slot order", async () => {
  const grid = Array.from({ length: 12 }, (_, i) => ({ card: i < 2 ? "empty" : "inert", element: null, tokens: {} }));
  const model = new FakeModel(state({ view: { phase: "refill", grid }, legal: { step: 6, actor: 0, end: false, refill: [0, 1] } }));
  const { el, cleanup } = mountModel(model);
  await tick();
  const fill = el.querySelector("[data-act=refill-all]");
  assert.match(fill.textContent, /Fill 2 slots in order/);
  const end = el.querySelector("[data-act=end]");
  assert.equal(end.getAttribute("aria-disabled"), "true");
  fill.click();
  assert.deepEqual(model.sent.at(-1), { type: "refill_all", step: 6 });
  cleanup();
});

test("a keyboard player keeps the focus on the board when the focused part goes away (Ready by key)", async () => {
  const items = Array.from({ length: 12 }, (_, slot) => ({ type: "reveal", slot, element: "fire", cause: "setup", visible_to: "all" }));
  const model = new FakeModel(state({ deal_ms: 50, shown_seq: 0, events: { seq: 1, step: 0, items } }));
  const { el, window, cleanup } = mountModel(model);
  await tick();
  const ready = el.querySelector("[data-act=deal-ready]");
  ready.focus();
  assert.equal(window.document.activeElement, ready);
  ready.dispatchEvent(new window.KeyboardEvent("keydown", { key: "r", bubbles: true }));
  await tick();
  assert.equal(el.querySelector("[data-act=deal-ready]"), null, "the Ready button is gone");
  const focused = window.document.activeElement;
  assert.equal(focused.getAttribute("data-act"), "card", "the focus went to a card, not the page");
  assert.equal(focused.getAttribute("tabindex"), "0");
  cleanup();
});

test("before Ready the phase's end is a plain button that says to press Ready (the kernel refuses the move)", async () => {
  const items = Array.from({ length: 12 }, (_, slot) => ({ type: "reveal", slot, element: "fire", cause: "setup", visible_to: "all" }));
  const model = new FakeModel(state({ deal_ms: 50, shown_seq: 0, events: { seq: 1, step: 0, items } }));
  const { el, cleanup } = mountModel(model);
  await tick();
  const ready = el.querySelector("[data-act=deal-ready]");
  assert.ok(ready.classList.contains("ll-primary"), "Ready is the main button");
  const end = el.querySelector("[data-act=end]");
  assert.ok(!end.classList.contains("ll-primary"), "the phase's end is not styled as the main button");
  assert.match(end.getAttribute("title"), /Press Ready first/);
  cleanup();
});
