from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goodput.errors import LogFormatError
from goodput.logs import ndk_console

from mutations import FUZZ, mutated_log, parse_or_refuse

ROOT = Path(__file__).resolve().parent.parent / "data" / "logs"
#: The logs the parser reads: the document's excerpt and our testees' captures.
LOGS = [ROOT / "published" / "spraaq5-testee-console.log", *sorted((ROOT / "host").glob("*-testee.log")),
        *sorted((ROOT / "qemu").glob("*-testee.log"))]
RECEIVED = "Received packets of 8192 bytes for a total of 40960000 bytes\n"
THROUGHPUT = "for a throughput of 93992 kb/s at a CPU load of 25%\n"


def test_the_documents_testee_output_gives_its_eight_runs():
    runs = ndk_console.parse(ROOT / "published" / "spraaq5-testee-console.log")
    assert list(runs["direction"]) == ["receive"] * 4 + ["transmit"] * 4
    first = runs.iloc[0]
    assert (first.frame_bytes, first.frames, first.total_bytes, first.kbit_s, first.cpu_load_percent) == (
        8192, 5000, 40960000, 93992, 25)
    assert runs.iloc[-1].kbit_s == 14889


@pytest.mark.parametrize("name", ["host/loopback-testee.log", "host/shaped-100m-testee.log",
                                  "qemu/tcp-loop-mps2-an386-testee.log"])
def test_our_testee_prints_sentences_the_same_parser_reads(name):
    path = ROOT / name
    runs = ndk_console.parse(path)
    assert len(runs) >= 2 and set(runs["direction"]) == {"receive", "transmit"}
    assert (runs["total_bytes"] == runs["frames"] * runs["frame_bytes"]).all()


def test_a_first_line_without_its_second_names_the_line():
    text = "Received packets of 8192 bytes for a total of 40960000 bytes\nsomething else\n"
    with pytest.raises(LogFormatError, match=r"t\.log:2: a receive line without its throughput line"):
        ndk_console.parse_text(text, "t.log")


def test_a_total_that_is_not_whole_frames_is_refused():
    text = ("Transmitted 5000 frames of 8192 bytes for a total of 4096000\n"
            "at a rate of 93170 kb/s with a CPU load of 36%\n")
    with pytest.raises(LogFormatError, match=r"t\.log:1: 5000 frames of 8192 bytes are not 4096000 bytes"):
        ndk_console.parse_text(text, "t.log")


def test_other_lines_are_skipped():
    assert ndk_console.parse_text("Link Status: 100Mb/s Full Duplex on PHY 0\n...\n").empty


def test_ndk_parser_refuses_a_received_run_of_0_byte_frames_naming_its_line():
    text = "Link up\nReceived packets of 0 bytes for a total of 0 bytes\n" + THROUGHPUT
    with pytest.raises(LogFormatError, match=r"t\.log:2: a receive run of 0-byte frames"):
        ndk_console.parse_text(text, "t.log")


def test_ndk_parser_refuses_a_transmitted_run_of_0_byte_frames_naming_its_line():
    text = "Transmitted 5000 frames of 0 bytes for a total of 0\nat a rate of 1 kb/s with a CPU load of 3%\n"
    with pytest.raises(LogFormatError, match=r"t\.log:1: a transmit run of 0-byte frames"):
        ndk_console.parse_text(text, "t.log")


@pytest.mark.parametrize("number, line", [("8192", 1), ("40960000", 1), ("93992", 2), ("25%", 2)])
def test_ndk_parser_refuses_a_number_of_5000_digits_naming_its_line(number, line):
    text = (RECEIVED + THROUGHPUT).replace(number, "9" * 5000 + number.lstrip("0123456789"), 1)
    with pytest.raises(LogFormatError, match="not a receive line|without its throughput line") as info:
        ndk_console.parse_text(text, "t.log")
    assert info.value.line_number == line


def test_a_log_that_ends_on_a_first_line_names_that_line_not_the_one_after():
    with pytest.raises(LogFormatError, match=r"t\.log:2: the log ends after a receive line"):
        ndk_console.parse_text("Link up\n" + RECEIVED, "t.log")


def test_a_sentence_that_does_not_read_is_refused_not_skipped():
    with pytest.raises(LogFormatError, match=r"t\.log:1: not a receive line"):
        ndk_console.parse_text(RECEIVED.replace("8192", "8l92") + THROUGHPUT, "t.log")


def test_a_throughput_line_without_its_first_line_is_refused():
    with pytest.raises(LogFormatError, match=r"t\.log:2: a receive throughput line without the line before it"):
        ndk_console.parse_text("Link up\n" + THROUGHPUT, "t.log")


@FUZZ
@given(data=st.data())
def test_mutated_logs_parse_or_raise_log_format_error_naming_one_of_their_lines(data, tmp_path_factory):
    runs = parse_or_refuse(ndk_console.parse, mutated_log(data, LOGS), tmp_path_factory.getbasetemp() / "mutated.log")
    if runs is not None:
        assert (runs["frames"] * runs["frame_bytes"] == runs["total_bytes"]).all()


# --- the tester's console ------------------------------------------------------------------------

TESTER = ROOT / "published" / "spraaq5-tester-console.log"
REQUEST = "  Requesting 8192 bytes frames at 10 ms frame rate...\n"
GOT = "    ...received 5000 frames\n"


def test_the_documents_tester_output_gives_its_nine_runs():
    runs = ndk_console.parse_tester(TESTER)
    assert list(runs["task"]) == ["send"] * 5 + ["receive"] * 4
    assert list(runs["frame_bytes"]) == [8192, 8192, 8192, 65536, 65536, 8192, 8192, 65536, 65536]
    assert list(runs["period_ms"]) == [0, 10, 30, 10, 30, 0, 10, 10, 30]
    assert set(runs["frames"]) == {5000}
    assert (runs.iloc[0].line, runs.iloc[-1].line) == (8, 24)  # below the log's 3-line header


def test_the_testee_parser_skips_the_testers_lines():
    assert ndk_console.parse(TESTER).empty


@pytest.mark.parametrize("text, line, words", [
    ("  Sending 5000 frames of 8l92 at 10 ms frame rate\n", 1, "not a tester send line"),
    ("Link up\n" + REQUEST, 2, "without its '...received N frames' line"),
    (REQUEST + "Link up\n", 2, "without its '...received N frames' line"),
    ("Link up\n" + GOT, 2, "'...received' line without the request"),
    (REQUEST.replace("10 ms", "ten ms"), 1, "not a tester request line"),
    (REQUEST + GOT.replace("5000", "many"), 2, "without its '...received N frames' line"),
    ("  Sending 5000 frames of 8192 at " + "9" * 5000 + " ms frame rate\n", 1, "not a tester send line"),
])
def test_a_tester_line_that_does_not_read_is_refused_naming_its_line(text, line, words):
    with pytest.raises(LogFormatError, match=words) as info:
        ndk_console.parse_tester_text(text, "t.log")
    assert info.value.line_number == line
