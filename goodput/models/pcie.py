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
from dataclasses import asdict, dataclass
from functools import lru_cache

import sympy as sp

from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import lambdify, maker
from goodput.models import coding

symbol = maker(__name__)

__all__ = ["latency_table", "latency_limits", "READER_LINK", "LINK_PARAMETERS", "READ_PARAMETERS", "LATENCY_PARAMETERS", "serial_time", "latency_time", "outstanding",
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
    "tlp_overhead_formula",
    "DUPLEX_DIRECTIONS",
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


# --- AN3935's link and a TLP's overhead (the documents' checks, the pages) -------------------

#: AN3935's calculation assumptions (§6.1, §6.2): x4, MPS and MRRS 256, ACK + UpdateFC per 4 TLPs.
AN3935_DEVICES = {"MSC8156": 1, "MSC8157": 2}

#: How a label names a value of each of AN3935's condition columns (see :func:`goodput.core.data.varying`).
AN3935_LABELS = {"lanes": "x{:g}", "mps_bytes": "MPS {:g}", "dma_channels": "{:g} in flight"}


def an3935_link(device: str, lanes: int = 4, mps_bytes: int = 256) -> Link:
    """The link AN3935 calculates with for ``device`` (MSC8156: gen1, MSC8157: gen2)."""
    return Link(gen=AN3935_DEVICES[device], lanes=lanes, mps=mps_bytes, mrrs=256, dllp="every:4")


def tlp_overhead_formula(link: Link) -> tuple:
    """``(expr, values)``: the bytes a TLP adds to its payload on ``link`` (framing, header, ECRC)."""
    values = link_substitution(link)
    return framing + header + ecrc, {s: values[s] for s in (framing, header, ecrc)}


#: The link a reader starts from, in ``goodput pcie`` and on the packets chapter's page (its controls take their
#: defaults from it): AN3935's gen 2 x4 with MPS and MRRS of 256. :class:`Link`'s own defaults are the model's.
READER_LINK = Link(gen=2, lanes=4, mps=256, mrrs=256)

#: The link's settings a reader picks, each declared once: its allowed values and their labels, its default (the
#: reader's link), unit and words. ``goodput pcie``'s options, the packets chapter's controls, the chooser's
#: settings and the kernel's panel read them; :class:`Link` refuses any other value.
LINK_PARAMETERS = by_name(
    Parameter("generation", generation, "", min(GENERATIONS), max(GENERATIONS), default=READER_LINK.gen, step=1,
              label="PCIe generation", integer=True,
              options=tuple((g.number, f"{g.number}: {g.rate_gtps:g} GT/s") for g in GENERATIONS.values())),
    Parameter("lanes", coding.lanes, "lanes", min(LANES), max(LANES), default=READER_LINK.lanes, step=1,
              label="lanes", integer=True, options=tuple((n, f"x{n}") for n in LANES)),
    Parameter("mps", mps, "bytes", min(SIZES_POW2), max(SIZES_POW2), default=READER_LINK.mps, step=1,
              label="max payload size", integer=True, options=tuple((n, f"{n} B") for n in SIZES_POW2)),
    Parameter("mrrs", mrrs, "bytes", min(SIZES_POW2), max(SIZES_POW2), default=READER_LINK.mrrs, step=1,
              label="max read request", integer=True, options=tuple((n, f"{n} B") for n in SIZES_POW2)),
)

#: A read's two settings beyond the link, declared here for the command (the read model is
#: :mod:`goodput.models.pcie_transactions`'): the completer's time from request to completion, and reads in flight.
completion_latency = symbol("t_c", nonnegative=True)  #: ns from request to completion
reads_in_flight = symbol(r"k_{\mathrm{rd}}", positive=True, integer=True)  #: reads outstanding at once
#: The latency-bound model's three timings (:mod:`goodput.models.pcie_latency`, the pcie-measured chapter), declared here for
#: the command: what nothing overlaps, what transfers in flight overlap, and how many are in flight.
serial_time = symbol("t_s", nonnegative=True)  #: ns per transfer that nothing overlaps
latency_time = symbol("t_l", nonnegative=True)  #: ns per transfer that transfers in flight overlap
outstanding = symbol(r"k_{\mathrm{req}}", positive=True, integer=True)  #: transfers in flight
LATENCY_PARAMETERS = by_name(
    Parameter("serial_ns", serial_time, "ns", 0, 2000, default=100, step=5,
              label="serial time per transfer t_s (ns)"),
    Parameter("latency_ns", latency_time, "ns", 0, 5000, default=300, step=10,
              label="overlappable latency t_l (ns)"),
    Parameter("in_flight", outstanding, "transfers", 1, 8, default=8, step=1,
              label="transfers in flight", integer=True),
)

READ_PARAMETERS = by_name(
    Parameter("completion_ns", completion_latency, "ns", 0, 3000, default=500, step=10,
              label="request to completion t_c (ns)"),
    Parameter("reads_in_flight", reads_in_flight, "reads", 1, 16, default=1, step=1, label="reads in flight",
              integer=True),
)
