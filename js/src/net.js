// Play at a table over the network: a model that the play mode renders from, fed by the table
// server's WebSocket instead of a Jupyter kernel (the protocol is docs/tables.md). The server is
// the referee: it sends this seat's board (view, legal, log) after every accepted move, and a
// click goes to it as a `move`; nothing here decides a rule. The connection comes back by
// itself after a drop (the server sends the state again, with the reveals this seat missed),
// and the status line says when the page is offline.

/** @typedef {import("./types").Model} Model */

/** The play mode's keys that a network table fixes (no deal to wait for, no hot-seat). */
const FIXED = {
  mode: "play", deal_ms: 0, reveal_ms: 1500, handoff: {}, session: [], hint: {}, memory: {},
  bot_delay_ms: 0, error: "", ack: 0, network: true,
};

/** Messages of the play mode that have no meaning at a network table. */
const LOCAL_ONLY = new Set(["ready", "undo", "new_game", "rematch", "hint"]);

/**
 * A model over plain state: what `render` reads, and the page's messages handed to `send`.
 * @param {(message: any) => void} send
 */
export function netModel(send) {
  /** @type {Record<string, any>} */
  const state = { ...FIXED };
  /** @type {Set<() => void>} */
  const listeners = new Set();
  const model = {
    /** @param {string} key */
    get: (key) => state[key],
    /** @param {string} key @param {unknown} value */
    set: (key, value) => { state[key] = value; },
    save_changes: () => {},
    /** @param {object} message */
    send: (message) => send(message),
    // Every change of the model is one update; a network table has no kernel comm, so no
    // "comm_live_update" (its link is the WebSocket, whose state the page's status line says).
    /** @param {string} name @param {() => void} fn */
    on: (name, fn) => { if (name !== "comm_live_update") listeners.add(fn); },
    /** @param {string} _name @param {() => void} fn */
    off: (_name, fn) => { listeners.delete(fn); },
    /** @param {Record<string, any>} changes */
    update(changes) {
      Object.assign(state, changes);
      for (const fn of [...listeners]) fn();
    },
  };
  return model;
}

/**
 * The hello's credentials from a table link: `?seat=` (a seat), `?watch=` (a spectator), or a
 * teacher's key in the fragment (`#teacher=`, never sent to the server in the URL).
 * @param {string} search
 * @param {string} hash
 * @returns {Record<string, string> | null}
 */
export function credentials(search, hash) {
  const q = new URLSearchParams(search);
  const h = new URLSearchParams(hash.replace(/^#/, ""));
  if (q.get("seat")) return { secret: /** @type {string} */ (q.get("seat")) };
  if (q.get("watch")) return { watch: /** @type {string} */ (q.get("watch")) };
  if (h.get("teacher")) return { teacher: /** @type {string} */ (h.get("teacher")) };
  return null;
}

/** Refusals at hello that no retry can mend. */
const FINAL = new Set(["secret", "watch", "teacher", "table", "board", "protocol"]);

/**
 * One page's place at a table: what the functions below share while it is open.
 * @typedef {object} Session
 * @property {{render: (props: {model: Model, el: HTMLElement}) => unknown}} widget
 * @property {HTMLElement} el
 * @property {(text: string, online: boolean) => void} say the status line
 * @property {Record<string, string>} creds the hello's credentials
 * @property {string} table
 * @property {Location | {protocol: string, host: string}} loc
 * @property {typeof WebSocket} Socket
 * @property {Storage | null} storage
 * @property {string} seenKey
 * @property {number} seen the last step shown here: a page loaded again does not replay its reveals
 * @property {WebSocket | null} ws
 * @property {boolean} open
 * @property {boolean} rendered
 * @property {boolean} stopped
 * @property {number} nextId
 * @property {number} acks
 * @property {number} seq
 * @property {number} delay the wait before the next reconnect, in ms
 * @property {Set<number>} pending moves sent and not yet answered
 * @property {ReturnType<typeof netModel>} model
 */

/**
 * Join a table: connect, render the play mode into `el` once the first state arrives, and keep
 * the connection (and the `status` line) up to date.
 * @param {{render: (props: {model: Model, el: HTMLElement}) => unknown}} widget
 * @param {{table: string, el: HTMLElement, status: HTMLElement, location?: Location,
 *          WebSocket?: typeof WebSocket, storage?: Storage | null}} options
 */
export function joinTable(widget, options) {
  const loc = options.location || window.location;
  const storage = options.storage === undefined ? window.localStorage : options.storage;
  const creds = credentials(loc.search, loc.hash);
  const status = options.status;
  const say = (/** @type {string} */ text, /** @type {boolean} */ online) => {
    status.textContent = text;
    status.dataset.online = String(online);
  };
  if (!creds) {
    say("This link holds no seat, spectator or teacher key.", false);
    return null;
  }
  const seenKey = `leyline-seen:${options.table}:${Object.keys(creds)[0]}`;
  const seen = Number((storage && storage.getItem(seenKey)) ?? -1);
  if (creds.secret && storage) remember(storage, options.table, creds.secret);
  /** @type {Session} */
  const s = {
    widget, el: options.el, say, creds, table: options.table, loc, storage, seenKey,
    Socket: options.WebSocket || window.WebSocket, seen: Number.isInteger(seen) ? seen : -1,
    ws: null, open: false, rendered: false, stopped: false, nextId: 0, acks: 0, seq: 0,
    delay: 500, pending: new Set(), model: netModel(() => {}),
  };
  s.model = netModel((/** @type {any} */ message) => onPageMessage(s, message));
  say("Connecting...", false);
  connect(s);
  return { model: s.model, close: () => { s.stopped = true; if (s.ws) s.ws.close(); } };
}

/**
 * A message of the play mode: a click goes to the server as a `move`.
 * @param {Session} s
 * @param {any} message
 */
function onPageMessage(s, message) {
  const type = message && message.type;
  if (type === "action") {
    if (!s.open || !s.ws) {
      refuse(s, "The page is offline: that move was not sent. It reconnects by itself; try again then.");
      return;
    }
    const id = ++s.nextId;
    s.pending.add(id);
    s.ws.send(JSON.stringify({ type: "move", id, step: message.step, action: message.action }));
  } else if (type === "log_sync") {
    if (s.open && s.ws) s.ws.send(JSON.stringify({ type: "sync" }));
  } else if (type === "bot_step" || type === "shown") {
    // The server plays the bots at its own pace, and reveals are not replayed: nothing to say.
  } else if (LOCAL_ONLY.has(type)) {
    refuse(s, `"${String(type)}" is not available at a network table.`);
  }
}

/** @param {Session} s @param {string} text */
function refuse(s, text) {
  s.acks += 1;
  s.model.update({ error: text, ack: s.acks });
}

/** @param {Session} s @param {any} frame */
function onState(s, frame) {
  const board = frame.board || {};
  /** @type {Record<string, any>} */
  const changes = { view: frame.view, legal: board.legal || {}, log: board.log,
    viewer: frame.view && frame.view.viewer };
  // `info` and the finished turns come whole only on a connection's first frame.
  if (board.info) changes.info = board.info;
  if (board.log_past) changes.log_past = board.log_past;
  const items = (frame.events && frame.events.items) || [];
  if (items.length) changes.events = { seq: ++s.seq, step: frame.step, items };
  s.model.update(changes);
  const players = frame.players || [];
  s.say(frame.role === "seat" ? `Online: playing as ${players[frame.seat]}`
    : frame.role === "teacher" ? "Online: the teacher's view (every card)" : "Online: watching", true);
  s.seen = frame.step;
  if (s.storage) s.storage.setItem(s.seenKey, String(s.seen));
  if (!s.rendered) {
    s.rendered = true;
    s.widget.render({ model: s.model, el: s.el });
  }
}

/** @param {Session} s @param {any} frame */
function onFrame(s, frame) {
  if (frame.type === "welcome") {
    s.delay = 500;
    s.say("Online", true);
  } else if (frame.type === "state") {
    onState(s, frame);
  } else if (frame.type === "ack") {
    s.pending.delete(frame.id);
    s.acks += 1;
    s.model.update({ error: "", ack: s.acks });
  } else if (frame.type === "error") {
    if (!s.rendered && FINAL.has(frame.field)) {
      s.stopped = true;
      s.say(`Refused: ${frame.error}`, false);
      return;
    }
    if (typeof frame.id === "number") s.pending.delete(frame.id);
    refuse(s, frame.error);
  }
}

/**
 * Open the socket; when it closes, say so and open another after a growing delay (0.5 s,
 * doubling up to 10 s), whose hello says the last step shown.
 * @param {Session} s
 */
function connect(s) {
  if (s.stopped) return;
  const proto = s.loc.protocol === "https:" ? "wss:" : "ws:";
  const socket = new s.Socket(`${proto}//${s.loc.host}/ws/${encodeURIComponent(s.table)}`);
  s.ws = socket;
  socket.onopen = () => {
    s.open = true;
    socket.send(JSON.stringify({ type: "hello", ...s.creds, board: true, seen: s.seen }));
  };
  socket.onmessage = (event) => {
    try {
      onFrame(s, JSON.parse(String(event.data)));
    } catch (err) {
      refuse(s, `The server sent a frame this page cannot read: ${String(err).slice(0, 80)}`);
    }
  };
  socket.onclose = () => {
    s.open = false;
    if (s.ws === socket) s.ws = null;
    if (s.pending.size) {
      s.pending.clear();
      refuse(s, "The connection dropped before the server answered your move; look at the board when it is back.");
    }
    if (s.stopped) return;
    s.say(`Offline: reconnecting in ${Math.round(s.delay / 100) / 10} s...`, false);
    setTimeout(() => connect(s), s.delay);
    s.delay = Math.min(s.delay * 2, 10_000);
  };
}

/**
 * Keep this seat's link for the lobby page (at most 50, the newest first).
 * @param {Storage} storage
 * @param {string} table
 * @param {string} secret
 */
function remember(storage, table, secret) {
  /** @type {{table: string, secret: string}[]} */
  let links = [];
  try {
    const stored = JSON.parse(storage.getItem("leyline-links") || "[]");
    if (Array.isArray(stored)) links = stored;
  } catch {
    links = [];
  }
  links = [{ table, secret }, ...links.filter((l) => l && l.table !== table)].slice(0, 50);
  storage.setItem("leyline-links", JSON.stringify(links));
}
