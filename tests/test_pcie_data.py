"""AN3935's measured tables: the three the conversion scrambled, rebuilt and cross-checked; every
measured table stored long, its conditions in columns that say what its provenance says."""

import re
from collections import Counter

import pytest

from goodput.core import data
from goodput.models import pcie
from goodput.sources.an3935 import packets

AS_CONVERTED = data.published_dir() / "an3935-tables-7-9-11-as-converted.txt"
VALUE = re.compile(r"\d+\.\d+")          # every measured or calculated cell has two decimals
LABEL = re.compile(r"(?<![\d.])(\d+)(?: K)?(?![\d.])")  # size labels: 8 ... 512, 1 K ... 32 K


def _converted(number):
    for line in AS_CONVERTED.read_text().splitlines():
        if line.startswith(f"Table {number}: "):
            return line.split(": ", 1)[1]
    raise AssertionError(f"Table {number} is not in {AS_CONVERTED}")


def _cells(name):
    return data.load(name).attrs["printed"]["gbit_s"]


def _column(name, **conditions):
    """The values of one printed column of a long table: the rows with ``conditions``, in size order."""
    t = data.load(name)
    for column, value in conditions.items():
        t = t[t[column] == value]
    assert t["bytes"].is_unique and len(t) > 0, (name, conditions)
    return list(t.sort_values("bytes")["gbit_s"])


def _printed_columns(name):
    """Every printed column of a long table: ``(label, rows)`` of each series and its conditions."""
    t = data.load(name)
    labels = t["series"] + " " + data.varying(t, pcie.AN3935_LABELS, within=["series"])
    return [(label, t[labels == label]) for label in labels.drop_duplicates()]


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
    x4 = _column("an3935-table7", lanes=4)
    assert x4 == _column("an3935-table9", series="measured", mps_bytes=256) == _column(
        "an3935-table11", series="measured", dma_channels=8)
    assert _column("an3935-table9", series="calculated", mps_bytes=256) == _column(
        "an3935-table11", series="calculated") == list(data.load("an3935-table2")["bandwidth_gbit_s"])


@pytest.mark.parametrize("name", ["an3935-table7", "an3935-table9", "an3935-table11"])
def test_rebuilt_measured_columns_rise_with_size_up_to_256_bytes(name):
    for label, rows in _printed_columns(name):
        if label.startswith("measured"):
            small = rows[rows["bytes"] <= 256]
            assert list(small["gbit_s"]) == sorted(small["gbit_s"]), label


def test_wider_links_and_more_requests_are_faster_in_the_rebuilt_tables():
    x4, x2, x1 = (_column("an3935-table7", lanes=n) for n in (4, 2, 1))
    assert all(a >= b > c for a, b, c in zip(x4, x2, x1))
    one, four, eight = (_column("an3935-table11", series="measured", dma_channels=k) for k in (1, 4, 8))
    assert all(a >= b >= c for a, b, c in zip(eight, four, one))


# --- the long layout ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", packets.AN3935_MEASURED)
def test_each_printed_column_is_a_block_of_rows_over_the_same_sizes(name):
    t = data.load(name)
    columns = _printed_columns(name)
    sizes = list(columns[0][1]["bytes_as_printed"])
    assert len(sizes) == 13 and len(t) == 13 * len(columns)
    start = 0
    for label, rows in columns:
        assert list(rows.index) == list(range(start, start + len(sizes))), label  # one block, in order
        assert list(rows["bytes_as_printed"]) == sizes, label
        start += len(sizes)
    for c in ("device", "transfer"):
        data.single(t, c)  # one device, one direction per table


def _named(conditions, pattern):
    """Every whole number a provenance sentence names with ``pattern`` (its group: "1, 4 or 8")."""
    return {int(n) for m in re.finditer(pattern, conditions) for n in re.findall(r"\d+", m.group(1))}


@pytest.mark.parametrize("name", packets.AN3935_MEASURED)
def test_the_condition_columns_hold_what_the_provenance_names(name):
    t = data.load(name)
    p = data.provenance(name)
    text = p["conditions"]
    assert set(t["device"]) == set(re.findall(r"MSC815\d", text))
    assert set(t["transfer"]) == {k for k in ("write", "read") if k in p["title"].lower()}
    assert set(t["lanes"]) == _named(text, r"((?:x\d, )*x\d)\b")
    assert set(t["mps_bytes"]) == _named(text, r"MPS (?:and MRRS )?(\d+(?: or \d+)?)")
    measured, calculated = t[t["series"] == "measured"], t[t["series"] == "calculated"]
    if "number of DMA channels is not stated" in text:
        assert measured["dma_channels"].isna().all()
    else:
        assert set(measured["dma_channels"]) == _named(text, r"((?:\d+, )*\d+(?: or \d+)?) DMA channels")
    assert calculated["dma_channels"].isna().all()  # a calculation has no DMA channels
    assert set(t["series"]) == {s for s in ("measured", "calculated") if s in (p["title"] + text).lower()}
    cited = re.search(r"calculated as in Table (\d+)|\(Table (\d+)'s method\)", text)
    if cited:  # the calculation of §6 (x4, MPS 256) as that table prints it
        x4 = calculated[(calculated["lanes"] == 4) & (calculated["mps_bytes"] == 256)]
        table = data.load(f"an3935-table{cited.group(1) or cited.group(2)}")
        assert list(x4["gbit_s"]) == list(table["bandwidth_gbit_s"])
