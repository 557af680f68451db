// The play mode (LeylineWidget, mode "play"): the board, the clicks that become actions sent to
// the kernel, brief reveals and log lines from the event batches, the bot's pace, the keyboard.
//
// Reveals are shown once: a batch waits until the board is on screen (and, for the set-up
// deal, until the players press Ready; in hot-seat, until the next player has taken the seat),
// then the page tells the kernel `{"type": "shown", "seq": n}`; a view rendered again skips
// every batch up to the kernel's `shown_seq`. A change of seat forgets everything the page
// held for the previous seat (reveals, chosen power and targets, hints, focus).
//
// The mode is a small controller: `playMode` wires a context (`Table`: the model, the
// lifecycle, the page's state) to three parts, each of plain functions over that context:
// the flow of batches and bot moves (`flowOf`), the clicks (`CLICKS`, one function per
// button kind) and the keys (`onKey`). The board itself is drawn by pure panel functions
// (board.js, table.js), each tested on its own.
import { botDelayMs, renderBoard, seatKinds } from "./board.js";
import { PAINT_KEY } from "./dom.js";
import { chooseMemoryOf } from "./memory.js";
import { mount } from "./mount.js";
import { elementLook } from "./looks.js";
import { cardClick, closePower, dropStalePicks, pickPower, pickSource, takePower } from "./picks.js";
import { KEYS, effectKind } from "./table.js";
import { read } from "./traits.js";
import { describeEvent, playerName } from "./words.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").BoardState} BoardState */
/** @typedef {import("./types").GameEvent} GameEvent */
/** @typedef {import("./types").Info} Info */
/** @typedef {import("./types").Legal} Legal */
/** @typedef {import("./types").PlayUi} PlayUi */
/** @typedef {import("./types").View} View */

const LOG_LINES = 6;
/** How long a motion cue (flip, deal, collect, bind) stays marked on a slot, in ms. */
export const MOTION_MS = 450;

/**
 * Fresh page-side state: nothing here is a rule, only what the player is in the middle of.
 * @returns {PlayUi}
 */
export function newUi() {
  return {
    pending: null, power: null, targets: [], infoPower: null, source: null,
    focus: 0, reveals: {}, log: [], hint: "", paused: false, dismissed: null,
    queued: null, deal: "none", motion: {}, announce: "", rules: false, seats: {},
  };
}

/**
 * Forget everything the page holds for one seat: on a change of seat nothing of the previous
 * player's (a glimpse, a chosen power or source, a hint, the focus) may stay on screen.
 * @param {PlayUi} ui
 */
export function forgetSeat(ui) {
  ui.reveals = {};
  ui.pending = null;
  ui.power = null;
  ui.targets = [];
  ui.infoPower = null;
  ui.source = null;
  ui.hint = "";
  ui.focus = 0;
  ui.queued = null;
  ui.motion = {};
  ui.announce = "";
  ui.log = [];
}

/**
 * The page's copy of the finished turns: the `log_past` trait (sent whole only when the
 * finished turns change: another game, an undo, another seat's eyes), then the turns each
 * `log` update brings in `log.recent` (each finished turn travels once). Pure: returns the
 * new copy.
 * @param {{base: unknown, log: unknown, turns: import("./types").LogTurn[], gap?: boolean}} held
 * @param {import("./types").LogTurn[] | undefined} base the `log_past` trait
 * @param {import("./types").GameLog | undefined} log the `log` trait
 * @returns {{base: unknown, log: unknown, turns: import("./types").LogTurn[], gap: boolean}}
 *   `gap`: turns are missing (until `log_past` comes whole)
 */
export function pastTurns(held, base, log) {
  let turns = held.turns;
  if (base !== held.base) turns = (base || []).slice();
  const recent = log && log !== held.log ? log.recent : undefined;
  // Turns that went out before this copy began (a second view of the widget, opened on the
  // model's older `log_past`): the copy has a gap, and the page asks for `log_past` whole.
  let gap = Boolean(held.gap) && base === held.base;
  if (recent && Array.isArray(recent.turns)) {
    if (recent.from > turns.length) gap = true;
    turns = turns.slice(0, recent.from).concat(recent.turns);
  }
  return { base, log, turns, gap };
}

/**
 * Motion cues of a batch, per slot: "flip" (activated), "flipback", "collect", "deal" (refill,
 * Tide), "bind" (a token placed). Pure looks: the element a cue may show is only that of a
 * card the viewer sees now or that left the grid (a collected card travels face-up).
 * @param {GameEvent[] | undefined} items
 * @param {number} until
 * @returns {PlayUi["motion"]}
 */
export function motionOf(items, until) {
  /** @type {PlayUi["motion"]} */
  const out = {};
  for (const ev of items || []) {
    if (ev.type === "activate") out[ev.slot] = { kind: "flip", until };
    else if (ev.type === "flip_back") for (const s of ev.slots) out[s] = { kind: "flipback", until };
    else if (ev.type === "collect") for (const s of ev.slots) out[s] = { kind: "collect", element: ev.element, until };
    else if (ev.type === "reveal" && (ev.cause === "refill" || effectKind(ev.cause) === "swap_with_deck")) out[ev.slot] = { kind: "deal", until };
    else if (ev.type === "place_token") out[ev.slot] = { kind: "bind", until };
  }
  return out;
}

/**
 * What the aria-live region says about a batch: reveals this viewer may see, collections,
 * the turn passing. The batch is already filtered for the viewer by the kernel.
 * @param {GameEvent[] | undefined} items
 * @param {Info} info
 * @param {number | null | undefined} viewer
 * @returns {string}
 */
export function announceOf(items, info, viewer) {
  const els = info.elements || [];
  const who = (/** @type {number} */ p) => (p === viewer ? "You" : playerName(info, p));
  /** @type {string[]} */
  const said = [];
  const setup = (items || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup");
  if (setup.length) said.push(`The deal: ${setup.map((ev) => `slot ${ev.slot} ${elementLook(ev.element, els).name}`).join(", ")}`);
  for (const ev of items || []) {
    if (ev.type === "reveal" && ev.element && ev.cause !== "setup") {
      said.push(`Slot ${ev.slot} shown briefly: ${elementLook(ev.element, els).name}`);
    } else if (ev.type === "collect") {
      said.push(`${who(ev.player)} collected ${ev.count} ${elementLook(ev.element, els).name}`);
    } else if (ev.type === "turn") {
      said.push(`Turn ${ev.turn}: ${who(ev.player) === "You" ? "your turn" : `${playerName(info, ev.player)}'s turn`}`);
    } else if (ev.type === "game_over") {
      said.push("Game over");
    }
  }
  return said.join(". ");
}

/**
 * A line of the page's own short log (modes without the kernel's `log` trait, such as lessons).
 * The page never remembers for the player: a line names no element of a card that may lie
 * inert on the grid (activated, refilled, brought by Tide, peeked at); the teacher's does.
 * @param {GameEvent} ev
 * @param {Info} info
 * @param {number | null | undefined} viewer
 * @returns {string | null}
 */
export function pageLine(ev, info, viewer) {
  if (viewer === null || viewer === undefined) return describeEvent(ev, info, null);
  const who = (/** @type {number} */ p) => (p === viewer ? "You" : playerName(info, p));
  if (ev.type === "activate") return `${who(ev.player)} activated slot ${ev.slot}`;
  if (ev.type === "tide") return `Slot ${ev.slot}'s card went on top of the deck`;
  if (ev.type === "reveal" && ev.cause === "refill") return `Slot ${ev.slot} refilled`;
  if (ev.type === "reveal" && effectKind(ev.cause) === "swap_with_deck") return `Tide brought a new card into slot ${ev.slot}`;
  if (ev.type === "reveal" && ev.element && effectKind(ev.cause) === "peek") return `You peeked at slot ${ev.slot}`;
  return describeEvent(ev, info, viewer);
}

/**
 * Take in a batch of events: brief reveals and log lines.
 * @param {PlayUi} ui
 * @param {GameEvent[] | undefined} items
 * @param {Info} info
 * @param {number} now
 * @param {number} revealMs how long a revealed card shows its face
 * @param {number | null | undefined} viewer
 */
export function absorbEvents(ui, items, info, now, revealMs, viewer) {
  const lines = [];
  for (const ev of items || []) {
    if (ev.type === "reveal" && ev.element) {
      ui.reveals[ev.slot] = { element: ev.element, cause: ev.cause, until: now + revealMs };
    } else if (ev.type === "collect" || ev.type === "tide") {
      for (const s of ev.slots || [ev.slot]) delete ui.reveals[s];
    } else if (ev.type === "swap") {
      const [a, b] = ev.slots;
      const ra = ui.reveals[a];
      const rb = ui.reveals[b];
      delete ui.reveals[a];
      delete ui.reveals[b];
      if (rb) ui.reveals[a] = rb;
      if (ra) ui.reveals[b] = ra;
    }
    const line = pageLine(ev, info, viewer);
    if (line) lines.push(line);
  }
  if ((items || []).some((ev) => ev.type === "reveal" && ev.cause === "setup")) {
    lines.unshift("The grid was dealt face-up: remember it!");
  }
  ui.log = ui.log.concat(lines).slice(-LOG_LINES);
}

/**
 * Forget page choices the new state no longer allows, and reveals of cards that moved on.
 * @param {PlayUi} ui
 * @param {BoardState} st
 */
function dropStale(ui, st) {
  const { view, legal } = st;
  dropStalePicks(ui, legal);
  if (ui.infoPower && view.phase === "game_over") ui.infoPower = null;
  for (const [slot, r] of Object.entries(ui.reveals)) {
    const cell = view.grid && view.grid[Number(slot)];
    if (!cell || cell.card !== "inert") delete ui.reveals[slot];
    else if (r.until <= Date.now()) delete ui.reveals[slot];
  }
  const size = view.grid ? view.grid.length : 1;
  if (ui.focus >= size) ui.focus = 0;
}

/**
 * Whether a batch holds the set-up deal.
 * @param {GameEvent[] | undefined} items
 * @returns {boolean}
 */
export function isDeal(items) {
  return (items || []).some((ev) => ev.type === "reveal" && ev.cause === "setup");
}

/**
 * The play mode's context: what every part of the controller reads and changes.
 * @typedef {object} Table
 * @property {import("./types").Model} model
 * @property {import("./mount.js").Mounted} m
 * @property {PlayUi} ui
 * @property {HTMLElement} el
 * @property {{seq: number | undefined | null, ack: unknown, bot: number | undefined | null,
 *   step: number | undefined | null, seat: unknown, onScreen: boolean}} seen what the page last took in
 * @property {{base: unknown, log: unknown, turns: import("./types").LogTurn[], gap?: boolean}} past
 */

/**
 * The board's state from the model's traits.
 * @param {Table} t
 * @returns {BoardState}
 */
export function boardState(t) {
  const get = (/** @type {string} */ name) => read(t.model, name);
  return {
    mode: get("mode"), view: get("view") || {}, legal: get("legal") || {},
    info: get("info") || {}, error: get("error") || "", ack: get("ack"),
    bot_delay_ms: get("bot_delay_ms"), remembered: get("remembered"), memory: get("memory"),
    log: get("log"), log_past: t.past.turns, handoff: get("handoff"), session: get("session"),
    deal_ms: get("deal_ms"), hint: get("hint"), shown: (get("lesson") || {}).shown,
    prefs: get("prefs"), final_grid: get("final_grid"), network: get("network") === true,
  };
}

/**
 * The flow: event batches shown once (after Ready, on screen, after a hand-off), the bot's
 * pace, and what a change of the model means for the page's state.
 * @param {Table} t
 */
function flowOf(t) {
  const { model, m, ui } = t;
  // The play widget's kernel keeps `shown_seq`; a mode without it (older kernels) shows at once.
  const tracked = () => typeof read(model, "shown_seq") === "number";
  const handoffTo = () => {
    const hand = read(model, "handoff");
    return hand && typeof hand.to === "number" ? hand.to : null;
  };

  /** Show the queued batch now if nothing holds it back; tell the kernel it was shown. */
  function release() {
    const q = ui.queued;
    if (!q || !m.alive() || !t.seen.onScreen || handoffTo() !== null) return;
    if (q.deal && ui.deal !== "ready") {
      ui.deal = "waiting";
      m.schedule();
      return;
    }
    ui.queued = null;
    const now = Date.now();
    const ms = q.deal ? Number(read(model, "deal_ms")) || 0 : Number(read(model, "reveal_ms")) || 0;
    const view = read(model, "view") || {};
    const info = read(model, "info") || {};
    absorbEvents(ui, q.items, info, now, ms, view.viewer);
    ui.motion = motionOf(q.items, now + MOTION_MS);
    ui.announce = announceOf(q.items, info, view.viewer);
    if (q.deal) {
      ui.deal = "showing";
      m.later("deal", ms + 5, () => { ui.deal = "none"; m.schedule(); pace(); });
    }
    m.later("motion", MOTION_MS + 5, () => { ui.motion = {}; m.schedule(); });
    if (tracked()) model.send({ type: "shown", seq: q.seq });
    m.schedule();
  }

  function takeEvents() {
    const ev = read(model, "events") || {};
    if (ev.seq === t.seen.seq) return;
    t.seen.seq = ev.seq;
    if (tracked() && typeof ev.seq === "number" && ev.seq <= read(model, "shown_seq")) return; // shown already
    // deal_ms 0 (scripts, benchmarks): no deal is shown, so there is nothing to be ready for.
    const deal = isDeal(ev.items) && Number(read(model, "deal_ms")) > 0;
    if (deal) ui.deal = "waiting";
    ui.queued = { seq: ev.seq || 0, items: ev.items || [], deal };
    release();
  }

  function pace() {
    const legal = read(model, "legal") || {};
    const view = read(model, "view") || {};
    // The bot waits for the deal: not yet seen, or on screen now.
    const dealHolds = ui.deal !== "none" || (ui.queued !== null && ui.queued.deal);
    if (!legal.bot || view.is_over || ui.paused || dealHolds) {
      m.cancel("bot");
      t.seen.bot = null;
      return;
    }
    if (t.seen.bot === legal.step) return; // already asked (or asking) for this move
    t.seen.bot = legal.step;
    m.later("bot", botDelayMs(read(model, "bot_delay_ms")), () => {
      if (m.alive()) model.send({ type: "bot_step", step: legal.step });
    });
  }

  function onChange() {
    const hadGap = t.past.gap;
    t.past = pastTurns(t.past, read(model, "log_past"), read(model, "log"));
    if (t.past.gap && !hadGap) model.send({ type: "log_sync" });
    const ack = read(model, "ack");
    if (ack !== t.seen.ack) {
      t.seen.ack = ack;
      ui.pending = null;
      ui.dismissed = null; // a repeated refusal is news again
    }
    const seat = (read(model, "view") || {}).viewer;
    if (t.seen.seat !== undefined && seat !== t.seen.seat) forgetSeat(ui);
    t.seen.seat = seat;
    const legal = read(model, "legal") || {};
    if (legal.step !== t.seen.step) {
      if (t.seen.step !== null) ui.hint = ""; // a hint was about the position that has gone
      t.seen.step = legal.step;
    }
    takeEvents();
    release();
    dropStale(ui, boardState(t));
    m.schedule();
    pace();
  }

  return { release, pace, onChange };
}

/**
 * Send a move (and, for one click that is two moves, the one after it).
 * @param {Table} t
 * @param {Partial<Action>} action
 * @param {PlayUi["pending"]} pending
 * @param {Partial<Action>} [then]
 */
function send(t, action, pending, then) {
  const legal = read(t.model, "legal") || {};
  t.ui.hint = "";
  t.ui.pending = pending;
  t.model.send(then ? { type: "action", action, step: legal.step, then } : { type: "action", action, step: legal.step });
}

/**
 * A note in the message line.
 * @param {Table} t
 * @param {string} text
 */
function say(t, text) {
  t.ui.hint = text;
  t.m.schedule();
}

/**
 * Why the seat on the board may not click a card now, or "" when it may.
 * @param {Table} t
 * @param {BoardState} st
 * @returns {string}
 */
function notNow(t, st) {
  const { view, legal, info } = st;
  if (view.is_over) return "The game is over.";
  if (t.ui.deal === "waiting") return "Press Ready to see the deal first.";
  if (legal.bot) {
    return t.ui.paused ? `${playerName(info, view.active_player)} is paused: click Next bot move.`
      : `Wait: ${playerName(info, view.active_player)} is playing.`;
  }
  if (legal.actor === null || legal.actor === undefined) return `It is ${playerName(info, view.active_player)}'s turn.`;
  return "";
}

/**
 * A click on card `slot`: the move it means, a target picked, or why not.
 * @param {Table} t
 * @param {number} slot
 * @param {Element | null} button
 * @returns {void}
 */
function onCard(t, slot, button) {
  const { ui } = t;
  const st = boardState(t);
  const why = notNow(t, st);
  if (why) return say(t, why);
  if (st.view.phase === "abilities" && !ui.power) {
    // Phase 1 with no power chosen: with "skip Phase 1" on, the card is Phase 2's first move.
    const skip = ((st.prefs && st.prefs.skip_phase1) || []).includes(/** @type {number} */ (st.legal.actor));
    if (!skip) return say(t, "Phase 1: choose a power above, or No power this turn (key N) first.");
    const type = st.view.grid[slot] && st.view.grid[slot].card === "active" ? "deactivate" : "activate";
    closePower(ui);
    return send(t, { type: "end_phase" }, { slot }, { type, slot });
  }
  const out = cardClick(ui, st.view, st.legal, st.info, slot);
  if (out.hint) return say(t, out.hint);
  if (!out.action) {
    ui.hint = ""; // a target picked: the board shows it
    return t.m.schedule();
  }
  if (out.action.type === "use_power") {
    send(t, out.action, { act: "power" });
    return t.m.schedule();
  }
  if (button) {
    button.classList.add("ll-pending");
    // The page's card no longer is what its paint key says: the next repaint redoes it.
    button.removeAttribute(PAINT_KEY);
  }
  return send(t, out.action, { slot });
}

/**
 * A power chosen in Phase 1: one without targets is used at once; one with targets waits
 * for them on the grid.
 * @param {Table} t
 * @param {string} key
 */
function choosePower(t, key) {
  const { ui } = t;
  const legal = read(t.model, "legal") || {};
  const spec = legal.powers && legal.powers[key];
  if (!spec) return say(t, "That power cannot be used now.");
  ui.hint = "";
  pickPower(ui, legal, key);
  if (spec.max === 0) {
    const action = takePower(ui, read(t.model, "info"));
    if (action) send(t, action, { act: "power" });
  }
  return t.m.schedule();
}

/**
 * Each kind of button (its `data-act`) and what a click on it does.
 * @type {Record<string, (t: Table, button: Element, flow: ReturnType<typeof flowOf>) => void>}
 */
const CLICKS = {
  card(t, button) {
    const slot = Number(button.getAttribute("data-slot"));
    t.ui.focus = slot;
    onCard(t, slot, button);
  },
  end(t, button) {
    if (button.getAttribute("aria-disabled") === "true") return say(t, button.getAttribute("title") || "Not now.");
    button.classList.add("ll-pending");
    closePower(t.ui);
    return send(t, { type: "end_phase" }, { act: "end" });
  },
  "no-power"(t, button) { CLICKS.end(t, button, /** @type {any} */ (null)); },
  "choose-power"(t, button) { choosePower(t, /** @type {string} */ (button.getAttribute("data-power"))); },
  power(t, button) {
    t.ui.hint = "";
    pickPower(t.ui, read(t.model, "legal") || {}, /** @type {string} */ (button.getAttribute("data-key")));
    t.m.schedule();
  },
  "use-power"(t, button) {
    if (button.getAttribute("aria-disabled") === "true") return say(t, "Choose the target cards on the grid first.");
    const action = takePower(t.ui, read(t.model, "info"));
    if (action) send(t, action, { act: "power" });
    return t.m.schedule();
  },
  "close-power"(t) { closePower(t.ui); t.m.schedule(); },
  cancel(t) { closePower(t.ui); t.m.schedule(); },
  source(t, button) {
    const element = /** @type {string} */ (button.getAttribute("data-element"));
    const source = /** @type {string} */ (button.getAttribute("data-source"));
    const why = pickSource(t.ui, read(t.model, "legal") || {}, element, source);
    if (why) return say(t, why);
    t.ui.hint = "";
    return t.m.schedule();
  },
  dismiss(t) {
    t.ui.hint = "";
    t.ui.dismissed = read(t.model, "error") || null;
    t.m.schedule();
  },
  "bot-step"(t) { t.model.send({ type: "bot_step", step: (read(t.model, "legal") || {}).step }); },
  "deal-ready"(t, _button, flow) {
    t.ui.deal = "ready";
    flow.release();
    t.m.schedule();
  },
  "handoff-ready"(t) {
    forgetSeat(t.ui);
    t.model.send({ type: "ready" });
  },
  undo(t, button) {
    button.classList.add("ll-pending");
    t.ui.source = null;
    t.model.send({ type: "undo" });
  },
  "refill-all"(t, button) {
    button.classList.add("ll-pending");
    t.ui.hint = "";
    t.model.send({ type: "refill_all", step: (read(t.model, "legal") || {}).step });
  },
  "new-game"(t, button) { newGame(t, button, "new_game"); },
  rematch(t, button) { newGame(t, button, "rematch"); },
  hint(t, button) {
    button.classList.add("ll-pending");
    t.model.send({ type: "hint" });
  },
  rules(t) {
    t.ui.rules = !t.ui.rules;
    t.m.schedule();
  },
};

/**
 * New game or Rematch, with the seat menu's choices.
 * @param {Table} t
 * @param {Element} button
 * @param {string} type
 */
function newGame(t, button, type) {
  button.classList.add("ll-pending");
  t.ui.source = null;
  const st = boardState(t);
  t.model.send((st.view.players || []).length > 1 ? { type, seats: seatKinds(st, t.ui) } : { type });
  t.ui.seats = {};
}

/**
 * A change in a menu or a box: the memory panel's seat, a seat's kind for the next game, a
 * table setting, the bot's pace.
 * @param {Table} t
 * @param {ReturnType<typeof flowOf>} flow
 * @param {Event} event
 * @returns {void}
 */
function onInput(t, flow, event) {
  const target = /** @type {HTMLSelectElement | null} */ (event.target);
  const act = target && target.getAttribute("data-act");
  if (!target || !act) return;
  if (act === "memory-of") return chooseMemoryOf(t.model, target.value);
  if (act === "seat-kind") {
    t.ui.seats = { ...t.ui.seats, [Number(target.getAttribute("data-seat"))]: target.value };
    return t.m.schedule();
  }
  if (act === "pref") {
    const name = /** @type {string} */ (target.getAttribute("data-pref"));
    t.model.send({ type: "prefs", [name]: Boolean(/** @type {HTMLInputElement} */ (/** @type {unknown} */ (target)).checked) });
    return undefined;
  }
  if (act !== "pace") return;
  if (target.value === "paused") {
    t.ui.paused = true;
  } else {
    t.ui.paused = false;
    t.model.set("bot_delay_ms", Number(target.value));
    t.model.save_changes();
  }
  t.seen.bot = null;
  flow.pace();
  t.m.schedule();
}

/**
 * Escape: drop every pick, the hint and the rules.
 * @param {Table} t
 * @param {KeyboardEvent} event
 */
function onEscape(t, event) {
  const { ui } = t;
  if (!(ui.power || ui.infoPower || ui.source || ui.hint || ui.rules)) return;
  ui.power = null;
  ui.targets = [];
  ui.infoPower = null;
  ui.source = null;
  ui.hint = "";
  ui.rules = false;
  t.m.schedule();
  event.preventDefault();
  event.stopPropagation(); // handled here: JupyterLab does not also leave edit mode
}

/**
 * Arrow keys, Home and End move between the grid's cards.
 * @param {Table} t
 * @param {Element} card
 * @param {KeyboardEvent} event
 */
function moveFocus(t, card, event) {
  const view = read(t.model, "view") || {};
  const cols = view.grid_cols || 1;
  const size = (view.grid || []).length;
  const slot = Number(card.getAttribute("data-slot"));
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
  /** @type {number | null} */
  let next = null;
  if (event.key in moves) next = slot + moves[event.key];
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = size - 1;
  if (next === null) return;
  event.preventDefault();
  if (next < 0 || next >= size) return;
  t.ui.focus = next;
  t.m.paint();
  const target = /** @type {HTMLElement | null} */ (t.m.root().querySelector(`[data-act=card][data-slot="${next}"]`));
  if (target) target.focus();
}

/**
 * The button a key stands for, while it is on the board (see KEYS; 1-9: Phase 1's powers).
 * @param {Table} t
 * @param {string} key
 * @returns {Element | null}
 */
export function keyButton(t, key) {
  const root = t.m.root();
  if (/^[1-9]$/.test(key)) return root.querySelector(`[data-act=choose-power][data-keyno="${key}"]`);
  const selector = KEYS[key.toLowerCase()];
  return selector ? root.querySelector(selector) : null;
}

/**
 * @param {Table} t
 * @param {ReturnType<typeof flowOf>} flow
 * @param {KeyboardEvent} event
 * @returns {void}
 */
function onKey(t, flow, event) {
  if (event.key === "Escape") return onEscape(t, event);
  const from = /** @type {Element} */ (event.target);
  const tag = from && from.tagName ? from.tagName.toLowerCase() : "";
  if (tag === "select" || tag === "input" || tag === "textarea") return;
  const card = from.closest && from.closest("[data-act=card]");
  if (card && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
    return moveFocus(t, card, event);
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const button = keyButton(t, event.key);
  if (!button) return;
  event.preventDefault();
  const act = /** @type {string} */ (button.getAttribute("data-act"));
  CLICKS[act](t, button, flow);
}

/**
 * Paint the board. A keyboard player's focus stays on the board: when the focused part goes
 * away (the Ready button, a card that was collected and redrawn), the card the arrows would
 * start from takes it, so the next key is the board's and not the notebook's.
 * @param {Table} t
 * @param {number} now
 */
function draw(t, now) {
  const { m } = t;
  const active = m.doc.activeElement;
  const had = !!active && m.root().contains(active);
  m.show(renderBoard(boardState(t), t.ui, m.doc, now, true));
  const root = m.root();
  if (had && !root.contains(m.doc.activeElement)) {
    const card = /** @type {HTMLElement | null} */ (root.querySelector("[data-act=card][tabindex='0']"));
    if (card) card.focus({ preventScroll: true });
  }
}

/** @type {import("./types").Mode} */
export function playMode({ model, el }) {
  return mount(model, el, "leyline", (m) => {
    /** @type {Table} */
    const t = {
      model, m, el, ui: newUi(), past: { base: null, log: null, turns: [] },
      seen: { seq: null, ack: read(model, "ack"), bot: null, step: null, seat: undefined, onScreen: true },
    };
    const flow = flowOf(t);
    /** @type {IntersectionObserver | null} */
    let watcher = null;
    const win = m.doc.defaultView;
    if (win && typeof win.IntersectionObserver === "function") {
      t.seen.onScreen = false;
      watcher = new win.IntersectionObserver((entries) => {
        t.seen.onScreen = entries.some((e) => e.isIntersecting);
        if (t.seen.onScreen) flow.release();
      }, { threshold: 0.2 });
      watcher.observe(el);
    }
    /** @param {MouseEvent} event */
    const onClick = (event) => {
      const button = /** @type {Element} */ (event.target).closest("[data-act]");
      if (!button || !m.root().contains(button)) return;
      const handler = CLICKS[/** @type {string} */ (button.getAttribute("data-act"))];
      if (handler) handler(t, button, flow);
    };
    return {
      draw: (/** @type {number} */ now) => draw(t, now),
      onChange: flow.onChange, reveals: () => t.ui.reveals, start: true,
      listeners: { click: onClick, change: (/** @type {Event} */ e) => onInput(t, flow, e), keydown: (/** @type {KeyboardEvent} */ e) => onKey(t, flow, e) },
      teardown() { if (watcher) watcher.disconnect(); },
    };
  });
}
