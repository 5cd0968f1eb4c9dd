"""Charts and tables of the spi chapter (SPI)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import data, spi
from ..fit import linear_least_squares
from ..precision import stable
from .calculation import Answers, Calculation, Output
from .charts import Slider

__all__ = ["measured_vs_model", "dma_overhead", "calculation", "explore_chart"]


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
    (fixed, per_word), residual = linear_least_squares([[1.0] * len(t), t["words"].to_numpy(dtype=float)], extra)
    return stable({"fixed_us": fixed, "per_word_us": per_word,
                   "worst_residual_us": float(np.max(np.abs(residual))), "points": int(len(t))})


def calculation() -> Calculation:
    """Transfer time of 400 bytes per word width, for the reader's clock and gap between words."""
    p = spi.PARAMETERS
    widths = [8, 16, 32]
    return Calculation(
        chapter="spi", name="spi_400_bytes", title="400 bytes over MCSPI",
        cases=pd.DataFrame({"word_bits": widths, "words": [3200 // w for w in widths]}),
        shown={"word_bits": "word (bits)", "words": "words"},
        fields={spi.words: "words", spi.word_bits: "word_bits"},
        inputs=[Slider(p["clock_mhz"]), Slider(p["gap_ns"], maximum=1000), Slider(p["spaced"])],
        outputs=[Output("model_us", spi.transfer_time_expr(), "clocks and gaps", "us"),
                 Output("clocks_us", spi.clock_time_expr(), "clocks alone", "us"),
                 Output("goodput_mbit_s", spi.throughput_expr(), "goodput", "Mbit/s")],
        numeric=lambda i, case: {k: spi.evaluate(case["words"], case["word_bits"], i["clock_mhz"], i["gap_ns"],
                                                 i["spaced"])[v]
                                 for k, v in (("model_us", "transfer_time_us"), ("clocks_us", "clock_time_us"),
                                              ("goodput_mbit_s", "goodput_mbit_s"))},
        answers=Answers("goodput_mbit_s", transfer=spi.words * spi.word_bits / 8, transfers="transfers",
                        line_rate=spi.clock, line="the clock's bit rate (a bit a cycle)"))


def explore_chart() -> alt.VConcatChart:
    """Transfer time of 400 bytes against word width for the sliders, with the measured rows and
    the calculated table."""
    calc = calculation()
    live = calc.live()
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
    return calc.view(live, clocks, model, points, height=260,
                     title="MCSPI: clocks (dashed), clocks and gaps (black), measured (points)")
