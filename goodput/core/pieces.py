"""A transfer cut into pieces: the cost of ``S`` bytes sent as full pieces and one for the rest.

Every link sends a transfer larger than its largest packet (an MSS, 256 bytes of SRIO payload, 64 bytes
of CAN FD data) as full packets and one smaller packet for what is left. :func:`cut` writes that once,
as a sympy expression of the cost of one piece, so each model builds its transfer from its packet.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["cut"]


def cut(total: sp.Expr, most: sp.Expr, cost: sp.Expr, piece: sp.Symbol, last=None) -> sp.Expr:
    """The cost of ``total`` bytes cut into pieces of at most ``most`` bytes: ``floor(total / most)`` full
    pieces and one for the rest, if any. ``cost`` is the cost of one piece, an expression of its size
    ``piece``; ``last(rest)``, if given, is the size the last piece takes for ``rest`` bytes (a frame whose
    length is one of a few, padded)."""
    full = sp.floor(total / most)
    rest = total - full * most
    size = rest if last is None else last(rest)
    return full * cost.subs(piece, most) + sp.Piecewise((cost.subs(piece, size), rest > 0), (0, True))
