"""Charts and tables of the srio chapter (Serial RapidIO)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters
from goodput.core.params import DEFAULT
from goodput.core.precision import stable
from goodput.models import coding, srio
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider
from goodput.render.vega import matches

__all__ = ["SIZES", "field_table", "field_sources", "class_table", "swrite_table", "rate_table", "explore_rows",
           "calculation", "explore_chart", "fit_table", "fit_chart", "regime_table", "proportional_table"]

#: Transfer sizes of Tables 16-21, bytes.
SIZES = (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)

_TABLE_KIND = {"NWRITE": "nwrite", "NREAD": "nread", "Type 11": "type11"}


def field_table(payloads=(8, 64, 256), ids=DEFAULT, address_bits=DEFAULT, line_rate_gbaud=DEFAULT) -> pd.DataFrame:
    """Bytes of each field of the data packet, per transaction and payload, on a lane at ``line_rate_gbaud``."""
    rows = []
    for key, k in srio.KINDS.items():
        for p in payloads:
            wire = srio.wire_bytes(key, p, ids, 1, address_bits, line_rate_gbaud)
            rows.append({"transaction": k.name, "payload": p,
                         **srio.fields(key, p, ids, address_bits, line_rate_gbaud), "overhead": wire - p})
    return pd.DataFrame(rows)


def field_sources() -> pd.DataFrame:
    """Each field, its width and the specification that defines it."""
    return pd.DataFrame(srio.FIELD_SOURCES, columns=["field", "bits", "defined in (rev. 4.1)"])


def class_table() -> pd.DataFrame:
    """What each Baud Rate Class sets: code, idle sequence, control symbol, link CRC, alignment, clock compensation."""
    return pd.DataFrame([{
        "class": c.number, "rates (Gbaud)": ", ".join(f"{r:g}" for r in c.rates_gbaud), "RapidIO": c.revisions,
        "code": coding.CODES[c.code].name, "idle": c.idle, "control symbol": c.control_symbol,
        "s: bytes per control symbol": c.control_symbol_bytes, "K: link CRC bytes": c.link_crc_bytes,
        "w: packet a multiple of (bytes)": c.align_bytes,
        f"clock compensation per {srio.CLOCK_SPAN} per lane": c.clock_units} for c in srio.CLASSES])


def swrite_table(payload_bytes: int = 256) -> pd.DataFrame:
    """Wire bytes of an NWRITE packet and what an SWRITE of the same payload saves, by device ID width,
    address width and Baud Rate Class (a rate of each)."""
    rows = []
    for ids in srio.ID_BITS:
        for x in srio.ADDRESS_BITS:
            row = {"device IDs (bits)": ids, "address (bits)": x}
            for c in srio.CLASSES:
                rate = c.rates_gbaud[0]
                nwrite, swrite = (srio.wire_bytes(k, payload_bytes, ids, 1, x, rate) for k in ("nwrite", "swrite"))
                row[f"class {c.number}: NWRITE"] = nwrite
                row[f"class {c.number}: SWRITE saves"] = nwrite - swrite
            rows.append(row)
    return pd.DataFrame(rows)


def rate_table(kind: str = "nwrite", lanes=DEFAULT, size_bytes=DEFAULT, ids=DEFAULT,
               address_bits=DEFAULT) -> pd.DataFrame:
    """Goodput and efficiency of back-to-back transfers at every rate RapidIO 1.x to 3.x defines."""
    rows = []
    for rate in srio.LINE_RATES_GBAUD:
        r = srio.evaluate(kind, rate, lanes, size_bytes, ids, DEFAULT, True, address_bits)
        rows.append({"Gbaud": rate, "class": r["baud_class"], "code": coding.CODES[r["code"]].name,
                     "goodput (Gbit/s)": r["goodput_gbit_s"], "efficiency": r["efficiency"]})
    return stable(pd.DataFrame(rows))


def explore_rows() -> pd.DataFrame:
    """One row per (transaction, size) for the model curves: the transaction's logical header bytes ``F``,
    whether it carries an address, and the acknowledgements riding along."""
    rows = [{"transaction": k.name, "size_bytes": s, "F": k.fixed_logical_bytes, "addressed": int(k.addressed),
             "a": k.acks_in_data_direction}
            for k in srio.KINDS.values() for s in SIZES if s <= k.max_bytes]
    return pd.DataFrame(rows)


def _measured_rows() -> pd.DataFrame:
    t = srio.measured()
    return pd.DataFrame({
        "transaction": [srio.KINDS[_TABLE_KIND[x]].name for x in t["transaction"]],
        "size_bytes": t["payload_bytes"], "lanes": t["lanes"], "phy_gbaud": t["phy_gbaud"],
        "memory": t["memory"], "measured_gbit_s": t["throughput_mbit_s"] / 1000,
        "table": [f"Table {n}" for n in t["table"]]})


def calculation() -> Calculation:
    """Goodput of each transaction type against transfer size for the reader's port."""
    p = srio.PARAMETERS
    kinds = {k.name: key for key, k in srio.KINDS.items()}

    def numeric(inputs, case):
        return {"model_gbit_s": srio.goodput_gbit_s(kinds[case["transaction"]], inputs["line_rate_gbaud"],
                                                    inputs["lanes"], case["size_bytes"], inputs["id_bits"],
                                                    inputs["control_symbols"], address_bits_=inputs["address_bits"])}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="srio_model", title="Goodput of back-to-back transfers in 256-byte packets",
        cases=explore_rows(), shown={"transaction": "transaction", "size_bytes": "bytes"},
        fields={srio.transfer: "size_bytes", srio.fixed_logical: "F", srio.addressed: "addressed", srio.acks: "a"},
        inputs=[Slider(p["line_rate_gbaud"]), Slider(p["lanes"]), Slider(p["id_bits"]), Slider(p["address_bits"]),
                Slider(p["control_symbols"]), Slider(p["response_ns"])],
        outputs=[Output("model_gbit_s", srio.transfer_goodput_expr(), "goodput", "Gbit/s")], numeric=numeric,
        headline={"size_bytes": 256},
        answers=Answers("model_gbit_s", transfer=srio.transfer, transfers="transfers",
                        packets=sp.ceiling(srio.transfer / srio.MAX_PAYLOAD_BYTES), packet_name="packets",
                        line_rate=coding.line_rate * coding.lanes, line="the lanes' signalling rate",
                        fixed=srio.response_time / 10 ** 9, latency_name="one transfer, with its fixed time"),
        command=BoxCommand("srio", [Word("", "transaction", {k.name: key for key, k in srio.KINDS.items()}),
                                    Word("--size", "size_bytes")],
                           {"model_gbit_s": "goodput_gbit_s"}))


def explore_chart() -> alt.VConcatChart:
    """Model goodput against transfer size for the sliders; the guide's points when the sliders
    sit on a configuration it measured (3.125 or 5 Gbaud, 1, 2 or 4 lanes; it does not state the
    address width); the calculated table."""
    calc = calculation()
    live = calc.live()
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)")
    color = alt.Color("transaction:N", title=None)
    model = live.base.mark_line().encode(
        x=x, y=alt.Y("model_gbit_s:Q", title="goodput (Gbit/s)"), color=color,
        tooltip=["transaction:N", "size_bytes:Q", alt.Tooltip("model_gbit_s:Q", format=".3f")])
    points = alt.Chart(stable(_measured_rows())).transform_filter(
        matches({"lanes": "lanes", "phy_gbaud": "line_rate_gbaud"})).mark_point(filled=True).encode(
        x=x, y="measured_gbit_s:Q", color=color, shape=alt.Shape("memory:N", title="measured"),
        tooltip=["table:N", "transaction:N", "memory:N", "size_bytes:Q", "measured_gbit_s:Q"])
    return calc.view(live, model, points,
        height=300, title="SRIO: model for the sliders (lines), Tables 16-21 at the same port (points)")


def fit_table() -> pd.DataFrame:
    """Every column of Tables 16-21: timing form, per-transaction time, bandwidth, knee, residuals,
    and the fitted bandwidth against the packet model's 256-byte ceiling."""
    rows = []
    for f in srio.fits():
        ceiling = srio.goodput_gbit_s(_TABLE_KIND[f.transaction], f.phy_gbaud, f.lanes, 256)
        rows.append({"table": f.table, "transaction": f.transaction, "Gbaud": f.phy_gbaud, "lanes": f.lanes,
                     "memory": f.memory, "timing": f.form, "t0 (ns)": round(f.t0_ns, 1),
                     "B (Gbit/s)": round(f.bandwidth_gbit_s, 3), "model ceiling (Gbit/s)": round(ceiling, 3),
                     "B / ceiling": f"{f.bandwidth_gbit_s / ceiling:.1%}", "knee (bytes)": round(f.knee_bytes),
                     "rms residual": f"{f.result.rms_residual:.1%}",
                     "worst residual": f"{f.result.worst_residual:.1%}"})
    return pd.DataFrame(rows)


def _fit_rows() -> pd.DataFrame:
    rows = []
    for f in srio.fits():
        fitted = srio.predict_mbit_s(f.form, f.sizes, f.t0_ns, f.bandwidth_gbit_s)
        measured = fitted * (1 + f.result.residuals)
        for s, m, y, r in zip(f.sizes, measured, fitted, f.result.residuals):
            rows.append({"table": f"Table {f.table}: {f.transaction}, {f.phy_gbaud:g} Gbaud", "size_bytes": s,
                         "series": f"{f.lanes}x {f.memory}", "measured_gbit_s": m / 1000,
                         "fitted_gbit_s": y / 1000, "residual": r,
                         "regime": "per transaction" if s < f.knee_bytes else "bandwidth"})
    return pd.DataFrame(rows)


def fit_chart() -> alt.FacetChart:
    """Measured points and the fitted timing per column, one panel per table."""
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)")
    base = alt.Chart(stable(_fit_rows()))
    lines = base.mark_line(opacity=0.7).encode(
        x=x, y=alt.Y("fitted_gbit_s:Q", scale=alt.Scale(type="log"), title="Gbit/s"),
        color=alt.Color("series:N", title=None))
    points = base.mark_point().encode(
        x=x, y="measured_gbit_s:Q", color="series:N", shape=alt.Shape("regime:N"),
        tooltip=["table:N", "series:N", "size_bytes:Q", alt.Tooltip("measured_gbit_s:Q", format=".3f"),
                 alt.Tooltip("fitted_gbit_s:Q", format=".3f"), alt.Tooltip("residual:Q", format=".1%"), "regime:N"])
    return alt.layer(lines, points).properties(width=240, height=170).facet(
        facet=alt.Facet("table:N", title=None), columns=2)


def regime_table(table: int) -> pd.DataFrame:
    """One table's residuals per size and column, with the regime the fit puts each size in."""
    f = _fit_rows()
    f = f[f["table"].str.startswith(f"Table {table}:")]
    cell = [f"{r:+.1%} {'T' if g == 'per transaction' else 'B'}" for r, g in zip(f["residual"], f["regime"])]
    return (f.assign(cell=cell).pivot(index="size_bytes", columns="series", values="cell")
            .rename_axis(columns=None).reset_index())


def proportional_table() -> pd.DataFrame:
    """NWRITE rates divided by size: one constant below the knee, whatever the port."""
    t = srio.measured()
    t = t[t["transaction"] == "NWRITE"]
    per_byte = t["throughput_mbit_s"] / t["payload_bytes"]
    out = t.assign(per_byte=per_byte, time_ns=8000 * t["payload_bytes"] / t["throughput_mbit_s"])
    small = out[out["payload_bytes"] <= 64]
    return stable(small.groupby("payload_bytes")
                  .agg(columns=("per_byte", "size"), rate_per_byte_mbit_s=("per_byte", "median"),
                       lowest=("per_byte", "min"), time_per_transaction_ns=("time_ns", "median"))
                  .reset_index())
