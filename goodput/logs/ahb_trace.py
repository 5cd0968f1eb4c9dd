"""Parser for the AHB trace logs of the Intel PCIe measurement tutorial.

The FPGA's AHB trace module prints one line per bus access::

    timestamp:      554 [        110 ns] addr: 0x02000004, data: 0000000001, flags: 0x0105 WRITE

and the test program may follow with a block::

    Statistic for 2 AHB accesses:
    Every PCIe TLP Packet ends up in 1 AHB accesses
    average elapsed Time:      110.00 ns
    ... min/max elapsed Time, average/max/min throughput in Bytes/s

Lines of any other kind (titles, prompts, page furniture of a converted
document, ``#`` headers) are skipped. :func:`parse` raises
:class:`~goodput.core.errors.LogFormatError` with the file and line for an access
line or statistic line it cannot read, for a timestamp that does not increase,
and for a statistic block cut short.
:func:`statistics` recomputes the block from the timestamps; :func:`delays_from_timestamps` the
delays each access line prints (kept as printed in the ``delay_text`` column, as the addresses, data and
flags are in ``addr_text``, ``data_text`` and ``flags_text``; a line without flags has ``flags`` -1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from goodput.core.errors import LogFormatError
from goodput.logs.text import DECIMAL, INTEGER, log_lines, read_log

__all__ = ["AhbTrace", "parse", "parse_text", "statistics", "STATISTIC_KEYS", "TICK_NS", "BYTES_PER_ACCESS",
           "delays_from_timestamps", "time_from_rate", "rate_from", "bursts", "AHB_CLOCK_MHZ"]

AHB_CLOCK_MHZ = 100.0  #: the AHB's clock, which stamps the accesses
TICK_NS = 1000 / AHB_CLOCK_MHZ  #: one timestamp tick, ns
BYTES_PER_ACCESS = 4  #: 32-bit AHB data bus

_ACCESS = re.compile(rf"""
    ^timestamp:\s+(?P<ticks>{INTEGER})\s+               # AHB clock tick of the access
    \[\s*(?P<delay_ns>{DECIMAL})\s*ns\]\s+              # delay since the previous access, as printed
    addr:\s+(?P<addr>0x[0-9a-fA-F]{{8}}),\s+            # bus address
    data:\s+(?P<data>{INTEGER})                         # data word, decimal
    (?:,\s+flags:\s+(?P<flags>0x[0-9a-fA-F]+)           # optional: bus flags
       \s+(?P<direction>READ|WRITE))?                   # and the direction of the access
    \s*$""", re.VERBOSE)
_STAT_HEADER = re.compile(rf"""
    ^Statistic\ for\ (?P<n>{INTEGER})\ AHB\ accesses:\s*$  # opens a statistic block over n accesses
    """, re.VERBOSE)
_PER_TLP = re.compile(rf"""
    ^Every\ PCIe\ T(?:LP|PL)\ Pac?ket\ ends\ up\ in  # the program's wording, with its typos
    \ (?P<k>{INTEGER})\ AHB\ accesses\s*$            # AHB accesses per TLP
    """, re.VERBOSE)
_STAT_VALUE = re.compile(rf"""
    ^(?P<which>average|min|max)\                     # which statistic
    (?P<what>elapsed\ Time|throughput):\s+           # of what
    (?P<value>{DECIMAL})\ (?:ns|Bytes/s)\s*$         # the value as printed, in its unit
    """, re.VERBOSE)

#: The six values of a statistic block, in the order they are printed.
STATISTIC_KEYS = (
    "average elapsed Time", "min elapsed Time", "max elapsed Time",
    "average throughput", "max throughput", "min throughput",
)


@dataclass
class AhbTrace:
    """Accesses of one trace, and the statistic block printed after them (if any)."""

    path: str
    accesses: pd.DataFrame
    accesses_per_tlp: int | None = None
    statistic_accesses: int | None = None
    printed: dict[str, str] = field(default_factory=dict)  # statistic values as printed
    statistic_line: int | None = None


def parse(path) -> AhbTrace:
    """Parse the AHB trace log at ``path``."""
    path = Path(path)
    return parse_text(read_log(path), str(path))


def parse_text(text: str, path: str = "<text>") -> AhbTrace:
    """Parse an AHB trace log given as text; ``path`` names it in errors."""
    rows = []
    trace = AhbTrace(path, pd.DataFrame())
    for number, raw in enumerate(log_lines(text), start=1):
        line = raw.strip()
        if line.startswith("timestamp:"):
            m = _ACCESS.match(line)
            if not m:
                raise LogFormatError(path, number, f"not an AHB access line: {line[:60]!r}")
            if trace.statistic_line is not None:
                raise LogFormatError(path, number, "an access after the statistic block")
            if rows and int(m["ticks"]) <= rows[-1]["ticks"]:
                raise LogFormatError(path, number, f"timestamp {m['ticks']} does not follow "
                                                   f"{rows[-1]['ticks']} of line {rows[-1]['line']}")
            rows.append({"line": number, "ticks": int(m["ticks"]), "delay_ns": float(m["delay_ns"]),
                         "delay_text": m["delay_ns"],
                         "addr": int(m["addr"], 16), "addr_text": m["addr"], "data": int(m["data"]),
                         "data_text": m["data"],
                         "flags": int(m["flags"], 16) if m["flags"] else -1, "flags_text": m["flags"] or "",
                         "direction": m["direction"] or ""})
        elif line.startswith("Statistic for"):
            m = _STAT_HEADER.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a statistic header: {line[:60]!r}")
            if not rows:
                raise LogFormatError(path, number, "a statistic block before any access")
            trace.statistic_line, trace.statistic_accesses = number, int(m["n"])
        elif line.startswith("Every PCIe"):
            m = _PER_TLP.match(line)
            if not m:
                raise LogFormatError(path, number, f"cannot read accesses per TLP from {line[:60]!r}")
            if int(m["k"]) == 0:
                raise LogFormatError(path, number, "a TLP cannot end up in 0 AHB accesses")
            trace.accesses_per_tlp = int(m["k"])
        elif line.startswith(("average ", "min ", "max ")):
            m = _STAT_VALUE.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a statistic value: {line[:60]!r}")
            if trace.statistic_line is None:
                raise LogFormatError(path, number, "a statistic value outside a statistic block")
            trace.printed[f"{m['which']} {m['what']}"] = m["value"]
    if not rows:
        raise LogFormatError(path, 1, "no AHB access lines")
    if trace.statistic_line is not None:
        missing = [k for k in STATISTIC_KEYS if k not in trace.printed]
        if missing or trace.accesses_per_tlp is None:
            raise LogFormatError(path, trace.statistic_line,
                                 "statistic block cut short: missing " + ", ".join(missing or ["accesses per TLP"]))
        if trace.statistic_accesses != len(rows):
            raise LogFormatError(path, trace.statistic_line,
                                 f"statistic counts {trace.statistic_accesses} accesses, the trace has {len(rows)}")
    trace.accesses = pd.DataFrame(rows)
    return trace


def statistics(trace: AhbTrace, accesses_per_tlp: int | None = None) -> dict[str, float]:
    """The statistic block recomputed from the timestamps: TLP-to-TLP intervals (ns) and throughput (B/s).

    A TLP starts at every ``accesses_per_tlp``-th access; it carries that many
    4-byte words.
    """
    k = accesses_per_tlp or trace.accesses_per_tlp or 1
    starts = trace.accesses["ticks"].to_numpy()[::k]
    if len(starts) < 2:
        raise ValueError(f"{trace.path}: fewer than two TLPs, no interval to measure")
    intervals = np.diff(starts) * TICK_NS
    tlp_bytes = k * BYTES_PER_ACCESS
    return {
        "average elapsed Time": float(intervals.mean()),
        "min elapsed Time": float(intervals.min()),
        "max elapsed Time": float(intervals.max()),
        "average throughput": tlp_bytes / float(intervals.mean()) * 1e9,
        "max throughput": tlp_bytes / float(intervals.min()) * 1e9,
        "min throughput": tlp_bytes / float(intervals.max()) * 1e9,
    }


def delays_from_timestamps(trace: AhbTrace) -> np.ndarray:
    """The delay (ns) of each access after the one before it, from the timestamps: what each line prints
    in brackets (0 for the first access, which has none before it)."""
    ticks = trace.accesses["ticks"].to_numpy()
    return np.concatenate([[0.0], np.diff(ticks) * TICK_NS])


def rate_from(nbytes: float, ns: float) -> float:
    """Bytes per second of ``nbytes`` bytes every ``ns`` nanoseconds, as the statistic block prints it."""
    return nbytes / ns * 1e9


def time_from_rate(nbytes: float, bytes_per_s: float) -> float:
    """Nanoseconds per ``nbytes`` bytes at ``bytes_per_s``: the interval a printed throughput stands for."""
    return nbytes / bytes_per_s * 1e9


def bursts(trace: AhbTrace, within_ticks: int = 2) -> tuple[list[int], list[float]]:
    """The runs of accesses each at most ``within_ticks`` after the one before (one burst of a cache-line
    fill or of one TLP): the number of accesses in each, and the gaps (ns) between one run's last
    access and the next run's first."""
    ticks = trace.accesses["ticks"].to_numpy()
    sizes, gaps = [1], []
    for a, b in zip(ticks, ticks[1:]):
        if b - a <= within_ticks:
            sizes[-1] += 1
        else:
            sizes.append(1)
            gaps.append(float(b - a) * TICK_NS)
    return sizes, gaps
