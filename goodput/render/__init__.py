"""Rendering: sympy -> Vega expressions, live altair charts, ipywidgets panels."""

from . import charts, coding, formula, panels, vega

__all__ = ["charts", "coding", "formula", "panels", "vega"]
