// The play table's smaller panels, each a pure function of state (no model, no side effects),
// so each is rendered and tested in jsdom on its own: the other seats' turns in a line each,
// Phase 1 as a choice, the seat's table settings, the coach's hint on the board, and the keys.
// The power a button or a mark stands for is read by its effect KIND (DESIGN.md, "Powers as
// data"), never by its id: `effectKind` is the one place that maps today's ids to kinds.
import { h } from "./dom.js";
import { elementLook } from "./looks.js";
import { describeAction, listSlots } from "./words.js";

export { EFFECT_KINDS, effectKind } from "./kinds.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").BoardState} BoardState */
/** @typedef {import("./types").PlayUi} PlayUi */
/** @typedef {import("./types").Power} Power */


/** What a turn-long effect does, by kind, for the status line. @type {Record<string, string>} */
export const EFFECT_WORDS = {
  collect_threshold: "collect at 1", ignore_tokens: "tokens ignored", extra_activations: "extra activation",
};

/**
 * The keys of the table: each does what its button does, only while that button is shown.
 * @type {Record<string, string>}
 */
export const KEYS = {
  e: "[data-act=end]", n: "[data-act=no-power]", h: "[data-act=hint]", u: "[data-act=undo]",
  r: "[data-act=deal-ready], [data-act=handoff-ready]", "?": "[data-act=rules]", b: "[data-act=bot-step]",
  c: "[data-act=cancel]", f: "[data-act=refill-all]",
};

/**
 * Whether the viewer's seat may act from this page now.
 * @param {BoardState} st
 * @returns {boolean}
 */
export function canAct(st) {
  return st.legal.actor !== null && st.legal.actor !== undefined && !st.view.is_over;
}

/**
 * The other seats' turns since yours, a line each ("Greedy bot used Spark, collected 2 Water").
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement | null}
 */
export function recapPanel(doc, st) {
  const recap = (st.log && st.log.recap) || [];
  if (!recap.length || st.view.players.length < 2) return null;
  return h(doc, "section", { class: "ll-recap", "aria-label": "Since your last turn" },
    h(doc, "ul", {}, recap.map((r) => h(doc, "li", { "data-recap-turn": r.turn },
      h(doc, "span", { class: "ll-recapturn" }, `Turn ${r.turn}: `), r.text))));
}

/**
 * Phase 1 as a choice on the board: each usable power (a key each: 1, 2, ...) or no power
 * this turn (N).
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement | null}
 */
export function phaseChoice(doc, st, ui) {
  const { view, legal, info } = st;
  if (view.phase !== "abilities" || !canAct(st)) return null;
  const usable = (info.powers || []).filter((pw) => legal.powers && legal.powers[pw.key]);
  const els = info.elements || view.elements || [];
  const hinted = hintPowerKey(st);
  return h(doc, "section", { class: "ll-choice", "aria-label": "Phase 1: choose a power or none" },
    h(doc, "span", { class: "ll-k" }, "Phase 1:"),
    usable.map((pw, i) => {
      const look = elementLook(pw.element, els);
      const open = ui.power === pw.key || ui.infoPower === pw.key;
      return h(doc, "button", {
        type: "button", class: `ll-btn ll-pw${open ? " ll-chosen" : ""}${hinted === pw.key ? " ll-hinted" : ""}`,
        "data-act": "choose-power", "data-power": pw.key, "data-keyno": i + 1, "aria-pressed": open ? "true" : "false",
        title: `${pw.text} (key ${i + 1})`, "aria-keyshortcuts": String(i + 1),
      }, h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}`, "aria-hidden": "true" }, look.symbol),
      ` ${pw.name}`, h(doc, "kbd", { "aria-hidden": "true" }, i + 1));
    }),
    h(doc, "button", {
      type: "button", class: `ll-btn ll-primary${hinted === "end" ? " ll-hinted" : ""}`, "data-act": "no-power",
      "aria-keyshortcuts": "N", title: "Go to Phase 2 without a power (key N)",
    }, "No power this turn ", h(doc, "kbd", { "aria-hidden": "true" }, "N")));
}

/**
 * The seat's table settings (kept by the kernel, per seat).
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement | null}
 */
export function prefsPanel(doc, st) {
  if (!canAct(st) || !st.prefs) return null;
  const seat = /** @type {number} */ (st.legal.actor);
  const on = (/** @type {string} */ name) => ((st.prefs && st.prefs[name]) || []).includes(seat);
  const box = (/** @type {string} */ name, /** @type {string} */ words) => h(doc, "label", { class: "ll-pref" },
    h(doc, "input", { type: "checkbox", "data-act": "pref", "data-pref": name, checked: on(name) }), ` ${words}`);
  return h(doc, "details", { class: "ll-prefs" }, h(doc, "summary", {}, "Table settings"),
    box("skip_phase1", "Skip Phase 1: a card click means no power this turn"),
    box("confirm_end", "Ask me to click End turn even when no token can be placed"));
}

/**
 * The coach's suggestion, while it answers the position on the board for this seat.
 * @param {BoardState} st
 * @returns {{action: Action, label: string, reason: string, value: number, plan?: Action[]} | null}
 */
export function liveHint(st) {
  const hint = st.hint;
  const s = hint && hint.suggestion;
  if (!hint || !s || hint.seat !== st.view.viewer) return null;
  if (hint.step !== undefined && st.legal.step !== undefined && hint.step !== st.legal.step) return null;
  return s;
}

/**
 * The slots the hint's plan plays (its cards, its power's targets, its token's card).
 * @param {BoardState} st
 * @returns {number[]}
 */
export function hintSlots(st) {
  const s = liveHint(st);
  if (!s) return [];
  const out = new Set();
  for (const a of s.plan && s.plan.length ? s.plan : [s.action]) {
    if (typeof a.slot === "number") out.add(a.slot);
    for (const t of a.targets || []) out.add(t);
  }
  return /** @type {number[]} */ ([...out].sort((a, b) => a - b));
}

/**
 * The power key the hint starts with ("end" when it says no power), for the choice's buttons.
 * @param {BoardState} st
 * @returns {string | null}
 */
function hintPowerKey(st) {
  const s = liveHint(st);
  if (!s) return null;
  if (s.action.type === "use_power") return `${s.action.element}:${s.action.tier}`;
  return s.action.type === "end_phase" ? "end" : null;
}

/**
 * The coach's hint in words, once: the plan, and its expected margin only when it says
 * something (a plan worth a card or more either way).
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement | null}
 */
export function hintPanel(doc, st) {
  const s = liveHint(st);
  const hint = st.hint;
  if (!s || !hint) return null;
  const used = (hint.used || [])[hint.seat ?? 0] || 0;
  const plan = s.label ? s.label[0].toUpperCase() + s.label.slice(1) : describeAction(s.action, st.info);
  const slots = hintSlots(st);
  const margin = Math.abs(s.value) >= 1 ? ` Expected final margin: ${s.value > 0 ? "+" : ""}${s.value.toFixed(1)} cards.` : "";
  return h(doc, "section", { class: "ll-coach-hint", "aria-label": "Coach's hint", "aria-live": "polite" },
    h(doc, "strong", {}, "Hint: "), `${plan}.`,
    slots.length ? h(doc, "span", { class: "ll-note" }, ` Marked on the grid: ${listSlots(slots)}.`) : null,
    h(doc, "span", { class: "ll-note" }, `${margin} Hints used this game: ${used}.`));
}

/**
 * The keys, in one line under the controls.
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement | null}
 */
export function keysLine(doc, st) {
  if (!canAct(st)) return null;
  const phase = st.view.phase;
  const keys = [["Arrows", "move"], ["Enter", "click card"]];
  if (phase === "abilities") keys.push(["1-9", "power"], ["N", "no power"]);
  if (phase === "refill" && (st.legal.refill || []).length > 1) keys.push(["F", "fill in order"]);
  if (st.legal.end) keys.push(["E", "end / collect"]);
  if (st.hint && st.hint.enabled) keys.push(["H", "hint"]);
  keys.push(["?", "rules"]);
  return h(doc, "p", { class: "ll-keys ll-note", "aria-label": "Keys" },
    keys.map(([k, what], i) => [i ? " · " : "", h(doc, "kbd", {}, k), ` ${what}`]));
}

/**
 * The face-up grid once the game is over (the `final_grid` trait: nothing is hidden then).
 * @param {BoardState} st
 * @param {number} slot
 * @returns {string | null}
 */
export function finalElement(st, slot) {
  const final = st.final_grid;
  if (!st.view.is_over || !Array.isArray(final)) return null;
  return final[slot] || null;
}
