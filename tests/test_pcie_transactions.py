
import pytest
from mutations import edited_cell, reprinted

from goodput import checks
from goodput.core import data
from goodput.logs import ahb_trace, pcie_trace
from goodput.models import pcie
from goodput.models import pcie_transactions as pt
from goodput.sources.intel_324611 import ahb_logs, analyzer, s4_figures, theory

CHECKS = checks.collect("pcie-reads")
FIGURES = "intel-324611-s3-5-figures"
#: The §3.5 figures that are off, by row, with what shows it (independent of the code under test).
FIGURE_ERRATA = {
    # 523 x 4 = 2092, not 2128; the trace is numbered 00000-00532: 533 cycles
    "Example 2 trace: record duration (ns)": "erratum",
    "Example 2 trace: record length (cycles)": "erratum",
    # the only COM/SKP of the Example 2 trace is at cycle 00020 in the request (write) direction
    "Example 2 trace: PLPs in each direction (packets)": "erratum",
    "Example 2 trace: read direction: PLPs (packets)": "erratum",
    # 3 x 24 + 3 x 8 + 3 x 8 = 120 symbols of packets in the completion direction, no SKP
    "Example 2 trace: read direction: bytes of packets (bytes)": "erratum",
}
#: The §4 figures that are not ok, by row.
S4_ERRATA = {
    "§4.4: theoretical write throughput": "rounding",           # 4 / 96 ns = 41.667 MB/s, printed 41.66
    "§4.17: gap between prefetch chunks, around": "rounding",           # 'approx. 1650 ns'; the gaps are 1620-1650 ns
    "§4.17: maximum n with the worst-case design": "erratum",         # §4.9: 65536 accesses recorded
    # 10 iterations of Test 12's (64 x n) 64-bit writes make 1280 AHB accesses; the log counts 20, Test 10's
    "§4.12: test the run shown is said to be of": "erratum",
    "§4.13: test the run shown is said to be of": "erratum",          # likewise Test 13 and Test 11
}
EXPECTED = {
    ("intel-324611-test15", "4 bytes"): "erratum",
    # the 4-byte row's measured 2.61 MB/s is under the model's ceiling, whatever its theory column prints
    ("intel-324611-test15", "4 bytes", "ceiling"): "ok",
    ("logs/published/intel-324611-test2-ahb.log", "2 accesses", "calculated"): "erratum",
    # its one access per 4-byte TLP is right, whatever its times
    ("logs/published/intel-324611-test2-ahb.log", "2 accesses", "AHB accesses per TLP"): "ok",
    ("intel-324611-s3-5-examples", "Example 2 trace: net read throughput (MB/s)"): "erratum",
    ("intel-324611-s3-5-examples", "Example 2 trace: allocated read bandwidth share (%)"): "erratum",
    ("intel-324611-s3-5-examples", "Example 1 trace: net write throughput (MB/s)"): "rounding",
    ("intel-324611-s3-5-examples", "Example 1 trace: allocated read bandwidth share (%)"): "rounding",
    **{(FIGURES, row): status for row, status in FIGURE_ERRATA.items()},
    # the record duration restated as the throughput's operand: 2128 ns again, the trace's 533 cycles take 2132
    ("intel-324611-s3-5-operands", "Example 2: net read throughput (trace), operand record duration"): "erratum",
    # Test 2 prints a delay of 1520 ns between timestamps 7663260 and 7663422: 162 ticks of 10 ns
    ("logs/published/intel-324611-test2-ahb.log", "access 2 (line 10)"): "erratum",
    **{("intel-324611-s4-figures", row): status for row, status in S4_ERRATA.items()},
}

#: The analyzer traces' packets that are off, by (resource, row, quantity): zlib.crc32 of these writes' printed
#: bytes is not their printed LCRC, and Example 1's Acks carry 0F D8, 0F D9, 0F DA (4056-4058) under the
#: annotations 4057-4059. Example 2 numbers its lines 00170, 00172 inside an Ack and 00331, 00333 inside a
#: completion, whose symbols are all there, and 00495, 00501.
_EX1, _T3 = "logs/published/intel-324611-example1-symbols.log", "logs/published/intel-324611-test3-symbols.log"
_EX2 = "logs/published/intel-324611-example2-symbols.log"
EXPECTED.update({
    **{(_EX1, f"RX MWr at cycle {c}", "LCRC bytes"): "erratum" for c in (0, 24, 48)},
    **{(_EX1, f"TX Ack at cycle {c}", "SeqNum"): "erratum" for c in (17, 39, 64)},
    **{(_T3, f"RX MWr at cycle {c}", "LCRC bytes"): "erratum" for c in (57316, 57346)},
    **{(_EX2, f"cycles from {c}", "last cycle number of the run"): "erratum" for c in ("00144", "00322")},
    (_EX2, "cycles from 00495", "last cycle number of the run"): "unexplained",
    # the wrong delay of Test 2's second access says nothing of the word it read
    ("logs/published/intel-324611-test2-ahb.log", "access 2 (line 10)", "data read"): "ok",
    # nor of its flags
    ("logs/published/intel-324611-test2-ahb.log", "access 2 (line 10)", "flags"): "ok",
})


def _expected(check) -> str:
    return EXPECTED.get((check.resource, check.row, check.quantity),
                        EXPECTED.get((check.resource, check.row, check.kind), EXPECTED.get((check.resource, check.row), "ok")))


# one test a transcription, every check of it compared (each check a test cost more than the checks)
@pytest.mark.parametrize("resource", sorted({c.resource for c in CHECKS}))
def test_intel_figures_are_reproduced_or_flagged(resource):
    wrong = [f"{c.row} | {c.quantity} | {c.kind}: {c.status}, expected {_expected(c)} ({c.note})"
             for c in CHECKS if c.resource == resource and c.status != _expected(c)]
    assert wrong == []


def test_every_trace_figure_the_converted_traces_still_show_is_checked():
    rows = {c.row: c for c in CHECKS if c.resource == "intel-324611-s4-6-s4-7-trace-figures"}
    assert len(rows) == 11  # the four figures about the first read from the analyzer's names on its lost lines
    assert {r for r, c in rows.items() if c.kind == "prose"} == {
        "Test 4: read to completion time #1 (ns)", "Test 4: completion to next request #1 (ns)",
        "Test 4: request to request #1 (ns)", "Test 4: read throughput #1 (MB/s)"}
    assert sum(c.resource == "intel-324611-s3-5-examples" and "trace" in c.row for c in CHECKS) == 5


def test_every_statistic_value_and_example_figure_is_checked():
    # six figures of each block and its accesses per TLP
    assert sum(c.where.endswith("statistic block") and c.kind == "calculated" for c in CHECKS) == 5 * 7
    assert sum(c.resource == "intel-324611-s3-5-examples" for c in CHECKS) == 10 + 5
    # the theory column calculated, the measured column under its ceiling
    assert sum(c.resource == "intel-324611-test14" and c.kind == "calculated" for c in CHECKS) == 13
    assert sum(c.resource == "intel-324611-test15" and c.kind == "calculated" for c in CHECKS) == 4


def test_one_read_in_flight_is_the_serial_read_without_dllps():
    piped = pt.pipelined_reads_expr().subs(pt.read_substitution(pt.READS_LINK))
    for size in (1, 4, 64, 1024):
        one = float(piped.subs({pcie.payload: size, pt.completion_latency: 500, pt.reads_in_flight: 1}))
        assert one == pytest.approx(theory.test15_theoretical_mbyte_s(size), rel=1e-12)


def test_more_reads_in_flight_never_beat_the_completion_direction():
    piped = pt.pipelined_reads_expr().subs(pt.read_substitution(pt.READS_LINK))
    for size in (4, 256, 4096):
        wire = 1000 * pcie.goodput_gbit_s("write", pt.READS_LINK, size) / 8
        for k in (1, 2, 8, 64):
            got = float(piped.subs({pcie.payload: size, pt.completion_latency: 500, pt.reads_in_flight: k}))
            assert got <= wire * (1 + 1e-12)


def test_example_1_counts_three_plps_for_2400_bytes():
    r = pt.evaluate_example("write", 100, 4)
    assert r["plps"] == 3 and r["time_ns"] == pytest.approx(9648)
    assert r["write_share_percent"] == pytest.approx(100)


def test_example_2_waits_500_ns_per_read():
    r = pt.evaluate_example("read", 100, 4, t_c=500.0, d=1)
    assert r["time_ns"] == pytest.approx(70800)


def test_cpu_turnaround_fitted_to_test_15_matches_the_one_in_the_test_4_trace():
    result, seen = pt.fit_test15()
    assert result.rms_residual < 0.02
    assert seen and all(abs(result.values["t_cpu"] / ns - 1) < 0.1 for ns in seen)


def test_the_authors_calculations_take_no_cpu_time():
    assert pt.evaluate_example("read", 1, 4, t_c=500.0)["time_ns"] == pytest.approx(80 + 500 + 96)


# --- §3.5: every step of the worked examples and every tally of their traces ------------------------

def _traces():
    return {k: pcie_trace.parse(pt.published_log(pt.SYMBOL_LOGS[k])) for k in (1, 2)}


def _edited(table, row_label, text):
    """A copy of the figures table with one printed value replaced, as if the document printed ``text``."""
    i = next(r.Index for r in table.itertuples()
             if f"Example {r.example}{' trace' if r.basis == 'trace' else ''}: {r.quantity} ({r.unit})" == row_label)
    return edited_cell(table, i, "value", text)


def test_every_s3_5_figure_has_one_check_with_its_status():
    table = data.load(FIGURES)
    got = {c.row: c for c in CHECKS if c.resource == FIGURES}
    assert len(got) == len(table) == 64
    assert {r: c.status for r, c in got.items() if c.status != "ok"} == FIGURE_ERRATA
    assert {c.kind for c in got.values() if " trace:" in c.row} == {"prose"}
    assert got["Example 1: total transfer time (ns)"].model == 100 * 96 + 3 * 16
    assert got["Example 2: total transfer time (ns)"].model == 100 * (80 + 500 + 32 + 96)
    assert got["Example 2 trace: read direction: bytes of packets (bytes)"].model == 3 * 24 + 3 * 8 + 3 * 8
    assert got["Example 2 trace: write direction: bytes of packets (bytes)"].model == 3 * 20 + 3 * 8 + 4
    assert got["Example 2 trace: record duration (ns)"].model == 523 * 4


@pytest.mark.parametrize("row, text", [
    ("Example 1: total transfer time (ns)", "9650"),           # calculated: 100 x 96 + 3 x 16 = 9648
    ("Example 2: completion time (ns)", "100"),                # calculated: 24 x 4 = 96
    ("Example 1 trace: read direction: bytes of packets (bytes)", "56"),  # prose: six 8-byte DLLPs
    ("Example 1 trace: record duration (ns)", "290"),          # prose: 72 x 4 = 288
    ("Example 1 trace: write direction: MWr TLPs (packets)", "4"),        # a count one off
    ("Example 2 trace: read to completion time (ns)", "520"),  # each read waits 125 cycles
])
def test_a_wrong_s3_5_figure_is_caught(row, text):
    checks_ = theory.example_figure_checks(_edited(data.load(FIGURES), row, text), _traces())
    assert next(c for c in checks_ if c.row == row).status == "erratum"


def test_a_number_printed_with_a_space_is_checked_whole_and_verifies_each_part():
    """'70 800' is two numbers as the census counts them; its check compares 70800 and verifies both."""
    got = {c.row: c for c in CHECKS if c.resource in (FIGURES, "intel-324611-s3-5-operands")}
    spaced = [c for c in got.values() if c.published == "70800"]
    assert len(spaced) == 4 and {(c.verifies, c.status) for c in spaced} == {(2, "ok")}
    table = data.load(FIGURES)
    i = next(r.Index for r in table.itertuples() if r.quantity == "total transfer time" and r.example == 2)
    wrong = edited_cell(table, i, "value", "70 900", value=70900.0)  # the model's 100 x (80 + 500 + 32 + 96) = 70800
    c = next(c for c in theory.example_figure_checks(wrong, _traces()) if c.row == "Example 2: total transfer time (ns)")
    assert (c.published, c.verifies, c.status) == ("70900", 2, "erratum")


def test_a_count_one_off_is_not_rounding():
    c = checks.check("Intel 324611", "x", "x", "PLPs", "packets", "1", 0.0)
    assert c.status == "rounding"
    assert checks.check("Intel 324611", "x", "x", "PLPs", "packets", "1", 0.0, exact=True).status == "erratum"
    assert checks.check("Intel 324611", "x", "x", "PLPs", "packets", "1", 1.0, exact=True).status == "ok"
    # the PLP of Example 2's read direction, held as a count
    plp = [c for c in checks.collect("pcie-reads") if c.unit in theory.COUNT_UNITS and c.published == "1"]
    assert plp and all(c.status in ("ok", "erratum") for c in plp)


def test_farthest_holds_every_value_to_the_printed_one():
    assert theory.farthest([8, 8, 9], 8) == 9 and theory.farthest([500.0], 500) == 500.0
    with pytest.raises(ValueError):
        theory.farthest([], 1)


# --- §4: every AHB log against itself ----------------------------------------------------------------

def _ahb_checks(test, old=None, new=None):
    """The consistency checks of one AHB log, optionally with one piece of its text replaced."""
    name = ahb_logs.AHB_TRACES[test]
    text = pt.published_log(name).read_text()
    if old is not None:
        assert old in text
        text = text.replace(old, new, 1)
    return ahb_logs.ahb_consistency_checks(test, name, ahb_trace.parse_text(text, name))


def test_every_ahb_log_line_and_statistic_has_its_consistency_checks():
    got = [c for c in CHECKS if c.kind == "consistency" and c.resource.endswith("-ahb.log")]
    # one per delay (the first's against none before it), one for the smallest delay, eight per statistic block, one per run of
    # consecutive addresses (the whole log; the five 16-access cache-line fills of the prefetch trace)
    accesses = {"Test 1": 2, "Test 2": 2, "Test 3": 30, "Test 10": 20, "Test 11": 20, "Test 15 prefetch": 80}
    # and one per word a read test reads back from a write test's log (Tests 2 and 11), and one per chunk
    # of the prefetch trace for where it starts, one per access with flags (all but the prefetch trace's), and
    # one per log but Test 1's for the address of RAM[0] it starts at
    flagged = sum(n for t, n in accesses.items() if t != "Test 15 prefetch")
    assert len(got) == sum(n + 1 for n in accesses.values()) + 5 * 8 + 5 + 5 + 2 + 20 + 5 + flagged + 4
    assert [c.row for c in got if c.status != "ok"] == ["access 2 (line 10)"]
    # a delay check verifies its delay and its timestamp (the first also the first timestamp); the address
    # runs every address after their first
    delays = [c for c in got if c.quantity == "delay since the previous access" and c.row.startswith("access")]
    assert sum(c.verifies for c in delays) == sum(2 * (n - 1) + 2 for n in accesses.values())
    runs = [c for c in got if c.quantity == "address of the last access"]
    assert sum(c.verifies for c in runs) == sum(n - 1 for n in accesses.values()) - 4  # 4 jumps between fills


@pytest.mark.parametrize("test, old, new, row, quantity", [
    # a first access timed from an access before it, which there is not
    ("Test 1", "timestamp:      543 [          0 ns]", "timestamp:      543 [         10 ns]", "access 1 (",
     "delay since"),
    # a delay that is not the difference of its timestamps (1873 - 1852 = 21 ticks)
    ("Test 3", "timestamp: 1873 [ 210 ns]", "timestamp: 1873 [ 220 ns]", "access 2", "delay since"),
    # a minimum above the average
    ("Test 3", "min elapsed Time:         110.00 ns", "min elapsed Time:         140.00 ns", "30 accesses",
     "min elapsed Time"),
    # an average interval that 4 bytes at the average throughput (130.34 ns) do not give
    ("Test 3", "average elapsed Time:      130.34 ns", "average elapsed Time:      131.34 ns",
     "30 accesses: from its average throughput", "average elapsed Time"),
    # a delay shorter than one 10 ns AHB clock period
    ("Test 10", "timestamp: 1301232 [ 20.00 ns]", "timestamp: 1301232 [ 5.00 ns]", "shortest delay", "delay since"),
    # a word address out of step: 0x...4c printed as 0x...48 at the end of Test 10's writes
    ("Test 10", "addr: 0x0200004c", "addr: 0x02000048", "addresses of accesses 1-20", "address of the last"),
    # a word of a cache-line fill out of step in the prefetch trace
    ("Test 15 prefetch", "addr:\t0x0200003c", "addr:\t0x02000038", "addresses of accesses 1-16", "address"),
    # RAM[i] = i: word 4 holds 4; p64[i] = 1.2: the high word of 1.2 is 0x3FF33333 = 1072902963
    ("Test 3", "data: 0000000004", "data: 0000000005", "access 5", "data written"),
    ("Test 10", "0x02000044, data: 1072902963", "0x02000044, data: 1072902964", "access 18", "data written"),
])
def test_an_inconsistent_ahb_log_is_caught(test, old, new, row, quantity):
    got = [c for c in _ahb_checks(test, old, new) if c.row.startswith(row) and c.quantity.startswith(quantity)]
    assert got and got[0].status == "erratum", got


def test_each_statistic_block_counts_its_log_and_its_accesses_per_tlp():
    got = {(c.where, c.quantity): c for c in CHECKS
           if c.quantity.startswith("AHB accesses") and c.where.endswith("statistic block")}
    assert len(got) == 2 * 5 and {c.status for c in got.values()} == {"ok"}
    # 8-byte doubles in 4-byte AHB accesses
    assert got[("Test 10 statistic block", "AHB accesses per TLP")].model == 2
    assert got[("Test 3 statistic block", "AHB accesses in the statistic")].model == 30


def test_a_wrong_statistic_count_or_accesses_per_tlp_is_caught():
    name = ahb_logs.AHB_TRACES["Test 10"]
    trace = ahb_trace.parse(pt.published_log(name))
    trace.statistic_accesses = 21  # the parser refuses such a log; the check must catch it all the same
    got = {c.quantity: c.status for c in ahb_logs.ahb_consistency_checks("Test 10", name, trace)
           if c.quantity.startswith("AHB accesses")}
    assert got == {"AHB accesses in the statistic": "erratum", "AHB accesses per TLP": "ok"}
    trace = ahb_trace.parse(pt.published_log(name))
    trace.accesses_per_tlp = 1
    got = {c.quantity: c.status for c in ahb_logs.ahb_consistency_checks("Test 10", name, trace)
           if c.quantity.startswith("AHB accesses")}
    assert got == {"AHB accesses in the statistic": "ok", "AHB accesses per TLP": "erratum"}


def test_the_read_tests_read_back_the_words_the_write_tests_wrote_and_a_wrong_one_is_caught():
    got = [c for c in CHECKS if c.quantity == "data read"]
    assert len(got) == 2 + 20 and all(c.status == "ok" for c in got)
    logs = {t: ahb_trace.parse(pt.published_log(ahb_logs.AHB_TRACES[t])) for t in ("Test 1", "Test 2", "Test 10")}
    text = pt.published_log(ahb_logs.AHB_TRACES["Test 11"]).read_text()
    old = "addr: 0x02000008, data: 0858993459"
    assert text.count(old) == 1
    logs["Test 11"] = ahb_trace.parse_text(text.replace(old, "addr: 0x02000008, data: 0858993458"), "test11.log")
    wrong = [c for c in ahb_logs.read_back_checks(logs) if c.status != "ok"]
    assert [(c.where, c.row) for c in wrong] == [("Test 11 trace", "access 3 (line 7)")]


def test_every_ahb_log_starts_at_the_ram_word_test_1_writes_first_and_a_wrong_start_is_caught():
    got = [c for c in CHECKS if c.quantity == "address of RAM[0]"]
    assert sorted(c.where for c in got) == ["Test 10 trace", "Test 11 trace", "Test 2 trace", "Test 3 trace"]
    assert all((c.published, c.status) == ("0x02000000", "ok") for c in got)
    logs = {t: ahb_trace.parse(pt.published_log(n)) for t, n in ahb_logs.AHB_LOGS.items()}
    text = pt.published_log(ahb_logs.AHB_TRACES["Test 3"]).read_text()
    logs["Test 3"] = ahb_trace.parse_text(text.replace("addr: 0x02000000,", "addr: 0x02000100,", 1), "test3.log")
    wrong = [c for c in ahb_logs.ram_base_checks(logs) if c.status != "ok"]
    assert [(c.where, c.published) for c in wrong] == [("Test 3 trace", "0x02000100")]


# --- §4: the figures the text derives ---------------------------------------------------------------

S4 = "intel-324611-s4-figures"


def _s4_checks(table):
    ahb = {test: ahb_trace.parse(pt.published_log(name)) for test, name in ahb_logs.AHB_TRACES.items()}
    return s4_figures.s4_figure_checks(table, ahb, pcie_trace.parse(pt.published_log(pt.SYMBOL_LOGS[3])),
                                       data.load("intel-324611-s4-6-s4-7-trace-figures"), data.load("intel-324611-test14"))


def _s4_edited(row_label, text):
    table = data.load(S4)
    i = next(r.Index for r in table.itertuples()
             if row_label.startswith(f"§{r.section}: {r.quantity}" + (f" #{r.occurrence}" if r.occurrence > 1 else "")))
    return edited_cell(table, i, "value", text)


def test_every_s4_figure_has_one_check_with_its_status():
    got = {c.row: c for c in CHECKS if c.resource == S4}
    assert len(got) == len(data.load(S4)) == 73
    assert {c.kind for r, c in got.items() if "said to occur" in r} == {"ceiling"}
    assert (got["§4.12: iterations of the run shown"].model, got["§4.12: test the run shown is said to be of"].model) \
        == (20 / 2 / 1, 10)
    assert {r: c.status for r, c in got.items() if c.status != "ok"} == S4_ERRATA
    assert got["§4.12: throughput against the 4-byte writes"].model == pytest.approx(62068965.52 / 30687830.69)
    assert got["§4.17: prefetch time"].model == (6618289 - 6617486) * 10
    # 56.9 MB/s is over 4 bytes' 250 * 4 / 24 and under 8 bytes' 250 * 8 / 28; 177.1 MB/s between 32 and 64 bytes'
    assert got["§4.16: TLP payload of writes that partly fill a write-combining buffer"].model == 8
    assert got["§4.16: TLP payload of writes that fill a write-combining buffer"].model == 64
    assert s4_figures.payload_indicated(250 * 32 / 52) == 32 and s4_figures.payload_indicated(250 * 32 / 52 + 0.01) == 64
    with pytest.raises(ValueError, match="over the write ceiling"):
        s4_figures.payload_indicated(250.0)


@pytest.mark.parametrize("row, text", [
    ("§4.6: cycles per TLP", "32"),                    # prose: the trace's MWr start every 30 cycles
    ("§4.17: bytes prefetched", "256"),                # prose: 80 accesses of 4 bytes
    ("§4.17: cache line", "32"),                       # prose: the line fills are 16 accesses of 4 bytes
    ("§4.6: menu key that activates log file generation", "18"),  # §4.3: [17] Activate, [18] Deactivate
    ("§4.12: throughput against the 4-byte writes", "4"),         # consistency: 62.07 / 30.69 MB/s
    ("§4.4: shortest delay between writes", "120"),    # consistency: Test 1 and Test 3 show 110 ns
    ("§4.7: time per trace line", "6"),                # calculated: 10 bits at 2.5 GT/s
    ("§4.4: bytes per AHB access", "8"),               # consistency: the Test 1 log's addresses step by 4
    ("§4.13: iterations of the run shown", "20"),      # consistency: 20 accesses, 2 a TLP, 1 TLP an iteration
    ("§4.12: test the run shown is said to be of", "8"),   # prose: Test 8 makes 32-bit accesses
    ("§4.6: write accesses of the run shown", "32"),   # consistency: the statistic counts 30
    ("§4.6: symbol time", "8"),                        # calculated: 10 bits at 2.5 GT/s
    ("§4.13: TLP payload", "4"),                       # consistency: the Test 11 log's 2 accesses a TLP
    ("§4.12: TLP payload", "4"),                       # consistency: the Test 10 log's 2 accesses a TLP
    ("§4.17: AHB RAM bytes Test 15 needs at least", "4"),   # prose: Test 15 reads up to 8 bytes
    ("§4.16: third of the writes issued as 8-byte TLPs", "64"),   # prose: 177.1 MB/s needs 64-byte TLPs
    ("§4.16: largest write that follows its own payload's ceiling from the smallest", "16"),  # prose: 56.9 MB/s
    ("§4.16: TLP payload of writes that partly fill a write-combining buffer", "16"),   # prose: 56.9 MB/s fits under 8 bytes' 71.4
    ("§4.16: TLP payload of writes that fill a write-combining buffer", "32"),         # prose: 177.1 MB/s is over 32 bytes' 153.8
    ("§4.4: delay between two writes said to occur", "90"),         # ceiling: no sooner than a 96 ns write TLP
    ("§4.4: long delay between two writes said to occur", "0.05"),  # ceiling: 0.096 µs at least
])
def test_a_wrong_s4_figure_is_caught(row, text):
    assert next(c for c in _s4_checks(_s4_edited(row, text)) if c.row == row).status == "erratum"


def test_the_first_read_of_test_4_is_placed_by_the_analyzers_names():
    trace = pcie_trace.parse(pt.published_log(pt.SYMBOL_LOGS[4]))
    # MRd named at 57258, 20 symbols long: ends 57277; Cp1D named at 57406; its END at 57429; next MRd 57648
    assert pcie_trace.annotated_read_timing(trace) == {
        "request_first": 57258, "request_last": 57277, "to_completion": 57406 - 57277 - 1,
        "to_next_request": 57648 - 57429 - 1, "to_next_request_start": 57648 - 57258}
    table = data.load("intel-324611-s4-6-s4-7-trace-figures")
    i = next(r.Index for r in table.itertuples() if (r.test, r.quantity, r.occurrence) == (4, "read to completion time", 1))
    wrong = reprinted(table, i, "value", "540")
    got = {c.row: c.status for c in analyzer.test4_first_read_checks(wrong, trace)}
    assert got["Test 4: read to completion time #1 (ns)"] == "erratum"


# --- §3.2: the TLP overhead, its range and the best case ---------------------------------------------

def test_every_s3_2_figure_is_checked_and_reproduced():
    got = {c.row: c for c in CHECKS if c.resource == "intel-324611-s3-2-overhead"}
    assert len(got) == len(data.load("intel-324611-s3-2-overhead")) == 19
    assert {c.status for c in got.values()} == {"ok"}
    # '0 to 1024 dwords of data': the read requests of the traces carry none
    assert (got["data payload at least (dwords)"].model, got["data payload at least (dwords)"].relation) == (0, "<=")
    assert got["header named over the second sum (dwords)"].kind == "consistency"
    assert got["best case formula, byte rate after the physical layer (MB/s)"].model == 250
    # 1 + 2 + 4 + 1 framing bytes with a 12- or 16-byte header, and 4 bytes of ECRC at most
    assert got["TLP overhead at least (bytes)"].model == 1 + 2 + 12 + 4 + 1
    assert got["TLP overhead at most (bytes)"].model == 1 + 2 + 16 + 4 + 4 + 1
    assert got["best case throughput with TLP overhead (MB/s)"].model == pytest.approx(250 * 4096 / 4116)


@pytest.mark.parametrize("quantity, unit, text", [
    ("TLP overhead at most", "dwords", "8"),
    ("TLP header with 64-bit addresses", "dwords", "3"),
    ("best case throughput with TLP overhead", "MB/s", "248.55"),
    ("header named over the second sum", "dwords", "3"),    # its sum adds a 16-byte header field
    ("best case formula, payload", "bytes", "4092"),
    ("data payload at least", "dwords", "1"),              # the traces' read requests carry no data
])
def test_a_wrong_s3_2_figure_is_caught(quantity, unit, text):
    table = data.load("intel-324611-s3-2-overhead")
    i = next(r.Index for r in table.itertuples() if (r.quantity, r.unit) == (quantity, unit))
    wrong = reprinted(table, i, "value", text)
    got = {c.row: c.status for c in theory.s3_2_overhead_checks(wrong)}
    assert got[f"{quantity} ({unit})"] == "erratum"


# --- §4.16 and §4.17: Test 14's and Test 15's measured throughputs under their ceilings ---------------

def test_every_measured_test14_and_test15_cell_is_held_to_its_ceiling():
    got = [c for c in CHECKS if c.kind == "ceiling" and c.resource in ("intel-324611-test14", "intel-324611-test15")]
    assert len(got) == len(data.load("intel-324611-test14")) + len(data.load("intel-324611-test15")) == 17
    assert {(c.relation, c.status) for c in got} == {("<=", "ok")}
    by_row = {(c.resource, c.row): c for c in got}
    # 64 bytes written in a TLP of 64 + 20 bytes at 250 MB/s
    assert by_row[("intel-324611-test14", "64 bytes")].model == pytest.approx(250 * 64 / 84)
    # a 1-byte read: request of 20 bytes, 500 ns, completion of 1 + 20 bytes, 4 ns a byte
    assert by_row[("intel-324611-test15", "1 bytes")].model == pytest.approx(1000 / (4 * 20 + 500 + 4 * 21))


@pytest.mark.parametrize("name, index, text, row", [
    ("intel-324611-test14", 6, "195.0", "64 bytes"),    # over 250 * 64 / 84 = 190.5
    ("intel-324611-test15", 3, "12.0", "8 bytes"),      # over the 8-byte read's 11.56
])
def test_a_measured_throughput_over_its_ceiling_is_caught(name, index, text, row):
    tables = {n: data.load(n) for n in ("intel-324611-test14", "intel-324611-test15")}
    tables[name] = edited_cell(tables[name], index, "measured_mbyte_s", text)
    got = {(c.resource, c.row): c.status for c in s4_figures.measured_ceiling_checks(*tables.values())}
    assert got[(name, row)] == "erratum"
    assert sum(s != "ok" for s in got.values()) == 1


# --- §3.2: the size of each field of the overhead rows ---------------------------------------------------

def test_every_s3_2_field_is_checked_and_reproduced():
    got = {c.row: c for c in CHECKS if c.resource == "intel-324611-s3-2-fields"}
    assert len(got) == len(data.load("intel-324611-s3-2-fields")) == 19
    assert {(c.status, c.exact) for c in got.values()} == {("ok", True)}
    # the sums of each row are §3.2's 20- to 28-byte overheads
    table = data.load("intel-324611-s3-2-fields")
    assert table.groupby("tlp")["bytes"].sum().to_dict() == {
        "any TLP": 1 + 2 + 12 + 16 + 4 + 4 + 1, "short header, no ECRC": 20, "long header, no ECRC": 24}
    assert got["long header, no ECRC: TLP header"].model == 16
    assert got["any TLP: ECRC"].model == 4 and got["short header, no ECRC: ECRC"].model == 0


@pytest.mark.parametrize("index, text, row", [
    (1, "1", "any TLP: sequence number"),          # a 2-byte field
    (11, "2", "short header, no ECRC: LCRC"),       # a 4-byte CRC
    (15, "12", "long header, no ECRC: TLP header"),  # 4 dwords
    (16, "4", "long header, no ECRC: ECRC"),        # no ECRC on this row
    (18, "2", "long header, no ECRC: end"),         # one symbol
])
def test_a_wrong_s3_2_field_is_caught(index, text, row):
    wrong = edited_cell(data.load("intel-324611-s3-2-fields"), index, "bytes", text)
    got = {c.row: c.status for c in theory.s3_2_field_checks(wrong)}
    assert got[row] == "erratum"
    assert sum(s != "ok" for s in got.values()) == 1


OPERANDS = "intel-324611-s3-5-operands"


def test_every_s3_5_operand_is_checked_against_what_it_repeats():
    table = data.load(OPERANDS)
    got = {c.row: c for c in CHECKS if c.resource == OPERANDS}
    assert len(got) == len(table) == 69
    # the trace's 533 cycles take 2132 ns; 2128 is 532 x 4, as the figure it restates (FIGURE_ERRATA)
    assert {r: c.status for r, c in got.items() if c.status != "ok"} == {
        "Example 2: net read throughput (trace), operand record duration": "erratum"}
    assert got["Example 1: net write throughput (trace), operand record duration"].model == 72 * 4
    assert got["Example 2: record duration, operand byte time"].kind == "calculated"
    assert {c.kind for c in got.values()} == {"calculated", "consistency", "prose"}
    assert got["Example 1: total transfer time, operand write TLP time"].model == (4 + 20) * 4
    assert got["Example 2: total transfer time, operand DLLPs waited for"].model == 100
    assert got["Example 2: read request time, operand read request payload"].model == 0
    assert (got["Example 1: PLPs over all writes, operand shortest SKP interval"].model,
            got["Example 1: PLPs over all writes, operand longest SKP interval"].model) == (1180, 1538)
    # the examples count their PLPs with the shortest interval the specification allows: 2400 bytes, 3 PLPs
    assert pt.INTEL_PLP[pt.plp_interval] == pt.SKP_SCHEDULE_SYMBOLS[0]


def _operand_row(table, row):
    return next(i for i, c in zip(table.index, theory.example_operand_checks(table, _traces())) if c.row == row)


@pytest.mark.parametrize("row, text", [
    ("Example 1: total transfer time, operand write TLP time", "92"),          # calculated: 24 x 4 = 96
    ("Example 2: total transfer time, operand reads (2)", "10"),               # consistency: 100 reads
    ("Example 1: DLLPs per write TLP, operand Ack DLLPs per write TLP", "2"),  # prose: one Ack per MWr
    ("Example 2: PLPs per direction, operand longest SKP interval", "1518"),   # prose: the spec's 1538
    ("Example 1: net write throughput (trace), operand record duration", "284"),  # prose: 72 cycles x 4 ns
])
def test_a_wrong_s3_5_operand_is_caught(row, text):
    table = data.load(OPERANDS)
    wrong = edited_cell(table, _operand_row(table, row), "value", text)
    assert next(c for c in theory.example_operand_checks(wrong, _traces()) if c.row == row).status == "erratum"


def _symbol_traces():
    return {k: pcie_trace.parse(pt.published_log(name)) for k, name in pt.SYMBOL_LOGS.items()}


def test_every_s3_4_figure_is_checked_and_reproduced():
    got = {c.row: c for c in CHECKS if c.resource == "intel-324611-s3-4"}
    assert len(got) == len(data.load("intel-324611-s3-4")) == 5
    assert {c.status for c in got.values()} == {"ok"}
    assert (got["DLLP size"].kind, got["PLP size"].kind) == ("calculated", "prose")
    assert (got["shortest SKP interval"].model, got["longest SKP interval"].model) == (1180, 1538)


@pytest.mark.parametrize("row, text", [
    ("DLLP size", "6"),                     # calculated: 8 bytes with framing
    ("PLP size, SKIP ordered set", "3"),    # prose: COM and three SKP symbols in the traces
    ("longest SKP interval", "1540"),       # prose: the specification's 1538
])
def test_a_wrong_s3_4_figure_is_caught(row, text):
    table = data.load("intel-324611-s3-4")
    i = next(r.Index for r in table.itertuples() if r.quantity == row)
    got = {c.row: c.status for c in theory.s3_4_checks(edited_cell(table, i, "value", text), _symbol_traces())}
    assert got[row] == "erratum"


PREFETCH = pt.published_log(ahb_logs.AHB_TRACES["Test 15 prefetch"])


def test_each_prefetch_chunk_starts_on_its_line_and_the_text_names_the_chunks_read_out_of_order():
    got = ahb_logs.prefetch_chunk_source_checks()
    assert len(got) == 5 + 2 and {c.status for c in got} == {"ok"}
    starts = [int(c.model) for c in got if c.quantity == "first address of the chunk"]
    assert starts == [0x02000000, 0x02000040, 0x020000C0, 0x02000080, 0x02000180]
    named = {c.quantity: int(c.model) for c in got if c.kind == "prose"}
    assert named == {"chunk read before a chunk at a lower address": 0x020000C0,
                     "the lower chunk read after it": 0x02000080}


@pytest.mark.parametrize("old, new, row", [
    # a chunk that starts off its 64-byte line
    ("0x02000080,\tdata:\t0303174162", "0x02000084,\tdata:\t0303174162", "chunk 4 (line 53)"),
    # a first chunk elsewhere than the AHB RAM's first word
    ("0x02000000,\tdata", "0x02000100,\tdata", "chunk 1 (line 5)"),
])
def test_a_prefetch_chunk_that_starts_off_its_line_is_caught(tmp_path, old, new, row):
    text = PREFETCH.read_text(encoding="utf-8")
    assert text.count(old) == 1
    wrong = tmp_path / PREFETCH.name
    wrong.write_text(text.replace(old, new), encoding="utf-8")
    got = ahb_logs.prefetch_chunk_checks(ahb_trace.parse(wrong), ahb_trace.parse(pt.published_log(ahb_logs.AHB_TRACES["Test 1"])),
                                         data.load("intel-324611-s4-17-prefetch"))
    assert next(c for c in got if c.row == row).status == "erratum"


def test_a_wrong_address_named_for_the_prefetch_order_is_caught():
    table = data.load("intel-324611-s4-17-prefetch")
    wrong = reprinted(table, 1, "value", "0x02000040")   # read before 0x020000c0, not after it
    got = ahb_logs.prefetch_chunk_checks(ahb_trace.parse(PREFETCH), ahb_trace.parse(pt.published_log(ahb_logs.AHB_TRACES["Test 1"])),
                                         wrong)
    assert {c.quantity: c.status for c in got if c.kind == "prose"}["the lower chunk read after it"] == "erratum"


def test_the_menus_access_widths_are_the_logs_and_a_wrong_one_is_caught():
    ahb = {t: ahb_trace.parse(pt.published_log(n)) for t, n in ahb_logs.AHB_LOGS.items()}
    menu = data.load("intel-324611-s4-3-menu")
    got = {c.row: c for c in s4_figures.s4_3_menu_checks(menu, ahb)}
    assert {r: (c.model, c.status) for r, c in got.items()} == {
        "§4.3: 32 bit Accesses": (32, "ok"), "§4.3: 64 bit Accesses": (64, "ok"),
        "§4.3: Test 10": (64, "ok"), "§4.3: Test 11": (64, "ok"), "§4.3: Test 8": (32, "ok"),
        "§4.3: Test 9": (32, "ok"), "§4.3: Test 12": (64, "ok"), "§4.3: Test 13": (64, "ok")}
    i = next(r.Index for r in menu.itertuples() if r.entry == "Test 11")
    wrong = s4_figures.s4_3_menu_checks(edited_cell(menu, i, "access_bits", "32"), ahb)
    assert next(c for c in wrong if c.row == "§4.3: Test 11").status == "erratum"
    j = next(r.Index for r in menu.itertuples() if r.entry == "Test 8")
    wrong = s4_figures.s4_3_menu_checks(edited_cell(menu, j, "access_bits", "64"), ahb)
    assert next(c for c in wrong if c.row == "§4.3: Test 8").status == "erratum"


def test_the_run_a_section_shows_is_named_by_its_loop():
    """A menu whose Test 12 made one 64-bit write an iteration would make §4.12's 'test 12' right."""
    menu = data.load("intel-324611-s4-3-menu")
    i = next(r.Index for r in menu.itertuples() if r.entry == "Test 10")
    swapped = edited_cell(menu, i, "accesses_per_iteration", "64")
    j = next(r.Index for r in menu.itertuples() if r.entry == "Test 12")
    swapped = edited_cell(swapped, j, "accesses_per_iteration", "", value=float("nan"))
    ahb = {test: ahb_trace.parse(pt.published_log(name)) for test, name in ahb_logs.AHB_TRACES.items()}
    got = s4_figures.s4_figure_checks(data.load(S4), ahb, pcie_trace.parse(pt.published_log(pt.SYMBOL_LOGS[3])),
                                      data.load("intel-324611-s4-6-s4-7-trace-figures"), data.load("intel-324611-test14"),
                                      swapped)
    assert next(c for c in got if c.row == "§4.12: test the run shown is said to be of").status == "ok"


def test_every_ahb_flag_is_the_shared_word_with_the_write_bit_and_a_wrong_one_is_caught():
    logs = {t: ahb_trace.parse(pt.published_log(n)) for t, n in ahb_logs.AHB_LOGS.items()}
    got = ahb_logs.flag_checks(logs)
    assert len(got) == sum(len(t.accesses) for t in logs.values()) == 74
    assert {c.status for c in got} == {"ok"}
    assert {(c.published, int(c.model)) for c in got} == {("0x0105", 0x105), ("0x0104", 0x104)}
    text = pt.published_log(ahb_logs.AHB_LOGS["Test 3"]).read_text(encoding="utf-8")
    # the seventh access of Test 3 marked as a read, its direction still WRITE
    wrong = text.replace("0000000006, flags: 0x0105", "0000000006, flags: 0x0104", 1)
    assert wrong != text
    logs["Test 3"] = ahb_trace.parse_text(wrong, "test3")
    bad = [c for c in ahb_logs.flag_checks(logs) if c.status != "ok"]
    assert [(c.where, c.row, c.status) for c in bad] == [("Test 3 trace", "access 7 (line 11)", "erratum")]


def test_the_largest_payload_the_standard_defines_is_the_models_and_a_wrong_one_is_caught():
    table = data.load("intel-324611-s3-3")
    assert [(c.model, c.status) for c in theory.s3_3_checks(table)] == [(4096, "ok")]
    assert [c.status for c in theory.s3_3_checks(edited_cell(table, 0, "value", "1024"))] == ["erratum"]


@pytest.mark.parametrize("section", ["4.12", "4.13"])
def test_a_wrong_payload_of_the_test_compared_with_is_caught(section):
    table = data.load(S4)
    i = next(r.Index for r in table.itertuples()
             if (r.section, r.quantity, r.occurrence) == (section, "TLP payload of the test compared with", 1))
    row = f"§{section}: TLP payload of the test compared with"
    assert next(c for c in _s4_checks(table) if c.row == row).status == "ok"
    assert next(c for c in _s4_checks(edited_cell(table, i, "value", "8")) if c.row == row).status == "erratum"


def test_one_printed_time_held_to_gaps_across_elisions_verifies_the_first_cycle_numbers_after_them():
    """Example 2's 500 ns is each of three request-to-completion gaps, each across a '...' of the trace: three
    equations in the printed time and the first cycle numbers of the four runs they chain verify three numbers;
    a run renumbered by one (its own framing still counting up by one) makes its gap 4 ns off."""
    traces = _traces()
    c = next(c for c in theory.example_figure_checks(data.load(FIGURES), traces)
             if c.row == "Example 2 trace: read to completion time (ns)")
    assert (c.published, c.verifies, c.status) == ("500", 3, "ok")
    trace = traces[2]
    gaps = [(r["request_last"], r["request_last"] + r["to_completion"] + 1) for r in pcie_trace.read_timings(trace)]
    assert theory.gap_constraints(trace, gaps[:1]) == 1 and theory.gap_constraints(trace, [(0, 5), (2, 9)]) == 1
    text = pt.published_log(pt.SYMBOL_LOGS[2]).read_text(encoding="utf-8")
    shifted = "\n".join(f"{int(line[:5]) + 1:05d}{line[5:]}" if line[:5].isdigit() and 144 <= int(line[:5]) <= 198
                        else line for line in text.splitlines())
    wrong = {**traces, 2: pcie_trace.parse_text(shifted, pt.SYMBOL_LOGS[2])}
    c = next(c for c in theory.example_figure_checks(data.load(FIGURES), wrong)
             if c.row == "Example 2 trace: read to completion time (ns)")
    assert c.status == "erratum" and c.model == 504


def test_a_read_cut_into_requests_and_completions_worked_by_hand():
    # gen 3 x4: 8 GT/s x 4 lanes x 128/130 after the code, so a byte takes 8 x 130 / (32 x 128) = 0.25390625 ns.
    # 1024 bytes with MRRS 512 and MPS 256: 2 requests of 8 + 12 bytes, 4 completions of 8 + 12 bytes plus
    # the 1024 bytes of data; 40 + 1104 bytes on the wire and 500 ns in the completer.
    link = pcie.Link(gen=3, lanes=4, mps=256, mrrs=512, dllp="none")
    subs = {**pt.read_substitution(link), pcie.payload: 1024, pt.completion_latency: 500, pt.reads_in_flight: 1}
    assert int(pt.read_requests_expr().subs(subs)) == 2 and int(pt.read_completions_expr().subs(subs)) == 4
    assert float(pt.read_latency_expr().subs(subs)) == pytest.approx(1144 * 0.25390625 + 500, rel=1e-12)
    assert pt.pipelined_read_mbyte_s(1024, 500, 1, link) == pytest.approx(1000 * 1024 / 790.46875, rel=1e-12)
    # four in flight would bring 5181 MB/s; the completions' 1104 bytes per read allow 1024 / (1104 x 0.2539)
    assert pt.pipelined_read_mbyte_s(1024, 500, 4, link) == pytest.approx(1000 * 1024 / (1104 * 0.25390625))
    # split at a 64-byte read completion boundary: 16 completions, 1024 + 16 x 20 bytes
    at_rcb = pcie.Link(gen=3, lanes=4, mps=256, mrrs=512, dllp="none", split="rcb", rcb=64)
    assert pt.pipelined_read_mbyte_s(1024, 500, 4, at_rcb) == pytest.approx(1000 * 1024 / (1344 * 0.25390625))


def test_tiny_reads_with_long_request_headers_are_bound_by_the_requests():
    # 4 DW requests of 1 byte: 8 + 16 bytes of request for 1 + 8 + 12 of completion; with many in flight the
    # request direction fills first
    link = pcie.Link(gen=1, lanes=1, mps=4096, mrrs=4096, addr=64, dllp="none")
    byte_ns = 8 / 2.0
    assert pt.pipelined_read_mbyte_s(1, 0, 16, link) == pytest.approx(1000 * 1 / (24 * byte_ns))
