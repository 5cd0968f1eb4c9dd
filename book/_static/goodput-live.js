/* The book's live figures: control panels, calculated tables, "your link" boxes, one page state.
 *
 * Every figure a chapter's Python declares (goodput.render.live) carries a JSON description:
 * its controls and, for a chapter's calculation, the Vega dataflow of its table. This script
 *
 *  - draws each control from what it is (segmented buttons, select, toggle, number box with a
 *    slider and presets), above the chart, and refuses a typed value outside the range;
 *  - keeps one state for the page, keyed by input, in the address (?lanes=8&mps=512): every
 *    control, chart, table and box showing an input follows it, and a link restores it;
 *  - replaces altair's own sliders: vegaEmbed is wrapped so each chart starts at the page state
 *    without its bindings, and is sized to its column and themed for dark mode;
 *  - computes each calculated table with vega's own dataflow (the printed model expressions,
 *    the chart's computation) in a view that draws nothing, and writes it as an HTML table.
 *
 * window.goodputLive.settled() resolves once every chart and table shows the current state.
 *
 * In JupyterLab the book's page is not there: a figure's own loader (goodput.render.live.lab_loader)
 * sets window.goodputLab, loads this script and calls goodputLive.scan() for each figure a cell
 * shows. There the state is the notebook's alone: no address to keep it in (the address is
 * JupyterLab's), no "copy link" buttons, and vega-embed is wrapped in goodputLab.embed.
 */
(function () {
  "use strict";

  const state = new Map();          // key -> value
  const declared = new Map();       // key -> control description (the first declaring it)
  const widgets = new Map();        // key -> [function(value)] updating each control drawn for it
  const figures = new Map();        // element -> figure record
  const embeds = [];                // {el, spec, opt, figure, view}
  const lab = window.goodputLab || null;   // set by a figure's loader in JupyterLab
  const query = new URLSearchParams(lab ? "" : window.location.search);
  let pending = Promise.resolve();
  let uid = 0;
  /* The controls come first: the charts are drawn and the tables computed once the page's controls are on
     screen (start() resolves this a frame after it drew them; in JupyterLab there is nothing to wait for). */
  let controlsShown;
  const shown = new Promise(resolve => { controlsShown = resolve; });

  // --- values -------------------------------------------------------------------------------

  function sameValue(a, b) { return String(a) === String(b); }

  /* A number as a reader types it: ASCII digits with a sign, point and exponent; for a count of bytes, a unit after
     it too (64 MiB, 1 GB, 512 kB: k, M, G and T are powers of 1000, Ki, Mi, Gi and Ti of 1024). NaN otherwise. */
  const BYTE_UNITS = {k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40};

  function typedNumber(control, raw) {
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
    const sized = control.unit === "bytes" && /^(\d+\.?\d*|\.\d+)\s*(k|K|M|G|T|Ki|Mi|Gi|Ti)?(B|bytes?)$/.exec(raw);
    return sized ? Number(sized[1]) * (sized[2] ? BYTE_UNITS[sized[2]] : 1) : NaN;
  }

  /* A control's value from text (a typed number, an address parameter): {value} or {error}. */
  function parse(control, text) {
    const raw = String(text).trim();
    if (control.kind === "links") return parseLinks(control, raw);
    if (control.options) {
      const hit = control.options.find(o => sameValue(o.value, raw));
      return hit ? {value: hit.value} : {error: `${control.label}: ${raw || "nothing"} is not allowed; ${control.allowed}`};
    }
    const number = typedNumber(control, raw);
    const low = control.exclusiveMin ? number <= control.min : number < control.min;
    if (!Number.isFinite(number) || low || number > control.max || (control.integer && !Number.isInteger(number))) {
      return {error: `${control.label}: ${raw || "nothing"} is not allowed; ${control.allowed}`};
    }
    return {value: number};
  }

  // --- a list of links (goodput.render.controls.LinkList) ----------------------------------------

  /* "pcie:3:4:256:0,srio:5:4:0": each link's family and its settings' values, as goodput.analysis.choose.encode writes. */
  const MAX_LINKS = 16;              // a chart of more curves than this cannot be read, and each costs its rows
  const notes = new Map();           // key -> what the page left out of the address's value

  function parseLinks(control, raw) {
    const links = [];
    const items = raw.split(",").filter(Boolean);
    const note = items.length > MAX_LINKS
      ? `${control.label}: the list takes ${MAX_LINKS} ${control.item || "link"}s; the first ${MAX_LINKS} of the ${items.length} in the address are shown` : "";
    for (const item of items.slice(0, MAX_LINKS)) {
      const [key, ...values] = item.split(":");
      const family = control.families.find(f => f.key === key);
      if (!family || values.length !== family.settings.length) {
        return {error: `${control.label}: ${item} is not allowed; ${control.allowed}`};
      }
      const chosen = {};
      for (const [i, setting] of family.settings.entries()) {
        // "5" or "5.0" (goodput.analysis.choose.decode reads either), written back as the option's own value
        const option = setting.options.find(o => sameValue(o.value, values[i])
                                            || (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(values[i]) && Number(values[i]) === Number(o.value)));
        if (!option) return {error: `${control.label}: ${setting.label} ${values[i]} is not allowed in ${item}`};
        chosen[setting.name] = option.value;
      }
      links.push({family, chosen});
    }
    return {value: links.map(encodeLink).join(","), links, note};
  }

  function encodeLink(link) {
    return [link.family.key, ...link.family.settings.map(s => String(link.chosen[s.name]))].join(":");
  }

  /* The chart's rows for a list of links: what goodput.render.chapters.choose_a_link.curve_rows writes; each starts from
     the list's fill (the columns of settings its family has not) and is a row "your-1", "your-2"... of a table. */
  function linkRows(control, value) {
    const parsed = parseLinks(control, value);
    const label = (s, value) => s.options.find(o => sameValue(o.value, value)).label;
    return (parsed.links || []).map(({family, chosen}, order) => Object.assign({}, control.fill || {}, {
      family: family.index,
      link: family.title + " " + family.settings.map(s => label(s, chosen[s.name])).join(", "),
      row_index: `your-${order + 1}`,
    }, family.columns || {}, chosen,
    // a setting shown by its option's label in a column of the table's own (a CAN message's "extended" identifier)
    Object.fromEntries(family.settings.filter(s => s.column).map(s => [s.column, label(s, chosen[s.name])])),
    {order, max_size: family.maxSize}, control.extra));
  }

  /* A dataset's rows with those of the list's links in place of the ones it held: a row with no place in a
     list (a case of the solver's catalogue) stays. */
  function withLinkRows(values, control) {
    return [...(values || []).filter(r => r.order === undefined || r.order === null),
            ...spreadRows(control, linkRows(control, state.get(control.key)))];
  }

  /* The columns of the rows' extra ones that hold a list (the sizes a curve is drawn at). */
  function spreadColumns(control) {
    return Object.keys(control.extra || {}).filter(k => Array.isArray(control.extra[k]));
  }

  /* The same rows spread to one per value of each list column, as the chart's flatten transform would: the
     page gives the chart these, so a change to one link adds and removes that link's rows alone (vega's
     flatten makes every row anew on any change, and every mark with it). */
  function spreadRows(control, rows) {
    let out = rows;
    for (const column of spreadColumns(control)) {
      out = out.flatMap(row => row[column].map(v => Object.assign({}, row, {[column]: v})));
    }
    return out;
  }

  /* Each view of ``spec`` (any layer or concatenated view) whose inline dataset is named ``name``. */
  function namedViews(spec, name, found = []) {
    if (spec && typeof spec === "object") {
      if (spec.data && spec.data.name === name && Array.isArray(spec.data.values)) found.push(spec);
      for (const key of ["layer", "vconcat", "hconcat", "concat"]) (spec[key] || []).forEach(s => namedViews(s, name, found));
    }
    return found;
  }

  /* The changes that bring the chart's rows of ``control`` from what ``view`` holds to ``value``: a link
     still in the list keeps its rows (its place updated), a new one adds its rows, a gone one removes them. */
  function linkChanges(view, control, value) {
    const id = row => `${row.family}|${row.link}`;
    const held = new Map();  // the rows of each link the view holds, by its place in the list
    for (const t of view.data(control.dataset)) {
      if (t.order === undefined || t.order === null) continue;  // a case of the chart's own, not of the list
      if (!held.has(t.order)) held.set(t.order, {order: t.order, id: id(t), tuples: []});
      held.get(t.order).tuples.push(t);
    }
    const unused = [...held.values()];
    const changes = vega.changeset();
    linkRows(control, value).forEach((row, order) => {
      let k = unused.findIndex(g => g.id === id(row) && g.order === order);
      if (k < 0) k = unused.findIndex(g => g.id === id(row));
      if (k < 0) {
        changes.insert(spreadRows(control, [row]));
        return;
      }
      const [kept] = unused.splice(k, 1);
      if (kept.order !== order) kept.tuples.forEach(t => changes.modify(t, "order", order));
    });
    unused.forEach(g => changes.remove(g.tuples));
    return changes;
  }

  function declare(control) {
    if (!declared.has(control.key)) {
      declared.set(control.key, control);
      const fromAddress = query.has(control.key) ? parse(control, query.get(control.key)) : null;
      state.set(control.key, fromAddress && !fromAddress.error ? fromAddress.value : control.value);
      if (fromAddress && fromAddress.note) notes.set(control.key, fromAddress.note);
    }
    return state.get(control.key);
  }

  /* The page's address for the current state: every input away from its default, the other keys kept. */
  function addressOfState() {
    const params = new URLSearchParams(window.location.search);
    for (const [key, control] of declared) {
      if (sameValue(state.get(key), control.value)) params.delete(key);
      else params.set(key, String(state.get(key)));
    }
    const search = params.toString();
    return window.location.pathname + (search ? "?" + search : "") + window.location.hash;
  }

  function writeAddress() {
    if (lab) return;
    const url = addressOfState();
    if (url === window.location.pathname + window.location.search + window.location.hash) return;
    try {
      window.history.replaceState(window.history.state, "", url);
    } catch (err) {
      // a browser that limits how often the address may change refuses it (Safari); the next change writes it
    }
  }

  /* The address follows the state a moment after a change, at most once per ADDRESS_EVERY_MS: a slider
     dragged fires dozens of changes a second, more than browsers let a page rewrite its address (Chromium
     ignores the rest, Safari throws), and the chart redraws without waiting for it. */
  const ADDRESS_EVERY_MS = 250;
  let addressTimer = null;
  let addressWritten = -Infinity;
  const addressWaiters = [];

  function writeAddressSoon() {
    if (addressTimer !== null) return;
    const wait = Math.max(100, addressWritten + ADDRESS_EVERY_MS - performance.now());
    addressTimer = setTimeout(() => {
      addressTimer = null;
      addressWritten = performance.now();
      writeAddress();
      addressWaiters.splice(0).forEach(resolve => resolve());
    }, wait);
  }

  function set(key, value) {
    if (sameValue(state.get(key), value)) return pending;
    state.set(key, value);
    for (const update of widgets.get(key) || []) update(value);
    writeAddressSoon();
    // only the charts and tables that show this input are brought up to date
    const work = [];
    for (const e of embeds) if (e.figure && e.figure.spec.controls.some(c => c.key === key)) work.push(applyToView(e));
    for (const fig of figures.values()) {
      if (fig.table && fig.table.follows(key)) work.push(fig.table.refresh());
    }
    pending = Promise.all([pending, ...work]).then(() => undefined);
    return pending;
  }

  // --- charts ---------------------------------------------------------------------------------

  function figureOf(el) {
    const host = typeof el === "string" ? document.querySelector(el) : el;
    const root = host && host.closest && host.closest(".goodput-live");
    return root ? figureRecord(root) : null;
  }

  function figureRecord(root) {
    if (!figures.has(root)) {
      const spec = JSON.parse(root.querySelector("script.goodput-live-spec").textContent);
      spec.controls.forEach(declare);
      figures.set(root, {root, spec, table: null, built: false});
    }
    return figures.get(root);
  }

  /* Whether the page is dark: the book's theme (pydata-sphinx-theme resolves its "auto" mode to data-theme once
     its script runs; until then the reader's system setting), or JupyterLab's theme. */
  function darkMode() {
    if (lab) return Boolean(document.body) && document.body.dataset.jpThemeLight === "false";
    const theme = document.documentElement.dataset.theme;
    if (theme === "dark" || theme === "light") return theme === "dark";
    return window.matchMedia("(prefers-color-scheme: dark)").matches;
  }

  // --- the charts' theme: the build reads this block (book/_ext/goodput_vega.js) to compile each chart in it ---
  /* What every chart's text is drawn at: no label under 12 px, on any page or width. */
  const TEXT_SIZES = {
    axis: {labelFontSize: 12, titleFontSize: 13},
    legend: {labelFontSize: 12, titleFontSize: 12},
    header: {labelFontSize: 12, titleFontSize: 13},
    title: {fontSize: 15, subtitleFontSize: 13},
    text: {fontSize: 12},
  };

  /* Each theme's chart colours: text that reads at AA contrast (4.5:1) on the page's own background (the chart
     has none of its own, so the page shows through), grid lines that stay in the background. */
  const THEMES = {
    light: {
      axis: {domainColor: "#6e7781", gridColor: "#e4e6e8", tickColor: "#6e7781", labelColor: "#32373c", titleColor: "#1f2328"},
      legend: {labelColor: "#32373c", titleColor: "#1f2328"},
      header: {labelColor: "#32373c", titleColor: "#1f2328"},
      title: {color: "#1f2328", subtitleColor: "#4d545c"},
      view: {stroke: "#d0d4d8"},
      text: {color: "#1f2328"},
    },
    dark: {
      axis: {domainColor: "#9aa0a6", gridColor: "#3c4043", tickColor: "#9aa0a6", labelColor: "#e8eaed", titleColor: "#e8eaed"},
      legend: {labelColor: "#e8eaed", titleColor: "#e8eaed"},
      header: {labelColor: "#e8eaed", titleColor: "#e8eaed"},
      title: {color: "#e8eaed", subtitleColor: "#bdc1c6"},
      view: {stroke: "#5f6368"},
      text: {color: "#e8eaed"},
      rule: {color: "#bdc1c6"},
    },
  };

  /* ``config`` with the text sizes and a theme (the page's dark one if ``dark``) over it, key by key (what the
     chart sets otherwise stays). */
  function themed(config, dark) {
    const theme = THEMES[dark ? "dark" : "light"];
    const out = Object.assign({}, config, {background: null});
    for (const key of new Set([...Object.keys(TEXT_SIZES), ...Object.keys(theme)])) {
      out[key] = Object.assign({}, config[key] || {}, theme[key] || {});
      for (const [size, least] of Object.entries(TEXT_SIZES[key] || {})) out[key][size] = Math.max(least, Number(out[key][size]) || 0);
    }
    return out;
  }
  // --- end of the charts' theme ---

  /* ``text`` in lines of at most ``chars`` characters, broken between words. */
  function lines(text, chars) {
    const out = [];
    for (const word of text.split(/\s+/)) {
      if (out.length && out[out.length - 1].length + 1 + word.length <= chars) out[out.length - 1] += " " + word;
      else out.push(word);
    }
    return out;
  }

  /* A chart title wrapped to the width of its element (vega draws a title on one line). */
  function wrapTitle(spec, el) {
    const title = spec.title;
    const text = typeof title === "string" ? title : title && typeof title.text === "string" ? title.text : null;
    if (!text || !el) return;
    const chars = Math.max(24, Math.floor((el.clientWidth || 600) / 7.5));
    const wrapped = lines(text, chars);
    if (wrapped.length < 2) return;
    if (typeof title === "string") spec.title = {text: wrapped, anchor: "start"};
    else title.text = wrapped;
  }

  /* The chart as the page shows it: bound to the page state instead of altair's sliders, sized to
     its column when it is a single view, its title wrapped to the column, themed for the page's mode.
     A chart the book compiled to Vega (``compiled``, see prepareVega) has had the first and the last done. */
  function prepare(spec, figure, el, compiled) {
    if (compiled) return prepareVega(spec, figure, el, compiled);
    spec = JSON.parse(JSON.stringify(spec));
    if (figure) {
      for (const control of figure.spec.controls.filter(c => c.kind === "links")) {
        const spread = spreadColumns(control);
        // the rows come spread: the flatten of those columns goes, in the view and the layers that inherit its data
        const unflatten = view => {
          if (view.transform) view.transform = view.transform.filter(t => !(t.flatten && t.flatten.every(f => spread.includes(f))));
          (view.layer || []).filter(l => !l.data).forEach(unflatten);
        };
        for (const view of namedViews(spec, control.dataset)) {
          view.data.values = withLinkRows(view.data.values, control);
          unflatten(view);
        }
      }
      for (const name of measuredSets.keys()) {
        for (const view of namedViews(spec, name)) view.data.values = measuredRows(name);
      }
      const bySignal = new Map(figure.spec.controls.map(c => [c.signal, c]));
      for (const param of spec.params || []) {
        const control = bySignal.get(param.name);
        if (control) {
          delete param.bind;
          param.value = state.get(control.key);
        }
      }
    }
    const single = isSingle(spec);
    if (single && typeof spec.width === "number") {
      spec.width = "container";
      spec.autosize = {type: "fit-x", contains: "padding"};
    }
    wrapTitle(spec, typeof el === "string" ? document.querySelector(el) : el);
    // a narrow column has room for fewer tick labels: drop the ones that would overlap
    spec.config = Object.assign({}, spec.config || {});
    spec.config.axis = Object.assign({labelOverlap: "greedy", labelSeparation: 6}, spec.config.axis || {});
    // on a phone a legend of two columns, or two legends side by side, would be wider than the chart:
    // one column, the legends under one another, each label as wide as the chart less what stands to its
    // left: a bottom legend starts where the plot does, after the y axis (its labels and title), then its symbol
    const host = typeof el === "string" ? document.querySelector(el) : el;
    if (host && host.clientWidth && host.clientWidth < 600) {
      const limit = Math.max(80, host.clientWidth - 150);
      spec.config.legend = Object.assign({}, spec.config.legend || {}, {
        columns: 1, labelLimit: limit,
        layout: {bottom: {direction: "vertical", anchor: "start"}, top: {direction: "vertical", anchor: "start"}}});
      // a label longer than that (a link and its settings) goes on one line per comma-separated part
      wrapLegendLabels(spec, Math.floor(limit / 7));
    }
    spec.config = themed(spec.config, darkMode());
    return spec;
  }

  /* A legend label of more than ``chars`` characters broken after its commas (wrapLegendLabels). */
  function wrappedLabel(chars) {
    return `length(datum.label) > ${chars} ? split(datum.label, ', ') : datum.label`;
  }

  /* The book's charts come compiled to Vega (book/_ext/goodput_vega.py) with what prepare() does whatever the
     state already done (sized to the column, altair's sliders gone, the text sizes and the light theme); this
     does the rest on the Vega spec, as prepare() does it on the Vega-Lite one: ``compiled.dark`` holds the
     changes that make the light compile the dark one, each a path and its value (or a path alone: deleted). */
  function prepareVega(spec, figure, el, compiled) {
    spec = JSON.parse(JSON.stringify(spec));
    if (darkMode()) {
      for (const [path, ...value] of compiled.dark) {
        const parent = path.slice(0, -1).reduce((node, key) => node[key], spec);
        if (value.length) parent[path[path.length - 1]] = value[0];
        else delete parent[path[path.length - 1]];
      }
    }
    if (figure) {
      for (const control of figure.spec.controls.filter(c => c.kind === "links")) {
        for (const data of vegaData(spec, control.dataset)) data.values = withLinkRows(data.values, control);
      }
      for (const name of measuredSets.keys()) for (const data of vegaData(spec, name)) data.values = measuredRows(name);
      const bySignal = new Map(figure.spec.controls.map(c => [c.signal, c]));
      for (const signal of spec.signals || []) {
        const control = bySignal.get(signal.name);
        if (control) signal.value = state.get(control.key);
      }
    }
    const host = typeof el === "string" ? document.querySelector(el) : el;
    // the title wrapped as wrapTitle wraps it: a title given as text alone becomes lines anchored at the start
    const title = spec.title;
    const text = typeof title === "string" ? title : title && typeof title.text === "string" ? title.text : null;
    if (text && host) {
      const wrapped = lines(text, Math.max(24, Math.floor((host.clientWidth || 600) / 7.5)));
      if (wrapped.length > 1) {
        if (compiled.titleString) spec.title = {text: wrapped, anchor: "start"};
        else title.text = wrapped;
      }
    }
    // a phone's legends, as prepare() sets them
    if (host && host.clientWidth && host.clientWidth < 600) {
      const limit = Math.max(80, host.clientWidth - 150);
      spec.config = Object.assign({}, spec.config || {});
      spec.config.legend = Object.assign({}, spec.config.legend || {}, {
        columns: 1, labelLimit: limit,
        layout: {bottom: {direction: "vertical", anchor: "start"}, top: {direction: "vertical", anchor: "start"}}});
      for (const legend of vegaLegends(spec)) {
        const labels = legend.encode && legend.encode.labels && legend.encode.labels.update;
        if (labels && labels.text) continue;  // the chart gives its labels an expression of its own
        legend.encode = Object.assign({}, legend.encode);
        legend.encode.labels = Object.assign({}, legend.encode.labels);
        legend.encode.labels.update = Object.assign({}, labels, {text: {signal: wrappedLabel(Math.floor(limit / 7))}});
      }
    }
    return spec;
  }

  /* Each dataset of a Vega spec (its groups' too) named ``name`` that holds its values inline. */
  function vegaData(spec, name, found = []) {
    for (const data of spec.data || []) if (data.name === name && Array.isArray(data.values)) found.push(data);
    for (const mark of spec.marks || []) if (mark.type === "group") vegaData(mark, name, found);
    return found;
  }

  /* Every legend of a Vega spec, its groups' included. */
  function vegaLegends(spec, found = []) {
    found.push(...(spec.legends || []));
    for (const mark of spec.marks || []) if (mark.type === "group") vegaLegends(mark, found);
    return found;
  }

  const LEGEND_CHANNELS = ["color", "fill", "stroke", "shape", "strokeDash", "size", "opacity"];

  /* Every legend of ``spec`` (any layer or concatenated view) breaks a label of more than ``chars`` characters
     after its commas, unless the chart gives its labels an expression of its own. */
  function wrapLegendLabels(spec, chars) {
    if (!spec || typeof spec !== "object") return;
    for (const channel of LEGEND_CHANNELS) {
      const enc = spec.encoding && spec.encoding[channel];
      if (!enc || enc.legend === null || (enc.legend && enc.legend.labelExpr)) continue;
      enc.legend = Object.assign({}, enc.legend || {}, {labelExpr: wrappedLabel(chars)});
    }
    for (const key of ["layer", "vconcat", "hconcat", "concat"]) (spec[key] || []).forEach(s => wrapLegendLabels(s, chars));
    if (spec.spec) wrapLegendLabels(spec.spec, chars);
  }

  /* Whether ``spec`` is one view (or layers of one), which can take its column's width. */
  function isSingle(spec) {
    return !("vconcat" in spec || "hconcat" in spec || "concat" in spec || "facet" in spec || "repeat" in spec
             || (spec.encoding && (spec.encoding.row || spec.encoding.column || spec.encoding.facet)));
  }

  function applyToView(e) {
    if (!e.view || !e.figure) return Promise.resolve();
    for (const control of e.figure.spec.controls) {
      if (control.kind === "links") {
        const value = state.get(control.key);
        if (e.links !== value && e.links !== undefined) e.view.change(control.dataset, linkChanges(e.view, control, value));
        e.links = value;
        continue;
      }
      let current;
      try { current = e.view.signal(control.signal); } catch (err) { continue; }
      const value = state.get(control.key);
      if (!sameValue(current, value)) e.view.signal(control.signal, value);
    }
    for (const name of measuredSets.keys()) {
      if (measuredSets.get(name).list.length && hasData(e.view, name)) {
        e.view.change(name, vega.changeset().remove(() => true).insert(measuredRows(name)));
      }
    }
    return e.view.runAsync().then(() => showLinkReadout(e));
  }

  function run(e) {
    const host = typeof e.el === "string" ? document.querySelector(e.el) : e.el;
    const promise = shown.then(() => e.embed(e.el, prepare(e.spec, e.figure, e.el, e.compiled), e.opt)).then(result => {
      if (!(e.compiled ? e.compiled.single : isSingle(e.spec))) result.view.container().classList.add("goodput-wide");
      if (e.view) e.view.finalize();
      e.view = result.view;
      return applyToView(e).then(() => result);
    });
    follow(e, host);
    pending = Promise.all([pending, promise.catch(() => undefined)]).then(() => undefined);
    return promise;
  }

  /* A chart follows its column: when the width it was drawn for changes (a window resized, a phone turned, the
     sidebar shown or hidden), it is drawn again for the new width, at the same state, a moment after the change
     settles. Vega's own fit to its container listens to the window alone and reads a column that is still being
     laid out, which left charts far wider than their column after a window was narrowed and widened again. */
  const RESIZE_SETTLE_MS = 120;
  const resizing = typeof ResizeObserver === "function" ? new ResizeObserver(entries => {
    for (const entry of entries) {
      const e = entry.target.goodputEmbed;
      if (!e || Math.round(entry.target.clientWidth) === e.width) continue;
      clearTimeout(e.resizeTimer);
      // settled() waits for the redraw too
      if (!e.resized) {
        let done;
        e.resized = new Promise(resolve => { done = resolve; });
        e.resizedDone = done;
        pending = Promise.all([pending, e.resized]).then(() => undefined);
      }
      e.resizeTimer = setTimeout(() => {
        const done = e.resizedDone;
        e.resized = e.resizedDone = null;
        const redraw = Math.round(entry.target.clientWidth) !== e.width ? run(e).catch(() => undefined) : null;
        Promise.resolve(redraw).then(done);
      }, RESIZE_SETTLE_MS);
    }
  }) : null;

  function follow(e, host) {
    const column = host && host.parentElement;
    if (!column) return;
    e.width = Math.round(column.clientWidth);
    if (resizing && column.goodputEmbed !== e) {
      column.goodputEmbed = e;
      resizing.observe(column);
    }
  }

  function wrap(embed) {
    const wrapped = function (el, spec, opt) {
      // export the picture, yes; the menu's links to the online editor and the source, no (offline book)
      const options = Object.assign({}, opt || {}, {actions: {export: true, source: false, compiled: false, editor: false}});
      // what the build hands over with a chart it compiled to Vega (prepareVega)
      const compiled = options.goodput || null;
      delete options.goodput;
      const e = {embed, el, spec, opt: options, compiled, figure: figureOf(el), view: null};
      embeds.push(e);
      return run(e);
    };
    return Object.assign(wrapped, embed);
  }

  if (lab) lab.embed = wrap(lab.vegaEmbed);
  else if (window.vegaEmbed) window.vegaEmbed = wrap(window.vegaEmbed);

  // the theme's mode switch (the book's, the system's, JupyterLab's): every chart is drawn again in the new
  // mode, at the same state
  let dark = darkMode();
  const redrawIfThemeChanged = () => {
    if (darkMode() === dark) return;
    dark = darkMode();
    embeds.forEach(run);
  };
  new MutationObserver(redrawIfThemeChanged).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
  if (lab && document.body) {
    new MutationObserver(redrawIfThemeChanged).observe(document.body, {attributes: true, attributeFilter: ["data-jp-theme-light"]});
  }
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redrawIfThemeChanged);

  // --- controls -------------------------------------------------------------------------------

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c) el.append(c);
    return el;
  }

  function watch(key, update) {
    if (!widgets.has(key)) widgets.set(key, []);
    widgets.get(key).push(update);
    update(state.get(key));
  }

  function segmented(control, labelId) {
    const group = h("div", {class: "goodput-segmented", role: "radiogroup", "aria-labelledby": labelId});
    const buttons = control.options.map(o => h("button", {
      type: "button", role: "radio", "data-value": String(o.value), text: o.label,
      onclick: () => set(control.key, o.value),
    }));
    group.append(...buttons);
    group.addEventListener("keydown", event => {
      const step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
      if (!step) return;
      event.preventDefault();
      const at = control.options.findIndex(o => sameValue(o.value, state.get(control.key)));
      const next = Math.min(control.options.length - 1, Math.max(0, at + step));
      set(control.key, control.options[next].value);
      buttons[next].focus();
    });
    watch(control.key, value => buttons.forEach(b => {
      const on = sameValue(b.dataset.value, value);
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
    }));
    return group;
  }

  function select(control, labelId) {
    const el = h("select", {"aria-labelledby": labelId, onchange: () => {
      set(control.key, control.options[el.selectedIndex].value);
    }});
    el.append(...control.options.map(o => h("option", {value: String(o.value), text: o.label})));
    watch(control.key, value => { el.value = String(value); });
    return el;
  }

  function toggle(control, labelId) {
    const [off, on] = control.options;
    const text = h("span", {class: "goodput-toggle-text"});
    const box = h("input", {type: "checkbox", role: "switch", "aria-labelledby": labelId,
                            onchange: () => set(control.key, box.checked ? on.value : off.value)});
    watch(control.key, value => {
      box.checked = sameValue(value, on.value);
      text.textContent = box.checked ? on.label : off.label;
    });
    return h("label", {class: "goodput-toggle"}, box, text);
  }

  const LOG_STEPS = 1000;

  function number(control, labelId, errorEl) {
    const log = control.scale === "log";
    const low = control.sliderMin, high = control.max;
    const toSlider = v => log ? Math.round(LOG_STEPS * Math.log(v / low) / Math.log(high / low)) : v;
    const fromSlider = t => {
      if (!log) return Number(t);
      const v = low * Math.pow(high / low, Number(t) / LOG_STEPS);
      const rounded = Number(v.toPrecision(3));
      return control.integer ? Math.max(low, Math.round(rounded)) : Math.min(high, Math.max(low, rounded));
    };
    const box = h("input", {type: "text", inputmode: "decimal", class: "goodput-number", "aria-labelledby": labelId,
                            autocomplete: "off", spellcheck: "false"});
    const range = h("input", {type: "range", "aria-labelledby": labelId, min: log ? 0 : low, max: log ? LOG_STEPS : high,
                              step: log ? 1 : control.step, tabindex: "0"});
    const typed = commit => {
      const result = parse(control, box.value);
      box.setAttribute("aria-invalid", result.error ? "true" : "false");
      if (result.error) {
        if (commit) errorEl.textContent = result.error;
        return;
      }
      errorEl.textContent = "";
      set(control.key, result.value);
    };
    box.addEventListener("input", () => typed(false));
    box.addEventListener("change", () => typed(true));
    box.addEventListener("keydown", event => {
      if (event.key === "Enter") typed(true);
      const step = {ArrowUp: 1, ArrowDown: -1}[event.key];
      if (step) {
        event.preventDefault();
        const next = Number((Number(state.get(control.key)) + step * control.step).toPrecision(12));
        const result = parse(control, String(next));
        if (!result.error) set(control.key, result.value);
      }
    });
    range.addEventListener("input", () => {
      errorEl.textContent = "";
      box.setAttribute("aria-invalid", "false");
      set(control.key, fromSlider(range.value));
    });
    const presets = (control.presets || []).map(p => h("button", {
      type: "button", class: "goodput-preset", "data-value": String(p.value), text: p.label,
      "aria-label": `${control.label} ${p.label}${control.unit && !String(p.label).includes(control.unit) ? " " + control.unit : ""}`,
      onclick: () => { errorEl.textContent = ""; set(control.key, p.value); },
    }));
    watch(control.key, value => {
      if (document.activeElement !== box || parse(control, box.value).value !== value) box.value = String(value);
      box.setAttribute("aria-invalid", "false");
      range.value = String(toSlider(value));
      presets.forEach(b => b.setAttribute("aria-pressed", sameValue(b.dataset.value, value) ? "true" : "false"));
    });
    const unit = control.unit ? h("span", {class: "goodput-unit", text: control.unit}) : null;
    return [h("span", {class: "goodput-number-row"}, box, unit, control.track === false ? null : range),
            presets.length ? h("span", {class: "goodput-presets", role: "group", "aria-label": `${control.label}: standard values`}, ...presets) : null];
  }

  /* The composer: one row per link (its family, a select per setting, "Remove"), then a family and "Add a
     link". A change redraws only the rows it touches, so the select or button a reader used keeps the focus
     (a removed row's focus goes to the next row's "Remove", or to "Add a link"). */
  function linkList(control, labelId, errorEl) {
    const list = h("ol", {class: "goodput-links", "aria-labelledby": labelId});
    const current = () => parseLinks(control, state.get(control.key)).links || [];
    const write = links => { errorEl.textContent = ""; set(control.key, links.map(encodeLink).join(",")); };
    const at = el => Array.prototype.indexOf.call(list.children, el.closest("li"));
    const row = link => {
      const selects = link.family.settings.map(setting => {
        const el = h("select", {"aria-label": `${link.family.title} ${setting.label}`, "data-setting": setting.name,
                                onchange: () => {
          const links = current();
          links[at(el)].chosen[setting.name] = setting.options[el.selectedIndex].value;
          write(links);
        }});
        el.append(...setting.options.map(o => h("option", {value: String(o.value), text: o.label})));
        el.value = String(link.chosen[setting.name]);
        return el;
      });
      const remove = h("button", {type: "button", class: "goodput-link-remove", text: "Remove",
                                  onclick: () => write(current().filter((_, j) => j !== at(remove)))});
      return h("li", {class: "goodput-link", "data-family": link.family.key},
               h("span", {class: "goodput-link-family", text: link.family.title}),
               h("span", {class: "goodput-link-settings"}, ...selects), remove);
    };
    const item = control.item || "link";
    const pick = h("select", {"aria-label": `kind of the ${item} to add`});
    pick.append(...control.families.map(f => h("option", {value: f.key, text: f.title})));
    const add = h("button", {type: "button", class: "goodput-link-add", text: `Add a ${item}`, onclick: () => {
      const family = control.families.find(f => f.key === pick.value);
      const chosen = Object.fromEntries(family.settings.map(s => [s.name, s.default]));
      write([...current(), {family, chosen}]);
    }});
    errorEl.textContent = notes.get(control.key) || "";
    watch(control.key, () => {
      const links = current();
      add.disabled = links.length >= MAX_LINKS;
      add.title = add.disabled ? `at most ${MAX_LINKS} ${item}s` : "";
      const focused = list.contains(document.activeElement) ? document.activeElement : null;
      const focusAt = focused ? at(focused) : -1;
      // a row of the same family at the same place is kept, its selects set; others are drawn anew
      for (const [i, link] of links.entries()) {
        const li = list.children[i];
        if (li && li.dataset.family === link.family.key) {
          li.querySelectorAll("select").forEach(el => {
            const value = String(link.chosen[el.dataset.setting]);
            if (el.value !== value) el.value = value;
          });
        } else if (li) {
          list.replaceChild(row(link), li);
        } else {
          list.append(row(link));
        }
      }
      while (list.children.length > links.length) list.lastElementChild.remove();
      [...list.children].forEach((li, i) => li.querySelector(".goodput-link-remove").setAttribute(
        "aria-label", `remove ${item} ${i + 1}, ${li.querySelector(".goodput-link-family").textContent}`));
      if (focused && !list.contains(document.activeElement)) {
        const next = list.children[Math.min(focusAt, list.children.length - 1)];
        const same = next && focused.dataset.setting && next.querySelector(`select[data-setting="${focused.dataset.setting}"]`);
        (same || (next && next.querySelector(".goodput-link-remove")) || add).focus();
      }
    });
    return [list, h("span", {class: "goodput-link-adder"}, pick, add)];
  }

  function controlElement(control) {
    const labelId = `goodput-label-${++uid}`;
    const errorEl = h("span", {class: "goodput-error", role: "alert"});
    const label = h("span", {class: "goodput-label", id: labelId, text: control.label});
    let body;
    if (control.kind === "segmented") body = [segmented(control, labelId)];
    else if (control.kind === "select") body = [select(control, labelId)];
    else if (control.kind === "toggle") body = [toggle(control, labelId)];
    else if (control.kind === "links") body = linkList(control, labelId, errorEl);
    else body = number(control, labelId, errorEl);
    return h("div", {class: `goodput-control goodput-${control.kind}-control`, "data-key": control.key},
             label, ...body, errorEl);
  }

  function copyText(text, button) {
    const done = () => {
      const was = button.textContent;
      button.textContent = "Copied";
      setTimeout(() => { button.textContent = was; }, 1200);
    };
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text) && done());
    }
    if (fallbackCopy(text)) done();
    return Promise.resolve();
  }

  function fallbackCopy(text) {
    const area = h("textarea", {readonly: true, class: "goodput-offscreen"});
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
    area.remove();
    return ok;
  }

  function copyLinkButton() {
    const button = h("button", {type: "button", class: "goodput-copy-link", text: "Copy link to these values"});
    button.addEventListener("click", () => copyText(new URL(addressOfState(), window.location.href).href, button));
    return button;
  }

  function panel(container, controls) {
    // a list drawn by another figure (the solver's links, the comparison's composer) is not drawn again
    container.replaceChildren(...controls.filter(c => c.shown !== false).map(controlElement));
  }

  // --- calculated tables -----------------------------------------------------------------------

  const PHONE = window.matchMedia("(max-width: 640px)");

  class Table {
    constructor(spec, onRows) {
      this.spec = spec;
      this.onRows = onRows;
      this.view = null;  // made once the controls are on screen
      this.keys = spec.keys;
      // the reader's links, where the table has rows for them (the solver's): each a row before the cases
      this.composed = spec.composed || null;
      this.cases = this.composed ? JSON.parse(JSON.stringify(spec.vega.data[0].values)) : null;
      this.links = undefined;
    }

    follows(key) {
      return Object.values(this.keys).includes(key) || (this.composed !== null && this.composed.key === key);
    }

    refresh() {
      return shown.then(() => {
        if (!this.view) this.view = new vega.View(vega.parse(this.spec.vega), {renderer: "none"});
        for (const [signal, key] of Object.entries(this.keys)) {
          if (state.has(key) && !sameValue(this.view.signal(signal), state.get(key))) this.view.signal(signal, state.get(key));
        }
        if (this.composed) {
          const links = state.has(this.composed.key) ? state.get(this.composed.key) : this.composed.value;
          if (links !== this.links) {
            this.links = links;
            const cases = this.cases.map(r => Object.assign({}, r));
            this.view.data("rows", [...linkRows(this.composed, links), ...cases]);
          }
        }
        return this.view.runAsync();
      }).then(() => this.onRows(this.view.data("rows").filter(r => r.shown)));
    }
  }

  /* A cell's text with a negative number's sign as goodput writes it (value_text): d3's format writes a
     minus sign (U+2212), which a spreadsheet the number is copied into does not read. */
  function cellText(text) {
    return typeof text === "string" ? text.replace(/\u2212/g, "-") : text;
  }

  /* A long calculated table shows FOLD_ROWS rows until the reader asks for all; one only a couple of rows
     longer is shown whole (a button to reveal two rows costs as much room as they do). */
  const FOLD_ROWS = 8;
  const FOLD_SLACK = 2;

  /* The rows a folded table shows, by row_index: first the rows of the case the "your link" box opens on
     (spec.fold.lead, the headline: every transaction at 256 bytes), then, in a table ranked by its values
     (spec.fold.ranked, recomputed with the state), the top of the ranking, else rows spread evenly over the
     rest, so that each group of cases keeps a row. Null when the table is short enough to show whole. */
  function foldedRows(rows, fold) {
    if (rows.length <= FOLD_ROWS + FOLD_SLACK) return null;
    const lead = Object.entries((fold && fold.lead) || {});
    const isLead = r => lead.length > 0 && lead.every(([k, v]) => sameValue(r[k], v));
    const keep = rows.filter(isLead).slice(0, FOLD_ROWS);
    const rest = rows.filter(r => !isLead(r));
    const room = FOLD_ROWS - keep.length;
    if (fold && fold.ranked) keep.push(...rest.slice(0, room));
    else for (let i = 0; i < room; i++) keep.push(rest[Math.floor((i + 0.5) * rest.length / room)]);
    return new Set(keep.map(r => String(r.row_index)));
  }

  function tableElement(spec) {
    const head = h("tr", {}, ...spec.columns.map(c => h("th", {
      scope: "col", class: c.kind === "case" ? "goodput-case" : c.kind === "value" ? "goodput-value" : "goodput-calculation",
      text: c.heading})));
    const body = h("tbody");
    const id = `goodput-calc-${++uid}`;
    const toggle = h("button", {type: "button", class: "goodput-calc-unfold", "aria-controls": id, "aria-expanded": "false"});
    const foot = h("tfoot", {class: "goodput-calc-fold", hidden: true},
                   h("tr", {}, h("td", {colspan: String(spec.columns.length)}, toggle)));
    const table = h("table", {class: "goodput-calc-table", "data-name": spec.name, id}, h("thead", {}, head), body, foot);
    // folded until the reader unfolds it; the fold is chosen again from each new set of rows
    let unfolded = false;
    let shown = [];
    const refold = () => {
      const fold = foldedRows(shown, spec.fold);
      for (const tr of body.children) tr.hidden = fold !== null && !unfolded && !fold.has(tr.dataset.row);
      foot.hidden = fold === null;
      toggle.setAttribute("aria-expanded", String(unfolded));
      toggle.textContent = unfolded ? `Show ${fold ? fold.size : shown.length} rows` : `Show all ${shown.length} rows`;
    };
    toggle.addEventListener("click", () => { unfolded = !unfolded; refold(); });
    // on a phone each row is a card (goodput-live.css), as any table wider than its column is
    const cards = () => table.classList.toggle("goodput-cards", PHONE.matches);
    PHONE.addEventListener("change", cards);
    cards();
    const headings = [...head.children];
    const render = rows => {
      // a column of values in words (a limit's name) wraps and aligns like text; numbers stay on one line, right
      const words = spec.columns.map((c, i) => {
        const yes = c.kind === "value" && rows.some(r => /[A-Za-z]{2,}\s/.test(cellText(r[c.key])));
        headings[i].classList.toggle("goodput-words", yes);
        return yes;
      });
      body.replaceChildren(...rows.map(r => h("tr", {"data-row": String(r.row_index)}, ...spec.columns.map((c, i) => {
        const text = cellText(r[c.key]);
        const cell = h("td", {"data-column": c.key.slice(5), "data-label": c.heading,
                              class: c.kind === "case" ? "goodput-case" : c.kind === "value" ? "goodput-value" : "goodput-calculation"});
        if (words[i]) cell.classList.add("goodput-words");
        if (c.kind === "calculation") {
          const button = h("button", {type: "button", class: "goodput-copy-formula", title: "Copy as a spreadsheet formula",
                                      text: "Copy formula"});
          button.addEventListener("click", () => copyText("=" + text, button));
          cell.append(h("code", {text}), button);
        } else {
          cell.textContent = text;
        }
        return cell;
      }))));
      shown = rows;
      refold();
    };
    return {table, render};
  }

  // --- readouts: a figure's result in one line, kept in view on a phone --------------------------

  const chosenCases = new Map();   // a calculation's name -> the row its "your link" box shows
  const tableReadouts = [];        // {name, el, rows} of every figure with a calculated table
  const mirrors = [];              // {el, keys} of every figure with neither table nor list of links
  let boxReadout = null;           // {el, keys}: the first "your link" box's readout

  function readoutElement() {
    return h("p", {class: "goodput-readout", role: "status"});
  }

  function caseText(spec, row) {
    const cases = spec.columns.filter(c => c.kind === "case").map(c => `${c.heading} ${row[c.key]}`).join(", ");
    // a row of the reader's list where the table has its own cases too: which of theirs it is
    const yours = spec.composed && spec.composed.total && spec.composed.total.column && row.order !== undefined && row.order !== null;
    return yours ? `your ${spec.composed.item} ${row.order + 1}: ${row.link}` : cases;
  }

  /* ``row``'s case and its first two values: "bytes 1024: writes (Gbit/s) 14.629 · reads (Gbit/s) 13.653". */
  function showRow(el, spec, row) {
    if (!row) return;
    const parts = [h("span", {class: "goodput-readout-case", text: `${caseText(spec, row)}: `})];
    spec.columns.filter(c => c.kind === "value").slice(0, 2).forEach((c, i) => {
      if (i) parts.push(" · ");
      parts.push(`${c.heading} `, h("strong", {text: cellText(row[c.key])}));
    });
    el.replaceChildren(...parts);
  }

  function showTableReadout(r) {
    const chosen = chosenCases.get(r.name);
    showRow(r.el, r.spec, r.rows.find(row => String(row.row_index) === chosen) || r.rows[0]);
  }

  /* A figure that shows neither a table nor links (a breakdown of one transfer) reads out what the box
     computes, when the two share an input. */
  function showMirrors() {
    if (!boxReadout) return;
    for (const m of mirrors) {
      if (m.keys.some(k => boxReadout.keys.includes(k))) m.el.replaceChildren(...[...boxReadout.el.childNodes].map(n => n.cloneNode(true)));
    }
  }

  /* A chart of the reader's links reads out its extremes at one point of its x axis (4096, or its largest). */
  function showLinkReadout(e) {
    const control = e.figure && e.figure.spec.controls.find(c => c.kind === "links");
    const el = e.figure && e.figure.readout;
    if (!control || !el || !e.view) return;
    const x = spreadColumns(control)[0];
    const view = e.compiled ? null : namedViews(e.spec, control.dataset)[0];
    const encoding = e.compiled ? e.compiled.encoding
      : view && (view.encoding || ((view.layer || []).find(l => l.encoding) || {}).encoding);
    if (!x || !encoding || !encoding.y) return;
    const y = encoding.y.field;
    const byLink = new Map();
    const walk = node => {
      for (const item of (node && node.items) || []) {
        const d = item.datum;
        if (d && typeof d === "object" && "link" in d && x in d && y in d && Number.isFinite(d[y])) {
          if (!byLink.has(d.link)) byLink.set(d.link, new Map());
          byLink.get(d.link).set(d[x], d[y]);
        }
        walk(item);
      }
    };
    walk(e.view.scenegraph().root);
    const sizes = [...new Set([...byLink.values()].flatMap(m => [...m.keys()]))];
    if (!sizes.length) { el.textContent = ""; return; }
    const at = sizes.includes(4096) ? 4096 : Math.max(...sizes);
    const values = [...byLink].filter(([, m]) => m.has(at)).map(([link, m]) => [link, m.get(at)]).sort((a, b) => b[1] - a[1]);
    const value = v => String(Number(v.toPrecision(4)));
    const head = `At ${encoding.x && encoding.x.title || x} ${at}, ${encoding.y.title || y}: `;
    const [high, low] = [values[0], values[values.length - 1]];
    el.replaceChildren(h("span", {class: "goodput-readout-case", text: head}),
      ...(values.length === 1 ? [`${high[0]} `, h("strong", {text: value(high[1])})]
        : ["highest ", `${high[0]} `, h("strong", {text: value(high[1])}), " · lowest ", `${low[0]} `,
           h("strong", {text: value(low[1])}), ` (of ${values.length} links)`]));
  }

  /* How far down a sticky readout stops: under the theme's header where it stays on screen (a phone's). */
  function stickyTop() {
    let top = 0;
    for (const el of document.querySelectorAll(".bd-header, .bd-header-article")) {
      const style = getComputedStyle(el);
      if ((style.position === "sticky" || style.position === "fixed") && el.offsetHeight) {
        top = Math.max(top, (parseFloat(style.top) || 0) + el.offsetHeight);
      }
    }
    document.documentElement.style.setProperty("--goodput-sticky-top", `${top}px`);
  }

  function buildFigure(fig) {
    if (fig.built) return;
    fig.built = true;
    const controls = fig.root.querySelector(".goodput-controls");
    panel(controls, fig.spec.controls);
    if (!lab) controls.append(h("div", {class: "goodput-panel-actions"}, copyLinkButton()));
    fig.readout = readoutElement();
    controls.before(fig.readout);
    if (fig.spec.table) {
      const holder = fig.root.querySelector(".goodput-calc");
      const {table, render} = tableElement(fig.spec.table);
      // a table of the reader's links says how many it has, and what to do when it has none
      const composed = fig.spec.table.composed;
      const note = composed ? h("p", {class: "goodput-composed-note", role: "status"}) : null;
      holder.append(...(note ? [note] : []), h("div", {class: "goodput-calc-scroll"}, table));
      const readout = {name: fig.spec.table.name, spec: fig.spec.table, el: fig.readout, rows: []};
      tableReadouts.push(readout);
      fig.table = new Table(fig.spec.table, rows => {
        if (note) note.textContent = composedNote(composed, rows);
        render(rows);
        readout.rows = rows;
        showTableReadout(readout);
      });
      pending = Promise.all([pending, fig.table.refresh()]).then(() => undefined);
    } else if (!fig.spec.controls.some(c => c.kind === "links")) {
      mirrors.push({el: fig.readout, keys: fig.spec.controls.map(c => c.key)});
      showMirrors();
    }
  }

  /* What a table of the reader's list says of it: how many rows are theirs and what to do when there are none,
     and where the list declares a total (goodput.render.controls.LinkList.total), what the rows add up to. */
  function composedNote(composed, rows) {
    const item = composed.item || "link";
    const yours = rows.filter(r => r.order !== undefined && r.order !== null);
    const others = rows.length - yours.length;
    const total = composed.total || {};
    if (total.column) {
      if (yours.length === 0) return `No ${item}s of yours yet: "Add a ${item}" in the box above, and the ${total.text} they take adds up here.`;
      const sum = yours.reduce((s, r) => s + r[total.column], 0);
      const over = sum > total.limit ? `: over ${total.limit} ${total.unit}, ${total.over}` : "";
      return `Your ${yours.length} ${item}${yours.length === 1 ? "" : "s"} take ${Number(sum.toPrecision(4))} ${total.unit} of the ${total.text}${over}.`;
    }
    return yours.length === 0
      ? `Your list has no ${item}s: add yours to the ${composed.label} above ("Add a ${item}") and they are answered here first, before the book's ${others} configurations.`
      : `Your ${yours.length} ${item}${yours.length === 1 ? "" : "s"} first, then the book's ${others} configurations.`;
  }

  // --- from your machine: what Linux prints, read with the formats goodput.machine declares ---------------

  const MAX_PASTE = 4 << 20;  // goodput.machine.grammar.MAX_PASTE_BYTES, in characters

  /* An expression the book printed for Vega (goodput.render.vega.vega_expr), as a function of ``datum`` and of
     the signals ``params`` (then ``found``): Vega's functions are Math's. */
  const VEGA_MATH = ["abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "exp", "floor", "log", "max", "min",
                     "pow", "sin", "sqrt", "tan"];
  function vegaFunction(code, params) {
    const body = new Function("datum", ...params, "found", ...VEGA_MATH, "PI", "E", `return (${code});`);
    const math = [...VEGA_MATH.map(n => Math[n]), Math.PI, Math.E];
    return (datum, values, found) => body(datum, ...params.map(p => values[p]), found, ...math);
  }

  /* The reader's measurements by chart dataset (goodput.render.measured.Measured): {spec, values(), list}, each
     of the list {label, value, size, source}; a chart holding the dataset shows them as rows (measuredRows). */
  const measuredSets = new Map();

  /* The rows of a dataset of measurements at the page's state: each with the model's ceiling at its size and
     its share of it (goodput.render.calculation.Calculation.measured_share). */
  function measuredRows(name) {
    const set = measuredSets.get(name);
    if (!set || !set.list.length) return [];
    const values = set.values();
    return set.list.map(m => {
      const ceiling = set.ceiling({size: m.size}, values);
      return {label: m.label, size: m.size, value: m.value, ceiling, share: m.value / ceiling, source: m.source};
    });
  }

  /* The views of the page's charts holding a dataset of measurements get its rows anew. */
  function showMeasured(name) {
    const work = embeds.filter(e => e.view && hasData(e.view, name)).map(e => {
      e.view.change(name, vega.changeset().remove(() => true).insert(measuredRows(name)));
      return e.view.runAsync();
    });
    pending = Promise.all([pending, ...work]).then(() => undefined);
    return pending;
  }

  function hasData(view, name) {
    try { view.data(name); return true; } catch (err) { return false; }
  }

  function pasteLines(text) {
    const lines = text.split(/\r\n|\r|\n/);
    if (lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  function jsonPath(doc, path) {
    for (const key of path.split(".")) {
      if (!doc || typeof doc !== "object" || Array.isArray(doc) || !(key in doc)) return undefined;
      doc = doc[key];
    }
    return doc;
  }

  function recognises(format, text) {
    if (format.json) {
      try { return jsonPath(JSON.parse(text), format.fields[0].pattern) !== undefined; } catch (e) { return false; }
    }
    const detect = new RegExp(format.detect);
    return pasteLines(text).some(line => detect.test(line));
  }

  /* A field's value from its text, as goodput.machine.grammar._value reads it; an error names the line. */
  function fieldValue(field, text, line) {
    let value = text;
    if (field.kind === "flag") value = text === "+";
    else if (field.kind === "int" || field.kind === "number") {
      value = field.kind === "int" && /^[0-9]+$/.test(text) ? Number(text)
        : field.kind === "number" && /^[0-9.]+$/.test(text) ? Number(text) : NaN;
      if (Number.isNaN(value)) throw {line, message: `${field.what} '${text}' is not a number`};
    }
    if (field.allowed.length && !field.allowed.some(a => a === value)) {
      throw {line, message: `${field.what} ${text} is not one there is: ${field.name} must be one of ${field.allowed.join(", ")}`};
    }
    return value;
  }

  /* Every record of ``text`` in ``format`` (goodput.machine.grammar.read): {name, line, values}. */
  function readFormat(format, text) {
    if (format.json) {
      const doc = JSON.parse(text);
      const values = {};
      for (const field of format.fields) {
        const value = jsonPath(doc, field.pattern);
        if (value === undefined || value === null) continue;
        if (field.allowed.length && !field.allowed.some(a => a === value)) {
          throw {line: 1, message: `${field.what} ${value} is not one there is: ${field.name} must be one of ${field.allowed.join(", ")}`};
        }
        values[field.name] = value;
      }
      return [{name: String(jsonPath(doc, format.record) || format.title), line: 1, values, lines: {}}];
    }
    const lines = pasteLines(text);
    const start = new RegExp(format.record);
    const heads = [];
    lines.forEach((line, i) => { const m = start.exec(line); if (m) heads.push([i, m[1]]); });
    if (!heads.length) throw {line: 1, message: `no line of ${format.title} found`};
    return heads.map(([i, name], k) => {
      const body = lines.slice(i, k + 1 < heads.length ? heads[k + 1][0] : lines.length).join("\n");
      const record = {name, line: i + 1, values: {}, lines: {}};
      for (const field of format.fields) {
        const m = new RegExp(field.pattern, "d").exec(body);
        if (field.kind === "present") { record.values[field.name] = m !== null; continue; }
        if (!m) continue;
        const at = i + 1 + (body.slice(0, m.indices[1][0]).match(/\n/g) || []).length;
        record.values[field.name] = fieldValue(field, m[1], at);
        record.lines[field.name] = at;
      }
      return record;
    });
  }

  /* What each record of a measurement's format measured (goodput.machine.grammar.measured): [runs, passed over]. */
  function measuredOf(format, records) {
    const m = format.measure;
    const what = name => (format.fields.find(f => f.name === name) || {what: name}).what;
    const out = [], skipped = [];
    for (const r of records) {
      const v = r.values;
      const label = [r.name, ...m.label.filter(f => f in v).map(f => String(v[f]))].join(" ");
      if (m.only.some(([field, want]) => v[field] !== want)) { skipped.push({record: label, line: r.line, why: m.whyNot}); continue; }
      for (const name of [m.value, m.size, ...(m.per ? [m.per] : [])]) {
        if (!(name in v)) throw {line: r.line, message: `${format.title}: no ${what(name)} in ${r.name}`};
      }
      if (m.per && v[m.per] <= 0) throw {line: r.lines[m.per] || r.line, message: `${what(m.per)} ${v[m.per]}: a run takes time`};
      out.push({record: r.name, line: r.line, label, value: v[m.value] * m.scale / (m.per ? v[m.per] : 1), size: v[m.size]});
    }
    return [out, skipped];
  }

  /* What a paste sets in a box (goodput.machine.grammar.settings_of): {format, record, line, values, dropped,
     measured} or {error}. ``allowed(input, value)`` says whether the box takes a value, ``evaluate(setting,
     found)`` gives a setting's expression's value at the box's inputs. */
  function readPaste(machine, text, allowed, evaluate) {
    if (text.length > MAX_PASTE) return {error: "line 1: the text is over 4 MB; no output these tools print is that long"};
    const format = machine.formats.find(f => recognises(f, text));
    if (!format) return {error: `line 1: none of ${machine.formats.map(f => f.title).join(", ")}: no line any of them prints was found`};
    const mine = machine.settings.filter(s => s.format === format.key);
    let records;
    try { records = readFormat(format, text); } catch (e) { return {error: `line ${e.line}: ${e.message}`}; }
    const found = {};
    if (format.measure) {
      try { [found.measured, found.skipped] = measuredOf(format, records); } catch (e) { return {error: `line ${e.line}: ${e.message}`}; }
      if (!found.measured.length) {
        const first = found.skipped[0];
        return {error: `line ${first.line}: ${first.record}: ${first.why}, and the paste holds no other run`};
      }
    }
    const valueOf = (s, found) => {
      if (found === undefined || found === null) return null;
      if (s.expr) return evaluate(s, found);
      if (s.values.length) { const pair = s.values.find(([from]) => from === found); return pair ? pair[1] : null; }
      return s.per !== 1 ? found / s.per : found;
    };
    const taken = [];
    for (const record of records) {
      const values = {}, dropped = {};
      for (const s of mine) {
        const v = valueOf(s, record.values[s.field]);
        if (s.optional && v !== null && !allowed(s.input, v)) dropped[s.input] = v;
        else if (v !== null || !s.optional) values[s.input] = v;
      }
      if (Object.entries(values).every(([k, v]) => v !== null && allowed(k, v))) {
        const notes = format.notes.filter(n => n.below in record.values && n.above in record.values
                                               && record.values[n.below] < record.values[n.above])
          .map(n => n.text.replace(/\{(\w+)\}/g, (_, k) => k in record.values ? String(record.values[k]) : "?"));
        taken.push({format: format.key, title: format.title, record: record.name, line: record.line, values, dropped, notes});
      }
    }
    // the first, and how many more the paste holds (a whole listing: one device's output picks another)
    if (taken.length) return Object.assign(taken[0], {more: taken.length - 1}, found);
    return {error: `line 1: no record of this ${format.title} has every value the box takes (${mine.map(s => s.field).join(", ")})`};
  }

  /* A number as the box's sentences write it: four significant digits. */
  const fourDigits = x => String(Number(x.toPrecision(4)));
  const percent = x => `${(100 * x).toFixed(1)}%`;

  /* What the box says of the reader's measurements at the page's state: each run's share of the model's ceiling
     (the same rows the chart draws). */
  function measuredText(name, said) {
    const rows = measuredRows(name);
    if (!rows.length) return "";
    const m = measuredSets.get(name).spec;
    const ceilings = rows.map(r => r.ceiling), shares = rows.map(r => r.share);
    const span = (xs, f) => {
      const low = Math.min(...xs), high = Math.max(...xs);
      return f(low) === f(high) ? f(low) : `${f(low)} to ${f(high)}`;
    };
    const ceiling = `the ${span(ceilings, fourDigits)} ${m.unit} ${m.title} ceiling at ${said()}`;
    if (rows.length === 1) {
      const r = rows[0];
      return `You measured ${fourDigits(r.value)} ${m.unit} (${r.source}, ${r.label}, transfers of ${r.size} bytes): ${percent(r.share)} of ${ceiling}.`;
    }
    return `Your ${rows.length} runs measured ${span(rows.map(r => r.value), fourDigits)} ${m.unit}: ${span(shares, percent)} of ${ceiling}.`;
  }

  /* The box's "From your machine": a paste read as the box's formats, its values set as the reader's own, a
     measurement drawn on the chapter's chart with its share of the model's ceiling. */
  function machineElement(spec, controls, cases) {
    const byInput = new Map(controls.map(c => [c.signal || c.key, c]));
    // a setting that picks the box's case (a USB device's generation) by a case column's value
    const caseSetting = new Map(spec.machine.settings.filter(s => s.case).map(s => [s.input, s]));
    const allowed = (input, value) => caseSetting.has(input) ? cases.has(input, value)
      : byInput.has(input) && !parse(byInput.get(input), String(value)).error;
    const values = () => Object.fromEntries((spec.machine.params || []).map(p => [p, state.get(byInput.get(p).key)]));
    const compiled = new Map();
    const evaluate = (setting, found) => {
      if (!compiled.has(setting.expr)) compiled.set(setting.expr, vegaFunction(setting.expr, spec.machine.params));
      return compiled.get(setting.expr)({}, values(), found);
    };
    const valueText = (input, value) => {
      if (caseSetting.has(input)) return `${caseSetting.get(input).label} ${value}`;
      const control = byInput.get(input);
      return `${control.label} ${value}${control.unit && control.unit !== control.label ? " " + control.unit : ""}`;
    };
    const measured = spec.machine.measured;
    if (measured && !measuredSets.has(measured.dataset)) {
      measuredSets.set(measured.dataset, {spec: measured, values, list: [],
                                          ceiling: vegaFunction(measured.ceiling, spec.machine.params)});
    }
    const area = h("textarea", {class: "goodput-machine-paste", rows: "4", spellcheck: "false",
                                "aria-label": "what your machine prints"});
    const status = h("p", {class: "goodput-machine-status", role: "status"});
    const line = h("span", {class: "goodput-measured-text"});
    const clear = h("button", {type: "button", class: "goodput-measured-clear", text: "Remove them"});
    const yours = h("p", {class: "goodput-measured", hidden: ""}, line, " ", clear);
    if (measured) yours.style.setProperty("--goodput-measured-color", measured.color);  // the points' colour
    const said = () => measured.say.map(input => valueText(input, state.get(byInput.get(input).key))).join(", ");
    const refresh = () => {
      if (!measured) return;
      const text = measuredText(measured.dataset, said);
      line.textContent = text;
      clear.textContent = measuredSets.get(measured.dataset).list.length === 1 ? "Remove it" : "Remove them";
      yours.hidden = !text;
    };
    clear.addEventListener("click", () => {
      measuredSets.get(measured.dataset).list = [];
      refresh();
      showMeasured(measured.dataset);
    });
    const formats = spec.machine.formats.map(f => f.title).join(", ");
    const read = () => {
      const text = area.value;
      if (!text.trim()) { status.textContent = ""; return; }
      const found = readPaste(spec.machine, text, allowed, evaluate);
      if (found.error) { status.textContent = `Not read: ${found.error}. Nothing changed.`; status.dataset.state = "error"; return; }
      const parts = [];
      for (const [input, value] of Object.entries(found.values)) {
        if (caseSetting.has(input)) cases.pick(input, value);
        else set(byInput.get(input).key, parse(byInput.get(input), String(value)).value);
        parts.push(valueText(input, value));
      }
      const left = Object.entries(found.dropped).map(([input, value]) =>
        ` Its ${valueText(input, value)} is outside the box's range: left as it was.`).join("");
      status.dataset.state = "read";
      if (found.measured) {
        // the paste's runs are the reader's measurements (a new paste of one replaces them)
        measuredSets.get(measured.dataset).list = found.measured.map(m => Object.assign({source: found.title}, m));
        const skipped = found.skipped.length ? ` ${found.skipped.length} passed over: ${found.skipped[0].why}.` : "";
        status.textContent = `Read from ${found.title}: ${found.measured.length} run${found.measured.length === 1 ? "" : "s"}`
          + (parts.length ? `; ${parts.join(", ")}` : "") + `, drawn on the chart.${skipped}${left}`;
        refresh();
        showMeasured(measured.dataset);
        return;
      }
      const more = found.more ? ` The paste holds ${found.more} more: paste one alone to take it instead.` : "";
      // what the record says is worth knowing: a link trained below its capability, MRRS below MPS
      const notes = found.notes.map(n => ` Note: ${n}.`).join("");
      status.textContent = `Read from ${found.title}, ${found.record} (line ${found.line}): ${parts.join(", ")}.${notes}${more}${left}`;
    };
    let timer = null;
    area.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(read, 250); });
    const what = measured ? ` A measurement appears on the chart with its share of the model's ceiling.` : "";
    const fold = h("details", {class: "goodput-yours-machine"}, h("summary", {text: "From your machine"}),
      h("p", {class: "goodput-machine-help", text: `Paste what ${formats} prints on your machine: the box takes its settings.${what} Nothing leaves the page.`}),
      area, status, yours);
    fold.read = read;
    fold.refresh = refresh;
    return fold;
  }

  /* A word as a shell reads it: as it is where it needs no quotes, else in single quotes (Python's shlex.quote). */
  function shellWord(text) {
    if (text === "") return "''";
    return /^[\w@%+=:,./-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\"'\"'") + "'";
  }

  /* The box's values as a goodput command line (goodput.render.box_command: BoxCommand.argv), its words as a shell
     reads them: each word's source is an input (the table's signal) or a column of the row the box shows. */
  function commandText(command, view, row) {
    const inputs = new Set(command.inputs);
    // the reader's list, where the box has one, by its name: its value in the page's state
    const valueOf = source => inputs.has(source) ? view.signal(source)
      : source === command.list ? (state.has(command.list) ? state.get(command.list) : command.listValue) : row[source];
    const words = [command.command];
    for (const w of command.words) {
      const holds = ([source, v]) => (Array.isArray(v) ? v : [v]).some(x => sameValue(valueOf(source), x));
      if ((w.when && !holds(w.when)) || (w.unless && holds(w.unless))) continue;
      if (w.source === undefined) { words.push(w.flag); continue; }
      let value = valueOf(w.source);
      if (w.values) {
        const pair = w.values.find(([box]) => sameValue(value, box));
        if (!pair) return null;  // a value the command has no word for: no command to copy
        value = pair[1];
      }
      const text = w.form.replace("{}", typeof value === "boolean" ? String(Number(value)) : String(value));
      if (w.flag) words.push(w.flag);
      words.push(text);
    }
    return ["goodput", ...words.map(shellWord)];
  }

  function showCommand(root, command, view, row) {
    const words = commandText(command, view, row);
    const text = words ? words.join(" ") : "";
    // a line breaks between words only, never at a word's own hyphens (--duplex): each word its own span
    const code = root.querySelector(".goodput-yours-command code");
    code.replaceChildren(...(words || []).flatMap((w, i) => [...(i ? [" "] : []), h("span", {text: w})]));
    root.dataset.command = text;
    const button = root.querySelector(".goodput-copy-command");
    if (button) button.disabled = !text;
  }

  function buildYours(root) {
    if (figures.has(root)) return;
    const spec = JSON.parse(root.querySelector("script.goodput-yours-spec").textContent);
    spec.controls.forEach(declare);
    const ownKeys = new Set(spec.answerControls || []);
    panel(root.querySelector(".goodput-controls"), spec.controls.filter(c => !ownKeys.has(c.key)));
    // a paste that picks a case (goodput.machine.grammar.Setting.case): the row with that value, the others of the
    // case columns kept where a row has them (a USB generation: the same packet payload)
    const cases = {
      has: (column, value) => rows.some(r => sameValue(r[column], value)),
      pick: (column, value) => {
        const current = rows.find(r => String(r.row_index) === chosen) || {};
        const keep = (spec.machine.cases || []).filter(c => c !== column);
        const matching = rows.filter(r => sameValue(r[column], value));
        const row = matching.find(r => keep.every(c => sameValue(r[c], current[c]))) || matching[0];
        if (row) { chosen = String(row.row_index); show(); }
      },
    };
    const machine = spec.machine ? machineElement(spec, spec.controls, cases) : null;
    if (machine) root.querySelector(".goodput-controls").after(machine);
    const values = root.querySelector(".goodput-yours-values");
    const pick = h("select", {class: "goodput-yours-case", "aria-label": "case"});
    let rows = [];
    let formulaOpen = false;
    // a table of the reader's links opens on the first of them (the first row, the catalogue's, without one)
    let chosen = spec.table.composed && spec.table.composed.leads ? "your-1" : String(spec.case);
    pick.addEventListener("change", () => { chosen = pick.value; show(); });
    const list = h("dl", {class: "goodput-yours-list"});
    // the answers in the reader's terms (goodput.render.calculation.Answers), where the chapter declares them
    const answers = h("dl", {class: "goodput-yours-answers"});
    const answered = spec.table.columns.some(c => c.kind === "answer");
    // "In your terms": its two controls (the goodput's unit, the bytes to move) in a row, the answers under them
    const terms = () => h("div", {class: "goodput-yours-terms", role: "group", "aria-label": "In your terms"},
      h("div", {class: "goodput-yours-terms-head"}, ...spec.controls.filter(c => ownKeys.has(c.key)).map(controlElement)),
      answers);
    // a list the box composes (CAN's messages) says what its rows add up to, under the values
    const totalled = spec.table.composed && spec.table.composed.total && spec.table.composed.total.column;
    const note = totalled ? h("p", {class: "goodput-composed-note", role: "status"}) : null;
    values.replaceChildren(h("label", {class: "goodput-yours-pick"}, h("span", {text: "For "}), pick), list,
                           ...(note ? [note] : []), ...(answered ? [terms()] : []));
    const readout = readoutElement();
    root.querySelector(".goodput-yours-title").after(readout);
    if (!boxReadout) boxReadout = {el: readout, keys: spec.controls.map(c => c.key)};
    const show = () => {
      const row = rows.find(r => String(r.row_index) === chosen) || rows[0];
      if (!row) return;
      chosen = String(row.row_index);
      pick.value = chosen;
      // the formula folds (the table under the chart shows it too): the box's first screen is its answers
      const formula = c => {
        const fold = h("details", {class: "goodput-yours-formula"}, h("summary", {text: "show"}), h("code", {text: row[c.key]}));
        fold.open = formulaOpen;
        fold.addEventListener("toggle", () => { formulaOpen = fold.open; });
        return fold;
      };
      const item = c => [
        h("dt", {text: c.heading}),
        h("dd", {"data-column": c.key.slice(5), class: c.kind === "calculation" ? "goodput-calculation" : "goodput-value"},
          c.kind === "calculation" ? formula(c) : h("strong", {text: cellText(row[c.key])}))];
      list.replaceChildren(...spec.table.columns.filter(c => c.kind === "value" || c.kind === "calculation").flatMap(item));
      answers.replaceChildren(...spec.table.columns.filter(c => c.kind === "answer").map(
        c => h("div", {class: "goodput-yours-answer"}, ...item(c))));
      root.dataset.row = chosen;
      if (spec.command) showCommand(root, spec.command, record.table.view, row);
      if (machine) machine.refresh();
      showRow(readout, spec.table, row);
      chosenCases.set(spec.table.name, chosen);
      tableReadouts.filter(r => r.name === spec.table.name).forEach(showTableReadout);
      if (boxReadout && boxReadout.el === readout) showMirrors();
    };
    const record = {root, spec, built: true};
    record.table = new Table(spec.table, shown => {
      rows = shown;
      // the box adds up the reader's rows; with none, the composer under it says what to do (the figure's note too)
      if (note) note.textContent = shown.some(r => r.order !== undefined && r.order !== null)
        ? composedNote(spec.table.composed, shown) : "";
      pick.replaceChildren(...shown.map(r => h("option", {value: String(r.row_index),
        text: caseText(spec.table, r)})));
      show();
    });
    figures.set(root, record);
    const copy = root.querySelector(".goodput-copy-link");
    if (lab) {
      // no address to copy in JupyterLab: the button goes, and the " · " before it
      copy.hidden = true;
      if (copy.previousSibling && copy.previousSibling.nodeType === Node.TEXT_NODE) copy.previousSibling.textContent = "";
    } else copy.addEventListener("click", event => copyText(new URL(addressOfState(), window.location.href).href, event.currentTarget));
    const copyCommand = root.querySelector(".goodput-copy-command");
    if (copyCommand) copyCommand.addEventListener("click", event => copyText(root.dataset.command, event.currentTarget));
    pending = Promise.all([pending, record.table.refresh()]).then(() => undefined);
  }

  function start() {
    stickyTop();
    window.addEventListener("resize", stickyTop);
    document.querySelectorAll(".goodput-yours").forEach(buildYours);
    document.querySelectorAll(".goodput-live").forEach(root => buildFigure(figureRecord(root)));
    writeAddress();
    for (const e of embeds) if (!e.figure) e.figure = figureOf(e.el);
    embeds.forEach(showLinkReadout);
    // the frame with the controls is painted first, then the charts and tables are drawn
    requestAnimationFrame(() => setTimeout(controlsShown, 0));
  }

  /* One figure or box, shown after the page was read (JupyterLab: by a cell that ran). */
  function startOne(root) {
    if (root.matches(".goodput-yours")) buildYours(root);
    else if (root.matches(".goodput-live")) buildFigure(figureRecord(root));
    for (const e of embeds) if (!e.figure) e.figure = figureOf(e.el);
    embeds.forEach(showLinkReadout);
  }

  /* JupyterLab: the chapter's figures as the book numbers them. A figure is a code cell whose metadata
   * names it (myst-nb's mystnb.figure: name and caption); jupyterlab-myst numbers the figures of Markdown
   * cells only and shows a {numref} to one of these as its bare label, marked "Cross Reference Not Found".
   * Each such figure gets "Figure n: caption" under its output, and each reference to it becomes a link
   * "Figure n" that scrolls to it, again whenever a cell is drawn anew. It needs the application in the
   * page (window.jupyterapp: make lab starts JupyterLab with expose_app_in_browser); without it the
   * references stay as jupyterlab-myst shows them. */
  const numbered = new WeakSet();

  function numberLabFigures(root) {
    const app = window.jupyterapp;
    if (!app || !app.shell) return;
    const panel = Array.from(app.shell.widgets("main")).find(w => w.content && w.content.widgets && w.node.contains(root));
    if (!panel || numbered.has(panel)) return;
    numbered.add(panel);
    const notebook = panel.content;
    const refresh = () => {
      const figs = new Map();
      notebook.widgets.forEach((cell, index) => {
        const meta = cell.model.getMetadata ? cell.model.getMetadata("mystnb") : null;
        const fig = meta && meta.figure;
        if (!fig || !fig.name) return;
        const number = figs.size + 1;
        figs.set(fig.name, {number, cell, index});
        const text = `Figure ${number}: ${fig.caption || ""}`.trim();
        let caption = cell.node.querySelector(":scope > .goodput-lab-caption");
        if (!caption) {
          caption = h("p", {class: "goodput-lab-caption", "data-figure": fig.name});
          cell.node.append(caption);
        }
        if (caption.textContent !== text) caption.textContent = text;
      });
      notebook.node.querySelectorAll('span[title="Cross Reference Not Found"]').forEach(span => {
        const fig = figs.get(span.textContent.trim());
        if (!fig) return;
        const link = h("a", {class: "goodput-lab-ref", href: "#", "data-figure": span.textContent.trim(),
                             text: `Figure ${fig.number}`});
        link.addEventListener("click", event => {
          event.preventDefault();
          const target = figs.get(link.dataset.figure);
          if (notebook.scrollToItem) notebook.scrollToItem(target.index, "start");
          else target.cell.node.scrollIntoView();
        });
        span.replaceWith(link);
      });
    };
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; refresh(); });
    }).observe(notebook.node, {childList: true, subtree: true});
    refresh();
  }

  /* Whether the parser is done with ``el``: a node after it is in the document. */
  function closed(el) {
    let node = el;
    while (node && !node.nextSibling) node = node.parentNode;
    return Boolean(node);
  }

  /* Each figure and box the parser is done with gets its controls now: a long page's first screen does not
     wait for the rest of it, nor for its scripts, to be read (start() then does what is left). */
  function buildRead() {
    document.querySelectorAll(".goodput-yours, .goodput-live").forEach(root => {
      if (!closed(root)) return;
      if (root.matches(".goodput-yours")) buildYours(root);
      else buildFigure(figureRecord(root));
    });
  }

  // the book draws every figure of the page as it is read; in JupyterLab each figure's loader calls scan(root)
  if (!lab) {
    if (document.readyState === "loading") {
      const reading = new MutationObserver(buildRead);
      reading.observe(document, {childList: true, subtree: true});
      document.addEventListener("DOMContentLoaded", () => {
        reading.disconnect();
        start();
      });
    } else {
      start();
    }
  } else {
    controlsShown();
  }

  window.goodputLive = {
    state,
    /* goodput.machine.grammar.settings_of in the page, for the tests: the box's spec.machine, a paste, and the
       box's inputs a setting's expression reads (every value allowed). */
    readPaste: (machine, text, inputs) => readPaste(machine, text, () => true, (setting, found) =>
      vegaFunction(setting.expr, machine.params)({}, inputs || {}, found)),
    lab: Boolean(lab),
    /* Draws ``root``, a figure or box shown since the page was read (JupyterLab: a cell's new output). */
    scan(root) {
      startOne(root);
      numberLabFigures(root);
      return window.goodputLive.settled();
    },
    /* Resolves once every chart and table shows the current state. */
    settled() {
      const seen = pending;
      return seen.then(() => (seen === pending ? undefined : window.goodputLive.settled()));
    },
    /* Resolves once the page's address holds the current state as well. */
    addressed() {
      return window.goodputLive.settled().then(() => (addressTimer === null ? undefined
        : new Promise(resolve => addressWaiters.push(resolve)).then(() => window.goodputLive.addressed())));
    },
  };
})();
