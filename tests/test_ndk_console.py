from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, mutated_log, parse_or_refuse

from goodput.core.errors import LogFormatError
from goodput.logs import log_lines, ndk_console

PUBLISHED = Path(__file__).resolve().parent.parent / "data" / "logs" / "published"

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
    runs = ndk_console.parse_text("Link Status: 100Mb/s Full Duplex on PHY 0\n...\n" + RECEIVED + THROUGHPUT + "...\n")
    assert list(runs["line"]) == [3]


def test_a_log_of_other_lines_alone_is_refused_naming_its_last_line():
    with pytest.raises(LogFormatError, match=r"^t\.log:2: no receive or transmit run in it"):
        ndk_console.parse_text("Link Status: 100Mb/s Full Duplex on PHY 0\n...\n", "t.log")


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
    raw = mutated_log(data, LOGS)
    runs = parse_or_refuse(ndk_console.parse, raw, tmp_path_factory.getbasetemp() / "mutated.log")
    assert runs is None or not raw.cut_short, "a log cut short was read"
    if runs is not None:
        assert (runs["frames"] * runs["frame_bytes"] == runs["total_bytes"]).all()


@FUZZ
@given(data=st.data())
def test_mutated_tester_logs_parse_or_raise_log_format_error_naming_one_of_their_lines(data, tmp_path_factory):
    raw = mutated_log(data, [TESTER])
    runs = parse_or_refuse(ndk_console.parse_tester, raw, tmp_path_factory.getbasetemp() / "mutated.log")
    assert runs is None or not raw.cut_short, "a log cut short was read"


#: Every run of the document's testee and tester excerpts, as the parsers read them before they refused
#: a log cut short: a complete log reads as it did.
TESTEE_ROWS = [
    ("receive", 8192, 5000, 40960000, 93992, 25, 12), ("receive", 8192, 5000, 40960000, 6552, 2, 15),
    ("receive", 65536, 5000, 327680000, 37136, 11, 20), ("receive", 65536, 5000, 327680000, 15384, 5, 23),
    ("transmit", 8192, 5000, 40960000, 93170, 36, 26), ("transmit", 8192, 5000, 40960000, 6556, 3, 29),
    ("transmit", 65536, 5000, 327680000, 34473, 15, 34), ("transmit", 65536, 5000, 327680000, 14889, 7, 37)]
TESTER_ROWS = [
    ("send", 8192, 0, 5000, 8), ("send", 8192, 10, 5000, 10), ("send", 8192, 30, 5000, 11),
    ("send", 65536, 10, 5000, 13), ("send", 65536, 30, 5000, 14), ("receive", 8192, 0, 5000, 17),
    ("receive", 8192, 10, 5000, 19), ("receive", 65536, 10, 5000, 22), ("receive", 65536, 30, 5000, 24)]


def test_the_documents_complete_logs_give_the_rows_they_always_gave():
    testee = ndk_console.parse(PUBLISHED / "spraaq5-testee-console.log")
    tester = ndk_console.parse_tester(PUBLISHED / "spraaq5-tester-console.log")
    assert [tuple(r) for r in testee.itertuples(index=False)] == TESTEE_ROWS
    assert [tuple(r) for r in tester.itertuples(index=False)] == TESTER_ROWS
    assert list(testee.columns) == ["direction", "frame_bytes", "frames", "total_bytes", "kbit_s",
                                    "cpu_load_percent", "line"]
    assert list(tester.columns) == ["task", "frame_bytes", "period_ms", "frames", "line"]


@pytest.mark.parametrize("path", LOGS[1:], ids=lambda p: p.name)
def test_each_of_our_testee_logs_gives_as_many_runs_as_its_bench_done_counts(path):
    done = path.read_text().rstrip().splitlines()[-1]
    assert len(ndk_console.parse(path)) == int(done.split("runs=")[1].split()[0])


@pytest.mark.parametrize("parse", [ndk_console.parse, ndk_console.parse_tester], ids=["testee", "tester"])
@pytest.mark.parametrize("raw, line", [(b"\n", 1), (b" \n\t\n", 2), (b"\r\n", 1), (b"x", 1), (b"R", 1),
                                       (b"\xef\xbb\xbf\n", 1)])
def test_a_blank_or_one_byte_file_is_refused_naming_its_last_line(parse, raw, line, tmp_path):
    path = tmp_path / "blank.log"
    path.write_bytes(raw)
    with pytest.raises(LogFormatError, match=rf"^{path}:{line}: no .* in it"):
        parse(path)


def test_a_testee_log_cut_in_half_is_refused_naming_its_last_line(tmp_path):
    raw = (ROOT / "host" / "loopback-testee.log").read_bytes()
    path = tmp_path / "half.log"
    path.write_bytes(raw[:len(raw) // 2])
    last = len(log_lines(raw[:len(raw) // 2].decode()))
    with pytest.raises(LogFormatError, match=rf"^{path}:{last}: .*cut short"):
        ndk_console.parse(path)


def test_a_testee_log_cut_after_a_whole_run_is_refused_naming_its_last_line():
    lines = (ROOT / "host" / "loopback-testee.log").read_text().splitlines(keepends=True)
    with pytest.raises(LogFormatError, match=r"^t\.log:59: .*BENCH-CONFIG on line 10 .*no BENCH-DONE"):
        ndk_console.parse_text("".join(lines[:59]), "t.log")  # 12 of its 24 runs, and the blank line after


def test_a_testee_log_cut_inside_its_bench_done_line_is_refused_naming_that_line():
    text = (ROOT / "host" / "loopback-testee.log").read_text().replace("runs=24 status=ok", "runs=24 status=o")
    with pytest.raises(LogFormatError, match=r"^t\.log:108: 'BENCH-DONE .*' does not end 'runs=N status=ok'"):
        ndk_console.parse_text(text, "t.log")


def test_a_testee_that_failed_before_its_first_run_gives_no_runs():
    """The book's testee stops at its first broken run: BENCH-ERROR, and no BENCH-DONE (tests/test_firmware.py
    reads such a log); the runs before it are whole, and there may be none."""
    text = ("BENCH-CONFIG bench=tcp_testee address=0.0.0.0 receive_port=5001 transmit_port=5000\n"
            "Non-Copy TCP Testee Benchmark (goodput host port)\n"
            "Sent 65536 of 1073741824 bytes before: peer closed the connection early\n"
            "BENCH-ERROR bench=tcp_testee direction=transmit frame_bytes=65536 expected_bytes=1073741824 "
            "bytes=65536 error=peer closed the connection early\n")
    assert ndk_console.parse_text(text, "t.log").empty


@pytest.mark.parametrize("lines, last", [(22, 22), (24, 24), (13, 13)])
def test_the_documents_testee_excerpt_cut_is_refused_though_it_ends_on_a_whole_run(lines, last):
    text = "".join((PUBLISHED / "spraaq5-testee-console.log").read_text().splitlines(keepends=True)[:lines])
    with pytest.raises(LogFormatError, match=rf"^t\.log:{last}: .*lines 223-257, 35 lines, but {lines - 3} follow"):
        ndk_console.parse_text(text, "t.log")


@FUZZ
@given(data=st.data())
def test_a_log_cut_at_any_byte_before_its_end_is_refused(data, tmp_path_factory):
    path = data.draw(st.sampled_from([*LOGS, TESTER]))
    seed = path.read_bytes()
    cut = tmp_path_factory.getbasetemp() / "cut.log"
    cut.write_bytes(seed[:data.draw(st.integers(0, len(seed.rstrip()) - 1))])
    with pytest.raises(LogFormatError, match=f"^{cut}:"):
        (ndk_console.parse_tester if path == TESTER else ndk_console.parse)(cut)


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


def test_the_testee_parser_skips_the_testers_lines_and_finds_no_run_in_them():
    with pytest.raises(LogFormatError, match=r"tester-console\.log:26: no receive or transmit run in it"):
        ndk_console.parse(TESTER)


@pytest.mark.parametrize("lines, last, words", [
    (10, 10, "the send task started on line 7 does not end"),  # inside the send task
    (20, 20, "the receive task started on line 16 does not end"),
    (15, 15, "lines 265-287, 23 lines, but 12 follow"),  # after the send task: the excerpt is short
])
def test_the_documents_tester_excerpt_cut_is_refused_naming_its_last_line(lines, last, words):
    text = "".join(TESTER.read_text().splitlines(keepends=True)[:lines])
    with pytest.raises(LogFormatError, match=rf"^t\.log:{last}: .*{words}"):
        ndk_console.parse_tester_text(text, "t.log")


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
