"""What one process works out, kept on disk for the next: results that depend only on the package's code
and the repository's data (every source check: seconds of sympy a process), under a key made of both.

A result is stored under ``$GOODPUT_CACHE`` (else ``$XDG_CACHE_HOME/goodput``, else ``~/.cache/goodput``) as
``<name>-<key>.pickle``, where the key hashes every file of the ``goodput`` package and of ``data/``, the
Python version and the versions of the libraries a result is computed with. A change to any of them is a
new key, so a stored result is never older than what it comes from; storing one removes the result of
that name under any other key, so the folder holds one of each. Nothing is stored with
``GOODPUT_CACHE=off``, nor while ``$GOODPUT_DATA`` points the tables elsewhere (a test's own data).
A file that cannot be read is computed again; one that cannot be written is not kept.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
import time
from contextlib import contextmanager
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Callable, TypeVar

__all__ = ["folder", "key", "kept", "off"]

T = TypeVar("T")

#: The libraries whose version can change a stored result (sympy prints the formulas, pandas reads the tables).
LIBRARIES = ("sympy", "numpy", "pandas", "mpmath")

_PACKAGE = Path(__file__).resolve().parents[1]
_DATA = _PACKAGE.parent / "data"


_off = False


@contextmanager
def off():
    """Within it, every result is computed (and none stored)."""
    global _off
    was, _off = _off, True
    try:
        yield
    finally:
        _off = was


def folder() -> Path | None:
    """Where results are kept, or None when they are not."""
    chosen = os.environ.get("GOODPUT_CACHE", "")
    if _off or chosen == "off" or os.environ.get("GOODPUT_DATA"):
        return None
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "goodput"


@lru_cache(maxsize=1)
def key() -> str:
    """A hash of what a result may depend on: the package's files, the data's, Python's and the libraries'
    versions."""
    h = hashlib.sha256(sys.version.encode())
    for name in LIBRARIES:
        h.update(f"\0{name}={metadata.version(name)}".encode())
    files = sorted(p for root in (_PACKAGE, _DATA) for p in root.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        h.update(b"\0" + str(path.relative_to(_PACKAGE.parent)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:20]


def kept(name: str, compute: Callable[[], T]) -> T:
    """``compute()``, or what it returned in an earlier process with the same :func:`key`.

    While one process computes a result, another that wants it waits and reads it (the test workers start
    together and want the same results): what they compute is shared, not done once by each."""
    where = folder()
    if where is None:
        return compute()
    path = where / f"{name}-{key()}.pickle"
    found = _read(path)
    if found is not _MISSING:
        return found
    with _computing(where, name):
        found = _read(path)  # computed by another process while this one waited
        return found if found is not _MISSING else _store(where, name, path, compute())


_MISSING = object()


def _read(path: Path):
    try:
        with path.open("rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return _MISSING


#: How long a process waits for another to compute a result before it computes the result itself.
WAIT_S = 120.0


@contextmanager
def _computing(where: Path, name: str):
    """Held while ``name`` is computed: another process waits for it (a lock file beside the results), for
    :data:`WAIT_S` at most, so that two results computed inside each other never wait for each other."""
    try:
        import fcntl
        where.mkdir(parents=True, exist_ok=True)
        lock = open(where / f".{name}.lock", "wb")
    except (ImportError, OSError):  # no lock where there is no fcntl or no folder: each process computes
        yield
        return
    with lock:
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
        yield


def _store(where: Path, name: str, path: Path, result: T) -> T:
    try:
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=where, prefix=f".{name}-", delete=False) as f:
            pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(f.name, path)
        for older in where.glob(f"{name}-*.pickle"):
            if older != path and "-" not in older.name[len(name) + 1:]:  # "pcie-<key>", not "pcie-reads-<key>"
                older.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError):
        pass
    return result
