"""Every chapter's workbook, recalculated by a real spreadsheet engine (LibreOffice Calc, headless).

The workbooks are exported with ``goodput export xlsx``; LibreOffice opens each one,
the inputs are set to several points, Calc recalculates, and every Model cell must
equal goodput's numeric function there. Calc's own validity check must refuse each
input just outside its range, and a value between two of a set's (3 lanes); the stored values must be
what goodput computed.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from calc_points import points

from goodput import checks
from goodput.cli import main
from goodput.render import calculations
from goodput.render.workbook import HEADER_ROW, SHEETS

pytestmark = pytest.mark.slow

CHAPTERS = list(calculations.CHAPTERS)
UNO_PYTHON = "/usr/bin/python3"
DRIVER = Path(__file__).with_name("libreoffice_recalc.py")


def _chapter_checks(chapter):
    try:
        return checks.collect(chapter)
    except KeyError:
        return []


def _refused(slider):
    """Values the input's parameter refuses: just outside the slider's range, and where the parameter is a
    set of values (lanes, MPS), the first whole number between two of them (3 lanes)."""
    low, high = slider.bounds()
    step = slider.step or slider.parameter.step
    options = [v for v in slider.parameter.values() if low <= v <= high]
    between = [v + 1 for v in options if v + 1 not in options and v + 1 < high]
    return [low - step, high + step, *between[:1]]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("workbooks")
    assert main(["export", "xlsx", "--all", "-o", str(out)]) == 0
    return {c: out / f"{c}.xlsx" for c in CHAPTERS}


@pytest.fixture(scope="module")
def recalculated(exported):
    if not shutil.which("soffice"):
        pytest.fail("LibreOffice is missing: `make test` installs Debian's libreoffice-calc-nogui and python3-uno")
    job = {"workbooks": []}
    for chapter, path in exported.items():
        calc = calculations.get(chapter)
        job["workbooks"].append({
            "path": str(path), "points": list(points(calc).values()),
            "invalid": [{s.name: v} for s in calc.inputs for v in _refused(s)]})
    run = subprocess.run([UNO_PYTHON, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    return {c: wb for c, wb in zip(exported, json.loads(run.stdout)["workbooks"])}


def _table(cells):
    """Rows under the header row, as dicts by header."""
    header = cells[HEADER_ROW]
    return [dict(zip(header, row)) for row in cells[HEADER_ROW + 1:] if any(v != "" for v in row)]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_calc_recalculates_every_model_cell_to_goodputs_value(recalculated, chapter):
    calc = calculations.get(chapter)
    wb = recalculated[chapter]
    assert wb["sheets"] == list(SHEETS)
    changed = 0
    at_defaults = None
    for point, sheets in zip(points(calc).values(), wb["points"]):
        rows = _table(sheets["Model"])
        assert len(rows) == len(calc.cases)
        inputs = calc.input_values(**point)
        values = []
        for case, row in zip(calc.records(), rows):
            numeric = calc.numeric(inputs, case)
            for o in calc.outputs:
                head = o.heading
                expected = o.text(numeric[o.name]) if o.labels else pytest.approx(numeric[o.name], rel=1e-9, abs=1e-12)
                assert row[head] == expected, (point, case, o.name)
                values.append(row[head])
        if at_defaults is None:
            at_defaults = values
        else:
            changed += values != at_defaults
    assert changed >= 1, "no input point changed any value: Calc showed stored numbers, not formulas"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_calc_recalculates_each_source_checks_status_as_goodput_classifies_it(recalculated, chapter):
    found = _chapter_checks(chapter)
    rows = _table(recalculated[chapter]["points"][0]["Source checks"])
    if not found:
        assert "No source document" in rows[0]["document"]
        return
    assert len(rows) == len(found)
    for c, row in zip(found, rows):
        assert (row["published"], row["goodput"]) == (checks.printed_value(c.published), pytest.approx(c.model))
        assert row["status"] == c.status, c


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_calc_refuses_an_input_outside_its_range_or_between_its_values(recalculated, chapter):
    marks = recalculated[chapter]["invalid"]
    calc = calculations.get(chapter)
    assert [m["input"] for m in marks] == [s.name for s in calc.inputs for _ in _refused(s)]
    for m in marks:
        assert m["clean_before"], f"{m['input']} was invalid already at its starting value"
        assert m["marked"], f"Calc took {m['input']} = {m['value']}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_formulas_are_stored_with_goodputs_values(exported, chapter):
    calc = calculations.get(chapter)
    formulas = openpyxl.load_workbook(exported[chapter])
    stored = openpyxl.load_workbook(exported[chapter], data_only=True)
    assert formulas.sheetnames == list(SHEETS)
    inputs = calc.defaults()
    for s in calc.inputs:
        sheet, cell = next(iter(formulas.defined_names[s.name].destinations))
        assert sheet == "Inputs" and formulas[sheet][cell].value == inputs[s.name]
    first_out = formulas["Model"].max_column - len(calc.outputs) + 1
    for i, case in enumerate(calc.records()):
        r = HEADER_ROW + 2 + i
        for k, o in enumerate(calc.outputs):
            assert str(formulas["Model"].cell(r, first_out + k).value).startswith("=")
            value = calc.numeric(inputs, case)[o.name]
            assert stored["Model"].cell(r, first_out + k).value == (o.text(value) if o.labels else pytest.approx(value))
    for i, c in enumerate(_chapter_checks(chapter)):
        r = HEADER_ROW + 2 + i
        assert stored["Source checks"].cell(r, 10).value == c.status
        assert stored["Source checks"].cell(r, 7).value == pytest.approx(c.model)
        assert formulas["Source checks"].cell(r, 7).value == (c.formula or pytest.approx(c.model, rel=1e-15))


# Chapters with checks that come straight from model expressions carry their formulas into the workbook.
FORMULA_CHAPTERS = [c for c in CHAPTERS if any(check.formula for check in _chapter_checks(c))]


@pytest.mark.parametrize("chapter", FORMULA_CHAPTERS)
def test_checks_from_model_expressions_are_recalculated_from_their_formulas(recalculated, chapter):
    found = _chapter_checks(chapter)
    rows = _table(recalculated[chapter]["points"][-1]["Source checks"])
    with_formula = [(c, row) for c, row in zip(found, rows) if c.formula]
    assert with_formula, f"{chapter}: no check carries its formula"
    for c, row in with_formula:
        assert row["formula"] == c.formula[1:]
        assert row["goodput"] == pytest.approx(c.model, rel=1e-9), c


def test_export_writes_one_chapter_and_refuses_what_it_cannot(tmp_path, capsys):
    target = tmp_path / "lc.xlsx"
    assert main(["export", "xlsx", "line-coding", "-o", str(target)]) == 0
    assert target.stat().st_size > 0 and str(target) in capsys.readouterr().out
    for argv, message in ((["export", "xlsx", "code-size"], "has no model to export"),
                          (["export", "xlsx"], "name one chapter or give --all"),
                          (["export", "xlsx", "--all"], "--all needs -o"),
                          (["export", "xlsx", "spi", "-o", str(tmp_path / "spi.csv")], "written as .xlsx")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert message in capsys.readouterr().err


def test_the_command_line_entry_point_exports(tmp_path):
    run = subprocess.run([sys.executable, "-m", "goodput", "export", "xlsx", "spi", "-o", str(tmp_path / "s.xlsx")],
                         capture_output=True, text=True)
    assert run.returncode == 0 and (tmp_path / "s.xlsx").exists(), run.stderr
