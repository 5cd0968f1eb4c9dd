"""Every chapter's calculated table, by chapter: what the page, the panel and the workbook show."""

from __future__ import annotations

from typing import Callable

from . import (can_fd, ethernet_framing, hyperlink, keystone_memory_edma, line_coding, pcie_measured, pcie_packets,
               pcie_reads, spi, srio, tcp_goodput)
from .calculation import Calculation

__all__ = ["CHAPTERS", "get"]

#: Chapter (notebook name) -> the function building its calculation (its render module's ``calculation``),
#: in book order.
CHAPTERS: dict[str, Callable[[], Calculation]] = {
    "line-coding": line_coding.calculation,
    "pcie-packets": pcie_packets.calculation,
    "pcie-reads": pcie_reads.calculation,
    "pcie-measured": pcie_measured.calculation,
    "keystone-memory-edma": keystone_memory_edma.calculation,
    "srio": srio.calculation,
    "hyperlink": hyperlink.calculation,
    "ethernet-framing": ethernet_framing.calculation,
    "tcp-goodput": tcp_goodput.calculation,
    "spi": spi.calculation,
    "can-fd": can_fd.calculation,
}


def get(chapter: str) -> Calculation:
    """The calculation of ``chapter``; a clear error naming the chapters that have one."""
    try:
        return CHAPTERS[chapter]()
    except KeyError:
        raise KeyError(f"chapter {chapter!r} has no model to calculate; "
                       f"chapters with one: {', '.join(CHAPTERS)}") from None
