// The one mount lifecycle every mode shares: a root node in `el`, painted by morphing it into
// the mode's fresh tree (at most once per microtask), a repaint when the soonest brief reveal
// ends, named timers, DOM listeners on the root, the model subscription, and one teardown that
// undoes all of it. A mode supplies only what differs: its drawing and its event handlers.
//
// Keys pressed in the widget stay in the widget: JupyterLab's and Notebook 7's command-mode
// shortcuts (d d deletes the cell, a / b insert one, x cuts, z undoes) listen above it, so a
// keydown on the root stops there. Tab (focus moves on) and an Escape the mode did not use
// (it leaves for the notebook) still go up. Notebook 7 matches its shortcuts earlier, in the
// capture phase on the document, before the root hears the key; Lumino skips a key whose
// target carries data-lm-suppress-shortcuts, so a capture listener on the window (which runs
// first) puts that mark on the widget's focused element for every other key.
import { listen, morph } from "./dom.js";

/** Lumino's mark for "no shortcuts from keys on this element" (JupyterLab, Notebook 7). */
const SUPPRESS = "data-lm-suppress-shortcuts";

/** @typedef {import("./types").Model} Model */
/** @typedef {import("./types").Reveal} Reveal */

/**
 * What a mode gets from the lifecycle while it sets itself up.
 * @typedef {object} Mounted
 * @property {Document} doc the page's document
 * @property {() => HTMLElement} root the mode's root node now in the tree
 * @property {(next: HTMLElement) => void} show morph the root into `next`
 * @property {() => void} paint paint now
 * @property {() => void} schedule paint once, at the end of this task
 * @property {() => boolean} alive false once torn down
 * @property {(name: string, ms: number, fn: () => void) => void} later run `fn` after `ms` (replacing the timer `name`)
 * @property {(name: string) => void} cancel clear the timer `name`
 * @property {(name: string) => boolean} pending whether the timer `name` is set
 */

/**
 * What a mode hands back to the lifecycle.
 * @typedef {object} ModeSpec
 * @property {(now: number) => void} draw build the mode's tree from the model and `show` it
 * @property {() => void} onChange the model changed (also called once at mount when `start` is set)
 * @property {Record<string, (event: any) => void>} [listeners] DOM events on the root
 * @property {() => Record<string, Reveal>} [reveals] brief reveals: the root repaints when the soonest ends
 * @property {boolean} [start] call onChange once before the first paint
 * @property {() => void} [teardown] the mode's own cleanup, before the root leaves the page
 */

/**
 * Mount a mode into `el`: a root `<div class="...">`, then `setup` builds the mode with the
 * lifecycle's helpers. Returns the cleanup that anywidget calls when the view goes away.
 * @param {Model} model
 * @param {HTMLElement} el
 * @param {string} className the root's class before its first paint
 * @param {(m: Mounted) => ModeSpec} setup
 * @returns {() => void}
 */
export function mount(model, el, className, setup) {
  const doc = el.ownerDocument;
  /** @type {HTMLElement} */
  let root = doc.createElement("div");
  root.className = className;
  el.appendChild(root);
  /** @type {Map<string, ReturnType<typeof setTimeout>>} */
  const timers = new Map();
  let queued = false;
  let alive = true;

  /** @param {string} name */
  function cancel(name) {
    clearTimeout(timers.get(name));
    timers.delete(name);
  }

  /** @type {Mounted["later"]} */
  function later(name, ms, fn) {
    cancel(name);
    timers.set(name, setTimeout(() => {
      timers.delete(name);
      fn();
    }, ms));
  }

  /** @type {Mounted} */
  const m = {
    doc,
    root: () => root,
    show(next) { root = morph(root, next); },
    paint,
    schedule,
    alive: () => alive,
    later,
    cancel,
    pending: (name) => timers.has(name),
  };
  const spec = setup(m);

  /** Drop the reveals that have ended (they no longer show), so only live ones time a repaint. */
  function pruneReveals() {
    const reveals = spec.reveals ? spec.reveals() : {};
    const now = Date.now();
    for (const [slot, r] of Object.entries(reveals)) if (r.until <= now) delete reveals[slot];
  }

  function paint() {
    queued = false;
    if (!alive) return;
    const now = Date.now();
    spec.draw(now);
    if (!spec.reveals) return;
    cancel("reveal");
    const ends = Object.values(spec.reveals()).map((r) => r.until).filter((t) => t > now);
    if (ends.length) later("reveal", Math.min(...ends) - now + 5, () => { pruneReveals(); paint(); });
  }

  function schedule() {
    if (!queued) {
      queued = true;
      queueMicrotask(paint);
    }
  }

  /** @param {KeyboardEvent} event */
  function keepKeys(event) {
    if (event.key !== "Tab" && event.key !== "Escape") event.stopPropagation();
  }
  /** @param {KeyboardEvent} event */
  function markKeys(event) {
    // The target inside a shadow root (marimo) is the path's first node, not event.target.
    const target = /** @type {Element} */ (event.composedPath()[0] || event.target);
    if (target === root || typeof target.setAttribute !== "function" || !root.contains(target)) return;
    if (event.key === "Tab" || event.key === "Escape") target.removeAttribute(SUPPRESS);
    else target.setAttribute(SUPPRESS, "true");
  }
  const unlisten = listen(root, { ...(spec.listeners || {}) });
  const unguard = listen(root, { keydown: keepKeys, keypress: keepKeys, keyup: keepKeys });
  const win = doc.defaultView;
  if (win) win.addEventListener("keydown", markKeys, true);
  // The host's theme lives on <body> / <html> (JupyterLab, VS Code, marimo): repaint on a switch.
  /** @type {MutationObserver | null} */
  let themes = null;
  if (win && typeof win.MutationObserver === "function") {
    themes = new win.MutationObserver(() => schedule());
    const attributeFilter = ["class", "data-jp-theme-light", "data-jp-theme-name", "data-theme"];
    for (const node of [doc.body, doc.documentElement]) if (node) themes.observe(node, { attributes: true, attributeFilter });
  }
  model.on("change", spec.onChange);
  if (spec.start) spec.onChange();
  paint();

  return () => {
    alive = false;
    for (const name of [...timers.keys()]) cancel(name);
    model.off("change", spec.onChange);
    unlisten();
    unguard();
    if (win) win.removeEventListener("keydown", markKeys, true);
    if (themes) themes.disconnect();
    if (spec.teardown) spec.teardown();
    root.remove();
  };
}
