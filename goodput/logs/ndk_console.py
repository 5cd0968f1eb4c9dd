"""Parser for the NDK benchmark testee's console sentences (TI SPRAAQ5 §4.1).

The testee prints each run as two lines::

    Received packets of 8192 bytes for a total of 40960000 bytes
    for a throughput of 93992 kb/s at a CPU load of 25%

    Transmitted 5000 frames of 8192 bytes for a total of 40960000
    at a rate of 93170 kb/s with a CPU load of 36%

The book's host testee prints the same sentences, so one parser reads the
document's example output and our captured logs. Every other line is skipped.
A line that opens like one of these sentences but does not read as one, a first
line without its second, a second line without its first, and a run of 0-byte
frames raise :class:`~goodput.errors.LogFormatError` with the file and line.

The tester's console (:func:`parse_tester`) announces each run instead: "Sending 5000 frames of 8192 at
maximum frame rate", "Requesting 8192 bytes frames at 10 ms frame rate..." then "...received 5000 frames".
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from ..errors import LogFormatError
from .text import INTEGER, log_lines, read_log

__all__ = ["parse", "parse_text", "parse_tester", "parse_tester_text"]

_RECEIVED = re.compile(rf"""
    ^Received\ packets\ of\ (?P<frame_bytes>{INTEGER})\ bytes   # frame size
    \ for\ a\ total\ of\ (?P<total_bytes>{INTEGER})\ bytes\s*$  # bytes counted by the testee
    """, re.VERBOSE)
_THROUGHPUT = re.compile(rf"""
    ^for\ a\ throughput\ of\ (?P<kbit_s>{INTEGER})\ kb/s        # throughput, 1000 bits per second
    \ at\ a\ CPU\ load\ of\ (?P<cpu_load_percent>{INTEGER})%\s*$  # CPU load over the run
    """, re.VERBOSE)
_TRANSMITTED = re.compile(rf"""
    ^Transmitted\ (?P<frames>{INTEGER})\ frames                  # frames sent
    \ of\ (?P<frame_bytes>{INTEGER})\ bytes                      # of this size
    \ for\ a\ total\ of\ (?P<total_bytes>{INTEGER})\s*$          # bytes sent
    """, re.VERBOSE)
_RATE = re.compile(rf"""
    ^at\ a\ rate\ of\ (?P<kbit_s>{INTEGER})\ kb/s                # throughput, 1000 bits per second
    \ with\ a\ CPU\ load\ of\ (?P<cpu_load_percent>{INTEGER})%\s*$  # CPU load over the run
    """, re.VERBOSE)

#: Per direction, a run's two sentences: the words the first opens with and its pattern,
#: then the same for the second. A line that opens with those words must match the pattern.
_RUNS = {
    "receive": ("Received packets ", _RECEIVED, "for a throughput ", _THROUGHPUT),
    "transmit": ("Transmitted ", _TRANSMITTED, "at a rate ", _RATE),
}
_COLUMNS = ["direction", "frame_bytes", "frames", "total_bytes", "kbit_s", "cpu_load_percent", "line"]


def _run(direction: str, lines: list[str], number: int, path: str) -> dict:
    """The run whose first sentence is line ``number`` of ``lines``, read with its second."""
    _, first, _, second = _RUNS[direction]
    m = first.match(lines[number - 1])
    if not m:
        raise LogFormatError(path, number, f"not a {direction} line: {lines[number - 1][:60]!r}")
    if number == len(lines):
        raise LogFormatError(path, number, f"the log ends after a {direction} line, before its throughput line")
    n = second.match(lines[number])
    if not n:
        raise LogFormatError(path, number + 1, f"a {direction} line without its throughput line "
                                               f"(found {lines[number][:60]!r})")
    frame_bytes, total = int(m["frame_bytes"]), int(m["total_bytes"])
    if frame_bytes == 0:
        raise LogFormatError(path, number, f"a {direction} run of 0-byte frames")
    frames = int(m["frames"]) if "frames" in m.groupdict() else total // frame_bytes
    if frames * frame_bytes != total:
        raise LogFormatError(path, number, f"{frames} frames of {frame_bytes} bytes are not {total} bytes")
    return {"direction": direction, "frame_bytes": frame_bytes, "frames": frames, "total_bytes": total,
            "kbit_s": int(n["kbit_s"]), "cpu_load_percent": int(n["cpu_load_percent"]), "line": number}


def parse_text(text: str, path: str = "<text>") -> pd.DataFrame:
    """Every run in ``text``: direction, frame size, frames, bytes, kbit/s, CPU load, line."""
    lines = log_lines(text)
    rows = []
    for number, line in enumerate(lines, start=1):
        for direction, (opening, _, closing, _) in _RUNS.items():
            if line.startswith(opening):
                rows.append(_run(direction, lines, number, path))
            elif line.startswith(closing) and not (rows and rows[-1]["line"] == number - 1):
                raise LogFormatError(path, number, f"a {direction} throughput line without the line before it")
    return pd.DataFrame(rows, columns=_COLUMNS)


def parse(path: str | Path) -> pd.DataFrame:
    """Every run in the log at ``path`` (see :func:`parse_text`)."""
    path = Path(path)
    return parse_text(read_log(path), str(path))


# --- the tester's console (SPRAAQ5 §4.1, "Tester results") ---------------------------------------

_PACE = r"(?:maximum|(?P<period_ms>[0-9]{1,9})\ ms)\ frame\ rate"
_SENDING = re.compile(rf"""
    ^\s*Sending\ (?P<frames>{INTEGER})\ frames                    # frames the tester sends
    \ of\ (?P<frame_bytes>{INTEGER})\ at\ {_PACE}\s*$            # of this size, at this pace
    """, re.VERBOSE)
_REQUESTING = re.compile(rf"""
    ^\s*Requesting\ (?P<frame_bytes>{INTEGER})\ bytes\ frames     # frames the tester asks the testee for
    \ at\ {_PACE}\.\.\.\s*$                                       # at this pace
    """, re.VERBOSE)
_RECEIVED_FRAMES = re.compile(rf"^\s*\.\.\.received\ (?P<frames>{INTEGER})\ frames\s*$", re.VERBOSE)
_TESTER_COLUMNS = ["task", "frame_bytes", "period_ms", "frames", "line"]


def _tester_row(task: str, m, frames: str, number: int) -> dict:
    return {"task": task, "frame_bytes": int(m["frame_bytes"]), "period_ms": int(m["period_ms"] or 0),
            "frames": int(frames), "line": number}


def parse_tester_text(text: str, path: str = "<text>") -> pd.DataFrame:
    """Every run the tester announces in ``text``: its task (``send``: "Sending N frames of B at ...";
    ``receive``: "Requesting B bytes frames at ..." and the "...received N frames" line after it), frame size,
    period in ms (0: maximum frame rate), frames and line (of its first sentence). Every other line is skipped;
    a line that opens like one of these but does not read as one, a request without its "...received" line
    and a "...received" line without its request raise :class:`~goodput.errors.LogFormatError`."""
    lines = log_lines(text)
    rows = []
    for number, line in enumerate(lines, start=1):
        words = line.strip()
        if words.startswith("Sending ") and not words.startswith("Sending Task"):
            m = _SENDING.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a tester send line: {line[:60]!r}")
            rows.append(_tester_row("send", m, m["frames"], number))
        elif words.startswith("Requesting "):
            m = _REQUESTING.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a tester request line: {line[:60]!r}")
            n = _RECEIVED_FRAMES.match(lines[number]) if number < len(lines) else None
            if not n:
                raise LogFormatError(path, number + 1 if number < len(lines) else number,
                                     "a tester request line without its '...received N frames' line")
            rows.append(_tester_row("receive", m, n["frames"], number))
        elif words.startswith("...received"):
            if not (rows and rows[-1]["task"] == "receive" and rows[-1]["line"] == number - 1):
                raise LogFormatError(path, number, "a '...received' line without the request before it")
    return pd.DataFrame(rows, columns=_TESTER_COLUMNS)


def parse_tester(path: str | Path) -> pd.DataFrame:
    """Every run the tester's log at ``path`` announces (see :func:`parse_tester_text`)."""
    path = Path(path)
    return parse_tester_text(read_log(path), str(path))
