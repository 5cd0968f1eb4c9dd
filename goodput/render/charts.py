"""Altair helpers: a model's sympy expressions as columns that recompute in the browser.

:func:`live_model` takes a table of cases (one row per line code, payload size,
...), the expressions to compute for each row, and the model parameters to bind
to sliders (:class:`~goodput.render.controls.Slider`). It returns a :class:`LiveModel` whose ``base`` chart
carries one ``calculate`` transform per output, printed from the expression by
:func:`goodput.render.vega.vega_expr`; layer marks on ``base`` and finish with
:meth:`LiveModel.figure`, which puts the controls on the top-level chart and
returns a :class:`~goodput.render.live.LiveFigure`. Nothing
is computed in Python for the page: moving a slider in the published HTML
re-evaluates the same formula in Vega. The cases go into the chart rounded by
:func:`goodput.core.precision.stable`, as every chart's data does where it is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core.precision import stable
from goodput.render.controls import Choice, Slider
from goodput.render.live import LiveFigure
from goodput.render.vega import vega_expr

__all__ = ["LiveModel", "live_model"]


@dataclass
class LiveModel:
    """A base chart with computed columns, and the controls that drive them."""

    base: alt.Chart
    controls: list
    expressions: dict[str, str]

    @property
    def params(self) -> list:
        """The controls as altair parameters (with altair's own sliders, for JupyterLab)."""
        return [c.param() for c in self.controls]

    def figure(self, *charts: alt.Chart, title: str, **properties) -> LiveFigure:
        """Layer ``charts`` (built on :attr:`base`) as a live figure with :attr:`controls`."""
        return LiveFigure.of_layers(charts, self.controls, title, properties)


def live_model(cases: pd.DataFrame, outputs: Mapping[str, sp.Expr],
               sliders: Sequence[Slider], fields: Mapping[sp.Symbol, str],
               choices: Sequence[Choice] = (), name: str | None = None) -> LiveModel:
    """Bind ``outputs`` (column name -> expression) to sliders over ``cases``.

    Parameters
    ----------
    cases : DataFrame
        One row per case; the columns named in ``fields`` feed the expressions.
    outputs : mapping
        Name of each computed column and its sympy expression, in order (a later
        output may not use an earlier one: each is printed from the model).
    sliders : sequence of Slider
        The parameters the reader moves; their symbols print as signal names.
    fields : mapping of Symbol to str
        Symbols that take their value from a column of ``cases``.
    choices : sequence of Choice
        Drop-downs, for expressions written against them outside this helper
        (colour conditions, filters).
    name : str, optional
        Name of the inline dataset, so tests and readers can find it in the view.
    """
    params = {s.parameter.symbol: s.name for s in sliders}
    printed = {out: vega_expr(expr, fields=fields, params=params) for out, expr in outputs.items()}
    data = alt.Data(values=stable(cases).to_dict(orient="records"), name=name) if name else stable(cases)
    base = alt.Chart(data).transform_calculate(**printed)
    return LiveModel(base=base, controls=[*sliders, *choices], expressions=printed)

