"""SPRAAQ5, the NDK benchmark report, checked against :mod:`goodput.models.tcp` for the tcp-goodput chapter: its
§6 throughput tables (the best receive rate against TCP over the 100 Mbit/s link, every run against the link's
stream ceiling and a whole CPU, a larger L2 cache loading the CPU no more), the §2.1 nonCopyTCP.h configuration
(frame sizes, periods, BENCH_FRAMES), the §4.1 step 7 testee and tester console excerpts (totals, rates, loads,
frame counts and periods), and its prose about the §6 runs (the platform list, the figures' captions, the setup,
§7's conclusion, the testee excerpt's cache)."""

from __future__ import annotations

from collections import Counter

from goodput import checks
from goodput.core import data
from goodput.core.errors import DataError
from goodput.logs import ndk_console
from goodput.models import ethernet, tcp
from goodput.models.tcp import (
    IP_HEADER_BYTES,
    PARAMETERS,
    evaluate,
    frame_period,
    frames,
    goodputs,
    ip_header,
    line_rate,
    message,
    message_goodput_expr,
    mtu,
    paced_ceiling_expr,
    stream_goodput_expr,
    tcp_options,
)

__all__ = ["run_label", "source_checks", "FULL_LOAD_PERCENT", "stream_ceiling_kbit_s", "throughput_table_checks",
           "throughput_table_source_checks", "cache_load_checks", "cache_load_source_checks", "noncopytcp",
           "bench_frames", "frame_periods_ms", "frame_sizes_bytes", "NDK_CONSOLE_LOG", "NDK_CONSOLE_LINK_MBIT_S",
           "run_seconds", "frame_periods", "console_checks", "published_console_log", "console_source_checks",
           "console_frames_checks", "console_frames_source_checks", "NDK_TESTER_LOG", "tester_checks",
           "tester_source_checks", "KIB", "MHZ_IN", "SPRAAQ5_PROSE", "prose_checks", "prose_source_checks"]


def run_label(row) -> str:
    """A run of SPRAAQ5's §6 tables as a check's row names it: its section's number first (the place of the
    check), then its device, driver architecture, L2 cache and operation."""
    return (f"§{row.section.split()[0]} {row.device}, {row.architecture}, L2 {row.l2_cache_kbytes} KB, "
            f"{row.operation.lower()}")


@checks.provider(tcp)
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
    return out


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


@checks.provider(tcp)
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


@checks.provider(tcp)
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


@checks.provider(tcp)
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


@checks.provider(tcp)
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


@checks.provider(tcp)
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


@checks.provider(tcp)
def prose_source_checks():
    """SPRAAQ5's prose about its runs (§6 platforms, captions and setup; the testee excerpt's cache)."""
    return prose_checks(data.load("spraaq5-s6-throughput"))
