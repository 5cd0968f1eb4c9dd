"""The reader's answers: what a link's goodput means for the bytes they have to move.

Every chapter's model ends in a goodput, in the unit its source uses (Gbit/s for a serial link, MB/s for a
DMA copy, Mbit/s for TCP). A reader asks other questions of it: how long 64 MiB takes, how many transfers,
packets or frames a second that is, what share of the line rate arrives as data, and all of it in the unit
they think in. These are the same few formulas for every link, written here once in sympy; a chapter's
"your link" box declares which of its outputs is the goodput and what one transfer and one packet hold
(:class:`goodput.render.calculation.Answers`), and the printers take these to the page.

Each formula is a steady-state one: transfers of the case's size follow each other back to back, so
``N`` bytes take ``8 N / G`` seconds at a goodput of ``G`` bit/s (the last, partial transfer costing its
share, as a stream of them does), and a link carrying ``G`` bit/s in transfers of ``S`` bytes completes
``G / (8 S)`` of them a second.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import sympy as sp

from goodput.core.params import Parameter
from goodput.core.symbols import maker
from goodput.render.controls import Choice

__all__ = ["RATE_UNITS", "READER_UNITS", "goodput", "move", "MOVE", "unit_choice", "bit_s_expr", "time_to_move_expr",
           "per_second_expr", "efficiency_expr", "time_text", "rate_text", "share_text", "count_text", "NEVER"]

symbol = maker(__name__)

goodput = symbol("G", positive=True)  #: the chapter's goodput, in its own unit
move = symbol(r"N_{\mathrm{move}}", positive=True, integer=True)  #: bytes the reader has to move

#: Bits per second in one of each unit a model's goodput comes in.
RATE_UNITS = {"bit/s": 1, "kbit/s": 10 ** 3, "Mbit/s": 10 ** 6, "Gbit/s": 10 ** 9,
              "kB/s": 8 * 10 ** 3, "MB/s": 8 * 10 ** 6, "GB/s": 8 * 10 ** 9}

#: The units a reader can have every goodput in: the page's ``unit`` key, its value and the unit's name.
READER_UNITS = {"gbit_s": "Gbit/s", "mbit_s": "Mbit/s", "mbyte_s": "MB/s"}

MOVE = Parameter("move_bytes", move, "bytes", 1, 2 ** 40, default=64 * 2 ** 20, step=1, integer=True,
                 label="bytes to move",
                 presets=((2 ** 20, "1 MiB"), (64 * 2 ** 20, "64 MiB"), (10 ** 9, "1 GB"), (2 ** 30, "1 GiB")))


def _reader_unit(unit: str) -> str:
    """The reader's unit nearest a model's: its own where it is one of :data:`READER_UNITS`, else Mbit/s
    for a slow link (kbit/s, bit/s), Gbit/s for a fast one."""
    keys = {name: key for key, name in READER_UNITS.items()}
    if unit in keys:
        return keys[unit]
    return "gbit_s" if RATE_UNITS[unit] >= RATE_UNITS["Gbit/s"] else "mbit_s"


def unit_choice(native: str) -> Choice:
    """The box's control of the unit goodput is shown in, opening on the model's own (``native``)."""
    if native not in RATE_UNITS:
        raise ValueError(f"{native!r} is not a rate unit; units: {', '.join(RATE_UNITS)}")
    return Choice("unit", tuple(READER_UNITS), _reader_unit(native), "goodput in", tuple(READER_UNITS.values()))


def bit_s_expr(unit: str) -> sp.Expr:
    """The goodput :data:`goodput` in bit/s, from its value in ``unit``."""
    try:
        return goodput * RATE_UNITS[unit]
    except KeyError:
        raise ValueError(f"{unit!r} is not a rate unit; units: {', '.join(RATE_UNITS)}") from None


def time_to_move_expr(unit: str) -> sp.Expr:
    """Seconds to move :data:`move` bytes at the goodput :data:`goodput` (in ``unit``)."""
    return 8 * move / bit_s_expr(unit)


def per_second_expr(unit: str, each: sp.Expr) -> sp.Expr:
    """How many of a thing holding ``each`` bytes of data the goodput (in ``unit``) carries a second."""
    return bit_s_expr(unit) / (8 * each)


def efficiency_expr(line_rate: sp.Expr) -> sp.Expr:
    """The share of the line rate (in the goodput's unit) that arrives as data."""
    return goodput / line_rate


# --- how the box writes them ------------------------------------------------------------------------
# The page formats in Vega (goodput.render.calculation.Answers); these are the same rules in Python, for
# the tests to hold the page to and for a panel in a kernel.

def _grouped(value: Decimal) -> str:
    text = f"{value:,f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _significant(value: float, digits: int = 4) -> str:
    """``value`` to ``digits`` significant digits grouped by thousands, trailing zeros cut (d3's ``,.4~r``);
    from ``10**digits`` up, whole (``,.0f``). A tie rounds up, as the page's JavaScript rounds it (Python's own
    format rounds it to even): the exact binary value is rounded, as both do."""
    exact = Decimal(value)
    if abs(value) >= 10 ** digits:
        return _grouped(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if exact == 0:
        return "0"
    return _grouped(exact.quantize(Decimal(1).scaleb(exact.adjusted() - digits + 1), rounding=ROUND_HALF_UP))


#: What the box says where no data moves (a frame with no data bytes): no time is long enough.
NEVER = "never: no data moves"


#: The units a time is written in, the largest first: scale in seconds and name.
TIME_UNITS = ((86400, "days"), (3600, "h"), (60, "min"), (1, "s"), (1e-3, "ms"), (1e-6, "µs"))


def time_text(seconds: float) -> str:
    """``seconds`` in the unit that reads best: 67.11 ms, 2.5 s, 37.75 min, 980 ns; :data:`NEVER` where it is
    infinite."""
    if not math.isfinite(seconds):
        return NEVER
    for scale, unit in TIME_UNITS:
        if seconds >= scale:
            return f"{_significant(seconds / scale)} {unit}"
    return f"{_significant(seconds / 1e-9)} ns"


def rate_text(bit_s: float, unit_key: str) -> str:
    """A goodput of ``bit_s`` bit/s in the reader's unit, to five significant digits."""
    unit = READER_UNITS[unit_key]
    return f"{_significant(bit_s / RATE_UNITS[unit], 5)} {unit}"


def share_text(share: float) -> str:
    """A share (0.9002) as a percentage to four significant digits: 90.02 %."""
    return f"{_significant(share * 100)} %"


def count_text(value: float) -> str:
    """A count a second: whole numbers grouped by thousands from 1000 up, four significant digits below."""
    return _grouped(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP)) if value >= 1000 else _significant(value)
