import inspect
import math

import pytest
import sympy as sp

from goodput.core import chapters
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.models import can, coding, spi, tcp

MODELS = list({m: None for c in chapters.CHAPTERS for m in c.model_modules() if hasattr(m, "PARAMETERS")})
EVERY = [p for m in MODELS for p in m.PARAMETERS.values()]
#: Units of a rate or a clock: nothing moves at 0 of them, and a denormal one gives infinite times.
RATES = ("Gbaud", "Gbit/s", "Mbit/s", "MHz", "MT/s")


@pytest.mark.parametrize("p", [p for p in EVERY if p.unit in RATES], ids=lambda p: p.name)
def test_every_rate_and_clock_has_a_floor_above_zero_that_it_accepts(p):
    assert p.minimum > 0 and not p.exclusive_minimum
    assert p.check(p.minimum) == p.minimum
    for tiny in (5e-324, 1e-320, p.minimum / 2):
        with pytest.raises(ParameterError):
            p.check(tiny)


@pytest.mark.parametrize("text", ["\u0663", "1_000", " 3", "3 ", "0x10", "nan", "inf", "-inf", "1e400",
                                  "1" * 5000, "", "3,5", "\uff13"])
def test_a_number_is_refused_unless_written_in_ascii_digits(text):
    for p in (coding.PARAMETERS["lanes"], coding.PARAMETERS["line_rate_gbaud"]):
        with pytest.raises(ParameterError) as info:
            p.check(text)
        assert info.value.value == text


@pytest.mark.parametrize("value", [10 ** 400, -10 ** 400, math.inf, math.nan, None, object()])
def test_a_value_no_float_can_hold_is_a_parameter_error(value):
    with pytest.raises(ParameterError):
        coding.PARAMETERS["line_rate_gbaud"].check(value)


@pytest.mark.parametrize("text, value", [("2.5", 2.5), ("+2.5", 2.5), (".5", 0.5), ("5.", 5.0), ("25e-1", 2.5),
                                         ("2E0", 2.0)])
def test_plain_decimal_numbers_are_taken(text, value):
    assert coding.PARAMETERS["line_rate_gbaud"].check(text) == value


def test_minus_zero_is_zero():
    assert math.copysign(1, can.PARAMETERS["stuffing"].check("-0")) == 1
    assert str(spi.PARAMETERS["gap_ns"].check(-0.0)) == "0.0"


def test_a_slider_starts_on_its_step_grid_above_a_physical_floor():
    assert coding.PARAMETERS["line_rate_gbaud"].lowest_step() == 0.0625
    assert tcp.PARAMETERS["line_rate_mbit_s"].lowest_step() == 10
    assert spi.PARAMETERS["gap_ns"].lowest_step() == 0
    assert can.PARAMETERS["data_mbit_s"].lowest_step(0.25) == 0.25
    for module in (can, coding, spi, tcp):
        for p in module.PARAMETERS.values():
            low = p.lowest_step()
            assert p.check(low) == low and round((p.default - low) / p.step, 9).is_integer(), p.name


def test_an_argument_left_out_takes_its_parameters_declared_default():
    p = Parameter("rate", sp.Symbol("r"), "Mbit/s", 1, 10, default=5, step=1, label="rate")
    assert p.check(DEFAULT) == 5 and repr(DEFAULT) == "<the parameter's default>"
    assert can.evaluate(64)["arbitration_mbit_s"] == can.PARAMETERS["arbitration_mbit_s"].default


@pytest.mark.parametrize("module", MODELS, ids=lambda m: m.__name__)
def test_no_function_types_a_parameters_default_again(module):
    for name, function in inspect.getmembers(module, inspect.isfunction):
        if function.__module__ != module.__name__:
            continue
        for arg in inspect.signature(function).parameters.values():
            if arg.name in module.PARAMETERS and arg.default is not inspect.Parameter.empty:
                assert arg.default is DEFAULT, f"{module.__name__}.{name}({arg.name}={arg.default!r})"


def test_parameters_by_name_keep_their_order_and_refuse_a_name_given_twice():
    a = Parameter("a", None, "", 0, 1, default=0, step=1, label="a")
    b = Parameter("b", None, "", 0, 1, default=1, step=1, label="b")
    assert list(by_name(b, a)) == ["b", "a"] and by_name(a, b)["b"] is b
    with pytest.raises(ValueError, match="two parameters are named 'a'"):
        by_name(a, b, a)
