"""The spreadsheet printer: formulas that a spreadsheet evaluates as the model does.

Printed formulas are evaluated here by a small stand-in for a spreadsheet (its functions
defined in Python, ``^`` read as a power); LibreOffice itself checks the workbooks.
"""

import math
import re

import pytest
import sympy as sp

from goodput.core.spreadsheet import number_formula, number_text, spreadsheet_formula
from goodput.models import can, coding, ethernet, spi, srio, tcp

_FUNCS = {
    "IF": lambda c, a, b: a if c else b, "MIN": min, "MAX": max, "CEILING": lambda x, s: math.ceil(x / s) * s,
    "FLOOR": lambda x, s: math.floor(x / s) * s, "LN": math.log, "EXP": math.exp, "SQRT": math.sqrt,
    "ABS": abs, "MOD": lambda a, b: a % b, "AND": lambda *a: all(a), "OR": lambda *a: any(a),
    "PI": lambda: math.pi,
}


def sheet_eval(formula: str, cells: dict) -> float:
    """Evaluate a formula of the printer's dialect over named cells (IF evaluates both branches,
    as spreadsheets may; the models keep both finite)."""
    assert formula.startswith("=")
    body = formula[1:].replace("^", "**").replace("<>", "!=")
    body = re.sub(r"(?<![<>!=])=(?!=)", "==", body)
    return float(eval(body, {"__builtins__": {}}, {**_FUNCS, **cells}))


def _names(expr):
    return {s: re.sub(r"\W", "_", str(s)).strip("_") or "x" for s in expr.free_symbols}


CASES = [
    ("8b/10b bit rate", coding.bit_rate_expr(coding.CODES["8b10b"]),
     [{coding.line_rate: 2.5, coding.lanes: 4}, {coding.line_rate: 5, coding.lanes: 1}]),
    ("SRIO wire bytes", srio.wire_bytes_expr(),
     [{srio.payload: p, srio.id_bits: i, srio.control_symbols: 1, srio.logical_header: l}
      for p in (0, 8, 66, 72, 256) for i in (8, 16) for l in (2, 6)]),
    ("TCP per-write goodput", tcp.message_goodput_expr(),
     [{tcp.message: m, tcp.mtu: 1500, tcp.ip_header: h, tcp.tcp_options: o, tcp.line_rate: 100, ethernet.vlan: v}
      for m in (1, 1460, 1461, 8192) for h in (20, 40) for o in (0, 12) for v in (0, 4)]),
    ("SPI transfer time", spi.transfer_time_expr(),
     [{spi.words: 400, spi.word_bits: 8, spi.clock: 50, spi.gap: 160, spi.spaced: 1},
      {spi.words: 1, spi.word_bits: 32, spi.clock: 7, spi.gap: 0, spi.spaced: 1},
      {spi.words: 400, spi.word_bits: 8, spi.clock: 50, spi.gap: 160, spi.spaced: 0}]),
    ("CAN FD frame time", can.frame_time_expr(),
     [{can.data_bytes: n, can.extended: x, can.arbitration_rate: 1, can.data_rate: 5, can.stuffing: s}
      for n in (0, 8, 16, 20, 64) for x in (0, 1) for s in (0, 0.5, 1)]),
]


@pytest.mark.parametrize("name, expr, points", CASES, ids=[c[0] for c in CASES])
def test_printed_formulas_evaluate_as_the_model_does(name, expr, points):
    names = _names(expr)
    formula = spreadsheet_formula(expr, names)
    for point in points:
        cells = {names[s]: v for s, v in point.items() if s in names}
        want = float(expr.subs(point))
        assert sheet_eval(formula, cells) == pytest.approx(want, rel=1e-12), (formula, point)


@pytest.mark.parametrize("name, expr, points", CASES, ids=[c[0] for c in CASES])
def test_a_formula_of_numbers_is_the_formula_printed_with_each_number_for_its_symbol(name, expr, points):
    x = sp.Symbol("x")
    # number_formula prints an expression once and fills in the numbers: the same text as printing them,
    # negative, fractional and huge numbers too (a symbol's text never changes how the printer writes the rest)
    extra = [{s: v for s in expr.free_symbols} for v in (-2, -0.5, 1e20)]
    for point in [*points, *extra]:
        values = {s: point[s] for s in expr.free_symbols}
        assert number_formula(expr, values) == spreadsheet_formula(expr, {s: number_text(v) for s, v in values.items()})
    assert number_formula(x - 3 * x ** 2, {x: -4}) == spreadsheet_formula(x - 3 * x ** 2, {x: "-4"})
    with pytest.raises(ValueError, match="no value given for x"):
        number_formula(x + 1, {})


def test_the_dialect_spells_functions_as_spreadsheets_do():
    x, y = sp.symbols("x y", positive=True)
    names = {x: "X", y: "Y"}
    assert spreadsheet_formula(sp.ceiling(x / y), names) == "=CEILING(X/Y, 1)"
    assert spreadsheet_formula(sp.Piecewise((1, x > 80), (2, True)), names) == "=IF(X>80, 1, 2)"
    assert spreadsheet_formula(sp.Min(x, y), names) in ("=MIN(X, Y)", "=MIN(Y, X)")
    assert spreadsheet_formula(x ** 2, names) == "=(X)^(2)"
    assert spreadsheet_formula(sp.log(x), names) == "=LN(X)"


@pytest.mark.parametrize("expr", [sp.sinh(sp.Symbol("x")), sp.Symbol("x") + sp.oo, sp.I * sp.Symbol("x"),
                                  sp.Symbol("z")])
def test_what_a_spreadsheet_cannot_evaluate_is_refused(expr):
    with pytest.raises(ValueError):
        spreadsheet_formula(expr, {sp.Symbol("x"): "X"})


def test_a_piecewise_without_a_default_branch_is_refused():
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match="final"):
        spreadsheet_formula(sp.Piecewise((1, x > 0), (2, x < 0)), {x: "X"})
