// The replay studio's panels (replay.js places them): the moves grouped by turn with the
// variation tree inline, the glyph bar, the score graph, the download bar, the explore and
// guess-the-move panels, and the study page (a chapter menu over replay pages). Pure builders
// from state, except `download` and `studyPage`, which touch the page. Names, notes and
// variation names are untrusted: they only ever become text nodes or attribute values.
import { bookModel } from "./book.js";
import { puzzlePanel, reviewedMoves, verdictBadge } from "./coach.js";
import { h, idOf, lazy, PAINT_KEY, svg } from "./dom.js";
import { describeAction, playerName, plural } from "./words.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").Info} Info */
/** @typedef {import("./types").Line} Line */
/** @typedef {import("./types").LineEntry} LineEntry */
/** @typedef {import("./types").ReplayState} ReplayState */
/** @typedef {import("./types").ReplayUi} ReplayUi */

/** The six glyphs of PGN and Lichess, best to worst, with their names. @type {[string, string][]} */
export const GLYPHS = [["!!", "brilliant"], ["!", "good"], ["!?", "interesting"], ["?!", "dubious"],
  ["?", "mistake"], ["??", "blunder"]];

/** Seat colours of the score graph (colour-blind safe; each line is also labelled). */
const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];

/**
 * @param {string | null | undefined} el
 * @returns {string}
 */
const cap = (el) => (el ? el.charAt(0).toUpperCase() + el.slice(1) : "");

/**
 * A step in a few words for the move list: "↑5 Water", "end", "Ripple 2, 7". The list shows
 * every step at once, so on a seat's page (`viewer` a seat) it names no activated or refilled
 * card's element: most of those cards lie face-down at the step shown, and the page must not
 * remember them for the player (the prompt names the shown step's card while it is face-up).
 * @param {LineEntry} entry
 * @param {Info} info
 * @param {number | null} [viewer]
 * @returns {string}
 */
export function shortStep(entry, info, viewer = null) {
  const a = entry.action;
  if (!a) return "set-up";
  const named = viewer === null || viewer === undefined;
  /** @param {string} type @param {string} [cause] */
  const ev = (type, cause) => (entry.events || []).find((e) => e.type === type && (!cause || e.cause === cause));
  switch (a.type) {
    case "activate": {
      const e = ev("activate");
      return `↑${a.slot}${named && e && e.element ? ` ${cap(e.element)}` : ""}`;
    }
    case "deactivate":
      return `↓${a.slot}`;
    case "refill": {
      const e = ev("reveal", "refill");
      return `+${a.slot}${named && e && e.element ? ` ${cap(e.element)}` : ""}`;
    }
    case "end_phase":
      return (entry.events || []).some((e) => e.type === "turn") ? "end turn" : "end phase";
    case "place_token":
      return `⊗${a.slot} ${cap(a.element)}${a.source === "supply" ? "" : ` (${a.source})`}`;
    case "use_power": {
      const key = `${a.element}:${a.tier}`;
      const pw = (info.powers || []).find((p) => p.key === key);
      const t = a.targets || [];
      return `${pw ? pw.name : key}${t.length ? ` ${t.join(", ")}` : ""}`;
    }
    default:
      return "?";
  }
}

/**
 * The steps of a line grouped by turn: [{turn, player, steps: [k, ...]}], set-up first.
 * @param {LineEntry[]} line
 * @returns {{turn: number, player: number, steps: number[]}[]}
 */
export function turnRows(line) {
  /** @type {{turn: number, player: number, steps: number[]}[]} */
  const rows = [];
  line.forEach((e, k) => {
    if (k === 0) {
      rows.push({ turn: 0, player: -1, steps: [0] });
      return;
    }
    const last = rows[rows.length - 1];
    if (last.turn === e.turn && last.player === e.player) last.steps.push(k);
    else rows.push({ turn: e.turn, player: e.player, steps: [k] });
  });
  return rows;
}

/**
 * @param {Line[]} lines
 * @param {number} id
 * @returns {Line[]} the lines from the main line down to `id`
 */
export function chainOf(lines, id) {
  /** @type {Line[]} */
  const out = [];
  for (let l = lines.find((x) => x.id === id); l; l = l.parent === null ? undefined : lines.find((x) => x.id === l.parent)) out.unshift(l);
  return out;
}

/**
 * @param {Line[]} lines
 * @param {Line} line
 * @returns {number}
 */
function depth(lines, line) {
  return chainOf(lines, line.id).length - 1;
}

/**
 * The variations that branch off the shown line after `step`: children of a line of the shown
 * chain at that step, other than the chain's own next line.
 * @param {ReplayState} st
 * @param {number} step
 * @returns {Line[]}
 */
function branchesAt(st, step) {
  const lines = st.lines || [];
  const chain = chainOf(lines, st.variation);
  const ids = new Set(chain.map((l) => l.id));
  return lines.filter((l) => l.parent !== null && l.start === step && !ids.has(l.id) && ids.has(l.parent));
}

/**
 * One variation in the tree: its name (click: show it), and promote / rename / delete.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @param {Line} l
 * @param {boolean} [own] the shown line itself (or one of its parents)
 */
function variationItem(doc, st, ui, l, own = false) {
  const d = depth(st.lines || [], l);
  const moves = l.end - l.start;
  const renaming = ui.renaming === l.id;
  const tools = st.editable ? h(doc, "span", { class: "ll-vartools" },
    h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-promote", "data-variation": l.id, title: "Make these moves the continuation of the line above" }, "Promote"),
    h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-rename", "data-variation": l.id }, "Rename"),
    h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-delete", "data-variation": l.id },
      ui.confirm === `var:${l.id}` ? "Really delete?" : "Delete")) : null;
  return h(doc, "li", { class: `ll-var ll-depth-${Math.min(d, 6)}${own ? " ll-varown" : ""}`, "data-variation": l.id },
    renaming ? h(doc, "span", { class: "ll-rename" },
      h(doc, "input", { type: "text", "data-act": "var-name", maxlength: 200, "aria-label": "New name of the variation", value: l.name }),
      h(doc, "button", { type: "button", class: "ll-btn ll-small ll-primary", "data-act": "var-name-save", "data-variation": l.id }, "Save"),
      h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-name-cancel" }, "Cancel"))
      : h(doc, "button", {
        type: "button", class: `ll-varname${l.id === st.variation ? " ll-current" : ""}`, "data-act": "line-go", "data-variation": l.id,
        "aria-current": l.id === st.variation ? "true" : null,
      }, `${"↳".repeat(Math.max(1, d))} ${l.name}`, h(doc, "span", { class: "ll-note" }, ` (after move ${l.start}, ${plural(moves, "move")})`)),
    renaming ? null : tools);
}

/**
 * The moves of the shown line, one row per turn (the seat, then its moves in short words, each
 * a button to that step, with its glyph), and the variation tree inline: each variation under
 * the move it branches from, indented by depth. The list is keyed by what it shows, not by the
 * shown step: seeking within a line rebuilds nothing (`markCurrent` moves the highlight), so a
 * seek costs the same at any length. Guessing the move lists only the steps played so far.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @param {number} shown
 * @param {string[]} shorts short words per step (of `st.line` and `st.info`: the key covers them)
 * @returns {HTMLElement} (its list a `lazy` stand-in: read it after dom.js `whole`)
 */
export function movesByTurn(doc, st, ui, shown, shorts) {
  const lines = st.lines || [];
  const chain = chainOf(lines, st.variation);
  const line = st.line || [];
  const training = st.train !== null && st.train !== undefined;
  // Training: the moves still to come are the learner's to guess; list only those played.
  const upto = training ? shown : line.length - 1;
  const confirm = ui.confirm && ui.confirm.startsWith("var:") ? ui.confirm : "";
  const key = ["moves", idOf(line), idOf(lines), st.variation, idOf(st.annotations), idOf(st.glyphs),
    idOf(st.analyses), idOf(st.info), !!st.editable, ui.renaming, confirm, upto].join("/");
  const list = lazy(doc, key, () => h(doc, "ol", { class: "ll-movelist ll-byturn" },
    moveItems(doc, st, ui, shown, shorts, upto)));
  return h(doc, "section", { class: "ll-moves", "aria-label": "Moves of this line, by turn" },
    h(doc, "div", { class: "ll-h" }, "Moves", chain.length > 1
      ? h(doc, "span", { class: "ll-note" }, ` · ${chain[chain.length - 1].name}`) : null),
    list);
}

/**
 * The rows of the move list (movesByTurn): turns, and the variations under their moves.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {ReplayUi} ui
 * @param {number} shown
 * @param {string[]} shorts
 * @param {number} upto the last step listed
 * @returns {HTMLElement[]}
 */
function moveItems(doc, st, ui, shown, shorts, upto) {
  const lines = st.lines || [];
  const chain = chainOf(lines, st.variation);
  const own = chain.length > 1 ? chain[chain.length - 1].start : Infinity;
  const noted = new Set((st.annotations || []).map((n) => n.step));
  const glyphs = st.glyphs || {};
  const reviewed = reviewedMoves(st);
  /** @param {number} k */
  const verdictOf = (k) => (reviewed.get(k) || { verdict: "" }).verdict;
  // The steps where variations hang, found once (not per row: a long line has many rows).
  const branching = new Set(lines.filter((l) => l.parent !== null).map((l) => l.start));
  /** @type {HTMLElement[]} */
  const items = [];
  for (const row of turnRows((st.line || []).slice(0, upto + 1))) {
    const who = row.player < 0 ? "Set-up" : `${row.turn}. ${playerName(st.info, row.player)}`;
    items.push(h(doc, "li", { class: "ll-turnrow", "data-turn": row.turn },
      h(doc, "span", { class: `ll-seat${row.player >= 0 ? ` ll-seat${row.player}` : ""}` }, who),
      h(doc, "span", { class: "ll-turnmoves" }, row.steps.map((k) => h(doc, "button", {
        type: "button", class: `ll-move${k === shown ? " ll-current" : ""}${k > own ? " ll-own" : ""}`,
        "data-act": "goto", "data-step": k, "aria-current": k === shown ? "step" : null,
        title: `Step ${k}`,
      }, shorts[k] || "", glyphs[String(k)] ? h(doc, "b", { class: "ll-glyph" }, glyphs[String(k)]) : null,
      verdictBadge(doc, verdictOf(k)),
      noted.has(k) ? h(doc, "span", { class: "ll-notemark", title: "This step has notes" }, "✎") : null)))));
    const branchSteps = row.steps.filter((k) => branching.has(k) &&
      (branchesAt(st, k).length || (chain.length > 1 && chain.slice(1).some((l) => l.start === k))));
    for (const k of branchSteps) {
      const here = branchesAt(st, k);
      // Where the shown variation leaves its parent, the parent's own continuation is an
      // alternative too: a link back to it.
      const leaving = chain.slice(1).filter((l) => l.start === k);
      items.push(h(doc, "li", { class: "ll-branch", "data-after": k },
        h(doc, "ul", { class: "ll-vartree", "aria-label": `Variations after move ${k}` },
          leaving.map((l) => {
            const parent = lines.find((x) => x.id === l.parent);
            return parent ? h(doc, "li", { class: `ll-var ll-depth-${Math.min(depth(lines, parent), 6)} ll-varparent` },
              h(doc, "button", { type: "button", class: "ll-varname", "data-act": "line-go", "data-variation": parent.id },
                `↰ ${parent.parent === null ? "Main line" : parent.name}`, h(doc, "span", { class: "ll-note" }, " continues here")),
              variationItem(doc, st, ui, l, true)) : null;
          }),
          here.map((l) => variationItem(doc, st, ui, l)))));
    }
  }
  return items;
}

/**
 * The move buttons of each move list by step, and the ones marked current, found once per
 * list contents (its paint key): a seek then touches two buttons, with no search of a list
 * that holds every step of a long game.
 * @type {WeakMap<Element, {key: string, moves: Map<number, Element>, current: Element[]}>}
 */
const moveIndex = new WeakMap();

/**
 * @param {Element} list
 * @returns {{key: string, moves: Map<number, Element>, current: Element[]}}
 */
function indexOf(list) {
  const key = list.getAttribute(PAINT_KEY) || "";
  let index = moveIndex.get(list);
  // A list without a key (not built by movesByTurn) may change under us: never kept.
  if (!index || !key || index.key !== key) {
    /** @type {Map<number, Element>} */
    const moves = new Map();
    for (const b of list.querySelectorAll(".ll-move[data-step]")) moves.set(Number(b.getAttribute("data-step")), b);
    index = { key, moves, current: Array.from(list.querySelectorAll(".ll-move.ll-current")) };
    if (key) moveIndex.set(list, index);
  }
  return index;
}

/**
 * The move list's button of step `step`, or null.
 * @param {Element} root
 * @param {number} step
 * @returns {HTMLElement | null}
 */
export function moveButton(root, step) {
  const list = root.querySelector(".ll-movelist");
  return list ? /** @type {HTMLElement | null} */ (indexOf(list).moves.get(step) || null) : null;
}

/**
 * Move the move list's highlight to step `shown` in place (the list itself is built once per
 * line: movesByTurn). Two nodes change, whatever the line's length.
 * @param {Element} root
 * @param {number} shown
 */
export function markCurrent(root, shown) {
  const list = root.querySelector(".ll-movelist");
  if (!list) return;
  const index = indexOf(list);
  const cur = index.moves.get(shown) || null;
  for (const b of index.current) {
    if (b === cur) continue;
    b.classList.remove("ll-current");
    b.removeAttribute("aria-current");
  }
  if (cur && !cur.classList.contains("ll-current")) {
    cur.classList.add("ll-current");
    cur.setAttribute("aria-current", "step");
  }
  index.current = cur ? [cur] : [];
}

/**
 * The glyph bar for the move that led to the shown step (editable pages only).
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {number} shown
 * @returns {HTMLElement | null}
 */
export function glyphBar(doc, st, shown) {
  if (!st.editable || shown < 1) return null;
  const current = (st.glyphs || {})[String(shown)] || null;
  return h(doc, "div", { class: "ll-glyphbar", role: "group", "aria-label": `Glyph for move ${shown}` },
    h(doc, "span", { class: "ll-note" }, `Move ${shown}: `),
    GLYPHS.map(([g, name]) => h(doc, "button", {
      type: "button", class: `ll-btn ll-small ll-glyphbtn${current === g ? " ll-primary" : ""}`, "data-act": "glyph",
      "data-glyph": g, "aria-pressed": current === g ? "true" : "false", title: `${g} ${name}`,
    }, g)),
    current ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "glyph", "data-glyph": "" }, "clear") : null);
}

/**
 * Each seat's score over the line (cards in the Study), one polyline per seat, turn ticks and a
 * marker at the shown step; a click seeks (replay.js reads the x position). Glyphs mark moves.
 * `scores[k]` is the list of seats' scores at step k. The curves are keyed by their data, so a
 * seek moves the marker and redraws nothing else.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {number} shown
 * @returns {HTMLElement | null} (its curves a `lazy` stand-in: read it after dom.js `whole`)
 */
export function scoreGraph(doc, st, shown) {
  const scores = st.scores || [];
  if (scores.length < 2) return null;
  const W = 600;
  const H = 90;
  const last = scores.length - 1;
  const x = (/** @type {number} */ k) => (k / last) * W;
  const seats = scores[0].length;
  // Training: the scores still to come are not drawn (the learner has not seen them yet).
  const upto = st.train === null || st.train === undefined ? last : Math.min(shown, last);
  const key = ["scores", idOf(scores), idOf(st.glyphs), upto].join("/");
  const curves = lazy(doc, key, () => svg(doc, "g", { class: "ll-gcurves" }, ...scoreCurves(doc, st, upto, W, H)));
  const now = svg(doc, "line", { x1: x(shown).toFixed(1), x2: x(shown).toFixed(1), y1: 0, y2: H, class: "ll-gnow", stroke: "currentColor", "stroke-dasharray": "3 2" });
  const legend = h(doc, "div", { class: "ll-glegend" }, Array.from({ length: seats }, (_, p) => h(doc, "span", { class: "ll-glegenditem" },
    h(doc, "span", { class: "ll-gswatch", style: `background:${SEAT_COLOURS[p % 4]}` }), ` ${playerName(st.info, p)} ${scores[Math.min(shown, last)][p]}`)));
  const box = h(doc, "div", {
    class: "ll-graph", "data-act": "graph", "data-last": last, role: "slider", tabindex: -1,
    "aria-label": "Score graph: click to go to that step", "aria-valuemin": 0, "aria-valuemax": last, "aria-valuenow": shown,
  });
  box.append(svg(doc, "svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", width: "100%", height: H, "aria-hidden": "true" }, curves, now));
  return h(doc, "section", { class: "ll-scores", "aria-label": "Scores over the game" },
    h(doc, "div", { class: "ll-h" }, "Scores"), box, legend);
}

/**
 * The score graph's curves and glyph marks up to step `upto` (scoreGraph).
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {number} upto
 * @param {number} W
 * @param {number} H
 * @returns {Element[]}
 */
function scoreCurves(doc, st, upto, W, H) {
  const scores = st.scores || [];
  const last = scores.length - 1;
  const top = Math.max(1, ...scores.flat());
  const x = (/** @type {number} */ k) => (k / last) * W;
  const y = (/** @type {number} */ v) => H - 4 - (v / top) * (H - 12);
  // At most ~W points per seat: a long line is sampled, keeping every change of score.
  const stride = Math.max(1, Math.floor(last / W));
  /** @type {Element[]} */
  const parts = [];
  for (let p = 0; p < scores[0].length; p++) {
    const pts = [];
    for (let k = 0; k <= upto; k++) {
      if (k % stride && k !== upto && scores[k][p] === scores[k - 1][p]) continue;
      pts.push(`${x(k).toFixed(1)},${y(scores[k][p]).toFixed(1)}`);
    }
    parts.push(svg(doc, "polyline", { points: pts.join(" "), fill: "none", stroke: SEAT_COLOURS[p % 4], "stroke-width": 2, class: `ll-gseat ll-gseat${p}` }));
  }
  for (const [k, g] of Object.entries(st.glyphs || {})) {
    const n = Number(k);
    if (n <= upto && (g.startsWith("?") || g === "!!" || g === "!")) {
      parts.push(svg(doc, "text", { x: x(n).toFixed(1), y: 10, "font-size": 9, "text-anchor": "middle", class: "ll-gglyph" }, g));
    }
  }
  return parts;
}

/**
 * The download bar: the replay file, the offline page (teacher or a seat) and Markdown. On a
 * standalone page the files come from the book; in Jupyter the kernel builds the one asked for.
 * None while guessing the move or solving puzzles.
 * @param {Document} doc
 * @param {ReplayState} st
 * @returns {HTMLElement | string}
 */
export function exportBar(doc, st) {
  // Guessing the move or solving puzzles: a file would hold the moves still to find.
  if (st.train !== null && st.train !== undefined) return "";
  const book = st.downloads;
  const teacher = (st.viewers || []).includes(null);
  /** @type {(HTMLElement | null)[]} */
  const buttons = [];
  /** @param {string} kind @param {string} text @param {number | null} [viewer] */
  const btn = (kind, text, viewer) => h(doc, "button", {
    type: "button", class: "ll-btn ll-small", "data-act": "download", "data-kind": kind,
    "data-viewer": viewer === undefined ? null : viewer === null ? "all" : viewer,
  }, `⬇ ${text}`);
  if (book) {
    if (book.json) buttons.push(btn("json", "Replay file (JSON)"));
    if (book.markdown) buttons.push(btn("markdown", "Markdown"));
  } else {
    if (teacher) buttons.push(btn("json", "Replay file (JSON)"));
    if (teacher) buttons.push(btn("html", "Offline page (teacher)", null));
    const seats = (st.viewers || []).filter((v) => v !== null);
    for (const v of seats) buttons.push(btn("html", `Page for ${playerName(st.info, /** @type {number} */ (v))}`, v));
    buttons.push(btn("markdown", "Markdown"));
  }
  return h(doc, "div", { class: "ll-exports", role: "group", "aria-label": "Downloads" }, buttons);
}

/**
 * Download `text` as a file named `name`, from a Blob URL (no request leaves the page).
 * @param {Document} doc
 * @param {string} name
 * @param {string} mime
 * @param {string} text
 */
export function download(doc, name, mime, text) {
  const win = doc.defaultView;
  if (!win || !win.URL || !win.URL.createObjectURL) return;
  const url = win.URL.createObjectURL(new win.Blob([text], { type: mime }));
  const a = h(doc, "a", { href: url, download: name, class: "ll-hidden" });
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => win.URL.revokeObjectURL(url), 5000);
}

/**
 * The move menu while exploring or guessing: every legal move of the side to move, in words.
 * @param {Document} doc
 * @param {ReplayState} st
 * @param {string} verb the button's text
 * @returns {HTMLElement | null}
 */
export function choiceMenu(doc, st, verb) {
  const choices = st.choices || [];
  if (!choices.length) return null;
  return h(doc, "div", { class: "ll-choices" },
    h(doc, "select", { "data-act": "choice", "aria-label": "Every legal move here" },
      choices.map((c, i) => h(doc, "option", { value: i }, describeAction(c.action, st.info)))),
    h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "play-choice" }, verb));
}

/**
 * The explore switch (when the author allows it) and, while exploring, the move menu.
 * @param {Document} doc
 * @param {ReplayState} st
 * @returns {HTMLElement | null}
 */
export function explorePanel(doc, st) {
  if (!st.allow_explore || (st.train !== null && st.train !== undefined)) return null;
  return h(doc, "section", { class: "ll-explore", "aria-label": "Explore" },
    h(doc, "label", { class: "ll-toggle" },
      h(doc, "input", { type: "checkbox", "data-act": "explore", checked: !!st.explore }),
      " Explore: a different move on the board (cards, powers, Binding tokens) starts a variation"),
    st.explore ? choiceMenu(doc, st, "Play this move") : null);
}

/**
 * Guess the move: whose seat, the running score, the last guess against the recorded move.
 * @param {Document} doc
 * @param {ReplayState} st
 * @returns {HTMLElement | null}
 */
export function trainPanel(doc, st) {
  const puzzles = puzzlePanel(doc, st, choiceMenu);
  if (puzzles) return puzzles;
  const t = st.training;
  if (st.train === null || st.train === undefined || !t) return null;
  const seat = playerName(st.info, st.train);
  const last = t.last;
  const deciding = (st.choices || []).length > 0;
  return h(doc, "section", { class: "ll-train", "aria-label": "Guess the move" },
    h(doc, "div", { class: "ll-h" }, `Guess the move: you play ${seat}`),
    h(doc, "p", { class: "ll-trainscore", "data-right": t.right, "data-total": t.total },
      `Score: ${t.right} / ${t.total}`),
    last ? h(doc, "p", { class: `ll-trainlast ${last.right ? "ll-right" : "ll-wrong"}` },
      last.right ? `✓ Right: ${describeAction(last.played, st.info)}.`
        : `✗ You chose: ${describeAction(last.guess, st.info)}. ${seat} played: ${describeAction(last.played, st.info)}.`) : null,
    deciding ? h(doc, "p", { class: "ll-note" }, "Your decision: play it on the board (a card, a power and its targets, a Binding source then a card) or choose below.") : h(doc, "p", { class: "ll-note" }, "Step forward to the next decision of your seat."),
    deciding ? choiceMenu(doc, st, "Guess this move") : null);
}

/**
 * The standalone study page: title, notes, a chapter menu, and the chosen chapter's replay page
 * (mounted over its book; switching chapters unmounts the previous one).
 * @param {{title: string, notes?: string, chapters: {name: string, notes?: string, book: import("./types").Book}[], downloads?: {json?: string}}} data
 * @param {HTMLElement} root
 * @param {(props: import("./types").RenderProps) => (() => void) | void} render
 */
export function studyPage(data, root, render) {
  const doc = root.ownerDocument;
  const head = h(doc, "header", { class: "ll-study" },
    h(doc, "h1", { class: "ll-studytitle" }, data.title),
    data.notes ? h(doc, "p", { class: "ll-studynotes" }, data.notes) : null);
  const menu = h(doc, "nav", { class: "ll-chapters", "aria-label": "Chapters" });
  const notes = h(doc, "p", { class: "ll-chapternotes" });
  const body = h(doc, "div", { class: "ll-chapter" });
  root.append(head, menu, notes, body);
  if (data.downloads && data.downloads.json) {
    const json = data.downloads.json;
    const b = h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "study-download" }, "⬇ Study file (JSON)");
    b.addEventListener("click", () => download(doc, "leyline-study.json", "application/json", json));
    head.append(b);
  }
  /** @type {(() => void) | void} */
  let cleanup;
  /** @param {number} i */
  function show(i) {
    if (cleanup) cleanup();
    body.textContent = "";
    const chapter = data.chapters[i];
    menu.textContent = "";
    data.chapters.forEach((c, k) => {
      const b = h(doc, "button", {
        type: "button", class: `ll-btn ll-chapterbtn${k === i ? " ll-primary" : ""}`, "data-act": "chapter", "data-chapter": k,
        "aria-current": k === i ? "page" : null,
      }, `${k + 1}. ${c.name}`);
      b.addEventListener("click", () => show(k));
      menu.append(b);
    });
    notes.textContent = chapter.notes || "";
    cleanup = render({ model: bookModel(chapter.book), el: body });
    const board = /** @type {HTMLElement | null} */ (body.querySelector(".leyline"));
    if (board) board.focus({ preventScroll: true });
  }
  show(0);
}
