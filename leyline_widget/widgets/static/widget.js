// Generated from js/src by `npm run build` (js/build.mjs): do not edit; edit js/src instead.
// One self-contained ES module: anywidget and the offline replay pages load it from a Blob URL.

// js/src/dom.js
function h(doc, tag, attrs, ...children) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === void 0 || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === void 0 || child === false) continue;
    node.append(typeof child === "object" ? (
      /** @type {Node} */
      child
    ) : doc.createTextNode(String(child)));
  }
  return node;
}
var PAINT_KEY = "data-paint-key";
var deferred = /* @__PURE__ */ new WeakMap();
function lazy(doc, key, build) {
  const stub = doc.createElement("template");
  stub.setAttribute(PAINT_KEY, key);
  deferred.set(stub, () => {
    const node = build();
    node.setAttribute(PAINT_KEY, key);
    return node;
  });
  return stub;
}
function whole(node) {
  if (node.nodeType !== 1) return node;
  const el = (
    /** @type {Element} */
    /** @type {unknown} */
    node
  );
  const own = deferred.get(el);
  if (own) return (
    /** @type {T} */
    /** @type {unknown} */
    whole(own())
  );
  for (const stub of Array.from(el.querySelectorAll(`template[${PAINT_KEY}]`))) {
    const build = deferred.get(stub);
    if (build) stub.replaceWith(whole(build()));
  }
  return node;
}
function digest(text) {
  let h1 = 3735928559;
  let h2 = 1103547991;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ h1 >>> 16, 2246822507) ^ Math.imul(h2 ^ h2 >>> 13, 3266489909);
  h2 = Math.imul(h2 ^ h2 >>> 16, 2246822507) ^ Math.imul(h1 ^ h1 >>> 13, 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
var ids = /* @__PURE__ */ new WeakMap();
var nextId = 1;
function idOf(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "u";
  if (Array.isArray(value) ? !value.length : isEmpty(value)) return "0";
  let id = ids.get(value);
  if (id === void 0) {
    id = nextId++;
    ids.set(value, id);
  }
  return `#${id}`;
}
function isEmpty(value) {
  for (const _ in value) return false;
  return true;
}
function unchanged(cur, next) {
  if (!cur.isEqualNode(next)) return false;
  if (cur.nodeType !== 1) return true;
  const el = (
    /** @type {Element} */
    /** @type {Node} */
    cur
  );
  return el.nodeName !== "SELECT" && !el.querySelector("select");
}
function morph(cur, next) {
  if (cur.nodeType === 1 && next.nodeType === 1) {
    const key = (
      /** @type {Element} */
      /** @type {Node} */
      next.getAttribute(PAINT_KEY)
    );
    if (key !== null && /** @type {Element} */
    /** @type {Node} */
    cur.getAttribute(PAINT_KEY) === key) return cur;
    const build = deferred.get(
      /** @type {Element} */
      /** @type {Node} */
      next
    );
    if (build) next = /** @type {T} */
    /** @type {unknown} */
    build();
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
  const from = (
    /** @type {Element} */
    /** @type {Node} */
    cur
  );
  const to = (
    /** @type {Element} */
    /** @type {Node} */
    next
  );
  for (const name of from.getAttributeNames()) {
    if (!to.hasAttribute(name)) from.removeAttribute(name);
  }
  for (const name of to.getAttributeNames()) {
    const value = (
      /** @type {string} */
      to.getAttribute(name)
    );
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  }
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
    const select = (
      /** @type {HTMLSelectElement} */
      from
    );
    const chosen2 = Array.from(
      /** @type {HTMLSelectElement} */
      to.options || []
    ).find((o) => o.hasAttribute("selected"));
    if (chosen2 && select.value !== chosen2.value) select.value = chosen2.value;
  }
  return cur;
}
function listen(node, handlers) {
  const pairs = Object.entries(handlers);
  for (const [type, handler] of pairs) node.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of pairs) node.removeEventListener(type, handler);
  };
}
function svgNamespace(doc) {
  const known = namespaces.get(doc);
  if (known !== void 0) return known;
  const box = doc.createElement("div");
  box.innerHTML = "<svg></svg>";
  const ns = (
    /** @type {Element} */
    box.firstElementChild.namespaceURI || ""
  );
  namespaces.set(doc, ns);
  return ns;
}
var namespaces = /* @__PURE__ */ new WeakMap();
function svg(doc, tag, attrs, ...children) {
  const node = doc.createElementNS(svgNamespace(doc), tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c !== null) node.append(typeof c === "string" ? doc.createTextNode(c) : c);
  return node;
}

// js/src/looks.js
var ELEMENT_LOOKS = {
  fire: { symbol: "▲", colour: "#D55E00", ink: "#000000" },
  water: { symbol: "●", colour: "#0072B2", ink: "#ffffff" },
  earth: { symbol: "■", colour: "#009E73", ink: "#000000" },
  wind: { symbol: "≋", colour: "#CC79A7", ink: "#000000" }
};
var SPARE_LOOKS = [
  { symbol: "★", colour: "#E69F00", ink: "#000000" },
  { symbol: "✚", colour: "#56B4E9", ink: "#000000" },
  { symbol: "◆", colour: "#F0E442", ink: "#000000" },
  { symbol: "✦", colour: "#999999", ink: "#000000" }
];
function elementLook(element, elements = []) {
  const name = element ? element.charAt(0).toUpperCase() + element.slice(1).replace(/_/g, " ") : "";
  const key = element || "";
  const known = ELEMENT_LOOKS[key];
  if (known) return { ...known, name };
  const spares = elements.filter((e) => !ELEMENT_LOOKS[e]);
  const i = Math.max(0, spares.indexOf(key));
  return { ...SPARE_LOOKS[i % SPARE_LOOKS.length], name };
}
function elementLabel(element, elements = []) {
  const look = elementLook(element, elements);
  return `${look.symbol} ${look.name}`;
}

// js/src/kinds.js
var EFFECT_KINDS = {
  spark: "extra_activations",
  wildfire: "collect_threshold",
  sanctuary: "ignore_tokens",
  ripple: "swap",
  tide: "swap_with_deck",
  unbind: "remove_tokens",
  whisper: "peek",
  gale: "peek"
};
function effectKind(effect) {
  if (effect && typeof effect === "object" && typeof /** @type {{kind?: unknown}} */
  effect.kind === "string") {
    return (
      /** @type {{kind: string}} */
      effect.kind
    );
  }
  return typeof effect === "string" ? EFFECT_KINDS[effect] || effect : "";
}

// js/src/words.js
var PHASE_TITLES = {
  abilities: "Phase 1 · Abilities",
  activation: "Phase 2 · Activation",
  refill: "Refill",
  binding: "Phase 3 · Binding",
  game_over: "Game over"
};
var SOURCE_WORDS = { supply: "Supply", marker: "Spent marker", pool: "Token Pool" };
var END_REASONS = {
  deck: "a card had to be refilled and the Leyline deck was empty",
  stalemate: "no player could ever collect again (stalemate)",
  turn_limit: "the turn limit was reached",
  round_limit: "the round limit was reached",
  idle: "too many rounds went by without a collection, token or power"
};
var MARK_WORDS = {
  activated: "activated",
  flipped: "flipped and turned back",
  collected: "collected",
  refilled: "refilled",
  bound: "bound with a token",
  swapped: "swapped",
  peeked: "peeked at",
  tide: "sent to the deck by Tide",
  unbound: "its tokens removed"
};
function RULES_SHORT(info) {
  const acts = info.activations || 3;
  const k = info.collect_threshold || 2;
  return [
    "Goal: the most cards in your Study when the game ends; ties share the win.",
    "The grid's cards are shown face-up once when they arrive (the deal, each refill), then lie inert: remember them.",
    `Phase 1 · Abilities: use each power you have unlocked once (skipped when you have none).`,
    `Phase 2 · Activation: flip up to ${acts} inert cards face-up (click again to take one back), or pass. Collect: every element with ${k} or more activated goes to your Study; the rest flip back.`,
    "Refill: click empty slots to place the deck's face-up top card, one at a time.",
    "Phase 3 · Binding: place tokens on cards. A card with tokens can only be activated by a player whose Study has at least as many cards of each token's element. From the Supply a token costs a Study card (it becomes a Spent marker); from your Spent marker or the Token Pool it is free (the Pool needs a matching marker).",
    "When a bound card is collected its tokens go to the active player's matching Spent marker, or to the Token Pool.",
    "The game ends when a card must be refilled and the deck is empty."
  ];
}
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
function playerName(info, p) {
  const seat = info && info.players && info.players[p];
  return seat ? seat.name : `Player ${p + 1}`;
}
function possessive(name) {
  return name === "You" ? "your" : `${name}'s`;
}
function listSlots(slots) {
  if (slots.length === 1) return `slot ${slots[0]}`;
  return `slots ${slots.slice(0, -1).join(", ")} and ${slots[slots.length - 1]}`;
}
function powerOf(info, key) {
  return (info && info.powers || []).find((p) => p.key === key) || null;
}
function describeAction(action, info = {}) {
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
      return `Place a ${elementLabel(action.element, els)} token on slot ${action.slot} (from the ${(SOURCE_WORDS[action.source] || action.source).toLowerCase()})`;
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
function describeEvent(ev, info = {}, viewer = null) {
  const els = info.elements || [];
  const who = (p) => playerName(info, p);
  switch (ev.type) {
    case "reveal":
      if (ev.cause === "refill") return `Slot ${ev.slot} refilled: ${elementLabel(ev.element, els)}`;
      if (ev.cause === "tide") return `Tide brought ${elementLabel(ev.element, els)} into slot ${ev.slot}`;
      if (effectKind(ev.cause) === "peek") {
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
      return `${plural(ev.count, elementLabel(ev.element, els) + " token")} freed from slot ${ev.slot} to ${ev.to === "marker" ? `${possessive(who(ev.player))} Spent marker` : "the Token Pool"}`;
    case "place_token":
      return `${who(ev.player)} placed a ${elementLabel(ev.element, els)} token on slot ${ev.slot} (${(SOURCE_WORDS[ev.source] || ev.source).toLowerCase()})`;
    case "power":
      return `${who(ev.player)} used ${ev.name}` + (ev.targets && ev.targets.length ? ` on ${listSlots(ev.targets)}` : "");
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
function mySeat(view) {
  return view.viewer === null || view.viewer === void 0 ? view.active_player : view.viewer;
}
function promptFor(st, ui = (
  /** @type {PlayUi} */
  {}
)) {
  const { view, legal, info } = st;
  if (!view || !view.phase) return "Loading…";
  const els = info.elements || view.elements || [];
  if (view.is_over) return "Game over: see the scores below.";
  const active = playerName(info, view.active_player);
  if (ui.deal === "waiting") return "Press Ready when everyone is looking: the deal is shown once.";
  if (legal.bot) return ui.paused ? `${active} is paused: click Next bot move, or pick a Bot pace.` : `${active} is playing…`;
  if (legal.actor === null || legal.actor === void 0) return `Waiting for ${active} to play.`;
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
      return `${lead}click inert cards to activate them (${left} of ${view.activations.limit} left), then Collect.`;
    }
    case "refill": {
      const empty = view.grid.filter((c) => c.card === "empty").length;
      const top = view.deck.top ? elementLabel(view.deck.top, els) : "none";
      return `${lead}click an empty slot to place the next card (${top}); ${plural(empty, "slot")} to fill.`;
    }
    case "binding":
      if (ui.source) {
        return `${lead}click a card to bind it with a ${elementLabel(ui.source.element, els)} token from the ${SOURCE_WORDS[ui.source.source].toLowerCase()}, or End turn.`;
      }
      return `${lead}to place a Binding token pick an element and a source below, then a card; or End turn.`;
    default:
      return "";
  }
}
function endLabel(view) {
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
function firstEvent(entry, test) {
  return (entry.events || []).find(test) || null;
}
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
function describeStep(entry, info = {}, viewer = null) {
  if (!entry) return "";
  const els = info.elements || [];
  const glimpsed = viewer !== null && viewer !== void 0;
  const a = entry.action;
  if (!a) {
    return firstEvent(entry, (ev) => ev.type === "reveal" && ev.cause === "setup") ? "Set-up: the grid is dealt, each card shown face-up once" : "The start position";
  }
  const revealed = (cause) => glimpsed ? null : firstEvent(entry, (ev) => ev.type === "reveal" && ev.cause === cause && ev.element);
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
      what = `places a ${elementLabel(a.element, els)} Binding token on slot ${a.slot} (from the ${(SOURCE_WORDS[a.source] || a.source).toLowerCase()})`;
      break;
    case "use_power": {
      const pw = firstEvent(entry, (e) => e.type === "power");
      const known = powerOf(info, `${a.element}:${a.tier}`);
      const t = a.targets || [];
      what = `uses ${pw ? pw.name : known ? known.name : `the ${a.element} ${a.tier} power`}` + (t.length ? ` on ${listSlots(t)}` : "");
      const peeks = glimpsed ? [] : (entry.events || []).filter((e) => e.type === "reveal" && effectKind(e.cause) === "peek" && e.element);
      if (peeks.length) what += `, seeing ${peeks.map((e) => `slot ${e.slot}: ${elementLabel(e.element, els)}`).join(", ")}`;
      const tide = firstEvent(entry, (e) => e.type === "tide");
      const came = revealed("tide");
      if (tide && glimpsed) {
        what += ": the card goes on top of the deck, a new one comes in";
      } else if (tide) {
        what += `: ${elementLabel(tide.to_deck, els)} goes on top of the deck` + (came ? `, ${elementLabel(came.element, els)} comes in` : "");
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

// js/src/memory.js
var SEEN_HOW = {
  setup: "at set-up",
  refill: "when refilled",
  tide: "brought by Tide",
  whisper: "by Whisper",
  gale: "by Gale",
  activate: "activated",
  given: "known from the start"
};
function memoryPanel(doc, st) {
  const report = st.memory;
  if (!report || !Array.isArray(report.slots)) return null;
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const seats = info.players || [];
  const cells = report.slots.map((e) => {
    if (e.state === "empty") {
      return h(
        doc,
        "div",
        { class: "ll-mem ll-mem-empty", role: "listitem", "aria-label": `Slot ${e.slot}: empty` },
        h(doc, "span", { class: "ll-slotno", "aria-hidden": "true" }, e.slot),
        "empty"
      );
    }
    const look = e.card ? elementLook(e.card, els) : null;
    const when = e.seen ? `turn ${e.seen_turn}, ${SEEN_HOW[e.how] || e.how}` : "never seen";
    return h(
      doc,
      "div",
      {
        class: `ll-mem ${e.seen ? "ll-mem-seen" : "ll-mem-never"}`,
        role: "listitem",
        "data-slot": e.slot,
        "data-seen": e.seen ? "true" : "false",
        style: look ? `--ll-el:${look.colour};--ll-ink:${look.ink}` : null,
        "aria-label": `Slot ${e.slot}: ${look ? look.name : "card"}, ${e.seen ? `seen on ${when}` : "never seen"}`
      },
      h(doc, "span", { class: "ll-slotno", "aria-hidden": "true" }, e.slot),
      look ? h(doc, "span", { class: "ll-memcard", "aria-hidden": "true" }, look.symbol, " ", look.name) : null,
      h(doc, "span", { class: "ll-memwhen", "aria-hidden": "true" }, e.seen ? `T${e.seen_turn} · ${SEEN_HOW[e.how] || e.how}` : "never seen")
    );
  });
  const planWords = (m) => Object.entries(m.plan).map(([el, k]) => `${k} ${elementLook(el, els).name} (${listSlots(m.options[el] || [])})`).join(" and ");
  const missed = report.missed || [];
  const never = report.never_seen || [];
  return h(
    doc,
    "section",
    { class: "ll-memory", "aria-label": `Memory of ${report.name}` },
    h(
      doc,
      "div",
      { class: "ll-h" },
      `Memory of ${report.name} (teacher view)`,
      seats.length > 1 ? h(
        doc,
        "label",
        { class: "ll-pick" },
        " · player ",
        h(
          doc,
          "select",
          { "data-act": "memory-of", "aria-label": "Whose memory" },
          seats.map((p, i) => h(doc, "option", { value: i, selected: i === report.player }, p.name))
        )
      ) : null
    ),
    h(doc, "p", { class: "ll-note" }, `Seen ${report.summary.seen} of ${plural(report.summary.cards, "card")} on the grid; never seen: ${never.length ? listSlots(never) : "none"}.`),
    h(doc, "div", { class: "ll-memgrid", role: "list", style: `--ll-cols:${view.grid_cols || 4}` }, cells),
    h(doc, "div", { class: "ll-h" }, "Missed collections"),
    missed.length ? h(doc, "ul", { class: "ll-missed" }, missed.map((m) => h(
      doc,
      "li",
      {},
      `Turn ${m.turn}: could have collected ${m.best} from what they had seen — ${planWords(m)}; collected ${m.got}` + (m.elements.length ? ` (missed ${m.elements.map((el) => elementLook(el, els).name).join(", ")})` : "") + "."
    ))) : h(doc, "p", { class: "ll-note" }, "None so far: every collection they knew of was made.")
  );
}
function chooseMemoryOf(model, value) {
  model.set("show_memory_of", Number(value));
  model.save_changes();
}

// js/src/table.js
var EFFECT_WORDS = {
  collect_threshold: "collect at 1",
  ignore_tokens: "tokens ignored",
  extra_activations: "extra activation"
};
var KEYS = {
  e: "[data-act=end]",
  n: "[data-act=no-power]",
  h: "[data-act=hint]",
  u: "[data-act=undo]",
  r: "[data-act=deal-ready], [data-act=handoff-ready]",
  "?": "[data-act=rules]",
  b: "[data-act=bot-step]",
  c: "[data-act=cancel]",
  f: "[data-act=refill-all]"
};
function canAct(st) {
  return st.legal.actor !== null && st.legal.actor !== void 0 && !st.view.is_over;
}
function recapPanel(doc, st) {
  const recap = st.log && st.log.recap || [];
  if (!recap.length || st.view.players.length < 2) return null;
  return h(
    doc,
    "section",
    { class: "ll-recap", "aria-label": "Since your last turn" },
    h(doc, "ul", {}, recap.map((r) => h(
      doc,
      "li",
      { "data-recap-turn": r.turn },
      h(doc, "span", { class: "ll-recapturn" }, `Turn ${r.turn}: `),
      r.text
    )))
  );
}
function phaseChoice(doc, st, ui) {
  const { view, legal, info } = st;
  if (view.phase !== "abilities" || !canAct(st)) return null;
  const usable = (info.powers || []).filter((pw) => legal.powers && legal.powers[pw.key]);
  const els = info.elements || view.elements || [];
  const hinted = hintPowerKey(st);
  return h(
    doc,
    "section",
    { class: "ll-choice", "aria-label": "Phase 1: choose a power or none" },
    h(doc, "span", { class: "ll-k" }, "Phase 1:"),
    usable.map((pw, i) => {
      const look = elementLook(pw.element, els);
      const open = ui.power === pw.key || ui.infoPower === pw.key;
      return h(
        doc,
        "button",
        {
          type: "button",
          class: `ll-btn ll-pw${open ? " ll-chosen" : ""}${hinted === pw.key ? " ll-hinted" : ""}`,
          "data-act": "choose-power",
          "data-power": pw.key,
          "data-keyno": i + 1,
          "aria-pressed": open ? "true" : "false",
          title: `${pw.text} (key ${i + 1})`,
          "aria-keyshortcuts": String(i + 1)
        },
        h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}`, "aria-hidden": "true" }, look.symbol),
        ` ${pw.name}`,
        h(doc, "kbd", { "aria-hidden": "true" }, i + 1)
      );
    }),
    h(doc, "button", {
      type: "button",
      class: `ll-btn ll-primary${hinted === "end" ? " ll-hinted" : ""}`,
      "data-act": "no-power",
      "aria-keyshortcuts": "N",
      title: "Go to Phase 2 without a power (key N)"
    }, "No power this turn ", h(doc, "kbd", { "aria-hidden": "true" }, "N"))
  );
}
function prefsPanel(doc, st) {
  if (!canAct(st) || !st.prefs) return null;
  const seat = (
    /** @type {number} */
    st.legal.actor
  );
  const on = (name) => (st.prefs && st.prefs[name] || []).includes(seat);
  const box = (name, words) => h(
    doc,
    "label",
    { class: "ll-pref" },
    h(doc, "input", { type: "checkbox", "data-act": "pref", "data-pref": name, checked: on(name) }),
    ` ${words}`
  );
  return h(
    doc,
    "details",
    { class: "ll-prefs" },
    h(doc, "summary", {}, "Table settings"),
    box("skip_phase1", "Skip Phase 1: a card click means no power this turn"),
    box("confirm_end", "Ask me to click End turn even when no token can be placed")
  );
}
function liveHint(st) {
  const hint = st.hint;
  const s = hint && hint.suggestion;
  if (!hint || !s || hint.seat !== st.view.viewer) return null;
  if (hint.step !== void 0 && st.legal.step !== void 0 && hint.step !== st.legal.step) return null;
  return s;
}
function hintSlots(st) {
  const s = liveHint(st);
  if (!s) return [];
  const out = /* @__PURE__ */ new Set();
  for (const a of s.plan && s.plan.length ? s.plan : [s.action]) {
    if (typeof a.slot === "number") out.add(a.slot);
    for (const t of a.targets || []) out.add(t);
  }
  return (
    /** @type {number[]} */
    [...out].sort((a, b) => a - b)
  );
}
function hintPowerKey(st) {
  const s = liveHint(st);
  if (!s) return null;
  if (s.action.type === "use_power") return `${s.action.element}:${s.action.tier}`;
  return s.action.type === "end_phase" ? "end" : null;
}
function hintPanel(doc, st) {
  const s = liveHint(st);
  const hint = st.hint;
  if (!s || !hint) return null;
  const used = (hint.used || [])[hint.seat ?? 0] || 0;
  const plan = s.label ? s.label[0].toUpperCase() + s.label.slice(1) : describeAction(s.action, st.info);
  const slots = hintSlots(st);
  const margin = Math.abs(s.value) >= 1 ? ` Expected final margin: ${s.value > 0 ? "+" : ""}${s.value.toFixed(1)} cards.` : "";
  return h(
    doc,
    "section",
    { class: "ll-coach-hint", "aria-label": "Coach's hint", "aria-live": "polite" },
    h(doc, "strong", {}, "Hint: "),
    `${plan}.`,
    slots.length ? h(doc, "span", { class: "ll-note" }, ` Marked on the grid: ${listSlots(slots)}.`) : null,
    h(doc, "span", { class: "ll-note" }, `${margin} Hints used this game: ${used}.`)
  );
}
function keysLine(doc, st) {
  if (!canAct(st)) return null;
  const phase = st.view.phase;
  const keys = [["Arrows", "move"], ["Enter", "click card"]];
  if (phase === "abilities") keys.push(["1-9", "power"], ["N", "no power"]);
  if (phase === "refill" && (st.legal.refill || []).length > 1) keys.push(["F", "fill in order"]);
  if (st.legal.end) keys.push(["E", "end / collect"]);
  if (st.hint && st.hint.enabled) keys.push(["H", "hint"]);
  keys.push(["?", "rules"]);
  return h(
    doc,
    "p",
    { class: "ll-keys ll-note", "aria-label": "Keys" },
    keys.map(([k, what], i) => [i ? " · " : "", h(doc, "kbd", {}, k), ` ${what}`])
  );
}
function finalElement(st, slot) {
  const final = st.final_grid;
  if (!st.view.is_over || !Array.isArray(final)) return null;
  return final[slot] || null;
}

// js/src/board.js
function tokenChips(doc, tokens, els) {
  const entries = Object.entries(tokens || {}).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return h(doc, "span", { class: "ll-tokens" }, entries.map(([el, n]) => {
    const look = elementLook(el, els);
    return h(doc, "span", {
      class: "ll-token",
      "data-element": el,
      title: `${plural(n, look.name + " Binding token")}`,
      style: `--ll-el:${look.colour};--ll-ink:${look.ink}`
    }, look.symbol, n > 1 ? `×${n}` : null);
  }));
}
function tokenWords(tokens, els) {
  const entries = Object.entries(tokens || {}).filter(([, n]) => n > 0);
  if (!entries.length) return "";
  return `, bound by ${entries.map(([el, n]) => plural(n, elementLook(el, els).name + " token")).join(" and ")}`;
}
function cellFace(cell, slot, st, ui, now) {
  if (cell.card === "empty") return { kind: "empty", element: null };
  if (cell.card === "active") return { kind: "active", element: cell.element };
  const glimpse2 = ui.reveals && ui.reveals[slot];
  if (glimpse2 && glimpse2.until > now && glimpse2.element) {
    return { kind: "glimpse", element: glimpse2.element, cause: glimpse2.cause };
  }
  if (cell.element) return { kind: "seen", element: cell.element };
  const final = finalElement(st, slot);
  if (final) return { kind: "final", element: final };
  const known = st.remembered && st.remembered[slot];
  if (known) return { kind: "remembered", element: known };
  return { kind: "inert", element: null };
}
function isTrue(list, x) {
  return Array.isArray(list) && list.includes(x);
}
function glimpseFlag(cause) {
  return effectKind(cause) === "peek" ? "peek" : "new";
}
function cardButton(doc, slot, cell, st, ui, now, lazily) {
  const { view, legal, info } = st;
  const els = info.elements || view.elements || [];
  const face = cellFace(cell, slot, st, ui, now);
  const cols = view.grid_cols || 1;
  const row = Math.floor(slot / cols) + 1;
  const col = slot % cols + 1;
  const classes = ["ll-card", `ll-${face.kind}`];
  let hint = "";
  const phase = view.phase;
  const targeting = ui.power && legal.powers && legal.powers[ui.power];
  if (targeting && targeting.max > 0) {
    if (isTrue(targeting.slots, slot)) {
      classes.push("ll-legal", "ll-candidate");
      hint = "click to choose as a target";
    }
    if (isTrue(ui.targets, slot)) classes.push("ll-chosen");
  } else if (phase === "activation" && legal.actor !== void 0 && legal.actor !== null) {
    if (isTrue(legal.activate, slot)) {
      classes.push("ll-legal");
      hint = "click to activate";
    } else if (isTrue(legal.deactivate, slot)) {
      classes.push("ll-legal");
      hint = "click to deactivate (refund)";
    } else if (legal.blocked && legal.blocked[slot]) {
      classes.push("ll-blocked");
      hint = legal.blocked[slot];
    }
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
  const shown = st.shown && st.shown[slot] || [];
  const marks = shown.length ? shown : st.log && st.log.marks && st.log.marks[slot] || [];
  if (marks.length) classes.push("ll-marked");
  if (shown.length) classes.push("ll-shown");
  const motion = ui.motion && ui.motion[slot];
  if (motion && motion.until > now) classes.push(`ll-mo-${motion.kind}`);
  classes.push(...ui.cardClasses && ui.cardClasses[slot] || []);
  const look = face.element ? elementLook(face.element, els) : null;
  const state = {
    empty: "empty slot",
    inert: "inert card",
    active: `activated ${look && look.name} card`,
    glimpse: `inert card, glimpsed as ${look && look.name}`,
    seen: `inert ${look && look.name} card (teacher view)`,
    remembered: `inert card you remember as ${look && look.name}`,
    final: `${look && look.name} card, face up now the game is over`
  }[face.kind];
  const others = marks.length ? `. ${shown.length ? "The skipped step" : "Since your last turn"}: ` + marks.map((k) => MARK_WORDS[k] || k).join(", ") : "";
  const flag = face.kind === "glimpse" ? glimpseFlag(face.cause) : "";
  const visible = [slot, flag, look ? look.name : ""].filter((w) => w !== "").join(" ");
  const label = `${visible}: slot ${slot} (row ${row}, column ${col}), ${state}${tokenWords(cell.tokens, els)}${others}` + (hinted ? ". The coach's hint plays this slot" : "") + (hint ? `. ${hint}` : "");
  const attrs = {
    type: "button",
    class: classes.join(" "),
    "data-act": "card",
    "data-slot": slot,
    "data-card": cell.card,
    tabindex: slot === (ui.focus || 0) ? 0 : -1,
    "aria-label": label,
    title: ui.cardTitle || hint || null
  };
  if (look) {
    attrs["data-element"] = face.element;
    attrs.style = `--ll-el:${look.colour};--ll-ink:${look.ink}`;
  }
  const hole = phase === "refill" && isTrue(legal.refill, slot) ? "+" : "";
  const ghost = motion && motion.kind === "collect" && motion.until > now && motion.element ? motion.element : null;
  const build = () => cardBody(doc, slot, attrs, face, flag, look, hole, cell.tokens, els, marks, ghost);
  return lazily ? lazy(doc, `c${slot}:${digest(JSON.stringify([attrs, face.kind, flag, look, hole, cell.tokens, els, marks, ghost]))}`, build) : build();
}
function cardBody(doc, slot, attrs, face, flag, look, hole, tokens, els, marks, ghost) {
  const body = [];
  body.push(h(doc, "span", { class: "ll-slotno", "aria-hidden": "true" }, slot));
  if (face.kind === "glimpse") {
    body.push(h(doc, "span", { class: "ll-flag", "aria-hidden": "true" }, flag));
  }
  if (look) {
    body.push(h(
      doc,
      "span",
      { class: "ll-face", "aria-hidden": "true" },
      h(doc, "span", { class: "ll-sym" }, look.symbol),
      h(doc, "span", { class: "ll-name" }, look.name)
    ));
  } else if (face.kind === "inert") {
    body.push(h(doc, "span", { class: "ll-back", "aria-hidden": "true" }, "✧"));
  } else {
    body.push(h(doc, "span", { class: "ll-hole", "aria-hidden": "true" }, hole));
  }
  body.push(tokenChips(doc, tokens, els));
  if (marks.length) {
    body.push(h(
      doc,
      "span",
      { class: "ll-marks", "aria-hidden": "true", title: marks.map((k) => MARK_WORDS[k] || k).join(", ") },
      marks.map((k) => h(doc, "span", { class: `ll-mk ll-mk-${k}` }, MARK_SIGNS[k] || "•"))
    ));
  }
  if (ghost) {
    const gone = elementLook(ghost, els);
    body.push(h(
      doc,
      "span",
      { class: "ll-ghost", "aria-hidden": "true", style: `--ll-el:${gone.colour};--ll-ink:${gone.ink}` },
      gone.symbol
    ));
  }
  return h(doc, "button", attrs, body);
}
var MARK_SIGNS = {
  activated: "▲",
  flipped: "↺",
  collected: "✓",
  refilled: "+",
  bound: "⛓",
  swapped: "⇄",
  peeked: "👁",
  tide: "≈",
  unbound: "✂"
};
function deckPanel(doc, st) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const top = view.deck.top;
  const look = top ? elementLook(top, els) : null;
  const refill = view.phase === "refill";
  return h(
    doc,
    "section",
    { class: "ll-deck", "aria-label": "Leyline deck" },
    h(doc, "div", { class: "ll-h" }, "Leyline deck"),
    h(doc, "div", {
      class: `ll-card ll-mini ${look ? "ll-active" : "ll-empty"}${refill ? " ll-next" : ""}`,
      style: look ? `--ll-el:${look.colour};--ll-ink:${look.ink}` : null,
      "data-element": top || null,
      role: "img",
      "aria-label": look ? `Top card, face-up: ${look.name}` : "The deck is empty"
    }, look ? h(
      doc,
      "span",
      { class: "ll-face", "aria-hidden": "true" },
      h(doc, "span", { class: "ll-sym" }, look.symbol),
      h(doc, "span", { class: "ll-name" }, look.name)
    ) : "—"),
    h(
      doc,
      "div",
      { class: "ll-count" },
      `${plural(view.deck.count, "card")} left`,
      refill ? h(doc, "div", { class: "ll-note" }, "next to place") : null
    )
  );
}
function countsLine(doc, counts, els, label) {
  return h(
    doc,
    "div",
    { class: "ll-counts", "aria-label": `${label}: ` + els.map((el) => `${counts[el] || 0} ${elementLook(el, els).name}`).join(", ") },
    h(doc, "span", { class: "ll-k" }, label),
    els.map((el) => {
      const look = elementLook(el, els);
      return h(doc, "span", {
        class: "ll-chip",
        style: `--ll-el:${look.colour};--ll-ink:${look.ink}`,
        "aria-hidden": "true"
      }, look.symbol, counts[el] || 0);
    })
  );
}
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
  const state = usable ? "usable now" : used ? "used this turn" : unlocked ? "unlocked" : `unlocks with ${need} ${elementLook(pw.element, els).name} in the Study`;
  const visible = `${pw.name}${used ? " used" : unlocked ? "" : " locked"}`;
  return h(doc, "button", {
    type: "button",
    class: classes.join(" "),
    "data-act": "power",
    "data-key": pw.key,
    title: `${pw.name} (${tier}): ${pw.text}`,
    "aria-pressed": ui.infoPower === pw.key ? "true" : "false",
    "aria-label": `${visible}: ${tier} power of ${elementLook(pw.element, els).name}, ${state}. ${pw.text}`
  }, h(doc, "span", {}, pw.name), used ? h(doc, "span", { class: "ll-pstate" }, " used") : unlocked ? null : h(doc, "span", { class: "ll-pstate" }, " locked"));
}
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
    return h(
      doc,
      "tr",
      { "data-element": el },
      h(doc, "th", { scope: "row" }, h(
        doc,
        "span",
        { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}` },
        look.symbol
      ), " ", look.name),
      h(doc, "td", { class: "ll-num", "data-study": el }, player.study[el] || 0),
      h(doc, "td", {}, minor ? powerButton(doc, st, ui, minor, me) : "—"),
      h(doc, "td", {}, major ? powerButton(doc, st, ui, major, me) : "—"),
      h(
        doc,
        "td",
        { class: "ll-marker", "aria-label": `${plural(markers, "Spent " + look.name + " marker")} with ${plural(stacked, "token")} stacked` },
        markers ? `${look.symbol}×${markers}` : "—",
        stacked ? h(doc, "span", { class: "ll-stack" }, ` +${stacked} tok`) : null
      )
    );
  });
  const name = playerName(info, me);
  return h(
    doc,
    "section",
    { class: "ll-study", "aria-label": `${name}'s Study` },
    h(
      doc,
      "table",
      {},
      h(
        doc,
        "caption",
        {},
        `Study · ${name} · `,
        h(doc, "strong", { "data-score": me }, player.score),
        player.score === 1 ? " card" : " cards"
      ),
      h(doc, "thead", {}, h(
        doc,
        "tr",
        {},
        h(doc, "th", { scope: "col" }, "Element"),
        h(doc, "th", { scope: "col" }, "Cards"),
        h(doc, "th", { scope: "col" }, "Minor"),
        h(doc, "th", { scope: "col" }, "Major"),
        h(doc, "th", { scope: "col" }, "Spent markers")
      )),
      h(doc, "tbody", {}, rows)
    )
  );
}
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
  const why = locked ? `Locked: ${pw.name} unlocks with ${need} ${elName} in the Study (${player.study[pw.element] || 0} now); then use it in Phase 1 of a turn.` : legal.why_power ? legal.why_power[pw.key] || legal.why_power["*"] : null;
  const parts = [
    h(doc, "div", { class: "ll-h" }, `${pw.name} · ${pw.tier === "minor" ? "Minor" : "Major"} power`),
    h(doc, "p", {}, pw.text),
    h(doc, "p", { class: "ll-note" }, pw.instructions)
  ];
  if (spec) {
    if (spec.max === 0) {
      parts.push(h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "use-power" }, `Use ${pw.name}`));
    } else {
      const chosen2 = ui.power === pw.key ? ui.targets : [];
      parts.push(h(doc, "p", { class: "ll-note" }, `Chosen: ${chosen2.length ? listSlots(chosen2) : "none yet"}.`));
      if (spec.max > spec.min || spec.max > 1) {
        parts.push(h(doc, "button", {
          type: "button",
          class: "ll-btn ll-primary",
          "data-act": "use-power",
          "aria-disabled": chosen2.length >= spec.min ? null : "true"
        }, `Use ${pw.name}`));
      }
    }
  } else if (why) {
    parts.push(h(doc, "p", { class: locked ? "ll-note" : "ll-why" }, why));
  } else if (legal.actor === null || legal.actor === void 0) {
    parts.push(h(doc, "p", { class: "ll-why" }, "Powers are used on your own turn."));
  }
  parts.push(h(doc, "button", { type: "button", class: "ll-btn", "data-act": "close-power" }, "Close"));
  return h(doc, "section", { class: "ll-powerinfo", "aria-label": `${pw.name} power` }, parts);
}
function bindingPanel(doc, st, ui) {
  const { view, legal, info } = st;
  const place = legal.place;
  if (view.phase !== "binding" || !place) return null;
  const els = info.elements || view.elements || [];
  const me = mySeat(view);
  const player = view.players[me];
  const have = {
    supply: (el) => `${view.supply[el] || 0} left · costs 1 from Study`,
    marker: (el) => `${player.marker_tokens[el] || 0} stacked`,
    pool: (el) => `${view.pool[el] || 0} in pool`
  };
  const rows = els.map((el) => {
    const look = elementLook(el, els);
    return h(
      doc,
      "div",
      { class: "ll-bindrow", role: "group", "aria-label": `${look.name} token sources` },
      h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}` }, look.symbol, " ", look.name),
      ["supply", "marker", "pool"].map((src) => {
        const why = place[el] ? place[el][src] : "unknown";
        const ok = why === "";
        const chosen2 = ui.source && ui.source.element === el && ui.source.source === src;
        return h(doc, "button", {
          type: "button",
          class: `ll-src${ok ? " ll-ok" : ""}${chosen2 ? " ll-chosen" : ""}`,
          "data-act": "source",
          "data-element": el,
          "data-source": src,
          "aria-pressed": chosen2 ? "true" : "false",
          "aria-disabled": ok ? null : "true",
          title: ok ? `Place a ${look.name} token from the ${SOURCE_WORDS[src].toLowerCase()}` : why,
          "aria-label": `${SOURCE_WORDS[src]} ${have[src](el)}: a ${look.name} token from the ${SOURCE_WORDS[src].toLowerCase()}${ok ? "" : `. Not now: ${why}`}`
        }, h(doc, "span", { class: "ll-srcname" }, SOURCE_WORDS[src]), h(doc, "span", { class: "ll-srchave" }, have[src](el)));
      })
    );
  });
  return h(
    doc,
    "section",
    { class: "ll-binding", "aria-label": "Place Binding tokens" },
    h(doc, "div", { class: "ll-h" }, "Binding tokens: pick an element and a source, then a card"),
    rows
  );
}
function scoreboard(doc, st) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  if (view.players.length < 2) return null;
  return h(
    doc,
    "section",
    { class: "ll-scores", "aria-label": "Scoreboard" },
    h(
      doc,
      "table",
      {},
      h(doc, "thead", {}, h(
        doc,
        "tr",
        {},
        h(doc, "th", { scope: "col" }, "Player"),
        els.map((el) => {
          const look = elementLook(el, els);
          return h(
            doc,
            "th",
            { scope: "col", title: look.name, "aria-label": look.name },
            h(doc, "span", { class: "ll-chip", style: `--ll-el:${look.colour};--ll-ink:${look.ink}` }, look.symbol)
          );
        }),
        h(doc, "th", { scope: "col" }, "Spent"),
        h(doc, "th", { scope: "col" }, "Total")
      )),
      h(doc, "tbody", {}, view.players.map((p, i) => h(
        doc,
        "tr",
        {
          class: i === view.active_player && !view.is_over ? "ll-turn" : null,
          "aria-current": i === view.active_player && !view.is_over ? "true" : null
        },
        h(
          doc,
          "th",
          { scope: "row" },
          i === view.active_player && !view.is_over ? "▶ " : "",
          p.name,
          info.players && info.players[i] && info.players[i].bot ? h(doc, "span", { class: "ll-tag" }, " bot") : ""
        ),
        els.map((el) => h(doc, "td", { class: "ll-num" }, p.study[el] || 0)),
        h(doc, "td", { class: "ll-num" }, Object.values(p.markers).reduce((a, b) => a + b, 0)),
        h(doc, "td", { class: "ll-num", "data-score": i }, h(doc, "strong", {}, p.score))
      )))
    )
  );
}
function seatKinds(st, ui) {
  const players = st.info && st.info.players || [];
  return players.map((p, i) => ui.seats && ui.seats[i] || p.bot || "human");
}
function seatMenu(doc, st, ui) {
  const kinds = ["human", ...st.info && st.info.bot_kinds || []];
  const chosen2 = seatKinds(st, ui);
  return h(
    doc,
    "fieldset",
    { class: "ll-seats" },
    h(doc, "legend", {}, "Next game: who plays each seat"),
    st.view.players.map((p, i) => h(
      doc,
      "label",
      { class: "ll-pick" },
      `Seat ${i + 1} (${p.name}) `,
      h(
        doc,
        "select",
        { "data-act": "seat-kind", "data-seat": i },
        // A bot of the widget's own making keeps its seat under its name.
        (kinds.includes(chosen2[i]) ? kinds : [...kinds, chosen2[i]]).map((k) => h(
          doc,
          "option",
          { value: k, selected: k === chosen2[i] },
          SEAT_WORDS[k] || `${k} bot`
        ))
      )
    ))
  );
}
var SEAT_WORDS = { human: "Human", random: "Random bot", memory: "Memory bot", greedy: "Greedy bot", expert: "Expert bot" };
function gameOverPanel(doc, st, ui) {
  const { view, info } = st;
  if (!view.is_over) return null;
  const els = info.elements || view.elements || [];
  const winners = (view.winners || []).map((p) => view.players[p] ? view.players[p].name : playerName(info, p));
  const solo = view.players.length === 1;
  const turns = st.log && st.log.turns_played || [];
  const games = (st.session || []).filter((g) => g.scores.length === 1);
  const best = games.length ? Math.max(...games.map((g) => g.scores[0])) : null;
  const avg = games.length ? games.reduce((a, g) => a + g.scores[0], 0) / games.length : null;
  const rows = view.players.map((p, i) => h(
    doc,
    "tr",
    { "data-final": i },
    h(doc, "th", { scope: "row" }, p.name, isTrue(view.winners, i) && !solo ? " ★" : ""),
    els.map((el) => h(doc, "td", { class: "ll-num" }, p.study[el] || 0)),
    h(doc, "td", { class: "ll-num" }, Object.values(p.markers).reduce((a, b) => a + b, 0)),
    h(doc, "td", { class: "ll-num" }, turns[i] === void 0 ? "—" : turns[i]),
    h(doc, "td", { class: "ll-num" }, h(doc, "strong", {}, p.score))
  ));
  return h(
    doc,
    "section",
    { class: "ll-over", role: "status", "aria-label": "Game over" },
    h(doc, "div", { class: "ll-h" }, "Game over"),
    h(doc, "p", {}, `The game ended because ${END_REASONS[view.end_reason || ""] || view.end_reason}, after turn ${view.turn}.`),
    h(
      doc,
      "table",
      { class: "ll-breakdown" },
      h(doc, "caption", {}, "Final Studies"),
      h(doc, "thead", {}, h(
        doc,
        "tr",
        {},
        h(doc, "th", { scope: "col" }, "Player"),
        els.map((el) => h(doc, "th", { scope: "col" }, elementLook(el, els).name)),
        h(doc, "th", { scope: "col" }, "Spent markers"),
        h(doc, "th", { scope: "col" }, "Turns"),
        h(doc, "th", { scope: "col" }, "Score")
      )),
      h(doc, "tbody", {}, rows)
    ),
    h(doc, "p", { class: "ll-win" }, solo ? `Final score ${view.players[0].score} in ${plural(view.turn, "turn")}.` : winners.length > 1 ? `Winners (tie): ${winners.join(", ")}.` : `Winner: ${winners[0]}.`),
    solo && games.length ? h(
      doc,
      "p",
      { class: "ll-session" },
      `This session: ${plural(games.length, "game")}, best ${best}, average ${(avg || 0).toFixed(1)}.`
    ) : null,
    solo || st.network ? null : seatMenu(doc, st, ui),
    st.network ? null : h(
      doc,
      "div",
      { class: "ll-controls" },
      h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "new-game" }, "New game"),
      solo ? null : h(doc, "button", {
        type: "button",
        class: "ll-btn",
        "data-act": "rematch",
        title: "Same settings, a new deal, seats swapped"
      }, "Rematch")
    )
  );
}
function rulesPanel(doc, st) {
  const { info } = st;
  const t = info.thresholds || { minor: 2, major: 5 };
  return h(
    doc,
    "section",
    { class: "ll-rules", "aria-label": "Rules" },
    h(doc, "div", { class: "ll-h" }, "Rules in short"),
    h(doc, "ul", {}, RULES_SHORT(info).map((line) => h(doc, "li", {}, line))),
    h(doc, "div", { class: "ll-h" }, `Powers (Minor at ${t.minor}, Major at ${t.major} cards of the element in your Study)`),
    h(doc, "ul", {}, (info.powers || []).map((pw) => h(
      doc,
      "li",
      {},
      h(doc, "strong", {}, pw.name),
      ` (${elementLook(pw.element, info.elements || []).name}, ${pw.tier}): ${pw.text}`
    ))),
    h(doc, "button", { type: "button", class: "ll-btn", "data-act": "rules" }, "Close rules")
  );
}
function handoffScreen(st, doc) {
  const to = (
    /** @type {number} */
    st.handoff && st.handoff.to
  );
  const name = playerName(st.info, to);
  return h(
    doc,
    "div",
    {
      class: "leyline ll-handoff-root",
      "data-mode": st.mode || "play",
      "data-handoff": to,
      "data-ll-theme": hostTheme(doc),
      "data-ack": st.ack === void 0 ? "" : st.ack
    },
    h(
      doc,
      "section",
      { class: "ll-handoff", "aria-label": "Pass the board" },
      h(doc, "h2", { class: "ll-h" }, `Pass to ${name}`),
      h(doc, "p", {}, `The board is hidden so that nobody sees another player's turn. ${name}, take the seat.`),
      h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "handoff-ready" }, `${name}, click when ready`)
    )
  );
}
function hostTheme(doc) {
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
function logPanel(doc, st, ui, lazily) {
  const past = st.log_past || [];
  const turns = st.log && st.log.turns ? past.concat(st.log.turns) : null;
  if (!turns) {
    return h(
      doc,
      "ol",
      { class: "ll-log", "aria-label": "Recent moves" },
      (ui.log || []).map((line) => h(doc, "li", {}, line))
    );
  }
  const turnItem = (t, i) => {
    const done = i < past.length;
    const line = (text) => lazily && !done ? lazy(doc, `l:${digest(text)}`, () => h(doc, "li", {}, text)) : h(doc, "li", {}, text);
    const build = () => h(
      doc,
      "li",
      { class: "ll-logturn", "data-turn": t.turn, [PAINT_KEY]: done ? turnKey(t) : null },
      h(doc, "span", { class: "ll-logwho" }, t.player === null ? "Set-up" : `Turn ${t.turn} · ${playerName(st.info, t.player)}`),
      t.lines.length ? h(doc, "ul", {}, t.lines.map(line)) : null
    );
    if (!lazily) return build();
    return lazy(doc, done ? turnKey(t) : `now:${idOf(st.info)}:${digest(JSON.stringify(t))}`, build);
  };
  return h(
    doc,
    "section",
    { class: "ll-logbox", "aria-label": "Game log" },
    h(doc, "div", { class: "ll-h" }, "Game log ", h(doc, "span", { class: "ll-note" }, "(newest first)")),
    h(
      doc,
      "ol",
      { class: "ll-log ll-fulllog", tabindex: 0, "aria-label": "Game log, by turn, newest first" },
      turns.map(turnItem).reverse()
    )
  );
}
var TURN_KEYS = /* @__PURE__ */ new WeakMap();
var turnKeys = 0;
function turnKey(turn) {
  let key = TURN_KEYS.get(turn);
  if (key === void 0) {
    turnKeys += 1;
    key = `t${turnKeys}`;
    TURN_KEYS.set(turn, key);
  }
  return key;
}
var BOT_PACES = [["2000", "slow"], ["800", "normal"], ["300", "fast"], ["0", "instant"]];
function botDelayMs(value) {
  return Math.max(0, Number(value) || 0);
}
function paceMenu(doc, st, ui) {
  const ms = botDelayMs(st.bot_delay_ms);
  const chosen2 = ui.paused ? "paused" : String(ms);
  const paces = BOT_PACES.some(([v]) => Number(v) === ms) ? BOT_PACES : BOT_PACES.concat([[String(ms), `custom (${ms} ms)`]]).sort((a, b) => Number(b[0]) - Number(a[0]));
  return h(
    doc,
    "label",
    { class: "ll-pace" },
    "Bot pace ",
    h(
      doc,
      "select",
      { "data-act": "pace", "aria-label": "Bot pace" },
      paces.concat([["paused", "paused"]]).map(([v, t]) => h(doc, "option", { value: v, selected: chosen2 === v }, t))
    )
  );
}
function renderBoard(st, ui, doc, now = 0, lazily = false) {
  const { view, legal } = st;
  if (!view || !view.grid) return h(doc, "div", { class: "leyline" }, "Loading Leyline…");
  if (st.handoff && typeof st.handoff.to === "number" && !view.is_over) return handoffScreen(st, doc);
  const teacher = view.viewer === null;
  const grid = h(doc, "div", {
    class: `ll-grid${ui.deal === "waiting" ? " ll-dealwait" : ""}`,
    role: "group",
    style: `--ll-cols:${view.grid_cols}`,
    "aria-label": `Grid of ${view.grid.length} slots, ${view.grid_rows} rows by ${view.grid_cols} columns. Arrow keys move between cards; Enter or Space clicks.`
  }, view.grid.map((cell, s) => cardButton(doc, s, cell, st, ui, now, lazily)));
  const prompt = h(doc, "p", { class: "ll-prompt", "aria-live": "polite" }, promptFor(st, ui));
  const problem = ui.hint || (st.error && st.error !== ui.dismissed ? st.error : "");
  const errorBox = h(
    doc,
    "div",
    { class: `ll-error${problem ? "" : " ll-hidden"}`, role: "alert" },
    problem ? [h(doc, "span", {}, problem), h(doc, "button", { type: "button", class: "ll-x", "data-act": "dismiss", "aria-label": "Dismiss message" }, "×")] : null
  );
  const log = logPanel(doc, st, ui, lazily);
  const live = h(doc, "div", { class: "ll-sr", "aria-live": "polite", "aria-atomic": "true" }, ui.announce || "");
  return h(
    doc,
    "div",
    {
      class: `leyline${teacher ? " ll-is-teacher" : ""}`,
      "data-mode": st.mode || "play",
      "data-phase": view.phase,
      "data-step": legal.step === void 0 ? "" : legal.step,
      "data-ack": st.ack === void 0 ? "" : st.ack,
      "data-turn": view.turn,
      "data-ll-theme": hostTheme(doc),
      "data-deal": ui.deal || "none",
      "data-lm-suppress-shortcuts": "true"
    },
    statusLine(doc, st),
    prompt,
    errorBox,
    dealPanel(doc, st, ui),
    recapPanel(doc, st),
    h(
      doc,
      "div",
      { class: "ll-main" },
      h(doc, "div", { class: "ll-board" }, grid, phaseChoice(doc, st, ui), controlsRow(doc, st, ui), keysLine(doc, st)),
      sidePanel(doc, st, lazily),
      h(
        doc,
        "div",
        { class: "ll-mine" },
        hintPanel(doc, st),
        powerInfo(doc, st, ui),
        bindingPanel(doc, st, ui),
        studyOf(doc, st, ui, lazily),
        prefsPanel(doc, st)
      )
    ),
    ui.rules ? rulesPanel(doc, st) : null,
    gameOverPanel(doc, st, ui),
    scoreboard(doc, st),
    memoryPanel(doc, st),
    log,
    live
  );
}
function statusLine(doc, st) {
  const { view, info } = st;
  const left = view.activations ? view.activations.limit - view.activations.used : 0;
  return h(
    doc,
    "header",
    { class: "ll-status" },
    h(doc, "span", { class: "ll-phase", "data-phase": view.phase }, PHASE_TITLES[view.phase] || view.phase),
    h(
      doc,
      "span",
      { class: "ll-turn" },
      `Turn ${view.turn}`,
      view.players.length > 1 ? ` · ${playerName(info, view.active_player)}` : ""
    ),
    view.phase === "activation" && !view.is_over ? h(
      doc,
      "span",
      { class: "ll-acts", "aria-label": `${left} activations left` },
      `Activations left: ${left}/${view.activations.limit}`
    ) : null,
    (view.is_over ? [] : view.effects || []).map((e) => {
      const pw = (info.powers || []).find((p) => p.key === e || p.name.toLowerCase() === e);
      return h(doc, "span", { class: "ll-effect" }, `${pw ? pw.name : e}: ${EFFECT_WORDS[effectKind(pw || e)] || "in effect"}`);
    }),
    view.viewer === null ? h(doc, "span", { class: "ll-tag ll-teacher" }, "Teacher view: every card shown") : null
  );
}
function dealPanel(doc, st, ui) {
  const { view } = st;
  const cards = view.grid.filter((c) => c.card !== "empty").length;
  const dealSecs = `${((Number(st.deal_ms) || 0) / 1e3).toFixed(1)} s`;
  if (ui.deal === "showing") return h(doc, "p", { class: "ll-deal ll-note" }, "The deal is face-up: remember it!");
  if (ui.deal !== "waiting") return null;
  return h(
    doc,
    "section",
    { class: "ll-deal", "aria-label": "The deal" },
    h(doc, "p", {}, `The deal: the ${plural(cards, "card")} on the grid will be shown face-up for ${dealSecs}, once. ` + (view.players.length > 1 ? "Everyone at the table, look now." : "Remember them.")),
    h(
      doc,
      "button",
      { type: "button", class: "ll-btn ll-primary", "data-act": "deal-ready", "aria-keyshortcuts": "R" },
      "Ready: show the deal ",
      h(doc, "kbd", { "aria-hidden": "true" }, "R")
    )
  );
}
function controlsRow(doc, st, ui) {
  const { view, legal, info } = st;
  const bots = (info.players || []).some((p) => p.bot);
  const act = canAct(st);
  const waiting = ui.deal === "waiting";
  const endBtn = act && view.phase !== "abilities" ? h(doc, "button", {
    type: "button",
    class: `ll-btn${waiting ? "" : " ll-primary"}${ui.pending && ui.pending.act === "end" ? " ll-pending" : ""}`,
    "data-act": "end",
    "aria-disabled": legal.end ? null : "true",
    "aria-keyshortcuts": "E",
    title: waiting ? "Press Ready first: the deal is shown before any move" : legal.end ? "Key E" : "Every empty slot must be refilled first"
  }, endLabel(view), legal.end ? h(doc, "kbd", { "aria-hidden": "true" }, "E") : null) : null;
  const empty = (legal.refill || []).length;
  const fill = act && view.phase === "refill" && empty > 1 ? h(doc, "button", {
    type: "button",
    class: "ll-btn ll-primary",
    "data-act": "refill-all",
    "aria-keyshortcuts": "F",
    title: "Place the deck's cards into the empty slots in slot order (or click each slot to choose)"
  }, `Fill ${empty} slots in order`, h(doc, "kbd", { "aria-hidden": "true" }, "F")) : null;
  return h(
    doc,
    "div",
    { class: "ll-controls" },
    fill,
    endBtn,
    ui.power ? h(doc, "button", { type: "button", class: "ll-btn", "data-act": "cancel", "aria-keyshortcuts": "C" }, "Cancel power") : null,
    bots && !view.is_over ? paceMenu(doc, st, ui) : null,
    bots && ui.paused && legal.bot ? h(doc, "button", { type: "button", class: "ll-btn", "data-act": "bot-step", "aria-keyshortcuts": "B" }, "Next bot move") : null,
    act && legal.undo ? h(doc, "button", {
      type: "button",
      class: "ll-btn",
      "data-act": "undo",
      "aria-keyshortcuts": "U",
      title: "Take back the Binding tokens placed this turn, until End turn (key U)"
    }, "Undo tokens") : null,
    act && st.hint && st.hint.enabled ? h(doc, "button", {
      type: "button",
      class: "ll-btn",
      "data-act": "hint",
      "aria-keyshortcuts": "H",
      title: "The coach's move from what you have been shown; each hint is counted in the log (key H)"
    }, "Hint") : null,
    h(doc, "button", {
      type: "button",
      class: "ll-btn",
      "data-act": "rules",
      "aria-expanded": ui.rules ? "true" : "false",
      "aria-keyshortcuts": "?"
    }, ui.rules ? "Hide rules" : "Rules")
  );
}
function sidePanel(doc, st, lazily) {
  const { view, info } = st;
  const els = info.elements || view.elements || [];
  const table = () => h(
    doc,
    "section",
    { class: "ll-table", "aria-label": "Supply and Token Pool" },
    countsLine(doc, view.supply, els, "Supply"),
    countsLine(doc, view.pool, els, "Token Pool")
  );
  return h(
    doc,
    "aside",
    { class: "ll-side" },
    lazily ? lazy(doc, `deck:${digest(JSON.stringify([view.deck, view.phase, els]))}`, () => deckPanel(doc, st)) : deckPanel(doc, st),
    lazily ? lazy(doc, `table:${digest(JSON.stringify([view.supply, view.pool, els]))}`, table) : table()
  );
}
function studyOf(doc, st, ui, lazily) {
  const { view, legal, info } = st;
  const els = info.elements || view.elements || [];
  const me = mySeat(view);
  return lazily ? lazy(
    doc,
    `study:${idOf(info)}:${digest(JSON.stringify([
      me,
      view.players[me],
      Object.keys(legal.powers || {}),
      legal.actor,
      view.powers_used,
      view.active_player,
      ui.infoPower,
      els
    ]))}`,
    () => studyPanel(doc, st, ui)
  ) : studyPanel(doc, st, ui);
}

// js/src/mount.js
var SUPPRESS = "data-lm-suppress-shortcuts";
function mount(model, el, className, setup) {
  const doc = el.ownerDocument;
  let root = doc.createElement("div");
  root.className = className;
  el.appendChild(root);
  const timers = /* @__PURE__ */ new Map();
  let queued = false;
  let alive = true;
  function cancel(name) {
    clearTimeout(timers.get(name));
    timers.delete(name);
  }
  function later(name, ms, fn) {
    cancel(name);
    timers.set(name, setTimeout(() => {
      timers.delete(name);
      fn();
    }, ms));
  }
  const m = {
    doc,
    root: () => root,
    show(next) {
      root = morph(root, next);
    },
    paint,
    schedule,
    alive: () => alive,
    later,
    cancel,
    pending: (name) => timers.has(name)
  };
  const spec = setup(m);
  function pruneReveals() {
    const reveals = spec.reveals ? spec.reveals() : {};
    const now = Date.now();
    for (const [slot, r] of Object.entries(reveals)) if (r.until <= now) delete reveals[slot];
  }
  function paint() {
    queued = false;
    if (!alive) return;
    const now = Date.now();
    spec.draw(now);
    if (!spec.reveals) return;
    cancel("reveal");
    const ends = Object.values(spec.reveals()).map((r) => r.until).filter((t) => t > now);
    if (ends.length) later("reveal", Math.min(...ends) - now + 5, () => {
      pruneReveals();
      paint();
    });
  }
  function schedule() {
    if (!queued) {
      queued = true;
      queueMicrotask(paint);
    }
  }
  function keepKeys(event) {
    if (event.key !== "Tab" && event.key !== "Escape") event.stopPropagation();
  }
  function markKeys(event) {
    const target = (
      /** @type {Element} */
      event.composedPath()[0] || event.target
    );
    if (target === root || typeof target.setAttribute !== "function" || !root.contains(target)) return;
    if (event.key === "Tab" || event.key === "Escape") target.removeAttribute(SUPPRESS);
    else target.setAttribute(SUPPRESS, "true");
  }
  const unlisten = listen(root, { ...spec.listeners || {} });
  const unguard = listen(root, { keydown: keepKeys, keypress: keepKeys, keyup: keepKeys });
  const win = doc.defaultView;
  if (win) win.addEventListener("keydown", markKeys, true);
  let themes = null;
  if (win && typeof win.MutationObserver === "function") {
    themes = new win.MutationObserver(() => schedule());
    const attributeFilter = ["class", "data-jp-theme-light", "data-jp-theme-name", "data-theme"];
    for (const node of [doc.body, doc.documentElement]) if (node) themes.observe(node, { attributes: true, attributeFilter });
  }
  model.on("change", spec.onChange);
  if (spec.start) spec.onChange();
  paint();
  return () => {
    alive = false;
    for (const name of [...timers.keys()]) cancel(name);
    model.off("change", spec.onChange);
    unlisten();
    unguard();
    if (win) win.removeEventListener("keydown", markKeys, true);
    if (themes) themes.disconnect();
    if (spec.teardown) spec.teardown();
    root.remove();
  };
}

// js/src/picks.js
function clearPicks(ui) {
  closePower(ui);
  ui.source = null;
}
function closePower(ui) {
  ui.power = null;
  ui.targets = [];
  ui.infoPower = null;
}
function pickPower(ui, legal, key) {
  if (ui.infoPower === key && !ui.power) {
    ui.infoPower = null;
    return;
  }
  ui.infoPower = key;
  const spec = legal.powers && legal.powers[key];
  ui.power = spec && spec.max > 0 ? key : null;
  ui.targets = [];
}
function pickSource(ui, legal, element, source) {
  const why = legal.place && legal.place[element] ? legal.place[element][source] : "";
  if (why) return why;
  const same = ui.source && ui.source.element === element && ui.source.source === source;
  ui.source = same ? null : { element, source };
  return "";
}
function takePower(ui, info) {
  const key = ui.power || ui.infoPower;
  const pw = powerOf(info, key);
  if (!pw) return null;
  const targets = (ui.power === key ? ui.targets : []).slice().sort((a, b) => a - b);
  clearPicks(ui);
  return { type: "use_power", element: pw.element, tier: pw.tier, targets };
}
function cardClick(ui, view, legal, info, slot) {
  if (view.phase === "abilities") {
    const spec = ui.power && legal.powers && legal.powers[ui.power];
    if (!spec || spec.max === 0) return { hint: "In Phase 1 click a power in your Study first (or End Phase 1)." };
    ui.targets = ui.targets.includes(slot) ? ui.targets.filter((t) => t !== slot) : ui.targets.concat([slot]);
    if (ui.targets.length >= spec.max) return { action: (
      /** @type {Partial<Action>} */
      takePower(ui, info)
    ) };
    return {};
  }
  const cell = view.grid[slot];
  if (view.phase === "activation") return { action: { type: cell.card === "active" ? "deactivate" : "activate", slot } };
  if (view.phase === "refill") return { action: { type: "refill", slot } };
  if (view.phase === "binding") {
    if (!ui.source) return { hint: "Pick an element and a source below first, then click a card." };
    return { action: { type: "place_token", slot, element: ui.source.element, source: ui.source.source } };
  }
  return {};
}
function dropStalePicks(ui, legal) {
  if (ui.power && !(legal.powers && legal.powers[ui.power])) {
    ui.power = null;
    ui.targets = [];
  }
  if (ui.source) {
    const why = legal.place && legal.place[ui.source.element] && legal.place[ui.source.element][ui.source.source];
    if (why !== "") ui.source = null;
  }
}

// js/src/traits.js
function read(model, name) {
  return model.get(name);
}

// js/src/play.js
var LOG_LINES = 6;
var MOTION_MS = 450;
function newUi() {
  return {
    pending: null,
    power: null,
    targets: [],
    infoPower: null,
    source: null,
    focus: 0,
    reveals: {},
    log: [],
    hint: "",
    paused: false,
    dismissed: null,
    queued: null,
    deal: "none",
    motion: {},
    announce: "",
    rules: false,
    seats: {}
  };
}
function forgetSeat(ui) {
  ui.reveals = {};
  ui.pending = null;
  ui.power = null;
  ui.targets = [];
  ui.infoPower = null;
  ui.source = null;
  ui.hint = "";
  ui.focus = 0;
  ui.queued = null;
  ui.motion = {};
  ui.announce = "";
  ui.log = [];
}
function pastTurns(held, base, log) {
  let turns = held.turns;
  if (base !== held.base) turns = (base || []).slice();
  const recent = log && log !== held.log ? log.recent : void 0;
  let gap = Boolean(held.gap) && base === held.base;
  if (recent && Array.isArray(recent.turns)) {
    if (recent.from > turns.length) gap = true;
    turns = turns.slice(0, recent.from).concat(recent.turns);
  }
  return { base, log, turns, gap };
}
function motionOf(items, until) {
  const out = {};
  for (const ev of items || []) {
    if (ev.type === "activate") out[ev.slot] = { kind: "flip", until };
    else if (ev.type === "flip_back") for (const s of ev.slots) out[s] = { kind: "flipback", until };
    else if (ev.type === "collect") for (const s of ev.slots) out[s] = { kind: "collect", element: ev.element, until };
    else if (ev.type === "reveal" && (ev.cause === "refill" || effectKind(ev.cause) === "swap_with_deck")) out[ev.slot] = { kind: "deal", until };
    else if (ev.type === "place_token") out[ev.slot] = { kind: "bind", until };
  }
  return out;
}
function announceOf(items, info, viewer) {
  const els = info.elements || [];
  const who = (p) => p === viewer ? "You" : playerName(info, p);
  const said = [];
  const setup = (items || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup");
  if (setup.length) said.push(`The deal: ${setup.map((ev) => `slot ${ev.slot} ${elementLook(ev.element, els).name}`).join(", ")}`);
  for (const ev of items || []) {
    if (ev.type === "reveal" && ev.element && ev.cause !== "setup") {
      said.push(`Slot ${ev.slot} shown briefly: ${elementLook(ev.element, els).name}`);
    } else if (ev.type === "collect") {
      said.push(`${who(ev.player)} collected ${ev.count} ${elementLook(ev.element, els).name}`);
    } else if (ev.type === "turn") {
      said.push(`Turn ${ev.turn}: ${who(ev.player) === "You" ? "your turn" : `${playerName(info, ev.player)}'s turn`}`);
    } else if (ev.type === "game_over") {
      said.push("Game over");
    }
  }
  return said.join(". ");
}
function pageLine(ev, info, viewer) {
  if (viewer === null || viewer === void 0) return describeEvent(ev, info, null);
  const who = (p) => p === viewer ? "You" : playerName(info, p);
  if (ev.type === "activate") return `${who(ev.player)} activated slot ${ev.slot}`;
  if (ev.type === "tide") return `Slot ${ev.slot}'s card went on top of the deck`;
  if (ev.type === "reveal" && ev.cause === "refill") return `Slot ${ev.slot} refilled`;
  if (ev.type === "reveal" && effectKind(ev.cause) === "swap_with_deck") return `Tide brought a new card into slot ${ev.slot}`;
  if (ev.type === "reveal" && ev.element && effectKind(ev.cause) === "peek") return `You peeked at slot ${ev.slot}`;
  return describeEvent(ev, info, viewer);
}
function absorbEvents(ui, items, info, now, revealMs, viewer) {
  const lines = [];
  for (const ev of items || []) {
    if (ev.type === "reveal" && ev.element) {
      ui.reveals[ev.slot] = { element: ev.element, cause: ev.cause, until: now + revealMs };
    } else if (ev.type === "collect" || ev.type === "tide") {
      for (const s of ev.slots || [ev.slot]) delete ui.reveals[s];
    } else if (ev.type === "swap") {
      const [a, b] = ev.slots;
      const ra = ui.reveals[a];
      const rb = ui.reveals[b];
      delete ui.reveals[a];
      delete ui.reveals[b];
      if (rb) ui.reveals[a] = rb;
      if (ra) ui.reveals[b] = ra;
    }
    const line = pageLine(ev, info, viewer);
    if (line) lines.push(line);
  }
  if ((items || []).some((ev) => ev.type === "reveal" && ev.cause === "setup")) {
    lines.unshift("The grid was dealt face-up: remember it!");
  }
  ui.log = ui.log.concat(lines).slice(-LOG_LINES);
}
function dropStale(ui, st) {
  const { view, legal } = st;
  dropStalePicks(ui, legal);
  if (ui.infoPower && view.phase === "game_over") ui.infoPower = null;
  for (const [slot, r] of Object.entries(ui.reveals)) {
    const cell = view.grid && view.grid[Number(slot)];
    if (!cell || cell.card !== "inert") delete ui.reveals[slot];
    else if (r.until <= Date.now()) delete ui.reveals[slot];
  }
  const size = view.grid ? view.grid.length : 1;
  if (ui.focus >= size) ui.focus = 0;
}
function isDeal(items) {
  return (items || []).some((ev) => ev.type === "reveal" && ev.cause === "setup");
}
function boardState(t) {
  const get = (name) => read(t.model, name);
  return {
    mode: get("mode"),
    view: get("view") || {},
    legal: get("legal") || {},
    info: get("info") || {},
    error: get("error") || "",
    ack: get("ack"),
    bot_delay_ms: get("bot_delay_ms"),
    remembered: get("remembered"),
    memory: get("memory"),
    log: get("log"),
    log_past: t.past.turns,
    handoff: get("handoff"),
    session: get("session"),
    deal_ms: get("deal_ms"),
    hint: get("hint"),
    shown: (get("lesson") || {}).shown,
    prefs: get("prefs"),
    final_grid: get("final_grid"),
    network: get("network") === true
  };
}
function flowOf(t) {
  const { model, m, ui } = t;
  const tracked = () => typeof read(model, "shown_seq") === "number";
  const handoffTo = () => {
    const hand = read(model, "handoff");
    return hand && typeof hand.to === "number" ? hand.to : null;
  };
  function release() {
    const q = ui.queued;
    if (!q || !m.alive() || !t.seen.onScreen || handoffTo() !== null) return;
    if (q.deal && ui.deal !== "ready") {
      ui.deal = "waiting";
      m.schedule();
      return;
    }
    ui.queued = null;
    const now = Date.now();
    const ms = q.deal ? Number(read(model, "deal_ms")) || 0 : Number(read(model, "reveal_ms")) || 0;
    const view = read(model, "view") || {};
    const info = read(model, "info") || {};
    absorbEvents(ui, q.items, info, now, ms, view.viewer);
    ui.motion = motionOf(q.items, now + MOTION_MS);
    ui.announce = announceOf(q.items, info, view.viewer);
    if (q.deal) {
      ui.deal = "showing";
      m.later("deal", ms + 5, () => {
        ui.deal = "none";
        m.schedule();
        pace2();
      });
    }
    m.later("motion", MOTION_MS + 5, () => {
      ui.motion = {};
      m.schedule();
    });
    if (tracked()) model.send({ type: "shown", seq: q.seq });
    m.schedule();
  }
  function takeEvents() {
    const ev = read(model, "events") || {};
    if (ev.seq === t.seen.seq) return;
    t.seen.seq = ev.seq;
    if (tracked() && typeof ev.seq === "number" && ev.seq <= read(model, "shown_seq")) return;
    const deal = isDeal(ev.items) && Number(read(model, "deal_ms")) > 0;
    if (deal) ui.deal = "waiting";
    ui.queued = { seq: ev.seq || 0, items: ev.items || [], deal };
    release();
  }
  function pace2() {
    const legal = read(model, "legal") || {};
    const view = read(model, "view") || {};
    const dealHolds = ui.deal !== "none" || ui.queued !== null && ui.queued.deal;
    if (!legal.bot || view.is_over || ui.paused || dealHolds) {
      m.cancel("bot");
      t.seen.bot = null;
      return;
    }
    if (t.seen.bot === legal.step) return;
    t.seen.bot = legal.step;
    m.later("bot", botDelayMs(read(model, "bot_delay_ms")), () => {
      if (m.alive()) model.send({ type: "bot_step", step: legal.step });
    });
  }
  function onChange2() {
    const hadGap = t.past.gap;
    t.past = pastTurns(t.past, read(model, "log_past"), read(model, "log"));
    if (t.past.gap && !hadGap) model.send({ type: "log_sync" });
    const ack = read(model, "ack");
    if (ack !== t.seen.ack) {
      t.seen.ack = ack;
      ui.pending = null;
      ui.dismissed = null;
    }
    const seat = (read(model, "view") || {}).viewer;
    if (t.seen.seat !== void 0 && seat !== t.seen.seat) forgetSeat(ui);
    t.seen.seat = seat;
    const legal = read(model, "legal") || {};
    if (legal.step !== t.seen.step) {
      if (t.seen.step !== null) ui.hint = "";
      t.seen.step = legal.step;
    }
    takeEvents();
    release();
    dropStale(ui, boardState(t));
    m.schedule();
    pace2();
  }
  return { release, pace: pace2, onChange: onChange2 };
}
function send(t, action, pending, then) {
  const legal = read(t.model, "legal") || {};
  t.ui.hint = "";
  t.ui.pending = pending;
  t.model.send(then ? { type: "action", action, step: legal.step, then } : { type: "action", action, step: legal.step });
}
function say(t, text) {
  t.ui.hint = text;
  t.m.schedule();
}
function notNow(t, st) {
  const { view, legal, info } = st;
  if (view.is_over) return "The game is over.";
  if (t.ui.deal === "waiting") return "Press Ready to see the deal first.";
  if (legal.bot) {
    return t.ui.paused ? `${playerName(info, view.active_player)} is paused: click Next bot move.` : `Wait: ${playerName(info, view.active_player)} is playing.`;
  }
  if (legal.actor === null || legal.actor === void 0) return `It is ${playerName(info, view.active_player)}'s turn.`;
  return "";
}
function onCard(t, slot, button) {
  const { ui } = t;
  const st = boardState(t);
  const why = notNow(t, st);
  if (why) return say(t, why);
  if (st.view.phase === "abilities" && !ui.power) {
    const skip = (st.prefs && st.prefs.skip_phase1 || []).includes(
      /** @type {number} */
      st.legal.actor
    );
    if (!skip) return say(t, "Phase 1: choose a power above, or No power this turn (key N) first.");
    const type = st.view.grid[slot] && st.view.grid[slot].card === "active" ? "deactivate" : "activate";
    closePower(ui);
    return send(t, { type: "end_phase" }, { slot }, { type, slot });
  }
  const out = cardClick(ui, st.view, st.legal, st.info, slot);
  if (out.hint) return say(t, out.hint);
  if (!out.action) {
    ui.hint = "";
    return t.m.schedule();
  }
  if (out.action.type === "use_power") {
    send(t, out.action, { act: "power" });
    return t.m.schedule();
  }
  if (button) {
    button.classList.add("ll-pending");
    button.removeAttribute(PAINT_KEY);
  }
  return send(t, out.action, { slot });
}
function choosePower(t, key) {
  const { ui } = t;
  const legal = read(t.model, "legal") || {};
  const spec = legal.powers && legal.powers[key];
  if (!spec) return say(t, "That power cannot be used now.");
  ui.hint = "";
  pickPower(ui, legal, key);
  if (spec.max === 0) {
    const action = takePower(ui, read(t.model, "info"));
    if (action) send(t, action, { act: "power" });
  }
  return t.m.schedule();
}
var CLICKS = {
  card(t, button) {
    const slot = Number(button.getAttribute("data-slot"));
    t.ui.focus = slot;
    onCard(t, slot, button);
  },
  end(t, button) {
    if (button.getAttribute("aria-disabled") === "true") return say(t, button.getAttribute("title") || "Not now.");
    button.classList.add("ll-pending");
    closePower(t.ui);
    return send(t, { type: "end_phase" }, { act: "end" });
  },
  "no-power"(t, button) {
    CLICKS.end(
      t,
      button,
      /** @type {any} */
      null
    );
  },
  "choose-power"(t, button) {
    choosePower(
      t,
      /** @type {string} */
      button.getAttribute("data-power")
    );
  },
  power(t, button) {
    t.ui.hint = "";
    pickPower(
      t.ui,
      read(t.model, "legal") || {},
      /** @type {string} */
      button.getAttribute("data-key")
    );
    t.m.schedule();
  },
  "use-power"(t, button) {
    if (button.getAttribute("aria-disabled") === "true") return say(t, "Choose the target cards on the grid first.");
    const action = takePower(t.ui, read(t.model, "info"));
    if (action) send(t, action, { act: "power" });
    return t.m.schedule();
  },
  "close-power"(t) {
    closePower(t.ui);
    t.m.schedule();
  },
  cancel(t) {
    closePower(t.ui);
    t.m.schedule();
  },
  source(t, button) {
    const element = (
      /** @type {string} */
      button.getAttribute("data-element")
    );
    const source = (
      /** @type {string} */
      button.getAttribute("data-source")
    );
    const why = pickSource(t.ui, read(t.model, "legal") || {}, element, source);
    if (why) return say(t, why);
    t.ui.hint = "";
    return t.m.schedule();
  },
  dismiss(t) {
    t.ui.hint = "";
    t.ui.dismissed = read(t.model, "error") || null;
    t.m.schedule();
  },
  "bot-step"(t) {
    t.model.send({ type: "bot_step", step: (read(t.model, "legal") || {}).step });
  },
  "deal-ready"(t, _button, flow) {
    t.ui.deal = "ready";
    flow.release();
    t.m.schedule();
  },
  "handoff-ready"(t) {
    forgetSeat(t.ui);
    t.model.send({ type: "ready" });
  },
  undo(t, button) {
    button.classList.add("ll-pending");
    t.ui.source = null;
    t.model.send({ type: "undo" });
  },
  "refill-all"(t, button) {
    button.classList.add("ll-pending");
    t.ui.hint = "";
    t.model.send({ type: "refill_all", step: (read(t.model, "legal") || {}).step });
  },
  "new-game"(t, button) {
    newGame(t, button, "new_game");
  },
  rematch(t, button) {
    newGame(t, button, "rematch");
  },
  hint(t, button) {
    button.classList.add("ll-pending");
    t.model.send({ type: "hint" });
  },
  rules(t) {
    t.ui.rules = !t.ui.rules;
    t.m.schedule();
  }
};
function newGame(t, button, type) {
  button.classList.add("ll-pending");
  t.ui.source = null;
  const st = boardState(t);
  t.model.send((st.view.players || []).length > 1 ? { type, seats: seatKinds(st, t.ui) } : { type });
  t.ui.seats = {};
}
function onInput(t, flow, event) {
  const target = (
    /** @type {HTMLSelectElement | null} */
    event.target
  );
  const act = target && target.getAttribute("data-act");
  if (!target || !act) return;
  if (act === "memory-of") return chooseMemoryOf(t.model, target.value);
  if (act === "seat-kind") {
    t.ui.seats = { ...t.ui.seats, [Number(target.getAttribute("data-seat"))]: target.value };
    return t.m.schedule();
  }
  if (act === "pref") {
    const name = (
      /** @type {string} */
      target.getAttribute("data-pref")
    );
    t.model.send({ type: "prefs", [name]: Boolean(
      /** @type {HTMLInputElement} */
      /** @type {unknown} */
      target.checked
    ) });
    return void 0;
  }
  if (act !== "pace") return;
  if (target.value === "paused") {
    t.ui.paused = true;
  } else {
    t.ui.paused = false;
    t.model.set("bot_delay_ms", Number(target.value));
    t.model.save_changes();
  }
  t.seen.bot = null;
  flow.pace();
  t.m.schedule();
}
function onEscape(t, event) {
  const { ui } = t;
  if (!(ui.power || ui.infoPower || ui.source || ui.hint || ui.rules)) return;
  ui.power = null;
  ui.targets = [];
  ui.infoPower = null;
  ui.source = null;
  ui.hint = "";
  ui.rules = false;
  t.m.schedule();
  event.preventDefault();
  event.stopPropagation();
}
function moveFocus(t, card, event) {
  const view = read(t.model, "view") || {};
  const cols = view.grid_cols || 1;
  const size = (view.grid || []).length;
  const slot = Number(card.getAttribute("data-slot"));
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
  let next = null;
  if (event.key in moves) next = slot + moves[event.key];
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = size - 1;
  if (next === null) return;
  event.preventDefault();
  if (next < 0 || next >= size) return;
  t.ui.focus = next;
  t.m.paint();
  const target = (
    /** @type {HTMLElement | null} */
    t.m.root().querySelector(`[data-act=card][data-slot="${next}"]`)
  );
  if (target) target.focus();
}
function keyButton(t, key) {
  const root = t.m.root();
  if (/^[1-9]$/.test(key)) return root.querySelector(`[data-act=choose-power][data-keyno="${key}"]`);
  const selector = KEYS[key.toLowerCase()];
  return selector ? root.querySelector(selector) : null;
}
function onKey(t, flow, event) {
  if (event.key === "Escape") return onEscape(t, event);
  const from = (
    /** @type {Element} */
    event.target
  );
  const tag = from && from.tagName ? from.tagName.toLowerCase() : "";
  if (tag === "select" || tag === "input" || tag === "textarea") return;
  const card = from.closest && from.closest("[data-act=card]");
  if (card && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
    return moveFocus(t, card, event);
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const button = keyButton(t, event.key);
  if (!button) return;
  event.preventDefault();
  const act = (
    /** @type {string} */
    button.getAttribute("data-act")
  );
  CLICKS[act](t, button, flow);
}
function draw(t, now) {
  const { m } = t;
  const active = m.doc.activeElement;
  const had = !!active && m.root().contains(active);
  m.show(renderBoard(boardState(t), t.ui, m.doc, now, true));
  const root = m.root();
  if (had && !root.contains(m.doc.activeElement)) {
    const card = (
      /** @type {HTMLElement | null} */
      root.querySelector("[data-act=card][tabindex='0']")
    );
    if (card) card.focus({ preventScroll: true });
  }
}
function playMode({ model, el }) {
  return mount(model, el, "leyline", (m) => {
    const t = {
      model,
      m,
      el,
      ui: newUi(),
      past: { base: null, log: null, turns: [] },
      seen: { seq: null, ack: read(model, "ack"), bot: null, step: null, seat: void 0, onScreen: true }
    };
    const flow = flowOf(t);
    let watcher = null;
    const win = m.doc.defaultView;
    if (win && typeof win.IntersectionObserver === "function") {
      t.seen.onScreen = false;
      watcher = new win.IntersectionObserver((entries) => {
        t.seen.onScreen = entries.some((e) => e.isIntersecting);
        if (t.seen.onScreen) flow.release();
      }, { threshold: 0.2 });
      watcher.observe(el);
    }
    const onClick2 = (event) => {
      const button = (
        /** @type {Element} */
        event.target.closest("[data-act]")
      );
      if (!button || !m.root().contains(button)) return;
      const handler = CLICKS[
        /** @type {string} */
        button.getAttribute("data-act")
      ];
      if (handler) handler(t, button, flow);
    };
    return {
      draw: (now) => draw(t, now),
      onChange: flow.onChange,
      reveals: () => t.ui.reveals,
      start: true,
      listeners: { click: onClick2, change: (e) => onInput(t, flow, e), keydown: (e) => onKey(t, flow, e) },
      teardown() {
        if (watcher) watcher.disconnect();
      }
    };
  });
}

// js/src/lesson.js
var FEEDBACK_LOOKS = {
  illegal: { tone: "bad", label: "Not allowed" },
  unseen: { tone: "bad", label: "That would be a guess" },
  wrong: { tone: "bad", label: "Not what this step asks" },
  retry: { tone: "info", label: "Retry first" },
  progress: { tone: "ok", label: "Good" },
  solved: { tone: "good", label: "Solved" },
  done: { tone: "good", label: "Lesson complete" },
  skipped: { tone: "info", label: "Shown" }
};
var LESSON_STATUS = { new: "not started", started: "in progress", done: "done" };
function nextAction(lesson) {
  if (lesson.done) {
    return lesson.next_lesson ? { label: "Next lesson →", message: { type: "goto", lesson: lesson.next_lesson } } : { label: "Lesson complete ✓", message: null };
  }
  if (lesson.status === "solved") return { label: "Next step →", message: { type: "next" } };
  return { label: "Skip step (show me)", message: { type: "next" } };
}
function stepsDone(lesson) {
  if (lesson.done) return lesson.total;
  return lesson.step + (lesson.status === "solved" ? 1 : 0);
}
function courseNav(doc, st) {
  const lessons = st.lessons || [];
  if (lessons.length < 2) return null;
  const done = lessons.filter((l) => l.status === "done").length;
  return h(
    doc,
    "nav",
    { class: "ll-course", "aria-label": "Course" },
    h(
      doc,
      "label",
      { class: "ll-pick" },
      "Lesson ",
      h(
        doc,
        "select",
        { "data-act": "lesson-pick", "aria-label": "Choose a lesson" },
        lessons.map((l, i) => h(
          doc,
          "option",
          { value: l.id, selected: l.current },
          `${i + 1}. ${l.title}${l.status === "done" ? " ✓" : l.status === "started" ? " …" : ""} (${l.elsewhere ? "done in another lesson widget" : LESSON_STATUS[l.status] || l.status})`
        ))
      )
    ),
    h(doc, "span", { class: "ll-coursedone" }, `${done} of ${plural(lessons.length, "lesson")} done`)
  );
}
function renderLesson(st, doc) {
  const lesson = st.lesson || {};
  if (!lesson.lesson) return h(doc, "div", { class: "leyline ll-lesson" }, "Loading the lesson…");
  const fb = lesson.feedback;
  const look = fb ? FEEDBACK_LOOKS[fb.kind] || { tone: "info", label: fb.kind } : null;
  const finished = stepsDone(lesson);
  const next = nextAction(lesson);
  const wrong = lesson.status === "wrong";
  const btn = (act, label, extra = {}) => h(doc, "button", {
    type: "button",
    class: `ll-btn${extra.primary ? " ll-primary" : ""}`,
    "data-act": act,
    "aria-disabled": extra.disabled ? "true" : null,
    title: extra.title || null
  }, label);
  const number = lesson.count > 1 ? `Lesson ${lesson.index + 1} of ${lesson.count} · ` : "";
  return h(
    doc,
    "div",
    {
      class: "leyline ll-lesson",
      "data-lesson": lesson.lesson,
      "data-status": lesson.status,
      "data-lesson-step": lesson.step,
      "data-ack": st.ack === void 0 ? "" : st.ack,
      "data-ll-theme": hostTheme(doc)
    },
    courseNav(doc, st),
    h(
      doc,
      "header",
      { class: "ll-lhead" },
      h(doc, "h3", { class: "ll-ltitle" }, number, lesson.title),
      h(doc, "span", { class: "ll-tag" }, lesson.section)
    ),
    lesson.intro ? h(doc, "p", { class: "ll-intro" }, lesson.intro) : null,
    h(
      doc,
      "details",
      { class: "ll-rule" },
      h(doc, "summary", {}, "The rule this lesson teaches"),
      h(doc, "blockquote", {}, lesson.rule)
    ),
    h(
      doc,
      "div",
      { class: "ll-progress" },
      h(doc, "span", { class: "ll-stepno" }, lesson.done ? `All ${plural(lesson.total, "step")} done` : `Step ${lesson.step + 1} of ${lesson.total}`),
      h(doc, "span", {
        class: "ll-bar",
        role: "progressbar",
        "aria-label": "Steps done",
        "aria-valuemin": 0,
        "aria-valuemax": lesson.total,
        "aria-valuenow": finished,
        "aria-valuetext": `${finished} of ${plural(lesson.total, "step")} done`
      }, h(doc, "span", { class: "ll-fill", style: `width:${Math.round(100 * finished / Math.max(1, lesson.total))}%` })),
      lesson.mistakes ? h(doc, "span", { class: "ll-mistakes" }, plural(lesson.mistakes, "mistake")) : null
    ),
    lesson.done ? lessonSummary(doc, lesson) : h(
      doc,
      "p",
      { class: "ll-instruction" },
      h(doc, "strong", {}, "Your task: "),
      lesson.instruction
    ),
    h(doc, "div", {
      class: `ll-feedback${look ? ` ll-fb-${look.tone}` : " ll-hidden"}`,
      role: "status",
      "aria-live": "polite",
      "aria-atomic": "true",
      "data-kind": fb ? fb.kind : null
    }, fb ? [h(doc, "strong", {}, `${/** @type {{label: string}} */
    look.label}: `), fb.text] : null),
    (lesson.hints || []).length ? h(
      doc,
      "ul",
      { class: "ll-hints", "aria-label": "Hints" },
      lesson.hints.map((t) => h(doc, "li", {}, t))
    ) : null,
    h(
      doc,
      "div",
      { class: "ll-controls", role: "group", "aria-label": "Lesson controls" },
      btn(
        "lesson-hint",
        lesson.done ? "Hint" : lesson.hints_left ? `Hint (${lesson.hints_left} left)` : "No more hints",
        { disabled: !lesson.hints_left || lesson.done, title: "Show the next hint; the last one names the moves" }
      ),
      btn("lesson-retry", "Retry step", { primary: wrong, disabled: lesson.done, title: "Put the cards back as they were when this step began" }),
      btn("lesson-next", next.label, { primary: !wrong && (lesson.status === "solved" || lesson.done), disabled: !next.message }),
      btn("lesson-restart", "Restart lesson", { title: "Start this lesson again from the beginning" })
    ),
    (st.remembered || []).some((e) => e) ? h(
      doc,
      "p",
      { class: "ll-note" },
      "Faint cards marked “remembered” are inert cards you know: given by the lesson, or seen when they were revealed to you."
    ) : null
  );
}
function lessonSummary(doc, lesson) {
  const recall = lesson.recall;
  const facts = [
    `${plural(lesson.total, "step")} done`,
    lesson.mistakes ? plural(lesson.mistakes, "mistake") : "no mistakes",
    lesson.hints_used ? plural(lesson.hints_used, "hint") + " used" : "no hints"
  ];
  if (recall && recall.asked) facts.push(`${recall.first_try} of ${recall.asked} recalled at the first try`);
  if ((lesson.skipped || []).length) facts.push(`${plural(lesson.skipped.length, "step")} shown rather than played`);
  return h(
    doc,
    "section",
    { class: "ll-lsummary", "aria-label": "Lesson summary" },
    h(doc, "p", { class: "ll-instruction" }, h(doc, "strong", {}, "Lesson complete. "), lesson.summary || ""),
    h(doc, "p", {}, `${facts.join(" · ")}.`),
    lesson.next_lesson ? h(doc, "p", { class: "ll-note" }, `Next: ${lesson.next_title || lesson.next_lesson}.`) : h(doc, "p", { class: "ll-note" }, "That was the last lesson of the course.")
  );
}
function lessonMode({ model, el }) {
  return mount(model, el, "leyline ll-lesson", (m) => {
    const host = m.doc.createElement("div");
    host.className = "ll-lessonboard";
    el.append(host);
    let board = playMode({ model, el: host });
    let epoch = (model.get("lesson") || {}).epoch;
    const state = () => ({
      lesson: model.get("lesson") || {},
      lessons: model.get("lessons") || [],
      ack: model.get("ack"),
      remembered: model.get("remembered") || []
    });
    function onChange2() {
      const now = (model.get("lesson") || {}).epoch;
      if (now !== epoch) {
        epoch = now;
        board();
        board = playMode({ model, el: host });
      }
      m.schedule();
    }
    function onClick2(event) {
      const button = (
        /** @type {Element} */
        event.target.closest("[data-act]")
      );
      if (!button || !m.root().contains(button) || button.getAttribute("aria-disabled") === "true") return;
      const act = button.getAttribute("data-act") || "";
      const simple = { "lesson-hint": "hint", "lesson-retry": "retry", "lesson-restart": "restart" };
      let message = simple[act] ? { type: simple[act] } : null;
      if (act === "lesson-next") message = nextAction(model.get("lesson") || {}).message;
      if (!message) return;
      button.classList.add("ll-pending");
      model.send(message);
    }
    function onPick(event) {
      const target = (
        /** @type {HTMLSelectElement | null} */
        event.target
      );
      if (target && target.getAttribute("data-act") === "lesson-pick") model.send({ type: "goto", lesson: target.value });
    }
    return {
      draw: () => {
        const st = state();
        host.hidden = Boolean(st.lesson.done);
        m.show(renderLesson(st, m.doc));
      },
      onChange: onChange2,
      listeners: { click: onClick2, change: onPick },
      teardown() {
        board();
        host.remove();
      }
    };
  });
}

// js/src/lost.js
var LOST = "ll-kernel-lost";
function lostText(mode) {
  if (mode === "play") {
    return {
      text: "This board has lost its kernel (it was restarted or stopped), so clicks no longer reach the game. Its moves were saved as they were made (unless autosave=False); to go on from the last one, run in a cell:",
      code: "from leyline_widget import LeylineWidget; LeylineWidget.resume()"
    };
  }
  return { text: "This board has lost its kernel (it was restarted or stopped), so clicks no longer reach it. Run its cell again.", code: "" };
}
function watchKernel(model, el) {
  const doc = el.ownerDocument;
  let note = null;
  const stop = (event) => {
    if (!el.classList.contains(LOST)) return;
    const target = (
      /** @type {Node | null} */
      event.target
    );
    if (note && target && note.contains(target)) return;
    event.stopPropagation();
    event.preventDefault();
  };
  const kinds = ["click", "keydown", "keyup", "keypress", "pointerdown", "change"];
  for (const kind of kinds) el.addEventListener(kind, stop, true);
  const raw = (
    /** @type {{comm_live?: unknown}} */
    /** @type {unknown} */
    model
  );
  function update() {
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

// js/src/replay_panels.js
var REPLAY_SPEEDS = [["2000", "slow"], ["1000", "normal"], ["400", "fast"]];
function newReplayUi() {
  return {
    reveals: {},
    playing: false,
    speed: 1e3,
    showHidden: false,
    dismissed: null,
    hint: "",
    confirm: null,
    form: { open: false, editing: null, text: "", tags: "", highlights: [], seq: 0, pending: false },
    renaming: null,
    dealt: false,
    exported: 0,
    rules: false,
    power: null,
    targets: [],
    infoPower: null,
    source: null
  };
}
function lastStep(st) {
  return Math.max(0, (st.line || []).length - 1);
}
function shownStep(st) {
  return st.legal && Number.isInteger(st.legal.step) ? (
    /** @type {number} */
    st.legal.step
  ) : st.step || 0;
}
function acting(st) {
  return (st.choices || []).length > 0 && !!st.legal && st.legal.step === shownStep(st);
}
function isHiddenNote(note, st, ui) {
  const hidden = st.hide_tags || [];
  return !ui.showHidden && (note.tags || []).some((t) => hidden.includes(t));
}
function viewerName(info, v) {
  return v === null ? "All-seeing (teacher)" : playerName(info, v);
}
function transportBar(doc, st, ui) {
  const shown = shownStep(st);
  const last = lastStep(st);
  const btn = (act, label, text, disabled, extra = {}) => h(doc, "button", {
    type: "button",
    class: `ll-btn ll-tbtn${extra.primary ? " ll-primary" : ""}`,
    "data-act": act,
    "aria-label": label,
    title: label,
    "aria-disabled": disabled ? "true" : null,
    ...extra.attrs
  }, text);
  return h(
    doc,
    "div",
    { class: "ll-transport", role: "group", "aria-label": "Replay controls" },
    btn("first", "First step (Home)", "|◀", shown <= 0),
    btn("back", "Back one step (←)", "◀", shown <= 0),
    btn(
      "play",
      ui.playing ? "Pause" : "Play from here",
      ui.playing ? "❚❚ Pause" : "▶ Play",
      false,
      { primary: true, attrs: { "aria-pressed": ui.playing ? "true" : "false" } }
    ),
    btn("forward", "Forward one step (→)", "▶", shown >= last),
    btn("last", "Last step (End)", "▶|", shown >= last),
    h(doc, "input", {
      type: "range",
      class: "ll-scrub",
      min: 0,
      max: last,
      step: 1,
      value: st.step,
      "data-act": "scrub",
      "aria-label": "Step",
      "aria-valuetext": `Step ${st.step} of ${last}`
    }),
    h(doc, "span", { class: "ll-stepof" }, `Step ${shown} / ${last}`),
    h(
      doc,
      "label",
      { class: "ll-speed" },
      "Speed ",
      h(
        doc,
        "select",
        { "data-act": "speed", "aria-label": "Autoplay speed" },
        REPLAY_SPEEDS.map(([v, t]) => h(doc, "option", { value: v, selected: String(ui.speed) === v }, t))
      )
    )
  );
}
function pickers(doc, st) {
  const { info } = st;
  const lines = st.lines || [];
  const depth2 = (line) => {
    let d = 0;
    for (let l = line; l && l.parent !== null; l = lines.find((x) => x.id === l.parent)) d += 1;
    return d;
  };
  const viewers = st.viewers || [];
  const choices = st.memory_choices || [];
  return h(
    doc,
    "div",
    { class: "ll-pickers" },
    h(
      doc,
      "label",
      {},
      "Line ",
      h(
        doc,
        "select",
        { "data-act": "line", "aria-label": "Line: the main line or a variation" },
        lines.map((l) => h(
          doc,
          "option",
          { value: l.id, selected: l.id === st.variation },
          `${"↳ ".repeat(depth2(l))}${l.parent === null ? "Main line" : l.name}` + (l.parent === null ? ` (${plural(l.end, "move")})` : ` (from step ${l.start}, ${plural(l.end - l.start, "move")})`)
        ))
      )
    ),
    h(
      doc,
      "label",
      {},
      "Viewer ",
      h(
        doc,
        "select",
        { "data-act": "viewer", "aria-label": "Whose eyes: a player, or all-seeing" },
        viewers.map((v) => h(doc, "option", { value: v === null ? "all" : v, selected: v === st.viewer }, viewerName(info, v)))
      )
    ),
    st.viewer === null && choices.length ? h(
      doc,
      "label",
      {},
      "Memory of ",
      h(
        doc,
        "select",
        { "data-act": "memory-of", "aria-label": "Show the memory of a player (teacher view)" },
        h(doc, "option", { value: "", selected: st.show_memory_of === null }, "nobody"),
        choices.map((p) => h(doc, "option", { value: p, selected: p === st.show_memory_of }, playerName(info, p)))
      )
    ) : null
  );
}
function happenedPanel(doc, st, entry, ui = newReplayUi()) {
  const shown = shownStep(st);
  const lines = [];
  const dealing = dealShown(st, ui);
  if (entry && !entry.action) {
    const dealt = (entry.events || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup").length;
    if (dealt) lines.push(`${plural(dealt, "card")} dealt onto the grid, each shown face-up, then turned inert`);
  }
  for (const ev of entry && entry.events || []) {
    const line = pageLine(ev, st.info, st.viewer);
    if (line) lines.push(line);
  }
  const deal = shown === 0 && st.viewer !== null && setupReveals(entry).length;
  return h(
    doc,
    "section",
    { class: "ll-happened", "aria-label": "What happened at this step" },
    h(doc, "div", { class: "ll-h" }, shown ? `What happened at step ${shown}` : "Set-up"),
    lines.length ? h(doc, "ul", {}, lines.map((t) => h(doc, "li", {}, t))) : h(doc, "p", { class: "ll-note" }, "Nothing this viewer could see."),
    deal && dealing ? h(
      doc,
      "p",
      { class: "ll-deal" },
      "The deal, as every player saw it. Remember what you can, then: ",
      h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "ready" }, "Ready")
    ) : null,
    deal && !dealing ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "deal-again" }, "Show the deal again") : null
  );
}
function setupReveals(entry) {
  return (entry && !entry.action && entry.events || []).filter((ev) => ev.type === "reveal" && ev.cause === "setup" && ev.element);
}
function dealShown(st, ui) {
  return shownStep(st) === 0 && st.viewer !== null && !ui.dealt;
}
function noteItem(doc, st, ui, note) {
  const id = `${note.variation}:${note.step}:${note.index}`;
  const where2 = { "data-variation": note.variation, "data-step": note.step, "data-index": note.index };
  return h(
    doc,
    "li",
    { class: "ll-noteitem", "data-note": id },
    h(doc, "p", { class: "ll-notetext" }, note.text),
    h(
      doc,
      "div",
      { class: "ll-notemeta" },
      (note.tags || []).map((t) => h(doc, "span", { class: "ll-tag" }, t)),
      (note.highlights || []).length ? h(doc, "span", { class: "ll-note" }, ` points at ${listSlots(note.highlights || [])}`) : null,
      st.editable ? [
        h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "note-edit", ...where2 }, "Edit"),
        h(
          doc,
          "button",
          { type: "button", class: "ll-btn ll-small", "data-act": "note-remove", ...where2 },
          ui.confirm === id ? "Really delete?" : "Delete"
        )
      ] : null
    )
  );
}
function notesPanel(doc, st, ui) {
  const shown = shownStep(st);
  const notes = (st.annotations || []).filter((n) => n.step === shown);
  const visible = notes.filter((n) => !isHiddenNote(n, st, ui));
  const hiddenCount = notes.length - visible.length;
  const tagged = notes.some((n) => (n.tags || []).some((t) => (st.hide_tags || []).includes(t)));
  const f = ui.form;
  const form = st.editable ? h(
    doc,
    "div",
    {
      class: `ll-noteform${f.open ? "" : " ll-hidden"}`,
      role: "group",
      "aria-label": f.editing ? `Edit note on step ${f.editing.step}` : `New note on step ${shown}`
    },
    h(doc, "div", { class: "ll-h" }, f.editing ? `Edit the note on step ${f.editing.step}` : `New note on step ${shown}`),
    h(doc, "textarea", { "data-act": "note-text", rows: 3, maxlength: 1e4, "aria-label": "Note text", placeholder: "What should a reader notice here?" }),
    h(
      doc,
      "label",
      { class: "ll-tagsfield" },
      "Tags ",
      h(doc, "input", { type: "text", "data-act": "note-tags", "aria-label": "Tags, separated by commas", placeholder: "e.g. hint, spoiler" })
    ),
    h(doc, "p", { class: "ll-note" }, f.highlights.length ? `Points at ${listSlots(f.highlights)}: click cards to change.` : "Click cards on the grid to point at them."),
    h(
      doc,
      "div",
      { class: "ll-controls" },
      h(doc, "button", { type: "button", class: `ll-btn ll-primary${f.pending ? " ll-pending" : ""}`, "data-act": "note-save" }, "Save note"),
      h(doc, "button", { type: "button", class: "ll-btn", "data-act": "note-cancel" }, "Cancel")
    )
  ) : null;
  return h(
    doc,
    "section",
    { class: "ll-notes", "aria-label": `Notes on step ${shown}` },
    h(doc, "div", { class: "ll-h" }, `Notes on step ${shown}`),
    visible.length ? h(doc, "ul", { class: "ll-notelist" }, visible.map((n) => noteItem(doc, st, ui, n))) : h(doc, "p", { class: "ll-note" }, notes.length ? "Every note here is hidden." : "No notes on this step."),
    tagged ? h(
      doc,
      "button",
      { type: "button", class: "ll-btn ll-small", "data-act": "toggle-hidden", "aria-pressed": ui.showHidden ? "true" : "false" },
      ui.showHidden ? `Hide notes tagged ${(st.hide_tags || []).join(", ")}` : `Show ${plural(hiddenCount, "hidden note")} (${(st.hide_tags || []).join(", ")})`
    ) : null,
    st.editable ? h(doc, "button", { type: "button", class: `ll-btn ll-small${f.open ? " ll-hidden" : ""}`, "data-act": "note-new" }, `Add a note on step ${shown}`) : h(doc, "p", { class: "ll-note" }, "Notes are read-only in this page."),
    form
  );
}

// js/src/book.js
function applyPatch(base, changes) {
  const copy = (v) => v === void 0 ? v : JSON.parse(JSON.stringify(v));
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
function decodeStream(data) {
  const values = [data.base];
  for (const changes of data.patches || []) values.push(applyPatch(values[values.length - 1], changes));
  return values;
}
function shelfOf(book) {
  return { book, byId: new Map((book.lines || []).map((l) => [l.id, l])), cache: /* @__PURE__ */ new Map() };
}
function memo(shelf, k, make) {
  if (!shelf.cache.has(k)) shelf.cache.set(k, make());
  return shelf.cache.get(k);
}
function lineOf(shelf, id) {
  return (
    /** @type {Line} */
    shelf.byId.get(id)
  );
}
function viewerKey(viewer) {
  return viewer === null || viewer === void 0 ? "all" : String(viewer);
}
function chainOf(shelf, id) {
  const out = [];
  for (let line = shelf.byId.get(id); line; line = line.parent === null ? void 0 : shelf.byId.get(line.parent)) out.unshift(line);
  return out;
}
function ownerOf(shelf, id, step) {
  let line = lineOf(shelf, id);
  while (line.parent !== null && step <= line.start) line = lineOf(shelf, line.parent);
  return line;
}
function frames(shelf, vk, id) {
  return memo(shelf, `f/${vk}/${id}`, () => decodeStream(shelf.book.frames[vk][id]));
}
function ownEntries(shelf, vk, id) {
  return memo(shelf, `e/${vk}/${id}`, () => {
    const data = shelf.book.entries[vk][id];
    return data.of ? applyPatch(ownEntries(shelf, data.of, id), data.patches) : data.base;
  });
}
function lineEntries(shelf, vk, id) {
  return memo(shelf, `l/${vk}/${id}`, () => {
    const chain = chainOf(shelf, id);
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
function memoryAt(shelf, id, step) {
  const memory = shelf.book.memory;
  if (!memory) return {};
  const line = ownerOf(shelf, id, step);
  return memo(shelf, `m/${line.id}`, () => decodeStream(memory.lines[line.id]))[step - line.start];
}
function bookState(book) {
  return {
    mode: "replay",
    info: book.info || {},
    viewers: book.viewers || [],
    lines: book.lines || [],
    hide_tags: book.hide_tags || [],
    reveal_ms: book.reveal_ms === void 0 ? 1500 : book.reveal_ms,
    editable: false,
    error: "",
    ack: 0,
    events: { seq: 0, step: 0, items: [] },
    memory_choices: book.memory ? [book.memory.player] : [],
    show_memory_of: book.memory ? book.memory.player : null,
    step: book.start.step,
    variation: book.start.variation,
    viewer: book.start.viewer,
    downloads: book.downloads || {},
    allow_explore: false,
    explore: false,
    choices: [],
    train: null
  };
}
function deriveBook(shelf, state, good) {
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
  state.analyses = memo(shelf, `a/${vk}/${line.id}`, () => ((book.analyses || {})[line.id] || []).filter((a) => state.viewer === null || a.player === state.viewer));
  state.memory = state.viewer === null && state.show_memory_of !== null ? memoryAt(shelf, line.id, state.step) : {};
  for (const k of ["variation", "viewer", "step", "show_memory_of"]) good[k] = state[k];
}
var DERIVED = ["view", "legal", "line", "annotations", "memory", "glyphs", "scores", "analyses"];
function bookModel(book) {
  const shelf = shelfOf(book);
  const state = bookState(book);
  const good = { ...state };
  const handlers = /* @__PURE__ */ new Map();
  const fire = (name) => (handlers.get(name) || /* @__PURE__ */ new Set()).forEach((cb) => cb());
  deriveBook(shelf, state, good);
  const dirty = /* @__PURE__ */ new Set();
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
    send() {
    },
    // no kernel: nothing listens
    on(name, cb) {
      const set = handlers.get(name) || /* @__PURE__ */ new Set();
      handlers.set(name, set);
      set.add(cb);
    },
    off(name, cb) {
      const set = handlers.get(name);
      if (set) set.delete(cb);
    }
  };
}

// js/src/coach.js
var VERDICT_MARKS = (
  /** @type {Record<string, string>} */
  { inaccuracy: "?!", mistake: "?", blunder: "??" }
);
var VERDICT_COLOURS = (
  /** @type {Record<string, string>} */
  {
    best: "#009e73",
    good: "#56b4e9",
    inaccuracy: "#e69f00",
    mistake: "#d55e00",
    blunder: "#cc0000"
  }
);
var SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];
function reviewedMoves(st) {
  const out = /* @__PURE__ */ new Map();
  const upto = st.train === null || st.train === void 0 ? Infinity : st.step;
  for (const a of st.analyses || []) {
    for (const m of a.moves || []) if (m.step <= upto) out.set(m.step, { ...m, player: a.player });
  }
  return out;
}
function verdictBadge(doc, verdict) {
  const mark = VERDICT_MARKS[verdict];
  if (!mark) return null;
  return h(doc, "span", {
    class: `ll-verdict ll-verdict-${verdict}`,
    role: "img",
    "aria-label": verdict,
    title: `Coach: ${verdict}`,
    style: `background:${VERDICT_COLOURS[verdict]}`
  }, mark);
}
var signed = (v) => `${v > 0 ? "+" : ""}${v.toFixed(1)}`;
function coachPanel(doc, st, shown) {
  const m = reviewedMoves(st).get(shown);
  const tools = analyseBar(doc, st);
  if (!m && !tools) return null;
  const body = [];
  if (m) {
    const who = playerName(st.info, m.player);
    const same = JSON.stringify(m.best) === JSON.stringify(m.played);
    body.push(h(doc, "p", { class: "ll-coachverdict" }, verdictBadge(doc, m.verdict), ` ${who}: ${describeAction(m.played, st.info)}: ${m.verdict}` + (m.loss > 5e-3 ? ` (${m.loss.toFixed(1)} cards of expected margin lost)` : "") + "."));
    if (!same) {
      const marked = (m.best_slots || []).length ? " (marked on the board)" : "";
      body.push(h(doc, "p", { class: "ll-coachbest" }, `Best was: ${describeAction(m.best, st.info)}${marked}.`));
    }
    body.push(h(doc, "p", { class: "ll-coachreason" }, m.reason));
    if (!same && st.analysis_progress && (m.best_line || []).length && (st.train === null || st.train === void 0)) {
      body.push(h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "show-line" }, "Show the line"));
    }
    if (typeof m.best_value === "number" && typeof m.played_value === "number") {
      body.push(h(doc, "p", { class: "ll-note" }, `Expected final margin: ${signed(m.played_value)} played, ${signed(m.best_value)} best.`));
    }
  } else if ((st.analyses || []).length) {
    body.push(h(doc, "p", { class: "ll-note" }, shown ? `The coach did not review move ${shown} (not a decision of an analysed seat).` : "Step through the game to see the coach's word on each decision."));
  }
  return h(
    doc,
    "section",
    { class: "ll-coach", "aria-label": "The coach" },
    h(doc, "div", { class: "ll-h" }, shown ? `Coach on move ${shown}` : "Coach"),
    body,
    tools
  );
}
function bestSlots(st, shown) {
  const m = reviewedMoves(st).get(shown);
  if (!m || JSON.stringify(m.best) === JSON.stringify(m.played)) return [];
  return (m.best_slots || []).filter((s) => Number.isInteger(s));
}
function puzzlePanel(doc, st, menu) {
  const p = st.puzzle;
  if (!p || p.total === void 0) return null;
  const seat = playerName(st.info, Number(p.seat));
  const total = Number(p.total) || 0;
  const index = Number(p.index) || 0;
  const last = p.last;
  const body = [h(
    doc,
    "p",
    { class: "ll-trainscore", "data-solved": p.solved, "data-answered": p.answered },
    `Solved: ${p.solved} of ${p.answered} answered (${total} in all)`
  )];
  if (!total) body.push(h(doc, "p", { class: "ll-note" }, `No mistakes or blunders of ${seat}'s to set as puzzles.`));
  else if (!p.done) {
    body.push(h(doc, "p", { class: "ll-note" }, `Move ${p.move}: ${seat} played a ${p.verdict} here. Find a better move (within 0.3 cards of the best solves it).`));
    body.push(menu(doc, st, "Try this move"));
  } else if (last) {
    body.push(h(
      doc,
      "p",
      { class: `ll-trainlast ${last.solved ? "ll-right" : "ll-wrong"}` },
      last.solved ? `✓ Solved: ${describeAction(last.guess, st.info)} is within 0.3 cards of the best.` : `✗ Not this one: ${describeAction(last.guess, st.info)} gives up ${last.loss.toFixed(1)} cards.`
    ));
    body.push(h(doc, "p", { class: "ll-coachbest" }, `Best was: ${describeAction(last.best, st.info)}. ${seat} played: ${describeAction(last.played, st.info)}.`));
    body.push(h(doc, "p", { class: "ll-coachreason" }, last.reason));
    body.push(index + 1 < total ? h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "puzzle-next" }, "Next puzzle") : h(doc, "p", { class: "ll-note" }, `All ${total} puzzles answered.`));
  }
  return h(
    doc,
    "section",
    { class: "ll-train ll-puzzles", "aria-label": "Puzzles" },
    h(doc, "div", { class: "ll-h" }, `Find a better move: puzzle ${Math.min(index + 1, total)} of ${total}`),
    body
  );
}
function analyseBar(doc, st) {
  const p = st.analysis_progress;
  if (!p || st.train !== null && st.train !== void 0) return null;
  const seats = st.viewer === null ? (st.viewers || []).filter((v) => v !== null) : [st.viewer];
  const running = !!p.running;
  const total = Number(p.total) || 0;
  const done = Number(p.done) || 0;
  return h(
    doc,
    "div",
    { class: "ll-analyse", role: "group", "aria-label": "Analyse with the coach" },
    seats.length > 1 ? h(
      doc,
      "select",
      { "data-act": "analyse-seat", "aria-label": "Seat to analyse" },
      seats.map((s) => h(doc, "option", { value: String(s), selected: s === p.seat }, playerName(
        st.info,
        /** @type {number} */
        s
      )))
    ) : null,
    h(doc, "button", {
      type: "button",
      class: `ll-btn ll-small ll-primary${running ? " ll-pending" : ""}`,
      "data-act": "analyse",
      "aria-disabled": running ? "true" : null,
      "data-seat": seats.length === 1 ? String(seats[0]) : null
    }, running ? "Analysing…" : seats.length === 1 ? `Analyse ${playerName(
      st.info,
      /** @type {number} */
      seats[0]
    )}'s moves` : "Analyse"),
    running || total ? h(doc, "progress", {
      class: "ll-analyseprogress",
      max: Math.max(1, total),
      value: done,
      "aria-label": "Analysis progress"
    }) : null,
    running || total ? h(doc, "span", { class: "ll-note" }, ` ${done} / ${total} decisions${running ? "" : p.cancelled ? " (cancelled)" : " analysed"}`) : null,
    running ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "analyse-cancel" }, "Cancel") : null,
    running ? null : puzzleButtons(doc, st, seats),
    p.error ? h(doc, "span", { class: "ll-error", role: "alert" }, ` ${p.error}`) : null
  );
}
function puzzleButtons(doc, st, seats) {
  return (st.analyses || []).filter((a) => seats.includes(a.player) && (a.moves || []).some((m) => m.verdict === "mistake" || m.verdict === "blunder")).map((a) => h(
    doc,
    "button",
    { type: "button", class: "ll-btn ll-small", "data-act": "puzzles", "data-seat": String(a.player) },
    `Puzzles from ${playerName(st.info, a.player)}'s mistakes`
  ));
}
function analyseStep(st) {
  const p = st.analysis_progress;
  if (!p || !p.running || !p.stepped) return null;
  return { type: "analyse_step", run: Number(p.run), done: Number(p.done) };
}
function evalGraph(doc, st, shown) {
  const analyses = (st.analyses || []).filter((a) => (a.moves || []).some((m) => typeof m.played_value === "number"));
  const last = Math.max(1, (st.line || []).length - 1);
  if (!analyses.length) return null;
  const W = 600;
  const H = 90;
  const upto = st.train === null || st.train === void 0 ? last : shown;
  const x = (k) => k / last * W;
  const key = ["evals", idOf(st.analyses), last, upto].join("/");
  const curves = lazy(doc, key, () => svg(
    doc,
    "g",
    { class: "ll-gcurves" },
    ...evalCurves(doc, analyses, upto, x, W, H)
  ));
  const now = svg(doc, "line", { x1: x(shown).toFixed(1), x2: x(shown).toFixed(1), y1: 0, y2: H, class: "ll-gnow", stroke: "currentColor", "stroke-dasharray": "3 2" });
  const box = h(doc, "div", {
    class: "ll-graph ll-evalgraph",
    "data-act": "graph",
    "data-last": last,
    role: "slider",
    tabindex: -1,
    "aria-label": "Evaluation graph: click to go to that step",
    "aria-valuemin": 0,
    "aria-valuemax": last,
    "aria-valuenow": shown
  });
  box.append(svg(doc, "svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", width: "100%", height: H }, curves, now));
  const legend = h(doc, "div", { class: "ll-glegend" }, analyses.map((a) => h(
    doc,
    "span",
    { class: "ll-glegenditem" },
    h(doc, "span", { class: "ll-gswatch", style: `background:${SEAT_COLOURS[a.player % 4]}` }),
    ` ${playerName(st.info, a.player)}: expected final margin (own score minus the best opponent's)`
  )));
  return h(
    doc,
    "section",
    { class: "ll-evals", "aria-label": "The coach's evaluation over the game" },
    h(doc, "div", { class: "ll-h" }, "Evaluation"),
    box,
    legend
  );
}
function evalCurves(doc, analyses, upto, x, W, H) {
  const values = analyses.flatMap((a) => a.moves.flatMap((m) => [m.played_value, m.best_value])).filter((v) => typeof v === "number");
  const span = Math.max(1, ...values.map((v) => Math.abs(
    /** @type {number} */
    v
  )));
  const y = (v) => H / 2 - v / span * (H / 2 - 6);
  const parts = [svg(doc, "line", { x1: 0, x2: W, y1: y(0).toFixed(1), y2: y(0).toFixed(1), class: "ll-gzero", stroke: "#999", "stroke-width": 1 })];
  for (const a of analyses) {
    const moves = a.moves.filter((m) => typeof m.played_value === "number" && m.step <= upto);
    const colour = SEAT_COLOURS[a.player % 4];
    parts.push(svg(doc, "polyline", {
      points: moves.map((m) => `${x(m.step).toFixed(1)},${y(
        /** @type {number} */
        m.played_value
      ).toFixed(1)}`).join(" "),
      fill: "none",
      stroke: colour,
      "stroke-width": 1.5,
      class: `ll-geval ll-geval${a.player}`
    }));
    for (const m of moves) {
      const px = x(m.step).toFixed(1);
      if (typeof m.best_value === "number" && m.loss > 5e-3) {
        parts.push(svg(doc, "line", { x1: px, x2: px, y1: y(m.best_value).toFixed(1), y2: y(
          /** @type {number} */
          m.played_value
        ).toFixed(1), stroke: VERDICT_COLOURS[m.verdict], "stroke-width": 1, class: "ll-gloss" }));
      }
      parts.push(svg(doc, "circle", {
        cx: px,
        cy: y(
          /** @type {number} */
          m.played_value
        ).toFixed(1),
        r: VERDICT_MARKS[m.verdict] ? 4 : 2.5,
        fill: VERDICT_COLOURS[m.verdict] || colour,
        class: `ll-gpoint ll-verdict-${m.verdict}`,
        "data-act": "goto",
        "data-step": m.step
      }, svg(doc, "title", {}, `Move ${m.step}: ${m.verdict}, margin ${signed(
        /** @type {number} */
        m.played_value
      )}`)));
    }
  }
  return parts;
}

// js/src/studio.js
var GLYPHS = [
  ["!!", "brilliant"],
  ["!", "good"],
  ["!?", "interesting"],
  ["?!", "dubious"],
  ["?", "mistake"],
  ["??", "blunder"]
];
var SEAT_COLOURS2 = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];
var cap = (el) => el ? el.charAt(0).toUpperCase() + el.slice(1) : "";
function shortStep(entry, info, viewer = null) {
  const a = entry.action;
  if (!a) return "set-up";
  const named = viewer === null || viewer === void 0;
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
function turnRows(line) {
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
function chainOf2(lines, id) {
  const out = [];
  for (let l = lines.find((x) => x.id === id); l; l = l.parent === null ? void 0 : lines.find((x) => x.id === l.parent)) out.unshift(l);
  return out;
}
function depth(lines, line) {
  return chainOf2(lines, line.id).length - 1;
}
function branchesAt(st, step) {
  const lines = st.lines || [];
  const chain = chainOf2(lines, st.variation);
  const ids2 = new Set(chain.map((l) => l.id));
  return lines.filter((l) => l.parent !== null && l.start === step && !ids2.has(l.id) && ids2.has(l.parent));
}
function variationItem(doc, st, ui, l, own = false) {
  const d = depth(st.lines || [], l);
  const moves = l.end - l.start;
  const renaming = ui.renaming === l.id;
  const tools = st.editable ? h(
    doc,
    "span",
    { class: "ll-vartools" },
    h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-promote", "data-variation": l.id, title: "Make these moves the continuation of the line above" }, "Promote"),
    h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-rename", "data-variation": l.id }, "Rename"),
    h(
      doc,
      "button",
      { type: "button", class: "ll-btn ll-small", "data-act": "var-delete", "data-variation": l.id },
      ui.confirm === `var:${l.id}` ? "Really delete?" : "Delete"
    )
  ) : null;
  return h(
    doc,
    "li",
    { class: `ll-var ll-depth-${Math.min(d, 6)}${own ? " ll-varown" : ""}`, "data-variation": l.id },
    renaming ? h(
      doc,
      "span",
      { class: "ll-rename" },
      h(doc, "input", { type: "text", "data-act": "var-name", maxlength: 200, "aria-label": "New name of the variation", value: l.name }),
      h(doc, "button", { type: "button", class: "ll-btn ll-small ll-primary", "data-act": "var-name-save", "data-variation": l.id }, "Save"),
      h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "var-name-cancel" }, "Cancel")
    ) : h(doc, "button", {
      type: "button",
      class: `ll-varname${l.id === st.variation ? " ll-current" : ""}`,
      "data-act": "line-go",
      "data-variation": l.id,
      "aria-current": l.id === st.variation ? "true" : null
    }, `${"↳".repeat(Math.max(1, d))} ${l.name}`, h(doc, "span", { class: "ll-note" }, ` (after move ${l.start}, ${plural(moves, "move")})`)),
    renaming ? null : tools
  );
}
function movesByTurn(doc, st, ui, shown, shorts) {
  const lines = st.lines || [];
  const chain = chainOf2(lines, st.variation);
  const line = st.line || [];
  const training = st.train !== null && st.train !== void 0;
  const upto = training ? shown : line.length - 1;
  const confirm = ui.confirm && ui.confirm.startsWith("var:") ? ui.confirm : "";
  const key = [
    "moves",
    idOf(line),
    idOf(lines),
    st.variation,
    idOf(st.annotations),
    idOf(st.glyphs),
    idOf(st.analyses),
    idOf(st.info),
    !!st.editable,
    ui.renaming,
    confirm,
    upto
  ].join("/");
  const list = lazy(doc, key, () => h(
    doc,
    "ol",
    { class: "ll-movelist ll-byturn" },
    moveItems(doc, st, ui, shown, shorts, upto)
  ));
  return h(
    doc,
    "section",
    { class: "ll-moves", "aria-label": "Moves of this line, by turn" },
    h(doc, "div", { class: "ll-h" }, "Moves", chain.length > 1 ? h(doc, "span", { class: "ll-note" }, ` · ${chain[chain.length - 1].name}`) : null),
    list
  );
}
function moveItems(doc, st, ui, shown, shorts, upto) {
  const lines = st.lines || [];
  const chain = chainOf2(lines, st.variation);
  const own = chain.length > 1 ? chain[chain.length - 1].start : Infinity;
  const noted = new Set((st.annotations || []).map((n) => n.step));
  const glyphs = st.glyphs || {};
  const reviewed = reviewedMoves(st);
  const verdictOf = (k) => (reviewed.get(k) || { verdict: "" }).verdict;
  const branching = new Set(lines.filter((l) => l.parent !== null).map((l) => l.start));
  const items = [];
  for (const row of turnRows((st.line || []).slice(0, upto + 1))) {
    const who = row.player < 0 ? "Set-up" : `${row.turn}. ${playerName(st.info, row.player)}`;
    items.push(h(
      doc,
      "li",
      { class: "ll-turnrow", "data-turn": row.turn },
      h(doc, "span", { class: `ll-seat${row.player >= 0 ? ` ll-seat${row.player}` : ""}` }, who),
      h(doc, "span", { class: "ll-turnmoves" }, row.steps.map((k) => h(
        doc,
        "button",
        {
          type: "button",
          class: `ll-move${k === shown ? " ll-current" : ""}${k > own ? " ll-own" : ""}`,
          "data-act": "goto",
          "data-step": k,
          "aria-current": k === shown ? "step" : null,
          title: `Step ${k}`
        },
        shorts[k] || "",
        glyphs[String(k)] ? h(doc, "b", { class: "ll-glyph" }, glyphs[String(k)]) : null,
        verdictBadge(doc, verdictOf(k)),
        noted.has(k) ? h(doc, "span", { class: "ll-notemark", title: "This step has notes" }, "✎") : null
      )))
    ));
    const branchSteps = row.steps.filter((k) => branching.has(k) && (branchesAt(st, k).length || chain.length > 1 && chain.slice(1).some((l) => l.start === k)));
    for (const k of branchSteps) {
      const here = branchesAt(st, k);
      const leaving = chain.slice(1).filter((l) => l.start === k);
      items.push(h(
        doc,
        "li",
        { class: "ll-branch", "data-after": k },
        h(
          doc,
          "ul",
          { class: "ll-vartree", "aria-label": `Variations after move ${k}` },
          leaving.map((l) => {
            const parent = lines.find((x) => x.id === l.parent);
            return parent ? h(
              doc,
              "li",
              { class: `ll-var ll-depth-${Math.min(depth(lines, parent), 6)} ll-varparent` },
              h(
                doc,
                "button",
                { type: "button", class: "ll-varname", "data-act": "line-go", "data-variation": parent.id },
                `↰ ${parent.parent === null ? "Main line" : parent.name}`,
                h(doc, "span", { class: "ll-note" }, " continues here")
              ),
              variationItem(doc, st, ui, l, true)
            ) : null;
          }),
          here.map((l) => variationItem(doc, st, ui, l))
        )
      ));
    }
  }
  return items;
}
var moveIndex = /* @__PURE__ */ new WeakMap();
function indexOf(list) {
  const key = list.getAttribute(PAINT_KEY) || "";
  let index = moveIndex.get(list);
  if (!index || !key || index.key !== key) {
    const moves = /* @__PURE__ */ new Map();
    for (const b of list.querySelectorAll(".ll-move[data-step]")) moves.set(Number(b.getAttribute("data-step")), b);
    index = { key, moves, current: Array.from(list.querySelectorAll(".ll-move.ll-current")) };
    if (key) moveIndex.set(list, index);
  }
  return index;
}
function moveButton(root, step) {
  const list = root.querySelector(".ll-movelist");
  return list ? (
    /** @type {HTMLElement | null} */
    indexOf(list).moves.get(step) || null
  ) : null;
}
function markCurrent(root, shown) {
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
function glyphBar(doc, st, shown) {
  if (!st.editable || shown < 1) return null;
  const current = (st.glyphs || {})[String(shown)] || null;
  return h(
    doc,
    "div",
    { class: "ll-glyphbar", role: "group", "aria-label": `Glyph for move ${shown}` },
    h(doc, "span", { class: "ll-note" }, `Move ${shown}: `),
    GLYPHS.map(([g, name]) => h(doc, "button", {
      type: "button",
      class: `ll-btn ll-small ll-glyphbtn${current === g ? " ll-primary" : ""}`,
      "data-act": "glyph",
      "data-glyph": g,
      "aria-pressed": current === g ? "true" : "false",
      title: `${g} ${name}`
    }, g)),
    current ? h(doc, "button", { type: "button", class: "ll-btn ll-small", "data-act": "glyph", "data-glyph": "" }, "clear") : null
  );
}
function scoreGraph(doc, st, shown) {
  const scores = st.scores || [];
  if (scores.length < 2) return null;
  const W = 600;
  const H = 90;
  const last = scores.length - 1;
  const x = (k) => k / last * W;
  const seats = scores[0].length;
  const upto = st.train === null || st.train === void 0 ? last : Math.min(shown, last);
  const key = ["scores", idOf(scores), idOf(st.glyphs), upto].join("/");
  const curves = lazy(doc, key, () => svg(doc, "g", { class: "ll-gcurves" }, ...scoreCurves(doc, st, upto, W, H)));
  const now = svg(doc, "line", { x1: x(shown).toFixed(1), x2: x(shown).toFixed(1), y1: 0, y2: H, class: "ll-gnow", stroke: "currentColor", "stroke-dasharray": "3 2" });
  const legend = h(doc, "div", { class: "ll-glegend" }, Array.from({ length: seats }, (_, p) => h(
    doc,
    "span",
    { class: "ll-glegenditem" },
    h(doc, "span", { class: "ll-gswatch", style: `background:${SEAT_COLOURS2[p % 4]}` }),
    ` ${playerName(st.info, p)} ${scores[Math.min(shown, last)][p]}`
  )));
  const box = h(doc, "div", {
    class: "ll-graph",
    "data-act": "graph",
    "data-last": last,
    role: "slider",
    tabindex: -1,
    "aria-label": "Score graph: click to go to that step",
    "aria-valuemin": 0,
    "aria-valuemax": last,
    "aria-valuenow": shown
  });
  box.append(svg(doc, "svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", width: "100%", height: H, "aria-hidden": "true" }, curves, now));
  return h(
    doc,
    "section",
    { class: "ll-scores", "aria-label": "Scores over the game" },
    h(doc, "div", { class: "ll-h" }, "Scores"),
    box,
    legend
  );
}
function scoreCurves(doc, st, upto, W, H) {
  const scores = st.scores || [];
  const last = scores.length - 1;
  const top = Math.max(1, ...scores.flat());
  const x = (k) => k / last * W;
  const y = (v) => H - 4 - v / top * (H - 12);
  const stride = Math.max(1, Math.floor(last / W));
  const parts = [];
  for (let p = 0; p < scores[0].length; p++) {
    const pts = [];
    for (let k = 0; k <= upto; k++) {
      if (k % stride && k !== upto && scores[k][p] === scores[k - 1][p]) continue;
      pts.push(`${x(k).toFixed(1)},${y(scores[k][p]).toFixed(1)}`);
    }
    parts.push(svg(doc, "polyline", { points: pts.join(" "), fill: "none", stroke: SEAT_COLOURS2[p % 4], "stroke-width": 2, class: `ll-gseat ll-gseat${p}` }));
  }
  for (const [k, g] of Object.entries(st.glyphs || {})) {
    const n = Number(k);
    if (n <= upto && (g.startsWith("?") || g === "!!" || g === "!")) {
      parts.push(svg(doc, "text", { x: x(n).toFixed(1), y: 10, "font-size": 9, "text-anchor": "middle", class: "ll-gglyph" }, g));
    }
  }
  return parts;
}
function exportBar(doc, st) {
  if (st.train !== null && st.train !== void 0) return "";
  const book = st.downloads;
  const teacher = (st.viewers || []).includes(null);
  const buttons = [];
  const btn = (kind, text, viewer) => h(doc, "button", {
    type: "button",
    class: "ll-btn ll-small",
    "data-act": "download",
    "data-kind": kind,
    "data-viewer": viewer === void 0 ? null : viewer === null ? "all" : viewer
  }, `⬇ ${text}`);
  if (book) {
    if (book.json) buttons.push(btn("json", "Replay file (JSON)"));
    if (book.markdown) buttons.push(btn("markdown", "Markdown"));
  } else {
    if (teacher) buttons.push(btn("json", "Replay file (JSON)"));
    if (teacher) buttons.push(btn("html", "Offline page (teacher)", null));
    const seats = (st.viewers || []).filter((v) => v !== null);
    for (const v of seats) buttons.push(btn("html", `Page for ${playerName(
      st.info,
      /** @type {number} */
      v
    )}`, v));
    buttons.push(btn("markdown", "Markdown"));
  }
  return h(doc, "div", { class: "ll-exports", role: "group", "aria-label": "Downloads" }, buttons);
}
function download(doc, name, mime, text) {
  const win = doc.defaultView;
  if (!win || !win.URL || !win.URL.createObjectURL) return;
  const url = win.URL.createObjectURL(new win.Blob([text], { type: mime }));
  const a = h(doc, "a", { href: url, download: name, class: "ll-hidden" });
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => win.URL.revokeObjectURL(url), 5e3);
}
function choiceMenu(doc, st, verb) {
  const choices = st.choices || [];
  if (!choices.length) return null;
  return h(
    doc,
    "div",
    { class: "ll-choices" },
    h(
      doc,
      "select",
      { "data-act": "choice", "aria-label": "Every legal move here" },
      choices.map((c, i) => h(doc, "option", { value: i }, describeAction(c.action, st.info)))
    ),
    h(doc, "button", { type: "button", class: "ll-btn ll-primary", "data-act": "play-choice" }, verb)
  );
}
function explorePanel(doc, st) {
  if (!st.allow_explore || st.train !== null && st.train !== void 0) return null;
  return h(
    doc,
    "section",
    { class: "ll-explore", "aria-label": "Explore" },
    h(
      doc,
      "label",
      { class: "ll-toggle" },
      h(doc, "input", { type: "checkbox", "data-act": "explore", checked: !!st.explore }),
      " Explore: a different move on the board (cards, powers, Binding tokens) starts a variation"
    ),
    st.explore ? choiceMenu(doc, st, "Play this move") : null
  );
}
function trainPanel(doc, st) {
  const puzzles = puzzlePanel(doc, st, choiceMenu);
  if (puzzles) return puzzles;
  const t = st.training;
  if (st.train === null || st.train === void 0 || !t) return null;
  const seat = playerName(st.info, st.train);
  const last = t.last;
  const deciding = (st.choices || []).length > 0;
  return h(
    doc,
    "section",
    { class: "ll-train", "aria-label": "Guess the move" },
    h(doc, "div", { class: "ll-h" }, `Guess the move: you play ${seat}`),
    h(
      doc,
      "p",
      { class: "ll-trainscore", "data-right": t.right, "data-total": t.total },
      `Score: ${t.right} / ${t.total}`
    ),
    last ? h(
      doc,
      "p",
      { class: `ll-trainlast ${last.right ? "ll-right" : "ll-wrong"}` },
      last.right ? `✓ Right: ${describeAction(last.played, st.info)}.` : `✗ You chose: ${describeAction(last.guess, st.info)}. ${seat} played: ${describeAction(last.played, st.info)}.`
    ) : null,
    deciding ? h(doc, "p", { class: "ll-note" }, "Your decision: play it on the board (a card, a power and its targets, a Binding source then a card) or choose below.") : h(doc, "p", { class: "ll-note" }, "Step forward to the next decision of your seat."),
    deciding ? choiceMenu(doc, st, "Guess this move") : null
  );
}
function studyPage(data, root, render2) {
  const doc = root.ownerDocument;
  const head = h(
    doc,
    "header",
    { class: "ll-study" },
    h(doc, "h1", { class: "ll-studytitle" }, data.title),
    data.notes ? h(doc, "p", { class: "ll-studynotes" }, data.notes) : null
  );
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
  let cleanup;
  function show(i) {
    if (cleanup) cleanup();
    body.textContent = "";
    const chapter = data.chapters[i];
    menu.textContent = "";
    data.chapters.forEach((c, k) => {
      const b = h(doc, "button", {
        type: "button",
        class: `ll-btn ll-chapterbtn${k === i ? " ll-primary" : ""}`,
        "data-act": "chapter",
        "data-chapter": k,
        "aria-current": k === i ? "page" : null
      }, `${k + 1}. ${c.name}`);
      b.addEventListener("click", () => show(k));
      menu.append(b);
    });
    notes.textContent = chapter.notes || "";
    cleanup = render2({ model: bookModel(chapter.book), el: body });
    const board = (
      /** @type {HTMLElement | null} */
      body.querySelector(".leyline")
    );
    if (board) board.focus({ preventScroll: true });
  }
  show(0);
}

// js/src/replay.js
function renderReplay(st, ui, doc, now = 0, shorts = null) {
  const { view } = st;
  if (!view || !view.grid) return h(doc, "div", { class: "leyline ll-replay", "data-mode": "replay" }, "Loading the replay…");
  const shown = shownStep(st);
  const entry = (st.line || [])[shown] || null;
  const moving = acting(st);
  const reveals = { ...ui.reveals };
  if (dealShown(st, ui)) {
    for (const ev of setupReveals(entry)) reveals[ev.slot] = { element: (
      /** @type {string} */
      ev.element
    ), cause: "setup", until: now + 864e5 };
  }
  const picks = { power: ui.power, targets: ui.targets, infoPower: ui.infoPower, source: ui.source };
  const cardClasses = {};
  const mark = (s, c) => {
    (cardClasses[s] ||= []).includes(c) || cardClasses[s].push(c);
  };
  const a = entry && entry.action;
  for (const s of a ? [a.slot, ...a.targets || []].filter((x) => Number.isInteger(x)) : []) mark(
    /** @type {number} */
    s,
    "ll-last"
  );
  const notes = (st.annotations || []).filter((n) => n.step === shown && !isHiddenNote(n, st, ui));
  for (const s of new Set(notes.flatMap((n) => n.highlights || []))) mark(s, "ll-hl");
  if (ui.form.open) for (const s of ui.form.highlights) mark(s, "ll-pick");
  for (const s of bestSlots(st, shown)) mark(s, "ll-best");
  const board = renderBoard(
    { ...st, mode: "replay", legal: moving ? st.legal : { step: shown, actor: null } },
    {
      ...newUi(),
      ...picks,
      reveals,
      dismissed: ui.dismissed,
      hint: ui.hint,
      cardClasses,
      rules: ui.rules,
      cardTitle: ui.form.open ? "Click to point at this card in your note" : ""
    },
    doc,
    now,
    true
  );
  board.classList.add("ll-replay");
  if (shown !== st.step) board.classList.add("ll-waiting");
  board.setAttribute("data-variation", String(st.variation));
  board.setAttribute("data-viewer", st.viewer === null ? "all" : String(st.viewer));
  board.setAttribute("data-last", String(lastStep(st)));
  board.setAttribute("tabindex", "-1");
  const log = board.querySelector(".ll-log");
  if (log) log.remove();
  const part = (selector) => (
    /** @type {HTMLElement} */
    board.querySelector(selector)
  );
  part(".ll-prompt").textContent = `Step ${shown} of ${lastStep(st)}: ${describeStep(entry, st.info, st.viewer)}`;
  const memoryMenu = board.querySelector(".ll-memory [data-act=memory-of]");
  if (memoryMenu) memoryMenu.closest("label").remove();
  part(".ll-status").after(
    transportBar(doc, st, ui),
    pickers(doc, st),
    glyphBar(doc, st, shown) || "",
    scoreGraph(doc, st, shown) || "",
    evalGraph(doc, st, shown) || ""
  );
  const all = shorts || (st.line || []).map((e) => shortStep(e, st.info, st.viewer));
  part(".ll-side").append(trainPanel(doc, st) || "", explorePanel(doc, st) || "", movesByTurn(doc, st, ui, shown, all));
  part(".ll-main").after(
    h(
      doc,
      "div",
      { class: "ll-panels" },
      happenedPanel(doc, st, entry, ui),
      coachPanel(doc, st, shown) || "",
      notesPanel(doc, st, ui)
    ),
    exportBar(doc, st)
  );
  return board;
}
function replayState(model) {
  const get = (name) => read(model, name);
  const orNull = (name) => get(name) === void 0 ? null : get(name);
  return {
    mode: "replay",
    view: get("view") || {},
    legal: get("legal") || {},
    info: get("info") || {},
    error: get("error") || "",
    ack: get("ack"),
    step: get("step") || 0,
    variation: get("variation") || 0,
    viewer: orNull("viewer"),
    viewers: get("viewers") || [],
    lines: get("lines") || [],
    line: get("line") || [],
    annotations: get("annotations") || [],
    memory: get("memory") || {},
    show_memory_of: orNull("show_memory_of"),
    memory_choices: get("memory_choices") || [],
    hide_tags: get("hide_tags") || [],
    editable: !!get("editable"),
    reveal_ms: get("reveal_ms") || 0,
    glyphs: get("glyphs") || {},
    scores: get("scores") || [],
    explore: !!get("explore"),
    allow_explore: !!get("allow_explore"),
    choices: get("choices") || [],
    train: orNull("train"),
    training: get("training") || void 0,
    downloads: get("downloads") || null,
    analyses: get("analyses") || [],
    analysis_progress: get("analysis_progress") || null,
    puzzle: get("puzzle") && Object.keys(get("puzzle")).length ? get("puzzle") : null
  };
}
function request(r, patch) {
  for (const [k, v] of Object.entries(patch)) r.model.set(k, v);
  r.model.save_changes();
  r.m.schedule();
}
function goto(r, step) {
  const st = replayState(r.model);
  const target = Math.max(0, Math.min(lastStep(st), step));
  if (target !== st.step) request(r, { step: target });
}
function draw2(r, now) {
  const { m, ui, seen } = r;
  const { doc } = m;
  const st = replayState(r.model);
  if (st.line !== seen.words.line || st.viewer !== seen.words.viewer) {
    seen.words = { line: st.line, viewer: st.viewer, list: st.line.map((e) => shortStep(e, st.info, st.viewer)) };
  }
  const focused = m.root().contains(doc.activeElement) && doc.activeElement !== m.root();
  m.show(renderReplay(st, ui, doc, now, seen.words.list));
  const root = m.root();
  const shown = shownStep(st);
  markCurrent(root, shown);
  if (focused && !root.contains(doc.activeElement)) root.focus({ preventScroll: true });
  const slider = (
    /** @type {HTMLInputElement | null} */
    root.querySelector("[data-act=scrub]")
  );
  if (slider && Number(slider.value) !== st.step) slider.value = String(st.step);
  if (ui.form.seq !== seen.form) {
    seen.form = ui.form.seq;
    const text = (
      /** @type {HTMLTextAreaElement | null} */
      root.querySelector("[data-act=note-text]")
    );
    const tags = (
      /** @type {HTMLInputElement | null} */
      root.querySelector("[data-act=note-tags]")
    );
    if (text) text.value = ui.form.text;
    if (tags) tags.value = ui.form.tags;
    if (text && ui.form.open) text.focus();
  }
  if (!seen.painted || seen.painted.step !== shown || seen.painted.line !== st.line) scrollList(root, shown);
  seen.painted = { step: shown, line: st.line };
}
function scrollList(root, shown) {
  const box = (
    /** @type {HTMLElement | null} */
    root.querySelector(".ll-movelist")
  );
  const cur = box && moveButton(root, shown);
  if (!box || !cur) return;
  const top = cur.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
  if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}
function glimpse(r, st) {
  const { ui, seen } = r;
  const shown = shownStep(st);
  const painted = seen.painted;
  if (painted && painted.line === st.line && shown === painted.step + 1) {
    const now = Date.now();
    for (const ev of (st.line[shown] || {}).events || []) {
      if (ev.type === "reveal" && ev.element) ui.reveals[ev.slot] = { element: ev.element, cause: ev.cause, until: now + st.reveal_ms };
      else if (ev.type === "collect" || ev.type === "tide") for (const s of ev.slots || [ev.slot]) delete ui.reveals[s];
    }
  } else if (!painted || shown !== painted.step || painted.line !== st.line) {
    ui.reveals = {};
  }
}
function pace(r) {
  const { m, ui } = r;
  if (!ui.playing || !m.alive()) {
    m.cancel("play");
    return;
  }
  const st = replayState(r.model);
  const shown = shownStep(st);
  if (m.pending("play") || st.step !== shown) return;
  if (shown >= lastStep(st)) {
    ui.playing = false;
    m.schedule();
    return;
  }
  m.later("play", ui.speed, () => {
    if (m.alive() && ui.playing) goto(r, shownStep(replayState(r.model)) + 1);
  });
}
function onChange(r) {
  const { model, ui, seen } = r;
  const st = replayState(model);
  const ex = read(model, "export");
  if (ex && Number.isInteger(ex.seq) && ex.seq > ui.exported && typeof ex.text === "string") {
    download(r.m.doc, String(ex.name), String(ex.mime), ex.text);
    ui.exported = ex.seq;
  }
  if (st.ack !== seen.ack) {
    seen.ack = st.ack;
    ui.dismissed = null;
    if (ui.form.pending) {
      ui.form.pending = false;
      if (!st.error) closeForm(r);
    }
  }
  const at = `${st.variation}/${shownStep(st)}/${acting(st)}`;
  if (at !== seen.pickedAt) clearPicks(ui);
  else dropStalePicks(ui, st.legal);
  seen.pickedAt = at;
  glimpse(r, st);
  r.m.schedule();
  pace(r);
  const ask = analyseStep(st);
  if (ask && `${ask.run}/${ask.done}` !== seen.asked) model.send(ask);
  seen.asked = ask ? `${ask.run}/${ask.done}` : "";
}
function openForm(r, editing) {
  const { ui } = r;
  const note = editing && (read(r.model, "annotations") || []).find((n) => n.variation === editing.variation && n.step === editing.step && n.index === editing.index);
  ui.form = {
    open: true,
    editing: note ? editing : null,
    text: note ? note.text : "",
    tags: note ? (note.tags || []).join(", ") : "",
    highlights: note ? (note.highlights || []).slice() : [],
    seq: ui.form.seq + 1,
    pending: false
  };
  ui.hint = "";
  r.m.schedule();
}
function closeForm(r) {
  r.ui.form = { open: false, editing: null, text: "", tags: "", highlights: [], seq: r.ui.form.seq + 1, pending: false };
  r.m.schedule();
}
function saveNote(r) {
  const f = r.ui.form;
  const tags = f.tags.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter(Boolean);
  const body = { text: f.text, tags, highlights: f.highlights.slice().sort((x, y) => x - y) };
  const message = f.editing ? { type: "edit_note", ...f.editing, ...body } : { type: "annotate", step: shownStep(replayState(r.model)), ...body };
  f.pending = true;
  r.ui.hint = "";
  r.model.send(message);
  r.m.schedule();
}
function move(r, action) {
  const st = replayState(r.model);
  r.ui.hint = "";
  clearPicks(r.ui);
  const training = st.train !== null && st.train !== void 0;
  r.model.send({ type: training ? "guess" : "action", action, step: shownStep(st) });
}
function where(button) {
  return {
    variation: Number(button.getAttribute("data-variation")),
    step: Number(button.getAttribute("data-step")),
    index: Number(button.getAttribute("data-index"))
  };
}
var numberOf = (button, name) => Number(button.getAttribute(name));
function seek(r, step) {
  r.ui.playing = false;
  goto(r, step);
}
function chosen(r, st) {
  const menu = (
    /** @type {HTMLSelectElement | null} */
    r.m.root().querySelector("[data-act=choice]")
  );
  return menu && (st.choices || [])[Number(menu.value)];
}
function onCard2(r, button, st) {
  const { ui } = r;
  const slot = numberOf(button, "data-slot");
  if (!ui.form.open && acting(st)) {
    const out = cardClick(ui, st.view, st.legal, st.info, slot);
    if (out.action) move(r, out.action);
    else ui.hint = out.hint || "";
  } else if (ui.form.open) {
    const hl = ui.form.highlights;
    ui.form.highlights = hl.includes(slot) ? hl.filter((s) => s !== slot) : hl.concat([slot]);
  }
}
function twice(r, id, message) {
  if (r.ui.confirm !== id) {
    r.ui.confirm = id;
  } else {
    r.ui.confirm = null;
    r.model.send(message);
  }
}
function onDownload(r, button, st) {
  const kind = (
    /** @type {string} */
    button.getAttribute("data-kind")
  );
  const files = st.downloads;
  if (files) {
    const text = (
      /** @type {Record<string, string | undefined>} */
      files[kind]
    );
    const json = kind === "json";
    if (text) download(r.m.doc, json ? "leyline-replay.leyline.json" : "leyline-replay.md", json ? "application/json" : "text/markdown", text);
  } else {
    const v = button.getAttribute("data-viewer");
    r.model.send({ type: "export", kind, ...v === null ? {} : { viewer: v === "all" ? null : Number(v) } });
  }
}
var REPLAY_CLICKS = {
  first(r) {
    seek(r, 0);
  },
  back(r, _b, st) {
    seek(r, st.step - 1);
  },
  forward(r, _b, st) {
    seek(r, st.step + 1);
  },
  last(r, _b, st) {
    seek(r, lastStep(st));
  },
  goto(r, button) {
    seek(r, numberOf(button, "data-step"));
  },
  play(r, _b, st) {
    r.ui.playing = !r.ui.playing;
    if (r.ui.playing && shownStep(st) >= lastStep(st)) goto(r, 0);
  },
  card: onCard2,
  end(r, _b, st) {
    const found = (st.choices || []).find((c) => c.action.type === "end_phase");
    if (found) move(r, found.action);
  },
  power(r, button, st) {
    pickPower(r.ui, acting(st) ? st.legal : { step: shownStep(st), actor: null }, String(button.getAttribute("data-key")));
    r.ui.hint = "";
  },
  "use-power"(r, _b, st) {
    const action = acting(st) ? takePower(r.ui, st.info) : null;
    if (action) move(r, action);
  },
  "close-power"(r) {
    closePower(r.ui);
  },
  cancel(r) {
    closePower(r.ui);
  },
  source(r, button, st) {
    r.ui.hint = acting(st) ? pickSource(
      r.ui,
      st.legal,
      String(button.getAttribute("data-element")),
      String(button.getAttribute("data-source"))
    ) : "";
  },
  "play-choice"(r, _b, st) {
    const found = chosen(r, st);
    if (found) move(r, found.action);
  },
  glyph(r, button, st) {
    const g = button.getAttribute("data-glyph") || null;
    r.model.send({ type: "glyph", step: shownStep(st), glyph: g === (st.glyphs || {})[String(shownStep(st))] ? null : g });
  },
  "line-go"(r, button) {
    r.ui.playing = false;
    request(r, { variation: numberOf(button, "data-variation") });
  },
  "var-promote"(r, button) {
    r.model.send({ type: "promote", variation: numberOf(button, "data-variation") });
  },
  "var-rename"(r, button) {
    r.ui.renaming = numberOf(button, "data-variation");
  },
  "var-name-cancel"(r) {
    r.ui.renaming = null;
  },
  "var-name-save"(r, button) {
    const input = (
      /** @type {HTMLInputElement | null} */
      r.m.root().querySelector("[data-act=var-name]")
    );
    if (input) r.model.send({ type: "rename", variation: numberOf(button, "data-variation"), name: input.value });
    r.ui.renaming = null;
  },
  "var-delete"(r, button) {
    const variation = numberOf(button, "data-variation");
    twice(r, `var:${button.getAttribute("data-variation")}`, { type: "delete_variation", variation });
  },
  download(r, button, st) {
    onDownload(r, button, st);
  },
  analyse(r, button) {
    const menu = (
      /** @type {HTMLSelectElement | null} */
      r.m.root().querySelector("[data-act=analyse-seat]")
    );
    const seat = Number(button.getAttribute("data-seat") ?? (menu ? menu.value : NaN));
    if (Number.isInteger(seat)) r.model.send({ type: "analyse", seat });
  },
  "analyse-cancel"(r) {
    r.model.send({ type: "analyse_cancel" });
  },
  "show-line"(r, _b, st) {
    r.ui.playing = false;
    r.model.send({ type: "show_line", step: shownStep(st) });
  },
  "puzzle-next"(r) {
    r.model.send({ type: "puzzle" });
  },
  puzzles(r, button) {
    r.model.send({ type: "puzzles", seat: numberOf(button, "data-seat") });
  },
  ready(r) {
    r.ui.dealt = true;
  },
  "deal-again"(r) {
    r.ui.dealt = false;
  },
  graph(r, button, _st, event) {
    const box = (
      /** @type {HTMLElement} */
      button
    );
    const rect = box.getBoundingClientRect();
    const last = numberOf(box, "data-last");
    if (rect.width > 0) seek(r, Math.round((event.clientX - rect.left) / rect.width * last));
  },
  dismiss(r, _b, st) {
    r.ui.dismissed = st.error || null;
    r.ui.hint = "";
  },
  "toggle-hidden"(r) {
    r.ui.showHidden = !r.ui.showHidden;
  },
  rules(r) {
    r.ui.rules = !r.ui.rules;
  },
  // the board's Rules button opens and closes the rules
  "note-new"(r) {
    openForm(r, null);
  },
  "note-edit"(r, button) {
    openForm(r, where(button));
  },
  "note-cancel"(r) {
    closeForm(r);
  },
  "note-save"(r) {
    saveNote(r);
  },
  "note-remove"(r, button) {
    const w = where(button);
    twice(r, `${w.variation}:${w.step}:${w.index}`, { type: "remove_note", ...w });
  }
};
function onClick(r, event) {
  const button = (
    /** @type {Element} */
    event.target.closest("[data-act]")
  );
  if (!button || !r.m.root().contains(button)) return;
  const act = (
    /** @type {string} */
    button.getAttribute("data-act")
  );
  if (button.getAttribute("aria-disabled") === "true" && act !== "source") return;
  if (act !== "note-remove" && act !== "var-delete") r.ui.confirm = null;
  const handler = Object.hasOwn(REPLAY_CLICKS, act) ? REPLAY_CLICKS[act] : null;
  if (!handler) return;
  handler(r, button, replayState(r.model), event);
  pace(r);
  r.m.schedule();
}
function onInput2(r, event) {
  const target = (
    /** @type {HTMLInputElement} */
    event.target
  );
  const act = target && target.getAttribute && target.getAttribute("data-act");
  if (act === "scrub") seek(r, Number(target.value));
  else if (act === "note-text") r.ui.form.text = target.value;
  else if (act === "note-tags") r.ui.form.tags = target.value;
}
function onSelect(r, event) {
  const target = (
    /** @type {HTMLInputElement} */
    event.target
  );
  const act = target && target.getAttribute && target.getAttribute("data-act");
  if (act === "speed") {
    r.ui.speed = Number(target.value);
    r.m.cancel("play");
    pace(r);
    r.m.schedule();
  } else if (act === "line") {
    request(r, { variation: Number(target.value) });
  } else if (act === "viewer") {
    request(r, { viewer: target.value === "all" ? null : Number(target.value) });
  } else if (act === "memory-of") {
    request(r, { show_memory_of: target.value === "" ? null : Number(target.value) });
  } else if (act === "explore") {
    request(r, { explore: !!target.checked });
  }
}
var STEP_KEYS = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
function onKey2(r, event) {
  const { ui } = r;
  if (event.key === "Escape" && ui.form.open) {
    closeForm(r);
    event.preventDefault();
    return;
  }
  if (event.key === "Escape" && (ui.power || ui.infoPower || ui.source)) {
    clearPicks(ui);
    r.m.schedule();
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  const t = (
    /** @type {Element | null} */
    event.target
  );
  const tag = t && t.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT" || tag === "INPUT") return;
  const st = replayState(r.model);
  let next = null;
  if (event.key in STEP_KEYS) next = st.step + STEP_KEYS[event.key];
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = lastStep(st);
  if (next === null || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  event.stopPropagation();
  seek(r, next);
}
function replayMode({ model, el }) {
  return mount(model, el, "leyline ll-replay", (m) => {
    const ui = newReplayUi();
    ui.exported = Number((read(model, "export") || {}).seq) || 0;
    const r = {
      model,
      m,
      ui,
      seen: { ack: read(model, "ack"), asked: "", painted: null, form: -1, pickedAt: "", words: { line: null, viewer: null, list: [] } }
    };
    return {
      draw: (now) => draw2(r, now),
      onChange: () => onChange(r),
      reveals: () => ui.reveals,
      start: true,
      listeners: {
        click: (e) => onClick(r, e),
        input: (e) => onInput2(r, e),
        change: (e) => onSelect(r, e),
        keydown: (e) => onKey2(r, e)
      }
    };
  });
}

// js/src/net.js
var FIXED = {
  mode: "play",
  deal_ms: 0,
  reveal_ms: 1500,
  handoff: {},
  session: [],
  hint: {},
  memory: {},
  bot_delay_ms: 0,
  error: "",
  ack: 0,
  network: true
};
var LOCAL_ONLY = /* @__PURE__ */ new Set(["ready", "undo", "new_game", "rematch", "hint"]);
function netModel(send2) {
  const state = { ...FIXED };
  const listeners = /* @__PURE__ */ new Set();
  const model = {
    /** @param {string} key */
    get: (key) => state[key],
    /** @param {string} key @param {unknown} value */
    set: (key, value) => {
      state[key] = value;
    },
    save_changes: () => {
    },
    /** @param {object} message */
    send: (message) => send2(message),
    // Every change of the model is one update; a network table has no kernel comm, so no
    // "comm_live_update" (its link is the WebSocket, whose state the page's status line says).
    /** @param {string} name @param {() => void} fn */
    on: (name, fn) => {
      if (name !== "comm_live_update") listeners.add(fn);
    },
    /** @param {string} _name @param {() => void} fn */
    off: (_name, fn) => {
      listeners.delete(fn);
    },
    /** @param {Record<string, any>} changes */
    update(changes) {
      Object.assign(state, changes);
      for (const fn of [...listeners]) fn();
    }
  };
  return model;
}
function credentials(search, hash) {
  const q = new URLSearchParams(search);
  const h2 = new URLSearchParams(hash.replace(/^#/, ""));
  if (q.get("seat")) return { secret: (
    /** @type {string} */
    q.get("seat")
  ) };
  if (q.get("watch")) return { watch: (
    /** @type {string} */
    q.get("watch")
  ) };
  if (h2.get("teacher")) return { teacher: (
    /** @type {string} */
    h2.get("teacher")
  ) };
  return null;
}
var FINAL = /* @__PURE__ */ new Set(["secret", "watch", "teacher", "table", "board", "protocol"]);
function joinTable(widget, options) {
  const loc = options.location || window.location;
  const storage = options.storage === void 0 ? window.localStorage : options.storage;
  const creds = credentials(loc.search, loc.hash);
  const status = options.status;
  const say2 = (text, online) => {
    status.textContent = text;
    status.dataset.online = String(online);
  };
  if (!creds) {
    say2("This link holds no seat, spectator or teacher key.", false);
    return null;
  }
  const seenKey = `leyline-seen:${options.table}:${Object.keys(creds)[0]}`;
  const seen = Number((storage && storage.getItem(seenKey)) ?? -1);
  if (creds.secret && storage) remember(storage, options.table, creds.secret);
  const s = {
    widget,
    el: options.el,
    say: say2,
    creds,
    table: options.table,
    loc,
    storage,
    seenKey,
    Socket: options.WebSocket || window.WebSocket,
    seen: Number.isInteger(seen) ? seen : -1,
    ws: null,
    open: false,
    rendered: false,
    stopped: false,
    nextId: 0,
    acks: 0,
    seq: 0,
    delay: 500,
    pending: /* @__PURE__ */ new Set(),
    model: netModel(() => {
    })
  };
  s.model = netModel((message) => onPageMessage(s, message));
  say2("Connecting...", false);
  connect(s);
  return { model: s.model, close: () => {
    s.stopped = true;
    if (s.ws) s.ws.close();
  } };
}
function onPageMessage(s, message) {
  const type = message && message.type;
  if (type === "action") {
    if (!s.open || !s.ws) {
      refuse(s, "The page is offline: that move was not sent. It reconnects by itself; try again then.");
      return;
    }
    const id = ++s.nextId;
    s.pending.add(id);
    s.ws.send(JSON.stringify({ type: "move", id, step: message.step, action: message.action }));
  } else if (type === "log_sync") {
    if (s.open && s.ws) s.ws.send(JSON.stringify({ type: "sync" }));
  } else if (type === "bot_step" || type === "shown") {
  } else if (LOCAL_ONLY.has(type)) {
    refuse(s, `"${String(type)}" is not available at a network table.`);
  }
}
function refuse(s, text) {
  s.acks += 1;
  s.model.update({ error: text, ack: s.acks });
}
function onState(s, frame) {
  const board = frame.board || {};
  const changes = {
    view: frame.view,
    legal: board.legal || {},
    log: board.log,
    viewer: frame.view && frame.view.viewer
  };
  if (board.info) changes.info = board.info;
  if (board.log_past) changes.log_past = board.log_past;
  const items = frame.events && frame.events.items || [];
  if (items.length) changes.events = { seq: ++s.seq, step: frame.step, items };
  s.model.update(changes);
  const players = frame.players || [];
  s.say(frame.role === "seat" ? `Online: playing as ${players[frame.seat]}` : frame.role === "teacher" ? "Online: the teacher's view (every card)" : "Online: watching", true);
  s.seen = frame.step;
  if (s.storage) s.storage.setItem(s.seenKey, String(s.seen));
  if (!s.rendered) {
    s.rendered = true;
    s.widget.render({ model: s.model, el: s.el });
  }
}
function onFrame(s, frame) {
  if (frame.type === "welcome") {
    s.delay = 500;
    s.say("Online", true);
  } else if (frame.type === "state") {
    onState(s, frame);
  } else if (frame.type === "ack") {
    s.pending.delete(frame.id);
    s.acks += 1;
    s.model.update({ error: "", ack: s.acks });
  } else if (frame.type === "error") {
    if (!s.rendered && FINAL.has(frame.field)) {
      s.stopped = true;
      s.say(`Refused: ${frame.error}`, false);
      return;
    }
    if (typeof frame.id === "number") s.pending.delete(frame.id);
    refuse(s, frame.error);
  }
}
function connect(s) {
  if (s.stopped) return;
  const proto = s.loc.protocol === "https:" ? "wss:" : "ws:";
  const socket = new s.Socket(`${proto}//${s.loc.host}/ws/${encodeURIComponent(s.table)}`);
  s.ws = socket;
  socket.onopen = () => {
    s.open = true;
    socket.send(JSON.stringify({ type: "hello", ...s.creds, board: true, seen: s.seen }));
  };
  socket.onmessage = (event) => {
    try {
      onFrame(s, JSON.parse(String(event.data)));
    } catch (err) {
      refuse(s, `The server sent a frame this page cannot read: ${String(err).slice(0, 80)}`);
    }
  };
  socket.onclose = () => {
    s.open = false;
    if (s.ws === socket) s.ws = null;
    if (s.pending.size) {
      s.pending.clear();
      refuse(s, "The connection dropped before the server answered your move; look at the board when it is back.");
    }
    if (s.stopped) return;
    s.say(`Offline: reconnecting in ${Math.round(s.delay / 100) / 10} s...`, false);
    setTimeout(() => connect(s), s.delay);
    s.delay = Math.min(s.delay * 2, 1e4);
  };
}
function remember(storage, table, secret) {
  let links = [];
  try {
    const stored = JSON.parse(storage.getItem("leyline-links") || "[]");
    if (Array.isArray(stored)) links = stored;
  } catch {
    links = [];
  }
  links = [{ table, secret }, ...links.filter((l) => l && l.table !== table)].slice(0, 50);
  storage.setItem("leyline-links", JSON.stringify(links));
}

// js/src/index.js
var MODES = { play: playMode, lesson: lessonMode, replay: replayMode };
var NULLED = /* @__PURE__ */ new WeakMap();
var MISSING_IS_NULL = {
  /** @param {object} target @param {string | symbol} key @param {unknown} receiver */
  get(target, key, receiver) {
    if (typeof key === "string" && !(key in target)) return null;
    return Reflect.get(target, key, receiver);
  }
};
function nulled(value) {
  if (value === void 0) return null;
  if (value === null || typeof value !== "object") return value;
  const known = NULLED.get(value);
  if (known !== void 0) return known;
  let out = value;
  if (Array.isArray(value)) {
    out = value.map(nulled);
  } else if ([Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const source = (
      /** @type {Record<string, unknown>} */
      value
    );
    const copy = {};
    for (const key of Object.keys(source)) copy[key] = nulled(source[key]);
    out = new Proxy(copy, MISSING_IS_NULL);
  }
  NULLED.set(value, out);
  return out;
}
var PAGE_NULL = { leyline: "null" };
function unmarked(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const mark = (
    /** @type {Record<string, unknown>} */
    value
  );
  return keys.length === 1 && keys[0] === "leyline" && mark.leyline === PAGE_NULL.leyline ? null : value;
}
function hostModel(model) {
  return {
    get: (key) => nulled(unmarked(model.get(key))),
    set: (key, value) => model.set(key, value),
    save_changes: () => model.save_changes(),
    send: (message) => model.send(message),
    on: (name, callback) => model.on(name, callback),
    off: (name, callback) => model.off(name, callback)
  };
}
function render(props) {
  const model = hostModel(props.model);
  const el = props.el;
  const impl = MODES[
    /** @type {string} */
    model.get("mode")
  ] || MODES.play;
  const cleanup = impl({ model, el });
  const unwatch = watchKernel(props.model, el);
  return () => {
    unwatch();
    if (typeof cleanup === "function") cleanup();
  };
}
function studyPage2(data, root) {
  studyPage(data, root, render);
}
var index_default = { render };
export {
  MODES,
  PAGE_NULL,
  bookModel,
  index_default as default,
  hostModel,
  joinTable,
  nulled,
  studyPage2 as studyPage,
  unmarked
};
