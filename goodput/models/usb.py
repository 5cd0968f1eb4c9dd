"""USB 3.x SuperSpeed bulk transfers: the packets, link commands and SKP ordered sets around the data.

A bulk transfer of ``S`` bytes leaves as ``ceil(S / P)`` data packets of at most
``P`` bytes (1024 at most at SuperSpeed), the last one carrying the rest. On the
link each data packet is (USB 3.2 rev. 1.1, section 7.2.1; symbols are the
link's bytes before the line code):

- a data packet header, ``H`` symbols: 20 in Gen 1 (HPSTART 4, header 12,
  CRC-16 2, link control word 2); 24 for a non-deferred Gen 2 header, which
  repeats its length field twice after the link control word;
- the data packet payload: DPPSTART 4, the data, CRC-32 4, DPPEND 4.

The other side acknowledges every data packet with an ACK transaction packet, and the
host asks for each burst of up to ``B`` packets with one more (section 8.12.1.2 of
USB 3.1); every header packet received is answered on the link by LGOOD and LCRD,
8 symbols each (section 7.2.2). So the data direction also carries 16 symbols per
ACK it receives (``a = 1`` counts them). The model follows a bulk IN transfer.

Line code and clock compensation come last: Gen 1 signals 5 Gbaud with 8b/10b
and inserts 2 SKP symbols per 354 (section 6.4.3.1); Gen 2 signals 10 Gbaud with
128b/132b (16 symbols per 132-bit block) and inserts one 196-bit SKP block per 40
blocks (section 6.4.3.3 of rev. 1.1; USB 3.1 rev. 1.0 had another rule). The line
codes are :mod:`goodput.models.coding`'s.

The numbers (:func:`evaluate`, ``goodput usb``) are :mod:`goodput.models.usb_numeric`'s, which computes with
the function ``tools/gen_cli_spec.py`` prints from :func:`transfer_exprs`, and imports no sympy.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from goodput.core.command import Arg, Command, Ranged
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import maker
from goodput.models import coding, usb_numeric
from goodput.models.usb_numeric import evaluate, goodput_gbit_s

symbol = maker(__name__)

__all__ = ["generation", "payload", "transfer", "burst", "link_commands", "burst_wait", "dph", "skp_bits", "skp_interval",
           "link_symbols", "line_bytes", "HEADER_PACKET_SYMBOLS", "LENGTH_REPLICA_SYMBOLS", "DPP_FRAMING_SYMBOLS",
           "LINK_COMMAND_SYMBOLS", "MAX_PACKET_BYTES", "MAX_BURST", "Generation", "GENERATIONS", "PARAMETERS",
           "packets_expr", "bursts_expr", "link_symbols_expr", "line_bytes_expr", "goodput_expr",
           "efficiency_expr", "after_code_expr", "return_symbols_expr",
           "breakdown_exprs", "transfer_exprs", "by_generation", "generation_values", "evaluate",
           "goodput_gbit_s"]

generation = symbol("g", positive=True, integer=True)  #: 1 (Gen 1) or 2 (Gen 2)
payload = symbol("P", positive=True, integer=True)  #: data bytes per full packet
transfer = symbol("S", positive=True, integer=True)  #: bytes of one transfer
burst = symbol("B", positive=True, integer=True)  #: most packets the host asks for at once
link_commands = symbol("a", nonnegative=True, integer=True)  #: 1 to count LGOOD and LCRD, 0 not to
#: ns the host waits after each burst before the next (its last packet's ACK coming back): an assumption, 0 by default
burst_wait = symbol(r"t_{\mathrm{b}}", nonnegative=True)
dph = symbol("H", positive=True, integer=True)  #: symbols of a data packet header
skp_bits = symbol(r"b_{\mathrm{SKP}}", positive=True, integer=True)  #: line bits of one SKP ordered set
skp_interval = symbol(r"Y_{\mathrm{SKP}}", positive=True, integer=True)  #: symbols sent per SKP ordered set
link_symbols = symbol("Y", positive=True)  #: link symbols of one transfer, before SKP and line code
line_bytes = symbol("W", positive=True)  #: byte times of one transfer at the signalling rate

HEADER_PACKET_SYMBOLS = 4 + 12 + 2 + 2  #: HPSTART, packet header, CRC-16, link control word
LENGTH_REPLICA_SYMBOLS = 2 * 2  #: the non-deferred Gen 2 header's two copies of its length field
DPP_FRAMING_SYMBOLS = 4 + 4 + 4  #: DPPSTART, CRC-32, DPPEND around the data
LINK_COMMAND_SYMBOLS = 4 + 2 + 2  #: LCSTART, the command word and its copy
MAX_PACKET_BYTES = 1024  #: the largest SuperSpeed bulk packet
MAX_BURST = 16  #: the most packets a SuperSpeed endpoint may burst
_SKP_SYMBOLS_GEN1 = 2  #: a Gen 1 SKP ordered set: two SKP K-symbols


@dataclass(frozen=True)
class Generation:
    """One SuperSpeed generation: its signalling rate, line code, data packet header and SKP rule."""

    number: int
    name: str
    rate_gbaud: float
    code: str  #: a key of :data:`goodput.models.coding.CODES`
    dph_symbols: int
    skp_line_bits: int
    skp_interval_symbols: int
    skp_rule: str


GENERATIONS = {g.number: g for g in (
    Generation(1, "Gen 1", 5.0, "8b10b", HEADER_PACKET_SYMBOLS,
               int(_SKP_SYMBOLS_GEN1 * 8 / coding.efficiency_expr(coding.CODES["8b10b"])), 354,
               "2 SKP symbols per 354 symbols (USB 3.2 r1.1 6.4.3.1)"),
    Generation(2, "Gen 2", 10.0, "128b132b", HEADER_PACKET_SYMBOLS + LENGTH_REPLICA_SYMBOLS,
               4 + 192, 40 * 16,
               "one SKP block (4-bit header, 192-bit payload) per 40 blocks of 16 symbols (USB 3.2 r1.1 6.4.3.3)"),
)}

PARAMETERS = by_name(
    Parameter("generation", generation, "", 1, 2, default=1, step=1, label="generation", integer=True,
              options=((1, "Gen 1, 5 Gbaud"), (2, "Gen 2, 10 Gbaud"))),
    Parameter("packet_bytes", payload, "bytes", 1, MAX_PACKET_BYTES, default=MAX_PACKET_BYTES, step=1,
              label="packet payload (bytes)", integer=True,
              presets=((64, "64"), (512, "512"), (1024, "1024: the most"))),
    Parameter("transfer_bytes", transfer, "bytes", 1, 1 << 24, default=1 << 20, step=1,
              label="transfer size (bytes)", integer=True,
              presets=((512, "512 B"), (4096, "4 KiB"), (65536, "64 KiB"), (1 << 20, "1 MiB"))),
    Parameter("burst", burst, "packets", 1, MAX_BURST, default=MAX_BURST, step=1, label="burst (packets)",
              integer=True),
    Parameter("link_commands", link_commands, "", 0, 1, default=1, step=1,
              label="LGOOD and LCRD for each ACK", integer=True, options=((0, "not counted"), (1, "counted"))),
    # an assumption the model states, not one it derives: 0, bursts back to back, is the link's own ceiling
    Parameter("burst_wait_ns", burst_wait, "ns", 0, 1000000, default=0, step=10,
              label="wait after each burst: its ACK's round trip (ns)",
              presets=((0, "none: the link alone"), (1000, "1 us"), (10000, "10 us"),
                       (125000, "125 us: a bus interval"))),
)


def packets_expr() -> sp.Expr:
    """Data packets of one transfer: full ones of ``P`` bytes and one for the rest, if any."""
    return sp.ceiling(transfer / payload)


def bursts_expr() -> sp.Expr:
    """Bursts of one transfer: the host asks for at most ``B`` packets at a time."""
    return sp.ceiling(packets_expr() / burst)


def link_symbols_expr() -> sp.Expr:
    """Link symbols of one transfer in the data direction, before SKP and line code: each packet's
    header and payload framing, the data, and (``a = 1``) LGOOD and LCRD for every ACK received,
    one per packet and one asking for each burst."""
    n = packets_expr()
    return n * (dph + DPP_FRAMING_SYMBOLS) + transfer + link_commands * 2 * LINK_COMMAND_SYMBOLS * (n + bursts_expr())


def line_bytes_expr() -> sp.Expr:
    """Byte times at the signalling rate of ``Y`` link symbols: line-coded (``n/k`` line bits per data
    bit) with one SKP ordered set of ``b_SKP`` line bits per ``Y_SKP`` symbols."""
    return link_symbols / coding.efficiency_expr() + link_symbols * skp_bits / (8 * skp_interval)


def goodput_expr() -> sp.Expr:
    """Data bits per second (Gbit/s) at ``R_line`` Gbaud when a transfer takes ``W`` byte times."""
    return coding.line_rate * transfer / line_bytes


def efficiency_expr() -> sp.Expr:
    """Share of the signalling rate that carries data."""
    return transfer / line_bytes


def after_code_expr() -> sp.Expr:
    """Bit rate (Gbit/s) after the line code alone: :func:`goodput.models.coding.bit_rate_expr` on one lane."""
    return coding.bit_rate_expr().subs(coding.lanes, 1)


def return_symbols_expr() -> sp.Expr:
    """Link symbols the other direction sends for one transfer: an ACK transaction packet for every
    data packet and one asking for each burst, and (``a = 1``) LGOOD and LCRD for every data packet
    header it receives."""
    n = packets_expr()
    return HEADER_PACKET_SYMBOLS * (n + bursts_expr()) + link_commands * 2 * LINK_COMMAND_SYMBOLS * n


def breakdown_exprs() -> dict[str, sp.Expr]:
    """Where the byte times of one transfer go, by kind (they add up to ``W``)."""
    n = packets_expr()
    y = link_symbols_expr()
    return {
        "data": transfer,
        "packet headers": n * dph,
        "payload framing": n * DPP_FRAMING_SYMBOLS,
        "link commands": link_commands * 2 * LINK_COMMAND_SYMBOLS * (n + bursts_expr()),
        "SKP": y * skp_bits / (8 * skp_interval),
        "line code": y * (1 / coding.efficiency_expr() - 1),
    }


def transfer_exprs() -> dict[str, sp.Expr]:
    """The model of one transfer written out in the generation's numbers: ``Y``, ``W`` and ``R_line``
    replaced, so each depends on ``g``, ``P``, ``S``, ``B`` and ``a`` alone."""
    y = link_symbols_expr()
    w = line_bytes_expr().subs(link_symbols, y)
    out = {"packets": packets_expr(), "bursts": bursts_expr(), "link_symbols": y, "line_bytes": w,
           "goodput_gbit_s": goodput_expr().subs(line_bytes, w), "efficiency": efficiency_expr().subs(line_bytes, w),
           "after_code_gbit_s": after_code_expr(), "return_share": return_symbols_expr() / y}
    out.update({f"bytes:{k}": e for k, e in breakdown_exprs().items()})
    return {k: by_generation(e) for k, e in out.items()}


def generation_values(number: int) -> dict[sp.Symbol, sp.Expr]:
    """The numbers of generation ``number`` for the symbols that differ between generations."""
    g = GENERATIONS[number]
    c = coding.CODES[g.code]
    return {coding.line_rate: sp.nsimplify(g.rate_gbaud), coding.data_bits: c.data_bits,
            coding.coded_bits: c.coded_bits, dph: g.dph_symbols, skp_bits: g.skp_line_bits,
            skp_interval: g.skp_interval_symbols}


def by_generation(expr: sp.Expr) -> sp.Expr:
    """``expr`` with each generation's numbers chosen by ``g``: Gen 1's where ``g = 1``, Gen 2's otherwise."""
    first, second = generation_values(1), generation_values(2)
    return expr.xreplace({s: sp.Piecewise((first[s], sp.Eq(generation, 1)), (second[s], True))
                          for s in first if s in expr.free_symbols})


# --- Section 4.4.11's efficiency statements, as the chapter shows them -------------------------

SPEC_TABLE = "usb-spec-s4-4-11-efficiency"  #: the specification's efficiency statements, two revisions
RAW = "raw throughput"  #: the statements the line code alone decides


# --- goodput usb: run by goodput.models.usb_numeric, without sympy ---------------------------------------

COMMAND = Command(
    "usb", help="goodput of a USB 3.x SuperSpeed bulk transfer",
    description="Goodput of one bulk IN transfer over USB 3.2 Gen 1 (5 Gbaud, 8b/10b) or Gen 2 (10 Gbaud, "
                "128b/132b): data packet headers and payload framing, LGOOD and LCRD for every ACK, SKP "
                "ordered sets and the line code.",
    arguments=(Ranged("--gen", PARAMETERS["generation"], "GEN", "generation"),
               Ranged("--packet", PARAMETERS["packet_bytes"], "BYTES", "packet payload"),
               Ranged("--transfer", PARAMETERS["transfer_bytes"], "BYTES", "transfer size"),
               Ranged("--burst", PARAMETERS["burst"], "PACKETS", "burst"),
               Ranged("--burst-wait-ns", PARAMETERS["burst_wait_ns"], "NS",
                      "a time the host waits after each burst before the next (its ACK's round trip, an assumption): "
                      "one transfer's latency is its time on the link and this for each burst"),
               Arg("--no-link-commands", dest="link_commands", action="store_const", const=0, default=1,
                   help="leave out the LGOOD and LCRD answering each ACK")),
    run=usb_numeric.run, lines=usb_numeric.lines)
