"""PCI Express: what a transfer of S payload bytes costs on the wire, and the goodput left.

The model follows a transfer through the layers, each overhead a term of one
sympy expression:

- The transaction layer splits a write into ``ceiling(S / MPS)`` memory-write
  TLPs; a read sends ``ceiling(S / MRRS)`` memory-read requests and gets the data
  back in completions split at MPS (or at the read completion boundary, RCB).
- Each TLP carries a header of ``H`` bytes (12 with 32-bit addresses, 16 with
  64-bit; completions always 12), an optional 4-byte ECRC, and ``F = 8`` bytes
  of data-link and physical framing: sequence number (2), LCRC (4) and STP/END
  symbols (1 + 1) at gen1-2, or the 4-byte STP token (which holds the sequence
  number) and the LCRC at gen3-5. Either way 8 bytes.
- The data link layer adds ACK and UpdateFC DLLPs of ``D = 8`` bytes, by one of
  four policies: ``none``; ``every:N`` (one ACK and one UpdateFC per N data
  TLPs, counted in the data's direction, as AN3935 Tables 2-5 do); ``every-any:N``
  (per N TLPs of any kind, read requests included, as AN3935 Tables 10 and 12
  do); ``spec`` (one of each per
  the PCI Express Base Specification's latency limit ``L`` in symbol times, a
  share ``D / (lanes * L)`` of the link's time).
- The physical layer inserts SKP ordered sets, a share ``sigma`` of the link's
  time, and line-codes everything: the bit rate ``B`` comes from
  :mod:`goodput.models.coding` (8b/10b at gen1-2, 128b/130b at gen3-5).
- Gen6 flit mode packs TLPs into 256-byte flits, of which 236 bytes carry TLPs
  and the rest is the data-link payload (ACKs and credits among it), CRC and
  FEC: the flit is the "line code" (236/256), ``F = 0`` (no per-TLP sequence
  number, LCRC or framing token) and ``D = 0`` (DLLPs ride in the flits).

Rates are in Gbit/s (10**9 bit/s), sizes in bytes; ``duplex`` counts both
directions at once, each carrying the other direction's requests and DLLPs, as
AN3935 Eq. 2-5 do.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from functools import lru_cache

import sympy as sp

from goodput import checks
from goodput.models import bus, coding, pcie_crc
from goodput.core import data
from goodput.core.errors import DataError, ParameterError
from goodput.core.params import Parameter
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["latency_table", "latency_limits", "READER_LINK", "READ_PARAMETERS", "LATENCY_PARAMETERS", "serial_time", "latency_time", "outstanding",
 "completion_latency", "reads_in_flight", "goodput_formula", 
    "GENERATIONS",
    "Generation",
    "Link",
    "payload",
    "mps",
    "mrrs",
    "rcb",
    "header",
    "cpl_header",
    "framing",
    "ecrc",
    "dllp",
    "group",
    "ack_limit",
    "fc_limit",
    "skp",
    "bit_rate",
    "tlp_count_expr",
    "request_count_expr",
    "dllp_count_expr",
    "wire_bytes_expr",
    "goodput_expr",
    "dllp_share_expr",
    "tlp_time_share_expr",
    "breakdown_exprs",
    "size_exprs", "generation_bit_rate_expr", "transfer_rate_expr",
    "generation_piecewise",
    "FLIT_MODE",
    "LANES",
    "an3935_link",
    "link_substitution",
    "SKP_POLICIES",
    "SKP_SYMBOLS_8B10B",
    "SKP_WINDOW_8B10B",
    "FLIT_CONVENTIONS",
    "flit_code",
    "evaluate",
    "goodput_gbit_s",
    "an3935_transfer_rate",
    "an3935_bit_rate",
    "an3935_transfer_rate_checks",
    "share_percent",
    "tlp_overhead_formula",
    "counted",
    "an3935_data_tlps_per_ack",
    "an3935_text_checks",
    "sized",
    "an3935_note_checks",
    "calculation_terms",
    "an3935_calculation_checks",
    "DUPLEX_DIRECTIONS",
    "mps_code_expr",
    "mps_code",
    "devctl_field",
    "keystone_link",
    "keystone_prose_checks",
    "sender_limit",
    "receiver_limit",
    "packet_payload_expr",
    "best_payload_bytes",
    "keystone_payload_checks", "KEYSTONE_LIMITS_FROM", "keystone_payload_limits",
]


@dataclass(frozen=True)
class Generation:
    """A PCI Express generation: its transfer rate per lane and its line code."""

    number: int
    rate_gtps: float
    code: str


GENERATIONS = {
    g.number: g
    for g in (
        Generation(1, 2.5, "8b10b"),
        Generation(2, 5.0, "8b10b"),
        Generation(3, 8.0, "128b130b"),
        Generation(4, 16.0, "128b130b"),
        Generation(5, 32.0, "128b130b"),
        Generation(6, 64.0, "flit256"),
    )
}

#: Generations that send TLPs in flits: no per-TLP framing, sequence number or LCRC, and the
#: DLLPs ride in each flit's DLP bytes.
FLIT_MODE = frozenset(g.number for g in GENERATIONS.values() if g.code == "flit256")

LANES = (1, 2, 4, 8, 16, 32)
SIZES_POW2 = (128, 256, 512, 1024, 2048, 4096)
RCBS = (64, 128)
MAX_TRANSFER_BYTES = 1 << 32
#: The directions a full-duplex link carries data in at once: a ``duplex`` goodput is this many times one
#: direction's.
DUPLEX_DIRECTIONS = 2

# --- symbols ---------------------------------------------------------------------------------

payload = symbol("S", positive=True, integer=True)  #: transfer size, bytes
mps = symbol(r"\mathrm{MPS}", positive=True, integer=True)  #: max payload size, bytes
mrrs = symbol(r"\mathrm{MRRS}", positive=True, integer=True)  #: max read request size, bytes
rcb = symbol(r"\mathrm{RCB}", positive=True, integer=True)  #: read completion boundary, bytes
header = symbol("H", positive=True, integer=True)  #: MWr/MRd header, bytes
cpl_header = symbol(r"H_{\mathrm{cpl}}", positive=True, integer=True)  #: CplD header, bytes
framing = symbol("F", nonnegative=True, integer=True)  #: sequence + LCRC + framing, bytes (0 in flits)
ecrc = symbol("E", nonnegative=True, integer=True)  #: ECRC digest, bytes
dllp = symbol("D", nonnegative=True, integer=True)  #: one DLLP with its framing, bytes (0 in flits)
group = symbol("N_{\\mathrm{ack}}", positive=True, integer=True)  #: TLPs per ACK + UpdateFC
ack_limit = symbol(r"L_{\mathrm{ack}}", positive=True)  #: symbol times between ACKs
fc_limit = symbol(r"L_{\mathrm{fc}}", positive=True)  #: symbol times between UpdateFCs
skp = symbol(r"\sigma", nonnegative=True)  #: share of link time taken by SKP ordered sets
bit_rate = symbol("B", positive=True)  #: bit rate after line coding, Gbit/s, one direction

#: 8b/10b's SKP ordered set: its symbols (COM and three SKP), and the window the PCIe 1.x base specification
#: schedules one in: every 1180 to 1538 symbol times (one symbol carries one byte).
SKP_SYMBOLS_8B10B = 4
SKP_WINDOW_8B10B = (1180, 1538)
#: SKP ordered sets as a share of the link's time: (symbols of SKP, per interval) by line code.
#: 8b/10b: one every :data:`SKP_WINDOW_8B10B`; 128b/130b: one SKP block every 370 to 375 blocks.
#: Flit mode's conventions: the line code that counts what of a 256-byte flit as data, by name.
#: ``tlp``: the 236 TLP bytes (the default: only TLPs carry a transfer's headers and data);
#: ``dlp``: 242, the data-link payload bytes too, as some references count.
FLIT_CONVENTIONS = {"tlp": "flit256", "dlp": "flit256dlp"}

SKP_POLICIES = {
    "none": {"8b10b": (0, 1), "128b130b": (0, 1), "flit256": (0, 1), "flit256dlp": (0, 1)},
    "min": {"8b10b": (SKP_SYMBOLS_8B10B, SKP_WINDOW_8B10B[1]), "128b130b": (1, 376)},
    "max": {"8b10b": (SKP_SYMBOLS_8B10B, SKP_WINDOW_8B10B[0] + SKP_SYMBOLS_8B10B), "128b130b": (1, 371)},
}

# --- expressions -----------------------------------------------------------------------------


def tlp_count_expr(kind: str, split: str = "mps") -> sp.Expr:
    """Number of data-carrying TLPs (MWr for writes, CplD for reads) for ``S`` bytes."""
    if kind == "write":
        return sp.ceiling(payload / mps)
    if kind == "read":
        return sp.ceiling(payload / (rcb if split == "rcb" else sp.Min(mps, mrrs)))
    raise ValueError(f"kind must be 'write' or 'read', not {kind!r}")


def request_count_expr() -> sp.Expr:
    """Number of memory-read requests (MRd TLPs) for a read of ``S`` bytes."""
    return sp.ceiling(payload / mrrs)


def _requests() -> sp.Expr:
    return request_count_expr()


def dllp_count_expr(kind: str, policy: str = "every", duplex: bool = False, split: str = "mps") -> sp.Expr:
    """Number of ACK DLLPs (and as many UpdateFCs) per transfer under the ``every`` policies (0 otherwise)."""
    if policy not in ("every", "every-any"):
        return sp.Integer(0)
    acknowledged = tlp_count_expr(kind, split)
    if kind == "read" and duplex and policy == "every-any":
        acknowledged += _requests()  # read requests are TLPs too
    return sp.ceiling(acknowledged / group)


def _dllp_bytes(kind: str, policy: str, duplex: bool, split: str) -> sp.Expr:
    """ACK + UpdateFC bytes per transfer under the ``every`` policies (0 otherwise)."""
    return 2 * dllp * dllp_count_expr(kind, policy, duplex, split)


def wire_bytes_expr(kind: str, policy: str = "every", duplex: bool = False,
                    split: str = "mps") -> sp.Expr:
    """Bytes one direction carries (before line coding) per transfer of ``S`` bytes.

    With ``duplex`` the direction also carries the read requests of the other
    direction's reads. ``spec`` DLLPs are a share of time, not bytes: see
    :func:`goodput_expr`.
    """
    data_header = header if kind == "write" else cpl_header
    total = payload + tlp_count_expr(kind, split) * (framing + data_header + ecrc)
    if kind == "read" and duplex:
        total += _requests() * (framing + header + ecrc)
    return total + _dllp_bytes(kind, policy, duplex, split)


def dllp_share_expr(policy: str) -> sp.Expr:
    """Share of the link's time taken by ACK and UpdateFC DLLPs under the ``spec`` policy."""
    if policy == "spec":
        return dllp / (coding.lanes * ack_limit) + dllp / (coding.lanes * fc_limit)
    return sp.Integer(0)


def tlp_time_share_expr(policy: str) -> sp.Expr:
    """Share of the link's time left for TLPs: what SKP ordered sets and ``spec`` DLLPs leave."""
    return 1 - skp - dllp_share_expr(policy)


def breakdown_exprs(kind: str, policy: str = "every", duplex: bool = False,
                    split: str = "mps") -> dict[str, sp.Expr]:
    """Line bytes per transfer in the data's direction, by what they carry.

    ``payload + tlp_overhead + dllp + skp + encoding`` is what the signalling
    rate carries in the time one transfer takes.
    """
    wire = wire_bytes_expr(kind, policy, duplex, split)
    dllp_bytes = _dllp_bytes(kind, policy, duplex, split)
    coded = wire / tlp_time_share_expr(policy)  # bytes before line coding
    parts = {
        "payload": payload,
        "tlp_overhead": wire - payload - dllp_bytes,
        "dllp": dllp_bytes + coded * dllp_share_expr(policy),
        "skp": coded * skp,
    }
    parts["encoding"] = coded * (coding.coded_bits / coding.data_bits - 1)
    return parts


def goodput_expr(kind: str, policy: str = "every", duplex: bool = False,
                 split: str = "mps") -> sp.Expr:
    """Payload bit rate, Gbit/s, for a stream of ``S``-byte transfers.

    ``policy`` is ``"none"``, ``"every"`` (``N_ack`` data TLPs per ACK +
    UpdateFC), ``"every-any"`` (``N_ack`` TLPs of any kind) or ``"spec"``
    (latency limits ``L_ack``, ``L_fc``); ``duplex`` doubles for both directions.
    """
    if policy not in ("none", "every", "every-any", "spec"):
        raise ValueError(f"DLLP policy must be none, every, every-any or spec, not {policy!r}")
    rate = bit_rate * tlp_time_share_expr(policy) * payload / wire_bytes_expr(kind, policy, duplex, split)
    return DUPLEX_DIRECTIONS * rate if duplex else rate


#: The generation number, as a chart's slider sets it.
generation = symbol("g", positive=True, integer=True)


def flit_code(data_bytes) -> coding.LineCode:
    """Flit mode's line code counting ``data_bytes`` of each 256-byte flit as data (a number, or a
    symbol for a chart's control)."""
    return coding.LineCode("flit", "256-byte flit", 8 * data_bytes, 256 * 8, "PCIe gen6 flit mode")


def mps_code_expr() -> sp.Expr:
    """The code of a max payload size of ``MPS`` bytes in the Device Control register's Max_Payload_Size
    field: 0 for the smallest size (128 bytes), one more for each doubling."""
    return sp.log(mps / min(SIZES_POW2), 2)


def mps_code(mps_bytes: int) -> int:
    """:func:`mps_code_expr` for ``mps_bytes``: 1 for 256 bytes; an error for a size the field cannot hold."""
    code = sp.simplify(mps_code_expr().subs(mps, mps_bytes))
    if not (code.is_integer and code >= 0):
        raise ParameterError("mps_bytes", mps_bytes, "128 bytes times a power of 2")
    return int(code)


def generation_piecewise(value, flit_bytes=None) -> sp.Piecewise:
    """``value(code)`` of the line code of generation ``g``, as one Piecewise over :data:`GENERATIONS`;
    flit mode's code counts ``flit_bytes`` per flit as data if given (else its 236 TLP bytes)."""
    gens = list(GENERATIONS.values())
    branches = []
    for g in gens:
        code = coding.CODES[g.code]
        v = value(flit_code(flit_bytes) if flit_bytes is not None and g.number in FLIT_MODE else code)
        if branches and branches[-1][0] == v:
            branches[-1] = (v, g.number)
        else:
            branches.append((v, g.number))
    return sp.Piecewise(*[(v, sp.Le(generation, upto)) for v, upto in branches[:-1]],
                        (branches[-1][0], True))


def size_exprs(gen, header_dwords, ecrc_on) -> dict[sp.Symbol, sp.Expr]:
    """The byte counts a link's settings give the model's symbols: of the generation ``gen`` (flit
    mode from gen 6: no per-TLP framing, no separate DLLPs), the request header's DWs (3 or 4) and
    ECRC on (1) or off (0). Numbers give numbers; symbols (a chart's sliders) give expressions."""
    packets = sp.Piecewise((8, sp.Le(gen, min(FLIT_MODE) - 1)), (0, True))  # not in flits: 8 bytes each
    return {header: 4 * header_dwords, cpl_header: sp.Integer(12), framing: packets, ecrc: 4 * ecrc_on, dllp: packets}


def transfer_rate_expr() -> sp.Piecewise:
    """The transfer rate per lane (GT/s) of generation ``g``, as one Piecewise over :data:`GENERATIONS`."""
    gens = list(GENERATIONS.values())
    return sp.Piecewise(*[(sp.Float(g.rate_gtps), sp.Le(generation, g.number)) for g in gens[:-1]],
                        (sp.Float(gens[-1].rate_gtps), True))


def generation_bit_rate_expr(flit_bytes=None) -> sp.Expr:
    """Bit rate ``B`` (Gbit/s) of ``N`` lanes of generation ``g``, as Piecewise over :data:`GENERATIONS`.

    The same product as :func:`goodput.models.coding.bit_rate_expr`, with the transfer
    rate and the code's ``k/n`` chosen by ``g``, so a chart can slide over generations; flit mode
    counts ``flit_bytes`` of each flit as data if given (:func:`generation_piecewise`).
    """
    return coding.bit_rate_expr().subs({
        coding.line_rate: transfer_rate_expr(),
        coding.data_bits: generation_piecewise(coding.efficiency_expr, flit_bytes),
        coding.coded_bits: 1,
    })


# --- numbers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """One PCI Express configuration, with every choice the model needs."""

    gen: int = 1
    lanes: int = 1
    mps: int = 256
    mrrs: int = 512
    rcb: int = 64
    addr: int = 32
    ecrc: bool = False
    dllp: str = "every:4"
    skp: str = "none"
    split: str = "mps"
    flit: str = "tlp"

    def checked(self) -> "Link":
        """This link if every field is allowed; :class:`ParameterError` naming the first that is not."""
        _one_of("gen", self.gen, tuple(GENERATIONS))
        _one_of("lanes", self.lanes, LANES)
        _one_of("mps", self.mps, SIZES_POW2)
        _one_of("mrrs", self.mrrs, SIZES_POW2)
        _one_of("rcb", self.rcb, RCBS)
        _one_of("addr", self.addr, (32, 64))
        _one_of("flit", self.flit, tuple(FLIT_CONVENTIONS))
        self.skp_share()
        _one_of("split", self.split, ("mps", "rcb"))
        self.dllp_policy()
        self._check_time_share()
        return self

    def dllp_policy(self) -> tuple[str, int]:
        """``(policy, N)``: ``("none", 0)``, ``("spec", 0)``, ``("every", N)`` or ``("every-any", N)``."""
        if self.dllp in ("none", "spec"):
            return self.dllp, 0
        match = _DLLP.fullmatch(str(self.dllp))
        if match and 1 <= int(match["n"]) <= 1024:
            return match["kind"], int(match["n"])
        raise ParameterError("dllp", self.dllp,
                             "none, spec, every:N or every-any:N with N from 1 to 1024")

    def skp_share(self) -> float:
        """Share of link time taken by SKP ordered sets: a named policy or ``"A/B"`` symbols."""
        if self.skp in SKP_POLICIES:
            if self.code not in SKP_POLICIES[self.skp]:
                raise ParameterError("skp", self.skp, "none or A/B in flit mode (gen6): its SKP rate "
                                                      "is not modelled")
            symbols, interval = SKP_POLICIES[self.skp][self.code]
            return symbols / interval
        match = _SKP.fullmatch(str(self.skp))
        if match and int(match["a"]) < int(match["b"]):
            return int(match["a"]) / int(match["b"])
        raise ParameterError("skp", self.skp, "none, min, max, or A/B symbols, integers with A < B < 10**9, "
                                              "e.g. 4/1538")

    def _check_time_share(self) -> None:
        """:class:`ParameterError` naming ``skp`` if SKP ordered sets and ``spec`` DLLPs leave the TLPs no time."""
        policy = self.dllp_policy()[0]
        values = _values(self, 1)
        if _time_share(policy)(*values) <= 0:
            dllps = _dllp_share(policy)(*values)
            raise ParameterError("skp", self.skp, f"a share below {1 - dllps:.6g} of the link's time: with "
                                                  f"dllp={self.dllp!r} (DLLPs take {dllps:.6g} of it) a larger "
                                                  "one leaves no time for TLPs")

    @property
    def generation(self) -> Generation:
        return GENERATIONS[self.gen]

    @property
    def code(self) -> str:
        """The line code's key: the generation's, in flit mode as the ``flit`` convention counts."""
        return FLIT_CONVENTIONS[self.flit] if self.gen in FLIT_MODE else self.generation.code


#: ``every:N`` and ``every-any:N`` with N in ASCII digits (:meth:`str.isdigit` also takes ``²``).
_DLLP = re.compile(r"(?P<kind>every|every-any):(?P<n>[0-9]{1,4})")
#: ``A/B`` SKP symbols, each under 10**9.
_SKP = re.compile(r"(?P<a>[0-9]{1,9})/(?P<b>[0-9]{1,9})")


def _one_of(name, value, allowed):
    if value not in allowed:
        raise ParameterError(name, value, "one of " + ", ".join(str(a) for a in allowed))


_SYMBOLS = (payload, mps, mrrs, rcb, header, cpl_header, framing, ecrc, dllp, group,
            ack_limit, fc_limit, skp, bit_rate, coding.lanes, coding.data_bits, coding.coded_bits)


@lru_cache(maxsize=None)
def _numeric(kind: str, policy: str, duplex: bool, split: str, module: str = "math"):
    breakdown = breakdown_exprs(kind, policy, duplex, split)
    return (
        lambdify(_SYMBOLS, goodput_expr(kind, policy, duplex, split), module),
        lambdify(_SYMBOLS, list(breakdown.values()), module),
        lambdify(_SYMBOLS, tlp_count_expr(kind, split), module),
        list(breakdown),
    )


@lru_cache(maxsize=None)
def _sizes(gen: int, header_dwords: int, ecrc_on: int) -> tuple[int, int, int, int, int]:
    """:func:`size_exprs`' numbers, in the order of :data:`_SYMBOLS` (header, completion header, framing,
    ECRC, DLLP): once a link's settings, not once a call (a fit evaluates thousands of links)."""
    sizes = size_exprs(gen, header_dwords, ecrc_on)
    return tuple(int(sizes[sym]) for sym in (header, cpl_header, framing, ecrc, dllp))


@lru_cache(maxsize=1)
def latency_table() -> dict:
    """The Base Specification's recommended ACK and UpdateFC latency limits (symbol times) by generation, lanes
    and MPS, from the published table ``pcie-base-spec-latency-limits`` (the sources page says where from)."""
    t = data.load("pcie-base-spec-latency-limits")
    return {(r.generation, r.lanes, r.mps_bytes): (r.ack_limit_symbol_times, r.updatefc_limit_symbol_times)
            for r in t.itertuples()}


def latency_limits(gen: int, lanes: int, mps_bytes: int) -> tuple[int, int]:
    """``(ack, updatefc)`` latency limits in symbol times for a link (``dllp="spec"``)."""
    try:
        return latency_table()[(gen, lanes, mps_bytes)]
    except KeyError:
        raise ParameterError("gen/lanes/mps", (gen, lanes, mps_bytes),
                             "a combination the specification tabulates (gen 1-5, x1-x32, MPS 128-4096)") from None


def _values(link: Link, size: int) -> tuple:
    policy, n = link.dllp_policy()
    flit = link.gen in FLIT_MODE
    ack, fc = (latency_limits(link.gen, link.lanes, link.mps)
               if policy == "spec" and not flit else (1, 1))
    g = link.generation
    code = coding.CODES[link.code]
    return (
        size, link.mps, link.mrrs, link.rcb,
        *_sizes(link.gen, link.addr // 32 + 2, int(link.ecrc)),
        max(n, 1),
        ack, fc, link.skp_share(),
        coding.bit_rate_gbit_s(g.rate_gtps, link.lanes, link.code), link.lanes,
        code.data_bits, code.coded_bits,
    )


@lru_cache(maxsize=None)
def _time_share(policy: str):
    return lambdify(_SYMBOLS, tlp_time_share_expr(policy), "math")


@lru_cache(maxsize=None)
def _dllp_share(policy: str):
    return lambdify(_SYMBOLS, dllp_share_expr(policy), "math")


def link_substitution(link: Link) -> dict:
    """Every model symbol but the payload ``S``, with its value for ``link``."""
    link = link.checked()
    return {sym: val for sym, val in zip(_SYMBOLS, _values(link, 1)) if sym is not payload}


def _check_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, float)) or size != int(size) \
            or not 1 <= size <= MAX_TRANSFER_BYTES:
        raise ParameterError("size", size, f"an integer from 1 to {MAX_TRANSFER_BYTES} bytes")
    return int(size)


def goodput_gbit_s(kind: str, link: Link, size: int, duplex: bool = False) -> float:
    """Payload bit rate, Gbit/s, of back-to-back ``size``-byte writes or reads on ``link``."""
    link = link.checked()
    size = _check_size(size)
    f = _numeric(kind, link.dllp_policy()[0], duplex, link.split)[0]
    return f(*_values(link, size))


def goodput_formula(kind: str, link: Link, size: int, duplex: bool = False, scale=1) -> tuple:
    """``(expr, values)``: the goodput expression :func:`goodput_gbit_s` evaluates (times ``scale``)
    and its numbers for ``link`` and ``size``, for a source check to print."""
    link = link.checked()
    expr = scale * goodput_expr(kind, link.dllp_policy()[0], duplex, link.split)
    values = dict(zip(_SYMBOLS, _values(link, _check_size(size))))
    return expr, {sym: v for sym, v in values.items() if sym in expr.free_symbols}


def evaluate(kind: str, link: Link, size: int, duplex: bool = False) -> dict:
    """Goodput, efficiency and where every line byte of one transfer goes (JSON-ready).

    ``bytes`` counts line bytes (8 line bits each) per transfer of ``size``
    bytes in the direction the data flows (see :func:`breakdown_exprs`);
    ``efficiency`` is payload over all of them, so it includes the line code.
    """
    link = link.checked()
    size = _check_size(size)
    f, parts_f, count_f, names = _numeric(kind, link.dllp_policy()[0], duplex, link.split)
    values = _values(link, size)
    parts = dict(zip(names, (float(x) for x in parts_f(*values))))
    return {
        "kind": kind,
        "size_bytes": size,
        "duplex": duplex,
        **asdict(link),
        "tlps": count_f(*values),
        "goodput_gbit_s": f(*values),
        "efficiency": size / sum(parts.values()),
        "bytes": parts,
    }


# --- source checks ---------------------------------------------------------------------------

#: AN3935's calculation assumptions (§6.1, §6.2): x4, MPS and MRRS 256, ACK + UpdateFC per 4 TLPs.
AN3935_DEVICES = {"MSC8156": 1, "MSC8157": 2}

#: AN3935's measured tables (Tables 7-12, 15, 16, with the calculated columns beside them), stored long:
#: one row per printed cell, its conditions in the columns device, transfer, series, lanes, mps_bytes and
#: dma_channels, the cell in gbit_s.
AN3935_MEASURED = tuple(f"an3935-table{n}" for n in (7, 8, 9, 10, 11, 12, 15, 16))

#: How a label names a value of each of AN3935's condition columns (see :func:`goodput.core.data.varying`).
AN3935_LABELS = {"lanes": "x{:g}", "mps_bytes": "MPS {:g}", "dma_channels": "{:g} in flight"}


def an3935_link(device: str, lanes: int = 4, mps_bytes: int = 256) -> Link:
    """The link AN3935 calculates with for ``device`` (MSC8156: gen1, MSC8157: gen2)."""
    return Link(gen=AN3935_DEVICES[device], lanes=lanes, mps=mps_bytes, mrrs=256, dllp="every:4")


_NOTES = {
    ("intel-324611-table1", "1 byte, 3DW", "throughput_mbyte_s"):
        "250 MB/s x 1/21 is {model:.2f} MB/s, and the row's own efficiency (4.76 %) agrees; "
        "the printed {published} has two digits swapped.",
    ("intel-324611-table1", "4 bytes, 3DW", "throughput_mbyte_s"):
        "250 x 4/24 = {model:.4f}: cut to {published} instead of rounded to {rounded}.",
}


@checks.provider
def source_checks():
    """AN3935 Tables 2-5, Intel 324611 Table 1, KeyStone II §6.3, against the packet model."""
    out = []

    def add(table, row, column, model, label, formula=None):
        note = _NOTES.get((table.attrs["provenance"]["resource"], label, column), "")
        out.append(checks.compare(table, row.Index, column, model, label, note, formula=formula))

    for number, device, kind in ((2, "MSC8156", "write"), (3, "MSC8157", "write"),
                                 (4, "MSC8156", "read"), (5, "MSC8157", "read")):
        t = data.load(f"an3935-table{number}")
        link = an3935_link(device)
        for row in t.itertuples():
            add(t, row, "bandwidth_gbit_s", goodput_gbit_s(kind, link, row.bytes, duplex=True),
                f"{row.bytes_as_printed} bytes", goodput_formula(kind, link, row.bytes, duplex=True))

    # The calculated columns beside AN3935's measurements: each row's device, transfer, lanes and MPS
    # are the link; the quantity names the series and the conditions its printed column differs in.
    for name in AN3935_MEASURED:
        t = data.load(name)
        quantities = data.varying(t, AN3935_LABELS, within=["series"])
        for row in t[t["series"] == "calculated"].itertuples():
            link = an3935_link(row.device, row.lanes, row.mps_bytes)
            any_kind = replace(link, dllp="every-any:4")
            label = f"{row.bytes_as_printed} bytes, x{row.lanes}, MPS {row.mps_bytes}"
            model = goodput_gbit_s(row.transfer, link, row.bytes, duplex=True)
            other = goodput_gbit_s(row.transfer, any_kind, row.bytes, duplex=True)
            rule = checks.Convention(
                "Table 4's rule (one ACK + UpdateFC per 4 completions) gives {model:.2f}; this column counts them "
                "per 4 TLPs of any kind, read requests included, the document's other rule for the same transfer",
                other) if row.transfer == "read" else None
            quantity = ", ".join(filter(None, (row.series, quantities[row.Index])))
            out.append(checks.compare(t, row.Index, "gbit_s", model, label, quantity=quantity,
                                      formula=goodput_formula(row.transfer, link, row.bytes, duplex=True),
                                      convention=rule))

    out += an3935_transfer_rate_checks(data.load("an3935-table1"))

    t = data.load("intel-324611-table1")
    for row in t.itertuples():
        link = Link(gen=1, lanes=1, mps=4096, addr=32 if row.header_dwords == 3 else 64, dllp="none")
        rate = goodput_gbit_s("write", link, row.payload_bytes)
        bits = coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes, link.code)
        label = f"{row.payload_bytes} byte{'s' if row.payload_bytes > 1 else ''}, {row.header_dwords}DW"
        add(t, row, "efficiency_percent", 100 * rate / bits, label)
        add(t, row, "throughput_mbyte_s", 1000 * rate / 8, label,
            goodput_formula("write", link, row.payload_bytes, scale=sp.Rational(1000, 8)))

    t = data.load("keystone2-s6-3-pcie-theoretical")
    for row in t.itertuples():
        link = keystone_link(row.lanes)
        add(t, row, "throughput_gbit_s", goodput_gbit_s("write", link, row.packet_bytes),
            f"{row.packet_bytes}-byte packets", goodput_formula("write", link, row.packet_bytes))
    return out


def an3935_transfer_rate(device: str) -> float:
    """The transfer rate per lane (GT/s) of the generation ``device`` implements (AN3935 Sec. 1)."""
    return GENERATIONS[AN3935_DEVICES[device]].rate_gtps


def an3935_bit_rate(device: str, lanes: int = 4, directions: int = 1) -> float:
    """The bit rate after 8b/10b of ``lanes`` lanes of ``device``, in ``directions`` directions (Eq. 1)."""
    link = an3935_link(device, lanes)
    return directions * coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes, link.code)


def an3935_transfer_rate_checks(t) -> list:
    """AN3935 Table 1 (``t``: ``an3935-table1``) prints each device's transfer rate once, in the label of its
    row: each against the rate of the generation AN3935 gives the device (:func:`an3935_transfer_rate`)."""
    return [checks.compare(t, rows.index[0], "transfer_rate_gbaud", an3935_transfer_rate(device),
                           device, kind="prose", note="PCIe gen{} signals at {{model:g}} GT/s.".format(
                               AN3935_DEVICES[device]))
            for device, rows in t.groupby("device", sort=False)]


def share_percent(part: float, whole: float) -> float:
    """``part`` as a percentage of ``whole``."""
    return 100 * part / whole


def tlp_overhead_formula(link: Link) -> tuple:
    """``(expr, values)``: the bytes a TLP adds to its payload on ``link`` (framing, header, ECRC)."""
    values = link_substitution(link)
    return framing + header + ecrc, {s: values[s] for s in (framing, header, ecrc)}


def counted(notes: str, what: str) -> int:
    """The number of ``what`` (``"TLP"``, ``"MRd"``, ``"CpID"``, ``"ACK"``, ``"FC"``) a note of AN3935
    Tables 2-5 counts: ``counted("8 TLP, 2 ACK, 2 FC", "ACK")`` is 2."""
    match = re.search(rf"(?<![\w.])(\d+) ?{re.escape(what)}\b", notes)
    if match is None:
        raise ValueError(f"the note {notes!r} counts no {what}")
    return int(match.group(1))


def an3935_data_tlps_per_ack(table) -> float:
    """The data TLPs (MWr, or CplD of a read) per ACK that a table of AN3935 Tables 2-5 counts in its
    note on the largest transfer."""
    row = table.loc[table["bytes"].idxmax()]
    data_tlps = "TLP" if "TLP" in row.notes else "CpID"
    return counted(row.notes, data_tlps) / counted(row.notes, "ACK")


def devctl_field(devctl) -> tuple[int, int]:
    """The highest and lowest bit of the Max_Payload_Size field that ``devctl`` (the published
    ``linux-pci-regs-devctl``) gives, after checking that each of its rows encodes its size as
    :func:`mps_code_expr` does."""
    for r in devctl.itertuples():
        if mps_code(r.bytes) != r.code:
            raise ValueError(f"linux-pci-regs-devctl: code {r.code} for {r.bytes} bytes is not mps_code_expr's")
    bits = set(zip(devctl["high_bit"], devctl["low_bit"]))
    if len(bits) != 1:
        raise ValueError(f"linux-pci-regs-devctl: the field's bits differ between rows: {sorted(bits)}")
    high, low = bits.pop()
    return int(high), int(low)


#: Units of AN3935's text whose numbers are counts (of bits, bytes, packets), where one off is off.
_COUNTED_UNITS = ("bit", "bits", "bytes", "binary", "directions", "TLPs")


def an3935_text_checks(text, write_table, read_table, msc8156_sizes, msc8157_sizes, devctl=None) -> list:
    """Each number of AN3935's text (the published ``an3935-text``) recomputed from the parts it names:
    rates from the generation, sizes from the packet model, the large-transfer bandwidth and its share of the
    bit rate from the model at the largest size, the TLPs per ACK from the notes of Tables 2 and 4 (the
    ``write_table`` and ``read_table``), the range of sizes from the measured tables, the bits of the
    Max_Payload_Size field from ``devctl`` (``linux-pci-regs-devctl``, loaded if not given) and its code for
    the MPS AN3935 sets, in binary as the document prints it; the bits of a DLLP's CRC from the CRC
    :mod:`goodput.models.pcie_crc` computes (whose bytes the Intel traces' DLLPs reproduce)."""
    high, low = devctl_field(data.load("linux-pci-regs-devctl") if devctl is None else devctl)
    code = coding.CODES["8b10b"]
    link = an3935_link("MSC8156")
    sizes = link_substitution(link)
    largest = int(write_table["bytes"].max())
    large = {kind: goodput_gbit_s(kind, link, largest, duplex=True) for kind in ("write", "read")}
    full = an3935_bit_rate("MSC8156", directions=2)
    overhead = tlp_overhead_formula(link)
    kib = 1024

    def value(key: str):
        kind = key.split("-")[0]
        if key.endswith(("transfer-rate", "clock", "lane-rate")):
            return an3935_transfer_rate("MSC8157" if "msc8157" in key else "MSC8156"), None
        if key.endswith(("character-bits", "data-bits")):
            return code.data_bits, None
        if key.endswith(("symbol-bits", "coded-bits")):
            return code.coded_bits, None
        if key.endswith("-directions"):
            return DUPLEX_DIRECTIONS, None
        if key.endswith("mps-field-high-bit"):
            return high, None
        if key.endswith("mps-field-low-bit"):
            return low, None
        if key.endswith("mps-code"):  # the field's bits as printed: 001 for code 1, read back as a number
            return int(format(mps_code(link.mps), f"0{high - low + 1}b")), None
        if key == "bit-rate-share":
            return share_percent(code.data_bits, code.coded_bits), None
        if key == "header-32-bit":
            return sizes[header], None
        if key == "header-64-bit-extra":
            return link_substitution(replace(link, addr=64))[header] - sizes[header], None
        if key.endswith(("tlp-overhead", "request-overhead")):
            return float(overhead[0].subs(overhead[1])), overhead
        if key.endswith(("ack-size", "fc-size", "dllp-size")):
            return sizes[dllp], None
        if key == "dllp-crc-bits":  # the CRC pcie_crc computes, which reproduces every DLLP CRC of Intel's traces
            return 8 * len(pcie_crc.dllp_crc(bytes(4))), None
        if key.endswith("tlps-per-update"):
            return an3935_data_tlps_per_ack(write_table if kind == "write" else read_table), None
        if key.endswith("large-bandwidth"):
            return large[kind], goodput_formula(kind, link, largest, duplex=True)
        if key.endswith("-share"):
            return share_percent(large[kind], full), None
        if key.endswith("full-duplex-bit-rate"):
            return full, None
        if key == "write-one-direction-bit-rate":
            return an3935_bit_rate("MSC8156"), None
        if key.endswith(("smallest-transfer", "largest-transfer")):
            table = msc8156_sizes if key.startswith("msc8156") else msc8157_sizes
            return (table["bytes"].min(), None) if "smallest" in key else (table["bytes"].max() / kib, None)
        raise KeyError(f"an3935-text: no model for the number {key!r}")

    out = []
    prov = text.attrs["provenance"]
    for row in text.itertuples():
        model, formula = value(row.id)
        out.append(checks.check(prov["document"], f"§{row.section.split()[0]}", row.id,
                                row.quote, row.unit, text.attrs["printed"]["value"][row.Index], model,
                                resource=prov["resource"], formula=formula, kind="prose",
                                exact=row.unit in _COUNTED_UNITS))
    return out


@checks.provider
def an3935_text():
    """AN3935's text, Sections 1-8: every number it states, recomputed through the packet model."""
    return an3935_text_checks(*(data.load(f"an3935-{name}") for name in ("text", "table2", "table4", "table7",
                                                                           "table15")))


def keystone_link(lanes: int) -> Link:
    """The KeyStone II PCIe link of SPRABK5 Sec. 6: gen2 ('PCIe v2'), ``lanes`` lanes (the guide's 'links'),
    128-byte payloads, 32-bit addresses, no ECRC, no DLLPs counted."""
    return Link(gen=2, lanes=lanes, mps=128, dllp="none")


def keystone_prose_checks(prose, rates) -> list:
    """The PCIe protocol numbers of SPRABK5 Sec. 6's text (``prose``: ``keystone2-s6-pcie-prose``) recomputed
    by the packet model on the guide's link (:func:`keystone_link`, its lanes from ``rates``:
    ``keystone2-s6-pcie-rates``): the rates from the generation, the TLP overhead from the smallest header
    (3 DW, no ECRC) to the largest (4 DW with ECRC), the DLLP's size, the largest payload size the model
    allows, the 8b/10b code of the formula."""
    link = keystone_link(int(rates["links"].iloc[0]))
    rate = {coding.line_rate: sp.nsimplify(link.generation.rate_gtps), coding.lanes: link.lanes}
    code = coding.CODES[link.code]
    sizes = link_substitution(link)
    out = []
    for r in prose.itertuples():
        formula, note = None, ""
        if r.item.startswith("signalling rate of a "):
            model, note = link.generation.rate_gtps, f"PCIe gen{link.gen} signals at {{model:g}} GT/s on each lane."
        elif r.item.startswith("signalling rate of both"):
            formula = (coding.line_rate * coding.lanes, rate)
            note = (f"{link.lanes} lanes at {link.generation.rate_gtps:g} GT/s; the guide calls the raw rate "
                    "'gigabits per second'.")
        elif r.item.startswith("largest TLP overhead"):
            formula = tlp_overhead_formula(replace(link, addr=64, ecrc=True))
            note = "A 4-DW header (64-bit address) with ECRC."
        elif "TLP overhead" in r.item:
            formula = tlp_overhead_formula(link)
            note = "Framing, sequence number and LCRC around a 3-DW header, no ECRC."
        elif "DLLP" in r.item:
            formula = (dllp, {dllp: sizes[dllp]})
        elif r.item.startswith("largest payload"):
            model, note = max(SIZES_POW2), "The largest Max_Payload_Size the model allows."
        elif r.item.startswith("data bits per symbol"):
            model = code.data_bits
        elif r.item.startswith("bits per symbol"):
            model = code.coded_bits
        else:
            raise KeyError(f"keystone2-s6-pcie-prose: no model for {r.item!r}")
        if formula is not None:
            model = float(sp.sympify(formula[0]).xreplace({k: sp.sympify(v) for k, v in formula[1].items()}))
        out.append(checks.compare(prose, r.Index, "value", model, f"§{r.section.split()[0]}",
                                  note, quantity=r.item, unit=r.unit, formula=formula, kind="prose",
                                  exact=r.unit in ("bits", "bytes")))  # sizes are counts: one off is off
    return out


@checks.provider
def keystone_prose():
    """SPRABK5 Sec. 6: the PCIe protocol numbers of its text, through the packet model."""
    return keystone_prose_checks(data.load("keystone2-s6-pcie-prose"), data.load("keystone2-s6-pcie-rates"))


sender_limit = symbol(r"P_{\mathrm{tx}}", positive=True, integer=True)  #: most payload the sender puts in a TLP, bytes
receiver_limit = symbol(r"P_{\mathrm{rx}}", positive=True, integer=True)  #: most payload the receiver takes, bytes


def packet_payload_expr() -> sp.Expr:
    """The largest payload a TLP carries, bytes: the smaller of what the sending side hands over at once (its
    Max_Payload_Size, or the DMA burst that feeds it) and what the receiving side takes."""
    return sp.Min(sender_limit, receiver_limit)


def best_payload_bytes(kind: str, link: Link, limit: int) -> int:
    """The payload (1 to ``limit`` bytes, one TLP each; ``limit`` a Max_Payload_Size the model allows) whose
    ``kind`` transfers have the highest goodput on ``link``: the largest, since a TLP's overhead does not grow
    with its payload."""
    _one_of("limit", limit, SIZES_POW2)
    sizes = range(1, limit + 1)
    return max(sizes, key=lambda size: (goodput_gbit_s(kind, replace(link, mps=limit), size), size))


#: How :func:`keystone_payload_checks` models each ``rule`` of ``keystone2-s6-pcie-payloads``.
KEYSTONE_PAYLOAD_RULES = ("best", "inbound from a KeyStone sender", "with EDMA3's burst")


def keystone_payload_checks(t, limits, rates, edma3_burst_bytes: int) -> list:
    """The payload sizes SPRABK5 Sec. 6's text derives (``t``: ``keystone2-s6-pcie-payloads``) from the KeyStone II
    PCIe peripheral's payload limits the same section states (``limits``: the section's settings, by section, as
    :func:`keystone_payload_limits` gives them; items ``largest outbound payload`` and ``largest inbound
    payload``): the payload with the best goodput (:func:`best_payload_bytes`, at most the outbound limit, on
    :func:`keystone_link` with the lanes of ``rates``), the largest inbound payload from another KeyStone device and the payload an EDMA3 burst of
    ``edma3_burst_bytes`` (Sec. 5.3.1) gives (:func:`packet_payload_expr`)."""
    link = keystone_link(int(rates["links"].iloc[0]))
    out = []
    for r in t.itertuples():
        stated = limits[r.section].set_index("item")["value"]
        outbound = int(stated["largest outbound payload"])
        formula = None
        if r.rule == "best":
            model = best_payload_bytes(r.kind, link, outbound)
            note = (f"Of the payloads a packet can carry, up to the outbound limit of {outbound} bytes, the largest "
                    f"has the best {r.kind} goodput: {{model:g}} bytes.")
        elif r.rule == "inbound from a KeyStone sender":
            sender = int(stated.get("largest outbound payload of a KeyStone device", outbound))
            values = {sender_limit: sender, receiver_limit: int(stated["largest inbound payload"])}
            formula = (packet_payload_expr(), values)
            note = ("The smaller of a KeyStone sender's outbound limit and the peripheral's inbound limit: "
                    "{model:g} bytes.")
        elif r.rule == "with EDMA3's burst":
            formula = (packet_payload_expr(), {sender_limit: edma3_burst_bytes, receiver_limit: outbound})
            note = "The smaller of the EDMA3 TC's data burst (Sec. 5.3.1) and the outbound limit: {model:g} bytes."
        else:
            raise KeyError(f"keystone2-s6-pcie-payloads: no model for rule {r.rule!r}; "
                           f"known: {', '.join(KEYSTONE_PAYLOAD_RULES)}")
        if formula is not None:
            model = int(formula[0].subs(formula[1]))
        out.append(checks.compare(t, r.Index, "value", model, f"§{r.section.split()[0]}", note,
                                  quantity=r.item, unit=r.unit, formula=formula, kind="prose", exact=True))
    return out


#: The sections of ``keystone2-s6-pcie-payloads`` that rely on the payload limits another section states
#: (§6.3.1 on §6.1.2's); every other section's limits are its own rows of ``keystone2-settings``.
KEYSTONE_LIMITS_FROM = {"6.3.1 PCIe Read Throughput": "6.1.2 Packet Size Considerations"}


def keystone_payload_limits(sections, settings=None) -> dict:
    """The payload limits of each of ``sections``: the rows of ``settings`` (the published ``keystone2-settings``,
    or a copy) of the section that states them (itself, or the one :data:`KEYSTONE_LIMITS_FROM` names)."""
    return {s: bus.section_settings(KEYSTONE_LIMITS_FROM.get(s, s), settings) for s in dict.fromkeys(sections)}


@checks.provider
def keystone_payloads():
    """SPRABK5 Sec. 6: the payload sizes its text derives from the peripheral's limits, through the model."""
    payloads = data.load("keystone2-s6-pcie-payloads")
    return keystone_payload_checks(payloads, keystone_payload_limits(payloads["section"]),
                                   data.load("keystone2-s6-pcie-rates"), bus.burst_bytes([3]))


def sized(notes: str, what: str) -> str | None:
    """The size in bytes, as printed, a note of AN3935 Tables 2-5 gives in brackets after ``what``
    (``sized("1 TLP (20), 1 ACK (8)", "ACK")`` is ``"8"``), or None where it gives none."""
    match = re.search(rf"\d+ ?{re.escape(what)} \((\d+)\)", notes)
    return match.group(1) if match else None


def _substituted(expr, link: Link, size: int) -> tuple[float, tuple]:
    """``expr`` for ``link`` and ``size`` bytes: its value, and ``(expr, values)`` for a check to print."""
    values = {**link_substitution(link), payload: size}
    values = {s: v for s, v in values.items() if s in expr.free_symbols}
    return float(expr.subs(values)), (expr, values)


def an3935_note_checks(table, device: str, kind: str) -> list:
    """Each count (and size) of packets the notes of AN3935 Table 2-5 (``table``, of ``device``'s ``kind``
    of transfer) print, recomputed by the packet model as the document counts (ACK and UpdateFC per 4 data
    TLPs, completions split at MPS, one read request per MRRS)."""
    link = an3935_link(device)
    data_tlps = tlp_count_expr(kind, link.split)
    counts = {"TLP": data_tlps} if kind == "write" else {"MRd": request_count_expr(), "CpID": data_tlps}
    counts |= {"ACK": dllp_count_expr(kind), "FC": dllp_count_expr(kind)}
    names = {"TLP": "MWr TLPs", "MRd": "read requests (MRd)", "CpID": "completions (CplD, printed CpID)",
             "ACK": "ACK DLLPs", "FC": "UpdateFC DLLPs"}
    sizes = {"TLP": tlp_overhead_formula(link), "ACK": (dllp, {dllp: link_substitution(link)[dllp]}),
             "FC": (dllp, {dllp: link_substitution(link)[dllp]})}
    prov = table.attrs["provenance"]
    out = []
    for row in table[table["notes"] != ""].itertuples():
        label = f"{row.bytes_as_printed} bytes"

        def add(quantity, unit, printed, model, formula):
            out.append(checks.check(prov["document"], prov["table"], label, quantity, unit, printed,
                                    model, resource=prov["resource"], formula=formula, kind="prose"))

        for what, expr in counts.items():
            model, formula = _substituted(expr, link, row.bytes)
            add(f"{names[what]} counted in the notes", "", str(counted(row.notes, what)), model, formula)
            if what in sizes and sized(row.notes, what) is not None:
                expr_, values = sizes[what]
                add(("TLP overhead" if what == "TLP" else f"size of each of the {names[what]}") + " in the notes",
                    "bytes", sized(row.notes, what),
                    float(expr_.subs(values)), (expr_, values))
    return out


_CALCULATION = re.compile(r"\s*(?P<rate>\d+)\s*\*\s*(?P<size>\d+ ?K?)\s*/\s*\((?P<sum>[^()]*)\)\s*\*\s*(?P<directions>\d+)\s*")
_TERM = re.compile(r"\s*(?:(?P<count>\d+)\s*\*\s*)?(?P<bytes>\d+ ?K?)\s*")


def calculation_terms(text: str) -> tuple[str, str, list[tuple[str | None, str]], str]:
    """The parts of a calculation as AN3935 Tables 2-5 print it, ``"8 * 1K / (1K + 4*20 + 8 + 8) * 2"``:
    ``(rate, size, terms, directions)`` as printed, ``terms`` the overhead added to the size, each
    ``(count or None, bytes)``: ``("8", "1K", [("4", "20"), (None, "8"), (None, "8")], "2")``."""
    match = _CALCULATION.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a calculation of the form 'rate * size / (size + overhead) * 2'")
    size, *terms = match["sum"].split("+")
    parsed = [_TERM.fullmatch(t) for t in terms]
    if _TERM.fullmatch(size) is None or not terms or None in parsed:
        raise ValueError(f"{text!r}: the sum {match['sum']!r} is not the size plus terms 'count*bytes' or 'bytes'")
    return match["rate"], match["size"].strip(), [(t["count"], t["bytes"].strip()) for t in parsed], match["directions"]


def calculation_sizes(text: str) -> tuple[str, str]:
    """The two places a calculation of AN3935 Tables 2-5 prints its transfer size, as printed: the size the
    bit rate is multiplied by and the first term of the sum it is divided by
    (``"8 * 1K / (1K + 4*20 + 8 + 8) * 2"`` -> ``("1K", "1K")``). The tables keep both in columns of their own,
    settings of the row, which :func:`an3935_calculation_sizes` holds to the calculation's text."""
    _, size, _, _ = calculation_terms(text)
    return size, _CALCULATION.fullmatch(text)["sum"].split("+")[0].strip()


def an3935_calculation_sizes(table) -> None:
    """Raise :class:`~goodput.core.errors.DataError` naming the row if a row of AN3935 Table 2-5 (``table``) keeps
    a transfer size in its columns ``calculation_size_as_printed`` and ``calculation_sum_size_as_printed``
    other than the one its calculation prints there (:func:`calculation_sizes`)."""
    prov = table.attrs["provenance"]
    for row in table.itertuples():
        printed = calculation_sizes(row.calculation_as_printed)
        kept = (row.calculation_size_as_printed, row.calculation_sum_size_as_printed)
        if kept != printed:
            raise DataError(f"{prov['resource']} {row.bytes_as_printed} bytes: the calculation "
                            f"{row.calculation_as_printed!r} prints the sizes {printed}, the columns keep {kept}")


def an3935_calculation_checks(table, device: str, kind: str) -> list:
    """The numbers in the calculations AN3935 Tables 2-5 print (``table``, of ``device``'s ``kind`` of
    transfer), recomputed by the packet model: the bit rate, the TLPs and their overhead (the terms before
    the last two; a read's second term is its read request's), the ACK and the UpdateFC DLLPs and their size
    (the last two terms), and the directions the result is multiplied by. The transfer size, printed twice,
    is the row's setting: the bandwidth check (:func:`source_checks`) takes it as its input."""
    link = an3935_link(device)
    values = link_substitution(link)
    data_tlps = tlp_count_expr(kind, link.split)
    tlps = data_tlps if kind == "write" else data_tlps + request_count_expr()
    per_tlp = tlp_overhead_formula(link)
    prov = table.attrs["provenance"]
    out = []
    for row in table.itertuples():
        rate, _, terms, directions = calculation_terms(row.calculation_as_printed)
        if len(terms) < 3:
            raise ValueError(f"{prov['resource']} {row.bytes_as_printed}: {row.calculation_as_printed!r} adds no "
                             "ACK and UpdateFC terms after the TLPs'")

        def add(quantity, unit, printed, model, formula=None, exact=False):
            out.append(checks.check(prov["document"], prov["table"], f"{row.bytes_as_printed} bytes",
                                    f"{quantity} in the calculation", unit, printed, model,
                                    resource=prov["resource"], formula=formula, kind="prose", exact=exact))

        add("bit rate", "Gbit/s", rate, an3935_bit_rate(device))
        (count, overhead), dllps = terms[0], terms[-2:]
        if len(terms) == 3 and count is not None:  # one term for every TLP: "4*20"
            add("TLPs" if kind == "write" else "TLPs (MRd and CplD)", "", count, *_substituted(tlps, link, row.bytes))
        add("TLP overhead", "bytes", overhead, float(per_tlp[0].subs(per_tlp[1])), per_tlp)
        if kind == "read" and len(terms) == 4:  # the completion's term, then the read request's: "20+ 20"
            add("read request overhead", "bytes", terms[1][1], float(per_tlp[0].subs(per_tlp[1])), per_tlp)
        add("directions", "", directions, DUPLEX_DIRECTIONS, exact=True)
        for name, (count, size) in zip(("ACK", "UpdateFC"), dllps):
            if count is not None:
                add(f"{name} DLLPs", "", count, *_substituted(dllp_count_expr(kind), link, row.bytes))
            add(f"{name} DLLP size", "bytes", size, values[dllp], (dllp, {dllp: values[dllp]}))
    return out


@checks.provider
def an3935_calculations():
    """AN3935 Tables 2-5: the numbers in their printed calculations (the transfer sizes in them are the rows'
    settings, kept in columns of their own that must be the calculation's: :func:`an3935_calculation_sizes`)."""
    out = []
    for number, device, kind in ((2, "MSC8156", "write"), (3, "MSC8157", "write"),
                                 (4, "MSC8156", "read"), (5, "MSC8157", "read")):
        table = data.load(f"an3935-table{number}")
        an3935_calculation_sizes(table)
        out += an3935_calculation_checks(table, device, kind)
    return out


@checks.provider
def an3935_notes():
    """AN3935 Tables 2-5: the packets their notes count."""
    return [c for number, device, kind in ((2, "MSC8156", "write"), (3, "MSC8157", "write"),
                                           (4, "MSC8156", "read"), (5, "MSC8157", "read"))
            for c in an3935_note_checks(data.load(f"an3935-table{number}"), device, kind)]


#: The link a reader starts from, in ``goodput pcie`` and on the packets chapter's page (its controls take their
#: defaults from it): AN3935's gen 2 x4 with MPS and MRRS of 256. :class:`Link`'s own defaults are the model's.
READER_LINK = Link(gen=2, lanes=4, mps=256, mrrs=256)

#: A read's two settings beyond the link, declared here for the command (the read model is
#: :mod:`goodput.models.pcie_transactions`'): the completer's time from request to completion, and reads in flight.
completion_latency = symbol("t_c", nonnegative=True)  #: ns from request to completion
reads_in_flight = symbol(r"k_{\mathrm{rd}}", positive=True, integer=True)  #: reads outstanding at once
#: The latency-bound model's three timings (:mod:`goodput.models.pcie_latency`, the pcie-measured chapter), declared here for
#: the command: what nothing overlaps, what transfers in flight overlap, and how many are in flight.
serial_time = symbol("t_s", nonnegative=True)  #: ns per transfer that nothing overlaps
latency_time = symbol("t_l", nonnegative=True)  #: ns per transfer that transfers in flight overlap
outstanding = symbol(r"k_{\mathrm{req}}", positive=True, integer=True)  #: transfers in flight
LATENCY_PARAMETERS = {
    p.name: p
    for p in (
        Parameter("serial_ns", serial_time, "ns", 0, 2000, default=100, step=5,
                  label="serial time per transfer t_s (ns)"),
        Parameter("latency_ns", latency_time, "ns", 0, 5000, default=300, step=10,
                  label="overlappable latency t_l (ns)"),
        Parameter("in_flight", outstanding, "transfers", 1, 8, default=8, step=1,
                  label="transfers in flight", integer=True),
    )
}

READ_PARAMETERS = {
    p.name: p
    for p in (
        Parameter("completion_ns", completion_latency, "ns", 0, 3000, default=500, step=10,
                  label="request to completion t_c (ns)"),
        Parameter("reads_in_flight", reads_in_flight, "reads", 1, 16, default=1, step=1, label="reads in flight",
                  integer=True),
    )
}
