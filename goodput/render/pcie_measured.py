"""Charts and tables of the pcie-measured chapter: AN3935's measured tables against the packet model
and the latency-bound model."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .. import pcie
from .calculation import Calculation, Output
from .charts import Slider

__all__ = ["measured_vs_model_chart", "latency_calculation", "calculation", "latency_chart", "latency_fit_table",
           "measured_over_model_table", "above_ceiling_table"]


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


def calculation() -> Calculation:
    """The chapter's calculated table: AN3935's back-to-back writes under the latency-bound model
    (:func:`latency_calculation` of ``"write"``)."""
    return latency_calculation("write")


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


def latency_fit_table(kind: str) -> pd.DataFrame:
    """AN3935's back-to-back table, the fitted latency model, and the residual of each point."""
    from .. import data, pcie_latency

    result, curves = pcie_latency.fit_an3935(kind)
    table = data.load("an3935-table11" if kind == "write" else "an3935-table12")
    shown = pd.DataFrame({"bytes": table.attrs["printed"]["bytes_as_printed"]})
    for column, k in pcie_latency.AN3935_BACK_TO_BACK.items():
        measured = table[column].to_numpy()
        shown[f"{k} in flight: measured"] = table.attrs["printed"][column]
        shown[f"{k}: model"] = [f"{v:.2f}" for v in curves[column]]
        shown[f"{k}: residual"] = [f"{m / v - 1:+.0%}" for m, v in zip(measured, curves[column])]
    return shown


def measured_over_model_table() -> pd.DataFrame:
    """Measured over packet model for every AN3935 measured column, at the smallest and largest size."""
    from .. import data

    specs = [
        ("an3935-table7", "write", "MSC8156", {"x4_gbit_s": 4, "x2_gbit_s": 2, "x1_gbit_s": 1}, 256),
        ("an3935-table8", "read", "MSC8156", {"x4_gbit_s": 4, "x2_gbit_s": 2, "x1_gbit_s": 1}, 256),
        ("an3935-table9", "write", "MSC8156", {"measured_mps256_gbit_s": 4}, 256),
        ("an3935-table9", "write", "MSC8156", {"measured_mps128_gbit_s": 4}, 128),
        ("an3935-table10", "read", "MSC8156", {"measured_mps256_gbit_s": 4}, 256),
        ("an3935-table10", "read", "MSC8156", {"measured_mps128_gbit_s": 4}, 128),
        ("an3935-table15", "write", "MSC8157", {f"measured_x{n}_gbit_s": n for n in (1, 2, 4)}, 256),
        ("an3935-table16", "read", "MSC8157", {f"measured_x{n}_gbit_s": n for n in (1, 2, 4)}, 256),
    ]
    rows = []
    for name, kind, device, columns, mps_bytes in specs:
        t = data.load(name)
        for column, lanes in columns.items():
            link = pcie.an3935_link(device, lanes, mps_bytes)
            ratio = [getattr(r, column) / pcie.goodput_gbit_s(kind, link, r.bytes, duplex=True)
                     for r in t.itertuples()]
            rows.append({"table": t.attrs["provenance"]["table"], "column": t.attrs["titles"][column],
                         "link": f"{device} x{lanes}, MPS {mps_bytes}", "transfer": kind,
                         "at 8 bytes": f"{ratio[0]:.0%}", "at 32 KiB": f"{ratio[-1]:.0%}",
                         "best": f"{max(ratio):.0%}"})
    return pd.DataFrame(rows)


def above_ceiling_table() -> pd.DataFrame:
    """Measured AN3935 points above what the link could carry even with no DLLPs at all."""
    from .. import data

    specs = [("an3935-table7", "write", "MSC8156", {"x4_gbit_s": 4, "x2_gbit_s": 2, "x1_gbit_s": 1}),
             ("an3935-table8", "read", "MSC8156", {"x4_gbit_s": 4, "x2_gbit_s": 2, "x1_gbit_s": 1}),
             ("an3935-table15", "write", "MSC8157", {f"measured_x{n}_gbit_s": n for n in (1, 2, 4)}),
             ("an3935-table16", "read", "MSC8157", {f"measured_x{n}_gbit_s": n for n in (1, 2, 4)})]
    rows = []
    for name, kind, device, columns in specs:
        t = data.load(name)
        for column, lanes in columns.items():
            bare = pcie.Link(gen=pcie.AN3935_DEVICES[device], lanes=lanes, mps=256, mrrs=256, dllp="none")
            for r in t.itertuples():
                ceiling = pcie.goodput_gbit_s(kind, bare, r.bytes, duplex=True)
                measured = getattr(r, column)
                if measured > ceiling:
                    rows.append({"table": t.attrs["provenance"]["table"], "link": f"{device} x{lanes}",
                                 "transfer": f"{r.bytes_as_printed} bytes, {kind}",
                                 "measured (Gbit/s)": t.attrs["printed"][column][r.Index],
                                 "ceiling without DLLPs (Gbit/s)": f"{ceiling:.2f}",
                                 "excess": f"{measured / ceiling - 1:+.0%}"})
    return pd.DataFrame(rows)
