"""CAN FD and classical CAN: the bits of a frame, its time on the bus, and messages per second.

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

A classical CAN frame (CAN 2.0A with an 11-bit identifier, 2.0B with a 29-bit one) is sent at
one bit rate, the nominal one: SOF, identifier (11 bits; extended: 11 + SRR + IDE + 18), RTR,
IDE (extended: r1), r0, the 4-bit DLC, 0-8 data bytes and a CRC-15, all dynamically stuffed as
one run from SOF to the end of the CRC sequence; then the same CRC delimiter, ACK slot and
delimiter, end of frame and intermission as CAN FD. At worst that run of g + 8n bits needs
floor((g + 8n - 1)/4) stuff bits, g = 34 or 54 (Davis, Burns, Bril and Lukkien, Real-Time
Systems 35(3), 2007).

The numbers of frames (:func:`evaluate`, :func:`frame_bits`, ``goodput can``...) are
:mod:`goodput.models.can_numeric`'s, which computes with the functions ``tools/gen_cli_spec.py`` prints from
these expressions, and imports no sympy.
"""

from __future__ import annotations

import argparse

import sympy as sp

from goodput.core import pieces
from goodput.core.command import Arg, Command, Ranged, whole
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import maker
from goodput.models import can_numeric
from goodput.models.can_numeric import (
    CLASSICAL_DATA_LENGTHS,
    DATA_LENGTHS,
    bus_load_of,
    classical_frame_bits,
    evaluate,
    frame_bits,
    messages_in_load,
    messages_that_fit,
    transfer_time_us,
)

symbol = maker(__name__)

__all__ = ["transfer", "data_goodput_expr", "TYPICAL_STUFFING", "period", "bus_load", "message_rate",
           "messages_that_fit_expr", "messages_in_load", "messages_that_fit", "load_percent_expr", "bus_load_of", "padded_length_expr", "transfer_phase_times_expr", "transfer_time_expr", "transfer_time_us", "data_bytes", "extended", "arbitration_rate", "data_rate", "stuffing", "classical", "DATA_LENGTHS",
           "CLASSICAL_DATA_LENGTHS", "INTERMISSION_BITS", "PARAMETERS",
           "crc_bits_expr", "arbitration_field_bits_expr", "stuff_bits_exprs", "phase_bits_expr", "datasheet_bits_exprs",
           "frame_bits", "phase_time_expr", "frame_time_expr", "budget_bits_exprs", "implied_stuffing_expr", "frame_time",
           "messages_per_s_expr", "bits_expr", "CLASSICAL_FIELDS", "classical_stuffed_bits_expr",
           "classical_stuff_bits_expr", "classical_bits_expr", "classical_frame_time_expr", "classical_messages_per_s_expr",
           "classical_frame_bits", "evaluate"]

data_bytes = symbol("n", nonnegative=True, integer=True)  #: data field, bytes
extended = symbol("x", nonnegative=True, integer=True)  #: 1 for a 29-bit identifier, 0 for 11 bits
arbitration_rate = symbol(r"R_{\mathrm{arb}}", positive=True)  #: nominal bit rate, Mbit/s
data_rate = symbol(r"R_{\mathrm{data}}", positive=True)  #: data bit rate, Mbit/s
stuffing = symbol("s", nonnegative=True)  #: share of the worst-case dynamic stuff bits, 0 to 1
frame_time = symbol("T", positive=True)  #: a measured time from one frame's SOF to the next's, us
classical = symbol("c", nonnegative=True, integer=True)  #: 1 for a classical CAN frame, 0 for CAN FD
transfer = symbol("S", positive=True, integer=True)  #: bytes of one transfer, in as many frames as it takes
period = symbol(r"T_{\mathrm{p}}", positive=True)  #: each message's period, ms
bus_load = symbol("U", positive=True)  #: the share of the bus the messages may take, percent
message_rate = symbol("m", positive=True)  #: messages a second the bus carries back to back (a table's column)

#: A typical share of the worst-case dynamic stuff bits: the mean, to two decimals, of the shares the AM243x
#: datasheet's two measured CAN FD rates imply (34 % and 42 %, the chapter's budget table; a test holds it to them).
TYPICAL_STUFFING = 0.38

PARAMETERS = by_name(
    Parameter("arbitration_mbit_s", arbitration_rate, "Mbit/s", 0.001, 1, default=1, step=0.125,
              label="arbitration bit rate (Mbit/s)",
              presets=((0.125, "125k"), (0.25, "250k"), (0.5, "500k"), (1, "1M"))),
    Parameter("data_mbit_s", data_rate, "Mbit/s", 0.001, 12, default=5, step=0.5,
              label="data bit rate (Mbit/s)",
              presets=((1, "1M"), (2, "2M"), (5, "5M"), (8, "8M"))),
    Parameter("period_ms", period, "ms", 0.01, 10000, default=10, step=0.01, label="each message's period (ms)",
              presets=((1, "1 ms"), (10, "10 ms"), (100, "100 ms"), (1000, "1 s"))),
    Parameter("bus_load_percent", bus_load, "%", 0.1, 100, default=70, step=0.1,
              label="bus load allowed (%)", presets=((50, "50 %"), (70, "70 %"), (80, "80 %"), (100, "100 %"))),
    # worst case by default: the rate a bus is sure of, whatever its data
    Parameter("stuffing", stuffing, "", 0, 1, default=1, step=0.01,
              label="dynamic stuff bits (share of the worst case)",
              presets=((0, "none"), (TYPICAL_STUFFING, "typical (AM243x measured)"), (1, "worst case"))),
)

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


def bits_expr() -> sp.Expr:
    """Bits of a CAN FD frame and its intermission, both phases: from one SOF to the next."""
    return sp.Add(*phase_bits_expr())


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


def data_goodput_expr(messages_per_s: sp.Expr) -> sp.Expr:
    """Data bits a second (Mbit/s) of frames of ``n`` data bytes sent ``messages_per_s`` times a second."""
    return 8 * data_bytes * messages_per_s / 10 ** 6


def messages_that_fit_expr(rate: sp.Expr = message_rate) -> sp.Expr:
    """How many messages, each sent once every ``T_p`` ms, fit in ``U`` percent of a bus that carries ``rate``
    such frames a second back to back: each takes ``1/rate`` of a second of the bus, so a period holds
    ``T_p/1000 * rate`` of them and a share ``U/100`` of it this many; the whole number of them fit. (The
    expression keeps the fraction: a floor of it would turn on the last bit of a float at a whole number.)"""
    return bus_load / 100 * period / 1000 * rate


def load_percent_expr(time: sp.Expr = frame_time) -> sp.Expr:
    """Percent of the bus one message takes when it is sent once every ``T_p`` ms: its frame's ``time`` (us,
    from its SOF to the next frame's) over its period. A list of messages loads the bus the sum of theirs;
    over 100 % the bus cannot carry them at those periods."""
    return 100 * time / (1000 * period)


def padded_length_expr(rest: sp.Expr) -> sp.Piecewise:
    """The data field a frame needs for ``rest`` bytes: the smallest length a DLC can say that holds them."""
    return sp.Piecewise(*[(n, rest <= n) for n in DATA_LENGTHS[1:-1]], (DATA_LENGTHS[-1], True))


def transfer_phase_times_expr() -> tuple[sp.Expr, sp.Expr]:
    """Time (us) at the arbitration rate and at the data rate of a transfer of ``S`` bytes: full frames
    of 64 data bytes and one for the rest, padded to a length a DLC can say (:func:`goodput.core.pieces.cut`)."""
    nominal, fast = phase_bits_expr()
    return tuple(pieces.cut(transfer, DATA_LENGTHS[-1], bits / rate, data_bytes, padded_length_expr)
                 for bits, rate in ((nominal, arbitration_rate), (fast, data_rate)))


def transfer_time_expr() -> sp.Expr:
    """Time (us) of a transfer of ``S`` bytes in CAN FD frames, from its first SOF to the next transfer's."""
    return sp.Add(*transfer_phase_times_expr())


# --- classical CAN -------------------------------------------------------------------------------

#: The dynamically stuffed fields of a classical frame, SOF to the end of the CRC sequence, with their
#: bits (``x`` = 1: a 29-bit identifier, whose SRR, IDE and 18 more bits count with the identifier,
#: and whose r1 takes the place of the standard format's IDE).
CLASSICAL_FIELDS = (
    ("start of frame", sp.Integer(1)),
    ("identifier (extended: 11, SRR, IDE, 18)", 11 + (1 + 1 + 18) * extended),
    ("RTR", sp.Integer(1)),
    ("IDE (extended: r1)", sp.Integer(1)),
    ("r0", sp.Integer(1)),
    ("DLC", sp.Integer(4)),
    ("data", 8 * data_bytes),
    ("CRC sequence", sp.Integer(15)),
)


def classical_stuffed_bits_expr() -> sp.Expr:
    """Bits of a classical frame from SOF to the end of the CRC sequence, the run a transmitter stuffs:
    ``g + 8n`` with ``g`` = 34 (11-bit identifier) or 54 (29-bit)."""
    return sp.Add(*(bits for _, bits in CLASSICAL_FIELDS))


def classical_stuff_bits_expr() -> sp.Expr:
    """Worst-case dynamic stuff bits of a classical frame: one run from SOF to the end of the CRC."""
    return _worst_stuff_bits(classical_stuffed_bits_expr())


def classical_bits_expr() -> sp.Expr:
    """Bits of a classical frame and its intermission, ``s`` of the worst-case stuff bits included:
    the stuffed run, CRC delimiter, ACK slot and delimiter, end of frame, intermission."""
    return classical_stuffed_bits_expr() + _TAIL_BITS + INTERMISSION_BITS + stuffing * classical_stuff_bits_expr()


def classical_frame_time_expr() -> sp.Expr:
    """Time (us) from one classical frame's SOF to the next's, every bit at the nominal rate."""
    return classical_bits_expr() / arbitration_rate


def classical_messages_per_s_expr() -> sp.Expr:
    return 1e6 / classical_frame_time_expr()


def datasheet_bits_exprs() -> tuple[sp.Expr, sp.Expr]:
    """The phase bits as the AM243x datasheet counts them: no stuff count, no stuff bits, no intermission."""
    return arbitration_field_bits_expr() + _TAIL_BITS, _data_field_bits() + crc_bits_expr()


# --- goodput can: run by goodput.models.can_numeric, without sympy ---------------------------------------

_DATA_RATE = PARAMETERS["data_mbit_s"]

COMMAND = Command(
    "can", help="CAN FD or classical CAN frame time and messages per second",
    description="Bits of a CAN FD frame in its arbitration and data phases (or of a classical CAN frame, all at the "
                "nominal rate), the time from one frame to the next, messages per second, and how many such messages, "
                "each sent once a period, fit in the share of the bus allowed.",
    arguments=(Arg("--bytes", dest="data_bytes", type=whole, default=None, metavar="N",
                   help="data bytes: " + ", ".join(map(str, DATA_LENGTHS)) + "; with --classical 0 to 8"),
               Arg("--message", action="append", default=[], metavar="BYTES:PERIOD_MS",
                   help="instead of --bytes, a message of a list, sent once a period (repeat for each; :ext for a "
                        "29-bit identifier, :classical for a classical frame: 8:10:classical): the bus load they make"),
               Arg("--extended", action="store_true", help="29-bit identifier (default 11-bit)"),
               Arg("--classical", action="store_true",
                   help="a classical CAN frame (CAN 2.0A/2.0B): one bit rate, --arb-mbit-s; no --data-mbit-s"),
               Ranged("--arb-mbit-s", PARAMETERS["arbitration_mbit_s"], "MBIT_S"),
               Ranged("--data-mbit-s", _DATA_RATE, "MBIT_S",
                      f"{_DATA_RATE.label}, CAN FD only (default {_DATA_RATE.default:g})", default=argparse.SUPPRESS),
               Ranged("--stuffing", PARAMETERS["stuffing"], "SHARE", "share of the worst-case dynamic stuff bits"),
               Ranged("--period-ms", PARAMETERS["period_ms"], "MS", "each message's period (ms)"),
               Ranged("--load-percent", PARAMETERS["bus_load_percent"], "PERCENT", "bus load allowed (%)")),
    run=can_numeric.run, lines=can_numeric.lines)
