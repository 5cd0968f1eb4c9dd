"""Formulas as a chapter prints them: the model's own sympy expressions in LaTeX.

The source documents print calculations as "10 x 4 x (8/9) = 35.5 Gbps". The
same form is printed here from the model's sympy expression, so the numbers a
panel shows are always the formula the model evaluates (:func:`substituted_latex`).

MathJax never breaks a display equation, so a long derived formula is wider than
the text column, on a phone wider than the screen. :func:`equation` prints
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

__all__ = ["Row", "equation", "equation_latex", "equation_rows", "substituted_latex", "visible_length"]

#: Lines of at most this many visible characters fit a 390 px phone column: MathJax
#: sets a display equation at about 9 px a character, and the column keeps about
#: 360 px of the screen. The desktop column (about 740 px) holds twice as many.
WIDTH = 40


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
        LaTeX of the left side: the formula's own, or a name ``u_{k}`` of a part.
    symbol
        The name this row defines (``None`` for the formula itself).
    value
        The right side, with the parts named in later rows as their symbols.
    lines
        The terms each printed line holds; all of them add up to ``value``.
    """

    lhs: str
    symbol: sp.Symbol | None
    value: sp.Expr
    lines: tuple[tuple[sp.Expr, ...], ...]


def _signed(term: sp.Expr, first: bool) -> str:
    """LaTeX of one term of a sum as sympy prints it there: ``- x`` or ``+ x`` after the first."""
    if first:
        return sp.latex(term)
    coefficient, _ = term.as_coeff_Mul()
    return f"- {sp.latex(-term)}" if coefficient.is_negative else f"+ {sp.latex(term)}"


def _line_latex(terms: tuple[sp.Expr, ...], first: bool) -> str:
    """The LaTeX of one printed line holding ``terms``."""
    return " ".join(_signed(term, first and k == 0) for k, term in enumerate(terms))


def _break_sum(value: sp.Expr, room: float) -> tuple[tuple[sp.Expr, ...], ...] | None:
    """``value`` as lines of at most ``room`` wide: one line, or a sum cut between terms.

    Returns ``None`` when a single term is wider than ``room``.
    """
    if visible_length(sp.latex(value)) <= room:
        return ((value,),)
    if not isinstance(value, sp.Add):
        return None
    lines: list[tuple[sp.Expr, ...]] = []
    for term in value.as_ordered_terms():
        wider = lines[-1] + (term,) if lines else None
        if wider and visible_length(_line_latex(wider, len(lines) == 1)) <= room:
            lines[-1] = wider
        elif visible_length(_line_latex((term,), not lines)) <= room:
            lines.append((term,))
        else:
            return None
    return tuple(lines)


def _part_to_name(value: sp.Expr) -> sp.Expr | None:
    """The widest part of ``value`` worth a name of its own: a sub-expression, not ``1/x``."""
    parts = [part for part in sp.preorder_traversal(value)
             if isinstance(part, sp.Expr) and not part.is_Atom and part != value
             and not (isinstance(part, sp.Pow) and part.exp.is_negative)]
    return max(parts, key=lambda part: visible_length(sp.latex(part)), default=None)


def _names(expr: sp.Expr) -> Iterator[sp.Symbol]:
    """Symbols ``u_1, u_2, ...`` for the parts, in a letter ``expr`` does not use."""
    taken = {str(symbol).split("_")[0] for symbol in expr.free_symbols}
    letter = next(letter for letter in ("u", "v", "w", "z", "X", "Y") if letter not in taken)
    return (sp.Symbol(f"{letter}_{k}") for k in count(1))


_WHERE = r"\text{where}\ "


def equation_rows(lhs: str, expr: sp.Expr, width: int = WIDTH) -> list[Row]:
    """How :func:`equation_latex` prints ``lhs = expr``: the rows and the terms on each line.

    A formula that fits ``width`` is one row of one line. A longer one is cut
    between the terms of its sum; where a term, or a fraction or function that
    cannot be cut, is still too wide, its repeated parts (:func:`sympy.cse`) and
    then its widest parts are named ``u_1, u_2, ...`` and defined in rows below,
    each cut the same way.

    Parameters
    ----------
    lhs
        LaTeX of the left side, for instance ``"G"`` or ``r"G_{\\mathrm{spec}}"``.
    expr
        The right side.
    width
        Widest line, in :func:`visible_length` characters.

    Returns
    -------
    list of Row
        The formula first, then the named parts in the order they were named.

    Raises
    ------
    ValueError
        If ``lhs`` is empty, ``width`` is not a positive integer, or a line
        narrower than ``width`` cannot be found.
    """
    if not isinstance(lhs, str) or not lhs.strip():
        raise ValueError("an equation needs a left side: lhs is empty")
    if isinstance(width, bool) or not isinstance(width, int) or width <= 0:
        raise ValueError(f"width must be a positive number of characters, not {width!r}")
    expr = sp.sympify(expr)
    single = f"{lhs} = {sp.latex(expr)}"
    if visible_length(single) <= width:
        return [Row(lhs, None, expr, ((expr,),))]
    # "lhs = " or "\quad " takes the left column and 2 characters of each line
    room = width - visible_length(lhs) - 2
    lines = _break_sum(expr, room)
    if lines is not None:
        return [Row(lhs, None, expr, lines)]
    names = _names(expr)
    room = width - max(visible_length(lhs), visible_length(_WHERE + "u_{9}")) - 2
    repeated, (value,) = sp.cse([expr], symbols=names, optimizations=None)
    values: dict[sp.Symbol | None, sp.Expr] = {None: value, **dict(repeated)}
    while True:
        wide = next((symbol for symbol, value in values.items() if _break_sum(value, room) is None), False)
        if wide is False:
            break
        part = _part_to_name(values[wide])
        if part is None:
            raise ValueError(f"{lhs} = {sp.latex(expr)} cannot be printed in lines of {width} characters")
        name = next(names)
        values = {symbol: value.xreplace({part: name}) for symbol, value in values.items()}
        values[name] = part
    return [Row(lhs if symbol is None else (_WHERE if k == 1 else "") + sp.latex(symbol),
                symbol, value, _break_sum(value, room))
            for k, (symbol, value) in enumerate(values.items())]


def equation_latex(lhs: str, expr: sp.Expr, width: int = WIDTH) -> str:
    """LaTeX of ``lhs = expr``, across lines of ``aligned`` when it is wider than ``width``.

    ``width`` is counted in :func:`visible_length` characters. The default, 40,
    fits a 390 px phone column (MathJax sets about 9 px a character in a display
    equation and the column keeps about 360 px); the desktop column (about
    740 px) holds the same lines comfortably. A formula that fits prints exactly
    as ``f"{lhs} = {sp.latex(expr)}"``. A longer one is printed from
    :func:`equation_rows`: ``=`` aligned, each further line of a sum starting
    ``\\quad + ...``, and named parts defined below it. The mathematics is
    never changed: every line is printed from sub-expressions of ``expr``.

    Parameters
    ----------
    lhs
        LaTeX of the left side.
    expr
        The right side.
    width
        Widest line, in :func:`visible_length` characters.

    Returns
    -------
    str
        LaTeX for a display equation.
    """
    rows = equation_rows(lhs, expr, width)
    if len(rows) == 1 and len(rows[0].lines) == 1:
        return f"{lhs} = {sp.latex(expr)}"
    printed = []
    for row in rows:
        printed.append(f"{row.lhs} &= {_line_latex(row.lines[0], True)}")
        printed.extend(rf"&\quad {_line_latex(line, False)}" for line in row.lines[1:])
    return "\\begin{aligned}\n" + " \\\\\n".join(printed) + "\n\\end{aligned}"


def equation(lhs: str, expr: sp.Expr, width: int = WIDTH) -> Math:
    """``lhs = expr`` for display, broken across lines as :func:`equation_latex` prints it."""
    return Math(equation_latex(lhs, expr, width))
