"""Source checks: each number a source document prints, next to what the model or the document's own
other numbers make of it.

The documents' modules (:mod:`goodput.sources`) register *providers* with :func:`provider`, each for the chapter
of :mod:`goodput.core.chapters` that presents the model it holds the document to;
a provider returns a list of :class:`SourceCheck`, usually made with :func:`compare` from a published
table (:func:`goodput.core.data.load`) and a model function, or with :func:`check`. :func:`collect` runs every
provider, so the command line (``goodput checks``), the tests, the chapters and the generated errata page
all see the same list.

A check is of one *kind* (:data:`KINDS`):

``calculated``
    A number the document calculated, against the model's value for it.
``prose``
    A number in the text, a caption or a trace annotation, recomputed from the parts it names (a count
    times a period, a difference of two labels, a share of a total).
``ceiling``
    A measured value against the most its configuration allows by the document's own model (no DLLPs, no
    gaps, the raw line rate): it may be below, never above (``relation="<="``); or a measured time against
    the least its stated gaps and clock allow (``relation=">="``).
``consistency``
    A measured value against the document's other measurements of the same run: min <= average <= max,
    a total and its parts, a rate and the bytes and time on its row, timestamps and the delays printed
    from them.

Its *status* (:data:`STATUSES`) says what kind of agreement or disagreement it is, decided from the number
*as printed* (:func:`verdict`):

``ok``
    The value rounds to the printed value at the printed precision (or keeps to its bound).
``rounding``
    It is within one unit of the last printed digit (the source truncated, or rounded an intermediate
    result), or within the precision a stated approximation ("around 20 ms") implies.
``convention``
    It is off, but the document's other stated or evident rule for the same thing (the check's
    :class:`Convention`) reproduces the printed value.
``spread``
    A measured value off from a combination of other measurements by no more than their own run-to-run
    variation (the check's :class:`Spread`, whose evidence is named): not an erratum.
``erratum``
    The document contradicts its own formula, data or physics.
``unexplained``
    Off, and no model reproduces it; the check shows the best attempt.

The errata page lists :data:`ERRATA` (``erratum`` and ``unexplained``); the others stay in each chapter's
check table.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import math
import pkgutil
import re
from dataclasses import asdict, dataclass, fields, replace
from decimal import Decimal, InvalidOperation
from types import ModuleType
from typing import TYPE_CHECKING, Callable, Iterable

import sympy as sp

from goodput.core import cache, chapters
from goodput.core.spreadsheet import number_formula

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "SourceCheck",
    "STATUSES",
    "ERRATA",
    "KINDS",
    "RELATIONS",
    "Convention",
    "Spread",
    "provider",
    "check",
    "compare",
    "printed_value",
    "printed_tolerance",
    "round_like",
    "classify",
    "verdict",
    "collect",
    "to_frame",
    "to_csv",
    "to_json",
    "anchor",
    "groups",
    "group_anchor",
]

STATUSES = ("ok", "rounding", "convention", "spread", "erratum", "unexplained")
#: The statuses the errata page lists: the document is wrong, or nothing explains it.
ERRATA = ("erratum", "unexplained")
KINDS = ("calculated", "prose", "ceiling", "consistency")
#: How the printed value must stand to the check's value: equal to it, at most it, at least it.
RELATIONS = ("=", "<=", ">=")

_providers: dict[str, list[Callable[[], Iterable["SourceCheck"]]]] = {}


@dataclass(frozen=True)
class SourceCheck:
    """One published number against the model, or against the document's other numbers."""

    #: The chapter whose provider made it (:func:`provider`): set as the chapter's checks are collected, empty on a
    #: check made outside a provider's run.
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
    kind: str = "calculated"
    relation: str = "="
    #: A count (of packets, cycles, bytes) printed whole: no rounding, one off is off.
    exact: bool = False
    #: How many printed numbers the check verifies: one (its ``published``), or more where one value
    #: stands for many, as a packet's CRC does for every byte of the packet it was computed over.
    verifies: int = 1
    #: The published table's cell the check reads (``row index | column``, set by :func:`compare`): two checks
    #: of one cell are one printed number checked twice, whatever their rows say. Empty for a check of a
    #: number that is no table's cell (a trace, a log, the text).
    cell: str = ""
    #: The rest of the rule that gave ``status`` (:func:`verdict`'s arguments), so that a copy of the check
    #: (the workbook's status formula) decides a changed value as the check would: the status of a value
    #: nothing explains, the unit a stated approximation rounds to, the value the document's other rule
    #: gives and the run-to-run spread of such measurements (None where the check has none).
    otherwise: str = "erratum"
    approximate: float | None = None
    convention_value: float | None = None
    spread_amount: float | None = None

    # The formula is printed when it is first read: printing a sympy expression costs ten times what the
    # rest of a check does, and most checks a test makes are read for their status alone. A copy, a
    # comparison, a pickle or a table of checks reads it, so each of them holds the text.
    def __getattribute__(self, name: str):
        value = object.__getattribute__(self, name)
        if name == "formula" and type(value) is _Unprinted:
            value = number_formula(value.expr, value.values)
            object.__setattr__(self, "formula", value)
        return value

    def __getstate__(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Convention:
    """The other rule a document follows for one number: what it is, in words (``rule``), and the model's
    value under it (``value``). A printed value it reproduces is a ``convention``, not an erratum."""

    rule: str
    value: float


@dataclass(frozen=True)
class Spread:
    """How much measurements like this one vary from run to run (``amount``, in the check's unit), and the
    measurements that show it (``evidence``, in words). A measured value off by no more is a ``spread``."""

    amount: float
    evidence: str

    def __post_init__(self):
        if not (self.amount >= 0 and math.isfinite(self.amount)):
            raise ValueError(f"a spread is a finite amount >= 0, not {self.amount!r}")
        if not self.evidence.strip():
            raise ValueError("a spread names the measurements that show it")


def provider(model):
    """Decorator: register a function as a source-check provider of the chapter that presents ``model`` (a model
    module, as :mod:`goodput.core.chapters` declares); every check it returns is that chapter's. A document's
    module (:mod:`goodput.sources`) writes ``@checks.provider(pcie)`` over each function of checks it has.

    A chapter's checks come in the order of its models (those the providers name), then of the documents' modules,
    then of the functions in each: not the order the modules happened to be imported in."""
    if not isinstance(model, ModuleType):
        raise TypeError(f"checks.provider takes the model module the checks are of, not {model!r}")
    chapter = chapters.presenting(model.__name__)
    rank = chapter.models.index(model.__name__.removeprefix("goodput."))

    def register(func):
        funcs = _providers.setdefault(chapter.id, [])
        if (func.__module__, func.__qualname__) not in {(f.__module__, f.__qualname__) for f in funcs}:
            func.__checks_rank__ = rank
            funcs.append(func)
            funcs.sort(key=lambda f: (f.__checks_rank__, f.__module__, f.__code__.co_firstlineno))
            _collected.pop(chapter.id, None)
        return func

    return register


#: Where the documents' modules are: importing them registers their providers.
SOURCES = "goodput.sources"


def _import_sources() -> None:
    package = importlib.import_module(SOURCES)
    for info in pkgutil.walk_packages(package.__path__, SOURCES + "."):
        importlib.import_module(info.name)


_HEX = re.compile(r"^0[xX][0-9A-Fa-f]+$")


def printed_value(printed: str) -> float:
    """The value of a printed number: a decimal (``"35.5"``), or a hexadecimal integer (``"0x0684C516"``,
    as analyzers print bytes, CRCs and addresses)."""
    text = printed.strip()
    return float(int(text, 16)) if _HEX.match(text) else float(Decimal(text))


def printed_tolerance(printed: str) -> float:
    """Half a unit of the last printed digit: ``"35.5"`` -> 0.05, ``"250"`` -> 0.5, ``"0x1F"`` -> 0.5."""
    if _HEX.match(printed.strip()):
        return 0.5
    try:
        exponent = Decimal(printed.strip()).as_tuple().exponent
    except InvalidOperation:
        raise ValueError(f"published value {printed!r} is not a number") from None
    return 0.5 * 10.0 ** int(exponent)


def round_like(value: float, printed: str) -> str:
    """``value`` rounded to the precision of ``printed``: ``(35.5556, "35.5")`` -> ``"35.6"``; in hexadecimal
    with as many digits (or more), in the printed case, if ``printed`` is: ``(31, "0x0f")`` -> ``"0x1f"``."""
    text = printed.strip()
    if _HEX.match(text):
        digits = f"{round(value):0{len(text) - 2}x}"
        return text[:2] + (digits.upper() if any(c.isupper() for c in text[2:]) else digits)
    exponent = Decimal(printed.strip()).as_tuple().exponent
    return f"{value:.{max(0, -int(exponent))}f}"


def _slack(model: float, exact: bool = False) -> float:
    """What floating point may add to a difference: relative to the value, or for an ``exact`` value (a
    count, a byte, a CRC: an integer however large) next to nothing, so that one off is off."""
    return 1e-9 if exact else 1e-9 * max(1.0, abs(model))


def classify(printed: str, model: float, exact: bool = False) -> str:
    """Whether the printed value rounds to ``model`` (``ok``), is within one unit of its last digit
    (``rounding``) or further (``erratum``): the first step of :func:`verdict`."""
    half_unit = printed_tolerance(printed)
    off = abs(model - printed_value(printed))
    if off <= half_unit + _slack(model, exact):
        return "ok"
    if off <= 2 * half_unit + _slack(model, exact):
        return "rounding"
    return "erratum"


def _within(printed: str, model: float, relation: str) -> bool:
    """Whether the printed value keeps to its bound ``model``, by up to half a unit of its last digit."""
    value, allowance = printed_value(printed), printed_tolerance(printed) + _slack(model)
    return value <= model + allowance if relation == "<=" else value >= model - allowance


def verdict(printed: str, model: float, relation: str = "=", approximate: float | None = None,
            convention: Convention | None = None, spread: Spread | None = None,
            otherwise: str = "erratum", exact: bool = False) -> str:
    """The status (see the module docstring) of a printed value against ``model``, in this order: keeps to
    it (``ok``, or ``rounding`` within a unit of the last digit, or within half of ``approximate``, the unit a
    stated approximation rounds to: 10 for "around 20"); reproduced by the document's ``convention``; off by
    no more than the ``spread`` of such measurements; else ``otherwise`` (``erratum`` or ``unexplained``).
    An ``exact`` value (a count: of packets, cycles, bytes) printed whole has no rounding: one off is off."""
    if relation not in RELATIONS:
        raise ValueError(f"relation {relation!r} is none of {', '.join(RELATIONS)}")
    if otherwise not in ERRATA:
        raise ValueError(f"a value nothing explains is one of {', '.join(ERRATA)}, not {otherwise!r}")
    if relation == "=":
        status = classify(printed, model, exact)
        if status == "ok" or (status == "rounding" and not exact):
            return status
        if approximate is not None and abs(model - printed_value(printed)) <= approximate / 2 + _slack(model):
            return "rounding"
        if convention is not None and classify(printed, convention.value) != "erratum":
            return "convention"
        off = abs(model - printed_value(printed))
    else:
        if _within(printed, model, relation):
            return "ok"
        if convention is not None and _within(printed, convention.value, relation):
            return "convention"
        off = abs(model - printed_value(printed))
    if spread is not None and off <= spread.amount + printed_tolerance(printed) + _slack(model):
        return "spread"
    return otherwise


@dataclass(frozen=True)
class _Unprinted:
    """A check's formula, ``expr`` with ``values`` for its symbols, until :class:`SourceCheck` prints it."""

    expr: sp.Expr
    values: dict


def _formula(formula, model: float, what: str) -> str | _Unprinted:
    """``(expr, values)`` as a formula of numbers, to be printed when read, after checking it gives ``model``."""
    if formula is None:
        return ""
    expr, values = formula
    expr = sp.sympify(expr)
    missing = expr.free_symbols - set(values)
    if missing:  # as number_formula would refuse it, here and not when it is first read
        raise ValueError(f"{what}: no value given for {', '.join(sorted(map(str, missing)))} in the formula")
    got = float(expr.xreplace({sym: sp.sympify(v) for sym, v in values.items()}))
    if not math.isclose(got, model, rel_tol=1e-9, abs_tol=1e-12):
        raise ValueError(f"{what}: the formula gives {got!r}, the model {model!r}")
    return _Unprinted(expr, values)


def check(document: str, where: str, row: str, quantity: str, unit: str,
          printed: str, model: float, note: str = "", resource: str = "", formula=None, *,
          kind: str = "calculated", relation: str = "=", approximate: float | None = None,
          convention: Convention | None = None, spread: Spread | None = None,
          otherwise: str = "erratum", exact: bool = False, verifies: int = 1, cell: str = "",
          off_note: str = "") -> SourceCheck:
    """A check of one printed number against ``model`` (the general form of :func:`compare`).

    ``note`` may name ``{model}``, ``{published}`` and ``{rounded}``; ``off_note``, if given, is the note
    instead when the status is not ``ok`` (what the disagreement is, where ``note`` says why they agree). ``formula`` is
    ``(expr, values)``: the model expression the value comes from and its numbers;
    it is printed into the check (and must give ``model``). ``kind`` is one of :data:`KINDS`;
    ``relation`` one of :data:`RELATIONS` (``"<="``: the printed value may be at most ``model``);
    ``approximate``, ``convention``, ``spread``, ``otherwise`` and ``exact`` decide the status as
    :func:`verdict` says; ``verifies`` is how many printed numbers the check verifies and ``cell`` the published
    table's cell it reads, if any (see :class:`SourceCheck`).
    A check a convention or a spread explains says so in its note: the rule (and the value it gives), or the
    spread and its evidence, after ``note``; both may name ``{model}``, ``{published}`` and ``{rounded}``.
    """
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r} is none of {', '.join(KINDS)}")
    if not (isinstance(verifies, int) and verifies >= 1):
        raise ValueError(f"a check verifies a whole number of printed numbers, at least 1, not {verifies!r}")
    model = float(model)
    what = f"{resource or document} {where} {row}"
    if math.isnan(model):
        raise ValueError(f"model value for {what} is NaN")
    status = verdict(printed, model, relation, approximate, convention, spread, otherwise, exact)
    def fill(text: str) -> str:
        return text.format(model=model, published=printed, rounded=round_like(model, printed))

    note = fill(off_note if off_note and status != "ok" else note)
    if status == "convention":
        note = " ".join(filter(None, (note, fill(convention.rule).rstrip(".")
                                      + f", which gives {round_like(convention.value, printed)}.")))
    elif status == "spread":
        note = " ".join(filter(None, (note, f"Within the run-to-run spread of {spread.amount:.3g} {unit}: "
                                            + fill(spread.evidence).rstrip(".") + ".")))
    return SourceCheck(
        chapter="", document=document, where=where, row=row, quantity=quantity, unit=unit,
        published=printed, model=model, tolerance=printed_tolerance(printed), status=status, note=note,
        resource=resource, formula=_formula(formula, model, what), kind=kind, relation=relation, exact=exact,
        verifies=verifies, cell=cell,
        otherwise=otherwise, approximate=approximate,
        convention_value=None if convention is None else float(convention.value),
        spread_amount=None if spread is None else float(spread.amount),
    )


def compare(table: pd.DataFrame, index, column: str, model: float,
            row_label: str = "", note: str = "", quantity: str = "", unit: str = "",
            off_note: str = "", formula=None, **how) -> SourceCheck:
    """A check of cell (``index``, ``column``) of a published table against ``model``.

    ``table`` is a frame from :func:`goodput.core.data.load`: its provenance names the
    document and table, and it keeps each cell's text as printed. ``note`` may
    name ``{model}``, ``{published}`` and ``{rounded}`` (the model's value at the
    printed precision); they are filled in, so a note never types a number.
    ``off_note`` is the note when the status is not ``ok``, as for :func:`check`; ``formula`` and ``how`` (``kind``,
    ``relation``, ``approximate``, ``convention``, ``spread``, ``otherwise``, ``exact``) as for :func:`check`.
    """
    prov = table.attrs["provenance"]
    return check(prov["document"], prov["table"], row_label or str(index),
                 quantity or table.attrs["titles"].get(column, column), unit or table.attrs["units"].get(column, ""),
                 table.attrs["printed"][column][index], model, note, prov["resource"], formula,
                 cell=f"{index} | {column}", off_note=off_note, **how)


def collect(chapter: str | None = None) -> list[SourceCheck]:
    """Every registered check, or those of one chapter, in chapter order."""
    _import_sources()
    if chapter is not None and chapter not in _providers:
        raise KeyError(f"no source checks registered for chapter {chapter!r}; "
                       f"known: {', '.join(c for c in chapters.ids() if c in _providers)}")
    wanted = [c.id for c in chapters.CHAPTERS if c.id in _providers] if chapter is None else [chapter]
    return [c for ch in wanted for c in _chapter_checks(ch)]


#: Each chapter's checks, made once: a provider reads only the package's code and the committed data, and a
#: check is frozen, so they are kept for the process and on disk for the next (:func:`goodput.core.cache.kept`;
#: which providers a chapter has is its models' code, in the cache's key). Registering another provider of a
#: chapter drops the chapter's.
_collected: dict[str, tuple[SourceCheck, ...]] = {}


def _chapter_checks(chapter: str) -> tuple[SourceCheck, ...]:
    if chapter not in _collected:
        funcs = _providers[chapter]
        _collected[chapter] = cache.kept(f"checks-{chapter}", lambda: tuple(
            replace(c, chapter=chapter) for func in funcs for c in func()))
    return _collected[chapter]


def warm(from_last: bool = False) -> None:
    """Import every chapter's models and make (or read) its checks, from the first chapter or the last: two
    processes that start together, one from each end, make each once between them (:func:`goodput.core.cache.kept`;
    the chooser's families, which its module makes as it is imported, included)."""
    for declared in chapters.CHAPTERS[::-1] if from_last else chapters.CHAPTERS:
        declared.model_modules()  # registers every provider of the chapter (they are its models' functions)
        if declared.id in _providers:
            _chapter_checks(declared.id)


def collect_afresh(chapter: str | None = None) -> list[SourceCheck]:
    """:func:`collect`, every provider run again in this process (what the kept checks are held to)."""
    _collected.clear()
    with cache.off():
        return collect(chapter)


_COLUMNS = [f.name for f in fields(SourceCheck)]


def to_frame(items: Iterable[SourceCheck]) -> pd.DataFrame:
    """The checks as a DataFrame, one row each."""
    import pandas as pd  # here, not on import: a model's command registers its checks without it

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

    It is made of what names the printed cell (its published table, row, quantity and unit) and the
    check's kind unless ``calculated`` (one cell may be held to its model, its ceiling and its row), so it
    stays the same while the check is there, whatever its status or the model's value.
    """
    parts = (c.resource or f"{c.document} {c.where}", c.row, c.quantity, c.unit)
    return "check-" + _slug(" ".join(parts + ((c.kind,) if c.kind != "calculated" else ())))


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
