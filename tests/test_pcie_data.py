"""AN3935's measured tables: the three the conversion scrambled, rebuilt and cross-checked."""

import re
from collections import Counter

import pytest

from goodput import data

AS_CONVERTED = data.published_dir() / "an3935-tables-7-9-11-as-converted.txt"
VALUE = re.compile(r"\d+\.\d+")          # every measured or calculated cell has two decimals
LABEL = re.compile(r"(?<![\d.])(\d+)(?: K)?(?![\d.])")  # size labels: 8 ... 512, 1 K ... 32 K


def _converted(number):
    for line in AS_CONVERTED.read_text().splitlines():
        if line.startswith(f"Table {number}: "):
            return line.split(": ", 1)[1]
    raise AssertionError(f"Table {number} is not in {AS_CONVERTED}")


def _cells(name):
    t = data.load(name)
    return [v for c in t.columns if c.endswith("_gbit_s") for v in t.attrs["printed"][c]]


@pytest.mark.parametrize("number", [7, 9, 11])
def test_every_scrambled_number_is_used_exactly_once(number):
    line = _converted(number)
    assert Counter(VALUE.findall(line)) == Counter(_cells(f"an3935-table{number}"))


@pytest.mark.parametrize("number, missing", [(7, set()), (9, {"32"}), (11, set())])
def test_the_size_labels_of_the_scrambled_line_are_the_tables_rows(number, missing):
    line = VALUE.sub(" ", _converted(number).split("**", 2)[-1])
    labels = {m.group(0) for m in re.finditer(r"\b\d+(?: K)?\b", line)}
    rows = set(data.load(f"an3935-table{number}").attrs["printed"]["bytes_as_printed"])
    assert rows - labels == missing


def test_rebuilt_tables_agree_where_the_document_repeats_a_measurement():
    t7, t9, t11 = (data.load(f"an3935-table{n}") for n in (7, 9, 11))
    t2 = data.load("an3935-table2")
    assert list(t7["x4_gbit_s"]) == list(t9["measured_mps256_gbit_s"]) == list(t11["eight_back_to_back_gbit_s"])
    assert list(t9["calculated_mps256_gbit_s"]) == list(t11["calculated_gbit_s"]) == list(t2["bandwidth_gbit_s"])


@pytest.mark.parametrize("name, columns", [
    ("an3935-table7", ["x4_gbit_s", "x2_gbit_s", "x1_gbit_s"]),
    ("an3935-table9", ["measured_mps256_gbit_s", "measured_mps128_gbit_s"]),
    ("an3935-table11", ["single_request_gbit_s", "four_back_to_back_gbit_s", "eight_back_to_back_gbit_s"]),
])
def test_rebuilt_measured_columns_rise_with_size_up_to_256_bytes(name, columns):
    t = data.load(name)
    small = t[t["bytes"] <= 256]
    for c in columns:
        assert list(small[c]) == sorted(small[c]), c


def test_wider_links_and_more_requests_are_faster_in_the_rebuilt_tables():
    t7, t11 = data.load("an3935-table7"), data.load("an3935-table11")
    assert (t7["x4_gbit_s"] >= t7["x2_gbit_s"]).all() and (t7["x2_gbit_s"] > t7["x1_gbit_s"]).all()
    assert (t11["eight_back_to_back_gbit_s"] >= t11["four_back_to_back_gbit_s"]).all()
    assert (t11["four_back_to_back_gbit_s"] >= t11["single_request_gbit_s"]).all()
