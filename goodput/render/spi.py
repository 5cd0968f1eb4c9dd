"""Charts and tables of the SPI chapter."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import data, spi
from .charts import Slider, live_model

__all__ = ["measured_vs_model", "dma_overhead", "explore_chart"]


def _verdict(mode: str, residual: float) -> str:
    if mode == "dma":
        return "no: DMA set-up dominates"
    if residual < -0.005:
        return "no: faster than clocks and gaps allow"
    if residual > 0.05:
        return "no: the driver adds time"
    return "yes, within 5%"


def measured_vs_model() -> pd.DataFrame:
    """Each measured transfer against the clocks-and-gaps model."""
    t = data.load("am243x-mcspi")
    model = [spi.transfer_time_us(r.words, r.word_bits) for r in t.itertuples()]
    residual = t["transfer_time_us"] / model - 1
    return pd.DataFrame({"words": t["words"], "word bits": t["word_bits"], "mode": t["mode"],
                         "measured (us)": t["transfer_time_us"], "model (us)": np.round(model, 2),
                         "measured / model - 1": [f"{r:+.1%}" for r in residual],
                         "explained by the gap model?": [_verdict(m, r) for m, r in zip(t["mode"], residual)]})


def dma_overhead() -> dict[str, float]:
    """Least squares of (measured - model) = fixed + per word, over the DMA rows."""
    t = data.load("am243x-mcspi")
    t = t[t["mode"] == "dma"]
    extra = np.array([r.transfer_time_us - spi.transfer_time_us(r.words, r.word_bits) for r in t.itertuples()])
    design = np.column_stack([np.ones(len(t)), t["words"].to_numpy(dtype=float)])
    (fixed, per_word), *_ = np.linalg.lstsq(design, extra, rcond=None)
    residual = extra - design @ np.array([fixed, per_word])
    return {"fixed_us": float(fixed), "per_word_us": float(per_word),
            "worst_residual_us": float(np.max(np.abs(residual))), "points": int(len(t))}


def explore_chart() -> alt.LayerChart:
    """Transfer time of 400 bytes against word width for the sliders, with the measured rows."""
    p = spi.PARAMETERS
    widths = [8, 16, 32]
    live = live_model(
        pd.DataFrame({"word_bits": widths, "words": [3200 // w for w in widths]}),
        outputs={"model_us": spi.transfer_time_expr(), "clocks_us": spi.clock_time_expr()},
        sliders=[Slider(p["clock_mhz"]), Slider(p["gap_ns"], maximum=1000)],
        fields={spi.words: "words", spi.word_bits: "word_bits"}, name="spi_400_bytes")
    x = alt.X("word_bits:Q", scale=alt.Scale(type="log", base=2), title="word width (bits), 400 bytes in all")
    model = live.base.mark_line(point=True, color="black").encode(
        x=x, y=alt.Y("model_us:Q", title="transfer time (us)"),
        tooltip=["word_bits:Q", "words:Q", alt.Tooltip("model_us:Q", format=".2f")])
    clocks = live.base.mark_line(color="#777", strokeDash=[5, 3]).encode(x=x, y="clocks_us:Q")
    t = data.load("am243x-mcspi")
    t = t[t["mode"] != "dma"]
    points = alt.Chart(pd.DataFrame({"word_bits": t["word_bits"], "us": t["transfer_time_us"], "mode": t["mode"]})
                       ).mark_point(filled=True, size=70).encode(
        x=x, y="us:Q", color=alt.Color("mode:N", title="measured"), tooltip=["mode:N", "word_bits:Q", "us:Q"])
    return live.layer(clocks, model, points).properties(
        width=480, height=260, title="MCSPI: clocks (dashed), clocks and gaps (black), measured (points)")
