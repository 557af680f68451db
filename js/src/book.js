// The replay book model: in a standalone page (Replay.to_html) there is no kernel, so this
// stands in for one, looking positions up in the data the kernel precomputed. Patches and
// streams are the JS twins of Python's `diff` and `stream` (leyline_widget/replay_widget.py).

/** @typedef {import("./types").Book} Book */
/** @typedef {import("./types").Model} Model */
/** @typedef {import("./types").Patch} Patch */

export function applyPatch(base, changes) {
  const copy = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
  let out = copy(base);
  for (const [path, value] of changes || []) {
    if (!path.length) {
      out = copy(value);
      continue;
    }
    let target = out;
    for (const key of path.slice(0, -1)) target = target[key];
    target[path[path.length - 1]] = copy(value);
  }
  return out;
}

/** Every value of a stream {base, patches} (Python's `stream`). */
export function decodeStream(data) {
  const values = [data.base];
  for (const changes of data.patches || []) values.push(applyPatch(values[values.length - 1], changes));
  return values;
}

/**
 * The model of a standalone replay page: the anywidget model API (get, set, save_changes, on,
 * off, send) over a book that Replay.to_html precomputed. Asked for a step, line or viewer, it
 * looks the position up; what the book does not hold (another viewer, a step past the end) it
 * refuses by keeping the last valid choice. Notes are read-only here.
 */
export function bookModel(book) {
  const lines = book.lines || [];
  const byId = new Map(lines.map((l) => [l.id, l]));
  const handlers = new Map();
  const cache = new Map();
  const key = (viewer) => (viewer === null || viewer === undefined ? "all" : String(viewer));
  const memo = (k, make) => {
    if (!cache.has(k)) cache.set(k, make());
    return cache.get(k);
  };
  const chainOf = (id) => {
    const out = [];
    for (let line = byId.get(id); line; line = line.parent === null ? null : byId.get(line.parent)) out.unshift(line);
    return out;
  };
  const owner = (id, step) => {
    let line = byId.get(id);
    while (line.parent !== null && step <= line.start) line = byId.get(line.parent);
    return line;
  };
  const frames = (vk, id) => memo(`f/${vk}/${id}`, () => decodeStream(book.frames[vk][id]));
  const ownEntries = (vk, id) => memo(`e/${vk}/${id}`, () => {
    const data = book.entries[vk][id];
    return data.of ? applyPatch(ownEntries(data.of, id), data.patches) : data.base;
  });
  const lineEntries = (vk, id) => memo(`l/${vk}/${id}`, () => {
    const chain = chainOf(id);
    const out = [];
    chain.forEach((line, i) => {
      const own = ownEntries(vk, line.id);
      const first = line.parent === null ? 0 : line.start + 1;
      const stop = i + 1 < chain.length ? chain[i + 1].start : line.end;
      for (let s = first; s <= stop; s++) out.push(own[s - first]);
    });
    return out;
  });
  const memoryAt = (id, step) => {
    if (!book.memory) return {};
    const line = owner(id, step);
    return memo(`m/${line.id}`, () => decodeStream(book.memory.lines[line.id]))[step - line.start];
  };
  const state = {
    mode: "replay", info: book.info || {}, viewers: book.viewers || [], lines,
    hide_tags: book.hide_tags || [], reveal_ms: book.reveal_ms === undefined ? 1500 : book.reveal_ms,
    editable: false, error: "", ack: 0, events: { seq: 0, step: 0, items: [] },
    memory_choices: book.memory ? [book.memory.player] : [],
    show_memory_of: book.memory ? book.memory.player : null,
    step: book.start.step, variation: book.start.variation, viewer: book.start.viewer,
  };
  const good = { ...state };

  function derive() {
    // Keep the last valid choice for anything the book cannot show.
    if (!byId.has(state.variation)) state.variation = good.variation;
    if (!state.viewers.includes(state.viewer)) state.viewer = good.viewer;
    if (state.show_memory_of !== null && !state.memory_choices.includes(state.show_memory_of)) {
      state.show_memory_of = good.show_memory_of;
    }
    const line = byId.get(state.variation);
    const step = Number(state.step);
    state.step = Number.isInteger(step) ? Math.max(0, Math.min(line.end, step)) : good.step;
    const vk = key(state.viewer);
    const at = owner(line.id, state.step);
    state.view = frames(vk, at.id)[state.step - at.start];
    state.legal = { step: state.step, actor: null, variation: line.id };
    state.line = lineEntries(vk, line.id);
    state.annotations = (book.notes || {})[line.id] || [];
    state.memory = state.viewer === null && state.show_memory_of !== null ? memoryAt(line.id, state.step) : {};
    for (const k of ["variation", "viewer", "step", "show_memory_of"]) good[k] = state[k];
  }

  function fire(keys) {
    for (const k of keys) (handlers.get(`change:${k}`) || new Set()).forEach((cb) => cb());
    (handlers.get("change") || new Set()).forEach((cb) => cb());
  }

  derive();
  const dirty = new Set();
  return {
    get: (k) => state[k],
    set(k, v) {
      state[k] = v;
      dirty.add(k);
    },
    save_changes() {
      derive();
      const keys = [...dirty, "view", "legal", "line", "annotations", "memory"];
      dirty.clear();
      fire(keys);
    },
    send() {}, // no kernel: nothing listens
    on(name, cb) {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name).add(cb);
    },
    off(name, cb) {
      if (handlers.has(name)) handlers.get(name).delete(cb);
    },
  };
}

