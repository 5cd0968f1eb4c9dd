"""Log parsers, one module per log format.

``ahb_trace``
    AHB bus traces printed by the Intel PCIe tutorial's test program.
``pcie_trace``
    PCI Express analyzer symbol traces (one symbol per direction per cycle).
"""

from . import ahb_trace, pcie_trace

__all__ = ["ahb_trace", "pcie_trace"]
