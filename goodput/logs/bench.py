"""Parser for the machine lines of the book's benchmark firmware (``firmware/``), and of
``tools/bench_build.py`` (``bench=build``: the book's build and test times), which prints the same format.

A captured log is a header of ``# key: value`` lines (host, CPU, kernel,
compiler, flags, command, date, git revision), then what the program printed::

    BENCH-CONFIG bench=memcopy sweeps=7 min_bytes=16 ...
    BENCH-RESULT bench=memcopy sweep=size acnt=16 ... best_ns=303309 ... verified=1
    linear copy: 16 bytes at 3457 MB/s (...)        <- a human line: skipped
    BENCH-DONE bench=memcopy status=ok

``BENCH-CONFIG`` comes first and ``BENCH-DONE`` last: a log without it was cut
short, and :func:`parse` raises :class:`~goodput.errors.LogFormatError` naming
the file and line, as it does for a malformed machine line and for a log that
records a failed run (``BENCH-ERROR``). The keys of :data:`TEXT_KEYS` carry a
word (a name, an address, a status), and the ``error`` key of an error line takes
the rest of its line; every other key carries a raw integer of up to 20 digits,
and a value that is not one (``bytes=1e6``, ``frames=-1``) is refused with its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import LogFormatError
from .text import INTEGER, log_lines, read_log

__all__ = ["BenchLog", "parse", "parse_text", "results", "TEXT_KEYS"]

_HEADER = re.compile(r"""
    ^\#\ (?P<key>[a-z][a-z ]*):\s   # '# key: ' - a header line of the capture script
    (?P<value>.*)$                  # its value, as written
    """, re.VERBOSE)
_MACHINE = re.compile(r"""
    ^BENCH-(?P<kind>[A-Z]+)         # the line's kind: CONFIG, RESULT, ERROR, DONE
    (?P<fields>(?:\ .*)?)$          # then key=value pairs
    """, re.VERBOSE)
_PAIR = re.compile(r"""
    \ (?P<key>[a-z][a-z0-9_]*)      # a key
    =(?P<value>[A-Za-z0-9_.:/-]+)   # '=' and a value without spaces
    (?=\ |$)""", re.VERBOSE)
_RAW_INTEGER = re.compile(rf"""
    {INTEGER}                       # the value of every key but TEXT_KEYS: digits, nothing else
    """, re.VERBOSE)
_KINDS = ("CONFIG", "RESULT", "ERROR", "DONE")

#: The keys whose value is a word; every other key of a machine line carries a raw integer.
TEXT_KEYS = frozenset({"bench", "sweep", "direction", "address", "status", "error", "step"})


@dataclass
class BenchLog:
    """One captured log: its header, its configuration line and its results."""

    path: str
    header: dict[str, str] = field(default_factory=dict)
    config: dict[str, object] = field(default_factory=dict)
    results: list[dict[str, object]] = field(default_factory=list)
    done: dict[str, object] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)  # line number of each result


def _value(key: str, value: str, path: str, number: int) -> object:
    """A word for a key of TEXT_KEYS, else the raw integer the key must carry."""
    if key in TEXT_KEYS:
        return value
    if not _RAW_INTEGER.fullmatch(value):
        raise LogFormatError(path, number, f"{key}={value[:30]} is not a raw integer of up to 20 digits")
    return int(value)


def _fields(text: str, path: str, number: int, rest_key: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {}
    rest = None
    if rest_key and f" {rest_key}=" in text:
        text, rest = text.split(f" {rest_key}=", 1)
    position = 0
    for m in _PAIR.finditer(text):
        if m.start() != position:
            raise LogFormatError(path, number, f"cannot read {text[position:m.start() + 1].strip()!r} as key=value")
        out[m.group("key")] = _value(m.group("key"), m.group("value"), path, number)
        position = m.end()
    if position != len(text):
        raise LogFormatError(path, number, f"cannot read {text[position:].strip()!r} as key=value")
    if rest is not None:
        out[rest_key] = rest
    return out


def parse_text(text: str, path: str = "<text>") -> BenchLog:
    """Parse a log's text; ``path`` names it in errors."""
    log = BenchLog(path)
    state = "header"
    lines = log_lines(text)
    for number, line in enumerate(lines, start=1):
        if state == "header":
            h = _HEADER.match(line)
            if h:
                log.header[h.group("key")] = h.group("value")
                continue
            state = "before"
        m = _MACHINE.match(line)
        if not m:
            if state == "done" and line.strip():
                raise LogFormatError(path, number, "output after BENCH-DONE")
            continue  # a human line
        kind = m.group("kind")
        if kind not in _KINDS:
            raise LogFormatError(path, number, f"unknown machine line BENCH-{kind}")
        values = _fields(m.group("fields"), path, number, rest_key="error" if kind == "ERROR" else None)
        if state == "done":
            raise LogFormatError(path, number, "output after BENCH-DONE")
        if state == "before":
            if kind != "CONFIG":
                raise LogFormatError(path, number, f"BENCH-{kind} before BENCH-CONFIG")
            log.config = values
            state = "running"
            continue
        if kind == "CONFIG":
            raise LogFormatError(path, number, "a second BENCH-CONFIG")
        if kind == "ERROR":
            raise LogFormatError(path, number, f"the run failed: {values.get('error', 'no reason given')}")
        if kind == "DONE":
            log.done = values
            state = "done"
            continue
        if values.get("bench") != log.config.get("bench"):
            raise LogFormatError(path, number, f"a result of bench={values.get('bench')} in a log of "
                                               f"bench={log.config.get('bench')}")
        log.results.append(values)
        log.lines.append(number)
    if state != "done":
        last = max(len(lines), 1)  # an empty log: its line 1
        raise LogFormatError(path, last, "no BENCH-DONE: the log is truncated"
                             if state != "before" and state != "header" else "no BENCH-CONFIG line")
    return log


def parse(path: str | Path) -> BenchLog:
    """Parse the log at ``path``."""
    path = Path(path)
    return parse_text(read_log(path), str(path))


def results(path: str | Path) -> pd.DataFrame:
    """The results of a log as a table, one row per BENCH-RESULT line, with its line number."""
    log = parse(path)
    frame = pd.DataFrame(log.results)
    frame["line"] = log.lines
    frame.attrs["header"] = log.header
    frame.attrs["config"] = log.config
    frame.attrs["path"] = log.path
    return frame
