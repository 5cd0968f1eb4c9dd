"""Intel 324611 §4, the AHB logs (Tests 1, 2, 3, 10 and 11, and §4.17's prefetch trace), each against itself
and the others: every statistic block recomputed from its trace, each delay against its timestamps, the
addresses against each other and RAM[0], the words written against the test program the document prints and
the words read back against them, the flags, and the chunks of the prefetch trace.

For the pcie-reads chapter (:mod:`goodput.models.pcie_transactions`); the logs are parsed by
:mod:`goodput.logs.ahb_trace`.
"""

from __future__ import annotations

import struct

import numpy as np

from goodput import checks
from goodput.core import data
from goodput.logs import ahb_trace
from goodput.models import pcie_transactions
from goodput.models.pcie_transactions import published_log

__all__ = ["AHB_LOGS", "TLP_PAYLOAD_BYTES", "AHB_TRACES", "trace_checks", "TEST_PROGRAM_DOUBLE", "WRITTEN_WORDS",
           "READ_BACK", "read_back_checks", "read_back_source_checks", "ahb_consistency_checks",
           "ahb_consistency_source_checks", "prefetch_chunk_checks", "prefetch_chunk_source_checks", "RAM_BASE_LOG",
           "ram_base_checks", "ram_base_source_checks", "WRITE_FLAG", "flag_checks", "flag_source_checks"]


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


#: Every AHB trace log of Intel 324611, by test: those with a statistic block and the prefetch trace.
AHB_TRACES = {**AHB_LOGS, "Test 15 prefetch": "intel-324611-test15-prefetch-ahb.log"}


@checks.provider(pcie_transactions)
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


@checks.provider(pcie_transactions)
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


@checks.provider(pcie_transactions)
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


@checks.provider(pcie_transactions)
def prefetch_chunk_source_checks():
    """Intel 324611 §4.17: where each chunk of the prefetch trace starts, and the chunks read out of order."""
    return prefetch_chunk_checks(ahb_trace.parse(published_log(AHB_TRACES["Test 15 prefetch"])),
                                 ahb_trace.parse(published_log(AHB_TRACES["Test 1"])),
                                 data.load("intel-324611-s4-17-prefetch"))


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


@checks.provider(pcie_transactions)
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


@checks.provider(pcie_transactions)
def flag_source_checks():
    """Intel 324611 §4.4-§4.13: the flags of every AHB access, against the others' and the access's direction."""
    return flag_checks({t: ahb_trace.parse(published_log(n)) for t, n in AHB_LOGS.items()})
