"""What a reader sees first, in the built book: the instrument before the derivation.

At 1366x900 every chapter with a model shows its "your link" box's headline value inside the first
screen and its first live chart within two screens; the landing page shows its comparison chart inside
the first screen at 1366x900 and at 390x844. And no chapter offers a "Show code cell source" toggle on
a cell whose code only imports or only hands values to a display helper (:func:`plumbing`).

The checks of a page are functions here; tests/test_page_tour_browser.py runs them on each page it opens.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

# Where the first screen ends and what lies in it: the box's headline value (the first value of its
# list, which the page's script fills), and the top of the first live chart (a figure's drawn chart).
GEOMETRY = """
() => {
  window.scrollTo(0, 0);
  const top = el => el ? el.getBoundingClientRect().top + window.scrollY : null;
  const bottom = el => el ? el.getBoundingClientRect().bottom + window.scrollY : null;
  const headline = document.querySelector('.goodput-yours .goodput-yours-list dd.goodput-value');
  const chart = document.querySelector('.goodput-live .goodput-chart canvas, .goodput-live .goodput-chart svg');
  return {viewport: window.innerHeight, headline_top: top(headline), headline_bottom: bottom(headline),
          chart_top: top(chart), chart_bottom: bottom(chart)};
}
"""


def geometry(page) -> dict:
    page.evaluate("() => document.fonts.ready")
    return page.evaluate(GEOMETRY)


def headline_in_the_first_screen(page, chapter):
    """At 1366x900, the box's headline value inside the first screen and the first live chart within two
    screens. Run by tests/test_page_tour_browser.py on every chapter with a model, as the page loads."""
    page.wait_for_selector(".goodput-yours dd.goodput-value strong")
    g = geometry(page)
    assert g["headline_top"] is not None, f"{chapter}: the box shows no value"
    assert 0 <= g["headline_top"] and g["headline_bottom"] <= g["viewport"], \
        f"{chapter}: the box's headline value is at {g['headline_top']:.0f}-{g['headline_bottom']:.0f} px, " \
        f"the first screen ends at {g['viewport']} px"
    assert g["chart_top"] is not None, f"{chapter}: no live chart"
    assert g["chart_top"] < 2 * g["viewport"], \
        f"{chapter}: the first live chart starts at {g['chart_top']:.0f} px, beyond two screens ({2 * g['viewport']} px)"


def landing_chart_in_the_first_screen(page, width):
    """The landing page's comparison chart inside the first screen. Run by tests/test_page_tour_browser.py on
    book/intro.html at each width, as the page loads."""
    g = geometry(page)
    assert g["chart_top"] is not None, "the landing page has no live chart"
    assert g["chart_bottom"] <= g["viewport"], \
        f"at {width} the comparison chart spans {g['chart_top']:.0f}-{g['chart_bottom']:.0f} px, " \
        f"the first screen ends at {g['viewport']} px"


# --- code toggles ---------------------------------------------------------------------------------

#: Functions a cell may hand its output to that show it and compute nothing of the model.
DISPLAY = {"display", "Markdown", "Math", "HTML", "Latex"}


def helper_names(notebook: dict) -> set[str]:
    """The names a notebook binds to its display helpers: whatever it imports from ``goodput.render`` and
    IPython's display, and a name assigned the result of calling one (``calc = calculations.get(...)``)."""
    names = set(DISPLAY)
    statements = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            try:
                statements += ast.parse("".join(cell["source"])).body
            except SyntaxError:
                continue
    for s in statements:
        if isinstance(s, ast.ImportFrom) and s.module and (
                s.module.startswith("goodput.render") or s.module.startswith("IPython")):
            names |= {a.asname or a.name for a in s.names}
        elif isinstance(s, ast.Import):
            names |= {a.asname for a in s.names if a.asname and a.name.startswith("goodput.render")}
    for s in statements:
        if isinstance(s, ast.Assign) and _helper_call(s.value, names):
            names |= {t.id for t in s.targets if isinstance(t, ast.Name)}
    return names


def _inert(node, helpers) -> bool:
    """A literal (or a container of them), a helper's name, or a helper's call."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_inert(e, helpers) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(_inert(e, helpers) for e in (*node.keys, *node.values) if e is not None)
    if isinstance(node, ast.Name):
        return node.id in helpers
    return _helper_call(node, helpers)


def _helper_call(node, helpers) -> bool:
    """A call of a helper (``display``, ``pcie_charts.explore_chart``, ``panels.calculation_panel``) with inert
    arguments."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute):
        f = f.value
    return isinstance(f, ast.Name) and f.id in helpers and all(
        _inert(a, helpers) for a in (*node.args, *(k.value for k in node.keywords)))


def plumbing(code: str, helpers: set[str]) -> bool:
    """Whether ``code`` teaches nothing by being read: each statement imports, or shows a value by a call of
    a display helper (``pcie_charts.explore_chart()``, ``calc = calculations.get("spi")``) with arguments
    that are literals or helpers, or names a value to show. A cell that calls into a model
    (``display(formula.equation("n", pcie.tlp_count_expr("write")))``) or computes (``frame.groupby(...)``)
    is not plumbing: its code says how the result is made."""
    body = ast.parse(code).body
    for s in body:
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(s, (ast.Expr, ast.Assign)) and (
                _helper_call(s.value, helpers) or isinstance(s.value, ast.Name)):
            continue
        return False
    return bool(body)


def test_the_plumbing_rule_tells_a_display_call_from_a_derivation():
    helpers = helper_names({"cells": [{"cell_type": "code", "source": [
        "from goodput.render import calculations, formula\n",
        "from goodput.render.chapters import pcie_packets as pcie_charts\n",
        "from IPython.display import display\n", "from goodput.models import pcie\n",
        "calc = calculations.get('pcie-packets')"]}]})
    assert {"calc", "pcie_charts", "formula", "display"} <= helpers and "pcie" not in helpers
    assert plumbing("import sympy as sp\nfrom goodput.models import pcie", helpers)
    assert plumbing("calc = calculations.get('pcie-packets')\ncalc.your_link()", helpers)
    assert plumbing("pcie_charts.explore_chart()", helpers)
    assert plumbing("pcie_charts.trace_chart({'Test 3': 'test3.log'}, height=200)", helpers)
    assert plumbing("first", helpers)
    assert not plumbing("display(formula.equation('n', pcie.tlp_count_expr('write')))", helpers)
    assert not plumbing("w = pcie.posted_writes_expr()\ndisplay(formula.equation('T', w['time_ns']))", helpers)
    assert not plumbing("m = pcie_charts.measured()\nm.groupby('source').size()", helpers)


def _toggled_code(page) -> list[str]:
    """The code of every cell the page shows behind a "Show code cell source" toggle."""
    return page.evaluate("""() => [...document.querySelectorAll('.cell.tag_hide-input')].map(cell => {
      const code = cell.querySelector('.cell_input pre');
      return code ? code.textContent : '';
    })""")


def no_toggle_on_plumbing(page, chapter):
    """The chapter offers no "Show code cell source" toggle on code that only imports or displays
    (:func:`plumbing`). Run by tests/test_page_tour_browser.py on every chapter."""
    notebook = json.loads((NOTEBOOKS / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    helpers = helper_names(notebook)
    toggled = _toggled_code(page)
    toggles = page.locator("summary", has_text="Show code cell source").count()
    assert toggles == len(toggled), f"{chapter}: {toggles} toggles, {len(toggled)} hidden-input cells found"
    shown = [code.strip().splitlines()[0] for code in toggled if plumbing(code, helpers)]
    assert not shown, f"{chapter}: toggles on code that only imports or displays: {shown}"
