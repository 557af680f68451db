// Unit tests of the Leyline front-end's rendering logic: jsdom and a fake anywidget model.
// Run with `node --test js/tests/` from the repository root (jsdom is in node_modules).
import { test } from "node:test";
import assert from "node:assert/strict";

import { cellFace, renderBoard } from "../src/board.js";
import { lazy, morph, PAINT_KEY } from "../src/dom.js";
import widget, { MODES } from "../src/index.js";
import { elementLook } from "../src/looks.js";
import { absorbEvents, newUi } from "../src/play.js";
import { describeAction, describeEvent, promptFor } from "../src/words.js";
import { FakeModel, dom, mount as mountModel, sleep, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];

function counts(v = 0) {
  return Object.fromEntries(ELEMENTS.map((e) => [e, v]));
}

function player(name, extra = {}) {
  return {
    name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [],
    ...extra,
  };
}

/** A view like Game.observation(0) of a fresh solo game, with overrides. */
function makeView(extra = {}) {
  return {
    viewer: 0, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS,
    grid_rows: 3, grid_cols: 4, deck: { count: 36, top: "wind" },
    grid: Array.from({ length: 12 }, () => ({ card: "inert", element: null, tokens: {} })),
    players: [player("Ada")], supply: counts(5), pool: counts(), activations: { used: 0, limit: 3 },
    collect_threshold: 2, effects: [], powers_used: [], is_over: false, end_reason: null,
    scores: [0], winners: [], ...extra,
  };
}

const POWERS = [
  ["fire", "minor", "Spark"], ["fire", "major", "Wildfire"], ["water", "minor", "Ripple"],
  ["water", "major", "Tide"], ["earth", "minor", "Unbind"], ["earth", "major", "Sanctuary"],
  ["wind", "minor", "Whisper"], ["wind", "major", "Gale"],
].map(([element, tier, name]) => ({
  element, tier, name, key: `${element}:${tier}`, text: `${name} text.`, instructions: `How to use ${name}.`,
}));

function makeInfo(players = [{ name: "Ada", bot: null }]) {
  return {
    elements: ELEMENTS, players, powers: POWERS, thresholds: { minor: 2, major: 5 },
    activations: 3, collect_threshold: 2, turn_limit: null,
  };
}

function allSlots() {
  return Array.from({ length: 12 }, (_, i) => i);
}

function makeState(extra = {}) {
  return {
    mode: "play", view: makeView(), info: makeInfo(), error: "", ack: 0, bot_delay_ms: 800,
    reveal_ms: 1500, viewer: "active",
    legal: { step: 0, actor: 0, end: true, activate: allSlots(), deactivate: [], blocked: {}, powers: {}, why_power: {} },
    events: { seq: 1, step: 0, items: [] },
    ...extra,
  };
}

const mount = (state) => mountModel(new FakeModel(state));

function card(el, slot) {
  return el.querySelector(`[data-act=card][data-slot="${slot}"]`);
}

test("default export is {render} and modes dispatch on the mode trait", () => {
  assert.equal(typeof widget.render, "function");
  assert.deepEqual(Object.keys(widget), ["render"]);
  assert.equal(typeof MODES.play, "function");
  const { el, cleanup } = mount(makeState({ mode: "no-such-mode" }));
  assert.ok(el.querySelector(".leyline .ll-grid"), "unknown modes fall back to play");
  cleanup();
});

test("every element has a distinct symbol and colour; unknown elements get spares", () => {
  const looks = ELEMENTS.map((e) => elementLook(e, ELEMENTS));
  assert.equal(new Set(looks.map((l) => l.symbol)).size, 4);
  assert.equal(new Set(looks.map((l) => l.colour)).size, 4);
  assert.equal(looks[0].name, "Fire");
  const odd = elementLook("aether", [...ELEMENTS, "aether"]);
  assert.ok(odd.symbol && odd.colour);
  assert.equal(odd.name, "Aether");
});

test("inert cards never carry their element in the DOM; active cards do", () => {
  const window = dom();
  const grid = makeView().grid.slice();
  grid[2] = { card: "active", element: "water", tokens: {} };
  grid[5] = { card: "inert", element: null, tokens: { fire: 2 } };
  grid[7] = { card: "empty", element: null, tokens: {} };
  const st = makeState({ view: makeView({ grid, deck: { count: 36, top: null } }) });
  const root = renderBoard(st, newUi(), window.document, 0);
  const cards = root.querySelectorAll("[data-act=card]");
  assert.equal(cards.length, 12);
  for (const c of cards) {
    if (c.getAttribute("data-card") !== "active") assert.equal(c.getAttribute("data-element"), null);
  }
  assert.equal(cards[2].getAttribute("data-element"), "water");
  assert.match(cards[2].getAttribute("aria-label"), /activated Water card/);
  assert.match(cards[5].getAttribute("aria-label"), /bound by 2 Fire tokens/);
  assert.equal(cards[5].querySelector(".ll-token").textContent, "▲×2");
  assert.equal(cards[7].getAttribute("data-card"), "empty");
  // The grid's words mention water only once (the active card): nothing leaks elsewhere.
  const gridText = root.querySelector(".ll-grid").outerHTML;
  assert.equal((gridText.match(/Water/g) || []).length, 3); // aria-label (its visible words first, then its state) and face name
  assert.doesNotMatch([...cards].filter((c) => c !== cards[2]).map((c) => c.outerHTML).join(""), /Water/);
});

test("the teacher view shows inert cards' elements, marked as inert", () => {
  const window = dom();
  const grid = makeView().grid.map((c, i) => ({ ...c, element: ELEMENTS[i % 4] }));
  const st = makeState({ view: makeView({ viewer: null, grid }) });
  const root = renderBoard(st, newUi(), window.document, 0);
  const c0 = root.querySelector('[data-slot="0"]');
  assert.equal(c0.getAttribute("data-element"), "fire");
  assert.ok(c0.classList.contains("ll-seen"));
  assert.match(root.querySelector(".ll-status").textContent, /Teacher view/);
});

test("a click sends the action and marks the card pending at once; the reply clears it", async () => {
  const { el, model, cleanup } = mount(makeState());
  const c3 = card(el, 3);
  c3.click();
  assert.ok(c3.classList.contains("ll-pending"), "pending is shown synchronously, before any reply");
  assert.deepEqual(model.sent, [{ type: "action", action: { type: "activate", slot: 3 }, step: 0 }]);
  await tick();
  assert.ok(card(el, 3).classList.contains("ll-pending"), "a repaint keeps the pending mark");
  const grid = makeView().grid.slice();
  grid[3] = { card: "active", element: "earth", tokens: {} };
  model.update({
    view: makeView({ grid, activations: { used: 1, limit: 3 } }), ack: 1,
    legal: { step: 1, actor: 0, end: true, activate: allSlots().filter((s) => s !== 3), deactivate: [3], blocked: {}, powers: {}, why_power: {} },
  });
  await tick();
  assert.equal(card(el, 3), c3, "the same node is kept (no flicker, focus survives)");
  assert.ok(!c3.classList.contains("ll-pending"));
  assert.equal(c3.getAttribute("data-element"), "earth");
  c3.click();
  assert.deepEqual(model.sent[1].action, { type: "deactivate", slot: 3 });
  assert.match(el.querySelector(".ll-acts").textContent, /2\/3/);
  cleanup();
});

test("a refusal is shown in words, and a repeated refusal clears the pending mark", async () => {
  const { el, model, cleanup } = mount(makeState());
  card(el, 1).click();
  model.update({ error: "Slot 1 is bound by 1 fire token and your Study holds 0 fire.", ack: 1 });
  await tick();
  const alert = el.querySelector("[role=alert]");
  assert.match(alert.textContent, /bound by 1 fire token/);
  card(el, 1).click();
  assert.ok(card(el, 1).classList.contains("ll-pending"));
  model.update({ ack: 2 }); // same error text: only ack changes
  await tick();
  assert.ok(!card(el, 1).classList.contains("ll-pending"));
  el.querySelector("[data-act=dismiss]").click();
  await tick();
  assert.ok(el.querySelector("[role=alert]").classList.contains("ll-hidden"));
  cleanup();
});

test("brief reveals show the element for reveal_ms, then the DOM forgets it", async () => {
  const items = [0, 1, 2].map((slot) => ({ type: "reveal", slot, element: ELEMENTS[slot], cause: "setup", visible_to: "all" }));
  const { el, model, cleanup } = mount(makeState({ reveal_ms: 400, deal_ms: 400, events: { seq: 1, step: 0, items } }));
  await tick();
  // The deal waits for Ready: nothing shows before it.
  assert.equal(card(el, 1).getAttribute("data-element"), null);
  el.querySelector("[data-act=deal-ready]").click();
  await tick();
  assert.equal(card(el, 1).getAttribute("data-element"), "water");
  assert.ok(card(el, 1).classList.contains("ll-glimpse"));
  await sleep(600);
  for (const s of [0, 1, 2]) {
    assert.equal(card(el, s).getAttribute("data-element"), null);
    assert.ok(!/Water|Fire|Earth/.test(card(el, s).outerHTML));
  }
  // A peek hidden from this viewer (element null) reveals nothing.
  model.update({ events: { seq: 2, step: 1, items: [{ type: "reveal", slot: 4, element: null, cause: "whisper", visible_to: [1] }] } });
  await tick();
  assert.equal(card(el, 4).getAttribute("data-element"), null);
  assert.match(el.querySelector(".ll-log").textContent, /Slot 4 was peeked at: only Player 2 saw it/);
  cleanup();
});

test("refill: empty slots are clickable, the deck's next card is highlighted", async () => {
  const grid = makeView().grid.slice();
  grid[4] = { card: "empty", element: null, tokens: {} };
  const view = makeView({ phase: "refill", grid, deck: { count: 20, top: "fire" } });
  const { el, model, cleanup } = mount(makeState({ view, legal: { step: 5, actor: 0, end: false, refill: [4], powers: {}, why_power: {} } }));
  assert.ok(card(el, 4).classList.contains("ll-legal"));
  assert.ok(el.querySelector(".ll-deck .ll-next"));
  assert.equal(el.querySelector(".ll-deck [data-element]").getAttribute("data-element"), "fire");
  assert.match(el.querySelector(".ll-prompt").textContent, /next card \(▲ Fire\)/);
  card(el, 4).click();
  assert.deepEqual(model.sent.at(-1), { type: "action", action: { type: "refill", slot: 4 }, step: 5 });
  assert.equal(el.querySelector("[data-act=end]").getAttribute("aria-disabled"), "true");
  cleanup();
});

test("binding: pick element and source (with reasons for the others), then a card", async () => {
  const view = makeView({ phase: "binding", players: [player("Ada", { study: { ...counts(), fire: 2 } })] });
  const place = Object.fromEntries(ELEMENTS.map((e) => [e, {
    supply: e === "fire" ? "" : `Your Study holds no ${e}.`, marker: "No tokens stacked.", pool: "The Token Pool holds none.",
  }]));
  const { el, model, cleanup } = mount(makeState({ view, legal: { step: 9, actor: 0, end: true, place, powers: {}, why_power: {} } }));
  card(el, 2).click();
  await tick();
  assert.match(el.querySelector("[role=alert]").textContent, /Pick an element and a source/);
  assert.equal(model.sent.length, 0);
  const water = el.querySelector('[data-act=source][data-element=water][data-source=supply]');
  assert.equal(water.getAttribute("aria-disabled"), "true");
  water.click();
  await tick();
  assert.match(el.querySelector("[role=alert]").textContent, /holds no water/);
  el.querySelector('[data-act=source][data-element=fire][data-source=supply]').click();
  await tick();
  assert.equal(el.querySelector('[data-element=fire][data-source=supply]').getAttribute("aria-pressed"), "true");
  card(el, 2).click();
  assert.deepEqual(model.sent.at(-1).action, { type: "place_token", slot: 2, element: "fire", source: "supply" });
  el.querySelector("[data-act=end]").click();
  assert.deepEqual(model.sent.at(-1).action, { type: "end_phase" });
  cleanup();
});

test("powers: locked below the threshold, hover text, click to read and use with targets", async () => {
  const p = player("Ada", { study: { ...counts(), water: 2, fire: 2 }, unlocked: ["fire:minor", "water:minor"] });
  const view = makeView({ phase: "abilities", players: [p] });
  const legal = {
    step: 3, actor: 0, end: true, powers: { "water:minor": { min: 2, max: 2, slots: allSlots() }, "fire:minor": { min: 0, max: 0, slots: [] } },
    why_power: { "earth:minor": "Unbind unlocks at 2 earth in your Study, and you have 0." },
  };
  const { el, model, cleanup } = mount(makeState({ view, legal }));
  const unbind = el.querySelector('[data-key="earth:minor"]');
  assert.ok(unbind.classList.contains("ll-locked"));
  // A locked power reads as its name, locked (not "Minor 2"), and its name holds that label.
  assert.equal(unbind.textContent, "Unbind locked");
  assert.ok(unbind.getAttribute("aria-label").startsWith("Unbind locked"));
  assert.equal(unbind.getAttribute("title"), "Unbind (Minor): Unbind text.");
  assert.equal(el.querySelector('[data-key="earth:major"]').textContent, "Sanctuary locked");
  unbind.click();
  await tick();
  // Clicking it says what unlocks it, not which phase powers are used in.
  assert.match(el.querySelector(".ll-powerinfo").textContent, /How to use Unbind.*Locked: Unbind unlocks with 2 Earth in the Study \(0 now\)/);
  const ripple = el.querySelector('[data-key="water:minor"]');
  assert.ok(ripple.classList.contains("ll-usable"));
  ripple.click();
  await tick();
  assert.match(el.querySelector(".ll-prompt").textContent, /Ripple: click 2 cards/);
  card(el, 7).click();
  await tick();
  assert.ok(card(el, 7).classList.contains("ll-chosen"));
  assert.equal(model.sent.length, 0);
  card(el, 2).click();
  assert.deepEqual(model.sent.at(-1).action, { type: "use_power", element: "water", tier: "minor", targets: [2, 7] });
  await tick();
  el.querySelector('[data-key="fire:minor"]').click();
  await tick();
  el.querySelector("[data-act=use-power]").click();
  assert.deepEqual(model.sent.at(-1).action, { type: "use_power", element: "fire", tier: "minor", targets: [] });
  cleanup();
});

test("keyboard: one tab stop in the grid, arrows move it, Enter clicks", async () => {
  const { window, el, model, cleanup } = mount(makeState());
  const stops = [...el.querySelectorAll("[data-act=card]")].filter((c) => c.tabIndex === 0);
  assert.equal(stops.length, 1);
  card(el, 0).focus();
  const key = (k) => window.document.activeElement.dispatchEvent(new window.KeyboardEvent("keydown", { key: k, bubbles: true }));
  key("ArrowRight");
  assert.equal(window.document.activeElement.getAttribute("data-slot"), "1");
  key("ArrowDown");
  assert.equal(window.document.activeElement.getAttribute("data-slot"), "5");
  key("ArrowLeft");
  key("ArrowUp");
  assert.equal(window.document.activeElement.getAttribute("data-slot"), "0");
  key("ArrowUp"); // off the grid: stays
  assert.equal(window.document.activeElement.getAttribute("data-slot"), "0");
  key("End");
  assert.equal(window.document.activeElement.getAttribute("data-slot"), "11");
  assert.equal(card(el, 11).tabIndex, 0);
  assert.equal(card(el, 0).tabIndex, -1);
  // Buttons: Enter/Space produce a click natively in browsers; the click is what we handle.
  window.document.activeElement.click();
  assert.deepEqual(model.sent.at(-1).action, { type: "activate", slot: 11 });
  for (const b of el.querySelectorAll("button")) assert.ok(b.getAttribute("aria-label") || b.textContent.trim(), "every button has a name");
  cleanup();
});

test("bots: the page asks for each bot move after the delay, once per step", async () => {
  const info = makeInfo([{ name: "Ada", bot: null }, { name: "Greedy bot", bot: "greedy" }]);
  const view = makeView({ active_player: 1, players: [player("Ada"), player("Greedy bot")] });
  const legal = { step: 4, actor: null, bot: "greedy" };
  const { el, model, cleanup } = mount(makeState({ info, view, legal, bot_delay_ms: 200 }));
  assert.match(el.querySelector(".ll-prompt").textContent, /Greedy bot is playing/);
  assert.ok(el.querySelector(".ll-scores"), "several players get a scoreboard");
  card(el, 0).click();
  assert.equal(model.sent.length, 0, "no human move on a bot's turn");
  await tick();
  assert.equal(model.sent.length, 0, "the page waits out the delay");
  await sleep(400);
  assert.deepEqual(model.sent, [{ type: "bot_step", step: 4 }]);
  model.update({ ack: 1, legal: { ...legal } }); // an unrelated update for the same step
  await sleep(400);
  assert.equal(model.sent.length, 1, "one request per step");
  model.update({ ack: 2, legal: { step: 5, actor: null, bot: "greedy" } });
  const select = el.querySelector("select[data-act=pace]");
  select.value = "paused";
  select.dispatchEvent(new el.ownerDocument.defaultView.Event("change", { bubbles: true }));
  await sleep(400);
  assert.equal(model.sent.length, 1, "paused: no request");
  el.querySelector("[data-act=bot-step]").click();
  assert.deepEqual(model.sent.at(-1), { type: "bot_step", step: 5 });
  select.value = "300";
  select.dispatchEvent(new el.ownerDocument.defaultView.Event("change", { bubbles: true }));
  assert.equal(model.get("bot_delay_ms"), 300);
  assert.equal(model.saved, 1);
  cleanup();
});

test("the Bot pace menu shows the kernel's delay, also one that is not a preset", async () => {
  const info = makeInfo([{ name: "Ada", bot: null }, { name: "Greedy bot", bot: "greedy" }]);
  const view = makeView({ players: [player("Ada"), player("Greedy bot")] });
  const { el, model, cleanup } = mount(makeState({ info, view, bot_delay_ms: 1500 }));
  const select = () => el.querySelector("select[data-act=pace]");
  const options = () => [...select().options].map((o) => [o.value, o.textContent]);
  assert.equal(select().value, "1500");
  assert.equal(select().selectedOptions[0].textContent, "custom (1500 ms)");
  assert.deepEqual(options(), [["2000", "slow"], ["1500", "custom (1500 ms)"], ["800", "normal"],
    ["300", "fast"], ["0", "instant"], ["paused", "paused"]]);
  model.update({ bot_delay_ms: 300 }); // a preset: no custom choice
  await tick();
  assert.equal(select().value, "300");
  assert.deepEqual(options().map(([v]) => v), ["2000", "800", "300", "0", "paused"]);
  model.update({ bot_delay_ms: 5000 });
  await tick();
  assert.equal(select().value, "5000");
  assert.deepEqual(options()[0], ["5000", "custom (5000 ms)"]);
  cleanup();
});

test("cleanup stops timers, listeners and pending bot requests", async () => {
  const info = makeInfo([{ name: "Greedy bot", bot: "greedy" }]);
  const { el, model, cleanup } = mount(makeState({ info, legal: { step: 0, actor: null, bot: "greedy" }, bot_delay_ms: 20 }));
  assert.ok(model.listeners() > 0);
  cleanup();
  assert.equal(model.listeners(), 0);
  assert.equal(el.children.length, 0);
  await sleep(40);
  assert.equal(model.sent.length, 0);
});

test("game over: scores, winners, turns and the reason", () => {
  const window = dom();
  const view = makeView({
    phase: "game_over", is_over: true, end_reason: "deck", turn: 14, winners: [1],
    players: [player("Ada", { score: 5 }), player("Greedy bot", { score: 9 })], scores: [5, 9],
  });
  const st = makeState({ view, legal: { step: 80, actor: null } });
  const root = renderBoard(st, newUi(), window.document, 0);
  const over = root.querySelector(".ll-over");
  assert.match(over.textContent, /deck was empty, after turn 14/);
  assert.match(over.textContent, /Winner: Greedy bot\./);
  const rows = [...over.querySelectorAll("[data-final]")].map((tr) => tr.textContent);
  assert.match(rows[1], /^Greedy bot ★.*9$/);
  assert.ok(over.querySelector("[data-act=rematch]") && over.querySelector("[data-act=new-game]"));
  assert.equal(root.querySelector("[data-act=end]"), null);
});

test("game over at a network table: no seat menu, New game or Rematch (the server starts tables)", () => {
  const window = dom();
  const view = makeView({
    phase: "game_over", is_over: true, end_reason: "deck", turn: 14, winners: [1],
    players: [player("Ada", { score: 5 }), player("Grace", { score: 9 })], scores: [5, 9],
  });
  const st = makeState({ view, legal: { step: 80, actor: null }, network: true });
  const over = renderBoard(st, newUi(), window.document, 0).querySelector(".ll-over");
  assert.match(over.textContent, /Winner: Grace\./);
  for (const act of ["rematch", "new-game"]) assert.equal(over.querySelector(`[data-act=${act}]`), null);
  assert.equal(over.querySelector("select"), null);
});

test("morph keeps nodes, updates text and attributes, adds and removes children", () => {
  const window = dom();
  const d = window.document;
  const a = d.createElement("div");
  a.innerHTML = '<button class="x" data-k="1">one</button><span>gone</span>';
  d.body.appendChild(a);
  const keep = a.firstChild;
  keep.focus();
  const b = d.createElement("div");
  b.innerHTML = '<button class="y">two</button><i>new</i><b>more</b>';
  morph(a, b);
  assert.equal(a.firstChild, keep);
  assert.equal(keep.className, "y");
  assert.equal(keep.getAttribute("data-k"), null);
  assert.equal(keep.textContent, "two");
  assert.equal(d.activeElement, keep);
  assert.equal(a.innerHTML, '<button class="y">two</button><i>new</i><b>more</b>');
  // A power button's data-key names its power, not a promise to be unchanged: it is updated.
  a.innerHTML = '<button class="ll-power ll-locked" data-key="fire:minor">Spark locked</button>';
  b.innerHTML = '<button class="ll-power ll-usable" data-key="fire:minor">Spark</button>';
  morph(a, b);
  assert.equal(a.innerHTML, '<button class="ll-power ll-usable" data-key="fire:minor">Spark</button>');
  // Only a paint key (dom.js lazy) leaves a subtree as it is.
  a.innerHTML = '<ol data-paint-key="k1"><li>kept</li></ol>';
  b.innerHTML = '<ol data-paint-key="k1"></ol>';
  morph(a, b);
  assert.equal(a.innerHTML, '<ol data-paint-key="k1"><li>kept</li></ol>');
});

test("lazy stand-ins: kept where the page has their key here, built anywhere else", () => {
  const d = dom().document;
  const built = [];
  const part = (key, text) => lazy(d, key, () => {
    built.push(key);
    return d.createElement("p").appendChild(d.createTextNode(text)).parentNode;
  });
  const page = d.createElement("div");
  d.body.appendChild(page);
  const fresh = () => d.createElement("div");
  let next = fresh();
  next.append(part("a", "A"), part("b", "B"));
  morph(page, next);
  assert.equal(page.innerHTML, '<p data-paint-key="a">A</p><p data-paint-key="b">B</p>', "a first paint builds them all");
  const kept = page.firstChild;
  built.length = 0;
  next = fresh();
  next.append(part("a", "A"), part("b2", "B2"));
  morph(page, next);
  assert.deepEqual(built, ["b2"], "only the changed part is built");
  assert.equal(page.firstChild, kept);
  assert.equal(page.innerHTML, '<p data-paint-key="a">A</p><p data-paint-key="b2">B2</p>');
  // A sibling shifts them: a key that is not in its own place is built, never left empty.
  next = fresh();
  const wrap = d.createElement("section");
  wrap.append(part("a", "A"));
  next.append(d.createElement("hr"), part("a", "A"), part("b2", "B2"), wrap);
  morph(page, next);
  assert.equal(page.innerHTML, '<hr><p data-paint-key="a">A</p><p data-paint-key="b2">B2</p>' +
    '<section><p data-paint-key="a">A</p></section>');
  assert.equal(page.querySelector("template"), null, "no stand-in reaches the page");
});

test("the play page repaints lazily but shows what a full rendering shows", async () => {
  const { el, model, cleanup } = mount(makeState());
  const before = [...el.querySelectorAll("[data-act=card]")];
  const grid = makeView().grid.slice();
  grid[3] = { card: "active", element: "earth", tokens: {} };
  grid[6] = { card: "inert", element: null, tokens: { fire: 1 } };
  const st = makeState({
    view: makeView({ grid, activations: { used: 1, limit: 3 }, supply: { ...counts(5), fire: 4 } }), ack: 1,
    legal: { step: 1, actor: 0, end: true, activate: allSlots().filter((s) => s !== 3 && s !== 6), deactivate: [3],
      blocked: { 6: "Slot 6 is bound by 1 fire token." }, powers: {}, why_power: {} },
  });
  model.update({ view: st.view, legal: st.legal, ack: 1 });
  await tick();
  const after = [...el.querySelectorAll("[data-act=card]")];
  assert.ok(after.every((c, i) => c === before[i]), "every card node is kept");
  const strip = (/** @type {Element} */ node) => {
    const copy = node.cloneNode(true);
    for (const n of [copy, ...copy.querySelectorAll(`[${PAINT_KEY}]`)]) n.removeAttribute(PAINT_KEY);
    return copy.outerHTML;
  };
  assert.equal(strip(el.querySelector(".leyline")), strip(renderBoard(st, newUi(), el.ownerDocument, Date.now())));
  assert.match(card(el, 6).getAttribute("aria-label"), /bound by 1 Fire token/);
  assert.match(el.querySelector(".ll-table").textContent, /4/);
  assert.equal(el.querySelector("template"), null);
  cleanup();
});

test("words for actions, events and prompts", () => {
  const info = makeInfo();
  assert.equal(describeAction({ type: "activate", slot: 3 }, info), "Activate slot 3");
  assert.equal(describeAction({ type: "use_power", element: "water", tier: "minor", targets: [1, 4] }, info), "Use Ripple on slots 1 and 4");
  assert.equal(describeAction({ type: "place_token", slot: 0, element: "fire", source: "pool" }, info),
    "Place a ▲ Fire token on slot 0 (from the token pool)");
  assert.equal(describeEvent({ type: "collect", player: 0, element: "earth", slots: [1, 2], count: 2 }, info), "Ada collected 2 ■ Earth");
  assert.equal(describeEvent({ type: "phase", phase: "binding" }, info), null);
  const you = makeInfo([{ name: "You", bot: null }]);
  assert.equal(describeEvent({ type: "token_return", player: 0, slot: 2, element: "wind", count: 2, to: "marker" }, you),
    "2 ≋ Wind tokens freed from slot 2 to your Spent marker");
  const st = makeState();
  assert.match(promptFor(st, newUi()), /3 of 3 left/);
  assert.match(promptFor(makeState({ legal: { step: 0, actor: null } }), newUi()), /Waiting for Ada/);
});

test("a private peek in words: for the peeker, for another player, for the teacher", async () => {
  const info = makeInfo([{ name: "Ada", bot: null }, { name: "Grace", bot: null }]);
  const peek = { type: "reveal", slot: 4, element: "wind", cause: "whisper", visible_to: [0] };
  assert.equal(describeEvent(peek, info, 0), "Peek at slot 4: ≋ Wind");
  assert.equal(describeEvent({ ...peek, element: null }, info, 1), "Slot 4 was peeked at: only Ada saw it");
  assert.equal(describeEvent(peek, info, null), "Peek at slot 4: ≋ Wind (seen by Ada only)");
  assert.equal(describeEvent({ ...peek, cause: "gale", visible_to: [1] }, info), "Peek at slot 4: ≋ Wind (seen by Grace only)");
  // The teacher's board (viewer null) logs it so too, and glimpses the card.
  const view = makeView({ viewer: null, players: [player("Ada"), player("Grace")] });
  const { el, cleanup } = mount(makeState({ info, view, events: { seq: 1, step: 3, items: [peek] } }));
  await tick();
  assert.match(el.querySelector(".ll-log").textContent, /Peek at slot 4: ≋ Wind \(seen by Ada only\)/);
  assert.doesNotMatch(el.querySelector(".ll-log").textContent, /hidden/);
  assert.equal(card(el, 4).getAttribute("data-element"), "wind");
  cleanup();
});

test("cellFace and absorbEvents: reveals follow swaps and end on collection", () => {
  const ui = newUi();
  absorbEvents(ui, [{ type: "reveal", slot: 1, element: "fire", cause: "refill", visible_to: "all" }], makeInfo(), 1000, 500, 0);
  const st = makeState();
  assert.equal(cellFace(st.view.grid[1], 1, st, ui, 1200).element, "fire");
  assert.equal(cellFace(st.view.grid[1], 1, st, ui, 1600).element, null);
  absorbEvents(ui, [{ type: "swap", slots: [1, 6] }], makeInfo(), 1000, 500, 0);
  assert.equal(cellFace(st.view.grid[6], 6, st, ui, 1200).element, "fire");
  assert.equal(cellFace(st.view.grid[1], 1, st, ui, 1200).element, null);
  // The page's own log (lessons) never names a card that may lie inert: "Slot 1 refilled".
  assert.match(ui.log.join("\n"), /Slot 1 refilled$/m);
  assert.doesNotMatch(ui.log.join("\n"), /Fire/);
});
