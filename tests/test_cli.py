import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from goodput import coding

GOODPUT = Path(sys.executable).parent / "goodput"


def run(*args, module=False):
    cmd = [sys.executable, "-m", "goodput", *args] if module else [str(GOODPUT), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


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
        (["--code", "8b10b", "--rate-gbaud", "-1"], "--rate-gbaud -1", "above 0 to 64 Gbaud"),
        (["--code", "8b10b", "--rate-gbaud", "fast"], "--rate-gbaud fast", "above 0 to 64 Gbaud"),
    ],
)
def test_bad_parameters_exit_2_naming_the_parameter_and_its_range(args, option, words):
    p = run("coding", *args)
    assert p.returncode == 2
    assert option in p.stderr and words in p.stderr
    assert p.stdout == ""


def test_missing_arguments_exit_2_with_usage():
    p = run("coding", "--code", "8b10b")
    assert p.returncode == 2 and "usage:" in p.stderr


def test_checks_prints_every_check_as_csv_and_json():
    p = run("checks")
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(rows) >= 15
    assert {"document", "where", "row", "published", "model", "tolerance", "status"} <= set(rows[0])
    j = run("checks", "--format", "json", module=True)
    assert len(json.loads(j.stdout)) == len(rows)


def test_checks_can_filter_by_status_and_chapter():
    p = run("checks", "--status", "rounding", "--chapter", "line-coding")
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert rows and all(r["status"] == "rounding" for r in rows)
    bad = run("checks", "--chapter", "nowhere")
    assert bad.returncode == 2 and "nowhere" in bad.stderr
