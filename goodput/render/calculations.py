"""Every chapter's calculated table, by chapter: what the page, the panel and the workbook show."""

from __future__ import annotations

from typing import Callable

from . import bus, can, coding, ethernet, hyperlink, pcie, spi, srio, tcp
from .calculation import Calculation

__all__ = ["CHAPTERS", "get"]

#: Chapter (notebook name) -> the function building its calculation, in book order.
CHAPTERS: dict[str, Callable[[], Calculation]] = {
    "line-coding": coding.calculation,
    "pcie-packets": pcie.calculation,
    "pcie-reads": pcie.reads_calculation,
    "pcie-measured": lambda: pcie.latency_calculation("write"),
    "keystone-memory-edma": bus.copy_calculation,
    "srio": srio.calculation,
    "hyperlink": hyperlink.calculation,
    "ethernet-framing": ethernet.calculation,
    "tcp-goodput": tcp.calculation,
    "spi": spi.calculation,
    "can-fd": can.calculation,
}


def get(chapter: str) -> Calculation:
    """The calculation of ``chapter``; a clear error naming the chapters that have one."""
    try:
        return CHAPTERS[chapter]()
    except KeyError:
        raise KeyError(f"chapter {chapter!r} has no model to calculate; "
                       f"chapters with one: {', '.join(CHAPTERS)}") from None
