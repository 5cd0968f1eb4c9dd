"""Declared model parameters: one place for a parameter's unit, allowed range and slider.

A :class:`Parameter` is used three ways: the command line and the numeric
functions validate input against it (:meth:`Parameter.check`), the live charts
take their slider bounds from it, and the ipywidgets panels do the same. So the
range a reader can reach with a slider is never wider than what the model accepts.
"""

from __future__ import annotations

import decimal
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from goodput.core.errors import ParameterError

if TYPE_CHECKING:  # the symbol is only stored: the command line builds parameters without sympy
    import sympy as sp

__all__ = ["Parameter", "DEFAULT", "by_name"]


class _Default:
    """The value of an argument left out: the default of the parameter that checks it."""

    def __repr__(self) -> str:
        return "<the parameter's default>"


#: A function's default for an argument checked by a :class:`Parameter`: ``def f(rate=DEFAULT)``
#: takes the parameter's declared default, so it is typed once.
DEFAULT = _Default()

#: A number as a reader types it: ASCII digits with an optional sign, point and exponent. Not what
#: :func:`float` takes besides: ``1_000``, digits of other scripts, spaces, ``nan`` or ``inf``.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Parameter:
    """A named, ranged input of a model.

    Parameters
    ----------
    name : str
        Identifier used on the command line, in JSON, and as the Vega signal name.
    symbol : sympy.Symbol
        The symbol standing for this parameter in the model's expressions.
    unit : str
        Unit of the value, spelt out (``"Gbaud"``, ``"lanes"``, ``"bytes"``).
    minimum, maximum : float
        Allowed closed range, unless ``exclusive_minimum`` is set.
    default : float
        Value the sliders start at.
    step : float
        Slider step.
    integer : bool
        Whether only whole numbers are allowed.
    exclusive_minimum : bool
        Whether ``minimum`` itself is excluded (a rate must be above zero).
    label : str
        Short human label for a control.
    options : tuple of (value, label)
        The only values allowed, each with what a reader calls it (``(4, "x4")``,
        ``(256, "256 B")``); a control offers these and nothing between them.
    presets : tuple of (value, label)
        Standard values of a continuous parameter a control offers one click away
        (``(2.5, "PCIe 1")``); any other value in range can still be typed.
    """

    name: str
    symbol: sp.Symbol
    unit: str
    minimum: float
    maximum: float
    default: float
    step: float
    label: str
    integer: bool = False
    exclusive_minimum: bool = False
    options: tuple = ()
    presets: tuple = ()

    def __post_init__(self):
        for kind, pairs in (("option", self.options), ("preset", self.presets)):
            for value, _label in pairs:
                if self._outside_range(value):
                    raise ValueError(f"{self.name}: {kind} {value!r} is outside {self._range_text()}")
        if self.options and self.default not in self.values():
            raise ValueError(f"{self.name}: default {self.default!r} is not one of its options")

    def values(self) -> tuple:
        """The allowed values when the parameter is a set of options (empty otherwise)."""
        return tuple(v for v, _label in self.options)

    @property
    def title(self) -> str:
        """The label without a trailing ``(unit)``: a control shows the unit beside the value."""
        suffix = f" ({self.unit})"
        return self.label[: -len(suffix)] if self.unit and self.label.endswith(suffix) else self.label

    def lowest_step(self, step: float | None = None) -> float:
        """The lowest allowed value on a slider's grid of multiples of ``step`` (the parameter's own by
        default): where a slider starts, so that the default and the usual values lie on its grid even
        where the model accepts less (1 Mbaud is allowed, a 0.25 Gbaud slider starts at 0.25)."""
        step = step or self.step
        low = math.ceil(round(self.minimum / step, 9)) * step
        if low < self.minimum or (self.exclusive_minimum and low == self.minimum):
            low += step
        if low == self.minimum:
            return self.minimum
        low = float(f"{low:.12g}")
        return int(low) if low.is_integer() else low

    def describe_range(self) -> str:
        """The allowed values in words, as error messages print them."""
        if self.options:
            return f"one of {', '.join(_fmt(v) for v in self.values())} {self.unit}".rstrip()
        return self._range_text()

    def _range_text(self) -> str:
        kind = "an integer" if self.integer else "a number"
        low = "above" if self.exclusive_minimum else "from"
        return f"{kind} {low} {_fmt(self.minimum)} to {_fmt(self.maximum)} {self.unit}".rstrip()

    def allows(self, value) -> bool:
        """Whether :meth:`check` takes ``value`` (an option, where the parameter has options)."""
        return not self._outside_range(value) and (not self.options or value in self.values())

    def _outside_range(self, value) -> bool:
        """Whether ``value`` is outside the range (options aside)."""
        number = _number(value)
        if number is None or not math.isfinite(number):
            return True
        if self.integer and (number != int(number) or (isinstance(value, str) and not _whole_as_written(value))):
            return True  # 4.0000000000000001 is 4 as a float, not as written
        too_low = number <= self.minimum if self.exclusive_minimum else number < self.minimum
        return too_low or number > self.maximum

    def check(self, value: float) -> float:
        """Return ``value`` if it is allowed (the default if it is :data:`DEFAULT`), else raise
        :class:`ParameterError`."""
        if value is DEFAULT:
            return self.default
        if self._outside_range(value) or (self.options and _number(value) not in self.values()):
            raise ParameterError(self.name, value, self.describe_range())
        number = _number(value)
        return int(number) if self.integer else number


def by_name(*parameters: Parameter) -> dict[str, Parameter]:
    """A model's parameters by their names, in the order given: what the command's options, the page's controls,
    the chooser and the workbook look them up in. A name given twice is refused (a dict written out would keep the
    last one and drop the other without a word)."""
    out: dict[str, Parameter] = {}
    for p in parameters:
        if p.name in out:
            raise ValueError(f"two parameters are named {p.name!r}")
        out[p.name] = p
    return out


def _whole_as_written(text: str) -> bool:
    """Whether the number ``text`` (a :data:`_NUMBER`) is whole in its decimal digits, not only once rounded to a
    float: ``4``, ``4.0`` and ``1e3`` are, ``4.0000000000000001`` is not."""
    return decimal.Decimal(text) == decimal.Decimal(text).to_integral_value()


def _number(value) -> float | None:
    """``value`` as a float (``-0`` as 0), or None if it is no number; a string must match :data:`_NUMBER`."""
    if isinstance(value, str) and not _NUMBER.fullmatch(value):
        return None
    try:
        return float(value) + 0.0
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int beyond any float
        return None


def _fmt(x: float) -> str:
    """A bound as a reader types it: whole numbers in full (16777216, not 1.67772e+07)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
