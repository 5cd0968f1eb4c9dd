"""A chapter's calculation as a workbook whose cells stay live (``.xlsx``, written by XlsxWriter).

Three sheets:

*Inputs*
    One row per input: its value in a cell named after the parameter
    (``line_rate_gbaud``), unit, allowed range and what it is. Data validation
    refuses a value outside the range, as the model does.
*Model*
    One row per case: the case's columns, then one column per output whose cells
    are formulas of the named inputs and the row's case cells, printed from the
    model's sympy expressions by :mod:`goodput.core.spreadsheet`.
*Source checks*
    The chapter's checks: published value, goodput's value (a formula of numbers
    where it comes straight from a model expression), the printed tolerance, and the
    status as a formula of those three (the rule of :mod:`goodput.checks`).

Each formula is stored with the value goodput computes for it, so a viewer that
does not recalculate still shows numbers.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Sequence

import sympy as sp
import xlsxwriter
from xlsxwriter.utility import xl_col_to_name, xl_rowcol_to_cell

from goodput import checks
from goodput.checks import SourceCheck
from goodput.core.chapters import NOTEBOOKS
from goodput.core.spreadsheet import spreadsheet_formula
from goodput.render import calculations
from goodput.render.calculation import Calculation

__all__ = ["SHEETS", "write_workbook", "status_formula", "export", "yours"]

SHEETS = ("Inputs", "Model", "Source checks")
#: First row of each sheet's table (0-based): a title line and a blank line above it.
HEADER_ROW = 2

_CELL_LIKE = re.compile(r"^([A-Za-z]{1,3}[0-9]+|[RrCc][0-9]*|[Rr][0-9]*[Cc][0-9]*)$")


def _name(name: str) -> str:
    if _CELL_LIKE.match(name) or not re.match(r"^[A-Za-z_][A-Za-z0-9_.]*$", name):
        raise ValueError(f"input {name!r} cannot name a cell: it reads as a cell reference or has other characters")
    return name


def status_formula(published: str, model: str, tolerance: str, relation: str = "=",
                   otherwise: str = "erratum", exact: bool = False, approximate: float | None = None,
                   convention: float | None = None, spread: float | None = None) -> str:
    """:func:`goodput.checks.verdict` over three cells, as a formula, in its order: ``ok`` or ``rounding``
    (for a bound, ``ok``) as the cells say (an ``exact`` count has no rounding, and no slack relative to its
    size); ``rounding`` within half of ``approximate``; ``convention`` if the value the document's other rule gives (``convention``) keeps the
    printed value; ``spread`` if the value is off by no more than ``spread``; else ``otherwise``
    (``erratum`` or ``unexplained``). The check's own numbers (a :class:`goodput.checks.SourceCheck`'s
    ``approximate``, ``convention_value``, ``spread_amount``) are written into it."""
    if relation not in checks.RELATIONS:
        raise ValueError(f"relation {relation!r} is none of {', '.join(checks.RELATIONS)}")
    if otherwise not in checks.ERRATA:
        raise ValueError(f"a value nothing explains is one of {', '.join(checks.ERRATA)}, not {otherwise!r}")

    def slack(value: str) -> str:
        return f"1E-9*MAX(1, ABS({value}))"

    def keeps(value: str) -> str:  # the printed cell keeps to a bound of ``value``, as verdict's _within
        if relation == "<=":
            return f"{published}<={value}+{tolerance}+{slack(value)}"
        return f"{published}>={value}-{tolerance}-{slack(value)}"

    off = f"ABS({model}-{published})"
    first = "1E-9" if exact else slack(model)  # an exact count: no slack relative to its size, one off is off
    steps: list[tuple[str, str]] = []  # (condition, status), tried in order
    if relation == "=":
        steps.append((f"{off}<={tolerance}+{first}", "ok"))
        if not exact:
            steps.append((f"{off}<=2*{tolerance}+{first}", "rounding"))
        if approximate is not None:
            steps.append((f"{off}<={approximate!r}/2+{slack(model)}", "rounding"))
        if convention is not None:
            value = repr(float(convention))
            steps.append((f"ABS({value}-{published})<=2*{tolerance}+{slack(value)}", "convention"))
    else:
        steps.append((keeps(model), "ok"))
        if convention is not None:
            steps.append((keeps(repr(float(convention))), "convention"))
    if spread is not None:
        steps.append((f"{off}<={float(spread)!r}+{tolerance}+{slack(model)}", "spread"))
    formula = f'"{otherwise}"'
    for condition, status in reversed(steps):
        formula = f'IF({condition}, "{status}", {formula})'
    return "=" + formula


def write_workbook(calc: Calculation, path: str | Path, source_checks: Sequence[SourceCheck] = ()) -> Path:
    """Write ``calc`` (and the chapter's ``source_checks``) to ``path`` as ``.xlsx``; returns the path."""
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise ValueError(f"{path}: a workbook is written as .xlsx")
    path.parent.mkdir(parents=True, exist_ok=True)
    book = xlsxwriter.Workbook(str(path))
    try:
        fmt = {"title": book.add_format({"bold": True, "font_size": 13}),
               "head": book.add_format({"bold": True, "bottom": 1, "text_wrap": True, "valign": "top"}),
               "input": book.add_format({"bg_color": "#FFF2CC", "border": 1}),
               "note": book.add_format({"italic": True, "font_color": "#555555"})}
        _inputs(book, calc, fmt)
        _model(book, calc, fmt)
        _checks(book, calc, source_checks, fmt)
        book.set_properties({"title": calc.title, "subject": f"Goodput: {calc.chapter}",
                             "comments": "Inputs are named cells; Model cells are live formulas of them."})
    finally:
        book.close()
    return path


def _inputs(book, calc: Calculation, fmt) -> None:
    sheet = book.add_worksheet("Inputs")
    sheet.write(0, 0, f"{calc.title}: inputs (change the yellow cells)", fmt["title"])
    for col, (title, width) in enumerate((("input", 22), ("value", 12), ("unit", 12), ("allowed", 36),
                                          ("what it is", 40))):
        sheet.write(HEADER_ROW, col, title, fmt["head"])
        sheet.set_column(col, col, width)
    defaults = calc.defaults()
    for i, s in enumerate(calc.inputs):
        row = HEADER_ROW + 1 + i
        p = s.parameter
        low, high = s.bounds()
        sheet.write(row, 0, _name(s.name))
        sheet.write_number(row, 1, defaults[s.name], fmt["input"])
        sheet.write(row, 2, p.unit)
        cell = xl_rowcol_to_cell(row, 1, row_abs=True, col_abs=True)
        options = s.options()
        if options:  # a set of values (lanes, MPS): the cell takes one of them, as the parameter does
            allowed = f"one of {', '.join(f'{v:g}' for v in options)}"
            rule = {"validate": "custom", "value": f"=OR({','.join(f'{cell}={v:g}' for v in options)})"}
        else:
            allowed = f"{'an integer' if p.integer else 'a number'} from {low:g} to {high:g}"
            rule = {"validate": "integer" if p.integer else "decimal", "criteria": "between",
                    "minimum": low, "maximum": high}
        sheet.write(row, 3, allowed)
        sheet.write(row, 4, p.label)
        book.define_name(s.name, f"=Inputs!{cell}")
        sheet.data_validation(row, 1, row, 1, {
            **rule, "ignore_blank": False, "error_type": "stop", "error_title": s.name,
            "error_message": f"{s.name} must be {allowed} {p.unit}".strip()[:255],
            "input_title": s.name[:32], "input_message": allowed[:255]})


def _model(book, calc: Calculation, fmt) -> None:
    sheet = book.add_worksheet("Model")
    sheet.write(0, 0, f"{calc.title} (each output cell is a formula of the named inputs)", fmt["title"])
    columns = list(calc.shown)
    columns += [c for c in dict.fromkeys(calc.fields.values()) if c not in columns]
    titles = {c: calc.shown.get(c, c) for c in columns}
    for col, c in enumerate(columns):
        sheet.write(HEADER_ROW, col, titles[c], fmt["head"])
        sheet.set_column(col, col, 14)
    first_out = len(columns)
    for k, o in enumerate(calc.outputs):
        sheet.write(HEADER_ROW, first_out + k, o.heading, fmt["head"])
        sheet.set_column(first_out + k, first_out + k, 18)
    defaults = calc.defaults()
    for i, case in enumerate(calc.records()):
        row = HEADER_ROW + 1 + i
        for col, c in enumerate(columns):
            value = case[c]
            if isinstance(value, (bool,)) or value is None:
                value = str(value)
            sheet.write(row, col, value)
        names = {s.parameter.symbol: s.name for s in calc.inputs}
        names.update({sym: f"${xl_col_to_name(columns.index(c))}{row + 1}" for sym, c in calc.fields.items()})
        values = calc.evaluate(defaults, case)
        own = {} if calc.selector is None else {calc.selector: sp.sympify(case[calc.fields[calc.selector]])}
        names.update({o.symbol: xl_rowcol_to_cell(row, first_out + k) for k, o in enumerate(calc.outputs)
                      if o.symbol is not None})
        for k, o in enumerate(calc.outputs):
            formula = spreadsheet_formula(o.expr.xreplace(own), names)
            if o.labels:  # the label of the value, as the page shows it
                names_list = ", ".join('"' + label.replace('"', '""') + '"' for label in o.labels)
                formula = f"=CHOOSE({formula[1:]}+1, {names_list})"
            sheet.write_formula(row, first_out + k, formula, None, o.text(values[o.name]) if o.labels
                                else values[o.name])
    sheet.freeze_panes(HEADER_ROW + 1, 0)


def _checks(book, calc: Calculation, source_checks: Sequence[SourceCheck], fmt) -> None:
    sheet = book.add_worksheet("Source checks")
    sheet.write(0, 0, f"Source checks of {calc.chapter}: each published number against goodput's value", fmt["title"])
    heads = (("document", 14), ("where", 18), ("row", 22), ("quantity", 26), ("unit", 10), ("published", 12),
             ("goodput", 14), ("± printed", 10), ("goodput - published", 14), ("status", 10), ("formula", 60),
             ("note", 60))
    for col, (title, width) in enumerate(heads):
        sheet.write(HEADER_ROW, col, title, fmt["head"])
        sheet.set_column(col, col, width)
    if not source_checks:
        sheet.write(HEADER_ROW + 1, 0, "No source document calculates a number of this chapter's model.", fmt["note"])
        return
    for i, c in enumerate(source_checks):
        row = HEADER_ROW + 1 + i
        published, model, tol = (xl_rowcol_to_cell(row, col) for col in (5, 6, 7))
        for col, value in enumerate((c.document, c.where, c.row, c.quantity, c.unit)):
            sheet.write_string(row, col, value)
        sheet.write_number(row, 5, checks.printed_value(c.published))
        if c.formula:  # the model's formula with the check's numbers: Calc computes the value
            sheet.write_formula(row, 6, c.formula, None, c.model)
            sheet.write_string(row, 10, c.formula[1:])
        else:
            sheet.write_number(row, 6, c.model)
            sheet.write_string(row, 10, "(computed by goodput from the published table)")
        sheet.write_number(row, 7, c.tolerance)
        sheet.write_formula(row, 8, f"={model}-{published}", None, c.model - checks.printed_value(c.published))
        sheet.write_formula(row, 9, status_formula(published, model, tol, c.relation, c.otherwise, c.exact,
                                                   c.approximate, c.convention_value, c.spread_amount),
                            None, c.status)
        sheet.write_string(row, 11, c.note)
    sheet.freeze_panes(HEADER_ROW + 1, 0)


def export(chapter: str, path: str | Path, values: Mapping[str, float] | None = None) -> Path:
    """Write ``chapter``'s workbook: its calculation and every source check registered for it; ``values``
    (by input name) replace the inputs' starting values."""
    calc = calculations.get(chapter)
    if values:
        calc = calc.at(**values)
    try:
        found = checks.collect(chapter)
    except KeyError:  # a chapter whose sources calculate nothing of its model
        found = []
    return write_workbook(calc, path, found)


def yours(chapter: str) -> Path:
    """Where a panel exports ``chapter``'s workbook at the reader's values: beside the book's own
    (``_build/workbooks``, which the repository does not track), so no notebook folder fills up."""
    return NOTEBOOKS.parent / "_build" / "workbooks" / "yours" / f"{chapter}.xlsx"
