// The play mode (LeylineWidget, mode "play"): the board, the clicks that become actions sent to
// the kernel, brief reveals and log lines from the event batches, the bot's pace, the keyboard.
//
// Reveals are shown once: a batch waits until the board is on screen (and, for the set-up
// deal, until the players press Ready; in hot-seat, until the next player has taken the seat),
// then the page tells the kernel `{"type": "shown", "seq": n}`; a view rendered again skips
// every batch up to the kernel's `shown_seq`. A change of seat forgets everything the page
// held for the previous seat (reveals, chosen power and targets, hints, focus).
import { botDelayMs, renderBoard, seatKinds } from "./board.js";
import { PAINT_KEY } from "./dom.js";
import { chooseMemoryOf } from "./memory.js";
import { mount } from "./mount.js";
import { elementLook } from "./looks.js";
import { cardClick, closePower, dropStalePicks, pickPower, pickSource, takePower } from "./picks.js";
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
    else if (ev.type === "reveal" && (ev.cause === "refill" || ev.cause === "tide")) out[ev.slot] = { kind: "deal", until };
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
  if (ev.type === "reveal" && ev.cause === "tide") return `Tide brought a new card into slot ${ev.slot}`;
  if (ev.type === "reveal" && ev.element && (ev.cause === "whisper" || ev.cause === "gale")) return `You peeked at slot ${ev.slot}`;
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

/** @type {import("./types").Mode} */
export function playMode({ model, el }) {
  return mount(model, el, "leyline", (m) => {
    const ui = newUi();
    /** @type {number | undefined | null} */
    let seenSeq = null;
    /** @type {number | undefined} */
    let lastAck = model.get("ack");
    /** @type {number | undefined | null} */
    let botStep = null;
    /** @type {number | undefined | null} */
    let lastStep = null;
    /** @type {unknown} */
    let lastSeat;
    // The play widget's kernel keeps `shown_seq`; a mode without it (older kernels) shows at once.
    const tracked = () => typeof model.get("shown_seq") === "number";
    const { schedule } = m;
    let onScreen = true;
    /** @type {IntersectionObserver | null} */
    let watcher = null;
    const win = m.doc.defaultView;
    if (win && typeof win.IntersectionObserver === "function") {
      onScreen = false;
      watcher = new win.IntersectionObserver((entries) => {
        onScreen = entries.some((e) => e.isIntersecting);
        if (onScreen) release();
      }, { threshold: 0.2 });
      watcher.observe(el);
    }

    /** @type {{base: unknown, log: unknown, turns: import("./types").LogTurn[], gap?: boolean}} */
    let past = { base: null, log: null, turns: [] };

    /** @returns {BoardState} */
    const state = () => ({
      mode: model.get("mode"), view: model.get("view") || {}, legal: model.get("legal") || {},
      info: model.get("info") || {}, error: model.get("error") || "", ack: model.get("ack"),
      bot_delay_ms: model.get("bot_delay_ms"), remembered: model.get("remembered"), memory: model.get("memory"),
      log: model.get("log"), log_past: past.turns, handoff: model.get("handoff"), session: model.get("session"),
      deal_ms: model.get("deal_ms"), hint: model.get("hint"), shown: (model.get("lesson") || {}).shown,
    });

    /** @param {number} now */
    function draw(now) {
      m.show(renderBoard(state(), ui, m.doc, now, true));
    }

    const handoffTo = () => {
      const hand = model.get("handoff");
      return hand && typeof hand.to === "number" ? hand.to : null;
    };

    /** Show the queued batch now if nothing holds it back; tell the kernel it was shown. */
    function release() {
      const q = ui.queued;
      if (!q || !m.alive()) return;
      if (!onScreen || handoffTo() !== null) return;
      if (q.deal && ui.deal !== "ready") {
        ui.deal = "waiting";
        schedule();
        return;
      }
      ui.queued = null;
      const now = Date.now();
      const ms = q.deal ? Number(model.get("deal_ms")) || 0 : Number(model.get("reveal_ms")) || 0;
      const view = model.get("view") || {};
      absorbEvents(ui, q.items, model.get("info") || {}, now, ms, view.viewer);
      ui.motion = motionOf(q.items, now + MOTION_MS);
      ui.announce = announceOf(q.items, model.get("info") || {}, view.viewer);
      if (q.deal) {
        ui.deal = "showing";
        m.later("deal", ms + 5, () => { ui.deal = "none"; schedule(); pace(); });
      }
      m.later("motion", MOTION_MS + 5, () => { ui.motion = {}; schedule(); });
      if (tracked()) model.send({ type: "shown", seq: q.seq });
      schedule();
    }

    function takeEvents() {
      const ev = model.get("events") || {};
      if (ev.seq === seenSeq) return;
      seenSeq = ev.seq;
      if (tracked() && typeof ev.seq === "number" && ev.seq <= model.get("shown_seq")) return; // shown already
      // deal_ms 0 (scripts, benchmarks): no deal is shown, so there is nothing to be ready for.
      const deal = isDeal(ev.items) && Number(model.get("deal_ms")) > 0;
      if (deal) ui.deal = "waiting";
      ui.queued = { seq: ev.seq || 0, items: ev.items || [], deal };
      release();
    }

    /** Whether the bot must wait: the deal not yet seen, or on screen now. */
    function dealHolds() {
      return ui.deal !== "none" || (ui.queued !== null && ui.queued.deal);
    }

    function pace() {
      const legal = model.get("legal") || {};
      const view = model.get("view") || {};
      if (!legal.bot || view.is_over || ui.paused || dealHolds()) {
        m.cancel("bot");
        botStep = null;
        return;
      }
      if (botStep === legal.step) return; // already asked (or asking) for this move
      botStep = legal.step;
      m.later("bot", botDelayMs(model.get("bot_delay_ms")), () => {
        if (m.alive()) model.send({ type: "bot_step", step: legal.step });
      });
    }

    function onChange() {
      const hadGap = past.gap;
      past = pastTurns(past, model.get("log_past"), model.get("log"));
      if (past.gap && !hadGap) model.send({ type: "log_sync" });
      const ack = model.get("ack");
      if (ack !== lastAck) {
        lastAck = ack;
        ui.pending = null;
        ui.dismissed = null; // a repeated refusal is news again
      }
      const view = model.get("view") || {};
      const seat = view.viewer;
      if (lastSeat !== undefined && seat !== lastSeat) forgetSeat(ui);
      lastSeat = seat;
      const legal = model.get("legal") || {};
      if (legal.step !== lastStep) {
        if (lastStep !== null) ui.hint = ""; // a hint was about the position that has gone
        lastStep = legal.step;
      }
      takeEvents();
      release();
      dropStale(ui, state());
      schedule();
      pace();
    }

    /**
     * @param {Partial<Action>} action
     * @param {PlayUi["pending"]} pending
     */
    function send(action, pending) {
      const legal = model.get("legal") || {};
      ui.hint = "";
      ui.pending = pending;
      model.send({ type: "action", action, step: legal.step });
    }

    /**
     * @param {string} text
     */
    function hint(text) {
      ui.hint = text;
      schedule();
    }

    /**
     * @param {number} slot
     * @param {Element} button
     * @returns {void}
     */
    function onCard(slot, button) {
      const st = state();
      const { view, legal } = st;
      if (view.is_over) return hint("The game is over.");
      if (ui.deal === "waiting") return hint("Press Ready to see the deal first.");
      if (legal.bot) {
        return hint(ui.paused ? `${playerName(st.info, view.active_player)} is paused: click Next bot move.`
          : `Wait: ${playerName(st.info, view.active_player)} is playing.`);
      }
      if (legal.actor === null || legal.actor === undefined) {
        return hint(`It is ${playerName(st.info, view.active_player)}'s turn.`);
      }
      const out = cardClick(ui, view, legal, st.info, slot);
      if (out.hint) return hint(out.hint);
      if (!out.action) {
        ui.hint = ""; // a target picked: the board shows it
        return schedule();
      }
      if (out.action.type === "use_power") {
        send(out.action, { act: "power" });
        return schedule();
      }
      if (button) {
        button.classList.add("ll-pending");
        // The page's card no longer is what its paint key says: the next repaint redoes it.
        button.removeAttribute(PAINT_KEY);
      }
      return send(out.action, { slot });
    }

    function usePower() {
      const action = takePower(ui, model.get("info"));
      if (!action) return;
      send(action, { act: "power" });
      schedule();
    }

    /**
     * @param {string} key
     * @returns {void}
     */
    function onPower(key) {
      ui.hint = "";
      pickPower(ui, model.get("legal") || {}, key);
      return schedule();
    }

    /**
     * @param {Element} button
     * @returns {void}
     */
    function onSource(button) {
      const element = /** @type {string} */ (button.getAttribute("data-element"));
      const source = /** @type {string} */ (button.getAttribute("data-source"));
      const why = pickSource(ui, model.get("legal") || {}, element, source);
      if (why) return hint(why);
      ui.hint = "";
      return schedule();
    }

    /**
     * @param {MouseEvent} event
     * @returns {void}
     */
    function onClick(event) {
      const button = /** @type {Element} */ (event.target).closest("[data-act]");
      if (!button || !m.root().contains(button)) return;
      const act = button.getAttribute("data-act");
      if (act === "card") {
        const slot = Number(button.getAttribute("data-slot"));
        ui.focus = slot;
        onCard(slot, button);
      } else if (act === "end") {
        button.classList.add("ll-pending");
        ui.power = null;
        ui.infoPower = null;
        send({ type: "end_phase" }, { act: "end" });
      } else if (act === "power") {
        onPower(/** @type {string} */ (button.getAttribute("data-key")));
      } else if (act === "use-power") {
        if (button.getAttribute("aria-disabled") === "true") return hint("Choose the target cards on the grid first.");
        usePower();
      } else if (act === "close-power" || act === "cancel") {
        closePower(ui);
        schedule();
      } else if (act === "source") {
        onSource(button);
      } else if (act === "dismiss") {
        ui.hint = "";
        ui.dismissed = model.get("error") || null;
        schedule();
      } else if (act === "bot-step") {
        const legal = model.get("legal") || {};
        model.send({ type: "bot_step", step: legal.step });
      } else if (act === "deal-ready") {
        ui.deal = "ready";
        release();
        schedule();
      } else if (act === "handoff-ready") {
        forgetSeat(ui);
        model.send({ type: "ready" });
      } else if (act === "undo") {
        button.classList.add("ll-pending");
        ui.source = null;
        model.send({ type: "undo" });
      } else if (act === "new-game" || act === "rematch") {
        button.classList.add("ll-pending");
        ui.source = null;
        const st = state();
        const type = act === "new-game" ? "new_game" : "rematch";
        model.send((st.view.players || []).length > 1 ? { type, seats: seatKinds(st, ui) } : { type });
        ui.seats = {};
      } else if (act === "hint") {
        button.classList.add("ll-pending");
        model.send({ type: "hint" });
      } else if (act === "rules") {
        ui.rules = !ui.rules;
        schedule();
      }
      return undefined;
    }

    /**
     * @param {Event} event
     * @returns {void}
     */
    function onInput(event) {
      const target = /** @type {HTMLSelectElement | null} */ (event.target);
      if (target && target.getAttribute("data-act") === "memory-of") return chooseMemoryOf(model, target.value);
      if (target && target.getAttribute("data-act") === "seat-kind") {
        ui.seats = { ...ui.seats, [Number(target.getAttribute("data-seat"))]: target.value };
        return schedule();
      }
      if (!target || target.getAttribute("data-act") !== "pace") return;
      if (target.value === "paused") {
        ui.paused = true;
      } else {
        ui.paused = false;
        model.set("bot_delay_ms", Number(target.value));
        model.save_changes();
      }
      botStep = null;
      pace();
      schedule();
    }

    /**
     * @param {KeyboardEvent} event
     */
    function onKey(event) {
      if (event.key === "Escape") {
        if (ui.power || ui.infoPower || ui.source || ui.hint || ui.rules) {
          ui.power = null;
          ui.targets = [];
          ui.infoPower = null;
          ui.source = null;
          ui.hint = "";
          ui.rules = false;
          schedule();
          event.preventDefault();
          event.stopPropagation(); // handled here: JupyterLab does not also leave edit mode
        }
        return;
      }
      const from = /** @type {Element} */ (event.target);
      const card = from.closest && from.closest("[data-act=card]");
      if (!card) return;
      const view = model.get("view") || {};
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
      ui.focus = next;
      m.paint();
      const target = /** @type {HTMLElement | null} */ (m.root().querySelector(`[data-act=card][data-slot="${next}"]`));
      if (target) target.focus();
    }

    return {
      draw, onChange, reveals: () => ui.reveals, start: true,
      listeners: { click: onClick, change: onInput, keydown: onKey },
      teardown() { if (watcher) watcher.disconnect(); },
    };
  });
}
