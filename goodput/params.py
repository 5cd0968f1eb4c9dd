"""Declared model parameters: one place for a parameter's unit, allowed range and slider.

A :class:`Parameter` is used three ways: the command line and the numeric
functions validate input against it (:meth:`Parameter.check`), the live charts
take their slider bounds from it, and the ipywidgets panels do the same. So the
range a reader can reach with a slider is never wider than what the model accepts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp

from .errors import ParameterError

__all__ = ["Parameter"]


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
        Short human label for a slider.
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

    def describe_range(self) -> str:
        """The allowed range in words, as error messages print it."""
        kind = "an integer" if self.integer else "a number"
        low = "above" if self.exclusive_minimum else "from"
        return f"{kind} {low} {_fmt(self.minimum)} to {_fmt(self.maximum)} {self.unit}"

    def check(self, value: float) -> float:
        """Return ``value`` if it is allowed, else raise :class:`ParameterError`."""
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ParameterError(self.name, value, self.describe_range()) from None
        if math.isnan(number) or math.isinf(number):
            raise ParameterError(self.name, value, self.describe_range())
        if self.integer and number != int(number):
            raise ParameterError(self.name, value, self.describe_range())
        too_low = number <= self.minimum if self.exclusive_minimum else number < self.minimum
        if too_low or number > self.maximum:
            raise ParameterError(self.name, value, self.describe_range())
        return int(number) if self.integer else number


def _fmt(x: float) -> str:
    """A bound as a reader types it: whole numbers in full (16777216, not 1.67772e+07)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
