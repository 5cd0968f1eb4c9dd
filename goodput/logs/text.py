"""What every log parser shares: a log's text, its lines, and how a number is written.

:func:`read_log` decodes a log file as UTF-8 and refuses, with
:class:`~goodput.errors.LogFormatError` naming the file and the line, a byte that
is not UTF-8 and an empty file. :func:`log_lines` splits the text where editors
and Python's ``open()`` break lines, so the line numbers a parser cites are the
ones a reader finds. :data:`INTEGER` and :data:`DECIMAL` are the regular
expressions of a number in a log line: bounded, so that an absurd number fails
its line's pattern instead of reaching ``int()``.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import LogFormatError

__all__ = ["read_log", "log_lines", "INTEGER", "DECIMAL"]

#: A raw integer: up to 20 ASCII digits, the most a 64-bit counter prints.
INTEGER = r"[0-9]{1,20}"
#: A decimal number as printed: an integer, then optionally a point and up to 20 digits.
DECIMAL = INTEGER + r"(?:\.[0-9]{1,20})?"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # not str.splitlines's form feed, U+2028 and the like


def log_lines(text: str) -> list[str]:
    """The lines of ``text``, without their line breaks, numbered from 1 as an editor numbers them."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()  # the break that ends the last line does not open another
    return lines


def read_log(path: str | Path) -> str:
    """The text of the log at ``path``, decoded as UTF-8.

    Raises :class:`~goodput.errors.LogFormatError` naming the line and column of
    the first byte that is not UTF-8, and line 1 of an empty file.
    """
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = log_lines(raw[:exc.start].decode("utf-8") + "?")  # "?" stands for the bad byte
        raise LogFormatError(path, len(before), f"byte {raw[exc.start]:#04x} in column {len(before[-1])} "
                                                f"is not UTF-8 ({exc.reason})") from None
    if not text:
        raise LogFormatError(path, 1, "the file is empty")
    return text
