"""Intel 324611 (the PCI Express performance measurement tutorial), Table 1 (the efficiency and throughput of
small writes on a gen1 x1 link), against the packet model (:mod:`goodput.models.pcie`), for the pcie-packets
chapter.
"""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding, pcie
from goodput.models.pcie import Link, goodput_formula, goodput_gbit_s

__all__ = ["intel_table1"]

#: Why a cell of Table 1 is off, by (resource, row, column).
_NOTES = {
    ("intel-324611-table1", "1 byte, 3DW", "throughput_mbyte_s"):
        "250 MB/s x 1/21 is {model:.2f} MB/s, and the row's own efficiency (4.76 %) agrees; "
        "the printed {published} has two digits swapped.",
    ("intel-324611-table1", "4 bytes, 3DW", "throughput_mbyte_s"):
        "250 x 4/24 = {model:.4f}: cut to {published} instead of rounded to {rounded}.",
}


@checks.provider(pcie)
def intel_table1():
    """Intel 324611 Table 1: the efficiency and throughput of each write, against the packet model."""
    out = []

    def add(table, row, column, model, label, formula=None):
        note = _NOTES.get((table.attrs["provenance"]["resource"], label, column), "")
        out.append(checks.compare(table, row.Index, column, model, label, note, formula=formula))

    t = data.load("intel-324611-table1")
    for row in t.itertuples():
        link = Link(gen=1, lanes=1, mps=4096, addr=32 if row.header_dwords == 3 else 64, dllp="none")
        rate = goodput_gbit_s("write", link, row.payload_bytes)
        bits = coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes, link.code)
        label = f"{row.payload_bytes} byte{'s' if row.payload_bytes > 1 else ''}, {row.header_dwords}DW"
        add(t, row, "efficiency_percent", 100 * rate / bits, label)
        add(t, row, "throughput_mbyte_s", 1000 * rate / 8, label,
            goodput_formula("write", link, row.payload_bytes, scale=sp.Rational(1000, 8)))
    return out
