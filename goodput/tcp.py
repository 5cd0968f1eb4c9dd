"""TCP over Ethernet: application messages cut into segments, each paying a whole frame's overhead.

An application writes messages of ``M`` bytes. TCP sends at most ``MSS`` bytes
per segment, the MTU ``U`` less the IP header (20 bytes for IPv4, 40 for IPv6),
the 20-byte TCP header and its options (12 bytes of timestamps, if on):

- a sender that keeps each write's boundary (the NDK sends each write as its own
  segments) makes ``floor(M / MSS)`` full segments and one short one for the rest;
- a sender that streams (coalescing writes, as Linux does for bulk data) sends
  only full segments: the ceiling for long transfers.

Every segment travels in an Ethernet frame of its own (:mod:`goodput.ethernet`):
MAC header and FCS (18 bytes, 64 at least in all), plus preamble, start-of-frame
delimiter and gap (20 byte times) on the wire.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from . import checks, data, ethernet
from .errors import ParameterError
from .params import Parameter
from .symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["message", "mtu", "ip_header", "tcp_options", "line_rate", "TCP_HEADER_BYTES", "TIMESTAMP_BYTES",
           "PARAMETERS", "mss_expr", "segments_expr", "segment_wire_expr", "message_wire_expr",
           "message_goodput_expr", "stream_goodput_expr", "goodputs", "evaluate"]

message = symbol("M", positive=True, integer=True)  #: application message (write), bytes
mtu = symbol("U", positive=True, integer=True)  #: MTU, bytes
ip_header = symbol(r"H_{\mathrm{IP}}", positive=True, integer=True)  #: 20 (IPv4) or 40 (IPv6)
tcp_options = symbol(r"O_{\mathrm{TCP}}", nonnegative=True, integer=True)  #: TCP option bytes
line_rate = symbol(r"R_{\mathrm{Mbit}}", positive=True)  #: Ethernet line rate, Mbit/s
_payload = symbol("p", nonnegative=True, integer=True)

TCP_HEADER_BYTES = 20
TIMESTAMP_BYTES = 12  # the timestamps option, padded to a 32-bit boundary
IP_HEADER_BYTES = {4: 20, 6: 40}

PARAMETERS = {
    p.name: p
    for p in (
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
    )
}


def mss_expr() -> sp.Expr:
    """Maximum segment size: the MTU less the IP and TCP headers and the TCP options."""
    return mtu - ip_header - TCP_HEADER_BYTES - tcp_options


def segments_expr() -> sp.Expr:
    """Segments one message of ``M`` bytes makes when each write keeps its boundary."""
    return sp.ceiling(message / mss_expr())


def segment_wire_expr() -> sp.Expr:
    """Byte times on the wire of one segment carrying ``p`` bytes (frame padded to 64)."""
    e = ethernet
    frame = sp.Max(ethernet.MIN_FRAME_BYTES,
                   e.mac_header + e.fcs + ip_header + TCP_HEADER_BYTES + tcp_options + _payload)
    return e.wire_bytes_expr().subs(e.frame, frame).subs(e.VALUES)


def message_wire_expr() -> sp.Expr:
    """Byte times of one message: ``floor(M / MSS)`` full segments and one for the rest, if any."""
    mss = mss_expr()
    full = sp.floor(message / mss)
    rest = message - full * mss
    one = segment_wire_expr()
    return full * one.subs(_payload, mss) + sp.Piecewise((one.subs(_payload, rest), rest > 0), (0, True))


def message_goodput_expr() -> sp.Expr:
    """Goodput (Mbit/s) of back-to-back messages whose writes keep their boundaries."""
    return line_rate * message / message_wire_expr()


def stream_goodput_expr() -> sp.Expr:
    """Goodput (Mbit/s) of a stream of full segments: the ceiling for long transfers."""
    return line_rate * mss_expr() / segment_wire_expr().subs(_payload, mss_expr())


_ARGS = (line_rate, message, mtu, ip_header, tcp_options)


@lru_cache(maxsize=None)
def _numeric(name: str):
    expr = {"message": message_goodput_expr(), "stream": stream_goodput_expr(), "segments": segments_expr(),
            "wire": message_wire_expr()}[name]
    return lambdify(_ARGS, expr, "math")


def goodputs(message_bytes: int, line_rate_mbit_s: float = 100, mtu_bytes: int = 1500, ip_header_bytes: int = 20,
             tcp_options_bytes: int = 0) -> dict[str, float]:
    """Per-write and stream goodput (Mbit/s) for header and option sizes in bytes, each checked."""
    p = PARAMETERS
    args = (p["line_rate_mbit_s"].check(line_rate_mbit_s), p["message_bytes"].check(message_bytes),
            p["mtu_bytes"].check(mtu_bytes), p["ip_header_bytes"].check(ip_header_bytes),
            p["tcp_options_bytes"].check(tcp_options_bytes))
    return {"per_write_mbit_s": _numeric("message")(*args), "stream_mbit_s": _numeric("stream")(*args)}


def evaluate(message_bytes: int = 8192, line_rate_mbit_s: float = 100, mtu_bytes: int = 1500, ip_version: int = 4,
             timestamps: bool = False) -> dict:
    """One message size on one link as a JSON-ready dict: segments, both goodputs, line bytes by kind."""
    if ip_version not in IP_HEADER_BYTES:
        raise ParameterError("ip_version", ip_version, "4 or 6")
    p = PARAMETERS
    m = p["message_bytes"].check(message_bytes)
    r = p["line_rate_mbit_s"].check(line_rate_mbit_s)
    u = p["mtu_bytes"].check(mtu_bytes)
    h, o = IP_HEADER_BYTES[ip_version], TIMESTAMP_BYTES if timestamps else 0
    if ip_version == 6 and u < 1280:
        raise ParameterError("mtu_bytes", mtu_bytes, "at least 1280 bytes for IPv6")
    args = (r, m, u, h, o)
    segments = int(_numeric("segments")(*args))
    wire = float(_numeric("wire")(*args))
    rates = goodputs(m, r, u, h, o)
    goodput = rates["per_write_mbit_s"]
    headers = float(segments * (h + TCP_HEADER_BYTES + o))
    framing = float(segments * (ethernet.VALUES[ethernet.mac_header] + ethernet.VALUES[ethernet.fcs]))
    gaps = float(segments * ethernet.WIRE_OVERHEAD_BYTES)
    return {"message_bytes": m, "line_rate_mbit_s": r, "mtu_bytes": u, "ip_version": ip_version,
            "timestamps": timestamps, "mss_bytes": u - h - TCP_HEADER_BYTES - o, "segments": segments,
            "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000, "efficiency": goodput / r,
            "stream_goodput_mbit_s": rates["stream_mbit_s"],
            "bytes": {"payload": float(m), "ip_tcp_headers": headers, "mac_header_fcs": framing,
                      "padding": wire - m - headers - framing - gaps, "preamble_sfd_gap": gaps}}


@checks.provider("tcp-goodput")
def source_checks():
    """The NDK's maximum receive throughput, 94,595 kbit/s for 8192-byte frames at 100 Mbit/s."""
    t = data.load("spraaq5-s6-throughput")
    out = []
    best = t[t["operation"] == "Receive"]["throughput_kbit_s"].max()
    for row in t.itertuples():
        if row.operation != "Receive" or row.throughput_kbit_s != best:
            continue
        r = evaluate(8192, 100)
        values = {line_rate: 100, message: 8192, mtu: 1500, ip_header: IP_HEADER_BYTES[4], tcp_options: 0}
        full, rest = divmod(r["message_bytes"], r["mss_bytes"])
        line = sum(r["bytes"].values())
        out.append(checks.compare(
            "tcp-goodput", t, row.Index, "throughput_kbit_s", 1000 * r["goodput_mbit_s"],
            f"{row.device}, {row.architecture}, L2 {row.l2_cache_kbytes} KB, receive",
            off_note=f"{r['message_bytes']} bytes make {r['segments']} segments ({full} x {r['mss_bytes']} + "
                     f"{rest}), {(line - r['message_bytes']) / r['segments']:g} bytes of headers, FCS, preamble "
                     f"and gap each: {r['message_bytes']} / {line:g} x 100 Mbit/s is {{model:.2f}} kbit/s; the "
                     "testee prints it cut to a whole number, {published}.",
            formula=(1000 * message_goodput_expr(), values)))
    t = data.load("am243x-rndis-iperf")
    for row in t.itertuples():
        out.append(checks.compare(
            "tcp-goodput", t, row.Index, "bandwidth_mbit_s",
            row.transfer_mbytes * (1 << 20) * 8 / 1e6 / (row.end_s - row.start_s),
            f"RNDIS iperf {row.start_s:g}-{row.end_s:g} s",
            off_note=f"{row.transfer_mbytes} MiB in {row.end_s - row.start_s:g} s is {{model:.2f}} Mbit/s, "
                     "not {published}."))
    return out


# --- UDP: datagrams that may be fragmented ------------------------------------------------------

UDP_HEADER_BYTES = 8


def udp_evaluate(payload_bytes: int, line_rate_mbit_s: float = 100, mtu_bytes: int = 1500,
                 ip_version: int = 4) -> dict:
    """Back-to-back UDP datagrams of ``payload_bytes``: IP fragments when the datagram exceeds the
    MTU (fragments carry multiples of 8 bytes; IPv4 only), each fragment in a frame of its own."""
    if ip_version != 4:
        raise ParameterError("ip_version", ip_version, "4 (IPv6 fragments in extension headers are not modelled)")
    p = PARAMETERS
    m = p["message_bytes"].check(payload_bytes)
    r = p["line_rate_mbit_s"].check(line_rate_mbit_s)
    u = p["mtu_bytes"].check(mtu_bytes)
    h = IP_HEADER_BYTES[4]
    datagram = m + UDP_HEADER_BYTES
    per_fragment = (u - h) // 8 * 8
    sizes = [per_fragment] * (datagram // per_fragment) + ([datagram % per_fragment] if datagram % per_fragment else [])
    e = ethernet.VALUES
    frames = [max(ethernet.MIN_FRAME_BYTES, e[ethernet.mac_header] + e[ethernet.fcs] + h + s) for s in sizes]
    wire = sum(frames) + len(frames) * ethernet.WIRE_OVERHEAD_BYTES
    goodput = r * m / wire
    return {"payload_bytes": m, "line_rate_mbit_s": r, "mtu_bytes": u, "fragments": len(frames),
            "wire_bytes": wire, "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000,
            "efficiency": goodput / r}


__all__ += ["UDP_HEADER_BYTES", "udp_evaluate"]


# --- RNDIS over USB 2.0 high speed ---------------------------------------------------------------

USB_HS_BULK_PACKET_BYTES = 512  #: largest bulk packet at high speed
USB_HS_BULK_PER_MICROFRAME = 13  #: most bulk transactions one 125 us microframe can hold (USB 2.0 table 5-10)
RNDIS_HEADER_BYTES = 44  #: REMOTE_NDIS_PACKET_MSG in front of every Ethernet frame


def rndis_evaluate(mss_bytes: int = 1460) -> dict:
    """TCP over RNDIS on USB 2.0 high speed: each full segment's Ethernet frame (MAC header, no FCS)
    behind a 44-byte RNDIS header, sent as bulk packets of at most 512 bytes, 13 per microframe."""
    if int(mss_bytes) != mss_bytes or not 1 <= mss_bytes <= 1460:
        raise ParameterError("mss_bytes", mss_bytes, "an integer from 1 to 1460 bytes")
    message = RNDIS_HEADER_BYTES + ethernet.VALUES[ethernet.mac_header] + IP_HEADER_BYTES[4] + TCP_HEADER_BYTES \
        + int(mss_bytes)
    transactions = -(-message // USB_HS_BULK_PACKET_BYTES)
    frames_per_s = USB_HS_BULK_PER_MICROFRAME / transactions * 8000
    bulk = USB_HS_BULK_PER_MICROFRAME * USB_HS_BULK_PACKET_BYTES * 8000 * 8 / 1e6
    goodput = frames_per_s * mss_bytes * 8 / 1e6
    return {"mss_bytes": int(mss_bytes), "rndis_message_bytes": message, "bulk_packets_per_frame": transactions,
            "bulk_ceiling_mbit_s": bulk, "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000,
            "efficiency": goodput / 480}


__all__ += ["USB_HS_BULK_PACKET_BYTES", "USB_HS_BULK_PER_MICROFRAME", "RNDIS_HEADER_BYTES", "rndis_evaluate"]
