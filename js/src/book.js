// The replay book model: in a standalone page (Replay.to_html) there is no kernel, so this
// stands in for one, looking positions up in the data the kernel precomputed. Patches and
// streams are the JS twins of Python's `diff` and `stream` (leyline_widget/replay_widget.py).

/** @typedef {import("./types").Book} Book */
/** @typedef {import("./types").Line} Line */
/** @typedef {import("./types").LineEntry} LineEntry */
/** @typedef {import("./types").Model} Model */
/** @typedef {import("./types").Patch} Patch */

/**
 * A copy of `base` with the changes [[path, value], ...] applied (Python's `diff`).
 * @template T
 * @param {T} base
 * @param {Patch | undefined} changes
 * @returns {T}
 */
export function applyPatch(base, changes) {
  /**
   * @param {unknown} v
   * @returns {any}
   */
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

/**
 * Every value of a stream {base, patches} (Python's `stream`).
 * @template T
 * @param {import("./types").Stream<T>} data
 * @returns {T[]}
 */
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
 * @param {Book} book
 * @returns {Model}
 */
export function bookModel(book) {
  const lines = book.lines || [];
  const byId = new Map(lines.map((l) => [l.id, l]));
  /**
   * A line the book holds (every id asked for is one: derive keeps the last valid choice).
   * @param {number} id
   */
  const lineOf = (id) => /** @type {Line} */ (byId.get(id));
  /** @type {Map<string, Set<() => void>>} */
  const handlers = new Map();
  /** @type {Map<string, unknown>} */
  const cache = new Map();
  /**
   * @param {number | null | undefined} viewer
   */
  const key = (viewer) => (viewer === null || viewer === undefined ? "all" : String(viewer));
  /**
   * @param {string} k
   * @param {() => any} make
   * @returns {any}
   */
  const memo = (k, make) => {
    if (!cache.has(k)) cache.set(k, make());
    return cache.get(k);
  };
  /**
   * @param {number} id
   * @returns {Line[]}
   */
  const chainOf = (id) => {
    /** @type {Line[]} */
    const out = [];
    for (let line = byId.get(id); line; line = line.parent === null ? undefined : byId.get(line.parent)) out.unshift(line);
    return out;
  };
  /**
   * The line whose own frames hold `step` of line `id` (a variation's first steps are its parent's).
   * @param {number} id
   * @param {number} step
   * @returns {Line}
   */
  const owner = (id, step) => {
    let line = lineOf(id);
    while (line.parent !== null && step <= line.start) line = lineOf(line.parent);
    return line;
  };
  /**
   * @param {string} vk
   * @param {number} id
   * @returns {import("./types").View[]}
   */
  const frames = (vk, id) => memo(`f/${vk}/${id}`, () => decodeStream(book.frames[vk][id]));
  /**
   * @param {string} vk
   * @param {number} id
   * @returns {LineEntry[]}
   */
  const ownEntries = (vk, id) => memo(`e/${vk}/${id}`, () => {
    const data = book.entries[vk][id];
    return data.of ? applyPatch(ownEntries(data.of, id), data.patches) : data.base;
  });
  /**
   * @param {string} vk
   * @param {number} id
   * @returns {LineEntry[]}
   */
  const lineEntries = (vk, id) => memo(`l/${vk}/${id}`, () => {
    const chain = chainOf(id);
    /** @type {LineEntry[]} */
    const out = [];
    chain.forEach((line, i) => {
      const own = ownEntries(vk, line.id);
      const first = line.parent === null ? 0 : line.start + 1;
      const stop = i + 1 < chain.length ? chain[i + 1].start : line.end;
      for (let s = first; s <= stop; s++) out.push(own[s - first]);
    });
    return out;
  });
  /**
   * @param {number} id
   * @param {number} step
   */
  const memoryAt = (id, step) => {
    const memory = book.memory;
    if (!memory) return {};
    const line = owner(id, step);
    return memo(`m/${line.id}`, () => decodeStream(memory.lines[line.id]))[step - line.start];
  };
  /** @type {Record<string, any>} the traits a ReplayWidget would sync */
  const state = {
    mode: "replay", info: book.info || {}, viewers: book.viewers || [], lines,
    hide_tags: book.hide_tags || [], reveal_ms: book.reveal_ms === undefined ? 1500 : book.reveal_ms,
    editable: false, error: "", ack: 0, events: { seq: 0, step: 0, items: [] },
    memory_choices: book.memory ? [book.memory.player] : [],
    show_memory_of: book.memory ? book.memory.player : null,
    step: book.start.step, variation: book.start.variation, viewer: book.start.viewer,
    downloads: book.downloads || {}, allow_explore: false, explore: false, choices: [], train: null,
  };
  const good = { ...state };

  function derive() {
    // Keep the last valid choice for anything the book cannot show.
    if (!byId.has(state.variation)) state.variation = good.variation;
    if (!state.viewers.includes(state.viewer)) state.viewer = good.viewer;
    if (state.show_memory_of !== null && !state.memory_choices.includes(state.show_memory_of)) {
      state.show_memory_of = good.show_memory_of;
    }
    const line = lineOf(state.variation);
    const step = Number(state.step);
    state.step = Number.isInteger(step) ? Math.max(0, Math.min(line.end, step)) : good.step;
    const vk = key(state.viewer);
    const at = owner(line.id, state.step);
    state.view = frames(vk, at.id)[state.step - at.start];
    state.legal = { step: state.step, actor: null, variation: line.id };
    state.line = lineEntries(vk, line.id);
    state.annotations = (book.notes || {})[line.id] || [];
    state.glyphs = (book.glyphs || {})[line.id] || {};
    state.scores = (book.scores || {})[line.id] || [];
    // A player's view shows that seat's review alone (a teacher's book holds every seat's).
    // The same list object while the line and viewer stay: the page keys its drawing by it.
    state.analyses = memo(`a/${vk}/${line.id}`, () =>
      ((book.analyses || {})[line.id] || []).filter((a) => state.viewer === null || a.player === state.viewer));
    state.memory = state.viewer === null && state.show_memory_of !== null ? memoryAt(line.id, state.step) : {};
    for (const k of ["variation", "viewer", "step", "show_memory_of"]) good[k] = state[k];
  }

  /**
   * @param {string[]} keys
   */
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
      const keys = [...dirty, "view", "legal", "line", "annotations", "memory", "glyphs", "scores", "analyses"];
      dirty.clear();
      fire(keys);
    },
    send() {}, // no kernel: nothing listens
    on(name, cb) {
      const set = handlers.get(name) || new Set();
      handlers.set(name, set);
      set.add(cb);
    },
    off(name, cb) {
      const set = handlers.get(name);
      if (set) set.delete(cb);
    },
  };
}

