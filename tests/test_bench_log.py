from pathlib import Path

import pytest

from goodput.errors import LogFormatError
from goodput.logs import bench

HOST = Path(__file__).resolve().parent.parent / "data" / "logs" / "host"
LOGS = sorted(p for p in HOST.glob("*.log") if not p.name.startswith("size-"))  # size logs hold JSON
GOOD = """# host: h
# command: memcopy
BENCH-CONFIG bench=memcopy repeats=7
linear copy: 16 bytes at 3457 MB/s
BENCH-RESULT bench=memcopy sweep=size bytes=16 iterations=65536 best_ns=303309
BENCH-DONE bench=memcopy status=ok
"""


def test_every_captured_log_has_the_header_the_capture_script_writes():
    assert LOGS, "no captured logs in data/logs/host"
    for path in LOGS:
        log = bench.parse(path)
        assert {"host", "cpu", "kernel", "compiler", "flags", "command", "date", "git"} <= set(log.header), path
        assert log.results and log.done.get("status") == "ok", path


def test_a_good_log_gives_its_header_config_and_integer_results():
    log = bench.parse_text(GOOD)
    assert log.header == {"host": "h", "command": "memcopy"}
    assert log.config == {"bench": "memcopy", "repeats": 7}
    assert log.results == [{"bench": "memcopy", "sweep": "size", "bytes": 16, "iterations": 65536,
                            "best_ns": 303309}]
    assert log.lines == [5]


def test_a_log_without_bench_done_is_truncated():
    text = GOOD.replace("BENCH-DONE bench=memcopy status=ok\n", "")
    with pytest.raises(LogFormatError, match=r"x\.log:5: no BENCH-DONE"):
        bench.parse_text(text, "x.log")


def test_a_result_before_the_config_names_its_line():
    text = GOOD.replace("BENCH-CONFIG bench=memcopy repeats=7\n", "")
    with pytest.raises(LogFormatError, match=r"x\.log:4: BENCH-RESULT before BENCH-CONFIG"):
        bench.parse_text(text, "x.log")


@pytest.mark.parametrize("bad", ["BENCH-RESULT bench=memcopy bytes 16", "BENCH-RESULT bench=memcopy bytes=",
                                 "BENCH-RESULT bench=memcopy =16", "BENCH-RESULT bench=memcopy  bytes=16",
                                 "BENCH-RESULTS bench=memcopy"])
def test_a_malformed_machine_line_names_its_file_and_line(bad):
    text = GOOD.replace("BENCH-RESULT bench=memcopy sweep=size", bad + " sweep=size")
    with pytest.raises(LogFormatError, match=r"x\.log:5:"):
        bench.parse_text(text, "x.log")


def test_a_failed_run_is_reported_with_its_reason():
    text = GOOD.replace("BENCH-DONE bench=memcopy status=ok",
                        "BENCH-ERROR bench=tcp_testee error=peer closed the connection early")
    with pytest.raises(LogFormatError, match="x.log:6: the run failed: peer closed the connection early"):
        bench.parse_text(text, "x.log")


def test_output_after_done_and_a_second_config_are_errors():
    with pytest.raises(LogFormatError, match="after BENCH-DONE"):
        bench.parse_text(GOOD + "BENCH-RESULT bench=memcopy bytes=1\n", "x.log")
    with pytest.raises(LogFormatError, match="second BENCH-CONFIG"):
        bench.parse_text(GOOD.replace("linear copy", "BENCH-CONFIG bench=memcopy\nlinear"), "x.log")


def test_a_result_of_another_bench_is_refused():
    with pytest.raises(LogFormatError, match="bench=tcp_testee in a log of bench=memcopy"):
        bench.parse_text(GOOD.replace("BENCH-RESULT bench=memcopy", "BENCH-RESULT bench=tcp_testee"), "x.log")


def test_results_frame_keeps_line_numbers_and_header():
    path = HOST / "memcopy.log"
    frame = bench.results(path)
    assert list(frame["line"])[:1] == [bench.parse(path).lines[0]]
    assert set(frame["sweep"]) == {"size", "stride", "align"}
    assert (frame["verified"] == 1).all()
    assert frame.attrs["header"]["command"].endswith("memcopy")
