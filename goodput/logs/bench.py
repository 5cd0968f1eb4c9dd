"""Parser for the machine lines of the book's benchmark firmware (``firmware/``), and of
``tools/bench_build.py`` (``bench=build``: the book's build and test times), which prints the same format.

A captured log is a header of ``# key: value`` lines (host, CPU, kernel,
compiler, flags, command, date, git revision), then what the program printed::

    BENCH-CONFIG bench=memcopy sweeps=7 min_bytes=16 ...
    BENCH-RESULT bench=memcopy sweep=size acnt=16 ... best_ns=303309 ... verified=1
    linear copy: 16 bytes at 3457 MB/s (...)        <- a human line: skipped
    BENCH-DONE bench=memcopy status=ok

``BENCH-CONFIG`` comes first and ``BENCH-DONE`` last, saying ``status=ok``: a log
without it, or whose last line stops short of it, was cut short, and :func:`parse`
raises :class:`~goodput.core.errors.LogFormatError` naming the file and line, as it does
for a malformed machine line and for a log that records a failed run
(``BENCH-ERROR``). The keys of :data:`TEXT_KEYS` carry a word (a name, an address,
a status), and the ``error`` key of an error line takes the rest of its line; every
other key carries a raw integer of up to 20 digits, and a value that is not one
(``bytes=1e6``, ``frames=-1``) is refused with its line.

A log is read a line at a time (:func:`~goodput.logs.text.read_lines`) and its
results kept as packed columns (:class:`Results`): a log of a million results
takes some tens of megabytes to read, not the gigabytes of its text, its lines
and a dict per result.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from goodput.core.errors import LogFormatError
from goodput.logs.text import log_lines, read_lines

__all__ = ["BenchLog", "Column", "Results", "parse", "parse_text", "results", "table", "TEXT_KEYS"]

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
_PAIRS = re.compile(r"""
    (?:\ [a-z][a-z0-9_]*=[A-Za-z0-9_.:/-]+)*   # nothing but _PAIRs: the usual line, read at once
    """, re.VERBOSE)
_KEY_VALUE = re.compile(r"""
    \ ([a-z][a-z0-9_]*)=([A-Za-z0-9_.:/-]+)     # a _PAIR of a line _PAIRS reads: its key and its value
    """, re.VERBOSE)
_KINDS = ("CONFIG", "RESULT", "ERROR", "DONE")

#: The keys whose value is a word; every other key of a machine line carries a raw integer.
TEXT_KEYS = frozenset({"bench", "sweep", "direction", "address", "status", "error", "step"})


_WIDTHS = "BHIQ"  # the array type codes of unsigned integers, narrowest first


class _Gap:
    """In a column, a row that has no value for the column's key (a pickle of it is this one: see _GAP)."""

    def __reduce__(self):
        return "_GAP"

    def __repr__(self) -> str:
        return "_GAP"


_GAP = _Gap()


def _widened(items: array, value: object) -> array | list:
    """``items`` in the narrowest array that also holds ``value``; a list if none does (a word, an integer
    of more than 64 bits, a gap)."""
    if isinstance(value, int) and value >= 0:
        for code in _WIDTHS[_WIDTHS.index(items.typecode) + 1:]:
            if value >> (8 * array(code).itemsize) == 0:
                return array(code, items)
    return list(items)


class _ListLike(Sequence):
    """A sequence that compares, prints and refuses a hash as the list it stands for does (``log.lines == [5]``)."""

    def __eq__(self, other) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # mutable, as a list

    def __repr__(self) -> str:
        return repr(list(self))


class Column(_ListLike):
    """Values down a log's results, as a list of them reads: integers packed in the narrowest array that
    holds them all (a byte each for a flag, eight for nanoseconds), which widens as a larger one comes;
    a list of words (each word one object, however many rows carry it) or of integers past 64 bits."""

    def __init__(self, values: Iterable[object] = ()):
        self._items: array | list = array(_WIDTHS[0])
        for value in values:
            self.append(value)

    def append(self, value: object) -> None:
        try:
            self._items.append(value)
        except (OverflowError, TypeError):  # too large for the array, or no integer
            self._items = _widened(self._items, value)
            self._items.append(value)

    def values(self) -> np.ndarray | list:
        """The column for a pandas table, typed as pandas types a list of its values: int64, or uint64 when
        a value needs the 64th bit; a list (of words, of integers past 64 bits, an empty one) as it is."""
        if isinstance(self._items, list) or not self._items:
            return list(self._items)
        numbers = np.asarray(self._items)  # unsigned, of the array's width
        if self._items.typecode == "Q" and numbers.max() >> np.uint64(63):
            return numbers
        return numbers.astype(np.int64)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        return list(self._items[index]) if isinstance(index, slice) else self._items[index]

    def __iter__(self) -> Iterator[object]:
        return iter(self._items)


class Results(_ListLike):
    """A log's BENCH-RESULT lines, each a dict of key and value as a list of dicts reads, kept as a
    :class:`Column` per key: a million results of a dozen numbers take tens of megabytes, not the two
    gigabytes of a dict each. A row without a key another row has is a gap in that key's column."""

    def __init__(self):
        self._columns: dict[str, Column] = {}
        self._count = 0
        self._words: dict[str, str] = {}
        self.ragged = False  # some row lacks a key another has

    def append(self, row: dict[str, object]) -> None:
        if row.keys() != self._columns.keys():
            self._align(row)
        columns, words = self._columns, self._words
        for key, value in row.items():
            if value.__class__ is str:  # a word: kept once (isinstance costs more, a million times)
                value = words.setdefault(value, value)
            column = columns[key]
            try:
                column._items.append(value)  # the usual value: it fits (Column.append, without its call)
            except (OverflowError, TypeError):
                column.append(value)
        self._count += 1

    def _align(self, row: dict[str, object]) -> None:
        """A column for each key of ``row`` (gaps for the rows before it), a gap for each key it lacks."""
        for key in row:
            if key not in self._columns:
                self._columns[key] = Column([_GAP] * self._count)
                self.ragged |= self._count > 0
        for key in self._columns.keys() - row.keys():
            self._columns[key].append(_GAP)
            self.ragged = True

    def frame(self) -> pd.DataFrame:
        """The results as a pandas table: the one pandas makes of the list of dicts, made of the columns."""
        if self.ragged or not self._columns:  # gaps (or rows of no key): as pandas fills them in a list of dicts
            return pd.DataFrame(list(self))
        return pd.DataFrame({key: column.values() for key, column in self._columns.items()})

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError("result index out of range")
        return self._row(self._columns.keys(), (column[index] for column in self._columns.values()))

    def __iter__(self) -> Iterator[dict[str, object]]:
        if not self._columns:
            return iter([{} for _ in range(self._count)])
        keys = self._columns.keys()
        return (self._row(keys, values) for values in zip(*self._columns.values()))

    def _row(self, keys, values) -> dict[str, object]:
        row = dict(zip(keys, values))
        return {k: v for k, v in row.items() if v is not _GAP} if self.ragged else row


@dataclass
class BenchLog:
    """One captured log: its header, its configuration line and its results."""

    path: str
    header: dict[str, str] = field(default_factory=dict)
    config: dict[str, object] = field(default_factory=dict)
    results: Results = field(default_factory=Results)
    done: dict[str, object] = field(default_factory=dict)
    lines: Column = field(default_factory=Column)  # line number of each result


def _value(key: str, value: str, path: str, number: int) -> object:
    """A word for a key of TEXT_KEYS, else the raw integer the key must carry."""
    if key in TEXT_KEYS:
        return value
    if not (len(value) <= 20 and value.isascii() and value.isdigit()):  # text.INTEGER, without a regex's time
        raise LogFormatError(path, number, f"{key}={value[:30]} is not a raw integer of up to 20 digits")
    return int(value)


def _fields(text: str, path: str, number: int, rest_key: str | None = None) -> dict[str, object]:
    """The key=value pairs of a machine line after its kind, the key ``rest_key`` taking the rest of the line."""
    rest = None
    if rest_key and f" {rest_key}=" in text:
        text, rest = text.split(f" {rest_key}=", 1)
    pairs = _KEY_VALUE.findall(text) if _PAIRS.fullmatch(text) else _pairs(text, path, number)
    out = {key: _value(key, value, path, number) for key, value in pairs}
    if rest is not None:
        out[rest_key] = rest
    return out


def _pairs(text: str, path: str, number: int) -> list[tuple[str, str]]:
    """The key=value pairs of ``text`` one by one, to name the first thing in it that is not one."""
    pairs, position = [], 0
    for m in _PAIR.finditer(text):
        if m.start() != position:
            raise LogFormatError(path, number, f"cannot read {text[position:m.start() + 1].strip()!r} as key=value")
        pairs.append((m.group("key"), m.group("value")))
        position = m.end()
    if position != len(text):
        raise LogFormatError(path, number, f"cannot read {text[position:].strip()!r} as key=value")
    return pairs


def parse_text(text: str, path: str = "<text>") -> BenchLog:
    """Parse a log's text; ``path`` names it in errors."""
    return _parse(log_lines(text), path)


def _check_done(values: dict[str, object], config: dict[str, object], path: str, number: int) -> None:
    """The firmware ends a log with ``BENCH-DONE bench=<its bench> ... status=ok`` and no other: a line short of
    that was cut mid-line (a capture killed as it wrote), and the log with it."""
    if values.get("status") != "ok":
        raise LogFormatError(path, number, "a BENCH-DONE line without status=ok: the log is cut short")
    if values.get("bench") != config.get("bench"):
        raise LogFormatError(path, number, f"BENCH-DONE of bench={values.get('bench')} in a log of "
                                           f"bench={config.get('bench')}")


def _parse(lines: Iterable[str], path: str) -> BenchLog:
    """Parse a log's lines, taken one at a time; ``path`` names it in errors."""
    log = BenchLog(path)
    state = "header"
    number = 0  # the last line read
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
            _check_done(values, log.config, path, number)
            log.done = values
            state = "done"
            continue
        if values.get("bench") != log.config.get("bench"):
            raise LogFormatError(path, number, f"a result of bench={values.get('bench')} in a log of "
                                               f"bench={log.config.get('bench')}")
        log.results.append(values)
        log.lines.append(number)
    if state != "done":
        last = max(number, 1)  # an empty log: its line 1
        raise LogFormatError(path, last, "no BENCH-DONE: the log is truncated"
                             if state != "before" and state != "header" else "no BENCH-CONFIG line")
    return log


def parse(path: str | Path) -> BenchLog:
    """Parse the log at ``path``, a line at a time (the file closed as soon as the parser stops, if it refuses
    a line, not when the refusal is forgotten)."""
    path = Path(path)
    with closing(read_lines(path)) as lines:
        return _parse(lines, str(path))


def results(path: str | Path) -> pd.DataFrame:
    """The results of a log as a table, one row per BENCH-RESULT line, with its line number."""
    return table(parse(path))


def table(log: BenchLog) -> pd.DataFrame:
    """The results of a parsed log as a table, one row per BENCH-RESULT line, with its line number; its
    attrs hold the log's header, configuration and path."""
    frame = log.results.frame()
    frame["line"] = log.lines.values()
    frame.attrs["header"] = log.header
    frame.attrs["config"] = log.config
    frame.attrs["path"] = log.path
    return frame
