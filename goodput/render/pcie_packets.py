"""Charts of the PCI Express chapters (pcie-packets, pcie-reads, pcie-measured): the packet model,
live in the page.

The sliders move quantities a reader thinks in (generation, lanes, MPS, header
size, ECRC, ACKs per TLP); powers of two slide over their exponent. The model's
expressions are re-written in those slider symbols here, by substitution only.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from .. import coding, pcie
from ..params import Parameter
from .calculation import Calculation, Output
from .charts import Slider, live_model

__all__ = ["SLIDERS", "slider_values_to_link", "live_exprs", "calculation", "latency_calculation",
           "reads_calculation", "explore_chart", "breakdown_chart",
           "measured_vs_model_chart", "latency_chart", "reads_chart", "ahb_delays_chart", "test14_chart",
           "trace_timeline_chart",
           "explore_sizes"]

header_dwords = sp.Symbol("h", positive=True, integer=True)
ecrc_on = sp.Symbol("e", nonnegative=True, integer=True)
skp_policy = sp.Symbol("k", nonnegative=True, integer=True)

#: SKP policies as the breakdown's control offers them, by number (the order of the buttons).
SKP_CHOICES = ("none", "min", "max")


def _powers(low: int, high: int, unit: str = " B") -> tuple:
    return tuple((2 ** k, f"{2 ** k}{unit}") for k in range(low, high + 1))


SLIDERS = {
    p.name: p
    for p in (
        Parameter("generation", pcie.generation, "", 1, 6, default=2, step=1, label="PCIe generation",
                  integer=True, options=tuple((g.number, f"{g.number}: {g.rate_gtps:g} GT/s")
                                              for g in pcie.GENERATIONS.values())),
        Parameter("lanes", coding.lanes, "lanes", 1, 32, default=4, step=1, label="lanes", integer=True,
                  options=tuple((n, f"x{n}") for n in pcie.LANES)),
        Parameter("mps", pcie.mps, "bytes", 128, 4096, default=256, step=1,
                  label="max payload size", integer=True, options=_powers(7, 12)),
        Parameter("mrrs", pcie.mrrs, "bytes", 128, 4096, default=256, step=1,
                  label="max read request", integer=True, options=_powers(7, 12)),
        Parameter("header_dwords", header_dwords, "dwords", 3, 4, default=3, step=1,
                  label="TLP header", integer=True,
                  options=((3, "3 DW (32-bit address)"), (4, "4 DW (64-bit address)"))),
        Parameter("ecrc", ecrc_on, "", 0, 1, default=0, step=1, label="ECRC", integer=True,
                  options=((0, "off"), (1, "on"))),
        Parameter("ack_group", pcie.group, "TLPs", 1, 32, default=4, step=1,
                  label="TLPs per ACK + UpdateFC", integer=True, presets=((1, "1"), (4, "4"), (8, "8"))),
        Parameter("skp", skp_policy, "", 0, 2, default=0, step=1, label="SKP ordered sets", integer=True,
                  options=tuple(enumerate(("none", "fewest allowed", "most allowed")))),
        Parameter("size_bytes", pcie.payload, "bytes", 8, 32768, default=1024, step=1,
                  label="transfer for the breakdown", integer=True, options=_powers(3, 15)),
    )
}


def slider_values_to_link(values: dict) -> tuple[pcie.Link, int]:
    """The :class:`~goodput.pcie.Link` and breakdown size that a set of control values stands for."""
    v = {name: SLIDERS[name].check(values.get(name, p.default)) for name, p in SLIDERS.items()}
    link = pcie.Link(gen=v["generation"], lanes=v["lanes"], mps=v["mps"], mrrs=v["mrrs"],
                     addr=32 if v["header_dwords"] == 3 else 64, ecrc=bool(v["ecrc"]),
                     dllp=f"every:{v['ack_group']}", skp=SKP_CHOICES[v["skp"]])
    return link.checked(), v["size_bytes"]


def skp_share_expr() -> sp.Expr:
    """SKP ordered sets' share of the link's time for generation ``g`` and the policy control ``k``
    (:data:`SKP_CHOICES`), from :data:`goodput.pcie.SKP_POLICIES`; flit mode (gen 6) has none here."""
    branches = []
    for number, policy in enumerate(SKP_CHOICES[1:], start=1):
        share = pcie.generation_piecewise(
            lambda c: sp.Rational(*pcie.SKP_POLICIES[policy].get(c.key, (0, 1))))
        branches.append((share, sp.Eq(skp_policy, number)))
    return sp.Piecewise(*branches, (0, True))


def _slider_substitution(breakdown: bool) -> dict:
    not_flit = sp.Le(pcie.generation, min(pcie.FLIT_MODE) - 1)
    subs = {
        pcie.bit_rate: pcie.generation_bit_rate_expr(),
        pcie.header: 4 * header_dwords, pcie.ecrc: 4 * ecrc_on,
        pcie.framing: sp.Piecewise((8, not_flit), (0, True)),
        pcie.dllp: sp.Piecewise((8, not_flit), (0, True)),
        pcie.cpl_header: 12, pcie.skp: skp_share_expr() if breakdown else 0,
    }
    return subs


def live_exprs(breakdown: bool = False) -> dict[str, sp.Expr]:
    """Write and read goodput per direction, and the write's byte breakdown, in the slider symbols.

    Reads are counted as AN3935 counts them (Eq. 4-5), with both directions
    reading, so each direction also carries the other's read requests; alone,
    a read stream's completions cost exactly what writes of the same size do.
    """
    subs = _slider_substitution(breakdown)
    out = {
        "write_gbit_s": pcie.goodput_expr("write", "every").subs(subs),
        # Reads per direction with both directions reading: each also carries the other's requests.
        "read_gbit_s": (pcie.goodput_expr("read", "every", duplex=True) / 2).subs(subs),
    }
    code = {coding.data_bits: pcie.generation_piecewise(lambda c: c.data_bits),
            coding.coded_bits: pcie.generation_piecewise(lambda c: c.coded_bits)}
    for name, expr in pcie.breakdown_exprs("write", "every").items():
        out[f"{name}_bytes"] = expr.subs(subs).subs(code)
    return out


def explore_sizes() -> pd.DataFrame:
    """Transfer sizes the goodput curve is drawn at: powers of two and halfway points, 8 B to 32 KiB."""
    sizes = sorted({2 ** k for k in range(3, 16)} | {3 * 2 ** k for k in range(2, 14)})
    return pd.DataFrame({"size_bytes": sizes})


def _sliders(names) -> list[Slider]:
    return [Slider(SLIDERS[n]) for n in names]


def calculation() -> Calculation:
    """Write and read goodput per transfer size on the reader's link (the sliders)."""
    exprs = live_exprs()
    sizes = explore_sizes()
    sizes["tabled"] = [s >= 64 and s & (s - 1) == 0 for s in sizes["size_bytes"]]

    def numeric(inputs, case):
        link, _ = slider_values_to_link(inputs)
        return {"write_gbit_s": pcie.goodput_gbit_s("write", link, case["size_bytes"]),
                "read_gbit_s": pcie.goodput_gbit_s("read", link, case["size_bytes"], duplex=True) / 2,
                "bit_rate_gbit_s": coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes,
                                                          link.generation.code)}

    return Calculation(
        chapter="pcie-packets", name="pcie_sizes", title="Goodput of back-to-back transfers, one direction",
        cases=sizes, shown={"size_bytes": "bytes"}, fields={pcie.payload: "size_bytes"},
        inputs=_sliders(["generation", "lanes", "mps", "mrrs", "header_dwords", "ecrc", "ack_group"]),
        outputs=[Output("write_gbit_s", exprs["write_gbit_s"], "writes", "Gbit/s"),
                 Output("read_gbit_s", exprs["read_gbit_s"], "reads, both ways", "Gbit/s"),
                 Output("bit_rate_gbit_s", pcie.generation_bit_rate_expr(), "bit rate after the line code", "Gbit/s")],
        numeric=numeric, row_filter="datum.tabled", headline={"size_bytes": 1024})


def explore_chart() -> alt.VConcatChart:
    """Write and read goodput against transfer size, recomputed from the sliders in the page,
    above the calculated table (powers of two from 64 bytes)."""
    calc = calculation()
    live = calc.live()
    folded = live.base.transform_fold(["write_gbit_s", "read_gbit_s"], as_=["transfer", "gbit_s"])
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)")
    lines = folded.mark_line(point=True).encode(
        x=x,
        y=alt.Y("gbit_s:Q", title="payload goodput, one direction (Gbit/s)"),
        color=alt.Color("transfer:N", title=None,
                        scale=alt.Scale(domain=["write_gbit_s", "read_gbit_s"], range=["#1f77b4", "#d62728"]),
                        legend=alt.Legend(labelExpr="datum.label === 'write_gbit_s' ? 'writes' : 'reads, both ways'")),
        tooltip=[alt.Tooltip("size_bytes:Q", title="bytes"), alt.Tooltip("transfer:N"),
                 alt.Tooltip("gbit_s:Q", format=".3f", title="Gbit/s")],
    )
    ceiling = live.base.mark_rule(strokeDash=[4, 3], color="#555").encode(y="bit_rate_gbit_s:Q")
    return calc.view(live, lines, ceiling, height=260,
                     title="Goodput of back-to-back transfers (dashed: bit rate after the line code)")


def breakdown_chart() -> alt.LayerChart:
    """Where the line bytes of one write go, for the transfer size on its slider."""
    exprs = live_exprs(breakdown=True)
    parts = [k for k in exprs if k.endswith("_bytes")]
    live = live_model(
        pd.DataFrame({"case": ["one write"]}),
        outputs={k: exprs[k] for k in parts},
        sliders=_sliders(["generation", "mps", "header_dwords", "ecrc", "ack_group", "skp", "size_bytes"]),
        fields={},
        name="pcie_breakdown",
    )
    labels = {"payload_bytes": "payload", "tlp_overhead_bytes": "TLP headers and framing",
              "dllp_bytes": "ACK and UpdateFC DLLPs", "skp_bytes": "SKP ordered sets",
              "encoding_bytes": "line code"}
    bar = live.base.transform_fold(parts, as_=["part", "line_bytes"]).transform_calculate(
        share="datum.line_bytes"
    ).mark_bar().encode(
        x=alt.X("line_bytes:Q", stack="normalize", title="share of the line bytes of one write",
                axis=alt.Axis(format="%")),
        y=alt.Y("case:N", title=None),
        color=alt.Color("part:N", sort=parts, title=None,
                        legend=alt.Legend(labelExpr=" || ".join(
                            f"(datum.label === '{k}' ? '{v}' : '')" for k, v in labels.items()))),
        order=alt.Order("part_order:Q"),
        tooltip=[alt.Tooltip("part:N"), alt.Tooltip("line_bytes:Q", format=".1f", title="line bytes")],
    ).transform_calculate(part_order=" + ".join(
        f"(datum.part === '{k}' ? {i} : 0)" for i, k in enumerate(parts)))
    return live.figure(bar, height=60,
                       title="Where the line bytes of one write go (the same on any number of lanes: each "
                             "lane carries its share of every part)")


def measured_vs_model_chart(table_name: str, kind: str, device: str,
                            series: dict[str, tuple[str, int, int]], title: str) -> alt.LayerChart:
    """A measured AN3935 table as points, and the packet model for each series as a line.

    ``series`` maps a measured column to ``(label, lanes, MPS)``; the model is the
    one AN3935 calculates with (ACK + UpdateFC per 4 TLPs, both directions).
    """
    from .. import data

    table = data.load(table_name)
    rows = []
    for column, (label, lanes, mps_bytes) in series.items():
        link = pcie.an3935_link(device, lanes, mps_bytes)
        for r in table.itertuples():
            rows.append({"size_bytes": r.bytes, "series": label, "measured_gbit_s": getattr(r, column),
                         "model_gbit_s": pcie.goodput_gbit_s(kind, link, r.bytes, duplex=True)})
    frame = pd.DataFrame(rows)
    base = alt.Chart(frame).encode(
        x=alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)"),
        color=alt.Color("series:N", title=None),
    )
    model = base.mark_line(strokeDash=[5, 3]).encode(y=alt.Y("model_gbit_s:Q", title="Gbit/s (AN3935's both-direction count)"))
    measured = base.mark_point(filled=True, size=40).encode(
        y="measured_gbit_s:Q",
        tooltip=["series:N", "size_bytes:Q", alt.Tooltip("measured_gbit_s:Q", title="measured"),
                 alt.Tooltip("model_gbit_s:Q", format=".2f", title="packet model")],
    )
    return alt.layer(model, measured).properties(width=520, height=240,
                                                  title=title + " (points: measured; dashed: packet model)")


def latency_calculation(kind: str) -> Calculation:
    """AN3935's back-to-back sizes under the latency-bound model, live on its three timings
    (starting at the values fitted to the table)."""
    from .. import data, pcie_latency

    fit, _ = pcie_latency.fit_an3935(kind)
    table = data.load("an3935-table11" if kind == "write" else "an3935-table12")
    link = pcie.an3935_link("MSC8156")
    subs = {**pcie.link_substitution(link), pcie_latency.credits: pcie_latency.AN3935_NP_CREDITS}
    cases = table[["bytes"]].rename(columns={"bytes": "size_bytes"})
    for column in pcie_latency.AN3935_BACK_TO_BACK:
        cases[column] = table[column]
    p = pcie_latency.PARAMETERS

    def numeric(inputs, case):
        return {"model_gbit_s": float(pcie_latency.latency_bound_gbit_s(
                    kind, link, [case["size_bytes"]], inputs["serial_ns"], inputs["latency_ns"],
                    inputs["in_flight"], duplex=True)[0]),
                "ceiling_gbit_s": pcie.goodput_gbit_s(kind, link, case["size_bytes"], duplex=True)}

    return Calculation(
        chapter="pcie-measured", name=f"an3935_{kind}_latency",
        title=f"AN3935 back-to-back {kind}s: the latency model for the sliders",
        cases=cases, shown={"size_bytes": "bytes"}, fields={pcie.payload: "size_bytes"},
        inputs=[Slider(p["serial_ns"], value=round(fit.values["t_s"] / 5) * 5),
                Slider(p["latency_ns"], value=round(fit.values["t_l"] / 10) * 10),
                Slider(p["in_flight"])],
        outputs=[Output("model_gbit_s", pcie_latency.latency_bound_expr(kind, "every", duplex=True).subs(subs),
                        "latency model", "Gbit/s"),
                 Output("ceiling_gbit_s", pcie.goodput_expr(kind, "every", duplex=True).subs(subs),
                        "packet model", "Gbit/s")],
        # the read fit is a different link's timing: its inputs are not the write figure's
        numeric=numeric, headline={"size_bytes": 1024}, prefix="" if kind == "write" else f"{kind}-")


def latency_chart(kind: str) -> alt.VConcatChart:
    """AN3935's back-to-back table with the latency-bound model live on sliders (defaults: the fit),
    above the calculated table."""
    calc = latency_calculation(kind)
    live = calc.live()
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)")
    names = {"single_request_gbit_s": "1 in flight", "four_back_to_back_gbit_s": "4 in flight",
             "eight_back_to_back_gbit_s": "8 in flight"}
    measured = live.base.transform_fold(list(names), as_=["column", "measured_gbit_s"]).transform_calculate(
        series=" || ".join(f"(datum.column === '{k}' ? '{v} (measured)' : '')" for k, v in names.items())
    ).mark_point(filled=True, size=40).encode(
        x=x, y=alt.Y("measured_gbit_s:Q", title="Gbit/s (AN3935's both-direction count)"),
        color=alt.Color("series:N", title=None),
        tooltip=["series:N", "size_bytes:Q", "measured_gbit_s:Q"],
    )
    model = live.base.mark_line(color="black").encode(
        x=x, y="model_gbit_s:Q",
        tooltip=[alt.Tooltip("model_gbit_s:Q", format=".2f", title="latency model")])
    roof = live.base.mark_line(color="#777", strokeDash=[5, 3]).encode(x=x, y="ceiling_gbit_s:Q")
    return calc.view(live, measured, roof, model, height=260,
        title=f"AN3935 back-to-back {kind}s: black, the latency model for the slider values; dashed, the packet model")


def reads_calculation() -> Calculation:
    """Reads on the Intel tutorial's link (PCIe 1.1 x1) for the reader's completion latency and
    reads in flight, with Test 15's measured rates beside them."""
    from .. import data, pcie_transactions as pt

    link = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")
    subs = pcie.link_substitution(link)
    sizes = pd.DataFrame({"size_bytes": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]})
    test15 = data.load("intel-324611-test15")
    sizes = sizes.merge(test15.rename(columns={"payload_bytes": "size_bytes"})[["size_bytes", "measured_mbyte_s"]],
                        on="size_bytes", how="left")

    def numeric(inputs, case):
        return {"read_mbyte_s": pt.pipelined_read_mbyte_s(case["size_bytes"], inputs["completion_ns"],
                                                          inputs["reads_in_flight"], link),
                "write_mbyte_s": 1000 * pcie.goodput_gbit_s("write", link, case["size_bytes"]) / 8}

    return Calculation(
        chapter="pcie-reads", name="intel_reads", title="Reads and writes on PCIe 1.1 x1",
        cases=sizes, shown={"size_bytes": "bytes"}, fields={pcie.payload: "size_bytes"},
        inputs=[Slider(pt.PARAMETERS["completion_ns"]), Slider(pt.PARAMETERS["reads_in_flight"])],
        outputs=[Output("read_mbyte_s", pt.pipelined_reads_expr().subs(subs), "reads", "MB/s"),
                 Output("write_mbyte_s", 1000 * pcie.goodput_expr("write", "none").subs(subs) / 8,
                        "back-to-back writes", "MB/s")],
        numeric=numeric, headline={"size_bytes": 64})


def reads_chart() -> alt.VConcatChart:
    """Reads on the Intel tutorial's link (PCIe 1.1 x1): completion latency and reads in flight, live,
    above the calculated table."""
    calc = reads_calculation()
    live = calc.live()
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="read or write size (bytes)")
    y = alt.Y("read_mbyte_s:Q", scale=alt.Scale(type="log"), title="throughput (MB/s)")
    reads = live.base.mark_line(color="#d62728", point=alt.OverlayMarkDef(color="#d62728")).encode(
        x=x, y=y, tooltip=["size_bytes:Q", alt.Tooltip("read_mbyte_s:Q", format=".3f", title="reads (MB/s)")])
    writes = live.base.mark_line(color="#1f77b4", strokeDash=[5, 3]).encode(
        x=x, y="write_mbyte_s:Q",
        tooltip=["size_bytes:Q", alt.Tooltip("write_mbyte_s:Q", format=".3f", title="writes (MB/s)")])
    measured = live.base.transform_filter("isValid(datum.measured_mbyte_s)").mark_point(
        filled=True, size=60, color="black").encode(
        x=x, y="measured_mbyte_s:Q",
        tooltip=["size_bytes:Q", alt.Tooltip("measured_mbyte_s:Q", title="Test 15, measured (MB/s)")])
    return calc.view(live, writes, reads, measured,
        height=260,
        title="PCIe 1.1 x1: reads (red) for the slider values, back-to-back writes (dashed), Test 15 measured (black)")


def ahb_delays_chart(log_names: dict[str, str]) -> alt.Chart:
    """Delay between consecutive AHB accesses in published trace logs, access by access."""
    from .. import pcie_transactions as pt
    from ..logs import ahb_trace

    frames = []
    for label, name in log_names.items():
        trace = ahb_trace.parse(pt.published_log(name))
        t = trace.accesses.assign(access=range(len(trace.accesses)), trace=label)
        t["gap_ns"] = t["ticks"].diff() * ahb_trace.TICK_NS
        frames.append(t.dropna(subset=["gap_ns"]))
    frame = pd.concat(frames)[["trace", "access", "gap_ns"]]
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("access:O", title="access number"),
        y=alt.Y("gap_ns:Q", title="time since the previous access (ns)"),
        color=alt.Color("trace:N", title=None),
        column=alt.Column("trace:N", title=None),
        tooltip=["trace:N", "access:O", "gap_ns:Q"],
    ).properties(width=240, height=200).resolve_scale(x="independent", y="independent")


def test14_chart() -> alt.LayerChart:
    """Intel Test 14: write combining, measured against the packet model's maximum."""
    from .. import data

    t = data.load("intel-324611-test14")
    link = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")
    t = t.assign(model_mbyte_s=[1000 * pcie.goodput_gbit_s("write", link, s) / 8 for s in t["sequential_write_bytes"]])
    base = alt.Chart(t).encode(x=alt.X("sequential_write_bytes:Q", scale=alt.Scale(type="log", base=2),
                                       title="bytes written in sequence"))
    return alt.layer(
        base.mark_line(strokeDash=[5, 3], color="#555").encode(y=alt.Y("model_mbyte_s:Q", title="MB/s")),
        base.mark_point(filled=True, size=50).encode(
            y="measured_mbyte_s:Q", tooltip=["sequential_write_bytes:Q", "measured_mbyte_s:Q", "model_mbyte_s:Q"]),
    ).properties(width=520, height=220,
                 title="Write combining (Test 14): measured (points), one TLP per write (dashed)")


def trace_timeline_chart(log_names: dict[str, str]) -> alt.Chart:
    """Packets of published analyzer traces on a time line, one lane per direction."""
    from .. import pcie_transactions as pt
    from ..logs import pcie_trace

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
    return alt.Chart(frame).mark_bar(height=14).encode(
        x=alt.X("start_ns:Q", title="time from the first cycle of the trace (ns)"),
        x2="end_ns:Q",
        y=alt.Y("direction:N", title=None),
        color=alt.Color("packet:N", title="packet"),
        row=alt.Row("trace:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")),
        tooltip=["trace:N", "direction:N", "packet:N", "start_ns:Q", "end_ns:Q", "symbols:Q"],
    ).properties(width=560, height=60).resolve_scale(x="independent")
