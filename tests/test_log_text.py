"""Reading a log, shared by every parser: bytes that are not UTF-8, empty files, a byte-order mark, a path
that is no file, line numbers."""

import dataclasses
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goodput.analysis import hostbench
from goodput.core.errors import LogFormatError
from goodput.logs import ahb_trace, bench, dma_demo, kbuild, log_lines, ndk_console, pcie_trace, read_lines, read_log
from goodput.render import pages

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
    "bench results": (bench.results, LOGS / "host" / "memcopy.log"),
}
BYTE_ORDER_MARK = b"\xef\xbb\xbf"


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


def _assert_same(a, b, where="the result"):
    """``a`` and ``b`` hold the same: tables cell for cell (and their attrs), dataclasses field by field."""
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, obj=where)
        assert a.attrs == b.attrs, where
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


@pytest.mark.parametrize("name", READERS)
def test_every_parser_reads_a_log_that_opens_with_a_byte_order_mark_as_the_log_without_it(name, tmp_path):
    parse, seed = READERS[name]
    path = tmp_path / seed.name  # one path for both: the results name it
    path.write_bytes(seed.read_bytes())
    plain = parse(path)
    path.write_bytes(BYTE_ORDER_MARK + seed.read_bytes())
    _assert_same(parse(path), plain)


@pytest.mark.parametrize("name", READERS)
@pytest.mark.parametrize("what, reason", [("missing", "no such file or directory"), ("folder", "is a directory")])
def test_every_parser_refuses_a_path_that_is_no_file_naming_it_and_the_reason(name, what, reason, tmp_path):
    path = tmp_path / what
    if what == "folder":
        path.mkdir()
    with pytest.raises(LogFormatError, match=f"cannot be read: {reason}$") as info:
        READERS[name][0](path)
    assert (info.value.path, info.value.line_number) == (str(path), 1)


def test_a_file_of_nothing_but_a_byte_order_mark_is_empty(tmp_path):
    path = tmp_path / "bom.log"
    path.write_bytes(BYTE_ORDER_MARK)
    with pytest.raises(LogFormatError, match=r"bom\.log:1: the file is empty"):
        read_log(path)
    with pytest.raises(LogFormatError, match=r"bom\.log:1: the file is empty"):
        list(read_lines(path))


def test_a_byte_order_mark_is_skipped_at_the_start_only():
    assert log_lines("\ufeffa\n\ufeffb") == ["\ufeffa", "\ufeffb"]  # text: the reader has skipped the file's


def _reference(raw: bytes, path: str):
    """The lines of ``raw`` as read_log read it before it streamed (the whole file decoded, then split),
    a byte-order mark skipped; or the LogFormatError it raised, as (line, message)."""
    raw = raw.removeprefix(BYTE_ORDER_MARK)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = log_lines(raw[:exc.start].decode("utf-8") + "?")
        return len(before), f"byte {raw[exc.start]:#04x} in column {len(before[-1])} is not UTF-8 ({exc.reason})"
    return log_lines(text) if text else (1, "the file is empty")


def _read(reader, path):
    try:
        return reader(path)
    except LogFormatError as exc:
        assert str(exc).startswith(f"{path}:{exc.line_number}: "), exc
        return exc.line_number, str(exc).removeprefix(f"{path}:{exc.line_number}: ")


#: Bytes that make files hard to split and decode: every line break, a form feed, U+2028 and U+0085,
#: a two-byte character, its halves, a byte that is never UTF-8 and the byte-order mark.
_PIECES = st.sampled_from([b"a", b"\r", b"\n", b"\r\n", b"\x0c", "\u2028".encode(), "\x85".encode(),
                           "\u00b5".encode(), b"\xc2", b"\xb5", b"\xff", BYTE_ORDER_MARK, b" "])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(pieces=st.lists(_PIECES, max_size=12))
def test_the_streamed_lines_are_the_lines_of_the_whole_text_and_the_errors_the_same(pieces, tmp_path_factory):
    raw = b"".join(pieces)
    path = tmp_path_factory.getbasetemp() / "pieces.log"
    path.write_bytes(raw)
    expected = _reference(raw, str(path))
    assert _read(lambda p: list(read_lines(p)), path) == expected
    assert _read(lambda p: log_lines(read_log(p)), path) == expected


def test_lines_are_read_across_the_reader_s_buffer_as_one_text_reads_them(tmp_path):
    raw = b"".join(b"x" * n + b"\r" + b"y" * n + b"\r\n" for n in range(1, 3000, 7))
    path = tmp_path / "long.log"
    path.write_bytes(raw)
    assert list(read_lines(path)) == log_lines(raw.decode())
