import pytest

from goodput import checks


@pytest.mark.parametrize(
    "printed, tolerance",
    [("35.5", 0.05), ("250", 0.5), ("4.44", 0.005), ("2", 0.5), ("5.0", 0.05), ("248.79", 0.005)],
)
def test_tolerance_is_half_a_unit_of_the_last_printed_digit(printed, tolerance):
    assert checks.printed_tolerance(printed) == pytest.approx(tolerance)


@pytest.mark.parametrize(
    "printed, model, status",
    [
        ("35.6", 35.5556, "ok"),
        ("35.5", 35.5556, "rounding"),      # truncated
        ("4.44", 4.4444, "ok"),
        ("11.09", 250 / 21, "erratum"),     # Intel Table 1, 1-byte row: 11.90
        ("2", 2.0, "ok"),
        ("2", 2.6, "rounding"),
        ("2", 3.2, "erratum"),
    ],
)
def test_status_follows_from_the_printed_precision(printed, model, status):
    assert checks.classify(printed, model) == status


def test_a_non_number_cannot_be_a_published_value():
    with pytest.raises(ValueError, match="not a number"):
        checks.printed_tolerance("n/a")


LINE_CODING = checks.collect("line-coding")


def test_line_coding_registers_every_figure_the_issue_lists():
    # Intel §3.1 (2), AN3935 Table 1 (6), RapidIO lanes (4), HyperLink (2), KeyStone PCIe (1)
    assert len(LINE_CODING) >= 15
    by_resource = {}
    for c in LINE_CODING:
        by_resource.setdefault(c.resource, []).append(c)
    assert len(by_resource["an3935-table1"]) == 6
    assert len(by_resource["keystone2-s7-srio-lane-rates"]) == 4
    assert len(by_resource["keystone2-s8-hyperlink-rate"]) == 2


@pytest.mark.parametrize("check", LINE_CODING, ids=lambda c: f"{c.resource}-{c.row}-{c.quantity}")
def test_line_coding_check_status(check):
    expected = "rounding" if (check.resource, check.published) == ("keystone2-s8-hyperlink-rate", "35.5") else "ok"
    assert check.status == expected, check


def test_the_hyperlink_note_names_the_rounded_value():
    (c,) = [c for c in LINE_CODING if c.published == "35.5"]
    assert "35.6" in c.note and "35.5556" in c.note


@pytest.mark.parametrize("chapter", ["no-such-chapter", ""])
def test_an_unknown_chapter_is_an_error(chapter):
    with pytest.raises(KeyError, match="no source checks registered"):
        checks.collect(chapter)


def test_csv_and_json_carry_every_check():
    import csv
    import io
    import json

    rows = list(csv.DictReader(io.StringIO(checks.to_csv(LINE_CODING))))
    assert len(rows) == len(LINE_CODING)
    assert float(rows[0]["model"]) == LINE_CODING[0].model
    assert len(json.loads(checks.to_json(LINE_CODING))) == len(LINE_CODING)


def test_a_checks_formula_must_give_the_model_value_it_carries():
    import sympy as sp

    from goodput.checks import check

    x, y = sp.symbols("x y", positive=True)
    c = check("t", "doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x * y / 10, {x: 2.5, y: 8}))
    assert c.formula == "=2.5*8/10" or c.formula == "=8*2.5/10"
    with pytest.raises(ValueError, match="the formula gives 2.5, the model 2.0"):
        check("t", "doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x, {x: 2.5}))
    with pytest.raises(ValueError, match="no value given for y"):
        check("t", "doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x * y, {x: 1.0}))
