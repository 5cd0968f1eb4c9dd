"""The import graph of the package, as a contract a change can break: no cycle among goodput's modules, counting
the imports inside functions too (an import moved into a function hides a cycle, it does not remove one), but the
two issue 36 is to take apart; and no more imports of goodput's modules inside functions than there are now.

Both may only shrink: when a known cycle is gone or in-function imports are fewer, shrink them here.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "goodput"

#: The cycles left: the render machinery (held together by imports inside functions and a TYPE_CHECKING import,
#: the answers the box gives among them), and goodput pcie's command, whose run imports the latency and read
#: models that import the packet model. A module in a cycle must be in one of these with the others of its cycle.
KNOWN_CYCLES = (
    frozenset({"goodput.render.answers", "goodput.render.calculation", "goodput.render.calculations", "goodput.render.charts",
               "goodput.render.controls", "goodput.render.live", "goodput.render.workbook"}),
    frozenset({"goodput.models.pcie", "goodput.models.pcie_latency", "goodput.models.pcie_transactions"}),
)
#: Import statements of goodput's own modules inside functions (nested ones counted once), at most.
IN_FUNCTION_IMPORTS = 48


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
def _graph() -> tuple[dict[str, set[str]], int]:
    """Each module's imports of goodput's modules (wherever they are in it), and how many sit inside functions."""
    known = _modules()
    edges, inside = {m: set() for m in known}, 0
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_functions = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                        for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found = _imported(node, module, path, known)
                edges[module] |= found
                inside += bool(found) and id(node) in in_functions
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
def test_no_module_is_in_an_import_cycle_but_the_two_issue_36_takes_apart():
    """pcie and pcie_spec were a third (an import inside pcie's _values): the latency table now lives in pcie."""
    edges, _ = _graph()
    assert [sorted(g) for g in _cycles(edges) if not any(g <= known for known in KNOWN_CYCLES)] == []


@pytest.mark.slow
def test_imports_inside_functions_are_no_more_than_they_were():
    _, inside = _graph()
    assert inside <= IN_FUNCTION_IMPORTS, f"{inside} imports of goodput's modules inside functions"


def test_the_check_finds_a_cycle_an_import_inside_a_function_hides(tmp_path):
    """The graph counts an import inside a function: two modules importing each other that way are a cycle."""
    edges = {"goodput.a": {"goodput.b"}, "goodput.b": {"goodput.a"}, "goodput.c": set()}
    assert _cycles(edges) == [{"goodput.a", "goodput.b"}]
