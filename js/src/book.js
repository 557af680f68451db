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
 * What a book's look-ups share: the book, its lines by id, and the positions decoded so far
 * (each stream is decoded once, when first asked for).
 * @typedef {object} Shelf
 * @property {Book} book
 * @property {Map<number, Line>} byId
 * @property {Map<string, unknown>} cache
 */

/**
 * @param {Book} book
 * @returns {Shelf}
 */
export function shelfOf(book) {
  return { book, byId: new Map((book.lines || []).map((l) => [l.id, l])), cache: new Map() };
}

/**
 * The value kept under `k`, made once.
 * @param {Shelf} shelf
 * @param {string} k
 * @param {() => any} make
 * @returns {any}
 */
function memo(shelf, k, make) {
  if (!shelf.cache.has(k)) shelf.cache.set(k, make());
  return shelf.cache.get(k);
}

/**
 * A line the book holds (every id asked for is one: deriveBook keeps the last valid choice).
 * @param {Shelf} shelf
 * @param {number} id
 * @returns {Line}
 */
function lineOf(shelf, id) {
  return /** @type {Line} */ (shelf.byId.get(id));
}

/**
 * The book's key for a viewer: a seat's number, or "all" for the all-seeing view.
 * @param {number | null | undefined} viewer
 * @returns {string}
 */
export function viewerKey(viewer) {
  return viewer === null || viewer === undefined ? "all" : String(viewer);
}

/**
 * Line `id` and its ancestors, the main line first.
 * @param {Shelf} shelf
 * @param {number} id
 * @returns {Line[]}
 */
export function chainOf(shelf, id) {
  /** @type {Line[]} */
  const out = [];
  for (let line = shelf.byId.get(id); line; line = line.parent === null ? undefined : shelf.byId.get(line.parent)) out.unshift(line);
  return out;
}

/**
 * The line whose own frames hold `step` of line `id` (a variation's first steps are its parent's).
 * @param {Shelf} shelf
 * @param {number} id
 * @param {number} step
 * @returns {Line}
 */
export function ownerOf(shelf, id, step) {
  let line = lineOf(shelf, id);
  while (line.parent !== null && step <= line.start) line = lineOf(shelf, line.parent);
  return line;
}

/**
 * The positions of line `id`'s own steps as viewer `vk` saw them.
 * @param {Shelf} shelf
 * @param {string} vk
 * @param {number} id
 * @returns {import("./types").View[]}
 */
function frames(shelf, vk, id) {
  return memo(shelf, `f/${vk}/${id}`, () => decodeStream(shelf.book.frames[vk][id]));
}

/**
 * Line `id`'s own entries (steps) as viewer `vk` saw them; a viewer's may be a patch of another's.
 * @param {Shelf} shelf
 * @param {string} vk
 * @param {number} id
 * @returns {LineEntry[]}
 */
function ownEntries(shelf, vk, id) {
  return memo(shelf, `e/${vk}/${id}`, () => {
    const data = shelf.book.entries[vk][id];
    return data.of ? applyPatch(ownEntries(shelf, data.of, id), data.patches) : data.base;
  });
}

/**
 * Every entry of line `id` from the set-up on, its ancestors' steps first.
 * @param {Shelf} shelf
 * @param {string} vk
 * @param {number} id
 * @returns {LineEntry[]}
 */
export function lineEntries(shelf, vk, id) {
  return memo(shelf, `l/${vk}/${id}`, () => {
    const chain = chainOf(shelf, id);
    /** @type {LineEntry[]} */
    const out = [];
    chain.forEach((line, i) => {
      const own = ownEntries(shelf, vk, line.id);
      const first = line.parent === null ? 0 : line.start + 1;
      const stop = i + 1 < chain.length ? chain[i + 1].start : line.end;
      for (let s = first; s <= stop; s++) out.push(own[s - first]);
    });
    return out;
  });
}

/**
 * The memory panel's report at `step` of line `id` (empty when the book holds none).
 * @param {Shelf} shelf
 * @param {number} id
 * @param {number} step
 */
function memoryAt(shelf, id, step) {
  const memory = shelf.book.memory;
  if (!memory) return {};
  const line = ownerOf(shelf, id, step);
  return memo(shelf, `m/${line.id}`, () => decodeStream(memory.lines[line.id]))[step - line.start];
}

/**
 * The traits a ReplayWidget would sync, at the book's start (before deriveBook fills the position).
 * @param {Book} book
 * @returns {Record<string, any>}
 */
export function bookState(book) {
  return {
    mode: "replay", info: book.info || {}, viewers: book.viewers || [], lines: book.lines || [],
    hide_tags: book.hide_tags || [], reveal_ms: book.reveal_ms === undefined ? 1500 : book.reveal_ms,
    editable: false, error: "", ack: 0, events: { seq: 0, step: 0, items: [] },
    memory_choices: book.memory ? [book.memory.player] : [],
    show_memory_of: book.memory ? book.memory.player : null,
    step: book.start.step, variation: book.start.variation, viewer: book.start.viewer,
    downloads: book.downloads || {}, allow_explore: false, explore: false, choices: [], train: null,
  };
}

/**
 * Fill `state` with the position of its step, line and viewer, as the kernel would. Anything
 * the book cannot show (another viewer, a step past the end, an unknown line) falls back to
 * `good`, the last valid choice, which then records the new one.
 * @param {Shelf} shelf
 * @param {Record<string, any>} state
 * @param {Record<string, any>} good
 */
export function deriveBook(shelf, state, good) {
  const { book } = shelf;
  if (!shelf.byId.has(state.variation)) state.variation = good.variation;
  if (!state.viewers.includes(state.viewer)) state.viewer = good.viewer;
  if (state.show_memory_of !== null && !state.memory_choices.includes(state.show_memory_of)) {
    state.show_memory_of = good.show_memory_of;
  }
  const line = lineOf(shelf, state.variation);
  const step = Number(state.step);
  state.step = Number.isInteger(step) ? Math.max(0, Math.min(line.end, step)) : good.step;
  const vk = viewerKey(state.viewer);
  const at = ownerOf(shelf, line.id, state.step);
  state.view = frames(shelf, vk, at.id)[state.step - at.start];
  state.legal = { step: state.step, actor: null, variation: line.id };
  state.line = lineEntries(shelf, vk, line.id);
  state.annotations = (book.notes || {})[line.id] || [];
  state.glyphs = (book.glyphs || {})[line.id] || {};
  state.scores = (book.scores || {})[line.id] || [];
  // A player's view shows that seat's review alone (a teacher's book holds every seat's).
  // The same list object while the line and viewer stay: the page keys its drawing by it.
  state.analyses = memo(shelf, `a/${vk}/${line.id}`, () =>
    ((book.analyses || {})[line.id] || []).filter((a) => state.viewer === null || a.player === state.viewer));
  state.memory = state.viewer === null && state.show_memory_of !== null ? memoryAt(shelf, line.id, state.step) : {};
  for (const k of ["variation", "viewer", "step", "show_memory_of"]) good[k] = state[k];
}

/** The traits a step, line or viewer change may change (fired after every save). */
const DERIVED = ["view", "legal", "line", "annotations", "memory", "glyphs", "scores", "analyses"];

/**
 * The model of a standalone replay page: the anywidget model API (get, set, save_changes, on,
 * off, send) over a book that Replay.to_html precomputed. Asked for a step, line or viewer, it
 * looks the position up; what the book does not hold (another viewer, a step past the end) it
 * refuses by keeping the last valid choice. Notes are read-only here.
 * @param {Book} book
 * @returns {Model}
 */
export function bookModel(book) {
  const shelf = shelfOf(book);
  const state = bookState(book);
  const good = { ...state };
  /** @type {Map<string, Set<() => void>>} */
  const handlers = new Map();
  const fire = (/** @type {string} */ name) => (handlers.get(name) || new Set()).forEach((cb) => cb());
  deriveBook(shelf, state, good);
  const dirty = new Set();
  return {
    get: (k) => state[k],
    set(k, v) {
      state[k] = v;
      dirty.add(k);
    },
    save_changes() {
      deriveBook(shelf, state, good);
      const keys = [...dirty, ...DERIVED];
      dirty.clear();
      for (const k of keys) fire(`change:${k}`);
      fire("change");
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
