"""A formula with the reader's numbers in place of its symbols, as the sources print them.

The source documents print calculations as "10 x 4 x (8/9) = 35.5 Gbps". The
same form is printed here from the model's sympy expression, so the numbers a
panel shows are always the formula the model evaluates.
"""

from __future__ import annotations

from typing import Mapping

import sympy as sp

__all__ = ["substituted_latex"]


def _shown(value: float) -> sp.Symbol:
    # A symbol named by the number keeps sympy from multiplying the numbers out.
    text = f"{value:.6g}" if isinstance(value, float) else str(value)
    return sp.Symbol(text)


def substituted_latex(expr: sp.Expr, values: Mapping[sp.Symbol, float]) -> str:
    """LaTeX of ``expr`` with each symbol replaced by its number, structure kept."""
    missing = expr.free_symbols - set(values)
    if missing:
        raise ValueError(f"no value given for {', '.join(sorted(map(str, missing)))}")
    return sp.latex(expr.subs({s: _shown(v) for s, v in values.items()}, simultaneous=True))
