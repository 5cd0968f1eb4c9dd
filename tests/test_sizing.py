import json
import subprocess
import sys
from pathlib import Path

import pytest

from goodput import checks, sizing
from goodput.errors import DataError, LogFormatError

GOODPUT = Path(sys.executable).parent / "goodput"
HOST = Path(__file__).resolve().parent.parent / "data" / "logs" / "host"


def test_every_size_the_ndk_document_prints_agrees_with_its_hex():
    items = checks.collect("code-size")
    assert len(items) == 33 and {c.status for c in items} == {"ok"}


def test_the_python_interpreter_itself_sizes_as_an_elf_program():
    t = sizing.totals(sys.executable)
    assert t["code"] > 0 and set(t) == set(sizing.TYPES)


def test_a_file_that_is_not_elf_is_refused_by_name(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    with pytest.raises(DataError, match="notes.txt: not an ELF file"):
        sizing.sections(bad)
    p = subprocess.run([str(GOODPUT), "size", str(bad)], capture_output=True, text=True, timeout=60)
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
