"""Freescale AN3935 (PCI Express throughput of the MSC8156 and MSC8157 DSPs), Table 1 (each device's bit rate
after 8b/10b), against the line-code model (:mod:`goodput.models.coding`), for the line-coding chapter.
"""

from __future__ import annotations

from goodput import checks
from goodput.core import data
from goodput.models import coding

__all__ = ["an3935_bit_rates"]


@checks.provider(coding)
def an3935_bit_rates():
    """AN3935 Table 1: each device's bit rate after 8b/10b, against the line-code model."""
    t = data.load("an3935-table1")
    return [checks.compare(t, row.Index, "bit_rate_gbit_s",
                           coding.bit_rate_gbit_s(row.transfer_rate_gbaud, row.lanes, "8b10b"),
                           f"{row.device} x{row.lanes}",
                           formula=coding.bit_rate_formula("8b10b", row.transfer_rate_gbaud, row.lanes))
            for row in t.itertuples()]
