"""AM243x boot time and execute-in-place: the datasheet's breakdowns made quantitative.

The secondary bootloader (SBL) prints each step of a boot from OSPI flash and from
an SD card. :func:`what_if` takes out the steps the datasheet's notes say could
go (OSPI PHY tuning by pre-training the PHY, the version check); :func:`xip`
compares flash code run cached and uncached with the average the "1 of 10
iterations not cached" row should be.
"""

from __future__ import annotations

import pandas as pd

from . import checks, data

__all__ = ["TOTAL", "steps", "what_if", "xip"]

TOTAL = "SBL : Total time taken"


def steps(boot: str | None = None) -> pd.DataFrame:
    """The boot steps (without the total), of one medium or both."""
    t = data.load("am243x-sbl-boot")
    t = t[t["step"] != TOTAL]
    return t if boot is None else t[t["boot"] == boot]


def _total(boot: str) -> float:
    return float(steps(boot)["time_ms"].sum())


def what_if() -> pd.DataFrame:
    """OSPI boot time with the steps the notes call avoidable taken out, one at a time and together."""
    s = steps("OSPI").set_index("step")["time_ms"]
    total = float(s.sum())
    cuts = {"pre-train the OSPI PHY (at most all of Board_driversOpen)": ["SBL : Board_driversOpen"],
            "disable the version check (no Sciclient Get Version)": ["SBL : Sciclient Get Version"]}
    cuts["both"] = [x for v in cuts.values() for x in v]
    rows = [{"change": "as measured", "boot time (ms)": round(total, 2), "saved (ms)": 0.0, "saved": "0.0%"}]
    for change, names in cuts.items():
        saved = float(s[names].sum())
        rows.append({"change": change, "boot time (ms)": round(total - saved, 2), "saved (ms)": round(saved, 2),
                     "saved": f"{saved / total:.1%}"})
    return pd.DataFrame(rows)


def xip() -> pd.DataFrame:
    """Cycles cached and not, the slowdown, and the average one uncached run in ten implies."""
    t = data.load("am243x-xip")
    rows = []
    for bench, g in t.groupby("benchmark", sort=False):
        c = dict(zip(g["caching"], g["cycles"]))
        cached, uncached = c["Code/Data fully cached"], c["Code/Data not cached"]
        measured = c["Code/Data not cached 1 of 10 iterations"]
        expected = (9 * cached + uncached) / 10
        rows.append({"benchmark": bench, "cached": cached, "not cached": uncached,
                     "not cached / cached": round(uncached / cached, 2), "1 of 10 not cached": measured,
                     "9 cached + 1 not, averaged": round(expected, 1),
                     "measured / averaged - 1": f"{measured / expected - 1:+.2%}"})
    return pd.DataFrame(rows)


@checks.provider("boot-and-memory")
def source_checks():
    """Each printed total against its steps; the notes' SD read time; the 1-in-10 XIP averages."""
    out = []
    t = data.load("am243x-sbl-boot")
    for row in t[t["step"] == TOTAL].itertuples():
        out.append(checks.compare("boot-and-memory", t, row.Index, "time_ms", _total(row.boot),
                                  f"{row.boot}: total of the steps"))
    notes = data.load("am243x-sbl-notes")
    ospi = steps("OSPI").set_index("step")["time_ms"]
    for row in notes[(notes["boot"] == "OSPI") & (notes["what"] == "Board_driversOpen")].itertuples():
        out.append(checks.compare(
            "boot-and-memory", notes, row.Index, "value_ms", float(ospi["SBL : Board_driversOpen"]),
            "OSPI: Board_driversOpen, 'around'", kind="prose", approximate=10,
            off_note="The table gives {model:g} ms; 'around {published} ms' rounds it to the nearest 10 ms."))
    sd = steps("SD").set_index("step")["time_ms"]
    for row in notes[notes["boot"] == "SD"].itertuples():
        out.append(checks.compare(
            "boot-and-memory", notes, row.Index, "value_ms", float(sd["SBL : File read from SD Card"]),
            "SD: appimage read into memory",
            kind="prose",
            off_note="The table's own step 'File read from SD Card' takes {model:g} ms, not the {published} ms "
                     "the note says."))
    x = data.load("am243x-xip")
    for bench, g in x.groupby("benchmark", sort=False):
        c = dict(zip(g["caching"], g["cycles"]))
        expected = (9 * c["Code/Data fully cached"] + c["Code/Data not cached"]) / 10
        row = g[g["caching"] == "Code/Data not cached 1 of 10 iterations"].index[0]
        out.append(checks.compare(
            "boot-and-memory", x, row, "cycles", expected, f"{bench}: 1 of 10 iterations not cached",
            kind="consistency", otherwise="unexplained",
            off_note="Nine cached runs and one uncached average {model:.1f} cycles; the row prints {published}. "
                     "The document prints one run of each row, so how much a run varies is not known: nothing "
                     "here says whether the difference is noise or a cost of the uncached run not in the "
                     "two rows above it."))
    return out
