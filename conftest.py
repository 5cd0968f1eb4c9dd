"""Hooks for every test path (tests/ and the notebooks nbval runs): how pytest-xdist shares them out."""

from __future__ import annotations

import os

import pytest

# Test modules whose tests share one costly module fixture or one build directory: under
# pytest-xdist (make test runs one worker per core) each runs whole on one worker.
ONE_WORKER = {
    "test_firmware.py",  # `make -C firmware` into firmware/build, the shaped link's namespaces
    "test_workbooks.py",  # one LibreOffice recalculates every workbook (about 10 s to start)
}


def work_unit(nodeid: str) -> str:
    """What goes to one worker whole: a notebook's cells (nbval runs them in order in one kernel),
    a ONE_WORKER module's tests, and otherwise each test on its own."""
    path = nodeid.split("::", 1)[0]
    name = path.rsplit("/", 1)[-1]
    return path if name.endswith(".ipynb") or name in ONE_WORKER else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    # xdist's own loadgroup marks a group by appending to the node id, which pytest 9.2's structured
    # node ids ignore; a scheduler of our own groups by the id as it is.
    from xdist.scheduler import LoadScopeScheduling

    class Scheduler(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return Scheduler(config, log)


def pytest_configure(config):
    # Every worker wants every chapter's source checks (the tests, and the chapters nbval runs, read them),
    # and after a change to the package none is kept (goodput.core.cache): each worker would compute them all.
    # Here, before collecting, the workers make them together: gw0 from the first chapter, gw1 from the
    # last, each reading what the other made (one waits while the other computes, goodput.core.cache.kept).
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):
        from goodput import checks
        from goodput.core import cache

        if cache.folder() is not None:
            checks.warm(from_last=int(worker[2:]) % 2 == 1)
