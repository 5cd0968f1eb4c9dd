"""The workbook's status formula decides a check as :func:`goodput.checks.verdict` does, without a spreadsheet.

The formula uses only IF, ABS, MAX, arithmetic and comparisons, so Python evaluates it with the cells
put in as numbers (``tests/test_workbooks.py`` has LibreOffice Calc recalculate the real workbooks).
"""

import re

import pytest

from goodput import checks
from goodput.render.workbook import status_formula


def evaluated(formula: str) -> str:
    """A status formula's result, computed by Python: IF, ABS and MAX are its only functions."""
    assert formula.startswith("=")
    words = set(re.findall(r"[A-Z]{2,}(?=\()", formula))
    assert words <= {"IF", "ABS", "MAX"}, words
    return eval(formula[1:], {"__builtins__": {}},  # noqa: S307 - our own formula of numbers
                {"IF": lambda test, yes, no: yes if test else no, "ABS": abs, "MAX": max})


def of(c: checks.SourceCheck, published: str | None = None) -> str:
    """The status the workbook's formula gives check ``c``, with its printed cell ``published`` if given."""
    printed = c.published if published is None else published
    cells = [f"({checks.printed_value(printed)!r})", f"({c.model!r})", f"({checks.printed_tolerance(printed)!r})"]
    return evaluated(status_formula(*cells, c.relation, c.otherwise, c.exact, c.approximate, c.convention_value,
                                    c.spread_amount))


def test_the_formula_gives_every_checks_status():
    found = checks.collect()
    assert {c.status for c in found} >= {"ok", "rounding", "convention", "erratum", "unexplained"}
    wrong = [(c.document, c.where, c.row, c.status, of(c)) for c in found if of(c) != c.status]
    assert not wrong, wrong[:5]


def made(printed: str, model: float, **how) -> checks.SourceCheck:
    return checks.check("AN3935", "Table 1", "row", "rate", "Gbit/s", printed, model, **how)


@pytest.mark.parametrize("how, status", [
    ({}, "erratum"),
    ({"otherwise": "unexplained"}, "unexplained"),
    ({"spread": checks.Spread(0.5, "the other runs")}, "spread"),
    ({"spread": checks.Spread(0.5, "the other runs"), "otherwise": "unexplained"}, "spread"),
    ({"convention": checks.Convention("the other rule", 11.0)}, "convention"),
    ({"approximate": 10}, "rounding"),
    ({"relation": "<=", "otherwise": "unexplained"}, "unexplained"),
    ({"relation": "<=", "spread": checks.Spread(0.5, "the other runs")}, "spread"),
])
def test_a_value_off_its_model_gets_the_checks_own_status_not_a_typed_erratum(how, status):
    c = made("11.0", 10.6, **how)
    assert c.status == status and of(c) == status


def test_a_value_moved_beyond_the_spread_gets_what_the_check_says_of_a_value_nothing_explains():
    c = made("10.6", 10.6, spread=checks.Spread(0.5, "the other runs"), otherwise="unexplained")
    assert (c.status, of(c)) == ("ok", "ok")
    assert of(c, "11.0") == "spread" == made("11.0", 10.6, spread=checks.Spread(0.5, "x"), otherwise="unexplained").status
    assert of(c, "12.0") == "unexplained"  # the formula holds the check's rule, not the status it had


def test_a_status_formula_refuses_a_status_that_is_not_a_verdict_on_a_value_nothing_explains():
    with pytest.raises(ValueError, match="unexplained"):
        status_formula("A1", "B1", "C1", otherwise="ok")
