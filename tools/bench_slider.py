"""Benchmark: how long the line-coding chart takes to recompute after a slider move.

Usage: .venv/bin/python tools/bench_slider.py [MOVES]

Serves _build/html on 127.0.0.1, opens the line-coding page in headless
chromium, moves the line-rate slider MOVES times (default 20) and reports the
time from the input event to the end of the view's re-run, measured in the page
with performance.now(). Prints one JSON object. Not a test: nothing fails on time.
"""

from __future__ import annotations

import functools
import http.server
import json
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

CAPTURE = """
window.__views = [];
let wrapped;
Object.defineProperty(window, 'vegaEmbed', {configurable: true, get() { return wrapped; },
  set(embed) { wrapped = (...a) => embed(...a).then(r => { window.__views.push(r.view); return r; }); }});
"""

MOVE = """async (value) => {
  const input = document.querySelector('input[type=range][name="line_rate_gbaud"]');
  const view = window.__views[0];
  const t0 = performance.now();
  input.value = value;
  input.dispatchEvent(new Event('input', {bubbles: true}));
  await view.runAsync();
  await new Promise(requestAnimationFrame);
  return performance.now() - t0;
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main(moves: int) -> dict:
    handler = functools.partial(_Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/notebooks/line-coding.html"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page()
            page.add_init_script(CAPTURE)
            page.goto(url, wait_until="networkidle")
            page.wait_for_function("() => window.__views.length > 0")
            values = [0.25 + 31.5 * i / (moves - 1) for i in range(moves)]
            times = [page.evaluate(MOVE, round(v / 0.0625) * 0.0625) for v in values]
            browser.close()
    finally:
        server.shutdown()
    return {
        "moves": moves,
        "median_ms": round(statistics.median(times), 2),
        "min_ms": round(min(times), 2),
        "max_ms": round(max(times), 2),
        "page_html_bytes": (HTML / "notebooks" / "line-coding.html").stat().st_size,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)))
