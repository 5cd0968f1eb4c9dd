"""TI KeyStone HyperLink: goodput of packets that carry at most 256 bytes and 8 bytes of control.

HyperLink bridges the interconnect of two KeyStone devices over up to four
SerDes lanes with 8b/9b coding. Every packet carries a payload of at most
``P`` bytes plus ``C = 8`` bytes of control. Writes are cut into packets at
256-byte boundaries (or smaller, by the bursts of the master: an EDMA transfer
controller's data burst size); a read is answered in bursts of the memory that
answers it (DDR3 64 B, MSMC SRAM 32 B, L1/L2 16 B: Table 22), each in a packet
of its own. A transfer of ``S`` bytes then costs ``S + C * ceiling(S / P)``
bytes before coding, at the bit rate ``B`` of :mod:`goodput.models.coding`.

The numbers of transfers (:func:`evaluate`, :func:`goodput_gbit_s`, ``goodput hyperlink``) are
:mod:`goodput.models.hyperlink_numeric`'s, which computes with the functions ``tools/gen_cli_spec.py`` prints from
these expressions, and imports neither sympy nor pandas.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from goodput.core.command import Arg, Command, Ranged
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import maker
from goodput.models import coding, hyperlink_numeric
from goodput.models.hyperlink_numeric import (
    CONTROL_BYTES,
    MAX_PACKET_BYTES,
    evaluate,
    goodput_gbit_s,
    per_packet_gbit_s,
    read_response_bytes,
)

symbol = maker(__name__)

__all__ = ["transfer", "packet", "control", "achieved", "MAX_PACKET_BYTES", "CONTROL_BYTES", "PARAMETERS", "BURST", "RESPONSE", "packet_for_expr",
           "packets_expr", "goodput_expr", "implied_control_expr", "read_response_bytes", "goodput_gbit_s", "evaluate",
           "per_packet_gbit_s"]

transfer = symbol("S", positive=True, integer=True)  #: transfer size, bytes
packet = symbol("P", positive=True, integer=True)  #: payload per packet, bytes
control = symbol("C", nonnegative=True, integer=True)  #: control bytes per packet
achieved = symbol("G", positive=True)  #: a goodput achieved (measured or published), Gbit/s

PARAMETERS = by_name(
    Parameter("line_rate_gbaud", coding.line_rate, "Gbaud", 0.001, 12.5, default=6.25, step=0.125,
              label="line rate per lane (Gbaud)"),
    Parameter("lanes", coding.lanes, "lanes", 1, 4, default=4, step=1, label="lanes", integer=True,
              options=tuple((n, f"x{n}") for n in range(1, 5))),
    Parameter("packet_bytes", packet, "bytes", 1, MAX_PACKET_BYTES, default=MAX_PACKET_BYTES, step=1,
              label="payload per packet (bytes)", integer=True),
    Parameter("size_bytes", transfer, "bytes", 1, 1 << 32, default=32768, step=1,
              label="transfer size (bytes)", integer=True),
)


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


# --- goodput hyperlink: run by goodput.models.hyperlink_numeric, without sympy ---------------------------

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
               Arg("--memory", help="reads only (refused with a write): the memory that answers (DDR3, 'MSMC SRAM', "
                                    "'C66x L1/L2')")),
    run=hyperlink_numeric.run, lines=hyperlink_numeric.lines)
