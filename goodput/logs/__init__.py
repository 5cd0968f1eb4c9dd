"""Log parsers, one module per log format.

``ahb_trace``
    AHB bus traces printed by the Intel PCIe tutorial's test program.
``pcie_trace``
    PCI Express analyzer symbol traces (one symbol per direction per cycle).
``bench``
    The machine lines (BENCH-CONFIG/RESULT/DONE) of the book's benchmark firmware.
``ndk_console``
    The NDK benchmark testee's console sentences, from TI's document or our testee.
``dma_demo``
    The console output of the Intel tutorial's DMA demo program (its buffer, tests and results).
``kbuild``
    The console output of building a Linux kernel module (the modules compiled, post-processed and linked).

Every parser reads a file with :func:`read_log` and numbers its lines with
:func:`log_lines`, or reads it a line at a time with :func:`read_lines` (``bench``,
whose logs may be long) (module ``text``): a byte that is not UTF-8, an empty file
and a path that is no file to read are a :class:`~goodput.core.errors.LogFormatError`
naming the line, like any other line a parser cannot read; a byte-order mark at
the start is skipped.
"""

from goodput.logs import ahb_trace, bench, dma_demo, kbuild, ndk_console, pcie_trace, text
from goodput.logs.text import log_lines, read_lines, read_log

__all__ = ["ahb_trace", "bench", "dma_demo", "kbuild", "ndk_console", "pcie_trace", "text", "read_log", "read_lines",
           "log_lines"]
