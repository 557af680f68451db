// Leyline front-end: anywidget loads the bundle of these modules (js/build.mjs writes it to
// leyline_widget/widgets/static/widget.js) from a Blob URL, so the bundle imports nothing. It
// renders from synced state alone and never decides a rule: what is clickable comes from
// `legal` (the kernel's summary of game.legal_actions()), and every click goes to the kernel,
// which applies it or answers with an error in words.
//
// Modules: looks (element colours and symbols), words (sentences), dom (h, morph, listen),
// board (the play board, pure), memory (the teacher's memory panel), mount (the lifecycle every
// mode shares), play, lesson and replay (the modes), book (the standalone replay page's model).
import { lessonMode } from "./lesson.js";
import { watchKernel } from "./lost.js";
import { playMode } from "./play.js";
import { replayMode } from "./replay.js";
import { studyPage as mountStudy } from "./studio.js";

// The standalone replay page (replay_widget.py's _BOOT) renders over `bookModel(book)`.
export { bookModel } from "./book.js";
// The table server's page (tables/pages.py) plays over a WebSocket: `joinTable(default, ...)`.
export { joinTable } from "./net.js";

/** Front-end modes by the `mode` trait. @type {Record<string, import("./types").Mode>} */
export const MODES = { play: playMode, lesson: lessonMode, replay: replayMode };

/** Values already read through `nulled`, each with what the modes see of it. */
const NULLED = new WeakMap();

/** A plain object's missing fields read as null (see `nulled`); its own and inherited ones as they are. */
const MISSING_IS_NULL = {
  /** @param {object} target @param {string | symbol} key @param {unknown} receiver */
  get(target, key, receiver) {
    if (typeof key === "string" && !(key in target)) return null;
    return Reflect.get(target, key, receiver);
  },
};

/**
 * `value` as the modes read it: every `undefined` in it, and every field missing from one of its
 * plain objects, reads as `null`. JupyterLite's Pyodide kernel turns Python's None into
 * `undefined`, and its messages travel as JSON, which drops a field whose value is `undefined`:
 * so a set-up event's `player`, an inert card's `element` or a finished game's `active_player`
 * is missing there where JupyterLab sends `null`, and the modes test `=== null`. Each value is
 * wrapped once, so the modes see the same object for the same trait value.
 * @param {unknown} value
 * @returns {unknown}
 */
export function nulled(value) {
  if (value === undefined) return null;
  if (value === null || typeof value !== "object") return value;
  const known = NULLED.get(value);
  if (known !== undefined) return known;
  /** @type {any} */
  let out = value;
  if (Array.isArray(value)) {
    out = value.map(nulled);
  } else if ([Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const source = /** @type {Record<string, unknown>} */ (value);
    /** @type {Record<string, unknown>} */
    const copy = {};
    for (const key of Object.keys(source)) copy[key] = nulled(source[key]);
    out = new Proxy(copy, MISSING_IS_NULL);
  }
  NULLED.set(value, out);
  return out;
}

/**
 * What the kernel sends for a trait that became None when its host would drop the field
 * (Pyodide's None is undefined, and JSON drops undefined): base.py's PAGE_NULL.
 */
export const PAGE_NULL = { leyline: "null" };

/**
 * A trait's value with the kernel's null mark read as null.
 * @param {unknown} value
 * @returns {unknown}
 */
export function unmarked(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const mark = /** @type {Record<string, unknown>} */ (value);
  return keys.length === 1 && keys[0] === "leyline" && mark.leyline === PAGE_NULL.leyline ? null : value;
}

/**
 * The one place the front-end reads the model: every mode gets this view of it, whose `get`
 * answers `null` wherever the host delivered `undefined` (see `nulled`); writes go straight through.
 * @param {import("./types").Model} model
 * @returns {import("./types").Model}
 */
export function hostModel(model) {
  return {
    get: (key) => nulled(unmarked(model.get(key))),
    set: (key, value) => model.set(key, value),
    save_changes: () => model.save_changes(),
    send: (message) => model.send(message),
    on: (name, callback) => model.on(name, callback),
    off: (name, callback) => model.off(name, callback),
  };
}

/** @param {import("./types").RenderProps} props */
function render(props) {
  const model = hostModel(props.model);
  const el = props.el;
  const impl = MODES[/** @type {string} */ (model.get("mode"))] || MODES.play;
  const cleanup = impl({ model, el });
  const unwatch = watchKernel(props.model, el); // a board without its kernel says so
  return () => {
    unwatch();
    if (typeof cleanup === "function") cleanup();
  };
}

/**
 * The standalone study page (export.py's _BOOT): a chapter menu over replay pages.
 * @param {Parameters<typeof mountStudy>[0]} data
 * @param {HTMLElement} root
 */
export function studyPage(data, root) {
  mountStudy(data, root, render);
}

export default { render };
