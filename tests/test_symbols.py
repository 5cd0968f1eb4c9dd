"""The models' sympy symbols are distinct by construction: no two declarations are one object to
sympy, every symbol a module declares is a model symbol owned by it, and no module sees two
different symbols printed alike."""

import importlib
import inspect
import pickle
import pkgutil

import pytest
import sympy as sp

import goodput
from goodput.core.params import Parameter
from goodput.core.symbols import ModelSymbol, collisions, lambdify, maker
from goodput.models import bus, can, coding, ethernet, pcie, pcie_transactions, spi, srio

MODULES = sorted(m.name for m in pkgutil.walk_packages(goodput.__path__, "goodput.") if m.name != "goodput.__main__")


def _symbols_of(module) -> list[tuple[str, str, sp.Symbol]]:
    """Every symbol a module holds at its top level, directly or as a Parameter's, or in a dict or
    tuple of Parameters, with where it was found."""
    found = []
    for name, value in vars(module).items():
        values = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else [value]
        for i, item in enumerate(values):
            where = f"{module.__name__}.{name}" + (f"[{i}]" if item is not value else "")
            if isinstance(item, Parameter):
                found.append((module.__name__, where + ".symbol", item.symbol))
            elif isinstance(item, sp.Symbol):
                found.append((module.__name__, where, item))
    return found


ALL = [pair for name in MODULES for pair in _symbols_of(importlib.import_module(name))]


def test_the_scan_finds_the_models_symbols():
    found = {id(s) for _module, _where, s in ALL}
    for sym in (coding.lanes, spi.words, pcie.header, srio.H, ethernet.frame, can.data_bytes, bus.transfers):
        assert id(sym) in found


def test_no_two_declared_symbols_are_one_to_sympy():
    assert collisions(ALL) == []


def test_the_collision_check_finds_plain_symbols_that_sympy_merges():
    a, b = sp.Symbol("N", positive=True), sp.Symbol("N", positive=True)  # one object to sympy
    own = maker("goodput.one")("N", positive=True)
    found = [("goodput.one", "one.a", a), ("goodput.one", "one.alias", a), ("goodput.two", "two.b", b),
             ("goodput.one", "one.own", own), ("goodput.two", "two.imported", own)]
    assert collisions(found) == [("one.a", "two.b"), ("one.alias", "two.b")]


@pytest.mark.parametrize("module", MODULES)
def test_every_symbol_a_module_declares_is_its_model_symbol(module):
    for _module, where, sym in _symbols_of(importlib.import_module(module)):
        assert isinstance(sym, ModelSymbol), f"{where} is a plain sympy Symbol: make it with symbols.maker(__name__)"
        assert sym.owner.startswith("goodput."), where


@pytest.mark.parametrize("module", MODULES)
def test_no_module_sees_two_symbols_printed_alike(module):
    by_name: dict[str, set] = {}
    for _module, where, sym in _symbols_of(importlib.import_module(module)):
        by_name.setdefault(sp.latex(sym), {}).setdefault(sym, where)
    clashes = {name: sorted(places.values()) for name, places in by_name.items() if len(places) > 1}
    assert clashes == {}


@pytest.mark.parametrize("a, b", [(coding.lanes, spi.words), (coding.coded_bits, pcie_transactions.transactions),
                                  (coding.data_bits, bus.transfers), (ethernet.frame, srio.logical_header),
                                  (pcie.header, srio.H)])
def test_the_symbols_that_used_to_be_one_are_two(a, b):
    assert str(a) == str(b) and a != b
    assert (a + b).xreplace({a: 1}) == 1 + b


def test_a_model_symbol_prints_like_a_plain_one_and_survives_pickling():
    symbol = maker("goodput.example")
    rate = symbol(r"R_{\mathrm{line}}", positive=True)
    assert sp.latex(2 * rate) == sp.latex(2 * sp.Symbol(r"R_{\mathrm{line}}", positive=True))
    assert rate.is_positive
    again = pickle.loads(pickle.dumps(rate))
    assert again == rate and again.owner == "goodput.example"
    assert symbol(r"R_{\mathrm{line}}", positive=True) == rate  # one owner, name and assumptions: one symbol
    with pytest.raises(ValueError, match="needs its owner"):
        ModelSymbol("x", "")


def test_lambdify_keeps_two_symbols_printed_alike_apart():
    n1, n2 = maker("goodput.a")("N", positive=True), maker("goodput.b")("N", positive=True)
    assert lambdify((n1, n2), n1 - 2 * n2)(10, 1) == 8


@pytest.mark.slow
def test_a_lambdified_function_is_printed_the_same_however_many_dummies_the_process_made():
    xs = [maker("goodput.t")(f"x_{i}", positive=True) for i in range(12)]
    expr = sp.Add(*(k * x / (x + 1) for k, x in enumerate(xs, 1)))
    before = inspect.getsource(lambdify(xs, expr))
    n = int(sp.Dummy().name.rpartition("_")[2])  # sympy names a dummy after a counter of the process
    for _ in range(10 ** len(str(n)) - n - 6):  # the next dummies' names cross into one digit more: 999, 1000...
        sp.Dummy()
    assert inspect.getsource(lambdify(xs, expr)) == before
