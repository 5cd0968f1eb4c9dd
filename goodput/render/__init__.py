"""Rendering: sympy -> Vega expressions, live altair charts, calculated tables,
workbooks, ipywidgets panels, how tables display; one module of charts and tables per chapter.

Importing it in a kernel makes every DataFrame display as :func:`display.frame_html`."""

from . import (boot, bus, calculation, calculations, can, charts, coding, display, ethernet, formula, hostbench,
               hyperlink, latency, panels, pcie, sizing, spi, srio, tables, tcp, vega, workbook)

__all__ = ["boot", "bus", "calculation", "calculations", "can", "charts", "coding", "display", "ethernet",
           "formula", "hostbench", "hyperlink", "latency", "panels", "pcie", "sizing", "spi", "srio", "tables",
           "tcp", "vega", "workbook"]

display.show_frames()
