"""Altair helpers: a model's sympy expressions as columns that recompute in the browser.

:func:`live_model` takes a table of cases (one row per line code, payload size,
...), the expressions to compute for each row, and the model parameters to bind
to sliders. It returns a :class:`LiveModel` whose ``base`` chart carries one
``calculate`` transform per output, printed from the expression by
:func:`goodput.render.vega.vega_expr`; layer marks on ``base`` and finish with
:meth:`LiveModel.figure`, which puts the controls on the top-level chart and
returns a :class:`~goodput.render.live.LiveFigure`. Nothing
is computed in Python for the page: moving a slider in the published HTML
re-evaluates the same formula in Vega.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core.errors import ParameterError
from goodput.core.params import Parameter
from goodput.core.precision import stable
from goodput.render.vega import vega_expr

__all__ = ["Slider", "Choice", "LinkList", "LiveModel", "live_model", "STABLE_DATA"]

#: The name of the altair data transformer that every chart's data passes through: altair's
#: default, after :func:`goodput.core.precision.stable` has rounded every float, so no chart embeds
#: digits that another CPU would compute differently.
STABLE_DATA = "goodput-stable"


def _stable_data(data=None, **kwargs):
    if data is None:
        return lambda d: alt.default_data_transformer(stable(d), **kwargs)
    return alt.default_data_transformer(stable(data), **kwargs)


alt.data_transformers.register(STABLE_DATA, _stable_data)
alt.data_transformers.enable(STABLE_DATA)


@dataclass(frozen=True)
class Slider:
    """A range slider bound to a model :class:`~goodput.core.params.Parameter`.

    ``minimum``/``maximum``/``step``/``value`` narrow the parameter's own range
    for the page; they may not widen it.
    """

    parameter: Parameter
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    value: float | None = None
    #: Whether the page draws a slider beside the number box: not for a value typed or picked from its presets
    #: (the bytes to move, 1 byte to 1 TiB, which no slider sets to the byte).
    track: bool = True
    #: The slider's scale, ``"log"`` or ``"linear"``, where the page's own choice (:func:`controls._scale`, by the
    #: starting value) would not do: a limit that starts at "no limit", its far end, and is set near the other.
    scale: str | None = None

    def __post_init__(self):
        if self.scale not in (None, "log", "linear"):
            raise ValueError(f"{self.parameter.name}: a slider's scale is 'log' or 'linear', not {self.scale!r}")
        p = self.parameter
        for x in (self.minimum, self.maximum, self.value):
            if x is not None:
                p.check(x)

    @property
    def name(self) -> str:
        return self.parameter.name

    def check(self, value: float) -> float:
        """``value`` if the parameter allows it and it lies within this slider's narrower range."""
        p = self.parameter
        value = p.check(value)
        low = self.minimum if self.minimum is not None else p.minimum
        high = self.maximum if self.maximum is not None else p.maximum
        if value < low or value > high:
            raise ParameterError(p.name, value, f"from {low:g} to {high:g} {p.unit} on this page")
        return value

    def bounds(self) -> tuple[float, float]:
        """The lowest and highest value the slider reaches."""
        p = self.parameter
        low = self.minimum if self.minimum is not None else p.lowest_step(self.step)
        return low, self.maximum if self.maximum is not None else p.maximum

    def options(self) -> tuple:
        """The values the input takes where its parameter is a set of them (lanes, MPS), within this slider's
        range; empty where the parameter takes a range."""
        low, high = self.bounds()
        return tuple(v for v in self.parameter.values() if low <= v <= high)

    def param(self) -> alt.Parameter:
        p = self.parameter
        low, high = self.bounds()
        return alt.param(
            name=p.name,
            value=self.value if self.value is not None else p.default,
            bind=alt.binding_range(
                min=low,
                max=high,
                step=self.step or p.step,
                name=p.label + " ",
            ),
        )


@dataclass(frozen=True)
class Choice:
    """A drop-down bound to a parameter whose value is one of ``options``."""

    name: str
    options: Sequence[str]
    value: str
    label: str
    labels: Sequence[str] = field(default_factory=tuple)

    def param(self) -> alt.Parameter:
        return alt.param(
            name=self.name,
            value=self.value,
            bind=alt.binding_select(
                options=list(self.options),
                name=self.label + " ",
                **({"labels": list(self.labels)} if self.labels else {}),
            ),
        )


@dataclass(frozen=True)
class LinkList:
    """A list of link configurations the reader composes (adds, changes, removes), drawn as rows of
    selects: ``families`` describes what each row may be (:func:`goodput.render.chapters.choose_a_link.families`),
    ``value`` the starting list as :func:`goodput.analysis.choose.encode` writes it, ``dataset`` the chart's data
    the rows replace (each with ``extra`` columns added, the sizes a curve is drawn at; ``fill`` the columns
    each row starts from, which its own settings replace). A list ``shown`` no is not drawn: its rows follow
    the state another figure's composer of the same name sets."""

    name: str
    label: str
    families: Sequence[dict]
    value: str
    dataset: str
    extra: Mapping[str, object] = field(default_factory=dict)
    fill: Mapping[str, object] = field(default_factory=dict)
    shown: bool = True
    #: What one entry of the list is called ("link", "message"): the composer's buttons and notes say it.
    item: str = "link"
    #: A column the page adds up over the reader's rows, and what the sum is: ``{"column": ..., "text": "load the
    #: bus", "unit": "%", "limit": 100, "over": "the bus cannot carry them"}`` (over ``limit`` it says ``over``).
    total: Mapping[str, object] = field(default_factory=dict)
    #: Whether a box over the list's rows opens on the first of them (else on its headline case).
    leads: bool = True

    def param(self) -> None:
        """No altair parameter: the rows are the chart's data, not a signal."""
        return None


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

    def figure(self, *charts: alt.Chart, title: str, **properties):
        """Layer ``charts`` (built on :attr:`base`) as a live figure with :attr:`controls`."""
        from goodput.render.live import LiveFigure

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
    data = alt.Data(values=stable(cases).to_dict(orient="records"), name=name) if name else cases
    base = alt.Chart(data).transform_calculate(**printed)
    return LiveModel(base=base, controls=[*sliders, *choices], expressions=printed)

