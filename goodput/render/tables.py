"""Tables a chapter shows: its source checks, a published table beside the model, link summaries."""

from __future__ import annotations

import pandas as pd
import sympy as sp

from .. import checks, coding

__all__ = ["checks_table", "provenance_sentence", "efficiency_table", "common_links_table"]


def checks_table(chapter: str) -> pd.DataFrame:
    """A chapter's source checks, one row each, the way a reader compares them."""
    frame = checks.to_frame(checks.collect(chapter))
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
