/* A table of the book that is wider than its column shows its rows as cards (goodput-live.css):
   each cell beside its heading, so no reader has to scroll a table sideways. Checked on load and
   whenever the window changes width; the calculated tables of the live figures lay themselves
   out (goodput-live.js). */
(function () {
  "use strict";

  /* Each cell names its column's heading, which a card shows beside the value. */
  function label(table) {
    const heads = [...table.querySelectorAll("thead th")].map(th => th.textContent.trim());
    for (const tr of table.querySelectorAll("tbody tr")) {
      [...tr.children].forEach((cell, i) => {
        if (!cell.hasAttribute("data-label")) cell.setAttribute("data-label", heads[i] || "");
      });
    }
  }

  function tooWide(table) {
    const holder = table.parentElement;
    return holder.scrollWidth > holder.clientWidth + 1
      || table.getBoundingClientRect().width > holder.getBoundingClientRect().width + 1;
  }

  // Every table as a table first, then every width read at once (one layout of the page, not one a table:
  // a table's width does not depend on another's), then the tables too wide for their column made cards.
  function fit() {
    const tables = [...document.querySelectorAll("article table:not(.goodput-calc-table)")];
    for (const table of tables) table.classList.remove("goodput-cards");
    for (const table of tables.filter(tooWide)) {
      label(table);
      table.classList.add("goodput-cards");
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
