"""The choose-a-link chapter and the landing page in the built book, operated as a reader does.

The comparison chart's curves are goodput's numeric functions (each family's chapter model and the
parts of :mod:`goodput.analysis.choose`) at every size it draws; the list of links above it adds, changes and
removes configurations, keeps them in the page's address as :func:`goodput.analysis.choose.encode` writes them
and restores them from it; the measured points come and go with their switch; the solver's table is
:func:`goodput.analysis.choose.solve` for the requirements set through its controls; nothing is wider than a
phone or a laptop screen. What needs no address of its own runs on the page tour's loads (TOUR, which
tests/test_page_tour_browser.py runs); each address is a load of its own here.
"""

from __future__ import annotations

import functools
from urllib.parse import parse_qs, quote, urlparse

import pytest
from browser import WIDTHS, control, errors, live_ready, opened, operate, revisit, settle, state

from goodput.analysis import choose
from goodput.render.chapters import choose_a_link as page_module

pytestmark = pytest.mark.book

CHAPTER = "notebooks/choose-a-link.html"
LANDING = "book/intro.html"
DEFAULTS = list(page_module.DEFAULT_LINKS)

# The comparison chart's view: the last embedded in its figure (a redraw in the other mode adds one).
VIEW = """() => window.__views.findLastIndex(v => document.getElementById('figure-compare').contains(v.container()))"""

# What the chart draws: every mark's datum that has a goodput (the lines' and their points'), and the
# legend's labels in their order, each with the text the SVG shows and its right edge against the figure's.
DRAWN = """(index) => {
  const view = window.__views[index];
  const curves = [];
  const walk = (node) => {
    for (const item of (node && node.items) || []) {
      if (item.datum && typeof item.datum === 'object' && 'goodput_mbyte_s' in item.datum) {
        const d = item.datum;
        curves.push({link: d.link, size: d.size_bytes, goodput: d.goodput_mbyte_s, efficiency: d.efficiency_percent});
      }
      walk(item);
    }
  };
  walk(view.scenegraph().root);
  const figure = document.getElementById('figure-compare').getBoundingClientRect();
  // a label the page broke into lines (on a phone, after each comma) reads as its lines joined again
  const lines = t => [...t.querySelectorAll('tspan')].map(s => s.textContent);
  const legend = [...view.container().querySelectorAll('.role-legend-label text')].map(t => ({
    text: lines(t).length ? lines(t).join(', ') : t.textContent, right: t.getBoundingClientRect().right - figure.right}));
  const measured = [];
  const points = (node) => {
    for (const item of (node && node.items) || []) {
      if (item.datum && typeof item.datum === 'object' && 'mbyte_s' in item.datum) measured.push(item.datum.mbyte_s);
      points(item);
    }
  };
  points(view.scenegraph().root);
  return {curves, legend, measured: measured.length, domain: view.scale('color').domain()};
}"""


#: The sizes the chapters' own functions are checked at too: up to 64 KiB (CAN FD's adds a long transfer up
#: frame by frame, half a second at 1 MiB); the parts' goodput is checked at every size drawn.
CHAPTER_MODEL_SIZES = 65536


@functools.lru_cache(maxsize=None)
def _numeric(c: choose.Config, n: int) -> float:
    return c.family.numeric(c.settings, n)


def _drawn(page) -> dict:
    index = page.evaluate(VIEW)
    assert index >= 0, "no comparison chart"
    return page.evaluate(DRAWN, index)


def _links_in_address(page) -> str | None:
    values = parse_qs(urlparse(page.url).query).get("links")
    return values[0] if values else None


def _check_the_chart_draws(page, configs):
    """The chart shows exactly ``configs``: each one's curve at every size it takes equals goodput's numbers
    (the parts' goodput and the family's chapter model), its efficiency the data's share of the parts; the
    legend lists their labels in the list's order, each label whole."""
    drawn = _drawn(page)
    labels = [c.label for c in configs]
    assert drawn["domain"] == list(dict.fromkeys(labels))
    assert [item["text"] for item in drawn["legend"]] == list(dict.fromkeys(labels))
    by_label = {c.label: c for c in configs}
    want = {(c.label, n) for c in configs for n in page_module.SIZES if n <= c.family.max_size}
    assert {(d["link"], d["size"]) for d in drawn["curves"]} == want
    for d in drawn["curves"]:
        c, n = by_label[d["link"]], d["size"]
        assert d["goodput"] == pytest.approx(choose.goodput_mbyte_s(c, n), rel=1e-9), (c.label, n)
        if n <= CHAPTER_MODEL_SIZES:
            assert d["goodput"] == pytest.approx(_numeric(c, n), rel=1e-9), (c.label, n)
        parts = choose.breakdown_us(c, n)
        assert d["efficiency"] == pytest.approx(100 * parts["data"] / sum(parts.values()), rel=1e-9), (c.label, n)
    return drawn


def _check_the_list_shows(page, configs):
    """The composer's rows are ``configs``, the address and the page state hold them as encode writes them."""
    text = choose.encode(configs)
    assert state(page)["links"] == text
    assert _links_in_address(page) == (None if configs == DEFAULTS else text)
    rows = page.evaluate("""() => [...document.querySelectorAll('#figure-compare li.goodput-link')].map(li => ({
      family: li.dataset.family, values: Object.fromEntries([...li.querySelectorAll('select')].map(
        s => [s.dataset.setting, Number(s.value)]))}))""")
    assert [r["family"] for r in rows] == [c.key for c in configs]
    assert [r["values"] for r in rows] == [c.settings for c in configs]


def _row(page, i):
    return page.locator("#figure-compare li.goodput-link").nth(i)


def comparison_curves_are_goodputs_numeric_functions(page, log):
    live_ready(page, 2)
    _check_the_list_shows(page, DEFAULTS)
    _check_the_chart_draws(page, DEFAULTS)
    assert errors(log) == []


def adding_changing_and_removing_a_link_redraws_the_chart_and_the_address(page, log):
    expected = list(DEFAULTS)
    live_ready(page, 2)
    # add: a family chosen, then "Add a link": its default settings, at the end of the list
    page.locator("#figure-compare .goodput-link-adder select").select_option("usb")
    page.locator("#figure-compare button.goodput-link-add").click()
    settle(page)
    expected.append(choose.config("usb"))
    assert expected[-1] not in DEFAULTS
    _check_the_list_shows(page, expected)
    _check_the_chart_draws(page, expected)
    # change: the first row's lanes; the select keeps the focus
    lanes = _row(page, 0).locator('select[data-setting="lanes"]')
    lanes.focus()
    lanes.select_option("8")
    settle(page)
    expected[0] = choose.config("pcie", generation=3, lanes=8)
    _check_the_list_shows(page, expected)
    _check_the_chart_draws(page, expected)
    assert page.evaluate("() => document.activeElement.dataset.setting") == "lanes"
    # remove: the second row; the focus goes to the "Remove" of the row that takes its place
    _row(page, 1).locator("button.goodput-link-remove").click()
    settle(page)
    del expected[1]
    _check_the_list_shows(page, expected)
    _check_the_chart_draws(page, expected)
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == \
        f"remove link 2, {expected[1].family.title}"
    # and the last one, "Remove" of the row before it takes the focus
    _row(page, len(expected) - 1).locator("button.goodput-link-remove").click()
    settle(page)
    del expected[-1]
    _check_the_list_shows(page, expected)
    _check_the_chart_draws(page, expected)
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == \
        f"remove link {len(expected)}, {expected[-1].family.title}"
    assert errors(log) == []


def test_an_address_with_links_restores_exactly_them(browser, book_url):
    configs = [choose.config("srio", line_rate_gbaud=3.125, lanes=1, transaction=1),
               choose.config("can", arbitration_mbit_s=0.5, data_mbit_s=8),
               choose.config("ethernet", line_rate_mbit_s=10000, stack=2)]
    text = choose.encode(configs)
    assert choose.decode(text) == configs
    with opened(browser, book_url + CHAPTER + "?links=" + quote(text), viewport=WIDTHS["390px"]) as (page, log):
        live_ready(page, 2)
        _check_the_list_shows(page, configs)
        _check_the_chart_draws(page, configs)
        assert errors(log) == []


def test_an_address_with_a_number_written_otherwise_reads_as_decode_does(browser, book_url):
    text = "srio:5.0:4:0,hyperlink:6.250:1"
    configs = choose.decode(text)
    with opened(browser, book_url + CHAPTER + "?links=" + quote(text)) as (page, log):
        live_ready(page, 2)
        _check_the_list_shows(page, configs)
        _check_the_chart_draws(page, configs)
        assert errors(log) == []


#: Lists of links decode refuses: a generation, a family, a missing setting, a second link, a data rate, a
#: number written with a letter.
BAD_LINKS = ["pcie:9:4:256:0", "bogus:1", "pcie:3:4", "srio:5:4:0,usb:7", "can:1:5:1", "pcie:3:x4:256:0"]


def test_an_address_with_bad_links_falls_back_to_the_defaults(browser, book_url):
    with opened(browser, "about:blank") as (page, log):
        for bad in BAD_LINKS:
            with pytest.raises(ValueError):
                choose.decode(bad)
            revisit(page, book_url + CHAPTER + "?links=" + quote(bad))
            live_ready(page, 2)
            _check_the_list_shows(page, DEFAULTS)
            _check_the_chart_draws(page, DEFAULTS)
            assert errors(log) == [], bad


def measured_switch_hides_and_shows_the_measured_points(page, log):
    count = len(page_module.measured())
    live_ready(page, 2)
    assert _drawn(page)["measured"] == count
    operate(page, "measured", "hidden", scope="#figure-compare", address=True)
    assert state(page)["measured"] == "hidden" and "measured=hidden" in page.url
    assert _drawn(page)["measured"] == 0
    _check_the_chart_draws(page, DEFAULTS)
    operate(page, "measured", "shown", scope="#figure-compare", address=True)
    assert _drawn(page)["measured"] == count
    assert "measured" not in page.url
    assert errors(log) == []


# The solver's table as the reader sees it: each row's cells by column, in the order shown.
TABLE = """() => [...document.querySelectorAll('#figure-choose table.goodput-calc-table tbody tr')].map(tr =>
  Object.assign({row: tr.dataset.row},
                Object.fromEntries([...tr.querySelectorAll('td')].map(td => [td.dataset.column, td.textContent]))))"""
NOTE = "() => document.querySelector('#figure-choose .goodput-composed-note').textContent"
# The solver chart's data: the rows of the reader's list it draws (listed), by link.
SOLVER_ROWS = """() => { const i = window.__views.findLastIndex(v => document.getElementById('figure-choose').contains(v.container()));
  return window.__views[i].data('choose').filter(r => r.listed === 1).map(r => r.link); }"""


#: Requirements that split the configurations: a fast bulk transfer, then a small message with a latency bound.
REQUIREMENTS = [{"rate_mbyte_s": 1000, "size_bytes": 65536}, {"rate_mbyte_s": 10, "size_bytes": 64, "latency_us": 5}]


def _check_the_solver_answers(page, configs):
    """The solver's table: the reader's ``configs`` first, then the catalogue, each group as choose.solve orders it
    for the requirement in the page's state; and its chart draws each of the reader's links."""
    values = state(page)
    rows = page.evaluate(TABLE)
    yours = [r for r in rows if r["row"].startswith("your-")]
    catalogue = [r for r in rows if not r["row"].startswith("your-")]
    assert rows == yours + catalogue, "the reader's links first"
    assert {r["source"] for r in yours} <= {page_module.FROM_LIST}
    assert {r["source"] for r in catalogue} == {page_module.FROM_CATALOG}
    for shown, candidates in ((yours, configs), (catalogue, None)):
        answer = choose.solve(values["rate_mbyte_s"], values["size_bytes"], values["latency_us"], candidates)
        assert [r["link"] for r in shown] == [a["link"] for a in answer]
        for r, want in zip(shown, answer):
            assert float(r["goodput_mbyte_s"]) == pytest.approx(want["goodput_mbyte_s"], abs=0.005, rel=1e-12)
            assert r["meets"] == ("yes" if want["meets"] else "no"), r["link"]
            assert r["binding"] == want["binding"], r["link"]
    assert sorted(page.evaluate(SOLVER_ROWS)) == sorted(c.label for c in configs)
    return rows


def solver_table_is_the_solvers_answer(page, log):
    live_ready(page, 2)
    for requirement in REQUIREMENTS:
        for key, value in requirement.items():
            operate(page, key, value, scope="#figure-choose")
        values = state(page)
        assert {k: values[k] for k in requirement} == requirement
        rows = _check_the_solver_answers(page, DEFAULTS)
        assert {r["meets"] for r in rows} == {"yes", "no"}, "a requirement that splits the configurations"
        assert page.evaluate(NOTE) == f"Your {len(DEFAULTS)} links first, then the book's {len(choose.CATALOG)} configurations."
        assert errors(log) == []


def solver_expectation_is_the_model_times_the_measured_share(page, log):
    # "answer with" the expectation: each family's goodput times its median measured share, named in the chapter
    live_ready(page, 2)
    operate(page, "size_bytes", 65536, scope="#figure-choose")
    operate(page, "expect", 1, scope="#figure-choose")
    values = state(page)
    found = page_module.derating()
    rows = page.evaluate(TABLE)
    for candidates, shown in ((DEFAULTS, [r for r in rows if r["row"].startswith("your-")]),
                              (None, [r for r in rows if not r["row"].startswith("your-")])):
        model = {a["link"]: a for a in choose.solve(values["rate_mbyte_s"], 65536, None, candidates)}
        by_label = {c.label: c for c in (candidates or choose.CATALOG)}
        for r in shown:
            family = by_label[r["link"]].key
            share = found[family]["ratio"] if family in found else 1.0
            assert float(r["derating"]) == pytest.approx(share, abs=5e-5), r["link"]
            assert float(r["goodput_mbyte_s"]) == pytest.approx(share * model[r["link"]]["goodput_mbyte_s"], abs=0.006)
    operate(page, "expect", 0, scope="#figure-choose")
    assert {r["derating"] for r in page.evaluate(TABLE)} == {"1"}
    assert errors(log) == []


def test_the_solver_answers_over_the_readers_list_and_says_what_to_add_when_it_is_empty(browser, book_url):
    # a PCIe gen 4 x8 is none of the catalogue's: the reader's list brings it to the solver, a link added in the
    # composer joins it there, and a list emptied link by link leaves the catalogue with a note on what to add
    mine = [choose.config("pcie", generation=4, lanes=8), choose.config("can", arbitration_mbit_s=0.5, data_mbit_s=2)]
    assert mine[0] not in choose.CATALOG
    with opened(browser, book_url + CHAPTER + "?links=" + quote(choose.encode(mine)) + "&rate_mbyte_s=400"
                + "&size_bytes=65536&latency_us=200") as (page, log):
        live_ready(page, 2)
        rows = _check_the_solver_answers(page, mine)
        assert rows[0]["link"] == mine[0].label and rows[0]["meets"] == "yes"
        page.locator("#figure-compare .goodput-link-adder select").select_option("usb")
        page.locator("#figure-compare button.goodput-link-add").click()
        settle(page)
        listed = [*mine, choose.config("usb")]
        _check_the_solver_answers(page, listed)
        assert page.evaluate(NOTE) == f"Your 3 links first, then the book's {len(choose.CATALOG)} configurations."
        while listed:
            _row(page, 0).locator("button.goodput-link-remove").click()
            settle(page)
            del listed[0]
            _check_the_solver_answers(page, listed)
        assert state(page)["links"] == ""
        assert page.evaluate(NOTE).startswith("Your list has no links: add yours to the links compared above")
        assert errors(log) == []


def landing_page_shows_the_comparison_without_measured_points(page, log):
    live_ready(page)
    assert page.locator("#figure-compare").count() == 1
    assert control(page, "measured").count() == 0
    _check_the_list_shows(page, DEFAULTS)
    assert _drawn(page)["measured"] == 0
    _check_the_chart_draws(page, DEFAULTS)
    page.locator("#figure-compare .goodput-link-adder select").select_option("pcie")
    page.locator("#figure-compare button.goodput-link-add").click()
    settle(page)
    _check_the_list_shows(page, DEFAULTS + [choose.config("pcie")])
    _check_the_chart_draws(page, DEFAULTS + [choose.config("pcie")])
    assert errors(log) == []


# Wider than the screen: the document, or a row of controls, a legend label or a table outside its figure.
OVERFLOW = """() => {
  const problems = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  for (const figure of document.querySelectorAll('.goodput-live')) {
    const box = figure.getBoundingClientRect();
    if (box.right > vw + 0.5) problems.push(`${figure.id} is wider than the screen`);
    const inside = figure.querySelectorAll(
      '.goodput-control, li.goodput-link, li.goodput-link > *, .goodput-link-adder, .goodput-panel-actions, ' +
      'svg, table.goodput-calc-table, .role-legend-label text');
    for (const el of inside) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1) {
        problems.push(`${figure.id}: ${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 30)}" ` +
                      `(${Math.round(r.left - box.left)} to ${Math.round(r.right - box.left)} of ${Math.round(box.width)} px)`);
      }
    }
    for (const t of figure.querySelectorAll('.role-legend-label text')) {
      if (t.textContent.endsWith('\u2026')) problems.push(`${figure.id}: legend label cut: ${t.textContent}`);
    }
  }
  return problems;
}"""


def no_figure_is_wider_than_the_screen(page, log):
    live_ready(page)
    assert page.evaluate(OVERFLOW) == []
    # the longest labels a row can have, a row added
    page.locator("#figure-compare .goodput-link-adder select").select_option("usb")
    page.locator("#figure-compare button.goodput-link-add").click()
    settle(page)
    _row(page, 0).locator('select[data-setting="mps"]').select_option("4096")
    settle(page)
    assert page.evaluate(OVERFLOW) == []
    assert errors(log) == []


#: What tests/test_page_tour_browser.py checks on its load of a page at a width, in this order, after the
#: page's reading checks (the comparison at its defaults first: the others change the state).
TOUR = {
    (CHAPTER, "1366px"): (comparison_curves_are_goodputs_numeric_functions,
                          measured_switch_hides_and_shows_the_measured_points, solver_table_is_the_solvers_answer,
                          solver_expectation_is_the_model_times_the_measured_share,
                          adding_changing_and_removing_a_link_redraws_the_chart_and_the_address,
                          no_figure_is_wider_than_the_screen),
    (CHAPTER, "390px"): (no_figure_is_wider_than_the_screen,),
    (LANDING, "1366px"): (landing_page_shows_the_comparison_without_measured_points, no_figure_is_wider_than_the_screen),
    (LANDING, "390px"): (no_figure_is_wider_than_the_screen,),
}
