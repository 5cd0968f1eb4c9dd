"""Hooks for every test path (tests/ and the notebooks nbval runs): how pytest-xdist shares them out."""

from __future__ import annotations

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
