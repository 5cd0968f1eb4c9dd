"""Ethernet: what each frame costs on the wire, and the goodput left above the MAC or a protocol.

A frame of ``L`` bytes (MAC header to FCS) occupies ``L + 20`` byte times on the
wire: preamble (7), start-of-frame delimiter (1) and the minimum inter-packet
gap (12). That is the *wire* convention, the default here; many references quote
the *payload over frame* convention instead, counting the frame's bytes only. One
symbol, ``c_wire`` (1 or 0), multiplies the 20 bytes and so chooses between them.
A frame is at least 64 bytes; shorter contents are padded; jumbo frames (not in
IEEE 802.3) reach 9018 bytes for a 9000-byte MTU, 9216 on most switches. Above the
MAC, each frame carries a 14-byte header, an optional 4-byte VLAN tag and a
4-byte FCS; a protocol stack (IPv4 20 or IPv6 40 bytes, then UDP 8 or TCP 20,
with 12 more for TCP timestamps) takes its share of what is left. The MAC
rate ``R`` (Gbit/s) is the bit rate after the physical layer's code: 10GBASE-R
signals 10.3125 Gbaud and keeps 10 Gbit/s after 64b/66b (:mod:`goodput.models.coding`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from goodput.core import data
from goodput.core.command import Arg, Command, Ranged, report_lines
from goodput.core.errors import ParameterError
from goodput.core.fit import Bound, fit
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.core.precision import stable
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = [
    "frame", "preamble", "sfd", "gap", "mac_header", "vlan", "fcs", "stack", "mac_rate", "wire_counted",
    "WIRE_OVERHEAD_BYTES", "VLAN_TAG_BYTES", "MIN_FRAME_BYTES", "MAX_FRAME_BYTES", "WIRE", "FRAME_ONLY", "CONVENTIONS",
    "STACKS", "Stack", "PARAMETERS", "wire_bytes_expr", "frame_rate_expr", "line_goodput_expr", "headers_expr",
    "payload_goodput_expr", "frame_bytes_for", "counted_bytes", "evaluate", "packet_time", "dma_rate",
    "on_the_wire_expr", "dma_bound_expr", "saturation_frame_expr", "fit_keystone_10gbe",
]

frame = symbol("L", positive=True, integer=True)  #: frame bytes, MAC header to FCS
preamble = symbol(r"B_{\mathrm{pre}}", positive=True, integer=True)
sfd = symbol(r"B_{\mathrm{SFD}}", positive=True, integer=True)
gap = symbol(r"B_{\mathrm{IPG}}", positive=True, integer=True)
mac_header = symbol(r"B_{\mathrm{MAC}}", positive=True, integer=True)
vlan = symbol(r"B_{\mathrm{VLAN}}", nonnegative=True, integer=True)
fcs = symbol(r"B_{\mathrm{FCS}}", positive=True, integer=True)
stack = symbol(r"B_{\mathrm{stack}}", nonnegative=True, integer=True)  #: IP + transport headers
mac_rate = symbol("R", positive=True)  #: MAC bit rate, Gbit/s
#: 1 where preamble, SFD and gap count (the wire convention), 0 where only the frame's bytes do
#: (the payload-over-frame convention)
wire_counted = symbol(r"c_{\mathrm{wire}}", nonnegative=True, integer=True)

VALUES = {preamble: 7, sfd: 1, gap: 12, mac_header: 14, fcs: 4}
VLAN_TAG_BYTES = 4
WIRE_OVERHEAD_BYTES = VALUES[preamble] + VALUES[sfd] + VALUES[gap]
MIN_FRAME_BYTES = 64
#: The largest frame the model takes. IEEE 802.3 stops at 1518 bytes (1522 with a VLAN tag); jumbo
#: frames are outside the standard. A 9000-byte MTU (9018-byte frames, 9022 tagged) is the usual
#: jumbo, and most switches accept frames up to 9216 bytes (RFC 5180 lists 9216-byte frames; Aruba's
#: switches document it as their largest max-frame-size). Some equipment goes further: Huawei's
#: CloudEngine switches take frames up to 12224 or 12288 bytes (their "jumbo_max"), IBM's MQ
#: appliance an MTU up to 16128 bytes. The model stops at 16000 bytes, a round limit that holds the
#: frames of every switch above and keeps the frame-size slider's span reasonable for a log scale.
MAX_FRAME_BYTES = 16000
WIRE, FRAME_ONLY = 1, 0  #: the values of ``wire_counted`` for the two conventions
CONVENTIONS = {WIRE: "wire", FRAME_ONLY: "frame"}  #: each convention's key in results and JSON


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

PARAMETERS = by_name(
    Parameter("frame_bytes", frame, "bytes", MIN_FRAME_BYTES, MAX_FRAME_BYTES, default=1518, step=1,
              label="frame size (bytes)", integer=True),
    Parameter("mac_rate_gbit_s", mac_rate, "Gbit/s", 0.001, 400.0, default=10.0, step=0.1,
              label="MAC rate (Gbit/s)",
              presets=((0.1, "100M"), (1.0, "1G"), (2.5, "2.5G"), (10.0, "10G"), (25.0, "25G"),
                       (40.0, "40G"), (100.0, "100G"))),
    Parameter("vlan_bytes", vlan, "bytes", 0, VLAN_TAG_BYTES, default=0, step=VLAN_TAG_BYTES,
              label="VLAN tag (bytes)", integer=True,
              options=((0, "untagged"), (VLAN_TAG_BYTES, f"802.1Q tag, {VLAN_TAG_BYTES} B"))),
    Parameter("convention", wire_counted, "", FRAME_ONLY, WIRE, default=WIRE, step=1,
              label="convention (1: wire, 0: payload over frame)",
              integer=True, options=((FRAME_ONLY, "payload over frame: frame bytes only"),
                                     (WIRE, "wire: frame + 20 B of preamble, SFD and gap"))),
)


def wire_bytes_expr() -> sp.Expr:
    """Byte times one frame of ``L`` bytes occupies on the wire (``c_wire = 1``), or its own bytes
    only (``c_wire = 0``, the payload-over-frame convention)."""
    return frame + wire_counted * (preamble + sfd + gap)


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
            "frames": frame_rate_expr(), "counted": wire_bytes_expr()}[name].subs(VALUES)
    return lambdify((frame, mac_rate, vlan, stack, wire_counted), expr, "math")


def _frame_headers(s: Stack, vlan_tag: bool) -> int:
    """:func:`headers_expr` for ``s`` with or without a VLAN tag."""
    return int(headers_expr().subs({**VALUES, vlan: VLAN_TAG_BYTES if vlan_tag else 0, stack: s.header_bytes}))


def frame_bytes_for(payload_bytes: int, stack_key: str = "raw", vlan_tag: bool = False) -> int:
    """Frame size for ``payload_bytes`` above ``stack_key``, padded to the minimum frame."""
    return max(MIN_FRAME_BYTES, payload_bytes + _frame_headers(_stack(stack_key), vlan_tag))


def counted_bytes(frame_bytes: int, convention: int = DEFAULT) -> int:
    """Bytes :func:`wire_bytes_expr` counts for one frame of ``frame_bytes`` in ``convention``."""
    return int(_numeric("counted")(PARAMETERS["frame_bytes"].check(frame_bytes), 0, 0, 0,
                                   PARAMETERS["convention"].check(convention)))


def _stack(key: str) -> Stack:
    try:
        return STACKS[key]
    except KeyError:
        raise ParameterError("stack", key, "one of " + ", ".join(STACKS)) from None


def evaluate(frame_bytes: int, mac_rate_gbit_s: float = DEFAULT, stack_key: str = "raw",
             vlan_tag: bool = False, convention: int = DEFAULT) -> dict:
    """Frame rate, frame goodput and payload goodput of back-to-back frames (JSON-ready).

    ``convention`` is :data:`WIRE` (1: preamble, SFD and gap take their 20 byte times, the default)
    or :data:`FRAME_ONLY` (0: the frame's bytes only, the payload-over-frame convention); the
    result names it (``"wire"`` or ``"frame"``) and counts no preamble or gap bytes under the latter.
    """
    frame_bytes = PARAMETERS["frame_bytes"].check(frame_bytes)
    rate = PARAMETERS["mac_rate_gbit_s"].check(mac_rate_gbit_s)
    counted = PARAMETERS["convention"].check(convention)
    s = _stack(stack_key)
    headers = _frame_headers(s, vlan_tag)
    if frame_bytes - headers < 0:
        raise ParameterError("frame_bytes", frame_bytes,
                             f"at least {headers} bytes to hold the headers of {s.name}")
    args = (frame_bytes, rate, VLAN_TAG_BYTES if vlan_tag else 0, s.header_bytes, counted)
    return {
        "frame_bytes": frame_bytes, "mac_rate_gbit_s": rate, "stack": s.key, "vlan": vlan_tag,
        "convention": CONVENTIONS[counted],
        "counted_bytes": counted_bytes(frame_bytes, counted),
        "frames_per_s": 1e6 * _numeric("frames")(*args),
        "frame_gbit_s": _numeric("line")(*args),
        "goodput_gbit_s": _numeric("payload")(*args),
        "efficiency": _numeric("payload")(*args) / rate,
        "bytes": {"payload": float(frame_bytes - headers), "headers": float(headers - VALUES[fcs]),
                  "fcs": float(VALUES[fcs]), "preamble_sfd": float(counted * (VALUES[preamble] + VALUES[sfd])),
                  "gap": float(counted * VALUES[gap])},
    }


# --- the receiver's per-packet cost (KeyStone II §9) --------------------------------------------

packet_time = symbol("t_0", nonnegative=True)  #: ns per packet the Packet DMA needs regardless of size
dma_rate = symbol(r"\beta", positive=True)  #: bytes per ns the Packet DMA moves into memory


def on_the_wire_expr() -> sp.Expr:
    """:func:`wire_bytes_expr` in the wire convention: the time a frame really takes on the line."""
    return wire_bytes_expr().subs(wire_counted, WIRE)


def dma_bound_expr() -> sp.Expr:
    """Frame-plus-overhead bits per second (Gbit/s, as §9 counts them) when each packet also costs
    the receiver ``t_0 + L / beta`` ns, overlapped with the next packet's arrival."""
    wire_ns = 8 * on_the_wire_expr() / mac_rate
    return 8 * on_the_wire_expr() / sp.Max(wire_ns, packet_time + frame / dma_rate)


def saturation_frame_expr() -> sp.Expr:
    """The frame size above which the wire, not the receiver, sets the rate."""
    wire_ns = 8 * on_the_wire_expr() / mac_rate
    (solution,) = sp.solve(sp.Eq(wire_ns, packet_time + frame / dma_rate), frame)
    return solution


def fit_keystone_10gbe():
    """Fit ``t_0`` and ``beta`` to §9's 512-packet table at 10 Gbit/s; returns the fit and the curve."""
    import numpy as np

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


# --- goodput ethernet ----------------------------------------------------------------------------

def _headline(r: dict) -> str:
    counted = ("preamble, SFD and gap counted (wire)" if r["convention"] == CONVENTIONS[WIRE]
               else "frame bytes only (payload over frame)")
    return (f"{r['frame_bytes']}-byte frames at {r['mac_rate_gbit_s']:g} Gbit/s, {STACKS[r['stack']].name}"
            f"{', VLAN tag' if r['vlan'] else ''}, {counted}: {r['frames_per_s']:.6g} frames/s")


COMMAND = Command(
    "ethernet", help="goodput of back-to-back Ethernet frames",
    description="Frame rate and payload goodput of back-to-back frames of FRAME bytes (MAC header to FCS), with "
                "preamble, SFD and inter-packet gap on the wire (the wire convention), or with the frame's bytes "
                "only (--frame-only, the payload-over-frame convention).",
    arguments=(Ranged("--frame", PARAMETERS["frame_bytes"], "BYTES", required=True),
               Ranged("--rate-gbit-s", PARAMETERS["mac_rate_gbit_s"], "GBIT_S"),
               Arg("--stack", default="raw", help="protocol stack: " + ", ".join(STACKS)),
               Arg("--vlan", action="store_true", help="frames carry an 802.1Q tag"),
               Arg("--frame-only", action="store_true",
                   help="count the frame's bytes only, not the 20 byte times of preamble, SFD and gap "
                        "(the payload-over-frame convention)")),
    run=lambda args: evaluate(args.frame_bytes, args.mac_rate_gbit_s, args.stack, args.vlan,
                              FRAME_ONLY if args.frame_only else WIRE),
    lines=lambda args, r: report_lines(_headline(r), r))
