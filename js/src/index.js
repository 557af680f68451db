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
import { playMode } from "./play.js";
import { replayMode } from "./replay.js";
import { studyPage as mountStudy } from "./studio.js";

// The standalone replay page (replay_widget.py's _BOOT) renders over `bookModel(book)`.
export { bookModel } from "./book.js";

/** Front-end modes by the `mode` trait. @type {Record<string, import("./types").Mode>} */
export const MODES = { play: playMode, lesson: lessonMode, replay: replayMode };

/** Values already read through `nulled`, each with its copy (or itself when it held no undefined). */
const NULLED = new WeakMap();

/**
 * `value` with every `undefined` inside it read as `null`. Pyodide's comm (JupyterLite) delivers
 * `undefined` where Python sent None, and the modes test `=== null` (an inert card's element, a
 * set-up event's player, a finished game's active seat). Each object is copied at most once and
 * only when it holds an `undefined`, so the modes see the same object for the same trait value.
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
    for (let i = 0; i < value.length; i += 1) {
      const v = nulled(value[i]);
      if (v === value[i]) continue;
      if (out === value) out = value.slice();
      out[i] = v;
    }
  } else if ([Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const source = /** @type {Record<string, unknown>} */ (value);
    for (const key of Object.keys(source)) {
      const v = nulled(source[key]);
      if (v === source[key]) continue;
      if (out === value) out = { ...source };
      out[key] = v;
    }
  }
  NULLED.set(value, out);
  return out;
}

/**
 * The one place the front-end reads the model: every mode gets this view of it, whose `get`
 * answers `null` wherever the host delivered `undefined` (see `nulled`); writes go straight through.
 * @param {import("./types").Model} model
 * @returns {import("./types").Model}
 */
export function hostModel(model) {
  return {
    get: (key) => nulled(model.get(key)),
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
  const impl = MODES[/** @type {string} */ (model.get("mode"))] || MODES.play;
  return impl({ model, el: props.el });
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
