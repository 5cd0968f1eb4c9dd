"""Intel 324611 §4, the figures of its tests: Test 14's and Test 15's measured throughputs under their ceilings
(§4.16, §4.17), the access widths of the test program's menu (§4.3), and the figures the text derives from its
settings, AHB logs and analyzer traces.

Checked against the transaction and packet models (:mod:`goodput.models.pcie_transactions`,
:mod:`goodput.models.pcie`), the AHB logs (:mod:`goodput.sources.intel_324611.ahb_logs`) and the analyzer
traces, for the pcie-reads chapter.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.logs import ahb_trace, pcie_trace
from goodput.models import pcie, pcie_transactions
from goodput.models.pcie_transactions import INTEL_LINK, SYMBOL_LOGS, published_log
from goodput.sources.intel_324611.ahb_logs import AHB_LOGS, AHB_TRACES
from goodput.sources.intel_324611.theory import (
    COUNT_UNITS,
    TEST14_LINK,
    calculated_figure,
    farthest,
    packet_symbols,
    test15_theoretical_mbyte_s,
)

__all__ = ["payload_indicated", "measured_ceiling_checks", "measured_ceiling_source_checks", "s4_3_menu_checks",
           "s4_3_menu_source_checks", "TRACE_FIFO_ACCESSES", "S4_9_TRACE_ACCESSES", "s4_figure_checks",
           "s4_figure_source_checks"]


# --- §4.16 and §4.17: Tests 14 and 15 measured, under their ceilings ----------------------------------


def payload_indicated(measured_mbyte_s: float, sizes=tuple(2 ** k for k in range(13))) -> int:
    """The smallest TLP payload of ``sizes`` (bytes) whose write ceiling on
    :data:`goodput.sources.intel_324611.theory.TEST14_LINK` is not below ``measured_mbyte_s``: the least payload
    that writes of that throughput must travel in, as §4.16 reads Test 14's flat measurements."""
    for size in sorted(sizes):
        if 1000 * pcie.goodput_gbit_s("write", TEST14_LINK, size) / 8 >= measured_mbyte_s:
            return size
    raise ValueError(f"{measured_mbyte_s} MB/s is over the write ceiling of every payload of {sorted(sizes)}")


def measured_ceiling_checks(test14, test15) -> list:
    """The measured columns of Test 14 and Test 15 (``intel-324611-test14``, ``intel-324611-test15``) against
    the most the model lets their row's payload carry (``ceiling``, ``<=``): a write of ``N`` sequential bytes
    is at best one ``N``-byte MWr TLP back to back with the next (the write goodput of
    :data:`goodput.sources.intel_324611.theory.TEST14_LINK`); a read of ``N`` bytes at best the request, 500 ns
    and the completion of :func:`goodput.sources.intel_324611.theory.test15_theoretical_mbyte_s`."""
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


@checks.provider(pcie_transactions)
def measured_ceiling_source_checks():
    """Intel 324611 §4.16 and §4.17: Test 14's and Test 15's measured throughputs under their ceilings."""
    return measured_ceiling_checks(data.load("intel-324611-test14"), data.load("intel-324611-test15"))


# --- §4.3: the test program's menu --------------------------------------------------------------------

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


def _access_bits(trace: ahb_trace.AhbTrace) -> int:
    """The width of the CPU's accesses an AHB log shows: its accesses per TLP of 32-bit AHB words."""
    return trace.accesses_per_tlp * ahb_trace.BYTES_PER_ACCESS * 8


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


@checks.provider(pcie_transactions)
def s4_3_menu_source_checks():
    """Intel 324611 §4.3: the access widths the test program's menu prints, against the AHB logs."""
    return s4_3_menu_checks(data.load("intel-324611-s4-3-menu"),
                            {t: ahb_trace.parse(published_log(n)) for t, n in AHB_LOGS.items()})


# --- §4: the figures the text derives from its settings, logs and traces ------------------------------

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

    ``table`` is ``intel-324611-s4-figures``; ``ahb`` the parsed AHB logs by test
    (:data:`goodput.sources.intel_324611.ahb_logs.AHB_TRACES`' keys); ``test3`` the parsed analyzer trace of
    Test 3; ``trace_figures`` ``intel-324611-s4-6-s4-7-trace-figures`` (Test 4's read throughputs); ``test14``
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
    write_tlp_time, write_tlp_formula = calculated_figure(1, "write TLP time")
    byte_time, byte_time_formula = calculated_figure(1, "byte time")
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
        "TLPs in the record": ("prose", lambda v, sec: len(packet_symbols(test3, None, "MWr")), "", {}),
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


@checks.provider(pcie_transactions)
def s4_figure_source_checks():
    """Intel 324611 §4: the figures the text derives from its settings, AHB logs and analyzer traces."""
    ahb = {test: ahb_trace.parse(published_log(name)) for test, name in AHB_TRACES.items()}
    return s4_figure_checks(data.load("intel-324611-s4-figures"), ahb,
                            pcie_trace.parse(published_log(SYMBOL_LOGS[3])),
                            data.load("intel-324611-s4-6-s4-7-trace-figures"), data.load("intel-324611-test14"))
