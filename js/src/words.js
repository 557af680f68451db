// The page's words: actions, events and replay steps in sentences, the one-line prompt of what
// to do now, and the small helpers (plural, names, slot lists) the panels share.
import { effectKind } from "./kinds.js";
import { elementLabel } from "./looks.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").BoardState} BoardState */
/** @typedef {import("./types").GameEvent} GameEvent */
/** @typedef {import("./types").Info} Info */
/** @typedef {import("./types").LineEntry} LineEntry */
/** @typedef {import("./types").PlayUi} PlayUi */
/** @typedef {import("./types").Power} Power */
/** @typedef {import("./types").View} View */

/** @type {Record<string, string>} */
export const PHASE_TITLES = {
  abilities: "Phase 1 · Abilities",
  activation: "Phase 2 · Activation",
  refill: "Refill",
  binding: "Phase 3 · Binding",
  game_over: "Game over",
};

/** @type {Record<string, string>} */
export const SOURCE_WORDS = { supply: "Supply", marker: "Spent marker", pool: "Token Pool" };

/** @type {Record<string, string>} */
export const END_REASONS = {
  deck: "a card had to be refilled and the Leyline deck was empty",
  stalemate: "no player could ever collect again (stalemate)",
  turn_limit: "the turn limit was reached",
  round_limit: "the round limit was reached",
  idle: "too many rounds went by without a collection, token or power",
};

/**
 * What another seat did to a slot since your last turn (the `log` trait's marks), or what a
 * lesson's skipped step did to it (`lesson.shown`, which has `activated` too).
 * @type {Record<string, string>}
 */
export const MARK_WORDS = {
  activated: "activated", flipped: "flipped and turned back", collected: "collected", refilled: "refilled", bound: "bound with a token",
  swapped: "swapped", peeked: "peeked at", tide: "sent to the deck by Tide", unbound: "its tokens removed",
};

/**
 * The seed's rules in short, with this game's numbers.
 * @param {Info} info
 * @returns {string[]}
 */
export function RULES_SHORT(info) {
  const acts = info.activations || 3;
  const k = info.collect_threshold || 2;
  return [
    "Goal: the most cards in your Study when the game ends; ties share the win.",
    "The grid's cards are shown face-up once when they arrive (the deal, each refill), then lie inert: remember them.",
    `Phase 1 · Abilities: use each power you have unlocked once (skipped when you have none).`,
    `Phase 2 · Activation: flip up to ${acts} inert cards face-up (click again to take one back), or pass. ` +
      `Collect: every element with ${k} or more activated goes to your Study; the rest flip back.`,
    "Refill: click empty slots to place the deck's face-up top card, one at a time.",
    "Phase 3 · Binding: place tokens on cards. A card with tokens can only be activated by a player whose Study has " +
      "at least as many cards of each token's element. From the Supply a token costs a Study card (it becomes a Spent " +
      "marker); from your Spent marker or the Token Pool it is free (the Pool needs a matching marker).",
    "When a bound card is collected its tokens go to the active player's matching Spent marker, or to the Token Pool.",
    "The game ends when a card must be refilled and the deck is empty.",
  ];
}

/**
 * @param {number} n
 * @param {string} word
 * @returns {string}
 */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * @param {Info | null | undefined} info
 * @param {number} p
 * @returns {string}
 */
export function playerName(info, p) {
  const seat = info && info.players && info.players[p];
  return seat ? seat.name : `Player ${p + 1}`;
}

/**
 * @param {string} name
 * @returns {string}
 */
export function possessive(name) {
  return name === "You" ? "your" : `${name}'s`;
}

/**
 * @param {number[]} slots
 * @returns {string}
 */
export function listSlots(slots) {
  if (slots.length === 1) return `slot ${slots[0]}`;
  return `slots ${slots.slice(0, -1).join(", ")} and ${slots[slots.length - 1]}`;
}

/**
 * @param {Info | null | undefined} info
 * @param {string | null | undefined} key
 * @returns {Power | null}
 */
export function powerOf(info, key) {
  return ((info && info.powers) || []).find((p) => p.key === key) || null;
}

/**
 * An action dict in words: "Activate slot 3".
 * @param {Action} action
 * @param {Info} [info]
 * @returns {string}
 */
export function describeAction(action, info = {}) {
  const els = info.elements || [];
  switch (action && action.type) {
    case "activate":
      return `Activate slot ${action.slot}`;
    case "deactivate":
      return `Deactivate slot ${action.slot}`;
    case "end_phase":
      return "End the phase";
    case "refill":
      return `Refill slot ${action.slot}`;
    case "place_token":
      return `Place a ${elementLabel(action.element, els)} token on slot ${action.slot} ` +
        `(from the ${(SOURCE_WORDS[action.source] || action.source).toLowerCase()})`;
    case "use_power": {
      const pw = powerOf(info, `${action.element}:${action.tier}`);
      const name = pw ? pw.name : `${action.element} ${action.tier} power`;
      const t = action.targets || [];
      return t.length ? `Use ${name} on ${listSlots(t)}` : `Use ${name}`;
    }
    default:
      return "Unknown action";
  }
}

/**
 * One event in words, or null for events that need no line (phase changes, set-up).
 * @param {GameEvent} ev
 * @param {Info} [info]
 * @param {number | null} [viewer]
 * @returns {string | null}
 */
export function describeEvent(ev, info = {}, viewer = null) {
  const els = info.elements || [];
  const who = (/** @type {number} */ p) => playerName(info, p);
  switch (ev.type) {
    case "reveal":
      if (ev.cause === "refill") return `Slot ${ev.slot} refilled: ${elementLabel(ev.element, els)}`;
      if (ev.cause === "tide") return `Tide brought ${elementLabel(ev.element, els)} into slot ${ev.slot}`;
      if (effectKind(ev.cause) === "peek") {
        // A private peek: a player who was not shown it learns only who saw it; the all-seeing
        // teacher sees the element, and whose secret it is.
        const seers = Array.isArray(ev.visible_to) ? ev.visible_to.map(who).join(" and ") : "";
        if (!ev.element) return `Slot ${ev.slot} was peeked at: ${seers ? `only ${seers} saw it` : "hidden from you"}`;
        const seen = `Peek at slot ${ev.slot}: ${elementLabel(ev.element, els)}`;
        return viewer === null && seers ? `${seen} (seen by ${seers} only)` : seen;
      }
      return null;
    case "activate":
      return `${who(ev.player)} activated slot ${ev.slot}: ${elementLabel(ev.element, els)}`;
    case "deactivate":
      return `${who(ev.player)} deactivated slot ${ev.slot}`;
    case "pass":
      return `${who(ev.player)} passed`;
    case "collect":
      return `${who(ev.player)} collected ${ev.count} ${elementLabel(ev.element, els)}`;
    case "flip_back":
      return `${ev.slots.length === 1 ? "Slot" : "Slots"} ${ev.slots.join(", ")} flipped back`;
    case "token_return":
      return `${plural(ev.count, elementLabel(ev.element, els) + " token")} freed from slot ` +
        `${ev.slot} to ${ev.to === "marker" ? `${possessive(who(ev.player))} Spent marker` : "the Token Pool"}`;
    case "place_token":
      return `${who(ev.player)} placed a ${elementLabel(ev.element, els)} token on slot ${ev.slot} ` +
        `(${(SOURCE_WORDS[ev.source] || ev.source).toLowerCase()})`;
    case "power":
      return `${who(ev.player)} used ${ev.name}` +
        (ev.targets && ev.targets.length ? ` on ${listSlots(ev.targets)}` : "");
    case "swap":
      return `Slots ${ev.slots[0]} and ${ev.slots[1]} swapped`;
    case "tide":
      return `Slot ${ev.slot}'s card (${elementLabel(ev.to_deck, els)}) went on top of the deck`;
    case "turn":
      return `Turn ${ev.turn}: ${who(ev.player)}`;
    case "game_over":
      return `Game over: ${END_REASONS[ev.reason] || ev.reason}`;
    default:
      return null;
  }
}

/**
 * The seat whose Study and powers the page shows: the viewer, or the active player.
 * @param {View} view
 * @returns {number}
 */
export function mySeat(view) {
  return view.viewer === null || view.viewer === undefined ? view.active_player : view.viewer;
}

/**
 * The one-line prompt of what to do now.
 * @param {BoardState} st
 * @param {PlayUi} [ui]
 * @returns {string}
 */
export function promptFor(st, ui = /** @type {PlayUi} */ ({})) {
  const { view, legal, info } = st;
  if (!view || !view.phase) return "Loading…";
  const els = info.elements || view.elements || [];
  if (view.is_over) return "Game over: see the scores below.";
  const active = playerName(info, view.active_player);
  if (ui.deal === "waiting") return "Press Ready when everyone is looking: the deal is shown once.";
  if (legal.bot) return ui.paused ? `${active} is paused: click Next bot move, or pick a Bot pace.` : `${active} is playing…`;
  if (legal.actor === null || legal.actor === undefined) return `Waiting for ${active} to play.`;
  const lead = (info.players || []).length > 1 ? `${active}: ` : "";
  switch (view.phase) {
    case "abilities": {
      const pw = ui.power && powerOf(info, ui.power);
      const spec = ui.power && legal.powers && legal.powers[ui.power];
      if (pw && spec && spec.max > 0) {
        const need = spec.min === spec.max ? plural(spec.max, "card") : `${spec.min} to ${spec.max} cards`;
        return `${lead}${pw.name}: click ${need} on the grid (${ui.targets.length} chosen); Esc cancels.`;
      }
      return `${lead}choose a power under the grid (keys 1-9), or No power this turn (N).`;
    }
    case "activation": {
      const left = view.activations.limit - view.activations.used;
      if (left <= 0) return `${lead}no activations left: click Collect, or click an activated card to take it back.`;
      return `${lead}click inert cards to activate them (${left} of ${view.activations.limit} left), ` +
        `then Collect.`;
    }
    case "refill": {
      const empty = view.grid.filter((c) => c.card === "empty").length;
      const top = view.deck.top ? elementLabel(view.deck.top, els) : "none";
      return `${lead}click an empty slot to place the next card (${top}); ${plural(empty, "slot")} to fill.`;
    }
    case "binding":
      if (ui.source) {
        return `${lead}click a card to bind it with a ${elementLabel(ui.source.element, els)} token ` +
          `from the ${SOURCE_WORDS[ui.source.source].toLowerCase()}, or End turn.`;
      }
      return `${lead}to place a Binding token pick an element and a source below, then a card; or End turn.`;
    default:
      return "";
  }
}

/**
 * @param {View} view
 * @returns {string}
 */
export function endLabel(view) {
  switch (view.phase) {
    case "abilities":
      return "End Phase 1";
    case "activation":
      return view.activations.used ? "Collect" : "Pass";
    case "refill":
      return "Refill first";
    case "binding":
      return "End turn";
    default:
      return "End";
  }
}

/**
 * @param {LineEntry} entry
 * @param {(ev: GameEvent) => unknown} test
 * @returns {GameEvent | null}
 */
function firstEvent(entry, test) {
  return (entry.events || []).find(test) || null;
}

/**
 * @param {LineEntry} entry
 * @param {string[]} els
 * @returns {string}
 */
function endPhaseWords(entry, els) {
  const events = entry.events || [];
  if (entry.phase === "abilities") return "ends Phase 1";
  if (entry.phase === "binding") return "ends the turn";
  if (entry.phase !== "activation") return "ends the phase";
  if (events.some((ev) => ev.type === "pass")) return "passes";
  const got = events.filter((ev) => ev.type === "collect").map((ev) => `${ev.count} ${elementLabel(ev.element, els)}`);
  const back = firstEvent(entry, (ev) => ev.type === "flip_back");
  let words = got.length ? `collects ${got.join(" and ")}` : "collects nothing";
  if (back) words += `; ${listSlots(back.slots)} flip${back.slots.length === 1 ? "s" : ""} back`;
  return words;
}

/**
 * One step of a replay in words, from its entry in the `line` trait ({turn, player, phase,
 * action, events}): "Turn 3, Ada activates slot 5: ● Water". On a seat's page (`viewer` a
 * seat) a refilled, Tide-brought or peeked card is glimpsed and then lies inert, so the words,
 * which stay on screen, do not name it; an activated card stays face-up at its step.
 * @param {LineEntry | null | undefined} entry
 * @param {Info} [info]
 * @param {number | null} [viewer]
 * @returns {string}
 */
export function describeStep(entry, info = {}, viewer = null) {
  if (!entry) return "";
  const els = info.elements || [];
  const glimpsed = viewer !== null && viewer !== undefined;
  const a = entry.action;
  if (!a) {
    return firstEvent(entry, (ev) => ev.type === "reveal" && ev.cause === "setup")
      ? "Set-up: the grid is dealt, each card shown face-up once" : "The start position";
  }
  /**
   * @param {string} cause
   */
  const revealed = (cause) => (glimpsed ? null
    : firstEvent(entry, (ev) => ev.type === "reveal" && ev.cause === cause && ev.element));
  let what;
  switch (a.type) {
    case "activate": {
      const ev = firstEvent(entry, (e) => e.type === "activate");
      what = `activates slot ${a.slot}${ev ? `: ${elementLabel(ev.element, els)}` : ""}`;
      break;
    }
    case "deactivate":
      what = `deactivates slot ${a.slot}`;
      break;
    case "refill": {
      const ev = revealed("refill");
      what = `refills slot ${a.slot}${ev ? `: ${elementLabel(ev.element, els)}` : ""}`;
      break;
    }
    case "place_token":
      what = `places a ${elementLabel(a.element, els)} Binding token on slot ${a.slot} ` +
        `(from the ${(SOURCE_WORDS[a.source] || a.source).toLowerCase()})`;
      break;
    case "use_power": {
      const pw = firstEvent(entry, (e) => e.type === "power");
      const known = powerOf(info, `${a.element}:${a.tier}`);
      const t = a.targets || [];
      what = `uses ${pw ? pw.name : known ? known.name : `the ${a.element} ${a.tier} power`}` +
        (t.length ? ` on ${listSlots(t)}` : "");
      // Peeks are in the entry only when this viewer was shown them.
      const peeks = glimpsed ? []
        : (entry.events || []).filter((e) => e.type === "reveal" && effectKind(e.cause) === "peek" && e.element);
      if (peeks.length) what += `, seeing ${peeks.map((e) => `slot ${e.slot}: ${elementLabel(e.element, els)}`).join(", ")}`;
      const tide = firstEvent(entry, (e) => e.type === "tide");
      const came = revealed("tide");
      if (tide && glimpsed) {
        what += ": the card goes on top of the deck, a new one comes in";
      } else if (tide) {
        what += `: ${elementLabel(tide.to_deck, els)} goes on top of the deck` +
          (came ? `, ${elementLabel(came.element, els)} comes in` : "");
      }
      break;
    }
    case "end_phase":
      what = endPhaseWords(entry, els);
      break;
    default:
      what = describeAction(a, info).toLowerCase();
  }
  const over = firstEvent(entry, (e) => e.type === "game_over");
  return `Turn ${entry.turn}, ${playerName(info, entry.player)} ${what}${over ? "; the game ends" : ""}`;
}
