"""Parser for the console output of the Intel tutorial's ``dma-demo`` (Intel 324611 §2).

The program names its DMA buffer, then prints each test and its steps::

    dma buf:0x97fb4000-0xb7673fff, size:527.17 MByte
    TSC frequency: 1.6 GHz
    Test 1: DMA Mem->FPGA
    * Duration the DMA controller was busy (measured in the FPGA):
    -> 10.93 sec, 48.24 MByte/sec.

A ``->`` line is the result of the ``*`` step above it: a rate (MByte/sec), after a duration (sec) where
the step timed a transfer; the ``TSC frequency`` line gives the clock the program times with. Numbers are
kept as printed. Every other line (prompts, ``=====`` rules,
``#`` headers) is skipped. :func:`parse` raises :class:`~goodput.core.errors.LogFormatError` with the file
and line for a buffer, clock or result line it cannot read, a result without a step before it, a step outside
a test, and a log without its buffer line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from goodput.core.errors import LogFormatError
from goodput.logs.text import DECIMAL, INTEGER, log_lines, read_log

__all__ = ["DmaDemo", "parse", "parse_text", "buffer_bytes"]

_BUFFER = re.compile(rf"""
    ^dma\ buf:(?P<first>0x[0-9a-fA-F]{{1,16}})-(?P<last>0x[0-9a-fA-F]{{1,16}}),   # first and last address
    \s*size:(?P<size>{DECIMAL})\ MByte\s*$                                       # its size, 10^6 bytes
    """, re.VERBOSE)
_TSC = re.compile(rf"^TSC\ frequency:\ (?P<ghz>{DECIMAL})\ GHz\s*$", re.VERBOSE)
_TEST = re.compile(rf"^Test\ (?P<number>{INTEGER}):\ (?P<title>.+?)\s*$", re.VERBOSE)
_REFERENCE_CRC = re.compile(r"ref_crc=(?P<crc>0x[0-9a-fA-F]{1,8})\b")
_TRANSFER_CRC = re.compile(r"CRC \[(?P<verdict>[A-Z]+)\] \(crc=(?P<crc>0x[0-9a-fA-F]{1,8})\)")
_RESULT = re.compile(rf"""
    ^->\ (?:(?P<seconds>{DECIMAL})\ sec,\ )?      # the duration of a timed transfer
    (?P<rate>{DECIMAL})\ MByte/sec\.?\s*$         # and the rate
    """, re.VERBOSE)


@dataclass
class DmaDemo:
    """The buffer (addresses, size as printed) and every result, one row each."""

    path: str
    first_address: int
    last_address: int
    size_mbyte: str
    results: pd.DataFrame
    #: The CRCs the steps print, one dict each: test, ``"reference"`` (the CPU's ``ref_crc``) or ``"transfer"``
    #: (the FPGA's, after ``CRC [OK]`` or another verdict), the verdict (``""`` for a reference), the CRC as
    #: printed and its line.
    crcs: list = field(default_factory=list)
    #: The time stamp counter's frequency the program determined (GHz, as printed), ``""`` if it prints none.
    tsc_ghz: str = ""


def buffer_bytes(demo: DmaDemo) -> int:
    """The bytes of the DMA buffer, from its first and last address."""
    return demo.last_address - demo.first_address + 1


def parse(path) -> DmaDemo:
    """Parse the ``dma-demo`` console output at ``path``."""
    path = Path(path)
    return parse_text(read_log(path), str(path))


def parse_text(text: str, path: str = "<text>") -> DmaDemo:
    """Parse ``dma-demo`` console output given as text; ``path`` names it in errors."""
    buffer = None
    test = None
    step = None
    rows = []
    crcs = []
    tsc = ""
    for number, raw in enumerate(log_lines(text), start=1):
        line = raw.strip()
        if line.startswith("dma buf:"):
            m = _BUFFER.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a DMA buffer line: {line[:60]!r}")
            first, last = int(m["first"], 16), int(m["last"], 16)
            if last < first:
                raise LogFormatError(path, number, "the buffer ends before it starts")
            buffer = (first, last, m["size"])
        elif line.startswith("TSC frequency:"):
            m = _TSC.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a TSC frequency line: {line[:60]!r}")
            tsc = m["ghz"]
        elif line.startswith("Test "):
            m = _TEST.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a test heading: {line[:60]!r}")
            test, step = (int(m["number"]), m["title"]), None
        elif line.startswith("* "):
            if test is None:
                raise LogFormatError(path, number, "a step outside any test")
            step = line[2:]
            for kind, pattern in (("reference", _REFERENCE_CRC), ("transfer", _TRANSFER_CRC)):
                m = pattern.search(step)
                if m:
                    crcs.append({"test": test[0], "kind": kind, "verdict": m.groupdict().get("verdict") or "",
                                 "crc": m["crc"], "line": number})
        elif line.startswith("->"):
            m = _RESULT.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a result line: {line[:60]!r}")
            if step is None:
                raise LogFormatError(path, number, "a result without a step before it")
            rows.append({"test": test[0], "title": test[1], "step": step, "seconds": m["seconds"] or "",
                         "mbyte_s": m["rate"], "line": number})
            step = None
    if buffer is None:
        raise LogFormatError(path, 1, "no 'dma buf:' line")
    return DmaDemo(path, buffer[0], buffer[1], buffer[2],
                   pd.DataFrame(rows, columns=["test", "title", "step", "seconds", "mbyte_s", "line"]), crcs, tsc)
