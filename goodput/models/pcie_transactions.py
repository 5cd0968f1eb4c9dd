"""PCI Express transactions one after another: the Intel tutorial's worked examples.

Where :mod:`goodput.models.pcie` streams transfers back to back, these expressions
follow a program that issues ``n`` small transactions in a row, as a CPU does
when it writes or reads device registers:

- posted writes go out back to back; each is ``S + F + H + E`` bytes, and the
  physical layer adds a ``P``-byte SKP ordered set (a "PLP") at least every
  ``L_PLP`` bytes;
- reads are issued one at a time: the request's bytes, a completion latency
  ``t_c`` in the device, optionally ``d`` DLLPs the loop waits for, then the
  completion's bytes.

A byte takes ``8 / B`` ns at bit rate ``B`` (Gbit/s) after the line code.

What the tutorial prints (its examples, analyzer traces, AHB logs and measurements) is checked against
these in :mod:`goodput.sources.intel_324611`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import sympy as sp

from goodput.core import data, fit
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import lambdify, maker
from goodput.logs import pcie_trace
from goodput.models import coding, pcie

symbol = maker(__name__)

__all__ = ["request_bytes_expr", "completion_bytes_expr",
           "transactions", "completion_latency", "plp_bytes", "plp_interval", "dllps_per_read", "cpu_time",
           "byte_time_expr", "posted_writes_expr", "serial_reads_expr", "reads_in_flight", "split_at_rcb",
           "read_requests_expr", "read_completions_expr", "read_latency_expr", "read_substitution", "READS_LINK",
           "read_latency_ns", "pipelined_reads_expr", "pipelined_read_mbyte_s", "PARAMETERS", "SKP_SCHEDULE_SYMBOLS",
           "INTEL_LINK", "INTEL_PLP", "evaluate_example", "fit_test15", "published_log", "SYMBOL_LOGS",
           "trace_directions"]

transactions = symbol("n", positive=True, integer=True)  #: transactions issued
completion_latency = pcie.completion_latency  #: ns from request to completion (the command's, declared there)
plp_bytes = symbol("P", positive=True, integer=True)  #: bytes of one SKP ordered set
plp_interval = symbol(r"L_{\mathrm{PLP}}", positive=True, integer=True)  #: max bytes between SKPs
dllps_per_read = symbol("d", nonnegative=True, integer=True)  #: DLLPs each read waits for
cpu_time = symbol(r"t_{\mathrm{cpu}}", nonnegative=True)  #: ns the CPU takes from a completion to its next request


def byte_time_expr() -> sp.Expr:
    """Nanoseconds per byte after the line code."""
    return 8 / pcie.bit_rate


def request_bytes_expr() -> sp.Expr:
    """A read request's bytes on the wire: framing, its header and the ECRC (it carries no data)."""
    return pcie.framing + pcie.header + pcie.ecrc


def completion_bytes_expr() -> sp.Expr:
    """A completion's bytes on the wire: its ``S`` bytes of data, framing, its header and the ECRC."""
    return pcie.payload + pcie.framing + pcie.cpl_header + pcie.ecrc


def posted_writes_expr() -> dict[str, sp.Expr]:
    """``n`` back-to-back writes of ``S`` bytes: time (ns) and the bytes each direction carries.

    Each write is acknowledged by one ACK and one UpdateFC DLLP, which travel the
    other way.
    """
    tlp = pcie.payload + pcie.framing + pcie.header + pcie.ecrc
    plps = sp.ceiling(transactions * tlp / plp_interval)
    write_bytes = transactions * tlp + plps * plp_bytes
    return {
        "time_ns": write_bytes * byte_time_expr(),
        "payload_bytes": transactions * pcie.payload,
        "write_direction_bytes": write_bytes,
        "read_direction_bytes": transactions * 2 * pcie.dllp,
        "plps": plps,
    }


def serial_reads_expr() -> dict[str, sp.Expr]:
    """``n`` reads of ``S`` bytes issued one at a time: time (ns) and bytes per direction.

    ``t_cpu`` is the time the program takes from one completion to its next
    request; the tutorial's calculations take it as zero.

    The read direction carries the completions plus an ACK and an UpdateFC per
    request; the write direction carries the requests plus an ACK per
    completion; each direction also carries its SKP ordered sets, which the
    completion latency hides.
    """
    t = byte_time_expr()
    per_read = (request_bytes_expr() * t + completion_latency + dllps_per_read * pcie.dllp * t
                + completion_bytes_expr() * t + cpu_time)
    plps = sp.ceiling(transactions * completion_bytes_expr() / plp_interval)
    return {
        "time_ns": transactions * per_read,
        "payload_bytes": transactions * pcie.payload,
        "read_direction_bytes": transactions * (completion_bytes_expr() + 2 * pcie.dllp) + plps * plp_bytes,
        "write_direction_bytes": transactions * (request_bytes_expr() + pcie.dllp) + plps * plp_bytes,
        "plps": plps,
    }


reads_in_flight = pcie.reads_in_flight  #: reads outstanding at once
#: 1: the completer splits a read's data at the read completion boundary; 0: at min(MPS, MRRS)
split_at_rcb = symbol(r"s_{\mathrm{RCB}}", nonnegative=True, integer=True)


def read_requests_expr() -> sp.Expr:
    """Memory-read requests (MRd) for a read of ``S`` bytes: one per ``MRRS`` bytes."""
    return pcie.request_count_expr()


def read_completions_expr() -> sp.Expr:
    """Completions (CplD) that carry a read of ``S`` bytes: one per read completion boundary where the
    completer splits there (``s_RCB = 1``), else one per ``min(MPS, MRRS)`` bytes."""
    return sp.Piecewise((pcie.tlp_count_expr("read", "rcb"), sp.Eq(split_at_rcb, 1)),
                        (pcie.tlp_count_expr("read"), True))


def _read_bytes() -> tuple[sp.Expr, sp.Expr]:
    """Bytes a read of ``S`` bytes puts on each direction: its requests', its completions'."""
    requests = read_requests_expr() * request_bytes_expr()
    completions = pcie.payload + read_completions_expr() * (pcie.framing + pcie.cpl_header + pcie.ecrc)
    return requests, completions


def read_latency_expr() -> sp.Expr:
    """Nanoseconds from a read's first request to its last byte of data: its requests on the wire, the
    completer's ``t_c``, its completions on the wire (no DLLP waited for, no other traffic)."""
    requests, completions = _read_bytes()
    return (requests + completions) * byte_time_expr() + completion_latency


def pipelined_reads_expr() -> sp.Expr:
    """Read throughput (MB/s) with ``k_rd`` reads of ``S`` bytes in flight, each waiting ``t_c``.

    One read occupies :func:`read_latency_expr` from issue to data; with ``k_rd`` in flight the
    data arrives ``k_rd`` times as often, until the completions fill their direction (or, for
    reads of a few bytes with long request headers, the requests fill theirs). A read of at most
    ``min(MPS, MRRS)`` bytes is one request and one completion, as the tutorial counts it.
    """
    requests, completions = _read_bytes()
    t = byte_time_expr()
    return 1000 * sp.Min(pcie.payload / (completions * t), pcie.payload / (requests * t),
                         reads_in_flight * pcie.payload / read_latency_expr())


def read_substitution(link: pcie.Link) -> dict:
    """Every symbol of the read expressions but ``S``, ``t_c`` and ``k_rd``, with its value for ``link``."""
    link = link.checked()
    return {**pcie.link_substitution(link), split_at_rcb: int(link.split == "rcb")}


@lru_cache(maxsize=None)
def _read_numeric():
    """:func:`pipelined_reads_expr` and :func:`read_latency_expr` as one function of the link's values (in
    :mod:`goodput.models.pcie`'s order), ``s_RCB``, ``t_c`` and ``k_rd``: a table of reads evaluates it hundreds of times."""
    args = (*pcie._SYMBOLS, split_at_rcb, completion_latency, reads_in_flight)
    return lambdify(args, [pipelined_reads_expr(), read_latency_expr()], "math")


def _read(size: int, completion_ns: float, in_flight: int, link: pcie.Link | None) -> tuple[float, float]:
    p = PARAMETERS
    link = (link or READS_LINK).checked()
    return tuple(float(v) for v in _read_numeric()(
        *pcie._values(link, pcie._check_size(size)), int(link.split == "rcb"),
        p["completion_ns"].check(completion_ns), p["reads_in_flight"].check(in_flight)))


def pipelined_read_mbyte_s(size: int, completion_ns: float, in_flight: int, link: pcie.Link | None = None) -> float:
    """:func:`pipelined_reads_expr` (MB/s) for reads of ``size`` bytes on ``link`` (the tutorial's PCIe 1.1
    x1, :data:`READS_LINK`)."""
    return _read(size, completion_ns, in_flight, link)[0]


def read_latency_ns(size: int, completion_ns: float, link: pcie.Link | None = None) -> float:
    """:func:`read_latency_expr` (ns) for a read of ``size`` bytes on ``link`` (:data:`READS_LINK`)."""
    return _read(size, completion_ns, 1, link)[1]


#: The tutorial's link for its reads: PCIe 1.1 x1, no DLLP counted, and one request and one completion
#: for every read up to 4096 bytes, as its calculation counts them (MPS and MRRS of 4096).
READS_LINK = pcie.Link(gen=1, lanes=1, mps=4096, mrrs=4096, dllp="none")


PARAMETERS = by_name(
    pcie.READ_PARAMETERS["completion_ns"],
    pcie.READ_PARAMETERS["reads_in_flight"],
    Parameter("split_at_rcb", split_at_rcb, "", 0, 1, default=0, step=1, label="completions split",
              integer=True, options=((0, "at max payload size"), (1, "at the read completion boundary"))),
    Parameter("rcb", pcie.rcb, "bytes", min(pcie.RCBS), max(pcie.RCBS), default=pcie.Link.rcb, step=1,
              label="read completion boundary", integer=True, options=tuple((n, f"{n} B") for n in pcie.RCBS)),
)


#: The PCIe 1.x base specification's window for scheduling an SKP ordered set on an 8b/10b link, the shortest
#: and longest interval in symbol times (:data:`goodput.models.pcie.SKP_WINDOW_8B10B`).
SKP_SCHEDULE_SYMBOLS = pcie.SKP_WINDOW_8B10B
#: The tutorial's link (PCIe 1.1 x1, 3DW headers, no ECRC, no DLLP in the packet model) and the SKP
#: ordered set (bytes) and its interval (bytes) its examples count with: the shortest the window allows.
INTEL_LINK = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")
INTEL_PLP = {plp_bytes: pcie.SKP_SYMBOLS_8B10B, plp_interval: SKP_SCHEDULE_SYMBOLS[0]}


@lru_cache(maxsize=None)
def _example_numeric(kind: str):
    """The quantities of :func:`posted_writes_expr` or :func:`serial_reads_expr` and one function giving
    them all, of the link's values (in :mod:`goodput.models.pcie`'s order) and this module's symbols."""
    exprs = posted_writes_expr() if kind == "write" else serial_reads_expr()
    args = (*pcie._SYMBOLS, transactions, completion_latency, dllps_per_read, plp_bytes, plp_interval, cpu_time)
    return tuple(exprs), lambdify(args, list(exprs.values()), "math")


def evaluate_example(kind: str, n: int, size: int, t_c: float = 0.0, d: int = 0,
                     link: pcie.Link | None = None, t_cpu: float = 0.0) -> dict:
    """Throughput (MB/s) and allocated bandwidth per direction (MB/s and % of the link)."""
    link = (link or INTEL_LINK).checked()
    names, f = _example_numeric(kind)
    v = {k: float(x) for k, x in zip(names, f(*pcie._values(link, size), n, t_c, d, INTEL_PLP[plp_bytes],
                                               INTEL_PLP[plp_interval], t_cpu))}
    link_mbyte_s = 1000 * coding.byte_rate_gbyte_s(link.generation.rate_gtps, link.lanes, link.code)
    out = {"net_mbyte_s": 1000 * v["payload_bytes"] / v["time_ns"], "time_ns": v["time_ns"], "plps": v["plps"]}
    for direction in ("write", "read"):
        mbyte_s = 1000 * v[f"{direction}_direction_bytes"] / v["time_ns"]
        out[f"{direction}_mbyte_s"] = mbyte_s
        out[f"{direction}_share_percent"] = 100 * mbyte_s / link_mbyte_s
    return out


def fit_test15():
    """Fit ``t_cpu`` to Test 15's measured reads, with the authors' own model otherwise (500 ns, no DLLP).

    Returns the fit and the CPU turnaround times the Test 4 trace shows
    (completion end to next request start, ns) to compare it with.
    """
    t = data.load("intel-324611-test15")
    sizes = t["payload_bytes"].to_numpy()

    def predict(t_cpu):
        return np.array([evaluate_example("read", 1, int(s), t_c=500.0, t_cpu=t_cpu)["net_mbyte_s"]
                         for s in sizes])

    result = fit.fit(predict, t["measured_mbyte_s"].to_numpy(), [fit.Bound("t_cpu", 0.0, 5000.0, "ns")])
    trace = pcie_trace.parse(published_log(SYMBOL_LOGS[4]))
    seen = [r["to_next_request"] * pcie_trace.SYMBOL_NS for r in pcie_trace.read_timings(trace)
            if r["to_next_request"] is not None]
    return result, seen


def published_log(name: str) -> Path:
    """Path of a trace excerpt in ``data/logs/published``."""
    return data.published_dir().parent / "logs" / "published" / name


SYMBOL_LOGS = {
    1: "intel-324611-example1-symbols.log",
    2: "intel-324611-example2-symbols.log",
    3: "intel-324611-test3-symbols.log",
    4: "intel-324611-test4-symbols.log",
}


def trace_directions(trace) -> tuple[str, str]:
    """``(write_direction, read_direction)`` of a parsed symbol trace: where requests and writes go."""
    writes = {p.direction for p in trace.packets if p.kind == "TLP" and p.name in ("MWr", "MRd")}
    if len(writes) != 1:
        raise ValueError(f"{trace.path}: cannot tell the write direction from its TLPs")
    (w,) = writes
    return w, next(d for d in trace.directions if d != w)
