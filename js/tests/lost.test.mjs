// A board whose kernel has gone (a restart): it says so, says how to resume, and takes no clicks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LOST, lostText } from "../src/lost.js";
import { FakeModel, mount, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));

function playState() {
  const grid = Array.from({ length: 12 }, () => ({ card: "inert", element: null, tokens: {} }));
  return {
    mode: "play", error: "", ack: 0, bot_delay_ms: 800, reveal_ms: 1500, viewer: "active",
    view: {
      viewer: 0, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS, grid_rows: 3,
      grid_cols: 4, deck: { count: 36, top: "wind" }, grid, supply: counts(5), pool: counts(),
      players: [{ name: "Ada", study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [] }],
      activations: { used: 0, limit: 3 }, collect_threshold: 2, effects: [], powers_used: [],
      is_over: false, end_reason: null, scores: [0], winners: [],
    },
    info: { elements: ELEMENTS, players: [{ name: "Ada", bot: null }], powers: [], thresholds: { minor: 2, major: 5 },
      activations: 3, collect_threshold: 2, turn_limit: null },
    legal: { step: 0, actor: 0, end: true, activate: [...Array(12).keys()], deactivate: [], blocked: {}, powers: {}, why_power: {} },
    events: { seq: 1, step: 0, items: [] },
  };
}

const lose = (model) => [...(model.handlers.get("comm_live_update") || [])].forEach((cb) => cb());

test("a live board takes clicks; once its kernel is gone it says how to resume and takes none", async () => {
  const model = new FakeModel(playState());
  const { el, cleanup } = mount(model);
  await tick();
  el.querySelector('[data-act=card][data-slot="3"]').click();
  assert.equal(model.sent.length, 1, "a live board sends the click");
  assert.ok(!el.classList.contains(LOST) && !el.querySelector(".ll-lost-note"));
  lose(model);
  assert.ok(el.classList.contains(LOST));
  const note = el.querySelector(".ll-lost-note");
  assert.equal(note.getAttribute("role"), "alert");
  assert.match(note.textContent, /lost its kernel/);
  assert.equal(note.querySelector("code").textContent, "from leyline_widget import LeylineWidget; LeylineWidget.resume()");
  el.querySelector('[data-act=card][data-slot="4"]').click();
  el.querySelector('[data-act=card][data-slot="4"]').dispatchEvent(
    new el.ownerDocument.defaultView.KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  await tick();
  assert.equal(model.sent.length, 1, "nothing more reaches the (gone) kernel");
  lose(model); // told twice: one notice
  assert.equal(el.querySelectorAll(".ll-lost-note").length, 1);
  cleanup();
  assert.equal(el.querySelector(".ll-lost-note"), null);
  assert.equal(model.listeners(), 0, "every model listener is removed");
});

test("a model that reads comm_live (older anywidget) stays live while it is true", () => {
  const model = new FakeModel(playState());
  model.comm_live = true;
  const { el, cleanup } = mount(model);
  lose(model);
  assert.ok(!el.classList.contains(LOST));
  model.comm_live = false;
  lose(model);
  assert.ok(el.classList.contains(LOST));
  cleanup();
});

test("boards other than play say to run their cell again", () => {
  assert.match(lostText("replay").text, /Run its cell again/);
  assert.equal(lostText("lesson").code, "");
});
