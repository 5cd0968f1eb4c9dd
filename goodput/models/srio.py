"""Serial RapidIO: packet overhead from the packet's fields, and goodput on 1x to 16x ports.

A serial RapidIO packet is, in order (RapidIO Interconnect Specification rev. 4.1: Part 1
Input/Output Logical, Part 2 Message Passing, Part 3 Common Transport, Part 6 LP-Serial Physical;
each field with its source in :data:`FIELD_SOURCES`):

- 2 bytes of physical and transport fields: ackID, VC, CRF and prio (Part 6 §2.3), the transport
  type ``tt`` (Part 3 §2.4) and the format type ``ftype`` (Part 1 §4.1);
- the destination and source device IDs, 8 or 16 bits each (Part 3 §2.4);
- the logical header: NWRITE and NREAD requests carry a byte of transaction and size and a byte
  of source TID (Part 1 Figures 4-1, 4-2); an SWRITE (type 6) carries neither (Figure 4-3); a
  response carries transaction, status and target TID (2 bytes); a Type 11 message segment its
  length, segment size, letter, mailbox and segment (2 bytes, Part 2);
- the address field of an addressed request: 29 bits of double-word address, the word pointer
  (reserved in an SWRITE), 2 bits of ``xamsbs`` and 0, 16 or 32 bits of extended address: 4, 6 or
  8 bytes for 34-, 50- and 66-bit addresses (Part 1 Table 4-2);
- the payload, at most 256 bytes; an SWRITE's is whole double-words (Part 1 §4.1.8);
- a 16-bit CRC, and a second one after the first 80 bytes of a longer packet (Part 6 §2.4.1);
- 2 bytes of zeros if needed for a whole number of 32-bit words (Part 6 §2.3).

How a packet goes on the lanes follows the lane's Baud Rate Class (Part 6 §1.3), so the line
rate decides it (:data:`CLASSES`): at 1.25 to 6.25 Gbaud (RapidIO 1.x and 2.x) every byte is
8b/10b coded and a control symbol takes 4 bytes (Control Symbol 24 and its delimiter, IDLE1) or,
at 6.25 Gbaud, 8 (Control Symbol 48 between two delimiters, IDLE2; §6.5); at 10.3125 and 12.5 Gbaud
(RapidIO 3.x) the lanes code 64b/67b, a packet also carries a 4-byte link CRC-32 and is padded to
a whole number of 8 bytes (§5.6), and a control symbol (Control Symbol 64) takes 8 bytes (§5.8).
Back to back, the next packet's start closes the previous one, so each packet needs one control
symbol. Each lane also spends a few characters or codewords in every 5000 on clock compensation
(§4.7.1, §4.7.4, §5.9.3). Transfers and messages larger than 256 bytes are cut into 256-byte
packets (messages into at most 16 segments).

The transactions, the Baud Rate Classes and the numbers of packets and transfers (:func:`evaluate`,
:func:`wire_bytes`, ``goodput srio``...) are :mod:`goodput.models.srio_numeric`'s, which computes with the
functions ``tools/gen_cli_spec.py`` prints from these expressions, and imports no sympy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from goodput.core import data, pieces
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.fit import Bound, Fit, Hockney, fit, hockney
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.core.symbols import maker
from goodput.models import coding, srio_numeric
from goodput.models.srio_numeric import (
    ADDRESS_BITS,
    CLASSES,
    CLOCK_SPAN,
    DOUBLE_WORD,
    ID_BITS,
    KINDS,
    LANES,
    LINE_RATES_GBAUD,
    MAX_PAYLOAD_BYTES,
    BaudClass,
    Kind,
    baud_class,
    checked,
    evaluate,
    goodput_gbit_s,
    kind_of,
    logical_bytes,
    overhead_bytes,
    packet_bytes,
    wire_bytes,
)

symbol = maker(__name__)

__all__ = ["ID_BITS", "payload", "id_bits", "control_symbols", "address_bits", "response_time", "MAX_PAYLOAD_BYTES", "LINE_RATES_GBAUD",
           "LANES", "ADDRESS_BITS", "CLOCK_SPAN", "BaudClass", "CLASSES", "baud_class", "class_values",
           "KINDS", "Kind", "FIELD_SOURCES", "PARAMETERS", "H", "C", "W", "A", "Q", "link_form",
           "fixed_logical", "addressed", "symbol_bytes", "link_crc", "align", "clock_share",
           "address_field_bytes_expr", "logical_header_expr", "fields", "crc_form", "packet_form", "wire_form",
           "goodput_form", "header_bytes_expr", "crc_bytes_expr", "packet_bytes_expr", "link_packet_bytes_expr",
           "wire_bytes_expr", "overhead_bytes_expr", "stream_rate_expr", "goodput_expr", "transfer", "acks",
           "transfer_goodput_expr", "transfer_wire_expr", "predict_mbit_s", "logical_header", "overhead_bytes",
           "packet_bytes", "wire_bytes", "goodput_gbit_s", "evaluate", "measured", "SeriesFit", "fit_series", "fits",
           "hockney_fit", "DOUBLE_WORD"]

payload = symbol("P", nonnegative=True, integer=True)  #: payload bytes in one packet
id_bits = symbol("I", positive=True, integer=True)  #: device ID width, bits (8 or 16)
control_symbols = symbol("c", nonnegative=True, integer=True)  #: control symbols per packet
address_bits = symbol("X", positive=True, integer=True)  #: address width, bits (34, 50 or 66)
#: ns a transfer waits besides its packets: an NREAD's target reading its memory before it answers, a DMA's set-up
response_time = symbol(r"t_{\mathrm{r}}", nonnegative=True)

#: Where each field's size is defined: (field, bits, specification and place; rev. 4.1 numbering).
FIELD_SOURCES = (
    ("ackID, VC, CRF, prio", "6 + 1 + 1 + 2", "Part 6 §2.3, Figure 2-2"),
    ("tt, ftype", "2 + 4", "Part 3 §2.4, Figure 2-3; Part 1 Table 4-2"),
    ("destination and source ID", "8 or 16 each", "Part 3 §2.4, Table 2-1 (32-bit Dev32 from rev. 3.0)"),
    ("transaction + size (NWRITE, NREAD)", "4 + 4", "Part 1 Figures 4-1, 4-2"),
    ("srcTID (NWRITE, NREAD)", "8", "Part 1 Figures 4-1, 4-2"),
    ("transaction, size and srcTID (SWRITE)", "none", "Part 1 §4.1.8, Figure 4-3"),
    ("transaction + status, targetTID (response)", "4 + 4, 8", "Part 1 §4.2.3, Figure 4-6"),
    ("msglen + ssize, letter + mbox + msgseg (Type 11)", "4 + 4, 2 + 2 + 4", "Part 2 §4.2.5, Figure 4-2"),
    ("extended address", "0, 16 or 32", "Part 1 Table 4-2"),
    ("address", "29", "Part 1 Table 4-2 (bits 0-28 of a double-word address)"),
    ("wdptr (NWRITE, NREAD) or rsrv (SWRITE)", "1", "Part 1 Figures 4-1 to 4-3"),
    ("xamsbs", "2", "Part 1 Table 4-2"),
    ("payload", "up to 2048 (256 bytes)", "Part 1 Table 4-4, §4.1.8 (SWRITE: whole double-words)"),
    ("CRC-16, and one after the first 80 bytes", "16 (+ 16)", "Part 6 §2.4.1"),
    ("pad to 32 bits", "0 or 16", "Part 6 §2.3"),
    ("link CRC-32 and pad to 8 bytes (64b/67b)", "32 + 0 or 32", "Part 6 §5.6"),
    ("control symbol, delimited", "32, 64 or 64", "Part 6 §3.3, §6.5.2, §5.8"),
    ("clock compensation per 5000 per lane", "4 or 9 characters; 7 codewords", "Part 6 §4.7.1, §4.7.4, §5.9.3"),
)

PARAMETERS = by_name(
    Parameter("line_rate_gbaud", coding.line_rate, "Gbaud", 0.001, max(LINE_RATES_GBAUD), default=3.125,
              step=0.0625, label="line rate per lane (Gbaud)",
              presets=tuple((r, f"{r:g}: {c.revisions.split(' ')[0]}") for c in CLASSES for r in c.rates_gbaud)),
    Parameter("lanes", coding.lanes, "lanes", 1, max(LANES), default=4, step=1, label="lanes", integer=True,
              options=tuple((n, f"x{n}") for n in LANES)),
    Parameter("size_bytes", payload, "bytes", 1, 1 << 20, default=256, step=1,
              label="transfer size (bytes)", integer=True),
    Parameter("id_bits", id_bits, "bits", 8, 16, default=16, step=8, label="device ID (bits)", integer=True),
    Parameter("address_bits", address_bits, "bits", 34, 66, default=34, step=2, label="address (bits)",
              integer=True, options=tuple((x, f"{x}-bit") for x in ADDRESS_BITS)),
    Parameter("control_symbols", control_symbols, "per packet", 0, 4, default=1, step=1,
              label="control symbols per packet", integer=True),
    # 0: the link alone; Tables 16-21's fits put a transfer's fixed time at hundreds of ns to a few us
    Parameter("response_ns", response_time, "ns", 0, 100000, default=0, step=10,
              label="fixed time per transfer: a read target's, a DMA set-up (ns)",
              presets=((0, "none: the link alone"), (500, "500 ns"), (1000, "1 us"), (5000, "5 us"))),
)

# --- the packet --------------------------------------------------------------------------------

logical_header = _logical = symbol("L", positive=True, integer=True)  #: logical header bytes
fixed_logical = symbol("F", nonnegative=True, integer=True)  #: logical header bytes before the address
addressed = symbol(r"\alpha", nonnegative=True, integer=True)  #: 1 if the packet carries an address field
#: Stand-ins for the header, CRC, address field and wire bytes, to show the formulas as the fields build them.
H, C = symbol("H", positive=True, integer=True), symbol("C", positive=True, integer=True)
A, W = symbol("A", positive=True, integer=True), symbol("W", positive=True, integer=True)
Q = symbol("Q", positive=True, integer=True)  #: stand-in for the packet's bytes (Part 6 §2.3), before the lanes


def address_field_bytes_expr() -> sp.Expr:
    """Bytes of the address field for an ``X``-bit address: ``X - 34`` bits of extended address, 29 of
    double-word address, the word pointer and 2 of ``xamsbs`` (``X - 2`` bits)."""
    return ((address_bits - 34) + 29 + 1 + 2) / 8


def logical_header_expr() -> sp.Expr:
    """The logical header ``L``: ``F`` bytes of transaction, size and TID, and the address field if any."""
    return fixed_logical + addressed * A


def header_bytes_expr() -> sp.Expr:
    """Bytes before the payload: 2 of physical and transport fields, two device IDs, the logical header ``L``."""
    return 2 + 2 * id_bits / 8 + _logical


def crc_form() -> sp.Expr:
    """CRC bytes in terms of the header ``H``: one 16-bit CRC, two beyond 80 bytes."""
    return sp.Piecewise((4, H + payload > 80), (2, True))


def packet_form() -> sp.Expr:
    """The packet in terms of ``H`` and ``C``, padded to a whole number of 32-bit words."""
    return 4 * sp.ceiling((H + payload + C) / 4)


# --- the packet on the lanes: per Baud Rate Class ------------------------------------------------

symbol_bytes = symbol("s", positive=True, integer=True)  #: bytes of one delimited control symbol
link_crc = symbol("K", nonnegative=True, integer=True)  #: link CRC bytes added to a packet (64b/67b)
align = symbol("w", positive=True, integer=True)  #: bytes a packet on the lanes is a multiple of
clock_share = symbol("q", nonnegative=True)  #: share of each lane's characters spent on clock compensation


def link_form() -> sp.Expr:
    """The packet of ``Q`` bytes on the lanes: with its link CRC of ``K`` bytes, padded to a multiple of ``w``."""
    return align * sp.ceiling((Q + link_crc) / align)


def wire_form() -> sp.Expr:
    """Wire bytes per packet in terms of the packet ``Q``: the packet on the lanes and ``c`` control symbols
    of ``s`` bytes."""
    return link_form() + symbol_bytes * control_symbols


def goodput_form() -> sp.Expr:
    """Goodput (Gbit/s) in terms of the wire bytes ``W`` per packet of ``P`` bytes."""
    return stream_rate_expr() * payload / W


def _values(c: BaudClass) -> dict:
    code = coding.CODES[c.code]
    return {coding.data_bits: code.data_bits, coding.coded_bits: code.coded_bits, symbol_bytes: c.control_symbol_bytes,
            link_crc: c.link_crc_bytes, align: c.align_bytes, clock_share: sp.Rational(c.clock_units, CLOCK_SPAN)}


def class_values(number: int | None = None) -> dict:
    """What Baud Rate Class ``number`` gives ``k``, ``n``, ``s``, ``K``, ``w`` and ``q``; with no number, each
    as a Piecewise over the line rate ``R``, so a chart's rate slider moves between the classes."""
    if number is not None:
        return _values(next(c for c in CLASSES if c.number == number))
    out = {}
    for sym in _values(CLASSES[0]):
        branches: list = []  # (value, highest rate): classes in a row with one value are one branch
        for c in CLASSES:
            value = _values(c)[sym]
            if branches and branches[-1][0] == value:
                branches[-1] = (value, c.highest_gbaud)
            else:
                branches.append((value, c.highest_gbaud))
        out[sym] = sp.Piecewise(*[(v, sp.Le(coding.line_rate, upto)) for v, upto in branches[:-1]],
                                (branches[-1][0], True))
    return out


def crc_bytes_expr() -> sp.Expr:
    """:func:`crc_form` with the header written out."""
    return crc_form().subs(H, header_bytes_expr())


def packet_bytes_expr() -> sp.Expr:
    """The packet, padded to a whole number of 32-bit words (every class)."""
    return packet_form().subs({C: crc_form()}).subs({H: header_bytes_expr()})


def _wire() -> sp.Expr:
    """:func:`wire_form` with the CRC and the header written out, the class's values left as symbols."""
    return wire_form().subs(Q, packet_form()).subs({C: crc_form()}).subs({H: header_bytes_expr()})


def link_packet_bytes_expr(number: int | None = 1) -> sp.Expr:
    """The packet as Baud Rate Class ``number`` sends it: with a link CRC-32 and 8-byte padding on 64b/67b."""
    return (_wire() - symbol_bytes * control_symbols).subs(class_values(number))


def wire_bytes_expr(number: int | None = 1) -> sp.Expr:
    """Bytes on the wire per packet in Baud Rate Class ``number`` (class 1 unless told; ``None``: by the line
    rate): the packet on the lanes and its ``c`` control symbols."""
    return _wire().subs(class_values(number))


def overhead_bytes_expr(number: int | None = 1) -> sp.Expr:
    return wire_bytes_expr(number) - payload


def stream_rate_expr() -> sp.Expr:
    """Gbit/s of packet and control-symbol bytes the port carries: the bit rate after the line code, less
    the clock compensation share ``q`` of each lane."""
    return coding.bit_rate_expr() * (1 - clock_share)


def goodput_expr(number: int | None = 1) -> sp.Expr:
    """Goodput (Gbit/s) of back-to-back packets of ``P`` bytes in Baud Rate Class ``number``."""
    return goodput_form().subs(W, _wire()).subs(class_values(number))


transfer = symbol("S", positive=True, integer=True)  #: transfer size, bytes
acks = symbol("a", nonnegative=True, integer=True)  #: acknowledgements of the other direction per packet


def transfer_wire_expr() -> sp.Expr:
    """Wire bytes of a transfer of ``S`` bytes: full packets of 256 bytes and one for the rest
    (:func:`goodput.core.pieces.cut`), each with its ``c`` control symbols and the ``a`` acknowledgements of
    the other direction that ride along. The logical header follows the transaction (``F`` and
    ``alpha``) and the address width ``X``; the class's values are left as symbols."""
    wire = (_wire() + symbol_bytes * acks).subs(_logical, logical_header_expr()).subs(A, address_field_bytes_expr())
    return pieces.cut(transfer, MAX_PAYLOAD_BYTES, wire, payload)


def transfer_goodput_expr() -> sp.Expr:
    """Goodput (Gbit/s) of back-to-back transfers of ``S`` bytes (:func:`transfer_wire_expr`); the
    class follows the line rate ``R``."""
    return (stream_rate_expr() * transfer / transfer_wire_expr()).subs(class_values(None))


def fields(kind: str, payload_bytes: int, id_bits_=DEFAULT, address_bits_=DEFAULT,
           line_rate_gbaud=DEFAULT) -> dict[str, int]:
    """Bytes of each field of one data packet of ``kind`` on a lane at ``line_rate_gbaud``, each from the
    model's expressions."""
    k = kind_of(kind)
    wire = wire_bytes(kind, payload_bytes, id_bits_, 1, address_bits_, line_rate_gbaud)  # validates every input
    v = checked(id_bits=id_bits_, address_bits=address_bits_, line_rate_gbaud=line_rate_gbaud)
    bc = baud_class(v["line_rate_gbaud"])
    subs = {payload: int(payload_bytes), id_bits: v["id_bits"], _logical: logical_bytes(k, v["address_bits"]),
            control_symbols: 1, **_values(bc)}
    header, crc = int(header_bytes_expr().subs(subs)), int(crc_bytes_expr().subs(subs))
    packet = int(packet_bytes_expr().subs(subs))
    on_lanes = int(link_packet_bytes_expr(bc.number).subs(subs))
    ids = int((id_bits / 8).subs(subs))
    address = logical_bytes(k, v["address_bits"]) - k.fixed_logical_bytes
    return {"ackID, prio, tt, ftype": 2, "destination ID": ids, "source ID": ids,
            "logical header": k.fixed_logical_bytes, "address": address, "CRC": crc,
            "pad": packet - header - int(payload_bytes) - crc, "link CRC-32 + pad": on_lanes - packet,
            "start-of-packet symbol": int((symbol_bytes * control_symbols).subs(subs)),
            "acks riding along": wire - on_lanes - int((symbol_bytes * control_symbols).subs(subs))}


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


# --- goodput srio: run by goodput.models.srio_numeric, without sympy -------------------------------------

COMMAND = Command(
    "srio", help="goodput of Serial RapidIO NWRITE, SWRITE, NREAD and Type 11 transfers",
    description="Payload bit rate of back-to-back Serial RapidIO transfers of SIZE bytes, cut into packets of at "
                "most 256 bytes, each with its header, address, CRC(s), padding and start-of-packet control symbol, "
                "on 1 to 16 lanes. The line rate sets the rest: 8b/10b with 4-byte control symbols up to 5 Gbaud "
                "(8-byte at 6.25), 64b/67b with a link CRC-32 and 8-byte control symbols at 10.3125 and 12.5 "
                "Gbaud; each lane's clock compensation is counted. For NREAD, the response direction.",
    arguments=(Arg("kind", choices=tuple(KINDS)),
               Ranged("--rate-gbaud", PARAMETERS["line_rate_gbaud"], "GBAUD"),
               Arg("--lanes", default="4", metavar="N", help="lanes: " + ", ".join(map(str, LANES))),
               Ranged("--size", PARAMETERS["size_bytes"], "BYTES", "transfer or message size, bytes (a message is "
                      "at most 4096; an SWRITE whole double-words)", required=True),
               Arg("--id-bits", dest="id_bits", default="16", metavar="BITS", help="device ID width: 8 or 16"),
               Arg("--address-bits", dest="address_bits", default="34", metavar="BITS",
                   help="address width: " + ", ".join(map(str, ADDRESS_BITS))),
               Ranged("--control-symbols", PARAMETERS["control_symbols"], what="control symbols per packet"),
               Ranged("--response-ns", PARAMETERS["response_ns"], "NS",
                      "a fixed time each transfer waits besides its packets (an NREAD's target reading its memory, a "
                      "DMA set-up): one transfer's latency is its time on the link and this"),
               Arg("--strict", action="store_true", help="accept only the baud rates RapidIO defines")),
    run=srio_numeric.run, lines=srio_numeric.lines)
