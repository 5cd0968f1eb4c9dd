"""A live figure in the page: its controls, its chart and its calculated table, as one element.

:class:`LiveFigure` is what a chapter's live chart cell returns. Its HTML is a
``<div class="goodput-live" role="figure">`` holding

- a JSON description (``script.goodput-live-spec``): the controls
  (:func:`goodput.render.controls.control`), and for a chapter's calculation the
  Vega dataflow of its table (:meth:`Calculation.table_spec`): the same printed
  expressions the chart evaluates, so the table's numbers and the chart's are
  one computation;
- an empty panel the book's script (``book/_static/goodput-live.js``) fills with
  the controls, above the chart so it is always in view (under it for a page that opens
  with the chart, ``controls_below``);
- altair's chart output, sized to the column;
- the place for the calculated table, an HTML table the script fills and
  refreshes on every input.

:class:`YourLink` is the box at the top of a chapter: the values of one case, the
chapter's controls under them (the same state as every figure on the page), and a
link down to the figure. The page state lives in the address (``?lanes=8``), so a link
reproduces what its sender saw.

In JupyterLab nothing puts the book's scripts on the page, so each figure and box
carries a small loader (:func:`lab_loader`): the book has its script already and the
loader does nothing there; in JupyterLab (once the cell has run, as JupyterLab runs
only a trusted output's scripts) it loads vega, vega-lite, vega-embed and the book's
script and style from the repository, which ``make lab`` serves (JupyterLab resolves
the loader's ``<link>`` to its ``/files/`` address: nothing comes from another host),
and the figure is the book's: the same controls, Vega parameters and calculated table.
A notebook's saved outputs run no script until it is trusted: the panel then shows
:data:`NO_SCRIPT`.
"""

from __future__ import annotations

import html
import itertools
import json
from typing import Protocol, Sequence

import altair as alt
from altair.vegalite.v6 import display as _altair_display

from goodput.machine.grammar import Setting
from goodput.render.box_command import BoxCommand
from goodput.render.controls import Choice, LinkList, Slider, control

__all__ = ["LiveFigure", "YourLink", "CalculatedTable", "NO_SCRIPT", "chart_for_column", "lab_loader",
           "use_renderer", "RENDERER"]


class CalculatedTable(Protocol):
    """What a live figure and the box read of the calculated table they show: a chapter's
    :class:`~goodput.render.calculation.Calculation` is one."""

    title: str
    #: The box's goodput command, if the chapter's model has one.
    command: BoxCommand | None
    #: The settings the box reads from a machine's own report (``lspci -vv``), if any.
    machine: Sequence[Setting]

    def table_spec(self, prefix: str = "", box: bool = False) -> dict: ...

    def box_controls(self) -> list: ...

    def answer_controls(self) -> list: ...

    def headline_case(self) -> int: ...

    def command_spec(self) -> dict: ...

    def machine_spec(self) -> dict: ...


#: What the panel says where the book's script does not run.
NO_SCRIPT = ("The controls and the calculated table are drawn by the book's script; in JupyterLab, run "
             "this cell (make lab serves the script) or use the Python panel of this section.")

#: The files the loader brings into JupyterLab, from the repository root, in the order they load
#: (as ``_config.yml``'s ``html_js_files`` orders them in the book), and the style sheet.
LAB_SCRIPTS = ("_vendor/vega/vega.min.js", "_vendor/vega/vega-lite.min.js", "_vendor/vega/vega-embed.min.js",
               "book/_static/goodput-live.js")
LAB_STYLE = "book/_static/goodput-live.css"
#: The repository root seen from a chapter's notebook (``notebooks/``), as JupyterLab resolves a link.
_ROOT_FROM_NOTEBOOK = "../"

# Runs where the figure's HTML lands. In the book the page loaded the script already
# (window.goodputLive), so it returns. In JupyterLab (its page holds jupyter-config-data) it
# tells altair's output that vega is there (VEGA_DEBUG, so altair fetches nothing from its CDN)
# and puts a vegaEmbed in the page that waits for the scripts and hands altair's chart to the
# book's script (goodputLab.embed, its wrapper of vega-embed's own, which the loader keeps out of
# window so no chart is drawn without the wrapper). The first figure of the page reads the address
# JupyterLab gave its <link> (the repository's files, /files/...) and loads the scripts one by
# one; every figure then asks the book's script to draw what is new on the page.
_LOADER = """(function () {
  var link = document.currentScript.previousElementSibling;
  if (window.goodputLive ? !window.goodputLive.lab : !document.getElementById("jupyter-config-data")) return;
  var lab = window.goodputLab = window.goodputLab || {};
  window.VEGA_DEBUG = Object.assign(window.VEGA_DEBUG || {}, VERSIONS);
  if (!lab.ready) {
    lab.waiting = function (el, spec, opt) {
      return lab.ready.then(function () { return lab.embed(el, spec, opt); });
    };
    window.vegaEmbed = lab.waiting;
    lab.ready = new Promise(function (resolve, reject) {
      var asked = Date.now();
      (function resolved() {
        var href = link.getAttribute("href") || "";
        if (/^(\\/|https?:)/.test(href)) return resolve(href.split("?")[0].slice(0, -FIRST.length));
        if (Date.now() - asked > 30000) return reject(new Error("goodput: JupyterLab gave no address to " + FIRST));
        setTimeout(resolved, 25);
      })();
    }).then(function (root) {
      var style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = root + STYLE;
      document.head.appendChild(style);
      return SCRIPTS.reduce(function (before, file) {
        return before.then(function () {
          return new Promise(function (resolve, reject) {
            var s = document.createElement("script");
            s.src = root + file;
            s.onload = function () {
              if (window.vegaEmbed !== lab.waiting) {
                lab.vegaEmbed = window.vegaEmbed;
                window.vegaEmbed = lab.waiting;
              }
              resolve();
            };
            s.onerror = function () { reject(new Error("goodput: cannot load " + s.src)); };
            document.head.appendChild(s);
          });
        });
      }, Promise.resolve());
    });
    lab.ready.catch(function (err) { console.error(err); });
  }
  lab.ready.then(function () { window.goodputLive.scan(link.parentElement); });
})();"""


def lab_loader() -> str:
    """The HTML that brings a live figure's scripts into JupyterLab and does nothing in the book."""
    versions = {"vega_version": _altair_display.VEGA_VERSION,
                "vegalite_version": _altair_display.VEGALITE_VERSION,
                "vegaembed_version": _altair_display.VEGAEMBED_VERSION}
    first = LAB_SCRIPTS[0]
    script = (_LOADER.replace("VERSIONS", json.dumps(versions)).replace("FIRST", json.dumps(first))
              .replace("STYLE", json.dumps(LAB_STYLE)).replace("SCRIPTS", json.dumps(list(LAB_SCRIPTS))))
    # rel="goodput-files": a browser fetches nothing for it (the book); JupyterLab resolves its address
    return (f'<link rel="goodput-files" href="{_ROOT_FROM_NOTEBOOK}{first}">'
            f'<script type="text/javascript">{script}</script>')

#: The name of altair's renderer that :func:`use_renderer` enables.
RENDERER = "goodput"


def _render(spec: dict, **metadata) -> dict[str, str]:
    """altair's own HTML of a chart (in the book it draws with the page's vega-embed), with the loader in
    front of it, so that in JupyterLab a chart with no live figure draws offline too."""
    bundle = dict(_altair_display.html_renderer(spec, **metadata))
    bundle["text/html"] = lab_loader() + bundle["text/html"]
    return bundle


def use_renderer() -> None:
    """Make every altair chart the notebooks show carry the loader (:func:`goodput.render.notebook.setup` does).
    Without it a chart that no live figure precedes would fetch vega from altair's CDN in JupyterLab."""
    if RENDERER not in alt.renderers.names():
        alt.renderers.register(RENDERER, _render)
    alt.renderers.enable(RENDERER)


_ids = itertools.count(1)


def _chart_html(chart) -> str:
    # the figure carries the loader once, in front of it: the chart inside is altair's HTML alone
    with alt.renderers.enable("default"):
        bundle = chart._repr_mimebundle_()
    if isinstance(bundle, tuple):
        bundle = bundle[0]
    return bundle["text/html"]


def _json_script(data: dict, cls: str) -> str:
    text = json.dumps(data, allow_nan=False, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" class="{cls}">{text}</script>'


class LiveFigure:
    """A chart with its controls and (optionally) a chapter's calculated table under it.

    Parameters
    ----------
    chart : altair chart
        The chart, its parameters attached (they carry altair's sliders for JupyterLab).
    controls : sequence of Slider, Choice or LinkList
        Every input the chart and the table use, in the order the panel shows them.
    title : str
        The figure's caption (wraps with the column, unlike a chart title).
    calculation : CalculatedTable, optional
        The chapter's calculation whose table goes under the chart.
    prefix : str
        Prefix of the state keys, for a figure whose inputs are not the page's others of the
        same name (two fits of the same model on one page).
    figure_id : str, optional
        The element's id (a link target); a numbered one otherwise.
    controls_below : bool
        The panel under the chart instead of above it: for a page that opens with the chart, whose
        controls are many (a list of links to compose) and would push the chart out of the first screen.
    """

    def __init__(self, chart, controls: Sequence[Slider | Choice | LinkList], title: str,
                 calculation: CalculatedTable | None = None, prefix: str = "", figure_id: str | None = None,
                 controls_below: bool = False):
        names = [c.name for c in controls]
        if len(set(names)) != len(names):
            raise ValueError(f"{title}: a control is declared twice: {names}")
        self.chart = chart
        self.controls = list(controls)
        self.title = title
        self.calculation = calculation
        self.prefix = prefix
        self.id = figure_id or f"goodput-figure-{next(_ids)}"
        self.controls_below = controls_below

    @classmethod
    def of_layers(cls, layers: Sequence, controls: Sequence[Slider | Choice | LinkList], title: str,
                  properties: dict | None = None, **figure) -> "LiveFigure":
        """The figure of ``layers`` (altair charts) with ``controls`` attached once, at the top, and the
        chart sized to its column; ``figure`` goes to the constructor (calculation, prefix, id)."""
        params = [p for p in (c.param() for c in controls) if p is not None]
        chart = alt.layer(*layers).properties(**(properties or {}))
        chart = chart.add_params(*params) if params else chart
        return cls(chart_for_column(chart), controls, title, **figure)

    def spec(self) -> dict:
        """The JSON the page's script builds the figure from."""
        out = {"title": self.title, "controls": [control(c, self.prefix) for c in self.controls]}
        if self.calculation is not None:
            out["table"] = self.calculation.table_spec(self.prefix)
        return out

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self._repr_html_(), "text/plain": f"<live figure: {self.title}>"}

    def _repr_html_(self) -> str:
        table = ""
        if self.calculation is not None:
            table = (f'<div class="goodput-calc" aria-live="polite"><p class="goodput-calc-title">'
                     f'{html.escape(self.calculation.title)}</p></div>')
        controls = f'<div class="goodput-controls"><p class="goodput-no-script">{html.escape(NO_SCRIPT)}</p></div>'
        chart = f'<div class="goodput-chart">{_chart_html(self.chart)}</div>'
        return (f'<div class="goodput-live" id="{self.id}" role="figure" aria-labelledby="{self.id}-caption">'
                f'<p class="goodput-caption" id="{self.id}-caption">{html.escape(self.title)}</p>'
                f'{_json_script(self.spec(), "goodput-live-spec")}{lab_loader()}'
                + (chart + controls if self.controls_below else controls + chart) + f'{table}</div>')


class YourLink:
    """The box at the top of a chapter: one case's values, the controls under them, a link to the figure.

    The values come first, under the box's title: a chapter with many inputs (PCI Express has eight)
    would otherwise push its answer out of the first screen."""

    def __init__(self, calculation: CalculatedTable, target: str):
        self.calculation = calculation
        self.target = target

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self._repr_html_(), "text/plain": f"<your link: {self.calculation.title}>"}

    def spec(self) -> dict:
        calc = self.calculation
        controls = [control(c) for c in calc.box_controls()]
        return {"title": calc.title, "controls": controls, "table": calc.table_spec("", box=True),
                # the answers' own controls (the bytes to move, the goodput's unit) go with the answers
                "answerControls": [control(c)["key"] for c in calc.answer_controls()],
                "case": calc.headline_case(),
                **({"command": calc.command_spec()} if calc.command is not None else {}),
                **({"machine": calc.machine_spec()} if calc.machine else {})}

    def _repr_html_(self) -> str:
        calc = self.calculation
        # the box's values as a goodput command line, where the chapter's model has one: the script writes it
        command, command_line = "", ""
        if calc.command is not None:
            command = ' · <button type="button" class="goodput-copy-command">Copy as command</button>'
            command_line = ('<p class="goodput-yours-command"><code aria-label="as a command">'
                            f'goodput {html.escape(calc.command.command)} …</code></p>')
        return (f'<aside class="goodput-yours" aria-label="your link">'
                f'<p class="goodput-yours-title">Your link: {html.escape(calc.title)}</p>'
                f'{_json_script(self.spec(), "goodput-yours-spec")}{lab_loader()}'
                f'<div class="goodput-yours-values" aria-live="polite"></div>'
                f'<div class="goodput-controls"><p class="goodput-no-script">{html.escape(NO_SCRIPT)}</p></div>'
                f'<p class="goodput-yours-links"><a href="#{html.escape(self.target)}">How this is '
                f'calculated</a> · <button type="button" class="goodput-copy-link">Copy link to these '
                f'values</button>{command}</p>{command_line}</aside>')


def chart_for_column(chart):
    """``chart`` sized to the width of its column: the page gives it the column, not a pixel count."""
    return chart.properties(width="container", autosize=alt.AutoSizeParams(type="fit-x", contains="padding")
                            ).configure_legend(orient="bottom", columns=2, labelLimit=260)

