"""Charts and tables of the pcie-reads chapter: reads on the reader's link (opening on the Intel tutorial's
PCIe 1.1 x1), its published AHB and analyzer traces, and write combining."""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import pandas as pd

from goodput import checks
from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.logs import ahb_trace, pcie_trace
from goodput.models import coding, pcie
from goodput.models import pcie_transactions as pt
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.chapters.pcie_packets import (
    FLIT_BYTES,
    SLIDERS,
    lspci_settings,
    slider_substitution,
    slider_values_to_link,
)
from goodput.render.controls import Slider
from goodput.render.vega import column

__all__ = ["LINK_SLIDERS", "values_to_link", "calculation", "reads_chart", "ahb_delays_chart", "test14_chart", "trace_timeline_chart",
           "intel_examples_table"]


#: The read chapter's link settings: PCI Express's own (:data:`goodput.render.chapters.pcie_packets.SLIDERS`, but the
#: ACK grouping: these reads wait for no DLLP) and how completions are cut.
LINK_SLIDERS = ("generation", "lanes", "mps", "mrrs", "header_dwords", "ecrc", "flit_bytes")


def values_to_link(values: dict) -> pcie.Link:
    """The :class:`~goodput.models.pcie.Link` the read chapter's controls stand for: the packets chapter's link of the
    same settings, its completions split as the controls say, no DLLP and no SKP counted."""
    link, _ = slider_values_to_link({n: values[n] for n in LINK_SLIDERS})
    return replace(link, rcb=pt.PARAMETERS["rcb"].check(values["rcb"]), dllp="none", skp="none",
                   split="rcb" if pt.PARAMETERS["split_at_rcb"].check(values["split_at_rcb"]) else "mps").checked()


def calculation() -> Calculation:
    """Reads on the reader's link for their completion latency and reads in flight, opening on the Intel
    tutorial's link (PCIe 1.1 x1, one request and one completion a read) with Test 15's measured rates."""
    case = pt.READS_LINK
    starting = {"generation": case.gen, "lanes": case.lanes, "mps": case.mps, "mrrs": case.mrrs,
                "header_dwords": case.addr // 32 + 2, "ecrc": int(case.ecrc)}
    subs = slider_substitution(skp=False)  # the tutorial's reads count no SKP ordered set
    sizes = pd.DataFrame({"size_bytes": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]})
    test15 = data.load("intel-324611-test15")
    sizes = sizes.merge(test15.rename(columns={"payload_bytes": "size_bytes"})[["size_bytes", "measured_mbyte_s"]],
                        on="size_bytes", how="left")

    def numeric(inputs, case):
        link = values_to_link(inputs)
        return {"read_mbyte_s": pt.pipelined_read_mbyte_s(case["size_bytes"], inputs["completion_ns"],
                                                          inputs["reads_in_flight"], link),
                "read_latency_ns": pt.read_latency_ns(case["size_bytes"], inputs["completion_ns"], link),
                "write_mbyte_s": 1000 * pcie.goodput_gbit_s("write", link, case["size_bytes"]) / 8}

    inputs = [*(Slider(SLIDERS[n], value=starting.get(n)) for n in LINK_SLIDERS),
              Slider(pt.PARAMETERS["split_at_rcb"]), Slider(pt.PARAMETERS["rcb"]),
              Slider(pt.PARAMETERS["completion_ns"]), Slider(pt.PARAMETERS["reads_in_flight"])]
    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="intel_reads", title="Reads and writes on your PCIe link",
        cases=sizes, shown={"size_bytes": "bytes"}, fields={pcie.payload: "size_bytes"},
        inputs=inputs,
        outputs=[Output("read_mbyte_s", pt.pipelined_reads_expr().subs(subs), "reads", "MB/s"),
                 Output("read_latency_ns", pt.read_latency_expr().subs(subs), "one read, request to last data",
                        "ns"),
                 Output("write_mbyte_s", 1000 * pcie.goodput_expr("write", "none").subs(subs) / 8,
                        "back-to-back writes", "MB/s")],
        numeric=numeric, headline={"size_bytes": 64},
        answers=Answers("read_mbyte_s", transfer=pcie.payload, transfers="reads",
                        packets=pt.read_completions_expr(), packet_name="completions",
                        latency=pt.read_latency_expr().subs(subs) / 10 ** 9,
                        latency_name="one read, request to last data",
                        line_rate=1000 * pcie.transfer_rate_expr() * coding.lanes / 8,
                        line="the lanes' signalling rate"),
        # the book's reads count no DLLP and no SKP (the tutorial's)
        command=BoxCommand("pcie", [Word("read"), Word("--gen", "generation"), Word("--size", "size_bytes"),
                                    Word("--addr", "header_dwords", {3: 32, 4: 64}), Word("--ecrc", when=("ecrc", 1)),
                                    Word("--split", "split_at_rcb", {0: "mps", 1: "rcb"}),
                                    Word("--flit", "flit_bytes", {n: name for n, name in FLIT_BYTES.items()},
                                         when=("generation", tuple(pcie.FLIT_MODE))),
                                    Word("--dllp"), Word("none")],
                           {"read_mbyte_s": "reads_mbyte_s", "read_latency_ns": "read_latency_ns"}),
        machine=lspci_settings("rcb"))


def reads_chart() -> alt.VConcatChart:
    """Reads on the controls' link (opening on the Intel tutorial's PCIe 1.1 x1): the link's settings,
    completion latency and reads in flight, live, above the calculated table."""
    calc = calculation()
    live = calc.live()
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="read or write size (bytes)")
    y = alt.Y("read_mbyte_s:Q", scale=alt.Scale(type="log"), title="throughput (MB/s)")
    reads = live.base.mark_line(color="#d62728", point=alt.OverlayMarkDef(color="#d62728")).encode(
        x=x, y=y, tooltip=["size_bytes:Q", alt.Tooltip("read_mbyte_s:Q", format=".3f", title="reads (MB/s)")])
    writes = live.base.mark_line(color="#1f77b4", strokeDash=[5, 3]).encode(
        x=x, y="write_mbyte_s:Q",
        tooltip=["size_bytes:Q", alt.Tooltip("write_mbyte_s:Q", format=".3f", title="writes (MB/s)")])
    measured = live.base.transform_filter(f"isValid({column('measured_mbyte_s')})").mark_point(
        filled=True, size=60, color="black").encode(
        x=x, y="measured_mbyte_s:Q",
        tooltip=["size_bytes:Q", alt.Tooltip("measured_mbyte_s:Q", title="Test 15, measured (MB/s)")])
    return calc.view(live, writes, reads, measured, height=260, controls_below=True,
                     title="Reads (red) and back-to-back writes (dashed) on the controls' link; Test 15 measured "
                           "on PCIe 1.1 x1 (black)")


def ahb_delays_chart(log_names: dict[str, str]) -> alt.Chart:
    """Delay between consecutive AHB accesses in published trace logs, access by access."""
    frames = []
    for label, name in log_names.items():
        trace = ahb_trace.parse(pt.published_log(name))
        t = trace.accesses.assign(access=range(len(trace.accesses)), trace=label)
        t["gap_ns"] = t["ticks"].diff() * ahb_trace.TICK_NS
        frames.append(t.dropna(subset=["gap_ns"]))
    frame = pd.concat(frames)[["trace", "access", "gap_ns"]]
    return alt.Chart(stable(frame)).mark_bar().encode(
        x=alt.X("access:O", title="access number"),
        y=alt.Y("gap_ns:Q", title="time since the previous access (ns)"),
        color=alt.Color("trace:N", title=None),
        column=alt.Column("trace:N", title=None),
        tooltip=["trace:N", "access:O", "gap_ns:Q"],
    ).properties(width=240, height=200).resolve_scale(x="independent", y="independent")


def test14_chart() -> alt.LayerChart:
    """Intel Test 14: write combining, measured against the packet model's maximum."""
    t = data.load("intel-324611-test14")
    link = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")
    t = t.assign(model_mbyte_s=[1000 * pcie.goodput_gbit_s("write", link, s) / 8 for s in t["sequential_write_bytes"]])
    base = alt.Chart(stable(t)).encode(x=alt.X("sequential_write_bytes:Q", scale=alt.Scale(type="log", base=2),
                                       title="bytes written in sequence"))
    return alt.layer(
        base.mark_line(strokeDash=[5, 3], color="#555").encode(y=alt.Y("model_mbyte_s:Q", title="MB/s")),
        base.mark_point(filled=True, size=50).encode(
            y="measured_mbyte_s:Q", tooltip=["sequential_write_bytes:Q", "measured_mbyte_s:Q", "model_mbyte_s:Q"]),
    ).properties(width=520, height=220,
                 title="Write combining (Test 14): measured (points), one TLP per write (dashed)")


def trace_timeline_chart(log_names: dict[str, str]) -> alt.Chart:
    """Packets of published analyzer traces on a time line, one lane per direction."""
    rows = []
    for label, name in log_names.items():
        trace = pcie_trace.parse(pt.published_log(name))
        write, read = pt.trace_directions(trace)
        role = {write: "to the device", read: "from the device"}
        for p in trace.packets:
            rows.append({"trace": label, "direction": f"{p.direction}: {role[p.direction]}",
                         "packet": p.name if p.complete else f"{p.name} (partly lost)",
                         "start_ns": (p.first_cycle - trace.first_cycle) * pcie_trace.SYMBOL_NS,
                         "end_ns": (p.last_cycle + 1 - trace.first_cycle) * pcie_trace.SYMBOL_NS,
                         "symbols": p.symbols})
    frame = pd.DataFrame(rows)
    return alt.Chart(stable(frame)).mark_bar(height=14).encode(
        x=alt.X("start_ns:Q", title="time from the first cycle of the trace (ns)"),
        x2="end_ns:Q",
        y=alt.Y("direction:N", title=None),
        color=alt.Color("packet:N", title="packet"),
        row=alt.Row("trace:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")),
        tooltip=["trace:N", "direction:N", "packet:N", "start_ns:Q", "end_ns:Q", "symbols:Q"],
    ).properties(width=560, height=60).resolve_scale(x="independent")


def intel_examples_table() -> pd.DataFrame:
    """Intel 324611 §3.5 Examples 1 and 2 as printed, against the model or the parsed trace."""
    t = data.load("intel-324611-s3-5-examples")
    by_row = {c.row: c for c in checks.collect(chapters.rendered_by(__name__).id) if c.resource == "intel-324611-s3-5-examples"}
    rows = []
    for r in t.itertuples():
        where = "" if r.basis == "calculation" else " trace"
        c = by_row[f"Example {r.example}{where}: {r.quantity} ({r.unit})"]
        rows.append({"example": r.example, "from": r.basis, "quantity": r.quantity,
                     "printed": f"{t.attrs['printed']['value'][r.Index]} {r.unit}",
                     "model" if r.basis == "calculation" else "model / parsed trace": f"{c.model:.4g} {r.unit}",
                     "status": c.status})
    return pd.DataFrame(rows)
