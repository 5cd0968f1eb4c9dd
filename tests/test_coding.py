import itertools
import math

import pytest
import sympy as sp

from goodput.core.errors import ParameterError
from goodput.models import coding


@pytest.mark.parametrize("key", list(coding.CODES))
def test_numeric_bit_rate_matches_the_sympy_expression_over_a_grid(key):
    code = coding.CODES[key]
    expr = coding.bit_rate_expr(code)
    for rate, lanes in itertools.product([0.125, 1.25, 2.5, 5.0, 8.0, 10.3125, 32.0], [1, 2, 4, 8, 16]):
        exact = float(expr.subs({coding.line_rate: sp.Rational(str(rate)), coding.lanes: lanes}))
        assert coding.bit_rate_gbit_s(rate, lanes, key) == pytest.approx(exact, rel=1e-15)
        assert coding.byte_rate_gbyte_s(rate, lanes, key) == pytest.approx(exact / 8, rel=1e-15)


@pytest.mark.parametrize("key", list(coding.CODES))
def test_efficiency_is_data_bits_over_line_bits(key):
    code = coding.CODES[key]
    assert coding.efficiency_expr(code) == sp.Rational(code.data_bits, code.coded_bits)
    assert coding.efficiency(key) == code.data_bits / code.coded_bits


def test_the_two_ways_of_counting_8b10b_overhead_are_20_and_25_percent():
    code = coding.CODES["8b10b"]
    assert coding.line_overhead_expr(code) == sp.Rational(1, 5)
    assert coding.payload_overhead_expr(code) == sp.Rational(1, 4)


def test_symbol_rate_and_bit_rate_are_reported_separately():
    r = coding.link_rates("8b10b", 2.5, 4)
    assert r["signalling_rate_gbaud"] == 10.0
    assert r["goodput_gbit_s"] == 8.0
    assert r["goodput_gbyte_s"] == 1.0


def test_standards_pick_line_rates_that_leave_round_data_rates():
    assert coding.bit_rate_gbit_s(10.3125, 1, "64b66b") == pytest.approx(10.0, rel=1e-15)
    assert coding.bit_rate_gbit_s(0.125, 1, "4b5b") == pytest.approx(0.1, rel=1e-15)


@pytest.mark.parametrize(
    "args, name, words",
    [
        (("8b10b", 2.5, 0), "lanes", "integer from 1 to 32"),
        (("8b10b", 2.5, 1.5), "lanes", "integer from 1 to 32"),
        (("8b10b", 2.5, 33), "lanes", "integer from 1 to 32"),
        (("8b10b", -1.0, 1), "line_rate_gbaud", "from 0.001 to 64"),
        (("8b10b", 0.0, 1), "line_rate_gbaud", "from 0.001 to 64"),
        (("8b10b", math.nan, 1), "line_rate_gbaud", "from 0.001 to 64"),
        (("8b11b", 2.5, 1), "code", "one of 8b10b"),
    ],
)
def test_impossible_parameters_are_rejected_with_their_name_and_range(args, name, words):
    with pytest.raises(ParameterError) as info:
        coding.link_rates(*args)
    assert info.value.name == name
    assert words in str(info.value)


def test_common_links_are_valid_inputs():
    for link in coding.COMMON_LINKS:
        assert coding.link_rates(link.code, link.line_rate_gbaud, link.lanes)["goodput_gbit_s"] > 0
