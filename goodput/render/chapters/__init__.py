"""One module per chapter, named after it (chapter ``pcie-reads``: :mod:`pcie_reads`): its charts, tables and
``calculation()``, found through :mod:`goodput.core.chapters`."""
