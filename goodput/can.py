"""CAN FD: the bits of a frame in its two phases, and messages per second.

A CAN FD frame (ISO 11898-1:2015) is sent at the nominal (arbitration) bit rate
from the start of frame to the bit-rate-switch bit, and from the CRC delimiter
on; between them, with the bit rate switch set, at the data bit rate:

- arbitration phase: SOF, identifier (11 bits; extended: 11 + SRR + IDE + 18),
  RRS, IDE, FDF, res, BRS; then CRC delimiter, ACK slot, ACK delimiter and 7 bits
  of end of frame, and 3 bits of intermission before the next frame;
- data phase: ESI, 4-bit DLC, the data (0-8, 12, 16, 20, 24, 32, 48 or 64 bytes),
  the 4-bit stuff count, and a CRC-17 (up to 16 bytes) or CRC-21, with a fixed
  stuff bit before the stuff count and after every fourth bit of it and the CRC;
- dynamic stuff bits from SOF to the end of the data: none for a lucky pattern,
  at worst one after the first five bits and then one every four.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from . import checks, data
from .command import Arg, Command, Ranged, goodput_line, whole
from .errors import ParameterError
from .params import DEFAULT, Parameter
from .symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["data_bytes", "extended", "arbitration_rate", "data_rate", "stuffing", "DATA_LENGTHS", "INTERMISSION_BITS", "PARAMETERS",
           "crc_bits_expr", "arbitration_field_bits_expr", "stuff_bits_exprs", "phase_bits_expr", "datasheet_bits_exprs", "datasheet_bits",
           "frame_bits", "phase_time_expr", "frame_time_expr", "budget_bits_exprs", "implied_stuffing_expr", "frame_time",
           "messages_per_s_expr", "evaluate"]

data_bytes = symbol("n", nonnegative=True, integer=True)  #: data field, bytes
extended = symbol("x", nonnegative=True, integer=True)  #: 1 for a 29-bit identifier, 0 for 11 bits
arbitration_rate = symbol(r"R_{\mathrm{arb}}", positive=True)  #: nominal bit rate, Mbit/s
data_rate = symbol(r"R_{\mathrm{data}}", positive=True)  #: data bit rate, Mbit/s
stuffing = symbol("s", nonnegative=True)  #: share of the worst-case dynamic stuff bits, 0 to 1
frame_time = symbol("T", positive=True)  #: a measured time from one frame's SOF to the next's, us

DATA_LENGTHS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64)  #: what a DLC can say

PARAMETERS = {
    p.name: p
    for p in (
        Parameter("arbitration_mbit_s", arbitration_rate, "Mbit/s", 0.001, 1, default=1, step=0.125,
                  label="arbitration bit rate (Mbit/s)",
                  presets=((0.125, "125k"), (0.25, "250k"), (0.5, "500k"), (1, "1M"))),
        Parameter("data_mbit_s", data_rate, "Mbit/s", 0.001, 12, default=5, step=0.5,
                  label="data bit rate (Mbit/s)",
                  presets=((1, "1M"), (2, "2M"), (5, "5M"), (8, "8M"))),
        Parameter("stuffing", stuffing, "", 0, 1, default=0, step=0.05,
                  label="dynamic stuff bits (share of the worst case)"),
    )
}

_TAIL_BITS = 1 + 1 + 1 + 7  # CRC delimiter, ACK slot, ACK delimiter, end of frame
INTERMISSION_BITS = 3  #: bit times between frames


def crc_bits_expr() -> sp.Expr:
    return sp.Piecewise((17, data_bytes <= 16), (21, True))


def arbitration_field_bits_expr() -> sp.Expr:
    """SOF to BRS: 17 bits with an 11-bit identifier, 36 with a 29-bit one."""
    return 17 + 19 * extended


def _data_field_bits() -> sp.Expr:
    return 1 + 4 + 8 * data_bytes  # ESI, DLC, data


def _crc_field_bits() -> sp.Expr:
    """Stuff count, CRC and their fixed stuff bits."""
    counted = 4 + crc_bits_expr()
    return counted + 1 + sp.floor(counted / 4)


def _worst_stuff_bits(bits: sp.Expr) -> sp.Expr:
    """Dynamic stuff bits a worst-case pattern of ``bits`` bits needs, counted from its first bit:
    one after the first five, then one after every four (a stuff bit starts the next run)."""
    return sp.floor((bits - 1) / 4)


def stuff_bits_exprs() -> tuple[sp.Expr, sp.Expr]:
    """Worst-case dynamic stuff bits in the arbitration phase and in the data phase.

    Stuffing runs without a break from SOF to the end of the data field, across the bit rate
    switch: the stuff bits of the whole run less those that fall in the arbitration field are the
    data phase's. (Bounding the two phases apart would start the data phase's count afresh and
    miss one stuff bit with a 29-bit identifier.)"""
    arb = arbitration_field_bits_expr()
    in_arbitration = _worst_stuff_bits(arb)
    return in_arbitration, _worst_stuff_bits(arb + _data_field_bits()) - in_arbitration


def phase_bits_expr() -> tuple[sp.Expr, sp.Expr]:
    """Bits at the nominal rate (with the intermission) and at the data rate, ``s`` of the
    worst-case dynamic stuff bits included."""
    stuff_arb, stuff_data = stuff_bits_exprs()
    nominal = arbitration_field_bits_expr() + _TAIL_BITS + INTERMISSION_BITS + stuffing * stuff_arb
    fast = _data_field_bits() + _crc_field_bits() + stuffing * stuff_data
    return nominal, fast


def phase_time_expr(nominal: sp.Expr, fast: sp.Expr) -> sp.Expr:
    """Time (us) of ``nominal`` bits at the arbitration rate and ``fast`` bits at the data rate."""
    return nominal / arbitration_rate + fast / data_rate


def frame_time_expr() -> sp.Expr:
    """Time (us) from one frame's SOF to the next's."""
    return phase_time_expr(*phase_bits_expr())


def budget_bits_exprs() -> dict[str, tuple[sp.Expr, sp.Expr]]:
    """From the datasheet's bit counts to the worst case, one addition at a time: (nominal-rate
    bits, data-rate bits) of the datasheet's count, with the intermission, with the stuff count and
    fixed stuff bits (no dynamic stuffing), and with every worst-case dynamic stuff bit."""
    arb, dat = datasheet_bits_exprs()
    nominal, fast = phase_bits_expr()
    return {"datasheet": (arb, dat), "intermission": (arb + INTERMISSION_BITS, dat),
            "no_stuffing": (nominal.subs(stuffing, 0), fast.subs(stuffing, 0)),
            "worst_stuffing": (nominal.subs(stuffing, 1), fast.subs(stuffing, 1))}


def implied_stuffing_expr() -> sp.Expr:
    """The share of the worst-case dynamic stuff bits that makes a frame take ``T`` us: the frame
    time solved for ``s``."""
    (share,) = sp.solve(sp.Eq(frame_time_expr(), frame_time), stuffing)
    return share


def messages_per_s_expr() -> sp.Expr:
    return 1e6 / frame_time_expr()


@lru_cache(maxsize=None)
def _numeric(name: str):
    expr = {"time": frame_time_expr(), "rate": messages_per_s_expr()}[name]
    return lambdify((data_bytes, extended, arbitration_rate, data_rate, stuffing), expr, "math")


def _length(n: int) -> int:
    if n not in DATA_LENGTHS:
        raise ParameterError("data_bytes", n, "a CAN FD data length: " + ", ".join(map(str, DATA_LENGTHS)))
    return int(n)


def datasheet_bits_exprs() -> tuple[sp.Expr, sp.Expr]:
    """The phase bits as the AM243x datasheet counts them: no stuff count, no stuff bits, no intermission."""
    return arbitration_field_bits_expr() + _TAIL_BITS, _data_field_bits() + crc_bits_expr()


def datasheet_bits(n: int, extended_id: bool) -> tuple[int, int]:
    """:func:`datasheet_bits_exprs` for ``n`` data bytes and the identifier format."""
    n = _length(n)
    subs = {extended: 1 if extended_id else 0, data_bytes: n}
    arb, dat = (int(e.subs(subs)) for e in datasheet_bits_exprs())
    return arb, dat


def frame_bits(n: int, extended_id: bool, stuffing_share: float = DEFAULT) -> tuple[float, float]:
    """(nominal-rate bits, data-rate bits) of one frame and its intermission."""
    n = _length(n)
    s = PARAMETERS["stuffing"].check(stuffing_share)
    subs = {data_bytes: n, extended: 1 if extended_id else 0, stuffing: s}
    nominal, fast = phase_bits_expr()
    return float(nominal.subs(subs)), float(fast.subs(subs))


def evaluate(n: int, extended_id: bool = False, arbitration_mbit_s: float = DEFAULT,
             data_mbit_s: float = DEFAULT, stuffing_share: float = DEFAULT) -> dict:
    """One frame as a JSON-ready dict: bits per phase, frame time, messages/s, goodput, efficiency."""
    p = PARAMETERS
    n = _length(n)
    ra, rd = p["arbitration_mbit_s"].check(arbitration_mbit_s), p["data_mbit_s"].check(data_mbit_s)
    s = p["stuffing"].check(stuffing_share)
    nominal, fast = frame_bits(n, extended_id, s)
    t = _numeric("time")(n, 1 if extended_id else 0, ra, rd, s)
    goodput = 8 * n / t
    return {"data_bytes": n, "extended_id": bool(extended_id), "arbitration_mbit_s": ra, "data_mbit_s": rd,
            "stuffing": s, "nominal_bits": nominal, "data_phase_bits": fast, "frame_time_us": t,
            "messages_per_s": 1e6 / t, "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000,
            "efficiency": goodput / rd}


@checks.provider("can-fd")
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
            out.append(checks.compare("can-fd", t, row.Index, column, model, label,
                                      formula=(expr, {s: v for s, v in values.items() if s in expr.free_symbols})))
    return out


# --- goodput can ---------------------------------------------------------------------------------

COMMAND = Command(
    "can", help="CAN FD frame time and messages per second",
    description="Bits of a CAN FD frame in its arbitration and data phases, the time from one frame to the next, "
                "and messages per second.",
    arguments=(Arg("--bytes", dest="data_bytes", type=whole, required=True, metavar="N",
                   help="data bytes: " + ", ".join(map(str, DATA_LENGTHS))),
               Arg("--extended", action="store_true", help="29-bit identifier (default 11-bit)"),
               Ranged("--arb-mbit-s", PARAMETERS["arbitration_mbit_s"], "MBIT_S"),
               Ranged("--data-mbit-s", PARAMETERS["data_mbit_s"], "MBIT_S"),
               Ranged("--stuffing", PARAMETERS["stuffing"], "SHARE", "share of the worst-case dynamic stuff bits")),
    run=lambda args: evaluate(args.data_bytes, args.extended, args.arbitration_mbit_s, args.data_mbit_s,
                              args.stuffing),
    lines=lambda args, r: [
        f"{r['data_bytes']}-byte CAN FD frames, {'extended' if r['extended_id'] else 'standard'} identifier: "
        f"{r['nominal_bits']:g} bits at {r['arbitration_mbit_s']:g} Mbit/s and {r['data_phase_bits']:g} at "
        f"{r['data_mbit_s']:g} Mbit/s; {r['frame_time_us']:.6g} us, {r['messages_per_s']:.6g} messages/s",
        goodput_line(r)])
