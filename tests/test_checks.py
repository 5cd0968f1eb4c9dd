import dataclasses
import json
from dataclasses import replace

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
    c = check("doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x * y / 10, {x: 2.5, y: 8}))
    assert c.formula == "=2.5*8/10" or c.formula == "=8*2.5/10"
    with pytest.raises(ValueError, match="the formula gives 2.5, the model 2.0"):
        check("doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x, {x: 2.5}))
    with pytest.raises(ValueError, match="no value given for y"):
        check("doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x * y, {x: 1.0}))


def test_a_checks_formula_printed_when_read_is_the_same_in_a_copy_a_pickle_and_a_table():
    import copy
    import pickle

    import sympy as sp

    from goodput.checks import check

    x, y = sp.symbols("x y", positive=True)
    made = lambda: check("doc", "Table 1", "row", "rate", "Gbit/s", "2", 2.0, formula=(x * y / 10, {x: 2.5, y: 8}))
    text = made().formula
    assert text in ("=2.5*8/10", "=8*2.5/10")
    assert made() == made() and hash(made()) == hash(made())
    for kept in (copy.copy(made()), pickle.loads(pickle.dumps(made())), dataclasses.replace(made(), note="n")):
        assert object.__getattribute__(kept, "formula") == text  # the text itself, nothing left to print
    assert checks.to_frame([made()])["formula"].tolist() == [text]
    assert json.loads(checks.to_json([made()]))[0]["formula"] == text


# --- the verdict: what kind of agreement or disagreement ------------------------------------------

RULE = checks.Convention("counts per 4 TLPs of any kind", 13.4737)


@pytest.mark.parametrize(
    "printed, model, how, status",
    [
        ("13.47", 13.6533, {}, "erratum"),
        ("13.47", 13.6533, {"convention": RULE}, "convention"),           # the other rule gives 13.47
        ("13.60", 13.6533, {"convention": RULE}, "erratum"),              # nor does the other rule give 13.60
        ("13.65", 13.6533, {"convention": RULE}, "ok"),                   # the model first
        ("29552", 29428.9, {}, "erratum"),
        ("29552", 29428.9, {"otherwise": "unexplained"}, "unexplained"),
        ("29552", 29428.9, {"spread": checks.Spread(150, "runs a, b")}, "spread"),
        ("29552", 29428.9, {"spread": checks.Spread(100, "runs a, b")}, "erratum"),   # 123 cycles is more
        ("20", 22.15, {}, "erratum"),
        ("20", 22.15, {"approximate": 10}, "rounding"),                 # 'around 20': to the nearest 10
        ("20", 26.0, {"approximate": 10}, "erratum"),
        ("1", 0.0, {}, "rounding"),
        ("1", 0.0, {"exact": True}, "erratum"),                          # a count has no rounding
        ("124", 120.0, {"exact": True}, "erratum"),
        # a ceiling: measured at most the model's value, by up to half a unit of the printed digit
        ("14.09", 14.63, {"relation": "<="}, "ok"),
        ("14.6", 14.58, {"relation": "<="}, "ok"),                       # rounded up to the printed digit
        ("14.70", 14.63, {"relation": "<="}, "erratum"),                # above what the link can carry
        ("14.70", 14.63, {"relation": "<=", "spread": checks.Spread(0.1, "runs")}, "spread"),
        # a floor: a time at least what its clock allows
        ("64.0", 64.0, {"relation": ">="}, "ok"),
        ("63.9", 64.0, {"relation": ">="}, "erratum"),
    ],
)
def test_the_verdict_names_the_kind_of_disagreement(printed, model, how, status):
    assert checks.verdict(printed, model, **how) == status


@pytest.mark.parametrize("how, message", [
    ({"relation": "<"}, "relation '<' is none of"),
    ({"otherwise": "spread"}, "one of erratum, unexplained"),
])
def test_a_verdict_refuses_what_it_does_not_know(how, message):
    with pytest.raises(ValueError, match=message):
        checks.verdict("1", 1.0, **how)


@pytest.mark.parametrize("amount, evidence, message", [
    (-1, "runs", "finite amount >= 0"), (float("nan"), "runs", "finite amount"), (1, " ", "names the measurements")])
def test_a_spread_has_an_amount_and_its_evidence(amount, evidence, message):
    with pytest.raises(ValueError, match=message):
        checks.Spread(amount, evidence)


def test_a_check_says_what_explains_it_and_refuses_an_unknown_kind():
    c = checks.check("AN3935", "Table 12", "1 K", "calculated", "Gbit/s", "13.47", 13.6533,
                     convention=checks.Convention("Counts per 4 TLPs of any kind ({model:.2f} by Table 4)", 13.4737))
    assert c.status == "convention"
    assert c.note == "Counts per 4 TLPs of any kind (13.65 by Table 4), which gives 13.47."
    s = checks.check("AM243x", "XIP", "FIR", "cycles", "cycles", "29552", 29428.9,
                     kind="consistency", spread=checks.Spread(150, "two runs of the same row differ by {published}"))
    assert (s.status, s.kind) == ("spread", "consistency")
    assert s.note == "Within the run-to-run spread of 150 cycles: two runs of the same row differ by 29552."
    with pytest.raises(ValueError, match="kind 'measured' is none of"):
        checks.check("x", "y", "z", "q", "u", "1", 1.0, kind="measured")


def test_a_bound_and_its_kind_reach_the_anchor_and_the_table():
    from goodput.render import tables

    ceiling = checks.check("AN3935", "Table 7", "1 K, x4", "measured", "Gbit/s", "14.70",
                           14.63, kind="ceiling", relation="<=", resource="an3935-table7")
    same_cell = replace(ceiling, kind="calculated", relation="=")
    assert ceiling.status == "erratum"
    assert checks.anchor(ceiling) == "check-an3935-table7-1-k-x4-measured-gbit-s-ceiling"
    assert checks.anchor(same_cell) == "check-an3935-table7-1-k-x4-measured-gbit-s"
    assert tables.bound_text(ceiling) == "at most 14.63"
    assert tables.bound_text(replace(ceiling, relation=">=")) == "at least 14.63"


def test_an_exact_value_one_off_is_off_however_large():
    assert checks.verdict("1072902964", 1072902963.0, exact=True) == "erratum"
    assert checks.verdict("0xDADBAE34", 0xDADBAE33, exact=True) == "erratum"
    assert checks.verdict("1072902963", 1072902963.0, exact=True) == "ok"
    assert checks.verdict("0x0684c516", 0x0684C516, exact=True) == "ok"


def test_a_checks_off_note_replaces_its_note_only_when_it_disagrees():
    def made(printed):
        return checks.check("AN3935", "Table 1", "8 bytes", "bandwidth", "Gbit/s", printed, 2.91,
                            "Agrees: {model:g}.", off_note="The model gives {model:g}, not {published}.")
    assert made("2.91").note == "Agrees: 2.91."
    assert made("3.91").status == "erratum" and made("3.91").note == "The model gives 2.91, not 3.91."


@pytest.mark.slow
def test_a_chapters_providers_run_in_one_order_whichever_document_was_imported_first():
    import subprocess
    import sys

    # pcie-measured's checks come from two documents' modules: a test that imported one first once made them come
    # out in another order, and the kept checks differed from the ones made afresh
    def providers_after_importing(first: str) -> str:
        code = (f"import goodput.{first}\nfrom goodput import checks\n"
                "checks.collect()\n"
                "print([(ch, [(f.__module__, f.__qualname__) for f in fs]) for ch, fs in sorted(checks._providers.items())])")
        there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert there.returncode == 0, there.stderr
        return there.stdout

    assert (providers_after_importing("sources.intel_324611.measured")
            == providers_after_importing("sources.an3935.measured"))
