// Replays (ReplayWidget, mode "replay"): the play board at one step of a recorded line, under a
// transport bar (first, back, play, forward, last, a slider, arrow keys), with the step's events,
// its notes (added and edited through the kernel) and the line's moves in words. The kernel
// computes every position; in a standalone page (Replay.to_html) `bookModel` stands in for it,
// looking positions up in data the kernel precomputed. Note text and every name are untrusted:
// they only ever become text nodes.
//
// The mode is a small controller, as the play mode is: `replayMode` wires a context (`Replayer`:
// the model, the lifecycle, the page's state) to plain functions over it: the drawing and its
// follow-up (`draw`), what a change of the model means (`onChange`, `glimpse`, `pace`), the
// clicks (`REPLAY_CLICKS`, one function per button kind), the menus and the keys. The page is
// drawn by `renderReplay` from pure panel functions (replay_panels.js, studio.js, coach.js,
// board.js), each rendered and tested on its own.
import { renderBoard } from "./board.js";
import { h } from "./dom.js";
import { mount } from "./mount.js";
import { newUi } from "./play.js";
import { cardClick, clearPicks, closePower, dropStalePicks, pickPower, pickSource, takePower } from "./picks.js";
import {
  acting, dealShown, happenedPanel, isHiddenNote, lastStep, newReplayUi, notesPanel, pickers, setupReveals, shownStep,
  transportBar,
} from "./replay_panels.js";
import {
  download, explorePanel, exportBar, glyphBar, markCurrent, moveButton, movesByTurn, scoreGraph, shortStep, trainPanel,
} from "./studio.js";
import { analyseStep, bestSlots, coachPanel, evalGraph } from "./coach.js";
import { read } from "./traits.js";
import { describeStep } from "./words.js";

export { newReplayUi } from "./replay_panels.js";

/** @typedef {import("./types").LineEntry} LineEntry */
/** @typedef {import("./types").Model} Model */
/** @typedef {import("./types").NoteWhere} NoteWhere */
/** @typedef {import("./types").ReplayState} ReplayState */
/** @typedef {import("./types").ReplayUi} ReplayUi */

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
  for (const s of bestSlots(st, shown)) mark(s, "ll-best");
  const board = renderBoard({ ...st, mode: "replay", legal: moving ? st.legal : { step: shown, actor: null } },
    {
      ...newUi(), ...picks, reveals, dismissed: ui.dismissed, hint: ui.hint, cardClasses, rules: ui.rules,
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

/**
 * The replay page's controller context: the model, the lifecycle, the page's own state, and
 * what it last took in.
 * @typedef {object} Replayer
 * @property {Model} model
 * @property {import("./mount.js").Mounted} m
 * @property {ReplayUi} ui
 * @property {object} seen
 * @property {unknown} seen.ack the last acknowledgement (a new one clears a refusal, closes a saved form)
 * @property {string} seen.asked the stepped analysis's last request (run/done), sent once
 * @property {{step: number, line: LineEntry[]} | null} seen.painted last painted, to glimpse reveals and scroll the list
 * @property {number} seen.form the note form's `seq` last put into its fields
 * @property {string} seen.pickedAt the position the board's picks (power, targets, source) were made at
 * @property {{line: LineEntry[] | null, viewer: number | null | undefined, list: string[]}} seen.words
 *   the line's steps in short words, for that line and viewer
 */

/**
 * The replay's state from the model's traits.
 * @param {Model} model
 * @returns {ReplayState}
 */
export function replayState(model) {
  const get = (/** @type {string} */ name) => read(model, name);
  const orNull = (/** @type {string} */ name) => (get(name) === undefined ? null : get(name));
  return {
    mode: "replay", view: get("view") || {}, legal: get("legal") || {}, info: get("info") || {},
    error: get("error") || "", ack: get("ack"), step: get("step") || 0,
    variation: get("variation") || 0, viewer: orNull("viewer"),
    viewers: get("viewers") || [], lines: get("lines") || [], line: get("line") || [],
    annotations: get("annotations") || [], memory: get("memory") || {},
    show_memory_of: orNull("show_memory_of"),
    memory_choices: get("memory_choices") || [], hide_tags: get("hide_tags") || [],
    editable: !!get("editable"), reveal_ms: get("reveal_ms") || 0,
    glyphs: get("glyphs") || {}, scores: get("scores") || [], explore: !!get("explore"),
    allow_explore: !!get("allow_explore"), choices: get("choices") || [],
    train: orNull("train"), training: get("training") || undefined,
    downloads: get("downloads") || null, analyses: get("analyses") || [],
    analysis_progress: get("analysis_progress") || null,
    puzzle: get("puzzle") && Object.keys(get("puzzle")).length ? get("puzzle") : null,
  };
}

/**
 * Ask the kernel (or the book) for another step, line or viewer.
 * @param {Replayer} r
 * @param {Record<string, unknown>} patch
 */
function request(r, patch) {
  for (const [k, v] of Object.entries(patch)) r.model.set(k, v);
  r.model.save_changes();
  r.m.schedule();
}

/**
 * @param {Replayer} r
 * @param {number} step
 */
function goto(r, step) {
  const st = replayState(r.model);
  const target = Math.max(0, Math.min(lastStep(st), step));
  if (target !== st.step) request(r, { step: target });
}

/**
 * Paint the page, then what the morph cannot carry: the current move, the focus, the slider,
 * the note form's fields (once per opening), and the move list's scroll.
 * @param {Replayer} r
 * @param {number} now
 */
function draw(r, now) {
  const { m, ui, seen } = r;
  const { doc } = m;
  const st = replayState(r.model);
  if (st.line !== seen.words.line || st.viewer !== seen.words.viewer) {
    seen.words = { line: st.line, viewer: st.viewer, list: st.line.map((e) => shortStep(e, st.info, st.viewer)) };
  }
  const focused = m.root().contains(doc.activeElement) && doc.activeElement !== m.root();
  m.show(renderReplay(st, ui, doc, now, seen.words.list));
  const root = m.root();
  const shown = shownStep(st);
  markCurrent(root, shown);
  if (focused && !root.contains(doc.activeElement)) root.focus({ preventScroll: true });
  const slider = /** @type {HTMLInputElement | null} */ (root.querySelector("[data-act=scrub]"));
  if (slider && Number(slider.value) !== st.step) slider.value = String(st.step);
  if (ui.form.seq !== seen.form) {
    seen.form = ui.form.seq;
    const text = /** @type {HTMLTextAreaElement | null} */ (root.querySelector("[data-act=note-text]"));
    const tags = /** @type {HTMLInputElement | null} */ (root.querySelector("[data-act=note-tags]"));
    if (text) text.value = ui.form.text;
    if (tags) tags.value = ui.form.tags;
    if (text && ui.form.open) text.focus();
  }
  if (!seen.painted || seen.painted.step !== shown || seen.painted.line !== st.line) scrollList(root, shown);
  seen.painted = { step: shown, line: st.line };
}

/**
 * Keep the shown step's move in view in the move list.
 * @param {HTMLElement} root
 * @param {number} shown
 */
function scrollList(root, shown) {
  // Scroll the list itself, never the page (scrollIntoView would move the notebook).
  const box = /** @type {HTMLElement | null} */ (root.querySelector(".ll-movelist"));
  const cur = box && moveButton(root, shown);
  if (!box || !cur) return;
  // From the boxes, not offsetTop: that is relative to the nearest positioned box, which
  // is not always the list.
  const top = cur.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
  if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}

/**
 * One step forward shows what that step brought onto the grid, as a live game does; any other
 * move of the step forgets the brief reveals.
 * @param {Replayer} r
 * @param {ReplayState} st
 */
function glimpse(r, st) {
  const { ui, seen } = r;
  const shown = shownStep(st);
  const painted = seen.painted;
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

/**
 * Autoplay: the next step after the chosen pause, once the shown one has arrived.
 * @param {Replayer} r
 */
function pace(r) {
  const { m, ui } = r;
  if (!ui.playing || !m.alive()) {
    m.cancel("play");
    return;
  }
  const st = replayState(r.model);
  const shown = shownStep(st);
  if (m.pending("play") || st.step !== shown) return; // a move is due, or its position is on its way
  if (shown >= lastStep(st)) {
    ui.playing = false;
    m.schedule();
    return;
  }
  m.later("play", ui.speed, () => {
    if (m.alive() && ui.playing) goto(r, shownStep(replayState(r.model)) + 1);
  });
}

/**
 * The model changed: a download to save, an acknowledgement, a new position (picks and
 * reveals), autoplay, and the stepped analysis's next request.
 * @param {Replayer} r
 */
function onChange(r) {
  const { model, ui, seen } = r;
  const st = replayState(model);
  const ex = read(model, "export");
  if (ex && Number.isInteger(ex.seq) && ex.seq > ui.exported && typeof ex.text === "string") {
    download(r.m.doc, String(ex.name), String(ex.mime), ex.text);
    ui.exported = ex.seq;
  }
  if (st.ack !== seen.ack) {
    seen.ack = st.ack;
    ui.dismissed = null;
    if (ui.form.pending) {
      ui.form.pending = false;
      if (!st.error) closeForm(r);
    }
  }
  // A new position starts with nothing picked; the same one keeps what it still allows.
  const at = `${st.variation}/${shownStep(st)}/${acting(st)}`;
  if (at !== seen.pickedAt) clearPicks(ui);
  else dropStalePicks(ui, st.legal);
  seen.pickedAt = at;
  glimpse(r, st);
  r.m.schedule();
  pace(r);
  const ask = analyseStep(st);
  if (ask && `${ask.run}/${ask.done}` !== seen.asked) model.send(ask);
  seen.asked = ask ? `${ask.run}/${ask.done}` : "";
}

/**
 * Open the note form, empty or with the note at `editing`.
 * @param {Replayer} r
 * @param {NoteWhere | null} editing
 */
function openForm(r, editing) {
  const { ui } = r;
  const note = editing && (read(r.model, "annotations") || []).find((/** @type {import("./types").Note} */ n) =>
    n.variation === editing.variation && n.step === editing.step && n.index === editing.index);
  ui.form = {
    open: true, editing: note ? editing : null, text: note ? note.text : "", tags: note ? (note.tags || []).join(", ") : "",
    highlights: note ? (note.highlights || []).slice() : [], seq: ui.form.seq + 1, pending: false,
  };
  ui.hint = "";
  r.m.schedule();
}

/** @param {Replayer} r */
function closeForm(r) {
  r.ui.form = { open: false, editing: null, text: "", tags: "", highlights: [], seq: r.ui.form.seq + 1, pending: false };
  r.m.schedule();
}

/** @param {Replayer} r */
function saveNote(r) {
  const f = r.ui.form;
  const tags = f.tags.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter(Boolean);
  const body = { text: f.text, tags, highlights: f.highlights.slice().sort((x, y) => x - y) };
  const message = f.editing ? { type: "edit_note", ...f.editing, ...body }
    : { type: "annotate", step: shownStep(replayState(r.model)), ...body };
  f.pending = true;
  r.ui.hint = "";
  r.model.send(message);
  r.m.schedule();
}

/**
 * A move on the board or from the list: into a variation (explore) or a guess (training).
 * @param {Replayer} r
 * @param {Partial<import("./types").Action>} action
 */
function move(r, action) {
  const st = replayState(r.model);
  r.ui.hint = "";
  clearPicks(r.ui);
  const training = st.train !== null && st.train !== undefined;
  r.model.send({ type: training ? "guess" : "action", action, step: shownStep(st) });
}

/**
 * The note a button is about.
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
 * @param {Element} button
 * @param {string} name
 */
const numberOf = (button, name) => Number(button.getAttribute(name));

/**
 * A step chosen by a transport button or the move list: autoplay stops.
 * @param {Replayer} r
 * @param {number} step
 */
function seek(r, step) {
  r.ui.playing = false;
  goto(r, step);
}

/**
 * The choice picked in the list of moves from here (its menu), if any.
 * @param {Replayer} r
 * @param {ReplayState} st
 */
function chosen(r, st) {
  const menu = /** @type {HTMLSelectElement | null} */ (r.m.root().querySelector("[data-act=choice]"));
  return menu && (st.choices || [])[Number(menu.value)];
}

/**
 * A click on a card: a move or a target while exploring or guessing; a card pointed at (or
 * no longer) while a note is being written.
 * @param {Replayer} r
 * @param {Element} button
 * @param {ReplayState} st
 */
function onCard(r, button, st) {
  const { ui } = r;
  const slot = numberOf(button, "data-slot");
  if (!ui.form.open && acting(st)) {
    const out = cardClick(ui, st.view, st.legal, st.info, slot);
    if (out.action) move(r, out.action);
    else ui.hint = out.hint || "";
  } else if (ui.form.open) {
    const hl = ui.form.highlights;
    ui.form.highlights = hl.includes(slot) ? hl.filter((s) => s !== slot) : hl.concat([slot]);
  }
}

/**
 * Something to be clicked twice (a note's or a variation's Delete): the first click asks.
 * @param {Replayer} r
 * @param {string} id
 * @param {Record<string, unknown>} message sent on the second click
 */
function twice(r, id, message) {
  if (r.ui.confirm !== id) {
    r.ui.confirm = id; // a second click deletes: one slip should not lose a note or a line
  } else {
    r.ui.confirm = null;
    r.model.send(message);
  }
}

/**
 * A download: from the page's own files (a standalone page) or asked of the kernel.
 * @param {Replayer} r
 * @param {Element} button
 * @param {ReplayState} st
 */
function onDownload(r, button, st) {
  const kind = /** @type {string} */ (button.getAttribute("data-kind"));
  const files = st.downloads;
  if (files) {
    const text = /** @type {Record<string, string | undefined>} */ (files)[kind];
    const json = kind === "json";
    if (text) download(r.m.doc, json ? "leyline-replay.leyline.json" : "leyline-replay.md", json ? "application/json" : "text/markdown", text);
  } else {
    const v = button.getAttribute("data-viewer");
    r.model.send({ type: "export", kind, ...(v === null ? {} : { viewer: v === "all" ? null : Number(v) }) });
  }
}

/**
 * Each kind of button (its `data-act`) and what a click on it does; the page then repaints
 * and autoplay goes on (or stops).
 * @type {Record<string, (r: Replayer, button: Element, st: ReplayState, event: MouseEvent) => void>}
 */
export const REPLAY_CLICKS = {
  first(r) { seek(r, 0); },
  back(r, _b, st) { seek(r, st.step - 1); },
  forward(r, _b, st) { seek(r, st.step + 1); },
  last(r, _b, st) { seek(r, lastStep(st)); },
  goto(r, button) { seek(r, numberOf(button, "data-step")); },
  play(r, _b, st) {
    r.ui.playing = !r.ui.playing;
    if (r.ui.playing && shownStep(st) >= lastStep(st)) goto(r, 0); // play again from the start
  },
  card: onCard,
  end(r, _b, st) {
    const found = (st.choices || []).find((c) => c.action.type === "end_phase");
    if (found) move(r, found.action);
  },
  power(r, button, st) {
    // Off the seat's move the panel still opens (the power's text); targets only when usable.
    pickPower(r.ui, acting(st) ? st.legal : { step: shownStep(st), actor: null }, String(button.getAttribute("data-key")));
    r.ui.hint = "";
  },
  "use-power"(r, _b, st) {
    const action = acting(st) ? takePower(r.ui, st.info) : null;
    if (action) move(r, action);
  },
  "close-power"(r) { closePower(r.ui); },
  cancel(r) { closePower(r.ui); },
  source(r, button, st) {
    r.ui.hint = acting(st) ? pickSource(r.ui, st.legal, String(button.getAttribute("data-element")),
      String(button.getAttribute("data-source"))) : "";
  },
  "play-choice"(r, _b, st) {
    const found = chosen(r, st);
    if (found) move(r, found.action);
  },
  glyph(r, button, st) {
    const g = button.getAttribute("data-glyph") || null;
    r.model.send({ type: "glyph", step: shownStep(st), glyph: g === (st.glyphs || {})[String(shownStep(st))] ? null : g });
  },
  "line-go"(r, button) {
    r.ui.playing = false;
    request(r, { variation: numberOf(button, "data-variation") });
  },
  "var-promote"(r, button) { r.model.send({ type: "promote", variation: numberOf(button, "data-variation") }); },
  "var-rename"(r, button) { r.ui.renaming = numberOf(button, "data-variation"); },
  "var-name-cancel"(r) { r.ui.renaming = null; },
  "var-name-save"(r, button) {
    const input = /** @type {HTMLInputElement | null} */ (r.m.root().querySelector("[data-act=var-name]"));
    if (input) r.model.send({ type: "rename", variation: numberOf(button, "data-variation"), name: input.value });
    r.ui.renaming = null;
  },
  "var-delete"(r, button) {
    const variation = numberOf(button, "data-variation");
    twice(r, `var:${button.getAttribute("data-variation")}`, { type: "delete_variation", variation });
  },
  download(r, button, st) { onDownload(r, button, st); },
  analyse(r, button) {
    const menu = /** @type {HTMLSelectElement | null} */ (r.m.root().querySelector("[data-act=analyse-seat]"));
    const seat = Number(button.getAttribute("data-seat") ?? (menu ? menu.value : NaN));
    if (Number.isInteger(seat)) r.model.send({ type: "analyse", seat });
  },
  "analyse-cancel"(r) { r.model.send({ type: "analyse_cancel" }); },
  "show-line"(r, _b, st) {
    r.ui.playing = false;
    r.model.send({ type: "show_line", step: shownStep(st) });
  },
  "puzzle-next"(r) { r.model.send({ type: "puzzle" }); },
  puzzles(r, button) { r.model.send({ type: "puzzles", seat: numberOf(button, "data-seat") }); },
  ready(r) { r.ui.dealt = true; },
  "deal-again"(r) { r.ui.dealt = false; },
  graph(r, button, _st, event) {
    const box = /** @type {HTMLElement} */ (button);
    const rect = box.getBoundingClientRect();
    const last = numberOf(box, "data-last");
    if (rect.width > 0) seek(r, Math.round(((event.clientX - rect.left) / rect.width) * last));
  },
  dismiss(r, _b, st) {
    r.ui.dismissed = st.error || null;
    r.ui.hint = "";
  },
  "toggle-hidden"(r) { r.ui.showHidden = !r.ui.showHidden; },
  rules(r) { r.ui.rules = !r.ui.rules; }, // the board's Rules button opens and closes the rules
  "note-new"(r) { openForm(r, null); },
  "note-edit"(r, button) { openForm(r, where(button)); },
  "note-cancel"(r) { closeForm(r); },
  "note-save"(r) { saveNote(r); },
  "note-remove"(r, button) {
    const w = where(button);
    twice(r, `${w.variation}:${w.step}:${w.index}`, { type: "remove_note", ...w });
  },
};

/**
 * A click anywhere on the page: the button's handler, then a repaint.
 * @param {Replayer} r
 * @param {MouseEvent} event
 */
function onClick(r, event) {
  const button = /** @type {Element} */ (event.target).closest("[data-act]");
  if (!button || !r.m.root().contains(button)) return;
  const act = /** @type {string} */ (button.getAttribute("data-act"));
  // A source that cannot pay still answers why (as in the play widget).
  if (button.getAttribute("aria-disabled") === "true" && act !== "source") return;
  if (act !== "note-remove" && act !== "var-delete") r.ui.confirm = null;
  const handler = Object.hasOwn(REPLAY_CLICKS, act) ? REPLAY_CLICKS[act] : null;
  if (!handler) return;
  handler(r, button, replayState(r.model), event);
  pace(r);
  r.m.schedule();
}

/**
 * Typing: the slider seeks, the note form keeps its text.
 * @param {Replayer} r
 * @param {Event} event
 */
function onInput(r, event) {
  const target = /** @type {HTMLInputElement} */ (event.target);
  const act = target && target.getAttribute && target.getAttribute("data-act");
  if (act === "scrub") seek(r, Number(target.value));
  else if (act === "note-text") r.ui.form.text = target.value;
  else if (act === "note-tags") r.ui.form.tags = target.value;
}

/**
 * A menu or box changed: autoplay's speed, or a line, viewer, memory or exploring asked of the kernel.
 * @param {Replayer} r
 * @param {Event} event
 */
function onSelect(r, event) {
  const target = /** @type {HTMLInputElement} */ (event.target);
  const act = target && target.getAttribute && target.getAttribute("data-act");
  if (act === "speed") {
    r.ui.speed = Number(target.value);
    r.m.cancel("play");
    pace(r);
    r.m.schedule();
  } else if (act === "line") {
    request(r, { variation: Number(target.value) });
  } else if (act === "viewer") {
    request(r, { viewer: target.value === "all" ? null : Number(target.value) });
  } else if (act === "memory-of") {
    request(r, { show_memory_of: target.value === "" ? null : Number(target.value) });
  } else if (act === "explore") {
    request(r, { explore: !!target.checked });
  }
}

/** @type {Record<string, number>} */
const STEP_KEYS = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };

/**
 * Keys: Escape closes the note form or the picks; arrows, Page Up/Down, Home and End seek.
 * @param {Replayer} r
 * @param {KeyboardEvent} event
 */
function onKey(r, event) {
  const { ui } = r;
  if (event.key === "Escape" && ui.form.open) {
    closeForm(r);
    event.preventDefault();
    return;
  }
  if (event.key === "Escape" && (ui.power || ui.infoPower || ui.source)) {
    clearPicks(ui);
    r.m.schedule();
    event.preventDefault();
    event.stopPropagation(); // handled here: JupyterLab does not also leave edit mode
    return;
  }
  const t = /** @type {Element | null} */ (event.target);
  const tag = t && t.tagName;
  // Text fields and menus keep their keys; the slider moves itself (its input event steps).
  if (tag === "TEXTAREA" || tag === "SELECT" || tag === "INPUT") return;
  const st = replayState(r.model);
  /** @type {number | null} */
  let next = null;
  if (event.key in STEP_KEYS) next = st.step + STEP_KEYS[event.key];
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = lastStep(st);
  if (next === null || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  event.stopPropagation();
  seek(r, next);
}

/** @type {import("./types").Mode} */
export function replayMode({ model, el }) {
  return mount(model, el, "leyline ll-replay", (m) => {
    const ui = newReplayUi();
    // A payload made before this view existed (a re-display) is not downloaded again.
    ui.exported = Number((read(model, "export") || {}).seq) || 0;
    /** @type {Replayer} */
    const r = {
      model, m, ui,
      seen: { ack: read(model, "ack"), asked: "", painted: null, form: -1, pickedAt: "", words: { line: null, viewer: null, list: [] } },
    };
    return {
      draw: (/** @type {number} */ now) => draw(r, now), onChange: () => onChange(r), reveals: () => ui.reveals, start: true,
      listeners: {
        click: (/** @type {MouseEvent} */ e) => onClick(r, e), input: (/** @type {Event} */ e) => onInput(r, e),
        change: (/** @type {Event} */ e) => onSelect(r, e), keydown: (/** @type {KeyboardEvent} */ e) => onKey(r, e),
      },
    };
  });
}
