"""Serial RapidIO transfers in numbers: :func:`evaluate`, the packets' wire bytes and ``goodput srio``,
without sympy.

The model is :mod:`goodput.models.srio`, which re-exports what is here: the transactions and Baud Rate Classes
(plain data, declared here) and the numbers of packets and transfers. Its parameters, the line codes and
its numeric functions come from :mod:`goodput.models.quick_spec`, which ``tools/gen_cli_spec.py`` writes from
the models (each function printed from one of :mod:`goodput.models.srio`'s expressions, as
:func:`goodput.core.symbols.lambdify` prints it): the command imports neither sympy nor the model. They are
looked up when called, so that the tool can import the model while it writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from goodput.core.command import report_lines
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT
from goodput.models import quick_spec as spec

__all__ = ["MAX_PAYLOAD_BYTES", "MAX_MESSAGE_BYTES", "DOUBLE_WORD", "LANES", "ID_BITS", "ADDRESS_BITS", "CLOCK_SPAN",
           "BaudClass", "CLASSES", "LINE_RATES_GBAUD", "Kind", "KINDS", "baud_class", "kind_of", "checked",
           "logical_bytes", "packet_bytes", "overhead_bytes", "wire_bytes", "goodput_gbit_s", "evaluate", "run",
           "lines"]

MAX_PAYLOAD_BYTES = 256
MAX_MESSAGE_BYTES = 4096  # 16 segments of 256 bytes
DOUBLE_WORD = 8  # an SWRITE's payload is whole double-words (Part 1 §4.1.8)
LANES = (1, 2, 4, 8, 16)  # port widths (Part 6 §4.6, §5.12)
ID_BITS = (8, 16)
ADDRESS_BITS = (34, 50, 66)  # Part 1 §1.3.1, Table 4-2
CLOCK_SPAN = 5000  # characters (8b/10b) or codewords (64b/67b) per lane between clock compensations


@dataclass(frozen=True)
class BaudClass:
    """A Baud Rate Class of RapidIO Part 6 (§1.3) and what it sets of the packet on the lanes.

    ``control_symbol_bytes`` is a delimited control symbol: Control Symbol 24 (3 bytes) after its
    delimiter character, Control Symbol 48 (6 bytes) between two, or Control Symbol 64 (8 bytes, no
    delimiter) (§3.3, §6.5.2). ``link_crc_bytes`` and ``align_bytes``: what 64b/67b adds to a packet,
    a link CRC-32 and padding to a multiple of 8 bytes (§5.6); 8b/10b packets stay whole 32-bit
    words (§2.3). ``clock_units``: characters or codewords per lane in every :data:`CLOCK_SPAN` that a
    busy link must still spend on clock compensation: IDLE1's K,R,R,R (§4.7.1); IDLE2's K,R,R,R and
    then at least the M and four data characters its idle frame must start with (§4.7.4); IDLE3's
    Skip ordered sequence: Skip-Marker, three Skips, Lane Check and two Seeds (§5.9.3).
    """

    number: int
    rates_gbaud: tuple[float, ...]
    revisions: str
    code: str
    idle: str
    control_symbol: str
    control_symbol_bytes: int
    link_crc_bytes: int
    align_bytes: int
    clock_units: int

    @property
    def highest_gbaud(self) -> float:
        return max(self.rates_gbaud)


#: The Baud Rate Classes by the rates they hold; a rate between two classes takes the higher class.
CLASSES = (
    BaudClass(1, (1.25, 2.5, 3.125, 5.0), "1.x (5 Gbaud: 2.x)", "8b10b", "IDLE1", "Control Symbol 24", 4, 0, 4, 4),
    BaudClass(2, (6.25,), "2.x", "8b10b", "IDLE2", "Control Symbol 48", 8, 0, 4, 9),
    BaudClass(3, (10.3125, 12.5), "3.x (12.5 Gbaud: 3.2)", "64b67b", "IDLE3", "Control Symbol 64", 8, 4, 8, 7),
)
LINE_RATES_GBAUD = tuple(r for c in CLASSES for r in c.rates_gbaud)  # the rates RapidIO 1.x to 3.x define


@dataclass(frozen=True)
class Kind:
    """A transaction as the data direction sees it."""

    key: str
    name: str
    logical_fields: tuple[tuple[str, int], ...]  # the logical header's bytes before any address
    addressed: bool  # whether the data packet carries an address field
    acks_in_data_direction: int  # control symbols acknowledging packets of the other direction
    max_bytes: int  # largest transfer or message
    whole_double_words: bool = False  # payload only in whole double-words

    @property
    def fixed_logical_bytes(self) -> int:
        return sum(n for _name, n in self.logical_fields)


KINDS = {
    "nwrite": Kind("nwrite", "NWRITE (DirectIO write)", (("transaction + wrsize", 1), ("srcTID", 1)), True, 0,
                   1 << 20),
    "swrite": Kind("swrite", "SWRITE (streaming write)", (), True, 0, 1 << 20, whole_double_words=True),
    # the data travels in responses; each request the other way is acknowledged in this direction
    "nread": Kind("nread", "NREAD (DirectIO read), response direction",
                  (("transaction + status", 1), ("targetTID", 1)), False, 1, 1 << 20),
    "type11": Kind("type11", "Type 11 message", (("msglen + ssize", 1), ("letter + mbox + msgseg", 1)), False, 0,
                   MAX_MESSAGE_BYTES),
}


def baud_class(line_rate_gbaud: float) -> BaudClass:
    """The Baud Rate Class of a lane at ``line_rate_gbaud`` (a rate between two classes: the higher)."""
    for c in CLASSES:
        if line_rate_gbaud <= c.highest_gbaud:
            return c
    raise ParameterError("line_rate_gbaud", line_rate_gbaud, f"at most {max(LINE_RATES_GBAUD):g} Gbaud")


def kind_of(kind: str) -> Kind:
    """The transaction ``kind`` names (``"nwrite"``)."""
    if kind not in KINDS:
        raise ParameterError("kind", kind, "one of " + ", ".join(KINDS))
    return KINDS[kind]


def checked(**values) -> dict:
    """Each of ``values`` (by parameter name) as its parameter allows it; a device ID of 8 or 16 bits."""
    out = {name: spec.SRIO["parameters"][name].check(v) for name, v in values.items()}
    if "id_bits" in out and out["id_bits"] not in ID_BITS:
        raise ParameterError("id_bits", values["id_bits"], "8 or 16 bits")
    return out


def logical_bytes(k: Kind, address_bits_: int) -> int:
    """Bytes of the logical header of a data packet of ``k``: its fixed fields and its address field, if any."""
    return k.fixed_logical_bytes + (int(spec.srio_address(address_bits_)) if k.addressed else 0)


def _check_payload(k: Kind, payload_bytes) -> int:
    if int(payload_bytes) != payload_bytes or not 0 <= payload_bytes <= MAX_PAYLOAD_BYTES:
        raise ParameterError("payload_bytes", payload_bytes, f"an integer from 0 to {MAX_PAYLOAD_BYTES} bytes")
    if k.whole_double_words and (payload_bytes == 0 or payload_bytes % DOUBLE_WORD):
        raise ParameterError("payload_bytes", payload_bytes,
                             f"a whole number of double-words ({DOUBLE_WORD} to {MAX_PAYLOAD_BYTES} bytes) "
                             f"for {k.name}")
    return int(payload_bytes)


def packet_bytes(kind: str, payload_bytes: int, id_bits_=DEFAULT, address_bits_=DEFAULT) -> int:
    """Bytes of one data packet of ``kind`` (Part 6 §2.3: header, payload, CRCs, pad), before the lanes."""
    k = kind_of(kind)
    p = _check_payload(k, payload_bytes)
    v = checked(id_bits=id_bits_, address_bits=address_bits_)
    return int(spec.srio_packet(p, v["id_bits"], logical_bytes(k, v["address_bits"])))


def overhead_bytes(kind: str, payload_bytes: int, id_bits_=DEFAULT, control_symbols_=DEFAULT,
                   address_bits_=DEFAULT, line_rate_gbaud=DEFAULT) -> int:
    """Wire bytes beyond the payload for one packet of ``payload_bytes`` (0 to 256)."""
    return wire_bytes(kind, payload_bytes, id_bits_, control_symbols_, address_bits_, line_rate_gbaud) - payload_bytes


def wire_bytes(kind: str, payload_bytes: int, id_bits_=DEFAULT, control_symbols_=DEFAULT, address_bits_=DEFAULT,
               line_rate_gbaud=DEFAULT) -> int:
    """Wire bytes of one data packet of ``kind`` on a lane at ``line_rate_gbaud`` (its class sets the control
    symbol and the link CRC), with the acknowledgements it brings along."""
    k = kind_of(kind)
    p = _check_payload(k, payload_bytes)
    v = checked(id_bits=id_bits_, control_symbols=control_symbols_, address_bits=address_bits_,
                line_rate_gbaud=line_rate_gbaud)
    bc = baud_class(v["line_rate_gbaud"])
    w = spec.srio_wire(p, v["id_bits"], v["control_symbols"] + k.acks_in_data_direction,
                       logical_bytes(k, v["address_bits"]), bc.control_symbol_bytes, bc.link_crc_bytes, bc.align_bytes)
    return int(w)


def goodput_gbit_s(kind: str, line_rate_gbaud, lanes, size_bytes, id_bits_=DEFAULT, control_symbols_=DEFAULT,
                   strict: bool = False, address_bits_=DEFAULT) -> float:
    """Goodput of back-to-back transfers of ``size_bytes`` cut into 256-byte packets."""
    return evaluate(kind, line_rate_gbaud, lanes, size_bytes, id_bits_, control_symbols_, strict,
                    address_bits_)["goodput_gbit_s"]


def evaluate(kind: str, line_rate_gbaud, lanes, size_bytes, id_bits_=DEFAULT, control_symbols_=DEFAULT,
             strict: bool = False, address_bits_=DEFAULT) -> dict:
    """A transfer as a JSON-ready dict: inputs, class, packets, goodput, efficiency, line bytes by kind."""
    k = kind_of(kind)
    v = checked(line_rate_gbaud=line_rate_gbaud, lanes=lanes, size_bytes=size_bytes, id_bits=id_bits_,
                control_symbols=control_symbols_, address_bits=address_bits_)
    if strict and v["line_rate_gbaud"] not in LINE_RATES_GBAUD:
        raise ParameterError("line_rate_gbaud", line_rate_gbaud,
                             "one of the RapidIO baud rates " + ", ".join(f"{r:g}" for r in LINE_RATES_GBAUD)
                             + " Gbaud (--strict)")
    size = v["size_bytes"]
    if size > k.max_bytes:
        raise ParameterError("size_bytes", size_bytes, f"at most {k.max_bytes} bytes for {k.name}")
    if k.whole_double_words and size % DOUBLE_WORD:
        raise ParameterError("size_bytes", size_bytes,
                             f"a multiple of {DOUBLE_WORD} bytes for {k.name} (whole double-words; "
                             "the rest goes in an NWRITE)")
    bc = baud_class(v["line_rate_gbaud"])
    full, rest = divmod(size, MAX_PAYLOAD_BYTES)
    sizes = [MAX_PAYLOAD_BYTES] * full + ([rest] if rest else [])
    wires = {p: wire_bytes(kind, p, v["id_bits"], v["control_symbols"], v["address_bits"], v["line_rate_gbaud"])
             for p in dict.fromkeys(sizes)}  # each packet size once: a whole number of bytes each
    line = sum(wires[p] for p in sizes)
    _code_name, data_bits, coded_bits = spec.CODING["codes"][bc.code]
    share = Fraction(bc.clock_units, CLOCK_SPAN)
    rate = spec.srio_rate(v["line_rate_gbaud"], v["lanes"], data_bits, coded_bits, float(share))
    goodput = rate * size / line
    control = bc.control_symbol_bytes * (v["control_symbols"] + k.acks_in_data_direction) * len(sizes)
    clock = float(line * share / (1 - share))
    return {"kind": kind, "line_rate_gbaud": v["line_rate_gbaud"], "lanes": v["lanes"], "size_bytes": size,
            "id_bits": v["id_bits"], "address_bits": v["address_bits"], "control_symbols": v["control_symbols"],
            "baud_class": bc.number, "code": bc.code, "packets": len(sizes),
            "goodput_gbit_s": goodput, "efficiency": goodput / (v["line_rate_gbaud"] * v["lanes"]),
            "bytes": {"payload": float(size), "packet overhead": float(line - size - control),
                      "control symbols": float(control), "clock compensation": clock,
                      "encoding": (line + clock) * (coded_bits / data_bits - 1)}}


# --- goodput srio (its arguments: goodput.models.srio.COMMAND) -------------------------------------------

def run(args) -> dict:
    r = evaluate(args.kind, args.line_rate_gbaud, args.lanes, args.size_bytes, args.id_bits, args.control_symbols,
                 args.strict, args.address_bits)
    response = spec.SRIO["parameters"]["response_ns"].check(args.response_ns)
    # one transfer from its first packet to its last and the fixed time: its bits over the goodput (Gbit/s = bit/ns)
    return {**r, "response_ns": response, "latency_ns": 8 * r["size_bytes"] / r["goodput_gbit_s"] + response}


def lines(args, r: dict) -> list[str]:
    return report_lines(
        f"SRIO {KINDS[r['kind']].name} of {r['size_bytes']} bytes over {r['lanes']}x {r['line_rate_gbaud']:g} Gbaud "
        f"({spec.CODING['codes'][r['code']][0]}, {r['address_bits']}-bit addresses) in {r['packets']} packets", r) + [
        f"  one         {r['latency_ns']:.6g} ns: {r['latency_ns'] - r['response_ns']:.6g} on the link"
        + (f" and {r['response_ns']:g} of fixed time" if r["response_ns"] else "")]
