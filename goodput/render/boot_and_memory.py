"""Charts of the boot-and-memory chapter."""

from __future__ import annotations

import altair as alt

from .. import boot

__all__ = ["boot_chart"]


def boot_chart() -> alt.Chart:
    """The SBL's boot steps as stacked bars, OSPI against SD."""
    t = boot.steps().assign(order=lambda d: range(len(d)))
    return alt.Chart(t).mark_bar().encode(
        y=alt.Y("boot:N", title=None),
        x=alt.X("sum(time_ms):Q", title="boot time (ms)"),
        color=alt.Color("step:N", sort=list(dict.fromkeys(t["step"])), title=None),
        order=alt.Order("order:Q"),
        tooltip=["boot:N", "step:N", "time_ms:Q"],
    ).properties(width=520, height=120, title="AM243x secondary bootloader: where the time goes")
