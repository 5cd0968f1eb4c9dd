"""The PCI Express Base Specification's recommended ACK and UpdateFC latency limits.

Read from the published table ``pcie-base-spec-latency-limits`` (see the
sources page for where it comes from).
"""

from __future__ import annotations

from functools import lru_cache

from . import data
from .errors import ParameterError

__all__ = ["latency_limits"]


@lru_cache(maxsize=1)
def _table() -> dict:
    t = data.load("pcie-base-spec-latency-limits")
    return {(r.generation, r.lanes, r.mps_bytes): (r.ack_limit_symbol_times, r.updatefc_limit_symbol_times)
            for r in t.itertuples()}


def latency_limits(gen: int, lanes: int, mps_bytes: int) -> tuple[int, int]:
    """``(ack, updatefc)`` latency limits in symbol times for a link."""
    try:
        return _table()[(gen, lanes, mps_bytes)]
    except KeyError:
        raise ParameterError("gen/lanes/mps", (gen, lanes, mps_bytes),
                             "a combination the specification tabulates (gen 1-5, x1-x32, MPS 128-4096)") from None
