"""The AHB trace parser, on the tutorial's real logs and on logs broken on purpose."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, mutated_log, parse_or_refuse

from goodput import checks
from goodput.core.errors import LogFormatError
from goodput.logs import ahb_trace

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs" / "published"
AHB = sorted(LOGS.glob("*-ahb.log"))
TEST3 = LOGS / "intel-324611-test3-ahb.log"


def test_every_published_ahb_log_parses():
    assert len(AHB) == 6
    for path in AHB:
        trace = ahb_trace.parse(path)
        assert len(trace.accesses) >= 2
        assert trace.accesses["ticks"].is_monotonic_increasing


def test_each_published_log_names_its_source_section():
    for path in AHB:
        head = path.read_text().splitlines()[:2]
        assert head[0].startswith("# source: Intel 324611") and "§4." in head[0]
        assert head[1].startswith("# excerpt: shared/seeds/002_a898e4077bce5493.txt lines")


def test_test_3_statistic_block_is_recomputed_from_its_timestamps():
    trace = ahb_trace.parse(TEST3)
    assert trace.statistic_accesses == 30 and trace.accesses_per_tlp == 1
    recomputed = ahb_trace.statistics(trace)
    for key in ahb_trace.STATISTIC_KEYS:
        assert checks.classify(trace.printed[key], recomputed[key]) == "ok", key


def test_two_accesses_per_tlp_pair_up_into_8_byte_tlps():
    trace = ahb_trace.parse(LOGS / "intel-324611-test10-ahb.log")
    s = ahb_trace.statistics(trace)
    assert trace.accesses_per_tlp == 2
    assert s["average throughput"] == pytest.approx(8 / s["average elapsed Time"] * 1e9)


def test_prefetch_trace_has_no_flags_and_reads_64_byte_lines():
    trace = ahb_trace.parse(LOGS / "intel-324611-test15-prefetch-ahb.log")
    assert len(trace.accesses) == 80 and set(trace.accesses["direction"]) == {""}
    assert trace.statistic_line is None


def test_printed_delays_match_the_timestamps_except_the_test_2_typo():
    for path in AHB:
        trace = ahb_trace.parse(path)
        ticks, delays = trace.accesses["ticks"].diff().iloc[1:], trace.accesses["delay_ns"].iloc[1:]
        bad = [i for i, (t, d) in enumerate(zip(ticks, delays)) if t * ahb_trace.TICK_NS != d]
        assert bad == ([0] if "test2" in path.name else []), path.name


GOOD = TEST3.read_text()


def _broken(old, new, count=1):
    text = GOOD.replace(old, new, count)
    assert text != GOOD
    return text


@pytest.mark.parametrize("text, words", [
    (_broken("timestamp:    2182 [    110 ns]", "timestamp:    2182 [    110 ms]"), "not an AHB access line"),
    (_broken("addr: 0x02000008,", "addr: 0x0200000G,"), "not an AHB access line"),
    (_broken("average elapsed Time:      130.34 ns", "average elapsed Time:      many ns"), "not a statistic value"),
    (_broken("Statistic for 30 AHB accesses:", "Statistic for 31 AHB accesses:"), "counts 31 accesses"),
    (GOOD.split("max throughput")[0], "cut short"),
])
def test_malformed_logs_raise_log_format_error_naming_file_and_line(text, words):
    with pytest.raises(LogFormatError, match=words) as info:
        ahb_trace.parse_text(text, "broken.log")
    assert info.value.path == "broken.log" and info.value.line_number >= 1
    assert str(info.value).startswith(f"broken.log:{info.value.line_number}: ")


def test_a_log_without_accesses_is_an_error():
    with pytest.raises(LogFormatError, match="no AHB access lines"):
        ahb_trace.parse_text("# nothing here\n", "empty.log")


LINES = GOOD.splitlines()


@FUZZ
@given(data=st.data())
def test_mutated_logs_parse_or_raise_log_format_error_naming_one_of_their_lines(data, tmp_path_factory):
    trace = parse_or_refuse(ahb_trace.parse, mutated_log(data, AHB), tmp_path_factory.getbasetemp() / "mutated.log")
    if trace is not None and trace.statistic_line is not None and len(trace.accesses) >= 2 * trace.accesses_per_tlp:
        ahb_trace.statistics(trace)


def test_a_repeated_or_earlier_timestamp_is_an_error():
    line = next(l for l in LINES if l.startswith("timestamp:") and " 1884 " in l)
    with pytest.raises(LogFormatError, match="does not follow"):
        ahb_trace.parse_text(GOOD.replace(line, line + "\n" + line), "dup.log")


def test_a_timestamp_of_5000_digits_is_refused_naming_its_line():
    line = next(l for l in LINES if l.startswith("timestamp:") and " 1884 " in l)
    with pytest.raises(LogFormatError, match="not an AHB access line") as info:
        ahb_trace.parse_text(GOOD.replace(" 1884 ", " " + "9" * 5000 + " "), "big.log")
    assert info.value.line_number == LINES.index(line) + 1


def test_a_tlp_in_zero_ahb_accesses_is_refused_naming_its_line():
    with pytest.raises(LogFormatError, match="a TLP cannot end up in 0 AHB accesses") as info:
        ahb_trace.parse_text(_broken("ends up in 1 AHB", "ends up in 0 AHB"), "zero.log")
    assert LINES[info.value.line_number - 1].startswith("Every PCIe")


def test_each_delay_is_kept_as_printed_and_recomputed_from_the_timestamps():
    trace = ahb_trace.parse(LOGS / "intel-324611-test10-ahb.log")
    assert list(trace.accesses["delay_text"][:3]) == ["0.00", "20.00", "110.00"]
    # 1301232 - 1301230 = 2 ticks, 1301243 - 1301232 = 11 ticks of 10 ns
    assert list(ahb_trace.delays_from_timestamps(trace)[:3]) == [0.0, 20.0, 110.0]
    assert ahb_trace.time_from_rate(4, 36363636.36) == pytest.approx(110.0, abs=1e-6)
    assert ahb_trace.rate_from(8, 128.888888888889) == pytest.approx(62068965.52, abs=0.01)
