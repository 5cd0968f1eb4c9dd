"""The published site below a sub path (``https://<user>.github.io/goodput/``, where GitHub Pages puts a project's
site): the root page's redirect, a chapter's state in its address, the workbook it links and the search all work
there, with nothing asked of another host."""

from __future__ import annotations

import functools
import http.server
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser import errors, live_ready, opened, operate, revisit, state
from test_search_browser import _hits, _landed

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parent.parent


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The site ``make publish`` writes, served at ``/goodput/`` (and nothing at the host's root)."""
    root = tmp_path_factory.mktemp("host")
    p = subprocess.run(["make", "-s", "publish", f"DEST={root / 'goodput'}"], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/goodput/"
    server.shutdown()
    server.server_close()


def test_the_root_page_leads_to_the_first_page_below_the_sub_path(browser, base):
    with opened(browser, base + "book/how-to-read.html") as (page, log):
        assert _landed(page, base + "?links=x#y") == base + "book/intro.html?links=x#y"
        assert _landed(page, base) == base + "book/intro.html"
        assert errors(log) == []


def test_a_chapters_values_live_in_its_address_below_the_sub_path(browser, base):
    with opened(browser, base + "notebooks/tcp-goodput.html") as (page, log):
        live_ready(page)
        operate(page, "mtu_bytes", 9000, address=True)
        address = urlparse(page.url)
        assert address.path == "/goodput/notebooks/tcp-goodput.html" and "mtu_bytes=9000" in address.query
        revisit(page, page.url)
        live_ready(page)
        assert state(page)["mtu_bytes"] == 9000
        assert errors(log) == []


def test_the_workbook_a_chapter_links_downloads_below_the_sub_path(browser, base):
    with opened(browser, base + "notebooks/tcp-goodput.html") as (page, log):
        href = page.evaluate("() => [...document.querySelectorAll('a')].map(a => a.href)"
                             ".find(h => h.endsWith('tcp-goodput.xlsx'))")
        assert href and urlparse(href).path.startswith("/goodput/_downloads/"), href
        got = page.request.get(href)
        assert got.status == 200 and got.body()[:2] == b"PK"  # an xlsx is a zip
        assert errors(log) == []


def test_the_search_finds_chapters_below_the_sub_path(browser, base):
    with opened(browser, "about:blank") as (page, log):
        revisit(page, base + "search.html?q=MRRS")
        hits = _hits(page, "MRRS", "pcie-reads")
        assert hits and all(urlparse(page.url).path.startswith("/goodput/") for _ in hits)
        targets = {urlparse(page.evaluate("h => new URL(h, location.href).href", h["href"])).path for h in hits}
        assert "/goodput/notebooks/pcie-reads.html" in targets, targets
        assert errors(log) == []
