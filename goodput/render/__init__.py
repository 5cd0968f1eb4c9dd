"""Rendering: sympy -> Vega expressions and spreadsheet formulas, live altair charts, tables,
ipywidgets panels; one module of charts and tables per chapter."""

from . import (boot, bus, can, charts, coding, ethernet, formula, hostbench, hyperlink, latency, panels, pcie,
               sizing, spi, spreadsheet, srio, tables, tcp, vega)

__all__ = ["boot", "bus", "can", "charts", "coding", "ethernet", "formula", "hostbench", "hyperlink", "latency",
           "panels", "pcie", "sizing", "spi", "spreadsheet", "srio", "tables", "tcp", "vega"]
