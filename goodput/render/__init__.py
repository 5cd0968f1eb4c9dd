"""Rendering: sympy -> Vega expressions, live altair charts, calculated tables,
workbooks, ipywidgets panels; one module of charts and tables per chapter."""

from . import (boot, bus, calculation, calculations, can, charts, coding, ethernet, formula, hostbench, hyperlink,
               latency, panels, pcie, sizing, spi, srio, tables, tcp, vega, workbook)

__all__ = ["boot", "bus", "calculation", "calculations", "can", "charts", "coding", "ethernet", "formula",
           "hostbench", "hyperlink", "latency", "panels", "pcie", "sizing", "spi", "srio", "tables",
           "tcp", "vega", "workbook"]
