"""A chapter's calculated table, live wherever it is read: the page, JupyterLab and a workbook.

A :class:`Calculation` names a chapter's inputs (sliders over the model's
:class:`~goodput.params.Parameter` ranges), its cases (one row per payload
size, line code, ...) and its outputs (sympy expressions). Everything else is
printed from those expressions:

- :meth:`Calculation.live` binds the outputs to altair sliders (Vega expressions),
  for the chapter's chart to layer marks on;
- :meth:`Calculation.table` is the calculated table in the page: the case, the
  values, and a *calculation* column showing the formula with the current numbers in
  it (as the source documents print theirs), all recomputed in the browser;
- :meth:`Calculation.panel` is the same table as an ipywidgets panel;
- :mod:`goodput.render.workbook` writes it as a workbook of live formulas.

``numeric`` is goodput's own numeric function for a case; the tests hold the
page, the panel and the recalculated workbook to it.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import altair as alt
import pandas as pd
import sympy as sp

from ..spreadsheet import SpreadsheetPrinter, number_text
from .charts import Choice, LiveModel, Slider, live_model
from .vega import vega_expr

__all__ = ["Output", "Calculation", "value_text"]

ROW = "row_index"


@dataclass(frozen=True)
class Output:
    """One calculated column: its name in the data, its expression, title, unit and decimals shown."""

    name: str
    expr: sp.Expr
    title: str
    unit: str
    digits: int = 3

    @property
    def heading(self) -> str:
        """The column's heading: title and unit."""
        return f"{self.title} ({self.unit})" if self.unit else self.title


def value_text(value: float, digits: int) -> str:
    """``value`` to ``digits`` decimals, trailing zeros cut (d3's ``.{digits}~f``)."""
    text = f"{float(value):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class _Marked(SpreadsheetPrinter):
    """The spreadsheet printer with markers for symbols and Piecewise branches.

    A symbol prints as ``\x00i\x00`` (its number goes in later); a Piecewise as
    ``\x01k\x01``, branch ``k`` keeping each condition with its printed expression,
    so the calculation column can show only the branch in effect.
    """

    def __init__(self, symbols: Sequence[sp.Symbol]):
        super().__init__({s: f"\x00{i}\x00" for i, s in enumerate(symbols)})
        self.symbols = list(symbols)
        self.branches: list[list[tuple[Any, str]]] = []

    def _print_Piecewise(self, expr):
        if expr.args[-1].cond != sp.true:
            raise ValueError("a Piecewise needs a final (expr, True) branch")
        self.branches.append([(c, self._print(e)) for e, c in expr.args])
        return f"\x01{len(self.branches) - 1}\x01"


def _wrap(title: str, chars: int) -> list[str]:
    """``title`` in lines of at most ``chars`` characters, broken between words."""
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


@dataclass(frozen=True)
class _Branch:
    """A Piecewise in a template: (condition, pieces) in order, the last condition true."""

    arms: tuple


def _pieces(text: str, printer: _Marked) -> list:
    """Split printed ``text`` into literal strings, symbols and :class:`_Branch` nodes."""
    out: list = []
    for i, chunk in enumerate(text.split("\x01")):
        if i % 2:
            out.append(_Branch(tuple((c, _pieces(t, printer)) for c, t in printer.branches[int(chunk)])))
            continue
        for j, part in enumerate(chunk.split("\x00")):
            out.append(printer.symbols[int(part)] if j % 2 else part)
    return [p for p in out if p != ""]


def _template(expr: sp.Expr, symbols: Sequence[sp.Symbol]) -> list:
    """``expr`` printed as a formula: literal text, the symbols standing in it, and its branches."""
    printer = _Marked(symbols)
    return _pieces(printer.doprint(expr), printer)


def _fill(pieces: list, subs: Mapping[sp.Symbol, float]) -> str:
    """The template with numbers in place of symbols, each branch replaced by the one in effect."""
    out = []
    for p in pieces:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, _Branch):
            out.append(next(_fill(t, subs) for c, t in p.arms if c == sp.true or bool(c.subs(subs))))
        else:
            out.append(number_text(subs[p]))
    return "".join(out)


@dataclass(frozen=True)
class Calculation:
    """A chapter's calculated table: cases x outputs, live on the inputs.

    Parameters
    ----------
    chapter : str
        The chapter (its notebook's name) the calculation belongs to.
    name : str
        Name of the inline dataset in the page (and the prefix of the table's marks).
    title : str
        What the table calculates, as its heading says it.
    cases : DataFrame
        One row per case; ``shown`` names the columns a reader sees.
    shown : mapping
        Case columns shown in the table and the workbook: column -> title.
    fields : mapping of Symbol to str
        Symbols taking their value from a column of ``cases``.
    inputs : sequence of Slider
        The chapter's assumptions: sliders in the page, named cells in the workbook.
    outputs : sequence of Output
        Calculated columns; the first one's formula is the table's calculation column.
    numeric : callable
        ``numeric(inputs, case)`` -> {output name: value} from goodput's numeric
        functions, with ``inputs`` by parameter name and ``case`` a row of ``cases``.
    choices : sequence of Choice
        Drop-downs the chart and ``row_filter`` use (not inputs of the model).
    row_filter : str
        Vega expression picking the rows the page's table shows (empty: all).
    """

    chapter: str
    name: str
    title: str
    cases: pd.DataFrame
    shown: Mapping[str, str]
    fields: Mapping[sp.Symbol, str]
    inputs: Sequence[Slider]
    outputs: Sequence[Output]
    numeric: Callable[[Mapping[str, float], Mapping[str, Any]], Mapping[str, float]]
    choices: Sequence[Choice] = field(default_factory=tuple)
    row_filter: str = ""

    def __post_init__(self):
        known = set(self.fields) | {s.parameter.symbol for s in self.inputs}
        for out in self.outputs:
            missing = out.expr.free_symbols - known
            if missing:
                raise ValueError(f"{self.chapter}: output {out.name} uses {', '.join(sorted(map(str, missing)))}, "
                                 "which is neither an input nor a case column")
        for column in list(self.shown) + list(self.fields.values()):
            if column not in self.cases.columns:
                raise ValueError(f"{self.chapter}: no case column {column!r}")

    # --- values -----------------------------------------------------------------------------

    def defaults(self) -> dict[str, float]:
        """Each input's starting value, by parameter name."""
        return {s.name: s.value if s.value is not None else s.parameter.default for s in self.inputs}

    def input_values(self, **values: float) -> dict[str, float]:
        """The defaults with ``values`` in their place, each checked against its slider's range."""
        unknown = set(values) - {s.name for s in self.inputs}
        if unknown:
            raise ValueError(f"{self.chapter} has no input {', '.join(sorted(unknown))}")
        out = self.defaults()
        for s in self.inputs:
            if s.name in values:
                out[s.name] = s.check(values[s.name])
        return out

    def substitution(self, inputs: Mapping[str, float], case: Mapping[str, Any]) -> dict[sp.Symbol, float]:
        subs = {s.parameter.symbol: inputs[s.name] for s in self.inputs}
        subs.update({sym: case[col] for sym, col in self.fields.items()})
        return subs

    def evaluate(self, inputs: Mapping[str, float], case: Mapping[str, Any]) -> dict[str, float]:
        """Every output of ``case`` from the sympy expressions (what every printed formula computes)."""
        subs = self.substitution(inputs, case)
        return {o.name: float(o.expr.subs(subs)) for o in self.outputs}

    def formula_text(self, inputs: Mapping[str, float], case: Mapping[str, Any]) -> str:
        """The first output's formula with the numbers of ``case`` in it, as the table shows it."""
        return _fill(self._template(), self.substitution(inputs, case))

    def _template(self) -> list:
        symbols = sorted(self.outputs[0].expr.free_symbols, key=str)
        return _template(self.outputs[0].expr, symbols)

    def records(self) -> list[dict]:
        return [dict(r, **{ROW: i}) for i, r in enumerate(self.cases.to_dict(orient="records"))]

    # --- the page -----------------------------------------------------------------------------

    def live(self) -> LiveModel:
        """The outputs bound to the sliders over every case, for a chart to layer marks on."""
        cases = pd.DataFrame(self.records())
        return live_model(cases, {o.name: o.expr for o in self.outputs}, self.inputs, self.fields,
                          choices=self.choices, name=self.name)

    def _formula_vega(self) -> str:
        """The calculation column as a Vega expression: text joined with the live numbers."""
        params = {s.parameter.symbol: s.name for s in self.inputs}

        def joined(pieces: list) -> str:
            parts = []
            for p in pieces:
                if isinstance(p, str):
                    parts.append(json.dumps(p))
                elif isinstance(p, _Branch):
                    out = joined(p.arms[-1][1])
                    for c, t in reversed(p.arms[:-1]):
                        out = f"({vega_expr(c, self.fields, params)} ? {joined(t)} : {out})"
                    parts.append(out)
                else:
                    parts.append(f"toString({params[p]})" if p in params
                                 else f"toString(datum[{json.dumps(self.fields[p])}])")
            return "(" + (" + ".join(parts) or '""') + ")"

        return joined(self._template())

    def table(self, live: LiveModel) -> alt.HConcatChart:
        """The calculated table, live on ``live``'s sliders: cases, values, and the calculation.

        Each column is a chart of text marks named ``{name}__{column}``; a column's
        cell text is its ``cell`` field, so tests read exactly what a reader sees.
        """
        columns = [(c, title, f"toString(datum[{json.dumps(c)}])") for c, title in self.shown.items()]
        columns += [(o.name, o.heading, f"format(datum[{json.dumps(o.name)}], '.{o.digits}~f')")
                    for o in self.outputs]
        columns.append(("calculation", f"calculation of {self.outputs[0].title}", self._formula_vega()))
        widths = self._widths()
        heads = {column: _wrap(title, max(8, widths.get(column, 90) // 6)) for column, title, _ in columns}
        lines = max(len(h) for h in heads.values())
        charts = []
        for column, title, expr in columns:
            head = [" "] * (lines - len(heads[column])) + heads[column]
            chart = live.base
            if self.row_filter:
                chart = chart.transform_filter(self.row_filter)
            size = 10 if column == "calculation" else 11
            charts.append(chart.transform_calculate(cell=expr).mark_text(align="left", fontSize=size).encode(
                x=alt.value(0),
                y=alt.Y(f"{ROW}:O", axis=None),
                text=alt.Text("cell:N"),
            ).properties(name=f"{self.name}__{column}", width=widths.get(column, 90), height=alt.Step(17),
                         view=alt.ViewConfig(stroke=None),
                         title=alt.TitleParams(head, anchor="start", fontSize=11)))
        return alt.hconcat(*charts, spacing=6).properties(title=alt.TitleParams(self.title, anchor="start"))

    def _widths(self) -> dict[str, int]:
        inputs = self.defaults()
        longest = max(len(self.formula_text(inputs, r)) for r in self.records())
        out = {"calculation": 6 * longest + 10}
        for c, title in self.shown.items():
            out[c] = min(200, 7 * max([len(str(v)) for v in self.cases[c]] + [len(title)]) + 10)
        for o in self.outputs:
            out[o.name] = 80
        return out

    def view(self, live: LiveModel, *layers: alt.Chart, params: Sequence | None = None,
             **properties) -> alt.VConcatChart:
        """The chapter's chart (``layers``) above the calculated table of ``live``, with one set of
        sliders: ``live``'s, or ``params`` when the chart has more than the table."""
        chart = alt.layer(*layers).properties(**properties)
        # independent legends sit beside the chart, not beside the (wider) table
        return alt.vconcat(chart, self.table(live)).add_params(
            *(params if params is not None else live.params)).resolve_legend(
            color="independent", shape="independent", fill="independent", size="independent")

    def inputs_frame(self) -> pd.DataFrame:
        """The chapter's inputs as a block: name, starting value, unit, allowed range, meaning."""
        rows = []
        for s in self.inputs:
            p = s.parameter
            low, high = s.bounds()
            rows.append({"input": s.name, "value": number_text(self.defaults()[s.name]), "unit": p.unit,
                         "allowed": f"{'integer ' if p.integer else ''}{number_text(low)} to {number_text(high)}",
                         "what it is": p.label})
        return pd.DataFrame(rows)

    # --- a live kernel ---------------------------------------------------------------------------

    def table_frame(self, **values: float) -> pd.DataFrame:
        """The calculated table at ``values`` (the defaults otherwise), computed in Python."""
        inputs = self.input_values(**values)
        rows = []
        for case in self.records():
            out = self.evaluate(inputs, case)
            row = {title: case[c] for c, title in self.shown.items()}
            row.update({o.heading: value_text(out[o.name], o.digits) for o in self.outputs})
            row["calculation"] = self.formula_text(inputs, case)
            rows.append(row)
        return pd.DataFrame(rows)

    def panel(self):
        """An ipywidgets panel: one slider per input and the calculated table under them."""
        import ipywidgets as widgets

        from .panels import KernelPanel, slider_for

        sliders = {}
        for s in self.inputs:
            w = slider_for(s.parameter, self.defaults()[s.name], s.bounds()[1])
            w.min = s.bounds()[0]
            sliders[s.name] = w
        out = widgets.HTML()

        def update(_change=None):
            frame = self.table_frame(**{k: w.value for k, w in sliders.items()})
            out.value = frame.to_html(index=False, escape=True, border=0)

        for w in sliders.values():
            w.observe(update, names="value")
        update()
        return KernelPanel([widgets.HTML(f"<b>{html.escape(self.title)}</b>"), *sliders.values(), out])
