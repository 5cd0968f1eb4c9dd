/* A table of the book that is wider than its column shows its rows as cards (goodput-live.css):
   each cell beside its heading, so no reader has to scroll a table sideways. Checked on load and
   whenever the window changes width. */
(function () {
  "use strict";

  function fit() {
    for (const table of document.querySelectorAll("article table.goodput-table")) {
      table.classList.remove("goodput-cards");
      const column = table.parentElement.getBoundingClientRect().width;
      if (table.getBoundingClientRect().width > column + 1) table.classList.add("goodput-cards");
    }
  }

  let frame = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fit);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fit);
  else fit();
})();
