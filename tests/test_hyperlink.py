import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from goodput import checks, coding, hyperlink
from goodput.errors import ParameterError
from goodput.render import tables

CHECKS = checks.collect("hyperlink")
EXPECTED = {"write, 256-byte packets": "rounding", "read, 32-byte packets (MSMC SRAM)": "rounding",
            "read, 64-byte packets (DDR3)": "erratum"}


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.row)
def test_hyperlink_figures_are_reproduced_or_flagged(check):
    assert check.status == EXPECTED.get(check.row, "ok"), check


def test_the_four_maxima_and_twelve_percentages_are_checked():
    assert sum(c.resource == "keystone2-s8-hyperlink-theoretical" for c in CHECKS) == 4
    assert sum(c.resource == "keystone2-table23-26" for c in CHECKS) == 12


def test_numeric_goodput_matches_the_expression():
    expr = hyperlink.goodput_expr()
    for rate, lanes, size, packet in [(6.25, 4, 32768, 256), (10, 4, 100, 16), (3.125, 1, 7, 64)]:
        exact = float(expr.subs({coding.line_rate: sp.Rational(str(rate)), coding.lanes: lanes,
                                 hyperlink.transfer: size, hyperlink.packet: packet, hyperlink.control: 8}))
        assert hyperlink.goodput_gbit_s(rate, lanes, size, packet) == pytest.approx(exact, rel=1e-12)


def test_memories_answer_in_their_table_22_bursts():
    assert [hyperlink.read_response_bytes(m) for m in ("DDR3", "MSMC SRAM", "C66x L1/L2")] == [64, 32, 16]
    with pytest.raises(ParameterError, match="memory"):
        hyperlink.read_response_bytes("SRAM")


@pytest.mark.parametrize("args, name", [((6.25, 5, 64), "lanes"), ((0, 4, 64), "line_rate_gbaud"),
                                        ((6.25, 4, 0), "size_bytes"), ((6.25, 4, 64, 512), "packet_bytes")])
def test_impossible_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError) as info:
        hyperlink.goodput_gbit_s(*args)
    assert info.value.name == name


def test_maximum_achievable_reads_imply_twelve_bytes_per_packet():
    t = tables.hyperlink_implied_overhead()
    reads = t[t["transfer"].str.startswith("reads")]
    assert set(reads["implied bytes per packet"]) == {"12.0"}


def test_cli_prints_goodput_and_rejects_bad_lanes():
    exe = str(Path(sys.executable).parent / "goodput")
    p = subprocess.run([exe, "hyperlink", "--size", "32768", "--json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["goodput_gbit_s"] == pytest.approx(25 * 8 / 9 * 256 / 264)
    bad = subprocess.run([exe, "hyperlink", "--size", "64", "--lanes", "5"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--lanes 5" in bad.stderr
