"""Intel 324611 (the PCI Express performance measurement tutorial), §3.1 (the rates of a gen1 link after
8b/10b: bit and byte rate, the coding overhead, the full-duplex figure and the byte rate the text states again),
against the line-code model (:mod:`goodput.models.coding`), for the line-coding chapter.
"""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding
from goodput.models.coding import (
    CODES,
    bit_rate_expr,
    bit_rate_formula,
    bit_rate_gbit_s,
    byte_rate_gbyte_s,
    coded_bits,
    data_bits,
    lanes,
    line_overhead_expr,
    line_rate,
    payload_overhead_expr,
)

__all__ = ["intel_bit_rates", "intel_full_duplex_checks", "intel_restated_rate_checks",
           "intel_full_duplex_source_checks"]


@checks.provider(coding)
def intel_bit_rates():
    """Intel 324611 §3.1: the bit rate, the byte rate and the coding overhead of each link, against the model."""
    eight_ten = CODES["8b10b"]
    line_share = 100 * float(line_overhead_expr(eight_ten))
    per_data_bit = 100 * float(payload_overhead_expr(eight_ten))
    t = data.load("intel-324611-s3-1")
    out = []
    for row in t.itertuples():
        label = f"gen1 x{row.lanes}"
        out += [checks.compare(t, row.Index, "bit_rate_gbit_s",
                               bit_rate_gbit_s(row.transfer_rate_gbaud, row.lanes, "8b10b"), label,
                               formula=bit_rate_formula("8b10b", row.transfer_rate_gbaud, row.lanes)),
                checks.compare(t, row.Index, "byte_rate_mbyte_s",
                               1000 * byte_rate_gbyte_s(row.transfer_rate_gbaud, row.lanes, "8b10b"), label,
                               formula=bit_rate_formula("8b10b", row.transfer_rate_gbaud, row.lanes,
                                                        sp.Rational(1000, 8))),
                checks.compare(t, row.Index, "coding_overhead_percent", per_data_bit, label,
                               f"Counted per data bit (n/k - 1); the same code costs {line_share:g} % of the line.")]
    return out


def intel_full_duplex_checks(table) -> list:
    """Intel 324611 §3.1's full-duplex figure: the byte rate after the line code, both directions together,
    for each row of ``table`` (``intel-324611-s3-1``)."""
    c = CODES["8b10b"]
    out = []
    for row in table.itertuples():
        values = {line_rate: row.transfer_rate_gbaud, lanes: row.lanes, data_bits: c.data_bits,
                  coded_bits: c.coded_bits}
        both = 2 * sp.Rational(1000, 8) * bit_rate_expr()
        out.append(checks.compare(
            table, row.Index, "full_duplex_mbyte_s",
            2 * 1000 * byte_rate_gbyte_s(row.transfer_rate_gbaud, row.lanes, "8b10b"), f"gen1 x{row.lanes}",
            "Both directions of the link together; each carries half of it.", formula=(both, values)))
    return out


def intel_restated_rate_checks(table) -> list:
    """Intel 324611 §3.1's byte rate where the text states it again (``intel-324611-s3-1``): each direction of
    the full-duplex note and the section's closing 'throughput after physical layer', against the byte rate
    after the line code."""
    out = []
    for row in table.itertuples():
        values = {line_rate: row.transfer_rate_gbaud, lanes: row.lanes, data_bits: CODES["8b10b"].data_bits,
                  coded_bits: CODES["8b10b"].coded_bits}
        for column in ("each_direction_mbyte_s", "after_physical_layer_mbyte_s"):
            out.append(checks.compare(
                table, row.Index, column,
                1000 * byte_rate_gbyte_s(row.transfer_rate_gbaud, row.lanes, "8b10b"), f"gen1 x{row.lanes}",
                "One direction of the link after 8b/10b.", formula=(sp.Rational(1000, 8) * bit_rate_expr(), values)))
    return out


@checks.provider(coding)
def intel_full_duplex_source_checks():
    """Intel 324611 §3.1: the full-duplex byte rate and the byte rate the text states again."""
    table = data.load("intel-324611-s3-1")
    return intel_full_duplex_checks(table) + intel_restated_rate_checks(table)
