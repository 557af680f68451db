// Renders widget states as a host that delivers `undefined` for Python's None would (Pyodide's
// comm in JupyterLite, whose JSON messages then drop those fields), and as JupyterLab does (null),
// and prints what differs.
// Not a test file itself (node --test runs *.test.mjs): tests/test_host_nulls.py writes real
// widget states of every mode to a JSON file and runs `node js/tests/host_nulls.mjs FILE`.
// Output: one JSON line per state, {name, same, words: [...bad words seen], html?}.
import { readFileSync } from "node:fs";

import { bookModel, studyPage } from "../src/index.js";
import { FakeModel, dom, mount } from "./fake_model.mjs";

/** Every null inside `value` as undefined (what Pyodide's comm hands the page). */
export function undefine(value) {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(undefine);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, undefine(v)]));
  return value;
}

/** Paint keys name values by identity (a counter per object), so two renders always differ there. */
const withoutPaintKeys = (html) => html.replace(/ data-paint-key="[^"]*"/g, "");

const BAD = /\b(NaN|undefined|null)\b|\[object Object\]/g;

/** The page's visible text and attributes, after the first paint and the deal's timers. */
async function rendered(entry, state) {
  const now = Date.now;
  Date.now = () => 1_700_000_000_000; // both renders see the same clock (reveals, deal)
  try {
    if (entry.kind === "study") {
      const window = dom();
      const root = window.document.createElement("div");
      window.document.body.appendChild(root);
      studyPage(state, root);
      await Promise.resolve();
      return withoutPaintKeys(root.innerHTML);
    }
    const model = entry.kind === "book" ? bookModel(state) : new FakeModel(state);
    const { el, cleanup } = mount(model);
    await Promise.resolve();
    const html = el.innerHTML;
    cleanup();
    return withoutPaintKeys(html);
  } finally {
    Date.now = now;
  }
}

const entries = JSON.parse(readFileSync(process.argv[2], "utf-8"));
for (const entry of entries) {
  const withNull = await rendered(entry, entry.state);
  // A standalone page (book, study) parses its data from JSON in the page, so its nulls stay
  // null: it is only checked for words that should never show.
  // Pyodide gives undefined; its messages travel as JSON, which then drops those fields.
  const widget = entry.kind === "widget";
  const withUndefined = widget ? await rendered(entry, undefine(entry.state)) : withNull;
  const dropped = widget ? await rendered(entry, JSON.parse(JSON.stringify(undefine(entry.state)))) : withNull;
  const text = (html) => {
    const window = dom();
    const box = window.document.createElement("div");
    box.innerHTML = html;
    const attrs = [...box.querySelectorAll("*")].flatMap((n) => [...n.attributes].map((a) => a.value));
    return [box.textContent || "", ...attrs].join("\n");
  };
  const words = [...new Set([...text(withUndefined).matchAll(BAD), ...text(dropped).matchAll(BAD), ...text(withNull).matchAll(BAD)].map((m) => m[0]))];
  const same = withNull === withUndefined && withNull === dropped;
  process.stdout.write(`${JSON.stringify({ name: entry.name, same, words, size: withNull.length, ...(same ? {} : { html: [withNull, withUndefined === withNull ? dropped : withUndefined] }) })}\n`);
}
