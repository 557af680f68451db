// The Leyline front-end (being built; see issue 3).
function render({ model, el }) {
  el.textContent = "Leyline";
  return () => {};
}
export default { render };
