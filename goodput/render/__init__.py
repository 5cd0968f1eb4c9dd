"""Rendering: sympy -> Vega expressions, live altair charts, ipywidgets panels."""

from . import charts, coding, ethernet, formula, hyperlink, panels, vega

__all__ = ["charts", "coding", "ethernet", "formula", "hyperlink", "panels", "vega"]
