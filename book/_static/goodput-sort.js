/* The errata page's tables (goodput.pages.errata_table: class goodput-sortable) work in the page,
   without a server: each column's heading is a button that sorts the rows by that column (again: the
   other way; aria-sort says which), and above the table a text box, and a select for each column the
   table names in data-filters, show only the rows that match, with "n of N rows" beside them.
   Without this script the table is all there, in the order it was generated. A table that shows its
   rows as cards (goodput-tables.js) keeps its heading buttons above the cards (goodput-live.css). */
(function () {
  "use strict";

  const collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
  const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/i;
  const HEX = /^\s*0x[0-9a-f]+/i;   // a byte, an address or a CRC as the documents print it
  let made = 0;

  function element(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") el.textContent = v;
      else el.setAttribute(k, v);
    }
    el.append(...children);
    return el;
  }

  function text(cell) {
    return (cell ? cell.textContent : "").trim();
  }

  /* How a column's cells compare: as numbers (decimal or 0x... hexadecimal) if every one starts with a number, else as text whose
     runs of digits compare as numbers ("Table 2" before "Table 10"). */
  function comparer(rows, column) {
    const values = rows.map(r => text(r.cells[column]));
    if (values.every(v => v === "" || NUMBER.test(v))) {
      const key = v => (v === "" ? -Infinity : HEX.test(v) ? parseInt(HEX.exec(v)[0], 16) : parseFloat(NUMBER.exec(v)[0]));
      return (a, b) => key(text(a.cells[column])) - key(text(b.cells[column]));
    }
    return (a, b) => collator.compare(text(a.cells[column]), text(b.cells[column]));
  }

  function setup(table) {
    const body = table.tBodies[0];
    const heads = [...table.querySelectorAll("thead th")];
    if (!body || !heads.length) return;
    const rows = [...body.rows];
    const order = new Map(rows.map((r, i) => [r, i]));
    const id = "goodput-sort-" + (++made);
    if (!table.id) table.id = id;
    const names = (table.getAttribute("data-filters") || "").split(/\s+/).filter(Boolean);

    const search = element("input", {type: "search", autocomplete: "off", "aria-controls": table.id,
                                     placeholder: "a word, a number, a table"});
    const selects = names.map(name => {
      const column = heads.findIndex(th => text(th) === name);
      if (column < 0) return null;
      const values = [...new Set(rows.map(r => text(r.cells[column])))].sort(collator.compare);
      const select = element("select", {"aria-controls": table.id},
                             element("option", {value: "", text: "all"}),
                             ...values.map(v => element("option", {value: v, text: v})));
      return {column, select, label: element("label", {class: "goodput-table-choice"}, name + " ", select)};
    }).filter(Boolean);
    const count = element("span", {class: "goodput-table-count", role: "status", "aria-live": "polite"});
    const tools = element("div", {class: "goodput-table-tools"},
                          element("label", {class: "goodput-table-search"}, "Filter ", search),
                          ...selects.map(s => s.label), count);
    table.before(tools);

    function filter() {
      const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      let shown = 0;
      for (const row of rows) {
        const all = row.textContent.toLowerCase();
        const show = words.every(w => all.includes(w))
          && selects.every(s => !s.select.value || text(row.cells[s.column]) === s.select.value);
        row.hidden = !show;
        if (show) shown++;
      }
      count.textContent = `${shown} of ${rows.length} rows`;
      window.dispatchEvent(new Event("resize"));  // the table may fit its column now, or no longer
    }

    function sort(column) {
      const th = heads[column];
      const direction = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
      const compare = comparer(rows, column);
      const sign = direction === "ascending" ? 1 : -1;
      const sorted = [...rows].sort((a, b) => sign * compare(a, b) || order.get(a) - order.get(b));
      for (const other of heads) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", direction);
      body.append(...sorted);
    }

    heads.forEach((th, column) => {
      const button = element("button", {type: "button", class: "goodput-sort-button"}, ...th.childNodes);
      button.addEventListener("click", () => sort(column));
      th.append(button);
    });
    search.addEventListener("input", filter);
    for (const s of selects) s.select.addEventListener("change", filter);
    filter();
  }

  function start() {
    document.querySelectorAll("table.goodput-sortable").forEach(setup);
    // the tools above the table moved it: bring a row the address names back into view
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.closest("table.goodput-sortable")) requestAnimationFrame(() => target.scrollIntoView());
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
