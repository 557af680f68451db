// Unit tests of the replay front-end (mode "replay"): words for steps, the patch decoder, the
// standalone page's book model, and the page driven through a fake anywidget model.
// Run with `node --test js/tests/` from the repository root (jsdom is in node_modules).
import { test } from "node:test";
import assert from "node:assert/strict";

import { applyPatch, bookModel, decodeStream } from "../src/book.js";
import { MODES } from "../src/index.js";
import { newReplayUi, renderReplay } from "../src/replay.js";
import { describeStep } from "../src/words.js";
import { whole } from "../src/dom.js";
import { FakeModel, dom, mount, sleep, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));
const INFO = {
  elements: ELEMENTS, players: [{ name: "Ada", bot: null }, { name: "Bo", bot: null }],
  powers: [
    { element: "wind", tier: "minor", name: "Whisper", key: "wind:minor", text: "Peek.", instructions: "Click a card." },
    { element: "water", tier: "major", name: "Tide", key: "water:major", text: "Swap with the deck.", instructions: "Click a card." },
  ],
  thresholds: { minor: 2, major: 5 }, activations: 3, collect_threshold: 2, turn_limit: null,
};

function player(name, extra = {}) {
  return { name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [], ...extra };
}

/** A 2x2 position as Game.observation(viewer) gives it; `cards` are [card, element] per slot. */
function makeView(cards, extra = {}) {
  return {
    viewer: null, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS, grid_rows: 2, grid_cols: 2,
    deck: { count: 8, top: "wind" },
    grid: cards.map(([card, element]) => ({ card, element, tokens: {} })),
    players: [player("Ada"), player("Bo")], supply: counts(5), pool: counts(), activations: { used: 0, limit: 3 },
    collect_threshold: 2, effects: [], powers_used: [], is_over: false, end_reason: null, scores: [0, 0], winners: [],
    ...extra,
  };
}

const SETUP = [0, 1, 2, 3].map((slot) => ({ type: "reveal", slot, element: ELEMENTS[slot], cause: "setup", visible_to: "all" }));

/** A short line: set-up, Ada activates 0 and 3, ends Phase 2 (collects nothing), ends her turn. */
function makeLine() {
  return [
    { turn: 1, player: 0, phase: "activation", action: null, events: SETUP },
    { turn: 1, player: 0, phase: "activation", action: { type: "activate", slot: 0 }, events: [{ type: "activate", player: 0, slot: 0, element: "fire" }] },
    { turn: 1, player: 0, phase: "activation", action: { type: "activate", slot: 3 }, events: [{ type: "activate", player: 0, slot: 3, element: "wind" }] },
    {
      turn: 1, player: 0, phase: "activation", action: { type: "end_phase" },
      events: [{ type: "flip_back", player: 0, slots: [0, 3] }, { type: "phase", phase: "binding", player: 0 }],
    },
    {
      turn: 1, player: 0, phase: "binding", action: { type: "end_phase" },
      events: [{ type: "turn", turn: 2, player: 1, phase: "activation" }],
    },
  ];
}

function viewsAll() {
  const inert = (el) => ["inert", el];
  return [
    makeView([inert("fire"), inert("water"), inert("earth"), inert("wind")]),
    makeView([["active", "fire"], inert("water"), inert("earth"), inert("wind")], { activations: { used: 1, limit: 3 } }),
    makeView([["active", "fire"], inert("water"), inert("earth"), ["active", "wind"]], { activations: { used: 2, limit: 3 } }),
    makeView([inert("fire"), inert("water"), inert("earth"), inert("wind")], { phase: "binding" }),
    makeView([inert("fire"), inert("water"), inert("earth"), inert("wind")], { turn: 2, active_player: 1 }),
  ];
}

function asPlayer(view, p) {
  return { ...view, viewer: p, grid: view.grid.map((c) => (c.card === "inert" ? { ...c, element: null } : c)) };
}

/** What ReplayWidget syncs at `step` of the main line (all-seeing). */
function liveState(step = 0, extra = {}) {
  return {
    mode: "replay", view: viewsAll()[step], legal: { step, actor: null, variation: 0 }, info: INFO, error: "", ack: 0,
    step, variation: 0, viewer: null, viewers: [null, 0, 1],
    lines: [{ id: 0, name: "Main line", parent: null, start: 0, end: 4 }, { id: 1, name: "Bo <i>bluffs</i>", parent: 0, start: 2, end: 3 }],
    line: makeLine(), annotations: [], memory: {}, show_memory_of: null, memory_choices: [0, 1],
    hide_tags: ["spoiler"], editable: true, reveal_ms: 200, events: { seq: 0, step: 0, items: [] },
    ...extra,
  };
}

/** The anywidget model API with Backbone's behaviour: set() fires change events at once. */
class LiveModel extends FakeModel {
  constructor(state) {
    super(state);
    this.saved = [];
  }
  set(key, value) { this.update({ [key]: value }); }
  save_changes() { this.saved.push(Object.fromEntries(["step", "variation", "viewer", "show_memory_of"].map((k) => [k, this.state[k]]))); }
  /** What ReplayWidget answers when the page asks for a step. */
  answer() {
    const step = this.state.step;
    this.update({ view: viewsAll()[step], legal: { step, actor: null, variation: this.state.variation } });
  }
}

function key(window, target, k) {
  target.dispatchEvent(new window.KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
}

test("the replay mode is registered and renders the board with its controls", async () => {
  assert.equal(typeof MODES.replay, "function");
  const model = new LiveModel(liveState(2));
  const { el, cleanup, root } = mount(model);
  await tick();
  assert.equal(root().dataset.mode, "replay");
  assert.equal(root().dataset.step, "2");
  assert.equal(el.querySelector(".ll-prompt").textContent, "Step 2 of 4: Turn 1, Ada activates slot 3: ≋ Wind");
  const current = el.querySelector(".ll-move.ll-current");
  assert.equal(current.getAttribute("aria-current"), "step");
  assert.equal(current.dataset.step, "2");
  assert.equal(el.querySelectorAll(".ll-move").length, 5);
  assert.ok(el.querySelector('[data-act=card][data-slot="3"]').classList.contains("ll-last"), "the step's card is marked");
  assert.match(el.querySelector(".ll-happened").textContent, /Ada activated slot 3: ≋ Wind/);
  assert.equal(el.querySelector("[data-act=scrub]").value, "2");
  assert.equal(el.querySelector("[data-act=end]"), null, "a replay has no move buttons");
  // The variation's untrusted name is an option's text, not markup.
  const option = el.querySelector('select[data-act=line] option[value="1"]');
  assert.match(option.textContent, /Bo <i>bluffs<\/i> \(from step 2, 1 move\)/);
  assert.equal(el.querySelector("select[data-act=line] i"), null);
  cleanup();
  assert.equal(model.listeners(), 0);
  assert.equal(el.children.length, 0);
});

test("words for every kind of step", () => {
  const step = (action, events, extra = {}) => describeStep({ turn: 3, player: 1, phase: "activation", action, events, ...extra }, INFO);
  assert.equal(describeStep(makeLine()[0], INFO), "Set-up: the grid is dealt, each card shown face-up once");
  assert.equal(step({ type: "activate", slot: 5 }, [{ type: "activate", player: 1, slot: 5, element: "water" }]),
    "Turn 3, Bo activates slot 5: ● Water");
  assert.equal(step({ type: "deactivate", slot: 5 }, []), "Turn 3, Bo deactivates slot 5");
  assert.equal(step({ type: "refill", slot: 2 }, [{ type: "reveal", slot: 2, element: "earth", cause: "refill", visible_to: "all" }], { phase: "refill" }),
    "Turn 3, Bo refills slot 2: ■ Earth");
  assert.equal(step({ type: "place_token", slot: 1, element: "fire", source: "supply" }, [], { phase: "binding" }),
    "Turn 3, Bo places a ▲ Fire Binding token on slot 1 (from the supply)");
  const whisper = { type: "use_power", element: "wind", tier: "minor", targets: [4] };
  const power = { type: "power", player: 1, element: "wind", tier: "minor", name: "Whisper", effect: "whisper", targets: [4] };
  assert.equal(step(whisper, [power, { type: "reveal", slot: 4, element: "fire", cause: "whisper", visible_to: [1] }], { phase: "abilities" }),
    "Turn 3, Bo uses Whisper on slot 4, seeing slot 4: ▲ Fire");
  assert.equal(step(whisper, [power, { type: "reveal", slot: 4, element: null, cause: "whisper", visible_to: [1] }], { phase: "abilities" }),
    "Turn 3, Bo uses Whisper on slot 4", "a peek this viewer was not shown stays hidden");
  const tide = { type: "use_power", element: "water", tier: "major", targets: [6] };
  assert.equal(step(tide, [{ type: "power", name: "Tide", targets: [6] }, { type: "tide", slot: 6, to_deck: "fire" },
    { type: "reveal", slot: 6, element: "wind", cause: "tide", visible_to: "all" }], { phase: "abilities" }),
  "Turn 3, Bo uses Tide on slot 6: ▲ Fire goes on top of the deck, ≋ Wind comes in");
  // A seat's page glimpses refills, Tide and peeks, then the cards lie inert: the words stay,
  // so they do not name those cards; the activated card is face-up at its step.
  const seat = (action, events, extra = {}) => describeStep({ turn: 3, player: 1, phase: "activation", action, events, ...extra }, INFO, 1);
  assert.equal(seat({ type: "activate", slot: 5 }, [{ type: "activate", player: 1, slot: 5, element: "water" }]),
    "Turn 3, Bo activates slot 5: ● Water");
  assert.equal(seat({ type: "refill", slot: 2 }, [{ type: "reveal", slot: 2, element: "earth", cause: "refill", visible_to: "all" }], { phase: "refill" }),
    "Turn 3, Bo refills slot 2");
  assert.equal(seat(whisper, [power, { type: "reveal", slot: 4, element: "fire", cause: "whisper", visible_to: [1] }], { phase: "abilities" }),
    "Turn 3, Bo uses Whisper on slot 4");
  assert.equal(seat(tide, [{ type: "power", name: "Tide", targets: [6] }, { type: "tide", slot: 6, to_deck: "fire" },
    { type: "reveal", slot: 6, element: "wind", cause: "tide", visible_to: "all" }], { phase: "abilities" }),
  "Turn 3, Bo uses Tide on slot 6: the card goes on top of the deck, a new one comes in");
  const end = { type: "end_phase" };
  assert.equal(step(end, [{ type: "pass", player: 1 }]), "Turn 3, Bo passes");
  assert.equal(step(end, [{ type: "collect", player: 1, element: "water", slots: [1, 2], count: 2 },
    { type: "flip_back", player: 1, slots: [7] }]), "Turn 3, Bo collects 2 ● Water; slot 7 flips back");
  assert.equal(step(end, [{ type: "flip_back", player: 1, slots: [0, 3] }]), "Turn 3, Bo collects nothing; slots 0 and 3 flip back");
  assert.equal(step(end, [], { phase: "abilities" }), "Turn 3, Bo ends Phase 1");
  assert.equal(step(end, [{ type: "game_over", reason: "turn_limit", scores: [1, 2], winners: [1], turns: 3 }], { phase: "binding" }),
    "Turn 3, Bo ends the turn; the game ends");
});

test("applyPatch and decodeStream rebuild values without touching the originals", () => {
  const base = { a: 1, grid: [{ card: "inert", tokens: {} }, { card: "empty", tokens: {} }], top: "fire" };
  const next = applyPatch(base, [[["grid", 1, "card"], "active"], [["grid", 0, "tokens"], { fire: 2 }], [["top"], null]]);
  assert.deepEqual(next, { a: 1, grid: [{ card: "inert", tokens: { fire: 2 } }, { card: "active", tokens: {} }], top: null });
  assert.equal(base.grid[1].card, "empty");
  assert.deepEqual(applyPatch(base, [[[], [1, 2]]]), [1, 2]);
  const values = decodeStream({ base: { n: 0, xs: [0] }, patches: [[[["n"], 1]], [], [[["xs"], [0, 5]]]] });
  assert.deepEqual(values, [{ n: 0, xs: [0] }, { n: 1, xs: [0] }, { n: 1, xs: [0] }, { n: 1, xs: [0, 5] }]);
  values[1].xs.push(9);
  assert.deepEqual(values[2].xs, [0], "each value is its own copy");
});

/** A book as Replay.to_html writes it: all-seeing plus player 0, a main line and a variation. */
function makeBook() {
  const all = viewsAll();
  const frames = (views) => ({ base: views[0], patches: views.slice(1).map((v, i) => [[[], v]].concat(i ? [] : [])) });
  const varViews = [all[2], makeView([["active", "fire"], ["active", "water"], ["inert", "earth"], ["active", "wind"]], { activations: { used: 3, limit: 3 } })];
  const line = makeLine();
  const varEntry = { turn: 1, player: 0, phase: "activation", action: { type: "activate", slot: 1 }, events: [{ type: "activate", player: 0, slot: 1, element: "water" }] };
  return {
    format: "leyline-replay-page", version: 1, info: INFO, viewers: [null, 0],
    lines: [{ id: 0, name: "Main line", parent: null, start: 0, end: 4 }, { id: 1, name: "Three up", parent: 0, start: 2, end: 3 }],
    start: { step: 0, variation: 0, viewer: null },
    frames: {
      all: { 0: frames(all), 1: frames(varViews) },
      0: { 0: frames(all.map((v) => asPlayer(v, 0))), 1: frames(varViews.map((v) => asPlayer(v, 0))) },
    },
    entries: {
      all: { 0: { base: line }, 1: { base: [varEntry] } },
      0: { 0: { of: "all", patches: [[[0, "events", 0, "element"], null]] }, 1: { of: "all", patches: [] } },
    },
    notes: { 0: [{ step: 1, variation: 0, index: 0, text: "<img src=x onerror=alert(1)>", tags: [], highlights: [0] }], 1: [] },
    memory: null, hide_tags: ["spoiler"], reveal_ms: 100,
  };
}

test("bookModel looks positions up for the step, line and viewer, and refuses what it lacks", () => {
  const book = makeBook();
  const model = bookModel(book);
  let changes = 0;
  model.on("change", () => { changes += 1; });
  assert.equal(model.get("step"), 0);
  assert.equal(model.get("editable"), false);
  assert.deepEqual(model.get("view"), viewsAll()[0]);
  model.set("step", 3);
  model.save_changes();
  assert.equal(changes, 1);
  assert.deepEqual(model.get("view"), viewsAll()[3]);
  assert.deepEqual(model.get("legal"), { step: 3, actor: null, variation: 0 });
  // The variation: steps up to its branch step are its parent's; then its own.
  model.set("variation", 1);
  model.save_changes();
  assert.equal(model.get("step"), 3, "the variation ends at step 3");
  assert.equal(model.get("view").grid[1].card, "active");
  assert.equal(model.get("line").length, 4);
  assert.equal(model.get("line")[3].action.slot, 1);
  assert.equal(model.get("line")[2].action.slot, 3, "its first steps are the main line's");
  model.set("step", 1);
  model.save_changes();
  assert.deepEqual(model.get("view"), viewsAll()[1]);
  model.set("step", 99);
  model.save_changes();
  assert.equal(model.get("step"), 3, "past the end: the last step");
  // Player 0's eyes: entries patched from the all-seeing ones, inert cards without elements.
  model.set("viewer", 0);
  model.set("variation", 0);
  model.save_changes();
  assert.equal(model.get("viewer"), 0);
  assert.equal(model.get("line")[0].events[0].element, null);
  assert.ok(model.get("view").grid.every((c) => c.card !== "inert" || c.element === null));
  model.set("viewer", 1); // not in this book
  model.save_changes();
  assert.equal(model.get("viewer"), 0);
  model.set("variation", 7);
  model.save_changes();
  assert.equal(model.get("variation"), 0);
  assert.equal(model.get("annotations")[0].text, "<img src=x onerror=alert(1)>");
  assert.deepEqual(model.get("memory"), {});
});

test("bookModel: the memory panel is the all-seeing view's, per step, and can be switched off", () => {
  const report = (step) => ({ player: 1, name: "Bo", step, slots: [], missed: [], never_seen: [], summary: { seen: 0, cards: 0 } });
  const book = {
    ...makeBook(),
    memory: { player: 1, lines: { 0: { base: report(0), patches: [1, 2, 3, 4].map((k) => [[["step"], k]]) }, 1: { base: report(2), patches: [[[["step"], 33]]] } } },
  };
  const model = bookModel(book);
  assert.deepEqual(model.get("memory_choices"), [1]);
  assert.equal(model.get("memory").step, 0);
  const go = (patch) => {
    for (const [k, v] of Object.entries(patch)) model.set(k, v);
    model.save_changes();
  };
  go({ step: 3 });
  assert.equal(model.get("memory").step, 3);
  go({ variation: 1 });
  assert.equal(model.get("memory").step, 33, "the variation's own step");
  go({ step: 2 });
  assert.equal(model.get("memory").step, 2, "up to its branch step: the main line's");
  go({ show_memory_of: null });
  assert.deepEqual(model.get("memory"), {});
  go({ show_memory_of: 0 }); // not in this book
  assert.equal(model.get("show_memory_of"), null);
  go({ show_memory_of: 1, viewer: 0 });
  assert.deepEqual(model.get("memory"), {}, "a player's eyes get no memory panel");
});

test("the page asks for steps and waits for them: buttons, list, slider, keys", async () => {
  const model = new LiveModel(liveState(0));
  const { window, el, cleanup, root } = mount(model);
  await tick();
  const act = (a) => el.querySelector(`[data-act=${a}]`);
  assert.equal(act("back").getAttribute("aria-disabled"), "true");
  act("forward").click();
  assert.deepEqual(model.saved.at(-1), { step: 1, variation: 0, viewer: null, show_memory_of: null });
  await tick();
  assert.ok(root().classList.contains("ll-waiting"), "the step asked for is not shown yet");
  assert.equal(root().dataset.step, "0");
  model.answer();
  await tick();
  assert.equal(root().dataset.step, "1");
  assert.ok(!root().classList.contains("ll-waiting"));
  assert.match(el.querySelector(".ll-prompt").textContent, /Step 1 of 4: Turn 1, Ada activates slot 0: ▲ Fire/);
  // Keys on any control: arrows, End, Home; keys pressed faster than the kernel answers add up.
  act("forward").focus();
  key(window, window.document.activeElement, "ArrowRight");
  key(window, window.document.activeElement, "ArrowRight");
  assert.equal(model.get("step"), 3);
  model.answer();
  key(window, window.document.activeElement, "End");
  assert.equal(model.get("step"), 4);
  key(window, window.document.activeElement, "Home");
  assert.equal(model.get("step"), 0);
  key(window, window.document.activeElement, "ArrowLeft");
  assert.equal(model.get("step"), 0, "no step before set-up");
  model.answer();
  // The moves list and the slider.
  el.querySelector('.ll-move[data-step="3"]').click();
  assert.equal(model.get("step"), 3);
  model.answer();
  await tick();
  assert.equal(el.querySelector(".ll-move.ll-current").dataset.step, "3");
  const slider = act("scrub");
  slider.value = "2";
  slider.dispatchEvent(new window.Event("input", { bubbles: true }));
  assert.equal(model.get("step"), 2);
  // Keys in a text field are the field's own.
  act("note-new").click();
  await tick();
  key(window, act("note-text"), "ArrowRight");
  assert.equal(model.get("step"), 2);
  cleanup();
});

test("a step forward glimpses what it brought onto the grid; a jump does not", async () => {
  const line = makeLine();
  line[1] = { ...line[1], events: [{ type: "reveal", slot: 2, element: "earth", cause: "refill", visible_to: "all" }] };
  const views = viewsAll().map((v) => asPlayer(v, 0));
  const model = new LiveModel(liveState(0, { viewer: 0, line, view: views[0] }));
  const { el, cleanup } = mount(model);
  await tick();
  const c2 = () => el.querySelector('[data-act=card][data-slot="2"]');
  // A player's page opens on the deal, shown as it was to everyone, until "Ready".
  assert.equal(c2().getAttribute("data-element"), "earth");
  el.querySelector("[data-act=ready]").click();
  await tick();
  assert.equal(c2().getAttribute("data-element"), null);
  assert.ok(el.querySelector("[data-act=deal-again]"));
  model.update({ step: 1 });
  model.update({ view: views[1], legal: { step: 1, actor: null, variation: 0 } });
  await tick();
  assert.equal(c2().getAttribute("data-element"), "earth");
  assert.ok(c2().classList.contains("ll-glimpse"));
  await sleep(300);
  assert.equal(c2().getAttribute("data-element"), null, "after reveal_ms the page forgets it");
  cleanup();
});

test("autoplay moves one step at a time, waiting for each, and stops at the end", async () => {
  const model = new LiveModel(liveState(2));
  const { el, cleanup } = mount(model);
  await tick();
  const speed = el.querySelector("select[data-act=speed]");
  speed.value = "400";
  speed.dispatchEvent(new el.ownerDocument.defaultView.Event("change", { bubbles: true }));
  el.querySelector("[data-act=play]").click();
  await tick();
  assert.equal(el.querySelector("[data-act=play]").getAttribute("aria-pressed"), "true");
  await sleep(450);
  assert.equal(model.get("step"), 3);
  await sleep(450);
  assert.equal(model.get("step"), 3, "no next step before the kernel shows this one");
  model.answer();
  await sleep(450);
  assert.equal(model.get("step"), 4);
  model.answer();
  await sleep(100);
  assert.equal(el.querySelector("[data-act=play]").getAttribute("aria-pressed"), "false", "stopped at the last step");
  cleanup();
});

test("notes are text, hidden tags toggle, and the editor sends notes to the kernel", async () => {
  const evil = '<img src=x onerror="globalThis.pwned=1">';
  const annotations = [
    { step: 1, variation: 0, index: 0, text: evil, tags: ["hint"], highlights: [2, 3] },
    { step: 1, variation: 0, index: 1, text: "Slot 1 is water", tags: ["spoiler"], highlights: [1] },
  ];
  const model = new LiveModel(liveState(1, { annotations }));
  const { window, el, cleanup } = mount(model);
  await tick();
  const notes = () => [...el.querySelectorAll(".ll-notetext")].map((n) => n.textContent);
  assert.deepEqual(notes(), [evil]);
  assert.equal(el.querySelector("img"), null, "the note's markup is not markup");
  assert.equal(globalThis.pwned, undefined);
  assert.ok(el.querySelector('[data-act=card][data-slot="2"]').classList.contains("ll-hl"));
  assert.ok(!el.querySelector('[data-act=card][data-slot="1"]').classList.contains("ll-hl"), "a hidden note points at nothing");
  assert.match(el.querySelector('.ll-move[data-step="1"]').textContent, /✎/);
  const toggle = el.querySelector("[data-act=toggle-hidden]");
  assert.match(toggle.textContent, /Show 1 hidden note \(spoiler\)/);
  toggle.click();
  await tick();
  assert.deepEqual(notes(), [evil, "Slot 1 is water"]);
  // A new note: text, tags, cards clicked on the grid.
  el.querySelector("[data-act=note-new]").click();
  await tick();
  const form = el.querySelector(".ll-noteform");
  assert.ok(!form.classList.contains("ll-hidden"));
  assert.equal(window.document.activeElement, el.querySelector("[data-act=note-text]"));
  const type = (act, value) => {
    const field = el.querySelector(`[data-act=${act}]`);
    field.value = value;
    field.dispatchEvent(new window.Event("input", { bubbles: true }));
  };
  type("note-text", "Ada forgot <this>");
  type("note-tags", "Hint, mistake");
  el.querySelector('[data-act=card][data-slot="3"]').click();
  el.querySelector('[data-act=card][data-slot="0"]').click();
  await tick();
  assert.ok(el.querySelector('[data-act=card][data-slot="0"]').classList.contains("ll-pick"));
  el.querySelector("[data-act=note-save]").click();
  assert.deepEqual(model.sent.at(-1), { type: "annotate", step: 1, text: "Ada forgot <this>", tags: ["hint", "mistake"], highlights: [0, 3] });
  // A refusal keeps the draft; success closes the form.
  model.update({ ack: 1, error: "Note tag 'x!' is not a tag." });
  await tick();
  assert.ok(!el.querySelector(".ll-noteform").classList.contains("ll-hidden"));
  assert.match(el.querySelector("[role=alert]").textContent, /is not a tag/);
  el.querySelector("[data-act=note-save]").click();
  model.update({ ack: 2, error: "", annotations: annotations.concat([{ step: 1, variation: 0, index: 2, text: "Ada forgot <this>", tags: ["hint"], highlights: [0, 3] }]) });
  await tick();
  assert.ok(el.querySelector(".ll-noteform").classList.contains("ll-hidden"));
  assert.equal(notes().length, 3);
  // Edit: the form opens filled in; the message names the note.
  el.querySelector('[data-act=note-edit][data-index="1"]').click();
  await tick();
  assert.equal(el.querySelector("[data-act=note-text]").value, "Slot 1 is water");
  assert.equal(el.querySelector("[data-act=note-tags]").value, "spoiler");
  type("note-text", "Slot 1 holds water");
  el.querySelector("[data-act=note-save]").click();
  assert.deepEqual(model.sent.at(-1), { type: "edit_note", variation: 0, step: 1, index: 1, text: "Slot 1 holds water", tags: ["spoiler"], highlights: [1] });
  // Escape closes the editor, even from its text field.
  key(window, el.querySelector("[data-act=note-text]"), "Escape");
  await tick();
  assert.ok(el.querySelector(".ll-noteform").classList.contains("ll-hidden"));
  // Delete asks twice.
  const sent = model.sent.length;
  el.querySelector('[data-act=note-remove][data-index="0"]').click();
  await tick();
  assert.equal(model.sent.length, sent);
  assert.equal(el.querySelector('[data-act=note-remove][data-index="0"]').textContent, "Really delete?");
  el.querySelector('[data-act=note-remove][data-index="0"]').click();
  assert.deepEqual(model.sent.at(-1), { type: "remove_note", variation: 0, step: 1, index: 0 });
  cleanup();
});

test("viewer, line and memory menus ask the kernel; all-seeing only when offered", async () => {
  const model = new LiveModel(liveState(1));
  const { el, cleanup } = mount(model);
  await tick();
  const pick = (act, value) => {
    const select = el.querySelector(`select[data-act=${act}]`);
    select.value = value;
    select.dispatchEvent(new el.ownerDocument.defaultView.Event("change", { bubbles: true }));
  };
  assert.deepEqual([...el.querySelectorAll("select[data-act=viewer] option")].map((o) => o.textContent),
    ["All-seeing (teacher)", "Ada", "Bo"]);
  pick("memory-of", "1");
  assert.equal(model.saved.at(-1).show_memory_of, 1);
  pick("viewer", "1");
  assert.equal(model.saved.at(-1).viewer, 1);
  await tick();
  assert.equal(el.querySelector("select[data-act=memory-of]"), null, "memory is the teacher's");
  pick("viewer", "all");
  assert.equal(model.saved.at(-1).viewer, null);
  pick("line", "1");
  assert.equal(model.saved.at(-1).variation, 1);
  model.update({ viewers: [0, 1], viewer: 0 });
  await tick();
  assert.deepEqual([...el.querySelectorAll("select[data-act=viewer] option")].map((o) => o.textContent), ["Ada", "Bo"]);
  cleanup();
});

test("a standalone page (bookModel) scrubs by keys with no kernel, and its notes are read-only", async () => {
  const { window, el, cleanup, root } = mount(bookModel(makeBook()));
  await tick();
  assert.equal(root().dataset.step, "0");
  el.querySelector("[data-act=forward]").focus();
  key(window, window.document.activeElement, "ArrowRight");
  await tick();
  assert.equal(root().dataset.step, "1");
  assert.equal(el.querySelector('[data-act=card][data-slot="0"]').getAttribute("data-card"), "active");
  assert.equal(el.querySelector(".ll-notetext").textContent, "<img src=x onerror=alert(1)>");
  assert.equal(el.querySelector("img"), null);
  assert.equal(el.querySelector("[data-act=note-new]"), null);
  assert.equal(el.querySelector("[data-act=note-edit]"), null);
  assert.match(el.querySelector(".ll-notes").textContent, /read-only/);
  key(window, window.document.activeElement, "End");
  await tick();
  assert.equal(root().dataset.step, "4");
  cleanup();
});

test("a seek on a standalone page builds only what changed: unchanged cards, the Study and the move list stay the same nodes", async () => {
  const { window, el, cleanup, root } = mount(bookModel(makeBook()));
  await tick();
  el.querySelector("[data-act=forward]").focus();
  key(window, window.document.activeElement, "ArrowRight");
  await tick();
  const card = (/** @type {number} */ s) => el.querySelector(`[data-act=card][data-slot="${s}"]`);
  const before = [0, 1, 2, 3].map(card);
  const list = el.querySelector(".ll-movelist");
  const study = el.querySelector(".ll-study");
  const deck = el.querySelector(".ll-deck");
  assert.ok(before[0].classList.contains("ll-last"), "step 1 activated slot 0");
  key(window, window.document.activeElement, "ArrowRight");
  await tick();
  assert.equal(root().dataset.step, "2");
  // Step 2 turns slot 3 up and moves the last-move mark from slot 0 to slot 3: slots 1 and 2
  // look the same and are the same nodes; the changed ones show their new looks.
  assert.equal(card(1), before[1]);
  assert.equal(card(2), before[2]);
  assert.ok(!card(0).classList.contains("ll-last"));
  assert.ok(card(3).classList.contains("ll-last"));
  assert.equal(card(3).getAttribute("data-card"), "active");
  assert.equal(el.querySelector(".ll-movelist"), list, "the move list is kept");
  assert.equal(el.querySelector(".ll-study"), study);
  assert.equal(el.querySelector(".ll-deck"), deck);
  assert.deepEqual(Array.from(list.querySelectorAll(".ll-move.ll-current"), (b) => b.getAttribute("data-step")), ["2"]);
  assert.equal(list.querySelector('.ll-move[data-step="1"]').hasAttribute("aria-current"), false);
  // No stand-in reaches the page.
  assert.equal(el.querySelector("template"), null);
  cleanup();
});

test("renderReplay: cards, the Study and the side panels are stand-ins keyed by their looks, marks included", () => {
  const window = dom();
  const doc = window.document;
  const keys = (tree) => Array.from(tree.querySelectorAll(".ll-grid > template"), (t) => t.getAttribute("data-paint-key"));
  const one = renderReplay(liveState(1), newReplayUi(), doc, 0);
  const two = renderReplay(liveState(2), newReplayUi(), doc, 0);
  assert.equal(one.querySelectorAll("[data-act=card]").length, 0, "no card is built for morph to compare");
  const [k1, k2] = [keys(one), keys(two)];
  assert.equal(k1.length, 4);
  // Step 1 -> 2: slot 3 turns up and takes the last-move mark from slot 0; slots 1 and 2 keep their keys.
  assert.deepEqual(k1.map((k, i) => k === k2[i]), [false, true, true, false]);
  const built = whole(two);
  assert.ok(built.querySelector('[data-act=card][data-slot="3"]').classList.contains("ll-last"));
  assert.ok(!built.querySelector('[data-act=card][data-slot="0"]').classList.contains("ll-last"));
  assert.ok(one.querySelector(".ll-side > template") && !one.querySelector(".ll-study"), "side panels and Study wait to be built");
  assert.ok(built.querySelector(".ll-side .ll-deck") && built.querySelector(".ll-side .ll-moves") && built.querySelector(".ll-study"));
  // A note's form puts its title on every card (and so into every key).
  const ui = newReplayUi();
  ui.form.open = true;
  ui.form.highlights = [2];
  const picking = whole(renderReplay(liveState(2), ui, doc, 0));
  assert.ok(picking.querySelector('[data-act=card][data-slot="2"]').classList.contains("ll-pick"));
  assert.equal(picking.querySelector('[data-act=card][data-slot="1"]').getAttribute("title"), "Click to point at this card in your note");
});

test("renderReplay is pure: the same state gives the same tree", () => {
  const window = dom();
  const st = liveState(3);
  const a = renderReplay(st, newReplayUi(), window.document, 0);
  const b = renderReplay(st, newReplayUi(), window.document, 0);
  assert.equal(a.outerHTML, b.outerHTML);
  assert.match(a.querySelector(".ll-prompt").textContent, /collects nothing; slots 0 and 3 flip back/);
  assert.equal(renderReplay({ ...st, view: {} }, newReplayUi(), window.document).textContent, "Loading the replay…");
});

test("explore on the board: a power and its target, then a Binding token, as in the play widget", async () => {
  // Step 0 in Phase 1: Ada may Whisper (one target); the kernel's summary and every legal move.
  const inert = (el) => ["inert", el];
  const abilities = makeView([inert("fire"), inert("water"), inert("earth"), inert("wind")],
    { phase: "abilities", players: [player("Ada", { study: { ...counts(), wind: 2 }, unlocked: ["wind:minor"] }), player("Bo")] });
  const whisper = { min: 1, max: 1, slots: [0, 1, 2, 3] };
  const model = new LiveModel(liveState(0, {
    view: abilities, legal: { step: 0, actor: 0, variation: 0, end: true, powers: { "wind:minor": whisper }, why_power: {} },
    explore: true, allow_explore: true,
    choices: [0, 1, 2, 3].map((s) => ({ action: { type: "use_power", element: "wind", tier: "minor", targets: [s] } }))
      .concat([{ action: { type: "end_phase" } }]),
  }));
  const { el, cleanup } = mount(model);
  await tick();
  const q = (sel) => el.querySelector(sel);
  // A card before a power: a hint, nothing sent.
  q('[data-act=card][data-slot="2"]').click();
  await tick();
  assert.equal(model.sent.length, 0);
  assert.match(q(".ll-error").textContent, /click a power in your Study first/);
  q('[data-act=power][data-key="wind:minor"]').click();
  await tick();
  assert.ok(q(".ll-powerinfo"), "the power's panel opens");
  assert.ok(q('[data-act=card][data-slot="2"]').classList.contains("ll-candidate"));
  q('[data-act=card][data-slot="2"]').click();
  await tick();
  assert.deepEqual(model.sent.at(-1), { type: "action", action: { type: "use_power", element: "wind", tier: "minor", targets: [2] }, step: 0 });
  assert.equal(q(".ll-powerinfo"), null, "the picks are cleared once the move is sent");

  // The kernel answers with the variation's next position: Binding, where a source is picked
  // first, then the card.
  const binding = makeView([inert("fire"), inert("water"), inert("earth"), inert("wind")], { phase: "binding" });
  const place = Object.fromEntries(ELEMENTS.map((e) => [e, { supply: "", marker: "No Spent marker of that element.", pool: "The Token Pool has none." }]));
  model.update({
    step: 1, variation: 1, view: binding, legal: { step: 1, actor: 0, variation: 1, end: true, place, powers: {}, why_power: {} },
    choices: [{ action: { type: "place_token", slot: 3, element: "fire", source: "supply" } }, { action: { type: "end_phase" } }],
  });
  await tick();
  q('[data-act=card][data-slot="3"]').click();
  await tick();
  assert.match(q(".ll-error").textContent, /Pick an element and a source/);
  q('[data-act=source][data-element=fire][data-source=pool]').click();
  await tick();
  assert.match(q(".ll-error").textContent, /Token Pool has none/, "a source that cannot pay says why");
  q('[data-act=source][data-element=fire][data-source=supply]').click();
  await tick();
  assert.equal(q('[data-act=source][data-element=fire][data-source=supply]').getAttribute("aria-pressed"), "true");
  q('[data-act=card][data-slot="3"]').click();
  await tick();
  assert.deepEqual(model.sent.at(-1), { type: "action", action: { type: "place_token", slot: 3, element: "fire", source: "supply" }, step: 1 });
  // Off explore (no choices) a power button only shows the power's text; cards send nothing.
  const sent = model.sent.length;
  model.update({ legal: { step: 1, actor: null, variation: 1 }, choices: [], explore: false });
  await tick();
  q('[data-act=card][data-slot="1"]').click();
  await tick();
  assert.equal(model.sent.length, sent);
  cleanup();
});

test("guess the move on the board: a power and its target is a guess, not a variation", async () => {
  const inert = (el) => ["inert", el];
  const abilities = makeView([inert(null), inert(null), inert(null), inert(null)],
    { viewer: 0, phase: "abilities", players: [player("Ada", { study: { ...counts(), wind: 2 }, unlocked: ["wind:minor"] }), player("Bo")] });
  const model = new LiveModel(liveState(0, {
    view: abilities, viewer: 0, viewers: [0], train: 0, training: { seat: 0, right: 0, total: 0, last: null }, editable: false,
    legal: { step: 0, actor: 0, variation: 0, end: true, powers: { "wind:minor": { min: 1, max: 1, slots: [0, 1, 2, 3] } }, why_power: {} },
    choices: [0, 1, 2, 3].map((s) => ({ action: { type: "use_power", element: "wind", tier: "minor", targets: [s] } })),
  }));
  const { el, cleanup } = mount(model);
  await tick();
  el.querySelector("[data-act=ready]")?.click(); // the deal at step 0 on a seat's page
  await tick();
  el.querySelector('[data-act=power][data-key="wind:minor"]').click();
  await tick();
  el.querySelector('[data-act=card][data-slot="1"]').click();
  await tick();
  assert.deepEqual(model.sent.at(-1), { type: "guess", action: { type: "use_power", element: "wind", tier: "minor", targets: [1] }, step: 0 });
  cleanup();
});

test("a trait the kernel sets to None reaches the page as its null mark (Pyodide) and reads as null", async () => {
  const { PAGE_NULL } = await import("../src/index.js");
  const model = new LiveModel(liveState(1, { viewer: 0 }));
  const { root, cleanup } = mount(model);
  await tick();
  assert.equal(root().dataset.viewer, "0");
  // JupyterLite's kernel would drop `viewer: undefined` from the update altogether; base.py
  // sends the mark there instead, and the page must read it as the teacher's view (null).
  model.update({ viewer: { ...PAGE_NULL } });
  await tick();
  assert.equal(root().dataset.viewer, "all");
  assert.equal(root().querySelector("select[data-act=viewer]").value, "all", "the Viewer menu shows the teacher");
  cleanup();
});
