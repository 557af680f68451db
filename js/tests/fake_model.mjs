// Shared by the front-end's unit tests: a jsdom window, a fake anywidget model and a mount helper.
// Not a test file itself: `node --test js/tests/` runs only names like *.test.mjs.
import { JSDOM } from "jsdom";

import widget from "../src/index.js";

export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function dom() {
  return new JSDOM("<!DOCTYPE html><body></body>", { pretendToBeVisual: true }).window;
}

/**
 * The part of anywidget's model API that the front-end uses, over a plain object of traits.
 * `set` only stores (the page's own writes); `update` is the kernel setting several traits at
 * once, then firing change events. `sent` holds what the page sent, `saved` counts save_changes.
 */
export class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.handlers = new Map();
    this.sent = [];
    this.saved = 0;
  }
  get(key) { return this.state[key]; }
  set(key, value) { this.state[key] = value; }
  save_changes() { this.saved += 1; }
  send(msg) { this.sent.push(msg); }
  on(name, cb) {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name).add(cb);
  }
  off(name, cb) { this.handlers.get(name)?.delete(cb); }
  listeners() { return [...this.handlers.values()].reduce((n, s) => n + s.size, 0); }
  update(patch) {
    Object.assign(this.state, patch);
    // Over copies: as in Backbone, a handler added while an event fires (lesson mode mounts a
    // fresh board on a new epoch) does not hear that event.
    for (const key of Object.keys(patch)) [...(this.handlers.get(`change:${key}`) || [])].forEach((cb) => cb());
    [...(this.handlers.get("change") || [])].forEach((cb) => cb());
  }
}

/** Render the widget for `model` into a fresh document; `root()` is its `.leyline` node. */
export function mount(model) {
  const window = dom();
  const el = window.document.createElement("div");
  window.document.body.appendChild(el);
  const cleanup = widget.render({ model, el });
  return { window, el, model, cleanup, root: () => el.querySelector(".leyline") };
}
