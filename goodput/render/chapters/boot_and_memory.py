"""Charts of the boot-and-memory chapter."""

from __future__ import annotations

import altair as alt
import pandas as pd

from goodput.analysis import boot
from goodput.core import chapters
from goodput.core.precision import stable
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider

__all__ = ["boot_chart", "calculation", "media_chart"]


def calculation() -> Calculation:
    """The least time the reader's image takes to read from OSPI flash in each mode, at the reader's clock."""
    cases = pd.DataFrame([{"mode": mode, "lines": lines, "per_clock": per}
                          for mode, (lines, per) in boot.OSPI_MODES.items()])

    def numeric(inputs, case):
        rate = boot.media_bytes_s(f"{inputs['clock_mhz']} MHz ({case['mode']} mode)")
        return {"rate_mbyte_s": rate / 1e6, "least_ms": 1000 * inputs["image_bytes"] / rate}

    p = boot.PARAMETERS
    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="boot_media", title="Your image from OSPI flash: the least its read takes",
        cases=cases, shown={"mode": "OSPI mode"}, fields={boot.data_lines: "lines", boot.per_clock: "per_clock"},
        inputs=[Slider(p["image_bytes"]), Slider(p["clock_mhz"])],
        outputs=[Output("least_ms", boot.least_read_expr(), "least read time", "ms", 3),
                 Output("rate_mbyte_s", boot.media_rate_expr(), "what the flash delivers", "MB/s", 2)],
        numeric=numeric, headline={"mode": "Octal DDR"},
        answers=Answers("rate_mbyte_s", transfer=boot.image, transfers="images"),
        command=BoxCommand("boot", [Word("--mode", "mode")], {"least_ms": "least_ms", "rate_mbyte_s": "rate_mbyte_s"}))


def media_chart():
    """The least read time of the reader's image in each OSPI mode, above the calculated table."""
    return calculation().bars("least_ms", "mode", sort=boot.OSPI_MODES,
                              title="Your image from OSPI flash: the least its read takes in each mode")


def boot_chart() -> alt.Chart:
    """The SBL's boot steps as stacked bars, OSPI against SD."""
    t = boot.steps().assign(order=lambda d: range(len(d)))
    return alt.Chart(stable(t)).mark_bar().encode(
        y=alt.Y("boot:N", title=None),
        x=alt.X("sum(time_ms):Q", title="boot time (ms)"),
        color=alt.Color("step:N", sort=list(dict.fromkeys(t["step"])), title=None),
        order=alt.Order("order:Q"),
        tooltip=["boot:N", "step:N", "time_ms:Q"],
    ).properties(width=520, height=120, title="AM243x secondary bootloader: where the time goes")
