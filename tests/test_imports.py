"""The import graph of the package, as a contract a change can break.

goodput is built in layers, each a package (:data:`LAYERS`, lowest first). A module may import modules of its own
layer and of the layers below, never one above; no modules import each other in a cycle; and no module imports
goodput's modules inside a function (an import moved into a function hides a cycle or a layer crossed, it does not
remove it), but the command line, which loads a subcommand's layer only when it runs one so that ``goodput --help``
starts without sympy. The graph counts every import: at the top, inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "goodput"

#: The layers, lowest first: each is the packages (or modules) that make it. ``goodput`` is the package's own
#: ``__init__`` (its version) alone.
LAYERS = (
    ("core", ("goodput", "goodput.core")),  # errors, parameters, symbols, a command's declaration, the registry
    ("logs", ("goodput.logs",)),  # one parser per log format
    ("checks", ("goodput.checks",)),  # a source check and its verdict; what the documents print and we check
    ("models", ("goodput.models",)),  # one module per link, and the generated specs of its command
    ("machine", ("goodput.machine",)),  # what Linux prints of the reader's link, read
    ("analysis", ("goodput.analysis",)),  # what several models and measurements make: chooser, boot, sizes, fits
    ("sources", ("goodput.sources",)),  # one module (or package) per document: its configurations and checks
    ("render", ("goodput.render",)),  # Vega printer, charts, calculated tables, pages, workbooks
    ("chapters", ("goodput.render.chapters",)),  # one module per chapter
    ("command", ("goodput.cli", "goodput.__main__")),  # the goodput command
)

#: The only modules that may import goodput's modules inside functions: the command, whose subcommands load
#: their layer (sympy, pandas, the machine's readers) when they run, not when ``goodput --help`` does.
LAZY = {"goodput.cli"}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer ``module`` is in: that of its longest declared package."""
    best = None
    for index, (_, packages) in enumerate(LAYERS):
        for package in packages:
            inside = module == package or (package != "goodput" and module.startswith(package + "."))
            if inside and (best is None or len(package) > best[1]):
                best = (index, len(package))
    if best is None:
        raise LookupError(f"{module} is in no layer of LAYERS: put its package in one")
    return best[0]


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imported(node: ast.AST, module: str, path: Path, known: dict) -> set[str]:
    """goodput's modules an import statement names (``from . import a, b`` names a and b)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        if node.level:
            base = base[:len(base) - node.level + 1]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        names = [stem] + [f"{stem}.{a.name}" for a in node.names]
    return {n for n in names if n in known and n != module}


@functools.cache
def _graph() -> tuple[dict[str, set[str]], dict[str, list[int]]]:
    """Each module's imports of goodput's modules (wherever they are in it), and the lines of those inside
    functions."""
    known = _modules()
    edges, inside = {m: set() for m in known}, {m: [] for m in known}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_functions = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                        for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found = _imported(node, module, path, known)
                edges[module] |= found
                if found and id(node) in in_functions:
                    inside[module].append(node.lineno)
    return edges, inside


def _cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index, low, on, stack, groups, counter = {}, {}, set(), [], [], 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return groups


@pytest.mark.slow  # it parses every module: a second
def test_every_module_is_in_a_layer():
    edges, _ = _graph()
    for module in edges:
        layer_of(module)


@pytest.mark.slow
def test_no_module_imports_a_layer_above_its_own():
    edges, _ = _graph()
    up = [f"{m} ({LAYERS[layer_of(m)][0]}) imports {e} ({LAYERS[layer_of(e)][0]})"
          for m in sorted(edges) for e in sorted(edges[m]) if layer_of(e) > layer_of(m)]
    assert up == []


@pytest.mark.slow
def test_no_module_is_in_an_import_cycle():
    edges, _ = _graph()
    assert [sorted(g) for g in _cycles(edges)] == []


@pytest.mark.slow
def test_only_the_command_imports_goodputs_modules_inside_functions():
    _, inside = _graph()
    assert {m: lines for m, lines in inside.items() if lines and m not in LAZY} == {}


def test_the_check_finds_a_cycle_an_import_inside_a_function_hides():
    """The graph counts an import inside a function: two modules importing each other that way are a cycle."""
    edges = {"goodput.a": {"goodput.b"}, "goodput.b": {"goodput.a"}, "goodput.c": set()}
    assert _cycles(edges) == [{"goodput.a", "goodput.b"}]


def test_a_module_is_in_the_layer_of_its_longest_package():
    assert LAYERS[layer_of("goodput.render.chapters.spi")][0] == "chapters"
    assert LAYERS[layer_of("goodput.render.vega")][0] == "render"
    assert LAYERS[layer_of("goodput")][0] == "core"
    with pytest.raises(LookupError, match="goodput.elsewhere is in no layer"):
        layer_of("goodput.elsewhere")
