import time
import tracemalloc
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutations import BYTE_ORDER_MARK, FUZZ, mutated_log, parse_or_refuse

from goodput.core.errors import LogFormatError
from goodput.logs import bench

HOST = Path(__file__).resolve().parent.parent / "data" / "logs" / "host"
QEMU = HOST.parent / "qemu"
LOGS = sorted(p for p in HOST.glob("*.log")  # size logs hold JSON; the build times have tests of their own
              if not p.name.startswith("size-") and p.name != "build-times.log") + sorted(QEMU.glob("*.log"))
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


def test_every_qemu_log_names_the_emulator_its_instruction_counting_and_the_c_library():
    logs = sorted(QEMU.glob("*.log"))
    assert len(logs) == 5, "data/logs/qemu: two memcopy logs and the TCP loop's three consoles"
    for path in logs:
        header = bench.parse(path).header
        assert header["emulator"].startswith("QEMU emulator version"), path
        assert header["icount"].startswith("shift=0 "), path
        assert "-icount shift=0," in header["command"] and "-M mps2-an386" in header["command"], path
        assert header["libc"].startswith("picolibc "), path
        assert header["compiler"].startswith("arm-none-eabi-gcc"), path


def test_every_copy_in_the_qemu_memcopy_logs_was_verified_and_every_sweep_ran():
    for path in sorted(QEMU.glob("memcopy-*.log")):
        log = bench.parse(path)
        assert log.config["max_bytes"] == 1 << 20, path
        assert {r["sweep"] for r in log.results} == {"size", "stride", "align"}, path
        assert all(r["verified"] == 1 for r in log.results), path


def test_the_tcp_loop_moved_what_the_protocol_says_and_both_ends_agree():
    loop = bench.parse(QEMU / "tcp-loop-mps2-an386.log")
    assert {r["direction"] for r in loop.results} == {"to_testee", "to_tester"}
    for r in loop.results:
        assert r["bytes_written"] == r["bytes_read"] == r["expected_bytes"], r
    testee = bench.parse(QEMU / "tcp-loop-mps2-an386-testee.log")
    tester = bench.parse(QEMU / "tcp-loop-mps2-an386-tester.log")
    assert len(testee.results) == len(tester.results) == 8
    for ee in testee.results:  # the testee's receive run is the tester's send run, and back
        er = next(r for r in tester.results if r["frame_bytes"] == ee["frame_bytes"]
                  and r["direction"] == {"receive": "send", "transmit": "receive"}[ee["direction"]])
        assert ee["bytes"] == er["bytes"] == ee["frame_bytes"] * ee["frames"]
    frames = sum(r["bytes"] for r in testee.results)
    assert frames < sum(r["expected_bytes"] for r in loop.results)  # the loop carried headers and counts too


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


def test_bench_parser_refuses_a_non_integer_byte_count_naming_the_line():
    with pytest.raises(LogFormatError, match=r"x\.log:5: bytes=1e6 is not a raw integer"):
        bench.parse_text(GOOD.replace("bytes=16", "bytes=1e6"), "x.log")


@pytest.mark.parametrize("value", ["-16", "16.0", "0x10", "1_000", "sixteen", "9" * 21, "9" * 5000])
def test_every_key_but_the_text_keys_carries_a_raw_integer_of_up_to_20_digits(value):
    with pytest.raises(LogFormatError, match=r"x\.log:5: iterations=.* is not a raw integer"):
        bench.parse_text(GOOD.replace("iterations=65536", f"iterations={value}"), "x.log")


def test_a_twenty_digit_count_is_still_an_integer():
    log = bench.parse_text(GOOD.replace("iterations=65536", "iterations=18446744073709551615"), "x.log")
    assert log.results[0]["iterations"] == 2**64 - 1


def test_the_text_keys_keep_their_word_even_when_it_is_all_digits():
    log = bench.parse_text(GOOD.replace("sweep=size", "sweep=2"), "x.log")
    assert log.results[0]["sweep"] == "2" and bench.TEXT_KEYS >= {"bench", "sweep", "direction", "status"}


def test_an_empty_log_names_its_line_1_not_line_0():
    with pytest.raises(LogFormatError, match=r"^x\.log:1: no BENCH-CONFIG line"):
        bench.parse_text("", "x.log")


@FUZZ
@given(data=st.data())
def test_mutated_logs_parse_or_raise_log_format_error_naming_one_of_their_lines(data, tmp_path_factory):
    raw = mutated_log(data, LOGS)
    log = parse_or_refuse(bench.parse, raw, tmp_path_factory.getbasetemp() / "mutated.log")
    assert log is None or not raw.cut_short, "a log cut short was read"
    if log is not None:
        for values in (log.config, *log.results, log.done):
            assert all(isinstance(v, int) for k, v in values.items() if k not in bench.TEXT_KEYS), values
        _assert_the_table_is_the_rows(log)


def _assert_the_table_is_the_rows(log):
    """The results as a table (kept as columns) are the table pandas makes of the result rows."""
    rows = pd.DataFrame(list(log.results))
    rows["line"] = list(log.lines)
    pd.testing.assert_frame_equal(bench.table(log), rows)


@pytest.mark.parametrize("name", ["host/memcopy.log", "host/loopback-testee.log"])
def test_a_byte_order_mark_before_the_header_does_not_hide_it(name, tmp_path):
    seed = HOST.parent / name
    path = tmp_path / "marked.log"
    path.write_bytes(BYTE_ORDER_MARK + seed.read_bytes())
    marked, plain = bench.parse(path), bench.parse(seed)
    assert marked.header == plain.header and {"host", "cpu", "compiler"} <= set(marked.header)
    assert (marked.config, marked.results, marked.lines) == (plain.config, plain.results, plain.lines)


@pytest.mark.parametrize("done", ["BENCH-DONE bench=memcopy status=o", "BENCH-DONE bench=memcopy status=",
                                  "BENCH-DONE bench=memcopy", "BENCH-DONE bench=mem", "BENCH-DONE"])
def test_a_log_cut_inside_its_bench_done_line_is_refused_naming_that_line(done):
    with pytest.raises(LogFormatError, match=r"^x\.log:6: ") as info:
        bench.parse_text(GOOD.replace("BENCH-DONE bench=memcopy status=ok\n", done), "x.log")
    assert "BENCH-DONE" in str(info.value) or "key=value" in str(info.value)


@FUZZ
@given(data=st.data())
def test_a_log_cut_at_any_byte_before_its_end_is_refused(data, tmp_path_factory):
    seed = data.draw(st.sampled_from(LOGS)).read_bytes()
    path = tmp_path_factory.getbasetemp() / "cut.log"
    path.write_bytes(seed[:data.draw(st.integers(0, len(seed.rstrip()) - 1))])
    with pytest.raises(LogFormatError, match=f"^{path}:"):
        bench.parse(path)


def test_the_table_of_every_captured_log_is_the_table_of_its_result_rows():
    for path in LOGS:
        _assert_the_table_is_the_rows(bench.parse(path))
        pd.testing.assert_frame_equal(bench.results(path), bench.table(bench.parse(path)))


def _large_log(path: Path, megabytes: float) -> int:
    """A valid memcopy log of about ``megabytes``: memcopy.log's RESULT lines again and again; its size."""
    lines = (HOST / "memcopy.log").read_text().splitlines(keepends=True)
    results = "".join(line for line in lines if line.startswith("BENCH-RESULT"))
    repeats = int(megabytes * 1e6 / len(results)) + 1
    with path.open("w") as f:
        f.writelines(line for line in lines if line.startswith(("# ", "BENCH-CONFIG")))
        for _ in range(repeats):
            f.write(results)
        f.write("BENCH-DONE bench=memcopy status=ok\n")
    return path.stat().st_size


@pytest.mark.slow
def test_a_large_log_is_read_a_line_at_a_time_and_its_results_kept_packed(tmp_path):
    """A 200 MB log took 2.3 GB when the parser held its text, its lines and a dict per result: the
    parser now holds one line at a time, and the results as packed columns (a few bytes a number)."""
    path = tmp_path / "large.log"
    size = _large_log(path, 10)
    start = time.perf_counter()
    tracemalloc.start()
    try:
        log = bench.parse(path)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rows = len(log.results)
    assert rows > 40_000 and log.done["status"] == "ok"
    assert kept / rows < 100, f"{kept / rows:.0f} bytes kept a result; the line is {size / rows:.0f} bytes"
    assert peak - kept < 1 << 20, f"{(peak - kept) >> 10} KiB held while reading a {size >> 20} MiB log"
    assert peak < size / 2
    assert time.perf_counter() - start < 30  # some 3 s; 10 x that is a parser gone quadratic
