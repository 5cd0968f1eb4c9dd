"""PCI Express transfers bound by latency: why measured throughput falls short of the packet model.

A DMA transfer of ``S`` bytes costs time the packet model (:mod:`goodput.models.pcie`)
does not see, in two parts:

- ``t_s``, serial per-transfer work that does not overlap with other transfers
  (descriptor fetch and DMA setup in the engine that issues them all);
- ``t_l``, latency that other transfers in flight can hide (for a write, the
  posting path to the far memory; for a read, the round trip until the
  completions arrive).

Its data then takes ``8 S / g`` ns at the per-direction goodput ``g`` of the
packet model. With ``k_req`` transfers in flight, a transfer completes every

    Max(t_s + 8 S / g, (t_s + t_l + 8 S / g) / k_req)

nanoseconds: either the serial part and the wire are the bottleneck, or the
whole round trip shared by the transfers in flight is. Reads are non-posted: no
more of them can be outstanding than the completer granted non-posted header
credits, ``C_NP``, so for reads ``k_req`` is ``Min(k_req, C_NP)``. ``t_s`` and ``t_l`` are
the free parameters; :func:`fit_an3935` fits them to AN3935's back-to-back
tables with the packet model left as the document calculates it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import sympy as sp

from goodput.core import data
from goodput.core.fit import Bound, Fit, fit
from goodput.core.symbols import lambdify, maker
from goodput.models import pcie

symbol = maker(__name__)

__all__ = ["serial_time", "latency_time", "outstanding", "credits", "AN3935_NP_CREDITS", "transfer_time_expr",
           "latency_bound_expr", "latency_bound_gbit_s", "an3935_back_to_back", "an3935_runs", "fit_an3935",
           "AN3935_BACK_TO_BACK", "BOUNDS", "PARAMETERS"]

serial_time = pcie.serial_time  #: ns per transfer that nothing overlaps (the command's, declared there)
latency_time = pcie.latency_time  #: ns per transfer that transfers in flight overlap
outstanding = pcie.outstanding  #: transfers in flight
credits = symbol(r"C_{\mathrm{NP}}", positive=True, integer=True)  #: non-posted header credits

#: MSC8156's initial non-posted header credits (AN3935 §7.3): at most 8 reads outstanding.
AN3935_NP_CREDITS = 8

#: AN3935's back-to-back tables (Tables 11 and 12): each size measured with 1, 4 and 8 DMA channels
#: issuing back to back (their ``dma_channels`` column), writes in one and reads in the other.
AN3935_BACK_TO_BACK = ("an3935-table11", "an3935-table12")

BOUNDS = (Bound("t_s", 0.0, 2000.0, "ns"), Bound("t_l", 0.0, 10000.0, "ns"))

PARAMETERS = pcie.LATENCY_PARAMETERS


def transfer_time_expr(kind: str, policy: str = "every", duplex: bool = False) -> sp.Expr:
    """Nanoseconds per transfer in steady state, with ``k_req`` in flight."""
    directions = 2 if duplex else 1
    g = pcie.goodput_expr(kind, policy, duplex) / directions  # Gbit/s = bit/ns, one direction
    wire = 8 * pcie.payload / g
    in_flight = sp.Min(outstanding, credits) if kind == "read" else outstanding
    return sp.Max(serial_time + wire, (serial_time + latency_time + wire) / in_flight)


def latency_bound_expr(kind: str, policy: str = "every", duplex: bool = False) -> sp.Expr:
    """Goodput (Gbit/s, both directions summed when ``duplex``) of latency-bound transfers."""
    directions = 2 if duplex else 1
    return directions * 8 * pcie.payload / transfer_time_expr(kind, policy, duplex)


@lru_cache(maxsize=None)
def _numeric(kind: str, policy: str, duplex: bool):
    return lambdify((*pcie._SYMBOLS, serial_time, latency_time, outstanding, credits),
                       latency_bound_expr(kind, policy, duplex), "numpy")


def latency_bound_gbit_s(kind: str, link: pcie.Link, sizes, serial_ns: float, latency_ns: float,
                         in_flight: int, duplex: bool = False,
                         np_credits: int = AN3935_NP_CREDITS) -> np.ndarray:
    """:func:`latency_bound_expr` at ``sizes`` (bytes, array-like) on ``link``."""
    link = link.checked()
    sizes = np.asarray(sizes, dtype=float)
    values = list(pcie._values(link, 1))
    values[0] = sizes
    f = _numeric(kind, link.dllp_policy()[0], duplex)
    return np.broadcast_to(f(*values, serial_ns, latency_ns, in_flight, np_credits), sizes.shape).astype(float)


def an3935_back_to_back(kind: str) -> tuple[pd.DataFrame, pcie.Link]:
    """The measured rows of the AN3935 back-to-back table whose transfers are ``kind`` (``"write"``:
    Table 11, ``"read"``: Table 12), and the link AN3935 calculates with for the device, lanes and MPS
    they share."""
    for name in AN3935_BACK_TO_BACK:
        table = data.load(name)
        if data.single(table, "transfer") == kind:
            measured = table[table["series"] == "measured"]
            link = pcie.an3935_link(*(data.single(measured, c) for c in ("device", "lanes", "mps_bytes")))
            return measured, link
    raise ValueError(f"no AN3935 back-to-back table of {kind!r} transfers")


def an3935_runs(measured: pd.DataFrame) -> dict[int, pd.DataFrame]:
    """The measured rows of a back-to-back table by transfers in flight (DMA channels), each run's rows
    in the table's order of sizes, the same sizes in every run."""
    runs = {int(k): measured[measured["dma_channels"] == k] for k in measured["dma_channels"].drop_duplicates()}
    sizes = [list(r["bytes"]) for r in runs.values()]
    if any(s != sizes[0] for s in sizes):
        raise ValueError(f"{measured.attrs['provenance']['resource']}: the runs measured different sizes")
    return runs


def fit_an3935(kind: str) -> tuple[Fit, dict[int, np.ndarray]]:
    """Fit ``t_s`` and ``t_l`` to AN3935 Table 11 (writes) or 12 (reads), all three columns at once.

    The packet model is the one AN3935 calculates with (ACK + UpdateFC per 4 TLPs, both directions)
    on the table's link (its device, lanes and MPS). Returns the fit and, per number of transfers in
    flight (the table's DMA channels), the fitted model's values at the table's sizes.
    """
    measured, link = an3935_back_to_back(kind)
    runs = an3935_runs(measured)
    sizes = next(iter(runs.values()))["bytes"].to_numpy()
    values = np.concatenate([r["gbit_s"].to_numpy() for r in runs.values()])

    def predict(ts, tl):
        return np.concatenate([latency_bound_gbit_s(kind, link, sizes, ts, tl, k, duplex=True) for k in runs])

    result = fit(predict, values, BOUNDS)
    ts, tl = result.values["t_s"], result.values["t_l"]
    curves = {k: latency_bound_gbit_s(kind, link, sizes, ts, tl, k, duplex=True) for k in runs}
    return result, curves
