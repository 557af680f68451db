// The coach in the replay studio: verdict badges for the move list, the evaluation graph (the
// analysed seat's expected final score margin per decision), the "Best was" panel of the shown
// step, and the Analyse button with its progress bar (Jupyter only: a standalone page carries
// its analyses in the book and runs nothing). Reviews are per seat; the kernel and the book
// already filter them to what the viewer may see (a player sees only its own seat's review).
// Reason text is data: it only ever becomes a text node.
import { h, idOf, lazy, svg } from "./dom.js";
import { describeAction, playerName } from "./words.js";

/** @typedef {import("./types").ReplayState} ReplayState */
/** @typedef {import("./types").AnalysisMove} AnalysisMove */

/** The verdicts that earn a mark in the move list, with their sign (as Lichess shows them). */
export const VERDICT_MARKS = /** @type {Record<string, string>} */ ({ inaccuracy: "?!", mistake: "?", blunder: "??" });
/** Colours of the verdict marks and graph points (colour-blind safe, and each also has its sign). */
const VERDICT_COLOURS = /** @type {Record<string, string>} */ ({
  best: "#009e73", good: "#56b4e9", inaccuracy: "#e69f00", mistake: "#d55e00", blunder: "#cc0000",
});
const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];

/**
 * The reviewed moves of the shown line by step (the step a move led to), with their seat.
 * @param {ReplayState} st
 * @returns {Map<number, AnalysisMove & {player: number}>}
 */
export function reviewedMoves(st) {
  /** @type {Map<number, AnalysisMove & {player: number}>} */
  const out = new Map();
  const upto = st.train === null || st.train === undefined ? Infinity : st.step;
  for (const a of st.analyses || []) {
    for (const m of a.moves || []) if (m.step <= upto) out.set(m.step, { ...m, player: a.player });
  }
  return out;
}

/**
 * The mark of a reviewed move in the move list: a coloured badge with the verdict's sign,
 * named for screen readers ("mistake"); distinct from the author's glyphs (`.ll-glyph`).
 * @param {Document} doc
 * @param {string} verdict
 * @returns {HTMLElement | null}
 */
export function verdictBadge(doc, verdict) {
  const mark = VERDICT_MARKS[verdict];
  if (!mark) return null;
  return h(doc, "span", {
    class: `ll-verdict ll-verdict-${verdict}`, role: "img", "aria-label": verdict, title: `Coach: ${verdict}`,
    style: `background:${VERDICT_COLOURS[verdict]}`,
  }, mark);
}

/**
 * @param {number} v
 * @returns {string}
 */
const signed = (v) => `${v > 0 ? "+" : ""}${v.toFixed(1)}`;

/**
 * The coach's word on the move that led to the shown step: verdict, "Best was: <move>" and the
 * reason, with the expected margins; null when the step was not reviewed.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {number} shown
 * @returns {HTMLElement | null}
 */
export function coachPanel(doc, st, shown) {
  const m = reviewedMoves(st).get(shown);
  const tools = analyseBar(doc, st);
  if (!m && !tools) return null;
  /** @type {(HTMLElement | string | null)[]} */
  const body = [];
  if (m) {
    const who = playerName(st.info, m.player);
    const same = JSON.stringify(m.best) === JSON.stringify(m.played);
    body.push(h(doc, "p", { class: "ll-coachverdict" }, verdictBadge(doc, m.verdict), ` ${who}: ${describeAction(m.played, st.info)}: ${m.verdict}` +
      (m.loss > 0.005 ? ` (${m.loss.toFixed(1)} cards of expected margin lost)` : "") + "."));
    if (!same) {
      const marked = (m.best_slots || []).length ? " (marked on the board)" : "";
      body.push(h(doc, "p", { class: "ll-coachbest" }, `Best was: ${describeAction(m.best, st.info)}${marked}.`));
    }
    body.push(h(doc, "p", { class: "ll-coachreason" }, m.reason));
    // The kernel plays the line as a variation; a standalone page has no kernel to ask.
    if (!same && st.analysis_progress && (m.best_line || []).length && (st.train === null || st.train === undefined)) {
      body.push(h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "show-line" }, "Show the line"));
    }
    if (typeof m.best_value === "number" && typeof m.played_value === "number") {
      body.push(h(doc, "p", { class: "ll-note" }, `Expected final margin: ${signed(m.played_value)} played, ${signed(m.best_value)} best.`));
    }
  } else if ((st.analyses || []).length) {
    body.push(h(doc, "p", { class: "ll-note" }, shown ? `The coach did not review move ${shown} (not a decision of an analysed seat).` : "Step through the game to see the coach's word on each decision."));
  }
  return h(doc, "section", { class: "ll-coach", "aria-label": "The coach" },
    h(doc, "div", { class: "ll-h" }, shown ? `Coach on move ${shown}` : "Coach"), body, tools);
}

/**
 * The slots "Best was" marks on the board at the shown step: the best plan's cards of the
 * reviewed move that led there, when it was not the move played.
 * @param {ReplayState} st
 * @param {number} shown
 * @returns {number[]}
 */
export function bestSlots(st, shown) {
  const m = reviewedMoves(st).get(shown);
  if (!m || JSON.stringify(m.best) === JSON.stringify(m.played)) return [];
  return (m.best_slots || []).filter((s) => Number.isInteger(s));
}

/**
 * Puzzles from a review: find a better move than the seat's mistake, the answer with the
 * coach's reason once it is given, and the count of puzzles solved. Null outside puzzle mode.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {(doc: Document, st: ReplayState, verb: string) => HTMLElement | null} menu the move menu
 * @returns {HTMLElement | null}
 */
export function puzzlePanel(doc, st, menu) {
  const p = st.puzzle;
  if (!p || p.total === undefined) return null;
  const seat = playerName(st.info, Number(p.seat));
  const total = Number(p.total) || 0;
  const index = Number(p.index) || 0;
  const last = p.last;
  /** @type {(HTMLElement | null)[]} */
  const body = [h(doc, "p", { class: "ll-trainscore", "data-solved": p.solved, "data-answered": p.answered },
    `Solved: ${p.solved} of ${p.answered} answered (${total} in all)`)];
  if (!total) body.push(h(doc, "p", { class: "ll-note" }, `No mistakes or blunders of ${seat}'s to set as puzzles.`));
  else if (!p.done) {
    body.push(h(doc, "p", { class: "ll-note" }, `Move ${p.move}: ${seat} played a ${p.verdict} here. Find a better move (within 0.3 cards of the best solves it).`));
    body.push(menu(doc, st, "Try this move"));
  } else if (last) {
    body.push(h(doc, "p", { class: `ll-trainlast ${last.solved ? "ll-right" : "ll-wrong"}` },
      last.solved ? `✓ Solved: ${describeAction(last.guess, st.info)} is within 0.3 cards of the best.`
        : `✗ Not this one: ${describeAction(last.guess, st.info)} gives up ${last.loss.toFixed(1)} cards.`));
    body.push(h(doc, "p", { class: "ll-coachbest" }, `Best was: ${describeAction(last.best, st.info)}. ${seat} played: ${describeAction(last.played, st.info)}.`));
    body.push(h(doc, "p", { class: "ll-coachreason" }, last.reason));
    body.push(index + 1 < total ? h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "puzzle-next" }, "Next puzzle")
      : h(doc, "p", { class: "ll-note" }, `All ${total} puzzles answered.`));
  }
  return h(doc, "section", { class: "ll-train ll-puzzles", "aria-label": "Puzzles" },
    h(doc, "div", { class: "ll-h" }, `Find a better move: puzzle ${Math.min(index + 1, total)} of ${total}`), body);
}

/**
 * The Analyse button (in Jupyter: the kernel runs the coach) and its progress bar. A player's
 * page analyses its own seat; the teacher picks one. Null on a standalone page or in training.
 * @param {Document} doc
 * @param {ReplayState} st
 * @returns {HTMLElement | null}
 */
export function analyseBar(doc, st) {
  const p = st.analysis_progress;
  if (!p || (st.train !== null && st.train !== undefined)) return null;
  const seats = st.viewer === null ? (st.viewers || []).filter((v) => v !== null) : [st.viewer];
  const running = !!p.running;
  const total = Number(p.total) || 0;
  const done = Number(p.done) || 0;
  return h(doc, "div", { class: "ll-analyse", role: "group", "aria-label": "Analyse with the coach" },
    seats.length > 1 ? h(doc, "select", { "data-act": "analyse-seat", "aria-label": "Seat to analyse" },
      seats.map((s) => h(doc, "option", { value: String(s), selected: s === p.seat }, playerName(st.info, /** @type {number} */ (s))))) : null,
    h(doc, "button", {
      type: "button", class: `ll-btn ll-small ll-primary${running ? " ll-pending" : ""}`, "data-act": "analyse",
      "aria-disabled": running ? "true" : null, "data-seat": seats.length === 1 ? String(seats[0]) : null,
    }, running ? "Analysing…" : seats.length === 1 ? `Analyse ${playerName(st.info, /** @type {number} */ (seats[0]))}'s moves` : "Analyse"),
    running || total ? h(doc, "progress", {
      class: "ll-analyseprogress", max: Math.max(1, total), value: done, "aria-label": "Analysis progress",
    }) : null,
    running || total ? h(doc, "span", { class: "ll-note" }, ` ${done} / ${total} decisions${running ? "" : p.cancelled ? " (cancelled)" : " analysed"}`) : null,
    running ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "analyse-cancel" }, "Cancel") : null,
    running ? null : puzzleButtons(doc, st, seats),
    p.error ? h(doc, "span", { class: "ll-error", role: "alert" }, ` ${p.error}`) : null);
}

/**
 * "Puzzles from <seat>'s mistakes", one per seat the page may analyse whose review has a
 * mistake or a blunder: the kernel turns the studio into that seat's puzzles.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {(number | null)[]} seats
 * @returns {HTMLElement[]}
 */
function puzzleButtons(doc, st, seats) {
  return (st.analyses || [])
    .filter((a) => seats.includes(a.player) && (a.moves || []).some((m) => m.verdict === "mistake" || m.verdict === "blunder"))
    .map((a) => h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "puzzles", "data-seat": String(a.player) },
      `Puzzles from ${playerName(st.info, a.player)}'s mistakes`));
}

/**
 * The page's next request in a stepped analysis (a kernel that cannot start threads, such as
 * Pyodide's): one decision per message, named by run and progress so that a request sent twice
 * (two views of one widget) or late is answered once. Null when no stepped analysis is running.
 * @param {ReplayState} st
 * @returns {{type: "analyse_step", run: number, done: number} | null}
 */
export function analyseStep(st) {
  const p = st.analysis_progress;
  if (!p || !p.running || !p.stepped) return null;
  return { type: "analyse_step", run: Number(p.run), done: Number(p.done) };
}

/**
 * The evaluation graph: per analysed seat, its expected final score margin after each reviewed
 * decision (the move played), a point per decision coloured by verdict (a click on a point goes
 * to that step; a click elsewhere seeks by position, as the score graph does), a zero line, and
 * a tick down to the best option's value where the move lost some. The curves are keyed by
 * their data: a seek moves the marker only.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {number} shown
 * @returns {HTMLElement | null} (its curves a `lazy` stand-in: read it after dom.js `whole`)
 */
export function evalGraph(doc, st, shown) {
  const analyses = (st.analyses || []).filter((a) => (a.moves || []).some((m) => typeof m.played_value === "number"));
  const last = Math.max(1, (st.line || []).length - 1);
  if (!analyses.length) return null;
  const W = 600;
  const H = 90;
  const upto = st.train === null || st.train === undefined ? last : shown;
  const x = (/** @type {number} */ k) => (k / last) * W;
  const key = ["evals", idOf(st.analyses), last, upto].join("/");
  const curves = lazy(doc, key, () => svg(doc, "g", { class: "ll-gcurves" },
    ...evalCurves(doc, analyses, upto, x, W, H)));
  const now = svg(doc, "line", { x1: x(shown).toFixed(1), x2: x(shown).toFixed(1), y1: 0, y2: H, class: "ll-gnow", stroke: "currentColor", "stroke-dasharray": "3 2" });
  const box = h(doc, "div", {
    class: "ll-graph ll-evalgraph", "data-act": "graph", "data-last": last, role: "slider", tabindex: -1,
    "aria-label": "Evaluation graph: click to go to that step", "aria-valuemin": 0, "aria-valuemax": last, "aria-valuenow": shown,
  });
  box.append(svg(doc, "svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", width: "100%", height: H }, curves, now));
  const legend = h(doc, "div", { class: "ll-glegend" }, analyses.map((a) => h(doc, "span", { class: "ll-glegenditem" },
    h(doc, "span", { class: "ll-gswatch", style: `background:${SEAT_COLOURS[a.player % 4]}` }),
    ` ${playerName(st.info, a.player)}: expected final margin (own score minus the best opponent's)`)));
  return h(doc, "section", { class: "ll-evals", "aria-label": "The coach's evaluation over the game" },
    h(doc, "div", { class: "ll-h" }, "Evaluation"), box, legend);
}

/**
 * The evaluation graph's zero line, curves, loss ticks and points up to step `upto`.
 * @param {Document} doc
 * @param {import("./types").Analysis[]} analyses the reviews with values
 * @param {number} upto
 * @param {(k: number) => number} x
 * @param {number} W
 * @param {number} H
 * @returns {Element[]}
 */
function evalCurves(doc, analyses, upto, x, W, H) {
  const values = analyses.flatMap((a) => a.moves.flatMap((m) => [m.played_value, m.best_value]))
    .filter((v) => typeof v === "number");
  const span = Math.max(1, ...values.map((v) => Math.abs(/** @type {number} */ (v))));
  const y = (/** @type {number} */ v) => H / 2 - (v / span) * (H / 2 - 6);
  /** @type {Element[]} */
  const parts = [svg(doc, "line", { x1: 0, x2: W, y1: y(0).toFixed(1), y2: y(0).toFixed(1), class: "ll-gzero", stroke: "#999", "stroke-width": 1 })];
  for (const a of analyses) {
    const moves = a.moves.filter((m) => typeof m.played_value === "number" && m.step <= upto);
    const colour = SEAT_COLOURS[a.player % 4];
    parts.push(svg(doc, "polyline", {
      points: moves.map((m) => `${x(m.step).toFixed(1)},${y(/** @type {number} */ (m.played_value)).toFixed(1)}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 1.5, class: `ll-geval ll-geval${a.player}`,
    }));
    for (const m of moves) {
      const px = x(m.step).toFixed(1);
      if (typeof m.best_value === "number" && m.loss > 0.005) {
        parts.push(svg(doc, "line", { x1: px, x2: px, y1: y(m.best_value).toFixed(1), y2: y(/** @type {number} */ (m.played_value)).toFixed(1), stroke: VERDICT_COLOURS[m.verdict], "stroke-width": 1, class: "ll-gloss" }));
      }
      parts.push(svg(doc, "circle", {
        cx: px, cy: y(/** @type {number} */ (m.played_value)).toFixed(1), r: VERDICT_MARKS[m.verdict] ? 4 : 2.5,
        fill: VERDICT_COLOURS[m.verdict] || colour, class: `ll-gpoint ll-verdict-${m.verdict}`, "data-act": "goto", "data-step": m.step,
      }, svg(doc, "title", {}, `Move ${m.step}: ${m.verdict}, margin ${signed(/** @type {number} */ (m.played_value))}`)));
    }
  }
  return parts;
}
