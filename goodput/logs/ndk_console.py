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
frames raise :class:`~goodput.core.errors.LogFormatError` with the file and line.

The tester's console (:func:`parse_tester`) announces each run instead: "Sending 5000 frames of 8192 at
maximum frame rate", "Requesting 8192 bytes frames at 10 ms frame rate..." then "...received 5000 frames".

A log cut short is refused too, though the runs before the cut read well: a run
ends with its line, not the log. So each parser holds a log to what tells where
it ends. The book's testee frames its sentences with its machine lines
(``goodput.logs.bench``): after ``BENCH-CONFIG`` the log must reach
``BENCH-DONE ... runs=N status=ok`` or ``BENCH-ERROR``
(the testee stopped at a broken run; the runs before it are whole). The tester
opens and closes its tasks ("Sending Task started" ... "Send Task terminated",
"Receive Task started" ... "Receive Task terminated"): a task not closed was cut.
A published excerpt is held to the line count its header declares
(:func:`~goodput.logs.text.check_excerpt`). And a log with no run in it (a blank
file, one byte, another program's log) is refused, but for the testee's log that
says why (BENCH-ERROR before a first run, or BENCH-DONE counting none).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from goodput.core.errors import LogFormatError
from goodput.logs.text import INTEGER, check_excerpt, log_lines, read_log

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
#: The book's testee's last line after its runs (tcp_bench.c prints no other), counting them.
_DONE = re.compile(rf"^BENCH-DONE\ .*\ runs=(?P<runs>{INTEGER})\ status=ok\s*$", re.VERBOSE)


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
    """Every run in ``text``: direction, frame size, frames, bytes, kbit/s, CPU load, line. A log cut short and a
    log with no run in it are refused (see the module's docstring)."""
    lines = log_lines(text)
    rows = []
    config = end = None  # the lines of the testee's BENCH-CONFIG, and of its BENCH-DONE or BENCH-ERROR
    for number, line in enumerate(lines, start=1):
        for direction, (opening, _, closing, _) in _RUNS.items():
            if line.startswith(opening):
                rows.append(_run(direction, lines, number, path))
            elif line.startswith(closing) and not (rows and rows[-1]["line"] == number - 1):
                raise LogFormatError(path, number, f"a {direction} throughput line without the line before it")
        if line.startswith("BENCH-CONFIG"):
            config = config or number
        elif line.startswith(("BENCH-DONE", "BENCH-ERROR")) and end is None:
            _check_done(line, path, number)
            end = number
    _check_whole(lines, rows, config, end, path)
    return pd.DataFrame(rows, columns=_COLUMNS)


def _check_whole(lines: list[str], rows: list[dict], config: int | None, end: int | None, path: str) -> None:
    """Refuse a testee's log cut short (its BENCH-CONFIG at line ``config`` without the BENCH-DONE or BENCH-ERROR
    of line ``end`` after it; an excerpt short of its header's count) and a log with no run in it, unless
    the testee's end line says why (an error before its first run)."""
    last = max(len(lines), 1)
    if config is not None and end is None:
        raise LogFormatError(path, last, f"BENCH-CONFIG on line {config} but no BENCH-DONE or BENCH-ERROR "
                                         "after the runs: the log is cut short")
    check_excerpt(lines, path)
    if not rows and end is None:
        raise LogFormatError(path, last, "no receive or transmit run in it")


def _check_done(line: str, path: str, number: int) -> None:
    """The testee's BENCH-DONE line ends ``runs=N status=ok``: a line that does not was cut mid-line. (That N
    counts the runs read is :func:`goodput.analysis.hostbench.testee_runs`'s to check: it pairs each run with its
    BENCH-RESULT, and names the first without its sentences.) A BENCH-ERROR line passes: the testee
    stopped there, its runs so far whole."""
    if line.startswith("BENCH-DONE") and not _DONE.match(line):
        raise LogFormatError(path, number, f"{line[:60]!r} does not end 'runs=N status=ok' as the testee's "
                                           "BENCH-DONE does: the line is cut short, or the log is not the testee's")


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
#: The tester's tasks, as it announces them: the line that opens each, and the line that closes it.
_TASKS = {"send": ("Sending Task started", "Send Task terminated"),
          "receive": ("Receive Task started", "Receive Task terminated")}


def _tester_row(task: str, m, frames: str, number: int) -> dict:
    return {"task": task, "frame_bytes": int(m["frame_bytes"]), "period_ms": int(m["period_ms"] or 0),
            "frames": int(frames), "line": number}


def parse_tester_text(text: str, path: str = "<text>") -> pd.DataFrame:
    """Every run the tester announces in ``text``: its task (``send``: "Sending N frames of B at ...";
    ``receive``: "Requesting B bytes frames at ..." and the "...received N frames" line after it), frame size,
    period in ms (0: maximum frame rate), frames and line (of its first sentence). Every other line is skipped;
    a line that opens like one of these but does not read as one, a request without its "...received" line,
    a "...received" line without its request, a log cut short and a log with no run in it raise
    :class:`~goodput.core.errors.LogFormatError`."""
    lines = log_lines(text)
    rows = []
    started = {}  # the line that opened each task the tester has not closed
    for number, line in enumerate(lines, start=1):
        words = line.strip()
        _task_line(words, started, number)
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
    if started:
        task, opened = next(iter(started.items()))
        raise LogFormatError(path, len(lines), f"the {task} task started on line {opened} does not end "
                                               f"('{_TASKS[task][1]}'): the log is cut short")
    check_excerpt(lines, path)
    if not rows:
        raise LogFormatError(path, max(len(lines), 1), "no tester send or receive run in it")
    return pd.DataFrame(rows, columns=_TESTER_COLUMNS)


def _task_line(words: str, started: dict[str, int], number: int) -> None:
    """Keep in ``started`` the line that opened each task not yet closed, if ``words`` open or close one."""
    for task, (opening, closing) in _TASKS.items():
        if words == opening:
            started.setdefault(task, number)
        elif words == closing:
            started.pop(task, None)


def parse_tester(path: str | Path) -> pd.DataFrame:
    """Every run the tester's log at ``path`` announces (see :func:`parse_tester_text`)."""
    path = Path(path)
    return parse_tester_text(read_log(path), str(path))
