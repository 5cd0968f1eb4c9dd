"""Rendering: sympy -> Vega expressions, live altair charts, calculated tables,
workbooks, ipywidgets panels, how tables display; one module of charts and tables per chapter,
named after it (chapter ``pcie-reads``: :mod:`pcie_reads`, found through :mod:`goodput.core.chapters`),
whose ``calculation()`` builds the chapter's calculated table if it has one (:mod:`calculations`).

Importing it in a kernel makes every DataFrame display as :func:`display.frame_html`, and every altair
chart carry the loader that draws it in JupyterLab from the repository's vega (:func:`live.use_renderer`)."""

from goodput.render import calculation, calculations, charts, controls, display, formula, live, panels, tables, vega, workbook

__all__ = ["calculation", "calculations", "charts", "controls", "display", "formula", "live", "panels", "tables",
           "vega", "workbook"]

display.show_frames()
live.use_renderer()
