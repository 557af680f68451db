// The replay page's panels (mode "replay"), each a pure function of the synced state and the
// page's own state: the transport bar, the line and viewer pickers, what happened at the step,
// and its notes. Nothing here reads the model or changes anything; replay.js puts them around
// the board and handles what their buttons do. Note text and every name are untrusted: they
// only ever become text nodes.
import { h } from "./dom.js";
import { pageLine } from "./play.js";
import { listSlots, playerName, plural } from "./words.js";

/** @typedef {import("./types").Info} Info */
/** @typedef {import("./types").LineEntry} LineEntry */
/** @typedef {import("./types").Note} Note */
/** @typedef {import("./types").NoteWhere} NoteWhere */
/** @typedef {import("./types").ReplayState} ReplayState */
/** @typedef {import("./types").ReplayUi} ReplayUi */

/** @type {[string, string][]} */
const REPLAY_SPEEDS = [["2000", "slow"], ["1000", "normal"], ["400", "fast"]];

/**
 * Fresh page-side state of a replay: nothing here is a rule or a position.
 * @returns {ReplayUi}
 */
export function newReplayUi() {
  return {
    reveals: {}, playing: false, speed: 1000, showHidden: false, dismissed: null, hint: "", confirm: null,
    form: { open: false, editing: null, text: "", tags: "", highlights: [], seq: 0, pending: false },
    renaming: null, dealt: false, exported: 0, rules: false, power: null, targets: [], infoPower: null, source: null,
  };
}

/**
 * @param {{line?: LineEntry[]}} st
 * @returns {number}
 */
export function lastStep(st) {
  return Math.max(0, (st.line || []).length - 1);
}

/**
 * The step whose position is shown: the kernel's, until the one asked for arrives.
 * @param {{legal?: {step?: number}, step?: number}} st
 * @returns {number}
 */
export function shownStep(st) {
  return st.legal && Number.isInteger(st.legal.step) ? /** @type {number} */ (st.legal.step) : st.step || 0;
}

/**
 * Whether the board takes moves now (exploring or guessing, at the position the kernel sent
 * its summary for): then clicks on cards, powers and sources play as in the play widget.
 * @param {ReplayState} st
 * @returns {boolean}
 */
export function acting(st) {
  return (st.choices || []).length > 0 && !!st.legal && st.legal.step === shownStep(st);
}

/**
 * @param {Note} note
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {boolean}
 */
export function isHiddenNote(note, st, ui) {
  const hidden = st.hide_tags || [];
  return !ui.showHidden && (note.tags || []).some((t) => hidden.includes(t));
}

/**
 * @param {Info} info
 * @param {number | null} v
 * @returns {string}
 */
export function viewerName(info, v) {
  return v === null ? "All-seeing (teacher)" : playerName(info, v);
}

/**
 * The transport bar: first, back, play or pause, forward, last, the slider, the step, the speed.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {HTMLElement}
 */
export function transportBar(doc, st, ui) {
  const shown = shownStep(st);
  const last = lastStep(st);
  /**
   * @param {string} act
   * @param {string} label
   * @param {string} text
   * @param {boolean} disabled
   * @param {{primary?: boolean, attrs?: Record<string, string>}} [extra]
   */
  const btn = (act, label, text, disabled, extra = {}) => h(doc, "button", {
    type: "button", class: `ll-btn ll-tbtn${extra.primary ? " ll-primary" : ""}`, "data-act": act,
    "aria-label": label, title: label, "aria-disabled": disabled ? "true" : null, ...extra.attrs,
  }, text);
  return h(doc, "div", { class: "ll-transport", role: "group", "aria-label": "Replay controls" },
    btn("first", "First step (Home)", "|◀", shown <= 0),
    btn("back", "Back one step (←)", "◀", shown <= 0),
    btn("play", ui.playing ? "Pause" : "Play from here", ui.playing ? "❚❚ Pause" : "▶ Play", false,
      { primary: true, attrs: { "aria-pressed": ui.playing ? "true" : "false" } }),
    btn("forward", "Forward one step (→)", "▶", shown >= last),
    btn("last", "Last step (End)", "▶|", shown >= last),
    h(doc, "input", {
      type: "range", class: "ll-scrub", min: 0, max: last, step: 1, value: st.step, "data-act": "scrub",
      "aria-label": "Step", "aria-valuetext": `Step ${st.step} of ${last}`,
    }),
    h(doc, "span", { class: "ll-stepof" }, `Step ${shown} / ${last}`),
    h(doc, "label", { class: "ll-speed" }, "Speed ",
      h(doc, "select", { "data-act": "speed", "aria-label": "Autoplay speed" },
        REPLAY_SPEEDS.map(([v, t]) => h(doc, "option", { value: v, selected: String(ui.speed) === v }, t)))));
}

/**
 * The line (main line or a variation, indented by depth), the viewer, and the teacher's memory menu.
 * @param {Document} doc
 * @param {ReplayState} st
 * @returns {HTMLElement}
 */
export function pickers(doc, st) {
  const { info } = st;
  const lines = st.lines || [];
  /**
   * @param {import("./types").Line | undefined} line
   */
  const depth = (line) => {
    let d = 0;
    for (let l = line; l && l.parent !== null; l = lines.find((x) => x.id === l.parent)) d += 1;
    return d;
  };
  const viewers = st.viewers || [];
  const choices = st.memory_choices || [];
  return h(doc, "div", { class: "ll-pickers" },
    h(doc, "label", {}, "Line ",
      h(doc, "select", { "data-act": "line", "aria-label": "Line: the main line or a variation" },
        lines.map((l) => h(doc, "option", { value: l.id, selected: l.id === st.variation },
          `${"↳ ".repeat(depth(l))}${l.parent === null ? "Main line" : l.name}` +
          (l.parent === null ? ` (${plural(l.end, "move")})` : ` (from step ${l.start}, ${plural(l.end - l.start, "move")})`))))),
    h(doc, "label", {}, "Viewer ",
      h(doc, "select", { "data-act": "viewer", "aria-label": "Whose eyes: a player, or all-seeing" },
        viewers.map((v) => h(doc, "option", { value: v === null ? "all" : v, selected: v === st.viewer }, viewerName(info, v))))),
    st.viewer === null && choices.length ? h(doc, "label", {}, "Memory of ",
      h(doc, "select", { "data-act": "memory-of", "aria-label": "Show the memory of a player (teacher view)" },
        h(doc, "option", { value: "", selected: st.show_memory_of === null }, "nobody"),
        choices.map((p) => h(doc, "option", { value: p, selected: p === st.show_memory_of }, playerName(info, p))))) : null);
}

/**
 * What happened at the shown step in the viewer's words; at the set-up, a player's deal and Ready.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {LineEntry | null} entry
 * @returns {HTMLElement}
 */
export function happenedPanel(doc, st, entry, ui = newReplayUi()) {
  const shown = shownStep(st);
  const lines = [];
  const dealing = dealShown(st, ui);
  if (entry && !entry.action) {
    const dealt = (entry.events || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup").length;
    if (dealt) lines.push(`${plural(dealt, "card")} dealt onto the grid, each shown face-up, then turned inert`);
  }
  for (const ev of (entry && entry.events) || []) {
    // A seat's reveals are glimpsed (then the cards lie inert): the panel, which stays, does
    // not name them, as the play page's log does not.
    const line = pageLine(ev, st.info, st.viewer);
    if (line) lines.push(line);
  }
  const deal = shown === 0 && st.viewer !== null && setupReveals(entry).length;
  return h(doc, "section", { class: "ll-happened", "aria-label": "What happened at this step" },
    h(doc, "div", { class: "ll-h" }, shown ? `What happened at step ${shown}` : "Set-up"),
    lines.length ? h(doc, "ul", {}, lines.map((t) => h(doc, "li", {}, t)))
      : h(doc, "p", { class: "ll-note" }, "Nothing this viewer could see."),
    deal && dealing ? h(doc, "p", { class: "ll-deal" }, "The deal, as every player saw it. Remember what you can, then: ",
      h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "ready" }, "Ready")) : null,
    deal && !dealing ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "deal-again" }, "Show the deal again") : null);
}

/**
 * The set-up reveals of step 0 (every card dealt, shown to everyone).
 * @param {LineEntry | null} entry
 * @returns {import("./types").GameEvent[]}
 */
export function setupReveals(entry) {
  return ((entry && !entry.action && entry.events) || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup" && ev.element);
}

/**
 * Whether the deal is on show: a player's page at step 0 until "Ready" (the teacher sees every
 * card anyway).
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {boolean}
 */
export function dealShown(st, ui) {
  return shownStep(st) === 0 && st.viewer !== null && !ui.dealt;
}

/**
 * One note: its text, tags and the slots it points at, with Edit and Delete where notes are editable.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @param {Note} note
 * @returns {HTMLElement}
 */
export function noteItem(doc, st, ui, note) {
  const id = `${note.variation}:${note.step}:${note.index}`;
  const where = { "data-variation": note.variation, "data-step": note.step, "data-index": note.index };
  return h(doc, "li", { class: "ll-noteitem", "data-note": id },
    h(doc, "p", { class: "ll-notetext" }, note.text),
    h(doc, "div", { class: "ll-notemeta" },
      (note.tags || []).map((t) => h(doc, "span", { class: "ll-tag" }, t)),
      (note.highlights || []).length ? h(doc, "span", { class: "ll-note" }, ` points at ${listSlots(note.highlights || [])}`) : null,
      st.editable ? [
        h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "note-edit", ...where }, "Edit"),
        h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "note-remove", ...where },
          ui.confirm === id ? "Really delete?" : "Delete"),
      ] : null));
}

/**
 * The shown step's notes (those with a hidden tag behind a button) and, where editable, the note form.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {HTMLElement}
 */
export function notesPanel(doc, st, ui) {
  const shown = shownStep(st);
  const notes = (st.annotations || []).filter((n) => n.step === shown);
  const visible = notes.filter((n) => !isHiddenNote(n, st, ui));
  const hiddenCount = notes.length - visible.length;
  const tagged = notes.some((n) => (n.tags || []).some((t) => (st.hide_tags || []).includes(t)));
  const f = ui.form;
  const form = st.editable ? h(doc, "div", {
    class: `ll-noteform${f.open ? "" : " ll-hidden"}`, role: "group",
    "aria-label": f.editing ? `Edit note on step ${f.editing.step}` : `New note on step ${shown}`,
  },
  h(doc, "div", { class: "ll-h" }, f.editing ? `Edit the note on step ${f.editing.step}` : `New note on step ${shown}`),
  h(doc, "textarea", { "data-act": "note-text", rows: 3, maxlength: 10000, "aria-label": "Note text", placeholder: "What should a reader notice here?" }),
  h(doc, "label", { class: "ll-tagsfield" }, "Tags ",
    h(doc, "input", { type: "text", "data-act": "note-tags", "aria-label": "Tags, separated by commas", placeholder: "e.g. hint, spoiler" })),
  h(doc, "p", { class: "ll-note" }, f.highlights.length ? `Points at ${listSlots(f.highlights)}: click cards to change.`
    : "Click cards on the grid to point at them."),
  h(doc, "div", { class: "ll-controls" },
    h(doc, "button", { type: "button", class: `ll-btn ll-primary${f.pending ? " ll-pending" : ""}`, "data-act": "note-save" }, "Save note"),
    h(doc, "button", { type: "button", class: "ll-btn", "data-act": "note-cancel" }, "Cancel"))) : null;
  return h(doc, "section", { class: "ll-notes", "aria-label": `Notes on step ${shown}` },
    h(doc, "div", { class: "ll-h" }, `Notes on step ${shown}`),
    visible.length ? h(doc, "ul", { class: "ll-notelist" }, visible.map((n) => noteItem(doc, st, ui, n)))
      : h(doc, "p", { class: "ll-note" }, notes.length ? "Every note here is hidden." : "No notes on this step."),
    tagged ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "toggle-hidden", "aria-pressed": ui.showHidden ? "true" : "false" },
      ui.showHidden ? `Hide notes tagged ${(st.hide_tags || []).join(", ")}` : `Show ${plural(hiddenCount, "hidden note")} (${(st.hide_tags || []).join(", ")})`) : null,
    st.editable ? h(doc, "button", { type: "button", class: `ll-btn ll-small${f.open ? " ll-hidden" : ""}`, "data-act": "note-new" }, `Add a note on step ${shown}`)
      : h(doc, "p", { class: "ll-note" }, "Notes are read-only in this page."),
    form);
}

