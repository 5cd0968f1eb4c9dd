"""Goodput: how fast data really moves over embedded interconnects.

The library behind the book: one module per link model (``coding``), the
published tables and their provenance (``data``), the source checks every
chapter registers (``checks``), and the renderers that turn a sympy model into
live charts and widget panels (``render``).
"""

from . import checks, coding, data, errors, params

__all__ = ["checks", "coding", "data", "errors", "params"]
__version__ = "0.1.0"
