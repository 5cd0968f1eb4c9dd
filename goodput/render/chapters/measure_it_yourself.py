"""Charts and tables of the measure-it-yourself chapter (our captured firmware logs: the host's,
and the bare-metal port's under QEMU)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from goodput.analysis import hostbench
from goodput.core.precision import stable
from goodput.logs import bench

__all__ = ["provenance_table", "copy_size_chart", "copy_stride_chart", "alignment_table", "loopback_chart",
           "shaped_table", "qemu_provenance_table", "copy_runs_chart", "qemu_vs_host_copy_table",
           "qemu_vs_host_tcp_table", "tcp_loop_table"]

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
    return alt.Chart(stable(long)).mark_line(point=True).encode(
        x=alt.X("bytes:Q", scale=alt.Scale(type="log", base=2), title="copy size (bytes)"),
        y=alt.Y("mb_s:Q", title="MB/s"),
        color=alt.Color("of the repeats:N"),
        tooltip=["bytes:Q", "of the repeats:N", alt.Tooltip("mb_s:Q", format=".0f")],
    ).properties(width=520, height=260, title="memcpy on this host: throughput against size")


def copy_stride_chart() -> alt.Chart:
    """Row copies (ACNT bytes, index apart at the source) against ACNT (cf. the guide's Figure 9)."""
    t = hostbench.memcopy()
    t = t[t["sweep"] == "stride"]
    return alt.Chart(stable(t)).mark_line(point=True).encode(
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
    return alt.Chart(stable(t)).mark_point(filled=True, size=80).encode(
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


_QEMU_LOGS = ("memcopy-mps2-an386", "tcp-loop-mps2-an386-testee", "tcp-loop-mps2-an386-tester", "tcp-loop-mps2-an386")


def qemu_provenance_table() -> pd.DataFrame:
    """How each QEMU log was made: target, emulator, instruction counting, compiler, C library, date."""
    rows = []
    for name in _QEMU_LOGS:
        h = bench.parse(hostbench.log_path(name, "qemu")).header
        rows.append({"log": f"data/logs/qemu/{name}.log", "console": h["console"], "target": h["target"],
                     "emulator": h["emulator"], "icount": h["icount"].split(" ")[0], "compiler": h["compiler"],
                     "libc": h["libc"], "date": h["date"], "git": h["git"]})
    return pd.DataFrame(rows)


def copy_runs_chart() -> alt.Chart:
    """Linear copies against size in every memcopy log of data/logs/ (host, QEMU, a reader's board),
    each in the units of its own clock."""
    t = hostbench.copy_sizes()
    t = t.assign(best_mb_s=t["best_mb_s"].round(1))
    return alt.Chart(stable(t)).mark_line(point=True).encode(
        x=alt.X("bytes:Q", scale=alt.Scale(type="log", base=2), title="copy size (bytes)"),
        y=alt.Y("best_mb_s:Q", scale=alt.Scale(type="log"),
                title="MB/s of the log's clock (under QEMU: bytes per 1000 instructions)"),
        color=alt.Color("run:N", title="log: what its clock counts", legend=alt.Legend(orient="bottom", columns=1)),
        tooltip=["run:N", "bytes:Q", alt.Tooltip("best_mb_s:Q", format=".1f")],
    ).properties(width=520, height=280, title="memcpy in every log of data/logs/: best of the repeats",
                 # the logs' names are long: whole on a wide page; on a phone the book's script cuts them to its width
                 ).configure_legend(labelLimit=400)


def qemu_vs_host_copy_table() -> pd.DataFrame:
    """The sizes both logs measured: the host's MB/s (wall clock) next to QEMU's bytes per instruction."""
    host = hostbench.memcopy()
    qemu = hostbench.memcopy(hostbench.log_path("memcopy-mps2-an386", "qemu"))
    host, qemu = (t[t["sweep"] == "size"].set_index("bytes") for t in (host, qemu))
    both = host.index.intersection(qemu.index)
    per_instruction = qemu.loc[both, "best_mb_s"] / 1000
    return pd.DataFrame({
        "bytes": both,
        "host: MB/s (best)": host.loc[both, "best_mb_s"].round(0).astype(int).to_numpy(),
        "QEMU M4F: bytes per instruction (best)": per_instruction.round(3).to_numpy(),
        "QEMU M4F: instructions per copy": (qemu.loc[both, "best_ns"] / qemu.loc[both, "iterations"]).round(0)
        .astype(int).to_numpy(),
    })


def qemu_vs_host_tcp_table() -> pd.DataFrame:
    """The testee's runs at the maximum rate: the host's loopback (wall clock) next to the in-memory
    loop under QEMU (virtual time), with each testee's CPU time over the run's time."""
    host = hostbench.testee_runs("loopback")
    host = host[host["interval_us"] == 0].set_index(["direction", "frame_bytes"])
    qemu = hostbench.testee_runs("tcp-loop-mps2-an386", "qemu").set_index(["direction", "frame_bytes"])
    rows = []
    for key in qemu.index:
        q = qemu.loc[key]
        h = host.loc[key] if key in host.index else None
        rows.append({"direction": key[0], "frame (bytes)": key[1],
                     "host loopback: Mbit/s": int(round(float(h["mbit_s"]))) if h is not None else None,
                     "host: testee CPU": f"{float(h['process_cpu']):.0%}" if h is not None else "",
                     "QEMU loop: Mbit per 10^9 instructions": round(float(q["mbit_s"]), 1),
                     "QEMU: testee's share of the core": f"{float(q['process_cpu']):.1%}"})
    return pd.DataFrame(rows)


def tcp_loop_table() -> pd.DataFrame:
    """The in-memory loop's byte accounting: written, read, and what the protocol moves, per direction."""
    t = hostbench.tcp_loop()
    return pd.DataFrame({"direction": t["direction"].str.replace("_", " "), "bytes written": t["bytes_written"],
                         "bytes read": t["bytes_read"], "bytes the protocol moves": t["expected_bytes"],
                         "all three agree": (t["bytes_written"] == t["expected_bytes"])
                         & (t["bytes_read"] == t["expected_bytes"])})
