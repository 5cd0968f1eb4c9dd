"""Charts and tables of the measure-it-yourself chapter (our captured firmware logs)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .. import hostbench

__all__ = ["provenance_table", "copy_size_chart", "copy_stride_chart", "alignment_table", "loopback_chart",
           "shaped_table"]

_LOGS = ("memcopy", "loopback-testee", "shaped-100m-testee", "shaped-100m-paced-testee")


def provenance_table() -> pd.DataFrame:
    """Where, with what and when each captured log was made."""
    rows = []
    for name in _LOGS:
        h = hostbench.provenance(name)
        rows.append({"log": f"data/logs/host/{name}.log", "cpu": h["cpu"], "kernel": h["kernel"],
                     "compiler": h["compiler"], "flags": h["flags"], "date": h["date"], "git": h["git"]})
    return pd.DataFrame(rows)


def copy_size_chart() -> alt.Chart:
    """Linear copy throughput against size: best and median of the repeats (cf. the guide's Figure 8)."""
    t = hostbench.memcopy()
    t = t[t["sweep"] == "size"]
    long = t.melt(id_vars=["bytes"], value_vars=["best_mb_s", "median_mb_s"], var_name="of the repeats",
                  value_name="mb_s").replace({"best_mb_s": "best", "median_mb_s": "median"})
    return alt.Chart(long).mark_line(point=True).encode(
        x=alt.X("bytes:Q", scale=alt.Scale(type="log", base=2), title="copy size (bytes)"),
        y=alt.Y("mb_s:Q", title="MB/s"),
        color=alt.Color("of the repeats:N"),
        tooltip=["bytes:Q", "of the repeats:N", alt.Tooltip("mb_s:Q", format=".0f")],
    ).properties(width=520, height=260, title="memcpy on this host: throughput against size")


def copy_stride_chart() -> alt.Chart:
    """Row copies (ACNT bytes, index apart at the source) against ACNT (cf. the guide's Figure 9)."""
    t = hostbench.memcopy()
    t = t[t["sweep"] == "stride"]
    return alt.Chart(t).mark_line(point=True).encode(
        x=alt.X("acnt:Q", scale=alt.Scale(type="log", base=2), title="ACNT (bytes per row)"),
        y=alt.Y("best_mb_s:Q", title="MB/s (best of the repeats)"),
        color=alt.Color("index_kind:N", title=None),
        tooltip=["acnt:Q", "bcnt:Q", "src_index:Q", alt.Tooltip("best_mb_s:Q", format=".0f")],
    ).properties(width=520, height=260, title="Rows of ACNT bytes, 1 MiB in all: linear, ACNT + 64, odd index")


def alignment_table() -> pd.DataFrame:
    t = hostbench.memcopy()
    t = t[t["sweep"] == "align"]
    base = float(t[(t["src_offset"] == 0) & (t["dst_offset"] == 0)]["best_mb_s"].iloc[0])
    return pd.DataFrame({"source offset": t["src_offset"], "destination offset": t["dst_offset"],
                         "bytes": t["bytes"], "MB/s (best)": t["best_mb_s"].round(0).astype(int),
                         "vs aligned": [f"{v / base - 1:+.1%}" for v in t["best_mb_s"]]})


def loopback_chart() -> alt.Chart:
    """TCP on loopback: throughput against the testee's CPU load, per frame size and interval."""
    t = hostbench.testee_runs("loopback")
    t = t.assign(interval=[f"{u // 1000} ms" if u else "maximum rate" for u in t["interval_us"]])
    return alt.Chart(t).mark_point(filled=True, size=80).encode(
        x=alt.X("process_cpu:Q", axis=alt.Axis(format="%"), title="testee CPU time / wall time"),
        y=alt.Y("mbit_s:Q", scale=alt.Scale(type="log"), title="Mbit/s"),
        color=alt.Color("frame_bytes:O", title="frame (bytes)"),
        shape=alt.Shape("direction:N"),
        tooltip=["direction:N", "frame_bytes:Q", "interval:N", alt.Tooltip("mbit_s:Q", format=".1f"),
                 alt.Tooltip("process_cpu:Q", format=".1%"), alt.Tooltip("machine_cpu:Q", format=".1%")],
    ).properties(width=520, height=260, title="Loopback: throughput against CPU load")


def shaped_table() -> pd.DataFrame:
    """Every run across the shaped link against the model's ceiling."""
    rows = []
    for name in ("shaped-100m", "shaped-100m-paced"):
        t = hostbench.shaped_vs_model(name)
        for r in t.itertuples():
            rows.append({"direction": r.direction, "frame (bytes)": r.frame_bytes, "frames": r.frames,
                         "interval": f"{r.interval_us // 1000} ms" if r.interval_us else "maximum rate",
                         "measured (Mbit/s)": round(r.mbit_s, 3), "ceiling (Mbit/s)": round(r.ceiling_mbit_s, 3),
                         "measured / ceiling": f"{r.measured_over_ceiling:.2%}", "testee CPU": f"{r.process_cpu:.1%}"})
    return pd.DataFrame(rows)
