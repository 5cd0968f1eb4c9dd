"""Log parsers, one module per log format.

``ahb_trace``
    AHB bus traces printed by the Intel PCIe tutorial's test program.
``pcie_trace``
    PCI Express analyzer symbol traces (one symbol per direction per cycle).
``bench``
    The machine lines (BENCH-CONFIG/RESULT/DONE) of the book's benchmark firmware.
``ndk_console``
    The NDK benchmark testee's console sentences, from TI's document or our testee.
"""

from . import ahb_trace, bench, ndk_console, pcie_trace

__all__ = ["ahb_trace", "bench", "ndk_console", "pcie_trace"]
