"""TI KeyStone HyperLink: goodput of packets that carry at most 256 bytes and 8 bytes of control.

HyperLink bridges the interconnect of two KeyStone devices over up to four
SerDes lanes with 8b/9b coding. Every packet carries a payload of at most
``P`` bytes plus ``C = 8`` bytes of control. Writes are cut into packets at
256-byte boundaries (or smaller, by the bursts of the master: an EDMA transfer
controller's data burst size); a read is answered in bursts of the memory that
answers it (DDR3 64 B, MSMC SRAM 32 B, L1/L2 16 B: Table 22), each in a packet
of its own. A transfer of ``S`` bytes then costs ``S + C * ceiling(S / P)``
bytes before coding, at the bit rate ``B`` of :mod:`goodput.coding`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import sympy as sp

from . import checks, coding, data
from .command import Arg, Command, Ranged, report_lines
from .errors import GoodputError, ParameterError
from .params import DEFAULT, Parameter
from .symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["transfer", "packet", "control", "achieved", "MAX_PACKET_BYTES", "CONTROL_BYTES", "PARAMETERS", "BURST", "RESPONSE", "packet_for_expr",
           "packets_expr", "goodput_expr", "implied_control_expr", "read_response_bytes", "goodput_gbit_s", "evaluate"]

transfer = symbol("S", positive=True, integer=True)  #: transfer size, bytes
packet = symbol("P", positive=True, integer=True)  #: payload per packet, bytes
control = symbol("C", nonnegative=True, integer=True)  #: control bytes per packet
achieved = symbol("G", positive=True)  #: a goodput achieved (measured or published), Gbit/s

MAX_PACKET_BYTES = 256
CONTROL_BYTES = 8

PARAMETERS = {
    p.name: p
    for p in (
        Parameter("line_rate_gbaud", coding.line_rate, "Gbaud", 0.001, 12.5, default=6.25, step=0.125,
                  label="line rate per lane (Gbaud)"),
        Parameter("lanes", coding.lanes, "lanes", 1, 4, default=4, step=1, label="lanes", integer=True,
                  options=tuple((n, f"x{n}") for n in range(1, 5))),
        Parameter("packet_bytes", packet, "bytes", 1, MAX_PACKET_BYTES, default=MAX_PACKET_BYTES, step=1,
                  label="payload per packet (bytes)", integer=True),
        Parameter("size_bytes", transfer, "bytes", 1, 1 << 32, default=32768, step=1,
                  label="transfer size (bytes)", integer=True),
    )
}


#: The master's burst (an EDMA transfer controller's data burst size) and the answering memory's
#: read response burst are checked like a packet; each has a symbol of its own for the sliders.
BURST = replace(PARAMETERS["packet_bytes"], name="burst_bytes", symbol=symbol("D_burst", positive=True),
                label="master's burst (bytes)", default=128)
RESPONSE = replace(PARAMETERS["packet_bytes"], name="response_bytes", symbol=symbol("D_resp", positive=True),
                   label="read response burst (bytes)", default=64)


def packet_for_expr(write: sp.Expr) -> sp.Expr:
    """Payload per packet of a write (``write = 1``: the master's burst, at most 256 bytes) or a
    read (``write = 0``: the response burst, cut further by the master's burst)."""
    return (write * sp.Min(BURST.symbol, MAX_PACKET_BYTES)
            + (1 - write) * sp.Min(RESPONSE.symbol, BURST.symbol))


def packets_expr() -> sp.Expr:
    """Packets for a transfer of ``S`` bytes in packets of at most ``P`` bytes."""
    return sp.ceiling(transfer / packet)


def goodput_expr() -> sp.Expr:
    """Payload goodput (Gbit/s) of back-to-back transfers of ``S`` bytes, one direction."""
    return coding.bit_rate_expr(coding.CODES["8b9b"]) * transfer / (transfer + control * packets_expr())


def implied_control_expr() -> sp.Expr:
    """Control bytes per packet that a goodput ``G`` of whole packets implies: the goodput of one
    packet (``S = P``) solved for ``C``."""
    (c,) = sp.solve(sp.Eq(goodput_expr().subs(transfer, packet), achieved), control)
    return c


@lru_cache(maxsize=1)
def _numeric():
    return lambdify((coding.line_rate, coding.lanes, transfer, packet, control), goodput_expr(), "math")


@lru_cache(maxsize=1)
def _packets():
    return lambdify((transfer, packet), packets_expr(), "math")


def read_response_bytes(memory: str) -> int:
    """Burst in which ``memory`` answers a HyperLink read (Table 22)."""
    t = data.load("keystone2-table22")
    sizes = dict(zip(t["memory"], t["max_read_response_bytes"]))
    if memory not in sizes:
        raise ParameterError("memory", memory, "one of " + ", ".join(sizes))
    return int(sizes[memory])


def goodput_gbit_s(line_rate_gbaud: float, lanes: int, size_bytes: int, packet_bytes: int = DEFAULT) -> float:
    """Goodput (Gbit/s) of ``size_bytes`` transfers in packets of ``packet_bytes`` over HyperLink."""
    return _numeric()(*_checked(line_rate_gbaud, lanes, size_bytes, packet_bytes), CONTROL_BYTES)


def _checked(line_rate_gbaud, lanes, size_bytes, packet_bytes) -> tuple:
    """The four inputs as :data:`PARAMETERS` allow them (numbers, not the text they were given as)."""
    names = ("line_rate_gbaud", "lanes", "size_bytes", "packet_bytes")
    return tuple(PARAMETERS[n].check(v) for n, v in zip(names, (line_rate_gbaud, lanes, size_bytes, packet_bytes)))


def evaluate(kind: str, line_rate_gbaud: float, lanes: int, size_bytes: int,
             burst_bytes: int = MAX_PACKET_BYTES, memory: str | None = None) -> dict:
    """A write (packets of the master's burst, at most 256 B) or a read (packets of the answering
    memory's burst, Table 22) as a JSON-ready dict: inputs, goodput, efficiency, line bytes by kind."""
    if kind not in ("write", "read"):
        raise ParameterError("kind", kind, "write or read")
    burst = BURST.check(burst_bytes)
    if kind == "read":
        if memory is None:
            raise GoodputError("a read needs --memory, the memory that answers it: DDR3, 'MSMC SRAM' "
                               "or 'C66x L1/L2' (Table 22)")
        packet_bytes = min(read_response_bytes(memory), burst)
    else:
        packet_bytes = burst
    rate, n, size, packet_bytes = _checked(line_rate_gbaud, lanes, size_bytes, packet_bytes)
    g = goodput_gbit_s(rate, n, size, packet_bytes)
    packets = int(_packets()(size, packet_bytes))
    coded = size + CONTROL_BYTES * packets
    code = coding.CODES["8b9b"]
    return {"kind": kind, "line_rate_gbaud": rate, "lanes": n, "size_bytes": size,
            "burst_bytes": burst, "memory": memory, "packet_bytes": packet_bytes, "packets": packets,
            "goodput_gbit_s": g, "efficiency": g / (rate * n),
            "bytes": {"payload": float(size), "control": float(CONTROL_BYTES * packets),
                      "encoding": coded * (code.coded_bits / code.data_bits - 1)}}


@checks.provider("hyperlink")
def source_checks():
    """The maximum throughputs §8.2 calculates, and the percentages of Tables 24 and 26."""
    out = []
    t = data.load("keystone2-s8-hyperlink-theoretical")
    for row in t.itertuples():
        # The text's formulas take one packet's worth: S = P.
        model = goodput_gbit_s(row.line_rate_gbaud, row.lanes, row.packet_bytes, row.packet_bytes)
        printed = t.attrs["printed"]["throughput_gbit_s"][row.Index]
        note = ""
        status = checks.classify(printed, model)
        if status == "rounding":
            note = "The product is {model:.4f}; the guide cuts it to {published} where rounding gives {rounded}."
        elif status == "erratum":
            note = (f"{row.line_rate_gbaud * row.lanes:g} x 8/9 x {row.packet_bytes} / "
                    f"({row.packet_bytes} + {CONTROL_BYTES}) is {{model:.2f}}, not {{published}}: the text's own "
                    "formula does not give its figure.")
        label = f"{row.transfer}, {row.packet_bytes}-byte packets" + (
            f" ({row.memory})" if row.memory != "any" else "")
        out.append(checks.compare(
            "hyperlink", t, row.Index, "throughput_gbit_s", model, label, note,
            formula=(goodput_expr(), {coding.line_rate: row.line_rate_gbaud, coding.lanes: row.lanes,
                                      transfer: row.packet_bytes, packet: row.packet_bytes, control: CONTROL_BYTES})))
    t = data.load("keystone2-table23-26")
    for row in t.itertuples():
        out.append(checks.compare(
            "hyperlink", t, row.Index, "measured_percent",
            100 * row.measured_gbit_s / row.max_achievable_gbit_s,
            f"Table {row.table.split('/')[1]}: {row.transfer} {row.memory_as_printed.split()[-1]}, EDMA {row.edma}"))
    return out


# --- goodput hyperlink ---------------------------------------------------------------------------

COMMAND = Command(
    "hyperlink", help="goodput of TI KeyStone HyperLink writes and reads",
    description="Payload bit rate of HyperLink transfers of SIZE bytes: writes in packets of the master's burst (at "
                "most 256 bytes), reads in the answering memory's burst; 8 control bytes per packet, 8b/9b coding.",
    arguments=(Arg("kind", choices=("write", "read")),
               Ranged("--rate-gbaud", PARAMETERS["line_rate_gbaud"], "GBAUD"),
               Ranged("--lanes", PARAMETERS["lanes"]),
               Ranged("--size", PARAMETERS["size_bytes"], "BYTES", required=True),
               Ranged("--burst", BURST, "BYTES", "the master's burst (EDMA data burst size)",
                      default=MAX_PACKET_BYTES),
               Arg("--memory", help="reads: the memory that answers (DDR3, 'MSMC SRAM', 'C66x L1/L2')")),
    run=lambda args: evaluate(args.kind, args.line_rate_gbaud, args.lanes, args.size_bytes, args.burst_bytes,
                              args.memory),
    lines=lambda args, r: report_lines(
        f"HyperLink {r['kind']} of {r['size_bytes']} bytes over {r['lanes']} x {r['line_rate_gbaud']:g} Gbaud in "
        f"{r['packets']} packets of {r['packet_bytes']} bytes", r))
