"""Rendering: sympy -> Vega expressions, live altair charts, calculated tables,
workbooks, ipywidgets panels, how tables display; one module of charts and tables per chapter,
named after it (chapter ``pcie-reads``: :mod:`pcie_reads`), whose ``calculation()`` builds the
chapter's calculated table if it has one (:mod:`calculations`).

Importing it in a kernel makes every DataFrame display as :func:`display.frame_html`."""

from . import (boot_and_memory, calculation, calculations, can_fd, charts, code_size, display, ethernet_framing,
               formula, hyperlink, keystone_memory_edma, latency_and_bandwidth, line_coding, measure_it_yourself,
               panels, pcie_measured, pcie_packets, pcie_reads, spi, srio, tables, tcp_goodput, vega, workbook)

__all__ = ["boot_and_memory", "calculation", "calculations", "can_fd", "charts", "code_size", "display",
           "ethernet_framing", "formula", "hyperlink", "keystone_memory_edma", "latency_and_bandwidth", "line_coding",
           "measure_it_yourself", "panels", "pcie_measured", "pcie_packets", "pcie_reads", "spi", "srio", "tables",
           "tcp_goodput", "vega", "workbook"]

display.show_frames()
