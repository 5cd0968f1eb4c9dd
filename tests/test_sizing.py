import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import mutations
import pytest
from command import call
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, edited_cell, mutated_log, parse_or_refuse

from goodput import checks
from goodput.analysis import sizing
from goodput.core import data
from goodput.core.errors import DataError, LogFormatError
from goodput.sources.spraaq5 import code_size

HOST = Path(__file__).resolve().parent.parent / "data" / "logs" / "host"


def test_every_size_the_ndk_document_prints_agrees_with_its_hex():
    items = [c for c in checks.collect("code-size") if c.kind == "calculated"]
    assert len(items) == 33 and {c.status for c in items} == {"ok"}


def test_the_python_interpreter_itself_sizes_as_an_elf_program():
    t = sizing.totals(sys.executable)
    assert t["code"] > 0 and set(t) == set(sizing.TYPES)


def test_a_file_that_is_not_elf_is_refused_by_name(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    with pytest.raises(DataError, match="notes.txt: not an ELF file"):
        sizing.sections(bad)
    p = call("size", str(bad))
    assert p.returncode == 2 and "not an ELF file" in p.stderr


@pytest.mark.parametrize("name, machine", [("size-host", "EM_X86_64"), ("size-r5f", "EM_ARM")])
def test_the_captured_size_logs_parse_and_add_up(name, machine):
    header, report = sizing.parse_log(HOST / f"{name}.log")
    assert {"compiler", "flags", "command", "git"} <= set(header)
    assert {f["machine"] for f in report["files"]} == {machine}
    for kind in sizing.TYPES:
        assert report["totals"][kind] == sum(f["totals"][kind] for f in report["files"])


def test_a_size_log_without_its_report_names_the_file(tmp_path):
    log = tmp_path / "size.log"
    log.write_text("# host: h\n{not json\n")
    with pytest.raises(LogFormatError, match=r"size\.log:2"):
        sizing.parse_log(log)


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp, "not a regular file"),
    (lambda tmp: "", "an empty file name"),
    (lambda tmp: (tmp / "notelf.txt").touch() or tmp / "notelf.txt" / "x", "notelf.txt/x: Not a directory"),
    (lambda tmp: tmp / "missing.o", "missing.o: No such file or directory"),
    (lambda tmp: "/proc/self/status", "/proc/self/status: not an ELF file"),
])  # a FIFO, which would hang here if opened, is tried by tests/test_cli.py in a process with a timeout
def test_what_is_not_a_regular_elf_file_is_refused_by_name(make, words, tmp_path):
    with pytest.raises(DataError, match=re.escape(words)):
        sizing.report([make(tmp_path)])


@pytest.fixture(scope="module")
def small_elf(tmp_path_factory):
    """An object file of the host compiler: ELF64, little-endian, with .text, .data and .bss."""
    out = tmp_path_factory.mktemp("elf")
    (out / "small.c").write_text("int x = 1;\nstatic char b[100];\nint f(void) { return x + b[0]; }\n")
    subprocess.run(["cc", "-c", "small.c", "-o", "small.o"], cwd=out, check=True, timeout=60)
    raw = (out / "small.o").read_bytes()
    assert raw[4:6] == b"\x02\x01"  # ELFCLASS64, ELFDATA2LSB: the offsets below are for that layout
    return raw


def _section_header(raw: bytes, name: str) -> int:
    """Offset of the section header of ``name`` in the ELF64 file ``raw``."""
    shoff, = struct.unpack_from("<Q", raw, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", raw, 0x3A)
    strtab, = struct.unpack_from("<Q", raw, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        header = shoff + i * shentsize
        start = strtab + struct.unpack_from("<I", raw, header)[0]
        if raw[start:raw.index(b"\0", start)].decode() == name:
            return header
    raise LookupError(name)


# (what is patched, struct format, value): ELF header fields by offset, or (section, field offset)
DAMAGE = [
    (0x28, "<Q", 2 ** 63), (0x28, "<Q", 1), (0x3A, "<H", 0), (0x3C, "<H", 0xFFFF), (0x3E, "<H", 200),
    ((".text", 0x18), "<Q", 2 ** 63), ((".text", 0x18), "<Q", 2 ** 40), ((".text", 0x20), "<Q", 2 ** 64 - 1),
    ((".data", 0x20), "<Q", 10 ** 6), ((".rela.text", 0x38), "<Q", 7),
]


@pytest.mark.parametrize("where, fmt, value", DAMAGE, ids=lambda x: str(x))
def test_an_elf_file_with_absurd_offsets_or_sizes_is_refused_by_name(small_elf, tmp_path, where, fmt, value):
    damaged = bytearray(small_elf)
    offset = where if isinstance(where, int) else _section_header(small_elf, where[0]) + where[1]
    struct.pack_into(fmt, damaged, offset, value)
    path = tmp_path / "damaged.o"
    path.write_bytes(bytes(damaged))
    with pytest.raises(DataError, match="damaged.o: a damaged ELF file"):
        sizing.report([path])


def test_a_truncated_elf_file_is_refused_by_name(small_elf, tmp_path):
    for length in (4, 16, 0x40, len(small_elf) // 2):
        path = tmp_path / f"cut{length}.o"
        path.write_bytes(small_elf[:length])
        with pytest.raises(DataError, match=f"cut{length}.o: a damaged ELF file"):
            sizing.report([path])


SIZE_LOGS = sorted(HOST.glob("size-*.log"))


def test_a_size_log_with_a_byte_that_is_not_utf8_names_its_line(tmp_path):
    lines = SIZE_LOGS[0].read_bytes().split(b"\n")
    lines[3] += b"\xff"
    log = tmp_path / "size.log"
    log.write_bytes(b"\n".join(lines))
    with pytest.raises(LogFormatError, match=rf"{log}:4: byte 0xff"):
        sizing.parse_log(log)


def test_a_size_log_with_an_absurd_number_names_its_line(tmp_path):
    # the first section's size, whatever the capture measured, made absurd
    text = re.sub(r'"size_bytes": [0-9]+', '"size_bytes": ' + "9" * 5000, SIZE_LOGS[0].read_text(encoding="utf-8"),
                  count=1)
    log = tmp_path / "size.log"
    log.write_text(text, encoding="utf-8")
    number = 1 + text.split("\n").index(next(line for line in text.split("\n") if "9" * 5000 in line))
    with pytest.raises(LogFormatError, match=rf"{log}:{number}: an integer of more than 20 digits"):
        sizing.parse_log(log)


@pytest.mark.parametrize("edit", [
    (r'"size_bytes": ([0-9]+)', r'"size_bytes": "\1"'),                          # a size as text
    (r'("totals": \{"code": )([0-9]+)', lambda m: f"{m[1]}{int(m[2]) + 1}"),   # totals that are not the sums
    (r'"kind": "code"', '"kind": "text"'),                                     # an unknown kind
    (r'\{"files": \[', '{"file": ['),                                           # no list of files
])
def test_a_size_report_that_does_not_add_up_or_has_the_wrong_shape_is_refused(tmp_path, edit):
    text = SIZE_LOGS[0].read_text(encoding="utf-8")
    edited = re.sub(edit[0], edit[1], text, count=1)
    assert edited != text
    log = tmp_path / "size.log"
    log.write_text(edited, encoding="utf-8")
    with pytest.raises(LogFormatError, match="not a goodput size report"):
        sizing.parse_log(log)


@FUZZ
@given(st.data())
def test_fuzzed_size_logs_parse_or_are_refused_naming_a_line(data):
    with tempfile.TemporaryDirectory() as tmp:
        parse_or_refuse(sizing.parse_log, mutated_log(data, SIZE_LOGS), Path(tmp) / "size.log")


def test_every_printed_total_is_at_least_the_printed_sections_of_its_type():
    items = [c for c in checks.collect("code-size") if c.kind == "consistency" and ": totals " in c.row]
    # the sums of the printed rows of each type, added by hand from SPRAAQ5 §5.1
    expected = {"stack.lib: totals Uninitialized Data": 16 + 8,
                "stack.lib: totals Initialized Data": 40 + 28 + 72 + 24 + 271,
                "stack.lib: totals Code": 640 + 1568 + 2432,
                "client.out: totals Uninitialized Data": 8 + 32 + 88 + 208 + 32 + 1391 + 403238 + 4 + 5120 + 44 + 200,
                "client.out: totals Initialized Data": 48 + 112,
                "client.out: totals Code": 512 + 21408}
    assert {c.row: c.model for c in items} == expected
    assert {c.status for c in items} == {"ok"} and {c.relation for c in items} == {">="}


def test_a_total_below_its_printed_sections_is_an_erratum():
    from goodput.core import data
    t = data.load("spraaq5-s5-sizing").copy()
    t.loc[(t["report"] == "client.out") & (t["section"] == ".bios"), "size_dec"] = 300000
    got = {c.row: c.status for c in code_size.totals_checks(t)}
    assert got.pop("client.out: totals Code") == "erratum"
    assert set(got.values()) == {"ok"}


# --- client.out's addresses: no section inside the one below it -------------------------------------------

def _moved(frame, index, column, text):
    """A copy of the published sizing table with one address cell printed as ``text`` (hex: read as
    printed, not as a number)."""
    return edited_cell(frame, index, column, text, value=text)


def test_each_printed_address_of_client_out_is_past_the_end_of_the_section_below_it():
    t = data.load("spraaq5-s5-sizing")
    found = code_size.address_checks(t)
    placed = sum(1 for text in t.attrs["printed"]["run_addr"] if text)
    assert len(found) == 2 * (placed - 1)  # every section but the lowest, for load and run address
    assert {c.status for c in found} == {"ok"} and {c.kind for c in found} == {"consistency"}
    clk = next(c for c in found if c.row == "client.out: .clk run address")
    assert (clk.published, clk.model) == ("0x00862738", 0x00800000 + 403238)  # after .far, as printed


def test_an_address_inside_the_section_below_it_is_an_erratum():
    t = data.load("spraaq5-s5-sizing")
    clk = t.index[(t["report"] == "client.out") & (t["section"] == ".clk")][0]
    wrong = _moved(t, clk, "run_addr", "0x00862720")  # 6 bytes before .far (0x00800000 + 403238) ends
    found = {c.row: c for c in code_size.address_checks(wrong)}
    assert found["client.out: .clk run address"].status == "erratum"
    assert "cannot share memory" in found["client.out: .clk run address"].note
    assert found["client.out: .clk load address"].status == "ok"


# --- each size in decimal against the same size in hex ----------------------------------------------------

def test_each_printed_size_in_decimal_is_its_hex_and_the_check_verifies_both():
    t = data.load("spraaq5-s5-sizing")
    found = code_size.hex_checks(t)
    assert len(found) == len(t)
    assert {c.status for c in found} == {"ok"} and {c.verifies for c in found} == {code_size.SIZE_FORMS}
    far = next(c for c in found if c.row == "client.out: client.out .far")
    assert (far.published, far.model) == ("403238", 0x00062726)


def test_a_wrong_hex_size_fails_the_check_as_a_wrong_decimal_does():
    t = data.load("spraaq5-s5-sizing")
    text = t.index[(t["report"] == "stack.lib") & (t["section"] == ".text")][0]
    wrong_hex = _moved(t, text, "size_hex", "0x00000290")
    wrong_dec = mutations.edited_cell(t, text, "size_dec", "650")
    for frame in (wrong_hex, wrong_dec):
        got = [c.status for c in code_size.hex_checks(frame)]
        assert got.count("erratum") == 1 and got[list(t.index).index(text)] == "erratum"
