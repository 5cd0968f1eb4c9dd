"""Long formulas broken across lines (goodput.render.formula.equation).

Every formula a chapter displays is collected from the notebooks' own
``formula.equation(...)`` calls, so a formula added to a chapter is checked too.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

import pytest
import sympy as sp
from tiers import fast_first

from goodput.render import calculations, formula
from goodput.render.formula import WIDTH, equation, equation_latex, equation_rows, line_latex, visible_length

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _code_cells(path: Path) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
            if cell["cell_type"] == "code"]


#: The chapters whose code shows a formula (read at collection: the formulas are made when a test asks).
CHAPTERS = [path.stem for path in sorted(NOTEBOOKS.glob("*.ipynb"))
            if any("formula.equation(" in cell for cell in _code_cells(path))]


#: make test-fast checks the formulas of the chapter with the longest one; make test every chapter's.
SOME_FAST = fast_first(sorted(CHAPTERS, key=lambda chapter: chapter != "tcp-goodput"))


@lru_cache(maxsize=None)
def shown_in(chapter: str) -> tuple[tuple[str, sp.Expr], ...]:
    """(lhs, expr) of every ``formula.equation`` call in a chapter's code cells.

    The notebook's import cell runs first, then every cell with a call, with
    ``formula.equation`` recording its arguments and ``display`` showing nothing.
    """
    cells = _code_cells(NOTEBOOKS / f"{chapter}.ipynb")
    found = []
    namespace: dict = {}
    exec(next(cell for cell in cells if "from goodput.render import formula" in cell), namespace)
    namespace["display"] = lambda *shown: None
    namespace["formula"] = SimpleNamespace(equation=lambda lhs, expr, *rest: found.append((lhs, expr)))
    for cell in cells:
        if "formula.equation(" in cell:
            exec(cell, namespace)
    return tuple(found)


def _tcp_goodput() -> tuple[str, sp.Expr]:
    (shown,) = [(lhs, expr) for lhs, expr in shown_in("tcp-goodput") if lhs == "G"]
    return shown


def _written_out(rows: list[formula.Row]) -> sp.Expr:
    """The first row's value with every name replaced by the part it stands for."""
    names = {row.symbol: row.value for row in rows[1:]}
    value = rows[0].value
    while value.free_symbols & names.keys():
        value = value.xreplace(names)
    return value


def test_the_chapters_formulas_are_all_collected():
    assert sum(len(shown_in(chapter)) for chapter in CHAPTERS) >= 35
    assert set(CHAPTERS) >= set(calculations.CHAPTERS)  # every chapter with a model shows it
    assert all(shown_in(chapter) for chapter in CHAPTERS)
    assert _tcp_goodput()


@pytest.mark.parametrize("chapter", SOME_FAST)
def test_every_line_of_a_shown_formula_fits_a_phone(chapter):
    for lhs, expr in shown_in(chapter):
        text = equation_latex(lhs, expr)
        assert visible_length(text) <= WIDTH, lhs
        for line in text.split(" \\\\\n"):
            assert visible_length(line) <= WIDTH, (lhs, line)


@pytest.mark.parametrize("chapter", SOME_FAST)
def test_a_formula_that_fits_prints_as_before(chapter):
    for lhs, expr in shown_in(chapter):
        before = f"{lhs} = {sp.latex(expr)}"
        if visible_length(before) <= WIDTH:
            assert equation_latex(lhs, expr) == before
        else:
            assert equation_latex(lhs, expr).startswith("\\begin{aligned}\n" + f"{lhs} &= ")


@pytest.mark.parametrize("chapter", SOME_FAST)
def test_a_broken_formula_is_the_same_mathematics(chapter):
    for lhs, expr in shown_in(chapter):
        rows = equation_rows(lhs, expr)
        for row in rows:
            terms = [term for line in row.lines for term in line]
            assert sp.Add(*terms) == row.value, (lhs, row.lhs)
            printed = " ".join(line_latex(line, k == 0) for k, line in enumerate(row.lines))
            assert printed == sp.latex(row.value), (lhs, row.lhs)
        back = _written_out(rows)
        assert back == expr or sp.expand(back - expr) == 0, lhs


def test_the_longest_formula_is_cut_into_named_parts_that_fit():
    lhs, expr = _tcp_goodput()
    assert visible_length(f"{lhs} = {sp.latex(expr)}") > 5 * WIDTH
    rows = equation_rows(lhs, expr)
    assert len(rows) > 1 and rows[0].lhs == "G" and [row.lhs for row in rows[1:3]] == ["u_{1}", "u_{2}"]
    assert r"&\text{where}" in equation_latex(lhs, expr)


def test_a_long_sum_is_cut_between_terms_with_the_equals_signs_aligned():
    symbols = sp.symbols("a_{0:12}")
    expr = sp.Add(*(s * k for k, s in enumerate(symbols, 2))) - 7
    text = equation_latex("S", expr, width=30)
    lines = text.removeprefix("\\begin{aligned}\n").removesuffix("\n\\end{aligned}").split(" \\\\\n")
    assert lines[0].startswith("S &= ") and len(lines) > 2
    assert all(line.startswith(("&\\quad + ", "&\\quad - ")) for line in lines[1:])
    assert all(visible_length(line) <= 30 for line in lines)
    rows = equation_rows("S", expr, width=30)
    assert len(rows) == 1 and sp.Add(*(t for line in rows[0].lines for t in line)) == expr


def test_a_short_formula_is_one_line_and_display_shows_the_same_latex():
    x, y = sp.symbols("x y")
    assert equation_latex("z", x + y) == "z = x + y"
    assert equation("z", x / y).data == equation_latex("z", x / y) == r"z = \frac{x}{y}"


@pytest.mark.parametrize("lhs", ["", "   "])
def test_an_equation_needs_a_left_side(lhs):
    with pytest.raises(ValueError, match="left side"):
        equation_latex(lhs, sp.Symbol("x"))


@pytest.mark.parametrize("width", [0, -40, 2.5, True])
def test_the_width_is_a_positive_number_of_characters(width):
    with pytest.raises(ValueError, match="width must be a positive"):
        equation_latex("G", sp.Symbol("x"), width=width)


def test_a_width_too_narrow_for_any_line_is_refused():
    lhs, expr = _tcp_goodput()
    with pytest.raises(ValueError, match="the formula for G cannot be printed in lines of 4 characters"):
        equation_latex(lhs, expr, width=4)


@pytest.mark.parametrize(("latex", "width"), [
    ("x + 1", 4),  # an operator counts its spaces
    (r"\frac{a + b}{c}", 4),  # the wider half of a fraction
    (r"R_{\mathrm{line}}", 1 + 0.7 * 4),  # a subscript at its size, the text of \mathrm
    (r"\left\lceil{\frac{S}{P}}\right\rceil", 3),  # \left and \right count their delimiter
    (r"\max\left(a, b\right)", 8),
    (r"\begin{cases} 1 & \text{for}\: x > 0 \\0 & \text{otherwise} \end{cases}", 1 + 1 + 2 + 9),
    ("\\begin{aligned}\nG &= a + b \\\\\nu_{10} &= c\n\\end{aligned}", 2.4 + 6),  # widest row, by column
])
def test_visible_length_counts_what_the_reader_sees(latex, width):
    assert visible_length(latex) == pytest.approx(width)
