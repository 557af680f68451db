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

/**
 * Make `cur` look like `next` in place: same nodes kept where the tag matches, so focus,
 * hover and scroll survive an update and nothing flickers. Returns the node now in the tree.
 * @template {ChildNode} T
 * @param {T} cur
 * @param {T} next
 * @returns {T}
 */
export function morph(cur, next) {
  if (cur.nodeType !== next.nodeType || cur.nodeName !== next.nodeName) {
    cur.replaceWith(next);
    return next;
  }
  if (cur.nodeType !== 1) {
    if (cur.nodeValue !== next.nodeValue) cur.nodeValue = next.nodeValue;
    return cur;
  }
  const from = /** @type {Element} */ (/** @type {Node} */ (cur));
  const to = /** @type {Element} */ (/** @type {Node} */ (next));
  // A subtree whose builder vouches it is unchanged (the same data-key) is left as it is:
  // long lists (a replay's moves) repaint in time proportional to what changed.
  const key = to.getAttribute("data-key");
  if (key !== null && from.getAttribute("data-key") === key) return cur;
  for (const { name } of Array.from(from.attributes)) {
    if (!to.hasAttribute(name)) from.removeAttribute(name);
  }
  for (const { name, value } of Array.from(to.attributes)) {
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  }
  const a = Array.from(from.childNodes);
  const b = Array.from(to.childNodes);
  for (let i = 0; i < b.length; i++) {
    if (i < a.length) morph(a[i], b[i]);
    else from.appendChild(b[i]);
  }
  for (let i = b.length; i < a.length; i++) a[i].remove();
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
  const box = doc.createElement("div");
  box.innerHTML = "<svg></svg>";
  return /** @type {Element} */ (box.firstElementChild).namespaceURI || "";
}

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
