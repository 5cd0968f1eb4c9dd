"""A chapter in JupyterLab, as an engineer who changes a model uses it (``make lab``).

The test starts its own JupyterLab on a free port of 127.0.0.1 (a token of its own, a throwaway
configuration, ``--allow-root`` only for root, no browser, autosave off so the committed notebook
is never written, every cell drawn rather than those in view alone), opens the SPI chapter in Debian's chromium with every other host unresolvable,
runs all its cells, and then, through the page's own elements:

- the Markdown reads as in the book: no MyST role is left as raw text (jupyterlab-myst);
- the live figure is the book's (its controls, Vega parameters and calculated table, its scripts
  served by JupyterLab from the repository): a value typed into its clock box moves the chart's
  parameter, its curve, the table and the "your link" box to the model's numbers;
- the ipywidgets panel runs the model in the kernel: a value typed into its clock slider's readout
  changes the panel's table to the model's numbers, and the panel says what it adds (Python, the
  workbook at its values).

The expected numbers are SPI's transfer time worked out here: ``N*W/f + (g/1000 + 1/f)*(N - 1)`` us
for N words of W bits at f MHz with a gap of g ns (the datasheet's rule), not read from goodput.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser import marks, opened, operate, settle, table_cells
from playwright.sync_api import expect

from goodput.render import calculations

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = "notebooks/spi.ipynb"
PLAIN_CHART_CHAPTER = "notebooks/measure-it-yourself.ipynb"
FIGURE = "#figure-spi_transfer"
# jupyterlab-myst numbers the targets of Markdown cells only and logs this for a {numref} to a figure that a
# code cell labels (myst-nb's cell metadata, as every chapter's figures are); the book's script numbers those.
KNOWN = ("Cross reference target was not found: fig-",)
START_S = 90
RUN_ALL_MS = 180_000

# Captures each vega View the live figures draw in JupyterLab (goodputLab.embed is the book's
# script's wrapper of vega-embed there; see goodput.render.live.lab_loader).
CAPTURE_LAB_VIEWS = """
(() => {
  window.__views = [];
  const lab = window.goodputLab = {};
  let embed;
  Object.defineProperty(lab, 'embed', {
    configurable: true,
    get() { return embed; },
    set(f) { embed = (...args) => f(...args).then(result => { window.__views.push(result.view); return result; }); },
  });
})();
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def transfer_us(words: int, bits: int, clock_mhz: float, gap_ns: float = 160) -> float:
    return words * bits / clock_mhz + (gap_ns / 1000 + 1 / clock_mhz) * (words - 1)


def printed(value: float, places: int = 3) -> str:
    """``value`` as the tables print it: ``places`` decimals, trailing zeros cut."""
    return f"{value:.{places}f}".rstrip("0").rstrip(".")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving the repository on a free port: its address with the token; stopped after."""
    tmp = tmp_path_factory.mktemp("lab")
    settings = tmp / "settings" / "@jupyterlab" / "docmanager-extension"
    settings.mkdir(parents=True)
    (settings / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
    # every cell drawn, not only those in view (JupyterLab's default skips drawing the others, whose text
    # is then empty): the test reads the whole notebook
    notebook = tmp / "settings" / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True)
    (notebook / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    port, token = _free_port(), secrets.token_hex(24)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"))
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               "--ServerApp.port_retries=0", f"--ServerApp.root_dir={ROOT}", f"--IdentityProvider.token={token}",
               "--LabApp.expose_app_in_browser=True",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.news_url=None"]
    if os.getuid() == 0:
        command.append("--allow-root")
    before = {c: (ROOT / c).stat().st_mtime_ns for c in (CHAPTER, PLAIN_CHART_CHAPTER)}
    log = open(tmp / "lab.log", "w")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_S
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not start:\n{(tmp / 'lab.log').read_text()[-3000:]}")
                time.sleep(0.5)
        yield url, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
        log.close()
    assert {c: (ROOT / c).stat().st_mtime_ns for c in before} == before, "JupyterLab wrote a chapter"


def _run_all(page):
    """Run every cell of the open notebook and wait until each code cell has run."""
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel",
                           timeout=60_000)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function("""() => {
      const panel = window.jupyterapp.shell.currentWidget;
      const cells = panel.content.widgets.filter(c => c.model.type === 'code');
      return panel.sessionContext.session?.kernel?.status === 'idle'
        && cells.every(c => c.model.executionCount !== null && c.promptNode.textContent.indexOf('*') < 0);
    }""", timeout=RUN_ALL_MS, polling=500)


@contextmanager
def opened_chapter(lab, browser, chapter: str):
    """``chapter`` opened in JupyterLab at 1366 px and all its cells run: the page, and what it logged (requests
    to another host, failed requests, script errors), which must hold nothing but the known error."""
    url, token = lab
    # a workspace of its own: JupyterLab would open the chapters an earlier test left open too
    workspace = Path(chapter).stem
    with opened(browser, f"{url}/lab/workspaces/{workspace}/tree/{chapter}?token={token}", wait_until="domcontentloaded",
                init_script=CAPTURE_LAB_VIEWS) as (page, log):
        page.set_default_timeout(60_000)
        _run_all(page)
        yield page, log
        assert log["foreign"] == []
        assert log["failed"] == []
        assert [e for e in log["errors"] if not e.startswith(KNOWN)] == []


def test_a_chapter_runs_in_jupyterlab_with_its_myst_live_figure_and_python_panel(lab, browser):
    started = time.monotonic()
    with opened_chapter(lab, browser, CHAPTER) as (page, log):
        ran = time.monotonic() - started

        # MyST: the roles the chapter uses are rendered, none is left as raw text; the workbook's
        # {download} link is JupyterLab's address of the file
        text = page.locator(".jp-Notebook").first.inner_text()
        raw = [role for role in ("{numref}`", "{doc}`", "{download}`", "{ref}`", "{glue}`") if role in text]
        assert raw == [], f"MyST roles shown as raw text in JupyterLab: {raw}"
        # the figure a code cell labels is numbered as in the book, and the {numref} to it is a link to it
        caption = page.locator('.goodput-lab-caption[data-figure="fig-spi"]')
        expect(caption).to_have_text(re.compile(r"^Figure 1: 400-byte MCSPI transfers"))
        assert page.locator('span[title="Cross Reference Not Found"]').count() == 0
        reference = page.locator('a.goodput-lab-ref[data-figure="fig-spi"]').first
        expect(reference).to_have_text("Figure 1")
        assert "In Figure 1, move the transfer, the clock" in page.locator(".jp-Notebook").first.inner_text()
        download = page.locator(".jp-OutputArea-output a", has_text="Download the workbook (spi.xlsx)")
        assert "/files/_build/workbooks/spi.xlsx" in download.get_attribute("href")

        # the live figure: the book's controls, chart and table, drawn by the book's script
        page.locator(f"{FIGURE} .goodput-control[data-key=\"clock_mhz\"]").wait_for()
        page.wait_for_function("() => window.__views.length >= 1")
        settle(page)
        cells = table_cells(page, "spi_transfer", FIGURE)
        assert cells["0"]["model_us"] == printed(transfer_us(400, 8, 50))
        operate(page, "clock_mhz", 20, scope=FIGURE)
        view = page.evaluate("() => window.__views.findIndex(v => { try { v.signal('clock_mhz'); return true; }"
                             " catch (e) { return false; } })")
        assert view >= 0
        assert page.evaluate("(i) => window.__views[i].signal('clock_mhz')", view) == 20
        drawn = {(d["word_bits"], d["model_us"]) for d in marks(page, view, "model_us")}
        assert sorted(b for b, _ in drawn) == [8, 16, 32]
        for bits, model_us in drawn:
            assert model_us == pytest.approx(transfer_us(3200 // bits, bits, 20), rel=1e-9), bits
        cells = table_cells(page, "spi_transfer", FIGURE)
        assert [cells[str(i)]["model_us"] for i in range(3)] == [
            printed(transfer_us(3200 // b, b, 20)) for b in (8, 16, 32)]
        # the "your link" box at the top shares the notebook's state; no address to copy here
        box = page.locator(".goodput-yours").first
        expect(box.locator('dd[data-column="model_us"]')).to_have_text(printed(transfer_us(400, 8, 20)))
        assert not box.locator(".goodput-copy-link").is_visible()

        # the ipywidgets panel: says what it adds, and its clock recomputes its table in the kernel
        panel = page.locator(".jp-OutputArea-output .widget-vbox:has(.goodput-panel-lead)").first
        panel.scroll_into_view_if_needed()
        lead = panel.locator(".goodput-panel-lead").inner_text()
        assert "kernel" in lead and "Export the workbook" in lead
        assert panel.locator("button", has_text="Export the workbook").count() == 1
        readout = panel.locator(".widget-slider", has_text="SPI clock").locator(".widget-readout").first
        readout.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("30")
        page.keyboard.press("Enter")
        panel.locator("td", has_text=printed(transfer_us(400, 8, 30))).first.wait_for(timeout=30_000)
        spi = calculations.get("spi")
        at_30 = dict(spi.defaults(), clock_mhz=30)
        assert spi.formula_text(at_30, spi.records()[0]) in panel.inner_text()

    print(f"JupyterLab: {CHAPTER} ran in {ran:.1f} s; opened, ran and operated in {time.monotonic() - started:.1f} s")


def test_a_chapter_whose_first_chart_is_no_live_figure_draws_it_offline(lab, browser):
    """A plain altair chart that no live figure precedes (measure-it-yourself's first) draws with the repository's
    vega, as altair's own HTML would fetch it from its CDN: the loader goes with every chart."""
    with opened_chapter(lab, browser, PLAIN_CHART_CHAPTER) as (page, log):
        plain = page.locator(".jp-OutputArea-output:not(:has(.goodput-live, .goodput-yours))"
                             ":has(> link[rel='goodput-files'])")
        plain.first.scroll_into_view_if_needed()
        expect(plain.first.locator(".vega-embed canvas, .vega-embed svg").first).to_be_visible()
        caption = page.locator('.goodput-lab-caption[data-figure="fig-host-copy-size"]')
        expect(caption).to_have_text(re.compile(r"^Figure 1: "))
