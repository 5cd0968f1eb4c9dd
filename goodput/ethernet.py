"""Ethernet: what each frame costs on the wire, and the goodput left above the MAC or a protocol.

A frame of ``L`` bytes (MAC header to FCS) occupies ``L + 20`` byte times on the
wire: preamble (7), start-of-frame delimiter (1) and the minimum inter-packet
gap (12). A frame is at least 64 bytes; shorter contents are padded. Above the
MAC, each frame carries a 14-byte header, an optional 4-byte VLAN tag and a
4-byte FCS; a protocol stack (IPv4 20 or IPv6 40 bytes, then UDP 8 or TCP 20,
with 12 more for TCP timestamps) takes its share of what is left. The MAC
rate ``R`` (Gbit/s) is the bit rate after the physical layer's code: 10GBASE-R
signals 10.3125 Gbaud and keeps 10 Gbit/s after 64b/66b (:mod:`goodput.coding`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from . import checks, data
from .command import Arg, Command, Ranged, report_lines
from .errors import ParameterError
from .params import DEFAULT, Parameter
from .symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["frame", "preamble", "sfd", "gap", "mac_header", "vlan", "fcs", "stack", "mac_rate",
           "WIRE_OVERHEAD_BYTES", "VLAN_TAG_BYTES", "MIN_FRAME_BYTES", "STACKS", "Stack", "PARAMETERS",
           "wire_bytes_expr", "frame_rate_expr", "line_goodput_expr", "headers_expr", "payload_goodput_expr",
           "frame_bytes_for", "evaluate"]

frame = symbol("L", positive=True, integer=True)  #: frame bytes, MAC header to FCS
preamble = symbol(r"B_{\mathrm{pre}}", positive=True, integer=True)
sfd = symbol(r"B_{\mathrm{SFD}}", positive=True, integer=True)
gap = symbol(r"B_{\mathrm{IPG}}", positive=True, integer=True)
mac_header = symbol(r"B_{\mathrm{MAC}}", positive=True, integer=True)
vlan = symbol(r"B_{\mathrm{VLAN}}", nonnegative=True, integer=True)
fcs = symbol(r"B_{\mathrm{FCS}}", positive=True, integer=True)
stack = symbol(r"B_{\mathrm{stack}}", nonnegative=True, integer=True)  #: IP + transport headers
mac_rate = symbol("R", positive=True)  #: MAC bit rate, Gbit/s

VALUES = {preamble: 7, sfd: 1, gap: 12, mac_header: 14, fcs: 4}
VLAN_TAG_BYTES = 4
WIRE_OVERHEAD_BYTES = VALUES[preamble] + VALUES[sfd] + VALUES[gap]
MIN_FRAME_BYTES = 64
MAX_FRAME_BYTES = 9018  #: a jumbo frame with a VLAN tag; 1518 without jumbo frames


@dataclass(frozen=True)
class Stack:
    """A protocol stack above the MAC: its header bytes per frame."""

    key: str
    name: str
    header_bytes: int


STACKS = {s.key: s for s in (
    Stack("raw", "raw Ethernet", 0),
    Stack("udp4", "UDP over IPv4", 20 + 8),
    Stack("tcp4", "TCP over IPv4", 20 + 20),
    Stack("tcp4ts", "TCP over IPv4 with timestamps", 20 + 20 + 12),
    Stack("udp6", "UDP over IPv6", 40 + 8),
    Stack("tcp6", "TCP over IPv6", 40 + 20),
    Stack("tcp6ts", "TCP over IPv6 with timestamps", 40 + 20 + 12),
)}

PARAMETERS = {
    p.name: p
    for p in (
        Parameter("frame_bytes", frame, "bytes", MIN_FRAME_BYTES, MAX_FRAME_BYTES, default=1518, step=1,
                  label="frame size (bytes)", integer=True),
        Parameter("mac_rate_gbit_s", mac_rate, "Gbit/s", 0.001, 400.0, default=10.0, step=0.1,
                  label="MAC rate (Gbit/s)",
                  presets=((0.1, "100M"), (1.0, "1G"), (2.5, "2.5G"), (10.0, "10G"), (25.0, "25G"),
                           (40.0, "40G"), (100.0, "100G"))),
    )
}


def wire_bytes_expr() -> sp.Expr:
    """Byte times one frame of ``L`` bytes occupies on the wire."""
    return frame + preamble + sfd + gap


def frame_rate_expr() -> sp.Expr:
    """Frames per second (millions) at MAC rate ``R``."""
    return 1000 * mac_rate / (8 * wire_bytes_expr())


def line_goodput_expr() -> sp.Expr:
    """Frame bits per second (Gbit/s) at MAC rate ``R``: what a counter of frame bytes sees."""
    return mac_rate * frame / wire_bytes_expr()


def headers_expr() -> sp.Expr:
    """Bytes of a frame that are not payload: MAC header, VLAN tag, FCS and the stack's headers."""
    return mac_header + vlan + fcs + stack


def payload_goodput_expr() -> sp.Expr:
    """Payload bits per second (Gbit/s) above the protocol stack, for full frames of ``L`` bytes."""
    return mac_rate * (frame - headers_expr()) / wire_bytes_expr()


@lru_cache(maxsize=None)
def _numeric(name: str):
    expr = {"line": line_goodput_expr(), "payload": payload_goodput_expr(),
            "frames": frame_rate_expr()}[name].subs(VALUES)
    return lambdify((frame, mac_rate, vlan, stack), expr, "math")


def _frame_headers(s: Stack, vlan_tag: bool) -> int:
    """:func:`headers_expr` for ``s`` with or without a VLAN tag."""
    return int(headers_expr().subs({**VALUES, vlan: VLAN_TAG_BYTES if vlan_tag else 0, stack: s.header_bytes}))


def frame_bytes_for(payload_bytes: int, stack_key: str = "raw", vlan_tag: bool = False) -> int:
    """Frame size for ``payload_bytes`` above ``stack_key``, padded to the minimum frame."""
    return max(MIN_FRAME_BYTES, payload_bytes + _frame_headers(_stack(stack_key), vlan_tag))


def _stack(key: str) -> Stack:
    try:
        return STACKS[key]
    except KeyError:
        raise ParameterError("stack", key, "one of " + ", ".join(STACKS)) from None


def evaluate(frame_bytes: int, mac_rate_gbit_s: float = DEFAULT, stack_key: str = "raw",
             vlan_tag: bool = False) -> dict:
    """Frame rate, frame goodput and payload goodput of back-to-back frames (JSON-ready)."""
    frame_bytes = PARAMETERS["frame_bytes"].check(frame_bytes)
    rate = PARAMETERS["mac_rate_gbit_s"].check(mac_rate_gbit_s)
    s = _stack(stack_key)
    headers = _frame_headers(s, vlan_tag)
    if frame_bytes - headers < 0:
        raise ParameterError("frame_bytes", frame_bytes,
                             f"at least {headers} bytes to hold the headers of {s.name}")
    v = VLAN_TAG_BYTES if vlan_tag else 0
    return {
        "frame_bytes": frame_bytes, "mac_rate_gbit_s": rate, "stack": s.key, "vlan": vlan_tag,
        "frames_per_s": 1e6 * _numeric("frames")(frame_bytes, rate, v, s.header_bytes),
        "frame_gbit_s": _numeric("line")(frame_bytes, rate, v, s.header_bytes),
        "goodput_gbit_s": _numeric("payload")(frame_bytes, rate, v, s.header_bytes),
        "efficiency": _numeric("payload")(frame_bytes, rate, v, s.header_bytes) / rate,
        "bytes": {"payload": float(frame_bytes - headers), "headers": float(headers - VALUES[fcs]),
                  "fcs": float(VALUES[fcs]), "preamble_sfd": float(VALUES[preamble] + VALUES[sfd]),
                  "gap": float(VALUES[gap])},
    }


@checks.provider("ethernet-framing")
def source_checks():
    """KeyStone II §9: the bits the 512-packet test counts, per packet size."""
    out = []
    t = data.load("keystone2-s9-10gbe")
    for row in t.itertuples():
        bits = 512 * 8 * (row.packet_bytes + row.per_packet_overhead_bytes)
        out.append(checks.compare("ethernet-framing", t, row.Index, "total_bits_512_packets", bits,
                                  f"{row.packet_bytes}-byte packets"))
        out.append(checks.compare(
            "ethernet-framing", t, row.Index, "per_packet_overhead_bytes",
            WIRE_OVERHEAD_BYTES, f"{row.packet_bytes}-byte packets"))
    return out


# --- the receiver's per-packet cost (KeyStone II §9) --------------------------------------------

packet_time = symbol("t_0", nonnegative=True)  #: ns per packet the Packet DMA needs regardless of size
dma_rate = symbol(r"\beta", positive=True)  #: bytes per ns the Packet DMA moves into memory


def dma_bound_expr() -> sp.Expr:
    """Frame-plus-overhead bits per second (Gbit/s, as §9 counts them) when each packet also costs
    the receiver ``t_0 + L / beta`` ns, overlapped with the next packet's arrival."""
    wire_ns = 8 * wire_bytes_expr() / mac_rate
    return 8 * wire_bytes_expr() / sp.Max(wire_ns, packet_time + frame / dma_rate)


def saturation_frame_expr() -> sp.Expr:
    """The frame size above which the wire, not the receiver, sets the rate."""
    wire_ns = 8 * wire_bytes_expr() / mac_rate
    (solution,) = sp.solve(sp.Eq(wire_ns, packet_time + frame / dma_rate), frame)
    return solution


def fit_keystone_10gbe():
    """Fit ``t_0`` and ``beta`` to §9's 512-packet table at 10 Gbit/s; returns the fit and the curve."""
    import numpy as np

    from .fit import Bound, fit
    from .precision import stable

    t = data.load("keystone2-s9-10gbe")
    f = lambdify((frame, packet_time, dma_rate), dma_bound_expr().subs(VALUES).subs(mac_rate, 10), "numpy")
    sizes = t["packet_bytes"].to_numpy(dtype=float)
    measured = t["throughput_mbit_s"].to_numpy() / 1000

    def predict(t0, beta):
        return np.asarray(f(sizes, t0, beta), dtype=float)

    result = fit(predict, measured, [Bound("t_0", 0.0, 1000.0, "ns"), Bound("beta", 0.5, 20.0, "B/ns")])
    saturation = stable(float(saturation_frame_expr().subs(VALUES).subs(
        {mac_rate: 10, packet_time: result.values["t_0"], dma_rate: result.values["beta"]})))
    return result, stable(predict(result.values["t_0"], result.values["beta"])), saturation


__all__ += ["packet_time", "dma_rate", "dma_bound_expr", "saturation_frame_expr", "fit_keystone_10gbe"]


# --- goodput ethernet ----------------------------------------------------------------------------

COMMAND = Command(
    "ethernet", help="goodput of back-to-back Ethernet frames",
    description="Frame rate and payload goodput of back-to-back frames of FRAME bytes (MAC header to FCS), with "
                "preamble, SFD and inter-packet gap on the wire.",
    arguments=(Ranged("--frame", PARAMETERS["frame_bytes"], "BYTES", required=True),
               Ranged("--rate-gbit-s", PARAMETERS["mac_rate_gbit_s"], "GBIT_S"),
               Arg("--stack", default="raw", help="protocol stack: " + ", ".join(STACKS)),
               Arg("--vlan", action="store_true", help="frames carry an 802.1Q tag")),
    run=lambda args: evaluate(args.frame_bytes, args.mac_rate_gbit_s, args.stack, args.vlan),
    lines=lambda args, r: report_lines(
        f"{r['frame_bytes']}-byte frames at {r['mac_rate_gbit_s']:g} Gbit/s, {STACKS[r['stack']].name}: "
        f"{r['frames_per_s']:.6g} frames/s", r))
