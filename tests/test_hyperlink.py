import json

import pytest
import sympy as sp

from goodput import checks, coding, hyperlink
from goodput.errors import ParameterError
from goodput.render import hyperlink as hyperlink_charts

from command import call


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


def test_inputs_given_as_text_are_read_as_numbers_once_checked():
    r = hyperlink.evaluate("write", "6.25", "4", "1e6", "1e2")
    assert (r["line_rate_gbaud"], r["lanes"], r["size_bytes"], r["burst_bytes"]) == (6.25, 4, 10 ** 6, 100)
    assert r["packets"] == 10 ** 4 and r == hyperlink.evaluate("write", 6.25, 4, 10 ** 6, 100)


def test_maximum_achievable_reads_imply_twelve_bytes_per_packet():
    t = hyperlink_charts.hyperlink_implied_overhead()
    reads = t[t["transfer"].str.startswith("reads")]
    assert set(reads["implied bytes per packet"]) == {"12.0"}




def _cli(*args):
    return call("hyperlink", *args)


def test_cli_write_prints_goodput_and_a_breakdown_that_adds_up():
    p = _cli("write", "--size", "32768", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["goodput_gbit_s"] == pytest.approx(25 * 8 / 9 * 256 / 264)
    assert sum(r["bytes"].values()) == pytest.approx(8 * r["size_bytes"] / r["goodput_gbit_s"] * 25 / 8)


def test_cli_read_uses_the_memorys_burst():
    r = json.loads(_cli("read", "--size", "32768", "--memory", "MSMC SRAM", "--json").stdout)
    assert r["packet_bytes"] == 32 and r["packets"] == 1024


@pytest.mark.parametrize("args, words", [
    (["write", "--size", "64", "--lanes", "5"], "--lanes 5"),
    (["read", "--size", "64"], "--memory"),
    (["read", "--size", "64", "--memory", "SRAM"], "--memory SRAM"),
    (["write", "--size", "64", "--burst", "512"], "--burst 512"),
])
def test_cli_rejects_impossible_input_with_exit_2(args, words):
    p = _cli(*args)
    assert p.returncode == 2 and words in p.stderr


def test_the_implied_control_bytes_give_back_the_goodput_they_were_solved_from():
    c = hyperlink.implied_control_expr()
    for rate, lanes, packet, control in ((6.25, 4, 64, 8), (5.0, 1, 256, 12), (3.125, 2, 128, 0)):
        g = hyperlink.goodput_gbit_s(rate, lanes, packet, packet) if control == 8 else \
            float(hyperlink.goodput_expr().subs({coding.line_rate: rate, coding.lanes: lanes, hyperlink.transfer: packet,
                                                 hyperlink.packet: packet, hyperlink.control: control}))
        got = c.subs({coding.line_rate: rate, coding.lanes: lanes, hyperlink.packet: packet, hyperlink.achieved: g})
        assert float(got) == pytest.approx(control, abs=1e-9)
