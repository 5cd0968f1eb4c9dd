"""Benchmark: how long a chapter's chart and calculated table take to recompute after a slider move.

Usage: .venv/bin/python tools/bench_slider.py [MOVES [CHAPTER SLIDER]]

Serves _build/html on 127.0.0.1, opens the chapter's page (default line-coding) in
headless chromium, moves the slider (default line_rate_gbaud) MOVES times (default
20) across its range and reports the time from the input event to the end of the
view's re-run, measured in the page with performance.now(). Prints one JSON object.
Not a test: nothing fails on time.
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

RANGE = """(name) => {
  const input = document.querySelector(`input[type=range][name="${name}"]`);
  return [Number(input.min), Number(input.max), Number(input.step)];
}"""

MOVE = """async ([name, value]) => {
  const input = document.querySelector(`input[type=range][name="${name}"]`);
  const view = window.__views.find(v => { try { v.signal(name); return true; } catch (e) { return false; } });
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


def main(moves: int, chapter: str = "line-coding", slider: str = "line_rate_gbaud") -> dict:
    handler = functools.partial(_Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/notebooks/{chapter}.html"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page()
            page.add_init_script(CAPTURE)
            page.goto(url, wait_until="networkidle")
            page.wait_for_function("() => window.__views.length > 0")
            low, high, step = page.evaluate(RANGE, slider)
            values = [low + round((high - low) * i / (moves - 1) / step) * step for i in range(moves)]
            times = [page.evaluate(MOVE, [slider, v]) for v in values]
            browser.close()
    finally:
        server.shutdown()
    return {
        "chapter": chapter, "slider": slider, "moves": moves,
        "median_ms": round(statistics.median(times), 2),
        "min_ms": round(min(times), 2),
        "max_ms": round(max(times), 2),
        "page_html_bytes": (HTML / "notebooks" / f"{chapter}.html").stat().st_size,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, *sys.argv[2:4])))
