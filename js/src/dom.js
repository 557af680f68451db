// DOM helpers: build a tree (h), update the page in place from a fresh tree (morph), and
// listen to a node's events with one function to undo it (listen).

/**
 * Build an element: h(doc, "div", {class: "x", "aria-label": "y"}, child, "text", ...).
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...unknown} children nodes, text, null/false (skipped), or arrays of them
 * @returns {HTMLElement}
 */
export function h(doc, tag, attrs, ...children) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "object" ? /** @type {Node} */ (child) : doc.createTextNode(String(child)));
  }
  return node;
}

/** The attribute of a subtree's paint key (`lazy`, `morph`). */
export const PAINT_KEY = "data-paint-key";

/**
 * The builders of stand-ins made by `lazy`: a stand-in left in a fresh tree is built only
 * when `morph` finds no page node of its key in its place.
 * @type {WeakMap<Element, () => Element>}
 */
const deferred = new WeakMap();

/**
 * A subtree built only when the page does not already show it in this place: returns an
 * empty stand-in carrying `key` (a paint key) that `morph` skips where the page's node has
 * the same key, and builds with `build()` anywhere else (a new place, a shifted sibling, a
 * first paint), so a stale or missing copy can never stay. The fresh tree is only for
 * `morph`: read it after `whole`. The key must cover everything the subtree shows.
 * @param {Document} doc
 * @param {string} key
 * @param {() => Element} build
 * @returns {Element}
 */
export function lazy(doc, key, build) {
  const stub = doc.createElement("template");
  stub.setAttribute(PAINT_KEY, key);
  deferred.set(stub, () => {
    const node = build();
    node.setAttribute(PAINT_KEY, key);
    return node;
  });
  return stub;
}

/**
 * `node` with every `lazy` stand-in in it (itself included) built: what goes into the page
 * whole, with no page copy to keep.
 * @template {Node} T
 * @param {T} node
 * @returns {T}
 */
export function whole(node) {
  if (node.nodeType !== 1) return node;
  const el = /** @type {Element} */ (/** @type {unknown} */ (node));
  const own = deferred.get(el);
  if (own) return /** @type {T} */ (/** @type {unknown} */ (whole(own())));
  for (const stub of Array.from(el.querySelectorAll(`template[${PAINT_KEY}]`))) {
    const build = deferred.get(stub);
    if (build) stub.replaceWith(whole(build()));
  }
  return node;
}

/**
 * A short digest of a text for paint keys (53-bit, cyrb53): keys of long texts stay short
 * on the page, and two different texts practically never share one.
 * @param {string} text
 * @returns {string}
 */
export function digest(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** @type {WeakMap<object, number>} */
const ids = new WeakMap();
let nextId = 1;

/**
 * A short id of a value for paint keys: an object's identity (a model hands out the same
 * object until the value changes, so a key costs O(1), not a walk of a 2,000-step line), an
 * empty object or array "0", anything else its text.
 * @param {unknown} value
 * @returns {string}
 */
export function idOf(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "u";
  if (Array.isArray(value) ? !value.length : isEmpty(value)) return "0";
  let id = ids.get(value);
  if (id === undefined) {
    id = nextId++;
    ids.set(value, id);
  }
  return `#${id}`;
}

/**
 * @param {object} value
 * @returns {boolean}
 */
function isEmpty(value) {
  for (const _ in value) return false; // eslint-disable-line no-unreachable-loop
  return true;
}

/**
 * Whether the page's node already is the fresh one: the browser compares whole subtrees in
 * native code, much faster than walking them here (most of a repaint is unchanged). A menu's
 * live choice is not in its markup, so a subtree with one is always walked (morph sets it).
 * @param {ChildNode} cur
 * @param {ChildNode} next
 * @returns {boolean}
 */
function unchanged(cur, next) {
  if (!cur.isEqualNode(next)) return false;
  if (cur.nodeType !== 1) return true;
  const el = /** @type {Element} */ (/** @type {Node} */ (cur));
  return el.nodeName !== "SELECT" && !el.querySelector("select");
}

/**
 * Make `cur` look like `next` in place: same nodes kept where the tag matches, so focus,
 * hover and scroll survive an update and nothing flickers. Returns the node now in the tree.
 * @template {ChildNode} T
 * @param {T} cur
 * @param {T} next
 * @returns {T}
 */
export function morph(cur, next) {
  if (cur.nodeType === 1 && next.nodeType === 1) {
    // A subtree whose builder vouches it is unchanged (the same paint key, see `lazy`) is
    // left as it is: a replay's move list and graphs, or a board's unchanged
    // cards, cost nothing to repaint. (Its own attribute: data-key names other things, such
    // as a power button's power.)
    const key = /** @type {Element} */ (/** @type {Node} */ (next)).getAttribute(PAINT_KEY);
    if (key !== null && /** @type {Element} */ (/** @type {Node} */ (cur)).getAttribute(PAINT_KEY) === key) return cur;
    const build = deferred.get(/** @type {Element} */ (/** @type {Node} */ (next)));
    if (build) next = /** @type {T} */ (/** @type {unknown} */ (build())); // no copy here: build it
  }
  if (cur.nodeType !== next.nodeType || cur.nodeName !== next.nodeName) {
    const fresh = whole(next);
    cur.replaceWith(fresh);
    return fresh;
  }
  if (cur.nodeType !== 1) {
    if (cur.nodeValue !== next.nodeValue) cur.nodeValue = next.nodeValue;
    return cur;
  }
  const from = /** @type {Element} */ (/** @type {Node} */ (cur));
  const to = /** @type {Element} */ (/** @type {Node} */ (next));
  // Names, not Attr nodes: every Attr read from `attributes` is a new wrapper object, and a
  // repaint compares the attributes of every element it walks.
  for (const name of from.getAttributeNames()) {
    if (!to.hasAttribute(name)) from.removeAttribute(name);
  }
  for (const name of to.getAttributeNames()) {
    const value = /** @type {string} */ (to.getAttribute(name));
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  }
  // Walked by sibling links (no arrays of the children): the next node is read before the
  // current one is morphed, which may replace it.
  let a = from.firstChild;
  let b = to.firstChild;
  while (b) {
    const nextB = b.nextSibling;
    if (!a) {
      from.appendChild(whole(b));
    } else {
      const nextA = a.nextSibling;
      if (!unchanged(a, b)) morph(a, b);
      a = nextA;
    }
    b = nextB;
  }
  while (a) {
    const nextA = a.nextSibling;
    a.remove();
    a = nextA;
  }
  if (from.nodeName === "SELECT") {
    const select = /** @type {HTMLSelectElement} */ (from);
    const chosen = Array.from(/** @type {HTMLSelectElement} */ (to).options || []).find((o) => o.hasAttribute("selected"));
    if (chosen && select.value !== chosen.value) select.value = chosen.value;
  }
  return cur;
}

/**
 * Listen to DOM events on `node` ({click: onClick, change: onChange, ...}); returns the function
 * that removes them all again, for a mode's cleanup.
 * @param {Node} node
 * @param {Record<string, (event: any) => void>} handlers
 * @returns {() => void}
 */
export function listen(node, handlers) {
  const pairs = Object.entries(handlers);
  for (const [type, handler] of pairs) node.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of pairs) node.removeEventListener(type, handler);
  };
}

/**
 * The SVG namespace, read off the parser (the bundle spells no URL: the offline pages hold none).
 * @param {Document} doc
 * @returns {string}
 */
function svgNamespace(doc) {
  const known = namespaces.get(doc);
  if (known !== undefined) return known;
  const box = doc.createElement("div");
  box.innerHTML = "<svg></svg>";
  const ns = /** @type {Element} */ (box.firstElementChild).namespaceURI || "";
  namespaces.set(doc, ns);
  return ns;
}

/** The SVG namespace per document, read once (svgNamespace). @type {WeakMap<Document, string>} */
const namespaces = new WeakMap();

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...(Element | string | null)} children
 * @returns {Element}
 */
export function svg(doc, tag, attrs, ...children) {
  const node = doc.createElementNS(svgNamespace(doc), tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c !== null) node.append(typeof c === "string" ? doc.createTextNode(c) : c);
  return node;
}
