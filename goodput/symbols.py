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

__all__ = ["ModelSymbol", "maker", "lambdify", "model_symbols"]


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


def lambdify(args, expr, modules="math"):
    """:func:`sympy.lambdify` with every argument replaced by a dummy first, so two symbols printed
    alike (``N`` of two models) stay two arguments."""
    return sp.lambdify(args, expr, modules, dummify=True)


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


__all__ += ["collisions"]
