// The example notebooks show each Leyline widget as its static page in an <iframe>: grow each
// frame to its board's height (the page is served from this site, so the frame's document is
// readable; from file:// it is not, and the frame keeps its CSS height and scrolls).
(function () {
  function fit(frame) {
    try {
      var doc = frame.contentDocument;
      if (!doc || !doc.body) return;
      var size = function () {
        frame.style.height = doc.documentElement.scrollHeight + 4 + "px";
      };
      size();
      if (window.ResizeObserver) new ResizeObserver(size).observe(doc.body);
    } catch (err) {
      /* another origin: keep the CSS height */
    }
  }
  function watch() {
    document.querySelectorAll("iframe.leyline-board").forEach(function (frame) {
      if (frame.dataset.fitted) return;
      frame.dataset.fitted = "1";
      frame.addEventListener("load", function () { fit(frame); });
      if (frame.contentDocument && frame.contentDocument.readyState === "complete") fit(frame);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
