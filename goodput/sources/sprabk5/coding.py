"""TI SPRABK5 (the KeyStone II throughput guide): the line rates of Section 6 (PCIe: the links' aggregate rate
and the 8b/10b overhead of §6.1.1), Section 7 (SRIO lanes) and Section 8 (HyperLink), against the line-code
model (:mod:`goodput.models.coding`), for the line-coding chapter.
"""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding
from goodput.models.coding import (
    CODES,
    bit_rate_formula,
    bit_rate_gbit_s,
    byte_rate_gbyte_s,
    line_overhead_expr,
    link_rates,
    payload_overhead_expr,
)

__all__ = ["keystone_bit_rates"]


@checks.provider(coding)
def keystone_bit_rates():
    """SPRABK5 §6 (PCIe), §7 (SRIO) and §8 (HyperLink): every line-rate figure, against the line-code model."""
    eight_ten = CODES["8b10b"]
    line_share = 100 * float(line_overhead_expr(eight_ten))
    per_data_bit = 100 * float(payload_overhead_expr(eight_ten))
    out = []

    def add(table, row, column, model, label, note="", formula=None):
        out.append(checks.compare(table, row.Index, column, model, label, note, formula=formula))

    t = data.load("keystone2-s6-pcie-rates")
    for row in t.itertuples():
        label = f"PCIe gen2, {row.links} links"
        rates = link_rates("8b10b", row.rate_per_link_as_printed_gbit_s, row.links)
        add(t, row, "aggregate_rate_as_printed_gbit_s", rates["signalling_rate_gbaud"], label,
            "The guide's 'gigabits per second' here is the raw signalling rate in Gbaud; after "
            f"8b/10b the links carry {rates['goodput_gbit_s']:g} Gbit/s.")
        add(t, row, "coding_overhead_percent", line_share, f"§6.1.1: {label}",  # the 20% stands in Sec. 6.1.1
            f"Counted as a share of the line (1 - k/n); per data bit it is {per_data_bit:g} %.")

    t = data.load("keystone2-s7-srio-lane-rates")
    for row in t.itertuples():
        add(t, row, "bit_rate_gbit_s", bit_rate_gbit_s(row.line_rate_gbaud, 1, "8b10b"),
            f"{row.line_rate_gbaud:g} Gbaud x1", formula=bit_rate_formula("8b10b", row.line_rate_gbaud, 1))

    t = data.load("keystone2-s8-hyperlink-rate")
    for row in t.itertuples():
        label = f"{row.line_rate_gbaud:g} Gbaud x{row.lanes}"
        add(t, row, "bit_rate_gbit_s", bit_rate_gbit_s(row.line_rate_gbaud, row.lanes, "8b9b"), label,
            "The product is {model:.4f}; the guide cuts it to {published} where rounding "
            "to its precision gives {rounded}.", formula=bit_rate_formula("8b9b", row.line_rate_gbaud, row.lanes))
        add(t, row, "byte_rate_gbyte_s", byte_rate_gbyte_s(row.line_rate_gbaud, row.lanes, "8b9b"), label,
            formula=bit_rate_formula("8b9b", row.line_rate_gbaud, row.lanes, sp.Rational(1, 8)))
    return out
