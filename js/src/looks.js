// How elements look on the page: a symbol, a colour and a text colour per element.

/** @typedef {{symbol: string, colour: string, ink: string}} Look */
/** @typedef {Look & {name: string}} NamedLook */

// Okabe-Ito colours (colour-blind safe) plus a distinct shape per element, so colour is never
// the only cue. `ink` is the text colour with enough contrast on the element colour.
/** @type {Record<string, Look>} */
export const ELEMENT_LOOKS = {
  fire: { symbol: "▲", colour: "#D55E00", ink: "#000000" },
  water: { symbol: "●", colour: "#0072B2", ink: "#ffffff" },
  earth: { symbol: "■", colour: "#009E73", ink: "#000000" },
  wind: { symbol: "≋", colour: "#CC79A7", ink: "#000000" },
};
/** @type {Look[]} */
const SPARE_LOOKS = [
  { symbol: "★", colour: "#E69F00", ink: "#000000" },
  { symbol: "✚", colour: "#56B4E9", ink: "#000000" },
  { symbol: "◆", colour: "#F0E442", ink: "#000000" },
  { symbol: "✦", colour: "#999999", ink: "#000000" },
];

/**
 * The symbol, colour, text colour and display name of an element.
 * @param {string | null | undefined} element
 * @param {string[]} [elements] the game's elements (spare looks go to unknown ones in order)
 * @returns {NamedLook}
 */
export function elementLook(element, elements = []) {
  const name = element ? element.charAt(0).toUpperCase() + element.slice(1).replace(/_/g, " ") : "";
  const key = element || "";
  const known = ELEMENT_LOOKS[key];
  if (known) return { ...known, name };
  const spares = elements.filter((e) => !ELEMENT_LOOKS[e]);
  const i = Math.max(0, spares.indexOf(key));
  return { ...SPARE_LOOKS[i % SPARE_LOOKS.length], name };
}

/**
 * "▲ Fire"
 * @param {string | null | undefined} element
 * @param {string[]} [elements]
 * @returns {string}
 */
export function elementLabel(element, elements = []) {
  const look = elementLook(element, elements);
  return `${look.symbol} ${look.name}`;
}
