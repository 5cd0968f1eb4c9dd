"""The built HTML book in a real browser (Debian's chromium, headless, no network).

Every page must load with no request to another host, no failed request, and no
console error, its formulas already typeset (static KaTeX HTML, its fonts from the book, no
math script; tests/test_book_math.py checks them against the sources); on every chapter
with a live chart, operating its controls must recompute the chart to the model's value
(TOUR, which tests/test_page_tour_browser.py runs on its load of each chapter at 1366 px;
tests/test_live_figures.py holds the controls, tables and boxes to the model).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser import errors, live_ready, marks, opened, operate, rows, signal, view_index

from goodput.models import coding, pcie, pcie_latency, pcie_transactions
from goodput.render.chapters import pcie_packets as pcie_charts

pytestmark = pytest.mark.book

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"


PAGES = sorted(str(p.relative_to(HTML)) for p in HTML.rglob("*.html")
               if "_static" not in p.parts and "_sources" not in p.parts)


class _Loads(HTMLParser):
    """Collects every address a page loads (script, stylesheet, image, frame), not links."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "img", "iframe", "source", "audio", "video", "embed") and a.get("src"):
            self.urls.append(a["src"])
        if tag == "link" and a.get("href") and "stylesheet" in (a.get("rel") or "") + " preload":
            self.urls.append(a["href"])


def test_the_book_was_built_with_its_pages():
    assert "index.html" in PAGES
    assert "notebooks/line-coding.html" in PAGES
    assert "book/errata.html" in PAGES and "book/sources.html" in PAGES


@pytest.mark.parametrize("page", PAGES)
def test_no_built_page_loads_from_another_host_or_names_a_cdn(page):
    text = (HTML / page).read_text(encoding="utf-8")
    parser = _Loads()
    parser.feed(text)
    foreign = [u for u in parser.urls if urlparse(u).scheme in ("http", "https") or u.startswith("//")]
    assert foreign == []
    assert not re.search(r"cdn\.jsdelivr|cdnjs|unpkg\.com", text)


@pytest.mark.parametrize("page", PAGES)
def test_no_page_shows_a_widget_or_loads_the_widget_manager(page):
    text = (HTML / page).read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" not in text, "a widget that computes nothing without a kernel"
    assert "application/vnd.jupyter.widget-state+json" not in text and "embed-amd" not in text


@pytest.mark.parametrize("page", PAGES)
def test_no_page_loads_the_themes_icon_script(page):
    # the theme's stylesheet draws the icons from the web font; the 1.5 MB script is dropped
    assert "fontawesome.js" not in (HTML / page).read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES)
def test_only_the_search_page_loads_the_search_index_and_tools(page):
    text = (HTML / page).read_text(encoding="utf-8")
    loads = [name for name in ("searchindex.js", "searchtools.js", "language_data.js") if f'{name}"' in text]
    assert loads == (["searchindex.js", "searchtools.js", "language_data.js"] if page == "search.html" else [])


@pytest.mark.parametrize("page", PAGES)
def test_a_page_loads_vega_only_if_it_has_a_chart(page):
    text = (HTML / page).read_text(encoding="utf-8")
    assert ("vega/vega.min.js" in text) == ("vegaEmbed(" in text)


@pytest.mark.parametrize("page", [p for p in PAGES if p.startswith("notebooks/")])
def test_chapter_tables_have_no_row_numbers_and_no_cut_cells(page):
    text = (HTML / page).read_text(encoding="utf-8")
    tables = re.findall(r"<table[^>]*\bdataframe\b.*?</table>", text, flags=re.S)
    assert all("goodput-table" in t for t in tables), "a table pandas wrote, with its row numbers"
    assert not any(re.search(r"<td[^>]*>[^<]*\.\.\.</td>", t) for t in tables), "a cell cut with ..."


def test_every_python_panel_is_a_note_in_the_book():
    from goodput.render import calculations
    from goodput.render.panels import KernelPanel

    for chapter in calculations.CHAPTERS:
        text = (HTML / "notebooks" / f"{chapter}.html").read_text(encoding="utf-8")
        assert "goodput-kernel-panel" in text and html.escape(KernelPanel.NOTE) in text, chapter


# Every formula on the page as it loads (typeset when the book was built), the scripts and fonts
# the page requested, and the fonts the browser could not load.
FORMULAS = """async () => {
  await document.fonts.ready;
  const math = [...document.querySelectorAll('.math')];
  const loaded = performance.getEntriesByType('resource').map(e => e.name);
  return {
    math: math.length,
    katex: math.filter(m => m.querySelector(':scope > .katex, :scope > .katex-display > .katex')).length,
    scripts: loaded.filter(u => /\\.m?js(\\?|$)/.test(u)),
    fonts: loaded.filter(u => /\\.(woff2?|ttf|otf)(\\?|$)/.test(u)),
    katexFonts: [...document.fonts].filter(f => f.family.startsWith('KaTeX') && f.status === 'loaded').length,
    brokenFonts: [...document.fonts].filter(f => f.status === 'error').map(f => f.family),
    globals: [typeof window.MathJax, typeof window.katex],
  };
}"""


def loads_offline(page, log, book_url):
    """The page (opened at the network's idle, its charts drawn and tables computed) loaded nothing from another
    host, nothing failed, no console error; its formulas are static KaTeX with their fonts, no math script.
    Run by tests/test_page_tour_browser.py on its pages, and below on the rest."""
    found = page.evaluate(FORMULAS)  # after the fonts the page uses have loaded or failed
    assert found["katex"] == found["math"], "a formula that is not static KaTeX HTML"
    assert [s for s in found["scripts"] if re.search(r"mathjax|katex|tex-(mml-)?(chtml|svg)", s, re.I)] == []
    assert found["globals"] == ["undefined", "undefined"], "a math script ran"
    assert all(f.startswith(book_url) for f in found["fonts"]), "a font from another host"
    assert found["brokenFonts"] == []
    if found["math"]:
        assert found["katexFonts"] > 0 and any("/_static/katex/fonts/" in f for f in found["fonts"])
    assert log["foreign"] == [], "requests to other hosts"
    assert log["failed"] == [], "failed requests"
    assert errors(log) == [], "console errors"
    assert page.locator(".error").filter(has_text="Error loading script").count() == 0


#: The pages tests/test_page_tour_browser.py does not open (the index, search and the like).
UNTOURED = [p for p in PAGES if Path(p).parent.name not in ("notebooks", "book")]


@pytest.mark.parametrize("page_path", UNTOURED)
def test_every_other_page_loads_offline_without_errors(browser, book_url, page_path):
    from test_page_weight_browser import within_its_budget

    # the network idle: every request made, index.html's redirect followed
    with opened(browser, book_url + page_path, wait_until="networkidle") as (page, log):
        if page.locator(".goodput-live, .vega-embed").count():
            live_ready(page)  # every chart drawn, every table computed
        loads_offline(page, log, book_url)
        within_its_budget(page)  # and it loads no more than its budget


def test_a_request_to_another_host_is_recorded_and_never_reaches_it(browser, book_url):
    # the harness the page tests rely on: chromium resolves no other host, and opened() records the request
    with opened(browser, book_url + "book/how-to-read.html") as (page, log):
        outcome = page.evaluate("""() => fetch('https://cdn.jsdelivr.net/npm/vega@6').then(
            r => 'reached: ' + r.status, e => 'failed: ' + e.name)""")
    assert outcome == "failed: TypeError"
    assert log["foreign"] == ["https://cdn.jsdelivr.net/npm/vega@6"]


def line_coding_slider_recomputes_the_chart_as_the_model_does(page, log):
    live_ready(page)
    view = view_index(page, "line_rate_gbaud")
    assert signal(page, view, "line_rate_gbaud") == coding.PARAMETERS["line_rate_gbaud"].default
    for rate, lanes in [(6.25, 4), (10.3125, 1), (32, 16)]:
        operate(page, "line_rate_gbaud", rate)
        operate(page, "lanes", lanes)
        assert signal(page, view, "line_rate_gbaud") == rate and signal(page, view, "lanes") == lanes
        by_code = {r["code"]: r["goodput_gbit_s"] for r in rows(page, view, "goodput_gbit_s")}
        assert set(by_code) == set(coding.CODES)
        for key, goodput in by_code.items():
            assert goodput == pytest.approx(coding.bit_rate_gbit_s(rate, lanes, key), rel=1e-12)
    labels = page.locator("text").all_text_contents()
    assert f"{coding.bit_rate_gbit_s(32, 16, '8b10b'):.4f}".rstrip("0").rstrip(".") in labels


def pcie_packets_sliders_recompute_the_goodput_curve_as_the_model_does(page, log):
    live_ready(page, 2)
    view = view_index(page, "mrrs")
    moves = {"generation": 3, "lanes": 8, "mps": 128, "ack_group": 1, "header_dwords": 4}
    for name, value in moves.items():
        operate(page, name, value)
    values = {name: signal(page, view, name) for name in pcie_charts.SLIDERS if name != "size_bytes"}
    assert {k: values[k] for k in moves} == moves
    link, _ = pcie_charts.slider_values_to_link(values)
    by_size = {r["size_bytes"]: r for r in rows(page, view, "write_gbit_s")}
    assert sorted(by_size) == list(pcie_charts.explore_sizes()["size_bytes"])
    for r in by_size.values():
        assert r["write_gbit_s"] == pytest.approx(pcie.goodput_gbit_s("write", link, r["size_bytes"]), rel=1e-12)
        want = pcie.goodput_gbit_s("read", link, r["size_bytes"], duplex=True) / 2
        assert r["read_gbit_s"] == pytest.approx(want, rel=1e-12)
    assert errors(log) == []


def _live_chart_follows_the_model(page, log, moves, field, want):
    """Move the sliders of the chart that has the first of ``moves``; every datum's ``field``
    must equal ``want(datum, signals)`` from the Python model. Returns the rows checked."""
    live_ready(page)
    view = view_index(page, next(iter(moves)))
    for name, value in moves.items():
        operate(page, name, value)
    signals = {name: signal(page, view, name) for name in moves}
    assert signals == moves
    found = rows(page, view, field)
    assert found, f"no datum with {field}"
    for r in found:
        assert r[field] == pytest.approx(want(r, signals), rel=1e-12), r
    assert errors(log) == []
    return found


def pcie_measured_latency_sliders_recompute_the_model_curve(page, log):
    link = pcie.an3935_link("MSC8156")
    _live_chart_follows_the_model(
        page, log,
        {"in_flight": 4, "serial_ns": 250, "latency_ns": 1200}, "model_gbit_s",
        lambda r, s: pcie_latency.latency_bound_gbit_s("write", link, [r["size_bytes"]], s["serial_ns"],
                                                        s["latency_ns"], s["in_flight"], duplex=True)[0])


def pcie_reads_sliders_recompute_the_read_curve(page, log):
    # a bulk reader's link: gen 3 x4, MPS 256, MRRS 512, completions cut at a 128-byte RCB
    link = pcie.Link(gen=3, lanes=4, mps=256, mrrs=512, rcb=128, split="rcb", dllp="none")
    rows = _live_chart_follows_the_model(
        page, log, {"reads_in_flight": 3, "completion_ns": 800, "generation": 3, "lanes": 4, "mps": 256,
                    "mrrs": 512, "split_at_rcb": 1, "rcb": 128},
        "read_mbyte_s",
        lambda r, s: pcie_transactions.pipelined_read_mbyte_s(r["size_bytes"], s["completion_ns"],
                                                              s["reads_in_flight"], link))
    assert len({r["size_bytes"] for r in rows}) == 13


def hyperlink_sliders_recompute_the_curve(page, log):
    from goodput.models import hyperlink

    rows = _live_chart_follows_the_model(
        page, log, {"line_rate_gbaud": 10, "lanes": 2, "size_bytes": 1000}, "model_gbit_s",
        lambda r, s: hyperlink.goodput_gbit_s(s["line_rate_gbaud"], s["lanes"], s["size_bytes"], r["packet_bytes"]))
    assert len({r["packet_bytes"] for r in rows}) >= 10


def ethernet_sliders_recompute_the_goodput_curves(page, log):
    from goodput.models import ethernet

    names = {s.name: s.key for s in ethernet.STACKS.values()}
    _live_chart_follows_the_model(
        page, log, {"mac_rate_gbit_s": 25, "vlan_bytes": 4},
        "goodput_gbit_s",
        lambda r, s: ethernet.evaluate(r["frame_bytes"], s["mac_rate_gbit_s"], names[r["stack"]],
                                       vlan_tag=s["vlan_bytes"] == 4)["goodput_gbit_s"])


def hyperlink_burst_and_response_sliders_move_your_transfers(page, log):
    from goodput.models import hyperlink

    def want(r, s):
        packet = min(s["burst_bytes"], 256) if r["transfer"] == "your write" else min(
            s["response_bytes"], s["burst_bytes"])
        assert r["your_packet_bytes"] == packet
        return hyperlink.goodput_gbit_s(s["line_rate_gbaud"], s["lanes"], s["size_bytes"], packet)

    # transfers of 1000 bytes: 11 packets of 96 for a write (the last of 40), 5 of 200 for a read
    rows = _live_chart_follows_the_model(
        page, log,
        {"burst_bytes": 96, "response_bytes": 200, "lanes": 2, "line_rate_gbaud": 6.25, "size_bytes": 1000},
        "your_gbit_s", want)
    assert {r["transfer"] for r in rows} == {"your write", "your read"}


def ethernet_frame_size_slider_moves_your_frame_on_every_stack(page, log):
    from goodput.models import ethernet

    names = {s.name: s.key for s in ethernet.STACKS.values()}
    rows = _live_chart_follows_the_model(
        page, log,
        {"frame_bytes": 300, "mac_rate_gbit_s": 25, "vlan_bytes": 4}, "your_goodput_gbit_s",
        lambda r, s: ethernet.evaluate(s["frame_bytes"], s["mac_rate_gbit_s"], names[r["stack"]],
                                       vlan_tag=True)["goodput_gbit_s"])
    assert len({r["stack"] for r in rows}) == 5


def edma_copy_sliders_recompute_every_limit_as_the_model_does(page, log):
    from goodput.models import bus

    moves = {"tcs": 3, "cpu_clock_mhz": 1000, "ddr3_mtps": 1333}
    rows = _live_chart_follows_the_model(
        page, log, moves, "limit_mb_s",
        lambda r, s: bus.copy_limits(r["endpoint_a"], r["endpoint_b"], tcs=s["tcs"],
                                     cpu_clock_mhz=s["cpu_clock_mhz"], ddr3_mtps=s["ddr3_mtps"])[r["endpoint"]])
    assert {r["endpoint"] for r in rows} >= {"transfer controllers", "MSMC SRAM", "DDR3A"}


def srio_sliders_recompute_every_transaction_curve(page, log):
    from goodput.models import srio

    kinds = {k.name: key for key, k in srio.KINDS.items()}
    moves = {"line_rate_gbaud": 5, "lanes": 2, "id_bits": 8}
    rows = _live_chart_follows_the_model(
        page, log, moves, "model_gbit_s",
        lambda r, s: srio.goodput_gbit_s(kinds[r["transaction"]], s["line_rate_gbaud"], s["lanes"],
                                         r["size_bytes"], s["id_bits"]))
    assert {r["transaction"] for r in rows} == set(kinds)


def tcp_sliders_recompute_both_goodput_curves(page, log):
    from goodput.models import tcp

    moves = {"line_rate_mbit_s": 1000, "mtu_bytes": 9000, "tcp_options_bytes": 12}
    rows = _live_chart_follows_the_model(
        page, log, moves, "per_write_mbit_s",
        lambda r, s: tcp.evaluate(r["message_bytes"], s["line_rate_mbit_s"], s["mtu_bytes"],
                                  timestamps=True)["goodput_mbit_s"])
    assert len({r["message_bytes"] for r in rows}) >= 10


def spi_sliders_recompute_the_transfer_time(page, log):
    from goodput.models import spi

    # spaced words, then back to back (where the gap left at 500 ns no longer counts)
    for moves in ({"clock_mhz": 20, "gap_ns": 500}, {"clock_mhz": 20, "gap_ns": 500, "spaced": 0}):
        _live_chart_follows_the_model(
            page, log, moves, "model_us",
            lambda r, s: spi.transfer_time_us(r["words"], r["word_bits"], s["clock_mhz"], s["gap_ns"],
                                              s.get("spaced", 1)))


def can_sliders_recompute_the_message_rate(page, log):
    from goodput.models import can

    rows = _live_chart_follows_the_model(
        page, log, {"data_mbit_s": 8, "stuffing": 0.5, "arbitration_mbit_s": 0.5},
        "messages_per_s",
        lambda r, s: (can.evaluate(r["data_bytes"], bool(r["x"]), s["arbitration_mbit_s"], stuffing_share=s["stuffing"],
                                   classical_frame=True) if r["c"] else
                      can.evaluate(r["data_bytes"], bool(r["x"]), s["arbitration_mbit_s"], s["data_mbit_s"],
                                   s["stuffing"]))["messages_per_s"])
    assert {r["c"] for r in rows} == {0, 1}  # CAN FD and classical frames


def _measured_points_follow_the_sliders(page, log, field, conditions, moves):
    """The measured points of a live chart show at the sliders' starting values, which are the conditions
    they were measured at, and hide when a slider leaves them (each move in turn, then moved back)."""
    live_ready(page)
    view = view_index(page, next(iter(conditions)))
    assert {name: signal(page, view, name) for name in conditions} == conditions
    shown = marks(page, view, field)
    assert shown and all(d[name] == value for d in shown for name, value in conditions.items())
    for name, value in moves.items():
        operate(page, name, value)
        assert marks(page, view, field) == [], name
        operate(page, name, conditions[name])
        assert len(marks(page, view, field)) == len(shown), name
    assert errors(log) == []
    return shown


def can_measured_diamonds_show_only_at_the_measured_bit_rates(page, log):
    from goodput.core import data

    t = data.load("am243x-mcan")
    conditions = {"arbitration_mbit_s": data.single(t, "arbitration_mbit_s"),
                  "data_mbit_s": data.single(t, "data_mbit_s")}
    shown = _measured_points_follow_the_sliders(
        page, log, "measured_per_s", conditions,
        {"data_mbit_s": 8, "arbitration_mbit_s": 0.5})
    assert sorted(d["measured_per_s"] for d in shown) == sorted(t["messages_per_s"])


def tcp_ndk_points_show_only_at_the_measured_line_rate(page, log):
    from goodput.core import data

    t = data.load("spraaq5-s6-throughput")
    shown = _measured_points_follow_the_sliders(
        page, log, "mbit_s",
        {"line_rate_mbit_s": data.single(t, "line_rate_mbit_s")}, {"line_rate_mbit_s": 1000})
    assert len(shown) == len(t) and {d["message_bytes"] for d in shown} == set(t["frame_bytes"])


#: What tests/test_page_tour_browser.py checks on its load of a chapter at 1366 px, in this order: each chart
#: with sliders, the sliders moved, against the model's own Python functions (the tour holds the calculation's
#: figure to its expressions at 390 px). The measured points come first: they show where the page starts.
TOUR = {(page, "1366px"): checks for page, checks in {
    "notebooks/line-coding.html": (line_coding_slider_recomputes_the_chart_as_the_model_does,),
    "notebooks/pcie-packets.html": (pcie_packets_sliders_recompute_the_goodput_curve_as_the_model_does,),
    "notebooks/pcie-measured.html": (pcie_measured_latency_sliders_recompute_the_model_curve,),
    "notebooks/pcie-reads.html": (pcie_reads_sliders_recompute_the_read_curve,),
    "notebooks/hyperlink.html": (hyperlink_sliders_recompute_the_curve,
                                 hyperlink_burst_and_response_sliders_move_your_transfers),
    "notebooks/ethernet-framing.html": (ethernet_sliders_recompute_the_goodput_curves,
                                        ethernet_frame_size_slider_moves_your_frame_on_every_stack),
    "notebooks/keystone-memory-edma.html": (edma_copy_sliders_recompute_every_limit_as_the_model_does,),
    "notebooks/srio.html": (srio_sliders_recompute_every_transaction_curve,),
    "notebooks/tcp-goodput.html": (tcp_ndk_points_show_only_at_the_measured_line_rate,
                                   tcp_sliders_recompute_both_goodput_curves),
    "notebooks/spi.html": (spi_sliders_recompute_the_transfer_time,),
    "notebooks/can-fd.html": (can_measured_diamonds_show_only_at_the_measured_bit_rates,
                              can_sliders_recompute_the_message_rate),
}.items()}


def test_built_errata_page_is_current_with_the_checks():
    from goodput import checks
    from goodput.render import pages

    errata = sum(c.status == "erratum" for c in checks.collect())
    text = (HTML / "book" / "errata.html").read_text(encoding="utf-8")
    assert f"{errata} published numbers disagree" in text
    elsewhere = pages.elsewhere_summary()
    assert elsewhere.startswith("Not errata: of the other published numbers, ")
    assert elsewhere.replace("'", "\u2019") in text  # Sphinx's smart quotes: chapter's -> chapter\u2019s


def test_every_chapter_in_the_toc_is_in_every_pages_navigation():
    import yaml

    toc = yaml.safe_load((HTML.parent.parent / "_toc.yml").read_text())
    chapters = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    for page in PAGES:
        if page.startswith(("book/", "notebooks/")):
            text = (HTML / page).read_text(encoding="utf-8")
            for chapter in chapters:
                if page != f"{chapter}.html":  # a page links to itself as "#"
                    assert f"{chapter.split('/')[-1]}.html" in text, (page, chapter)


def test_every_chapter_with_a_model_links_its_workbook_for_download():
    from goodput.render import calculations

    for chapter in calculations.CHAPTERS:
        page = (HTML / "notebooks" / f"{chapter}.html").read_text(encoding="utf-8")
        links = re.findall(r'href="([^"]*' + re.escape(chapter) + r'\.xlsx)"', page)
        assert links, f"{chapter}: no link to its workbook"
        target = (HTML / "notebooks" / links[0]).resolve()
        assert target.is_file() and target.read_bytes()[:2] == b"PK", target
