"""The live figures in the built book, operated as a reader does, at 1366 px and at 390 px.

Every chapter with a model: every control is inside the viewport when scrolled to and not covered;
no figure, table or equation is wider than the text column; each control operates through its own
element (click, typed number, select, arrow keys) and afterwards the chart, the calculated table and
the "your link" box all equal goodput's numeric functions; the address carries the state and a link
restores it; a value typed outside the range is refused with a message. The checks of a whole page are
functions here (controls_in_view, controls_operate_as_the_model); tests/test_page_tour_browser.py runs them
on each chapter it opens.
"""

from __future__ import annotations

import pytest
from browser import (
    WIDTHS,
    control,
    errors,
    live_ready,
    opened,
    operate,
    rows,
    settle,
    signal,
    state,
    table_cells,
    view_index,
)
from calc_points import points
from test_answers import same_answer
from test_spreadsheet_printer import sheet_eval

from goodput.core.spreadsheet import number_text
from goodput.models import pcie
from goodput.render import calculations
from goodput.render.box_command import command_text
from goodput.render.chapters import pcie_packets as pcie_charts

pytestmark = pytest.mark.book


# What is wider than the text column: a figure, a table, a chart or an equation (that scrolls sideways).
WIDE = """
() => {
  const column = document.querySelector('article.bd-article').getBoundingClientRect();
  const name = el => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` +
      (el.textContent ? ` "${el.textContent.trim().slice(0, 30)}"` : '');
  const problems = [];
  const wide = document.querySelectorAll(
    '.goodput-live, .goodput-yours, .goodput-live svg, .goodput-live canvas, table.goodput-calc-table, ' +
    'article table, .katex-display');
  for (const el of wide) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < column.left - 1 || r.right > column.right + 1) problems.push(`wider than the column: ${name(el)} (${Math.round(r.width)} px)`);
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) problems.push(`scrolls sideways: ${name(el)}`);
  }
  for (const el of document.querySelectorAll('.goodput-live *, .goodput-yours *')) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') problems.push(`scrolls sideways: ${name(el)}`);
  }
  return problems;
}
"""

# Every problem a reader would see: a control out of view or covered, an element wider than the column.
LAYOUT = """
() => {
  const WIDE = """ + WIDE + """;
  const column = document.querySelector('article.bd-article').getBoundingClientRect();
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const name = el => el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` +
      (el.closest('[data-key]') ? `[${el.closest('[data-key]').dataset.key}]` : '') +
      (el.textContent ? ` "${el.textContent.trim().slice(0, 30)}"` : '') : 'nothing';
  const problems = [];
  const controls = document.querySelectorAll(
    '.goodput-control button, .goodput-control input, .goodput-control select, .goodput-copy-link, .goodput-copy-command, .goodput-yours select');
  for (const el of controls) {
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { problems.push(`hidden: ${name(el)}`); continue; }
    if (r.left < -0.5 || r.right > vw + 0.5 || r.top < -0.5 || r.bottom > vh + 0.5) problems.push(`out of view: ${name(el)}`);
    if (r.left < column.left - 1 || r.right > column.right + 1) problems.push(`outside the column: ${name(el)}`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const label = el.closest('label');
    if (!(hit === el || el.contains(hit) || (label && label.contains(hit)))) problems.push(`covered: ${name(el)} by ${name(hit)}`);
  }
  window.scrollTo(0, 0);
  return problems.concat(WIDE());
}
"""


# The pages without a model's live figure get WIDE, the chapters with one LAYOUT (which includes it), in
# tests/test_page_tour_browser.py.


def _figure_view(page, figure_id):
    """Index in window.__views of the chart inside the element ``figure_id``."""
    return page.evaluate("""(id) => window.__views.findLastIndex(v =>
      document.getElementById(id).contains(v.container()))""", figure_id)


def _inputs(page, calc):
    values = state(page)
    return {s.name: values[calc.prefix + s.name] for s in calc.inputs}


def _row_key(row):
    """A table row's case as the page names it: a case's number, or "your-1"... for a link of the reader's list."""
    return row if str(row).startswith("your-") else int(row)


def _cases(page, calc) -> dict:
    """The table's cases by :func:`_row_key`: the calculation's, and the reader's links where it answers over them."""
    cases = dict(enumerate(calc.records()))
    if calc.composed is not None:  # the reader's links, rows "your-1", "your-2"... before the cases
        from goodput.render.chapters import choose_a_link
        cases.update({c["row_index"]: c for c in choose_a_link.listed_cases(state(page)[calc.composed.name])})
    return cases


def _check_against_the_model(page, calc):
    """The figure's chart, its table and the "your link" box, each against ``calc.numeric``."""
    inputs = _inputs(page, calc)
    assert calc.input_values(**inputs) == inputs
    cases = _cases(page, calc)
    cells = table_cells(page, calc.name)
    assert cells, f"no calculated table {calc.name}"
    for row, shown in cells.items():
        case = cases[_row_key(row)]
        want = calc.numeric(inputs, case)
        assert shown.get("calculation") == (calc.formula_text(inputs, case) if calc.formula_column else None)
        for c in calc.shown:
            assert shown[c] == (case[c] if isinstance(case[c], str) else number_text(case[c]))
        for o in calc.shown_outputs():
            assert _shown(shown[o.name], o) == _wanted(want[o.name], o)
    view = _figure_view(page, calc.figure_id())
    assert view >= 0, "no chart in the figure"
    for s in calc.inputs:
        assert signal(page, view, s.name) == inputs[s.name]
    first = calc.shown_outputs()[0].name
    chart = [r for r in rows(page, view, first) if "row_index" in r]
    assert {r["row_index"] for r in chart} >= {_row_key(r) for r in cells}
    for r in chart:
        assert r[first] == pytest.approx(calc.numeric(inputs, cases[r["row_index"]])[first], rel=1e-12, abs=1e-12)
    if calc.prefix == "":
        box = page.evaluate("""() => { const box = document.querySelector('.goodput-yours');
          return {row: box.dataset.row, command: box.dataset.command,
            shown: (box.querySelector('.goodput-yours-command code') || {}).textContent,
            values: Object.fromEntries([...box.querySelectorAll('dd')].map(
            d => [d.dataset.column, (d.querySelector('code, strong') || d).textContent]))}; }""")
        case = cases[_row_key(box["row"])]
        if calc.command is not None:  # Copy as command: the command line Python writes for the box's values
            listed = state(page).get(calc.composed.name) if calc.composed is not None else None
            assert box["command"] == box["shown"] == command_text(calc.command_argv(inputs, case, listed))
        want = calc.numeric(inputs, case)
        for o in calc.shown_outputs():
            assert _shown(box["values"][o.name], o) == _wanted(want[o.name], o)
        assert box["values"].get("calculation") == (calc.formula_text(inputs, case) if calc.formula_column else None)


def box_answers_equal_the_model(page, calc):
    """The box's answers in the reader's terms (its case, the bytes to move and the unit in the page's state)
    are :meth:`Calculation.answer_texts`."""
    if calc.answers is None:
        return
    values = state(page)
    box = page.evaluate("""() => { const box = document.querySelector('.goodput-yours');
      return {row: box.dataset.row, answers: Object.fromEntries([...box.querySelectorAll('.goodput-yours-answers dd')]
        .map(d => [d.dataset.column, d.textContent]))}; }""")
    want = calc.answer_texts(_inputs(page, calc), _cases(page, calc)[_row_key(box["row"])], values["move_bytes"],
                             values["unit"])
    assert box["answers"].keys() == want.keys()
    for name, text in want.items():
        assert same_answer(box["answers"][name], text), (name, box["answers"][name], text)


def _shown(text: str, o):
    """A table cell as the page shows it: a label as is, a number as a float."""
    return text if o.labels else float(text.replace("\u2212", "-"))  # d3's format writes a minus sign, not a hyphen


def _wanted(value: float, o):
    """What a cell of output ``o`` should show for goodput's ``value``."""
    # half a unit of the last digit shown, and a hair more: a value on a tie (2343.75 to one decimal) rounds either way
    return o.text(value) if o.labels else pytest.approx(value, abs=0.5 * 10 ** -o.digits * (1 + 1e-9), rel=1e-12)


def _another(calc, item, current):
    """A value for ``item`` other than ``current``: a third of the way up its range, or its low end."""
    if hasattr(item, "options") and not hasattr(item, "parameter"):  # a Choice
        return next(o for o in item.options if o != current)
    for point in ("third", "high", "low"):
        value = points(calc)[point][item.name]
        if value != current:
            return value
    raise AssertionError(f"{item.name} has one value")


def controls_in_view(page, log):
    """Every control in view when scrolled to and uncovered, nothing wider than the column (:data:`LAYOUT`).
    Run by tests/test_page_tour_browser.py on every chapter with a model, as the page loads."""
    assert page.locator(".goodput-yours .goodput-control").count() >= 1, "no controls in the your-link box"
    assert page.locator(".goodput-live .goodput-control").count() >= 1
    assert page.evaluate(LAYOUT) == []
    assert errors(log) == []


def controls_operate_as_the_model(page, log, calc, also=None):
    """Each control of the figure, operated as a reader does: afterwards the chart, the calculated table and the
    box equal the model (and ``also(page, calc, key)`` holds, if given). Run by tests/test_page_tour_browser.py
    on every chapter with a model."""
    _check_against_the_model(page, calc)
    figure = f"#{calc.figure_id()}"
    for item in (*calc.inputs, *calc.choices):
        key = calc.prefix + item.name
        value = _another(calc, item, state(page)[key])
        operate(page, key, value, scope=figure)
        assert state(page)[key] == value, item.name
        _check_against_the_model(page, calc)
        if also is not None:
            also(page, calc, key)
    assert errors(log) == []


def arrow_keys_move_a_slider_and_segmented_buttons(page, log):
    live_ready(page, 2)
    figure = "#" + calculations.get("pcie-packets").figure_id()
    lanes = control(page, "lanes", figure)
    lanes.locator("button[aria-checked=true]").focus()
    page.keyboard.press("ArrowRight")
    settle(page)
    assert state(page)["lanes"] == 8
    ack = control(page, "ack_group", figure).locator("input[type=range]")
    ack.focus()
    page.keyboard.press("ArrowRight")
    settle(page)
    assert state(page)["ack_group"] == 5
    box = control(page, "ack_group", figure).locator("input.goodput-number")
    assert box.input_value() == "5"
    box.focus()
    page.keyboard.press("ArrowUp")
    settle(page)
    assert state(page)["ack_group"] == 6
    _check_against_the_model(page, calculations.get("pcie-packets"))


def bytes_are_typed_with_their_unit(page, log):
    """A count of bytes takes a unit after the number, as a reader writes it (the box's bytes to move): decimal and
    binary prefixes; a unit no count of bytes has is refused with the control's words, and nothing changes."""
    live_ready(page)
    move = control(page, "move_bytes", ".goodput-yours")
    box = move.locator("input.goodput-number")
    for text, want in (("64 MiB", 64 * 2 ** 20), ("1 GB", 10 ** 9), ("1.5KiB", 1536), ("512 bytes", 512),
                       ("2 TiB", None), ("3 XB", None), ("64 Mi", None)):
        before = state(page)["move_bytes"]
        box.fill(text)
        box.press("Enter")
        settle(page)
        if want is None:  # 2 TiB is beyond the 1 TiB the control takes; the others are no count of bytes
            assert state(page)["move_bytes"] == before, text
            assert f"bytes to move: {text} is not allowed; an integer from 1 to" in move.locator(".goodput-error").inner_text()
        else:
            assert state(page)["move_bytes"] == want, text
            assert move.locator(".goodput-error").inner_text() == ""
    assert errors(log) == []


def a_typed_value_outside_the_range_is_refused_with_a_message(page, log):
    live_ready(page)
    figure = "#" + calculations.get("tcp-goodput").figure_id()
    before = state(page)
    mtu = control(page, "mtu_bytes", figure)
    for text in ("100", "9001", "1500.5", "abc", ""):
        box = mtu.locator("input.goodput-number")
        box.fill(text)
        box.press("Enter")
        settle(page)
        assert state(page) == before, text
        assert box.get_attribute("aria-invalid") == "true"
        message = mtu.locator(".goodput-error").text_content()
        assert "is not allowed" in message and "576 to 9000" in message, message
    operate(page, "mtu_bytes", 9000, scope=figure)
    assert mtu.locator(".goodput-error").text_content() == ""
    assert state(page)["mtu_bytes"] == 9000


def test_the_address_carries_the_state_and_a_link_restores_it(browser, book_url):
    calc = calculations.get("pcie-packets")
    moves = {"lanes": 16, "mps": 512, "ecrc": 1, "ack_group": 8, "generation": 3}
    with opened(browser, book_url + "notebooks/pcie-packets.html") as (page, log):
        live_ready(page, 2)
        for key, value in moves.items():
            operate(page, key, value, scope=".goodput-yours", address=True)
        url = page.url
        for key, value in moves.items():
            assert f"{key}={value}" in url
        cells = table_cells(page, calc.name)
    with opened(browser, url, viewport=WIDTHS["390px"]) as (page, log):
        live_ready(page, 2)
        assert {k: state(page)[k] for k in moves} == moves
        assert table_cells(page, calc.name) == cells
        _check_against_the_model(page, calc)
        for key, value in moves.items():
            for c in page.locator(f'.goodput-control[data-key="{key}"]').all():
                pressed = c.locator('button[aria-checked="true"]')
                if pressed.count():
                    assert pressed.get_attribute("data-value") == str(value)
        assert errors(log) == []


def test_an_address_with_values_out_of_range_falls_back_to_the_defaults(browser, book_url):
    with opened(browser, book_url + "notebooks/pcie-packets.html?lanes=3&mps=abc&ack_group=8") as (page, log):
        live_ready(page, 2)
        values = state(page)
        assert values["lanes"] == 4 and values["mps"] == 256 and values["ack_group"] == 8
        assert errors(log) == []


def figures_on_a_page_share_one_state_and_the_breakdown_follows_the_model(page, log):
    live_ready(page, 2)
    operate(page, "generation", 1, scope=".goodput-yours")
    operate(page, "skp", 1)
    operate(page, "size_bytes", 4096)
    operate(page, "mps", 128)
    breakdown = view_index(page, "size_bytes")  # the breakdown alone has a transfer size control
    explore = _figure_view(page, calculations.get("pcie-packets").figure_id())
    assert signal(page, explore, "generation") == 1 and signal(page, breakdown, "generation") == 1
    assert signal(page, explore, "mps") == 128 and signal(page, breakdown, "mps") == 128
    link, size = pcie_charts.slider_values_to_link(state(page))
    assert size == 4096 and link.skp == "min"
    want = pcie.evaluate("write", link, size)["bytes"]
    shown = rows(page, breakdown, "skp_bytes")
    assert shown and all(r["skp_bytes"] > 0 for r in shown)
    for r in shown:
        for part, value in want.items():
            assert r[f"{part}_bytes"] == pytest.approx(value, rel=1e-12), part
    assert errors(log) == []


def test_copy_formula_copies_the_rows_calculation_as_a_spreadsheet_formula(browser, book_url):
    calc = calculations.get("line-coding")
    with opened(browser, book_url + "notebooks/line-coding.html",
                permissions=("clipboard-read", "clipboard-write")) as (page, log):
        live_ready(page)
        row = page.locator("table.goodput-calc-table tbody tr").first
        row.locator("button.goodput-copy-formula").click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        case = calc.records()[int(row.get_attribute("data-row"))]
        inputs = _inputs(page, calc)
        assert copied == "=" + calc.formula_text(inputs, case)
        assert sheet_eval(copied, {}) == pytest.approx(calc.numeric(inputs, case)[calc.outputs[0].name], rel=1e-12)
        page.locator(".goodput-yours .goodput-copy-link").click()
        assert page.evaluate("() => navigator.clipboard.readText()") == page.url


def test_dark_mode_redraws_the_charts_dark_at_the_same_state(browser, book_url):
    with opened(browser, book_url + "notebooks/spi.html") as (page, log):
        live_ready(page)
        operate(page, "clock_mhz", 20)
        light = page.evaluate("() => window.__views.length")
        page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
        page.wait_for_function(f"() => window.__views.length > {light}")
        settle(page)
        view = page.evaluate("() => window.__views.length - 1")
        assert page.evaluate(f"() => window.__views[{view}].background()") in (None, "transparent")
        assert signal(page, _figure_view(page, calculations.get("spi").figure_id()), "clock_mhz") == 20
        assert errors(log) == []


#: What tests/test_page_tour_browser.py checks on its load of a chapter at 1366 px, before the other modules'
#: checks, from the state the page opens in: the keyboard on a slider and buttons, a typed value refused,
#: one state shared by the page's figures, bytes typed with their unit.
TOUR = {
    ("notebooks/pcie-packets.html", "1366px"): (arrow_keys_move_a_slider_and_segmented_buttons,
                                                figures_on_a_page_share_one_state_and_the_breakdown_follows_the_model,
                                                bytes_are_typed_with_their_unit),
    ("notebooks/tcp-goodput.html", "1366px"): (a_typed_value_outside_the_range_is_refused_with_a_message,),
}
