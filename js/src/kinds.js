// Powers are data (DESIGN.md, "Powers as data"): the page knows a power by its effect's kind,
// never by its id. The default powers' old ids (in events, replays and old files) map to their
// kinds here, in one place; a designer's power carries its kind itself.

/**
 * Each default power's effect id and its kind (the engine's events and `view.effects` still
 * carry ids; a power given as data carries its kind).
 * @type {Record<string, string>}
 */
export const EFFECT_KINDS = {
  spark: "extra_activations", wildfire: "collect_threshold", sanctuary: "ignore_tokens", ripple: "swap",
  tide: "swap_with_deck", unbind: "remove_tokens", whisper: "peek", gale: "peek",
};

/**
 * The kind of an effect: an id ("ripple"), an object with a `kind`, or a power from `info`
 * (which carries `kind` from the kernel).
 * @param {unknown} effect
 * @returns {string}
 */
export function effectKind(effect) {
  if (effect && typeof effect === "object" && typeof (/** @type {{kind?: unknown}} */ (effect)).kind === "string") {
    return /** @type {{kind: string}} */ (effect).kind;
  }
  return typeof effect === "string" ? EFFECT_KINDS[effect] || effect : "";
}
