// DOM helpers: build a tree (h), update the page in place from a fresh tree (morph), and
// listen to a node's events with one function to undo it (listen).

/** Build an element: h(doc, "div", {class: "x", "aria-label": "y"}, child, "text", ...). */
export function h(doc, tag, attrs, ...children) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "object" ? child : doc.createTextNode(String(child)));
  }
  return node;
}

/**
 * Make `cur` look like `next` in place: same nodes kept where the tag matches, so focus,
 * hover and scroll survive an update and nothing flickers. Returns the node now in the tree.
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
  for (const { name } of Array.from(cur.attributes)) {
    if (!next.hasAttribute(name)) cur.removeAttribute(name);
  }
  for (const { name, value } of Array.from(next.attributes)) {
    if (cur.getAttribute(name) !== value) cur.setAttribute(name, value);
  }
  const a = Array.from(cur.childNodes);
  const b = Array.from(next.childNodes);
  for (let i = 0; i < b.length; i++) {
    if (i < a.length) morph(a[i], b[i]);
    else cur.appendChild(b[i]);
  }
  for (let i = b.length; i < a.length; i++) a[i].remove();
  if (cur.nodeName === "SELECT") {
    const chosen = Array.from(next.options || []).find((o) => o.hasAttribute("selected"));
    if (chosen && cur.value !== chosen.value) cur.value = chosen.value;
  }
  return cur;
}

/**
 * Listen to DOM events on `node` ({click: onClick, change: onChange, ...}); returns the function
 * that removes them all again, for a mode's cleanup.
 */
export function listen(node, handlers) {
  const pairs = Object.entries(handlers);
  for (const [type, handler] of pairs) node.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of pairs) node.removeEventListener(type, handler);
  };
}
