"""A chapter's calculated table, live wherever it is read: the page, JupyterLab and a workbook.

A :class:`Calculation` names a chapter's inputs (sliders over the model's
:class:`~goodput.core.params.Parameter` ranges), its cases (one row per payload
size, line code, ...) and its outputs (sympy expressions). Everything else is
printed from those expressions:

- :meth:`Calculation.live` binds the outputs to altair sliders (Vega expressions),
  for the chapter's chart to layer marks on;
- :meth:`Calculation.view` is the live figure in the page (:mod:`goodput.render.live`):
  controls, chart and the calculated table, the case, the values, and a *calculation*
  column showing the formula with the current numbers in it (as the source documents
  print theirs), all recomputed in the browser (:meth:`Calculation.table_spec`);
- :meth:`Calculation.your_link` is the box at the top of the chapter;
- :func:`goodput.render.panels.calculation_panel` is the same table as an ipywidgets panel;
- :mod:`goodput.render.workbook` writes it as a workbook of live formulas.

``numeric`` is goodput's own numeric function for a case; the tests hold the
page, the panel and the recalculated workbook to it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core.precision import stable
from goodput.core.spreadsheet import number_text
from goodput.machine import FORMATS
from goodput.machine.grammar import Setting, settings_of
from goodput.render import answers as reader
from goodput.render.box_command import BoxCommand
from goodput.render.charts import LiveModel, live_model
from goodput.render.controls import Choice, LinkList, Slider, control
from goodput.render.display import prose
from goodput.render.live import LiveFigure, YourLink
from goodput.render.measured import MEASURED_COLOR, Measured
from goodput.render.vega import vega_expr

__all__ = ["Output", "Answers", "Calculation", "value_text"]

ROW = "row_index"


@dataclass(frozen=True)
class Output:
    """One calculated column: its name in the data, its expression, title, unit and decimals shown."""

    name: str
    expr: sp.Expr
    title: str
    unit: str
    digits: int = 3
    #: What each value 0, 1, ... of an output that picks one of a few things is called (a verdict, a
    #: limit's name): the table shows the name, the workbook a CHOOSE of the names.
    labels: tuple[str, ...] = ()
    #: A symbol standing for this output in the expressions of the outputs after it (a sum of parts
    #: computed once, a verdict on values already computed).
    symbol: sp.Symbol | None = None
    #: Computed (and written to the workbook) but not a column of the page's table: a part later outputs use.
    hidden: bool = False

    @property
    def heading(self) -> str:
        """The column's heading: title and unit."""
        return f"{self.title} ({self.unit})" if self.unit else self.title

    def text(self, value: float) -> str:
        """The value as the table shows it: its label, or its number to :attr:`digits` decimals."""
        return self.labels[int(value)] if self.labels else value_text(value, self.digits)

    def cell_vega(self) -> str:
        """The Vega expression of the table's cell: the datum's label or its number, formatted."""
        if self.labels:
            return f"{json.dumps(list(self.labels))}[datum[{json.dumps(self.name)}]]"
        return f"format(datum[{json.dumps(self.name)}], '.{self.digits}~f')"


@dataclass(frozen=True)
class Answers:
    """What a chapter's "your link" box answers besides its table's values, in the reader's terms
    (:mod:`goodput.render.answers`): the goodput in the unit the reader picks, the time to move the bytes they type,
    transfers and packets a second, and the share of the line rate that arrives as data.

    Parameters
    ----------
    goodput : str
        The output whose value is the goodput (its unit one of :data:`goodput.render.answers.RATE_UNITS`).
    transfer : Expr, optional
        Bytes of data in one transfer, in the calculation's symbols (a case column's, an input's); with it,
        transfers a second.
    transfers : str
        What one transfer is called, in the plural ("writes", "frames").
    packets : Expr, optional
        Packets one transfer is cut into (TLPs, segments); with it, packets a second.
    packet_name : str
        What a packet is called, in the plural.
    line_rate : Expr, optional
        The link's line rate in the goodput's unit (the lanes' signalling rate, the MAC rate); with it, the
        share of it that arrives as data.
    line : str
        What the line rate is, as the answer names it.
    """

    goodput: str
    transfer: sp.Expr | None = None
    transfers: str = "transfers"
    packets: sp.Expr | None = None
    packet_name: str = "packets"
    line_rate: sp.Expr | None = None
    line: str = "the line rate"
    #: Transfers a second as the model counts them, where it does (frames a second from the wire's bytes):
    #: in place of the goodput over the data of one transfer, which is 0 in a frame that carries none.
    rate: sp.Expr | None = None
    #: Seconds one transfer takes from start to end where the chapter models more than its time on the link
    #: (a read's request, the completer's latency and its completions), and what the answer calls it; without
    #: it, one transfer's time on the link, one over the transfers a second.
    latency: sp.Expr | None = None
    latency_name: str = ""
    #: Seconds each transfer waits besides its time on the link where the chapter takes such a time as an input (a
    #: read's response, a burst's round trip): one transfer's answer is then its time on the link and this, named
    #: ``latency_name``; the goodput stays the link's (the transfers overlap).
    fixed: sp.Expr | None = None

    def __post_init__(self):
        if self.latency is not None and self.fixed is not None:
            raise ValueError("an answer's latency is either the chapter's model of it or a fixed time added, not both")
        if (self.latency is None and self.fixed is None) != (not self.latency_name):
            raise ValueError("an answer's latency needs its name, and a name its latency")


# How the box writes each kind of answer, in Vega (``v`` is the value's expression), beside the same rules in
# Python (goodput.render.answers' texts): tests/test_answers.py holds the one to the other.

def _sig_vega(v: str, digits: int) -> str:
    return f"(abs({v}) >= {10 ** digits} ? format({v}, ',.0f') : format({v}, ',.{digits}~r'))"


def _time_vega(v: str) -> str:
    out = _sig_vega(f"{v} / 1e-9", 4) + " + ' ns'"
    for scale, unit in reversed(reader.TIME_UNITS):
        out = f"({v} >= {scale:g} ? {_sig_vega(f'{v} / {scale:g}', 4)} + ' {unit}' : {out})"
    return f"(isFinite({v}) ? {out} : {json.dumps(reader.NEVER)})"


def _rate_vega(v: str) -> str:
    factors = {key: reader.RATE_UNITS[name] for key, name in reader.READER_UNITS.items()}
    per = f"{json.dumps(factors)}[unit]"
    return f"{_sig_vega(f'{v} / {per}', 5)} + ' ' + {json.dumps(reader.READER_UNITS)}[unit]"


def _count_vega(v: str) -> str:
    return f"({v} >= 1000 ? format({v}, ',.0f') : format({v}, ',.4~r'))"


def _share_vega(v: str) -> str:
    return _sig_vega(f"{v} * 100", 4) + " + ' %'"


#: Each answer's kind, which says how the box writes it.
_ANSWER_KINDS = {"answer_bit_s": "rate", "answer_time_s": "time", "answer_transfers_per_s": "count",
                 "answer_transfer_s": "time",
                 "answer_packets_per_s": "count", "answer_efficiency": "share"}
_ANSWER_TEXT = {"rate": (_rate_vega, None), "time": (_time_vega, reader.time_text),
                "count": (_count_vega, reader.count_text),
                "share": (_share_vega, reader.share_text)}


def value_text(value: float, digits: int) -> str:
    """``value`` to ``digits`` decimals, trailing zeros cut (d3's ``.{digits}~f``)."""
    text = f"{float(value):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class _Branch:
    """A choice in a template: (condition, pieces) in order, the first whose condition holds printed, the
    last condition true. A Piecewise is one; so is a term dropped where its value is zero."""

    arms: tuple


def _branch(*arms) -> list:
    """Pieces choosing among ``arms`` (condition, pieces), the conditions folded where they are known: an
    arm after a true one is never printed, an arm whose condition is false never."""
    kept = []
    for cond, pieces in arms:
        if cond == sp.false:
            continue
        kept.append((cond, list(pieces)))
        if cond == sp.true:
            break
    if not kept or kept[-1][0] != sp.true:
        raise ValueError("a choice in a formula needs a final arm for every other case")
    if len(kept) == 1:
        return kept[0][1]
    if all(pieces == kept[0][1] for _, pieces in kept):
        return kept[0][1]
    return [_Branch(tuple((c, tuple(p)) for c, p in kept))]


@dataclass(frozen=True)
class _Shown:
    """A sub-expression as the calculation column prints it, with when its printing changes.

    ``pieces`` is its text where it is neither zero nor one; ``zero`` when it is zero by its own terms
    (a sum drops it, a product is zero with it), ``one`` when it is the factor 1 (a product drops it),
    ``grouped`` when it needs parentheses as a factor (a sum of two terms or more, or a negative). Each is
    a sympy condition on the symbols' values (``sp.true`` or ``sp.false`` where it is known)."""

    pieces: list
    zero: Any = sp.false
    one: Any = sp.false
    grouped: Any = sp.false
    #: Whether it is a product or quotient: under a fraction bar it needs parentheses.
    quotient: Any = sp.false


def _any(*conds):
    return sp.Or(*conds) if conds else sp.false


def _all(*conds):
    return sp.And(*conds) if conds else sp.true


def _chosen(arms) -> list:
    """For the arms (expr, cond) of a Piecewise, when each is the one in effect (its condition and no earlier)."""
    out, earlier = [], []
    for _e, c in arms:
        out.append(sp.And(c, *[sp.Not(b) for b in earlier]))
        earlier.append(c)
    return out


class _Readable:
    """Prints a formula for the calculation column as a person writes it, for every value of its symbols.

    The text is a template (:func:`_fill` puts numbers in it, :meth:`Calculation._formula_vega` makes it
    a Vega expression): a term whose value is zero is left out of its sum (``8*0 + 4`` reads ``4``), a
    factor whose value is 1 out of its product, a sum's negative terms come after its positive ones with
    their ``-`` (``1518 - 18``, not ``-18 + 1518``), a fraction is written ``x/4`` (not ``x*(1/4)`` or
    ``(-1/4)``) and a whole float without its ``.0``. Where a symbol can be 0 or 1 (``can_be``), the
    template chooses between the texts as the page's values change; a Piecewise prints the arm in
    effect. The printed formula is the expression's value, each choice one its symbols' values decide.
    """

    def __init__(self, can_be: Callable[[sp.Symbol, float], bool]):
        self.can_be = can_be

    def formula(self, expr: sp.Expr) -> list:
        """The template of ``expr`` as a whole formula: ``0`` where all of it is left out."""
        return self.alone(self.shown(sp.sympify(expr)))

    @staticmethod
    def alone(node: _Shown) -> list:
        return _branch((node.zero, ["0"]), (node.one, ["1"]), (sp.true, node.pieces))

    @staticmethod
    def factor(node: _Shown) -> list:
        return _branch((node.grouped, ["(", *node.pieces, ")"]), (sp.true, node.pieces))

    def shown(self, expr) -> _Shown:
        if isinstance(expr, sp.Symbol):
            return _Shown([expr], self._equals(expr, 0), self._equals(expr, 1))
        if isinstance(expr, sp.Number):
            return self._number(expr)
        if isinstance(expr, sp.Add):
            return self._sum(expr)
        if isinstance(expr, sp.Mul) or (isinstance(expr, sp.Pow) and expr.exp.is_Integer and expr.exp < 0):
            return self._product(expr)
        if isinstance(expr, sp.Pow):
            if expr.exp == sp.Rational(1, 2):
                return _Shown(["SQRT(", *self.formula(expr.base), ")"])
            base = self.shown(expr.base)
            return _Shown(["(", *self.alone(base), ")^(", *self.formula(expr.exp), ")"],
                          zero=base.zero if expr.exp.is_positive else sp.false, one=base.one)
        if isinstance(expr, (sp.floor, sp.ceiling)):
            arg = self.shown(expr.args[0])  # the floor and ceiling of 0 are 0
            name = "FLOOR" if isinstance(expr, sp.floor) else "CEILING"
            return _Shown([f"{name}(", *self.alone(arg), ", 1)"], zero=arg.zero)
        if isinstance(expr, (sp.Min, sp.Max)):
            args = [self.formula(a) for a in expr.args]
            return _Shown([f"{'MIN' if isinstance(expr, sp.Min) else 'MAX'}(",
                           *[p for k, a in enumerate(args) for p in ([", "] if k else []) + a], ")"])
        if isinstance(expr, sp.Piecewise):
            return self._piecewise(expr)
        raise ValueError(f"the calculation column cannot print {type(expr).__name__}: {expr}")

    def _equals(self, symbol: sp.Symbol, value: int):
        return sp.Eq(symbol, value, evaluate=False) if self.can_be(symbol, value) else sp.false

    @staticmethod
    def _number(x: sp.Number) -> _Shown:
        if x.is_Rational and x.q != 1:
            text = f"{abs(int(x.p))}/{int(x.q)}"
            return _Shown(["-" + text] if x.is_negative else [text], grouped=sp.true if x.is_negative else sp.false,
                          quotient=sp.true)
        else:
            text = number_text(abs(float(x)))
        if x.is_negative:
            return _Shown(["-" + text], grouped=sp.true)
        # a Float is not == an Integer in sympy: compared as Python numbers, 1.0 is the factor 1
        return _Shown([text], zero=sp.true if float(x) == 0 else sp.false,
                      one=sp.true if float(x) == 1 else sp.false)

    def _sum(self, expr: sp.Add) -> _Shown:
        terms = expr.as_ordered_terms()
        terms = [t for t in terms if not t.could_extract_minus_sign()] + \
                [t for t in terms if t.could_extract_minus_sign()]
        pieces, shown_before, shown, quotients, nodes = [], [], [], [], []
        for t in terms:
            negative = t.could_extract_minus_sign()
            node = self.shown(-t if negative else t)
            nodes.append((node, negative))
            quotients.append(sp.And(sp.Not(node.zero), node.quotient))
            later = _any(*shown_before)
            if negative:
                sign = _branch((later, [" - "]), (sp.true, ["-"]))
                body = self.factor(node)  # "a - (b + c)"
            else:
                sign = _branch((later, [" + "]), (sp.true, []))
                body = node.pieces
            pieces += _branch((node.zero, []), (sp.true, sign + body))
            shown.append((sp.Not(node.zero), negative))
            shown_before.append(sp.Not(node.zero))
        several = _any(*[sp.And(a, b) for i, (a, _) in enumerate(shown) for b, _ in shown[i + 1:]])
        leading_minus = _any(*[sp.And(s, *[sp.Not(o) for o, _ in shown[:i]])
                               for i, (s, negative) in enumerate(shown) if negative])
        grouped = sp.Or(several, leading_minus)
        # a sum left with one term, the factor 1 (1 - k where k is 0), is 1: a product leaves it out
        one = _any(*[sp.And(node.one, *[other.zero for j, (other, _) in enumerate(nodes) if j != i])
                     for i, (node, negative) in enumerate(nodes) if not negative])
        # a sum left with one product is that product: under a fraction bar it needs its parentheses
        return _Shown(pieces, zero=_all(*[sp.Not(s) for s, _ in shown]), one=one, grouped=grouped,
                      quotient=sp.Or(grouped, *quotients))

    def _product(self, expr) -> _Shown:
        coefficient, rest = expr.as_coeff_Mul()
        negative = coefficient.is_negative
        coefficient = abs(coefficient)
        numerator, denominator = [], []
        if coefficient.is_Rational:
            numerator.append(self._number(sp.Integer(coefficient.p)))
            denominator.append(self._number(sp.Integer(coefficient.q)))
        else:
            numerator.append(self._number(coefficient))
        for f in rest.as_ordered_factors():
            if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp < 0:
                denominator.append(self.shown(f.base if f.exp == -1 else f.base ** -f.exp))
            elif isinstance(f, sp.Piecewise) and all(e.is_Rational for e, _ in f.args):
                arms = list(zip(f.args, _chosen(f.args)))
                numerator.append(self._choice([(c, now, self._number(sp.Integer(e.p))) for (e, c), now in arms]))
                denominator.append(self._choice([(c, now, self._number(sp.Integer(e.q))) for (e, c), now in arms]))
            else:
                numerator.append(self.shown(f))
        top, top_one, top_several = self._joined(numerator)
        bottom, bottom_one, bottom_several = self._joined(denominator, under=True)
        pieces = (["-"] if negative else []) + _branch((top_one, ["1"]), (sp.true, top)) + _branch(
            (bottom_one, []), (bottom_several, ["/(", *bottom, ")"]), (sp.true, ["/", *bottom]))
        return _Shown(pieces, zero=_any(*[n.zero for n in numerator]),
                      one=sp.false if negative else sp.And(top_one, bottom_one),
                      grouped=sp.true if negative else sp.false,
                      quotient=sp.true if negative else sp.Or(sp.Not(bottom_one), top_several))

    def _joined(self, factors: list[_Shown], under: bool = False):
        """The factors left of (or ``under``) a fraction bar joined by ``*``, those that are 1 left out;
        when all are 1; when more than one is printed."""
        pieces, printed = [], []
        for node in factors:
            star = _branch((_any(*printed), ["*"]), (sp.true, []))
            # under the bar a lone product or fraction needs parentheses: x/(F/256) is not x/F/256
            wrap = sp.Or(node.grouped, node.quotient) if under else node.grouped
            body = _branch((wrap, ["(", *node.pieces, ")"]), (sp.true, node.pieces))
            pieces += _branch((node.one, []), (sp.true, star + body))
            printed.append(sp.Not(node.one))
        several = _any(*[sp.And(a, b) for i, a in enumerate(printed) for b in printed[i + 1:]])
        return pieces, _all(*[sp.Not(p) for p in printed]), several

    def _choice(self, arms) -> _Shown:
        """A Piecewise's arms (condition, condition in effect, printed arm) as one printed node."""
        return _Shown(_branch(*[(c, n.pieces) for c, _now, n in arms[:-1]], (sp.true, arms[-1][2].pieces)),
                      zero=_any(*[sp.And(now, n.zero) for _c, now, n in arms]),
                      one=_any(*[sp.And(now, n.one) for _c, now, n in arms]),
                      grouped=_any(*[sp.And(now, n.grouped) for _c, now, n in arms]),
                      quotient=_any(*[sp.And(now, n.quotient) for _c, now, n in arms]))

    def _piecewise(self, expr: sp.Piecewise) -> _Shown:
        if expr.args[-1].cond != sp.true:
            raise ValueError("a Piecewise needs a final (expr, True) branch")
        return self._choice([(c, now, self.shown(e)) for (e, c), now in zip(expr.args, _chosen(expr.args))])


def _fill(pieces: list, subs: Mapping[sp.Symbol, float]) -> str:
    """The template with numbers in place of symbols, each branch replaced by the one in effect."""
    numbers = {s: sp.sympify(v) for s, v in subs.items()}
    return _filled(pieces, subs, numbers, {})


def _filled(pieces, subs, numbers, known: dict) -> str:
    out = []
    for p in pieces:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, _Branch):
            out.append(next(_filled(t, subs, numbers, known) for c, t in p.arms if _holds(c, numbers, known)))
        else:
            out.append(number_text(subs[p]))
    return "".join(out)


def _holds(cond, numbers, known: dict) -> bool:
    """Whether ``cond`` holds at ``numbers`` (the symbols' values as sympy numbers): put in by ``xreplace``,
    which evaluates each relation as it rebuilds it, ``subs``'s answer without its cost; each condition once."""
    if cond not in known:
        known[cond] = cond == sp.true or bool(cond.xreplace(numbers))
    return known[cond]


@dataclass(frozen=True)
class Calculation:
    """A chapter's calculated table: cases x outputs, live on the inputs.

    Parameters
    ----------
    chapter : str
        The chapter (its notebook's name) the calculation belongs to.
    name : str
        Name of the inline dataset in the page (and the prefix of the table's marks).
    title : str
        What the table calculates, as its heading says it.
    cases : DataFrame
        One row per case; ``shown`` names the columns a reader sees.
    shown : mapping
        Case columns shown in the table and the workbook: column -> title.
    fields : mapping of Symbol to str
        Symbols taking their value from a column of ``cases``.
    inputs : sequence of Slider
        The chapter's assumptions: sliders in the page, named cells in the workbook.
    outputs : sequence of Output
        Calculated columns; the first one's formula is the table's calculation column.
    numeric : callable
        ``numeric(inputs, case)`` -> {output name: value} from goodput's numeric
        functions, with ``inputs`` by parameter name and ``case`` a row of ``cases``.
    choices : sequence of Choice
        Drop-downs the chart and ``row_filter`` use (not inputs of the model).
    row_filter : str
        Vega expression picking the rows the page's table shows (empty: all).
    headline : mapping
        The case the "your link" box shows first, by its values (``{"size_bytes": 1024}``); the
        first row when empty.
    prefix : str
        Prefix of the page state's keys for the inputs, when another figure on the page has
        inputs of the same names that are not the same quantity (two fits of one model).
    order : sequence of (output, "ascending" or "descending")
        The order the page's table shows its rows in, recomputed with the inputs (case order if empty;
        the Python table keeps the case order).
    selector : Symbol, optional
        A case column that picks the branch of every output (which link a row is): the workbook
        writes each row's own branch only.
    formula_column : bool
        Whether the table has a calculation column (the first output's formula with the row's numbers); a
        table whose formulas are too long to read in a cell has none (its workbook still holds them).
    answers : Answers, optional
        What the "your link" box answers in the reader's terms.
    composed : LinkList, optional
        A list of links the reader composes elsewhere on the page: in the page, each becomes a row of the
        table and the chart beside the cases (with the list's ``extra`` columns); Python's table keeps the cases.
    command : BoxCommand, optional
        The box's values as a ``goodput`` command line, where the chapter's model has one (*Copy as command*).
    machine : sequence of Setting
        The inputs an output of the reader's machine sets (``lspci -vv``'s trained width is ``lanes``): the box's
        *From your machine*.
    measured : Measured, optional
        What the box does with a pasted measurement (``iperf3 -J``): a point on the chart, with its share of
        the output the declaration names for the box's settings.
    """

    chapter: str
    name: str
    title: str
    cases: pd.DataFrame
    shown: Mapping[str, str]
    fields: Mapping[sp.Symbol, str]
    inputs: Sequence[Slider]
    outputs: Sequence[Output]
    numeric: Callable[[Mapping[str, float], Mapping[str, Any]], Mapping[str, float]]
    choices: Sequence[Choice] = field(default_factory=tuple)
    row_filter: str = ""
    headline: Mapping[str, Any] = field(default_factory=dict)
    prefix: str = ""
    order: Sequence[tuple[str, str]] = ()
    selector: sp.Symbol | None = None
    formula_column: bool = True
    answers: Answers | None = None
    composed: LinkList | None = None
    command: BoxCommand | None = None
    machine: Sequence[Setting] = ()
    measured: Measured | None = None

    def __post_init__(self):
        for name, way in self.order:
            if name not in {o.name for o in self.outputs} or way not in ("ascending", "descending"):
                raise ValueError(f"{self.chapter}: cannot order rows by {name!r} {way!r}")
        if self.selector is not None and self.selector not in self.fields:
            raise ValueError(f"{self.chapter}: the selector {self.selector} is not a case column")
        known = set(self.fields) | {s.parameter.symbol for s in self.inputs}
        for out in self.outputs:
            missing = out.expr.free_symbols - known
            if missing:
                raise ValueError(f"{self.chapter}: output {out.name} uses {', '.join(sorted(map(str, missing)))}, "
                                 "which is neither an input, a case column nor an earlier output")
            if out.symbol is not None:
                known.add(out.symbol)
        if self.formula_column and self.outputs[0].hidden:
            raise ValueError(f"{self.chapter}: output {self.outputs[0].name} is the calculation column's; "
                             "it cannot be hidden")
        for column in list(self.shown) + list(self.fields.values()):
            if column not in self.cases.columns:
                raise ValueError(f"{self.chapter}: no case column {column!r}")
        if self.answers is not None:
            by_name = {o.name: o for o in self.outputs}
            if by_name.get(self.answers.goodput) is None or by_name[self.answers.goodput].unit not in reader.RATE_UNITS:
                raise ValueError(f"{self.chapter}: the answers' goodput {self.answers.goodput!r} is not an output "
                                 f"in one of {', '.join(reader.RATE_UNITS)}")
            for a in self.answer_outputs():
                missing = a.expr.free_symbols - known - {reader.goodput, reader.move}
                if missing:
                    raise ValueError(f"{self.chapter}: answer {a.name} uses {', '.join(sorted(map(str, missing)))}, "
                                     "which is neither an input nor a case column")
        for s in self.machine:
            settable = self.fields.values() if s.case else self.input_names()
            if s.input not in settable or s.format not in FORMATS:
                raise ValueError(f"{self.chapter}: a paste cannot set {s.input!r} from {s.format!r}")
        if self.measured is not None:
            m = self.measured
            out = next((o for o in self.outputs if o.name == m.output), None)
            if out is None or m.size not in self.fields or not set(m.say) <= set(self.input_names()):
                raise ValueError(f"{self.chapter}: a measurement cannot be a share of {m.output!r} at {m.size} "
                                 f"naming {', '.join(m.say)}")
            if out.expr.free_symbols - {m.size} - {s.parameter.symbol for s in self.inputs}:
                raise ValueError(f"{self.chapter}: the measured output {m.output} uses another output")
        if self.command is not None:
            self.command.resolved(self.input_names(), self._command_columns())
            for name in self.command.outputs:
                if name not in {o.name for o in self.outputs}:
                    raise ValueError(f"{self.chapter}: the command's output {name!r} is not an output")
        self.headline_case()

    # --- values -----------------------------------------------------------------------------

    def input_names(self) -> list[str]:
        return [s.name for s in self.inputs]

    def _command_columns(self) -> list[str]:
        """What a word of the box's command may take its value from besides an input: a case column, and the
        reader's list by its name where the box has one."""
        return [*self.cases.columns, *([self.composed.name] if self.composed is not None else [])]

    def command_argv(self, inputs: Mapping[str, float], case: Mapping[str, Any], listed: str | None = None
                     ) -> list[str]:
        """The ``goodput`` command line (after ``goodput``) whose JSON holds the box's values at ``inputs``
        and ``case`` (:attr:`command`), with the reader's list ``listed`` (its starting value if None)."""
        values = dict(inputs)
        if self.composed is not None:
            values[self.composed.name] = self.composed.value if listed is None else listed
        return self.command.argv(self.input_names(), self._command_columns(), values, case)

    def _params(self) -> dict:
        """Each input's symbol and its name (the page's signal)."""
        return {s.parameter.symbol: s.name for s in self.inputs}

    def machine_spec(self) -> dict:
        """What the page's script reads a paste with: the formats the box takes, what each sets (a setting's
        expression printed as the charts' are), and what it does with a measurement."""
        measures = tuple(self.measured.formats) if self.measured is not None else ()
        keys = list(dict.fromkeys([*(s.format for s in self.machine), *measures]))
        settings = []
        for s in self.machine:
            spec = s.spec()
            if s.expr is not None:
                spec["expr"] = vega_expr(s.expr, params={**self._params(), s.symbol: "found"})
            if s.case:  # what the box's sentence calls the case column: its title in the table, else its name
                spec["label"] = self.shown.get(s.input, s.input)
            settings.append(spec)
        out = {"formats": [FORMATS[k].spec() for k in keys], "settings": settings}
        if any(s.case for s in self.machine):  # a case picked keeps the other case columns' values where it can
            out["cases"] = list(self.fields.values())
        if self.measured is not None:
            m = self.measured
            output = next(o for o in self.outputs if o.name == m.output)
            out["measured"] = {"dataset": m.dataset(self.name), "formats": list(m.formats),
                               "ceiling": vega_expr(output.expr, fields={m.size: "size"}, params=self._params()),
                               "title": output.title, "unit": output.unit, "say": list(m.say),
                               "color": MEASURED_COLOR}
        if any(s.expr is not None for s in self.machine) or self.measured is not None:
            out["params"] = self.input_names()
        return out

    def machine_values(self, text: str, inputs: Mapping[str, float] | None = None, allowed=None) -> dict:
        """What a paste sets in the box (:func:`goodput.machine.grammar.settings_of`), as the page's script sets it,
        with the box at ``inputs`` (its starting values by default); ``allowed(input, value)``, whether the box
        takes a value, is its sliders' ranges unless given."""
        sliders = {s.name: s for s in self.inputs}
        at = {**self.defaults(), **(inputs or {})}

        cases = {s.input: {*self.cases[s.input]} for s in self.machine if s.case}

        def in_range(name, value):
            if name in cases:
                return value in cases[name]
            try:
                sliders[name].check(value)
            except ValueError:
                return False
            return True

        def evaluate(expr, symbol, found):
            value = expr.xreplace({symbol: found, **{s.parameter.symbol: at[s.name] for s in self.inputs}})
            return int(value) if value.is_integer else float(value)

        measures = tuple(self.measured.formats) if self.measured is not None else ()
        return settings_of(self.machine, FORMATS, text, allowed or in_range, evaluate, measures)

    def measured_share(self, inputs: Mapping[str, float], size: float, value: float) -> dict:
        """A measurement of ``value`` in transfers of ``size`` bytes against the model's :attr:`measured` output
        at ``inputs``: ``{ceiling, share}``, as the page's box and chart give them."""
        case = {self.fields[self.measured.size]: size}
        ceiling = float(self.numeric({**self.defaults(), **inputs}, case)[self.measured.output])
        return {"ceiling": ceiling, "share": value / ceiling}

    def measured_layers(self, x: alt.X) -> list[alt.Chart]:
        """The chart's layers of measured points (:meth:`Measured.layers`), on its x axis ``x``."""
        output = next(o for o in self.outputs if o.name == self.measured.output)
        return self.measured.layers(self.name, x, output.heading)

    def command_spec(self) -> dict:
        """What the page's script writes the box's command from (:meth:`BoxCommand.spec`), with the reader's list."""
        spec = self.command.spec(self.input_names(), self._command_columns())
        if self.composed is not None:
            spec.update(list=self.composed.name, listValue=self.composed.value)
        return spec

    def defaults(self) -> dict[str, float]:
        """Each input's starting value, by parameter name."""
        return {s.name: s.value if s.value is not None else s.parameter.default for s in self.inputs}

    def input_values(self, **values: float) -> dict[str, float]:
        """The defaults with ``values`` in their place, each checked against its slider's range."""
        unknown = set(values) - {s.name for s in self.inputs}
        if unknown:
            raise ValueError(f"{self.chapter} has no input {', '.join(sorted(unknown))}")
        out = self.defaults()
        for s in self.inputs:
            if s.name in values:
                out[s.name] = s.check(values[s.name])
        return out

    def at(self, **values: float) -> "Calculation":
        """This calculation starting at ``values`` (each checked against its slider's range): what the
        workbook exported from a panel holds."""
        inputs = self.input_values(**values)
        return replace(self, inputs=[replace(s, value=inputs[s.name]) for s in self.inputs])

    def substitution(self, inputs: Mapping[str, float], case: Mapping[str, Any]) -> dict[sp.Symbol, float]:
        subs = {s.parameter.symbol: inputs[s.name] for s in self.inputs}
        subs.update({sym: case[col] for sym, col in self.fields.items()})
        return subs

    def evaluate(self, inputs: Mapping[str, float], case: Mapping[str, Any]) -> dict[str, float]:
        """Every output of ``case`` from the sympy expressions (what every printed formula computes).

        The numbers replace the symbols as sympy numbers (``xreplace``: the substitution ``subs``
        makes, without its pattern matching, which made this a dozen times slower)."""
        subs = {sym: sp.sympify(value) for sym, value in self.substitution(inputs, case).items()}
        out = {}
        for o in self.outputs:  # in order: an output's symbol stands for its value in those after it
            out[o.name] = float(o.expr.xreplace(subs))
            if o.symbol is not None:
                subs[o.symbol] = sp.Float(out[o.name], 17)
        return out

    def stand_ins(self) -> dict[sp.Symbol, str]:
        """The outputs that stand for themselves in later outputs: symbol -> output name."""
        return {o.symbol: o.name for o in self.outputs if o.symbol is not None}

    def shown_outputs(self) -> list[Output]:
        """The outputs the page's table shows (all but the hidden parts)."""
        return [o for o in self.outputs if not o.hidden]

    # --- the box's answers in the reader's terms -----------------------------------------------------

    def goodput_unit(self) -> str:
        """The unit of the output the answers take as the goodput."""
        return next(o.unit for o in self.outputs if o.name == self.answers.goodput)

    def answer_outputs(self) -> list[Output]:
        """The box's answers (:class:`Answers`) as outputs in the symbols of :mod:`goodput.render.answers` and the
        calculation's: :data:`goodput.render.answers.goodput` stands for the goodput output's value."""
        a = self.answers
        if a is None:
            return []
        unit = self.goodput_unit()
        out = [Output("answer_bit_s", reader.bit_s_expr(unit), "goodput", "bit/s"),
               Output("answer_time_s", reader.time_to_move_expr(unit), "time to move your bytes", "s")]
        if a.transfer is not None or a.rate is not None:
            per_transfer = a.rate if a.rate is not None else reader.per_second_expr(unit, a.transfer)
            out.append(Output("answer_transfers_per_s", per_transfer, f"{a.transfers} a second", "per s"))
            one = a.transfers[:-1] if a.transfers.endswith("s") else a.transfers
            if a.latency is not None:
                out.append(Output("answer_transfer_s", a.latency, a.latency_name, "s"))
            elif a.fixed is not None:
                out.append(Output("answer_transfer_s", 1 / per_transfer + a.fixed, a.latency_name, "s"))
            else:
                out.append(Output("answer_transfer_s", 1 / per_transfer, f"one {one} on the link", "s"))
            if a.packets is not None:
                out.append(Output("answer_packets_per_s", per_transfer * a.packets, f"{a.packet_name} a second",
                                  "per s"))
        if a.line_rate is not None:
            out.append(Output("answer_efficiency", reader.efficiency_expr(a.line_rate), f"share of {a.line}", ""))
        return out

    def answer_values(self, inputs: Mapping[str, float], case: Mapping[str, Any],
                      move_bytes: float = reader.MOVE.default) -> dict[str, float]:
        """Every answer of ``case`` from the sympy expressions, for ``move_bytes`` bytes to move."""
        values = self.evaluate(inputs, case)
        subs = {sym: sp.sympify(value) for sym, value in self.substitution(inputs, case).items()}
        subs[reader.goodput] = sp.Float(values[self.answers.goodput], 17)
        subs[reader.move] = sp.sympify(reader.MOVE.check(move_bytes))
        out = {}
        for a in self.answer_outputs():
            value = a.expr.xreplace(subs)
            out[a.name] = math.inf if value.has(sp.zoo, sp.oo) else float(value)  # no data: never done
        return out

    def answer_texts(self, inputs: Mapping[str, float], case: Mapping[str, Any],
                     move_bytes: float = reader.MOVE.default, unit: str | None = None) -> dict[str, str]:
        """The answers as the box writes them, the goodput in the reader's ``unit`` (a key of
        :data:`goodput.render.answers.READER_UNITS`; the model's own by default)."""
        unit = unit or reader.unit_choice(self.goodput_unit()).value
        values, out = self.answer_values(inputs, case, move_bytes), {}
        for a in self.answer_outputs():
            value = values[a.name]
            kind = _ANSWER_KINDS[a.name]
            out[a.name] = reader.rate_text(value, unit) if kind == "rate" else _ANSWER_TEXT[kind][1](value)
        return out

    def box_controls(self) -> list:
        """The box's controls: the chapter's inputs and choices, the reader's list where the box draws it, then
        the answers' own controls (:meth:`answer_controls`)."""
        composer = [self.composed] if self.composed is not None and self.composed.shown else []
        return [*self.inputs, *self.choices, *composer, *self.answer_controls()]

    def answer_controls(self) -> list:
        """The goodput's unit and the bytes to move, where the chapter declares answers."""
        return [reader.unit_choice(self.goodput_unit()), Slider(reader.MOVE, track=False)] if self.answers is not None else []

    def formula_text(self, inputs: Mapping[str, float], case: Mapping[str, Any]) -> str:
        """The first output's formula with the numbers of ``case`` in it, as the table shows it."""
        return _fill(self._template(), self.substitution(inputs, case))

    def _template(self) -> list:
        if "_readable" not in self.__dict__:  # printed once: a frozen dataclass keeps it beside its fields
            object.__setattr__(self, "_readable", _Readable(self._can_be).formula(self.outputs[0].expr))
        return self.__dict__["_readable"]

    def _can_be(self, symbol: sp.Symbol, value: float) -> bool:
        """Whether ``symbol`` (an input, a case column or an earlier output) can take ``value`` in the table."""
        for s in self.inputs:
            if s.parameter.symbol == symbol:
                try:
                    s.check(value)
                except ValueError:
                    return False
                return True
        if symbol in self.fields:
            return bool((self.cases[self.fields[symbol]] == value).any())
        return True

    def records(self) -> list[dict]:
        return [dict(r, **{ROW: i}) for i, r in enumerate(self.cases.to_dict(orient="records"))]

    # --- the page -----------------------------------------------------------------------------

    def live(self) -> LiveModel:
        """The outputs bound to the sliders over every case, for a chart to layer marks on."""
        cases = pd.DataFrame(self.records())
        model = live_model(cases, {o.name: o.expr for o in self.outputs}, self.inputs,
                           {**self.fields, **self.stand_ins()},
                           choices=self.choices, name=self.name)
        if self.composed is not None:  # the reader's links join the chart's rows (the list is drawn elsewhere)
            model.controls.append(replace(self.composed, dataset=self.name, shown=False))
        return model

    def _formula_vega(self) -> str:
        """The calculation column as a Vega expression: text joined with the live numbers."""
        params = {s.parameter.symbol: s.name for s in self.inputs}
        columns = {**self.fields, **self.stand_ins()}

        def joined(pieces: list) -> str:
            parts = []
            for p in pieces:
                if isinstance(p, str):
                    parts.append(json.dumps(p))
                elif isinstance(p, _Branch):
                    out = joined(p.arms[-1][1])
                    for c, t in reversed(p.arms[:-1]):
                        out = f"({vega_expr(c, columns, params)} ? {joined(t)} : {out})"
                    parts.append(out)
                else:
                    parts.append(f"toString({params[p]})" if p in params
                                 else f"toString(datum[{json.dumps(columns[p])}])")
            return "(" + (" + ".join(parts) or '""') + ")"

        return joined(self._template())

    def table_spec(self, prefix: str = "", box: bool = False) -> dict:
        """The calculated table as the page's script computes it: a Vega dataflow of the cases with
        one formula per output (the expressions the chart evaluates), one per cell's text, and
        whether the row is shown; the signals are the inputs and choices, keyed ``prefix + name``.
        The ``box``'s table has the answers (:meth:`answer_outputs`) too, and their two controls."""
        live = self.live()
        columns = [{"key": f"cell_{c}", "heading": title, "kind": "case"} for c, title in self.shown.items()]
        columns += [{"key": f"cell_{o.name}", "heading": o.heading, "kind": "value"} for o in self.shown_outputs()]
        if self.formula_column:
            columns.append({"key": "cell_calculation", "heading": f"calculation of {self.outputs[0].title}",
                            "kind": "calculation"})
        cells = {f"cell_{c}": f"toString(datum[{json.dumps(c)}])" for c in self.shown}
        cells.update({f"cell_{o.name}": o.cell_vega() for o in self.shown_outputs()})
        if self.formula_column:
            cells["cell_calculation"] = self._formula_vega()
        transforms = [{"type": "formula", "as": name, "expr": expr} for name, expr in live.expressions.items()]
        transforms += [{"type": "formula", "as": name, "expr": expr} for name, expr in cells.items()]
        answers = self.answer_outputs() if box else []
        if answers:
            params = {s.parameter.symbol: s.name for s in self.inputs}
            params[reader.move] = reader.MOVE.name
            columns_of = {**self.fields, **self.stand_ins(), reader.goodput: self.answers.goodput}
            for a in answers:
                transforms.append({"type": "formula", "as": a.name, "expr": vega_expr(a.expr, columns_of, params)})
                text = _ANSWER_TEXT[_ANSWER_KINDS[a.name]][0](f"datum[{json.dumps(a.name)}]")
                transforms.append({"type": "formula", "as": f"cell_{a.name}", "expr": text})
                columns.append({"key": f"cell_{a.name}", "heading": a.title, "kind": "answer"})
        transforms.append({"type": "formula", "as": "shown", "expr": self.row_filter or "true"})
        if self.order:
            transforms.append({"type": "collect", "sort": {"field": [name for name, _ in self.order],
                                                           "order": [way for _, way in self.order]}})
        signals = [{"name": s.name, "value": self.defaults()[s.name]} for s in self.inputs]
        signals += [{"name": c.name, "value": c.value} for c in self.choices]
        if answers:
            signals += [{"name": reader.MOVE.name, "value": reader.MOVE.default},
                        {"name": "unit", "value": reader.unit_choice(self.goodput_unit()).value}]
        # the page folds a long table to the headline's rows first, or to the top of a ranked table's order
        fold = {"lead": {k: v.item() if hasattr(v, "item") else v for k, v in self.headline.items()},
                "ranked": bool(self.order)}
        spec = {"name": self.name, "title": self.title, "columns": columns, "fold": fold}
        if self.composed is not None:  # the reader's links, rows before the cases (goodput-live.js: Table)
            spec["composed"] = control(replace(self.composed, dataset="rows", shown=False), prefix)
        return {**spec,
                "keys": {sig["name"]: prefix + sig["name"] for sig in signals},
                "vega": {"signals": signals,
                         "data": [{"name": "rows", "values": self._page_records(), "transform": transforms}]}}

    def _page_records(self) -> list[dict]:
        """The cases as the page's JSON holds them: rounded by :func:`stable`, a missing value as null."""
        rows = stable(pd.DataFrame(self.records())).to_dict(orient="records")
        return [{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in r.items()} for r in rows]

    def headline_case(self) -> int:
        """The row the "your link" box shows first: the first matching :attr:`headline`."""
        for i, case in enumerate(self.records()):
            if all(case.get(k) == v for k, v in self.headline.items()):
                return i
        raise ValueError(f"{self.chapter}: no case has {dict(self.headline)}")

    def view(self, live: LiveModel, *layers: alt.Chart, controls: Sequence | None = None,
             title: str = "", controls_below: bool = False, **properties) -> LiveFigure:
        """The chapter's live figure: its controls (``live``'s, or ``controls`` when the chart has
        more than the table), the chart of ``layers`` sized to the column, and the calculated table; the
        controls under the chart with ``controls_below`` (many controls, the box's own just above the figure)."""
        return LiveFigure.of_layers(layers, list(controls if controls is not None else live.controls), title,
                                    properties, calculation=self, prefix=self.prefix, figure_id=self.figure_id(),
                                    controls_below=controls_below)

    def bars(self, value: str, case: str, title: str, sort: Sequence | None = None, color: str | None = None
             ) -> LiveFigure:
        """The chapter's live figure as one bar per case: the output ``value`` against the case column ``case``
        (in ``sort``'s order, else the longest bar first, coloured by the case column ``color``), each bar's
        tooltip the table's values as it writes them; the calculated table under it."""
        live = self.live()
        shown = {o.name: o for o in self.shown_outputs()}
        encoding = {
            "x": alt.X(f"{value}:Q", title=shown[value].heading),
            "y": alt.Y(f"{case}:N", title=None,
                       sort=list(sort) if sort is not None else alt.EncodingSortField(value, order="descending")),
            "tooltip": [f"{case}:N", *(alt.Tooltip(f"{o.name}:Q", format=f".{o.digits}~f", title=o.heading)
                                       for o in shown.values() if not o.labels)]}
        if color is not None:
            encoding["color"] = alt.Color(f"{color}:N", title=None)
        # 24 px a bar: room for each label with the page's label separation
        return self.view(live, live.base.mark_bar().encode(**encoding), height=alt.Step(24), title=title)

    def figure_id(self) -> str:
        """The id of the chapter's live figure in the page (the "your link" box links to it)."""
        return f"figure-{self.name}"

    def inputs_note(self):
        """What the chapter's inputs are and where a reader sets them: the box, the live chart and the
        workbook (a download link). Shown under the chapter's *Inputs* heading."""
        return prose(
            "Everything this chapter calculates follows from the inputs below. Each one is a control in the box "
            "above, which shows what the chapter computes for your link, and beside the live chart in *Explore* "
            "(they share one state, kept in the page's address, so a link to the page brings your values with it) "
            "and a named, validated cell in the chapter's workbook, which holds the same model as live spreadsheet "
            f"formulas:\n\n{{download}}`Download the workbook ({self.chapter}.xlsx) "
            f"<../_build/workbooks/{self.chapter}.xlsx>`\n\n{self._command_note()}"
            "Its *Inputs* sheet takes these values (out-of-range entries are refused), its *Model* sheet "
            "recalculates the table under the chart, and its *Source checks* sheet lists every published number "
            "of the chapter beside the model's.")

    def _command_note(self) -> str:
        """Where the box has one, what its *Copy as command* gives (a paragraph), else nothing."""
        if self.command is None:
            return ""
        example = " ".join(self.command_argv(self.defaults(), self.records()[self.headline_case()]))
        return ("The box's *Copy as command* writes the same values as a command line of the book's own tool, "
                f"`goodput {self.command.command}` (at the values above: `goodput {example}`); with `--json` it "
                "prints the box's values, and the command starts from the same values as the box.\n\n")

    def table_note(self):
        """What the calculated table under the live chart shows, and that a kernel shows it as a panel."""
        first = self.shown_outputs()[0]
        title = self.title if self.title[:2].isupper() else self.title[0].lower() + self.title[1:]  # keep "TCP"
        if not self.formula_column:
            return prose(
                f"Under the chart is the calculated table, *{title}*: one row per case and its values, computed "
                "from the same sympy expressions as the chart and the workbook's cells (the formulas are too long "
                "to read in a cell: the workbook holds them), and your browser recomputes all of it when you "
                "change an input.\n\nWith a running kernel, the same table is an ipywidgets panel:")
        return prose(
            f"Under the chart is the calculated table, *{title}*: one row per "
            f"case, the *calculation* column with the formula for {first.title} and the current numbers in it, "
            "and the values. The formula is printed from the same sympy expression as the chart's curve and the "
            "workbook's cells, and your browser recomputes all of it when you change an input.\n\n"
            "With a running kernel, the same table is an ipywidgets panel:")

    def your_link(self) -> YourLink:
        """The box at the top of the chapter: the controls, one case's values, a link to the figure."""
        return YourLink(self, self.figure_id())

    def inputs_frame(self) -> pd.DataFrame:
        """The chapter's inputs as a block: name, starting value, unit, allowed values (a set, or a range),
        meaning."""
        rows = []
        for s in self.inputs:
            p = s.parameter
            low, high = s.bounds()
            allowed = (f"one of {', '.join(number_text(v) for v in s.options())}" if s.options() else
                       f"{'integer ' if p.integer else ''}{number_text(low)} to {number_text(high)}")
            rows.append({"input": s.name, "value": number_text(self.defaults()[s.name]), "unit": p.unit,
                         "allowed": allowed, "what it is": p.label})
        return pd.DataFrame(rows)

    # --- in Python (the kernel's panel, goodput.render.panels.calculation_panel) -----------------

    def table_frame(self, **values: float) -> pd.DataFrame:
        """The calculated table at ``values`` (the defaults otherwise), computed in Python."""
        inputs = self.input_values(**values)
        rows = []
        for case in self.records():
            out = self.evaluate(inputs, case)
            row = {title: case[c] for c, title in self.shown.items()}
            row.update({o.heading: o.text(out[o.name]) for o in self.shown_outputs()})
            if self.formula_column:
                row["calculation"] = self.formula_text(inputs, case)
            rows.append(row)
        return pd.DataFrame(rows)
