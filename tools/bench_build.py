"""How long a writer and a reader wait: clean `make book`, rebuilds after one change, the tests, the
command's start and a live figure's first control, timed (`make bench`).

A benchmark, not a test: it runs the README's commands in this checkout and prints what each took,
in the firmware's log format (a ``# key: value`` header naming the machine, then BENCH- lines that
goodput.logs.bench parses), and writes the same text to data/logs/host/build-times.log, which the
book's status page shows beside each step's budget (goodput.render.status.BUDGETS). The environment
(`make venv assets`) is set up first and not timed. Results kept between processes
(goodput.core.cache) start empty: the run keeps them in a folder of its own (GOODPUT_CACHE).

Steps, in order:

- ``clean_book``: `make book` after removing _build (every notebook executed);
- ``nothing_changed``: `make book` again (nothing to rebuild);
- ``prose_page``: `make book` after touching one prose page;
- ``one_notebook``: `make book` after editing a code cell of one chapter's notebook (it is executed
  again); the notebook is restored afterwards and the book rebuilt, untimed;
- ``first_control``: the first control of a live figure drawn, after navigation, in headless chromium
  on a local server: per chapter of :data:`FIRST_CONTROL_CHAPTERS` the median of three loads, the
  slowest chapter's kept;
- ``make_test_fast`` and ``make_test``: `make test-fast` and `make test` (both skipped with --no-test);
- ``cli_help`` and ``cli_pcie_write``: how long the ``goodput`` command takes to start, the median of
  three runs of ``goodput --help`` and of ``goodput pcie write --gen 3 --lanes 8 --size 4096 --json``
  (with --cli-only, these two alone, after `make venv`).

Usage: python tools/bench_build.py [--no-test | --cli-only] [--output FILE]
A step that fails stops the benchmark with exit status 1, naming the step and the file holding
the command's output; nothing is written to --output then.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROSE_PAGE = ROOT / "book" / "how-to-read.md"
NOTEBOOK = ROOT / "notebooks" / "pcie-packets.ipynb"  # among the longest chapters to execute
OUTPUT = ROOT / "data" / "logs" / "host" / "build-times.log"
#: The steps, in order (goodput.render.status.BUILD_STEPS says what each runs, for the status page).
STEPS = ("clean_book", "nothing_changed", "prose_page", "one_notebook", "first_control", "make_test_fast",
         "make_test", "cli_help", "cli_pcie_write")
#: The command lines the cli_ steps time, each run this many times (the median is kept).
CLI_COMMANDS = {"cli_help": ["--help"],
                "cli_pcie_write": ["pcie", "write", "--gen", "3", "--lanes", "8", "--size", "4096", "--json"]}
CLI_RUNS = 3
#: The chapters whose first control first_control times, each loaded this many times (the median is kept).
FIRST_CONTROL_CHAPTERS = ("pcie-packets", "tcp-goodput", "srio")
FIRST_CONTROL_LOADS = 3


class StepFailed(Exception):
    pass


def _make(target: str, step: str, logs: Path) -> int:
    """Run `make target`, its output to a file under ``logs``; the wall time in ms."""
    out = logs / f"{step}.log"
    start = time.perf_counter()
    with out.open("w") as f:
        done = subprocess.run(["make", target], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
    ms = round((time.perf_counter() - start) * 1000)
    if done.returncode != 0:
        raise StepFailed(f"step {step}: `make {target}` exited {done.returncode}; its output is in {out}")
    return ms


def cli_times(goodput: Path = ROOT / ".venv" / "bin" / "goodput", runs: int = CLI_RUNS) -> list[tuple[str, int]]:
    """``(step, ms)`` for each of :data:`CLI_COMMANDS`: the median wall time of ``runs`` runs of the
    installed ``goodput`` script, each a new process, its output discarded."""
    out = []
    for step, args in CLI_COMMANDS.items():
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run([str(goodput), *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True)
            times.append(round((time.perf_counter() - start) * 1000))
            if done.returncode != 0:
                raise StepFailed(f"step {step}: `goodput {' '.join(args)}` exited {done.returncode}: "
                                 f"{done.stderr.strip()}")
        out.append((step, statistics.median(times)))
    return out


# Run before the page's own scripts: the time (performance.now(), from navigation) of the first frame in
# which a live figure's control is laid out.
_FIRST_CONTROL = """
(() => {
  const look = () => {
    const control = document.querySelector('.goodput-control');
    if (control && control.getClientRects().length) window.__goodputFirstControl = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();
"""


def first_control_ms(html: Path = ROOT / "_build" / "html") -> int:
    """:func:`first_control_times` of the book built in ``html``, served on 127.0.0.1, in headless chromium."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from browser import CHROMIUM, CHROMIUM_ARGS, served

    with served(html) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return first_control_times(browser, url)
        finally:
            browser.close()


def first_control_times(browser, book_url: str, chapters=FIRST_CONTROL_CHAPTERS, loads: int = FIRST_CONTROL_LOADS) -> int:
    """The slowest of ``chapters``' medians over ``loads`` loads, each in a new browser context: ms from
    navigation to the first frame with a live figure's control laid out, at 1366 px."""
    medians = []
    for chapter in chapters:
        times = []
        for _ in range(loads):
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            try:
                page = context.new_page()
                page.add_init_script(_FIRST_CONTROL)
                page.goto(f"{book_url}notebooks/{chapter}.html")
                page.wait_for_function("() => window.__goodputFirstControl !== undefined", timeout=30000)
                times.append(page.evaluate("() => window.__goodputFirstControl"))
            finally:
                context.close()
        medians.append(statistics.median(times))
    return round(max(medians))


def _edited(notebook: dict) -> dict:
    """``notebook`` with a comment line added to its first code cell: new code to execute."""
    edited = json.loads(json.dumps(notebook))
    cell = next(c for c in edited["cells"] if c["cell_type"] == "code")
    source = "".join(cell["source"])
    cell["source"] = source + "\n# edited by tools/bench_build.py"
    return edited


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _git() -> str:
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".", f":!{OUTPUT.relative_to(ROOT)}"],
                           cwd=ROOT).returncode
    return (rev.stdout.strip() or "unknown") + ("-dirty" if dirty else "")


def header(command: str) -> list[str]:
    """The log's header: the machine, what it ran and when."""
    return [
        f"# host: {platform.node()}",
        f"# cpu: {_cpu()}, {os.cpu_count()} cores",
        f"# kernel: {platform.system()} {platform.release()}",
        f"# python: {platform.python_version()}",
        f"# command: {command}",
        f"# date: {datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        f"# git: {_git()}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-test", action="store_true", help="leave out the make_test step")
    parser.add_argument("--cli-only", action="store_true", help="only the goodput command's start-up steps")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"the log to write (default: {OUTPUT})")
    args = parser.parse_args(argv)

    logs = Path(tempfile.mkdtemp(prefix="bench-build-"))
    os.environ["GOODPUT_CACHE"] = str(logs / "goodput-cache")  # every make below starts with nothing kept
    lines = header("python tools/bench_build.py" + (" --no-test" if args.no_test else "")
                   + (" --cli-only" if args.cli_only else ""))
    lines.append(f"BENCH-CONFIG bench=build cores={os.cpu_count()} usable_cores={len(os.sched_getaffinity(0))}")
    original = NOTEBOOK.read_text(encoding="utf-8")
    try:
        _make("venv", "environment_venv", logs)
        if args.cli_only:
            _write(lines, cli_times(), args.output)
            shutil.rmtree(logs, ignore_errors=True)
            return 0
        _make("assets", "environment_assets", logs)
        shutil.rmtree(ROOT / "_build", ignore_errors=True)
        results = [("clean_book", _make("book", "clean_book", logs)),
                   ("nothing_changed", _make("book", "nothing_changed", logs))]
        PROSE_PAGE.touch()
        results.append(("prose_page", _make("book", "prose_page", logs)))
        NOTEBOOK.write_text(json.dumps(_edited(json.loads(original)), indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        try:
            results.append(("one_notebook", _make("book", "one_notebook", logs)))
        finally:
            NOTEBOOK.write_text(original, encoding="utf-8")
        _make("book", "restored", logs)
        results.append(("first_control", first_control_ms()))
        if not args.no_test:
            results.append(("make_test_fast", _make("test-fast", "make_test_fast", logs)))
            results.append(("make_test", _make("test", "make_test", logs)))
        results += cli_times()
    except StepFailed as failed:
        print(f"bench_build: {failed}", file=sys.stderr)
        return 1
    _write(lines, results, args.output)
    # The status page shows the new figures: rebuild what reads them (the status page alone).
    try:
        _make("book", "status_page", logs)
    except StepFailed as failed:
        print(f"bench_build: {failed}", file=sys.stderr)
        return 1
    shutil.rmtree(logs, ignore_errors=True)
    return 0


def _write(lines: list[str], results: list[tuple[str, int]], output: Path) -> None:
    """Print the log (``lines``, the header, then a BENCH-RESULT line per step) and write it to ``output``."""
    lines = lines + [f"BENCH-RESULT bench=build step={step} wall_ms={ms}" for step, ms in results]
    lines.append("BENCH-DONE bench=build status=ok")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
