// The play mode (LeylineWidget, mode "play"): the board, the clicks that become actions sent to
// the kernel, brief reveals and log lines from the event batches, the bot's pace, the keyboard.
import { botDelayMs, renderBoard } from "./board.js";
import { chooseMemoryOf } from "./memory.js";
import { mount } from "./mount.js";
import { describeEvent, playerName, powerOf } from "./words.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").BoardState} BoardState */
/** @typedef {import("./types").GameEvent} GameEvent */
/** @typedef {import("./types").Info} Info */
/** @typedef {import("./types").Legal} Legal */
/** @typedef {import("./types").PlayUi} PlayUi */
/** @typedef {import("./types").View} View */

const LOG_LINES = 6;

/**
 * Fresh page-side state: nothing here is a rule, only what the player is in the middle of.
 * @returns {PlayUi}
 */
export function newUi() {
  return {
    pending: null, power: null, targets: [], infoPower: null, source: null,
    focus: 0, reveals: {}, log: [], hint: "", paused: false, dismissed: null,
  };
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
    const line = describeEvent(ev, info, viewer);
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
  if (ui.power && !(legal.powers && legal.powers[ui.power])) {
    ui.power = null;
    ui.targets = [];
  }
  if (ui.infoPower && view.phase === "game_over") ui.infoPower = null;
  if (ui.source) {
    const why = legal.place && legal.place[ui.source.element] && legal.place[ui.source.element][ui.source.source];
    if (why !== "") ui.source = null;
  }
  for (const [slot, r] of Object.entries(ui.reveals)) {
    const cell = view.grid && view.grid[Number(slot)];
    if (!cell || cell.card !== "inert") delete ui.reveals[slot];
    else if (r.until <= Date.now()) delete ui.reveals[slot];
  }
  const size = view.grid ? view.grid.length : 1;
  if (ui.focus >= size) ui.focus = 0;
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
    const { schedule } = m;

    /** @returns {BoardState} */
    const state = () => ({
      mode: model.get("mode"), view: model.get("view") || {}, legal: model.get("legal") || {},
      info: model.get("info") || {}, error: model.get("error") || "", ack: model.get("ack"),
      bot_delay_ms: model.get("bot_delay_ms"), remembered: model.get("remembered"), memory: model.get("memory"),
    });

    /** @param {number} now */
    function draw(now) {
      m.show(renderBoard(state(), ui, m.doc, now));
    }

    function takeEvents() {
      const ev = model.get("events") || {};
      if (ev.seq === seenSeq) return;
      seenSeq = ev.seq;
      const view = model.get("view") || {};
      absorbEvents(ui, ev.items, model.get("info") || {}, Date.now(), model.get("reveal_ms") || 0, view.viewer);
    }

    function pace() {
      const legal = model.get("legal") || {};
      const view = model.get("view") || {};
      if (!legal.bot || view.is_over || ui.paused) {
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
      const ack = model.get("ack");
      if (ack !== lastAck) {
        lastAck = ack;
        ui.pending = null;
        ui.dismissed = null; // a repeated refusal is news again
      }
      takeEvents();
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
      if (legal.bot) return hint(`Wait: ${playerName(st.info, view.active_player)} (bot) is playing.`);
      if (legal.actor === null || legal.actor === undefined) {
        return hint(`It is ${playerName(st.info, view.active_player)}'s turn.`);
      }
      const mark = () => button && button.classList.add("ll-pending");
      if (view.phase === "abilities") {
        const spec = ui.power && legal.powers && legal.powers[ui.power];
        if (!spec || spec.max === 0) return hint("In Phase 1 click a power in your Study first (or End Phase 1).");
        ui.targets = ui.targets.includes(slot) ? ui.targets.filter((t) => t !== slot) : ui.targets.concat([slot]);
        if (ui.targets.length >= spec.max) return usePower();
        ui.hint = "";
        return schedule();
      }
      const cell = view.grid[slot];
      if (view.phase === "activation") {
        mark();
        return send({ type: cell.card === "active" ? "deactivate" : "activate", slot }, { slot });
      }
      if (view.phase === "refill") {
        mark();
        return send({ type: "refill", slot }, { slot });
      }
      if (view.phase === "binding") {
        if (!ui.source) return hint("Pick an element and a source below first, then click a card.");
        mark();
        return send({ type: "place_token", slot, element: ui.source.element, source: ui.source.source }, { slot });
      }
      return undefined;
    }

    function usePower() {
      const key = ui.power || ui.infoPower;
      const pw = powerOf(model.get("info"), key);
      if (!pw) return;
      const targets = (ui.power === key ? ui.targets : []).slice().sort((a, b) => a - b);
      send({ type: "use_power", element: pw.element, tier: pw.tier, targets }, { act: "power" });
      ui.power = null;
      ui.targets = [];
      ui.infoPower = null;
      schedule();
    }

    /**
     * @param {string} key
     * @returns {void}
     */
    function onPower(key) {
      const legal = model.get("legal") || {};
      ui.hint = "";
      if (ui.infoPower === key && !ui.power) {
        ui.infoPower = null;
        return schedule();
      }
      ui.infoPower = key;
      const spec = legal.powers && legal.powers[key];
      ui.power = spec && spec.max > 0 ? key : null;
      ui.targets = [];
      return schedule();
    }

    /**
     * @param {Element} button
     * @returns {void}
     */
    function onSource(button) {
      const legal = model.get("legal") || {};
      const element = /** @type {string} */ (button.getAttribute("data-element"));
      const source = /** @type {string} */ (button.getAttribute("data-source"));
      const why = legal.place && legal.place[element] ? legal.place[element][source] : "";
      if (why) return hint(why);
      const same = ui.source && ui.source.element === element && ui.source.source === source;
      ui.source = same ? null : { element, source };
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
        ui.power = null;
        ui.targets = [];
        ui.infoPower = null;
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
      }
    }

    /**
     * @param {Event} event
     * @returns {void}
     */
    function onInput(event) {
      const target = /** @type {HTMLSelectElement | null} */ (event.target);
      if (target && target.getAttribute("data-act") === "memory-of") return chooseMemoryOf(model, target.value);
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
        if (ui.power || ui.infoPower || ui.source || ui.hint) {
          ui.power = null;
          ui.targets = [];
          ui.infoPower = null;
          ui.source = null;
          ui.hint = "";
          schedule();
          event.preventDefault();
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
    };
  });
}
