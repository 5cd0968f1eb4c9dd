"""Charts of the latency-and-bandwidth chapter."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from goodput.analysis import am243x
from goodput.core import chapters, fit
from goodput.core.precision import stable
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider

__all__ = ["calculation", "fits_chart", "crypto_chart"]


def calculation() -> Calculation:
    """Each fitted operation (SA2UL crypto, RPMsg between cores) at the reader's size: its time, fixed cost
    and bytes at its bandwidth, and the throughput that gives."""
    cases = am243x.fits()
    found = {**am243x.crypto_fits(), **am243x.rpmsg_fits()}

    def numeric(inputs, case):
        t = float(found[case["series"]].predict_us(inputs["size_bytes"]))
        return {"time_us": t, "rate_mbit_s": 8 * inputs["size_bytes"] / t}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="am243x_fits", title="Your operation on each fitted engine",
        cases=cases, shown={"series": "operation", "engine": "engine", "fitted_over": "fitted over (bytes)"},
        fields={fit.hockney_fixed: "t0_us", fit.hockney_bandwidth: "bandwidth_mbit_s"},
        inputs=[Slider(am243x.PARAMETERS["size_bytes"])],
        outputs=[Output("time_us", fit.hockney_time_expr(), "one operation", "us", 3),
                 Output("rate_mbit_s", fit.hockney_rate_expr(), "throughput", "Mbit/s", 2)],
        numeric=numeric, headline={"series": "AES-128 encryption"},
        answers=Answers("rate_mbit_s", transfer=fit.hockney_size, transfers="operations"),
        command=BoxCommand("am243x", [Word("", "series")], {"time_us": "time_us", "rate_mbit_s": "rate_mbit_s"}))


def fits_chart():
    """The throughput of each fitted operation at the reader's size (its control), above the calculated table."""
    return calculation().bars("rate_mbit_s", "series", color="engine",
                              title="Each fitted engine at your operation size: fixed cost + bytes / bandwidth")


def crypto_chart() -> alt.LayerChart:
    """SA2UL throughput against size: the datasheet's points and each series' fitted line."""
    points = am243x.crypto_series()
    sizes = np.geomspace(256, 65536, 40)
    curves = pd.concat([pd.DataFrame({"series": name, "size_bytes": sizes,
                                      "fitted_mbit_s": 8 * sizes / h.predict_us(sizes)})
                        for name, h in am243x.crypto_fits().items()], ignore_index=True)
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="data size (bytes)")
    color = alt.Color("series:N", title=None)
    return alt.layer(
        alt.Chart(stable(curves)).mark_line(opacity=0.7).encode(x=x, y=alt.Y("fitted_mbit_s:Q", title="Mbit/s"),
                                                        color=color),
        alt.Chart(stable(points)).mark_point(filled=True).encode(
            x=x, y="throughput_mbit_s:Q", color=color,
            tooltip=["series:N", "size_bytes:Q", alt.Tooltip("throughput_mbit_s:Q", format=".1f"),
                     alt.Tooltip("time_us:Q", format=".2f")]),
    ).properties(width=520, height=280, title="SA2UL on the AM243x: measured (points), fixed cost + bandwidth (lines)")
