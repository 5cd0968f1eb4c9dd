"""A table's headings as a reader reads them: a data file's column name turned into words and its unit."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from goodput.render.display import UNITS, column_heading, frame_html

DATAPACKAGE = Path(__file__).resolve().parent.parent / "data" / "published" / "datapackage.json"
FIELDS = [f for r in json.loads(DATAPACKAGE.read_text(encoding="utf-8"))["resources"] for f in r["schema"]["fields"]]


def _suffix(name: str) -> str | None:
    """The unit ``name`` ends in, as :data:`UNITS` knows it (two words before one: ``mb_s`` before ``s``)."""
    if name in UNITS:
        return name
    words = name.split("_")
    for n in (2, 1):
        if len(words) > n and "_".join(words[-n:]) in UNITS:
            return "_".join(words[-n:])
    return None


@pytest.mark.parametrize("name, heading", [
    ("bandwidth_gbit_s", "Bandwidth (Gbit/s)"),
    ("time_ms", "Time (ms)"),
    ("throughput_kbit_s", "Throughput (kbit/s)"),
    ("max_bandwidth_mb_s", "Max bandwidth (MB/s)"),
    ("line_rate_gbaud", "Line rate (Gbaud)"),
    ("clock_mhz", "Clock (MHz)"),
    ("cpu_load_percent", "CPU load (%)"),
    ("latency_as_printed_ns", "Latency as printed (ns)"),
    ("ack_limit_symbol_times", "ACK limit (symbol times)"),
    ("l2_cache_kbytes", "L2 cache (KB)"),
    ("transfer_mbytes", "Transfer (MiB)"),
    ("frames_per_s", "Frames per second"),
    ("start_s", "Start (s)"),
    ("gbit_s", "Gbit/s"),
    ("max_read_response_bytes", "Max read response (bytes)"),
    ("local_core", "Local core"),
])
def test_a_unit_suffixed_column_name_becomes_words_and_its_unit(name, heading):
    assert column_heading(name) == heading


@pytest.mark.parametrize("heading", ["status", "published", "at 32 KiB", "bytes", "explained by the gap model?",
                                     "Gbaud", "model (Gbit/s)"])
def test_a_heading_already_written_for_the_reader_stays_as_it_is(heading):
    assert column_heading(heading) == heading


def _heading_problem(field) -> str | None:
    """What is wrong with the heading of a column the data names, or None."""
    name, heading = field["name"], column_heading(field["name"])
    if "_" in heading:
        return f"{name} -> {heading!r} still reads as a column name"
    suffix = _suffix(name)
    if suffix is None or (suffix == "s" and name.endswith("per_s")):
        return None
    if not (heading.endswith(f"({UNITS[suffix]})") or heading == UNITS[suffix]):
        return f"{name} -> {heading!r} does not end in its unit {UNITS[suffix]!r}"
    declared = field.get("unit", "")
    if declared and declared != "Gbps" and "(printed)" not in declared and declared != UNITS[suffix]:
        return f"{name}: the schema says {declared!r}, the heading {UNITS[suffix]!r}"  # units as a document prints them aside
    return None


def test_every_column_the_data_names_gets_a_heading_with_the_unit_its_schema_declares():
    assert len(FIELDS) > 500
    assert [p for p in map(_heading_problem, FIELDS) if p] == []


def test_every_unit_the_headings_know_is_one_the_data_uses():
    used = {_suffix(f["name"]) for f in FIELDS}
    assert set(UNITS) - used == set(), "a unit no column ends in"


def test_a_table_shows_the_heading_in_its_head_and_in_each_cells_label():
    text = frame_html(pd.DataFrame({"bandwidth_gbit_s": [1.5], "status": ["ok"]}))
    assert "<th style=\"text-align: right\">Bandwidth (Gbit/s)</th>" in text
    assert 'data-label="Bandwidth (Gbit/s)"' in text and 'data-label="status"' in text
