"""Serial RapidIO: packet overhead from the packet's fields, and goodput on 1x/2x/4x ports.

A serial RapidIO packet is, in order (RapidIO Parts 1, 2 and 6):

- 2 bytes of physical and transport control: ackID, reserved bits, priority,
  the transport type ``tt`` and the format type ``ftype``;
- the destination and source device IDs, 8 or 16 bits each;
- the logical header of the transaction: NWRITE and NREAD requests carry ttype,
  size, source TID and a 34-bit address with its word pointer (6 bytes); a
  response carries ttype, status and target TID (2 bytes); a Type 11 message
  segment carries its length, segment size, letter, mailbox and segment (2 bytes);
- the payload, at most 256 bytes (NREAD requests carry none);
- a 16-bit CRC, and a second one inserted after the first 80 bytes of a longer packet;
- 2 bytes of zeros if needed so that the packet is a whole number of 32-bit words.

On the wire each packet also needs a start-of-packet control symbol (4 bytes);
back to back, the next packet's start closes the previous one. Every byte is
8b/10b coded on each lane, so a port of ``N`` lanes at ``R`` Gbaud carries
``N * R * 8/10`` Gbit/s. Transfers and messages larger than 256 bytes are cut
into 256-byte packets (messages into at most 16 segments).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import checks, coding, data
from .command import Arg, Command, Ranged, report_lines
from .errors import ParameterError
from .fit import Bound, Fit, Hockney, fit, hockney
from .params import Parameter
from .symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["payload", "id_bits", "control_symbols", "MAX_PAYLOAD_BYTES", "LINE_RATES_GBAUD", "LANES",
           "KINDS", "Kind", "PARAMETERS", "H", "C", "fields", "crc_form", "wire_form", "header_bytes_expr", "crc_bytes_expr", "packet_bytes_expr",
           "wire_bytes_expr", "overhead_bytes_expr", "goodput_expr", "transfer", "acks",
           "transfer_goodput_expr", "predict_mbit_s", "logical_header", "overhead_bytes", "wire_bytes",
           "goodput_gbit_s", "evaluate", "measured", "SeriesFit", "fit_series", "fits",
           "hockney_fit"]

payload = symbol("P", nonnegative=True, integer=True)  #: payload bytes in one packet
id_bits = symbol("I", positive=True, integer=True)  #: device ID width, bits (8 or 16)
control_symbols = symbol("c", nonnegative=True, integer=True)  #: 4-byte control symbols per packet

MAX_PAYLOAD_BYTES = 256
MAX_MESSAGE_BYTES = 4096  # 16 segments of 256 bytes
LINE_RATES_GBAUD = (1.25, 2.5, 3.125, 5.0, 6.25)  # RapidIO 1.x/2.x baud rates (6.25: 2.x only)
LANES = (1, 2, 4)  # the KeyStone II port widths
ID_BITS = (8, 16)


@dataclass(frozen=True)
class Kind:
    """A transaction as the data direction sees it."""

    key: str
    name: str
    logical_header_bytes: int  # of the packet that carries the data
    acks_in_data_direction: int  # control symbols acknowledging packets of the other direction
    max_bytes: int  # largest transfer or message


KINDS = {
    "nwrite": Kind("nwrite", "NWRITE (DirectIO write)", 6, 0, 1 << 20),
    # the data travels in responses; each request the other way is acknowledged in this direction
    "nread": Kind("nread", "NREAD (DirectIO read), response direction", 2, 1, 1 << 20),
    "type11": Kind("type11", "Type 11 message", 2, 0, MAX_MESSAGE_BYTES),
}

PARAMETERS = {
    p.name: p
    for p in (
        Parameter("line_rate_gbaud", coding.line_rate, "Gbaud", 0.001, 6.25, default=3.125, step=0.125,
                  label="line rate per lane (Gbaud)"),
        Parameter("lanes", coding.lanes, "lanes", 1, 4, default=4, step=1, label="lanes", integer=True,
                  options=tuple((n, f"x{n}") for n in range(1, 5))),
        Parameter("size_bytes", payload, "bytes", 1, 1 << 20, default=256, step=1,
                  label="transfer size (bytes)", integer=True),
        Parameter("id_bits", id_bits, "bits", 8, 16, default=16, step=8, label="device ID (bits)", integer=True),
        Parameter("control_symbols", control_symbols, "per packet", 0, 4, default=1, step=1,
                  label="control symbols per packet", integer=True),
    )
}

logical_header = _logical = symbol("L", positive=True, integer=True)  #: logical header bytes


def header_bytes_expr() -> sp.Expr:
    """Bytes before the payload: 2 of control, two device IDs, the logical header ``L``."""
    return 2 + 2 * id_bits / 8 + _logical


#: Stand-ins for the header and CRC bytes, to show the formulas as the fields build them.
H, C = symbol("H", positive=True, integer=True), symbol("C", positive=True, integer=True)


def crc_form() -> sp.Expr:
    """CRC bytes in terms of the header ``H``: one 16-bit CRC, two beyond 80 bytes."""
    return sp.Piecewise((4, H + payload > 80), (2, True))


def wire_form() -> sp.Expr:
    """Wire bytes per packet in terms of ``H`` and ``C``: padded to 32-bit words, plus control symbols."""
    return 4 * sp.ceiling((H + payload + C) / 4) + 4 * control_symbols


def crc_bytes_expr() -> sp.Expr:
    """:func:`crc_form` with the header written out."""
    return crc_form().subs(H, header_bytes_expr())


def packet_bytes_expr() -> sp.Expr:
    """The packet, padded to a whole number of 32-bit words."""
    return (wire_form() - 4 * control_symbols).subs({C: crc_form(), H: header_bytes_expr()})


def wire_bytes_expr() -> sp.Expr:
    """Bytes on the wire per packet: the packet and its ``c`` 4-byte control symbols."""
    return wire_form().subs({C: crc_form()}).subs({H: header_bytes_expr()})


def overhead_bytes_expr() -> sp.Expr:
    return wire_bytes_expr() - payload


def goodput_expr() -> sp.Expr:
    """Goodput (Gbit/s) of back-to-back packets of ``P`` bytes over an 8b/10b port."""
    return coding.bit_rate_expr(coding.CODES["8b10b"]) * payload / wire_bytes_expr()


transfer = symbol("S", positive=True, integer=True)  #: transfer size, bytes
acks = symbol("a", nonnegative=True, integer=True)  #: acknowledgements of the other direction per packet


def transfer_goodput_expr() -> sp.Expr:
    """Goodput (Gbit/s) of transfers of ``S`` bytes, exact when ``S`` is at most 256 or a multiple
    of it: every packet carries ``min(S, 256)`` bytes and ``a`` acknowledgements ride along."""
    p = sp.Min(transfer, MAX_PAYLOAD_BYTES)
    return (coding.bit_rate_expr(coding.CODES["8b10b"]) * p
            / (wire_bytes_expr().subs(payload, p) + 4 * acks))


def _kind(kind: str) -> Kind:
    if kind not in KINDS:
        raise ParameterError("kind", kind, "one of " + ", ".join(KINDS))
    return KINDS[kind]


def _subs(kind: Kind, ids: int) -> dict:
    return {_logical: kind.logical_header_bytes, id_bits: ids}


@lru_cache(maxsize=None)
def _numeric(name: str):
    expr = {"wire": wire_bytes_expr(), "goodput": goodput_expr()}[name]
    return lambdify((coding.line_rate, coding.lanes, payload, id_bits, control_symbols, _logical), expr, "math")


def _check(**values) -> dict:
    out = {name: PARAMETERS[name].check(v) for name, v in values.items()}
    if "lanes" in out and out["lanes"] not in LANES:
        raise ParameterError("lanes", values["lanes"], "1, 2 or 4 lanes (a 1x, 2x or 4x port)")
    if "id_bits" in out and out["id_bits"] not in ID_BITS:
        raise ParameterError("id_bits", values["id_bits"], "8 or 16 bits")
    return out


def fields(kind: str, payload_bytes: int, id_bits_: int = 16) -> dict[str, int]:
    """Bytes of each field of one data packet of ``kind``, each from the model's expressions."""
    k = _kind(kind)
    wire_bytes(kind, payload_bytes, id_bits_)  # validates the payload and the ID width
    v = {payload: int(payload_bytes), id_bits: int(id_bits_), _logical: k.logical_header_bytes, control_symbols: 1}
    header, crc = int(header_bytes_expr().subs(v)), int(crc_bytes_expr().subs(v))
    packet = int(packet_bytes_expr().subs(v))
    return {"control + tt + ftype": 2, "device IDs": int((2 * id_bits / 8).subs(v)),
            "logical header": k.logical_header_bytes, "CRC": crc, "pad": packet - header - int(payload_bytes) - crc,
            "start-of-packet symbol": int((wire_bytes_expr() - packet_bytes_expr()).subs(v)),
            "acks riding along": 4 * k.acks_in_data_direction}


def overhead_bytes(kind: str, payload_bytes: int, id_bits_: int = 16, control_symbols_: int = 1) -> int:
    """Wire bytes beyond the payload for one packet of ``payload_bytes`` (0 to 256)."""
    return wire_bytes(kind, payload_bytes, id_bits_, control_symbols_) - payload_bytes


def wire_bytes(kind: str, payload_bytes: int, id_bits_: int = 16, control_symbols_: int = 1) -> int:
    """Wire bytes of one data packet of ``kind``, with the acknowledgements it brings along."""
    k = _kind(kind)
    if int(payload_bytes) != payload_bytes or not 0 <= payload_bytes <= MAX_PAYLOAD_BYTES:
        raise ParameterError("payload_bytes", payload_bytes, f"an integer from 0 to {MAX_PAYLOAD_BYTES} bytes")
    v = _check(id_bits=id_bits_, control_symbols=control_symbols_)
    w = _numeric("wire")(1, 1, int(payload_bytes), v["id_bits"], v["control_symbols"], k.logical_header_bytes)
    return int(w) + 4 * k.acks_in_data_direction


def goodput_gbit_s(kind: str, line_rate_gbaud: float, lanes: int, size_bytes: int, id_bits_: int = 16,
                   control_symbols_: int = 1, strict: bool = False) -> float:
    """Goodput of back-to-back transfers of ``size_bytes`` cut into 256-byte packets."""
    return evaluate(kind, line_rate_gbaud, lanes, size_bytes, id_bits_, control_symbols_, strict)["goodput_gbit_s"]


def evaluate(kind: str, line_rate_gbaud: float, lanes: int, size_bytes: int, id_bits_: int = 16,
             control_symbols_: int = 1, strict: bool = False) -> dict:
    """A transfer as a JSON-ready dict: inputs, packets, goodput, efficiency, line bytes by kind."""
    k = _kind(kind)
    v = _check(line_rate_gbaud=line_rate_gbaud, lanes=lanes, size_bytes=size_bytes, id_bits=id_bits_,
               control_symbols=control_symbols_)
    if strict and v["line_rate_gbaud"] not in LINE_RATES_GBAUD:
        raise ParameterError("line_rate_gbaud", line_rate_gbaud,
                             "one of the RapidIO baud rates " + ", ".join(f"{r:g}" for r in LINE_RATES_GBAUD)
                             + " Gbaud (--strict)")
    size = v["size_bytes"]
    if size > k.max_bytes:
        raise ParameterError("size_bytes", size_bytes, f"at most {k.max_bytes} bytes for {k.name}")
    full, rest = divmod(size, MAX_PAYLOAD_BYTES)
    sizes = [MAX_PAYLOAD_BYTES] * full + ([rest] if rest else [])
    wires = [wire_bytes(kind, p, v["id_bits"], v["control_symbols"]) for p in sizes]
    line = sum(wires)
    bit_rate = coding.bit_rate_gbit_s(v["line_rate_gbaud"], v["lanes"], "8b10b")
    goodput = bit_rate * size / line
    control = 4 * (v["control_symbols"] + k.acks_in_data_direction) * len(sizes)
    return {"kind": kind, "line_rate_gbaud": v["line_rate_gbaud"], "lanes": v["lanes"], "size_bytes": size,
            "id_bits": v["id_bits"], "control_symbols": v["control_symbols"], "packets": len(sizes),
            "goodput_gbit_s": goodput, "efficiency": goodput / (v["line_rate_gbaud"] * v["lanes"]),
            "bytes": {"payload": float(size), "packet overhead": float(line - size - control),
                      "control symbols": float(control), "encoding": line * (10 / 8 - 1)}}


# --- measured: Tables 16-21 ---------------------------------------------------------------

def measured():
    """Tables 16-21, one row per (table, lanes, memory, payload size)."""
    return data.load("keystone2-table16-21")


@dataclass(frozen=True)
class SeriesFit:
    """Per-transaction time and bandwidth fitted to one column of Tables 16-21."""

    table: int
    transaction: str
    phy_gbaud: float
    lanes: int
    memory: str
    form: str  # "overlapped": max(t0, 8S/B); "serial": t0 + 8S/B
    result: Fit
    sizes: tuple[int, ...]

    @property
    def t0_ns(self) -> float:
        return self.result.values["t0_ns"]

    @property
    def bandwidth_gbit_s(self) -> float:
        return self.result.values["bandwidth_gbit_s"]

    @property
    def knee_bytes(self) -> float:
        """Transfer size where the time per transaction equals the time on the wire."""
        return self.t0_ns * self.bandwidth_gbit_s / 8


def predict_mbit_s(form: str, sizes, t0_ns: float, bandwidth_gbit_s: float) -> np.ndarray:
    """Throughput (Mbit/s) of transfers of ``sizes`` bytes in the ``form`` of timing."""
    bits = 8 * np.asarray(sizes, dtype=float)
    wire_ns = bits / bandwidth_gbit_s
    t = np.maximum(t0_ns, wire_ns) if form == "overlapped" else t0_ns + wire_ns
    return 1000 * bits / t


def fit_series(sizes, mbit_s, form: str) -> Fit:
    """Fit ``t0`` and ``B`` of one ``form`` to measured (size, Mbit/s) points."""
    if form not in ("overlapped", "serial"):
        raise ParameterError("form", form, "overlapped or serial")
    sizes = np.asarray(sizes, dtype=float)
    return fit(lambda t0, b: predict_mbit_s(form, sizes, t0, b), mbit_s,
               [Bound("t0_ns", 1.0, 20000.0, "ns"), Bound("bandwidth_gbit_s", 0.05, 25.0, "Gbit/s")])


@lru_cache(maxsize=1)
def fits() -> tuple[SeriesFit, ...]:
    """Both timing forms fitted to every column of Tables 16-21; the better one is kept."""
    t = measured()
    out = []
    for (table, lanes, memory), g in t.groupby(["table", "lanes", "memory"], sort=False):
        g = g.sort_values("payload_bytes")
        candidates = [(fit_series(g["payload_bytes"], g["throughput_mbit_s"], form), form)
                      for form in ("overlapped", "serial")]
        best, form = min(candidates, key=lambda c: c[0].rms_residual)
        out.append(SeriesFit(int(table), g["transaction"].iloc[0], float(g["phy_gbaud"].iloc[0]), int(lanes),
                             memory, form, best, tuple(int(s) for s in g["payload_bytes"])))
    return tuple(out)


def hockney_fit(table: int, lanes: int, memory: str) -> Hockney:
    """One column of Tables 16-21 fitted as time = fixed cost + bytes / bandwidth (least squares,
    with intervals): each size's rate turned back into time per transaction."""
    t = measured()
    t = t[(t["table"] == table) & (t["lanes"] == lanes) & (t["memory"] == memory)]
    return hockney(t["payload_bytes"], 8 * t["payload_bytes"] / t["throughput_mbit_s"])


# --- source checks -------------------------------------------------------------------------

@checks.provider("srio")
def source_checks():
    """The packet overheads §7 states, from the packet fields with 16-bit device IDs."""
    t = data.load("keystone2-s7-srio-overheads")
    out = []
    for row in t.itertuples():
        kind = "type11" if row.transaction == "Type 11" else "nwrite"
        if row.packets == "payload below 256 bytes":
            sizes = range(8, MAX_PAYLOAD_BYTES, 8)
            values = {overhead_bytes(kind, p) for p in sizes}
            model = max(values)
            unpadded = {overhead_bytes(kind, p) - fields(kind, p)["pad"] for p in sizes}
            note = (f"Every payload of 8 to 248 bytes costs {sorted(values)} bytes: a small packet "
                    f"(one CRC) is padded by 2 bytes to a whole 32-bit word, a larger one carries a "
                    f"second CRC instead. Without the pad the small ones would cost {min(unpadded)}: "
                    "the guide's {published} leaves out the padding.")
        else:
            model = overhead_bytes(kind, MAX_PAYLOAD_BYTES)
            note = ""
        out.append(checks.compare("srio", t, row.Index, "overhead_bytes", model,
                                  f"{row.transaction}, {row.packets}", off_note=note))
    return out


# --- goodput srio --------------------------------------------------------------------------------

COMMAND = Command(
    "srio", help="goodput of Serial RapidIO NWRITE, NREAD and Type 11 transfers",
    description="Payload bit rate of back-to-back Serial RapidIO transfers of SIZE bytes, cut into packets of at "
                "most 256 bytes, each with its header, CRC(s), padding and start-of-packet control symbol; 8b/10b on "
                "1, 2 or 4 lanes. For NREAD, the response direction.",
    arguments=(Arg("kind", choices=tuple(KINDS)),
               Ranged("--rate-gbaud", PARAMETERS["line_rate_gbaud"], "GBAUD"),
               Arg("--lanes", default="4", metavar="N", help="lanes: 1, 2 or 4"),
               Ranged("--size", PARAMETERS["size_bytes"], "BYTES", "transfer or message size, bytes (a message is "
                      "at most 4096)", required=True),
               Arg("--id-bits", dest="id_bits", default="16", metavar="BITS", help="device ID width: 8 or 16"),
               Ranged("--control-symbols", PARAMETERS["control_symbols"], what="4-byte control symbols per packet"),
               Arg("--strict", action="store_true", help="accept only the baud rates RapidIO defines")),
    run=lambda args: evaluate(args.kind, args.line_rate_gbaud, args.lanes, args.size_bytes, args.id_bits,
                              args.control_symbols, args.strict),
    lines=lambda args, r: report_lines(
        f"SRIO {KINDS[r['kind']].name} of {r['size_bytes']} bytes over {r['lanes']}x {r['line_rate_gbaud']:g} Gbaud "
        f"in {r['packets']} packets", r))
