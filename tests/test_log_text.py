"""Reading a log, shared by every parser: bytes that are not UTF-8, empty files, line numbers."""

from pathlib import Path

import pytest

from goodput import hostbench, pages
from goodput.errors import LogFormatError
from goodput.logs import ahb_trace, bench, dma_demo, kbuild, log_lines, ndk_console, pcie_trace, read_log

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs"

#: Every function that reads a log file, with a real log it reads.
READERS = {
    "ahb_trace": (ahb_trace.parse, LOGS / "published" / "intel-324611-test3-ahb.log"),
    "pcie_trace": (pcie_trace.parse, LOGS / "published" / "intel-324611-example1-symbols.log"),
    "bench": (bench.parse, LOGS / "host" / "memcopy.log"),
    "ndk_console": (ndk_console.parse, LOGS / "published" / "spraaq5-testee-console.log"),
    "dma_demo": (dma_demo.parse, LOGS / "published" / "intel-324611-s2-dma-demo.log"),
    "kbuild": (kbuild.parse, LOGS / "published" / "intel-324611-s2-build.log"),
    "ndk_console tester": (ndk_console.parse_tester, LOGS / "published" / "spraaq5-tester-console.log"),
}


def _with_byte_in_line_6(seed: Path, tmp_path: Path, byte: bytes = b"\xff") -> Path:
    lines = seed.read_bytes().split(b"\n")
    lines[5] = lines[5][:3] + byte + lines[5][3:]
    path = tmp_path / seed.name
    path.write_bytes(b"\n".join(lines))
    return path


@pytest.mark.parametrize("name", READERS)
def test_every_parser_refuses_a_byte_that_is_not_utf_8_naming_its_file_and_line(name, tmp_path):
    parse, seed = READERS[name]
    path = _with_byte_in_line_6(seed, tmp_path)
    with pytest.raises(LogFormatError, match=r"byte 0xff in column 4 is not UTF-8") as info:
        parse(path)
    assert (info.value.path, info.value.line_number) == (str(path), 6)


@pytest.mark.parametrize("name", READERS)
def test_every_parser_refuses_an_empty_file_naming_its_line_1(name, tmp_path):
    path = tmp_path / "empty.log"
    path.write_bytes(b"")
    with pytest.raises(LogFormatError, match=r"empty\.log:1: the file is empty"):
        READERS[name][0](path)


def test_a_log_cut_inside_a_multibyte_character_names_the_last_line(tmp_path):
    path = tmp_path / "cut.log"
    path.write_bytes("# note: 100 µs\nline two \u00b5".encode()[:-1])
    with pytest.raises(LogFormatError, match=r"cut\.log:2: byte 0xc2 in column 10 is not UTF-8"):
        read_log(path)


def test_the_captured_log_header_reader_refuses_a_byte_that_is_not_utf_8(tmp_path, monkeypatch):
    _with_byte_in_line_6(LOGS / "host" / "memcopy.log", tmp_path)
    monkeypatch.setattr(hostbench, "host_dir", lambda: tmp_path)
    with pytest.raises(LogFormatError, match=r"memcopy\.log:6: byte 0xff"):
        hostbench.provenance("memcopy")


def test_the_sources_page_refuses_a_log_with_a_byte_that_is_not_utf_8(tmp_path, monkeypatch):
    (tmp_path / "logs" / "host").mkdir(parents=True)
    _with_byte_in_line_6(LOGS / "host" / "memcopy.log", tmp_path / "logs" / "host")
    monkeypatch.setenv("GOODPUT_DATA", str(tmp_path / "published"))
    with pytest.raises(LogFormatError, match=r"memcopy\.log:6: byte 0xff"):
        pages.logs_markdown()


def test_lines_break_where_an_editor_breaks_them_not_at_form_feeds_or_unicode_separators():
    assert log_lines("a\r\nb\rc\nd\x0ce\u2028f\x85g\n") == ["a", "b", "c", "d\x0ce\u2028f\x85g"]
    assert log_lines("") == [] and log_lines("\n") == [""]


def test_a_form_feed_inside_a_line_does_not_shift_the_lines_a_parser_names():
    text = "# host: h\nBENCH-CONFIG bench=memcopy\nhuman \x0c line\nBENCH-RESULT bench=memcopy bytes=x\n"
    with pytest.raises(LogFormatError, match=r"x\.log:4: bytes=x is not a raw integer"):
        bench.parse_text(text, "x.log")
