"""TCP over Ethernet: application messages cut into segments, each paying a whole frame's overhead.

An application writes messages of ``M`` bytes. TCP sends at most ``MSS`` bytes
per segment, the MTU ``U`` less the IP header (20 bytes for IPv4, 40 for IPv6),
the 20-byte TCP header and its options (12 bytes of timestamps, if on):

- a sender that keeps each write's boundary (the NDK sends each write as its own
  segments) makes ``floor(M / MSS)`` full segments and one short one for the rest;
- a sender that streams (coalescing writes, as Linux does for bulk data) sends
  only full segments: the ceiling for long transfers.

Besides the wire, the receive window limits a connection: a sender may have at most a window of
``W`` bytes unacknowledged, and each byte's acknowledgement comes back a round trip ``t_RTT`` after it was
sent, so at most ``W`` bytes leave per round trip, ``8 W / t_RTT`` bit/s, whatever the line rate. The
lower of the two limits binds.

Every segment travels in an Ethernet frame of its own (:mod:`goodput.models.ethernet`):
MAC header and FCS (18 bytes, 64 at least in all), an 802.1Q VLAN tag (4 bytes) if the
link is tagged, plus preamble, start-of-frame delimiter and gap (20 byte times) on the
wire: the frame's size and its time on the wire are :mod:`goodput.models.ethernet`'s expressions.

The numbers of TCP writes (:func:`evaluate`, :func:`goodputs`, ``goodput tcp``) are
:mod:`goodput.models.tcp_numeric`'s, which computes with the functions ``tools/gen_cli_spec.py`` prints from
these expressions, and imports no sympy.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from goodput.core import pieces
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.core.symbols import lambdify, maker
from goodput.models import ethernet, tcp_numeric
from goodput.models.tcp_numeric import (
    IP_HEADER_BYTES,
    TCP_HEADER_BYTES,
    TIMESTAMP_BYTES,
    evaluate,
    goodputs,
    window_bound,
    window_limit_mbit_s,
)

symbol = maker(__name__)

__all__ = [
    "message", "mtu", "window", "rtt", "wire_goodput", "window_limit_expr", "bound_goodput_expr", "window_binds_expr",
    "ip_header", "tcp_options", "line_rate", "TCP_HEADER_BYTES", "TIMESTAMP_BYTES", "PARAMETERS", "mss_expr",
    "segments_expr", "segment_wire_expr", "message_wire_expr", "message_goodput_expr", "stream_goodput_expr",
    "reported_mss", "options_of_mss_expr", "options_of_mss", "goodputs", "window_limit_mbit_s", "window_bound",
    "evaluate", "frames", "frame_period", "paced_ceiling_expr", "UDP_HEADER_BYTES", "packet_wire_expr",
    "fragment_payload_expr", "datagram_wire_expr", "datagram_goodput_expr", "udp_evaluate", "USB_HS_BULK_PACKET_BYTES",
    "USB_HS_BULK_PER_MICROFRAME", "USB_HS_MICROFRAMES_PER_S", "USB_HS_RATE_MBIT_S", "RNDIS_HEADER_BYTES", "rndis_mss",
    "rndis_message_expr", "rndis_packets_expr", "bulk_ceiling_expr", "rndis_goodput_expr", "rndis_evaluate",
]

message = symbol("M", positive=True, integer=True)  #: application message (write), bytes
mtu = symbol("U", positive=True, integer=True)  #: MTU, bytes
ip_header = symbol(r"H_{\mathrm{IP}}", positive=True, integer=True)  #: 20 (IPv4) or 40 (IPv6)
tcp_options = symbol(r"O_{\mathrm{TCP}}", nonnegative=True, integer=True)  #: TCP option bytes
line_rate = symbol(r"R_{\mathrm{Mbit}}", positive=True)  #: Ethernet line rate, Mbit/s
window = symbol(r"W_{\mathrm{rwnd}}", positive=True, integer=True)  #: receive window, bytes
rtt = symbol(r"t_{\mathrm{RTT}}", positive=True)  #: round-trip time, us
wire_goodput = symbol(r"G_{\mathrm{wire}}", positive=True)  #: the wire's goodput, Mbit/s (a table's column)
reported_mss = symbol(r"S_{\mathrm{MSS}}", positive=True, integer=True)  #: the MSS a run reports (iperf3), bytes
_payload = symbol("p", nonnegative=True, integer=True)

PARAMETERS = by_name(
    Parameter("message_bytes", message, "bytes", 1, 1 << 24, default=8192, step=1,
              label="message size (bytes)", integer=True),
    Parameter("mtu_bytes", mtu, "bytes", 576, 9000, default=1500, step=4, label="MTU (bytes)", integer=True),
    Parameter("ip_header_bytes", ip_header, "bytes", 20, 40, default=20, step=20,
              label="IP header", integer=True, options=((20, "IPv4, 20 B"), (40, "IPv6, 40 B"))),
    Parameter("tcp_options_bytes", tcp_options, "bytes", 0, 40, default=0, step=4,
              label="TCP options", integer=True,
              presets=((0, "none"), (12, "timestamps"))),
    Parameter("line_rate_mbit_s", line_rate, "Mbit/s", 1, 100000, default=100, step=10,
              label="line rate (Mbit/s)",
              presets=((10, "10M"), (100, "100M"), (1000, "1G"), (10000, "10G"))),
    ethernet.PARAMETERS["vlan_bytes"],  # the frames' VLAN tag: Ethernet's own parameter
    Parameter("window_bytes", window, "bytes", 1, 1 << 30, default=65535, step=1, label="receive window (bytes)",
              integer=True, presets=((65535, "64 KiB, unscaled"), (1 << 18, "256 KiB"), (1 << 20, "1 MiB"),
                                     (1 << 22, "4 MiB"))),
    Parameter("rtt_us", rtt, "us", 1, 10 ** 7, default=1000, step=1, label="round-trip time (us)",
              presets=((100, "100 us"), (1000, "1 ms"), (10000, "10 ms"), (100000, "100 ms"))),
)


def mss_expr() -> sp.Expr:
    """Maximum segment size: the MTU less the IP and TCP headers and the TCP options."""
    return mtu - ip_header - TCP_HEADER_BYTES - tcp_options


def options_of_mss_expr() -> sp.Expr:
    """The TCP option bytes a run's reported MSS ``S_MSS`` implies at the MTU: what :func:`mss_expr` leaves them
    (an MSS of 1448 at MTU 1500 over IPv4 is the 12 bytes of timestamps)."""
    (solved,) = sp.solve(sp.Eq(reported_mss, mss_expr()), tcp_options)
    return solved


def options_of_mss(mtu_bytes: int, ip_header_bytes: int, mss_bytes: int) -> int:
    """:func:`options_of_mss_expr` at these values (negative where the MSS does not fit the MTU)."""
    return int(options_of_mss_expr().subs({mtu: mtu_bytes, ip_header: ip_header_bytes, reported_mss: mss_bytes}))


def segments_expr() -> sp.Expr:
    """Segments one message of ``M`` bytes makes when each write keeps its boundary."""
    return sp.ceiling(message / mss_expr())


def packet_wire_expr() -> sp.Expr:
    """Byte times on the wire of one IP packet carrying ``p`` bytes after its IP header, in a frame
    of its own (MAC header, VLAN tag ``B_VLAN`` if any, FCS; padded to 64 bytes)."""
    e = ethernet
    frame = sp.Max(e.MIN_FRAME_BYTES, e.headers_expr().subs(e.stack, ip_header + _payload))
    # goodput over the line: the wire convention, preamble, SFD and gap counted
    return e.wire_bytes_expr().subs(e.frame, frame).subs({**e.VALUES, e.wire_counted: e.WIRE})


def segment_wire_expr() -> sp.Expr:
    """Byte times on the wire of one segment carrying ``p`` bytes: an IP packet of TCP header,
    options and data."""
    return packet_wire_expr().subs(_payload, TCP_HEADER_BYTES + tcp_options + _payload)


def message_wire_expr() -> sp.Expr:
    """Byte times of one message: ``floor(M / MSS)`` full segments and one for the rest, if any."""
    return pieces.cut(message, mss_expr(), segment_wire_expr(), _payload)


def message_goodput_expr() -> sp.Expr:
    """Goodput (Mbit/s) of back-to-back messages whose writes keep their boundaries."""
    return line_rate * message / message_wire_expr()


def stream_goodput_expr() -> sp.Expr:
    """Goodput (Mbit/s) of a stream of full segments: the ceiling for long transfers."""
    return line_rate * mss_expr() / segment_wire_expr().subs(_payload, mss_expr())


def window_limit_expr() -> sp.Expr:
    """Goodput (Mbit/s) a receive window of ``W`` bytes allows at a round trip of ``t_RTT`` us: a window a
    round trip (bits per microsecond are Mbit/s)."""
    return 8 * window / rtt


def bound_goodput_expr(wire: sp.Expr = wire_goodput) -> sp.Expr:
    """The goodput (Mbit/s) a connection gets: the lower of the wire's (``wire``) and the window's."""
    return sp.Min(wire, window_limit_expr())


def window_binds_expr(wire: sp.Expr = wire_goodput) -> sp.Expr:
    """1 where the window binds (its limit below the wire's goodput ``wire``), else 0."""
    return sp.Piecewise((1, window_limit_expr() < wire), (0, True))


# --- a paced sender: N frames, one every T ms ---------------------------------------------------

frames = symbol("N", positive=True, integer=True)  #: frames in a paced run
frame_period = symbol(r"T_{\mathrm{ms}}", positive=True)  #: the tester's period between frames, ms


def paced_ceiling_expr() -> sp.Expr:
    """The most a run of ``N`` frames of ``M`` bytes, one every ``T`` ms, shows (kbit/s = bits per ms):
    its bytes over the ``N - 1`` periods between its first and its last frame."""
    return 8 * message * frames / ((frames - 1) * frame_period)


# --- UDP: datagrams that may be fragmented ------------------------------------------------------

UDP_HEADER_BYTES = 8


def fragment_payload_expr() -> sp.Expr:
    """Most datagram bytes one IPv4 fragment carries: the MTU less the IP header, in whole 8-byte units."""
    return 8 * sp.floor((mtu - ip_header) / 8)


def datagram_wire_expr() -> sp.Expr:
    """Byte times of one UDP datagram of ``M`` payload bytes, cut into IP fragments at the MTU, each
    in a frame of its own."""
    return pieces.cut(message + UDP_HEADER_BYTES, fragment_payload_expr(), packet_wire_expr(), _payload)


def datagram_goodput_expr() -> sp.Expr:
    """Goodput (Mbit/s) of back-to-back UDP datagrams of ``M`` payload bytes."""
    return line_rate * message / datagram_wire_expr()


@lru_cache(maxsize=None)
def _udp_numeric():
    exprs = (sp.ceiling((message + UDP_HEADER_BYTES) / fragment_payload_expr()), datagram_wire_expr(),
             datagram_goodput_expr())
    return lambdify((line_rate, message, mtu, ip_header, ethernet.vlan), exprs)


def udp_evaluate(payload_bytes: int, line_rate_mbit_s: float = DEFAULT, mtu_bytes: int = DEFAULT,
                 ip_version: int = 4, vlan: bool = False) -> dict:
    """Back-to-back UDP datagrams of ``payload_bytes``: IP fragments when the datagram exceeds the
    MTU (fragments carry multiples of 8 bytes; IPv4 only), each fragment in a frame of its own
    (with an 802.1Q tag if ``vlan``)."""
    if ip_version != 4:
        raise ParameterError("ip_version", ip_version, "4 (IPv6 fragments in extension headers are not modelled)")
    p = PARAMETERS
    m = p["message_bytes"].check(payload_bytes)
    r = p["line_rate_mbit_s"].check(line_rate_mbit_s)
    u = p["mtu_bytes"].check(mtu_bytes)
    fragments, wire, goodput = _udp_numeric()(r, m, u, IP_HEADER_BYTES[4],
                                              ethernet.VLAN_TAG_BYTES if vlan else 0)
    return {"payload_bytes": m, "line_rate_mbit_s": r, "mtu_bytes": u, "fragments": int(fragments),
            "wire_bytes": int(wire), "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000,
            "efficiency": goodput / r}


# --- RNDIS over USB 2.0 high speed ---------------------------------------------------------------

USB_HS_BULK_PACKET_BYTES = 512  #: largest bulk packet at high speed
USB_HS_BULK_PER_MICROFRAME = 13  #: most bulk transactions one 125 us microframe can hold (USB 2.0 table 5-10)
USB_HS_MICROFRAMES_PER_S = 8000  #: one microframe every 125 us
USB_HS_RATE_MBIT_S = 480  #: USB 2.0 high-speed signalling rate
RNDIS_HEADER_BYTES = 44  #: REMOTE_NDIS_PACKET_MSG in front of every Ethernet frame

rndis_mss = symbol(r"\mathrm{MSS}", positive=True, integer=True)  #: TCP data per segment over RNDIS, bytes


def rndis_message_expr() -> sp.Expr:
    """Bytes of one RNDIS message: its header, then the segment's Ethernet frame without FCS."""
    return (RNDIS_HEADER_BYTES + ethernet.VALUES[ethernet.mac_header] + IP_HEADER_BYTES[4] + TCP_HEADER_BYTES
            + rndis_mss)


def rndis_packets_expr() -> sp.Expr:
    """Bulk packets one RNDIS message takes."""
    return sp.ceiling(rndis_message_expr() / USB_HS_BULK_PACKET_BYTES)


def bulk_ceiling_expr() -> sp.Expr:
    """Mbit/s of full bulk packets, as many as each microframe holds."""
    return sp.Integer(USB_HS_BULK_PER_MICROFRAME * USB_HS_BULK_PACKET_BYTES * 8 * USB_HS_MICROFRAMES_PER_S) / 10**6


def rndis_goodput_expr() -> sp.Expr:
    """TCP goodput (Mbit/s) over RNDIS: messages of full segments back to back, each in whole bulk
    packets, as many packets per microframe as the bus holds."""
    messages_per_s = sp.Integer(USB_HS_BULK_PER_MICROFRAME * USB_HS_MICROFRAMES_PER_S) / rndis_packets_expr()
    return messages_per_s * 8 * rndis_mss / 10**6


@lru_cache(maxsize=None)
def _rndis_numeric():
    return lambdify((rndis_mss,), (rndis_message_expr(), rndis_packets_expr(), rndis_goodput_expr()))


def rndis_evaluate(mss_bytes: int = 1460) -> dict:
    """TCP over RNDIS on USB 2.0 high speed: each full segment's Ethernet frame (MAC header, no FCS)
    behind a 44-byte RNDIS header, sent as bulk packets of at most 512 bytes, 13 per microframe."""
    if int(mss_bytes) != mss_bytes or not 1 <= mss_bytes <= 1460:
        raise ParameterError("mss_bytes", mss_bytes, "an integer from 1 to 1460 bytes")
    message_bytes, packets, goodput = _rndis_numeric()(int(mss_bytes))
    return {"mss_bytes": int(mss_bytes), "rndis_message_bytes": int(message_bytes),
            "bulk_packets_per_frame": int(packets), "bulk_ceiling_mbit_s": float(bulk_ceiling_expr()),
            "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000, "efficiency": goodput / USB_HS_RATE_MBIT_S}


# --- goodput tcp: run by goodput.models.tcp_numeric, without sympy ---------------------------------------

COMMAND = Command(
    "tcp", help="goodput of TCP writes over Ethernet",
    description="Goodput of back-to-back writes of MESSAGE bytes, each cut into segments of at most one MSS that "
                "each pay a whole Ethernet frame (headers, FCS, preamble, gap); the ceiling of a stream of full "
                "segments; and what a receive window allows a round trip, beside the wire (the lower binds).",
    arguments=(Ranged("--message", PARAMETERS["message_bytes"], "BYTES", "write size", required=True),
               Ranged("--rate-mbit-s", PARAMETERS["line_rate_mbit_s"], "MBIT_S"),
               Ranged("--mtu", PARAMETERS["mtu_bytes"], "BYTES"),
               Arg("--ipv6", action="store_true", help="IPv6 (40-byte header) instead of IPv4"),
               Arg("--timestamps", action="store_true",
                   help=f"TCP timestamps on: {TIMESTAMP_BYTES} option bytes, as --tcp-options {TIMESTAMP_BYTES}"),
               Ranged("--tcp-options", PARAMETERS["tcp_options_bytes"], "BYTES", "TCP option bytes in every segment"),
               Arg("--vlan", action="store_true",
                   help=f"frames carry an 802.1Q tag ({ethernet.VLAN_TAG_BYTES} more bytes in every frame)"),
               Ranged("--window", PARAMETERS["window_bytes"], "BYTES", "receive window"),
               Ranged("--rtt-us", PARAMETERS["rtt_us"], "US", "round-trip time (us)")),
    run=tcp_numeric.run, lines=tcp_numeric.lines)
