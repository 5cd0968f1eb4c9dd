"""Driving the built book in Debian's chromium (headless, no network), as a reader does.

Shared by the browser tests: opening a page with every request and console error recorded,
the vega views it embeds, and the live figures' controls operated through their own elements
(a click on a button, a typed number and Enter, a select), never by setting state behind them.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 # no host but the book's server resolves: a page cannot reach the network
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
# Console noise known to be harmless in Jupyter Book 1.0.4 (pydata-sphinx-theme).
HARMLESS = (re.compile(r"Got invalid theme mode"),)
#: The widths a reader brings: a laptop and a phone.
WIDTHS = {"1366px": {"width": 1366, "height": 900}, "390px": {"width": 390, "height": 844}}

# Captures every vega View the page embeds, without touching the page's code. A view the page replaces (a
# chart drawn again for another theme or width) is finalized, and marked so: view_index passes over it.
CAPTURE_VIEWS = """
(() => {
  window.__views = [];
  let wrapped;
  Object.defineProperty(window, 'vegaEmbed', {
    configurable: true,
    get() { return wrapped; },
    set(embed) {
      wrapped = function (...args) {
        return embed(...args).then(result => {
          const view = result.view, finalize = view.finalize.bind(view);
          view.finalize = () => { view.__finalized = true; return finalize(); };
          window.__views.push(view);
          return result;
        });
      };
      Object.assign(wrapped, embed);
    }
  });
})();
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the output readable
        pass


@contextmanager
def served(directory: Path):
    """``directory`` served on 127.0.0.1 (a port of its own) while inside: its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def opened(browser, url, viewport=None, permissions=(), wait_until="load", init_script=None, color_scheme=None):
    """``url`` open in a fresh context, closed on leaving: (page, log of foreign/failed requests and errors).

    The page is handed over at its ``load`` event (every script, style sheet and image in it loaded);
    the tests then wait for what they look at (:func:`live_ready`, fonts). Pass
    ``wait_until="networkidle"`` to wait for every late request as well. A request to another host
    is recorded (chromium resolves no other host, see CHROMIUM_ARGS), not intercepted: a route
    through Python would cost every request a round trip. ``init_script`` replaces the script that
    captures each vega View the page draws (:data:`CAPTURE_VIEWS`). ``color_scheme`` ("light" or "dark") is
    the reader's system setting, which the book's theme follows.
    """
    context = browser.new_context(viewport=viewport or WIDTHS["1366px"],
                                  **({"color_scheme": color_scheme} if color_scheme else {}))
    if permissions:
        context.grant_permissions(list(permissions), origin=f"{urlparse(url).scheme}://{urlparse(url).netloc}")
    page = context.new_page()
    page.add_init_script(init_script or CAPTURE_VIEWS)
    log = {"foreign": [], "failed": [], "errors": []}
    host = urlparse(url).netloc

    page.on("request", lambda req: urlparse(req.url).netloc != host and not req.url.startswith("data:")
            and log["foreign"].append(req.url))
    page.on("response", lambda resp: resp.status >= 400 and log["failed"].append(f"{resp.status} {resp.url}"))
    page.on("requestfailed", lambda req: urlparse(req.url).netloc == host
            and log["failed"].append(f"{req.failure} {req.url}"))
    page.on("console", lambda m: m.type == "error" and log["errors"].append(m.text))
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    try:
        page.goto(url, wait_until=wait_until)
        yield page, log
    finally:
        context.close()


def revisit(page, url):
    """Open ``url`` afresh in ``page`` (a whole load, even where only its fragment differs from the address
    open now), keeping the browser's caches: for a test that opens one page at many addresses, half the
    time of a fresh context each. The page's log goes on collecting."""
    page.goto("about:blank")
    page.goto(url)


def errors(log) -> list[str]:
    """The console errors of ``log`` that are not known harmless noise."""
    return [e for e in log["errors"] if not any(h.search(e) for h in HARMLESS)]


def settle(page, address=True):
    """Wait until every chart and calculated table on the page show the current state, and the page's address
    too unless ``address`` is false (the page writes it 0.1-0.25 s after a change, ADDRESS_EVERY_MS)."""
    page.wait_for_function("() => window.goodputLive !== undefined", timeout=15000)
    page.evaluate("() => window.goodputLive.addressed()" if address else "() => window.goodputLive.settled()")


def live_ready(page, charts: int = 1):
    """Wait for ``charts`` embedded views and the live figures' first computation."""
    page.wait_for_function(f"() => window.__views.length >= {charts}", timeout=15000)
    settle(page)


def state(page) -> dict:
    """The page state: every input's value by key."""
    return page.evaluate("() => Object.fromEntries(window.goodputLive.state)")


def control(page, key, scope=""):
    """The first control drawn for ``key`` (inside ``scope``, a CSS selector, if given)."""
    return page.locator(f"{scope} .goodput-control[data-key=\"{key}\"]".strip()).first


def operate(page, key, value, scope="", address=False):
    """Set input ``key`` to ``value`` through its control as a reader would, then wait for the charts and tables
    to show it (and for the address too, with ``address``: a test that reads the address asks for it)."""
    c = control(page, key, scope)
    c.scroll_into_view_if_needed()
    kind = c.get_attribute("class")
    if "goodput-segmented-control" in kind:
        c.locator(f"button[data-value=\"{value}\"]").click()
    elif "goodput-select-control" in kind:
        c.locator("select").select_option(str(value))
    elif "goodput-toggle-control" in kind:
        box = c.locator("input[type=checkbox]")
        want = str(value) not in ("0", "False", "false")
        if box.is_checked() != want:
            box.click()
    else:
        box = c.locator("input.goodput-number")
        box.fill(str(value))
        box.press("Enter")
    settle(page, address)


def view_index(page, signal):
    """Index in window.__views of the first chart on the page now that has ``signal``."""
    return page.evaluate("""(signal) => window.__views.findIndex(v => { if (v.__finalized) return false;
      try { v.signal(signal); return true; } catch (e) { return false; } })""", signal)


def rows(page, index, field):
    """Every datum of chart ``index`` that has ``field``, from all its datasets."""
    return page.evaluate("""([index, field]) => {
      const view = window.__views[index];
      const rows = [];
      for (const name of Object.keys(view._runtime.data)) {
        let values = [];
        try { values = view.data(name) || []; } catch (e) { continue; }
        for (const d of values) if (d && field in d) rows.push(Object.assign({}, d));
      }
      return rows;
    }""", [index, field])


def marks(page, index, field):
    """The datum of every mark chart ``index`` draws whose datum has ``field`` (what a filter lets through)."""
    return page.evaluate("""([index, field]) => {
      const out = [];
      const walk = (node) => {
        for (const item of (node && node.items) || []) {
          if (item.datum && typeof item.datum === 'object' && field in item.datum) out.push(Object.assign({}, item.datum));
          walk(item);
        }
      };
      walk(window.__views[index].scenegraph().root);
      return out;
    }""", [index, field])


def signal(page, index, name):
    return page.evaluate("([i, n]) => window.__views[i].signal(n)", [index, name])


def table_cells(page, name, scope=""):
    """Text of every cell of calculated table ``name``: {row_index: {column: text}}."""
    return page.evaluate("""([name, scope]) => {
      const out = {};
      const table = document.querySelector(`${scope} table.goodput-calc-table[data-name="${name}"]`.trim());
      if (!table) return out;
      for (const tr of table.querySelectorAll('tbody tr')) {
        const row = out[tr.dataset.row] = {};
        for (const td of tr.querySelectorAll('td')) {
          const code = td.querySelector('code');
          row[td.dataset.column] = (code || td).textContent;
        }
      }
      return out;
    }""", [name, scope])
