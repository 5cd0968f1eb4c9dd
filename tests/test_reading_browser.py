"""What a reader reads, in chromium, on every page of the built book, at 1366 px and at 390 px.

- Every visible text (the page's and the text its charts draw) reads at WCAG AA contrast in the light and
  the dark theme: on load in one, then after the reader's system switches to the other (the theme follows it).
- Every chart takes its column's width again after the window is narrowed and widened, or a phone turned.
- On a phone, a figure's or box's result stays in view while the reader operates its controls.
- The page's small promises: "Copy link" copies what the page shows now, a list of links in the address is
  capped, an address that cannot be decoded breaks nothing, each preset names what it sets.

The checks of a whole page are functions here; tests/test_page_tour_browser.py runs them on each page it opens.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from browser import WIDTHS, errors, live_ready, opened, operate, revisit, settle, state
from legibility import CONTRAST_SWEEP
from test_live_figures import _another, box_answers_equal_the_model

from goodput.render.controls import LinkList

pytestmark = pytest.mark.book

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"
PAGES = sorted(str(p.relative_to(HTML)) for p in HTML.rglob("*.html") if p.parent.name in ("notebooks", "book"))
CHART_PAGES = [p for p in PAGES if "vegaEmbed(" in (HTML / p).read_text(encoding="utf-8")]
# The theme a page opens in at each width; the sweep then switches it to the other.
FIRST_THEME = {"1366px": "light", "390px": "dark"}


# The theme eases its colours from one mode to the next; the sweep reads them where they end.
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"


def _ready(page):
    page.add_style_tag(content=NO_TRANSITIONS)
    if page.locator(".goodput-live, .goodput-yours, .vega-embed").count():
        live_ready(page)
    page.evaluate("() => document.fonts.ready")


def _theme_is(page, mode):
    page.wait_for_function("(mode) => document.documentElement.dataset.theme === mode", arg=mode, timeout=5000)
    if page.evaluate("() => window.goodputLive !== undefined"):
        settle(page)


def contrast_in_both_themes(page, log, width):
    """Every text reads at AA contrast in the theme the page opened in (:data:`FIRST_THEME`, the reader's
    system setting), then in the other after the system switches to it (the page stays in that one).
    Run by tests/test_page_tour_browser.py on every page at each width."""
    first = FIRST_THEME[width]
    second = "dark" if first == "light" else "light"
    _theme_is(page, first)
    assert page.evaluate(CONTRAST_SWEEP) == [], f"{first} theme"
    # the reader's system switches: the theme follows it, and every chart is drawn again in it
    page.emulate_media(color_scheme=second)
    _theme_is(page, second)
    assert page.evaluate(CONTRAST_SWEEP) == [], f"{second} theme"
    assert errors(log) == []


def test_the_contrast_sweep_finds_a_text_too_faint_for_its_background(browser, book_url):
    # a background composited from a half-white layer over black, an opacity from an ancestor, and a pass
    with opened(browser, book_url + "book/how-to-read.html", color_scheme="light") as (page, log):
        page.evaluate("""() => document.querySelector('article.bd-article').insertAdjacentHTML('beforeend',
          '<div style="background: rgb(0, 0, 0)"><div style="background: rgba(255, 255, 255, 0.5)">' +
          '<p style="color: rgb(128, 128, 128)">grey on a half-white black</p></div></div>' +
          '<div style="opacity: 0.3"><p style="color: rgb(0, 0, 0)">black at 30 %</p></div>' +
          '<p style="color: rgb(0, 0, 0); background: rgb(255, 255, 255)">black on white</p>')""")
        found = {v["text"]: v for v in page.evaluate(CONTRAST_SWEEP)}
    assert sorted(found) == ["black at 30 %", "grey on a half-white black"]
    assert found["grey on a half-white black"]["ratio"] < 1.05  # 128 on 127.5
    assert found["black at 30 %"]["color"]["a"] == pytest.approx(0.3)
    assert found["black at 30 %"]["where"].endswith("div > p")


# Each chart against its column: [chart's drawn width, its column's width] where the chart is wider, or
# narrower by more than vega-embed's menu button beside it. A concatenation of views has widths of its own
# and scrolls inside its column (goodput-live.js marks it wide): it has only to be drawn.
CHARTS_OFF_COLUMN = """
() => [...document.querySelectorAll('.vega-embed')].filter(e => e.getClientRects().length).map(e => {
  const drawn = e.querySelector('canvas, svg.marks');
  const column = e.parentElement.getBoundingClientRect().width;
  const width = drawn ? drawn.getBoundingClientRect().width : 0;
  return {id: e.id || e.closest('[id]').id, width: Math.round(width), column: Math.round(column),
          wide: Boolean(e.querySelector('.goodput-wide')) || e.classList.contains('goodput-wide')};
}).filter(c => c.wide ? c.width < 50 : (c.width > c.column + 1 || c.width < c.column - 60))
"""

#: The window's width after the resize: a laptop's window halved, a phone turned to landscape (so the charts
#: of every page shrink at one width and grow at the other).
RESIZES = {"1366px": [683], "390px": [844]}


def charts_follow_resizes(page, log, width):
    """Every chart takes its column's width as loaded, and again after each of the window's :data:`RESIZES`.
    Run last by tests/test_page_tour_browser.py on every page with a chart (the window keeps its new width)."""
    assert page.evaluate(CHARTS_OFF_COLUMN) == []
    height = WIDTHS[width]["height"]
    for w in RESIZES[width]:
        page.set_viewport_size({"width": w, "height": height})
        try:
            page.wait_for_function(f"() => ({CHARTS_OFF_COLUMN})().length === 0", timeout=5000)
        except Exception:
            pass
        settle(page)
        assert page.evaluate(CHARTS_OFF_COLUMN) == [], f"after resizing to {w} px"
    assert errors(log) == []


# Where a figure's or box's one-line result is, against the viewport.
READOUT = """
(scope) => {
  const el = document.querySelector(scope + ' .goodput-readout');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: window.innerHeight, text: el.textContent,
          values: [...el.querySelectorAll('strong')].map(s => s.textContent)};
}
"""


def _in_view(readout):
    return readout is not None and readout["text"] and readout["top"] >= 0 and readout["bottom"] <= readout["height"]


def _box_values(page):
    """The your-link box's first two values as its list shows them."""
    return page.evaluate("""() => [...document.querySelectorAll('.goodput-yours dl:not(.goodput-yours-answers) dd.goodput-value')]
      .slice(0, 2).map(d => d.textContent)""")


def box_readout_stays_in_view(page, log, calc):
    """On a phone (390 px), the box's one-line result stays in view while each of its controls is operated (the
    bytes to move and the goodput's unit too), and reads the box's numbers; the box's answers in the reader's terms
    are the model's after the unit and after the bytes (every input of the box moved by then). Run by
    tests/test_page_tour_browser.py on every chapter with a model."""
    for item in calc.box_controls():
        if isinstance(item, LinkList):  # the reader's list: its composer is operated by its chapter's own test
            continue
        # the bytes to move: a gigabyte, the other end of the presets from the 64 MiB the box opens on
        value = 10 ** 9 if item.name == "move_bytes" else _another(calc, item, state(page)[item.name])
        operate(page, item.name, value, scope=".goodput-yours")
        readout = page.evaluate(READOUT, ".goodput-yours")
        assert _in_view(readout), (item.name, readout)
        assert readout["values"] == _box_values(page), item.name
        if item.name in ("unit", "move_bytes"):  # the answers' own controls, last: every input moved by then
            box_answers_equal_the_model(page, calc)
    assert errors(log) == []


def figure_readout_in_view(page, calc, key):
    """On a phone (390 px), right after the figure's control ``key`` was operated: the figure's one-line result
    is in view and reads out the case its box shows, with the same numbers. Run by
    tests/test_page_tour_browser.py after each control it operates at 390 px."""
    readout = page.evaluate(READOUT, f"#{calc.figure_id()}")
    assert _in_view(readout), (key, readout)
    assert readout["values"] == _box_values(page), key


def test_a_chart_of_the_readers_links_reads_out_its_extremes_in_view_on_a_phone(browser, book_url):
    with opened(browser, book_url + "notebooks/choose-a-link.html", viewport=WIDTHS["390px"]) as (page, log):
        live_ready(page, 2)
        figure = "#figure-compare"
        before = page.evaluate(READOUT, figure)
        assert before["text"].startswith("At transfer size (bytes) 4096")
        links = page.locator(f"{figure} .goodput-link")
        count = links.count()
        last = links.nth(count - 1)
        last.scroll_into_view_if_needed()
        last.locator(".goodput-link-remove").click()
        settle(page)
        after = page.evaluate(READOUT, figure)
        assert _in_view(after), after
        assert f"(of {count - 1} links)" in after["text"] or count - 1 == 1
        # its numbers are the chart's: the highest and lowest goodput of the links at 4096 bytes
        drawn = page.evaluate("""() => {
          const out = [];
          const walk = n => { for (const i of (n && n.items) || []) {
            const d = i.datum; if (d && d.link !== undefined && d.size_bytes === 4096 && Number.isFinite(d.goodput_mbyte_s)) out.push(d.goodput_mbyte_s);
            walk(i); } };
          const view = window.__views.filter(v => document.querySelector('#figure-compare').contains(v.container())).pop();
          walk(view.scenegraph().root);
          return out; }""")
        want = [max(drawn), min(drawn)] if len(set(drawn)) > 1 else [max(drawn)]
        assert [float(v) for v in after["values"]] == [pytest.approx(v, rel=5e-4) for v in want]
        assert errors(log) == []


def test_copy_link_right_after_a_change_copies_the_new_state(browser, book_url):
    with opened(browser, book_url + "notebooks/tcp-goodput.html",
                permissions=("clipboard-read", "clipboard-write")) as (page, log):
        live_ready(page)
        box = page.locator(".goodput-yours")
        for mtu in (1280, 9000, 576):
            # no wait between the change and the copy: the page rewrites its address a moment later
            box.locator('.goodput-control[data-key="mtu_bytes"] input.goodput-number').fill(str(mtu))
            box.locator('.goodput-control[data-key="mtu_bytes"] input.goodput-number').press("Enter")
            box.locator(".goodput-copy-link").click()
            copied = page.evaluate("() => navigator.clipboard.readText()")
            assert parse_qs(urlparse(copied).query).get("mtu_bytes") == [str(mtu)], copied
        assert errors(log) == []


def test_a_list_of_links_in_the_address_is_cut_to_sixteen_with_a_note(browser, book_url):
    many = ",".join(["pcie:3:4:256:0", "srio:5:4:0"] * 1500)
    with opened(browser, book_url + f"notebooks/choose-a-link.html?links={many}",
                viewport=WIDTHS["390px"]) as (page, log):
        live_ready(page, 2)
        assert page.locator("#figure-compare .goodput-link").count() == 16
        assert len(state(page)["links"].split(",")) == 16
        note = page.locator('#figure-compare .goodput-control[data-key="links"] .goodput-error').text_content()
        assert "16" in note and "3000" in note
        assert page.locator("#figure-compare .goodput-link-add").is_disabled()
        assert errors(log) == []


@pytest.mark.parametrize("page_path", ["notebooks/pcie-packets.html", "notebooks/choose-a-link.html",
                                       "book/intro.html", "notebooks/srio.html"])
def test_an_address_that_cannot_be_decoded_breaks_nothing(browser, book_url, page_path):
    # a name and a value that are bare percent signs, a cut UTF-8 sequence in a value and the fragment;
    # then a percent sign before letters that are no hex digits, and a cut sequence in a figure's fragment
    with opened(browser, "about:blank") as (page, log):
        for tail in ("?%=%%&lanes=%E0%A4%A&links=%E0%A4%A#%E0%A4%A", "?links=pcie:%ZZ#figure-%E0"):
            revisit(page, book_url + page_path + tail)
            _ready(page)
            assert errors(log) == [], tail


def every_preset_names_the_input_it_sets(page, log):
    live_ready(page)
    groups = page.evaluate("""() => [...document.querySelectorAll('.goodput-presets')].map(g => ({
      label: g.closest('.goodput-control').querySelector('.goodput-label').textContent,
      group: g.getAttribute('aria-label'),
      buttons: [...g.querySelectorAll('button')].map(b => b.getAttribute('aria-label'))}))""")
    assert groups
    for g in groups:
        assert g["group"].startswith(g["label"])
        assert all(b.startswith(g["label"] + " ") for b in g["buttons"]), g


#: What tests/test_page_tour_browser.py checks on its load of a page at a width.
TOUR = {("notebooks/pcie-packets.html", "1366px"): (every_preset_names_the_input_it_sets,)}
