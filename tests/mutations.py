"""Mutations of a log, drawn by hypothesis, for the parsers' robustness tests.

:func:`mutate` edits a log's lines; :func:`mutated_log` draws a whole file from a
real log (line edits, inserted text, changed bytes that may not be UTF-8, a cut at
any byte, a blank file, a UTF-8 byte-order mark before any of these);
:func:`parse_or_refuse` holds a parser to its contract on that file: a result, or
a :class:`~goodput.core.errors.LogFormatError` naming the file and one of its lines; a
blank file refused; a file with a byte-order mark read as the file without it.
"""

import io
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from goodput.core import data
from goodput.core.errors import LogFormatError

#: The fuzz of every parser: the same examples on every run, a few seconds per parser. `make test`
#: draws 1000 files a parser; `make test-fast` sets GOODPUT_FUZZ_EXAMPLES=50, a smaller draw.
FUZZ = settings(max_examples=int(os.environ.get("GOODPUT_FUZZ_EXAMPLES", "1000")), deadline=None,
                derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])

_ANY_CHARACTER = st.characters(codec="utf-8")


def mutate(data, lines: list[str], characters=None) -> list[str]:
    """Up to four random edits: drop, duplicate, truncate, replace a character, swap two lines, insert text."""
    lines = list(lines)
    chars = _ANY_CHARACTER if characters is None else characters
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "duplicate", "truncate", "replace_char", "swap", "insert"]))
        if action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action == "truncate" and lines[i]:
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif action == "replace_char" and lines[i]:
            j = data.draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:j] + data.draw(chars) + lines[i][j + 1:]
        elif action == "swap":
            k = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[k] = lines[k], lines[i]
        elif action == "insert":
            j = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:j] + data.draw(st.text(chars, min_size=1, max_size=12)) + lines[i][j:]
    return lines


def flip_bytes(data, raw: bytes) -> bytes:
    """One to three bytes changed to any value (a UTF-8 file may stop being one), then maybe a cut."""
    raw = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 3))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        del raw[data.draw(st.integers(0, len(raw))):]
    return bytes(raw)


#: The UTF-8 byte-order mark: Windows editors (Notepad, Visual Studio) begin the files they save with it.
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
#: Files with nothing a parser could read in them (the byte-order mark may go before each).
BLANK_FILES = (b"", b"\n", b" ", b"\r\n", b"\n\n\n", b" \t\n  \n", b"\x0c\n")


class Mutated(bytes):
    """A drawn file's bytes, with how it was drawn: ``how`` (lines, bytes, both, cut, blank), the ``seed``
    it was drawn from and ``marked`` (a byte-order mark was put before it), so that a test can hold a
    parser to more than its contract on some files (a log cut short refused, for one)."""

    how: str
    seed: bytes
    marked: bool

    @property
    def cut_short(self) -> bool:
        """A cut that lost more of the seed than the white space at its end."""
        kept = len(self) - (len(BYTE_ORDER_MARK) if self.marked else 0)
        return self.how == "cut" and bool(self.seed[kept:].strip())

    @property
    def unmarked(self) -> bytes:
        """The file without the byte-order mark put before it."""
        return bytes(self[len(BYTE_ORDER_MARK):] if self.marked else self)


def mutated_log(data, seeds, characters=None) -> Mutated:
    """One of the real logs ``seeds``: its lines edited, its bytes changed, or both; cut short at any
    byte (a capture killed mid-write); or swapped for a blank file. One file in four has a byte-order
    mark before it. The cut and the blank file are drawn on their own: after an edit they would
    hardly ever leave a log a parser reads, and the parser that takes a cut log is the bug to find."""
    seed = data.draw(st.sampled_from(seeds)).read_bytes()
    how = data.draw(st.sampled_from(["lines", "bytes", "both", "cut", "blank"]))
    raw = seed
    if how in ("lines", "both"):
        raw = ("\n".join(mutate(data, raw.decode("utf-8").split("\n"), characters))).encode("utf-8")
    if how in ("bytes", "both") and raw:
        raw = flip_bytes(data, raw)
    if how == "cut":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    if how == "blank":
        raw = data.draw(st.sampled_from(BLANK_FILES))
    marked = data.draw(st.integers(0, 3)) == 0
    out = Mutated(BYTE_ORDER_MARK + raw if marked else raw)
    out.how, out.seed, out.marked = how, seed, marked
    return out


def line_count(raw: bytes) -> int:
    """The lines of a file as Python's ``open()`` reads them, with a byte that is not UTF-8 as one character."""
    return len(io.StringIO(raw.decode("utf-8", "replace"), newline=None).readlines())


def parse_or_refuse(parse, raw: bytes, path):
    """``parse`` of ``raw`` written at ``path``: its result, or None if it raised a LogFormatError naming
    ``path`` and a line of the file (line 1 of an empty one). Any other exception fails the test. A blank
    file (:data:`BLANK_FILES`) must be refused, and a file with a byte-order mark read as the file without
    it: both read, or both refused at the same line."""
    result, refused_at = _parsed(parse, raw, path)
    if getattr(raw, "how", None) == "blank":
        assert refused_at is not None, f"a blank file {bytes(raw)!r} was read, not refused: {result!r}"
    if getattr(raw, "marked", False):
        unmarked_at = _parsed(parse, raw.unmarked, path)[1]
        assert refused_at == unmarked_at, (f"with a byte-order mark before it the file was "
                                           f"{_outcome(refused_at)}, without it {_outcome(unmarked_at)}")
        path.write_bytes(raw)  # the file as drawn, for the test that looks at it next
    return result


def _parsed(parse, raw: bytes, path):
    """``parse`` of ``raw`` written at ``path``: (its result, None), or (None, the line it was refused at) if
    it raised a LogFormatError naming ``path`` and one of the file's lines."""
    path.write_bytes(raw)
    try:
        return parse(path), None
    except LogFormatError as exc:
        assert exc.path == str(path) and str(exc).startswith(f"{path}:{exc.line_number}: "), exc
        assert 1 <= exc.line_number <= max(line_count(raw), 1), f"{exc} (the file has {line_count(raw)} lines)"
        return None, exc.line_number


def _outcome(refused_at) -> str:
    return "read" if refused_at is None else f"refused at line {refused_at}"


_READ_AS_PRINTED = object()


def edited_cell(frame, index, column, text, value=_READ_AS_PRINTED):
    """A copy of a published frame (:func:`goodput.core.data.load`) with one cell printed as ``text`` and read as
    ``value`` (``float(text)`` unless given): the deliberately wrong row a source check must catch."""
    t = reprinted(frame, index, column, text)
    t.loc[index, column] = float(text) if value is _READ_AS_PRINTED else value
    return t


def reprinted(frame, index, column, text):
    """A copy of a published frame with one cell's print replaced by ``text`` and its value left as it was."""
    printed = {c: list(cells) for c, cells in frame.attrs["printed"].items()}
    printed[column][index] = text
    return with_printed(frame.copy(), printed)


def with_printed(frame, printed):
    """``frame`` printed as ``printed`` (each column's cells as text): the published print is read-only."""
    frame.attrs = {**frame.attrs, "printed": data.Printed({c: tuple(cells) for c, cells in printed.items()})}
    return frame
