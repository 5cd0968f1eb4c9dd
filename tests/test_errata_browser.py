"""The built errata page and the chapters' check tables link to each other's rows, and the errata
tables sort and filter in chromium, at a laptop's and a phone's width (make test builds the book first)."""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from browser import WIDTHS, errors, opened, revisit

from goodput import checks
from goodput.core import chapters

pytestmark = pytest.mark.book

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"
ERRATA = HTML / "book" / "errata.html"
TABLE = "table.goodput-erratum-table"


def _first_group_of_several():
    """The first row of the errata page that gathers several cells (one explanation of many numbers)."""
    return next(g for g in checks.groups(c for c in checks.collect() if c.status == "erratum") if len(g) > 1)


GROUP = _first_group_of_several()
GROUP_ID = checks.group_anchor(GROUP)


def _page(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _row_ids(text: str) -> Counter:
    return Counter(re.findall(r'<tr id="([^"]+)"', text))


def _chapter_pages() -> list[Path]:
    return sorted((HTML / "notebooks").glob("*.html"))


def _flagged():
    """The checks the errata page lists."""
    return [c for c in checks.collect() if c.status in checks.ERRATA]


def test_a_chapter_shows_every_check_that_is_off_but_no_erratum_with_its_reason():
    for c in (c for c in checks.collect() if c.status not in checks.ERRATA + ("ok",)):
        text = _page(HTML / "notebooks" / f"{c.chapter}.html")
        row = re.search(rf'<tr id="{checks.anchor(c)}">(.*?)</tr>', text, flags=re.S)
        assert row and f">{c.status}<" in row.group(1) and "errata.html#" not in row.group(1), checks.anchor(c)
        assert not c.note or html.escape(c.note)[:40] in row.group(1), checks.anchor(c)


# --- the links, as built ------------------------------------------------------------------------------

def test_every_cell_the_errata_page_lists_links_a_row_its_chapter_page_shows():
    links = re.findall(r'href="\.\./notebooks/([a-z0-9-]+)\.html#([^"]+)"', _page(ERRATA))
    assert len(links) == len(_flagged())
    for chapter, ident in links:
        assert _row_ids(_page(HTML / "notebooks" / f"{chapter}.html"))[ident] == 1, (chapter, ident)


def test_every_back_link_of_a_chapter_lands_on_a_row_of_the_errata_page():
    rows = _row_ids(_page(ERRATA))
    back = [(p.name, ident) for p in _chapter_pages()
            for ident in re.findall(r'href="\.\./book/errata\.html#([^"]+)"', _page(p))]
    assert len(back) >= len(_flagged())
    assert [b for b in back if rows[b[1]] != 1] == []


def test_every_flagged_check_is_a_row_of_its_chapter_with_its_id_and_a_link_back():
    pages = {}
    for c in _flagged():
        text = pages.setdefault(c.chapter, _page(HTML / "notebooks" / f"{c.chapter}.html"))
        row = re.search(rf'<tr id="{checks.anchor(c)}">(.*?)</tr>', text, flags=re.S)
        assert row, checks.anchor(c)
        assert re.search(rf'href="\.\./book/errata\.html#{c.status}-[a-z0-9-]+"', row.group(1)), checks.anchor(c)


@pytest.mark.parametrize("page", _chapter_pages(), ids=lambda p: p.stem)
def test_no_check_row_id_is_given_twice_on_a_chapter_page(page):
    ids = _row_ids(_page(page))
    assert [i for i, n in ids.items() if i.startswith("check-") and n > 1] == []


def test_a_row_of_several_cells_on_the_errata_page_links_each_of_them():
    row = re.search(rf'<tr id="{GROUP_ID}">(.*?)</tr>', _page(ERRATA), flags=re.S).group(1)
    cells = re.findall(rf'href="\.\./notebooks/{GROUP[0].chapter}\.html#(check-[^"]+)"', row)
    assert cells == [checks.anchor(c) for c in GROUP] and len(set(cells)) == len(GROUP) > 1


def test_only_the_errata_page_loads_the_sort_script():
    pages = [p for p in HTML.rglob("*.html") if "_static" not in p.parts and "goodput-sort.js" in _page(p)]
    assert pages == [ERRATA]


# --- in chromium ------------------------------------------------------------------------------------

VISIBLE_ROWS = f"""() => [...document.querySelectorAll('{TABLE} tbody tr')].filter(r => !r.hidden)
  .map(r => [...r.cells].map(c => c.textContent.trim()))"""
HEADINGS = f"[...document.querySelectorAll('{TABLE} thead th')].map(th => th.textContent.trim())"


def _column(page, heading):
    names = page.evaluate(f"() => {HEADINGS}")
    return [row[names.index(heading)] for row in page.evaluate(VISIBLE_ROWS)]


def _sort_button(page, heading):
    return page.locator(f"{TABLE} thead th").filter(has_text=re.compile(rf"^{heading}$")).locator("button")


def _number(text: str) -> float:
    """A printed value as the documents print it: decimal, or hexadecimal ``0x...`` (a byte, an address, a CRC)."""
    return int(text, 16) if text.strip().lower().startswith("0x") else float(text)


def _aria_sort(page, heading):
    return page.locator(f"{TABLE} thead th").filter(has_text=re.compile(rf"^{heading}$")).get_attribute("aria-sort")


def a_click_on_a_heading_sorts_the_errata_rows_and_again_the_other_way(page, log):
    before = _column(page, "printed")
    assert _aria_sort(page, "printed") is None
    _sort_button(page, "printed").click()
    up = _column(page, "printed")
    first = [_number(v.split(",")[0]) for v in up]
    assert first == sorted(first) and up != before and sorted(up) == sorted(before)
    assert _aria_sort(page, "printed") == "ascending"
    _sort_button(page, "printed").click()
    assert [_number(v.split(",")[0]) for v in _column(page, "printed")] == sorted(first, reverse=True)
    assert _aria_sort(page, "printed") == "descending"
    _sort_button(page, "where").click()  # text: "Table 2" before "Table 10"
    assert _aria_sort(page, "printed") is None and _aria_sort(page, "where") == "ascending"
    where = _column(page, "where")
    tables = [int(m.group(1)) for w in where if (m := re.match(r"Table (\d+)\b", w))]
    assert tables == sorted(tables) and min(tables) < 10 <= max(tables)
    assert errors(log) == []


def the_sort_buttons_work_from_the_keyboard(page, log):
    page.locator(".goodput-table-tools input").first.focus()
    for _ in range(30):  # Tab from the filter box to the headings, as a reader without a mouse
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.closest('th')?.textContent.trim()") == "document":
            break
    else:
        pytest.fail("Tab never reached the document heading's button")
    assert page.evaluate("() => document.activeElement.tagName") == "BUTTON"
    page.keyboard.press("Enter")
    assert _aria_sort(page, "document") == "ascending"
    documents = _column(page, "document")
    assert documents == sorted(documents, key=str.casefold)
    page.keyboard.press("Space")
    assert _aria_sort(page, "document") == "descending"
    assert errors(log) == []


def typing_a_filter_shows_only_the_rows_that_match_and_says_how_many(page, log):
    groups = checks.groups(c for c in checks.collect() if c.status == "erratum")
    document = GROUP[0].document
    of_document = sum(g[0].document == document for g in groups)
    ethernet = sum(g[0].chapter == "ethernet-framing" for g in groups)
    tools = page.locator(".goodput-table-tools").first
    count = tools.locator(".goodput-table-count")
    assert count.text_content() == f"{len(groups)} of {len(groups)} rows"
    tools.get_by_label("Filter").fill(document.lower())
    assert count.text_content() == f"{of_document} of {len(groups)} rows"
    assert {row[0] for row in page.evaluate(VISIBLE_ROWS)} == {document}
    tools.get_by_label("Filter").fill("")
    tools.get_by_label("chapter").select_option(label="Ethernet framing")
    assert count.text_content() == f"{ethernet} of {len(groups)} rows"
    assert set(_column(page, "chapter")) == {"Ethernet framing"}
    tools.get_by_label("Filter").fill("no such words at all")
    assert count.text_content() == f"0 of {len(groups)} rows" and page.evaluate(VISIBLE_ROWS) == []
    # and back to every row
    tools.get_by_label("Filter").fill("")
    tools.get_by_label("chapter").select_option(label="all")
    assert count.text_content() == f"{len(groups)} of {len(groups)} rows"
    assert errors(log) == []


def the_errata_page_and_its_tools_fit_the_window(page, log):
    page.wait_for_timeout(200)  # goodput-tables.js lays the tables out after a frame
    found = page.evaluate("""() => ({
      page: document.documentElement.scrollWidth - innerWidth,
      out: [...document.querySelectorAll('article .goodput-table-tools *, article table.goodput-sortable *')]
        .filter(e => e.getClientRects().length)
        .filter(e => { const r = e.getBoundingClientRect(); return r.left < -1 || r.right > innerWidth + 1; })
        .map(e => e.tagName + ' ' + e.textContent.slice(0, 40)),
      buttons: [...document.querySelectorAll('table.goodput-sortable thead button')]
        .filter(b => { const r = b.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= innerWidth; }).length,
      headings: document.querySelectorAll('table.goodput-sortable thead th').length,
      // a card shows each value beside its heading: one element or one run of text per cell
      split: [...document.querySelectorAll('table.goodput-sortable td')]
        .filter(td => [...td.childNodes].filter(n => n.nodeType === 1 || n.textContent.trim()).length > 1)
        .map(td => td.dataset.label),
    })""")
    assert found["page"] <= 0 and found["out"] == [] and found["split"] == []
    assert found["buttons"] == found["headings"] > 0  # as cards too, every heading's button shows
    assert errors(log) == []


def a_cell_of_the_errata_page_leads_to_its_row_in_the_chapter_and_back(page, log):
    second = checks.anchor(GROUP[1])
    page.locator(f"#{GROUP_ID} a[href$='#{second}']").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"{GROUP[0].chapter}.html#{second}")
    row = page.locator("tr:target")
    assert row.count() == 1 and row.is_visible()
    assert row.evaluate("r => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.top < innerHeight; }")
    row.locator("a[href*='errata.html#']").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"errata.html#{GROUP_ID}")
    back = page.locator("tr:target")
    assert back.get_attribute("id") == GROUP_ID
    page.wait_for_timeout(100)  # the sort script brings the row back into view after adding its tools
    assert back.evaluate("r => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.top < innerHeight; }")
    assert errors(log) == []


# --- a table where it fits, a filter over what the rows show, the state in the address ------------------

LAYOUT = """(selector) => { const table = document.querySelector(selector); const holder = table.parentElement;
  const cards = table.classList.contains('goodput-cards');
  table.classList.remove('goodput-cards');
  const width = table.style.width;
  table.style.width = 'min-content';  // its narrowest: every cell wrapped as far as its words allow
  const narrowest = table.getBoundingClientRect().width;
  table.style.width = width;
  if (cards) table.classList.add('goodput-cards');
  return {cards, display: getComputedStyle(table).display, narrowest, column: holder.clientWidth,
          width: table.getBoundingClientRect().width};
}"""


def the_errata_tables_are_tables_at_a_laptops_width_and_cards_on_a_phone(page, log):
    """At 1366 px each errata table is a table; the window narrowed to a phone's, cards; widened again, tables."""
    page.wait_for_timeout(200)  # goodput-tables.js lays the tables out after a frame
    for table in (TABLE, "table.goodput-unexplained-table"):
        wide = page.evaluate(LAYOUT, table)
        # the cause, not the threshold: at its narrowest the table fits its column
        assert wide["narrowest"] <= wide["column"], (table, wide)
        assert not wide["cards"] and wide["display"] == "table" and wide["width"] <= wide["column"] + 1, (table, wide)
    page.set_viewport_size(WIDTHS["390px"])
    page.wait_for_timeout(200)
    for table in (TABLE, "table.goodput-unexplained-table"):
        narrow = page.evaluate(LAYOUT, table)
        assert narrow["cards"] and narrow["narrowest"] > narrow["column"], (table, narrow)
    page.set_viewport_size(WIDTHS["1366px"])
    page.wait_for_timeout(200)
    assert page.evaluate(LAYOUT, TABLE)["cards"] is False
    assert errors(log) == []


def _searchable(group) -> str:
    """What a row of the errata page shows, as the checks give it."""
    first = group[0]
    return " ".join([first.document, first.where, first.chapter, chapters.get(first.chapter).title.split(":")[0],
                     first.note or "", *(f"{c.row} {c.quantity} {c.unit} {c.published} {c.model}" for c in group)])


def _filtered(page, text):
    tools = page.locator(".goodput-table-tools").first
    tools.get_by_label("Filter").fill(text)
    return page.evaluate(f"""() => [...document.querySelectorAll('{TABLE} tbody tr')].filter(r => !r.hidden)
      .map(r => r.id)""")


def the_errata_filter_matches_every_visible_column(page, log):
    groups = checks.groups(c for c in checks.collect() if c.status == "erratum")
    srio = [checks.group_anchor(g) for g in groups if g[0].chapter == "srio"]
    assert srio, "the check is void without a row of the SRIO chapter"
    names = page.evaluate(f"() => {HEADINGS}")
    rows = page.evaluate(f"""() => [...document.querySelectorAll('{TABLE} tbody tr')]
      .map(r => [r.id, [...r.cells].map(c => c.textContent.replace(/\\s+/g, ' ').trim())])""")
    for ident, cells in rows[:: max(1, len(rows) // 8)]:
        for heading, cell in zip(names, cells):
            assert ident in _filtered(page, cell), (heading, cell)
    # the chapter as a reader calls it (its page, srio.html), upper case as they type it
    shown = _filtered(page, "SRIO")
    assert set(srio) <= set(shown)
    by_id = {checks.group_anchor(g): g for g in groups}
    assert all(by_id[i][0].chapter == "srio" or "srio" in _searchable(by_id[i]).lower() for i in shown)
    # the chapter's name as the column shows it, a document, and the table's verdict
    title = chapters.get("srio").title.split(":")[0]
    assert set(_filtered(page, title.lower())) >= set(srio)
    document = GROUP[0].document
    shown = _filtered(page, document)
    assert {i for i, g in by_id.items() if g[0].document == document} <= set(shown)
    assert all(document.lower() in _searchable(by_id[i]).lower() for i in shown)
    assert len(_filtered(page, "erratum")) == len(groups)
    assert errors(log) == []


def _query(page) -> dict:
    """The keys of the page's address as the page holds it now (page.url follows a replaced address late)."""
    return parse_qs(urlparse(page.evaluate("location.href")).query)


def _state(page):
    """What the first errata table's tools and headings show: (filter, chapter chosen, sorted by, rows shown)."""
    tools = page.locator(".goodput-table-tools").first
    return (tools.get_by_label("Filter").input_value(), tools.get_by_label("chapter").input_value(),
            page.evaluate(f"""() => [...document.querySelectorAll('{TABLE} thead th')]
              .filter(th => th.hasAttribute('aria-sort')).map(th => th.textContent.trim() + ' ' + th.getAttribute('aria-sort'))"""),
            page.evaluate(f"""() => [...document.querySelectorAll('{TABLE} tbody tr')].filter(r => !r.hidden).map(r => r.id)"""))


def test_the_errata_filter_and_order_live_in_the_address_and_come_back_with_back_and_a_shared_link(browser, book_url):
    srio = chapters.get("srio").title.split(":")[0]
    with opened(browser, book_url + "book/errata.html?theme=kept") as (page, log):
        tools = page.locator(".goodput-table-tools").first
        tools.get_by_label("Filter").fill("SRIO")
        _sort_button(page, "printed").click()
        _sort_button(page, "printed").click()
        tools.get_by_label("chapter").select_option(label=srio)
        state = _state(page)
        assert state[:3] == ("SRIO", srio, ["printed descending"]) and state[3]
        query = _query(page)
        assert query == {"filter": ["SRIO"], "sort": ["-printed"], "chapter": [srio], "theme": ["kept"]}
        # to the chapter of the first row shown, and Back
        page.locator(f"#{state[3][0]} a[href*='notebooks/srio.html']").first.click()
        page.wait_for_load_state("load")
        assert "/notebooks/srio.html" in page.url
        page.go_back(wait_until="load")
        page.wait_for_timeout(100)
        assert _state(page) == state and _query(page) == query
        shared = page.evaluate("location.href")
        assert errors(log) == []
    with opened(browser, shared, viewport=WIDTHS["390px"]) as (page, log):
        assert _state(page) == state
        tools = page.locator(".goodput-table-tools").first
        tools.get_by_label("Filter").fill("")
        _sort_button(page, "printed").click()  # descending -> ascending
        assert _query(page) == {"sort": ["printed"], "chapter": [srio], "theme": ["kept"]}
        # the second table keeps its state under keys of its own
        second = page.locator(".goodput-table-tools").nth(1)
        second.get_by_label("Filter").fill("boot")
        assert _query(page)["unexplained-filter"] == ["boot"]
        assert tools.get_by_label("Filter").input_value() == ""
        assert errors(log) == []


MALFORMED = [
    "book/errata.html#%E0%A4%A",
    "book/errata.html#%",
    "book/errata.html?filter=%E0%A4%A&sort=%ZZ&chapter=no+such+chapter&unexplained-sort=-nothing#%E0%A4%A",
    "book/errata.html?q=srio",  # every page's search script reads q
    "book/errata.html?q&sort&&=x#",
]


def test_a_malformed_fragment_or_query_on_the_errata_page_raises_no_error(browser, book_url):
    groups = checks.groups(c for c in checks.collect() if c.status == "erratum")
    with opened(browser, "about:blank") as (page, log):
        for address in MALFORMED:
            revisit(page, book_url + address)
            page.wait_for_timeout(200)
            tools = page.locator(".goodput-table-tools").first
            assert tools.locator(".goodput-table-count").text_content().endswith(" rows"), address
            tools.get_by_label("Filter").fill("")  # the page still works
            rows = page.evaluate(VISIBLE_ROWS)
            assert len(rows) == len(groups), address
            assert errors(log) == [], address


#: What tests/test_page_tour_browser.py checks on its load of the errata page at each width, in this order,
#: after the reading checks: the layout as loaded; a cell's link to its chapter and back (a fresh load of
#: the page, every row shown); the sort, then the filter (each leaves every row shown).
TOUR = {
    ("book/errata.html", "1366px"): (the_errata_page_and_its_tools_fit_the_window,
                                     the_errata_tables_are_tables_at_a_laptops_width_and_cards_on_a_phone,
                                     a_cell_of_the_errata_page_leads_to_its_row_in_the_chapter_and_back,
                                     a_click_on_a_heading_sorts_the_errata_rows_and_again_the_other_way,
                                     the_sort_buttons_work_from_the_keyboard,
                                     typing_a_filter_shows_only_the_rows_that_match_and_says_how_many,
                                     the_errata_filter_matches_every_visible_column),
    ("book/errata.html", "390px"): (the_errata_page_and_its_tools_fit_the_window,
                                    a_cell_of_the_errata_page_leads_to_its_row_in_the_chapter_and_back,
                                    a_click_on_a_heading_sorts_the_errata_rows_and_again_the_other_way,
                                    typing_a_filter_shows_only_the_rows_that_match_and_says_how_many),
}
