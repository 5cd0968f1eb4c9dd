"""Parser for the NDK benchmark testee's console sentences (TI SPRAAQ5 §4.1).

The testee prints each run as two lines::

    Received packets of 8192 bytes for a total of 40960000 bytes
    for a throughput of 93992 kb/s at a CPU load of 25%

    Transmitted 5000 frames of 8192 bytes for a total of 40960000
    at a rate of 93170 kb/s with a CPU load of 36%

The book's host testee prints the same sentences, so one parser reads the
document's example output and our captured logs. Every other line is skipped;
a first line without its second raises :class:`~goodput.errors.LogFormatError`
with the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from ..errors import LogFormatError

__all__ = ["parse", "parse_text"]

_RECEIVED = re.compile(r"""
    ^Received\ packets\ of\ (?P<frame_bytes>\d+)\ bytes   # frame size
    \ for\ a\ total\ of\ (?P<total_bytes>\d+)\ bytes\s*$  # bytes counted by the testee
    """, re.VERBOSE)
_THROUGHPUT = re.compile(r"""
    ^for\ a\ throughput\ of\ (?P<kbit_s>\d+)\ kb/s        # throughput, 1000 bits per second
    \ at\ a\ CPU\ load\ of\ (?P<cpu_load_percent>\d+)%\s*$  # CPU load over the run
    """, re.VERBOSE)
_TRANSMITTED = re.compile(r"""
    ^Transmitted\ (?P<frames>\d+)\ frames                  # frames sent
    \ of\ (?P<frame_bytes>\d+)\ bytes                      # of this size
    \ for\ a\ total\ of\ (?P<total_bytes>\d+)\s*$          # bytes sent
    """, re.VERBOSE)
_RATE = re.compile(r"""
    ^at\ a\ rate\ of\ (?P<kbit_s>\d+)\ kb/s                # throughput, 1000 bits per second
    \ with\ a\ CPU\ load\ of\ (?P<cpu_load_percent>\d+)%\s*$  # CPU load over the run
    """, re.VERBOSE)

_PAIRS = ((_RECEIVED, _THROUGHPUT, "receive"), (_TRANSMITTED, _RATE, "transmit"))


def parse_text(text: str, path: str = "<text>") -> pd.DataFrame:
    """Every run in ``text``: direction, frame size, frames, bytes, kbit/s, CPU load, line."""
    lines = text.splitlines()
    rows = []
    for number, line in enumerate(lines, start=1):
        for first, second, direction in _PAIRS:
            m = first.match(line)
            if not m:
                continue
            following = lines[number] if number < len(lines) else ""
            n = second.match(following)
            if not n:
                raise LogFormatError(path, number + 1, f"a {direction} line without its throughput line "
                                                       f"(found {following!r})")
            frame_bytes, total = int(m.group("frame_bytes")), int(m.group("total_bytes"))
            frames = int(m.group("frames")) if "frames" in m.groupdict() else total // frame_bytes
            if frames * frame_bytes != total:
                raise LogFormatError(path, number, f"{frames} frames of {frame_bytes} bytes are not {total} bytes")
            rows.append({"direction": direction, "frame_bytes": frame_bytes, "frames": frames,
                         "total_bytes": total, "kbit_s": int(n.group("kbit_s")),
                         "cpu_load_percent": int(n.group("cpu_load_percent")), "line": number})
    return pd.DataFrame(rows, columns=["direction", "frame_bytes", "frames", "total_bytes", "kbit_s",
                                       "cpu_load_percent", "line"])


def parse(path: str | Path) -> pd.DataFrame:
    path = Path(path)
    return parse_text(path.read_text(encoding="utf-8"), str(path))
