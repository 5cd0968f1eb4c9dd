"""Choose a link: every interconnect of the book on one axis, and which of them meets a requirement.

Each link *family* (PCI Express, Serial RapidIO, HyperLink, Ethernet with TCP or UDP, SPI, CAN FD,
USB 3) is its chapter's model, rewritten by substitution only:

- its **settings** (generation, lanes, line rate, transaction, ...) are the few choices a reader
  makes, each a symbol the model's expressions already use or a selector between the model's
  cases (:class:`Setting`); everything else keeps the chapter's default;
- its **parts** are where the time of one transfer of ``S`` bytes goes, in microseconds: the data
  itself at the link's raw rate, and each overhead (the line code, packet headers, acknowledgements,
  gaps, ...), taken from the model's own breakdown of the transfer. They add up to the transfer's
  time on the link, so the goodput is ``S`` over their sum (MB/s, 10**6 bytes per second) and the
  **binding limit** is the largest overhead: the one that costs the most time.

:func:`part_expr`, :func:`goodput_expr` and :func:`efficiency_expr` put every family in one expression,
chosen by the family's index ``k``, for the chapter's chart, its calculated table and its workbook; :func:`solve`
answers "R MB/s at S-byte transfers, in at most L us each": which of the book's configurations
(:data:`CATALOG`) meet it, by how much, and what limits each. The tests hold every family to its
chapter's own numeric function (:attr:`Family.numeric`).

The settings, configurations and the numbers of a configuration at a transfer size (:func:`solve`,
:func:`goodput_mbyte_s`, :func:`binding`, ``goodput choose``...) are :mod:`goodput.analysis.choose_numeric`'s, which
computes with the functions ``tools/gen_cli_spec.py`` prints from these expressions and imports no sympy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

import sympy as sp

from goodput.analysis import choose_numeric
from goodput.analysis.choose_numeric import (
    LATENCY,
    MAX_SIZE_BYTES,
    RAW_RATE,
    Setting,
    binding,
    breakdown_us,
    goodput_mbyte_s,
    solve,
    time_us,
)
from goodput.core import cache, chapters
from goodput.core.command import Arg, Command, Ranged
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import maker
from goodput.models import can, coding, hyperlink, pcie, pcie_transactions, spi, srio, tcp, usb

symbol = maker(__name__)

__all__ = ["size", "family", "required_rate", "required_latency", "PARAMETERS", "Setting", "Family", "FAMILIES",
           "Config", "CATALOG", "LIMITS", "goodput_expr", "config",
           "goodput_mbyte_s", "time_us", "breakdown_us", "binding", "solve", "MAX_SIZE_BYTES",
           "RAW_RATE", "LATENCY", "settings", "PARTS", "part_times", "transfer_time", "achieved",
           "part_expr", "meets_expr", "binding_expr", "efficiency_expr", "encode", "decode"]

size = symbol("S", positive=True, integer=True)  #: the transfer, bytes
family = symbol("k", nonnegative=True, integer=True)  #: which family a configuration belongs to (its index)
required_rate = symbol(r"R_{\mathrm{req}}", positive=True)  #: the goodput required, MB/s
required_latency = symbol(r"L_{\mathrm{req}}", positive=True)  #: the longest a transfer may take, us

PARAMETERS = by_name(
    Parameter("rate_mbyte_s", required_rate, "MB/s", 0.001, 1e6, default=100, step=1,
              label="goodput required (MB/s)", exclusive_minimum=True,
              presets=((1, "1 MB/s"), (10, "10 MB/s"), (100, "100 MB/s"), (1000, "1 GB/s"))),
    Parameter("size_bytes", size, "bytes", 1, MAX_SIZE_BYTES, default=4096, step=1,
              label="transfer size (bytes)", integer=True,
              presets=((64, "64 B"), (512, "512 B"), (4096, "4 KiB"), (65536, "64 KiB"))),
    Parameter("latency_us", required_latency, "us", 0.001, 1e6, default=1e6, step=1,
              label="longest a transfer may take (us)", exclusive_minimum=True,
              presets=((1, "1 us"), (10, "10 us"), (100, "100 us"), (1e6, "1 s: no limit"))),
)


@dataclass(frozen=True)
class Family(choose_numeric.Family):
    """A link as this chapter compares it: its chapter's model in the settings a reader chooses.

    ``parts`` maps each share of a transfer's time (``"data"`` first) to its expression in microseconds,
    in :data:`size` and the settings' symbols; ``numeric(values, size)`` is the chapter's own numeric
    goodput (MB/s) for the same settings, which the tests hold the parts to; ``max_size`` the largest
    transfer the link takes (larger ones are left off the chart)."""

    numeric: Callable[[Mapping[str, float], int], float] | None = None

    def __post_init__(self):
        if next(iter(self.parts)) != "data":
            raise ValueError(f"{self.key}: the first part is the data's own time")
        known = {s.symbol for s in self.settings} | {size}
        for name, expr in self.parts.items():
            extra = expr.free_symbols - known
            if extra:
                raise ValueError(f"{self.key}: part {name!r} uses {', '.join(sorted(map(str, extra)))}, "
                                 "which no setting sets")

    def time_expr(self) -> sp.Expr:
        """Time of one transfer on the link, us: the sum of the parts."""
        return sp.Add(*self.parts.values())

    def goodput_expr(self) -> sp.Expr:
        """Goodput, MB/s: the transfer's bytes over its time."""
        return size / self.time_expr()


def _us_of_line_bytes(parts: Mapping[str, sp.Expr], line_gbaud: sp.Expr) -> dict[str, sp.Expr]:
    """Byte times at ``line_gbaud`` Gbaud (all lanes together) as microseconds: 8 bits each."""
    return {name: 8 * b / (1000 * line_gbaud) for name, b in parts.items()}


def _choose(selector: sp.Symbol, cases: Sequence[sp.Expr]) -> sp.Expr:
    """``cases[i]`` where ``selector = i``: one Piecewise, or the expression itself if all agree."""
    if all(c == cases[0] for c in cases):
        return cases[0]
    return sp.Piecewise(*[(c, sp.Eq(selector, i)) for i, c in enumerate(cases[:-1])], (cases[-1], True))


def _merge(selector: sp.Symbol, breakdowns: Sequence[Mapping[str, sp.Expr]]) -> dict[str, sp.Expr]:
    """Breakdowns of the same parts, one per value of ``selector``, as one breakdown."""
    return {name: _choose(selector, [b[name] for b in breakdowns]) for name in breakdowns[0]}


def _kept_parts(key: str, build: Callable[[], dict[str, sp.Expr]]) -> dict[str, sp.Expr]:
    """A family's parts, built once and kept between processes (:func:`goodput.core.cache.kept`): building the
    seven families' took most of this module's import (2 s)."""
    return cache.kept(f"choose-parts-{key}", build)


# --- PCI Express (pcie-packets) -----------------------------------------------------------------

#: The transaction a link's configuration moves data with (its family's list: writes or reads, ...).
transaction = symbol("t", nonnegative=True, integer=True)
_PCIE_KINDS = ("write", "read")
#: What the chapter's defaults give the rest: 3-DW headers, no ECRC, an ACK and UpdateFC per 4 TLPs,
#: no SKP ordered sets, reads of at most 512 bytes per request (the model's defaults).
_PCIE_LINK = pcie.Link()
_PCIE_NAMES = {"payload": "data", "tlp_overhead": "TLP headers and framing (one per MPS)",
               "dllp": "ACK and UpdateFC DLLPs", "skp": "SKP ordered sets", "encoding": "line code"}


#: A read as the pcie-reads chapter models it: one at a time, the completer answering after its default
#: request-to-completion time (the Intel tutorial's 500 ns), the data in completions of min(MPS, MRRS).
_PCIE_READ_NS = pcie_transactions.PARAMETERS["completion_ns"].default
_PCIE_READ_NAMES = {"requests": "read requests", "completer": f"completer's {_PCIE_READ_NS:g} ns"}


def _pcie_read_parts(fixed: dict, line: sp.Expr) -> dict[str, sp.Expr]:
    """One read of ``S`` bytes in flight (:func:`goodput.models.pcie_transactions.read_latency_expr`) as parts, us:
    its data, its completions' headers and framing, its requests, the line code on all of them, the completer."""
    pt = pcie_transactions
    fixed = {**fixed, pt.split_at_rcb: 0}
    requests = (pt.read_requests_expr() * (pcie.framing + pcie.header + pcie.ecrc)).subs(fixed)
    completions = (pt.read_completions_expr() * (pcie.framing + pcie.cpl_header + pcie.ecrc)).subs(fixed)
    code = (fixed[coding.coded_bits] / fixed[coding.data_bits] - 1) * (pcie.payload + completions + requests)
    parts = _us_of_line_bytes({"data": pcie.payload, _PCIE_NAMES["tlp_overhead"]: completions,
                               _PCIE_READ_NAMES["requests"]: requests, _PCIE_NAMES["encoding"]: code}, line)
    return {**parts, _PCIE_READ_NAMES["completer"]: sp.Float(_PCIE_READ_NS) / 1000}


def _pcie_parts() -> dict[str, sp.Expr]:
    fixed = {pcie.group: _PCIE_LINK.dllp_policy()[1], pcie.skp: 0, pcie.mrrs: _PCIE_LINK.mrrs,
             **pcie.size_exprs(pcie.generation, 3, 0),
             coding.data_bits: pcie.generation_piecewise(lambda c: c.data_bits),
             coding.coded_bits: pcie.generation_piecewise(lambda c: c.coded_bits)}
    line = pcie.transfer_rate_expr() * coding.lanes
    writes = {_PCIE_NAMES[k]: e.subs(fixed) for k, e in pcie.breakdown_exprs("write", "every").items()}
    writes = _us_of_line_bytes({k: e for k, e in writes.items() if e != 0}, line)
    reads = _pcie_read_parts(fixed, line)
    # every part in both (0 where a transaction has none), the data's first
    names = list(dict.fromkeys([*writes, *reads]))
    merged = _merge(transaction, [{n: writes.get(n, sp.Integer(0)) for n in names},
                                  {n: reads.get(n, sp.Integer(0)) for n in names}])
    return {k: v.xreplace({pcie.payload: size}) for k, v in merged.items()}


def _pcie_numeric(v, n):
    link = pcie.Link(gen=int(v["generation"]), lanes=int(v["lanes"]), mps=int(v["mps"]), mrrs=_PCIE_LINK.mrrs)
    if _PCIE_KINDS[int(v["transaction"])] == "read":
        return pcie_transactions.pipelined_read_mbyte_s(n, _PCIE_READ_NS, 1, replace(link, dllp="none"))
    return 125 * pcie.goodput_gbit_s("write", link, n)


PCIE = Family(
    "pcie", "PCIe", chapters.presenting(pcie.__name__).id,
    (Setting("generation", pcie.generation, "generation",
             tuple((n, f"gen {n}") for n in pcie.LINK_PARAMETERS["generation"].values()), 3),
     Setting("lanes", coding.lanes, pcie.LINK_PARAMETERS["lanes"].label, pcie.LINK_PARAMETERS["lanes"].options, 4),
     Setting("mps", pcie.mps, pcie.LINK_PARAMETERS["mps"].label,
             tuple((n, f"MPS {n}") for n in pcie.LINK_PARAMETERS["mps"].values()), 256),
     Setting("transaction", transaction, "transaction", ((0, "writes"), (1, "reads")), 0)),
    _kept_parts("pcie", _pcie_parts),
    "3-DW headers, no ECRC, no SKP; writes with an ACK and UpdateFC per 4 TLPs; reads one at a time, in "
    f"requests of at most {_PCIE_LINK.mrrs} bytes, each answered {_PCIE_READ_NS:g} ns after it arrives (the "
    "pcie-reads chapter's model)",
    numeric=_pcie_numeric)


# --- Serial RapidIO (srio) ------------------------------------------------------------------------

_SRIO_KINDS = ("nwrite", "nread")
_SRIO_DEFAULTS = {srio.id_bits: srio.PARAMETERS["id_bits"].default,
                  srio.address_bits: srio.PARAMETERS["address_bits"].default,
                  srio.control_symbols: srio.PARAMETERS["control_symbols"].default}


def _srio_parts() -> dict[str, sp.Expr]:
    wire = srio.transfer_wire_expr()
    q = srio.clock_share
    on_lanes = wire / (1 - q)
    bytes_ = {"data": srio.transfer, "packet headers, CRC and control symbols": wire - srio.transfer,
              "clock compensation": on_lanes - wire,
              "line code": on_lanes * (coding.coded_bits / coding.data_bits - 1)}
    parts = _us_of_line_bytes(bytes_, coding.line_rate * coding.lanes)
    by_kind = []
    for name in _SRIO_KINDS:  # each transaction's numbers in its own branch: no choice inside a condition
        k = srio.KINDS[name]
        values = {**_SRIO_DEFAULTS, srio.fixed_logical: k.fixed_logical_bytes, srio.addressed: int(k.addressed),
                  srio.acks: k.acks_in_data_direction}
        by_kind.append({part: e.subs(values).subs(srio.class_values(None)) for part, e in parts.items()})
    return {part: e.xreplace({srio.transfer: size}) for part, e in _merge(transaction, by_kind).items()}


SRIO = Family(
    "srio", "SRIO", chapters.presenting(srio.__name__).id,
    (Setting("line_rate_gbaud", coding.line_rate, "line rate per lane",
             tuple((r, f"{r:g} Gbaud") for r in srio.LINE_RATES_GBAUD), 5),
     Setting("lanes", coding.lanes, srio.PARAMETERS["lanes"].label, srio.PARAMETERS["lanes"].options, 4),
     Setting("transaction", transaction, "transaction", ((0, "NWRITE"), (1, "NREAD")), 0)),
    _kept_parts("srio", _srio_parts),
    "16-bit device IDs, 34-bit addresses, one control symbol per packet (and an acknowledgement of each "
    "request for NREAD); 256-byte packets",
    numeric=lambda v, n: 125 * srio.goodput_gbit_s(_SRIO_KINDS[int(v["transaction"])], v["line_rate_gbaud"],
                                                   int(v["lanes"]), n))


# --- HyperLink (hyperlink) ------------------------------------------------------------------------

def _hyperlink_parts() -> dict[str, sp.Expr]:
    code = coding.CODES["8b9b"]
    packets = hyperlink.packets_expr()
    on_link = hyperlink.transfer + hyperlink.control * packets
    bytes_ = {"data": hyperlink.transfer, "control bytes per packet": hyperlink.control * packets,
              "line code": on_link * sp.Rational(code.coded_bits - code.data_bits, code.data_bits)}
    values = {hyperlink.control: hyperlink.CONTROL_BYTES, hyperlink.packet: hyperlink.PARAMETERS["packet_bytes"].default}
    return {name: e.subs(values).xreplace({hyperlink.transfer: size})
            for name, e in _us_of_line_bytes(bytes_, coding.line_rate * coding.lanes).items()}


HYPERLINK = Family(
    "hyperlink", "HyperLink", chapters.presenting(hyperlink.__name__).id,
    (Setting("line_rate_gbaud", coding.line_rate, "line rate per lane",
             tuple((r, f"{r:g} Gbaud") for r in (3.125, 6.25, 10, 12.5)), 12.5),
     Setting("lanes", coding.lanes, hyperlink.PARAMETERS["lanes"].label, hyperlink.PARAMETERS["lanes"].options, 4)),
    _kept_parts("hyperlink", _hyperlink_parts),
    f"{hyperlink.PARAMETERS['packet_bytes'].default}-byte packets with {hyperlink.CONTROL_BYTES} control bytes each",
    numeric=lambda v, n: 125 * hyperlink.goodput_gbit_s(v["line_rate_gbaud"], int(v["lanes"]), n))


# --- Ethernet with TCP or UDP (tcp-goodput) -------------------------------------------------------

_stack = symbol("u", nonnegative=True, integer=True)  #: 0: TCP/IPv4, 1: TCP/IPv6, 2: UDP/IPv4
_STACKS = (("TCP/IPv4", "tcp", 4), ("TCP/IPv6", "tcp", 6), ("UDP/IPv4", "udp", 4))


def _ethernet_parts() -> dict[str, sp.Expr]:
    p = tcp.PARAMETERS
    common = {tcp.mtu: p["mtu_bytes"].default, tcp.tcp_options: p["tcp_options_bytes"].default,
              tcp.ethernet.vlan: 0}
    wires = [(tcp.message_wire_expr() if proto == "tcp" else tcp.datagram_wire_expr()).subs(
        {**common, tcp.ip_header: tcp.IP_HEADER_BYTES[ip]}) for _, proto, ip in _STACKS]
    bytes_ = {"data": tcp.message, "headers, preamble and gap": _choose(_stack, wires) - tcp.message}
    return {name: (8 * b / tcp.line_rate).xreplace({tcp.message: size}) for name, b in bytes_.items()}


def _ethernet_numeric(v, n):
    _, proto, ip = _STACKS[int(v["stack"])]
    rate = v["line_rate_mbit_s"]
    r = tcp.evaluate(n, rate, ip_version=ip) if proto == "tcp" else tcp.udp_evaluate(n, rate)
    return r["goodput_mbit_s"] / 8


ETHERNET = Family(
    "ethernet", "Ethernet", chapters.presenting(tcp.__name__).id,
    (Setting("line_rate_mbit_s", tcp.line_rate, "line rate",
             ((10, "10 Mbit/s"), (100, "100 Mbit/s"), (1000, "1 Gbit/s"), (10000, "10 Gbit/s")), 1000),
     Setting("stack", _stack, "protocol", tuple((i, name) for i, (name, _, _) in enumerate(_STACKS)), 0)),
    _kept_parts("ethernet", _ethernet_parts),
    f"MTU {tcp.PARAMETERS['mtu_bytes'].default}, no TCP options, no VLAN tag; each message its own segments "
    "(or datagram, in IP fragments)", max_size=tcp.PARAMETERS["message_bytes"].maximum,
    numeric=_ethernet_numeric)


# --- SPI (spi) --------------------------------------------------------------------------------------

def _spi_parts() -> dict[str, sp.Expr]:
    words = sp.ceiling(8 * size / spi.word_bits)
    clocks = spi.clock_time_expr().subs(spi.words, words)
    gaps = (spi.transfer_time_expr() - spi.clock_time_expr()).subs(spi.words, words)
    data = 8 * size / spi.clock
    return {"data": data, "padding to whole words": clocks - data,
            "gaps between words": gaps.subs(spi.gap, spi.GAP_NS)}


def _spi_numeric(v, n):
    bits = int(v["word_bits"])
    return n / spi.transfer_time_us(-(-8 * n // bits), bits, v["clock_mhz"], spi.GAP_NS, int(v["spaced"]))


SPI = Family(
    "spi", "SPI", chapters.presenting(spi.__name__).id,
    (Setting("clock_mhz", spi.clock, "clock", tuple((f, f"{f:g} MHz") for f in (10, 25, 50, 100)), 50),
     Setting("word_bits", spi.word_bits, "word", tuple((w, f"{w}-bit words") for w in (8, 16, 32)), 32),
     Setting("spaced", spi.spaced, "between words",
             ((1, f"{spi.GAP_NS} ns gaps"), (0, "continuous")), 1)),
    _kept_parts("spi", _spi_parts),
    f"the AM243x MCSPI's gap of {spi.GAP_NS} ns and one bit time between words, or none (continuous DMA)",
    numeric=_spi_numeric)


# --- CAN FD (can-fd) --------------------------------------------------------------------------------

def _can_parts() -> dict[str, sp.Expr]:
    nominal, fast = can.transfer_phase_times_expr()
    data = 8 * can.transfer / can.data_rate
    values = {can.extended: 0, can.stuffing: can.PARAMETERS["stuffing"].default}
    parts = {"data": data, "arbitration phase (nominal rate)": nominal, "frame fields, stuffing and padding": fast - data}
    return {name: e.subs(values).xreplace({can.transfer: size}) for name, e in parts.items()}


CAN_FD = Family(
    "can", "CAN FD", chapters.presenting(can.__name__).id,
    (Setting("arbitration_mbit_s", can.arbitration_rate, "arbitration rate",
             ((0.5, "500 kbit/s"), (1, "1 Mbit/s")), 1),
     Setting("data_mbit_s", can.data_rate, "data rate",
             tuple((r, f"data {r:g} Mbit/s") for r in (1, 2, 5, 8)), 5)),
    _kept_parts("can", _can_parts),
    "11-bit identifiers, no dynamic stuff bits; full 64-byte frames and one padded to a DLC length",
    numeric=lambda v, n: n / can.transfer_time_us(n, False, v["arbitration_mbit_s"], v["data_mbit_s"]))


# --- USB 3 (usb-superspeed) -------------------------------------------------------------------------

_USB_NAMES = {"data": "data", "packet headers": "packet headers and framing", "payload framing":
              "packet headers and framing", "link commands": "link commands", "SKP": "SKP ordered sets",
              "line code": "line code"}


def _usb_parts() -> dict[str, sp.Expr]:
    p = usb.PARAMETERS
    values = {usb.payload: p["packet_bytes"].default, usb.burst: p["burst"].default,
              usb.link_commands: p["link_commands"].default}
    y = usb.link_symbols_expr()
    parts: dict[str, sp.Expr] = {}
    for name, b in usb.breakdown_exprs().items():
        parts[_USB_NAMES[name]] = parts.get(_USB_NAMES[name], 0) + b.subs(usb.link_symbols, y)
    return {name: usb.by_generation((8 * b / (1000 * coding.line_rate)).subs(values)).xreplace({usb.transfer: size})
            for name, b in parts.items()}


USB = Family(
    "usb", "USB", chapters.presenting(usb.__name__).id,
    (Setting("generation", usb.generation, "generation", ((1, "3.x Gen 1 (5 Gbit/s)"), (2, "3.x Gen 2 (10 Gbit/s)")),
             2),),
    _kept_parts("usb", _usb_parts),
    "bulk transfers in 1024-byte packets, bursts of 16, LGOOD and LCRD counted",
    max_size=usb.PARAMETERS["transfer_bytes"].maximum,
    numeric=lambda v, n: 125 * usb.goodput_gbit_s(generation=int(v["generation"]), transfer_bytes=n))


#: Every family, in the book's order of chapters; a family's index is its position here.
FAMILIES = {f.key: f for f in (PCIE, SRIO, HYPERLINK, USB, ETHERNET, SPI, CAN_FD)}

#: What can bind a configuration, the binding limit's index into this: its raw rate (too slow even with
#: no overhead at all, or no overhead to speak of), the time a transfer may take, then every overhead any
#: family names, in the order first met.
LIMITS = choose_numeric.limit_names(FAMILIES.values())


def _family(key: str) -> Family:
    return choose_numeric.find(FAMILIES, key)


def _index(key: str) -> int:
    return list(FAMILIES).index(key)


def settings() -> dict[sp.Symbol, str]:
    """Every setting's symbol and the column it takes its value from (one column per symbol)."""
    out: dict[sp.Symbol, str] = {}
    for f in FAMILIES.values():
        for s in f.settings:
            if out.setdefault(s.symbol, s.name) != s.name:
                raise ValueError(f"{f.key}: symbol {s.symbol} is column {out[s.symbol]!r} elsewhere, not {s.name!r}")
    return out


def _by_family(per: Callable[[Family], sp.Expr]) -> sp.Expr:
    cases = [per(f) for f in FAMILIES.values()]
    return sp.Piecewise(*[(c, sp.Eq(family, i)) for i, c in enumerate(cases[:-1])], (cases[-1], True))


def goodput_expr() -> sp.Expr:
    """Goodput (MB/s) of back-to-back transfers of ``S`` bytes, for the configuration's family ``k``."""
    return _by_family(Family.goodput_expr)


def efficiency_expr() -> sp.Expr:
    """Share of the link's raw rate the data gets: the data's own time over the transfer's."""
    return _by_family(lambda f: next(iter(f.parts.values())) / f.time_expr())


#: Stand-ins for quantities already computed (a table's earlier columns): each part of a transfer's
#: time by name (the data's and every overhead of :data:`LIMITS`), the transfer's time and its goodput.
PARTS = choose_numeric.part_names(LIMITS)
part_times = {name: symbol(f"t_{{{i}}}", nonnegative=True) for i, name in enumerate(PARTS)}
transfer_time = symbol("T", positive=True)  #: one transfer's time, us
achieved = symbol("G", positive=True)  #: goodput, MB/s


def part_expr(name: str) -> sp.Expr:
    """Time (us) of part ``name`` of one transfer, for family ``k`` (zero where the family has no such part)."""
    if name not in PARTS:
        raise KeyError(f"no part {name!r}; parts: {', '.join(PARTS)}")
    return _by_family(lambda f: f.parts.get(name, sp.Integer(0)))


def meets_expr() -> sp.Expr:
    """1 where the goodput ``G`` is at least ``R_req`` and one transfer's time ``T`` at most ``L_req``, else 0."""
    return sp.Piecewise((1, sp.And(achieved >= required_rate, transfer_time <= required_latency)), (0, True))


def binding_expr() -> sp.Expr:
    """Index in :data:`LIMITS` of what binds a configuration, from its parts ``t_i`` and time ``T`` (as
    :func:`binding`): the raw rate if the data alone is too slow (or nothing else costs time), the latency if
    one transfer takes longer than allowed, else the overhead of the largest part (the first of equals)."""
    data, *overheads = (part_times[name] for name in PARTS)
    branches = [(LIMITS.index(RAW_RATE), sp.Or(size / data < required_rate, sp.Max(*overheads) <= 0)),
                (LIMITS.index(LATENCY), transfer_time > required_latency)]
    for i, t in enumerate(overheads[:-1]):
        branches.append((LIMITS.index(PARTS[i + 1]), sp.Ge(t, sp.Max(*overheads[i + 1:]))))
    return sp.Piecewise(*branches, (LIMITS.index(PARTS[-1]), True))


# --- configurations ---------------------------------------------------------------------------------

class Config(choose_numeric.Config):
    """One link configuration: a family (of :data:`FAMILIES`, with its expressions) and its settings."""

    @property
    def family(self) -> Family:
        return _family(self.key)

    def row(self) -> dict:
        """The configuration as a row of data: family index and label, each setting's column."""
        return {"family": _index(self.key), "link": self.label, **self.settings}


def config(key: str, **values: float) -> Config:
    """A configuration of family ``key``, its settings checked (defaults for those not given)."""
    return Config.of(_family(key), **values)


#: The configurations the book's chapters study, the solver's candidates.
CATALOG = (
    config("pcie", generation=1, lanes=4), config("pcie", generation=2, lanes=4),
    config("pcie", generation=2, lanes=4, transaction=1), config("pcie", generation=2, lanes=2),
    config("pcie", generation=3, lanes=1), config("pcie", generation=3, lanes=4),
    config("pcie", generation=4, lanes=4), config("pcie", generation=5, lanes=4),
    config("pcie", generation=6, lanes=4),
    config("srio", line_rate_gbaud=3.125, lanes=4), config("srio", line_rate_gbaud=5, lanes=4),
    config("srio", line_rate_gbaud=5, lanes=4, transaction=1), config("srio", line_rate_gbaud=5, lanes=1),
    config("srio", line_rate_gbaud=10.3125, lanes=4),
    config("hyperlink", line_rate_gbaud=12.5, lanes=4), config("hyperlink", line_rate_gbaud=6.25, lanes=1),
    config("usb", generation=1), config("usb", generation=2),
    config("ethernet", line_rate_mbit_s=100), config("ethernet", line_rate_mbit_s=1000),
    config("ethernet", line_rate_mbit_s=1000, stack=1), config("ethernet", line_rate_mbit_s=1000, stack=2),
    config("ethernet", line_rate_mbit_s=10000),
    config("spi", clock_mhz=50, word_bits=8), config("spi", clock_mhz=50, word_bits=32, spaced=0),
    config("can", arbitration_mbit_s=1, data_mbit_s=5), config("can", arbitration_mbit_s=0.5, data_mbit_s=2),
)


def encode(configs: Sequence[Config]) -> str:
    """Configurations as one line of text (a page address keeps it): ``pcie:3:4:256:0,srio:5:4:0``, each
    family's key and its settings' values in their declared order."""
    return ",".join(":".join([c.key, *(f"{c.settings[s.name]:g}" for s in c.family.settings)]) for c in configs)


def decode(text: str) -> list[Config]:
    """The configurations :func:`encode` wrote; :class:`ParameterError` naming the first that is wrong."""
    return [config(key, **values) for key, values in choose_numeric.decode_values(text, FAMILIES)]


# --- goodput choose: run by goodput.analysis.choose_numeric, without sympy ---------------------------------

COMMAND = Command(
    "choose", help="which of the book's link configurations carry a required goodput",
    description="Every configuration the book studies (PCIe, SRIO, HyperLink, USB 3, Ethernet with TCP or UDP, "
                "SPI, CAN FD) at one transfer size: its goodput, its margin over the rate required, the time one "
                "transfer takes and the overhead that costs it most; those that meet the requirement first.",
    arguments=(Ranged("--rate-mbyte-s", PARAMETERS["rate_mbyte_s"], "R", required=True),
               Ranged("--size", PARAMETERS["size_bytes"], "S", "transfer size (bytes)", required=True),
               Arg("--latency-us", dest="latency_us", metavar="L", default=None,
                   help=f"longest a transfer may take (us): {PARAMETERS['latency_us'].describe_range()}; "
                        "no limit if not given"),
               Arg("--expect", action="store_true",
                   help="answer with an expectation: each family's goodput times the share of the model the book "
                        "measured of its links (their median), not the model's ceiling"),
               Arg("--links", metavar="LIST", default=None,
                   help="your links as the page's address keeps them (links=), each family and its settings' "
                        "values: pcie:4:8:256:0,can:0.5:2; answered first, then the book's configurations")),
    run=choose_numeric.run, lines=choose_numeric.lines)
