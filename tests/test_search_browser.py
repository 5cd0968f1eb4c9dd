"""The built book's search in chromium: it finds a chapter by what the chapter says (its prose, headings and
what its cells print), not by its code, and a hit shows the prose around the words found; and the page at
the site's root takes the address's query and fragment to the book's first page (make test builds the
book first)."""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser import errors, opened, revisit
from sphinx.search.en import SearchEnglish

from goodput.core import chapters

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"


def _index() -> dict:
    """The search index the book loads (``searchindex.js``: ``Search.setIndex({...})``)."""
    text = (HTML / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1:text.rindex(")")])


def _cells(kind: str):
    for chapter in chapters.CHAPTERS:
        notebook = json.loads((ROOT / "notebooks" / f"{chapter.id}.ipynb").read_text(encoding="utf-8"))
        yield from (c for c in notebook["cells"] if c["cell_type"] == kind)


@functools.cache
def _code_only_names() -> set[str]:
    """Names with an underscore that the chapters' code cells write and that no chapter shows a reader:
    no Markdown cell, no output."""
    code = {w.lower() for c in _cells("code") for w in re.findall(r"\b[A-Za-z]+_\w+", "".join(c["source"]))}
    shown = " ".join(["".join(c["source"]) for c in _cells("markdown")]
                     + [json.dumps(c.get("outputs", [])) for c in _cells("code")]).lower()
    return {w for w in code if w not in shown}


def _pages(where) -> list[int]:
    return where if isinstance(where, list) else [where]


def test_the_search_index_finds_no_chapter_by_a_name_only_its_code_writes():
    names = _code_only_names()
    assert len(names) > 20, "the check is void without names only code writes"
    stem = SearchEnglish({}).stem
    index = _index()
    chapter_pages = {i for i, doc in enumerate(index["docnames"]) if doc.startswith("notebooks/")}
    words = {w for terms in (index["terms"], index["titleterms"]) for w, where in terms.items()
             if chapter_pages & set(_pages(where))}
    assert sorted(n for n in names if n in words or stem(n).lower() in words) == []


def test_the_search_index_holds_the_chapters_prose_and_what_their_cells_print():
    index = _index()
    docs = index["docnames"]
    for chapter in chapters.CHAPTERS:
        doc = docs.index(f"notebooks/{chapter.id}")
        # the words of its prose and of what its cells print, and of its headings
        found = {w for w, where in index["terms"].items() if doc in _pages(where)}
        titles = {w for w, where in index["titleterms"].items() if doc in _pages(where)}
        assert len(found) > 100 and titles, chapter.id


#: What a reader types, and the chapters that explain it.
TERMS = {"MRRS": ("pcie-packets", "pcie-reads"), "RCB": ("pcie-reads",), "MPS": ("pcie-packets", "pcie-reads"),
         "IFG": ("ethernet-framing",), "stuff bits": ("can-fd",), "8b/10b": ("line-coding",)}

#: A page's prose as a reader reads it: its article without code cells' source and the button that unfolds
#: it, displayed formulas, KaTeX's MathML copy of an inline formula, heading links and scripts; the text of
#: each block and cell apart; whitespace as one space.
PROSE = """async (address) => {
  const page = new DOMParser().parseFromString(await (await fetch(address)).text(), 'text/html');
  const article = page.querySelector('article');
  const code = [...article.querySelectorAll('.cell_input')].map(c => c.textContent);
  article.querySelectorAll('.cell_input, details.above-input > summary, .katex-display, .katex-mathml, .headerlink, '
                           + 'script, style').forEach(e => e.remove());
  article.querySelectorAll('p, li, dt, dd, td, th, caption, h1, h2, h3, h4, h5, h6, br, div').forEach(e => e.after(' '));
  return {prose: article.textContent.replace(/\\s+/g, ' '), code};
}"""


def _hits(page, term, chapter):
    """The search page's hits for ``term``, once ``chapter``'s summary (or the last hit's) is shown."""
    page.wait_for_function("""() => /Search finished|did not match/.test(
      document.querySelector('#search-results .search-summary')?.textContent || '')""", timeout=30000)
    page.wait_for_function("""(chapter) => { const items = [...document.querySelectorAll('#search-results li')];
      const wanted = items.find(li => li.querySelector('a').getAttribute('href').includes(chapter));
      return items.length && (wanted || items[items.length - 1]).querySelector('p.context'); }""",
                           arg=chapter, timeout=30000)
    return page.evaluate("""() => [...document.querySelectorAll('#search-results li')].map(li => ({
      href: li.querySelector('a').getAttribute('href'),
      summary: li.querySelector('p.context')?.textContent.replace(/\\s+/g, ' ') || null}))""")


def test_a_term_a_reader_types_finds_the_chapters_that_explain_it_with_prose_around_it(browser, book_url):
    with opened(browser, "about:blank") as (page, log):
        for term, chapters in TERMS.items():
            revisit(page, book_url + "search.html?q=" + term.replace(" ", "+"))
            for chapter in chapters:
                hits = _hits(page, term, chapter)
                found = [h for h in hits if urlparse(h["href"]).path.endswith(f"notebooks/{chapter}.html")]
                assert found, (term, chapter, [h["href"] for h in hits])
                summary = found[0]["summary"]
                assert summary, (term, found)
                text = page.evaluate(PROSE, book_url + f"notebooks/{chapter}.html")
                shown = summary.strip().removeprefix("...").removesuffix("...").strip()
                assert len(shown) > 40 and shown in text["prose"], (term, summary)
                lines = [line.strip() for code in text["code"] for line in code.splitlines() if len(line.strip()) > 12]
                assert [line for line in lines if line in summary] == [], term
                # around the words typed, where the page shows them (a page that spells out IFG need not)
                words = [w.lower() for w in re.split(r"[^\w/]+", term) if len(w) > 1]
                if any(w in text["prose"].lower() for w in words):
                    assert any(w in summary.lower() for w in words), (term, summary)
            assert errors(log) == [], term


# --- the root page ---------------------------------------------------------------------------------------

def _landed(page, address) -> str:
    """The first address the page's frame reaches after ``address`` that is not the root page."""
    seen = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and seen.append(frame.url))
    page.goto(address, wait_until="commit")  # the root page leaves at once
    page.wait_for_url(re.compile(r".*/book/intro\.html.*"))
    return next(u for u in seen if "/book/intro.html" in u)


def test_the_root_page_takes_the_query_and_fragment_to_the_first_page(browser, book_url):
    with opened(browser, book_url + "book/how-to-read.html") as (page, log):  # a page that stays
        assert _landed(page, book_url + "index.html?links=x#y") == book_url + "book/intro.html?links=x#y"
        assert _landed(page, book_url + "?links=pcie-3-x8&size=4096#what-the-book-finds") == (
            book_url + "book/intro.html?links=pcie-3-x8&size=4096#what-the-book-finds")
        assert _landed(page, book_url) == book_url + "book/intro.html"
        assert log["foreign"] == []


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_the_root_page_works_at_a_sub_path_and_from_a_file(browser, tmp_path):
    (tmp_path / "goodput").symlink_to(HTML, target_is_directory=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/goodput/"
        with opened(browser, base + "book/how-to-read.html") as (page, log):
            assert _landed(page, base + "?links=x#y") == base + "book/intro.html?links=x#y"
            assert log["foreign"] == []
    finally:
        server.shutdown()
        server.server_close()
    with opened(browser, "about:blank") as (page, log):
        root = (HTML / "index.html").as_uri()
        assert _landed(page, root + "?links=x#y") == (HTML / "book" / "intro.html").as_uri() + "?links=x#y"
