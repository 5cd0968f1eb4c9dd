"""Mutations of a log, drawn by hypothesis, for the parsers' robustness tests.

:func:`mutate` edits a log's lines; :func:`mutated_log` draws a whole file from a
real log (line edits, inserted text, changed bytes that may not be UTF-8, a cut);
:func:`parse_or_refuse` holds a parser to its contract on that file: a result, or
a :class:`~goodput.errors.LogFormatError` naming the file and one of its lines.
"""

import io
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from goodput import data
from goodput.errors import LogFormatError

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


def mutated_log(data, seeds, characters=None) -> bytes:
    """One of the real logs ``seeds``, its lines edited, its bytes changed, or both."""
    raw = data.draw(st.sampled_from(seeds)).read_bytes()
    how = data.draw(st.sampled_from(["lines", "bytes", "both"]))
    if how != "bytes":
        raw = ("\n".join(mutate(data, raw.decode("utf-8").split("\n"), characters))).encode("utf-8")
    if how != "lines" and raw:
        raw = flip_bytes(data, raw)
    return raw


def line_count(raw: bytes) -> int:
    """The lines of a file as Python's ``open()`` reads them, with a byte that is not UTF-8 as one character."""
    return len(io.StringIO(raw.decode("utf-8", "replace"), newline=None).readlines())


def parse_or_refuse(parse, raw: bytes, path):
    """``parse`` of ``raw`` written at ``path``: its result, or None if it raised a LogFormatError naming
    ``path`` and a line of the file (line 1 of an empty one). Any other exception fails the test."""
    path.write_bytes(raw)
    try:
        return parse(path)
    except LogFormatError as exc:
        assert exc.path == str(path) and str(exc).startswith(f"{path}:{exc.line_number}: "), exc
        assert 1 <= exc.line_number <= max(line_count(raw), 1), f"{exc} (the file has {line_count(raw)} lines)"
        return None


_READ_AS_PRINTED = object()


def edited_cell(frame, index, column, text, value=_READ_AS_PRINTED):
    """A copy of a published frame (:func:`goodput.data.load`) with one cell printed as ``text`` and read as
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
