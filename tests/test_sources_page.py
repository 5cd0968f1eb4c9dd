"""Sources a reader can find: each document cited by publisher, title and number or URL, the sources
page giving every document and every log a heading of its own, and no page citing a document by a path
of our repository."""

from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from goodput.core import data
from goodput.core.errors import DataError
from goodput.render import pages, tables

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"


# --- the citations ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(data.documents()))
def test_every_source_has_the_fields_a_reader_finds_it_by(name):
    doc = data.documents()[name]
    assert doc["publisher"].strip() and doc["title"].strip(), name
    assert doc.get("number") or doc.get("url"), f"{name}: neither a document number nor a URL"
    assert "file" not in doc
    assert isinstance(doc.get("year"), int) and 1990 <= doc["year"] <= 2030, name
    if "url" in doc:
        assert doc["url"].startswith("https://"), name
    for key, text in doc.items():  # where we keep our copy is no part of a document's description
        assert "shared/seeds" not in str(text) and not re.search(r"\d{3}_[0-9a-f]{16}", str(text)), (name, key)


# Each as the document itself prints its number, revision and date (see the seeds' first pages and
# revision histories), typed here, not produced by the code under test.
CITED = {
    "SPRABK5": "Texas Instruments, *Throughput Performance Guide for KeyStone II Devices*, SPRABK5, "
               "revision B, 2017. <https://www.ti.com/lit/an/sprabk5b/sprabk5b.pdf>",
    "AN3935": "Freescale Semiconductor, *MSC8156 and MSC8157 PCI Express Performance*, AN3935, Rev. 1 "
              "(November 2011). <https://www.nxp.com/docs/en/application-note/AN3935.pdf>",
    "Intel 324611": "Intel, *Hardware-Based PCI Express Performance Measurement: Remote Lab Demonstration "
                    "Tutorial 3*, document number 324611, Revision 001 (November 2010).",
    "SPRAAQ5": "Srinivas Kurla, *Network Developer's Kit (NDK) Benchmark and Sizing*, Texas Instruments, "
               "SPRAAQ5, 2008.",
    "RFC 5180": "C. Popoviciu, A. Hamza, G. Van de Velde and D. Dugatkin, *IPv6 Benchmarking Methodology for "
                "Network Interconnect Devices*, IETF, RFC 5180, May 2008. <https://www.rfc-editor.org/rfc/rfc5180>",
    # the part number is in the title; the year in the revisions
    "RapidIO Part 6": "RapidIO Trade Association, *RapidIO Interconnect Specification Part 6: LP-Serial "
                      "Physical Layer Specification*, revisions 1.3 (2005), 3.2 (2016) and 4.1 (2017).",
}


@pytest.mark.parametrize("name", list(CITED))
def test_a_citation_reads_publisher_title_number_revision_date_and_url(name):
    assert data.citation(name) == CITED[name]


def test_the_seed_documents_are_cited_at_the_revision_their_text_states():
    assert "SPRABK5" in data.citation("SPRABK5") and "revision B" in data.citation("SPRABK5")
    assert "MCU+ SDK 09.00.00.35 (August 2023)" in data.citation("AM243x MCU+ SDK")
    assert "/AM243X/09_00_00_35/" in data.documents()["AM243x MCU+ SDK"]["url"]
    assert data.documents()["AM243x MCU+ SDK"]["url"].endswith("/DATASHEET_AM243X_EVM.html")


def test_an_unknown_document_is_an_error_naming_the_known_ones():
    with pytest.raises(DataError, match="AN3935"):
        data.citation("AN9999")


def test_a_tables_provenance_cites_its_document():
    table = data.load("an3935-table1")
    assert table.attrs["provenance"]["citation"] == CITED["AN3935"]
    sentence = tables.provenance_sentence(table)
    assert sentence.startswith("*MSC8156/MSC8157 PCI Express bit rate* (Table 1): PCI Express with 8b/10b")
    assert sentence.endswith(f" Source: {CITED['AN3935']}")


def _package_with(root, tmp_path, monkeypatch, edit):
    dst = tmp_path / "published"
    shutil.copytree(root / "data" / "published", dst)
    path = dst / "datapackage.json"
    descriptor = json.loads(path.read_text(encoding="utf-8"))
    edit(next(s for s in descriptor["sources"] if s["name"] == "AN3935"))
    path.write_text(json.dumps(descriptor), encoding="utf-8")
    monkeypatch.setenv("GOODPUT_DATA", str(dst))


@pytest.mark.parametrize("edit, message", [
    (lambda s: s.pop("publisher"), r"source 'AN3935' has no publisher: a reader could not find"),
    (lambda s: s.pop("title"), r"source 'AN3935' has no title"),
    (lambda s: (s.pop("number"), s.pop("url")), r"source 'AN3935' has neither a number nor a url: a reader"),
    (lambda s: s.update(publisher=" "), r"source 'AN3935': 'publisher' must be non-empty text"),
    (lambda s: s.update(url="nxp.com/AN3935.pdf"), r"source 'AN3935': url 'nxp.com/AN3935.pdf' is not a web"),
    (lambda s: s.update(year="2011"), r"source 'AN3935': year '2011' is not a number"),
    (lambda s: s.update(file="shared/seeds/001_bc26bdff4a6401f0.txt"), r"source 'AN3935' is named by a file"),
], ids=["no publisher", "no title", "neither number nor url", "blank publisher", "url without scheme",
        "year as text", "a file instead of a citation"])
def test_a_source_a_reader_could_not_find_is_refused_naming_it(root, tmp_path, monkeypatch, edit, message):
    _package_with(root, tmp_path, monkeypatch, edit)
    with pytest.raises(DataError, match=message):
        data.load("an3935-table1")


def test_a_source_with_a_url_and_no_number_is_cited_by_its_url(root, tmp_path, monkeypatch):
    _package_with(root, tmp_path, monkeypatch, lambda s: s.pop("number"))
    assert data.citation("AN3935") == ("Freescale Semiconductor, *MSC8156 and MSC8157 PCI Express Performance*, "
                                       "Rev. 1 (November 2011). <https://www.nxp.com/docs/en/application-note/AN3935.pdf>")


# --- the page's headings -----------------------------------------------------------------------------

def test_every_document_and_every_log_has_an_anchor_of_its_own():
    labels = [pages.source_label(k) for k in data.documents()]
    logs = [p for p in (ROOT / "data" / "logs").rglob("*.log")]
    labels += [pages.log_label(p) for p in logs]
    assert len(set(labels)) == len(labels) == len(data.documents()) + len(logs)
    assert pages.source_label("AN3935") == "source-an3935"
    assert pages.source_label("Linux can/length.h") == "source-linux-can-length-h"
    assert pages.log_label(ROOT / "data" / "logs" / "host" / "memcopy.log") == "log-memcopy"


def test_a_log_whose_source_names_no_document_is_refused_naming_the_log(tmp_path, monkeypatch):
    published = tmp_path / "logs" / "published"
    published.mkdir(parents=True)
    (published / "x.log").write_text("# source: ACME 12, A Guide, §1 Intro\n# excerpt: a.txt lines 1-2\nline\n")
    real = data.package()
    monkeypatch.setenv("GOODPUT_DATA", str(tmp_path / "published"))
    monkeypatch.setattr(data, "package", lambda: real)
    with pytest.raises(DataError, match=r"x\.log: its source header 'ACME 12, A Guide, §1 Intro' names none"):
        pages.logs_markdown()


def test_an_excerpt_cites_its_document_and_section_not_the_text_it_was_cut_from():
    text = pages.logs_markdown()
    block = text[text.index("### intel-324611-test1-ahb.log"):text.index("(log-intel-324611-test10-ahb)=")]
    assert "Copied verbatim from {ref}`Intel 324611 <source-intel-324611>`, §4.4 Test 1: Two Write Accesses." in block
    assert "excerpt" not in block and ".txt" not in block
    run = text[text.index("### memcopy.log"):]
    assert "- command: `firmware/build/memcopy`" in run and "- compiler: cc (Debian" in run


# --- the built book ---------------------------------------------------------------------------------

class _Text(HTMLParser):
    """A page's text as a reader sees it (no script or style) and the addresses its links go to."""

    def __init__(self):
        super().__init__()
        self.parts, self.hrefs, self._skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, text):
        if not self._skip:
            self.parts.append(text)

    def text(self) -> str:
        return re.sub(r"\s+", " ", html.unescape("".join(self.parts))).replace("\u2019", "'")


def _read(page: Path) -> _Text:
    parser = _Text()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


#: Where we keep our copies of the documents and tables: a reader can neither open nor look these up.
PATH_CITATIONS = re.compile(r"""
    shared/seeds                     # the folder of the plain-text conversions
  | seeds/\d{3}                      # a conversion by its folder and number
  | \b\d{3}_[0-9a-f]{16}\.txt        # a conversion by its file name
  | data/published/[\w.-]+\.csv      # a transcribed table by its file
""", re.VERBOSE)


@pytest.mark.book
def test_no_built_page_cites_a_document_by_a_path_of_our_repository():
    """A document is cited by path when a page names, as text or as a link, one of our copies of it: the
    plain-text conversions the book was written from (``shared/seeds/``, ``seeds/000``, a file like
    ``000_1658f47dd86e02c3.txt``) or a transcribed table's file (``data/published/<table>.csv``). A reader
    can open none of them. Naming the folder ``data/published/`` (where the transcriptions are), a table by
    its name in the data package (``an3935-table1``) or a log by its file name (our own logs are named by
    their files; a verbatim excerpt's heading is its file name and its text cites the document) is not
    citing by path: the document itself is cited by publisher, title and number or URL on the sources page,
    which this test also reads."""
    pages_ = [p for p in HTML.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts]
    assert len(pages_) > 10, "build the book first (make book)"
    found = []
    for page in pages_:
        read = _read(page)
        for where in [read.text(), *read.hrefs]:
            found += [f"{page.relative_to(HTML)}: {m.group(0)!r}" for m in PATH_CITATIONS.finditer(where)]
    assert not found, "\n".join(found)
    shown = _read(HTML / "book" / "sources.html").text()
    for name in data.documents():
        citation = re.sub(r"[*<>]", "", data.citation(name))  # as the Markdown shows it
        assert citation in shown, name


@pytest.mark.book
def test_the_sources_pages_contents_list_every_document_and_every_log():
    page = (HTML / "book" / "sources.html").read_text(encoding="utf-8")
    toc = page[page.index('id="pst-page-toc-nav"'):]
    toc = toc[:toc.index("</nav>")]
    links = dict(re.findall(r'<a class="reference internal nav-link" href="#([^"]+)">(.*?)</a>', toc))
    titles = [html.unescape(t).replace("\u2019", "'") for t in links.values()]
    for name in data.documents():
        assert pages.source_heading(name) in titles, name
        assert f'id="{pages.source_label(name)}"' in page, name  # sources.html#source-an3935
    logs = [p for p in (ROOT / "data" / "logs").rglob("*.log") if p.name != "build-times.log"]
    for log in logs:
        assert log.name in titles, log.name
        assert f'id="{pages.log_label(log)}"' in page, log.name
    assert titles.count("Log excerpts from the documents") == titles.count("Logs of our runs") == 1
    # both levels shown, each log under its group, not only while the reader is in it (show_toc_level: 2)
    for group in ("log-excerpts-from-the-documents", "logs-of-our-runs"):
        assert re.search(rf'href="#{group}">[^<]*</a><ul class="pst-show_toc_level ', toc), group


#: Text of the page that runs out of the article's column (a word too long for it).
TEXT_OUT_OF_COLUMN = """
() => {
  const column = document.querySelector('article.bd-article').getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll('article.bd-article p, article.bd-article li, article.bd-article h2, article.bd-article h3')) {
    const r = el.getBoundingClientRect();
    if (r.width && (el.scrollWidth > el.clientWidth + 1 || r.right > column.right + 1))
      out.push(`${el.tagName} "${el.textContent.trim().slice(0, 60)}"`);
  }
  return out;
}
"""


@pytest.mark.book
@pytest.mark.parametrize("width", ["1366px", "390px"])
def test_the_sources_pages_text_stays_in_its_column(browser, book_url, width):
    from browser import WIDTHS, errors, opened

    with opened(browser, book_url + "book/sources.html", viewport=WIDTHS[width]) as (page, log):
        assert page.evaluate(TEXT_OUT_OF_COLUMN) == []
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert not errors(log) and not log["failed"], log
