"""The ``goodput`` command as the tests run it.

:func:`run` starts the installed script in a new process, as a reader runs it (exit status, streams,
the interpreter starting with nothing imported). :func:`call` runs the same ``goodput.cli.main`` in
this process and returns the same three things; a test of what the command prints or refuses for
some arguments uses it, since a new interpreter costs most of a second (tests/test_cli.py keeps the
tests of the process itself: the script, ``python -m goodput``, a full disk).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

GOODPUT = Path(sys.executable).parent / "goodput"


def run(*args, module: bool = False, **kwargs) -> subprocess.CompletedProcess:
    """``goodput args...`` (``python -m goodput`` with ``module``) in a new process, its output as text."""
    cmd = [sys.executable, "-m", "goodput", *args] if module else [str(GOODPUT), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kwargs)


@dataclass
class Called:
    returncode: int
    stdout: str
    stderr: str


def call(*args) -> Called:
    """``goodput.cli.main(args)`` in this process: its exit status and what it wrote to each stream."""
    from goodput import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(list(args))
        except SystemExit as exit_:
            status = exit_.code
    return Called(0 if status is None else status, out.getvalue(), err.getvalue())
