// Glue between the libraries the book serves itself, on pages with widgets.
// myst-nb loads it between require.js and the widget manager (see
// nb_ipywidgets_js in _config.yml); MathJax, which Sphinx defers, comes later.
(function () {
  "use strict";

  // 1. Where require.js is on the page, altair's chart output asks it for
  //    "vega-embed" (with CDN paths). Name the bundles already loaded, so
  //    require.js hands them over instead of fetching.
  if (typeof window.define === "function" && window.define.amd) {
    window.define("vega", [], function () { return window.vega; });
    window.define("vega-lite", [], function () { return window.vegaLite; });
    window.define("vega-embed", [], function () { return window.vegaEmbed; });
    // The widget manager finds its fonts next to the address require.js gives
    // its module; without this that is the page's own folder.
    var here = document.currentScript && document.currentScript.src;
    if (here && typeof window.requirejs === "function") {
      window.requirejs.config({
        paths: {"@jupyter-widgets/html-manager/dist": new URL("widgets", here).href}
      });
    }
  }

  // 2. The widget manager typesets with MathJax 2's MathJax.Hub.Queue; the book
  //    uses MathJax 3. Give every MathJax object that is set a Hub that forwards.
  function withHub(m) {
    if (m && typeof m === "object" && m.version && !m.Hub) {
      m.Hub = {
        Queue: function (job) {
          var el = job && job[2];
          if (typeof m.typesetPromise === "function") {
            m.typesetPromise(el ? [el] : undefined).catch(function (err) {
              console.warn("MathJax typeset failed", err);
            });
          }
        }
      };
    }
    return m;
  }
  var current = window.MathJax;
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    get: function () { return withHub(current); },
    set: function (value) { current = value; }
  });
})();
