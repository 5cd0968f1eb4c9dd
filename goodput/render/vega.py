"""Print sympy expressions as Vega expressions, for charts that recompute in the browser.

Vega's expression language is a JavaScript subset with its own function names
(``pow``, ``floor``, ``ceil``, ``min``, ``max``, ``log``, ...; no ``Math.``
prefix), constants ``PI`` and ``E``, data fields as ``datum['name']`` and
parameters (signals) as bare names. The printer refuses what Vega cannot
evaluate (hyperbolic functions, unknown symbols) instead of printing something
that fails silently in the page.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

import sympy as sp
from sympy.printing.jscode import JavascriptCodePrinter
from sympy.printing.precedence import precedence

__all__ = ["VegaPrinter", "vega_expr", "column", "matches", "is_value", "lookup", "bytes_label"]

_FUNCTIONS = {
    "Abs": "abs",
    "acos": "acos",
    "asin": "asin",
    "atan": "atan",
    "atan2": "atan2",
    "ceiling": "ceil",
    "cos": "cos",
    "exp": "exp",
    "floor": "floor",
    "log": "log",
    "Max": "max",
    "Min": "min",
    "sin": "sin",
    "tan": "tan",
}


class VegaPrinter(JavascriptCodePrinter):
    """A :class:`JavascriptCodePrinter` speaking Vega's expression dialect.

    Parameters
    ----------
    fields : mapping of Symbol to str
        Symbols that are columns of the chart's data: printed ``datum['col']``.
    params : mapping of Symbol to str
        Symbols that are chart parameters (slider signals): printed by name.
    """

    printmethod = "_vega"
    language = "Vega expression"

    def __init__(self, fields: Mapping[sp.Symbol, str] | None = None,
                 params: Mapping[sp.Symbol, str] | None = None, settings: dict | None = None):
        super().__init__(dict(settings or {}))
        self.known_functions = dict(_FUNCTIONS)
        self._fields = dict(fields or {})
        self._params = dict(params or {})

    def _print_Symbol(self, expr):
        if expr in self._fields:
            return f"datum[{self._fields[expr]!r}]"
        if expr in self._params:
            return self._params[expr]
        raise ValueError(f"symbol {expr} is neither a data field nor a parameter of the chart")

    def _print_Pow(self, expr):
        if expr.exp == sp.Rational(1, 2):
            return f"sqrt({self._print(expr.base)})"
        if expr.exp == -1:
            return f"(1/{self.parenthesize(expr.base, precedence(expr))})"
        return f"pow({self._print(expr.base)}, {self._print(expr.exp)})"

    def _print_Rational(self, expr):
        return f"({int(expr.p)}/{int(expr.q)})"

    def _print_Exp1(self, expr):
        return "E"

    def _print_Pi(self, expr):
        return "PI"

    def _print_Infinity(self, expr):
        return "Infinity"

    def _print_NegativeInfinity(self, expr):
        return "-Infinity"

    def _print_Mod(self, expr):
        a, b = (self._print(x) for x in expr.args)
        return f"((({a}) % ({b}) + ({b})) % ({b}))"

    def _print_BooleanTrue(self, expr):
        return "true"

    def _print_BooleanFalse(self, expr):
        return "false"

    def _print_Relational(self, expr):
        op = {"==": "===", "!=": "!=="}.get(expr.rel_op, expr.rel_op)
        return f"({self._print(expr.lhs)} {op} {self._print(expr.rhs)})"

    def _print_Piecewise(self, expr):
        if expr.args[-1].cond != True:  # noqa: E712 - sympy's true is not Python's True
            raise ValueError("a Piecewise needs a final (expr, True) branch to print for Vega")
        out = self._print(expr.args[-1].expr)
        for e, c in reversed(expr.args[:-1]):
            out = f"(({self._print(c)}) ? ({self._print(e)}) : ({out}))"
        return out

    def _print_Function(self, expr):
        name = expr.func.__name__
        if name not in self.known_functions:
            raise ValueError(f"Vega has no function for {name}")
        return f"{self.known_functions[name]}({', '.join(self._print(a) for a in expr.args)})"

    # sympy's Min/Max/Abs/ceiling/floor are not all Function subclasses with a known name route
    _print_Min = _print_Function
    _print_Max = _print_Function
    _print_Abs = _print_Function
    _print_ceiling = _print_Function
    _print_floor = _print_Function

    def _print_not_supported(self, expr):
        raise ValueError(f"Vega has no expression for {type(expr).__name__}: {expr}")


def vega_expr(expr: sp.Expr, fields: Mapping[sp.Symbol, str] | None = None,
              params: Mapping[sp.Symbol, str] | None = None) -> str:
    """``expr`` as a one-line Vega expression (see :class:`VegaPrinter`)."""
    return VegaPrinter(fields, params).doprint(sp.sympify(expr)).replace("\n", " ")


def column(name: str) -> str:
    """A datum's column in a Vega expression: ``datum.lanes``."""
    if not name.isidentifier():
        raise ValueError(f"column {name!r} is not a name a Vega expression can write as datum.NAME")
    return f"datum.{name}"


def matches(columns: Mapping[str, str]) -> str:
    """True where each datum's column equals a control's signal, column -> signal
    (``{"lanes": "lanes"}`` -> ``datum.lanes == lanes``): measured points shown only where the
    sliders sit at the conditions the points carry, rows of the cases a choice selects."""
    if not columns:
        raise ValueError("matches needs at least one column to compare")
    return " && ".join(f"{column(c)} == {signal}" for c, signal in columns.items())


def is_value(name: str, value: str) -> str:
    """True where a datum's text column holds ``value``: ``datum.series === 'measured'``."""
    return f"{column(name)} === {json.dumps(value)}"


def lookup(name: str, table: Mapping[str, Any], otherwise: Any = "") -> str:
    """The value ``table`` gives a datum's ``name`` (text keys), ``otherwise`` for any other: a legend's
    labels, or the order of stacked parts."""
    out = json.dumps(otherwise)
    for key, value in reversed(list(table.items())):
        out = f"({is_value(name, key)} ? {json.dumps(value)} : {out})"
    return out


def bytes_label() -> str:
    """An axis label for a count of bytes in powers of two: ``512 B``, ``4 KiB``, ``1 MiB``."""
    steps = ((1 << 20, "MiB"), (1 << 10, "KiB"))
    out = "format(datum.value, 'd') + ' B'"
    for size, unit in reversed(steps):
        out = f"datum.value >= {size} ? format(datum.value / {size}, 'd') + ' {unit}' : {out}"
    return out
