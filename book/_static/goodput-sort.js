/* The errata page's tables (goodput.render.pages.errata_table: class goodput-sortable) work in the page,
   without a server: each column's heading is a button that sorts the rows by that column (again: the
   other way; aria-sort says which), and above the table a text box, and a select for each column the
   table names in data-filters, show only the rows that match, with "n of N rows" beside them.
   The text box matches what every column shows, the page each link of a row leads to (the chapter
   "srio" for the row that shows "Serial RapidIO") and the table's verdict (its class
   goodput-<verdict>-table: "erratum", "unexplained").
   The filter and the order live in the page's address (?filter=srio&sort=-printed&chapter=...; a second
   table's keys start with its verdict: unexplained-filter), replaced as they change, so Back to the page
   and a shared link bring them back; the address's other keys and its fragment are kept. (Not "q":
   every page's search script reads that one as a search to run.)
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

  /* The names a row goes by besides what it shows: the page each of its links leads to ("srio" for
     ../notebooks/srio.html), as the address bar spells the chapter a reader knows by its short name. */
  function linkNames(row) {
    return [...row.querySelectorAll("a[href]")].map(a => {
      const path = (a.getAttribute("href") || "").split(/[?#]/)[0];
      return path.split("/").pop().replace(/\.html$/, "");
    }).filter(Boolean);
  }

  /* The table's verdict, from its class goodput-<verdict>-table ("" when it names none). */
  function verdict(table) {
    const found = [...table.classList].map(c => /^goodput-(.+)-table$/.exec(c)).find(m => m && m[1] !== "calc");
    return found ? found[1] : "";
  }

  function setup(table, first) {
    const body = table.tBodies[0];
    const heads = [...table.querySelectorAll("thead th")];
    if (!body || !heads.length) return null;
    const rows = [...body.rows];
    const order = new Map(rows.map((r, i) => [r, i]));
    const id = "goodput-sort-" + (++made);
    if (!table.id) table.id = id;
    const kind = verdict(table);
    // the first table's keys are plain (?filter=...&sort=...); another's start with its verdict
    const prefix = first || !kind ? "" : kind + "-";
    const names = (table.getAttribute("data-filters") || "").split(/\s+/).filter(Boolean);
    const searchable = new Map(rows.map(r => [r, [
      ...[...r.cells].map(text), ...linkNames(r), kind].join("\n").toLowerCase()]));
    const headings = heads.map(text);

    const search = element("input", {type: "search", autocomplete: "off", "aria-controls": table.id,
                                     placeholder: "a word, a number, a table"});
    const selects = names.map(name => {
      const column = headings.indexOf(name);
      if (column < 0) return null;
      const values = [...new Set(rows.map(r => text(r.cells[column])))].sort(collator.compare);
      const select = element("select", {"aria-controls": table.id},
                             element("option", {value: "", text: "all"}),
                             ...values.map(v => element("option", {value: v, text: v})));
      return {name, column, select, label: element("label", {class: "goodput-table-choice"}, name + " ", select)};
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
        const all = searchable.get(row);
        const show = words.every(w => all.includes(w))
          && selects.every(s => !s.select.value || text(row.cells[s.column]) === s.select.value);
        row.hidden = !show;
        if (show) shown++;
      }
      count.textContent = `${shown} of ${rows.length} rows`;
      window.dispatchEvent(new Event("resize"));  // the table may fit its column now, or no longer
    }

    function sort(column, direction) {
      const compare = comparer(rows, column);
      const sign = direction === "ascending" ? 1 : -1;
      const sorted = [...rows].sort((a, b) => sign * compare(a, b) || order.get(a) - order.get(b));
      for (const other of heads) other.removeAttribute("aria-sort");
      heads[column].setAttribute("aria-sort", direction);
      body.append(...sorted);
    }

    function unsort() {
      for (const other of heads) other.removeAttribute("aria-sort");
      body.append(...rows);
    }

    /* The table's state as address keys: {filter, sort ("printed", or "-printed" the other way), a key per select}. */
    function state() {
      const sorted = heads.findIndex(th => th.hasAttribute("aria-sort"));
      const out = {filter: search.value.trim(), sort: ""};
      if (sorted >= 0) out.sort = (heads[sorted].getAttribute("aria-sort") === "descending" ? "-" : "") + headings[sorted];
      for (const s of selects) out[s.name] = s.select.value;
      return out;
    }

    /* Take the state from the address's keys; a key that names nothing the table has is left alone. */
    function restore(params) {
      search.value = params.get(prefix + "filter") || "";
      for (const s of selects) {
        const wanted = params.get(prefix + s.name) || "";
        s.select.value = [...s.select.options].some(o => o.value === wanted) ? wanted : "";
      }
      const key = params.get(prefix + "sort") || "";
      const descending = key.startsWith("-");
      const column = headings.indexOf(descending ? key.slice(1) : key);
      if (column >= 0) sort(column, descending ? "descending" : "ascending");
      else unsort();
      filter();
    }

    /* Write the state into the address, in place (no new history entry per key typed). */
    function remember() {
      const url = new URL(location.href);
      for (const [key, value] of Object.entries(state())) {
        if (value) url.searchParams.set(prefix + key, value);
        else url.searchParams.delete(prefix + key);
      }
      if (url.href !== location.href) history.replaceState(history.state, "", url.href);
    }

    heads.forEach((th, column) => {
      const button = element("button", {type: "button", class: "goodput-sort-button"}, ...th.childNodes);
      button.addEventListener("click", () => {
        sort(column, th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending");
        remember();
      });
      th.append(button);
    });
    search.addEventListener("input", () => { filter(); remember(); });
    for (const s of selects) s.select.addEventListener("change", () => { filter(); remember(); });
    return {restore};
  }

  function addressed() {
    try {
      return new URLSearchParams(location.search);
    } catch (e) {
      return new URLSearchParams();
    }
  }

  /* The element the address's fragment names, or null (a fragment that is no valid escape names none). */
  function target() {
    const raw = location.hash.slice(1);
    if (!raw) return null;
    let ident = raw;
    try {
      ident = decodeURIComponent(raw);
    } catch (e) {
      // not an escaped name: the fragment as it is written
    }
    return document.getElementById(ident) || document.getElementById(raw);
  }

  function start() {
    const tables = [...document.querySelectorAll("table.goodput-sortable")]
      .map((table, i) => setup(table, i === 0)).filter(Boolean);
    const restore = () => { const params = addressed(); for (const t of tables) t.restore(params); };
    restore();
    // Back or Forward to this page's other entries (a row's fragment, another state): the address says
    window.addEventListener("popstate", restore);
    // the tools above the table moved it: bring a row the address names back into view
    const row = target();
    if (row && row.closest("table.goodput-sortable")) requestAnimationFrame(() => row.scrollIntoView());
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
