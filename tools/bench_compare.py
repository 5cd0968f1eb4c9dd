"""Benchmark: the comparison chart of choose-a-link redrawn after each kind of change to its list of links.

Usage: .venv/bin/python tools/bench_compare.py [REPEATS] [--page PATH] [--profile]

Serves _build/html on 127.0.0.1 and opens notebooks/choose-a-link.html in headless chromium at
1366 px, with the chart's eight configurations (goodput.render.chapters.choose_a_link.DEFAULT_LINKS). For each
kind of change a reader makes to the list, REPEATS times (default 25), it times in the page with
performance.now() the span from the control's event to the chart showing the new list
(``goodputLive.settled()`` and the next animation frame):

- ``select``: one setting of one row (the first row's lanes, back and forth);
- ``add``: a family picked and "Add a link" clicked (eight rows become nine);
- ``remove``: the added row's "Remove" clicked (nine become eight again).

Each change starts just after an animation frame, so ``update_ms`` counts whole frames (about 16.7 ms each
in headless chromium): about 17 ms means the very next frame shows the change, about 33 ms the one after.
``settled_ms`` is the same span without the wait for the frame (the page's script and vega's dataflow and
rendering), ``handler_median_ms`` the part spent in the control's event handler itself. ``--page`` times
another page with the same chart (book/intro.html); ``--profile`` adds the time each embedded view spends
in vega (its data changes and runs). Prints one JSON object (median, p90 and max per kind, ms). Not a test:
nothing fails on time. The goal is a 16 ms median for each kind: the next frame shows the change.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

HTML = Path(__file__).resolve().parent.parent / "_build" / "html"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# One change of the list through its own elements, timed to the moment the chart shows it.
CHANGE = """async ([kind, i]) => {
  const figure = document.getElementById('figure-compare');
  const control = figure.querySelector('.goodput-links-control');
  const rows = () => control.querySelectorAll('li.goodput-link');
  let act;
  if (kind === 'select') {
    const lanes = rows()[0].querySelectorAll('select')[1];
    act = () => {
      lanes.selectedIndex = lanes.selectedIndex === 2 ? 3 : 2;
      lanes.dispatchEvent(new Event('change', {bubbles: true}));
    };
  } else if (kind === 'add') {
    const pick = control.querySelector('.goodput-link-adder select');
    pick.selectedIndex = i % pick.options.length;
    act = () => control.querySelector('button.goodput-link-add').click();
  } else {
    const all = rows();
    act = () => all[all.length - 1].querySelector('button.goodput-link-remove').click();
  }
  await new Promise(requestAnimationFrame);
  const t0 = performance.now();
  act();
  const handled = performance.now() - t0;
  await window.goodputLive.settled();
  const settled = performance.now() - t0;
  await new Promise(requestAnimationFrame);
  return {total: performance.now() - t0, settled, handler: handled, rows: rows().length};
}"""

# Timers around vega's work, installed once: each view's runAsync and data replacement, each table's refresh.
PROFILE = """() => {
  window.__spent = {};
  const add = (name, ms) => { window.__spent[name] = (window.__spent[name] || 0) + ms; };
  const views = [...new Set(window.__views)];
  views.forEach((v, n) => {
    const name = (v.container().closest('.goodput-live') || {}).id || `view ${n}`;
    for (const method of ['runAsync', 'data']) {
      const own = v[method].bind(v);
      v[method] = function (...args) {
        const t0 = performance.now();
        const out = own(...args);
        if (out && typeof out.then === 'function') return out.then(r => { add(`${name} ${method}`, performance.now() - t0); return r; });
        add(`${name} ${method}`, performance.now() - t0);
        return out;
      };
    }
  });
}"""

CAPTURE = """
(() => {
  window.__views = [];
  let wrapped;
  Object.defineProperty(window, 'vegaEmbed', {configurable: true, get() { return wrapped; },
    set(embed) { wrapped = (...args) => embed(...args).then(r => { window.__views.push(r.view); return r; });
                 Object.assign(wrapped, embed); }});
})();
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _summary(times: list[float]) -> dict:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return {"median_ms": round(statistics.median(ordered), 1), "p90_ms": round(p90, 1),
            "max_ms": round(ordered[-1], 1)}


def main(repeats: int, path: str, profile: bool) -> dict:
    handler = functools.partial(_Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    times: dict[str, list[float]] = {"select": [], "add": [], "remove": []}
    handler_ms: dict[str, list[float]] = {k: [] for k in times}
    settled_ms: dict[str, list[float]] = {k: [] for k in times}
    spent: dict = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.add_init_script(CAPTURE)
            page.goto(base + path, wait_until="networkidle")
            page.wait_for_function("() => window.goodputLive && document.querySelector('#figure-compare li')")
            page.evaluate("() => window.goodputLive.settled()")
            configurations = page.locator("#figure-compare li.goodput-link").count()
            if profile:
                page.evaluate(PROFILE)
            for i in range(repeats + 2):  # the first two of each kind warm the page up
                for kind in ("select", "add", "remove"):
                    r = page.evaluate(CHANGE, [kind, i])
                    if i >= 2:
                        times[kind].append(r["total"])
                        settled_ms[kind].append(r["settled"])
                        handler_ms[kind].append(r["handler"])
            if profile:
                spent = page.evaluate("() => window.__spent")
            browser.close()
    finally:
        server.shutdown()
    out = {"page": path, "configurations": configurations, "repeats": repeats,
           "update_ms": {k: _summary(v) for k, v in times.items()},
           "settled_ms": {k: _summary(v) for k, v in settled_ms.items()},
           "handler_median_ms": {k: round(statistics.median(v), 1) for k, v in handler_ms.items()}}
    if profile:
        changes = 3 * (repeats + 2)
        out["vega_ms_per_change"] = {k: round(v / changes, 2) for k, v in sorted(spent.items())}
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=25)
    parser.add_argument("--page", default="notebooks/choose-a-link.html")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(json.dumps(main(args.repeats, args.page, args.profile), indent=1))
