"""Charts and tables of the spi chapter (SPI)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from goodput.core import chapters, data
from goodput.core.fit import linear_least_squares
from goodput.core.precision import stable
from goodput.models import spi
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider
from goodput.render.vega import matches

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
    """Time of the reader's transfer per word width (400 bytes, the datasheet's, to begin with), for their clock, gap
    between words and fixed cost per transfer (none to begin with)."""
    p = spi.PARAMETERS
    in_words = {spi.words: spi.words_expr()}

    def numeric(i, case):
        r = spi.evaluate_transfer(i["transfer_bytes"], case["word_bits"], i["clock_mhz"], i["gap_ns"], i["spaced"],
                                  i["setup_us"])
        return {"words": r["words"], "model_us": r["total_time_us"], "clocks_us": r["clock_time_us"],
                "goodput_mbit_s": r["goodput_mbit_s"]}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="spi_transfer", title="Your transfer over MCSPI",
        cases=pd.DataFrame({"word_bits": [8, 16, 32]}), shown={"word_bits": "word (bits)"},
        fields={spi.word_bits: "word_bits"},
        inputs=[Slider(p["transfer_bytes"]), Slider(p["clock_mhz"]), Slider(p["gap_ns"], maximum=1000),
                Slider(p["spaced"]), Slider(p["setup_us"])],
        outputs=[Output("model_us", spi.total_time_expr().subs(in_words), "clocks, gaps and fixed cost", "us"),
                 Output("words", spi.words_expr(), "words", "", 0),
                 Output("clocks_us", spi.clock_time_expr().subs(in_words), "clocks alone", "us"),
                 Output("goodput_mbit_s", spi.transfer_throughput_expr().subs(in_words), "goodput", "Mbit/s")],
        numeric=numeric,
        answers=Answers("goodput_mbit_s", transfer=spi.transfer, transfers="transfers",
                        line_rate=spi.clock, line="the clock's bit rate (a bit a cycle)"),
        # back to back there is no gap between words: the command refuses one with --continuous
        command=BoxCommand("spi", [Word("--bits", "word_bits"), Word("--continuous", when=("spaced", 0)),
                                   Word("--gap-ns", "gap_ns", unless=("spaced", 0))],
                           {"model_us": "total_time_us", "words": "words", "clocks_us": "clock_time_us",
                            "goodput_mbit_s": "goodput_mbit_s"}))


def explore_chart() -> alt.VConcatChart:
    """Transfer time of the reader's transfer against word width for the sliders, with the measured rows (where the
    sliders sit at their 400 bytes and no fixed cost) and the calculated table."""
    calc = calculation()
    live = calc.live()
    x = alt.X("word_bits:Q", scale=alt.Scale(type="log", base=2), title="word width (bits)")
    model = live.base.mark_line(point=True, color="black").encode(
        x=x, y=alt.Y("model_us:Q", title="transfer time (us)"),
        tooltip=["word_bits:Q", "words:Q", alt.Tooltip("model_us:Q", format=".2f")])
    clocks = live.base.mark_line(color="#777", strokeDash=[5, 3]).encode(x=x, y="clocks_us:Q")
    t = data.load("am243x-mcspi")
    t = t[t["mode"] != "dma"]
    # the measured rows carry their transfer and (no) fixed cost: shown where the sliders sit at them
    points = alt.Chart(stable(pd.DataFrame({"word_bits": t["word_bits"], "us": t["transfer_time_us"], "mode": t["mode"],
                                     "transfer_bytes": t["words"] * t["word_bits"] // 8, "setup_us": 0})
                       )).transform_filter(matches({"transfer_bytes": "transfer_bytes", "setup_us": "setup_us"})
                       ).mark_point(filled=True, size=70).encode(
        x=x, y="us:Q", color=alt.Color("mode:N", title="measured"), tooltip=["mode:N", "word_bits:Q", "us:Q"])
    return calc.view(live, clocks, model, points, height=260,
                     title="MCSPI: clocks (dashed), clocks, gaps and fixed cost (black), measured at 400 bytes "
                           "(points)")
