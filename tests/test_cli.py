import csv
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from command import GOODPUT, call, run
from tiers import fast_first

from goodput.models import coding


def test_coding_json_echoes_the_inputs_and_gives_goodput_and_efficiency():
    p = run("coding", "--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "4", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["code"] == "8b10b" and out["line_rate_gbaud"] == 2.5 and out["lanes"] == 4
    assert out["goodput_gbit_s"] == coding.bit_rate_gbit_s(2.5, 4, "8b10b")
    assert out["efficiency"] == 0.8


def test_python_dash_m_goodput_is_the_same_command():
    a = run("coding", "--code", "8b9b", "--rate-gbaud", "10", "--lanes", "4", "--json")
    b = run("coding", "--code", "8b9b", "--rate-gbaud", "10", "--lanes", "4", "--json", module=True)
    assert a.returncode == b.returncode == 0
    assert json.loads(a.stdout) == json.loads(b.stdout)


@pytest.mark.parametrize(
    "args, option, words",
    [
        (["--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "0"], "--lanes 0", "integer from 1 to 32"),
        (["--code", "xyz", "--rate-gbaud", "2.5"], "--code xyz", "one of 8b10b, 8b9b"),
        (["--code", "8b10b", "--rate-gbaud", "-1"], "--rate-gbaud -1", "from 0.001 to 64 Gbaud"),
        (["--code", "8b10b", "--rate-gbaud", "fast"], "--rate-gbaud fast", "from 0.001 to 64 Gbaud"),
    ],
)
def test_bad_parameters_exit_2_naming_the_parameter_and_its_range(args, option, words):
    p = call("coding", *args)
    assert p.returncode == 2
    assert option in p.stderr and words in p.stderr
    assert p.stdout == ""


def test_missing_arguments_exit_2_with_usage():
    p = call("coding", "--code", "8b10b")
    assert p.returncode == 2 and "usage:" in p.stderr


def test_checks_prints_every_check_as_csv_and_json():
    p = call("checks")
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(rows) >= 15
    assert {"document", "where", "row", "published", "model", "tolerance", "status"} <= set(rows[0])
    j = call("checks", "--format", "json")
    assert len(json.loads(j.stdout)) == len(rows)


def test_checks_can_filter_by_status_and_chapter():
    p = call("checks", "--status", "rounding", "--chapter", "line-coding")
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert rows and all(r["status"] == "rounding" for r in rows)
    bad = call("checks", "--chapter", "nowhere")
    assert bad.returncode == 2 and "nowhere" in bad.stderr


# --- careless input: exit 2 with one line naming the option, never a traceback or a wrong number

LONG = "1" * 5000


@pytest.mark.parametrize(
    "args, words",
    [
        (["bus", "--from", "DDR3A", "--to", "DDR3B", "--tc", "TC2", "--tc", "TC2"], "--tc TC2: "),
        (["bus", "--from", "CorePac\u0663 L2", "--to", "DDR3A"], "--from CorePac\u0663 L2: "),
        (["bus", "--from", "DDR3A", "--to", "DDR3B", "--tcs", "\u0663"], "--tcs \u0663: "),
        (["pcie", "write", "--gen", "1", "--lanes", "1", "--size", "100", "--skp", "999/1000", "--dllp", "spec"], "no time for TLPs"),
        (["pcie", "write", "--gen", "1", "--lanes", "1", "--size", "100", "--skp", "97/100", "--dllp", "spec"], "no time for TLPs"),
        (["pcie", "write", "--size", "100", "--dllp", "every:\u00b2"], "--dllp every:\u00b2: "),
        (["pcie", "write", "--size", "100", "--skp", "\u00b2/4"], "--skp \u00b2/4: "),
        (["pcie", "write", "--size", "100", "--skp", "1/" + LONG], "(5002 characters)"),
        (["pcie", "write", "--size", "100", "--dllp", "every:" + LONG], "(5006 characters)"),
        (["pcie", "write", "--size", "100", "--gen", "\u0663"], "--gen \u0663: gen must be one of 1, 2"),
        (["pcie", "write", "--size", "1_000"], "--size 1_000: size must be an integer"),
        (["pcie", "write", "--size", LONG], "--size 1111"),
        (["can", "--bytes", "\u0663"], "--bytes \u0663: data_bytes must be a CAN FD data length"),
        (["can", "--bytes", "8", "--data-mbit-s", "1e-320"], "from 0.001 to 12 Mbit/s"),
        (["can", "--bytes", "8", "--arb-mbit-s", "1e-320"], "from 0.001 to 1 Mbit/s"),
        (["spi", "--words", "4", "--bits", "8", "--clock-mhz", "1e-320"], "from 0.001 to 200 MHz"),
        (["ethernet", "--frame", "1518", "--rate-gbit-s", "5e-324"], "from 0.001 to 400 Gbit/s"),
        (["tcp", "--message", "1000", "--rate-mbit-s", "1e-320"], "from 1 to 100000 Mbit/s"),
        (["srio", "nwrite", "--size", "100", "--rate-gbaud", "1e-320"], "from 0.001 to 12.5 Gbaud"),
        (["hyperlink", "write", "--size", "100", "--rate-gbaud", "1e-320"], "from 0.001 to 12.5 Gbaud"),
        (["bus", "--from", "DDR3A", "--to", "DDR3B", "--cpu-clock", "1e-320"], "from 1 to 2000 MHz"),
        (["bus", "--from", "DDR3A", "--to", "DDR3B", "--ddr3-mtps", "1e-320"], "from 1 to 2133 MT/s"),
        (["coding", "--code", "8b10b", "--rate-gbaud", "1e-320"], "from 0.001 to 64 Gbaud"),
        (["coding", "--code", "8b10b", "--rate-gbaud", "1e400"], "--rate-gbaud 1e400: "),
        (["coding", "--code", "8b10b", "--rate-gbaud", "nan"], "--rate-gbaud nan: "),
        (["coding", "--code", "8b10b", "--rate-gbaud", "inf"], "--rate-gbaud inf: "),
        (["coding", "--code", "8b10b", "--rate-gbaud", ""], "--rate-gbaud : "),
        (["coding", "--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "1_6"], "--lanes 1_6: "),
        (["coding", "--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "\u0663"], "--lanes \u0663: "),
        (["checks", "--chapter", ""], "no source checks registered for chapter ''"),
        (["export", "xlsx", "line-coding", "-o", ""], "-o is empty"),
    ],
)
def test_careless_input_exits_2_with_one_line_naming_what_is_wrong(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = call(*args)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.count("\n") == 1 and words in p.stderr
    assert not list(tmp_path.iterdir())  # nothing written, not even a workbook under a default name


def test_a_result_that_is_not_finite_is_refused_not_printed(monkeypatch, capsys):
    from goodput import cli
    from goodput.models import quick

    run, lines = quick.COMMANDS["spi"]  # what `goodput spi` runs
    monkeypatch.setitem(quick.COMMANDS, "spi", (lambda args: {**run(args), "transfer_time_us": math.inf,
                                                               "efficiency": math.nan}, lines))
    for json_flag in ([], ["--json"]):
        with pytest.raises(SystemExit) as exit_:
            cli.main(["spi", "--words", "4", "--bits", "8", *json_flag])
        assert exit_.value.code == 2
        out = capsys.readouterr()
        assert out.out == "" and "transfer_time_us is not a finite number" in out.err


@pytest.mark.parametrize("args", fast_first([["coding", "--code", "8b10b", "--rate-gbaud", "2.5"],
                                             ["checks", "--chapter", "line-coding"],
                                             ["coding", "--code", "8b10b", "--rate-gbaud", "2.5", "--json"]]))
def test_a_full_disk_is_a_one_line_error_not_a_traceback(args):
    with open("/dev/full", "w") as full:
        p = subprocess.run([str(GOODPUT), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode == 1
    assert p.stderr == "goodput: error: cannot write the output: No space left on device\n"


def test_pcie_help_states_every_generation_and_every_dllp_and_skp_form():
    from goodput.models import pcie

    p = subprocess.run([str(GOODPUT), "pcie", "--help"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "COLUMNS": "1000"})
    gen = next(line for line in p.stdout.splitlines() if line.lstrip().startswith("--gen"))
    assert ", ".join(map(str, pcie.GENERATIONS)) in gen
    assert all(form in p.stdout for form in ("every:N", "every-any:N", "spec", "A/B", "min", "max"))
    for args in (["--gen", str(max(pcie.GENERATIONS))], ["--dllp", "every-any:2"], ["--skp", "4/1538"]):
        assert call("pcie", "write", "--size", "64", *args).returncode == 0


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp, "is a directory: -o names the .xlsx file"),
    (lambda tmp: Path("/proc/goodput.xlsx"), "cannot write /proc/goodput.xlsx: No such file or directory"),
    (lambda tmp: (tmp / "notes.txt").touch() or tmp / "notes.txt" / "x.xlsx", "notes.txt: Not a directory"),
])
def test_export_to_where_no_workbook_can_go_is_one_clear_line(make, words, tmp_path):
    target = make(tmp_path)
    p = call("export", "xlsx", "line-coding", "-o", str(target))
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert words in p.stderr and p.stderr.count(str(target)) == 1


def test_a_name_too_long_for_the_file_system_is_one_clear_line(tmp_path):
    target = tmp_path / ("a" * 300 + ".xlsx")
    p = call("export", "xlsx", "line-coding", "-o", str(target))
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "File name too long" in p.stderr, p.stderr


@pytest.mark.slow
def test_a_directory_the_user_may_not_read_is_one_clear_line(tmp_path):
    """As an unprivileged user (root drops to nobody for it, in a process of its own): a directory of mode 0700
    owned by another user, where even asking whether the target is a directory fails."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o000 if os.geteuid() else 0o700)
    target = locked / "x.xlsx"
    # the modules are imported before the process gives up root: nobody may not read the interpreter's own files
    script = ("import os, sys\nfrom goodput import cli\nfrom goodput.render import calculations, workbook\n"
              "import xlsxwriter\nif os.geteuid() == 0:\n    os.setgid(65534)\n    os.setuid(65534)\n"
              f"sys.exit(cli.main(['export', 'xlsx', 'line-coding', '-o', {str(target)!r}]))\n")
    tmp_path.chmod(0o755)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr == f"goodput export: error: cannot write {target}: Permission denied\n"


def test_no_standard_output_at_all_is_one_line_not_a_traceback():
    """``goodput ... >&-``: Python starts without sys.stdout; the status is the one a full disk gets."""
    p = subprocess.run([str(GOODPUT), "coding", "--code", "8b10b", "--rate-gbaud", "2.5"], stderr=subprocess.PIPE,
                       text=True, timeout=60, preexec_fn=lambda: os.close(1))
    assert p.returncode == 1
    assert p.stderr == "goodput: error: cannot write the output: standard output is closed\n"


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp, "not a regular file"),
    (lambda tmp: "", "an empty file name"),
    (lambda tmp: (tmp / "notes.txt").touch() or tmp / "notes.txt" / "x", "Not a directory"),
    (lambda tmp: "/proc/self/status", "not an ELF file"),
    (lambda tmp: os.mkfifo(tmp / "fifo") or tmp / "fifo", "not a regular file"),
])
def test_goodput_size_refuses_what_is_no_elf_file_without_waiting(make, words, tmp_path):
    p = run("size", str(make(tmp_path)))
    assert (p.returncode, p.stdout) == (2, "") and p.stderr.count("\n") == 1 and words in p.stderr


@pytest.mark.parametrize("args, key, value", [
    (["hyperlink", "write", "--size", "1e6", "--burst", "1e2"], "size_bytes", 10 ** 6),
    (["can", "--bytes", "8", "--stuffing", "-0"], "stuffing", 0.0),
])
def test_a_number_in_exponent_form_or_minus_zero_is_read_as_the_model_reads_it(args, key, value):
    p = call(*args, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out[key] == value and str(out[key]) == str(value)


@pytest.mark.parametrize("command", ["coding", "pcie", "bus", "srio", "hyperlink", "ethernet", "usb", "tcp", "spi",
                                     "can", "choose", "am243x", "boot", "size", "from", "checks", "export"])
def test_every_subcommand_prints_its_help(command):
    # argparse reads a help text as a format: a unit of "%" in one (CAN's bus load) broke "goodput can --help"
    p = subprocess.run([str(GOODPUT), command, "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(f"usage: goodput {command}")
