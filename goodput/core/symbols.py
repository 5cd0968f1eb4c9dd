"""The symbols of the models: distinct by construction, printed as the letters a reader knows.

sympy takes two symbols with the same name and assumptions for one object: a plain
``Symbol("N", positive=True, integer=True)`` in the line-code model and another in the SPI model
would be *equal*, and substituting one would silently set the other. A :class:`ModelSymbol`
also carries its *owner*, the module that declares it, and is equal only to a symbol of the same
owner, name and assumptions. It prints exactly as a plain symbol of its name (``N``,
``R_{\\mathrm{line}}``), so formulas read as before.

Every model module makes its symbols with its own maker::

    symbol = symbols.maker(__name__)
    lanes = symbol("N", positive=True, integer=True)

Numeric functions made from expressions with :func:`lambdify` never confuse two symbols printed
alike, even in one expression (sympy's own lambdify names arguments by their printed names).
"""

from __future__ import annotations

from typing import Callable, Iterable

import sympy as sp
from sympy.core.cache import cacheit
from sympy.core.sorting import ordered

__all__ = ["ModelSymbol", "maker", "placeholders", "stood_in", "lambdify", "model_symbols", "collisions"]


class ModelSymbol(sp.Symbol):
    """A symbol of one model: a plain :class:`sympy.Symbol` that is also told apart by its owner."""

    __slots__ = ("owner",)

    def __new__(cls, name: str, owner: str, **assumptions):
        if not owner:
            raise ValueError(f"symbol {name!r}: a model symbol needs its owner (the declaring module)")
        cls._sanitize(assumptions, cls)
        obj = sp.Symbol.__xnew__(cls, name, **assumptions)
        obj.owner = owner
        return obj

    def __getnewargs_ex__(self):
        return ((self.name, self.owner), self._assumptions_orig)

    def _hashable_content(self):
        return sp.Symbol._hashable_content(self) + (self.owner,)

    @cacheit
    def sort_key(self, order=None):
        # ordered like a plain symbol of its name (so printed formulas keep their order), the owner
        # breaking ties between two symbols printed alike
        return sp.Symbol.class_key(), (1, (self.name, self.owner)), sp.S.One.sort_key(), sp.S.One


def maker(owner: str) -> Callable[..., ModelSymbol]:
    """A function making the symbols of module ``owner``: ``maker(__name__)("N", positive=True)``."""

    def symbol(name: str, **assumptions) -> ModelSymbol:
        return ModelSymbol(name, owner, **assumptions)

    symbol.__doc__ = f"A symbol of {owner}."
    return symbol


def placeholders(args) -> dict[sp.Symbol, sp.Symbol]:
    """A plain symbol for each of ``args`` to stand for it in a numeric function, named after its place:
    ``_00`` for the last of the arguments in sympy's order of symbols, ``_01`` for the one before it..., in
    that order (as sympy's own dummies would be made and named, without their counter of the process)."""
    args = list(args)
    return {sym: sp.Symbol(f"_{k:02d}") for k, (sym, _) in enumerate(reversed(list(ordered(zip(args, range(len(args)))))))}


def stood_in(expr, names: dict[sp.Symbol, sp.Symbol]):
    """``expr`` (or a list or tuple of expressions) with each symbol of ``names`` replaced by its stand-in, one
    after the other in ``names``' order, as sympy's lambdify replaces its arguments."""
    exprs = [sp.sympify(e) for e in (expr if isinstance(expr, (list, tuple)) else [expr])]
    done: dict = {}
    for sym, stand_in in names.items():
        done[sym] = stand_in
        exprs = [e.xreplace(done) for e in exprs]
    return type(expr)(exprs) if isinstance(expr, (list, tuple)) else exprs[0]


def lambdify(args, expr, modules="math"):
    """:func:`sympy.lambdify` with every argument replaced first by its :func:`placeholders` symbol, so two
    symbols printed alike (``N`` of two models) stay two arguments, and the function printed is the same in
    every process. (sympy's ``dummify`` names its dummies after a counter of the whole process, and the
    printer orders the terms of a sum by those names: past ``Dummy_999``, ``Dummy_1000`` sorted first, and
    a function made late in a long process added its terms in another order, a float result differing in
    its last bit.)"""
    args = list(args)
    names = placeholders(args)
    return sp.lambdify([names[a] for a in args], stood_in(expr, names), modules, dummify=False)


def model_symbols(namespace: dict) -> dict[str, sp.Symbol]:
    """The symbols a module's namespace holds at its top level, by attribute name (public or not)."""
    return {name: value for name, value in namespace.items() if isinstance(value, sp.Symbol)}


def collisions(found: Iterable[tuple[str, str, sp.Symbol]]) -> list[tuple[str, str]]:
    """Places of symbols that sympy takes for one though two modules declare them.

    ``found`` holds ``(module, place, symbol)`` for every symbol seen in a module. A model symbol
    belongs to its owner wherever it is seen (another module imported it); a plain symbol to the
    module it is seen in. Two places collide when their symbols compare equal and belong to two
    modules: plain ``Symbol("N", integer=True)`` in two modules is one object to sympy."""
    groups: dict[sp.Symbol, list[tuple[str, str]]] = {}
    for module, place, sym in found:
        groups.setdefault(sym, []).append((getattr(sym, "owner", module), place))
    return [(a, b) for group in groups.values() for i, (owner_a, a) in enumerate(group)
            for owner_b, b in group[i + 1:] if owner_a != owner_b]
