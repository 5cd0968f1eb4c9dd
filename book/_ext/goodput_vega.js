/* Compiles the book's charts from Vega-Lite to Vega, for book/_ext/goodput_vega.py.
 *
 * Usage: node goodput_vega.js VENDOR_DIR LIVE_SCRIPT
 * VENDOR_DIR holds the vendored vega.min.js and vega-lite.min.js (the versions the pages would run);
 * LIVE_SCRIPT is the book's page script (book/_static/goodput-live.js), whose chart theme (the block
 * between its "the charts' theme" markers) is read from it, so there is one copy of it.
 *
 * Reads one JSON request a line on stdin, writes one JSON answer a line on stdout:
 *   {"spec": <Vega-Lite>, "spread": {"<dataset>": ["<column>", ...]}}
 *   -> {"vega": <Vega, light theme>, "dark": [[path, value] | [path], ...], "single": bool, "titleString": bool,
 *       "encoding": {"x": {"title"}, "y": {"field", "title"}} of the view drawing a list of links, or null}
 * The chart is first given what goodput-live.js's prepare() gives every chart whatever the page's state
 * (sized to its column when it is one view, tick labels that do not overlap, the text sizes and the light
 * theme; the figure's controls in place of altair's sliders; a list of links' rows given spread, their
 * flatten left out), then compiled. "dark" lists the changes that turn it into the dark theme's compile:
 * a path (keys and indices) and the value there, or a path alone for a key the dark compile has not.
 * A NaN in the data is written as the string "__goodput_NaN__" both ways (JSON has no NaN).
 */
"use strict";

const fs = require("fs");
const path = require("path");
const Module = require("module");
const readline = require("readline");

const [vendor, liveScript] = process.argv.slice(2);
const vega = require(path.join(path.resolve(vendor), "vega.min.js"));
const load = Module.prototype.require;
Module.prototype.require = function (id) { return id === "vega" ? vega : load.apply(this, arguments); };
const vegaLite = require(path.join(path.resolve(vendor), "vega-lite.min.js"));
Module.prototype.require = load;
vegaLite.compile({mark: "point"}, {logger: quiet()});  // a first compile, before any timing matters

const source = fs.readFileSync(liveScript, "utf8");
const block = /\/\/ --- the charts' theme[^\n]*\n([\s\S]*?)\/\/ --- end of the charts' theme ---/.exec(source);
if (!block) throw new Error(`${liveScript}: no block between the charts' theme markers`);
const {themed} = new Function(`${block[1]}; return {TEXT_SIZES, THEMES, themed};`)();

function quiet() {
  // vega-lite's warnings (a fit-y dropped for a discrete height) are the same on the page: not the build's to print
  const logger = {level() { return logger; }, error(...m) { console.error(...m); return logger; },
                  warn() { return logger; }, info() { return logger; }, debug() { return logger; }};
  return logger;
}

/* As goodput-live.js's isSingle: whether the chart is one view (or layers of one). */
function isSingle(spec) {
  return !("vconcat" in spec || "hconcat" in spec || "concat" in spec || "facet" in spec || "repeat" in spec
           || (spec.encoding && (spec.encoding.row || spec.encoding.column || spec.encoding.facet)));
}

function namedViews(spec, name, found = []) {
  if (spec && typeof spec === "object") {
    if (spec.data && spec.data.name === name && Array.isArray(spec.data.values)) found.push(spec);
    for (const key of ["layer", "vconcat", "hconcat", "concat"]) (spec[key] || []).forEach(s => namedViews(s, name, found));
  }
  return found;
}

/* What prepare() in goodput-live.js does to every chart whatever the state, with ``dark``'s theme. */
function prepared(spec, spread, params, dark) {
  spec = JSON.parse(JSON.stringify(spec));
  for (const [dataset, columns] of Object.entries(spread || {})) {
    const unflatten = view => {
      if (view.transform) view.transform = view.transform.filter(t => !(t.flatten && t.flatten.every(f => columns.includes(f))));
      (view.layer || []).filter(l => !l.data).forEach(unflatten);
    };
    namedViews(spec, dataset).forEach(unflatten);
  }
  for (const param of spec.params || []) if ((params || []).includes(param.name)) delete param.bind;
  if (isSingle(spec) && typeof spec.width === "number") {
    spec.width = "container";
    spec.autosize = {type: "fit-x", contains: "padding"};
  }
  spec.config = Object.assign({}, spec.config || {});
  spec.config.axis = Object.assign({labelOverlap: "greedy", labelSeparation: 6}, spec.config.axis || {});
  spec.config = themed(spec.config, dark);
  return spec;
}

/* The changes that turn ``a`` into ``b``: [[path, value]] to set, [[path]] to delete. */
function changes(a, b, at = [], out = []) {
  const object = x => x !== null && typeof x === "object";
  if (object(a) && object(b) && Array.isArray(a) === Array.isArray(b) && (!Array.isArray(a) || a.length === b.length)) {
    for (const key of Object.keys(b)) changes(a[key], b[key], [...at, Array.isArray(b) ? Number(key) : key], out);
    if (!Array.isArray(a)) for (const key of Object.keys(a)) if (!(key in b)) out.push([[...at, key]]);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push([at, b]);
  }
  return out;
}

/* The axes of the view drawing a list of links (goodput-live.js's showLinkReadout names them): x's title, y's
   field and title; null for a chart with no such list. */
function linksEncoding(spec, spread) {
  const dataset = Object.keys(spread || {})[0];
  const view = dataset === undefined ? null : namedViews(spec, dataset)[0];
  const encoding = view && (view.encoding || ((view.layer || []).find(l => l.encoding) || {}).encoding);
  if (!encoding || !encoding.y) return null;
  return {x: {title: encoding.x && encoding.x.title}, y: {field: encoding.y.field, title: encoding.y.title}};
}

function compile(spec) {
  return vegaLite.compile(spec, {logger: quiet()}).spec;
}

const lines = readline.createInterface({input: process.stdin, terminal: false});
lines.on("line", line => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  let answer;
  try {
    const light = compile(prepared(request.spec, request.spread, request.params, false));
    const dark = compile(prepared(request.spec, request.spread, request.params, true));
    const title = request.spec.title;
    answer = {vega: light, dark: changes(light, dark), single: isSingle(request.spec),
              titleString: typeof title === "string", encoding: linksEncoding(request.spec, request.spread)};
  } catch (err) {
    answer = {error: String(err && err.stack || err)};
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
