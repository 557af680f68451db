// Play at the table (issue 10): the deal's Ready step, reveals shown once (never replayed by a
// view rendered again), hot-seat hand-off and forgetting a seat, the kernel's log, keys kept in
// the widget, motion cues, marks of the other seats' turn, undo / new game / rematch buttons.
import { test } from "node:test";
import assert from "node:assert/strict";

import { hostTheme, renderBoard } from "../src/board.js";
import { announceOf, forgetSeat, motionOf, newUi, pageLine, pastTurns } from "../src/play.js";
import { FakeModel, dom, mount as mountModel, sleep, tick } from "./fake_model.mjs";

const ELEMENTS = ["fire", "water", "earth", "wind"];
const counts = (v = 0) => Object.fromEntries(ELEMENTS.map((e) => [e, v]));
const player = (name, extra = {}) => ({
  name, study: counts(), markers: counts(), marker_tokens: counts(), score: 0, unlocked: [], ...extra,
});

function makeView(extra = {}) {
  return {
    viewer: 0, phase: "activation", turn: 1, active_player: 0, elements: ELEMENTS,
    grid_rows: 3, grid_cols: 4, deck: { count: 36, top: "wind" },
    grid: Array.from({ length: 12 }, () => ({ card: "inert", element: null, tokens: {} })),
    players: [player("Ada"), player("Grace")], supply: counts(5), pool: counts(),
    activations: { used: 0, limit: 3 }, collect_threshold: 2, effects: [], powers_used: [],
    is_over: false, end_reason: null, scores: [0, 0], winners: [], ...extra,
  };
}

const info = {
  elements: ELEMENTS, players: [{ name: "Ada", bot: null }, { name: "Grace", bot: null }],
  powers: [{ element: "wind", tier: "minor", name: "Whisper", key: "wind:minor", text: "Peek.", instructions: "Click a card." }],
  thresholds: { minor: 2, major: 5 }, activations: 3, collect_threshold: 2, turn_limit: null,
};

const deal = ELEMENTS.concat(ELEMENTS, ELEMENTS).map((element, slot) => ({ type: "reveal", slot, element, cause: "setup", visible_to: "all" }));

function makeState(extra = {}) {
  return {
    mode: "play", view: makeView(), info, error: "", ack: 0, bot_delay_ms: 800, reveal_ms: 300, deal_ms: 300,
    viewer: "active", shown_seq: 0, handoff: {}, log: {}, log_past: [], session: [],
    legal: { step: 0, actor: 0, end: true, activate: [...Array(12).keys()], deactivate: [], blocked: {}, powers: {}, why_power: {} },
    events: { seq: 1, step: 0, items: deal },
    ...extra,
  };
}

const card = (el, slot) => el.querySelector(`[data-act=card][data-slot="${slot}"]`);
const faces = (el) => [...el.querySelectorAll("[data-act=card]")].map((c) => c.getAttribute("data-element"));
const shown = (model) => model.sent.filter((m) => m.type === "shown");

test("the deal waits for Ready, shows for deal_ms, is reported shown, and never twice", async () => {
  const model = new FakeModel(makeState());
  const a = mountModel(model);
  await tick();
  assert.deepEqual(faces(a.el), Array(12).fill(null));
  assert.match(a.el.querySelector(".ll-deal").textContent, /12 cards .* face-up for 0\.3 s, once/);
  assert.match(a.el.querySelector(".ll-prompt").textContent, /Press Ready/);
  card(a.el, 2).click(); // no play before the deal
  await tick();
  assert.equal(model.sent.filter((m) => m.type === "action").length, 0);
  a.el.querySelector("[data-act=deal-ready]").click();
  await tick();
  assert.equal(card(a.el, 1).getAttribute("data-element"), "water");
  assert.deepEqual(shown(model), [{ type: "shown", seq: 1 }]);
  assert.match(a.el.querySelector(".ll-sr").textContent, /The deal: slot 0 Fire/);
  // The kernel records it; a view rendered again (re-display, reload) shows no reveal and no Ready.
  model.update({ shown_seq: 1 });
  const b = mountModel(model);
  await tick();
  assert.deepEqual(faces(b.el), Array(12).fill(null));
  assert.equal(b.el.querySelector("[data-act=deal-ready]"), null);
  await sleep(400);
  assert.deepEqual(faces(a.el), Array(12).fill(null));
  a.cleanup();
  b.cleanup();
});

test("a refill reveal shows once: a re-render after it is shown replays nothing", async () => {
  const refill = { type: "reveal", slot: 5, element: "fire", cause: "refill", visible_to: "all" };
  const model = new FakeModel(makeState({ shown_seq: 1, events: { seq: 2, step: 4, items: [refill] } }));
  const a = mountModel(model);
  await tick();
  assert.equal(card(a.el, 5).getAttribute("data-element"), "fire");
  assert.ok(card(a.el, 5).classList.contains("ll-mo-deal"));
  assert.deepEqual(shown(model), [{ type: "shown", seq: 2 }]);
  model.update({ shown_seq: 2 });
  a.cleanup();
  const b = mountModel(model);
  await tick();
  assert.equal(card(b.el, 5).getAttribute("data-element"), null);
  assert.equal(shown(model).length, 1);
  b.cleanup();
});

test("hot-seat: a Whisper does not outlive the change of seat; the hand-off hides the board", async () => {
  const peek = { type: "reveal", slot: 4, element: "wind", cause: "whisper", visible_to: [0] };
  const model = new FakeModel(makeState({ shown_seq: 1, events: { seq: 2, step: 3, items: [peek] }, reveal_ms: 5000 }));
  const { el, cleanup } = mountModel(model);
  await tick();
  assert.equal(card(el, 4).getAttribute("data-element"), "wind");
  // Ada ends her turn at once: the view passes to Grace, and the board waits for her.
  model.update({
    view: makeView({ viewer: 1, active_player: 1, turn: 2 }), handoff: { to: 1, from: 0 },
    legal: { step: 5, actor: 1, end: true, activate: [], deactivate: [], blocked: {}, powers: {}, why_power: {} },
    events: { seq: 3, step: 5, items: [{ type: "turn", turn: 2, player: 1 }] },
  });
  await tick();
  assert.equal(el.querySelectorAll("[data-act=card]").length, 0);
  assert.doesNotMatch(el.innerHTML, /wind|Wind|≋/);
  assert.match(el.textContent, /Pass to Grace/);
  const ready = el.querySelector("[data-act=handoff-ready]");
  assert.equal(ready.textContent, "Grace, click when ready");
  ready.click();
  assert.deepEqual(model.sent.at(-1), { type: "ready" });
  model.update({ handoff: {} });
  await tick();
  assert.equal(el.querySelectorAll("[data-act=card]").length, 12);
  assert.deepEqual(faces(el), Array(12).fill(null));
  assert.doesNotMatch(el.querySelector(".ll-grid").innerHTML, /wind|Wind|≋|peek/);
  assert.equal(el.querySelector(".ll-sr").textContent, "");
  cleanup();
});

test("forgetSeat clears reveals, choices, hints and focus", () => {
  const ui = newUi();
  Object.assign(ui, { reveals: { 3: { element: "fire", until: 1e15 } }, power: "wind:minor", targets: [2], infoPower: "wind:minor",
    source: { element: "fire", source: "supply" }, hint: "x", focus: 7, announce: "Slot 3 shown briefly: Fire" });
  forgetSeat(ui);
  assert.deepEqual([ui.reveals, ui.power, ui.targets, ui.infoPower, ui.source, ui.hint, ui.focus, ui.announce],
    [{}, null, [], null, null, "", 0, ""]);
});

test("the log comes from the kernel's traits, all turns, newest first, scrollable; marks name no element", async () => {
  const marks = { 3: ["flipped"], 7: ["collected", "refilled"] };
  const log = { turns: [{ turn: 2, player: 1, lines: ["Grace activated slot 3", "Grace collected 2 Water"] }], marks, turns_played: [1, 1] };
  const past = [{ turn: 0, player: null, lines: ["The grid was dealt face-up"] }, { turn: 1, player: 0, lines: ["You passed"] }];
  const { el, cleanup } = mountModel(new FakeModel(makeState({ shown_seq: 1, log, log_past: past })));
  await tick();
  const box = el.querySelector(".ll-fulllog");
  assert.equal(box.getAttribute("tabindex"), "0");
  assert.deepEqual([...box.querySelectorAll(".ll-logwho")].map((n) => n.textContent), ["Turn 2 · Grace", "Turn 1 · Ada", "Set-up"]);
  assert.match(box.textContent, /Grace collected 2 Water/);
  assert.ok(card(el, 3).classList.contains("ll-marked"));
  assert.match(card(el, 3).getAttribute("aria-label"), /Since your last turn: flipped and turned back/);
  assert.match(card(el, 7).getAttribute("aria-label"), /collected, refilled/);
  assert.equal(card(el, 3).getAttribute("data-element"), null);
  assert.doesNotMatch(card(el, 3).outerHTML, /Fire|Water|Earth|Wind/);
  cleanup();
});

test("keys pressed in the widget stay in it, except Tab and an unused Escape", async () => {
  const { el, window, cleanup } = mountModel(new FakeModel(makeState({ shown_seq: 1 })));
  await tick();
  const heard = [];
  window.document.addEventListener("keydown", (e) => heard.push(e.key));
  for (const key of ["d", "d", "a", "b", "x", "z", "Enter", "Tab", "Escape"]) {
    card(el, 0).dispatchEvent(new window.KeyboardEvent("keydown", { key, bubbles: true }));
  }
  assert.deepEqual(heard, ["Tab", "Escape"]);
  cleanup();
});

test("every card's name starts with the words it shows (label in name): glimpsed, active, inert", async () => {
  const grid = makeView().grid.map((c, i) => (i === 5 ? { card: "active", element: "earth", tokens: {} } : c));
  const model = new FakeModel(makeState({ view: makeView({ grid }) }));
  const { el, cleanup } = mountModel(model);
  await tick();
  el.querySelector("[data-act=deal-ready]").click();
  await tick();
  const words = (c) => [...c.querySelectorAll("span")].filter((x) => !x.children.length)
    .map((x) => x.textContent).join(" ").replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  assert.equal(words(card(el, 1)), "1 new Water");
  assert.equal(words(card(el, 5)), "5 Earth");
  for (const c of el.querySelectorAll("[data-act=card]")) {
    assert.ok(c.getAttribute("aria-label").startsWith(`${words(c)}: slot `), c.getAttribute("aria-label"));
  }
  model.update({ shown_seq: 1 });
  await sleep(400);  // the deal (deal_ms 300) is over: the inert cards show their number only
  assert.equal(words(card(el, 1)), "1");
  assert.match(card(el, 1).getAttribute("aria-label"), /^1: slot 1 \(row 1, column 2\), inert card/);
  cleanup();
});

test("Notebook 7's capture-phase shortcuts see the widget's keys marked as not theirs", async () => {
  const { el, window, cleanup } = mountModel(new FakeModel(makeState({ shown_seq: 1 })));
  await tick();
  // Lumino without bubbling keydown: a document capture listener walks up from the target and
  // stops at the first element with data-lm-suppress-shortcuts, before matching its selector.
  const shortcut = [];
  const lumino = (e) => shortcut.push([e.key, !e.target.hasAttribute("data-lm-suppress-shortcuts")]);
  window.document.addEventListener("keydown", lumino, true);
  for (const key of ["d", "d", "a", "ArrowRight", "Tab", "Escape"]) {
    card(el, 0).dispatchEvent(new window.KeyboardEvent("keydown", { key, bubbles: true }));
  }
  assert.deepEqual(shortcut, [["d", false], ["d", false], ["a", false], ["ArrowRight", false], ["Tab", true], ["Escape", true]]);
  cleanup();
  shortcut.length = 0;
  const other = window.document.createElement("button");
  window.document.body.append(other);
  other.dispatchEvent(new window.KeyboardEvent("keydown", { key: "d", bubbles: true }));
  assert.deepEqual(shortcut, [["d", true]]);  // gone with the view; the page's own keys untouched
  window.document.removeEventListener("keydown", lumino, true);
});

test("motion cues and announcements follow the batch; collected cards travel face-up", () => {
  const items = [
    { type: "activate", slot: 1, element: "fire", player: 0 }, { type: "collect", slots: [1, 2], element: "fire", count: 2, player: 0 },
    { type: "flip_back", slots: [5], player: 0 }, { type: "reveal", slot: 1, element: "water", cause: "refill", visible_to: "all" },
    { type: "place_token", slot: 6, element: "fire", source: "supply", player: 0 }, { type: "turn", turn: 2, player: 1 },
  ];
  const m = motionOf(items, 100);
  assert.deepEqual(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.kind])), { 1: "deal", 2: "collect", 5: "flipback", 6: "bind" });
  assert.equal(m[2].element, "fire");
  assert.equal(announceOf(items, info, 0), "You collected 2 Fire. Slot 1 shown briefly: Water. Turn 2: Grace's turn");
  // A peek hidden from this viewer (element null) announces nothing about the card.
  assert.equal(announceOf([{ type: "reveal", slot: 3, element: null, cause: "whisper", visible_to: [1] }], info, 0), "");
  const window = dom();
  const ui = { ...newUi(), motion: m };
  const st = makeState({ view: makeView({ grid: makeView().grid.map((c, i) => (i === 2 ? { card: "empty", element: null, tokens: {} } : c)) }) });
  const root = renderBoard(st, ui, window.document, 50);
  assert.ok(root.querySelector('[data-slot="2"] .ll-ghost'));
  assert.ok(root.querySelector('[data-slot="5"]').classList.contains("ll-mo-flipback"));
  const later = renderBoard(st, ui, window.document, 200);
  assert.equal(later.querySelector(".ll-ghost"), null);
});

test("undo, rules, new game and rematch are buttons that send messages", async () => {
  const legal = { step: 9, actor: 0, end: true, undo: true, place: { fire: { supply: "", marker: "no marker", pool: "no marker" } }, powers: {}, why_power: {} };
  const model = new FakeModel(makeState({ shown_seq: 1, view: makeView({ phase: "binding" }), legal }));
  const { el, cleanup } = mountModel(model);
  await tick();
  el.querySelector("[data-act=undo]").click();
  assert.deepEqual(model.sent.at(-1), { type: "undo" });
  el.querySelector("[data-act=rules]").click();
  await tick();
  assert.match(el.querySelector(".ll-rules").textContent, /Whisper \(Wind, minor\): Peek\./);
  model.update({
    view: makeView({ phase: "game_over", is_over: true, end_reason: "deck", winners: [0], players: [player("Ada", { score: 3 }), player("Grace")] }),
    legal: { step: 80, actor: null }, log: { turns: [], turns_played: [7, 6] },
  });
  await tick();
  assert.match(el.querySelector(".ll-over").textContent, /Ada ★0{4}073/);
  el.querySelector("[data-act=rematch]").click();
  assert.deepEqual(model.sent.at(-1), { type: "rematch", seats: ["human", "human"] });
  el.querySelector("[data-act=new-game]").click();
  assert.deepEqual(model.sent.at(-1), { type: "new_game", seats: ["human", "human"] });
  cleanup();
});

test("the game-over seat menu chooses each seat's kind, the expert bot too, for New game and Rematch", async () => {
  const kinds = ["random", "greedy", "memory", "expert"];
  const botInfo = { ...info, bot_kinds: kinds, players: [{ name: "Ada", bot: null }, { name: "Greedy bot", bot: "greedy" }] };
  const over = makeView({ phase: "game_over", is_over: true, end_reason: "deck", winners: [0], players: [player("Ada"), player("Greedy bot")] });
  const model = new FakeModel(makeState({ shown_seq: 1, info: botInfo, view: over, legal: { step: 80, actor: null } }));
  const { el, window, cleanup } = mountModel(model);
  await tick();
  const menus = [...el.querySelectorAll("[data-act=seat-kind]")];
  assert.equal(menus.length, 2);
  assert.equal(el.querySelector(".ll-seats legend").textContent, "Next game: who plays each seat");
  // Each menu is named by its visible label (the seat and its player), and offers every kind.
  assert.equal(menus[1].closest("label").textContent.startsWith("Seat 2 (Greedy bot) "), true);
  assert.deepEqual([...menus[1].options].map((o) => o.textContent),
    ["Human", "Random bot", "Greedy bot", "Memory bot", "Expert bot"]);
  assert.deepEqual([menus[0].value, menus[1].value], ["human", "greedy"]);
  menus[1].value = "expert";
  menus[1].dispatchEvent(new window.Event("change", { bubbles: true }));
  await tick();
  assert.equal(el.querySelector("[data-act=seat-kind][data-seat='1']").value, "expert", "kept across a redraw");
  el.querySelector("[data-act=new-game]").click();
  assert.deepEqual(model.sent.at(-1), { type: "new_game", seats: ["human", "expert"] });
  el.querySelector("[data-act=rematch]").click();
  assert.deepEqual(model.sent.at(-1), { type: "rematch", seats: ["human", "greedy"] }, "sent once, then the game's own");
  cleanup();
});

test("a solo game over shows the session's best and average", () => {
  const window = dom();
  const view = makeView({ phase: "game_over", is_over: true, end_reason: "deck", players: [player("Ada", { score: 6 })], scores: [6], winners: [0] });
  const session = [{ players: ["Ada"], scores: [4], winners: [0], turns: 9, reason: "deck" }, { players: ["Ada"], scores: [6], winners: [0], turns: 9, reason: "deck" }];
  const root = renderBoard(makeState({ view, session, info: { ...info, players: [{ name: "Ada", bot: null }] }, legal: { step: 1, actor: null } }), newUi(), window.document, 0);
  assert.match(root.querySelector(".ll-session").textContent, /2 games, best 6, average 5\.0/);
  assert.equal(root.querySelector("[data-act=rematch]"), null);
});

test("a hint from the bot's turn is gone on your own turn; a paused bot says so", async () => {
  const botInfo = { ...info, players: [{ name: "Ada", bot: null }, { name: "Greedy bot", bot: "greedy" }] };
  const model = new FakeModel(makeState({ shown_seq: 1, info: botInfo, view: makeView({ active_player: 1 }), legal: { step: 4, actor: null, bot: "greedy" }, bot_delay_ms: 60000 }));
  const { el, cleanup } = mountModel(model);
  await tick();
  card(el, 0).click();
  await tick();
  assert.match(el.querySelector(".ll-error").textContent, /Wait: Greedy bot is playing/);
  const pace = el.querySelector("[data-act=pace]");
  pace.value = "paused";
  pace.dispatchEvent(new el.ownerDocument.defaultView.Event("change", { bubbles: true }));
  await tick();
  assert.match(el.querySelector(".ll-prompt").textContent, /Greedy bot is paused/);
  model.update({ view: makeView(), legal: { step: 9, actor: 0, end: true, activate: [0], deactivate: [], blocked: {}, powers: {}, why_power: {} } });
  await tick();
  assert.ok(el.querySelector(".ll-error").classList.contains("ll-hidden"));
  cleanup();
});

test("the host's theme wins over the OS: JupyterLab, VS Code, marimo", () => {
  const window = dom();
  const doc = window.document;
  doc.body.setAttribute("data-jp-theme-light", "false");
  assert.equal(hostTheme(doc), "dark");
  doc.body.removeAttribute("data-jp-theme-light");
  doc.body.className = "vscode-light";
  assert.equal(hostTheme(doc), "light");
  doc.body.className = "";
  doc.documentElement.className = "dark";
  assert.equal(hostTheme(doc), "dark");
  doc.documentElement.className = "light";
  assert.equal(hostTheme(doc), "light");
});

test("a switch of the host's theme repaints the board in it", async () => {
  const { el, window, cleanup } = mountModel(new FakeModel(makeState({ shown_seq: 1 })));
  await tick();
  window.document.body.setAttribute("data-jp-theme-light", "true");
  await tick();
  assert.equal(el.querySelector(".leyline").getAttribute("data-ll-theme"), "light");
  window.document.body.setAttribute("data-jp-theme-light", "false");
  await tick();
  await tick();
  assert.equal(el.querySelector(".leyline").getAttribute("data-ll-theme"), "dark");
  cleanup();
});

test("the page's own log (lessons) never names an element of a card that may be inert", () => {
  const evs = [
    { type: "activate", slot: 9, element: "fire", player: 0 },
    { type: "reveal", slot: 2, element: "water", cause: "refill", visible_to: "all" },
    { type: "reveal", slot: 4, element: "wind", cause: "whisper", visible_to: [0] },
    { type: "tide", slot: 1, to_deck: "earth" },
    { type: "reveal", slot: 1, element: "fire", cause: "tide", visible_to: "all" },
  ];
  const lines = evs.map((ev) => pageLine(ev, info, 0));
  assert.deepEqual(lines, ["You activated slot 9", "Slot 2 refilled", "You peeked at slot 4",
    "Slot 1's card went on top of the deck", "Tide brought a new card into slot 1"]);
  assert.match(pageLine({ type: "collect", slots: [1, 2], element: "fire", count: 2, player: 1 }, info, 0), /Grace collected 2 ▲ Fire/);
  assert.match(pageLine(evs[0], info, null), /Ada activated slot 9: ▲ Fire/); // the teacher sees all
});

test("an empty slot shows + only where this viewer may refill now", () => {
  const window = dom();
  const grid = makeView().grid.map((c, i) => (i === 4 ? { card: "empty", element: null, tokens: {} } : c));
  const view = makeView({ phase: "refill", grid });
  const mine = renderBoard(makeState({ view, legal: { step: 3, actor: 0, end: false, refill: [4] } }), newUi(), window.document, 0);
  assert.equal(mine.querySelector('[data-slot="4"] .ll-hole').textContent, "+");
  const done = renderBoard(makeState({ view, legal: { step: 3, actor: null } }), newUi(), window.document, 0);
  assert.equal(done.querySelector('[data-slot="4"] .ll-hole').textContent, "");
});

test("finished turns arrive once each, in log.recent, after log_past; a whole log_past replaces the copy", async () => {
  const t = (turn, line) => ({ turn, player: 0, lines: [line] });
  let held = { base: null, log: null, turns: [] };
  const base = [t(0, "Set-up"), t(1, "one")];
  held = pastTurns(held, base, { turns: [t(2, "now")], recent: { from: 1, turns: [t(1, "one")] } });
  assert.deepEqual(held.turns.map((x) => x.turn), [0, 1], "already held: appended in place of itself");
  const log2 = { turns: [t(3, "now")], recent: { from: 2, turns: [t(2, "two")] } };
  held = pastTurns(held, base, log2);
  assert.deepEqual(held.turns.map((x) => x.lines[0]), ["Set-up", "one", "two"]);
  assert.equal(pastTurns(held, base, log2).turns.length, 3, "the same log again: nothing added twice");
  held = pastTurns(held, [t(0, "other seat")], { turns: [t(1, "x")], recent: { from: 1, turns: [] } });
  assert.deepEqual(held.turns.map((x) => x.lines[0]), ["other seat"]);
  // On the page: the log panel shows the appended turn.
  const model = new FakeModel(makeState({ shown_seq: 1, log_past: base, log: { turns: [t(2, "now")], recent: { from: 2, turns: [] } } }));
  const { el, cleanup } = mountModel(model);
  await tick();
  model.update({ log: { turns: [t(3, "later")], recent: { from: 2, turns: [t(2, "Ada passed")] } }, ack: 1 });
  await tick();
  assert.match(el.querySelector(".ll-log").textContent, /Ada passed/);
  assert.match(el.querySelector(".ll-log").textContent, /later/);
  // A finished turn is not repainted again (its key vouches it is unchanged); the current one is.
  // (The current turn's key is its content's: it changes with any line.)
  const first = el.querySelector(".ll-logturn[data-turn='0']");
  first.setAttribute("data-probe", "kept");
  const current = el.querySelector(".ll-logturn[data-turn='3']").getAttribute("data-paint-key");
  model.update({ log: { turns: [t(3, "later still")], recent: { from: 3, turns: [] } }, ack: 2 });
  await tick();
  assert.equal(el.querySelector(".ll-logturn[data-turn='0']").getAttribute("data-probe"), "kept");
  assert.match(el.querySelector(".ll-logturn[data-turn='3']").textContent, /later still/);
  assert.notEqual(el.querySelector(".ll-logturn[data-turn='3']").getAttribute("data-paint-key"), current);
  // log_past sent whole (another seat's eyes): new objects, so everything is painted afresh.
  model.update({ log_past: [t(0, "Set-up, other eyes")], log: { turns: [t(1, "x")], recent: { from: 1, turns: [] } }, ack: 3 });
  await tick();
  assert.equal(el.querySelector(".ll-logturn[data-turn='0']").getAttribute("data-probe"), null);
  assert.match(el.querySelector(".ll-log").textContent, /other eyes/);
  cleanup();
});

test("a second view opened on an older log_past asks for it whole once, then shows every turn", async () => {
  const t = (turn, line) => ({ turn, player: 0, lines: [line] });
  // The model still holds the log_past the first view opened with; turns 1 and 2 went out since.
  const model = new FakeModel(makeState({ shown_seq: 1, log_past: [t(0, "Set-up")],
    log: { turns: [t(3, "now")], recent: { from: 2, turns: [t(2, "two")] } } }));
  const { el, cleanup } = mountModel(model);
  await tick();
  assert.deepEqual(model.sent.filter((m) => m.type === "log_sync"), [{ type: "log_sync" }]);
  model.update({ log: { turns: [t(3, "now, later")], recent: { from: 3, turns: [] } }, ack: 1 });
  await tick();
  assert.equal(model.sent.filter((m) => m.type === "log_sync").length, 1, "asked once");
  model.update({ log_past: [t(0, "Set-up"), t(1, "one"), t(2, "two")] });
  await tick();
  assert.match(el.querySelector(".ll-log").textContent, /now, later.*two.*one/s);
  model.update({ log: { turns: [t(4, "next")], recent: { from: 3, turns: [t(3, "three")] } }, ack: 2 });
  await tick();
  assert.equal(model.sent.filter((m) => m.type === "log_sync").length, 1, "no gap now");
  assert.match(el.querySelector(".ll-log").textContent, /next.*three.*two/s);
  cleanup();
});
