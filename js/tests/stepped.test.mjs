// A stepped analysis (a kernel without threads, such as Pyodide's): the page asks for each
// decision once, shows progress, and offers Cancel while it runs.
import assert from "node:assert/strict";
import test from "node:test";

import { analyseBar, analyseStep } from "../src/coach.js";
import { dom } from "./fake_model.mjs";

const base = { viewer: 0, viewers: [0], train: null, info: { players: [{ name: "Ada" }] } };

test("the page asks for the next decision only while a stepped run goes on", () => {
  const running = { seat: 0, done: 2, total: 5, running: true, stepped: true, run: 3 };
  assert.deepEqual(analyseStep({ ...base, analysis_progress: running }), { type: "analyse_step", run: 3, done: 2 });
  assert.equal(analyseStep({ ...base, analysis_progress: { ...running, stepped: false } }), null);
  assert.equal(analyseStep({ ...base, analysis_progress: { ...running, running: false } }), null);
  assert.equal(analyseStep({ ...base, analysis_progress: null }), null);
});

test("the bar shows progress and Cancel while running, and says a cancelled run was cancelled", () => {
  const doc = dom().document;
  const running = analyseBar(doc, { ...base, analysis_progress: { seat: 0, done: 2, total: 5, running: true, stepped: true, run: 1 } });
  assert.ok(running);
  assert.equal(running.querySelector("progress")?.getAttribute("value"), "2");
  assert.ok(running.querySelector("[data-act=analyse-cancel]"));
  const stopped = analyseBar(doc, { ...base, analysis_progress: { seat: 0, done: 2, total: 5, running: false, cancelled: true, error: "" } });
  assert.ok(stopped);
  assert.equal(stopped.querySelector("[data-act=analyse-cancel]"), null);
  assert.match(stopped.textContent || "", /2 \/ 5 decisions \(cancelled\)/);
});
