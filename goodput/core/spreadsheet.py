"""Print sympy expressions as spreadsheet formulas, for workbooks whose cells stay live
and for the source checks, whose model values carry the formula that gives them.

The dialect is the one Excel and LibreOffice Calc share in their file formats:
``+ - * /``, ``^`` for powers, ``IF(cond, a, b)`` for a Piecewise,
``CEILING(x, 1)``/``FLOOR(x, 1)`` (significance 1), ``MIN``/``MAX``, ``LN``,
``EXP``, ``SQRT``, ``ABS``, ``MOD``, ``PI()``. Symbols print as the names of
the cells that hold them (defined names in a workbook). Anything else is
refused with an error rather than printed as a formula that would fail in the
sheet, as :mod:`goodput.render.vega` does for Vega.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping

import sympy as sp
from sympy.printing.precedence import precedence
from sympy.printing.str import StrPrinter

__all__ = ["SpreadsheetPrinter", "spreadsheet_formula", "number_formula", "number_text", "SUPPORTED", "REFUSED_EXAMPLES"]

_FUNCTIONS = {"Min": "MIN", "Max": "MAX", "log": "LN", "exp": "EXP", "Abs": "ABS", "sin": "SIN", "cos": "COS",
              "tan": "TAN"}
#: What the printer turns into spreadsheet functions (besides arithmetic and powers).
SUPPORTED = ("Piecewise -> IF", "ceiling -> CEILING(x, 1)", "floor -> FLOOR(x, 1)", "Min -> MIN", "Max -> MAX",
             "log -> LN", "exp -> EXP", "sqrt -> SQRT", "Abs -> ABS", "Mod -> MOD", "sin/cos/tan", "pi -> PI()")
#: Examples of what it refuses.
REFUSED_EXAMPLES = ("hyperbolic functions", "Sum/Product", "unknown symbols", "complex numbers", "infinity")


class SpreadsheetPrinter(StrPrinter):
    """A sympy printer for spreadsheet formulas; ``names`` maps each symbol to its cell name."""

    printmethod = "_spreadsheet"

    def __init__(self, names: Mapping[sp.Symbol, str], settings: dict | None = None):
        super().__init__(dict(settings or {}))
        self._names = dict(names)

    def _print_Symbol(self, expr):
        if expr not in self._names:
            raise ValueError(f"symbol {expr} has no cell in the workbook")
        return self._names[expr]

    def _print_Integer(self, expr):
        return str(int(expr))

    def _print_Rational(self, expr):
        return f"({int(expr.p)}/{int(expr.q)})"

    def _print_Float(self, expr):
        return repr(float(expr))

    def _print_Pow(self, expr):
        if expr.exp == sp.Rational(1, 2):
            return f"SQRT({self._print(expr.base)})"
        if expr.exp == -1:
            return f"(1/{self.parenthesize(expr.base, precedence(expr))})"
        return f"({self._print(expr.base)})^({self._print(expr.exp)})"

    def _print_Piecewise(self, expr):
        if expr.args[-1].cond != sp.true:
            raise ValueError("a Piecewise needs a final (expr, True) branch to print as IF")
        out = self._print(expr.args[-1].expr)
        for e, c in reversed(expr.args[:-1]):
            out = f"IF({self._print(c)}, {self._print(e)}, {out})"
        return out

    def _print_Relational(self, expr):
        op = {"==": "=", "!=": "<>"}.get(expr.rel_op, expr.rel_op)
        return f"{self._print(expr.lhs)}{op}{self._print(expr.rhs)}"

    def _print_And(self, expr):
        return "AND(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Or(self, expr):
        return "OR(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_ceiling(self, expr):
        return f"CEILING({self._print(expr.args[0])}, 1)"

    def _print_floor(self, expr):
        return f"FLOOR({self._print(expr.args[0])}, 1)"

    def _print_Mod(self, expr):
        return f"MOD({self._print(expr.args[0])}, {self._print(expr.args[1])})"

    def _print_Pi(self, expr):
        return "PI()"

    def _print_Function(self, expr):
        name = type(expr).__name__
        if name not in _FUNCTIONS:
            raise ValueError(f"{name} has no spreadsheet function here")
        return f"{_FUNCTIONS[name]}(" + ", ".join(self._print(a) for a in expr.args) + ")"

    _print_Min = _print_Function
    _print_Max = _print_Function
    _print_Abs = _print_Function

    def _print_not_supported(self, expr):
        raise ValueError(f"{type(expr).__name__} cannot be printed as a spreadsheet formula")

    _print_Infinity = _print_not_supported
    _print_NegativeInfinity = _print_not_supported
    _print_ComplexInfinity = _print_not_supported
    _print_ImaginaryUnit = _print_not_supported
    _print_Sum = _print_not_supported
    _print_Product = _print_not_supported
    _print_sinh = _print_not_supported
    _print_cosh = _print_not_supported
    _print_tanh = _print_not_supported


def spreadsheet_formula(expr: sp.Expr, names: Mapping[sp.Symbol, str]) -> str:
    """``expr`` as a formula (with the leading ``=``) over the named cells ``names``."""
    return "=" + SpreadsheetPrinter(names).doprint(expr)


def number_text(value: float) -> str:
    """A number as JavaScript's ``String(x)`` writes it, so the page and Python print alike."""
    x = float(value)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def number_formula(expr: sp.Expr, values: Mapping[sp.Symbol, float]) -> str:
    """``expr`` as a formula of numbers: each symbol printed as its value, the structure kept."""
    missing = expr.free_symbols - set(values)
    if missing:
        raise ValueError(f"no value given for {', '.join(sorted(map(str, missing)))}")
    numbers = {s: float(v) for s, v in values.items()}
    if any(v < 0 for v in numbers.values()):  # a term printed with a leading minus reads "a - 2", not "a + -2"
        return spreadsheet_formula(expr, {s: number_text(v) for s, v in numbers.items()})
    symbols, pieces = _formula_pieces(expr)
    texts = [number_text(numbers[s]) for s in symbols]
    return "".join(texts[piece] if isinstance(piece, int) else piece for piece in pieces)


_SLOT = re.compile(r"\x00(\d+)\x00")


@lru_cache(maxsize=1024)
def _formula_pieces(expr: sp.Expr) -> tuple[tuple[sp.Symbol, ...], tuple[str | int, ...]]:
    """``expr`` printed once with a slot for each symbol: (the symbols, the text between and the slots' numbers).

    Many checks print one expression with other numbers, and how the printer writes an expression (the order
    of its terms, its parentheses) follows the expression, not the text a symbol prints as, but for one rule:
    a term whose text starts with a minus is subtracted. With no negative number, filling the slots gives what
    printing with the numbers gives (tests/test_spreadsheet_printer.py holds them equal)."""
    symbols = tuple(sorted(expr.free_symbols, key=sp.default_sort_key))
    text = spreadsheet_formula(expr, {s: f"\x00{i}\x00" for i, s in enumerate(symbols)})
    parts = _SLOT.split(text)  # text, slot, text, slot, ..., text
    return symbols, tuple(int(p) if k % 2 else p for k, p in enumerate(parts) if k % 2 or p)
