"""The Linux kernel's table of maximum CAN and CAN FD frame lengths (commit 80a2fbce456e's message; computed by
can_frame_bits() in include/linux/can/length.h) checked against :mod:`goodput.models.can`, for the can-fd chapter:
each length (classical and CAN FD, 11- and 29-bit identifiers, without dynamic stuff bits and with the worst case)
against the model's bits of a frame and its intermission."""

from __future__ import annotations

from goodput import checks
from goodput.core import data
from goodput.models import can
from goodput.models.can import bits_expr, classical_bits_expr, data_bytes, extended, stuffing

__all__ = ["kernel_checks"]


@checks.provider(can)
def kernel_checks():
    """The Linux kernel's frame lengths (maximum data length, with the intermission), classical and CAN
    FD, without dynamic stuff bits (``s`` = 0) and with the worst case (``s`` = 1)."""
    t = data.load("linux-can-length")
    out = []
    for row in t.itertuples():
        x, s = int(row.identifier == "EFF"), int(row.bitstuffing == "bitstuffing")
        is_classical = row.frame == "Classic CAN"
        expr = classical_bits_expr() if is_classical else bits_expr()
        values = {data_bytes: row.data_bytes, extended: x, stuffing: s}
        model = float(expr.subs(values))
        label = (f"{'classical' if is_classical else 'CAN FD'}, {'29' if x else '11'}-bit identifier, "
                 f"{row.data_bytes} data bytes, {'worst-case' if s else 'no'} dynamic stuffing")
        out.append(checks.compare(
            t, row.Index, "bits", model, label,
            note="both count from one SOF to the next: the frame and its 3-bit intermission",
            formula=(expr, {k: v for k, v in values.items() if k in expr.free_symbols})))
    return out
