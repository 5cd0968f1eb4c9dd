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
"""

from __future__ import annotations

import re
import struct
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import sympy as sp

from goodput import checks
from goodput.models import coding, pcie, pcie_crc
from goodput.core import data, fit
from goodput.logs import ahb_trace, pcie_trace
from goodput.core.params import Parameter
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["gap_constraints", "RAM_BASE_LOG", "ram_base_checks", "transactions", "completion_latency", "plp_bytes", "plp_interval", "dllps_per_read",
           "byte_time_expr", "posted_writes_expr", "serial_reads_expr", "evaluate_example",
           "INTEL_EXAMPLES", "test15_theoretical_mbyte_s", "AHB_LOGS", "TLP_PAYLOAD_BYTES", "published_log",
           "reads_in_flight", "split_at_rcb", "read_requests_expr", "read_completions_expr", "read_latency_expr",
           "read_substitution", "READS_LINK", "read_latency_ns", "pipelined_reads_expr", "pipelined_read_mbyte_s", "PARAMETERS", "cpu_time",
           "fit_test15", "TEST14_LINK", "measured_ceiling_checks", "payload_indicated", "s3_2_field_checks", "WRITTEN_WORDS", "READ_BACK", "read_back_checks",
           "SKP_SCHEDULE_SYMBOLS", "example_operand_checks",
           "s3_4_checks", "prefetch_chunk_checks", "s4_3_menu_checks",
           "WRITE_FLAG", "flag_checks", "s3_3_checks"]

transactions = symbol("n", positive=True, integer=True)  #: transactions issued
completion_latency = pcie.completion_latency  #: ns from request to completion (the command's, declared there)
plp_bytes = symbol("P", positive=True, integer=True)  #: bytes of one SKP ordered set
plp_interval = symbol(r"L_{\mathrm{PLP}}", positive=True, integer=True)  #: max bytes between SKPs
dllps_per_read = symbol("d", nonnegative=True, integer=True)  #: DLLPs each read waits for
cpu_time = symbol(r"t_{\mathrm{cpu}}", nonnegative=True)  #: ns the CPU takes from a completion to its next request


def byte_time_expr() -> sp.Expr:
    """Nanoseconds per byte after the line code."""
    return 8 / pcie.bit_rate


def _request() -> sp.Expr:
    return pcie.framing + pcie.header + pcie.ecrc


def _completion() -> sp.Expr:
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
    per_read = (_request() * t + completion_latency + dllps_per_read * pcie.dllp * t + _completion() * t
                + cpu_time)
    plps = sp.ceiling(transactions * _completion() / plp_interval)
    return {
        "time_ns": transactions * per_read,
        "payload_bytes": transactions * pcie.payload,
        "read_direction_bytes": transactions * (_completion() + 2 * pcie.dllp) + plps * plp_bytes,
        "write_direction_bytes": transactions * (_request() + pcie.dllp) + plps * plp_bytes,
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
    requests = read_requests_expr() * _request()
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


PARAMETERS = {
    p.name: p
    for p in (
        pcie.READ_PARAMETERS["completion_ns"],
        pcie.READ_PARAMETERS["reads_in_flight"],
        Parameter("split_at_rcb", split_at_rcb, "", 0, 1, default=0, step=1, label="completions split",
                  integer=True, options=((0, "at max payload size"), (1, "at the read completion boundary"))),
        Parameter("rcb", pcie.rcb, "bytes", min(pcie.RCBS), max(pcie.RCBS), default=pcie.Link.rcb, step=1,
                  label="read completion boundary", integer=True, options=tuple((n, f"{n} B") for n in pcie.RCBS)),
    )
}

#: The two worked examples of Intel 324611 §3.5: PCIe 1.1 x1, 3DW headers, no ECRC,
#: 100 transactions of 4 bytes, an SKP at least every 1180 bytes (:data:`INTEL_PLP`), 500 ns to completion.
INTEL_EXAMPLES = {
    1: {"kind": "write", "n": 100, "size": 4},
    2: {"kind": "read", "n": 100, "size": 4, "t_c": 500.0, "d": 1},
}


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


def test15_theoretical_mbyte_s(size: int) -> float:
    """The Intel tutorial's theoretical read throughput of Test 15: request, 500 ns, completion, no DLLP."""
    return evaluate_example("read", 1, size, t_c=500.0, d=0)["net_mbyte_s"]


#: The link Test 14's "Max PCIe throughput" column is for: gen1 x1, one TLP of the row's payload, no DLLP.
TEST14_LINK = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")


def measured_ceiling_checks(test14, test15) -> list:
    """The measured columns of Test 14 and Test 15 (``intel-324611-test14``, ``intel-324611-test15``) against
    the most the model lets their row's payload carry (``ceiling``, ``<=``): a write of ``N`` sequential bytes
    is at best one ``N``-byte MWr TLP back to back with the next (the write goodput of :data:`TEST14_LINK`); a
    read of ``N`` bytes at best the request, 500 ns and the completion of
    :func:`test15_theoretical_mbyte_s`."""
    out = []
    for row in test14.itertuples():
        size = row.sequential_write_bytes
        out.append(checks.compare(
            test14, row.Index, "measured_mbyte_s",
            1000 * pcie.goodput_gbit_s("write", TEST14_LINK, size) / 8, f"{size} bytes",
            f"At most one {size}-byte MWr TLP after another on the gen1 x1 link: {{model:.4g}} MB/s.",
            formula=pcie.goodput_formula("write", TEST14_LINK, size, scale=sp.Rational(1000, 8)),
            kind="ceiling", relation="<="))
    for row in test15.itertuples():
        size = row.payload_bytes
        out.append(checks.compare(
            test15, row.Index, "measured_mbyte_s", test15_theoretical_mbyte_s(size), f"{size} bytes",
            f"At most one {size}-byte read per request, 500 ns and completion: {{model:.3g}} MB/s.",
            kind="ceiling", relation="<="))
    return out


def payload_indicated(measured_mbyte_s: float, sizes=tuple(2 ** k for k in range(13))) -> int:
    """The smallest TLP payload of ``sizes`` (bytes) whose write ceiling on :data:`TEST14_LINK` is not below
    ``measured_mbyte_s``: the least payload that writes of that throughput must travel in, as §4.16 reads
    Test 14's flat measurements."""
    for size in sorted(sizes):
        if 1000 * pcie.goodput_gbit_s("write", TEST14_LINK, size) / 8 >= measured_mbyte_s:
            return size
    raise ValueError(f"{measured_mbyte_s} MB/s is over the write ceiling of every payload of {sorted(sizes)}")


@checks.provider
def measured_ceiling_source_checks():
    """Intel 324611 §4.16 and §4.17: Test 14's and Test 15's measured throughputs under their ceilings."""
    return measured_ceiling_checks(data.load("intel-324611-test14"), data.load("intel-324611-test15"))


_QUANTITY = {
    "net write throughput": "net_mbyte_s", "net read throughput": "net_mbyte_s",
    "allocated write bandwidth": "write_mbyte_s", "allocated read bandwidth": "read_mbyte_s",
    "allocated write bandwidth share": "write_share_percent",
    "allocated read bandwidth share": "read_share_percent",
}


@checks.provider
def source_checks():
    """Intel 324611: Examples 1 and 2 as calculated, and the Test 14 and Test 15 theory columns."""
    out = []
    t = data.load("intel-324611-s3-5-examples")
    results = {k: evaluate_example(**e) for k, e in INTEL_EXAMPLES.items()}
    for row in t.itertuples():
        if row.basis != "calculation":
            continue  # trace figures are checked against the parsed traces
        out.append(checks.compare(t, row.Index, "value",
                                  results[row.example][_QUANTITY[row.quantity]],
                                  f"Example {row.example}: {row.quantity} ({row.unit})",
                                  quantity=row.quantity, unit=row.unit))

    t = data.load("intel-324611-test14")
    for row in t.itertuples():
        out.append(checks.compare(t, row.Index, "max_pcie_throughput_mbyte_s",
                                  1000 * pcie.goodput_gbit_s("write", TEST14_LINK, row.sequential_write_bytes) / 8,
                                  f"{row.sequential_write_bytes} bytes"))

    t = data.load("intel-324611-test15")
    for row in t.itertuples():
        out.append(checks.compare(
            t, row.Index, "theoretical_mbyte_s", test15_theoretical_mbyte_s(row.payload_bytes),
            f"{row.payload_bytes} bytes",
            "" if row.payload_bytes != 4 else
            "Request (20 bytes), 500 ns, completion (S + 20 bytes) at 4 ns a byte gives {model:.2f} "
            "here and matches the printed figure for 1, 2 and 8 bytes; the printed {published} fits none "
            "of the rules that give the other three rows."))
    return out


#: The AHB trace logs of Intel 324611 whose statistic blocks are recomputed, by test.
AHB_LOGS = {
    "Test 1": "intel-324611-test1-ahb.log",
    "Test 2": "intel-324611-test2-ahb.log",
    "Test 3": "intel-324611-test3-ahb.log",
    "Test 10": "intel-324611-test10-ahb.log",
    "Test 11": "intel-324611-test11-ahb.log",
}


#: The payload of each TLP the AHB-logged tests send, as §4 states: an int (Tests 1-3), a double (Tests 10, 11).
TLP_PAYLOAD_BYTES = {"Test 1": 4, "Test 2": 4, "Test 3": 4, "Test 10": 8, "Test 11": 8}


def published_log(name: str) -> Path:
    """Path of a trace excerpt in ``data/logs/published``."""
    return data.published_dir().parent / "logs" / "published" / name


@checks.provider
def trace_checks():
    """Every value of every "Statistic for N AHB accesses" block, recomputed from its trace."""
    out = []
    for test, name in AHB_LOGS.items():
        trace = ahb_trace.parse(published_log(name))
        recomputed = ahb_trace.statistics(trace)
        ticks = trace.accesses["ticks"].to_numpy()
        printed_delays = trace.accesses["delay_ns"].to_numpy()[1:]
        mismatch = [i + 1 for i, (a, b) in enumerate(zip(np.diff(ticks) * ahb_trace.TICK_NS, printed_delays))
                    if a != b]
        note = ""
        if mismatch:
            i = mismatch[0]
            note = (f"Access {i + 1} is {int(ticks[i] - ticks[i - 1])} ticks "
                    f"({(ticks[i] - ticks[i - 1]) * ahb_trace.TICK_NS:g} ns) after the one before by its "
                    f"timestamps, but its printed delay is {printed_delays[i - 1]:g} ns, and the statistic "
                    "follows the printed delay: a timestamp or the delay was mistyped.")
        for key in ahb_trace.STATISTIC_KEYS:
            unit = "ns" if "Time" in key else "B/s"
            out.append(checks.check("Intel 324611", f"{test} statistic block",
                                    f"{trace.statistic_accesses} accesses", key, unit,
                                    trace.printed[key], recomputed[key], note, f"logs/published/{name}"))
    return out


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


_EXAMPLE_TRACE_NOTES = {
    (2, "net read throughput"):
        "The trace runs {cycles} symbol times ({time:g} ns) and carries {payload} bytes; the text "
        "divides by 2128 ns, which it also calls 523 x 4 ns.",
    (2, "allocated read bandwidth share"):
        "The trace's read direction carries {busy} symbols of packets, no SKP among them; the text "
        "counts one SKP there (124 symbols).",
}


@checks.provider
def symbol_trace_checks():
    """The figures the text reads off the analyzer traces, from the parsed traces."""
    out = []
    t = data.load("intel-324611-s3-5-examples")
    for row in t.itertuples():
        if row.basis != "trace":
            continue
        trace = pcie_trace.parse(published_log(SYMBOL_LOGS[row.example]))
        s = pcie_trace.summary(trace)
        write, read = trace_directions(trace)
        model = {"net write throughput": s["payload_mbyte_s"], "net read throughput": s["payload_mbyte_s"],
                 "allocated read bandwidth share": s[f"{read}_share_percent"],
                 "allocated write bandwidth share": s[f"{write}_share_percent"]}[row.quantity]
        note = _EXAMPLE_TRACE_NOTES.get((row.example, row.quantity), "").format(
            cycles=s["cycles"], time=s["time_ns"], payload=s["payload_bytes"], busy=s[f"{read}_busy_symbols"])
        out.append(checks.compare(t, row.Index, "value", model,
                                  f"Example {row.example} trace: {row.quantity} ({row.unit})", note,
                                  quantity=row.quantity, unit=row.unit))

    t = data.load("intel-324611-s4-6-s4-7-trace-figures")
    test3 = pcie_trace.parse(published_log(SYMBOL_LOGS[3]))
    intervals = pcie_trace.tlp_intervals(test3, "MWr")
    payload = [p.payload_bytes for p in test3.packets if p.name == "MWr"]
    interval_ns = pcie_trace.SYMBOL_NS * sum(intervals) / len(intervals)
    test4 = pcie_trace.parse(published_log(SYMBOL_LOGS[4]))
    reads = pcie_trace.read_timings(test4)
    # The conversion lost the first request's symbols: the trace shows requests 2 and 3 whole.
    seen = {2: reads[0], 3: reads[1]}
    ns = pcie_trace.SYMBOL_NS
    for row in t.itertuples():
        label = f"Test {row.test}: {row.quantity} #{row.occurrence} ({row.unit})"
        if row.test == 3:
            model = interval_ns if row.quantity == "TLP interval" else 1000 * (payload[0] / interval_ns)
        else:
            timing = seen.get(row.occurrence)  # each figure belongs to the read it follows
            key = {"read to completion time": "to_completion", "completion to next request": "to_next_request",
                   "request to request": "to_next_request_start", "read throughput": "to_next_request_start"}
            value = timing and timing[key[row.quantity]]
            if value is None:
                continue  # not in the trace as converted: see the log's header
            model = value * ns if row.unit == "ns" else 1000 * 4 / (value * ns)
        out.append(checks.compare(t, row.Index, "value", model, label,
                                  quantity=row.quantity, unit=row.unit))
    return out


# --- §3.5: every step of the worked examples and every tally of their traces ---------------------

#: The PCIe 1.x base specification's window for scheduling an SKP ordered set on an 8b/10b link, the shortest
#: and longest interval in symbol times (:data:`goodput.models.pcie.SKP_WINDOW_8B10B`).
SKP_SCHEDULE_SYMBOLS = pcie.SKP_WINDOW_8B10B
#: The tutorial's link (PCIe 1.1 x1, 3DW headers, no ECRC, no DLLP in the packet model) and the SKP
#: ordered set (bytes) and its interval (bytes) its examples count with: the shortest the window allows.
INTEL_LINK = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")
INTEL_PLP = {plp_bytes: pcie.SKP_SYMBOLS_8B10B, plp_interval: SKP_SCHEDULE_SYMBOLS[0]}

_DIRECTION_FIGURE = re.compile(r"^(?P<direction>read|write) direction: (?P<what>.+)$")
_PACKET_FIGURE = re.compile(r"^(?:(?P<name>\w+) )?(?P<what>TLPs|DLLPs|PLPs|size|payload)$")
#: How the text names packets, and the trace parser's names they stand for.
_TEXT_PACKETS = {"MWr": ("MWr",), "MRd": ("MRd",), "CplD": ("CplD",), "Ack": ("Ack",),
                 "UpdateFC_P": ("UpdateFC_P",), "UpdateFC": ("UpdateFC_P", "UpdateFC_NP", "UpdateFC_Cpl"),
                 "PLP": ("SKP",), "PLPs": ("SKP",)}


def farthest(values, printed: float) -> float:
    """Of several values a text states as one ("three DLLPs with 8 bytes each"), the one farthest from
    the printed value: the check holds all of them to it."""
    values = list(values)
    if not values:
        raise ValueError("no values to hold to the printed one")
    return max(values, key=lambda v: abs(v - printed))


#: Units of counts: a count is exact, so a printed count one off is not "rounding" (``exact=`` of
#: :func:`goodput.checks.check`).
COUNT_UNITS = ("packets", "cycles", "accesses", "bytes", "dwords")


def _packets(trace, direction: str | None, text_name: str) -> list[int]:
    """Symbol times of each complete packet the text's ``text_name`` stands for, in one direction or all."""
    found = pcie_trace.tally(trace)
    names = _TEXT_PACKETS[text_name]
    return [s for (d, n), sizes in found.items() if n in names and direction in (None, d) for s in sizes]


def _example_values(example: int) -> dict:
    """Every symbol of the §3.5 expressions with the number the example gives it."""
    e = INTEL_EXAMPLES[example]
    return {**pcie.link_substitution(INTEL_LINK), pcie.payload: e["size"], transactions: e["n"], **INTEL_PLP,
            completion_latency: e.get("t_c", 0.0), dllps_per_read: e.get("d", 0), cpu_time: 0}


def _calculated_figure(example: int, quantity: str):
    """The model's value of one step of a §3.5 worked example, and its expression: ``(value, (expr, values))``."""
    t = byte_time_expr()
    write = pcie.payload + pcie.framing + pcie.header + pcie.ecrc
    steps = posted_writes_expr() if INTEL_EXAMPLES[example]["kind"] == "write" else serial_reads_expr()
    expr = {
        "byte rate after the physical layer": 1000 * pcie.bit_rate / 8,
        "byte time": t,
        "TLP overhead": write - pcie.payload,
        "read request TLP overhead": _request(),
        "completion TLP overhead": _completion() - pcie.payload,
        "write TLP time": write * t,
        "read request time": _request() * t,
        "completion time": _completion() * t,
        "completion TLP size": _completion(),
        "read request TLP size": _request(),
        "DLLP size": pcie.dllp,
        "DLLP time": pcie.dllp * t,
        "PLP size": plp_bytes,
        "PLP time": plp_bytes * t,
        "PLPs over all writes": steps["plps"],
        "PLPs per direction": steps["plps"],
        "total payload": steps["payload_bytes"],
        "total transfer time": steps["time_ns"],
        "write direction bytes": steps["write_direction_bytes"],
    }.get(quantity)
    if expr is None:
        return None
    values = _example_values(example)
    values = {s: values[s] for s in expr.free_symbols}
    return float(expr.xreplace({s: sp.sympify(v) for s, v in values.items()})), (expr, values)


def _dllps_per(trace, tlp: str) -> float:
    """DLLPs the trace shows in the other direction per complete TLP named ``tlp`` (the text's count)."""
    tlps = [p for p in trace.packets if p.name == tlp and p.complete]
    if not tlps:
        raise ValueError(f"{trace.path}: no complete {tlp} to count DLLPs for")
    back = [p for p in trace.packets if p.kind == "DLLP" and p.direction != tlps[0].direction]
    return len(back) / len(tlps)


def _plp_note(trace) -> str:
    """Where a trace's SKP ordered sets are, in words."""
    write, _ = trace_directions(trace)
    return "SKP ordered sets in the trace: {}.".format(", ".join(
        f"{len(_packets(trace, d, 'PLP'))} in the {'write' if d == write else 'read'} direction"
        for d in trace.directions))


def _trace_figure(trace, quantity: str, printed: float, record_length: float | None):
    """The value of one figure the text reads off a §3.5 trace, and a note (may be empty)."""
    write, read = trace_directions(trace)
    s = pcie_trace.summary(trace)
    if quantity == "record length":
        return trace.cycles, ("The trace numbers its cycles {first} to {last}: {cycles} symbol times, as the "
                              "shares below count them.").format(first=trace.first_cycle, last=trace.last_cycle,
                                                                 cycles=trace.cycles)
    if quantity == "record duration":
        # the parts the text names: its own count of cycles times one symbol time
        note = ""
        if record_length != trace.cycles:
            note = ("{length:g} x {ns:g} ns is {{model:g}} ns. The trace's {cycles} cycles take {time:g} ns; "
                    "{{published}} ns is {span} x {ns:g} ns, the number of its last cycle less that of its "
                    "first.").format(length=record_length, ns=pcie_trace.SYMBOL_NS, cycles=trace.cycles,
                                     time=s["time_ns"], span=trace.last_cycle - trace.first_cycle)
        return record_length * pcie_trace.SYMBOL_NS, note
    if quantity == "payload":
        return s["payload_bytes"], ""
    if quantity == "read to completion time":
        times = [r["to_completion"] * pcie_trace.SYMBOL_NS for r in pcie_trace.read_timings(trace)
                 if r["to_completion"] is not None]
        return farthest(times, printed), "From the end of each read request to the start of its completion."
    if quantity == "PLPs in each direction":
        return min(len(_packets(trace, d, "PLP")) for d in trace.directions), _plp_note(trace)
    m = _DIRECTION_FIGURE.match(quantity)
    if m is None:
        raise ValueError(f"no rule for the trace figure {quantity!r}")
    direction = write if m["direction"] == "write" else read
    what = m["what"]
    if what == "bytes of packets":
        return s[f"{direction}_busy_symbols"], ("The {d} direction's packets: {p}.".format(
            d=m["direction"], p=", ".join(s[f"{direction}_packets"])))
    if what == "bytes of the record":
        return trace.cycles, ""
    p = _PACKET_FIGURE.match(what)
    if p is None:
        raise ValueError(f"no rule for the trace figure {quantity!r}")
    name = p["name"] or "PLP"
    if p["what"] == "PLPs":
        return len(_packets(trace, direction, name)), _plp_note(trace)
    if p["what"] in ("TLPs", "DLLPs"):
        return len(_packets(trace, direction, name)), ""
    if p["what"] == "payload":
        return farthest([q.payload_bytes for q in trace.packets if q.direction == direction
                         and q.name in _TEXT_PACKETS[name] and q.complete], printed), ""
    sizes = _packets(trace, direction, name)
    if sizes:
        return farthest(sizes, printed), ""
    return farthest(_packets(trace, None, name), printed), (
        f"No {name} in this direction of the trace; the size is that of the one in the other direction.")


def gap_constraints(trace, gaps) -> int:
    """How many printed numbers one printed figure verifies when the text states it for several ``gaps`` of a
    trace (pairs of cycles, one gap each), all held to it: the rank of the equations the gaps make.

    Each gap is read off the cycle numbers as printed on its two sides. :func:`goodput.analysis.pcie_analyzer.framing_checks`
    ties each number of a run between ``...`` lines to the first of the run, so an equation relates the printed
    figure and the first numbers of the runs its ends lie in; the unknowns are the figure and those first
    numbers. One gap verifies the figure alone; three gaps that chain four runs (Example 2's request-to-completion
    times, each across an elision) are three equations, and verify the figure and two of the first cycle numbers
    after an elision. A gap inside one run adds nothing a run's framing does not already fix."""
    def run(cycle: int) -> int:
        found = [i for i, (first, last, *_) in enumerate(trace.runs) if first <= cycle <= last]
        if len(found) != 1:
            raise ValueError(f"{trace.path}: cycle {cycle} is in no run of the trace")
        return found[0]

    rows = []
    for a, b in gaps:
        row = [0] * (len(trace.runs) + 1)
        row[0] = -1                 # the printed figure
        row[1 + run(b)] += 1        # the first cycle number of the run the gap ends in
        row[1 + run(a)] -= 1        # and of the one it starts in (the two cancel inside one run)
        rows.append(row)
    return int(np.linalg.matrix_rank(np.array(rows, dtype=float))) if rows else 0


#: What a §3.5 figure is checked against when it is neither a step of the model nor a trace figure:
#: the DLLPs the trace shows per TLP of each kind.
_DLLP_FIGURES = {"DLLPs per write TLP": "MWr", "DLLPs per read request": "MRd", "DLLPs per completion": "CplD"}


def _compare_cell(table, index, model: float, label: str, note: str = "", **how):
    """:func:`goodput.checks.compare` of cell (``index``, ``value``) of a §3.5 table, for a number the document
    prints with its thousands split by a space (``"70 800"``, two numbers as the census counts them) too: it
    is checked as the one number it is, and verifies each part."""
    text = table.attrs["printed"]["value"][index]
    parts = text.split()
    if len(parts) == 1:
        return checks.compare(table, index, "value", model, label, note, **how)
    prov = table.attrs["provenance"]
    quantity, unit, formula = how.pop("quantity"), how.pop("unit"), how.pop("formula", None)
    return checks.check(prov["document"], prov["table"], label, quantity, unit, "".join(parts), model,
                        note, prov["resource"], formula, cell=f"{index} | value", verifies=len(parts), **how)


def example_figure_checks(table, traces: dict) -> list:
    """Every step of Intel 324611 §3.5's worked examples against the model (``calculated``), and every
    figure the text reads off their traces against the parsed trace (``prose``).

    ``table`` is ``intel-324611-s3-5-figures`` as :func:`goodput.core.data.load` gives it (or a copy), ``traces``
    the parsed symbol traces by example number.
    """
    out = []
    lengths = {r.example: r.value for r in table.itertuples() if r.quantity == "record length"}
    for row in table.itertuples():
        label = f"Example {row.example}{' trace' if row.basis == 'trace' else ''}: {row.quantity} ({row.unit})"
        trace = traces[row.example]
        how = {"quantity": row.quantity, "unit": row.unit, "exact": row.unit in COUNT_UNITS}
        if row.quantity in _DLLP_FIGURES:
            tlp = _DLLP_FIGURES[row.quantity]
            out.append(_compare_cell(
                table, row.Index, _dllps_per(trace, tlp), label,
                f"DLLPs the other way per {tlp} in the example's trace.", kind="prose", **how))
            continue
        if row.basis == "calculation":
            found = _calculated_figure(row.example, row.quantity)
            if found is None:
                raise ValueError(f"no model for the §3.5 figure {row.quantity!r}")
            value, formula = found
            out.append(_compare_cell(table, row.Index, value, label, formula=formula, **how))
            continue
        value, note = _trace_figure(trace, row.quantity, float(row.value), lengths.get(row.example))
        if row.quantity == "read to completion time":
            gaps = [(r["request_last"], r["request_last"] + r["to_completion"] + 1) for r in pcie_trace.read_timings(trace)
                    if r["to_completion"] is not None]
            how["verifies"] = max(1, gap_constraints(trace, gaps))
            if how["verifies"] > 1:
                note += (f" The {len(gaps)} gaps span elisions of the trace: held to one printed figure they verify "
                         f"{how['verifies']} printed numbers, the figure and first cycle numbers after an elision.")
        out.append(_compare_cell(table, row.Index, value, label, note, kind="prose", **how))
    return out


@checks.provider
def example_figure_source_checks():
    """Intel 324611 §3.5: every step of the two worked examples and every tally of their traces."""
    traces = {k: pcie_trace.parse(published_log(SYMBOL_LOGS[k])) for k in INTEL_EXAMPLES}
    return example_figure_checks(data.load("intel-324611-s3-5-figures"), traces)


#: The operands of the §3.5 formulas that repeat a step of the model, by the name the operands table gives
#: them and the step of :func:`_calculated_figure` they repeat.
_STEP_OPERANDS = {"byte time": "byte time", "write TLP time": "write TLP time", "DLLP time": "DLLP time",
                  "PLP time": "PLP time", "DLLP size": "DLLP size", "PLP size": "PLP size",
                  "read request time": "read request time", "completion time": "completion time",
                  "total payload": "total payload", "total transfer time": "total transfer time",
                  "PLPs": "PLPs over all writes"}
#: The operands that repeat what an example is for (its count, size and latency), as the model's symbols.
_SETTING_OPERANDS = {"payload size": pcie.payload, "writes": transactions, "reads": transactions,
                     "completion TLPs": transactions, "completion latency": completion_latency,
                     "DLLPs waited for": transactions * dllps_per_read}
_DLLP_OPERAND = re.compile(r"^(?P<dllp>Ack|UpdateFC) DLLPs per (?P<tlp>write TLP|read request|completion)$")
_TLP_NAMES = {"write TLP": "MWr", "read request": "MRd", "completion": "CplD"}


def _operand(example: int, operand: str, trace, printed: float) -> tuple[float, str, str, tuple | None]:
    """The value of one operand of a §3.5 formula, the kind of its check, a note and its formula (or None)."""
    if operand in _STEP_OPERANDS:
        value, formula = _calculated_figure(example, _STEP_OPERANDS[operand])
        return value, "calculated", f"The example's {operand}, as the model gives it.", formula
    if operand in _SETTING_OPERANDS:
        expr = _SETTING_OPERANDS[operand]
        values = {s: v for s, v in _example_values(example).items() if s in expr.free_symbols}
        value = float(expr.xreplace({s: sp.sympify(v) for s, v in values.items()}))
        return value, "consistency", f"The example's {operand}, as its statement gives it.", (expr, values)
    if operand in ("shortest SKP interval", "longest SKP interval"):
        which = 0 if operand.startswith("shortest") else 1
        return (float(SKP_SCHEDULE_SYMBOLS[which]), "prose",
                "The PCIe 1.x base specification schedules an SKP ordered set every {lo} to {hi} symbol times "
                "(a byte each); the example counts its PLPs with the shortest.".format(
                    lo=SKP_SCHEDULE_SYMBOLS[0], hi=SKP_SCHEDULE_SYMBOLS[1]), None)
    m = _DLLP_OPERAND.match(operand)
    if m is not None:
        tlp = _TLP_NAMES[m["tlp"]]
        tlps = [p for p in trace.packets if p.name == tlp and p.complete]
        if not tlps:
            raise ValueError(f"{trace.path}: no complete {tlp} to count {m['dllp']} DLLPs for")
        other = next(d for d in trace.directions if d != tlps[0].direction)
        return (len(_packets(trace, other, m["dllp"])) / len(tlps), "prose",
                f"{m['dllp']} DLLPs the other way per {tlp} in the example's trace.", None)
    if operand == "read request payload":
        return (farthest([p.payload_bytes for p in trace.packets if p.name == "MRd" and p.complete], printed),
                "prose", "The payload of the MRd requests in the example's trace.", None)
    if operand == "directions":
        return (float(len(trace.directions)), "prose", "The directions the example's trace records.", None)
    if operand == "record duration":
        return (trace.cycles * pcie_trace.SYMBOL_NS, "prose",
                "The trace's {n} cycles (numbered {a} to {b}), {ns:g} ns each; the number of its last cycle less "
                "that of its first would give {span:g} ns.".format(
                    n=trace.cycles, a=trace.first_cycle, b=trace.last_cycle, ns=pcie_trace.SYMBOL_NS,
                    span=(trace.last_cycle - trace.first_cycle) * pcie_trace.SYMBOL_NS), None)
    raise ValueError(f"no rule for the §3.5 operand {operand!r}")


def example_operand_checks(table, traces: dict) -> list:
    """Every operand printed inside a formula of Intel 324611 §3.5's worked examples against what it repeats:
    a step of the model (``calculated``), what the example is for (``consistency``), a tally of the example's
    trace or the specification's SKP window (``prose``).

    ``table`` is ``intel-324611-s3-5-operands`` as :func:`goodput.core.data.load` gives it (or a copy), ``traces``
    the parsed symbol traces by example number.
    """
    out = []
    for row in table.itertuples():
        label = f"Example {row.example}: {row.step}, operand {row.operand}" + (
            f" ({row.occurrence})" if row.occurrence > 1 else "")
        value, kind, note, formula = _operand(row.example, row.operand, traces[row.example],
                                              float(row.value))
        out.append(_compare_cell(table, row.Index, value, label, note,
                                  quantity=row.operand, unit=row.unit, formula=formula, kind=kind,
                                  exact=row.unit in (*COUNT_UNITS, "directions")))
    return out


@checks.provider
def example_operand_source_checks():
    """Intel 324611 §3.5: every operand the worked formulas repeat."""
    traces = {k: pcie_trace.parse(published_log(SYMBOL_LOGS[k])) for k in INTEL_EXAMPLES}
    return example_operand_checks(data.load("intel-324611-s3-5-operands"), traces)


def s3_3_checks(table) -> list:
    """Intel 324611 §3.3's largest maximum payload size (``intel-324611-s3-3``) against the largest of the
    maximum payload sizes the packet model allows (:data:`goodput.models.pcie.SIZES_POW2`; ``prose``)."""
    rules = {"largest maximum payload size the PCIe standard defines": (
        float(max(pcie.SIZES_POW2)), "The largest of the Max_Payload_Size values: "
        + ", ".join(str(s) for s in pcie.SIZES_POW2) + " bytes.")}
    out = []
    for row in table.itertuples():
        if row.quantity not in rules:
            raise ValueError(f"no rule for the §3.3 figure {row.quantity!r}")
        value, note = rules[row.quantity]
        out.append(checks.compare(table, row.Index, "value", value, row.quantity, note,
                                  quantity=row.quantity, unit=row.unit, kind="prose", exact=True))
    return out


@checks.provider
def s3_3_source_checks():
    """Intel 324611 §3.3: the largest payload the standard allows."""
    return s3_3_checks(data.load("intel-324611-s3-3"))


def s3_4_checks(table, traces: dict) -> list:
    """Intel 324611 §3.4's sizes and SKP interval (``intel-324611-s3-4``): a DLLP's size against the packet
    model (``calculated``); a PLP's against the SKP ordered sets of the tutorial's symbol traces (``traces``,
    parsed, by number; ``prose``); the interval against the specification's window
    (:data:`SKP_SCHEDULE_SYMBOLS`; ``prose``)."""
    dllp = {pcie.dllp: pcie.link_substitution(INTEL_LINK)[pcie.dllp]}
    skp_sizes = [s for t in traces.values() for s in _packets(t, None, "PLP")]
    if not skp_sizes:
        raise ValueError("no complete SKP ordered set in the symbol traces to size a PLP by")
    window = "The PCIe 1.x base specification schedules an SKP ordered set every {lo} to {hi} symbol times.".format(
        lo=SKP_SCHEDULE_SYMBOLS[0], hi=SKP_SCHEDULE_SYMBOLS[1])
    out = []
    printed = table.attrs["printed"]["value"]
    for row in table.itertuples():
        how = {"quantity": row.quantity, "unit": row.unit, "exact": True}
        if row.quantity == "DLLP size":
            out.append(checks.compare(table, row.Index, "value", float(dllp[pcie.dllp]),
                                      row.quantity, "A DLLP with its framing, in the packet model.",
                                      formula=(pcie.dllp, dllp), **how))
        elif row.quantity.startswith("PLP size"):
            out.append(checks.compare(
                table, row.Index, "value", farthest(skp_sizes, float(printed[row.Index])),
                row.quantity, f"The symbols of each SKP ordered set of the tutorial's traces ({len(skp_sizes)}).",
                kind="prose", **how))
        elif row.quantity in ("shortest SKP interval", "longest SKP interval"):
            which = 0 if row.quantity.startswith("shortest") else 1
            out.append(checks.compare(table, row.Index, "value", float(SKP_SCHEDULE_SYMBOLS[which]),
                                      row.quantity, window, kind="prose", **how))
        else:
            raise ValueError(f"no rule for the §3.4 figure {row.quantity!r}")
    return out


@checks.provider
def s3_4_source_checks():
    """Intel 324611 §3.4: the sizes of the packets that carry no data, and how often a PLP is due."""
    return s3_4_checks(data.load("intel-324611-s3-4"),
                       {k: pcie_trace.parse(published_log(name)) for k, name in SYMBOL_LOGS.items()})


# --- §4: every AHB log against itself ---------------------------------------------------------------

#: Every AHB trace log of Intel 324611, by test: those with a statistic block and the prefetch trace.
AHB_TRACES = {**AHB_LOGS, "Test 15 prefetch": "intel-324611-test15-prefetch-ahb.log"}

#: Each statistic of a block and the statistic it must not exceed (``"<="``) or fall below (``">="``).
_ORDER = {"min elapsed Time": ("<=", "average elapsed Time"), "max elapsed Time": (">=", "average elapsed Time"),
          "min throughput": ("<=", "average throughput"), "max throughput": (">=", "average throughput")}
#: Each interval of a block and the throughput printed from it (the shortest interval is the highest rate).
_RATE_OF = {"average elapsed Time": "average throughput", "min elapsed Time": "max throughput",
            "max elapsed Time": "min throughput"}


#: The value the test program the document prints for each write test stores in the ``k``-th 32-bit word
#: of the AHB RAM: ``RAM[i] = i`` (Tests 1 and 3), ``p64[i] = 1.2`` (Test 10: the IEEE 754 double 1.2,
#: its low word first on this little-endian CPU).
TEST_PROGRAM_DOUBLE = 1.2
_DOUBLE_WORDS = struct.unpack("<II", struct.pack("<d", TEST_PROGRAM_DOUBLE))
WRITTEN_WORDS = {"Test 1": lambda k: k, "Test 3": lambda k: k, "Test 10": lambda k: _DOUBLE_WORDS[k % 2]}
_WRITTEN_CODE = {"Test 1": "RAM[0] = 0; RAM[1] = 1", "Test 3": "RAM[i] = i",
                 "Test 10": f"p64[i] = {TEST_PROGRAM_DOUBLE:g} (a double, low word first)"}


def _data_checks(test: str, name: str, trace: ahb_trace.AhbTrace) -> list:
    """Each word a write test's AHB log shows written against the value the test's code, as the document
    prints it (:data:`WRITTEN_WORDS`), stores at that word of the RAM (``prose``)."""
    if test not in WRITTEN_WORDS:
        return []
    a = trace.accesses
    base = int(a["addr"][0])
    return [checks.check(
        "Intel 324611", f"{test} trace", f"access {i + 1} (line {a['line'][i]})", "data written", "",
        a["data_text"][i], WRITTEN_WORDS[test]((int(a["addr"][i]) - base) // ahb_trace.BYTES_PER_ACCESS),
        f"The section's code, {_WRITTEN_CODE[test]}, at word {(int(a['addr'][i]) - base) // ahb_trace.BYTES_PER_ACCESS}.",
        f"logs/published/{name}", kind="prose", exact=True) for i in range(len(a))]


#: The read tests whose AHB logs read back the words a write test's log shows written at the same addresses.
READ_BACK = {"Test 2": "Test 1", "Test 11": "Test 10"}


def read_back_checks(reads: dict) -> list:
    """Each word a read test's AHB log shows read against the word the matching write test's log shows
    written at that address (:data:`READ_BACK`; ``consistency``); ``reads`` are the parsed AHB logs by test."""
    out = []
    for test, writer in READ_BACK.items():
        a, w = reads[test].accesses, reads[writer].accesses
        written = dict(zip(w["addr"], w["data"]))
        for i in range(len(a)):
            if int(a["addr"][i]) not in written:
                continue
            out.append(checks.check(
                "Intel 324611", f"{test} trace", f"access {i + 1} (line {a['line'][i]})", "data read",
                "", a["data_text"][i], written[int(a["addr"][i])],
                f"The word the {writer} log shows written at {a['addr_text'][i]}.",
                f"logs/published/{AHB_TRACES[test]}", kind="consistency", exact=True))
    return out


@checks.provider
def read_back_source_checks():
    """Intel 324611 §4.5 and §4.13: the words the read tests read, against those the write tests wrote."""
    return read_back_checks({test: ahb_trace.parse(published_log(AHB_TRACES[test]))
                             for pair in READ_BACK.items() for test in pair})


def _address_checks(test: str, name: str, trace: ahb_trace.AhbTrace) -> list:
    """The addresses of an AHB log against each other (``consistency``): the test program reads or writes
    consecutive 32-bit words, so each run of accesses (the whole log; in the prefetch trace, each burst of
    accesses one or two ticks apart) goes up by :data:`goodput.logs.ahb_trace.BYTES_PER_ACCESS` an access:
    the run's last address against its first, verifying every address after the first."""
    a = trace.accesses
    sizes = ahb_trace.bursts(trace)[0] if "prefetch" in test else [len(a)]
    out, first = [], 0
    for size in sizes:
        last = first + size - 1
        if size > 1:
            out.append(checks.check(
                "Intel 324611", f"{test} trace", f"addresses of accesses {first + 1}-{last + 1}",
                "address of the last access", "", a["addr_text"][last],
                int(a["addr"][first]) + ahb_trace.BYTES_PER_ACCESS * (size - 1),
                f"{size} consecutive words from {a['addr'][first]:#010x}.", f"logs/published/{name}",
                kind="consistency", exact=True, verifies=size - 1))
        first = last + 1
    return out


def ahb_consistency_checks(test: str, name: str, trace: ahb_trace.AhbTrace) -> list:
    """An AHB log against itself (``consistency``): the first access's delay against none (no access before
    it), each other printed delay against the difference of its timestamps; the smallest delay against one AHB clock period; in the statistic block, min <= average
    <= max, and each interval against the throughput printed from it (``4 k`` bytes per TLP of ``k``
    accesses)."""
    out = []
    resource = f"logs/published/{name}"
    where = f"{test} trace"
    a = trace.accesses
    from_ticks = ahb_trace.delays_from_timestamps(trace)
    out.append(checks.check(
        "Intel 324611", where, f"access 1 (line {a['line'][0]})", "delay since the previous access",
        "ns", a["delay_text"][0], 0.0, "No access comes before the first: the log has nothing to time it from.",
        resource, kind="consistency", exact=True))
    for i in range(1, len(a)):
        # the delay and its access's timestamp (the first check also the first timestamp): a wrong timestamp
        # makes its own delay and the next one disagree with the timestamps
        out.append(checks.check(
            "Intel 324611", where, f"access {i + 1} (line {a['line'][i]})",
            "delay since the previous access", "ns", a["delay_text"][i], from_ticks[i],
            "Timestamps {t0} and {t1}, {tick:g} ns a tick.".format(t0=a["ticks"][i - 1], t1=a["ticks"][i],
                                                                    tick=ahb_trace.TICK_NS),
            resource, kind="consistency", verifies=3 if i == 1 else 2))
    out += _address_checks(test, name, trace) + _data_checks(test, name, trace)
    shortest = min(range(1, len(a)), key=lambda i: a["delay_ns"][i])
    out.append(checks.check(
        "Intel 324611", where, f"shortest delay (access {shortest + 1})",
        "delay since the previous access", "ns", a["delay_text"][shortest], ahb_trace.TICK_NS,
        "No access follows another sooner than one period of the 100 MHz AHB clock that stamps them.",
        resource, kind="consistency", relation=">="))
    if trace.statistic_line is None:
        return out
    p = trace.printed
    row = f"{trace.statistic_accesses} accesses"
    where = f"{test} statistic block"
    out.append(checks.check(
        "Intel 324611", where, row, "AHB accesses in the statistic", "", str(trace.statistic_accesses),
        len(a), "The accesses the log lists above the block.", resource, kind="consistency", exact=True))
    out.append(checks.check(
        "Intel 324611", where, row, "AHB accesses per TLP", "", str(trace.accesses_per_tlp),
        TLP_PAYLOAD_BYTES[test] / ahb_trace.BYTES_PER_ACCESS,
        f"A {TLP_PAYLOAD_BYTES[test]}-byte payload in {ahb_trace.BYTES_PER_ACCESS}-byte AHB accesses.", resource,
        kind="calculated", exact=True))
    tlp_bytes = trace.accesses_per_tlp * ahb_trace.BYTES_PER_ACCESS
    for key, (relation, other) in _ORDER.items():
        unit = "ns" if "Time" in key else "B/s"
        out.append(checks.check("Intel 324611", where, row, key, unit, p[key], float(p[other]),
                                f"Against the block's {other} ({p[other]}).", resource,
                                kind="consistency", relation=relation))
    for key, rate in _RATE_OF.items():
        out.append(checks.check(
            "Intel 324611", where, f"{row}: from its {rate}", key, "ns", p[key],
            ahb_trace.time_from_rate(tlp_bytes, float(p[rate])),
            f"{tlp_bytes} bytes per TLP at the block's {rate} ({p[rate]} B/s).", resource, kind="consistency"))
    return out


@checks.provider
def ahb_consistency_source_checks():
    """Every AHB log of Intel 324611 against its own timestamps, clock and statistics."""
    return [c for test, name in AHB_TRACES.items()
            for c in ahb_consistency_checks(test, name, ahb_trace.parse(published_log(name)))]


def _chunk_starts(trace: ahb_trace.AhbTrace) -> list[int]:
    """The index of the first access of each chunk (burst) of the prefetch trace."""
    sizes = ahb_trace.bursts(trace)[0]
    return [sum(sizes[:k]) for k in range(len(sizes))]


def prefetch_chunk_checks(trace: ahb_trace.AhbTrace, test1: ahb_trace.AhbTrace, table) -> list:
    """Where each chunk of §4.17's prefetch trace (``trace``) starts (``consistency``): the first at the
    AHB RAM's first word, where the Test 1 log (``test1``) writes ``RAM[0]``, since the trace is of a read
    of that address; each other at a whole multiple of its own length, since a cache-line fill reads one
    aligned line. And the two addresses the text names (``table``, ``intel-324611-s4-17-prefetch``) against
    the chunks the trace reads out of order (``prose``)."""
    a = trace.accesses
    sizes = ahb_trace.bursts(trace)[0]
    starts = _chunk_starts(trace)
    resource = "logs/published/intel-324611-test15-prefetch-ahb.log"
    out = [checks.check(
        "Intel 324611", "Test 15 prefetch trace", f"chunk 1 (line {a['line'][0]})",
        "first address of the chunk", "", a["addr_text"][0], int(test1.accesses["addr"][0]),
        "The AHB RAM's first word, RAM[0] of the Test 1 log: the trace is of a read of the first address.",
        resource, kind="consistency", exact=True)]
    for k, (first, size) in enumerate(zip(starts, sizes)):
        if k == 0:
            continue
        line_bytes = size * ahb_trace.BYTES_PER_ACCESS
        address = int(a["addr"][first])
        out.append(checks.check(
            "Intel 324611", "Test 15 prefetch trace", f"chunk {k + 1} (line {a['line'][first]})",
            "first address of the chunk", "", a["addr_text"][first], address - address % line_bytes,
            f"A cache-line fill reads one aligned line: a chunk of {line_bytes} bytes starts at a multiple of "
            f"{line_bytes}.", resource, kind="consistency", exact=True))
    chunk = [int(a["addr"][i]) for i in starts]
    later_lower = [(x, y) for i, x in enumerate(chunk) for y in chunk[i + 1:] if y < x]
    printed = table.attrs["printed"]["value"]
    named = {r.quantity: r.Index for r in table.itertuples()}
    before = printed[named["chunk read before a chunk at a lower address"]]
    pair = next((p for p in later_lower if p[0] == checks.printed_value(before)),
                later_lower[0] if later_lower else (-1, -1))
    note = ("The chunks of the prefetch trace start at " + ", ".join(f"{x:#010x}" for x in chunk)
            + (": none is read before a lower one." if not later_lower else "."))
    for quantity, value in (("chunk read before a chunk at a lower address", pair[0]),
                            ("the lower chunk read after it", pair[1])):
        out.append(checks.compare(table, named[quantity], "value", float(value),
                                  f"§4.17: {quantity}", note, quantity=quantity, kind="prose", exact=True))
    return out


@checks.provider
def prefetch_chunk_source_checks():
    """Intel 324611 §4.17: where each chunk of the prefetch trace starts, and the chunks read out of order."""
    return prefetch_chunk_checks(ahb_trace.parse(published_log(AHB_TRACES["Test 15 prefetch"])),
                                 ahb_trace.parse(published_log(AHB_TRACES["Test 1"])),
                                 data.load("intel-324611-s4-17-prefetch"))


#: The menu entries of §4.3 whose access width an AHB log shows: the headings by their first test with a log,
#: and the CPU-timed tests by the test whose accesses their section says they make (each with why).
_MENU_LOGS = {"32 bit Accesses": "Test 1", "64 bit Accesses": "Test 10", "Test 10": "Test 10", "Test 11": "Test 11",
              "Test 8": "Test 3", "Test 9": "Test 2", "Test 12": "Test 10", "Test 13": "Test 11"}
_MENU_LOG_WHY = {
    "Test 8": "§4.10: Test 8 makes Test 3's writes and only times them in the CPU",
    "Test 9": "§4.11: Test 9 makes the reads of Tests 4 and 7 (single reads of a RAM word, as Test 2's are) "
              "and only times them in the CPU",
    "Test 12": "§4.14: Test 12 makes Test 10's writes and only times them in the CPU",
    "Test 13": "§4.15: Test 13 reads doubles, each a TLP that ends up as two AHB accesses, as Test 11 does",
}


def s4_3_menu_checks(menu, ahb: dict) -> list:
    """The access widths §4.3's menu (``menu``, ``intel-324611-s4-3-menu``) prints, where an AHB log shows the
    test's accesses (``ahb``, parsed by test): against the log's AHB accesses per TLP of 32-bit AHB words
    (``consistency``)."""
    out = []
    for row in menu.itertuples():
        if row.entry not in _MENU_LOGS:
            continue
        test = _MENU_LOGS[row.entry]
        out.append(checks.compare(
            menu, row.Index, "access_bits", float(_access_bits(ahb[test])), f"§4.3: {row.entry}",
            (f"{_MENU_LOG_WHY[row.entry]}; t" if row.entry in _MENU_LOG_WHY else "T")
            + f"he {test} log: {ahb[test].accesses_per_tlp} AHB accesses of {ahb_trace.BYTES_PER_ACCESS} bytes per TLP.",
            quantity="bits an access", unit="bits", kind="consistency", exact=True))
    return out


@checks.provider
def s4_3_menu_source_checks():
    """Intel 324611 §4.3: the access widths the test program's menu prints, against the AHB logs."""
    return s4_3_menu_checks(data.load("intel-324611-s4-3-menu"),
                            {t: ahb_trace.parse(published_log(n)) for t, n in AHB_LOGS.items()})


#: The AHB log whose first access shows where RAM[0] of the AHB RAM lies: Test 1 writes RAM[0] first.
RAM_BASE_LOG = "Test 1"


def ram_base_checks(logs: dict) -> list:
    """The first address of each AHB log (``logs``: parsed, by test) against the first of :data:`RAM_BASE_LOG`'s
    (``consistency``): each test's code, as the document prints it, starts at RAM[0] (``RAM[i]``, ``p64[i]`` from
    ``i=0``), so every log starts at the one address of the AHB RAM's first word. The document prints that
    address in no other place, so Test 1's stays the reference."""
    base = logs[RAM_BASE_LOG].accesses
    out = []
    for test, trace in logs.items():
        a = trace.accesses
        if test == RAM_BASE_LOG or not len(a):
            continue
        out.append(checks.check(
            "Intel 324611", f"{test} trace", f"access 1 (line {a['line'][0]})", "address of RAM[0]", "",
            a["addr_text"][0], int(base["addr"][0]),
            f"The test's loop starts at RAM[0], which the {RAM_BASE_LOG} log shows at {base['addr_text'][0]} "
            f"(line {base['line'][0]}).", f"logs/published/{AHB_TRACES[test]}", kind="consistency", exact=True))
    return out


@checks.provider
def ram_base_source_checks():
    """Intel 324611 §4.5-§4.13: the first address of each AHB log, against the RAM[0] of Test 1's."""
    return ram_base_checks({t: ahb_trace.parse(published_log(n)) for t, n in AHB_LOGS.items()})


#: The bit of an AHB log's flags that marks a write: the logs pair a set bit 0 with WRITE, a clear one with READ.
WRITE_FLAG = 0x1


def flag_checks(logs: dict) -> list:
    """Each access's flags in the AHB logs (``logs``: parsed, by test) against the others' (``consistency``):
    the trace module marks every access alike but for :data:`WRITE_FLAG`, set for a write; the word they share
    is the one most of the accesses of all logs carry. The document calls the flags irrelevant, so this holds
    them only to each other and to the direction printed beside them."""
    words = [int(f) & ~WRITE_FLAG for t in logs.values() for f in t.accesses["flags"] if f >= 0]
    if not words:
        return []
    shared = max(sorted(set(words)), key=words.count)
    out = []
    for test, trace in logs.items():
        a = trace.accesses
        for i in range(len(a)):
            if a["flags"][i] < 0:
                continue
            write = a["direction"][i] == "WRITE"
            out.append(checks.check(
                "Intel 324611", f"{test} trace", f"access {i + 1} (line {a['line'][i]})", "flags", "",
                a["flags_text"][i], shared | (WRITE_FLAG if write else 0),
                f"The flags every access of the AHB logs carries, {shared:#06x}, with bit 0 "
                f"{'set for a WRITE' if write else 'clear for a READ'}.",
                f"logs/published/{AHB_TRACES[test]}", kind="consistency", exact=True))
    return out


@checks.provider
def flag_source_checks():
    """Intel 324611 §4.4-§4.13: the flags of every AHB access, against the others' and the access's direction."""
    return flag_checks({t: ahb_trace.parse(published_log(n)) for t, n in AHB_LOGS.items()})


# --- §4: the figures the text derives from its settings, logs and traces -----------------------------

#: Settings §4 states: the AHB trace FIFO of §4.2's design and the accesses §4.9's design records.
TRACE_FIFO_ACCESSES = 8192
S4_9_TRACE_ACCESSES = 65536


def _tlp_gaps(trace, name: str) -> list[int]:
    """Idle symbol times between one complete TLP named ``name`` and the next."""
    tlps = [p for p in trace.packets if p.kind == "TLP" and p.name == name and p.complete]
    return [b.first_cycle - a.last_cycle - 1 for a, b in zip(tlps, tlps[1:])]


def _mbyte_s(bytes_per_s: float) -> float:
    return bytes_per_s / 1e6


#: The AHB log whose address step each section's 'bytes per access' is held to: §4.7's Test 4 has none, and
#: its reads step as Test 2's do.
_S4_STEP_LOG = {"4.4": "Test 1", "4.6": "Test 3", "4.7": "Test 2"}
#: The AHB log of the test each section states the TLP payload of.
_S4_PAYLOAD_LOG = {"4.4": "Test 1", "4.12": "Test 10", "4.13": "Test 11"}
#: The sections whose log the text says is of a run of some number of iterations, and the log's test.
_S4_RUN_SHOWN = {"4.12": "Test 10", "4.13": "Test 11"}
#: The direction of each test of §4.3's menu that an AHB log shows.
_LOG_DIRECTION = {"Test 1": "write", "Test 2": "read", "Test 3": "write", "Test 10": "write", "Test 11": "read"}


def _access_bits(trace: ahb_trace.AhbTrace) -> int:
    """The width of the CPU's accesses an AHB log shows: its accesses per TLP of 32-bit AHB words."""
    return trace.accesses_per_tlp * ahb_trace.BYTES_PER_ACCESS * 8


def _per_iteration(menu, test: str) -> int:
    """The accesses one iteration of ``test``'s loop makes, by §4.3's menu (``(64 x n)``: 64; ``n``: 1)."""
    row = menu[menu["entry"] == test]
    if len(row) != 1:
        raise ValueError(f"§4.3's menu has no entry {test!r}")
    count = row["accesses_per_iteration"].iloc[0]
    return 1 if np.isnan(count) else int(count)


#: The entry of §4.3's menu that turns the log file on.
_LOG_FILE_ENTRY = "Activate: log file generation"


def _menu_key(menu, entry: str) -> float:
    """The key §4.3's menu prints in brackets before ``entry``."""
    row = menu[menu["entry"] == entry]
    if len(row) != 1 or np.isnan(row["key"].iloc[0]):
        raise ValueError(f"§4.3's menu has no key for the entry {entry!r}")
    return float(row["key"].iloc[0])


def _iterations(trace: ahb_trace.AhbTrace, menu, test: str) -> float:
    """The iterations of ``test``'s loop an AHB log with a statistic block shows."""
    return trace.statistic_accesses / trace.accesses_per_tlp / _per_iteration(menu, test)


def _loop_accesses(trace: ahb_trace.AhbTrace, menu, iterations: float) -> dict[str, float]:
    """The AHB accesses each test of §4.3's menu of the log's width and direction makes in ``iterations``."""
    log_test = next(t for t, n in AHB_LOGS.items() if published_log(n).name == Path(trace.path).name)
    return {r.entry: iterations * _per_iteration(menu, r.entry) * trace.accesses_per_tlp
            for r in menu.itertuples() if not np.isnan(r.test) and r.access_bits == _access_bits(trace)
            and r.direction == _LOG_DIRECTION[log_test]}


def _tests_giving(trace: ahb_trace.AhbTrace, menu, iterations: float) -> list[float]:
    """The tests of §4.3's menu of the log's width and direction whose loop, run ``iterations`` times, makes
    the accesses its statistic block counts (-1 if none does)."""
    found = [float(entry.removeprefix("Test ")) for entry, count in _loop_accesses(trace, menu, iterations).items()
             if count == trace.statistic_accesses]
    return found or [-1.0]


def s4_figure_checks(table, ahb: dict, test3, trace_figures, test14, menu=None) -> list:
    """The figures §4 derives, each against what it is derived from.

    ``table`` is ``intel-324611-s4-figures``; ``ahb`` the parsed AHB logs by test (:data:`AHB_TRACES`'
    keys); ``test3`` the parsed analyzer trace of Test 3; ``trace_figures``
    ``intel-324611-s4-6-s4-7-trace-figures`` (Test 4's read throughputs); ``test14``
    ``intel-324611-test14`` (its measured throughputs); ``menu`` ``intel-324611-s4-3-menu`` (loaded if None)."""
    menu = data.load("intel-324611-s4-3-menu") if menu is None else menu
    test4 = pcie_trace.parse(published_log(SYMBOL_LOGS[4]))
    test15 = data.load("intel-324611-test15")
    # the TLP payload each of Test 14's write sizes indicates, and the sizes §4.16 reads off it
    shown = {int(r.sequential_write_bytes): payload_indicated(r.measured_mbyte_s) for r in test14.itertuples()}
    first_run = []
    for size in sorted(shown):
        if shown[size] != size:
            break
        first_run.append(size)
    first_run = first_run or [-1]
    as_8 = sorted(size for size, tlp in shown.items() if tlp == 8)
    again = [size for size, tlp in shown.items() if tlp == size and size > max(first_run)]
    wc_note = ("The TLP payload Test 14's measured throughput indicates for each write size: "
               + ", ".join(f"{size}: {tlp}" for size, tlp in sorted(shown.items())) + " bytes.")
    out = []

    def indicated(first, last):
        rows = test14[(test14["sequential_write_bytes"] >= first) & (test14["sequential_write_bytes"] <= last)]
        return [payload_indicated(m) for m in rows["measured_mbyte_s"]]

    printed = table.attrs["printed"]["value"]
    stated = {(r.section, r.quantity): r.value for r in table.itertuples() if r.occurrence == 1}
    per_access = ahb_trace.BYTES_PER_ACCESS
    ns = pcie_trace.SYMBOL_NS

    def average_rate(test):
        return float(ahb[test].printed["average throughput"])

    test4_reads = trace_figures[(trace_figures["test"] == 4) & (trace_figures["quantity"] == "read throughput")]
    sizes, gaps = ahb_trace.bursts(ahb["Test 15 prefetch"])
    prefetch = ahb["Test 15 prefetch"].accesses
    ticks = ahb["Test 10"].accesses["ticks"].to_numpy()
    write_tlp_time, write_tlp_formula = _calculated_figure(1, "write TLP time")
    byte_time, byte_time_formula = _calculated_figure(1, "byte time")
    rules = {
        # quantity: (kind, value from the printed row, note, extra keywords)
        "AHB RAM bytes the trace FIFO fills": (
            "prose", lambda v, sec: TRACE_FIFO_ACCESSES * per_access,
            f"{TRACE_FIFO_ACCESSES} accesses (data_fifo_size_g) of {per_access} bytes.", {}),
        "theoretical write throughput": (
            "calculated", lambda v, sec: 1000 * pcie.goodput_gbit_s("write", INTEL_LINK, 4) / 8,
            f"4 bytes every {write_tlp_time:g} ns is {{model:.4f}} MB/s, cut to {{published}}.",
            {"formula": pcie.goodput_formula("write", INTEL_LINK, 4, scale=sp.Rational(1000, 8))}),
        "TLP interval at the theoretical throughput": ("calculated", lambda v, sec: write_tlp_time, "",
                                                       {"formula": write_tlp_formula}),
        "AHB access period": ("prose", lambda v, sec: 1000 / ahb_trace.AHB_CLOCK_MHZ,
                              f"One access per cycle of the {ahb_trace.AHB_CLOCK_MHZ:g} MHz AHB.", {}),
        "shortest delay between writes": (
            "consistency",
            lambda v, sec: min(ahb_trace.delays_from_timestamps(ahb[t])[1:].min() for t in ("Test 1", "Test 3")),
            "The shortest delay between the timestamps of the Test 1 and Test 3 logs.", {}),
        # Test 1's writes are 4-byte TLPs: two follow each other no sooner than one write TLP takes on the link
        "delay between two writes said to occur": (
            "ceiling", lambda v, sec: write_tlp_time,
            "Test 1's writes are 4-byte TLPs, one every {model:g} ns at the most the link carries (§3.5's write "
            "TLP time): no delay between two is shorter.", {"relation": ">=", "formula": write_tlp_formula}),
        "long delay between two writes said to occur": (
            "ceiling", lambda v, sec: write_tlp_time / 1000,
            "Test 1's writes are 4-byte TLPs, one every {model:g} µs at the most the link carries (§3.5's write "
            "TLP time): no delay between two is shorter.", {"relation": ">="}),
        "accesses that fill the AHB RAM": (
            "prose", lambda v, sec: stated[("4.2", "AHB RAM bytes the trace FIFO fills")] / per_access,
            "RAM_SIZE / 4: §4.2's AHB RAM of {ram:g} bytes, {per:g} bytes an access.".format(
                ram=stated[("4.2", "AHB RAM bytes the trace FIFO fills")], per=per_access), {}),
        "break between TLPs": ("prose", lambda v, sec: farthest([g * ns for g in _tlp_gaps(test3, "MWr")], v),
                               f"The idle symbol times between the MWr TLPs of the Test 3 trace, {ns:g} ns each.",
                               {}),
        "break between TLPs in cycles": ("prose", lambda v, sec: farthest(_tlp_gaps(test3, "MWr"), v), "", {}),
        "TLPs in the record": ("prose", lambda v, sec: len(_packets(test3, None, "MWr")), "", {}),
        "cycles per TLP": ("prose", lambda v, sec: farthest(pcie_trace.tlp_intervals(test3, "MWr"), v),
                           "From the start of one MWr to the start of the next in the Test 3 trace.", {}),
        "bytes in the record": ("prose", lambda v, sec: sum(p.payload_bytes for p in test3.packets if p.kind == "TLP"),
                                "", {}),
        "time per trace line": ("calculated", lambda v, sec: byte_time, "One symbol time.",
                                {"formula": byte_time_formula}),
        "AHB accesses per 8-byte TLP": (
            "consistency", lambda v, sec: ahb["Test 10" if sec == "4.12" else "Test 11"].accesses_per_tlp,
            "As the section's log prints it (Test 10 for §4.12, Test 11 for §4.13).", {}),
        "second access after the first": (
            "consistency", lambda v, sec: farthest(np.diff(ticks)[::2] * ahb_trace.TICK_NS, v),
            "The delay of the second access of every TLP in the Test 10 log, from its timestamps.", {}),
        "throughput against the 4-byte writes": (
            "consistency", lambda v, sec: average_rate("Test 10") / average_rate("Test 3"),
            "Average throughputs of the Test 10 and Test 3 statistic blocks ({model:.2f} times).", {}),
        "throughput against the 4-byte reads": (
            "consistency",
            lambda v, sec: _mbyte_s(average_rate("Test 11")) / float(test4_reads["value"].mean()),
            "The Test 11 statistic block's average throughput against the mean of the read throughputs §4.7 "
            "reads off the Test 4 trace ({model:.2f} times).", {}),
        "maximum n with the measurement setup's design": (
            "consistency", lambda v, sec: TRACE_FIFO_ACCESSES, "The §4.2 trace FIFO (data_fifo_size_g).", {}),
        "maximum n with the worst-case design": (
            "consistency", lambda v, sec: S4_9_TRACE_ACCESSES,
            f"§4.9 says its design records the timestamps of {S4_9_TRACE_ACCESSES} accesses, and §4.2's design "
            f"allows n up to its FIFO's {TRACE_FIFO_ACCESSES}.", {}),
        "TLP payload of writes that partly fill a write-combining buffer": (
            "prose", lambda v, sec: farthest(indicated(8, 32), v),
            "The smallest payload whose write ceiling on the gen1 x1 link admits each of Test 14's measured "
            "8-, 16- and 32-byte throughputs.", {}),
        "chunk a partly filled write-combining buffer is written out in": (
            "prose", lambda v, sec: farthest(indicated(8, 32), v),
            "The TLP payload of Test 14's 8- to 32-byte writes: the smallest whose write ceiling admits their "
            "measured throughputs.", {}),
        "TLP payload of writes that fill a write-combining buffer": (
            "prose", lambda v, sec: farthest(indicated(64, 64), v),
            "The smallest payload whose write ceiling on the gen1 x1 link admits Test 14's measured 64-byte "
            "throughput.", {}),
        "bytes per AHB access": (
            "consistency", lambda v, sec: float(np.diff(ahb[_S4_STEP_LOG[sec]].accesses["addr"])[0]),
            "The step from the first address to the second of the section's AHB log: " + ", ".join(
                f"§{sec}: {test}" for sec, test in _S4_STEP_LOG.items()) + ".", {}),
        "delay of the second write": (
            "consistency", lambda v, sec: ahb_trace.delays_from_timestamps(ahb["Test 1"])[1],
            "From the timestamps of the Test 1 log.", {}),
        "write accesses of the run shown": (
            "consistency", lambda v, sec: ahb["Test 3"].statistic_accesses / ahb["Test 3"].accesses_per_tlp,
            "The Test 3 log's statistic block: its accesses, one a TLP, one TLP a write.", {}),
        "TLP payload": (
            "consistency", lambda v, sec: float(ahb[_S4_PAYLOAD_LOG[sec]].accesses_per_tlp * per_access),
            "The statistic block of the section's log (" + ", ".join(
                f"§{sec}: {test}" for sec, test in _S4_PAYLOAD_LOG.items())
            + f"): its AHB accesses per TLP, {per_access} bytes each.", {}),
        "TLP payload of the test compared with": (
            "consistency", lambda v, sec: float(ahb["Test 3"].accesses_per_tlp * per_access) if sec == "4.12"
            else farthest([p.payload_bytes for p in test4.packets if p.name == "CplD" and p.complete], v),
            "§4.12 compares Test 10 with Test 3, whose log's statistic block counts its AHB accesses per TLP; §4.13 "
            "Test 11 with Test 4, whose analyzer trace shows its completions' payload.", {}),
        "AHB RAM bytes Test 15 needs at least": (
            "prose", lambda v, sec: float(test15["payload_bytes"].max()),
            "The largest payload Test 15 reads, every read from the first address.", {}),
        "smallest write that follows its own payload's ceiling": (
            "prose", lambda v, sec: float(min(first_run)), wc_note, {}),
        "largest write that follows its own payload's ceiling from the smallest": (
            "prose", lambda v, sec: float(max(first_run)), wc_note, {}),
        **{f"{nth} of the writes issued as 8-byte TLPs": (
            "prose", lambda v, sec, k=k: float(as_8[k]) if k < len(as_8) else -1.0, wc_note, {})
           for k, nth in enumerate(("first", "second", "third"))},
        "write that follows its own payload's ceiling again": (
            "prose", lambda v, sec: float(farthest(again, v)) if again else -1.0, wc_note, {}),
        "write-combining buffer": (
            "prose", lambda v, sec: float(max(shown.values())),
            "The largest TLP payload Test 14's measured throughputs indicate. " + wc_note, {}),
        "symbol time": ("calculated", lambda v, sec: byte_time, "One symbol time.", {"formula": byte_time_formula}),
        "iterations of the run shown": (
            "consistency", lambda v, sec: _iterations(ahb[_S4_RUN_SHOWN[sec]], menu, _S4_RUN_SHOWN[sec]),
            "The statistic block's accesses over its accesses per TLP and the test's accesses an iteration "
            "(§4.3's menu).", {}),
        "test the run shown is said to be of": (
            "prose", lambda v, sec: farthest(_tests_giving(ahb[_S4_RUN_SHOWN[sec]], menu,
                                                           stated[(sec, "iterations of the run shown")]), v),
            "The tests of §4.3's menu whose loop, run for the iterations the text states, makes as many AHB "
            "accesses as the statistic block counts, of the same width and direction: " + "; ".join(
                "§{sec}'s log counts {n} accesses, and {runs}".format(
                    sec=sec, n=ahb[test].statistic_accesses, runs=", ".join(
                        f"{entry} makes {count:g}" for entry, count in _loop_accesses(
                            ahb[test], menu, stated[(sec, "iterations of the run shown")]).items()))
                for sec, test in _S4_RUN_SHOWN.items()) + ".", {}),
        "menu key that activates log file generation": (
            "consistency", lambda v, sec: _menu_key(menu, _LOG_FILE_ENTRY),
            f"§4.3's menu prints '{_LOG_FILE_ENTRY}' under the key {{model:g}}.", {}),
        "cache line": ("prose", lambda v, sec: farthest([n * per_access for n in sizes], v),
                       "A cache line fill reads the whole line: the chunks of the prefetch trace, accesses "
                       f"{2 * ahb_trace.TICK_NS:g} ns apart, {per_access} bytes each.", {}),
        "prefetch chunk": ("prose", lambda v, sec: farthest([n * per_access for n in sizes], v),
                           f"Accesses {2 * ahb_trace.TICK_NS:g} ns apart in the prefetch trace, {per_access} bytes each.",
                           {}),
        "gap between prefetch chunks": (
            "prose", lambda v, sec: farthest(gaps, v), "The gaps between the chunks of the prefetch trace are "
            + ", ".join(f"{g:g}" for g in gaps) + " ns; 'approx.' read as to the nearest 100 ns.",
            {"approximate": 100}),
        "bytes prefetched": ("prose", lambda v, sec: len(prefetch) * per_access, "", {}),
        "prefetch time": ("prose", lambda v, sec: float(prefetch["ticks"].iloc[-1] - prefetch["ticks"].iloc[0])
                          * ahb_trace.TICK_NS, "From the first timestamp of the prefetch trace to its last.", {}),
        "prefetch throughput": (
            "consistency",
            lambda v, sec: _mbyte_s(ahb_trace.rate_from(stated[("4.17", "bytes prefetched")],
                                                   stated[("4.17", "prefetch time")])),
            "The {b:g} bytes in {t:g} ns the text states; 'roughly' read as to the nearest 10 MB/s.".format(
                b=stated[("4.17", "bytes prefetched")], t=stated[("4.17", "prefetch time")]),
            {"approximate": 10}),
    }
    for row in table.itertuples():
        kind, value, note, extra = rules[row.quantity]
        label = (f"§{row.section}: {row.quantity}" + (f" #{row.occurrence}" if row.occurrence > 1 else "")
                 + (", around" if "approximate" in extra else ""))
        out.append(checks.compare(
            table, row.Index, "value", value(float(printed[row.Index]), row.section), label, note,
            quantity=row.quantity, unit=row.unit, kind=kind,
            exact=row.unit in (*COUNT_UNITS, "iterations", "test", "key"), **extra))
    return out


@checks.provider
def s4_figure_source_checks():
    """Intel 324611 §4: the figures the text derives from its settings, AHB logs and analyzer traces."""
    ahb = {test: ahb_trace.parse(published_log(name)) for test, name in AHB_TRACES.items()}
    return s4_figure_checks(data.load("intel-324611-s4-figures"), ahb,
                            pcie_trace.parse(published_log(SYMBOL_LOGS[3])),
                            data.load("intel-324611-s4-6-s4-7-trace-figures"), data.load("intel-324611-test14"))


def test4_first_read_checks(table, trace) -> list:
    """The first occurrence of each Test 4 figure (the first read) against
    :func:`goodput.logs.pcie_trace.annotated_read_timing` of the Test 4 trace (``prose``)."""
    timing = pcie_trace.annotated_read_timing(trace)
    if timing is None:
        raise ValueError(f"{trace.path}: the analyzer's names do not show the first read")
    ns = pcie_trace.SYMBOL_NS
    payload = next(p.payload_bytes for p in trace.packets if p.name == "CplD" and p.complete)
    key = {"read to completion time": "to_completion", "completion to next request": "to_next_request",
           "request to request": "to_next_request_start", "read throughput": "to_next_request_start"}
    out = []
    for row in table[(table["test"] == 4) & (table["occurrence"] == 1)].itertuples():
        cycles = timing[key[row.quantity]]
        model = cycles * ns if row.unit == "ns" else 1000 * payload / (cycles * ns)
        out.append(checks.compare(
            table, row.Index, "value", model, f"Test 4: {row.quantity} #1 ({row.unit})",
            "The conversion lost the first read's symbols; the analyzer's names on those lines place its "
            f"request at cycle {timing['request_first']} and its completion at cycle "
            f"{timing['request_last'] + timing['to_completion'] + 1}.",
            quantity=row.quantity, unit=row.unit, kind="prose"))
    return out


@checks.provider
def test4_first_read_source_checks():
    """Intel 324611 §4.7: the figures about the first read of the Test 4 trace, whose symbols the conversion
    lost, from the analyzer's packet names on those lines."""
    return test4_first_read_checks(data.load("intel-324611-s4-6-s4-7-trace-figures"),
                                   pcie_trace.parse(published_log(SYMBOL_LOGS[4])))



# --- §3.2: the TLP overhead, its range and the best case --------------------------------------------

def _overhead(header_dwords: int, ecrc_on: int):
    """A TLP's overhead (bytes) with a header of ``header_dwords`` and ECRC on (1) or off (0), and its
    expression: ``(value, (expr, values))``."""
    expr = pcie.framing + pcie.header + pcie.ecrc
    values = {k: v for k, v in pcie.size_exprs(1, header_dwords, ecrc_on).items() if k in expr.free_symbols}
    return float(expr.xreplace(values)), (expr, values)


def _header_dwords(address_bits: int) -> float:
    """The request header of the tutorial's link with ``address_bits``-bit addresses, in dwords."""
    return pcie.link_substitution(replace(INTEL_LINK, addr=address_bits))[pcie.header] / 4


#: The header dwords and ECRC (on 1, off 0) of each TLP of §3.2's field table: the general row's header and
#: ECRC are the short header's and the optional ECRC's, its long header the 4 dword one.
_S3_2_TLPS = {"any TLP": (3, 1), "short header, no ECRC": (3, 0), "long header, no ECRC": (4, 0)}


def s3_2_field_checks(table) -> list:
    """Each field size of §3.2's overhead rows (``intel-324611-s3-2-fields``) against the model: the header
    and ECRC from the packet model's byte counts (:func:`goodput.models.pcie.size_exprs`) for the row's header
    and ECRC; the sequence number and LCRC as long as the link layer's fields are
    (:func:`goodput.models.pcie_crc.sequence_field`, :func:`goodput.models.pcie_crc.lcrc`); the start and end symbols
    each half of what the model's per-TLP framing ``F`` leaves of them (``calculated``, exact)."""
    sequence = len(pcie_crc.sequence_field(0))
    lcrc = len(pcie_crc.lcrc(pcie_crc.sequence_field(0) + bytes(4 * 3)))  # any TLP: the field is one size
    out = []
    for row in table.itertuples():
        dwords, ecrc_on = _S3_2_TLPS[row.tlp]
        if row.field == "TLP header, long":
            dwords = 4
        sizes = pcie.size_exprs(INTEL_LINK.gen, dwords, ecrc_on)
        framing = int(sizes[pcie.framing])
        value, note, formula = {
            "start": ((framing - sequence - lcrc) / 2, f"Of the model's {framing} framing bytes, what the "
                      f"{sequence}-byte sequence number and {lcrc}-byte LCRC leave, one symbol each end.", None),
            "end": ((framing - sequence - lcrc) / 2, f"Of the model's {framing} framing bytes, what the "
                    f"{sequence}-byte sequence number and {lcrc}-byte LCRC leave, one symbol each end.", None),
            "sequence number": (sequence, "The link layer's sequence-number field.", None),
            "LCRC": (lcrc, "The link CRC over the sequence number and the TLP.", None),
            "TLP header": (int(sizes[pcie.header]), f"A {dwords} dword header.", None),
            "TLP header, long": (int(sizes[pcie.header]), f"A {dwords} dword header.", None),
            "ECRC": (int(sizes[pcie.ecrc]), "The optional digest." if ecrc_on else "Left out.", None),
        }[row.field]
        out.append(checks.compare(table, row.Index, "bytes", value, f"{row.tlp}: {row.field}", note,
                                  quantity=row.field, exact=True))
    return out


@checks.provider
def s3_2_field_source_checks():
    """Intel 324611 §3.2: the size of each field of the three overhead rows."""
    return s3_2_field_checks(data.load("intel-324611-s3-2-fields"))


#: The header sizes the text names §3.2's two overhead sums by, and the row of the field table each names.
_S3_2_SUM_HEADERS = {"header of the two sums announced, the first": "short header, no ECRC",
                     "header of the two sums announced, the second": "long header, no ECRC",
                     "header named over the first sum": "short header, no ECRC",
                     "header named over the second sum": "long header, no ECRC"}


def s3_2_overhead_checks(table, fields=None) -> list:
    """Intel 324611 §3.2's overhead figures (``intel-324611-s3-2-overhead``) against the packet model: the
    range (3 dword header without ECRC to 4 dwords with it), the two sums without ECRC, the largest
    payload and the best case of Table 1's model and its operands; and the header size the text names each
    sum by against the header field the sum adds (``fields``, ``intel-324611-s3-2-fields``; ``consistency``)."""
    fields = data.load("intel-324611-s3-2-fields") if fields is None else fields
    header_field = {r.tlp: r.bytes for r in fields.itertuples() if r.field == "TLP header"}
    dword = 4
    least, least_formula = _overhead(3, 0)
    most, most_formula = _overhead(4, 1)
    four_dw, four_dw_formula = _overhead(4, 0)
    largest = max(pcie.SIZES_POW2)
    rate, rate_formula = _calculated_figure(1, "byte rate after the physical layer")
    tlp = pcie.payload + pcie.framing + pcie.header + pcie.ecrc
    tlp_values = {**{k: v for k, v in pcie.link_substitution(INTEL_LINK).items() if k in tlp.free_symbols},
                  pcie.payload: largest}
    rules = {
        ("data payload at most", "dwords"): (largest / dword, f"The largest payload, {largest} bytes, in dwords.",
                                             None),
        ("TLP overhead at least", "dwords"): (least / dword, "The short header, no ECRC.", None),
        ("TLP overhead at most", "dwords"): (most / dword, "The long header and ECRC.", None),
        ("TLP overhead at least", "bytes"): (least, "The short header, no ECRC.", least_formula),
        ("TLP overhead at most", "bytes"): (most, "The long header and ECRC.", most_formula),
        ("overhead, 3 dword header, no ECRC", "bytes"): (least, "", least_formula),
        ("overhead, 4 dword header, no ECRC", "bytes"): (four_dw, "", four_dw_formula),
        ("TLP bytes, 4096-byte payload", "bytes"): (float(tlp.xreplace(tlp_values)), "", (tlp, tlp_values)),
        ("TLP header with 32-bit addresses", "dwords"): (_header_dwords(32), "", None),
        ("TLP header with 64-bit addresses", "dwords"): (_header_dwords(64), "", None),
        ("TLP header on the Hpe IRP (32-bit addresses)", "dwords"): (
            pcie.link_substitution(INTEL_LINK)[pcie.header] / dword, "The header of the tutorial's link.", None),
        ("best case formula, byte rate after the physical layer", "MB/s"): (
            rate, "The tutorial's link after 8b/10b.", rate_formula),
        ("best case formula, payload", "bytes"): (largest, "The largest payload.", None),
        **{(quantity, "dwords"): (header_field[tlp] / dword, f"The TLP header field of the {tlp} sum, in dwords.",
                                  None)
           for quantity, tlp in _S3_2_SUM_HEADERS.items()},
        ("best case throughput with TLP overhead", "MB/s"): (
            1000 * pcie.goodput_gbit_s("write", INTEL_LINK, largest) / 8, "",
            pcie.goodput_formula("write", INTEL_LINK, largest, scale=sp.Rational(1000, 8))),
    }
    out = []
    for row in table.itertuples():
        if (row.quantity, row.unit) == ("data payload at least", "dwords"):
            # no model states a least payload: the analyzer traces show TLPs with none (the read requests)
            least_seen = min(p.payload_bytes for name in SYMBOL_LOGS.values()
                             for p in pcie_trace.parse(published_log(name)).packets
                             if p.kind == "TLP" and p.complete)
            out.append(checks.compare(
                table, row.Index, "value", least_seen / dword, f"{row.quantity} ({row.unit})",
                "The least data of a TLP the analyzer traces show whole ({model:g} dwords: the read requests "
                "carry none).", quantity=row.quantity, unit=row.unit, exact=True, kind="consistency", relation="<="))
            continue
        value, note, formula = rules[(row.quantity, row.unit)]
        out.append(checks.compare(table, row.Index, "value", value,
                                  f"{row.quantity} ({row.unit})", note, quantity=row.quantity,
                                  unit=row.unit, formula=formula, exact=row.unit in COUNT_UNITS,
                                  kind="consistency" if row.quantity in _S3_2_SUM_HEADERS else "calculated"))
    return out


@checks.provider
def s3_2_overhead_source_checks():
    """Intel 324611 §3.2: the TLP overhead, its range and the best case."""
    return s3_2_overhead_checks(data.load("intel-324611-s3-2-overhead"))
