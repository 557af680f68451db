// Play at a table over the network (issue 29): the page's model fed by the table server's
// WebSocket, with a fake socket: the hello, a click sent as a move, the answers, the status
// line through a drop and a reconnect that says what it has seen, and refusals kept local.
import { test } from "node:test";
import assert from "node:assert/strict";

import { credentials, joinTable, netModel } from "../src/net.js";
import { dom, sleep } from "./fake_model.mjs";

class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.sent = [];
    FakeSocket.all.push(this);
    setTimeout(() => this.onopen && this.onopen(), 0);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  receive(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
  close() { if (this.onclose) this.onclose(); }
}

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
}

const view = (step) => ({ viewer: 0, phase: "activation", turn: 1, active_player: 0, grid: [], players: [], step });
const state = (step, extra = {}) => ({
  type: "state", table: "T1", step, role: "seat", seat: 0, players: ["Ada", "Grace"],
  view: view(step), events: { from: step, step, items: [] }, actions: [],
  board: { legal: { step, actor: 0 }, log: { turns: [] } }, ...extra,
});

test("credentials come from ?seat=, ?watch= or the fragment's teacher key", () => {
  assert.deepEqual(credentials("?seat=abc", ""), { secret: "abc" });
  assert.deepEqual(credentials("?watch=w", ""), { watch: "w" });
  assert.deepEqual(credentials("", "#teacher=k"), { teacher: "k" });
  assert.equal(credentials("?x=1", ""), null);
});

test("the net model stores what it is given and tells its listeners", () => {
  const sent = [];
  const model = netModel((m) => sent.push(m));
  let heard = 0;
  const fn = () => { heard += 1; };
  model.on("change", fn);
  model.update({ view: { turn: 2 } });
  assert.equal(model.get("view").turn, 2);
  assert.equal(model.get("mode"), "play");
  model.off("change", fn);
  model.update({ error: "x" });
  assert.equal(heard, 1);
  model.send({ type: "action" });
  assert.deepEqual(sent, [{ type: "action" }]);
});

test("a seat joins, renders on its first state, sends a click as a move, and reconnects", async () => {
  FakeSocket.all = [];
  const win = dom();
  const el = win.document.createElement("div");
  const status = win.document.createElement("div");
  const storage = new MemoryStorage();
  const renders = [];
  const widget = { render: (props) => { renders.push(props); } };
  const loc = { protocol: "http:", host: "127.0.0.1:8765", search: "?seat=S3", hash: "" };
  const joined = joinTable(widget, { table: "T1", el, status, location: loc, WebSocket: FakeSocket, storage });
  await sleep(5);
  const ws = FakeSocket.all[0];
  assert.equal(ws.url, "ws://127.0.0.1:8765/ws/T1");
  assert.deepEqual(ws.sent[0], { type: "hello", secret: "S3", board: true, seen: -1 });
  ws.receive({ type: "welcome", protocol: 1, table: "T1", role: "seat", seat: 0 });
  ws.receive(state(0, { board: { legal: { step: 0, actor: 0 }, log: {}, info: { players: [{ name: "Ada" }] }, log_past: [] },
    events: { from: 0, step: 0, items: [{ type: "reveal", slot: 0, element: "fire", visible_to: "all" }] } }));
  assert.equal(renders.length, 1);
  const model = renders[0].model;
  assert.equal(model.get("events").items.length, 1);
  assert.match(status.textContent, /Online: playing as Ada/);
  // The page's click goes out as a move with an id; its ack bumps `ack` and clears the error.
  model.send({ type: "action", action: { type: "activate", slot: 3 }, step: 0 });
  assert.deepEqual(ws.sent[1], { type: "move", id: 1, step: 0, action: { type: "activate", slot: 3 } });
  ws.receive({ type: "ack", id: 1, step: 1 });
  assert.equal(model.get("ack"), 1);
  // A later frame without `info` keeps the names; one without events shows none again.
  ws.receive(state(1));
  assert.equal(model.get("info").players[0].name, "Ada");
  assert.equal(model.get("events").items.length, 1);
  assert.equal(storage.getItem("leyline-seen:T1:secret"), "1");
  // A refusal is shown; what a network table cannot do is refused on the page.
  ws.receive({ type: "error", id: 2, field: "turn", error: "it is Grace's turn" });
  assert.equal(model.get("error"), "it is Grace's turn");
  model.send({ type: "undo" });
  assert.match(model.get("error"), /not available at a network table/);
  // A drop: the status says so, a click is refused, and the page comes back with `seen`.
  ws.close();
  assert.equal(status.dataset.online, "false");
  assert.match(status.textContent, /Offline/);
  model.send({ type: "action", action: { type: "end_phase" }, step: 1 });
  assert.match(model.get("error"), /offline/);
  await sleep(700);
  const again = FakeSocket.all[1];
  assert.ok(again, "reconnected");
  assert.deepEqual(again.sent[0], { type: "hello", secret: "S3", board: true, seen: 1 });
  again.receive({ type: "welcome", protocol: 1, table: "T1", role: "seat", seat: 0 });
  again.receive(state(2));
  assert.equal(renders.length, 1, "rendered once");
  assert.equal(model.get("view").step, 2);
  assert.equal(status.dataset.online, "true");
  assert.deepEqual(JSON.parse(storage.getItem("leyline-links")), [{ table: "T1", secret: "S3" }]);
  joined.close();
});

test("a refused hello stops the page with the server's words", async () => {
  FakeSocket.all = [];
  const win = dom();
  const status = win.document.createElement("div");
  const loc = { protocol: "http:", host: "h", search: "?watch=bad", hash: "" };
  joinTable({ render: () => assert.fail("no render") }, {
    table: "T1", el: win.document.createElement("div"), status, location: loc, WebSocket: FakeSocket, storage: null });
  await sleep(5);
  FakeSocket.all[0].receive({ type: "error", field: "watch", error: "that is not this table's spectator link" });
  FakeSocket.all[0].close();
  await sleep(700);
  assert.equal(FakeSocket.all.length, 1, "no retry");
  assert.match(status.textContent, /Refused: that is not this table's spectator link/);
});
