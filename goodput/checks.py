"""Source checks: each number a source document calculated, next to the model's value.

Model modules register *providers* for a chapter of :mod:`goodput.chapters` with :func:`provider`;
a provider returns a list of
:class:`SourceCheck`, usually made with :func:`compare` from a published table
(:func:`goodput.data.load`) and a model function. :func:`collect` runs every
provider, so the command line (``goodput checks``), the tests, the chapters and
the generated errata page all see the same list.

A check's status is decided from the number *as printed*:

``ok``
    The model's value rounds to the printed value at the printed precision.
``rounding``
    It does not round to it, but is within one unit of the last printed digit
    (the source truncated, or rounded an intermediate result).
``erratum``
    Anything further off: the source disagrees with its own formula or data.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import asdict, dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Callable, Iterable

import pandas as pd
import sympy as sp

from . import chapters
from .spreadsheet import number_formula

__all__ = [
    "SourceCheck",
    "STATUSES",
    "provider",
    "check",
    "compare",
    "printed_tolerance",
    "round_like",
    "classify",
    "collect",
    "to_frame",
    "to_csv",
    "to_json",
    "anchor",
    "groups",
    "group_anchor",
]

STATUSES = ("ok", "rounding", "erratum")

_providers: dict[str, list[Callable[[], Iterable["SourceCheck"]]]] = {}


@dataclass(frozen=True)
class SourceCheck:
    """One published number against the model."""

    chapter: str
    document: str
    where: str
    row: str
    quantity: str
    unit: str
    published: str
    model: float
    tolerance: float
    status: str
    note: str = ""
    resource: str = ""
    #: The model's formula with this check's numbers in it (spreadsheet dialect), where the
    #: value comes straight from one of the model's expressions; empty otherwise.
    formula: str = ""


def provider(chapter: str):
    """Decorator: register ``func`` as a source-check provider of ``chapter`` (there may be several),
    a chapter of :mod:`goodput.chapters` that names the provider's module among its models."""
    declared = chapters.get(chapter)

    def register(func):
        module = func.__module__.removeprefix("goodput.")
        if module not in declared.models:
            raise ValueError(f"{func.__module__}.{func.__qualname__} provides checks of chapter {chapter!r}, "
                             f"whose models are {', '.join(declared.models) or 'none'}")
        funcs = _providers.setdefault(chapter, [])
        if func.__qualname__ not in {f.__qualname__ for f in funcs}:
            funcs.append(func)
        return func

    return register


def printed_tolerance(printed: str) -> float:
    """Half a unit of the last printed digit: ``"35.5"`` -> 0.05, ``"250"`` -> 0.5."""
    try:
        exponent = Decimal(printed.strip()).as_tuple().exponent
    except InvalidOperation:
        raise ValueError(f"published value {printed!r} is not a number") from None
    return 0.5 * 10.0 ** int(exponent)


def round_like(value: float, printed: str) -> str:
    """``value`` rounded to the precision of ``printed``: ``(35.5556, "35.5")`` -> ``"35.6"``."""
    exponent = Decimal(printed.strip()).as_tuple().exponent
    return f"{value:.{max(0, -int(exponent))}f}"


def classify(printed: str, model: float) -> str:
    """Status of a published value against the model's value (see the module docstring)."""
    half_unit = printed_tolerance(printed)
    off = abs(model - float(printed))
    slack = 1e-9 * max(1.0, abs(model))
    if off <= half_unit + slack:
        return "ok"
    if off <= 2 * half_unit + slack:
        return "rounding"
    return "erratum"


def _formula(formula, model: float, what: str) -> str:
    """``(expr, values)`` printed as a formula of numbers, after checking it gives ``model``."""
    if formula is None:
        return ""
    expr, values = formula
    text = number_formula(expr, values)  # refuses a symbol without a number
    got = float(sp.sympify(expr).xreplace({sym: sp.sympify(v) for sym, v in values.items()}))
    if not math.isclose(got, model, rel_tol=1e-9, abs_tol=1e-12):
        raise ValueError(f"{what}: the formula gives {got!r}, the model {model!r}")
    return text


def check(chapter: str, document: str, where: str, row: str, quantity: str, unit: str,
          printed: str, model: float, note: str = "", resource: str = "", formula=None) -> SourceCheck:
    """A check of one printed number against the model's value (the general form of :func:`compare`).

    ``note`` may name ``{model}``, ``{published}`` and ``{rounded}``. ``formula`` is
    ``(expr, values)``: the model expression the value comes from and its numbers;
    it is printed into the check (and must give ``model``).
    """
    model = float(model)
    if math.isnan(model):
        raise ValueError(f"model value for {resource or document} {where} {row} is NaN")
    return SourceCheck(
        chapter=chapter, document=document, where=where, row=row, quantity=quantity, unit=unit,
        published=printed, model=model, tolerance=printed_tolerance(printed),
        status=classify(printed, model),
        note=note.format(model=model, published=printed, rounded=round_like(model, printed)),
        resource=resource, formula=_formula(formula, model, f"{resource or document} {where} {row}"),
    )


def compare(chapter: str, table: pd.DataFrame, index, column: str, model: float,
            row_label: str = "", note: str = "", quantity: str = "", unit: str = "",
            off_note: str = "", formula=None) -> SourceCheck:
    """A check of cell (``index``, ``column``) of a published table against ``model``.

    ``table`` is a frame from :func:`goodput.data.load`: its provenance names the
    document and table, and it keeps each cell's text as printed. ``note`` may
    name ``{model}``, ``{published}`` and ``{rounded}`` (the model's value at the
    printed precision); they are filled in, so a note never types a number.
    ``off_note`` is a note used only when the status is not ``ok``; ``formula`` as for :func:`check`.
    """
    prov = table.attrs["provenance"]
    printed = table.attrs["printed"][column][index]
    if off_note and classify(printed, model) != "ok":
        note = off_note
    return check(chapter, prov["document"], prov["table"], row_label or str(index),
                 quantity or table.attrs["titles"].get(column, column),
                 unit or table.attrs["units"].get(column, ""),
                 printed, model, note, prov["resource"], formula)


def collect(chapter: str | None = None) -> list[SourceCheck]:
    """Every registered check, or those of one chapter, in chapter order."""
    for declared in chapters.CHAPTERS:
        declared.model_modules()  # importing a model registers its providers
    if chapter is not None and chapter not in _providers:
        raise KeyError(f"no source checks registered for chapter {chapter!r}; "
                       f"known: {', '.join(c for c in chapters.ids() if c in _providers)}")
    wanted = [c.id for c in chapters.CHAPTERS if c.id in _providers] if chapter is None else [chapter]
    return [c for ch in wanted for func in _providers[ch] for c in func()]


_COLUMNS = [f.name for f in fields(SourceCheck)]


def to_frame(items: Iterable[SourceCheck]) -> pd.DataFrame:
    """The checks as a DataFrame, one row each."""
    return pd.DataFrame([asdict(c) for c in items], columns=_COLUMNS)


def to_csv(items: Iterable[SourceCheck]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for c in items:
        row = asdict(c)
        row["model"] = repr(c.model)
        writer.writerow(row)
    return buf.getvalue()


def to_json(items: Iterable[SourceCheck]) -> str:
    return json.dumps([asdict(c) for c in items], indent=2)


def _slug(text: str) -> str:
    """Lower-case letters and digits, every other run of characters one hyphen: ``"Table 12"`` -> ``"table-12"``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def anchor(c: SourceCheck) -> str:
    """The HTML id of a check's row, wherever a table shows it: the chapter's check table gives its row
    this id, and the errata page links to it (``check-an3935-table12-1-k-bytes-x4-mps-256-calculated-gbit-s``).

    It is made of what names the printed cell (its published table, row, quantity and unit), so it
    stays the same while the check is there, whatever its status or the model's value.
    """
    return "check-" + _slug(" ".join((c.resource or f"{c.document} {c.where}", c.row, c.quantity, c.unit)))


def groups(items: Iterable[SourceCheck]) -> list[list[SourceCheck]]:
    """Checks that share one explanation: the same chapter, document, place in it, status and note,
    in the order of their first check (one wrong rule repeated down a column is one group)."""
    found: dict[tuple, list[SourceCheck]] = {}
    for c in items:
        found.setdefault((c.chapter, c.document, c.where, c.status, c.note), []).append(c)
    return list(found.values())


def group_anchor(group: list[SourceCheck]) -> str:
    """The HTML id of a group's row on the errata page: its status, then its first check's :func:`anchor`
    (``erratum-an3935-table12-1-k-bytes-x4-mps-256-calculated-gbit-s``)."""
    return f"{group[0].status}-{anchor(group[0]).removeprefix('check-')}"
