"""Rendering: sympy -> Vega expressions, live altair charts, calculated tables,
workbooks, ipywidgets panels, how tables display; one module of charts and tables per chapter,
named after it (chapter ``pcie-reads``: :mod:`pcie_reads`, found through :mod:`goodput.core.chapters`),
whose ``calculation()`` builds the chapter's calculated table if it has one (:mod:`calculations`).

Importing a module of it changes nothing outside it: a notebook sets up its display with one call,
:func:`goodput.render.notebook.setup`, in its first cell."""
