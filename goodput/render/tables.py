"""Tables a chapter shows: its source checks, a published table beside the model, link summaries."""

from __future__ import annotations

import pandas as pd
import sympy as sp

from .. import checks, coding, data

__all__ = ["checks_summary", "checks_table", "published_vs_model", "pcie_generations_table",
           "dllp_share_table", "latency_fit_table", "measured_over_model_table",
           "above_ceiling_table", "intel_examples_table", "hyperlink_implied_overhead",
           "published_table", "provenance_sentence", "efficiency_table", "common_links_table"]


def checks_summary(chapter: str) -> pd.DataFrame:
    """How many of a chapter's checks are ok, rounding or erratum, per document and table."""
    frame = checks.to_frame(checks.collect(chapter))
    counts = frame.groupby(["document", "where", "status"]).size().unstack("status", fill_value=0)
    return counts.reindex(columns=list(checks.STATUSES), fill_value=0).reset_index()


def checks_table(chapter: str, only_problems: bool = False) -> pd.DataFrame:
    """A chapter's source checks, one row each (or only those not ``ok``), as a reader compares them."""
    frame = checks.to_frame(checks.collect(chapter))
    if only_problems:
        frame = frame[frame["status"] != "ok"].reset_index(drop=True)
    shown = pd.DataFrame({
        "document": frame["document"],
        "where": frame["where"],
        "row": frame["row"],
        "quantity": frame["quantity"] + " (" + frame["unit"] + ")",
        "published": frame["published"],
        "model": [f"{m:.6g}" for m in frame["model"]],
        "± printed": [f"{t:g}" for t in frame["tolerance"]],
        "status": frame["status"],
    })
    if only_problems:
        shown["note"] = frame["note"]
    return shown


def provenance_sentence(table: pd.DataFrame) -> str:
    """One sentence naming where a published table came from (Markdown)."""
    p = table.attrs["provenance"]
    text = f"*{p['title']}*: {p['document_title']}, {p['table']}. {p['conditions']}"
    if p["reconstructed"]:
        text += f" Reconstructed: {p['reconstructed']}"
    return text


def efficiency_table() -> pd.DataFrame:
    """Each line code's efficiency and its two overhead figures, from the model's expressions."""
    rows = []
    for c in coding.CODES.values():
        eff = coding.efficiency_expr(c)
        rows.append({
            "code": c.name,
            "k data bits": c.data_bits,
            "n line bits": c.coded_bits,
            "efficiency k/n": f"{sp.nsimplify(eff)} = {float(eff):.6f}",
            "overhead, share of line": f"{100 * float(coding.line_overhead_expr(c)):.4g} %",
            "overhead, per data bit": f"{100 * float(coding.payload_overhead_expr(c)):.4g} %",
            "used by": c.used_by,
        })
    return pd.DataFrame(rows)


def common_links_table() -> pd.DataFrame:
    """Goodput of the links in :data:`goodput.coding.COMMON_LINKS`."""
    rows = []
    for link in coding.COMMON_LINKS:
        r = coding.link_rates(link.code, link.line_rate_gbaud, link.lanes)
        rows.append({
            "link": link.name,
            "code": coding.CODES[link.code].name,
            "signalling (Gbaud)": f"{r['signalling_rate_gbaud']:g}",
            "data (Gbit/s)": f"{r['goodput_gbit_s']:.6g}",
            "data (MB/s)": f"{1000 * r['goodput_gbyte_s']:.6g}",
            "left on the table (Gbit/s)": f"{r['signalling_rate_gbaud'] - r['goodput_gbit_s']:.4g}",
        })
    return pd.DataFrame(rows)


def published_vs_model(name: str, column: str, chapter: str) -> pd.DataFrame:
    """A published table as printed, with the model's value and the check's status beside ``column``."""
    table = data.load(name)
    title = table.attrs["titles"][column]
    items = [c for c in checks.collect(chapter) if c.resource == name and c.quantity == title]
    if len(items) != len(table):
        raise ValueError(f"{chapter} checks {len(items)} cells of {name}.{column}, the table has {len(table)}")
    shown = pd.DataFrame({c: table.attrs["printed"][c] for c in table.columns
                          if not (c.endswith("_as_printed") and c != "calculation_as_printed")})
    shown[f"{column} (model)"] = [f"{c.model:.4f}" for c in items]
    shown["status"] = [c.status for c in items]
    return shown


def pcie_generations_table(sizes=(64, 256, 1500, 4096), lanes: int = 4) -> pd.DataFrame:
    """Write goodput per generation at a few sizes: MPS 256, spec DLLP rates, fewest SKPs.

    Gen6 runs in flit mode: DLLPs ride in the flits and its SKP rate is not modelled.
    """
    from .. import pcie

    rows = []
    for gen in pcie.GENERATIONS.values():
        flit = gen.number in pcie.FLIT_MODE
        link = pcie.Link(gen=gen.number, lanes=lanes, mps=256, addr=64, dllp="none" if flit else "spec",
                         skp="none" if flit else "min")
        bits = coding.bit_rate_gbit_s(gen.rate_gtps, lanes, gen.code)
        row = {"link": f"gen{gen.number} x{lanes}" + (" (flit mode)" if flit else ""),
               "bit rate (Gbit/s)": f"{bits:.4g}"}
        for size in sizes:
            g = pcie.goodput_gbit_s("write", link, size)
            row[f"{size} B (Gbit/s)"] = f"{g:.4g} ({g / bits:.0%})"
        rows.append(row)
    return pd.DataFrame(rows)


def dllp_share_table(gen: int = 3, mps: int = 256) -> pd.DataFrame:
    """Share of link time spent on ACK + UpdateFC at the specification's rates, per width.

    Two ways: striped over the lanes (this model), and charged per lane (pcie-bench).
    """
    from .. import pcie_spec

    rows = []
    for lanes in (1, 2, 4, 8, 16):
        ack, fc = pcie_spec.latency_limits(gen, lanes, mps)
        rows.append({
            "link": f"gen{gen} x{lanes}, MPS {mps}",
            "L_ack, L_fc (symbol times)": f"{ack}, {fc}",
            "DLLP share, striped (this model)": f"{8 / (lanes * ack) + 8 / (lanes * fc):.2%}",
            "DLLP share, per lane (pcie-bench)": f"{8 / ack + 8 / fc:.2%}",
        })
    return pd.DataFrame(rows)


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
    from .. import data, pcie

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
    from .. import data, pcie

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


def intel_examples_table() -> pd.DataFrame:
    """Intel 324611 §3.5 Examples 1 and 2 as printed, against the model or the parsed trace."""
    t = data.load("intel-324611-s3-5-examples")
    by_row = {c.row: c for c in checks.collect("pcie-reads") if c.resource == "intel-324611-s3-5-examples"}
    rows = []
    for r in t.itertuples():
        where = "" if r.basis == "calculation" else " trace"
        c = by_row[f"Example {r.example}{where}: {r.quantity} ({r.unit})"]
        rows.append({"example": r.example, "from": r.basis, "quantity": r.quantity,
                     "printed": f"{t.attrs['printed']['value'][r.Index]} {r.unit}",
                     "model" if r.basis == "calculation" else "model / parsed trace": f"{c.model:.4g} {r.unit}",
                     "status": c.status})
    return pd.DataFrame(rows)


def hyperlink_implied_overhead() -> pd.DataFrame:
    """Bytes per packet that the guide's 'maximum achievable' figures imply, at 6.25 Gbaud x 4.

    Solving ``B * P / (P + C) = G`` for ``C``, with ``B`` the 8b/9b bit rate and
    ``P`` the packet payload of each row (see :func:`goodput.render.hyperlink.measured_points`).
    """
    from . import hyperlink as charts

    bits = coding.bit_rate_gbit_s(6.25, 4, "8b9b")
    points = charts.measured_points()
    best = points[points["what"] == "maximum achievable"].drop_duplicates(["series", "memory"])
    rows = []
    for r in best.itertuples():
        rows.append({"transfer": r.series, "memory": r.memory, "payload per packet (bytes)": r.packet_bytes,
                     "maximum achievable (Gbit/s)": f"{r.gbit_s:g}",
                     "implied bytes per packet": f"{r.packet_bytes * (bits / r.gbit_s - 1):.1f}"})
    return pd.DataFrame(rows)


def published_table(name: str) -> pd.DataFrame:
    """A published table exactly as printed (its provenance is on the sources page)."""
    t = data.load(name)
    return pd.DataFrame({c: t.attrs["printed"][c] for c in t.columns})
