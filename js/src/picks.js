// What a click on the board means, for every mode that plays moves on it (the play widget, and
// the studio's explore and guess-the-move): a power button opens the power and, when it takes
// targets, starts choosing them; target cards are picked until the power has its most; a
// Binding source is picked, then a card takes the token; a card in Activation or Refill is the
// move itself. Pure: each function reads the kernel's `legal` summary and changes only the
// page's picks (`Picks`); the mode sends the action it is given. JS never decides a rule: the
// summary says what is usable, and the kernel judges the move.
import { powerOf } from "./words.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").Info} Info */
/** @typedef {import("./types").Legal} Legal */
/** @typedef {import("./types").Picks} Picks */
/** @typedef {import("./types").View} View */

/**
 * Forget every pick (after a move, on Cancel or Escape, on a change of seat).
 * @param {Picks} ui
 */
export function clearPicks(ui) {
  closePower(ui);
  ui.source = null;
}

/**
 * Close the power panel and drop its targets (Close, Cancel power, End Phase); a picked
 * Binding source stays.
 * @param {Picks} ui
 */
export function closePower(ui) {
  ui.power = null;
  ui.targets = [];
  ui.infoPower = null;
}

/**
 * A power button: open its panel (a second click closes it), and start choosing its targets
 * when it is usable now and takes some.
 * @param {Picks} ui
 * @param {Legal} legal
 * @param {string} key the power's key ("water:minor")
 */
export function pickPower(ui, legal, key) {
  if (ui.infoPower === key && !ui.power) {
    ui.infoPower = null;
    return;
  }
  ui.infoPower = key;
  const spec = legal.powers && legal.powers[key];
  ui.power = spec && spec.max > 0 ? key : null;
  ui.targets = [];
}

/**
 * A Binding source button: pick it (a second click drops it). Returns why it cannot pay now,
 * or "" when picked.
 * @param {Picks} ui
 * @param {Legal} legal
 * @param {string} element
 * @param {string} source "supply", "marker" or "pool"
 * @returns {string}
 */
export function pickSource(ui, legal, element, source) {
  const why = legal.place && legal.place[element] ? legal.place[element][source] : "";
  if (why) return why;
  const same = ui.source && ui.source.element === element && ui.source.source === source;
  ui.source = same ? null : { element, source };
  return "";
}

/**
 * The power being used, as an action (targets in ascending order, as legal_actions lists
 * them), and the picks cleared; null when no power is open.
 * @param {Picks} ui
 * @param {Info} info
 * @returns {Partial<Action> | null}
 */
export function takePower(ui, info) {
  const key = ui.power || ui.infoPower;
  const pw = powerOf(info, key);
  if (!pw) return null;
  const targets = (ui.power === key ? ui.targets : []).slice().sort((a, b) => a - b);
  clearPicks(ui);
  return { type: "use_power", element: pw.element, tier: pw.tier, targets };
}

/**
 * What a click on card `slot` does for the seat to act: a move to send, a hint to show, or
 * nothing more (a target was picked; the board repaints). The caller has checked that the
 * seat may act at all.
 * @param {Picks} ui
 * @param {View} view
 * @param {Legal} legal
 * @param {Info} info
 * @param {number} slot
 * @returns {{action?: Partial<Action>, hint?: string}}
 */
export function cardClick(ui, view, legal, info, slot) {
  if (view.phase === "abilities") {
    const spec = ui.power && legal.powers && legal.powers[ui.power];
    if (!spec || spec.max === 0) return { hint: "In Phase 1 click a power in your Study first (or End Phase 1)." };
    ui.targets = ui.targets.includes(slot) ? ui.targets.filter((t) => t !== slot) : ui.targets.concat([slot]);
    if (ui.targets.length >= spec.max) return { action: /** @type {Partial<Action>} */ (takePower(ui, info)) };
    return {};
  }
  const cell = view.grid[slot];
  if (view.phase === "activation") return { action: { type: cell.card === "active" ? "deactivate" : "activate", slot } };
  if (view.phase === "refill") return { action: { type: "refill", slot } };
  if (view.phase === "binding") {
    if (!ui.source) return { hint: "Pick an element and a source below first, then click a card." };
    return { action: { type: "place_token", slot, element: ui.source.element, source: ui.source.source } };
  }
  return {};
}

/**
 * Drop picks the new position no longer allows (a power no longer usable, a source that can
 * no longer pay).
 * @param {Picks} ui
 * @param {Legal} legal
 */
export function dropStalePicks(ui, legal) {
  if (ui.power && !(legal.powers && legal.powers[ui.power])) {
    ui.power = null;
    ui.targets = [];
  }
  if (ui.source) {
    const why = legal.place && legal.place[ui.source.element] && legal.place[ui.source.element][ui.source.source];
    if (why !== "") ui.source = null;
  }
}
