// Replays (ReplayWidget, mode "replay"): the play board at one step of a recorded line, under a
// transport bar (first, back, play, forward, last, a slider, arrow keys), with the step's events,
// its notes (added and edited through the kernel) and the line's moves in words. The kernel
// computes every position; in a standalone page (Replay.to_html) `bookModel` stands in for it,
// looking positions up in data the kernel precomputed. Note text and every name are untrusted:
// they only ever become text nodes.
import { renderBoard } from "./board.js";
import { h } from "./dom.js";
import { mount } from "./mount.js";
import { newUi, pageLine } from "./play.js";
import { cardClick, clearPicks, closePower, dropStalePicks, pickPower, pickSource, takePower } from "./picks.js";
import {
  download, explorePanel, exportBar, glyphBar, markCurrent, moveButton, movesByTurn, scoreGraph, shortStep, trainPanel,
} from "./studio.js";
import { analyseStep, coachPanel, evalGraph } from "./coach.js";
import { describeStep, listSlots, playerName, plural } from "./words.js";

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
    renaming: null, dealt: false, exported: 0, power: null, targets: [], infoPower: null, source: null,
  };
}

/**
 * @param {{line?: LineEntry[]}} st
 * @returns {number}
 */
function lastStep(st) {
  return Math.max(0, (st.line || []).length - 1);
}

/**
 * The step whose position is shown: the kernel's, until the one asked for arrives.
 * @param {{legal?: {step?: number}, step?: number}} st
 * @returns {number}
 */
function shownStep(st) {
  return st.legal && Number.isInteger(st.legal.step) ? /** @type {number} */ (st.legal.step) : st.step || 0;
}

/**
 * Whether the board takes moves now (exploring or guessing, at the position the kernel sent
 * its summary for): then clicks on cards, powers and sources play as in the play widget.
 * @param {ReplayState} st
 * @returns {boolean}
 */
function acting(st) {
  return (st.choices || []).length > 0 && !!st.legal && st.legal.step === shownStep(st);
}

/**
 * @param {Note} note
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {boolean}
 */
function isHiddenNote(note, st, ui) {
  const hidden = st.hide_tags || [];
  return !ui.showHidden && (note.tags || []).some((t) => hidden.includes(t));
}

/**
 * @param {Info} info
 * @param {number | null} v
 * @returns {string}
 */
function viewerName(info, v) {
  return v === null ? "All-seeing (teacher)" : playerName(info, v);
}

/**
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {HTMLElement}
 */
function transportBar(doc, st, ui) {
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
 * @param {Document} doc
 * @param {ReplayState} st
 * @returns {HTMLElement}
 */
function pickers(doc, st) {
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
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {LineEntry | null} entry
 * @returns {HTMLElement}
 */
function happenedPanel(doc, st, entry, ui = newReplayUi()) {
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
function setupReveals(entry) {
  return ((entry && !entry.action && entry.events) || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup" && ev.element);
}

/**
 * Whether the deal is on show: a player's page at step 0 until "Ready" (the teacher sees every
 * card anyway).
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {boolean}
 */
function dealShown(st, ui) {
  return shownStep(st) === 0 && st.viewer !== null && !ui.dealt;
}

/**
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @param {Note} note
 * @returns {HTMLElement}
 */
function noteItem(doc, st, ui, note) {
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
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @returns {HTMLElement}
 */
function notesPanel(doc, st, ui) {
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

/**
 * The replay page as a fresh DOM tree: the play board at the shown step (renderBoard), with the
 * replay's controls and panels around it. `words` are the line's steps in words (describeStep).
 * Pure: no side effects, no model access.
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @param {Document} doc
 * @param {number} [now]
 * @param {string[] | null} [shorts] the line's steps in short words, when the caller keeps them
 * @returns {HTMLElement} the move list and graphs in it are `lazy` stand-ins, built only where
 *   the page does not show them (a seek then costs the same at any length): morph it into the
 *   page, or read it after dom.js `whole`
 */
export function renderReplay(st, ui, doc, now = 0, shorts = null) {
  const { view } = st;
  if (!view || !view.grid) return h(doc, "div", { class: "leyline ll-replay", "data-mode": "replay" }, "Loading the replay…");
  const shown = shownStep(st);
  const entry = (st.line || [])[shown] || null;
  // Exploring or guessing: the board shows what the side to move may do (the kernel's summary).
  const moving = acting(st);
  /** @type {Record<string, import("./types").Reveal>} */
  const reveals = { ...ui.reveals };
  if (dealShown(st, ui)) {
    for (const ev of setupReveals(entry)) reveals[ev.slot] = { element: /** @type {string} */ (ev.element), cause: "setup", until: now + 86_400_000 };
  }
  const picks = { power: ui.power, targets: ui.targets, infoPower: ui.infoPower, source: ui.source };
  // The replay's marks go into the cards' keys: the cards, Study and side panels are `lazy`
  // stand-ins, so a seek builds and walks only the parts whose looks changed.
  /** @type {Record<number, string[]>} */
  const cardClasses = {};
  /** @param {number} s @param {string} c */
  const mark = (s, c) => { (cardClasses[s] ||= []).includes(c) || cardClasses[s].push(c); };
  const a = entry && entry.action;
  for (const s of a ? [a.slot, ...(a.targets || [])].filter((x) => Number.isInteger(x)) : []) mark(/** @type {number} */ (s), "ll-last");
  const notes = (st.annotations || []).filter((n) => n.step === shown && !isHiddenNote(n, st, ui));
  for (const s of new Set(notes.flatMap((n) => n.highlights || []))) mark(s, "ll-hl");
  if (ui.form.open) for (const s of ui.form.highlights) mark(s, "ll-pick");
  const board = renderBoard({ ...st, mode: "replay", legal: moving ? st.legal : { step: shown, actor: null } },
    {
      ...newUi(), ...picks, reveals, dismissed: ui.dismissed, hint: ui.hint, cardClasses,
      cardTitle: ui.form.open ? "Click to point at this card in your note" : "",
    }, doc, now, true);
  board.classList.add("ll-replay");
  if (shown !== st.step) board.classList.add("ll-waiting");
  board.setAttribute("data-variation", String(st.variation));
  board.setAttribute("data-viewer", st.viewer === null ? "all" : String(st.viewer));
  board.setAttribute("data-last", String(lastStep(st)));
  board.setAttribute("tabindex", "-1"); // keeps the keys when a focused control goes away
  const log = board.querySelector(".ll-log");
  if (log) log.remove();
  /** A part every board has. @param {string} selector */
  const part = (selector) => /** @type {HTMLElement} */ (board.querySelector(selector));
  part(".ll-prompt").textContent = `Step ${shown} of ${lastStep(st)}: ${describeStep(entry, st.info, st.viewer)}`;
  // The memory panel's own player menu would duplicate the one above the board.
  const memoryMenu = board.querySelector(".ll-memory [data-act=memory-of]");
  if (memoryMenu) /** @type {Element} */ (memoryMenu.closest("label")).remove();
  part(".ll-status").after(transportBar(doc, st, ui), pickers(doc, st), glyphBar(doc, st, shown) || "",
    scoreGraph(doc, st, shown) || "", evalGraph(doc, st, shown) || "");
  const all = shorts || (st.line || []).map((e) => shortStep(e, st.info, st.viewer));
  part(".ll-side").append(trainPanel(doc, st) || "", explorePanel(doc, st) || "", movesByTurn(doc, st, ui, shown, all));
  part(".ll-main").after(h(doc, "div", { class: "ll-panels" }, happenedPanel(doc, st, entry, ui),
    coachPanel(doc, st, shown) || "", notesPanel(doc, st, ui)),
    exportBar(doc, st));
  return board;
}

/** @type {import("./types").Mode} */
export function replayMode({ model, el }) {
  return mount(model, el, "leyline ll-replay", (m) => {
    const { doc, schedule } = m;
    const ui = newReplayUi();
    // A payload made before this view existed (a re-display) is not downloaded again.
    ui.exported = Number((model.get("export") || {}).seq) || 0;
    /** @type {number | undefined} */
    let lastAck = model.get("ack");
    let askedStep = ""; // the stepped analysis's last request (run/done), sent once
    /** @type {{step: number, line: LineEntry[]} | null} */
    let painted = null; // {step, line} last painted, to glimpse reveals and scroll the list
    let appliedForm = -1;
    let pickedAt = ""; // the position the board's picks (power, targets, source) were made at
    /** @type {LineEntry[] | null} */
    let wordsFor = null;
    /** @type {number | null | undefined} */
    let wordsOf = null;
    /** @type {string[]} */
    let words = [];

    /** @returns {ReplayState} */
    const state = () => ({
      mode: "replay", view: model.get("view") || {}, legal: model.get("legal") || {}, info: model.get("info") || {},
      error: model.get("error") || "", ack: model.get("ack"), step: model.get("step") || 0,
      variation: model.get("variation") || 0, viewer: model.get("viewer") === undefined ? null : model.get("viewer"),
      viewers: model.get("viewers") || [], lines: model.get("lines") || [], line: model.get("line") || [],
      annotations: model.get("annotations") || [], memory: model.get("memory") || {},
      show_memory_of: model.get("show_memory_of") === undefined ? null : model.get("show_memory_of"),
      memory_choices: model.get("memory_choices") || [], hide_tags: model.get("hide_tags") || [],
      editable: !!model.get("editable"), reveal_ms: model.get("reveal_ms") || 0,
      glyphs: model.get("glyphs") || {}, scores: model.get("scores") || [], explore: !!model.get("explore"),
      allow_explore: !!model.get("allow_explore"), choices: model.get("choices") || [],
      train: model.get("train") === undefined ? null : model.get("train"), training: model.get("training") || undefined,
      downloads: model.get("downloads") || null, analyses: model.get("analyses") || [],
      analysis_progress: model.get("analysis_progress") || null,
    });

    /**
     * @param {Record<string, unknown>} patch
     */
    function request(patch) {
      for (const [k, v] of Object.entries(patch)) model.set(k, v);
      model.save_changes();
      schedule();
    }

    /**
     * @param {number} step
     */
    function goto(step) {
      const st = state();
      const target = Math.max(0, Math.min(lastStep(st), step));
      if (target !== st.step) request({ step: target });
    }

    /** @param {number} now */
    function draw(now) {
      const st = state();
      if (st.line !== wordsFor || st.viewer !== wordsOf) {
        wordsFor = st.line;
        wordsOf = st.viewer;
        words = st.line.map((e) => shortStep(e, st.info, st.viewer));
      }
      const focused = m.root().contains(doc.activeElement) && doc.activeElement !== m.root();
      m.show(renderReplay(st, ui, doc, now, words));
      const root = m.root();
      const shown = shownStep(st);
      markCurrent(root, shown);
      if (focused && !root.contains(doc.activeElement)) root.focus({ preventScroll: true });
      const slider = /** @type {HTMLInputElement | null} */ (root.querySelector("[data-act=scrub]"));
      if (slider && Number(slider.value) !== st.step) slider.value = String(st.step);
      if (ui.form.seq !== appliedForm) {
        appliedForm = ui.form.seq;
        const text = /** @type {HTMLTextAreaElement | null} */ (root.querySelector("[data-act=note-text]"));
        const tags = /** @type {HTMLInputElement | null} */ (root.querySelector("[data-act=note-tags]"));
        if (text) text.value = ui.form.text;
        if (tags) tags.value = ui.form.tags;
        if (text && ui.form.open) text.focus();
      }
      if (!painted || painted.step !== shown || painted.line !== st.line) scrollList(shown);
      painted = { step: shown, line: st.line };
    }

    /**
     * @param {number} shown
     */
    function scrollList(shown) {
      // Scroll the list itself, never the page (scrollIntoView would move the notebook).
      const box = /** @type {HTMLElement | null} */ (m.root().querySelector(".ll-movelist"));
      const cur = box && moveButton(m.root(), shown);
      if (!box || !cur) return;
      // From the boxes, not offsetTop: that is relative to the nearest positioned box, which
      // is not always the list.
      const top = cur.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
      if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    }

    /**
     * @param {ReplayState} st
     */
    function glimpse(st) {
      // One step forward shows what that step brought onto the grid, as a live game does.
      const shown = shownStep(st);
      if (painted && painted.line === st.line && shown === painted.step + 1) {
        const now = Date.now();
        for (const ev of (st.line[shown] || {}).events || []) {
          if (ev.type === "reveal" && ev.element) ui.reveals[ev.slot] = { element: ev.element, cause: ev.cause, until: now + st.reveal_ms };
          else if (ev.type === "collect" || ev.type === "tide") for (const s of ev.slots || [ev.slot]) delete ui.reveals[s];
        }
      } else if (!painted || shown !== painted.step || painted.line !== st.line) {
        ui.reveals = {};
      }
    }

    function pace() {
      if (!ui.playing || !m.alive()) {
        m.cancel("play");
        return;
      }
      const st = state();
      const shown = shownStep(st);
      if (m.pending("play") || st.step !== shown) return; // a move is due, or its position is on its way
      if (shown >= lastStep(st)) {
        ui.playing = false;
        schedule();
        return;
      }
      m.later("play", ui.speed, () => {
        if (m.alive() && ui.playing) goto(shownStep(state()) + 1);
      });
    }

    function onChange() {
      const st = state();
      const ex = model.get("export");
      if (ex && Number.isInteger(ex.seq) && ex.seq > ui.exported && typeof ex.text === "string") {
        download(doc, String(ex.name), String(ex.mime), ex.text);
        ui.exported = ex.seq;
      }
      if (st.ack !== lastAck) {
        lastAck = st.ack;
        ui.dismissed = null;
        if (ui.form.pending) {
          ui.form.pending = false;
          if (!st.error) closeForm();
        }
      }
      // A new position starts with nothing picked; the same one keeps what it still allows.
      const at = `${st.variation}/${shownStep(st)}/${acting(st)}`;
      if (at !== pickedAt) clearPicks(ui);
      else dropStalePicks(ui, st.legal);
      pickedAt = at;
      glimpse(st);
      schedule();
      pace();
      const ask = analyseStep(st);
      if (ask && `${ask.run}/${ask.done}` !== askedStep) model.send(ask);
      askedStep = ask ? `${ask.run}/${ask.done}` : "";
    }

    /**
     * @param {NoteWhere | null} editing
     */
    function openForm(editing) {
      const note = editing && (model.get("annotations") || []).find((/** @type {Note} */ n) =>
        n.variation === editing.variation && n.step === editing.step && n.index === editing.index);
      ui.form = {
        open: true, editing: note ? editing : null, text: note ? note.text : "", tags: note ? (note.tags || []).join(", ") : "",
        highlights: note ? (note.highlights || []).slice() : [], seq: ui.form.seq + 1, pending: false,
      };
      ui.hint = "";
      schedule();
    }

    function closeForm() {
      ui.form = { open: false, editing: null, text: "", tags: "", highlights: [], seq: ui.form.seq + 1, pending: false };
      schedule();
    }

    function saveNote() {
      const f = ui.form;
      const tags = f.tags.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter(Boolean);
      const body = { text: f.text, tags, highlights: f.highlights.slice().sort((x, y) => x - y) };
      const message = f.editing ? { type: "edit_note", ...f.editing, ...body }
        : { type: "annotate", step: shownStep(state()), ...body };
      f.pending = true;
      ui.hint = "";
      model.send(message);
      schedule();
    }

    /**
     * A move on the board or from the list: into a variation (explore) or a guess (training).
     * @param {Partial<import("./types").Action>} action
     */
    function move(action) {
      const st = state();
      ui.hint = "";
      clearPicks(ui);
      const training = st.train !== null && st.train !== undefined;
      model.send({ type: training ? "guess" : "action", action, step: shownStep(st) });
    }

    /**
     * @param {Element} button
     * @returns {NoteWhere}
     */
    function where(button) {
      return {
        variation: Number(button.getAttribute("data-variation")), step: Number(button.getAttribute("data-step")),
        index: Number(button.getAttribute("data-index")),
      };
    }

    /**
     * @param {MouseEvent} event
     */
    function onClick(event) {
      const button = /** @type {Element} */ (event.target).closest("[data-act]");
      if (!button || !m.root().contains(button)) return;
      const act = button.getAttribute("data-act");
      const st = state();
      // A source that cannot pay still answers why (as in the play widget).
      if (button.getAttribute("aria-disabled") === "true" && act !== "source") return;
      if (act !== "note-remove" && act !== "var-delete") ui.confirm = null;
      const stop = () => { ui.playing = false; };
      switch (act) {
        case "first": stop(); goto(0); break;
        case "back": stop(); goto(st.step - 1); break;
        case "forward": stop(); goto(st.step + 1); break;
        case "last": stop(); goto(lastStep(st)); break;
        case "goto": stop(); goto(Number(button.getAttribute("data-step"))); break;
        case "play":
          ui.playing = !ui.playing;
          if (ui.playing && shownStep(st) >= lastStep(st)) goto(0); // play again from the start
          break;
        case "card": {
          if (!ui.form.open && acting(st)) {
            const out = cardClick(ui, st.view, st.legal, st.info, Number(button.getAttribute("data-slot")));
            if (out.action) move(out.action);
            else ui.hint = out.hint || "";
            break;
          }
          if (!ui.form.open) break;
          const slot = Number(button.getAttribute("data-slot"));
          const hl = ui.form.highlights;
          ui.form.highlights = hl.includes(slot) ? hl.filter((s) => s !== slot) : hl.concat([slot]);
          break;
        }
        case "end": {
          const found = (st.choices || []).find((c) => c.action.type === "end_phase");
          if (found) move(found.action);
          break;
        }
        case "power":
          // Off the seat's move the panel still opens (the power's text); targets only when usable.
          pickPower(ui, acting(st) ? st.legal : { step: shownStep(st), actor: null }, String(button.getAttribute("data-key")));
          ui.hint = "";
          break;
        case "use-power": {
          const action = acting(st) ? takePower(ui, st.info) : null;
          if (action) move(action);
          break;
        }
        case "close-power": case "cancel": closePower(ui); break;
        case "source":
          ui.hint = acting(st) ? pickSource(ui, st.legal, String(button.getAttribute("data-element")),
            String(button.getAttribute("data-source"))) : "";
          break;
        case "play-choice": {
          const menu = /** @type {HTMLSelectElement | null} */ (m.root().querySelector("[data-act=choice]"));
          const found = menu && (st.choices || [])[Number(menu.value)];
          if (found) move(found.action);
          break;
        }
        case "glyph": {
          const g = button.getAttribute("data-glyph") || null;
          model.send({ type: "glyph", step: shownStep(st), glyph: g === (st.glyphs || {})[String(shownStep(st))] ? null : g });
          break;
        }
        case "line-go": stop(); request({ variation: Number(button.getAttribute("data-variation")) }); break;
        case "var-promote": model.send({ type: "promote", variation: Number(button.getAttribute("data-variation")) }); break;
        case "var-rename": ui.renaming = Number(button.getAttribute("data-variation")); break;
        case "var-name-cancel": ui.renaming = null; break;
        case "var-name-save": {
          const input = /** @type {HTMLInputElement | null} */ (m.root().querySelector("[data-act=var-name]"));
          if (input) model.send({ type: "rename", variation: Number(button.getAttribute("data-variation")), name: input.value });
          ui.renaming = null;
          break;
        }
        case "var-delete": {
          const id = `var:${button.getAttribute("data-variation")}`;
          if (ui.confirm !== id) {
            ui.confirm = id; // a second click deletes
          } else {
            ui.confirm = null;
            model.send({ type: "delete_variation", variation: Number(button.getAttribute("data-variation")) });
          }
          break;
        }
        case "download": {
          const kind = /** @type {string} */ (button.getAttribute("data-kind"));
          const files = st.downloads;
          if (files) {
            const text = /** @type {Record<string, string | undefined>} */ (files)[kind];
            const json = kind === "json";
            if (text) download(doc, json ? "leyline-replay.leyline.json" : "leyline-replay.md", json ? "application/json" : "text/markdown", text);
          } else {
            const v = button.getAttribute("data-viewer");
            model.send({ type: "export", kind, ...(v === null ? {} : { viewer: v === "all" ? null : Number(v) }) });
          }
          break;
        }
        case "analyse": {
          const menu = /** @type {HTMLSelectElement | null} */ (m.root().querySelector("[data-act=analyse-seat]"));
          const seat = Number(button.getAttribute("data-seat") ?? (menu ? menu.value : NaN));
          if (Number.isInteger(seat)) model.send({ type: "analyse", seat });
          break;
        }
        case "analyse-cancel": model.send({ type: "analyse_cancel" }); break;
        case "ready": ui.dealt = true; break;
        case "deal-again": ui.dealt = false; break;
        case "graph": {
          const box = /** @type {HTMLElement} */ (button);
          const rect = box.getBoundingClientRect();
          const last = Number(box.getAttribute("data-last"));
          if (rect.width > 0) { stop(); goto(Math.round(((event.clientX - rect.left) / rect.width) * last)); }
          break;
        }
        case "dismiss": ui.dismissed = st.error || null; ui.hint = ""; break;
        case "toggle-hidden": ui.showHidden = !ui.showHidden; break;
        case "note-new": openForm(null); break;
        case "note-edit": openForm(where(button)); break;
        case "note-cancel": closeForm(); break;
        case "note-save": saveNote(); break;
        case "note-remove": {
          const w = where(button);
          const id = `${w.variation}:${w.step}:${w.index}`;
          if (ui.confirm !== id) {
            ui.confirm = id; // a second click deletes: one slip should not lose a note
          } else {
            ui.confirm = null;
            model.send({ type: "remove_note", ...w });
          }
          break;
        }
        default:
          return;
      }
      pace();
      schedule();
    }

    /**
     * @param {Event} event
     */
    function onInput(event) {
      const target = /** @type {HTMLInputElement} */ (event.target);
      const act = target && target.getAttribute && target.getAttribute("data-act");
      if (act === "scrub") {
        ui.playing = false;
        goto(Number(target.value));
      } else if (act === "note-text") {
        ui.form.text = target.value;
      } else if (act === "note-tags") {
        ui.form.tags = target.value;
      }
    }

    /**
     * @param {Event} event
     */
    function onSelect(event) {
      const target = /** @type {HTMLInputElement} */ (event.target);
      const act = target && target.getAttribute && target.getAttribute("data-act");
      if (act === "speed") {
        ui.speed = Number(target.value);
        m.cancel("play");
        pace();
        schedule();
      } else if (act === "line") {
        request({ variation: Number(target.value) });
      } else if (act === "viewer") {
        request({ viewer: target.value === "all" ? null : Number(target.value) });
      } else if (act === "memory-of") {
        request({ show_memory_of: target.value === "" ? null : Number(target.value) });
      } else if (act === "explore") {
        request({ explore: !!target.checked });
      }
    }

    /**
     * @param {KeyboardEvent} event
     */
    function onKey(event) {
      if (event.key === "Escape" && ui.form.open) {
        closeForm();
        event.preventDefault();
        return;
      }
      if (event.key === "Escape" && (ui.power || ui.infoPower || ui.source)) {
        clearPicks(ui);
        schedule();
        event.preventDefault();
        event.stopPropagation(); // handled here: JupyterLab does not also leave edit mode
        return;
      }
      const t = /** @type {Element | null} */ (event.target);
      const tag = t && t.tagName;
      // Text fields and menus keep their keys; the slider moves itself (its input event steps).
      if (tag === "TEXTAREA" || tag === "SELECT" || tag === "INPUT") return;
      const st = state();
      /** @type {Record<string, number>} */
      const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
      /** @type {number | null} */
      let next = null;
      if (event.key in moves) next = st.step + moves[event.key];
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = lastStep(st);
      if (next === null || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      event.stopPropagation();
      ui.playing = false;
      goto(next);
    }

    return {
      draw, onChange, reveals: () => ui.reveals, start: true,
      listeners: { click: onClick, input: onInput, change: onSelect, keydown: onKey },
    };
  });
}
