"""Log parsers, one module per log format.

``ahb_trace``
    AHB bus traces printed by the Intel PCIe tutorial's test program.
"""

from . import ahb_trace

__all__ = ["ahb_trace"]
