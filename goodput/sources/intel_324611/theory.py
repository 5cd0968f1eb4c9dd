"""Intel 324611 §3, the tutorial's theory: the TLP overhead and its fields (§3.2), the largest payload (§3.3),
the sizes of the packets without data and the SKP interval (§3.4), and the two worked examples of §3.5, step by
step, operand by operand and tally by tally of their analyzer traces; with the theory columns of Tests 14 and 15.

Checked against the transaction model (:mod:`goodput.models.pcie_transactions`) and the packet model under it
(:mod:`goodput.models.pcie`), for the pcie-reads chapter.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.logs import pcie_trace
from goodput.models import pcie, pcie_crc, pcie_transactions
from goodput.models.pcie_transactions import (
    INTEL_LINK,
    INTEL_PLP,
    SKP_SCHEDULE_SYMBOLS,
    SYMBOL_LOGS,
    byte_time_expr,
    completion_bytes_expr,
    completion_latency,
    cpu_time,
    dllps_per_read,
    evaluate_example,
    plp_bytes,
    posted_writes_expr,
    published_log,
    request_bytes_expr,
    serial_reads_expr,
    trace_directions,
    transactions,
)

__all__ = ["INTEL_EXAMPLES", "TEST14_LINK", "test15_theoretical_mbyte_s", "COUNT_UNITS", "farthest", "packet_symbols",
           "s3_2_field_checks", "s3_2_field_source_checks", "s3_2_overhead_checks", "s3_2_overhead_source_checks",
           "s3_3_checks", "s3_3_source_checks", "s3_4_checks", "s3_4_source_checks", "source_checks",
           "calculated_figure", "gap_constraints", "example_figure_checks", "example_figure_source_checks",
           "example_operand_checks", "example_operand_source_checks"]


#: The two worked examples of Intel 324611 §3.5: PCIe 1.1 x1, 3DW headers, no ECRC, 100 transactions of 4 bytes,
#: an SKP at least every 1180 bytes (:data:`goodput.models.pcie_transactions.INTEL_PLP`), 500 ns to completion.
INTEL_EXAMPLES = {
    1: {"kind": "write", "n": 100, "size": 4},
    2: {"kind": "read", "n": 100, "size": 4, "t_c": 500.0, "d": 1},
}


#: The link Test 14's "Max PCIe throughput" column is for: gen1 x1, one TLP of the row's payload, no DLLP.
TEST14_LINK = pcie.Link(gen=1, lanes=1, mps=4096, dllp="none")


def test15_theoretical_mbyte_s(size: int) -> float:
    """The Intel tutorial's theoretical read throughput of Test 15: request, 500 ns, completion, no DLLP."""
    return evaluate_example("read", 1, size, t_c=500.0, d=0)["net_mbyte_s"]


#: Units of counts: a count is exact, so a printed count one off is not "rounding" (``exact=`` of
#: :func:`goodput.checks.check`).
COUNT_UNITS = ("packets", "cycles", "accesses", "bytes", "dwords")


def farthest(values, printed: float) -> float:
    """Of several values a text states as one ("three DLLPs with 8 bytes each"), the one farthest from
    the printed value: the check holds all of them to it."""
    values = list(values)
    if not values:
        raise ValueError("no values to hold to the printed one")
    return max(values, key=lambda v: abs(v - printed))


#: How the text names packets, and the trace parser's names they stand for.
_TEXT_PACKETS = {"MWr": ("MWr",), "MRd": ("MRd",), "CplD": ("CplD",), "Ack": ("Ack",),
                 "UpdateFC_P": ("UpdateFC_P",), "UpdateFC": ("UpdateFC_P", "UpdateFC_NP", "UpdateFC_Cpl"),
                 "PLP": ("SKP",), "PLPs": ("SKP",)}


def packet_symbols(trace, direction: str | None, text_name: str) -> list[int]:
    """Symbol times of each complete packet the text's ``text_name`` stands for, in one direction or all."""
    found = pcie_trace.tally(trace)
    names = _TEXT_PACKETS[text_name]
    return [s for (d, n), sizes in found.items() if n in names and direction in (None, d) for s in sizes]


# --- §3.2: the TLP overhead, its range and the best case ----------------------------------------------

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


@checks.provider(pcie_transactions)
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
    rate, rate_formula = calculated_figure(1, "byte rate after the physical layer")
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


@checks.provider(pcie_transactions)
def s3_2_overhead_source_checks():
    """Intel 324611 §3.2: the TLP overhead, its range and the best case."""
    return s3_2_overhead_checks(data.load("intel-324611-s3-2-overhead"))


# --- §3.3 and §3.4: the largest payload, the sizes of the packets without data, the SKP interval ------

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


@checks.provider(pcie_transactions)
def s3_3_source_checks():
    """Intel 324611 §3.3: the largest payload the standard allows."""
    return s3_3_checks(data.load("intel-324611-s3-3"))


def s3_4_checks(table, traces: dict) -> list:
    """Intel 324611 §3.4's sizes and SKP interval (``intel-324611-s3-4``): a DLLP's size against the packet
    model (``calculated``); a PLP's against the SKP ordered sets of the tutorial's symbol traces (``traces``,
    parsed, by number; ``prose``); the interval against the specification's window
    (:data:`goodput.models.pcie_transactions.SKP_SCHEDULE_SYMBOLS`; ``prose``)."""
    dllp = {pcie.dllp: pcie.link_substitution(INTEL_LINK)[pcie.dllp]}
    skp_sizes = [s for t in traces.values() for s in packet_symbols(t, None, "PLP")]
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


@checks.provider(pcie_transactions)
def s3_4_source_checks():
    """Intel 324611 §3.4: the sizes of the packets that carry no data, and how often a PLP is due."""
    return s3_4_checks(data.load("intel-324611-s3-4"),
                       {k: pcie_trace.parse(published_log(name)) for k, name in SYMBOL_LOGS.items()})


# --- §3.5: every step of the worked examples and every tally of their traces --------------------------

_QUANTITY = {
    "net write throughput": "net_mbyte_s", "net read throughput": "net_mbyte_s",
    "allocated write bandwidth": "write_mbyte_s", "allocated read bandwidth": "read_mbyte_s",
    "allocated write bandwidth share": "write_share_percent",
    "allocated read bandwidth share": "read_share_percent",
}


@checks.provider(pcie_transactions)
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


_DIRECTION_FIGURE = re.compile(r"^(?P<direction>read|write) direction: (?P<what>.+)$")
_PACKET_FIGURE = re.compile(r"^(?:(?P<name>\w+) )?(?P<what>TLPs|DLLPs|PLPs|size|payload)$")


def _example_values(example: int) -> dict:
    """Every symbol of the §3.5 expressions with the number the example gives it."""
    e = INTEL_EXAMPLES[example]
    return {**pcie.link_substitution(INTEL_LINK), pcie.payload: e["size"], transactions: e["n"], **INTEL_PLP,
            completion_latency: e.get("t_c", 0.0), dllps_per_read: e.get("d", 0), cpu_time: 0}


def calculated_figure(example: int, quantity: str):
    """The model's value of one step of a §3.5 worked example, and its expression: ``(value, (expr, values))``."""
    t = byte_time_expr()
    write = pcie.payload + pcie.framing + pcie.header + pcie.ecrc
    steps = posted_writes_expr() if INTEL_EXAMPLES[example]["kind"] == "write" else serial_reads_expr()
    expr = {
        "byte rate after the physical layer": 1000 * pcie.bit_rate / 8,
        "byte time": t,
        "TLP overhead": write - pcie.payload,
        "read request TLP overhead": request_bytes_expr(),
        "completion TLP overhead": completion_bytes_expr() - pcie.payload,
        "write TLP time": write * t,
        "read request time": request_bytes_expr() * t,
        "completion time": completion_bytes_expr() * t,
        "completion TLP size": completion_bytes_expr(),
        "read request TLP size": request_bytes_expr(),
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
        f"{len(packet_symbols(trace, d, 'PLP'))} in the {'write' if d == write else 'read'} direction"
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
        return min(len(packet_symbols(trace, d, "PLP")) for d in trace.directions), _plp_note(trace)
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
        return len(packet_symbols(trace, direction, name)), _plp_note(trace)
    if p["what"] in ("TLPs", "DLLPs"):
        return len(packet_symbols(trace, direction, name)), ""
    if p["what"] == "payload":
        return farthest([q.payload_bytes for q in trace.packets if q.direction == direction
                         and q.name in _TEXT_PACKETS[name] and q.complete], printed), ""
    sizes = packet_symbols(trace, direction, name)
    if sizes:
        return farthest(sizes, printed), ""
    return farthest(packet_symbols(trace, None, name), printed), (
        f"No {name} in this direction of the trace; the size is that of the one in the other direction.")


def gap_constraints(trace, gaps) -> int:
    """How many printed numbers one printed figure verifies when the text states it for several ``gaps`` of a
    trace (pairs of cycles, one gap each), all held to it: the rank of the equations the gaps make.

    Each gap is read off the cycle numbers as printed on its two sides.
    :func:`goodput.sources.intel_324611.analyzer.framing_checks` ties each number of a run between ``...`` lines
    to the first of the run, so an equation relates the printed figure and the first numbers of the runs its
    ends lie in; the unknowns are the figure and those first numbers. One gap verifies the figure alone; three gaps that chain four runs (Example 2's request-to-completion
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
            found = calculated_figure(row.example, row.quantity)
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


@checks.provider(pcie_transactions)
def example_figure_source_checks():
    """Intel 324611 §3.5: every step of the two worked examples and every tally of their traces."""
    traces = {k: pcie_trace.parse(published_log(SYMBOL_LOGS[k])) for k in INTEL_EXAMPLES}
    return example_figure_checks(data.load("intel-324611-s3-5-figures"), traces)


#: The operands of the §3.5 formulas that repeat a step of the model, by the name the operands table gives
#: them and the step of :func:`calculated_figure` they repeat.
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
        value, formula = calculated_figure(example, _STEP_OPERANDS[operand])
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
        return (len(packet_symbols(trace, other, m["dllp"])) / len(tlps), "prose",
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


@checks.provider(pcie_transactions)
def example_operand_source_checks():
    """Intel 324611 §3.5: every operand the worked formulas repeat."""
    traces = {k: pcie_trace.parse(published_log(SYMBOL_LOGS[k])) for k in INTEL_EXAMPLES}
    return example_operand_checks(data.load("intel-324611-s3-5-operands"), traces)
