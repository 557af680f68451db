// The play board as a pure function of state: the grid of card buttons, the deck, Supply and
// Token Pool, the Study with its power buttons, the power and Binding panels, the scoreboard,
// the game-over panel, the memory panel and the recent moves. Every mode draws this board.
import { digest, h, idOf, lazy, PAINT_KEY } from "./dom.js";
import { elementLook } from "./looks.js";
import { memoryPanel } from "./memory.js";
import { EFFECT_WORDS, canAct, effectKind, finalElement, hintPanel, hintSlots, keysLine, phaseChoice, prefsPanel, recapPanel } from "./table.js";
import {
  END_REASONS, MARK_WORDS, PHASE_TITLES, RULES_SHORT, SOURCE_WORDS, endLabel, listSlots, mySeat, playerName, plural,
  powerOf, promptFor,
} from "./words.js";

/** @typedef {import("./types").BoardState} BoardState */
/** @typedef {import("./types").Cell} Cell */
/** @typedef {import("./types").Counts} Counts */
/** @typedef {import("./types").PlayUi} PlayUi */
/** @typedef {import("./types").Power} Power */
/** @typedef {{kind: string, element: string | null, cause?: string}} Face */

/**
 * @param {Document} doc
 * @param {Counts} tokens
 * @param {string[]} els
 * @returns {HTMLElement | null}
 */
function tokenChips(doc, tokens, els) {
  const entries = Object.entries(tokens || {}).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return h(doc, "span", { class: "ll-tokens" }, entries.map(([el, n]) => {
    const look = elementLook(el, els);
    return h(doc, "span", {
      class: "ll-token", "data-element": el, title: `${plural(n, look.name + " Binding token")}`,
      style: `--ll-el:${look.colour};--ll-ink:${look.ink}`,
    }, look.symbol, n > 1 ? `×${n}` : null);
  }));
}

/**
 * @param {Counts} tokens
 * @param {string[]} els
 * @returns {string}
 */
function tokenWords(tokens, els) {
  const entries = Object.entries(tokens || {}).filter(([, n]) => n > 0);
  if (!entries.length) return "";
  return `, bound by ${entries.map(([el, n]) => plural(n, elementLook(el, els).name + " token")).join(" and ")}`;
}

/**
 * What the page shows for one grid slot: the face it may show and why.
 * @param {Cell} cell
 * @param {number} slot
 * @param {BoardState} st
 * @param {{reveals?: PlayUi["reveals"]}} ui
 * @param {number} now
 * @returns {Face}
 */
export function cellFace(cell, slot, st, ui, now) {
  if (cell.card === "empty") return { kind: "empty", element: null };
  if (cell.card === "active") return { kind: "active", element: cell.element };
  const glimpse = ui.reveals && ui.reveals[slot];
  if (glimpse && glimpse.until > now && glimpse.element) {
    return { kind: "glimpse", element: glimpse.element, cause: glimpse.cause };
  }
  if (cell.element) return { kind: "seen", element: cell.element }; // the teacher's view only
  const final = finalElement(st, slot); // the game is over: nothing is hidden any more
  if (final) return { kind: "final", element: final };
  const known = st.remembered && st.remembered[slot]; // the viewer's own memory (lessons)
  if (known) return { kind: "remembered", element: known };
  return { kind: "inert", element: null };
}

/**
 * @param {unknown[] | null | undefined} list
 * @param {unknown} x
 * @returns {boolean}
 */
function isTrue(list, x) {
  return Array.isArray(list) && list.includes(x);
}

/**
 * The flag on a glimpsed card: a private peek, or a card just dealt or refilled.
 * @param {string | undefined} cause
 * @returns {string}
 */
function glimpseFlag(cause) {
  return effectKind(cause) === "peek" ? "peek" : "new";
}

/**
 * @param {Document} doc
 * @param {number} slot
 * @param {Cell} cell
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @param {number} now
 * @param {boolean} lazily a stand-in the repaint skips while the card looks the same (`lazy`)
 * @returns {Element}
 */
function cardButton(doc, slot, cell, st, ui, now, lazily) {
  const { view, legal, info } = st;
  const els = info.elements || view.elements || [];
  const face = cellFace(cell, slot, st, ui, now);
  const cols = view.grid_cols || 1;
  const row = Math.floor(slot / cols) + 1;
  const col = (slot % cols) + 1;
  const classes = ["ll-card", `ll-${face.kind}`];
  let hint = "";
  const phase = view.phase;
  const targeting = ui.power && legal.powers && legal.powers[ui.power];
  if (targeting && targeting.max > 0) {
    if (isTrue(targeting.slots, slot)) { classes.push("ll-legal", "ll-candidate"); hint = "click to choose as a target"; }
    if (isTrue(ui.targets, slot)) classes.push("ll-chosen");
  } else if (phase === "activation" && legal.actor !== undefined && legal.actor !== null) {
    if (isTrue(legal.activate, slot)) { classes.push("ll-legal"); hint = "click to activate"; }
    else if (isTrue(legal.deactivate, slot)) { classes.push("ll-legal"); hint = "click to deactivate (refund)"; }
    else if (legal.blocked && legal.blocked[slot]) { classes.push("ll-blocked"); hint = legal.blocked[slot]; }
  } else if (phase === "refill" && isTrue(legal.refill, slot)) {
    classes.push("ll-legal");
    hint = "click to place the next card here";
  } else if (phase === "binding" && ui.source && cell.card !== "empty") {
    classes.push("ll-legal");
    hint = `click to place a ${elementLook(ui.source.element, els).name} token`;
  }
  if (ui.pending && ui.pending.slot === slot) classes.push("ll-pending");
  const hinted = hintSlots(st).includes(slot);
  if (hinted) classes.push("ll-hinted");
  // A lesson's skipped step shows what its solution did; the play page, the other seats' turns.
  const shown = (st.shown && st.shown[slot]) || [];
  const marks = shown.length ? shown : (st.log && st.log.marks && st.log.marks[slot]) || [];
  if (marks.length) classes.push("ll-marked");
  if (shown.length) classes.push("ll-shown");
  const motion = ui.motion && ui.motion[slot];
  if (motion && motion.until > now) classes.push(`ll-mo-${motion.kind}`);
  classes.push(...((ui.cardClasses && ui.cardClasses[slot]) || []));
  const look = face.element ? elementLook(face.element, els) : null;
  const state = {
    empty: "empty slot", inert: "inert card", active: `activated ${look && look.name} card`,
    glimpse: `inert card, glimpsed as ${look && look.name}`, seen: `inert ${look && look.name} card (teacher view)`,
    remembered: `inert card you remember as ${look && look.name}`,
    final: `${look && look.name} card, face up now the game is over`,
  }[face.kind];
  const others = marks.length ? `. ${shown.length ? "The skipped step" : "Since your last turn"}: ` +
    marks.map((k) => MARK_WORDS[k] || k).join(", ") : "";
  // The name starts with the card's visible words in their order (slot number, "peek"/"new"
  // flag, element name), so a speech-input user can say what they see (WCAG 2.5.3).
  const flag = face.kind === "glimpse" ? glimpseFlag(face.cause) : "";
  const visible = [slot, flag, look ? look.name : ""].filter((w) => w !== "").join(" ");
  const label = `${visible}: slot ${slot} (row ${row}, column ${col}), ${state}${tokenWords(cell.tokens, els)}${others}` +
    (hinted ? ". The coach's hint plays this slot" : "") + (hint ? `. ${hint}` : "");
  /** @type {Record<string, unknown>} */
  const attrs = {
    type: "button", class: classes.join(" "), "data-act": "card", "data-slot": slot,
    "data-card": cell.card, tabindex: slot === (ui.focus || 0) ? 0 : -1, "aria-label": label,
    title: ui.cardTitle || hint || null,
  };
  if (look) {
    attrs["data-element"] = face.element;
    attrs.style = `--ll-el:${look.colour};--ll-ink:${look.ink}`;
  }
  // "+" only where this viewer may place a card now (not a bot's refill, nor a finished lesson).
  const hole = phase === "refill" && isTrue(legal.refill, slot) ? "+" : "";
  const ghost = motion && motion.kind === "collect" && motion.until > now && motion.element ? motion.element : null;
  const build = () => cardBody(doc, slot, attrs, face, flag, look, hole, cell.tokens, els, marks, ghost);
  // The key is everything the button shows, so an unchanged card is not built again.
  return lazily ? lazy(doc, `c${slot}:${digest(JSON.stringify([attrs, face.kind, flag, look, hole, cell.tokens, els, marks, ghost]))}`, build)
    : build();
}

/**
 * A card button from what `cardButton` worked out.
 * @param {Document} doc
 * @param {number} slot
 * @param {Record<string, unknown>} attrs
 * @param {Face} face
 * @param {string} flag
 * @param {{name: string, symbol: string, colour: string, ink: string} | null} look
 * @param {string} hole
 * @param {Counts} tokens
 * @param {string[]} els
 * @param {string[]} marks
 * @param {string | null} ghost the element of a card just collected from this slot
 * @returns {HTMLElement}
 */
function cardBody(doc, slot, attrs, face, flag, look, hole, tokens, els, marks, ghost) {
  const body = [];
  body.push(h(doc, "span", { class: "ll-slotno", "aria-hidden": "true" }, slot));
  if (face.kind === "glimpse") {
    body.push(h(doc, "span", { class: "ll-flag", "aria-hidden": "true" }, flag));
  }
  if (look) {
    body.push(h(doc, "span", { class: "ll-face", "aria-hidden": "true" },
      h(doc, "span", { class: "ll-sym" }, look.symbol), h(doc, "span", { class: "ll-name" }, look.name)));
  } else if (face.kind === "inert") {
    body.push(h(doc, "span", { class: "ll-back", "aria-hidden": "true" }, "✧"));
  } else {
    body.push(h(doc, "span", { class: "ll-hole", "aria-hidden": "true" }, hole));
  }
  body.push(tokenChips(doc, tokens, els));
  if (marks.length) {
    body.push(h(doc, "span", { class: "ll-marks", "aria-hidden": "true", title: marks.map((k) => MARK_WORDS[k] || k).join(", ") },
      marks.map((k) => h(doc, "span", { class: `ll-mk ll-mk-${k}` }, MARK_SIGNS[k] || "•"))));
  }
  if (ghost) {
    // A collected card travels face-up to the Study (it has left the grid: everyone saw it).
    const gone = elementLook(ghost, els);
    body.push(h(doc, "span", { class: "ll-ghost", "aria-hidden": "true", style: `--ll-el:${gone.colour};--ll-ink:${gone.ink}` },
      gone.symbol));
  }
  return h(doc, "button", attrs, body);
}

/** Small signs for what another seat did to a slot (see MARK_WORDS). @type {Record<string, string>} */
const MARK_SIGNS = {
  activated: "▲", flipped: "↺", collected: "✓", refilled: "+", bound: "⛓", swapped: "⇄", peeked: "👁", tide: "≈", unbound: "✂",
};

/**
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement}
 */
function deckPanel(doc, st) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const top = view.deck.top;
  const look = top ? elementLook(top, els) : null;
  const refill = view.phase === "refill";
  return h(doc, "section", { class: "ll-deck", "aria-label": "Leyline deck" },
    h(doc, "div", { class: "ll-h" }, "Leyline deck"),
    h(doc, "div", {
      class: `ll-card ll-mini ${look ? "ll-active" : "ll-empty"}${refill ? " ll-next" : ""}`,
      style: look ? `--ll-el:${look.colour};--ll-ink:${look.ink}` : null,
      "data-element": top || null, role: "img",
      "aria-label": look ? `Top card, face-up: ${look.name}` : "The deck is empty",
    }, look ? h(doc, "span", { class: "ll-face", "aria-hidden": "true" },
      h(doc, "span", { class: "ll-sym" }, look.symbol), h(doc, "span", { class: "ll-name" }, look.name)) : "—"),
    h(doc, "div", { class: "ll-count" }, `${plural(view.deck.count, "card")} left`,
      refill ? h(doc, "div", { class: "ll-note" }, "next to place") : null));
}

/**
 * @param {Document} doc
 * @param {Counts} counts
 * @param {string[]} els
 * @param {string} label
 * @returns {HTMLElement}
 */
function countsLine(doc, counts, els, label) {
  return h(doc, "div", { class: "ll-counts", "aria-label": `${label}: ` +
    els.map((el) => `${counts[el] || 0} ${elementLook(el, els).name}`).join(", ") },
  h(doc, "span", { class: "ll-k" }, label),
  els.map((el) => {
    const look = elementLook(el, els);
    return h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}`,
      "aria-hidden": "true" }, look.symbol, counts[el] || 0);
  }));
}

/**
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @param {Power} pw
 * @param {number} me the seat whose Study it is
 * @returns {HTMLElement}
 */
function powerButton(doc, st, ui, pw, me) {
  const { view, legal, info } = st;
  const els = info.elements || view.elements || [];
  const player = view.players[me];
  const unlocked = isTrue(player.unlocked, pw.key);
  const usable = legal.powers && legal.powers[pw.key] && legal.actor === me;
  const used = isTrue(view.powers_used, pw.key) && view.active_player === me;
  const need = info.thresholds ? info.thresholds[pw.tier] : "";
  const tier = pw.tier === "minor" ? "Minor" : "Major";
  const classes = ["ll-power", unlocked ? "ll-unlocked" : "ll-locked"];
  if (usable) classes.push("ll-usable");
  if (used) classes.push("ll-used");
  if (ui.infoPower === pw.key) classes.push("ll-open");
  const state = usable ? "usable now" : used ? "used this turn" : unlocked ? "unlocked" :
    `unlocks with ${need} ${elementLook(pw.element, els).name} in the Study`;
  const visible = `${pw.name}${used ? " used" : unlocked ? "" : " locked"}`;
  return h(doc, "button", {
    type: "button", class: classes.join(" "), "data-act": "power", "data-key": pw.key,
    title: `${pw.name} (${tier}): ${pw.text}`, "aria-pressed": ui.infoPower === pw.key ? "true" : "false",
    "aria-label": `${visible}: ${tier} power of ${elementLook(pw.element, els).name}, ${state}. ${pw.text}`,
  }, h(doc, "span", {}, pw.name), used ? h(doc, "span", { class: "ll-pstate" }, " used") :
    unlocked ? null : h(doc, "span", { class: "ll-pstate" }, " locked"));
}

/**
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement}
 */
function studyPanel(doc, st, ui) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const me = mySeat(view);
  const player = view.players[me];
  const powers = info.powers || [];
  const rows = els.map((el) => {
    const look = elementLook(el, els);
    const minor = powers.find((p) => p.element === el && p.tier === "minor");
    const major = powers.find((p) => p.element === el && p.tier === "major");
    const markers = player.markers[el] || 0;
    const stacked = player.marker_tokens[el] || 0;
    return h(doc, "tr", { "data-element": el },
      h(doc, "th", { scope: "row" }, h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}` },
        look.symbol), " ", look.name),
      h(doc, "td", { class: "ll-num", "data-study": el }, player.study[el] || 0),
      h(doc, "td", {}, minor ? powerButton(doc, st, ui, minor, me) : "—"),
      h(doc, "td", {}, major ? powerButton(doc, st, ui, major, me) : "—"),
      h(doc, "td", { class: "ll-marker", "aria-label": `${plural(markers, "Spent " + look.name + " marker")} ` +
        `with ${plural(stacked, "token")} stacked` },
      markers ? `${look.symbol}×${markers}` : "—", stacked ? h(doc, "span", { class: "ll-stack" }, ` +${stacked} tok`) : null));
  });
  const name = playerName(info, me);
  return h(doc, "section", { class: "ll-study", "aria-label": `${name}'s Study` },
    h(doc, "table", {},
      h(doc, "caption", {}, `Study · ${name} · `, h(doc, "strong", { "data-score": me }, player.score),
        player.score === 1 ? " card" : " cards"),
      h(doc, "thead", {}, h(doc, "tr", {}, h(doc, "th", { scope: "col" }, "Element"),
        h(doc, "th", { scope: "col" }, "Cards"), h(doc, "th", { scope: "col" }, "Minor"),
        h(doc, "th", { scope: "col" }, "Major"), h(doc, "th", { scope: "col" }, "Spent markers"))),
      h(doc, "tbody", {}, rows)));
}

/**
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement | null}
 */
function powerInfo(doc, st, ui) {
  const { legal, info } = st;
  const pw = ui.infoPower && powerOf(info, ui.infoPower);
  if (!pw) return null;
  const spec = legal.powers && legal.powers[pw.key];
  const me = mySeat(st.view);
  const player = st.view.players && st.view.players[me];
  const need = info.thresholds ? info.thresholds[pw.tier] : 0;
  const elName = elementLook(pw.element, info.elements || []).name;
  const locked = player && !isTrue(player.unlocked, pw.key);
  const why = locked
    ? `Locked: ${pw.name} unlocks with ${need} ${elName} in the Study (${player.study[pw.element] || 0} now); then use it in Phase 1 of a turn.`
    : legal.why_power ? (legal.why_power[pw.key] || legal.why_power["*"]) : null;
  const parts = [
    h(doc, "div", { class: "ll-h" }, `${pw.name} · ${pw.tier === "minor" ? "Minor" : "Major"} power`),
    h(doc, "p", {}, pw.text),
    h(doc, "p", { class: "ll-note" }, pw.instructions),
  ];
  if (spec) {
    if (spec.max === 0) {
      parts.push(h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "use-power" }, `Use ${pw.name}`));
    } else {
      const chosen = ui.power === pw.key ? ui.targets : [];
      parts.push(h(doc, "p", { class: "ll-note" }, `Chosen: ${chosen.length ? listSlots(chosen) : "none yet"}.`));
      if (spec.max > spec.min || spec.max > 1) {
        parts.push(h(doc, "button", {
          type: "button", class: "ll-btn ll-primary", "data-act": "use-power",
          "aria-disabled": chosen.length >= spec.min ? null : "true",
        }, `Use ${pw.name}`));
      }
    }
  } else if (why) {
    parts.push(h(doc, "p", { class: locked ? "ll-note" : "ll-why" }, why));
  } else if (legal.actor === null || legal.actor === undefined) {
    parts.push(h(doc, "p", { class: "ll-why" }, "Powers are used on your own turn."));
  }
  parts.push(h(doc, "button", { type: "button", class: "ll-btn", "data-act": "close-power" }, "Close"));
  return h(doc, "section", { class: "ll-powerinfo", "aria-label": `${pw.name} power` }, parts);
}

/**
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement | null}
 */
function bindingPanel(doc, st, ui) {
  const { view, legal, info } = st;
  const place = legal.place;
  if (view.phase !== "binding" || !place) return null;
  const els = info.elements || view.elements || [];
  const me = mySeat(view);
  const player = view.players[me];
  /** @type {Record<string, (el: string) => string>} */
  const have = {
    supply: (el) => `${view.supply[el] || 0} left · costs 1 from Study`,
    marker: (el) => `${player.marker_tokens[el] || 0} stacked`,
    pool: (el) => `${view.pool[el] || 0} in pool`,
  };
  const rows = els.map((el) => {
    const look = elementLook(el, els);
    return h(doc, "div", { class: "ll-bindrow", role: "group", "aria-label": `${look.name} token sources` },
      h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}` }, look.symbol, " ", look.name),
      ["supply", "marker", "pool"].map((src) => {
        const why = place[el] ? place[el][src] : "unknown";
        const ok = why === "";
        const chosen = ui.source && ui.source.element === el && ui.source.source === src;
        return h(doc, "button", {
          type: "button", class: `ll-src${ok ? " ll-ok" : ""}${chosen ? " ll-chosen" : ""}`,
          "data-act": "source", "data-element": el, "data-source": src,
          "aria-pressed": chosen ? "true" : "false", "aria-disabled": ok ? null : "true",
          title: ok ? `Place a ${look.name} token from the ${SOURCE_WORDS[src].toLowerCase()}` : why,
          "aria-label": `${SOURCE_WORDS[src]} ${have[src](el)}: a ${look.name} token from the ${SOURCE_WORDS[src].toLowerCase()}${ok ? "" : `. Not now: ${why}`}`,
        }, h(doc, "span", { class: "ll-srcname" }, SOURCE_WORDS[src]), h(doc, "span", { class: "ll-srchave" }, have[src](el)));
      }));
  });
  return h(doc, "section", { class: "ll-binding", "aria-label": "Place Binding tokens" },
    h(doc, "div", { class: "ll-h" }, "Binding tokens: pick an element and a source, then a card"), rows);
}

/**
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement | null}
 */
function scoreboard(doc, st) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  if (view.players.length < 2) return null;
  return h(doc, "section", { class: "ll-scores", "aria-label": "Scoreboard" },
    h(doc, "table", {},
      h(doc, "thead", {}, h(doc, "tr", {}, h(doc, "th", { scope: "col" }, "Player"),
        els.map((el) => {
          const look = elementLook(el, els);
          return h(doc, "th", { scope: "col", title: look.name, "aria-label": look.name },
            h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}` }, look.symbol));
        }),
        h(doc, "th", { scope: "col" }, "Spent"), h(doc, "th", { scope: "col" }, "Total"))),
      h(doc, "tbody", {}, view.players.map((p, i) => h(doc, "tr", {
        class: i === view.active_player && !view.is_over ? "ll-turn" : null,
        "aria-current": i === view.active_player && !view.is_over ? "true" : null,
      },
      h(doc, "th", { scope: "row" }, i === view.active_player && !view.is_over ? "▶ " : "", p.name,
        info.players && info.players[i] && info.players[i].bot ? h(doc, "span", { class: "ll-tag" }, " bot") : ""),
      els.map((el) => h(doc, "td", { class: "ll-num" }, p.study[el] || 0)),
      h(doc, "td", { class: "ll-num" }, Object.values(p.markers).reduce((a, b) => a + b, 0)),
      h(doc, "td", { class: "ll-num", "data-score": i }, h(doc, "strong", {}, p.score)))))));
}

/**
 * Each seat's kind for the next game (human or a bot kind), as chosen on the page so far:
 * what New game and Rematch send.
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {string[]}
 */
export function seatKinds(st, ui) {
  const players = (st.info && st.info.players) || [];
  return players.map((p, i) => (ui.seats && ui.seats[i]) || p.bot || "human");
}

/**
 * The seat menu of the game-over panel: who plays each seat next game.
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement}
 */
function seatMenu(doc, st, ui) {
  const kinds = ["human", ...((st.info && st.info.bot_kinds) || [])];
  const chosen = seatKinds(st, ui);
  return h(doc, "fieldset", { class: "ll-seats" },
    h(doc, "legend", {}, "Next game: who plays each seat"),
    st.view.players.map((p, i) => h(doc, "label", { class: "ll-pick" }, `Seat ${i + 1} (${p.name}) `,
      h(doc, "select", { "data-act": "seat-kind", "data-seat": i },
        // A bot of the widget's own making keeps its seat under its name.
        (kinds.includes(chosen[i]) ? kinds : [...kinds, chosen[i]]).map((k) => h(doc, "option",
          { value: k, selected: k === chosen[i] }, SEAT_WORDS[k] || `${k} bot`))))));
}

/** @type {Record<string, string>} */
const SEAT_WORDS = { human: "Human", random: "Random bot", memory: "Memory bot", greedy: "Greedy bot", expert: "Expert bot" };

/**
 * The end of the game: why it ended, the breakdown per seat (elements, Spent markers, turns),
 * the winner, this session's best and average (solo), the seat menu and New game / Rematch.
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement | null}
 */
function gameOverPanel(doc, st, ui) {
  const { view, info } = st;
  if (!view.is_over) return null;
  const els = info.elements || view.elements || [];
  const winners = (view.winners || []).map((p) => (view.players[p] ? view.players[p].name : playerName(info, p)));
  const solo = view.players.length === 1;
  const turns = (st.log && st.log.turns_played) || [];
  const games = (st.session || []).filter((g) => g.scores.length === 1);
  const best = games.length ? Math.max(...games.map((g) => g.scores[0])) : null;
  const avg = games.length ? games.reduce((a, g) => a + g.scores[0], 0) / games.length : null;
  const rows = view.players.map((p, i) => h(doc, "tr", { "data-final": i },
    h(doc, "th", { scope: "row" }, p.name, isTrue(view.winners, i) && !solo ? " ★" : ""),
    els.map((el) => h(doc, "td", { class: "ll-num" }, p.study[el] || 0)),
    h(doc, "td", { class: "ll-num" }, Object.values(p.markers).reduce((a, b) => a + b, 0)),
    h(doc, "td", { class: "ll-num" }, turns[i] === undefined ? "—" : turns[i]),
    h(doc, "td", { class: "ll-num" }, h(doc, "strong", {}, p.score))));
  return h(doc, "section", { class: "ll-over", role: "status", "aria-label": "Game over" },
    h(doc, "div", { class: "ll-h" }, "Game over"),
    h(doc, "p", {}, `The game ended because ${END_REASONS[view.end_reason || ""] || view.end_reason}, after turn ${view.turn}.`),
    h(doc, "table", { class: "ll-breakdown" },
      h(doc, "caption", {}, "Final Studies"),
      h(doc, "thead", {}, h(doc, "tr", {}, h(doc, "th", { scope: "col" }, "Player"),
        els.map((el) => h(doc, "th", { scope: "col" }, elementLook(el, els).name)),
        h(doc, "th", { scope: "col" }, "Spent markers"), h(doc, "th", { scope: "col" }, "Turns"),
        h(doc, "th", { scope: "col" }, "Score"))),
      h(doc, "tbody", {}, rows)),
    h(doc, "p", { class: "ll-win" }, solo ? `Final score ${view.players[0].score} in ${plural(view.turn, "turn")}.`
      : winners.length > 1 ? `Winners (tie): ${winners.join(", ")}.` : `Winner: ${winners[0]}.`),
    solo && games.length ? h(doc, "p", { class: "ll-session" },
      `This session: ${plural(games.length, "game")}, best ${best}, average ${(avg || 0).toFixed(1)}.`) : null,
    solo || st.network ? null : seatMenu(doc, st, ui),
    st.network ? null : h(doc, "div", { class: "ll-controls" },
      h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "new-game" }, "New game"),
      solo ? null : h(doc, "button", { type: "button", class: "ll-btn", "data-act": "rematch",
        title: "Same settings, a new deal, seats swapped" }, "Rematch")));
}

/**
 * The rules in short, and the power texts, inside the widget.
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement}
 */
function rulesPanel(doc, st) {
  const { info } = st;
  const t = info.thresholds || { minor: 2, major: 5 };
  return h(doc, "section", { class: "ll-rules", "aria-label": "Rules" },
    h(doc, "div", { class: "ll-h" }, "Rules in short"),
    h(doc, "ul", {}, RULES_SHORT(info).map((line) => h(doc, "li", {}, line))),
    h(doc, "div", { class: "ll-h" }, `Powers (Minor at ${t.minor}, Major at ${t.major} cards of the element in your Study)`),
    h(doc, "ul", {}, (info.powers || []).map((pw) => h(doc, "li", {},
      h(doc, "strong", {}, pw.name), ` (${elementLook(pw.element, info.elements || []).name}, ${pw.tier}): ${pw.text}`))),
    h(doc, "button", { type: "button", class: "ll-btn", "data-act": "rules" }, "Close rules"));
}

/**
 * Hot-seat: the board is hidden until the next player has taken the seat.
 * @param {BoardState} st
 * @param {Document} doc
 * @returns {HTMLElement}
 */
function handoffScreen(st, doc) {
  const to = /** @type {number} */ (st.handoff && st.handoff.to);
  const name = playerName(st.info, to);
  return h(doc, "div", { class: "leyline ll-handoff-root", "data-mode": st.mode || "play", "data-handoff": to,
    "data-ll-theme": hostTheme(doc), "data-ack": st.ack === undefined ? "" : st.ack },
  h(doc, "section", { class: "ll-handoff", "aria-label": "Pass the board" },
    h(doc, "h2", { class: "ll-h" }, `Pass to ${name}`),
    h(doc, "p", {}, `The board is hidden so that nobody sees another player's turn. ${name}, take the seat.`),
    h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "handoff-ready" }, `${name}, click when ready`)));
}

/**
 * The host's colour scheme: JupyterLab and Notebook 7 (data-jp-theme-light on body), VS Code
 * (vscode-dark / vscode-light / vscode-high-contrast on body), marimo and similar hosts (a
 * dark/light class or data-theme on the document), else the OS setting.
 * @param {Document} doc
 * @returns {"dark" | "light"}
 */
export function hostTheme(doc) {
  const body = doc.body;
  const html = doc.documentElement;
  const jp = body && body.getAttribute("data-jp-theme-light");
  if (jp === "true") return "light";
  if (jp === "false") return "dark";
  for (const node of [body, html]) {
    if (!node) continue;
    const c = node.classList;
    if (c.contains("vscode-dark") || c.contains("vscode-high-contrast")) return "dark";
    if (c.contains("vscode-light") || c.contains("vscode-high-contrast-light")) return "light";
    if (c.contains("dark") || c.contains("dark-theme")) return "dark";
    if (c.contains("light") || c.contains("light-theme")) return "light";
    const t = node.getAttribute("data-theme") || node.getAttribute("data-color-mode");
    if (t === "dark" || t === "light") return t;
  }
  const win = doc.defaultView;
  return win && win.matchMedia && win.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/**
 * The game log: every turn, newest first (so the latest move is in view without scrolling),
 * each turn's lines in their order (the kernel's `log` trait, built for this viewer; without
 * it the page's own short list).
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @param {boolean} lazily the turn going on, and each of its lines, as `lazy` stand-ins
 * @returns {HTMLElement}
 */
function logPanel(doc, st, ui, lazily) {
  const past = st.log_past || [];
  const turns = st.log && st.log.turns ? past.concat(st.log.turns) : null;
  if (!turns) {
    return h(doc, "ol", { class: "ll-log", "aria-label": "Recent moves" },
      (ui.log || []).map((line) => h(doc, "li", {}, line)));
  }
  /**
   * @param {import("./types").LogTurn} t
   * @param {number} i
   */
  const turnItem = (t, i) => {
    const done = i < past.length;
    // A finished turn is one object that never changes (a new one comes with any change):
    // its key lets the repaint skip it, so a long game's log costs nothing to keep. The turn
    // going on grows by a line a click (a long turn has hundreds): only its new lines are built.
    const line = (/** @type {string} */ text) => (lazily && !done ? lazy(doc, `l:${digest(text)}`, () => h(doc, "li", {}, text))
      : h(doc, "li", {}, text));
    const build = () => h(doc, "li", { class: "ll-logturn", "data-turn": t.turn, [PAINT_KEY]: done ? turnKey(t) : null },
      h(doc, "span", { class: "ll-logwho" }, t.player === null ? "Set-up" : `Turn ${t.turn} · ${playerName(st.info, t.player)}`),
      t.lines.length ? h(doc, "ul", {}, t.lines.map(line)) : null);
    if (!lazily) return build();
    return lazy(doc, done ? turnKey(t) : `now:${idOf(st.info)}:${digest(JSON.stringify(t))}`, build);
  };
  return h(doc, "section", { class: "ll-logbox", "aria-label": "Game log" },
    h(doc, "div", { class: "ll-h" }, "Game log ", h(doc, "span", { class: "ll-note" }, "(newest first)")),
    h(doc, "ol", { class: "ll-log ll-fulllog", tabindex: 0, "aria-label": "Game log, by turn, newest first" },
      turns.map(turnItem).reverse()));
}

/** @type {WeakMap<object, string>} */
const TURN_KEYS = new WeakMap();
let turnKeys = 0;

/**
 * A key of its own for each finished-turn object of the log (see logPanel).
 * @param {object} turn
 * @returns {string}
 */
function turnKey(turn) {
  let key = TURN_KEYS.get(turn);
  if (key === undefined) {
    turnKeys += 1;
    key = `t${turnKeys}`;
    TURN_KEYS.set(turn, key);
  }
  return key;
}

/**
 * Bot pace presets, slowest first.
 * @type {[string, string][]}
 */
const BOT_PACES = [["2000", "slow"], ["800", "normal"], ["300", "fast"], ["0", "instant"]];

/**
 * The pause before each bot move, from the `bot_delay_ms` trait (missing or not a number: none).
 * @param {unknown} value
 * @returns {number}
 */
export function botDelayMs(value) {
  return Math.max(0, Number(value) || 0);
}

/**
 * The Bot pace menu: the presets, the kernel's delay in its place when it is none of them, paused.
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement}
 */
function paceMenu(doc, st, ui) {
  const ms = botDelayMs(st.bot_delay_ms);
  const chosen = ui.paused ? "paused" : String(ms);
  const paces = BOT_PACES.some(([v]) => Number(v) === ms) ? BOT_PACES
    : BOT_PACES.concat([[String(ms), `custom (${ms} ms)`]]).sort((a, b) => Number(b[0]) - Number(a[0]));
  return h(doc, "label", { class: "ll-pace" }, "Bot pace ",
    h(doc, "select", { "data-act": "pace", "aria-label": "Bot pace" },
      paces.concat([["paused", "paused"]]).map(([v, t]) => h(doc, "option", { value: v, selected: chosen === v }, t))));
}

/** The coach's hint (kept under its first name for the modes and tests that import it). */
export const coachHint = hintPanel;

/**
 * The whole widget as a fresh DOM tree, from state `st` ({view, legal, info, error, ...}) and
 * the page's own UI state `ui` (pending click, chosen power/targets/source, brief reveals,
 * focus, log). Pure: no side effects, no model access. With `lazily`, the cards, the Study and
 * the side panel are `lazy` stand-ins keyed by what they show: a tree only for `morph` (a click
 * changes a card or two, so the rest is not built again).
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @param {Document} doc
 * @param {number} [now]
 * @param {boolean} [lazily]
 * @returns {HTMLElement}
 */
export function renderBoard(st, ui, doc, now = 0, lazily = false) {
  const { view, legal } = st;
  if (!view || !view.grid) return h(doc, "div", { class: "leyline" }, "Loading Leyline…");
  if (st.handoff && typeof st.handoff.to === "number" && !view.is_over) return handoffScreen(st, doc);
  const teacher = view.viewer === null;
  const grid = h(doc, "div", {
    class: `ll-grid${ui.deal === "waiting" ? " ll-dealwait" : ""}`, role: "group", style: `--ll-cols:${view.grid_cols}`,
    "aria-label": `Grid of ${view.grid.length} slots, ${view.grid_rows} rows by ${view.grid_cols} columns. ` +
      "Arrow keys move between cards; Enter or Space clicks.",
  }, view.grid.map((cell, s) => cardButton(doc, s, cell, st, ui, now, lazily)));
  const prompt = h(doc, "p", { class: "ll-prompt", "aria-live": "polite" }, promptFor(st, ui));
  const problem = ui.hint || (st.error && st.error !== ui.dismissed ? st.error : "");
  const errorBox = h(doc, "div", { class: `ll-error${problem ? "" : " ll-hidden"}`, role: "alert" },
    problem ? [h(doc, "span", {}, problem), h(doc, "button", { type: "button", class: "ll-x", "data-act": "dismiss", "aria-label": "Dismiss message" }, "×")] : null);
  const log = logPanel(doc, st, ui, lazily);
  const live = h(doc, "div", { class: "ll-sr", "aria-live": "polite", "aria-atomic": "true" }, ui.announce || "");
  return h(doc, "div", {
    class: `leyline${teacher ? " ll-is-teacher" : ""}`, "data-mode": st.mode || "play",
    "data-phase": view.phase, "data-step": legal.step === undefined ? "" : legal.step,
    "data-ack": st.ack === undefined ? "" : st.ack, "data-turn": view.turn, "data-ll-theme": hostTheme(doc),
    "data-deal": ui.deal || "none", "data-lm-suppress-shortcuts": "true",
  },
  statusLine(doc, st), prompt, errorBox, dealPanel(doc, st, ui), recapPanel(doc, st),
  h(doc, "div", { class: "ll-main" },
    h(doc, "div", { class: "ll-board" }, grid, phaseChoice(doc, st, ui), controlsRow(doc, st, ui), keysLine(doc, st)),
    sidePanel(doc, st, lazily),
    h(doc, "div", { class: "ll-mine" }, hintPanel(doc, st), powerInfo(doc, st, ui), bindingPanel(doc, st, ui),
      studyOf(doc, st, ui, lazily), prefsPanel(doc, st))),
  ui.rules ? rulesPanel(doc, st) : null,
  gameOverPanel(doc, st, ui), scoreboard(doc, st), memoryPanel(doc, st), log, live);
}

/**
 * The status line: phase, turn and seat, activations left, this turn's effects.
 * @param {Document} doc
 * @param {BoardState} st
 * @returns {HTMLElement}
 */
function statusLine(doc, st) {
  const { view, info } = st;
  const left = view.activations ? view.activations.limit - view.activations.used : 0;
  return h(doc, "header", { class: "ll-status" },
    h(doc, "span", { class: "ll-phase", "data-phase": view.phase }, PHASE_TITLES[view.phase] || view.phase),
    h(doc, "span", { class: "ll-turn" }, `Turn ${view.turn}`,
      view.players.length > 1 ? ` · ${playerName(info, view.active_player)}` : ""),
    view.phase === "activation" && !view.is_over ? h(doc, "span", { class: "ll-acts", "aria-label": `${left} activations left` },
      `Activations left: ${left}/${view.activations.limit}`) : null,
    (view.is_over ? [] : view.effects || []).map((e) => {
      const pw = (info.powers || []).find((p) => p.key === e || p.name.toLowerCase() === e);
      return h(doc, "span", { class: "ll-effect" }, `${pw ? pw.name : e}: ${EFFECT_WORDS[effectKind(pw || e)] || "in effect"}`);
    }),
    view.viewer === null ? h(doc, "span", { class: "ll-tag ll-teacher" }, "Teacher view: every card shown") : null);
}

/**
 * The deal's Ready step, or the note while it shows.
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement | null}
 */
function dealPanel(doc, st, ui) {
  const { view } = st;
  const cards = view.grid.filter((c) => c.card !== "empty").length;
  const dealSecs = `${((Number(st.deal_ms) || 0) / 1000).toFixed(1)} s`;
  if (ui.deal === "showing") return h(doc, "p", { class: "ll-deal ll-note" }, "The deal is face-up: remember it!");
  if (ui.deal !== "waiting") return null;
  return h(doc, "section", { class: "ll-deal", "aria-label": "The deal" },
    h(doc, "p", {}, `The deal: the ${plural(cards, "card")} on the grid will be shown face-up for ${dealSecs}, once. ` +
      (view.players.length > 1 ? "Everyone at the table, look now." : "Remember them.")),
    h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "deal-ready", "aria-keyshortcuts": "R" },
      "Ready: show the deal ", h(doc, "kbd", { "aria-hidden": "true" }, "R")));
}

/**
 * The buttons under the grid: the phase's end (Pass, Collect, End turn), Cancel power, the
 * bot's pace, Undo tokens, Hint, Rules.
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @returns {HTMLElement}
 */
function controlsRow(doc, st, ui) {
  const { view, legal, info } = st;
  const bots = (info.players || []).some((p) => p.bot);
  const act = canAct(st);
  // Phase 1's end is the choice's "No power this turn"; the other phases end here.
  // Before Ready the kernel accepts no move (the deal comes first): Ready is the one main
  // button, and the phase's end, still there to show what comes next, is a plain one.
  const waiting = ui.deal === "waiting";
  const endBtn = act && view.phase !== "abilities" ? h(doc, "button", {
    type: "button", class: `ll-btn${waiting ? "" : " ll-primary"}${ui.pending && ui.pending.act === "end" ? " ll-pending" : ""}`,
    "data-act": "end", "aria-disabled": legal.end ? null : "true", "aria-keyshortcuts": "E",
    title: waiting ? "Press Ready first: the deal is shown before any move" : legal.end ? "Key E" : "Every empty slot must be refilled first",
  }, endLabel(view), legal.end ? h(doc, "kbd", { "aria-hidden": "true" }, "E") : null) : null;
  const empty = (legal.refill || []).length;
  const fill = act && view.phase === "refill" && empty > 1 ? h(doc, "button", {
    type: "button", class: "ll-btn ll-primary", "data-act": "refill-all", "aria-keyshortcuts": "F",
    title: "Place the deck's cards into the empty slots in slot order (or click each slot to choose)",
  }, `Fill ${empty} slots in order`, h(doc, "kbd", { "aria-hidden": "true" }, "F")) : null;
  return h(doc, "div", { class: "ll-controls" }, fill, endBtn,
    ui.power ? h(doc, "button", { type: "button", class: "ll-btn", "data-act": "cancel", "aria-keyshortcuts": "C" }, "Cancel power") : null,
    bots && !view.is_over ? paceMenu(doc, st, ui) : null,
    bots && ui.paused && legal.bot ? h(doc, "button", { type: "button", class: "ll-btn", "data-act": "bot-step", "aria-keyshortcuts": "B" }, "Next bot move") : null,
    act && legal.undo ? h(doc, "button", { type: "button", class: "ll-btn", "data-act": "undo", "aria-keyshortcuts": "U",
      title: "Take back the Binding tokens placed this turn, until End turn (key U)" }, "Undo tokens") : null,
    act && st.hint && st.hint.enabled ? h(doc, "button", {
      type: "button", class: "ll-btn", "data-act": "hint", "aria-keyshortcuts": "H",
      title: "The coach's move from what you have been shown; each hint is counted in the log (key H)",
    }, "Hint") : null,
    h(doc, "button", { type: "button", class: "ll-btn", "data-act": "rules", "aria-expanded": ui.rules ? "true" : "false",
      "aria-keyshortcuts": "?" }, ui.rules ? "Hide rules" : "Rules"));
}


/**
 * The deck, the Supply and the Token Pool.
 * @param {Document} doc
 * @param {BoardState} st
 * @param {boolean} lazily
 * @returns {HTMLElement}
 */
function sidePanel(doc, st, lazily) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const table = () => h(doc, "section", { class: "ll-table", "aria-label": "Supply and Token Pool" },
    countsLine(doc, view.supply, els, "Supply"), countsLine(doc, view.pool, els, "Token Pool"));
  // The side panel itself is not a stand-in: a replay adds its own panels to it.
  return h(doc, "aside", { class: "ll-side" },
    lazily ? lazy(doc, `deck:${digest(JSON.stringify([view.deck, view.phase, els]))}`, () => deckPanel(doc, st)) : deckPanel(doc, st),
    lazily ? lazy(doc, `table:${digest(JSON.stringify([view.supply, view.pool, els]))}`, table) : table());
}

/**
 * The Study of the seat on the board (a stand-in keyed by what it shows).
 * @param {Document} doc
 * @param {BoardState} st
 * @param {PlayUi} ui
 * @param {boolean} lazily
 * @returns {HTMLElement | Element}
 */
function studyOf(doc, st, ui, lazily) {
  const { view, legal, info } = st;
  const els = info.elements || view.elements || [];
  const me = mySeat(view);
  return lazily ? lazy(doc, `study:${idOf(info)}:${digest(JSON.stringify([me, view.players[me],
    Object.keys(legal.powers || {}), legal.actor, view.powers_used, view.active_player, ui.infoPower, els]))}`,
  () => studyPanel(doc, st, ui)) : studyPanel(doc, st, ui);
}
