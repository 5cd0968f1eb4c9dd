"""The build benchmark's log (tools/bench_build.py) and the status page's table of it."""

import re

import bench_build
import pytest

from goodput.core.errors import LogFormatError
from goodput.render import status

LOG = """# host: h
# cpu: Some CPU, 2 cores
# command: python tools/bench_build.py
# date: 2026-11-23T00:00:00Z
# git: abc1234
BENCH-CONFIG bench=build cores=2 usable_cores=2
BENCH-RESULT bench=build step=clean_book wall_ms=61234
BENCH-RESULT bench=build step={step} wall_ms=950
BENCH-DONE bench=build status=ok
"""


def test_the_benchmark_times_the_steps_the_status_page_describes():
    assert bench_build.STEPS == tuple(status.BUILD_STEPS)


def test_the_committed_log_times_every_step_on_a_machine_it_names():
    frame = status.build_times()
    header = frame.attrs["header"]
    flags = header["command"].split()
    steps = [s for s in bench_build.STEPS if not ("--no-test" in flags and s in ("make_test", "make_test_fast"))]
    if "--cli-only" in flags:
        steps = list(bench_build.CLI_COMMANDS)
    assert list(frame["step"]) == steps
    assert all(ms > 0 for ms in frame["wall_ms"])
    assert {"host", "cpu", "kernel", "python", "command", "date", "git"} <= set(header)
    assert header["cpu"].endswith(" cores") and header["command"].startswith("python tools/bench_build.py")
    assert frame.attrs["config"]["cores"] >= 1


def test_the_table_gives_seconds_and_the_log_itself(tmp_path):
    path = tmp_path / "build-times.log"
    path.write_text(LOG.format(step="prose_page"))
    text = status.build_times_markdown(path)
    assert "| `make book` with no _build/: every notebook executed | 61.23 | 90 | within |" in text
    assert "| `make book` after touching one prose page (book/how-to-read.md) | 0.95 | 5 | within |" in text
    assert "Some CPU, 2 cores" in text and "abc1234" in text
    assert "BENCH-RESULT bench=build step=prose_page wall_ms=950" in text


def test_a_step_the_page_does_not_describe_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "build-times.log"
    path.write_text(LOG.format(step="coffee"))
    with pytest.raises(LogFormatError, match=r"build-times.log:8: step=coffee is none of clean_book"):
        status.build_times(path)


def test_a_log_of_another_benchmark_is_no_build_log(tmp_path):
    path = tmp_path / "memcopy.log"
    path.write_text(LOG.format(step="prose_page").replace("bench=build", "bench=memcopy"))
    with pytest.raises(LogFormatError, match="not of bench=build"):
        status.build_times(path)


def test_without_a_log_the_page_says_how_to_make_one(tmp_path):
    assert "tools/bench_build.py" in status.build_times_markdown(tmp_path / "build-times.log")


def test_the_command_timings_are_a_median_of_runs_of_the_installed_script(tmp_path):
    script = tmp_path / "goodput"
    script.write_text("#!/bin/sh\necho \"$@\" >> " + str(tmp_path / "calls") + "\n")
    script.chmod(0o755)
    times = bench_build.cli_times(script, runs=3)
    assert [step for step, _ in times] == list(bench_build.CLI_COMMANDS) and all(ms >= 0 for _, ms in times)
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls == [" ".join(args) for args in bench_build.CLI_COMMANDS.values() for _ in range(3)]


def test_a_failing_command_stops_the_benchmark_naming_it(tmp_path):
    script = tmp_path / "goodput"
    script.write_text("#!/bin/sh\necho broken >&2\nexit 3\n")
    script.chmod(0o755)
    with pytest.raises(bench_build.StepFailed, match=r"step cli_help: `goodput --help` exited 3: broken"):
        bench_build.cli_times(script)


def test_an_edited_notebook_has_new_code_and_keeps_the_rest():
    notebook = {"cells": [{"cell_type": "markdown", "source": ["# t"]},
                          {"cell_type": "code", "source": ["x = 1\n", "x"]}], "metadata": {}}
    edited = bench_build._edited(notebook)
    assert edited["cells"][0] == notebook["cells"][0]
    assert edited["cells"][1]["source"] != notebook["cells"][1]["source"]
    assert edited["cells"][1]["source"].startswith("x = 1\nx")
    assert notebook["cells"][1]["source"] == ["x = 1\n", "x"]  # the original is left as it was


def test_a_step_over_its_budget_says_by_how_much_and_one_without_a_budget_says_nothing(tmp_path):
    path = tmp_path / "build-times.log"
    path.write_text(LOG.format(step="cli_help").replace("wall_ms=61234", "wall_ms=180000"))
    text = status.build_times_markdown(path)
    assert "every notebook executed | 180.00 | 90 | **over**, 2.0 times |" in text
    assert "(median of 3) | 0.95 | 0.3 | **over**, 3.2 times |" in text
    path.write_text(LOG.format(step="nothing_changed"))
    assert "| `make book` again, nothing changed | 0.95 |  |  |" in status.build_times_markdown(path)


def test_every_budget_is_of_a_step_and_the_readme_states_each(root):
    assert set(status.BUDGETS) <= set(bench_build.STEPS)
    readme = (root / "README.md").read_text(encoding="utf-8")
    stated = dict(re.findall(r"^\| `(\w+)` \| [^|]* \| ([\d.]+) s \|$", readme, flags=re.M))
    assert stated == {step: f"{budget:g}" for step, budget in status.BUDGETS.items()}


@pytest.mark.book
def test_the_first_control_is_timed_from_navigation_in_the_built_book(browser, book_url):
    ms = bench_build.first_control_times(browser, book_url, chapters=("spi",), loads=1)
    assert 0 < ms < 30000
