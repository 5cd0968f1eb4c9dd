"""Line codes: how much of a serial lane's signalling rate is left for data.

A serial lane signals at a *symbol rate*: unit intervals per second, given in
Gbaud (PCI Express says GT/s, gigatransfers per second; for the two-level NRZ
signalling of every code here one transfer carries one line bit). A block code
maps ``k`` data bits onto ``n`` line bits, so the *bit rate* left for the layer
above is ``k/n`` of the symbol rate per lane. Symbol rate and bit rate are never
the same unit in this module: a name ends in ``_gbaud`` or in ``_gbit_s``.

PCI Express gen6 signals PAM4, two bits per unit interval: its 64 GT/s are
32 Gbaud. The PCIe model passes transfer rates (GT/s, one bit each), so for gen6
``line_rate_gbaud`` holds transfers; the 256-byte flit is treated as a block
code whose data are the 236 bytes that carry TLPs.

Each formula is one sympy expression (``*_expr`` functions); the numeric
functions are made from those expressions by :func:`sympy.lambdify`.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = [
    "LineCode",
    "CODES",
    "line_rate",
    "lanes",
    "data_bits",
    "coded_bits",
    "PARAMETERS",
    "efficiency_expr",
    "bit_rate_expr",
    "byte_rate_expr",
    "line_overhead_expr",
    "payload_overhead_expr",
    "get_code",
    "efficiency",
    "bit_rate_gbit_s",
    "byte_rate_gbyte_s",
    "link_rates",
    "bit_rate_formula",
    "CommonLink",
    "COMMON_LINKS",
]


@dataclass(frozen=True)
class LineCode:
    """A block line code that maps ``data_bits`` onto ``coded_bits`` line bits."""

    key: str
    name: str
    data_bits: int
    coded_bits: int
    used_by: str
    #: What a formula writes under its efficiency, ``eta``: the name unless that is long.
    short: str = ""

    @property
    def label(self) -> str:
        return self.short or self.name


CODES: dict[str, LineCode] = {
    c.key: c
    for c in (
        LineCode("8b10b", "8b/10b", 8, 10, "PCIe gen1-2, Serial RapidIO 1.x-2.x, 1000BASE-X"),
        LineCode("8b9b", "8b/9b", 8, 9, "TI KeyStone HyperLink"),
        LineCode("4b5b", "4B5B", 4, 5, "100BASE-TX (ahead of MLT-3)"),
        LineCode("64b66b", "64b/66b", 64, 66, "10GBASE-R, 25/100 Gigabit Ethernet"),
        LineCode("64b67b", "64b/67b", 64, 67,
                 "Interlaken, Serial RapidIO 3.x (2 framing bits and an inversion bit per word)"),
        LineCode("128b130b", "128b/130b", 128, 130, "PCIe gen3, gen4, gen5"),
        LineCode("128b132b", "128b/132b", 128, 132,
                 "USB 3.2 Gen 2, DisplayPort 2.x UHBR (each header bit of 64b/66b sent twice)"),
        LineCode("flit256", "256-byte flit", 236 * 8, 256 * 8,
                 "PCIe gen6 flit mode: 236 TLP bytes per flit; 6 DLP, 8 CRC and 6 FEC bytes", short="flit"),
        LineCode("flit256dlp", "256-byte flit, DLP counted", 242 * 8, 256 * 8,
                 "PCIe gen6 flit mode as references that count the 6 DLP bytes as data quote it (242 of 256)",
                 short="flit+DLP"),
    )
}

#: Symbol rate of one lane, Gbaud (GT/s).
line_rate = symbol(r"R_{\mathrm{line}}", positive=True)
#: Number of lanes in the link.
lanes = symbol("N", positive=True, integer=True)
#: Data bits per code word.
data_bits = symbol("k", positive=True, integer=True)
#: Line bits per code word.
coded_bits = symbol("n", positive=True, integer=True)

PARAMETERS: dict[str, Parameter] = by_name(
    Parameter(
        "line_rate_gbaud", line_rate, "Gbaud", 0.001, 64.0, default=2.5, step=0.0625,
        label="line rate per lane (Gbaud)",
        presets=((1.25, "1.25: GbE"), (2.5, "2.5: PCIe 1"), (3.125, "3.125: SRIO, XAUI"), (5.0, "5: PCIe 2"),
                 (6.25, "6.25: SRIO 2"), (8.0, "8: PCIe 3"), (10.3125, "10.3125: 10GBASE-R"),
                 (16.0, "16: PCIe 4"), (25.78125, "25.78125: 25GBASE-R"), (32.0, "32: PCIe 5")),
    ),
    Parameter(
        "lanes", lanes, "lanes", 1, 32, default=1, step=1, label="lanes", integer=True,
    ),
)


def _code_values(code: LineCode | None) -> dict:
    if code is None:
        return {}
    return {data_bits: code.data_bits, coded_bits: code.coded_bits}


def efficiency_expr(code: LineCode | None = None) -> sp.Expr:
    """Share of the line bits that carry data, ``k/n`` (dimensionless)."""
    return (data_bits / coded_bits).subs(_code_values(code))


def bit_rate_expr(code: LineCode | None = None) -> sp.Expr:
    """Bit rate after decoding, Gbit/s, over all lanes of one direction."""
    return (line_rate * lanes * efficiency_expr()).subs(_code_values(code))


def byte_rate_expr(code: LineCode | None = None) -> sp.Expr:
    """Byte rate after decoding, GB/s (10**9 bytes per second), one direction."""
    return bit_rate_expr(code) / 8


def line_overhead_expr(code: LineCode | None = None) -> sp.Expr:
    """Share of the *line* spent on coding, ``1 - k/n`` (how AN3935 and the KeyStone guide count)."""
    return sp.simplify(1 - efficiency_expr(code))


def payload_overhead_expr(code: LineCode | None = None) -> sp.Expr:
    """Extra line bits per *data* bit, ``n/k - 1`` (how the Intel tutorial counts)."""
    return sp.simplify(1 / efficiency_expr(code) - 1)


_ARGS = (line_rate, lanes, data_bits, coded_bits)
_bit_rate = lambdify(_ARGS, bit_rate_expr(), "math")
_byte_rate = lambdify(_ARGS, byte_rate_expr(), "math")
_efficiency = lambdify((data_bits, coded_bits), efficiency_expr(), "math")


def get_code(key: str) -> LineCode:
    """The :class:`LineCode` named ``key``; :class:`ParameterError` if there is none."""
    try:
        return CODES[key]
    except (KeyError, TypeError):
        raise ParameterError("code", key, "one of " + ", ".join(CODES)) from None


def _checked(line_rate_gbaud: float, n_lanes: int) -> tuple[float, int]:
    return (
        PARAMETERS["line_rate_gbaud"].check(line_rate_gbaud),
        PARAMETERS["lanes"].check(n_lanes),
    )


def efficiency(code: str) -> float:
    """Share of line bits that carry data for the code named ``code``."""
    c = get_code(code)
    return _efficiency(c.data_bits, c.coded_bits)


def bit_rate_gbit_s(line_rate_gbaud: float, n_lanes: int, code: str) -> float:
    """Data bit rate, Gbit/s, of ``n_lanes`` lanes at ``line_rate_gbaud`` each, one direction."""
    c = get_code(code)
    rate, n = _checked(line_rate_gbaud, n_lanes)
    return _bit_rate(rate, n, c.data_bits, c.coded_bits)


def byte_rate_gbyte_s(line_rate_gbaud: float, n_lanes: int, code: str) -> float:
    """Data byte rate, GB/s (10**9 bytes/s), one direction."""
    c = get_code(code)
    rate, n = _checked(line_rate_gbaud, n_lanes)
    return _byte_rate(rate, n, c.data_bits, c.coded_bits)


def link_rates(code: str, line_rate_gbaud: float, n_lanes: int) -> dict:
    """All rates of one link as a JSON-ready dict: the inputs echoed, then the results."""
    c = get_code(code)
    rate, n = _checked(line_rate_gbaud, n_lanes)
    return {
        "code": c.key,
        "line_rate_gbaud": rate,
        "lanes": n,
        "signalling_rate_gbaud": rate * n,
        "goodput_gbit_s": bit_rate_gbit_s(rate, n, c.key),
        "goodput_gbyte_s": byte_rate_gbyte_s(rate, n, c.key),
        "efficiency": efficiency(c.key),
    }


def bit_rate_formula(code: str, line_rate_gbaud: float, n_lanes: int, scale=1) -> tuple:
    """``(expr, values)``: the bit rate expression (times ``scale``) and the numbers of ``n_lanes`` lanes of the
    code named ``code`` at ``line_rate_gbaud`` each, for a source check to print."""
    c = CODES[code]
    return (scale * bit_rate_expr(), {line_rate: line_rate_gbaud, lanes: n_lanes, data_bits: c.data_bits,
                                      coded_bits: c.coded_bits})


@dataclass(frozen=True)
class CommonLink:
    """A link as its standard defines it: code, symbol rate per lane, lanes."""

    name: str
    code: str
    line_rate_gbaud: float
    lanes: int


#: Links engineers meet often, as their standards define them (inputs, not results).
COMMON_LINKS = (
    CommonLink("100BASE-TX", "4b5b", 0.125, 1),
    CommonLink("PCIe gen1 x1", "8b10b", 2.5, 1),
    CommonLink("PCIe gen2 x4", "8b10b", 5.0, 4),
    CommonLink("Serial RapidIO 4x at 3.125 Gbaud", "8b10b", 3.125, 4),
    CommonLink("HyperLink 4 lanes at 10 Gbaud", "8b9b", 10.0, 4),
    CommonLink("10GBASE-R", "64b66b", 10.3125, 1),
    CommonLink("PCIe gen3 x4", "128b130b", 8.0, 4),
    CommonLink("PCIe gen5 x16", "128b130b", 32.0, 16),
    CommonLink("USB 3.2 Gen 2x1", "128b132b", 10.0, 1),
    CommonLink("DisplayPort UHBR20, 4 lanes", "128b132b", 20.0, 4),
)


# --- goodput coding ------------------------------------------------------------------------------

def _command_lines(args, r: dict) -> list[str]:
    return [f"{CODES[r['code']].name} on {r['lanes']} x {r['line_rate_gbaud']:g} Gbaud "
            f"({r['signalling_rate_gbaud']:g} Gbaud in all)",
            f"  efficiency  {r['efficiency']:.6f}",
            f"  goodput     {r['goodput_gbit_s']:.6g} Gbit/s = {1000 * r['goodput_gbyte_s']:.6g} MB/s per direction"]


COMMAND = Command(
    "coding", help="data rate of a serial link after its line code",
    description="Bit rate left for data after a line code, over all lanes, one direction.",
    arguments=(Arg("--code", required=True, help="line code: " + ", ".join(CODES)),
               Ranged("--rate-gbaud", PARAMETERS["line_rate_gbaud"], "GBAUD", "symbol rate per lane in Gbaud (GT/s)",
                      required=True),
               Ranged("--lanes", PARAMETERS["lanes"], what="number of lanes")),
    run=lambda args: link_rates(args.code, args.line_rate_gbaud, args.lanes),
    lines=_command_lines)
