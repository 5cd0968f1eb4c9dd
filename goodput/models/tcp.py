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

from collections import Counter
from functools import lru_cache

import sympy as sp

from goodput import checks
from goodput.core import data, pieces
from goodput.models import ethernet, tcp_numeric
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import DataError, ParameterError
from goodput.core.params import DEFAULT, Parameter
from goodput.core.symbols import lambdify, maker
from goodput.logs import ndk_console
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

__all__ = ["message", "mtu", "window", "rtt", "wire_goodput", "window_limit_expr", "bound_goodput_expr", "window_binds_expr", "ip_header", "tcp_options", "line_rate", "TCP_HEADER_BYTES", "TIMESTAMP_BYTES",
           "PARAMETERS", "mss_expr", "segments_expr", "segment_wire_expr", "message_wire_expr",
           "message_goodput_expr", "stream_goodput_expr", "reported_mss", "options_of_mss_expr", "options_of_mss",
           "goodputs", "window_limit_mbit_s", "window_bound", "evaluate"]

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
        ethernet.PARAMETERS["vlan_bytes"],  # the frames' VLAN tag: Ethernet's own parameter
        Parameter("window_bytes", window, "bytes", 1, 1 << 30, default=65535, step=1, label="receive window (bytes)",
                  integer=True, presets=((65535, "64 KiB, unscaled"), (1 << 18, "256 KiB"), (1 << 20, "1 MiB"),
                                         (1 << 22, "4 MiB"))),
        Parameter("rtt_us", rtt, "us", 1, 10 ** 7, default=1000, step=1, label="round-trip time (us)",
                  presets=((100, "100 us"), (1000, "1 ms"), (10000, "10 ms"), (100000, "100 ms"))),
    )
}


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


def run_label(row) -> str:
    """A run of SPRAAQ5's §6 tables as a check's row names it: its section's number first (the place of the
    check), then its device, driver architecture, L2 cache and operation."""
    return (f"§{row.section.split()[0]} {row.device}, {row.architecture}, L2 {row.l2_cache_kbytes} KB, "
            f"{row.operation.lower()}")


@checks.provider
def source_checks():
    """The NDK's maximum receive throughput, 94,595 kbit/s for 8192-byte frames at 100 Mbit/s."""
    t = data.load("spraaq5-s6-throughput")
    out = []
    best = t[t["operation"] == "Receive"]["throughput_kbit_s"].max()
    for row in t.itertuples():
        if row.operation != "Receive" or row.throughput_kbit_s != best:
            continue
        r = evaluate(row.frame_bytes, row.line_rate_mbit_s)
        values = {line_rate: row.line_rate_mbit_s, message: row.frame_bytes, mtu: 1500, ip_header: IP_HEADER_BYTES[4],
                  tcp_options: 0, ethernet.vlan: 0}
        full, rest = divmod(r["message_bytes"], r["mss_bytes"])
        line = sum(r["bytes"].values())
        out.append(checks.compare(
            t, row.Index, "throughput_kbit_s", 1000 * r["goodput_mbit_s"],
            run_label(row),
            off_note=f"{r['message_bytes']} bytes make {r['segments']} segments ({full} x {r['mss_bytes']} + "
                     f"{rest}), {(line - r['message_bytes']) / r['segments']:g} bytes of headers, FCS, preamble "
                     f"and gap each: {r['message_bytes']} / {line:g} x {row.line_rate_mbit_s} Mbit/s is "
                     f"{{model:.2f}} kbit/s; the "
                     "testee prints it cut to a whole number, {published}.",
            formula=(1000 * message_goodput_expr(), values)))
    return out + rndis_rate_checks(data.load("am243x-rndis-iperf"))


#: The most load a CPU can carry, in per cent.
FULL_LOAD_PERCENT = 100


def stream_ceiling_kbit_s(line_rate_mbit_s: float) -> float:
    """The most TCP goodput (kbit/s) a link of ``line_rate_mbit_s`` carries: full segments of an untagged
    1500-byte MTU over IPv4, no options, back to back with only preamble, SFD and gap between them."""
    return 1000 * goodputs(PARAMETERS["message_bytes"].default, line_rate_mbit_s, 1500, IP_HEADER_BYTES[4], 0,
                           0)["stream_mbit_s"]


def _stream_formula(line_rate_mbit_s: float):
    return (1000 * stream_goodput_expr(), {line_rate: line_rate_mbit_s, mtu: 1500, ip_header: IP_HEADER_BYTES[4],
                                           tcp_options: 0, ethernet.vlan: 0})


def throughput_table_checks(t) -> list:
    """Every run of SPRAAQ5's §6 tables (``t``: the published ``spraaq5-s6-throughput`` or a copy): its throughput
    at most the stream ceiling of its link (``ceiling``), its CPU load at most a whole CPU (``consistency``)."""
    out = []
    for row in t.itertuples():
        label = run_label(row)
        out.append(checks.compare(
            t, row.Index, "throughput_kbit_s", stream_ceiling_kbit_s(row.line_rate_mbit_s), label,
            f"At most a stream of full {evaluate(row.frame_bytes, row.line_rate_mbit_s)['mss_bytes']}-byte "
            f"segments at {row.line_rate_mbit_s} Mbit/s carries, "
            "{rounded} kbit/s.",
            off_note=f"Above the {row.line_rate_mbit_s} Mbit/s link's stream ceiling of {{rounded}} kbit/s, which "
                     "no TCP run over it can beat.",
            formula=_stream_formula(row.line_rate_mbit_s), kind="ceiling", relation="<="))
        out.append(checks.compare(
            t, row.Index, "cpu_load_percent", FULL_LOAD_PERCENT, label,
            "A load is a share of the CPU's time: at most {rounded} %.",
            off_note="More than the whole CPU ({rounded} %): a load cannot exceed it.",
            kind="consistency", relation="<="))
    return out


@checks.provider
def throughput_table_source_checks():
    """Every row of SPRAAQ5's §6.1-6.3 tables against the 100 Mbit/s link's ceiling and a whole CPU."""
    return throughput_table_checks(data.load("spraaq5-s6-throughput"))


def cache_load_checks(t) -> list:
    """Each CPU load of SPRAAQ5's §6 tables (``t``: the published ``spraaq5-s6-throughput`` or a copy) with an L2
    cache larger than the smallest its table measures, against the load of the same device, architecture and
    operation with the next smaller cache (``consistency``, ``<=``): a larger cache only takes misses away, as
    §4.3.1 and §7 say. Each load is printed ±1 % (the tables' heading), so two loads may seem to rise by up to
    both errors together (a ``spread``); a rise beyond that is ``unexplained``: the runs also differ in
    throughput, and one run per row tells nothing of how much a run varies beyond the stated error."""
    out = []
    for _, g in t.groupby(["device", "architecture", "operation"], sort=False):
        rows = list(g.sort_values("l2_cache_kbytes").itertuples())
        for smaller, row in zip(rows, rows[1:]):
            label = f"{run_label(row)}, against L2 {smaller.l2_cache_kbytes} KB"
            out.append(checks.compare(
                t, row.Index, "cpu_load_percent", smaller.cpu_load_percent, label,
                f"At most the {{model:g}} % the same runs load the CPU with {smaller.l2_cache_kbytes} KB of L2 cache.",
                off_note=f"More than the {{model:g}} % of the same runs with the smaller {smaller.l2_cache_kbytes} KB "
                         f"cache (at {smaller.throughput_kbit_s:,} kbit/s; this run {row.throughput_kbit_s:,} "
                         "kbit/s): a larger cache should not load the CPU more.",
                kind="consistency", relation="<=", otherwise="unexplained",
                spread=checks.Spread(row.cpu_load_error_percent + smaller.cpu_load_error_percent,
                                     f"the tables print each CPU load ±{row.cpu_load_error_percent} %, so two loads "
                                     "may differ by both errors together")))
    return out


@checks.provider
def cache_load_source_checks():
    """SPRAAQ5's §6 tables: a larger L2 cache loads the CPU no more than the next smaller one, within ±1 %."""
    return cache_load_checks(data.load("spraaq5-s6-throughput"))


def noncopytcp(prefix: str) -> tuple[int, ...]:
    """The values SPRAAQ5 §2.1's nonCopyTCP.h sets for the items named ``prefix`` (``"frameSize["``), in the
    order it prints them, from the published ``spraaq5-configuration``."""
    t = data.load("spraaq5-configuration")
    found = t[(t["section"] == "2.1 Tester Actions") & t["item"].str.startswith(prefix)]
    if found.empty:
        raise DataError(f"spraaq5-configuration: no item of §2.1 starts with {prefix!r}")
    return tuple(int(v) for v in found["value"])


def bench_frames() -> int:
    """nonCopyTCP.h's BENCH_FRAMES: the frames of every run."""
    (value,) = noncopytcp("BENCH_FRAMES")
    return value


def frame_periods_ms() -> tuple[int, ...]:
    """nonCopyTCP.h's frameRate[]: the tester's periods between frames, ms (0: as fast as it can)."""
    return noncopytcp("frameRate[")


def frame_sizes_bytes() -> tuple[int, ...]:
    """nonCopyTCP.h's frameSize[]: the frame sizes of the runs, bytes."""
    return noncopytcp("frameSize[")


#: The testee's excerpt in data/logs/published (SPRAAQ5 §4.1 step 7) and the link status it prints, Mbit/s.
NDK_CONSOLE_LOG = "spraaq5-testee-console.log"
NDK_CONSOLE_LINK_MBIT_S = 100

frames = symbol("N", positive=True, integer=True)  #: frames in a paced run
frame_period = symbol(r"T_{\mathrm{ms}}", positive=True)  #: the tester's period between frames, ms


def paced_ceiling_expr() -> sp.Expr:
    """The most a run of ``N`` frames of ``M`` bytes, one every ``T`` ms, shows (kbit/s = bits per ms):
    its bytes over the ``N - 1`` periods between its first and its last frame."""
    return 8 * message * frames / ((frames - 1) * frame_period)


def run_seconds(total_bytes: int, kbit_s: float) -> float:
    """The time a run of ``total_bytes`` took by the rate (kbit/s, 1000 bits per second) printed for it."""
    return 8 * total_bytes / (1000 * kbit_s)


def frame_periods(runs) -> list[int]:
    """Each run's frame period (ms) in the testee's excerpt ``runs`` (:func:`goodput.logs.ndk_console.parse`).

    The excerpt elides runs with '...': per direction, the runs of the smallest frame size it prints are the
    first of :func:`frame_periods_ms` in order, those of the largest the last (the order of nonCopyTCP.h's
    arrays, which the tester's own output in §4.1 shows: 8192 bytes at maximum, 10 ms, ...; 65536 at 10 ms,
    30 ms)."""
    periods, configured = [], frame_periods_ms()
    for i, run in enumerate(runs.itertuples()):
        same = runs[(runs["direction"] == run.direction) & (runs["frame_bytes"] == run.frame_bytes)]
        place = list(same.index).index(runs.index[i])
        sizes = runs[runs["direction"] == run.direction]["frame_bytes"]
        if run.frame_bytes == sizes.min():
            periods.append(configured[place])
        elif run.frame_bytes == sizes.max():
            periods.append(configured[len(configured) - len(same) + place])
        else:
            raise ValueError(f"line {run.line}: a run of {run.frame_bytes} bytes between the first and last sizes")
    return periods


def console_checks(runs, resource: str = f"logs/published/{NDK_CONSOLE_LOG}") -> list:
    """SPRAAQ5 §4.1's testee output (``runs``, as parsed): each run's total against its frames (``consistency``;
    a receive line prints no count, nonCopyTCP.h's :func:`bench_frames` is it), its rate against the least
    time its frames take (``ceiling``: the link's stream ceiling, or its frames one period apart), its CPU load
    at most a whole CPU (``consistency``)."""
    out = []
    link = stream_ceiling_kbit_s(NDK_CONSOLE_LINK_MBIT_S)
    for run, period in zip(runs.itertuples(), frame_periods(runs)):
        pace = "at maximum frame rate" if period == 0 else f"one frame every {period} ms"
        label = f"log line {run.line}: {run.direction} {run.frame_bytes} bytes, {pace}"
        where = "§4.1 step 7, testee output"
        count = bench_frames() if run.direction == "receive" else run.frames
        said = ("nonCopyTCP.h's" if run.direction == "receive" else "the printed")
        out.append(checks.check(
            "SPRAAQ5", where, label, "total", "bytes", str(run.total_bytes),
            count * run.frame_bytes, f"{said} {count} frames of {run.frame_bytes} bytes: {{rounded}} bytes.",
            resource, kind="consistency"))
        if period == 0:
            ceiling, formula = link, _stream_formula(NDK_CONSOLE_LINK_MBIT_S)
            why = f"the {NDK_CONSOLE_LINK_MBIT_S} Mbit/s link's stream of full segments"
        else:
            values = {message: run.frame_bytes, frames: count, frame_period: period}
            ceiling = float(paced_ceiling_expr().subs(values))
            formula = (paced_ceiling_expr(), values)
            why = (f"{count} frames of {run.frame_bytes} bytes over the {count - 1} periods of {period} ms between "
                   f"them ({(count - 1) * period / 1000:g} s; by its printed rate the run took "
                   f"{run_seconds(run.total_bytes, run.kbit_s):.3f} s)")
            if ceiling > link:
                ceiling, formula = link, _stream_formula(NDK_CONSOLE_LINK_MBIT_S)
                why = f"the {NDK_CONSOLE_LINK_MBIT_S} Mbit/s link's stream of full segments"
        out.append(checks.check(
            "SPRAAQ5", where, label, "rate", "kbit/s", str(run.kbit_s), ceiling,
            f"At most {why}: {{rounded}} kbit/s.", resource, formula, kind="ceiling", relation="<="))
        out.append(checks.check(
            "SPRAAQ5", where, label, "CPU load", "%", str(run.cpu_load_percent), FULL_LOAD_PERCENT,
            "A load is a share of the CPU's time: at most {rounded} %.", resource, kind="consistency",
            relation="<="))
    return out


def published_console_log():
    """The path of SPRAAQ5 §4.1's testee excerpt."""
    return data.published_dir().parent / "logs" / "published" / NDK_CONSOLE_LOG


@checks.provider
def console_source_checks():
    """SPRAAQ5 §4.1's example testee output: totals, rates and loads against each other and their ceilings."""
    return console_checks(ndk_console.parse(published_console_log()))


def console_frames_checks(runs, resource: str = f"logs/published/{NDK_CONSOLE_LOG}") -> list:
    """The frames each transmit run of SPRAAQ5 §4.1's testee output (``runs``, as parsed) says it sent, against
    nonCopyTCP.h's :func:`bench_frames` (``consistency``, exact: a count). A receive line prints no count."""
    out = []
    for run, period in zip(runs.itertuples(), frame_periods(runs)):
        if run.direction != "transmit":
            continue
        pace = "at maximum frame rate" if period == 0 else f"one frame every {period} ms"
        out.append(checks.check(
            "SPRAAQ5", "§4.1 step 7, testee output",
            f"log line {run.line}: {run.direction} {run.frame_bytes} bytes, {pace}", "frames", "frames",
            str(run.frames), bench_frames(), "nonCopyTCP.h's BENCH_FRAMES: {rounded} frames a run.", resource,
            kind="consistency", exact=True))
    return out


@checks.provider
def console_frames_source_checks():
    """SPRAAQ5 §4.1's example testee output: the frames of each transmit run against nonCopyTCP.h."""
    return console_frames_checks(ndk_console.parse(published_console_log()))


NDK_TESTER_LOG = "spraaq5-tester-console.log"


def tester_checks(runs, resource: str = f"logs/published/{NDK_TESTER_LOG}") -> list:
    """SPRAAQ5 §4.1's tester output (``runs``, from :func:`goodput.logs.ndk_console.parse_tester`): each run's
    frames against nonCopyTCP.h's :func:`bench_frames`, and each paced run's period against the place of its run
    in nonCopyTCP.h's order (:func:`frame_periods`, which the testee's checks rely on) (``consistency``)."""
    out = []
    order = frame_periods(runs.rename(columns={"task": "direction"}))
    for run, period in zip(runs.itertuples(), order):
        pace = "at maximum frame rate" if run.period_ms == 0 else f"at {run.period_ms} ms frame rate"
        label = f"log line {run.line}: {run.task} {run.frame_bytes} bytes {pace}"
        out.append(checks.check(
            "SPRAAQ5", "§4.1 step 7, tester output", label, "frames", "frames", str(run.frames),
            bench_frames(), "nonCopyTCP.h's BENCH_FRAMES: {rounded} frames a run.", resource, kind="consistency"))
        if run.period_ms:
            out.append(checks.check(
                "SPRAAQ5", "§4.1 step 7, tester output", label, "frame period", "ms",
                str(run.period_ms), period,
                "nonCopyTCP.h's frame rates in order, the first runs of the smallest frames from the start, the last "
                "of the largest from the end: {rounded} ms.", resource, kind="consistency"))
    return out


@checks.provider
def tester_source_checks():
    """SPRAAQ5 §4.1's example tester output: its frame counts and periods against nonCopyTCP.h."""
    return tester_checks(ndk_console.parse_tester(published_console_log().with_name(NDK_TESTER_LOG)))


KIB = 1024
#: A clock's unit in MHz.
MHZ_IN = {"MHz": 1, "GHz": 1000}
#: The published table of what SPRAAQ5's text prints about its §6 runs (:func:`prose_checks`).
SPRAAQ5_PROSE = "spraaq5-prose"


def _nth_size(measured: list, i: int, whose: str, first: str) -> tuple[float, str]:
    """The ``i``-th of the L2 sizes a table measures, and the note saying so (0 if it measures fewer)."""
    if i < len(measured):
        return measured[i], f"{whose} {len(measured)} L2 sizes, {first} first: number {i + 1} is {{rounded}} KB."
    return 0, f"{whose} rows measure only {len(measured)} L2 sizes, none number {i + 1}."


def _nth_setting(values: tuple, i: int, what: str, unit: str, scale: float = 1) -> tuple[float, str]:
    """The ``i``-th of nonCopyTCP.h's ``values`` (divided by ``scale``), and the note saying so (0 if it has
    fewer)."""
    if i < len(values):
        return values[i] / scale, f"nonCopyTCP.h's {what}: {{rounded}} {unit}."
    return 0, f"nonCopyTCP.h has only {len(values)} {what}s, none number {i + 1}."


def prose_checks(t, prose=None) -> list:
    """SPRAAQ5's prose numbers about its runs (``prose``: the published ``spraaq5-prose`` or a copy, loaded
    when not given) against the tables they describe (``t``: the published ``spraaq5-s6-throughput`` or a
    copy) and nonCopyTCP.h: §6's platform list (each board's clock and its L2 sizes, largest first), the
    sentences introducing its figures (the clock, the L2 sizes, smallest first, and the frame size of a figure
    of various L2 sizes; the clock and the L2 size, the largest measured, of a figure of various frame sizes),
    its setup (packet sizes and paced rates), §7's L2 size below which the DM642 cannot reach the best
    throughput (at most the least L2 cache with which its tables show it reaching it), and the testee
    excerpt's cache (at most what §6 measures the board of the excerpt's clock with). The checks come in the
    table's order, each row one check but the testee's clock, which picks the board."""
    prose = data.load(SPRAAQ5_PROSE) if prose is None else prose
    printed = prose.attrs["printed"]
    name = prose.attrs["provenance"]["resource"]
    # the list each row's number is in (its sentence's numbers of its quantity), and how many numbers it holds
    place = dict(zip(prose.index, zip(*(data.printed(prose, c) for c in ("section", "place", "device", "quantity")))))
    listed = Counter(place.values())
    out = []

    def add(where, row, quantity, unit, published, model, note, **how):
        """A check of the value of the row ``r`` of the loop below (its cell of ``prose``)."""
        out.append(checks.check("SPRAAQ5", where, row, quantity, unit, published, model, note,
                                kind="prose", resource=name, cell=f"{r.Index} | value", **how))

    best = t[t["operation"] == "Receive"]["throughput_kbit_s"].max()
    for r in prose.itertuples():
        value, unit, i = printed["value"][r.Index], r.unit, r.occurrence - 1
        where = f"§{r.section.split()[0]} {r.place}"
        of = f"{i + 1} of {listed[place[r.Index]]}"
        if r.place == "platform list":
            runs = t[t["device"] == r.device]
            if r.quantity == "DSP clock":
                add(where, r.device, r.quantity, unit, value, runs["clock_mhz"].iloc[0] / MHZ_IN[unit],
                    f"The clock the sentence above its tables gives: {{rounded}} {unit}.")
            elif r.quantity == "L2 cache":
                add(where, f"{r.device}: L2 size {of}", r.quantity, unit, value,
                    *_nth_size(sorted(set(runs["l2_cache_kbytes"]), reverse=True), i, "Its tables'", "largest"))
            else:
                raise ValueError(f"{name} row {r.Index}: the platform list's {r.quantity!r} has no check")
        elif r.place.startswith("Figure "):
            runs = t[(t["device"] == r.device) & (t["architecture"] == r.architecture)]
            measured = sorted(set(runs["l2_cache_kbytes"]))
            label = f"{r.device}, {r.architecture}, {r.place.removesuffix(' caption')}"  # each figure's own row
            if r.quantity == "DSP clock":
                add(where, label, r.quantity, unit, value, runs["clock_mhz"].iloc[0] / MHZ_IN[unit],
                    f"The clock of the runs of its table (the sentence above it): {{rounded}} {unit}.")
            elif r.quantity == "frame size":
                add(where, label, r.quantity, unit, value, runs["frame_bytes"].iloc[0] / KIB,
                    "Its table's frames in KB of 1024 bytes: {rounded} KB.")
            elif r.quantity == "L2 cache" and r.figure_plots == "L2 cache sizes":
                add(where, f"{label}: L2 size {of}", r.quantity, unit, value,
                    *_nth_size(measured, i, "Its table's", "smallest"))
            elif r.quantity == "L2 cache" and r.figure_plots == "frame sizes":
                add(where, label, r.quantity, unit, value, max(measured),
                    "The largest L2 cache its table measures: {rounded} KB.")
            else:
                raise ValueError(f"{name} row {r.Index}: a figure's {r.quantity!r} ({r.figure_plots}) has no check")
        elif r.place == "setup" and r.quantity == "packet size":
            add(where, f"packet size {value} {unit}", r.quantity, unit, value,
                *_nth_setting(frame_sizes_bytes(), i, "frame size in KB of 1024 bytes", unit, KIB))
        elif r.place == "setup" and r.quantity == "frame period":
            add(where, f"rate {value} {unit} per packet", r.quantity, unit, value,
                *_nth_setting(tuple(p for p in frame_periods_ms() if p), i, "frame period", unit))
        elif r.place == "Conclusion" and r.quantity == "L2 cache":
            reach = t[(t["device"] == r.device) & (t["operation"] == "Receive") & (t["throughput_kbit_s"] == best)]
            add(where, f"{r.device}: the L2 size below which it cannot reach the best throughput", r.quantity,
                unit, value, reach["l2_cache_kbytes"].min() if len(reach) else 0,
                f"The least L2 cache with which its tables show it receiving at the best rate any board reaches, "
                f"{best:,} kbit/s, is {{model:g}} {unit}: the size below which it cannot is at most that.",
                off_note=(f"Its tables show it receiving at the best rate any board reaches, {best:,} kbit/s, with "
                          f"{{model:g}} {unit} of L2 cache already, less than the {{published}} {unit} below which "
                          "§7 says it cannot." if len(reach) else
                          f"Its tables never show it receiving at the best rate any board reaches, {best:,} "
                          "kbit/s, with any L2 cache size."), relation="<=")
        elif r.place == "step 7, testee output" and r.quantity == "L2 cache":
            (clock,) = [c for c in prose[(prose["section"] == r.section) & (prose["place"] == r.place)
                                         & (prose["quantity"] == "DSP clock")].itertuples()]
            clock_printed = printed["value"][clock.Index]
            boards = t[t["clock_mhz"] == clock.value * MHZ_IN[clock.unit]]
            add(where, f"DSP Operating at {clock_printed} {clock.unit}", r.quantity, unit, value,
                boards["l2_cache_kbytes"].max(),
                f"The {boards['device'].iloc[0]}, the only board §6 runs at {clock_printed} {clock.unit}, is measured "
                f"with at most {{rounded}} {unit} of L2 cache; the excerpt's {{published}}k is the BCACHE_L2_256K "
                "that nonCopyTCP.h (§2.1) asks of every C64x+, which §6.3 never reports for this board.",
                relation="<=", otherwise="unexplained")
        elif r.place == "step 7, testee output" and r.quantity == "DSP clock":
            continue  # picks the board whose tables the excerpt's L2 cache is held to (the row above)
        else:
            raise ValueError(f"{name} row {r.Index}: {r.place!r}'s {r.quantity!r} has no check")
    return out


@checks.provider
def prose_source_checks():
    """SPRAAQ5's prose about its runs (§6 platforms, captions and setup; the testee excerpt's cache)."""
    return prose_checks(data.load("spraaq5-s6-throughput"))


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


__all__ += ["UDP_HEADER_BYTES", "packet_wire_expr", "fragment_payload_expr", "datagram_wire_expr",
            "datagram_goodput_expr", "udp_evaluate"]


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


__all__ += ["USB_HS_BULK_PACKET_BYTES", "USB_HS_BULK_PER_MICROFRAME", "USB_HS_MICROFRAMES_PER_S", "USB_HS_RATE_MBIT_S",
            "RNDIS_HEADER_BYTES", "rndis_mss", "rndis_message_expr", "rndis_packets_expr", "bulk_ceiling_expr",
            "rndis_goodput_expr", "rndis_evaluate"]


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


# --- AM243x CPSW iperf: every printed number checked (issue 18) ----------------------------------

#: The CPSW runs' link rate. The datasheet names none; its TCP rows sit just under the 100 Mbit/s
#: stream ceiling, so the book reads the link as 100 Mbit/s (as the chapter's tables do).
CPSW_LINK_MBIT_S = 100
PERCENT_MAX = 100  #: no CPU load or packet loss exceeds all of it


def cpsw_tcp_checks(t) -> list:
    """Each TCP bandwidth of the ``am243x-cpsw-tcp-iperf`` table (or an edited copy) against the stream
    ceiling at the link rate (each direction of a full-duplex link has its own), and each CPU load printed
    against 100 % (a bidirectional row prints one load for both directions: checked once)."""
    values = {line_rate: CPSW_LINK_MBIT_S, mtu: 1500, ip_header: IP_HEADER_BYTES[4], tcp_options: 0,
              ethernet.vlan: 0}
    ceiling = float(stream_goodput_expr().subs(values))
    out = []
    for row in t.itertuples():
        label = f"{row.board}, {row.direction}"
        out.append(checks.compare(
            t, row.Index, "bandwidth_mbit_s", ceiling, label, kind="ceiling", relation="<=",
            note=f"Full segments of 1460 bytes, no TCP options, at {CPSW_LINK_MBIT_S} Mbit/s carry at most "
                 "{model:.2f} Mbit/s in each direction.",
            off_note=f"Full segments of 1460 bytes at {CPSW_LINK_MBIT_S} Mbit/s carry at most {{model:.2f}} Mbit/s; "
                     "the table prints {published}.",
            formula=(stream_goodput_expr(), {k: v for k, v in values.items()
                                             if k in stream_goodput_expr().free_symbols})))
    for index in t.drop_duplicates(["board", "cpu_load_percent"]).index:
        row = t.loc[index]
        out.append(checks.compare(
            t, index, "cpu_load_percent", PERCENT_MAX,
            f"{row['board']}, {row['direction'].replace(' TX', '')}", kind="consistency", relation="<=",
            off_note="A CPU load of {published} % is more than the whole CPU."))
    return out


def cpsw_udp_checks(t) -> list:
    """Each CPU load and packet loss of the ``am243x-cpsw-udp`` table (or an edited copy) against 100 %,
    and the one rate the table reports as reached ("Max") against what a 100 Mbit/s link can carry of
    its datagrams."""
    out = []
    for row in t.itertuples():
        label = (f"{row.direction} {row.board}, {row.packet_bytes} B, "
                 f"{'max ' if row.offered_as == 'max' else ''}{row.offered_mbit_s:g} Mbit/s")
        for column, what in (("cpu_load_percent", "CPU load"), ("loss_percent", "packet loss")):
            if t.attrs["printed"][column][row.Index] in ("", None) or getattr(row, column) != getattr(row, column):
                continue  # printed "-": nothing measured
            out.append(checks.compare(
                t, row.Index, column, PERCENT_MAX, label, kind="consistency", relation="<=",
                off_note=f"A {what} of {{published}} % is more than all of it."))
        if row.offered_as == "max":
            u = udp_evaluate(row.packet_bytes, CPSW_LINK_MBIT_S)
            out.append(checks.compare(
                t, row.Index, "offered_mbit_s", u["goodput_mbit_s"], label, kind="ceiling",
                relation="<=", otherwise="unexplained",
                note=f"{row.packet_bytes}-byte datagrams in {u['fragments']} IP fragments each carry at most "
                     f"{{model:.2f}} Mbit/s at {CPSW_LINK_MBIT_S} Mbit/s.",
                off_note=f"{row.packet_bytes}-byte datagrams ({u['fragments']} IP fragments each) carry at most "
                         f"{{model:.2f}} Mbit/s over a {CPSW_LINK_MBIT_S} Mbit/s link, the rate the TCP rows "
                         "point to; the row prints a maximum of {published} Mbit/s with "
                         f"{t.attrs['printed']['loss_percent'][row.Index]} % loss. The datasheet "
                         "names no link rate: either this run had a faster link, or 'Max' is the rate asked "
                         "of iperf (-b), not one the link carried.",
                formula=(datagram_goodput_expr(), {line_rate: CPSW_LINK_MBIT_S, message: row.packet_bytes,
                                                   mtu: 1500, ip_header: IP_HEADER_BYTES[4], ethernet.vlan: 0})))
    return out


@checks.provider
def cpsw_source_checks():
    """The AM243x CPSW TCP and UDP iperf tables: ceilings at the link rate, loads and losses within 100 %."""
    return cpsw_tcp_checks(data.load("am243x-cpsw-tcp-iperf")) + cpsw_udp_checks(data.load("am243x-cpsw-udp"))


__all__ += ["CPSW_LINK_MBIT_S", "PERCENT_MAX", "cpsw_tcp_checks", "cpsw_udp_checks"]


# --- AM243x USB RNDIS iperf: ceiling and total (issue 18) ----------------------------------------

def total_of(parts) -> float:
    """The sum of a run's interval values: what its whole-run row should print."""
    return float(sum(parts))


def rndis_checks(t) -> list:
    """Each bandwidth of the ``am243x-rndis-iperf`` table (or an edited copy) against the most full
    1460-byte segments can carry over RNDIS on USB 2.0 high speed (``ceiling``), and the whole run's
    transfer against the sum of its one-second intervals (``consistency``)."""
    most = rndis_evaluate(1460)["goodput_mbit_s"]
    out = []
    for row in t.itertuples():
        out.append(checks.compare(
            t, row.Index, "bandwidth_mbit_s", most, f"RNDIS iperf {row.start_s:g}-{row.end_s:g} s",
            kind="ceiling", relation="<=",
            note="Full 1460-byte segments over RNDIS, in 512-byte bulk packets, 13 per microframe, carry at most "
                 "{model:.1f} Mbit/s.",
            off_note="Full 1460-byte segments over RNDIS on USB 2.0 high speed carry at most {model:.1f} Mbit/s; "
                     "the run prints {published}.",
            formula=(rndis_goodput_expr(), {rndis_mss: 1460})))
    spans = t["end_s"] - t["start_s"]
    whole = t[spans == spans.max()]
    parts = t[spans < spans.max()]
    for index in whole.index:
        inside = parts[(parts["start_s"] >= t.loc[index, "start_s"]) & (parts["end_s"] <= t.loc[index, "end_s"])]
        out.append(checks.compare(
            t, index, "transfer_mbytes", total_of(inside["transfer_mbytes"]),
            f"RNDIS iperf {t.loc[index, 'start_s']:g}-{t.loc[index, 'end_s']:g} s, the sum of its intervals",
            kind="consistency",
            note=f"The {len(inside)} intervals inside it add up to {{model:.2f}} MBytes.",
            off_note=f"The {len(inside)} intervals inside it add up to {{model:.2f}} MBytes, not {{published}}."))
    return out


def rndis_rate_checks(t) -> list:
    """Each bandwidth of the ``am243x-rndis-iperf`` table (or an edited copy) against the transfer on its row
    over the row's interval. Iperf prints both from one count of bytes, so an interval's check verifies the
    transfer it is computed from as well as the bandwidth (``verifies=2``, as a CRC verifies the bytes it is
    computed from); the whole run's transfer has a check of its own (the sum of the intervals,
    :func:`rndis_checks`), so its bandwidth's check verifies the bandwidth only."""
    spans = t["end_s"] - t["start_s"]
    out = []
    for row in t.itertuples():
        whole = spans[row.Index] == spans.max() and (spans < spans.max()).any()
        out.append(checks.compare(
            t, row.Index, "bandwidth_mbit_s",
            row.transfer_mbytes * (1 << 20) * 8 / 1e6 / (row.end_s - row.start_s),
            f"RNDIS iperf {row.start_s:g}-{row.end_s:g} s",
            note="" if whole else f"From the row's {t.attrs['printed']['transfer_mbytes'][row.Index]} MBytes: "
                                  "one count of bytes gives both.",
            off_note=f"{row.transfer_mbytes} MiB in {row.end_s - row.start_s:g} s is {{model:.2f}} Mbit/s, "
                     "not {published}.", verifies=1 if whole else 2))
    return out


@checks.provider
def rndis_source_checks():
    """The RNDIS iperf run against the USB 2.0 bulk ceiling, and its total against its intervals."""
    return rndis_checks(data.load("am243x-rndis-iperf"))


__all__ += ["total_of", "rndis_checks", "rndis_rate_checks", "noncopytcp", "bench_frames", "frame_periods_ms",
            "frame_sizes_bytes", "cache_load_checks"]
