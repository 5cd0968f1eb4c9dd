"""A reader's measurements on a chapter's chart: what ``iperf3 -J`` or the book's firmware printed, pasted into the
box's *From your machine*, drawn as points beside the model's curves, each with its share of the ceiling the
model gives for the box's settings (:class:`Measured`, declared beside a chapter's calculation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import altair as alt
import sympy as sp

from goodput.machine import FORMATS
from goodput.render.vega import column

__all__ = ["Measured", "MEASURED_COLOR", "LABELLED_POINTS"]

#: The measured points' colour: a purple both themes show, apart from the model's black, grey and red.
MEASURED_COLOR = "#9467bd"
#: The most measured points the chart writes the share beside.
LABELLED_POINTS = 3


@dataclass(frozen=True)
class Measured:
    """What the box does with a pasted measurement.

    Parameters
    ----------
    output : str
        The calculation's output a measurement is a share of (the TCP stream's ceiling).
    size : Symbol
        The case symbol a measurement's transfer size stands for (a TCP write's message size).
    formats : sequence of str
        The measurement formats the box reads (:data:`goodput.machine.FORMATS` keys with a ``measure``).
    say : sequence of str
        The inputs the box's sentence names with the ceiling ("at line rate 100 Mbit/s, MTU 1500 bytes").
    """

    output: str
    size: sp.Symbol
    formats: Sequence[str]
    say: Sequence[str] = ()

    def __post_init__(self):
        for key in self.formats:
            if key not in FORMATS or FORMATS[key].measure is None:
                raise ValueError(f"{key!r} is not a measurement's format")

    def dataset(self, calculation_name: str) -> str:
        """The chart's inline dataset the page fills with the measured points."""
        return f"{calculation_name}_measured"

    def layers(self, calculation_name: str, x: alt.X, y_title: str) -> list[alt.Chart]:
        """The measured points and their shares, on a chart whose x axis is ``x`` (its field replaced by the
        measurement's size column): empty until the reader pastes a measurement."""
        data = alt.Data(values=[], name=self.dataset(calculation_name))
        at = x.copy()
        at.shorthand = "size:Q"
        tooltip = [alt.Tooltip("label:N", title="measured"), alt.Tooltip("size:Q", title="transfer (bytes)"),
                   alt.Tooltip("value:Q", format=".4~r", title=y_title),
                   alt.Tooltip("ceiling:Q", format=".4~r", title="the model's ceiling"),
                   alt.Tooltip("share:Q", format=".1%", title="share of it")]
        points = alt.Chart(data).mark_point(shape="diamond", filled=True, size=110, color=MEASURED_COLOR).encode(
            x=at, y=alt.Y("value:Q"), tooltip=tooltip)
        # the share above and to the left of its point (a run of large writes sits at the axis's right end), for
        # a few points only: a log's many runs would write their shares over one another (their tooltips and the
        # box's sentence give them)
        shares = alt.Chart(data).transform_joinaggregate(points="count()").transform_filter(
            f"{column('points')} <= {LABELLED_POINTS}").mark_text(align="right", dx=-4, dy=-10, color=MEASURED_COLOR, fontWeight="bold").encode(
            x=at, y=alt.Y("value:Q"), text=alt.Text("share:Q", format=".1%"), tooltip=tooltip)
        return [points, shares]
