"""A notebook's display is set up by one call, goodput.render.notebook.setup(), and by nothing else: importing
goodput's modules changes no global state (altair's renderer and data transformer stay altair's own), and every
chart goodput makes embeds the same numbers, rounded by goodput.core.precision.stable where its data is made,
whether or not a notebook was set up."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import altair as alt
import pandas as pd
import pytest

from goodput.core import chapters
from goodput.core.precision import stable
from goodput.render import live, notebook

ROOT = Path(__file__).resolve().parents[1]

#: The arguments a chart function that needs some is called with: those the chapters' notebooks give it.
ARGUMENTS = {
    "measured_vs_model_chart": [("an3935-table7",), ("an3935-table10",), ("an3935-table16",)],
    "latency_chart": [("read",), ("write",)],
    "ahb_delays_chart": [({"Test 3, writes": "intel-324611-test3-ahb.log",
                           "Test 11, reads": "intel-324611-test11-ahb.log"},)],
    "trace_timeline_chart": [({"Example 1 (§3.5)": "intel-324611-example1-symbols.log",
                               "Test 3 (§4.6)": "intel-324611-test3-symbols.log"},)],
}

#: What stays the same in a process that imports every module of goodput and sets nothing up.
IMPORT_EVERYTHING = """
import importlib, json, pkgutil
import altair as alt
import goodput
before = {"renderer": alt.renderers.active, "transformer": alt.data_transformers.active,
          "renderers": sorted(alt.renderers.names()), "transformers": sorted(alt.data_transformers.names())}
for info in pkgutil.walk_packages(goodput.__path__, "goodput."):
    if not info.name.endswith("__main__"):  # running it is the command line
        importlib.import_module(info.name)
after = {"renderer": alt.renderers.active, "transformer": alt.data_transformers.active,
         "renderers": sorted(alt.renderers.names()), "transformers": sorted(alt.data_transformers.names())}
print(json.dumps([before, after]))
"""


@pytest.fixture
def set_up():
    """:func:`notebook.setup` called, and altair's renderer and data transformer put back afterwards."""
    renderer, transformer = alt.renderers.active, alt.data_transformers.active
    notebook.setup()
    yield
    alt.renderers.enable(renderer)
    alt.data_transformers.enable(transformer)


def _charts() -> dict[str, object]:
    """Every chart the chapters' render modules make (each ``*_chart`` function), by name and arguments."""
    out = {}
    for chapter in chapters.CHAPTERS:
        module = chapter.render()
        for name, make in sorted(vars(module).items()):
            if not (name.endswith("_chart") and callable(make) and make.__module__ == module.__name__):
                continue
            for args in ARGUMENTS.get(name, [()]):
                out[f"{module.__name__}.{name}{args!r}"] = make(*args)
    return out


def _specs(charts: dict[str, object]) -> dict[str, dict]:
    return {name: getattr(made, "chart", made).to_dict() for name, made in charts.items()}


def _numbers(value) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


@pytest.mark.slow  # another interpreter imports every module: seconds
def test_importing_every_module_changes_no_global_state():
    run = subprocess.run([sys.executable, "-c", IMPORT_EVERYTHING], capture_output=True, text=True, cwd=ROOT,
                         check=False)
    assert run.returncode == 0, run.stderr
    before, after = json.loads(run.stdout)
    assert after == before
    assert after["renderer"] == "default" and after["transformer"] == "default"


def test_setup_shows_charts_with_the_loader_and_rounds_a_notebooks_own_chart(set_up):
    assert alt.renderers.active == live.RENDERER and alt.data_transformers.active == notebook.STABLE_DATA
    notebook.setup()  # again: nothing changes, nothing is registered twice
    chart = alt.Chart(pd.DataFrame({"x": [1 / 3], "n": [7]})).mark_point().encode(x="x:Q", y="n:Q")
    assert list(chart.to_dict()["datasets"].values()) == [[{"x": 0.333333, "n": 7}]]
    bundle = chart._repr_mimebundle_()
    assert (bundle[0] if isinstance(bundle, tuple) else bundle)["text/html"].startswith(live.lab_loader())


@pytest.mark.slow  # builds every chapter's charts twice: seconds
def test_every_chart_embeds_the_same_rounded_numbers_whether_or_not_a_notebook_is_set_up(set_up):
    """With altair's own data transformer (a process that called no setup), each chart's spec is the one the
    transformer that rounds gives, which is what every chart embedded when importing goodput.render enabled it:
    the data is rounded where it is made. A live figure's HTML is the same too (its element ids aside)."""
    charts = _charts()
    assert len(charts) > 30
    rounded = _specs(charts)
    figures = {name: made._repr_html_() for name, made in charts.items() if isinstance(made, live.LiveFigure)}
    assert figures
    with alt.data_transformers.enable("default"):
        plain = _specs(charts)
        plain_figures = {name: made._repr_html_() for name, made in charts.items() if name in figures}
    assert [name for name in charts if plain[name] != rounded[name]] == [], "data not rounded where it is made"
    ids = re.compile(r"altair-viz-[0-9a-f]+")
    assert [name for name in figures if ids.sub("", plain_figures[name]) != ids.sub("", figures[name])] == []
    numbers = [n for spec in plain.values() for n in _numbers(spec.get("datasets", {}))]
    assert numbers and all(stable(n) == n or n != n for n in numbers)
