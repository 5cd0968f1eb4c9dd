"""Benchmark: the live figures as a reader meets them, and what each page weighs.

Usage: .venv/bin/python tools/bench_live.py [MOVES] [--screenshots DIR]

Serves _build/html on 127.0.0.1 and opens every chapter with a live figure in headless
chromium at 1366 px. For each, it drags the figure's first slider (or steps through its first
set of buttons) MOVES times (default 25) and times, in the page with performance.now(), the
span from the input event to the chart *and* the calculated table showing the new value
(``goodputLive.settled()`` and the next frame). It also adds up the bytes every page of the
book loads (HTML, scripts, style sheets, fonts, uncompressed, as the files on disk), and with
--screenshots saves pcie-packets, tcp-goodput and keystone-memory-edma at 1366 and 390 px.
Prints one JSON object. Not a test: nothing fails on time.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import threading
from pathlib import Path
from urllib.parse import unquote, urlparse

from playwright.sync_api import sync_playwright

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = ("pcie-packets", "tcp-goodput", "keystone-memory-edma")

# One input event on the figure's first range slider (else its first segmented buttons), timed to
# the moment chart and table show it.
MOVE = """async (i) => {
  const figure = document.querySelector('.goodput-live');
  const range = figure.querySelector('.goodput-control input[type=range]');
  const t0 = performance.now();
  if (range) {
    const low = Number(range.min), high = Number(range.max), step = Number(range.step) || 1;
    const k = Math.round(((i * 7919) % 97) / 96 * (high - low) / step);
    range.value = String(low + k * step);
    range.dispatchEvent(new Event('input', {bubbles: true}));
  } else {
    const buttons = figure.querySelectorAll('.goodput-segmented button');
    buttons[i % buttons.length].click();
  }
  await window.goodputLive.settled();
  await new Promise(requestAnimationFrame);
  return performance.now() - t0;
}"""

LOADED = """() => [location.href, ...performance.getEntriesByType('resource').map(e => e.name)]"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _bytes(urls: list[str]) -> int:
    files = {HTML / unquote(urlparse(u).path).lstrip("/") for u in urls}
    return sum(f.stat().st_size for f in files if f.is_file())


def main(moves: int, shots: Path | None) -> dict:
    handler = functools.partial(_Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    pages = sorted(str(p.relative_to(HTML)) for p in HTML.rglob("*.html")
                   if "_static" not in p.parts and "_sources" not in p.parts)
    updates, weights = {}, {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for path in pages:
                page = browser.new_page(viewport={"width": 1366, "height": 900})
                page.goto(base + path, wait_until="networkidle")
                weights[path] = _bytes(page.evaluate(LOADED))
                if page.locator(".goodput-live").count():
                    page.evaluate("() => window.goodputLive.settled()")
                    times = [page.evaluate(MOVE, i) for i in range(moves)]
                    updates[path] = {"median_ms": round(statistics.median(times), 1),
                                     "max_ms": round(max(times), 1)}
                page.close()
            if shots:
                shots.mkdir(parents=True, exist_ok=True)
                for chapter in SHOTS:
                    for width in (1366, 390):
                        page = browser.new_page(viewport={"width": width, "height": 900})
                        page.goto(base + f"notebooks/{chapter}.html", wait_until="networkidle")
                        page.evaluate("() => window.goodputLive.settled()")
                        page.locator(".goodput-yours").screenshot(path=shots / f"{chapter}-yours-{width}.png")
                        figure = page.locator(".goodput-live").first
                        figure.scroll_into_view_if_needed()
                        page.screenshot(path=shots / f"{chapter}-figure-{width}.png")
                        page.close()
            browser.close()
    finally:
        server.shutdown()
    chapters = {k: v for k, v in weights.items() if k.startswith("notebooks/")}
    prose = {k: v for k, v in weights.items() if not k.startswith("notebooks/")}
    return {
        "moves": moves,
        "update_ms": updates,
        "median_of_medians_ms": round(statistics.median(u["median_ms"] for u in updates.values()), 1),
        "largest_chapter_bytes": max(chapters.values()),
        "largest_prose_page_bytes": max(prose.values()),
        "page_bytes": weights,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", nargs="?", type=int, default=25)
    parser.add_argument("--screenshots", type=Path)
    args = parser.parse_args()
    print(json.dumps(main(args.moves, args.screenshots), indent=1))
