"""The USB 3.0 and USB 3.1 specifications (revision 1.0 of each), Section 4.4.11 (Efficiency), against the
SuperSpeed model (:mod:`goodput.models.usb`), for the usb-superspeed chapter: the raw throughput each revision
prints for each generation, the signalling rate after the line code.
"""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding, usb
from goodput.models.usb import GENERATIONS, RAW, SPEC_TABLE, generation_values

__all__ = ["raw_byte_rate_expr", "source_checks"]


def raw_byte_rate_expr() -> sp.Expr:
    """Byte rate (GB/s) after the line code alone, what the specification calls the raw throughput."""
    return coding.byte_rate_expr().subs(coding.lanes, 1)


@checks.provider(usb)
def source_checks():
    """The raw throughput the specification prints for each generation: the signalling rate after
    the line code. Its statements of an effective bandwidth are bounds, not calculations: the
    chapter shows them beside the model without checking them."""
    t = data.load(SPEC_TABLE)
    out = []
    for row in t.itertuples():
        if row.quantity != RAW:
            continue
        g = GENERATIONS[row.generation]
        values = {**{s: v for s, v in generation_values(g.number).items() if s in raw_byte_rate_expr().free_symbols},
                  coding.line_rate: row.signalling_gbit_s}
        in_megabytes = t.attrs["printed"]["throughput_mbyte_s"][row.Index] != ""
        column, scale = ("throughput_mbyte_s", 1000) if in_megabytes else ("throughput_gbyte_s", 1)
        expr = scale * raw_byte_rate_expr()
        model = float(expr.xreplace({s: sp.sympify(v) for s, v in values.items()}))
        qualifier = t.attrs["printed"]["qualifier"][row.Index]
        note = (f"{row.signalling_gbit_s:g} Gbaud after {coding.CODES[g.code].name}, / 8 bits per byte: "
                "{model:.4g}" + (f"; the specification says {qualifier}." if qualifier else "."))
        out.append(checks.compare(t, row.Index, column, model, f"{row.revision}, {g.name}",
                                  note, formula=(expr, values)))
    return out
