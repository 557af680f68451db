// Leyline front-end: anywidget loads the bundle of these modules (js/build.mjs writes it to
// leyline_widget/widgets/static/widget.js) from a Blob URL, so the bundle imports nothing. It
// renders from synced state alone and never decides a rule: what is clickable comes from
// `legal` (the kernel's summary of game.legal_actions()), and every click goes to the kernel,
// which applies it or answers with an error in words.
//
// Modules: looks (element colours and symbols), words (sentences), dom (h, morph, listen),
// board (the play board, pure), memory (the teacher's memory panel), mount (the lifecycle every
// mode shares), play, lesson and replay (the modes), book (the standalone replay page's model).
import { lessonMode } from "./lesson.js";
import { watchKernel } from "./lost.js";
import { playMode } from "./play.js";
import { replayMode } from "./replay.js";
import { studyPage as mountStudy } from "./studio.js";

// The standalone replay page (replay_widget.py's _BOOT) renders over `bookModel(book)`.
export { bookModel } from "./book.js";

/** Front-end modes by the `mode` trait. @type {Record<string, import("./types").Mode>} */
export const MODES = { play: playMode, lesson: lessonMode, replay: replayMode };

/** @param {import("./types").RenderProps} props */
function render({ model, el }) {
  const mode = model.get("mode");
  const impl = MODES[mode] || MODES.play;
  const cleanup = impl({ model, el });
  const unwatch = watchKernel(model, el); // a board without its kernel says so
  return () => {
    unwatch();
    if (typeof cleanup === "function") cleanup();
  };
}

/**
 * The standalone study page (export.py's _BOOT): a chapter menu over replay pages.
 * @param {Parameters<typeof mountStudy>[0]} data
 * @param {HTMLElement} root
 */
export function studyPage(data, root) {
  mountStudy(data, root, render);
}

export default { render };
