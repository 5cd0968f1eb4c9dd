"""Formulas as a chapter prints them: the model's own sympy expressions in LaTeX.

The source documents print calculations as "10 x 4 x (8/9) = 35.5 Gbps". The
same form is printed here from the model's sympy expression, so the numbers a
panel shows are always the formula the model evaluates (:func:`substituted_latex`).

KaTeX (like MathJax) never breaks a display equation, so a long derived formula is
wider than the text column, on a phone wider than the screen. :func:`equation` prints
``lhs = expr`` on one line when it fits and otherwise across the lines of an
``aligned`` block, every line built from sub-expressions of ``expr``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import count
from typing import Iterator, Mapping

import sympy as sp
from IPython.display import Math

__all__ = ["Row", "equation", "equation_latex", "equation_rows", "line_latex", "substituted_latex",
           "visible_length"]

#: Widest line of a display equation, in :func:`visible_length` characters. In the
#: built book (Chromium, MathJax 3 CHTML) a long line of this measure was 11-13 px a
#: character, and on a 390 px phone the text column keeps 358 px: at 28 the widest
#: line of any chapter's formula was 345 px there, and is 329 px typeset by KaTeX as
#: the book now is. The desktop column (about 690 px inside its padding) holds twice
#: as many, so a formula broken for the phone takes at most half of it.
WIDTH = 28

#: A part repeated in a formula is named only if it is at least this wide; a name
#: ``u_k`` is 2 wide, so naming ``E + F`` would save little and hide much.
NARROW = 8


def _shown(value: float) -> sp.Symbol:
    # A symbol named by the number keeps sympy from multiplying the numbers out.
    text = f"{value:.6g}" if isinstance(value, float) else str(value)
    return sp.Symbol(text)


def substituted_latex(expr: sp.Expr, values: Mapping[sp.Symbol, float]) -> str:
    """LaTeX of ``expr`` with each symbol replaced by its number, structure kept."""
    missing = expr.free_symbols - set(values)
    if missing:
        raise ValueError(f"no value given for {', '.join(sorted(map(str, missing)))}")
    return sp.latex(expr.subs({s: _shown(v) for s, v in values.items()}, simultaneous=True))


# --- how wide LaTeX prints -------------------------------------------------------------

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.S)
_SCRIPT = 0.7  # MathJax sets sub- and superscripts at about 70 % of the size
_NOTHING = {r"\,", r"\:", r"\;", r"\!", r"\displaystyle", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\big", r"\Big"}
_SPACES = {r"\ ": 1, r"\quad": 2, r"\qquad": 4}
_OPERATORS = {"+", "-", "=", "<", ">", r"\leq", r"\geq", r"\neq", r"\le", r"\ge", r"\cdot", r"\times"}
_NAMED = {r"\max", r"\min", r"\log", r"\ln", r"\exp", r"\sin", r"\cos", r"\gcd", r"\det", r"\lim"}
_ARGUMENT = {r"\mathrm", r"\text", r"\operatorname", r"\mathit", r"\mathbf", r"\mathsf", r"\textrm"}
_ENDS_CELL = {"}", "&", "\\\\", r"\end"}


def visible_length(latex: str) -> float:
    """Roughly how many characters wide ``latex`` prints, in widths of a letter.

    A letter, digit or delimiter counts 1 and a binary operator or relation 2
    (with the space MathJax sets around it); a sub- or superscript counts 0.7 of
    its length; ``\\mathrm{MSS}`` counts its text; ``\\frac`` counts its longer
    half; ``\\left``, ``\\right``, thin spaces and braces count nothing; an
    environment (``aligned``, ``cases``) counts its widest row, column by column,
    and a line break ``\\\\`` outside one starts a row of the same kind.

    Parameters
    ----------
    latex
        LaTeX math, as sympy prints it.

    Returns
    -------
    float
        The width, to compare with the ``width`` of :func:`equation_latex`.
    """
    width, _ = _table(_TOKEN.findall(latex), 0, "aligned")
    return width


def _table(tokens: list[str], i: int, env: str) -> tuple[float, int]:
    """Width of rows of ``&``-separated cells up to ``\\end{env}`` (or the end)."""
    rows: list[list[float]] = [[]]
    while True:
        width, i = _cell(tokens, i)
        rows[-1].append(width)
        token = tokens[i] if i < len(tokens) else None
        if token == "&":
            i += 1
        elif token == "\\\\":
            rows.append([])
            i += 1
        else:
            if token == r"\end":
                _, i = _group(tokens, i + 1)
            break
    columns = [max(row[c] for row in rows if c < len(row)) for c in range(max(map(len, rows)))]
    if env == "cases":  # the brace, and a quad between value and condition
        return 1 + sum(columns) + 2 * (len(columns) - 1), i
    return sum(columns), i


def _cell(tokens: list[str], i: int) -> tuple[float, int]:
    """Width of the items from ``i`` up to the end of a cell, group or environment."""
    width = 0.0
    while i < len(tokens) and tokens[i] not in _ENDS_CELL:
        item, i = _item(tokens, i)
        width += item
    return width, i


def _group(tokens: list[str], i: int) -> tuple[float, int]:
    """Width of a braced group (or of the single item) at ``i``, and where it ends."""
    while i < len(tokens) and tokens[i].isspace():
        i += 1
    if i < len(tokens) and tokens[i] == "{":
        width, i = _cell(tokens, i + 1)
        return width, i + 1
    return _item(tokens, i)


def _item(tokens: list[str], i: int) -> tuple[float, int]:
    """Width of the item at ``i`` (a character, a command with its arguments, a group)."""
    token = tokens[i]
    if token == "{":
        return _group(tokens, i)
    if token == r"\frac":
        numerator, i = _group(tokens, i + 1)
        denominator, i = _group(tokens, i)
        return max(numerator, denominator), i
    if token in ("^", "_"):
        script, i = _group(tokens, i + 1)
        return _SCRIPT * script, i
    if token == r"\begin":
        end = tokens.index("}", i)
        return _table(tokens, end + 1, "".join(tokens[i + 2:end]))
    if token in (r"\left", r"\right"):
        return (0 if tokens[i + 1] == "." else 1), i + 2
    if token in _ARGUMENT:
        return _group(tokens, i + 1)
    if token.isspace() or token in _NOTHING:
        return 0, i + 1
    if token in _SPACES:
        return _SPACES[token], i + 1
    if token in _OPERATORS:
        return 2, i + 1
    if token in _NAMED:
        return len(token) - 1, i + 1
    return 1, i + 1


# --- breaking an equation into lines ----------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One equation of a broken formula: ``lhs`` equals the sum of the terms of its lines.

    Attributes
    ----------
    lhs
        LaTeX of the left side: the formula's own, or the name of a part.
    symbol
        The name this row defines (``None`` for the formula itself).
    value
        The right side, with the parts named in other rows as their symbols.
    lines
        The terms each printed line holds; all of them add up to ``value``.
    """

    lhs: str
    symbol: sp.Symbol | None
    value: sp.Expr
    lines: tuple[tuple[sp.Expr, ...], ...]


def line_latex(terms: tuple[sp.Expr, ...], first: bool) -> str:
    """LaTeX of the terms of a sum that one line holds, each signed as sympy prints it.

    ``first`` is whether the line starts the sum; any other line starts with its
    operator, ``+ x`` or ``- x``.
    """
    printed = []
    for k, term in enumerate(terms):
        coefficient, _ = term.as_coeff_Mul()
        if first and k == 0:
            printed.append(sp.latex(term))
        else:
            printed.append(f"- {sp.latex(-term)}" if coefficient.is_negative else f"+ {sp.latex(term)}")
    return " ".join(printed)


def _lines(value: sp.Expr, room: float) -> tuple[tuple[sp.Expr, ...], ...] | None:
    """``value`` in the fewest lines at most ``room`` wide, cut between the terms of a sum.

    Of the cuts into that many lines, the one whose widest line is narrowest is
    taken, so the lines are as even as the terms allow. ``None`` when ``value``
    is wider than ``room`` and not a sum, or one of its terms is.
    """
    if visible_length(sp.latex(value)) <= room:
        return ((value,),)
    if not isinstance(value, sp.Add):
        return None
    terms = value.as_ordered_terms()
    # best[j]: (lines, widest line, where the last line starts) for the first j terms
    best: dict[int, tuple[int, float, int]] = {0: (0, 0.0, 0)}
    for j in range(1, len(terms) + 1):
        options = [(best[i][0] + 1, max(best[i][1], wide), i) for i in best
                   if (wide := visible_length(line_latex(tuple(terms[i:j]), i == 0))) <= room]
        if options:
            best[j] = min(options)
    if len(terms) not in best:
        return None
    cuts = [len(terms)]
    while cuts[-1]:
        cuts.append(best[cuts[-1]][2])
    cuts.reverse()
    return tuple(tuple(terms[a:b]) for a, b in zip(cuts, cuts[1:]))


def _part_to_name(value: sp.Expr, room: float) -> sp.Expr | None:
    """The part of ``value`` to name: the widest one its own row can print, else the widest.

    A part is a sub-expression other than a symbol, a number or a ``1/x``
    (whose ``x`` is named instead).
    """
    parts = {part for part in sp.preorder_traversal(value)
             if isinstance(part, sp.Expr) and not part.is_Atom and part != value
             and not (isinstance(part, sp.Pow) and part.exp.is_negative)}
    ranked = sorted(parts, key=lambda part: (_lines(part, room) is not None, visible_length(sp.latex(part)),
                                             sp.default_sort_key(part)))
    return ranked[-1] if ranked else None


def _repeated_parts(expr: sp.Expr, names: Iterator[sp.Symbol]) -> dict[sp.Symbol | None, sp.Expr]:
    """``expr`` with its repeated parts (:func:`sympy.cse`) named, all but the narrow ones.

    Returns the rows' values: ``None`` maps to ``expr`` in terms of the names.
    A repeated part narrower than :data:`NARROW` stays written out.
    """
    temporary = (sp.Dummy() for _ in count())
    repeated, (value,) = sp.cse([expr], symbols=temporary, optimizations=None)
    written, renamed, values, whole = {}, {}, {}, {}
    for symbol, part in repeated:
        whole[symbol] = part.xreplace(whole)  # the part as it stands in expr
        if visible_length(sp.latex(whole[symbol])) < NARROW:
            written[symbol] = part.xreplace(written)
        else:
            renamed[symbol] = next(names)
    for symbol, part in repeated:
        if symbol in renamed:
            values[renamed[symbol]] = part.xreplace(written).xreplace(renamed)
    return {None: value.xreplace(written).xreplace(renamed), **values}


def _names(expr: sp.Expr) -> Iterator[sp.Symbol]:
    """Symbols ``u_1, u_2, ...`` for the parts, in a letter ``expr`` does not use."""
    taken = {str(symbol).split("_")[0] for symbol in expr.free_symbols}
    letter = next(letter for letter in ("u", "v", "z", "X", "Y", "Z") if letter not in taken)
    return (sp.Symbol(f"{letter}_{k}") for k in count(1))


def equation_rows(lhs: str, expr: sp.Expr, width: int = WIDTH) -> list[Row]:
    r"""How :func:`equation_latex` prints ``lhs = expr``: the rows and the terms on each line.

    A formula that fits ``width`` is one row of one line. A longer one is cut
    between the terms of its sum. Where a term, or a fraction or a function
    that cannot be cut, is still too wide, the parts it repeats
    (:func:`sympy.cse`) and then its widest parts are named ``u_1, u_2, ...``
    and defined in rows below, each cut the same way.

    Parameters
    ----------
    lhs
        LaTeX of the left side, for instance ``"G"`` or ``r"G_{\mathrm{spec}}"``.
    expr
        The right side.
    width
        Widest line, in :func:`visible_length` characters (see :data:`WIDTH`).

    Returns
    -------
    list of Row
        The formula first, then the parts in the order they were named.

    Raises
    ------
    ValueError
        If ``lhs`` is empty, ``width`` is not a positive integer, or ``expr``
        cannot be printed in lines that narrow.
    """
    if not isinstance(lhs, str) or not lhs.strip():
        raise ValueError("an equation needs a left side, and lhs is empty")
    if isinstance(width, bool) or not isinstance(width, int) or width <= 0:
        raise ValueError(f"width must be a positive number of characters, not {width!r}")
    expr = sp.sympify(expr)
    if visible_length(f"{lhs} = {sp.latex(expr)}") <= width:
        return [Row(lhs, None, expr, ((expr,),))]
    room = width - visible_length(lhs) - 2  # the left column, and "= " or "\quad" before each line
    lines = _lines(expr, room)
    if lines is not None:
        return [Row(lhs, None, expr, lines)]
    names = _names(expr)
    values = _repeated_parts(expr, names)
    room = width - max(visible_length(lhs), visible_length("u_{10}")) - 2
    while wide := [symbol for symbol, value in values.items() if _lines(value, room) is None]:
        part = _part_to_name(values[wide[0]], room)
        if part is None:
            raise ValueError(f"the formula for {lhs} cannot be printed in lines of {width} characters; "
                             f"it needs a larger width")
        name = next(names)
        values = {symbol: value.xreplace({part: name}) for symbol, value in values.items()}
        values[name] = part
    return [Row(lhs if symbol is None else sp.latex(symbol), symbol, value, _lines(value, room))
            for symbol, value in values.items()]


def equation_latex(lhs: str, expr: sp.Expr, width: int = WIDTH) -> str:
    r"""LaTeX of ``lhs = expr``, across the lines of ``aligned`` when wider than ``width``.

    A formula that fits prints exactly as ``f"{lhs} = {sp.latex(expr)}"``. A
    longer one is printed from :func:`equation_rows`: ``=`` aligned, further
    lines of a sum starting ``\quad + ...``, and the named parts defined
    after a ``where``. The mathematics is never changed: every line prints
    sub-expressions of ``expr``, and the names stand for parts of it.

    Parameters
    ----------
    lhs
        LaTeX of the left side.
    expr
        The right side.
    width
        Widest line, in :func:`visible_length` characters. The default,
        :data:`WIDTH`, fits a phone.

    Returns
    -------
    str
        LaTeX for a display equation.
    """
    rows = equation_rows(lhs, expr, width)
    if len(rows) == 1 and len(rows[0].lines) == 1:
        return f"{lhs} = {sp.latex(expr)}"
    printed = []
    for k, row in enumerate(rows):
        if k == 1:
            printed.append(r"&\text{where}")
        printed.append(f"{row.lhs} &= {line_latex(row.lines[0], True)}")
        printed.extend(rf"&\quad {line_latex(line, False)}" for line in row.lines[1:])
    return "\\begin{aligned}\n" + " \\\\\n".join(printed) + "\n\\end{aligned}"


def equation(lhs: str, expr: sp.Expr, width: int = WIDTH) -> Math:
    """``lhs = expr`` for display, across lines as :func:`equation_latex` prints it."""
    return Math(equation_latex(lhs, expr, width))
