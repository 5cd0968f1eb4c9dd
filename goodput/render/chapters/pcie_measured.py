"""Charts and tables of the pcie-measured chapter: AN3935's measured tables against the packet model
and the latency-bound model."""

from __future__ import annotations

import altair as alt
import pandas as pd

from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.models import coding, pcie, pcie_latency
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider
from goodput.render.vega import matches

__all__ = ["measured_vs_model_chart", "latency_calculation", "calculation", "latency_chart", "latency_fit_table",
           "measured_over_model_table"]


def measured_vs_model_chart(table_name: str) -> alt.LayerChart:
    """A measured AN3935 table as points, one series per printed column, and the packet model of
    each series' link (its device, lanes and MPS) as a line.

    The model is the one AN3935 calculates with (ACK + UpdateFC per 4 TLPs, both directions).
    """
    table = data.load(table_name)
    measured = table[table["series"] == "measured"]
    labels = data.varying(measured, pcie.AN3935_LABELS)
    rows = []
    for r in measured.itertuples():
        link = pcie.an3935_link(r.device, r.lanes, r.mps_bytes)
        rows.append({"size_bytes": r.bytes, "series": labels[r.Index], "measured_gbit_s": r.gbit_s,
                     "model_gbit_s": pcie.goodput_gbit_s(r.transfer, link, r.bytes, duplex=True)})
    frame = pd.DataFrame(rows)
    by = " and ".join(measured.attrs["titles"][c] for c in pcie.AN3935_LABELS if measured[c].nunique() > 1)
    title = (f"{data.single(measured, 'device')} {data.single(measured, 'transfer')}s by {by} "
             f"({table.attrs['provenance']['table']})")
    base = alt.Chart(stable(frame)).encode(
        x=alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)"),
        color=alt.Color("series:N", title=None),
    )
    model = base.mark_line(strokeDash=[5, 3]).encode(y=alt.Y("model_gbit_s:Q", title="Gbit/s (AN3935's both-direction count)"))
    points = base.mark_point(filled=True, size=40).encode(
        y="measured_gbit_s:Q",
        tooltip=["series:N", "size_bytes:Q", alt.Tooltip("measured_gbit_s:Q", title="measured"),
                 alt.Tooltip("model_gbit_s:Q", format=".2f", title="packet model")],
    )
    return alt.layer(model, points).properties(width=520, height=240,
                                                title=title + " (points: measured; dashed: packet model)")


def latency_calculation(kind: str) -> Calculation:
    """AN3935's back-to-back sizes under the latency-bound model, live on its three timings
    (starting at the values fitted to the table)."""
    fit, _ = pcie_latency.fit_an3935(kind)
    measured, link = pcie_latency.an3935_back_to_back(kind)
    subs = {**pcie.link_substitution(link), pcie_latency.credits: pcie_latency.AN3935_NP_CREDITS}
    cases = pd.DataFrame({"size_bytes": measured["bytes"].drop_duplicates().to_list()})
    p = pcie_latency.PARAMETERS

    def numeric(inputs, case):
        return {"model_gbit_s": float(pcie_latency.latency_bound_gbit_s(
                    kind, link, [case["size_bytes"]], inputs["serial_ns"], inputs["latency_ns"],
                    inputs["in_flight"], duplex=True)[0]),
                "ceiling_gbit_s": pcie.goodput_gbit_s(kind, link, case["size_bytes"], duplex=True)}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name=f"an3935_{kind}_latency",
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
        numeric=numeric, headline={"size_bytes": 1024}, prefix="" if kind == "write" else f"{kind}-",
        answers=Answers("model_gbit_s", transfer=pcie.payload, transfers=f"{kind}s",
                        packets=pcie.tlp_count_expr(kind).subs(subs), packet_name="TLPs",
                        # the figures count both directions at once, as AN3935's do
                        line_rate=(2 * pcie.transfer_rate_expr() * coding.lanes).subs(subs).subs(pcie.generation, link.gen),
                        line="both directions' signalling rate"),
        # AN3935's link, as goodput pcie spells it, both directions at once as its tables count them
        command=BoxCommand("pcie", [Word(kind), *(w for flag, value in (
                               ("--gen", link.gen), ("--lanes", link.lanes), ("--mps", link.mps), ("--mrrs", link.mrrs),
                               ("--dllp", link.dllp)) for w in (Word(flag), Word(str(value)))),
                               Word("--size", "size_bytes"), Word("--duplex")],
                           {"model_gbit_s": "latency_bound_gbit_s", "ceiling_gbit_s": "goodput_gbit_s"}))


def calculation() -> Calculation:
    """The chapter's calculated table: AN3935's back-to-back writes under the latency-bound model
    (:func:`latency_calculation` of ``"write"``)."""
    return latency_calculation("write")


def _back_to_back_points(kind: str) -> pd.DataFrame:
    """AN3935's back-to-back measurements of ``kind``, one row each, with the DMA channels in flight."""
    measured, _ = pcie_latency.an3935_back_to_back(kind)
    labels = data.varying(measured, pcie.AN3935_LABELS)
    return pd.DataFrame({"size_bytes": measured["bytes"], "dma_channels": measured["dma_channels"].astype(int),
                         "series": labels + " (measured)", "measured_gbit_s": measured["gbit_s"]})


def latency_chart(kind: str) -> alt.VConcatChart:
    """AN3935's back-to-back table with the latency-bound model live on sliders (defaults: the fit),
    above the calculated table; the measured points of the slider's transfers in flight stand out."""
    calc = latency_calculation(kind)
    live = calc.live()
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)")
    measured = alt.Chart(stable(_back_to_back_points(kind))).mark_point(filled=True, size=40).encode(
        x=x, y=alt.Y("measured_gbit_s:Q", title="Gbit/s (AN3935's both-direction count)"),
        color=alt.Color("series:N", title=None),
        opacity=alt.condition(matches({"dma_channels": "in_flight"}), alt.value(1.0), alt.value(0.35)),
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
    result, curves = pcie_latency.fit_an3935(kind)
    runs = pcie_latency.an3935_runs(pcie_latency.an3935_back_to_back(kind)[0])
    shown = pd.DataFrame({"bytes": data.printed(next(iter(runs.values())), "bytes_as_printed").to_list()})
    for k, rows in runs.items():
        measured = rows["gbit_s"].to_numpy()
        shown[f"{k} in flight: measured"] = data.printed(rows, "gbit_s").to_list()
        shown[f"{k}: model"] = [f"{v:.2f}" for v in curves[k]]
        shown[f"{k}: residual"] = [f"{m / v - 1:+.0%}" for m, v in zip(measured, curves[k])]
    return shown


#: The measured tables beside the packet model, at their smallest and largest size (the back-to-back
#: tables are the latency model's).
OVER_MODEL = ("an3935-table7", "an3935-table8", "an3935-table9", "an3935-table10", "an3935-table15", "an3935-table16")

#: The measured tables by link width, whose points are held to the ceiling without DLLPs.
BY_WIDTH = ("an3935-table7", "an3935-table8", "an3935-table15", "an3935-table16")


def _measured_series(name: str):
    """Table ``name``'s measured rows, per printed column: ``(label, rows)`` in the printed order."""
    t = data.load(name)
    measured = t[t["series"] == "measured"]
    labels = data.varying(measured, pcie.AN3935_LABELS)
    return t, [(label, measured[labels == label]) for label in labels.drop_duplicates()]


def measured_over_model_table() -> pd.DataFrame:
    """Measured over packet model for every AN3935 measured column, at the smallest and largest size."""
    rows = []
    for name in OVER_MODEL:
        t, series = _measured_series(name)
        for label, m in series:
            device, kind, lanes, mps_bytes = (data.single(m, c) for c in ("device", "transfer", "lanes", "mps_bytes"))
            link = pcie.an3935_link(device, lanes, mps_bytes)
            ratio = [r.gbit_s / pcie.goodput_gbit_s(kind, link, r.bytes, duplex=True) for r in m.itertuples()]
            rows.append({"table": t.attrs["provenance"]["table"], "column": f"measured, {label}",
                         "link": f"{device} x{lanes}, MPS {mps_bytes}", "transfer": kind,
                         "at 8 bytes": f"{ratio[0]:.0%}", "at 32 KiB": f"{ratio[-1]:.0%}",
                         "best": f"{max(ratio):.0%}"})
    return pd.DataFrame(rows)
