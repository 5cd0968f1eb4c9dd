"""What each page of the built book loads, held to its budget (goodput.render.status.PAGE_WEIGHTS).

A page is opened in chromium until the network is idle (its charts drawn, its fonts loaded) and every
file it requested but its own HTML is weighed as it lies on disk, uncompressed: the theme's style
sheets and icon font, the book's scripts, vega on a page with a chart, KaTeX's fonts on a page with
formulas. The README states the same budgets.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from goodput.render import status

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"

# the page shown (the root's page sends the reader on to the introduction) and every file it requested
LOADED = """async () => {
  if (window.goodputLive) await window.goodputLive.settled();
  await document.fonts.ready;
  return [location.href, performance.getEntriesByType('resource').map(e => e.name)];
}"""


def page_bytes(urls: list[str], html: Path = HTML) -> dict[str, int]:
    """The size on disk of each file of the site at ``html`` that ``urls`` name (another address counts nothing)."""
    files = {html / unquote(urlparse(u).path).lstrip("/") for u in urls}
    return {str(f.relative_to(html)): f.stat().st_size for f in files if f.is_file()}


def test_the_readme_states_each_page_budget(root):
    readme = (root / "README.md").read_text(encoding="utf-8")
    stated = dict(re.findall(r"^\| `(\w+)` \| [^|]* \| ([\d.]+) MB \|$", readme, flags=re.M))
    assert stated == {page: f"{mb:g}" for page, mb in status.PAGE_WEIGHTS.items()}


def within_its_budget(tab):
    """The page open in ``tab`` (loaded until the network was idle) loads no more than its budget. Run by
    tests/test_page_tour_browser.py on every chapter and prose page at 1366 px, and by
    test_book_browser.test_every_other_page_loads_offline_without_errors on the rest."""
    shown, urls = tab.evaluate(LOADED)
    files = page_bytes(urls)
    chart = "vegaEmbed(" in (HTML / unquote(urlparse(shown).path).lstrip("/")).read_text(encoding="utf-8")
    budget = status.PAGE_WEIGHTS["chart_page" if chart else "prose_page"]
    heaviest = ", ".join(f"{name} {size / 1e3:.0f} kB" for name, size in sorted(files.items(), key=lambda kv: -kv[1])[:5])
    assert sum(files.values()) <= budget * 1e6, f"{sum(files.values()) / 1e6:.3f} MB; the heaviest: {heaviest}"
