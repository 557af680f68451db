// A board whose kernel has gone (restarted, shut down) must not look live. ipywidgets marks
// every model of the old kernel "comm_live = false" and fires `comm_live_update` on it; from then
// on nothing the page sends reaches a kernel. So the board is dimmed, takes no more clicks or
// keys, and says what happened and how to go on: a play board from its last saved move
// (`LeylineWidget.resume()`), any other board by running its cell again.

/** The class on `el` while the board has no kernel. */
export const LOST = "ll-kernel-lost";

/**
 * What the board says once its kernel has gone: the words, and the code that goes on (if any).
 * @param {string} mode the widget's mode ("play", "lesson", "replay")
 * @returns {{text: string, code: string}}
 */
export function lostText(mode) {
  if (mode === "play") {
    return {
      text: "This board has lost its kernel (it was restarted or stopped), so clicks no longer reach the game. " +
        "Its moves were saved as they were made (unless autosave=False); to go on from the last one, run in a cell:",
      code: "from leyline_widget import LeylineWidget; LeylineWidget.resume()",
    };
  }
  return { text: "This board has lost its kernel (it was restarted or stopped), so clicks no longer reach it. " +
    "Run its cell again.", code: "" };
}

/**
 * Watch `model` for the loss of its kernel and, when it goes, mark `el` (see LOST), put the
 * notice above the board and stop every click and key from reaching it. Returns the cleanup.
 * @param {import("./types").Model} model
 * @param {HTMLElement} el
 * @returns {() => void}
 */
export function watchKernel(model, el) {
  const doc = el.ownerDocument;
  /** @type {HTMLElement | null} */
  let note = null;
  /** @param {Event} event */
  const stop = (event) => {
    if (!el.classList.contains(LOST)) return;
    const target = /** @type {Node | null} */ (event.target);
    if (note && target && note.contains(target)) return;
    event.stopPropagation();
    event.preventDefault();
  };
  const kinds = ["click", "keydown", "keyup", "keypress", "pointerdown", "change"];
  for (const kind of kinds) el.addEventListener(kind, stop, true);
  const raw = /** @type {{comm_live?: unknown}} */ (/** @type {unknown} */ (model));
  function update() {
    // Older anywidget hands over the model itself (comm_live readable); newer ones a proxy
    // that only passes the event on, and the event fires only when the comm goes.
    const live = typeof raw.comm_live === "boolean" ? raw.comm_live : false;
    if (live) {
      el.classList.remove(LOST);
      if (note) note.remove();
      note = null;
      return;
    }
    el.classList.add(LOST);
    if (!note) {
      note = doc.createElement("div");
      note.className = "ll-lost-note";
      note.setAttribute("role", "alert");
      const { text, code } = lostText(model.get("mode"));
      note.textContent = text;
      if (code) {
        const line = doc.createElement("code");
        line.textContent = code;
        note.append(" ", line);
      }
      el.insertBefore(note, el.firstChild);
    }
  }
  model.on("comm_live_update", update);
  return () => {
    model.off("comm_live_update", update);
    for (const kind of kinds) el.removeEventListener(kind, stop, true);
    if (note) note.remove();
    el.classList.remove(LOST);
  };
}
