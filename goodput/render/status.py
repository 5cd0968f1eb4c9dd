"""What built the book: interpreter, library and JavaScript versions, and how long building it takes."""

from __future__ import annotations

import json
import platform
from importlib import metadata
from pathlib import Path

import pandas as pd

from goodput.core import resources
from goodput.core.errors import LogFormatError
from goodput.logs import bench

__all__ = ["python_packages", "js_packages", "versions_markdown", "BUDGETS", "PAGE_WEIGHTS", "BUILD_STEPS",
           "BUILD_TIMES", "build_times", "build_times_markdown"]

PYTHON_PACKAGES = ("sympy", "numpy", "pandas", "altair", "ipywidgets", "jupyter-book",
                   "myst-nb", "sphinx", "nbval", "vl-convert-python")


def python_packages() -> dict[str, str]:
    return {name: metadata.version(name) for name in PYTHON_PACKAGES}


def js_packages() -> dict[str, str]:
    manifest = resources.path("js-assets.json")
    return {p["name"]: p["version"] for p in json.loads(manifest.read_text())["packages"]}


def versions_markdown() -> str:
    rows = [("Python", platform.python_version())]
    rows += [(k, v) for k, v in python_packages().items()]
    rows += [(f"{k} (JavaScript, served locally)", v) for k, v in js_packages().items()]
    return "| component | version |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)


#: tools/bench_build.py's log: the wall time of each step below, on the machine its header names.
BUILD_TIMES = resources.path("data", "logs", "host", "build-times.log")

#: What each step of tools/bench_build.py runs, in its order.
BUILD_STEPS = {
    "clean_book": "`make book` with no _build/: every notebook executed",
    "nothing_changed": "`make book` again, nothing changed",
    "prose_page": "`make book` after touching one prose page (book/how-to-read.md)",
    "one_notebook": "`make book` after editing a code cell of notebooks/pcie-packets.ipynb",
    "first_control": "first control of a live figure drawn after navigation (slowest of pcie-packets, "
                     "tcp-goodput and srio, median of 3 loads each)",
    "make_test_fast": "`make test-fast`: the quick inner loop",
    "make_test": "`make test`: every test, nbval and the browser at two widths included",
    "cli_help": "`goodput --help`, the command's start (median of 3)",
    "cli_pcie_write": "`goodput pcie write --gen 3 --lanes 8 --size 4096 --json` (median of 3)",
}


#: The most each step may take, seconds, on 2 cores (a step without one has none). A figure over its budget
#: is a defect to fix; the README states the same budgets.
BUDGETS = {"clean_book": 90, "prose_page": 5, "one_notebook": 10, "first_control": 0.5, "make_test_fast": 30,
           "make_test": 300, "cli_help": 0.3, "cli_pcie_write": 0.6}

#: What a page of the book may load, in MB (10^6 bytes): every script, style sheet, font and image it requests,
#: uncompressed (as the files on disk), its HTML left out. A page with a chart (vega) is held to ``chart_page``,
#: every other page to ``prose_page``. tests/test_page_weight_browser.py weighs each page in chromium.
PAGE_WEIGHTS = {"prose_page": 0.6, "chart_page": 1.2}


def _against_budget(step: str, ms: int) -> tuple[str, str]:
    """(budget, how the step keeps to it) as the status page prints them."""
    if step not in BUDGETS:
        return "", ""
    budget = BUDGETS[step]
    return f"{budget:g}", ("within" if ms <= budget * 1000 else f"**over**, {ms / (budget * 1000):.1f} times")


def build_times(path: Path = BUILD_TIMES):
    """The log's steps as a table (step, what it runs, seconds) with its header in ``attrs``; a step the
    log has that BUILD_STEPS does not describe is an error naming the log's line."""
    frame = bench.results(path)
    if frame.attrs["config"].get("bench") != "build":
        raise LogFormatError(path, 1, f"a log of bench={frame.attrs['config'].get('bench')}, not of bench=build")
    for step, line in zip(frame["step"], frame["line"]):
        if step not in BUILD_STEPS:
            raise LogFormatError(path, line, f"step={step} is none of {', '.join(BUILD_STEPS)}")
    out = pd.DataFrame({"step": frame["step"], "what": frame["step"].map(BUILD_STEPS), "wall_ms": frame["wall_ms"],
                        "seconds": [f"{ms / 1000:.2f}" for ms in frame["wall_ms"]], "line": frame["line"]})
    out.attrs = dict(frame.attrs)
    return out


def build_times_markdown(path: Path = BUILD_TIMES) -> str:
    """The build and test times as a Markdown table, with the machine and revision they were measured
    on, then the log as the benchmark printed it; a note instead when it has not been run."""
    if not path.exists():
        return f"Not measured yet: `tools/bench_build.py` writes `{path.name}`."
    frame = build_times(path)
    h = frame.attrs["header"]
    rows = "\n".join(f"| {r.what} | {r.seconds} | {' | '.join(_against_budget(r.step, r.wall_ms))} |"
                     for r in frame.itertuples())
    return (f"Measured with `{h.get('command', '?')}` on {h.get('cpu', '?')} ({h.get('host', '?')}), "
            f"{h.get('date', '?')}, at revision {h.get('git', '?')}.\n\n"
            f"| step | seconds | budget (s) | against the budget |\n|---|---:|---:|---|\n{rows}\n\n"
            f"The benchmark's log (`data/logs/host/{path.name}`), as it printed it:\n\n"
            f"```text\n{path.read_text(encoding='utf-8').rstrip()}\n```")
