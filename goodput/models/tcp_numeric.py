"""TCP over Ethernet in numbers: :func:`evaluate`, :func:`goodputs` and ``goodput tcp``, without sympy.

The model is :mod:`goodput.models.tcp`, which re-exports what is here. Its parameters, the Ethernet frame's
byte counts and its numeric functions come from :mod:`goodput.models.quick_spec`, which
``tools/gen_cli_spec.py`` writes from that model (each function printed from one of its expressions,
as :func:`goodput.core.symbols.lambdify` prints it): the command imports neither sympy nor the model. They
are looked up when called, so that the tool can import the model while it writes them.
"""

from __future__ import annotations

from goodput.core.command import report_lines
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT
from goodput.models import quick_spec as spec

__all__ = ["TCP_HEADER_BYTES", "TIMESTAMP_BYTES", "IP_HEADER_BYTES", "MIN_MTU_BYTES", "goodputs", "window_limit_mbit_s", "window_bound",
           "evaluate", "run", "lines"]

TCP_HEADER_BYTES = 20
TIMESTAMP_BYTES = 12  # the timestamps option, padded to a 32-bit boundary
IP_HEADER_BYTES = {4: 20, 6: 40}
#: The least MTU each IP version's links carry: IPv6 requires every link to take 1280 (RFC 8200 §5); IPv4's 68
#: is below the model's own range, whose floor is the 576 every IPv4 host must accept.
MIN_MTU_BYTES = {4: 68, 6: 1280}


def goodputs(message_bytes: int, line_rate_mbit_s: float = DEFAULT, mtu_bytes: int = DEFAULT,
             ip_header_bytes: int = DEFAULT, tcp_options_bytes: int = DEFAULT,
             vlan_bytes: int = DEFAULT) -> dict[str, float]:
    """Per-write and stream goodput (Mbit/s) for header, option and VLAN tag sizes in bytes, each checked."""
    p = spec.TCP["parameters"]
    args = (p["line_rate_mbit_s"].check(line_rate_mbit_s), p["message_bytes"].check(message_bytes),
            p["mtu_bytes"].check(mtu_bytes), p["ip_header_bytes"].check(ip_header_bytes),
            p["tcp_options_bytes"].check(tcp_options_bytes), p["vlan_bytes"].check(vlan_bytes))
    return {"per_write_mbit_s": spec.tcp_message(*args), "stream_mbit_s": spec.tcp_stream(*args)}


def window_limit_mbit_s(window_bytes: int = DEFAULT, rtt_us: float = DEFAULT) -> float:
    """Goodput (Mbit/s) a receive window of ``window_bytes`` allows at a round trip of ``rtt_us``, each checked."""
    p = spec.TCP["parameters"]
    return spec.tcp_window(p["window_bytes"].check(window_bytes), p["rtt_us"].check(rtt_us))


def window_bound(wire_mbit_s: float, window_bytes: int = DEFAULT, rtt_us: float = DEFAULT) -> dict:
    """The receive window beside the wire's goodput ``wire_mbit_s``: the window's limit, the lower of the two (what
    a connection gets) and which binds ("wire" or "window"), the window and round trip checked."""
    p = spec.TCP["parameters"]
    args = (wire_mbit_s, p["window_bytes"].check(window_bytes), p["rtt_us"].check(rtt_us))
    return {"window_limit_mbit_s": spec.tcp_window(*args[1:]), "bound_goodput_mbit_s": spec.tcp_bound(*args),
            "binding": "window" if spec.tcp_window_binds(*args) else "wire"}


def evaluate(message_bytes: int = DEFAULT, line_rate_mbit_s: float = DEFAULT, mtu_bytes: int = DEFAULT,
             ip_version: int = 4, timestamps: bool = False, vlan: bool = False, window_bytes: int = DEFAULT,
             rtt_us: float = DEFAULT, tcp_options_bytes: int = DEFAULT) -> dict:
    """One message size on one link as a JSON-ready dict: segments, both goodputs, line bytes by kind, and the
    receive window's limit beside the wire's (the lower binds).
    ``vlan``: every frame carries an 802.1Q tag (4 bytes more, the MSS unchanged). ``timestamps`` is
    ``tcp_options_bytes`` of 12 (the timestamps option, padded); the two cannot disagree."""
    if ip_version not in IP_HEADER_BYTES:
        raise ParameterError("ip_version", ip_version, "4 or 6")
    p, frame = spec.TCP["parameters"], spec.TCP["frame"]
    m = p["message_bytes"].check(message_bytes)
    r = p["line_rate_mbit_s"].check(line_rate_mbit_s)
    u = p["mtu_bytes"].check(mtu_bytes)
    h, o = IP_HEADER_BYTES[ip_version], p["tcp_options_bytes"].check(tcp_options_bytes)
    if timestamps:
        if tcp_options_bytes is not DEFAULT and o not in (0, TIMESTAMP_BYTES):
            raise ParameterError("tcp_options_bytes", tcp_options_bytes,
                                 f"{TIMESTAMP_BYTES} with timestamps on (or leave timestamps off)")
        o = TIMESTAMP_BYTES
    if u < MIN_MTU_BYTES[ip_version]:
        raise ParameterError("mtu_bytes", mtu_bytes, f"at least {MIN_MTU_BYTES[ip_version]} bytes for IPv{ip_version}")
    v = frame["vlan_tag_bytes"] if vlan else 0
    args = (r, m, u, h, o, v)
    segments = int(spec.tcp_segments(*args))
    wire = float(spec.tcp_wire(*args))
    rates = goodputs(m, r, u, h, o, v)
    goodput = rates["per_write_mbit_s"]
    headers = float(segments * (h + TCP_HEADER_BYTES + o))
    framing = float(segments * (frame["mac_header_bytes"] + frame["fcs_bytes"]))
    tags = float(segments * v)
    gaps = float(segments * frame["wire_overhead_bytes"])
    return {"message_bytes": m, "line_rate_mbit_s": r, "mtu_bytes": u, "ip_version": ip_version,
            "timestamps": timestamps, "tcp_options_bytes": o, "vlan": vlan, "mss_bytes": int(spec.tcp_mss(u, h, o)),
            "segments": segments,
            "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000, "efficiency": goodput / r,
            "stream_goodput_mbit_s": rates["stream_mbit_s"],
            "window_bytes": p["window_bytes"].check(window_bytes), "rtt_us": p["rtt_us"].check(rtt_us),
            **window_bound(goodput, window_bytes, rtt_us),
            "bytes": {"payload": float(m), "ip_tcp_headers": headers, "mac_header_fcs": framing,
                      "vlan_tag": tags, "padding": wire - m - headers - framing - tags - gaps,
                      "preamble_sfd_gap": gaps}}


# --- goodput tcp (its arguments: goodput.models.tcp.COMMAND) ---------------------------------------------

def run(args) -> dict:
    return evaluate(args.message_bytes, args.line_rate_mbit_s, args.mtu_bytes, 6 if args.ipv6 else 4,
                    args.timestamps, args.vlan, args.window_bytes, args.rtt_us, args.tcp_options_bytes)


def lines(args, r: dict) -> list[str]:
    return report_lines(
        f"{r['message_bytes']}-byte writes over IPv{r['ip_version']}{' on a VLAN' if r['vlan'] else ''} at "
        f"{r['line_rate_mbit_s']:g} Mbit/s: "
        f"{r['segments']} segments of at most {r['mss_bytes']} bytes; a stream of full segments gets "
        f"{r['stream_goodput_mbit_s']:.6g} Mbit/s", r) + [
        f"  window      {r['window_bytes']} bytes a round trip of {r['rtt_us']:g} us allow "
        f"{r['window_limit_mbit_s']:.6g} Mbit/s: the {r['binding']} binds, {r['bound_goodput_mbit_s']:.6g} Mbit/s"]
