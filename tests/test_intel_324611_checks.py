"""Intel 324611's figures outside the pcie-reads chapter: §3.1's full-duplex rate (line-coding), and
§2, §5 and §6 (pcie-measured): each reproduced or flagged, and a wrong figure caught."""

import copy

import pytest

from goodput import checks, coding, data


def _edited(name, column, index, text):
    table = data.load(name)
    wrong = table.copy()
    wrong.attrs = copy.deepcopy(table.attrs)
    wrong.attrs["printed"][column][index] = text
    wrong.loc[index, column] = float(text)
    return wrong


def test_the_full_duplex_figure_is_both_directions_of_250_mbyte_s():
    got = [c for c in checks.collect("line-coding") if c.resource == "intel-324611-s3-1"
           and c.quantity == "both directions together"]
    assert [(c.published, c.model, c.status) for c in got] == [("500", 2 * 250.0, "ok")]


def test_a_wrong_full_duplex_figure_is_caught():
    got = coding.intel_full_duplex_checks(_edited("intel-324611-s3-1", "full_duplex_mbyte_s", 0, "250"))
    assert [c.status for c in got] == ["erratum"]
