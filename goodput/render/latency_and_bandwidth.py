"""Charts of the latency-and-bandwidth chapter."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import am243x

__all__ = ["crypto_chart"]


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
        alt.Chart(curves).mark_line(opacity=0.7).encode(x=x, y=alt.Y("fitted_mbit_s:Q", title="Mbit/s"),
                                                        color=color),
        alt.Chart(points).mark_point(filled=True).encode(
            x=x, y="throughput_mbit_s:Q", color=color,
            tooltip=["series:N", "size_bytes:Q", alt.Tooltip("throughput_mbit_s:Q", format=".1f"),
                     alt.Tooltip("time_us:Q", format=".2f")]),
    ).properties(width=520, height=280, title="SA2UL on the AM243x: measured (points), fixed cost + bandwidth (lines)")
