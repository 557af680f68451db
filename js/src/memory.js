// The teacher's memory panel: what one player has seen of each slot, and the collections they
// could have made from what they had seen. The kernel computes the report (memory_report).
import { h } from "./dom.js";
import { elementLook } from "./looks.js";
import { listSlots, plural } from "./words.js";

/** @typedef {import("./types").BoardState} BoardState */
/** @typedef {import("./types").Model} Model */

/** @type {Record<string, string>} */
const SEEN_HOW = {
  setup: "at set-up", refill: "when refilled", tide: "brought by Tide", whisper: "by Whisper",
  gale: "by Gale", activate: "activated", given: "known from the start",
};

/**
 * The teacher's memory panel (st.memory is memory_report for one player), or null.
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement | null}
 */
export function memoryPanel(doc, st) {
  const report = st.memory;
  if (!report || !Array.isArray(report.slots)) return null;
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const seats = info.players || [];
  const cells = report.slots.map((e) => {
    if (e.state === "empty") {
      return h(doc, "div", { class: "ll-mem ll-mem-empty", role: "listitem", "aria-label": `Slot ${e.slot}: empty` },
        h(doc, "span", { class: "ll-slotno", "aria-hidden": "true" }, e.slot), "empty");
    }
    const look = e.card ? elementLook(e.card, els) : null;
    const when = e.seen ? `turn ${e.seen_turn}, ${SEEN_HOW[e.how] || e.how}` : "never seen";
    return h(doc, "div", {
      class: `ll-mem ${e.seen ? "ll-mem-seen" : "ll-mem-never"}`, role: "listitem", "data-slot": e.slot,
      "data-seen": e.seen ? "true" : "false",
      style: look ? `--ll-el:${look.colour};--ll-ink:${look.ink}` : null,
      "aria-label": `Slot ${e.slot}: ${look ? look.name : "card"}, ${e.seen ? `seen on ${when}` : "never seen"}`,
    },
    h(doc, "span", { class: "ll-slotno", "aria-hidden": "true" }, e.slot),
    look ? h(doc, "span", { class: "ll-memcard", "aria-hidden": "true" }, look.symbol, " ", look.name) : null,
    h(doc, "span", { class: "ll-memwhen", "aria-hidden": "true" }, e.seen ? `T${e.seen_turn} · ${SEEN_HOW[e.how] || e.how}` : "never seen"));
  });
  /** @param {import("./types").MissedCollection} m */
  const planWords = (m) => Object.entries(m.plan).map(([el, k]) =>
    `${k} ${elementLook(el, els).name} (${listSlots(m.options[el] || [])})`).join(" and ");
  const missed = report.missed || [];
  const never = report.never_seen || [];
  return h(doc, "section", { class: "ll-memory", "aria-label": `Memory of ${report.name}` },
    h(doc, "div", { class: "ll-h" }, `Memory of ${report.name} (teacher view)`,
      seats.length > 1 ? h(doc, "label", { class: "ll-pick" }, " · player ",
        h(doc, "select", { "data-act": "memory-of", "aria-label": "Whose memory" },
          seats.map((p, i) => h(doc, "option", { value: i, selected: i === report.player }, p.name)))) : null),
    h(doc, "p", { class: "ll-note" }, `Seen ${report.summary.seen} of ${plural(report.summary.cards, "card")} on the grid; ` +
      `never seen: ${never.length ? listSlots(never) : "none"}.`),
    h(doc, "div", { class: "ll-memgrid", role: "list", style: `--ll-cols:${view.grid_cols || 4}` }, cells),
    h(doc, "div", { class: "ll-h" }, "Missed collections"),
    missed.length ? h(doc, "ul", { class: "ll-missed" }, missed.map((m) => h(doc, "li", {},
      `Turn ${m.turn}: could have collected ${m.best} from what they had seen — ${planWords(m)}; collected ${m.got}` +
      (m.elements.length ? ` (missed ${m.elements.map((el) => elementLook(el, els).name).join(", ")})` : "") + ".")))
      : h(doc, "p", { class: "ll-note" }, "None so far: every collection they knew of was made."));
}

/**
 * The memory panel's player menu: the kernel checks the seat and recomputes `memory`.
 * @param {Model} model
 * @param {string} value
 */
export function chooseMemoryOf(model, value) {
  model.set("show_memory_of", Number(value));
  model.save_changes();
}
