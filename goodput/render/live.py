"""A live figure in the page: its controls, its chart and its calculated table, as one element.

:class:`LiveFigure` is what a chapter's live chart cell returns. Its HTML is a
``<div class="goodput-live" role="figure">`` holding

- a JSON description (``script.goodput-live-spec``): the controls
  (:func:`goodput.render.controls.control`), and for a chapter's calculation the
  Vega dataflow of its table (:meth:`Calculation.table_vega`): the same printed
  expressions the chart evaluates, so the table's numbers and the chart's are
  one computation;
- an empty panel the book's script (``book/_static/goodput-live.js``) fills with
  the controls, above the chart so it is always in view;
- altair's chart output, sized to the column;
- the place for the calculated table, an HTML table the script fills and
  refreshes on every input.

:class:`YourLink` is the box at the top of a chapter: the chapter's controls (the
same state as every figure on the page), the values of one case, and a link down
to the figure. The page state lives in the address (``?lanes=8``), so a link
reproduces what its sender saw.

Without the book's script (JupyterLab, which has the Python panels) the chart
keeps altair's own sliders and the panel shows a note instead.
"""

from __future__ import annotations

import html
import itertools
import json
from typing import TYPE_CHECKING, Sequence

import altair as alt

from .charts import Choice, Slider
from .controls import control

if TYPE_CHECKING:
    from .calculation import Calculation

__all__ = ["LiveFigure", "YourLink", "NO_SCRIPT", "chart_for_column"]

#: What the panel says where the book's script does not run.
NO_SCRIPT = ("The controls and the calculated table are drawn by the book's script; in JupyterLab, "
             "use the chart's own sliders or the Python panel of this section.")

_ids = itertools.count(1)


def _chart_html(chart) -> str:
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
    controls : sequence of Slider or Choice
        Every input the chart and the table use, in the order the panel shows them.
    title : str
        The figure's caption (wraps with the column, unlike a chart title).
    calculation : Calculation, optional
        The chapter's calculation whose table goes under the chart.
    prefix : str
        Prefix of the state keys, for a figure whose inputs are not the page's others of the
        same name (two fits of the same model on one page).
    figure_id : str, optional
        The element's id (a link target); a numbered one otherwise.
    """

    def __init__(self, chart, controls: Sequence[Slider | Choice], title: str,
                 calculation: "Calculation | None" = None, prefix: str = "", figure_id: str | None = None):
        names = [c.name for c in controls]
        if len(set(names)) != len(names):
            raise ValueError(f"{title}: a control is declared twice: {names}")
        self.chart = chart
        self.controls = list(controls)
        self.title = title
        self.calculation = calculation
        self.prefix = prefix
        self.id = figure_id or f"goodput-figure-{next(_ids)}"

    @classmethod
    def of_layers(cls, layers: Sequence, controls: Sequence[Slider | Choice], title: str,
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
        return (f'<div class="goodput-live" id="{self.id}" role="figure" aria-labelledby="{self.id}-caption">'
                f'<p class="goodput-caption" id="{self.id}-caption">{html.escape(self.title)}</p>'
                f'{_json_script(self.spec(), "goodput-live-spec")}'
                f'<div class="goodput-controls"><p class="goodput-no-script">{html.escape(NO_SCRIPT)}</p></div>'
                f'<div class="goodput-chart">{_chart_html(self.chart)}</div>{table}</div>')


class YourLink:
    """The box at the top of a chapter: its controls, one case's values, a link to the derivation."""

    def __init__(self, calculation: "Calculation", target: str):
        self.calculation = calculation
        self.target = target

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self._repr_html_(), "text/plain": f"<your link: {self.calculation.title}>"}

    def spec(self) -> dict:
        calc = self.calculation
        controls = [control(c) for c in (*calc.inputs, *calc.choices)]
        return {"title": calc.title, "controls": controls, "table": calc.table_spec(""),
                "case": calc.headline_case()}

    def _repr_html_(self) -> str:
        calc = self.calculation
        return (f'<aside class="goodput-yours" aria-label="your link">'
                f'<p class="goodput-yours-title">Your link: {html.escape(calc.title)}</p>'
                f'{_json_script(self.spec(), "goodput-yours-spec")}'
                f'<div class="goodput-controls"><p class="goodput-no-script">{html.escape(NO_SCRIPT)}</p></div>'
                f'<div class="goodput-yours-values" aria-live="polite"></div>'
                f'<p class="goodput-yours-links"><a href="#{html.escape(self.target)}">How this is '
                f'calculated</a> · <button type="button" class="goodput-copy-link">Copy link to these '
                f'values</button></p></aside>')


def chart_for_column(chart):
    """``chart`` sized to the width of its column: the page gives it the column, not a pixel count."""
    return chart.properties(width="container", autosize=alt.AutoSizeParams(type="fit-x", contains="padding")
                            ).configure_legend(orient="bottom", columns=2, labelLimit=260)

