"""The tables of our captured logs: a log that cannot give an honest number names its line."""

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, mutated_log, parse_or_refuse
from tiers import fast_first

from goodput.analysis import hostbench
from goodput.core.errors import DataError, LogFormatError

HOST = Path(__file__).resolve().parent.parent / "data" / "logs" / "host"
MEMCOPY = (HOST / "memcopy.log").read_text()
TESTEE = (HOST / "loopback-testee.log").read_text()


def _captured(tmp_path, monkeypatch, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.log"
    path.write_text(text)
    monkeypatch.setattr(hostbench, "host_dir", lambda: tmp_path)
    return path


def _line_of(text: str, words: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if words in line)


def test_a_byte_count_written_1e6_stops_at_the_parser_instead_of_crashing_the_table(tmp_path, monkeypatch):
    _captured(tmp_path, monkeypatch, "memcopy", MEMCOPY.replace(" bytes=16 ", " bytes=1e6 ", 1))
    with pytest.raises(LogFormatError, match=rf"memcopy\.log:{_line_of(MEMCOPY, ' bytes=16 ')}: bytes=1e6"):
        hostbench.memcopy()


def test_a_memcopy_result_that_took_no_time_names_its_line(tmp_path, monkeypatch):
    _captured(tmp_path, monkeypatch, "memcopy", MEMCOPY.replace(" best_ns=215544 ", " best_ns=0 ", 1))
    with pytest.raises(LogFormatError, match=rf"memcopy\.log:{_line_of(MEMCOPY, ' best_ns=215544 ')}: best_ns=0"):
        hostbench.memcopy()


def test_a_testee_run_that_took_no_time_names_its_line(tmp_path, monkeypatch):
    _captured(tmp_path, monkeypatch, "loopback-testee", TESTEE.replace(" elapsed_ns=6139032 ", " elapsed_ns=0 "))
    with pytest.raises(LogFormatError, match=rf":{_line_of(TESTEE, ' elapsed_ns=6139032 ')}: elapsed_ns=0"):
        hostbench.testee_runs("loopback")


def test_a_result_without_a_key_the_table_needs_names_its_line(tmp_path, monkeypatch):
    _captured(tmp_path, monkeypatch, "memcopy", MEMCOPY.replace(" median_ns=220855", "", 1))
    line = _line_of(MEMCOPY, " median_ns=220855")
    with pytest.raises(LogFormatError, match=rf":{line}: a BENCH-RESULT without median_ns"):
        hostbench.memcopy()


def test_sentences_that_tell_another_run_than_their_result_are_refused(tmp_path, monkeypatch):
    sentence = "Received packets of 8192 bytes for a total of 4096000 bytes"
    _captured(tmp_path, monkeypatch, "loopback-testee", TESTEE.replace(sentence, sentence.replace("8192", "4096"), 1))
    with pytest.raises(LogFormatError, match=rf":{_line_of(TESTEE, sentence)}: the NDK sentences of a receive run"):
        hostbench.testee_runs("loopback")


def test_a_result_without_its_sentences_names_the_first_unpaired_line(tmp_path, monkeypatch):
    lines = TESTEE.splitlines()
    last = max(n for n, line in enumerate(lines) if line.startswith("Transmitted "))
    _captured(tmp_path, monkeypatch, "loopback-testee", "\n".join(lines[:last] + lines[last + 2:]) + "\n")
    with pytest.raises(LogFormatError, match=rf":{last}: 24 BENCH-RESULT lines but 23 runs"):
        hostbench.testee_runs("loopback")


#: Each table of the captured logs, read from a file named as the table expects it.
TABLES = {
    "memcopy": ("memcopy", hostbench.memcopy),
    "testee_runs": ("loopback-testee", lambda: hostbench.testee_runs("loopback")),
    "provenance": ("memcopy", lambda: hostbench.provenance("memcopy")),
}


@pytest.mark.parametrize("table", fast_first(TABLES))
@FUZZ
@given(data=st.data())
def test_tables_of_mutated_logs_are_built_or_refused_naming_one_of_their_lines(table, data, tmp_path_factory):
    name, build = TABLES[table]
    folder = tmp_path_factory.getbasetemp()
    with mock.patch.object(hostbench, "host_dir", lambda: folder):
        parse_or_refuse(lambda path: build(), mutated_log(data, [HOST / f"{name}.log"]), folder / f"{name}.log")


def test_a_readers_own_memcopy_log_joins_the_comparison_with_its_clock_named(tmp_path, monkeypatch):
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "memcopy.log").write_text(MEMCOPY)
    (tmp_path / "board").mkdir()  # a reader's board, captured with a header of their own
    (tmp_path / "board" / "memcopy-am243x.log").write_text(MEMCOPY.replace("# host: vm", "# host: am243x-evm"))
    (tmp_path / "published").mkdir()  # excerpts of the documents are never runs of ours
    (tmp_path / "published" / "memcopy-excerpt.log").write_text(MEMCOPY)
    monkeypatch.setattr(hostbench, "host_dir", lambda: tmp_path / "host")
    t = hostbench.copy_sizes()
    assert set(t["run"]) == {"host/memcopy: wall clock", "board/memcopy-am243x: wall clock"}
    sizes = int((hostbench.memcopy(tmp_path / "host" / "memcopy.log")["sweep"] == "size").sum())
    assert (t.groupby("run").size() == sizes).all()


def test_a_qemu_log_counts_instructions_and_a_host_log_wall_time():
    qemu = hostbench.log_path("memcopy-mps2-an386", "qemu")
    assert hostbench.clock_of(hostbench.bench.parse(qemu).header) == "instructions (QEMU -icount)"
    assert hostbench.clock_of(hostbench.provenance("memcopy")) == "wall clock"
    runs = set(hostbench.copy_sizes()["run"])
    assert "qemu/memcopy-mps2-an386: instructions (QEMU -icount)" in runs and "host/memcopy: wall clock" in runs


def test_a_missing_qemu_log_says_how_to_capture_it():
    with pytest.raises(DataError, match=r"qemu/nothing\.log: no such captured log; run `make capture`"):
        hostbench.log_path("nothing", "qemu")
