"""What every log parser shares: a log's lines, how a number is written, what a published excerpt's header says.

:func:`read_lines` reads a log file one line at a time, so that a parser that
keeps only what it takes from each line holds one line of a large log, not the
log; :func:`read_log` gives the same lines as one text. Both decode UTF-8, skip
the byte-order mark a Windows editor puts at the start (it would hide the first
line from the parser), and refuse with :class:`~goodput.core.errors.LogFormatError`
naming the file and the line: a byte that is not UTF-8, an empty file, and a
path that cannot be read (no such file, a directory), with the system's reason.
:func:`log_lines` splits a text where editors and Python's ``open()`` break
lines, and :func:`read_lines` breaks a file at the same places, so the line
numbers a parser cites are the ones a reader finds. :data:`INTEGER` and
:data:`DECIMAL` are the regular expressions of a number in a log line: bounded,
so that an absurd number fails its line's pattern instead of reaching ``int()``.
:func:`check_excerpt` holds a published excerpt to the line count its header
declares: a copy cut at a line break would read as a shorter log.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from goodput.core.errors import LogFormatError

__all__ = ["read_lines", "read_log", "log_lines", "check_excerpt", "INTEGER", "DECIMAL", "BYTE_ORDER_MARK"]

#: A raw integer: up to 20 ASCII digits, the most a 64-bit counter prints.
INTEGER = r"[0-9]{1,20}"
#: A decimal number as printed: an integer, then optionally a point and up to 20 digits.
DECIMAL = INTEGER + r"(?:\.[0-9]{1,20})?"
#: The UTF-8 byte-order mark: skipped at the start of a file, as editors hide it.
BYTE_ORDER_MARK = b"\xef\xbb\xbf"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # not str.splitlines's form feed, U+2028 and the like
_EXCERPT = re.compile(r"""
    ^\#\ excerpt:\ .*\ lines\ (?P<first>[0-9]{1,9})-(?P<last>[0-9]{1,9})   # the document's lines it copies
    ,\ verbatim\ below\ this\ header$                                     # as written by data/logs/published
    """, re.VERBOSE)


def log_lines(text: str) -> list[str]:
    """The lines of ``text``, without their line breaks, numbered from 1 as an editor numbers them."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()  # the break that ends the last line does not open another
    return lines


def read_lines(path: str | Path) -> Iterator[str]:
    """The lines of the log at ``path`` as :func:`log_lines` gives them, read and decoded one at a time.

    Raises :class:`~goodput.core.errors.LogFormatError` naming the line and column of
    the first byte that is not UTF-8, line 1 of an empty file (a byte-order mark
    alone is empty), and line 1 of a path that cannot be read, with the reason.
    """
    number = 0  # the lines read so far
    for raw in _binary_lines(path):
        if number == 0:
            raw = raw.removeprefix(BYTE_ORDER_MARK)
            if not raw:
                continue  # the mark was the whole file: an empty one
        for line in _lines_of(raw, path, number):
            number += 1
            yield line
    if number == 0:
        raise LogFormatError(path, 1, "the file is empty")


def read_log(path: str | Path) -> str:
    """The text of the log at ``path``: its lines (:func:`read_lines`, which refuses what it refuses, at the
    same line), each ended by ``\\n`` whatever break the file used."""
    return "".join(line + "\n" for line in read_lines(path))


def check_excerpt(lines: list[str], path: str | Path) -> None:
    """Refuse a published excerpt whose header's ``# excerpt: ... lines A-B, verbatim below this header``
    does not count the lines below the header (its ``# `` lines): a copy cut after a whole line, or edited.
    A log without that header passes: it declares nothing to hold it to."""
    header = next((i for i, line in enumerate(lines) if not line.startswith("# ")), len(lines))
    declared = next((m for m in map(_EXCERPT.match, lines[:header]) if m), None)
    if declared is None:
        return
    expected, found = int(declared["last"]) - int(declared["first"]) + 1, len(lines) - header
    if found != expected:
        where = len(lines) if found < expected else header + expected + 1  # the last line, or the first extra
        raise LogFormatError(path, max(where, 1), f"the header's excerpt is lines {declared['first']}-"
                                                  f"{declared['last']}, {expected} lines, but {found} follow it: "
                                                  f"the copy is {'cut short' if found < expected else 'longer'}")


def _binary_lines(path: str | Path) -> Iterator[bytes]:
    """The file's bytes in lines ended by ``\\n`` (lines broken by ``\\r`` alone are one of these);
    a path that cannot be opened or read is a LogFormatError naming it and the system's reason."""
    try:
        with open(path, "rb") as f:
            yield from f
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise LogFormatError(path, 1, f"cannot be read: {reason[:1].lower()}{reason[1:]}") from None


def _lines_of(raw: bytes, path: str | Path, before: int) -> list[str]:
    """The lines of a binary line (up to and with its ``\\n``; ``\\r`` may break it further), which follows
    ``before`` lines. It is decoded with its line break, as the whole file would be: a character cut by a
    break is refused for the same reason, at the same line and column."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        lines = log_lines(raw[:exc.start].decode("utf-8") + "?")  # "?" stands for the bad byte
        raise LogFormatError(path, before + len(lines), f"byte {raw[exc.start]:#04x} in column {len(lines[-1])} "
                                                        f"is not UTF-8 ({exc.reason})") from None
    if "\r" not in text:  # the usual line: one, ended by "\n" unless it is the file's last
        return [text[:-1] if text.endswith("\n") else text]
    return log_lines(text)
