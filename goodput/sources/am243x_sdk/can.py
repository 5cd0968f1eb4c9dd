"""The AM243x MCU+ SDK datasheet's MCAN performance table checked against :mod:`goodput.models.can`, for the
can-fd chapter: its arbitration and data phase bit counts of 64-byte CAN FD frames against the datasheet's own way
of counting them (:func:`goodput.models.can.datasheet_bits_exprs`), and its measured loopback message rates against
the most the frame allows and the rate its own bit counts give."""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import can
from goodput.models.can import (
    arbitration_rate,
    data_bytes,
    data_rate,
    datasheet_bits_exprs,
    evaluate,
    extended,
    frame_time,
    implied_stuffing_expr,
    messages_per_s_expr,
    phase_time_expr,
    stuffing,
)
from goodput.models.can_numeric import data_length

__all__ = ["datasheet_bits", "source_checks", "mcan_rate_checks", "mcan_rate_source_checks"]


def datasheet_bits(n: int, extended_id: bool) -> tuple[int, int]:
    """:func:`goodput.models.can.datasheet_bits_exprs` for ``n`` data bytes and the identifier format."""
    n = data_length(n)
    subs = {extended: 1 if extended_id else 0, data_bytes: n}
    arb, dat = (int(e.subs(subs)) for e in datasheet_bits_exprs())
    return arb, dat


@checks.provider(can)
def source_checks():
    """The datasheet's arbitration and data phase bit counts for 64-byte frames."""
    t = data.load("am243x-mcan")
    out = []
    for row in t.itertuples():
        x = "EXTENDED" in row.frame_type
        arb, dat = datasheet_bits(64, x)
        label = f"{row.frame_type.split()[2].lower()} identifier, 64 data bytes"
        exprs = datasheet_bits_exprs()
        values = {extended: int(x), data_bytes: 64}
        for column, model, expr in (("arbitration_phase_bits", arb, exprs[0]), ("data_phase_bits", dat, exprs[1])):
            out.append(checks.compare(t, row.Index, column, model, label,
                                      formula=(expr, {s: v for s, v in values.items() if s in expr.free_symbols})))
    return out


def mcan_rate_checks(t) -> list:
    """Each measured message rate of the ``am243x-mcan`` table (or an edited copy) against the most its
    frame allows at the printed bit rates (every field, the intermission, no dynamic stuff bits:
    ``ceiling``), and against the rate the datasheet's own bit counts give (``calculated``)."""
    out = []
    for row in t.itertuples():
        x = int("EXTENDED" in row.frame_type)
        label = f"{row.frame_type.split()[2].lower()} identifier, 64 data bytes"
        rates = {arbitration_rate: row.arbitration_mbit_s, data_rate: row.data_mbit_s}
        values = {data_bytes: 64, extended: x, stuffing: 0, **rates}
        most = evaluate(64, bool(x), row.arbitration_mbit_s, row.data_mbit_s, 0)["messages_per_s"]
        out.append(checks.compare(
            t, row.Index, "messages_per_s", most, label, kind="ceiling", relation="<=",
            note=f"64-byte frames at {row.arbitration_mbit_s:g} and {row.data_mbit_s:g} Mbit/s, intermission "
                 "included, no dynamic stuff bits: at most {model:.0f} messages per second.",
            off_note="64-byte frames at these bit rates allow at most {model:.0f} messages per second.",
            formula=(messages_per_s_expr(), values)))
        arb, dat = (int(row.arbitration_phase_bits), int(row.data_phase_bits))
        time_expr = phase_time_expr(sp.Integer(arb), sp.Integer(dat))
        counted = 1e6 / float(time_expr.subs(rates))
        share = float(implied_stuffing_expr().subs({data_bytes: 64, extended: x, frame_time: 1e6 / row.messages_per_s,
                                                    **rates}))
        out.append(checks.compare(
            t, row.Index, "messages_per_s", counted, label, otherwise="unexplained",
            note=f"{arb} bits at {row.arbitration_mbit_s:g} Mbit/s and {dat} at {row.data_mbit_s:g} Mbit/s, "
                 "the table's own bit counts, give {model:.0f} messages per second.",
            off_note=f"The table's own bit counts, {arb} bits at {row.arbitration_mbit_s:g} Mbit/s and {dat} at "
                     f"{row.data_mbit_s:g} Mbit/s, give {{model:.0f}} messages per second; it measured {{published}}. "
                     f"With the intermission and the stuff count that rate takes {share:.0%} of the worst-case "
                     "dynamic stuff bits, a share that differs between the two identifier formats, so no one frame "
                     "model reproduces both rows; the rest may be the driver's time between frames.",
            formula=(1e6 / time_expr, rates)))
    return out


@checks.provider(can)
def mcan_rate_source_checks():
    """The MCAN loopback message rates against the frame's ceiling and the datasheet's own bit counts."""
    return mcan_rate_checks(data.load("am243x-mcan"))
