"""The Vega printer, checked numerically: Vega itself evaluates each printed expression.

vl-convert renders a chart whose text marks show each row's computed value at
full precision; those numbers must equal the ``lambdify`` function of the same
expression to 1e-9.
"""

import random

import altair as alt
import pandas as pd
import pytest
import sympy as sp
import vl_convert as vlc

from goodput.core.precision import stable
from goodput.models import coding
from goodput.render.chapters import line_coding as coding_charts
from goodput.render.vega import vega_expr

x, y = sp.symbols("x y", positive=True)
p = sp.Symbol("p", positive=True)

EXPRESSIONS = {
    "rational": sp.Rational(8, 9) * x * p,
    "ceiling": sp.ceiling(x / y) * y,
    "floor": sp.floor(x * 3 / y),
    "min": sp.Min(x, y, p),
    "max": sp.Max(x, 2 * y) - p,
    "piecewise": sp.Piecewise((x, x < 2), (x * y, x < 5), (x + y + p, True)),
    "abs-sqrt-log": sp.Abs(x - y) + sp.sqrt(x) * sp.log(y + 1),
    "mod": sp.Mod(sp.floor(x * 10), 7),
    "pow-exp-pi": x ** 3 / (y ** sp.Rational(3, 2)) + sp.exp(-x) * sp.pi,
    "overhead-like": sp.ceiling(x * 100 / 256) * 8 + x * 100 / (x * 100 + 20),
    "line-code": coding.bit_rate_expr(coding.CODES["64b66b"]).subs({coding.line_rate: x, coding.lanes: p}),
}


def _rows(n=40, seed=7):
    """Random points, with the digits a chart's data carries (:func:`goodput.core.precision.stable`)."""
    rnd = random.Random(seed)
    return [{"i": i, "x": stable(rnd.uniform(0.05, 9.0)), "y": stable(rnd.uniform(0.5, 6.0))}
            for i in range(n)]


def _vega_values(expr, rows, p_value, fields):
    printed = vega_expr(expr, fields=fields, params={p: "p"})
    chart = (
        alt.Chart(pd.DataFrame(rows))
        .add_params(alt.param(name="p", value=p_value))
        .transform_calculate(v=printed)
        .transform_calculate(label="datum.i + '|' + toString(datum.v)")
        .mark_text()
        .encode(x="i:O", text="label:N")
    )
    values = {}

    def walk(node):
        for item in node.get("items", []):
            if isinstance(item, dict):
                if "text" in item and "|" in str(item["text"]):
                    i, v = str(item["text"]).split("|")
                    values[int(i)] = float(v)
                walk(item)

    walk(vlc.vegalite_to_scenegraph(chart.to_dict())["scenegraph"])
    return values


@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_printed_expression_evaluates_in_vega_as_lambdify_does(name):
    expr = EXPRESSIONS[name]
    rows = _rows()
    p_value = 1.75
    fields = {x: "x", y: "y"}
    got = _vega_values(expr, rows, p_value, fields)
    f = sp.lambdify((x, y, p), expr, "math")
    assert len(got) == len(rows)
    for row in rows:
        want = f(row["x"], row["y"], p_value)
        assert got[row["i"]] == pytest.approx(want, rel=1e-9, abs=1e-12), (name, row)


def test_piecewise_branches_are_all_reached_in_the_sample():
    rows = _rows()
    assert {r["x"] < 2 for r in rows} == {True, False}
    assert any(2 <= r["x"] < 5 for r in rows) and any(r["x"] >= 5 for r in rows)


def test_printer_refuses_what_vega_cannot_evaluate():
    with pytest.raises(ValueError, match="sinh"):
        vega_expr(sp.sinh(x), fields={x: "x"})
    with pytest.raises(ValueError, match="neither a data field nor a parameter"):
        vega_expr(x + y, fields={x: "x"})
    with pytest.raises(ValueError, match="final .* True"):
        vega_expr(sp.Piecewise((x, x < 1), (y, x > 3)), fields={x: "x", y: "y"})


def _label_texts(spec, mark="goodput_labels"):
    """Texts of the text marks named ``mark`` (Vega-Lite may suffix the name, ``mark_0_marks``)."""
    texts = []

    def named(name):
        return name is not None and name.startswith(mark) and name.endswith("_marks")

    def walk(node, inside=False):
        for item in node.get("items", []):
            if isinstance(item, dict):
                here = named(item.get("name")) if item.get("marktype") else inside
                if here and "text" in item:
                    texts.append(item["text"])
                walk(item, here)

    walk(vlc.vegalite_to_scenegraph(spec)["scenegraph"])
    return texts


@pytest.mark.parametrize("rate, lanes", [(None, None), (6.25, 4), (0.125, 1), (32.0, 16)])
def test_line_coding_chart_computes_the_model_in_vega(rate, lanes):
    spec = coding_charts.explore_chart().chart.to_dict()
    params = {p["name"]: p for p in spec["params"]}
    if rate is not None:
        params["line_rate_gbaud"]["value"] = rate
        params["lanes"]["value"] = lanes
    rate, lanes = params["line_rate_gbaud"]["value"], params["lanes"]["value"]
    want = [f"{coding.bit_rate_gbit_s(rate, lanes, key):.4f}".rstrip("0").rstrip(".")
            for key in coding.CODES]
    assert _label_texts(spec) == want


def test_the_conditions_a_chart_compares_are_printed_in_one_place():
    from goodput.render import vega

    assert vega.matches({"lanes": "lanes", "phy_gbaud": "line_rate_gbaud"}) == \
        "datum.lanes == lanes && datum.phy_gbaud == line_rate_gbaud"
    assert vega.is_value("series", "it's") == 'datum.series === "it\'s"'
    assert vega.lookup("part", {"a": 0, "b": 1}, 9) == '(datum.part === "a" ? 0 : (datum.part === "b" ? 1 : 9))'
    with pytest.raises(ValueError, match="not a name"):
        vega.column("data bytes")
    with pytest.raises(ValueError, match="at least one column"):
        vega.matches({})


def test_no_chapter_module_types_a_vega_expression():
    import pathlib

    render = pathlib.Path(vega_expr.__code__.co_filename).parent
    shared = {"vega.py", "calculation.py", "charts.py", "controls.py", "live.py"}
    for path in render.glob("*.py"):
        if path.name not in shared:
            assert "datum." not in path.read_text(encoding="utf-8"), f"{path.name}: print it with goodput.render.vega"
