// The one place the page reads the kernel's traits. Every mode asks `read(model, name)`
// rather than `model.get(name)`, so how a missing trait is taken (an older kernel, a host
// that leaves a trait undefined) is decided here once.

/** @typedef {import("./types").Model} Model */

/**
 * The value of trait `name`.
 * @param {Model} model
 * @param {string} name
 * @returns {any}
 */
export function read(model, name) {
  return model.get(name);
}
