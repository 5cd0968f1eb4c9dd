"""Measured points over a live chart: they carry their conditions from the published table, and the
chart compares those columns with the sliders (``datum.lanes == lanes``), so they show only where the
sliders sit at the conditions they were measured at. No filter types a condition's value."""

import re

import pytest

from goodput.core import data
from goodput.models import pcie_latency
from goodput.render.chapters import can_fd, pcie_measured, srio, tcp_goodput

#: figure, the measured layer's y field, its published table, and per slider the table's condition column
OVERLAYS = {
    "can-fd": (can_fd.explore_chart, "measured_per_s", "am243x-mcan",
               {"arbitration_mbit_s": "arbitration_mbit_s", "data_mbit_s": "data_mbit_s"}),
    "tcp-goodput": (tcp_goodput.explore_chart, "mbit_s", "spraaq5-s6-throughput",
                    {"line_rate_mbit_s": "line_rate_mbit_s"}),
    "srio": (srio.explore_chart, "measured_gbit_s", "keystone2-table16-21",
             {"lanes": "lanes", "line_rate_gbaud": "phy_gbaud"}),
}
COMPARISON = re.compile(r"^datum\.(\w+) == (\w+)$")


def _layers(spec):
    """Every single-view spec (one with a mark) inside ``spec``."""
    if "mark" in spec:
        yield spec
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for part in spec.get(key, []):
            yield from _layers(part)


def _measured(figure, field):
    spec = figure().chart.to_dict()
    layers = [s for s in _layers(spec) if s.get("encoding", {}).get("y", {}).get("field") == field]
    assert len(layers) == 1, field
    return spec, layers[0]


@pytest.mark.parametrize("chapter", OVERLAYS)
def test_the_measured_points_compare_their_condition_columns_with_the_sliders(chapter):
    figure, field, resource, conditions = OVERLAYS[chapter]
    spec, layer = _measured(figure, field)
    filters = [t["filter"] for t in layer.get("transform", []) if "filter" in t]
    assert len(filters) == 1
    compared = {}
    for term in filters[0].split(" && "):
        m = COMPARISON.match(term.strip())
        assert m, f"{chapter}: {term!r} does not compare a datum's column with a slider"
        compared[m.group(2)] = m.group(1)
    sliders = {p["name"] for p in spec["params"]}
    assert set(compared) == set(conditions) <= sliders
    # each point carries the value the published table holds for its conditions
    table = data.load(resource)
    points = spec["datasets"][layer["data"]["name"]]
    for slider, column in conditions.items():
        assert {p[compared[slider]] for p in points} == set(table[column]), slider


@pytest.mark.parametrize("chapter", OVERLAYS)
def test_the_measured_points_show_at_the_sliders_starting_values(chapter):
    """The sliders start where the published measurements were taken (all of them, for one setting)."""
    figure, field, resource, conditions = OVERLAYS[chapter]
    spec, layer = _measured(figure, field)
    start = {p["name"]: p["value"] for p in spec["params"]}
    points = spec["datasets"][layer["data"]["name"]]
    shown = [p for p in points if all(p[c] == start[s] for s, c in conditions.items())]
    assert shown, chapter


@pytest.mark.slow
def test_no_filter_of_a_live_chart_compares_a_slider_with_a_typed_number():
    figures = [f for f, *_ in OVERLAYS.values()] + [lambda: pcie_measured.latency_chart("write")]
    for figure in figures:
        spec = figure().chart.to_dict()
        sliders = {p["name"] for p in spec["params"]}
        for layer in _layers(spec):
            for t in layer.get("transform", []):
                for name in re.findall(r"(?<![\w.])(\w+)\s*===?\s*-?[\d.]+\b", t.get("filter", "")
                                       if isinstance(t.get("filter"), str) else ""):
                    assert name not in sliders, t["filter"]


@pytest.mark.slow
def test_the_back_to_back_points_stand_out_at_the_sliders_transfers_in_flight():
    spec, layer = _measured(lambda: pcie_measured.latency_chart("write"), "measured_gbit_s")
    assert layer["encoding"]["opacity"]["condition"]["test"] == "datum.dma_channels == in_flight"
    points = spec["datasets"][layer["data"]["name"]]
    rows, _ = pcie_latency.an3935_back_to_back("write")
    assert sorted({p["dma_channels"] for p in points}) == sorted(set(rows["dma_channels"].astype(int)))
