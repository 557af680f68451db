// The built bundle (leyline_widget/widgets/static/widget.js, what the package ships) loads as one
// module and offers what anywidget and the offline replay page call. The other tests import
// js/src directly; `node js/build.mjs --check` proves the bundle matches those sources.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const BUNDLE = new URL("../../leyline_widget/widgets/static/widget.js", import.meta.url);

test("the built bundle's default export has render, and bookModel is exported for replay pages", async () => {
  const widget = await import(BUNDLE.href);
  assert.equal(typeof widget.default.render, "function");
  assert.equal(typeof widget.bookModel, "function");
  assert.equal(typeof widget.studyPage, "function");
});

test("the built bundle imports nothing, so it runs from a Blob URL", async () => {
  const text = await readFile(BUNDLE, "utf8");
  assert.doesNotMatch(text, /^\s*import\s|\bimport\s*\(/m);
  assert.match(text, /\bindex_default as default\b/);
});
