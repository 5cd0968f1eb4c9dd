"""Every chapter's calculated table: the sympy outputs equal goodput's numeric functions, the
calculation column is the formula that gives the value, reads as a person writes it and is the same in
the page, and the inputs keep to their ranges."""

import re

import pytest
import vl_convert as vlc
from calc_points import points
from test_spreadsheet_printer import sheet_eval
from tiers import fast_first

from goodput.core.errors import ParameterError
from goodput.render import calculations, panels, workbook
from goodput.render.calculation import value_text

CHAPTERS = list(calculations.CHAPTERS)


@pytest.fixture(scope="module", params=CHAPTERS)
def calc(request):
    return calculations.get(request.param)


#: The defaults in make test-fast; every other point too in make test (a model compared two ways at every case).
EVERY_POINT = fast_first(["defaults", "low", "high", "third"])


@pytest.mark.parametrize("point", EVERY_POINT)
def test_outputs_equal_goodputs_numeric_functions(calc, point):
    inputs = calc.input_values(**points(calc)[point])
    for case in calc.records():
        numeric = calc.numeric(inputs, case)
        assert set(numeric) == {o.name for o in calc.outputs}
        for name, value in calc.evaluate(inputs, case).items():
            assert value == pytest.approx(numeric[name], rel=1e-9, abs=1e-12), (case, name)


@pytest.mark.parametrize("point", EVERY_POINT)
def test_the_calculation_column_is_the_formula_that_gives_the_value(calc, point):
    inputs = calc.input_values(**points(calc)[point])
    first = calc.outputs[0].name
    if not calc.formula_column:  # formulas too long for a cell: none in the table, the workbook holds them
        assert "calculation" not in calc.table_frame(**points(calc)[point]).columns
        return
    for case in calc.records():
        text = calc.formula_text(inputs, case)
        assert sheet_eval("=" + text, {}) == pytest.approx(calc.evaluate(inputs, case)[first], rel=1e-12), text


#: What a person does not write in a formula of numbers, each with an example of it.
MACHINE_WRITTEN = {
    "a zero term or factor": re.compile(r"(?<![\w.])0(?![\w.])\s*[-+*/]|[-+*/]\s*0(?![\w.])"),  # 8*0 + 4, 4 + 0
    "a factor or divisor 1": re.compile(r"(?<![\w.])1(?:\.0+)?\s*\*|[*/]\s*1(?:\.0+)?(?![\w.])"),  # 1*4, 4/1
    "a sign after a sign": re.compile(r"[-+]\s*[-+]"),  # 4 + -2, 4 - -2
    "a negative number in parentheses": re.compile(r"\(\s*-\s*[\d.]"),  # (-1/4)
    "a whole number written as a float": re.compile(r"(?<![\w.])\d+\.0+(?![\d])"),  # 4.0
}


def test_the_patterns_of_machine_written_formulas_find_what_they_name():
    samples = {"a zero term or factor": ["8*0 + 4", "4 + 0", "(0 + 4)/2"],
               "a factor or divisor 1": ["1*4", "4*1", "4/1", "1.0*8"],
               "a sign after a sign": ["4 + -2", "4 - -2", "4 +-2"],
               "a negative number in parentheses": ["34/8 + (-1/4)", "2*(-3)"],
               "a whole number written as a float": ["4.0*8", "160.0"]}
    fine = ["MAX(0, 1500 - 18)", "10*8/0.5", "0.25*4", "100 - 1", "2*10/21", "1/50", "-4 + 2"]
    for name, pattern in MACHINE_WRITTEN.items():
        assert all(pattern.search(s) for s in samples[name]), name
        assert not any(pattern.search(s) for s in fine), name


@pytest.mark.parametrize("point", EVERY_POINT)
def test_the_calculation_column_reads_as_a_person_writes_it(calc, point):
    if not calc.formula_column:
        return
    inputs = calc.input_values(**points(calc)[point])
    for case in calc.records():
        text = calc.formula_text(inputs, case)
        found = [name for name, pattern in MACHINE_WRITTEN.items() if pattern.search(text)]
        assert not found, f"{calc.chapter}, row {case['row_index']}: {', '.join(found)} in {text}"


def _page_formulas(calc, inputs) -> dict[int, str]:
    """Each row's calculation as the page's Vega dataflow prints it at ``inputs`` (Vega run by vl-convert)."""
    spec = calc.table_spec()["vega"]
    spec = {**spec, "signals": [{**s, "value": inputs.get(s["name"], s["value"])} for s in spec["signals"]],
            "marks": [{"type": "text", "from": {"data": "rows"},
                       "encode": {"enter": {"text": {"signal": "datum.row_index + '|' + datum.cell_calculation"}}}}]}
    texts = {}

    def walk(node):
        for item in node.get("items", []):
            if isinstance(item, dict):
                if "|" in str(item.get("text", "")):
                    row, text = str(item["text"]).split("|", 1)
                    texts[int(row)] = text
                walk(item)

    walk(vlc.vega_to_scenegraph(spec)["scenegraph"])
    return texts


@pytest.mark.slow
@pytest.mark.parametrize("point", ["defaults", "low", "high", "third"])
def test_the_page_prints_the_calculation_python_prints(calc, point):
    if not calc.formula_column:
        return
    inputs = calc.input_values(**points(calc)[point])
    page = _page_formulas(calc, inputs)
    assert len(page) == len(calc.cases)
    for case in calc.records():
        assert page[case["row_index"]] == calc.formula_text(inputs, case)


def test_the_python_table_prints_the_rows_and_values(calc):
    frame = calc.table_frame()
    assert len(frame) == len(calc.cases)
    inputs = calc.defaults()
    o = calc.shown_outputs()[0]
    for case, shown in zip(calc.records(), frame[o.heading]):
        assert shown == value_text(calc.numeric(inputs, case)[o.name], o.digits)


def test_inputs_outside_their_sliders_are_refused(calc):
    s = calc.inputs[0]
    low, high = s.bounds()
    with pytest.raises(ParameterError):
        calc.input_values(**{s.name: high + (s.step or s.parameter.step)})
    with pytest.raises(ValueError, match="has no input"):
        calc.input_values(no_such_input=1)


def test_the_input_block_names_each_input_with_unit_and_range(calc):
    frame = calc.inputs_frame()
    assert list(frame["input"]) == [s.name for s in calc.inputs]
    for s, allowed in zip(calc.inputs, frame["allowed"]):
        if s.options():  # a set of values (lanes), as the workbook's validation takes them
            assert allowed.startswith("one of ") and [float(v) for v in allowed[7:].split(", ")] == list(s.options())
        else:
            assert " to " in allowed, s.name


def test_the_page_figure_carries_its_controls_the_chart_and_the_table(calc):
    live = calc.live()
    figure = calc.view(live, live.base.mark_point(), title="a figure")
    spec = figure.chart.to_dict()
    names = [p["name"] for p in spec["params"]]
    assert len(names) == len(set(names)) and {s.name for s in calc.inputs} <= set(names)
    assert spec["width"] == "container"
    described = figure.spec()
    # and the reader's list of links where the table answers over it (the composer that draws it is elsewhere)
    composed = [calc.composed.name] if calc.composed is not None else []
    assert [c["key"] for c in described["controls"]] == [c.name for c in (*calc.inputs, *calc.choices)] + composed
    assert all(c["shown"] is False for c in described["controls"] if c["key"] in composed)
    table = described["table"]
    assert [c["key"] for c in table["columns"]] == ([f"cell_{c}" for c in calc.shown]
                                                    + [f"cell_{o.name}" for o in calc.shown_outputs()]
                                                    + ["cell_calculation"] * calc.formula_column)
    formulas = {t["as"]: t["expr"] for t in table["vega"]["data"][0]["transform"] if t["type"] == "formula"}
    assert {o.name: formulas[o.name] for o in calc.outputs} == {o: e for o, e in live.expressions.items()
                                                                 if o in formulas}
    html = figure._repr_html_()
    assert html.count('class="goodput-live-spec"') == 1 and f'id="{calc.figure_id()}"' in html


def test_the_your_link_box_links_down_to_the_figure(calc):
    box = calc.your_link()
    html = box._repr_html_()
    assert f'href="#{calc.figure_id()}"' in html and "goodput-yours-spec" in html
    case = calc.records()[box.spec()["case"]]
    assert all(case[k] == v for k, v in calc.headline.items())


def test_a_headline_that_is_no_case_is_refused():
    from dataclasses import replace

    calc = calculations.get("tcp-goodput")
    assert calc.records()[calc.headline_case()]["message_bytes"] == 8192
    with pytest.raises(ValueError, match="no case has"):
        replace(calc, headline={"message_bytes": 3})


def test_value_text_cuts_trailing_zeros_as_d3_does():
    assert value_text(2.0, 4) == "2"
    assert value_text(2.22225, 3) == "2.222"
    assert value_text(94595.84, 1) == "94595.8"
    assert value_text(-0.0001, 2) == "0"


def test_the_panel_recomputes_the_table_when_a_slider_moves():
    calc = calculations.get("spi")
    panel = panels.calculation_panel(calc)
    sliders = {w.description: w for w in panel.children if hasattr(w, "min")}
    table = panel.children[-1]
    clock = sliders[next(s for s in calc.inputs if s.name == "clock_mhz").parameter.label]
    assert calc.formula_text(calc.defaults(), calc.records()[0]) in table.value
    clock.value = 20
    inputs = calc.input_values(clock_mhz=20)
    assert calc.formula_text(inputs, calc.records()[0]) in table.value
    assert value_text(calc.numeric(inputs, calc.records()[0])["model_us"], 3) in table.value


def test_a_panel_offers_a_parameters_options_and_recomputes_on_one():
    calc = calculations.get("pcie-packets")
    panel = panels.calculation_panel(calc)
    lanes = next(w for w in panel.children if getattr(w, "description", "") == "lanes")
    assert [v for _, v in lanes.options] == [1, 2, 4, 8, 16, 32] and lanes.value == 4
    lanes.value = 16
    inputs = calc.input_values(lanes=16)
    assert calc.formula_text(inputs, calc.records()[0]) in panel.children[-1].value


def test_the_panel_exports_the_workbook_at_its_values(tmp_path, monkeypatch):
    import ipywidgets as widgets
    import openpyxl

    monkeypatch.setattr(workbook, "yours", lambda chapter: tmp_path / f"{chapter}.xlsx")
    calc = calculations.get("spi")
    panel = panels.calculation_panel(calc)
    assert "Export the workbook" in panel.children[0].value
    sliders = {w.description: w for w in panel.children if hasattr(w, "min")}
    sliders[next(s for s in calc.inputs if s.name == "clock_mhz").parameter.label].value = 20
    button = next(w for row in panel.children if isinstance(row, widgets.HBox) for w in row.children
                  if isinstance(w, widgets.Button))
    button.click()
    book = openpyxl.load_workbook(tmp_path / "spi.xlsx", data_only=True)
    inputs = {r[0].value: r[1].value for r in book["Inputs"].iter_rows(min_row=workbook.HEADER_ROW + 2)}
    assert inputs == {"transfer_bytes": 400, "clock_mhz": 20, "gap_ns": 160, "spaced": 1, "setup_us": 0}
    # the first case as stored: 400 words of 8 bits at 20 MHz with a 160 ns gap and a bit time between words
    first = [c.value for c in book["Model"][workbook.HEADER_ROW + 2]]
    assert 400 * 8 / 20 + (160 / 1000 + 1 / 20) * 399 in [pytest.approx(v) for v in first if isinstance(v, float)]


#: Parameters of a chapter's model registries that its box does not take, each with the reason.
NOT_IN_THE_BOX = {
    ("spi", "words"): "the box takes the transfer's bytes; with the word width they give the words",
    ("pcie-reads", "ack_group"): "the tutorial's reads wait for no DLLP: its read model counts none",
    ("pcie-reads", "skp"): "the read model counts no SKP ordered set (the serial reads' PLPs are the examples')",
}


def _model_parameters(chapter: str) -> dict:
    """The parameters a chapter's models take: its model modules' PARAMETERS, and PCI Express's link settings
    (goodput.render.chapters.pcie_packets.SLIDERS) for the chapters that model a PCI Express link of the reader's."""
    from goodput.core import chapters
    from goodput.render.chapters import pcie_packets

    found = {}
    for m in chapters.get(chapter).model_modules():
        found.update(getattr(m, "PARAMETERS", {}))
    if chapter in ("pcie-packets", "pcie-reads"):
        found.update(pcie_packets.SLIDERS)
    return found


# the quick loop checks the chapter whose box takes the most (pcie-reads: its link's and its reads' settings)
@pytest.mark.parametrize("chapter", fast_first(sorted(CHAPTERS, key=lambda c: c != "pcie-reads")))
def test_every_box_takes_every_parameter_its_model_takes(chapter):
    # a model that gains a parameter its chapter's box lacks fails here until the box takes it (an input, or
    # a case column such as the transfer size) or NOT_IN_THE_BOX says why not
    calc = calculations.get(chapter)
    controls = [s for s in calc.box_controls() if hasattr(s, "parameter")]
    taken = {s.parameter.symbol for s in controls} | set(calc.fields)
    named = {s.name for s in controls} | set(calc.fields.values())  # a case column of the parameter's name
    missing = {name for name, p in _model_parameters(chapter).items() if p.symbol not in taken and name not in named}
    assert missing == {name for c, name in NOT_IN_THE_BOX if c == chapter}, missing
