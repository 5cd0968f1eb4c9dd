"""The book's own measurements: captured logs of the firmware, as tables, next to the models.

Reads ``data/logs/host/`` (written by ``make capture``; never at build time):
``memcopy.log`` (copy throughput vs size, row index and alignment), and the
tester/testee logs of the NDK protocol on loopback and across a 100 Mbit/s link
shaped as 100BASE-TX (``shaped-100m*``).

Reads ``data/logs/qemu/`` too (``make capture`` on a machine with QEMU): the same programs
on an Arm Cortex-M4F (MPS2 AN386) under ``qemu-system-arm -icount shift=0``, where every
nanosecond a log prints is one instruction of virtual time, not a nanosecond of silicon
(:func:`clock_of` tells the two apart by the header's ``icount`` line). Any other folder of
``data/logs/`` with a ``memcopy*.log`` of the firmware, such as a reader's own board, joins
the comparison of :func:`memcopy_logs`.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from goodput.core import resources
from goodput.core.errors import DataError, LogFormatError
from goodput.logs import bench, ndk_console
from goodput.models import ethernet

__all__ = ["host_dir", "log_path", "provenance", "memcopy", "testee_runs", "shaped_vs_model", "tcp_stack",
           "ndk_document_runs", "memcopy_logs", "clock_of", "run_label", "copy_sizes", "tcp_loop",
           "LINE_RATE_GBIT_S", "MTU_BYTES", "MAC_FRAME_BYTES"]

LINE_RATE_GBIT_S = 0.1  #: the shaped link: 100BASE-TX
MTU_BYTES = 1500
MAC_FRAME_BYTES = MTU_BYTES + 14 + 4  #: MAC header, IP packet, FCS


def host_dir() -> Path:
    return resources.path("data", "logs", "host")


def log_path(name: str, where: str = "host") -> Path:
    """The captured log ``name`` of folder ``where`` of ``data/logs/`` (``"host"`` or ``"qemu"``)."""
    folder = host_dir() if where == "host" else host_dir().parent / where
    path = folder / f"{name}.log"
    if not path.exists():
        raise DataError(f"{path}: no such captured log; run `make capture` to capture it")
    return path


def provenance(name: str) -> dict[str, str]:
    """The header of a captured log: host, CPU, kernel, compiler, flags, command, date, git."""
    return bench.parse(log_path(name)).header


def _results(path: Path, needs: tuple[str, ...], divisors: tuple[str, ...]) -> pd.DataFrame:
    """The log's BENCH-RESULT lines as a table; refuses, naming its line, the first result without
    a key of ``needs`` or ``divisors``, and the first with 0 in a divisor (a run that took no time)."""
    t = bench.results(path)
    if t.empty:
        raise LogFormatError(path, 1, "no BENCH-RESULT line")
    for key in needs + divisors:
        missing = t[key].isna() if key in t else pd.Series(True, index=t.index)
        if missing.any():
            raise LogFormatError(path, int(t["line"][missing].iloc[0]), f"a BENCH-RESULT without {key}")
    for key in divisors:
        zero = t[key] == 0
        if zero.any():
            raise LogFormatError(path, int(t["line"][zero].iloc[0]), f"{key}=0: a run that took no time")
    return t


def memcopy(path: str | Path | None = None) -> pd.DataFrame:
    """Every memcopy result of the log at ``path`` (the host's ``memcopy.log`` by default) with its
    throughput: best and median over the repeats (MB/s of the log's clock, see :func:`clock_of`)."""
    t = _results(Path(path) if path is not None else log_path("memcopy"), ("sweep", "acnt", "src_index", "bytes", "iterations", "worst_ns"),
                 ("best_ns", "median_ns"))
    moved = t["bytes"] * t["iterations"]
    t["best_mb_s"] = moved * 1000 / t["best_ns"]
    t["median_mb_s"] = moved * 1000 / t["median_ns"]
    t["spread"] = t["worst_ns"] / t["best_ns"] - 1
    t["index_kind"] = [
        "linear (index = ACNT)" if r.src_index == r.acnt else
        "odd index (ACNT + 1)" if r.src_index == r.acnt + 1 else f"index = ACNT + {r.src_index - r.acnt}"
        for r in t.itertuples()]
    return t


def testee_runs(name: str, where: str = "host") -> pd.DataFrame:
    """The testee's runs: BENCH-RESULT lines joined with the NDK sentences it printed."""
    path = log_path(f"{name}-testee", where)
    machine = _results(path, ("direction", "frame_bytes", "frames", "interval_us", "bytes", "cpu_ns",
                              "machine_busy_ticks", "machine_total_ticks"), ("elapsed_ns",))
    sentences = ndk_console.parse(path)
    _pair_up(path, machine, sentences)
    out = machine.assign(kbit_s=list(sentences["kbit_s"]), cpu_load_percent=list(sentences["cpu_load_percent"]))
    out["mbit_s"] = out["bytes"] * 8 / out["elapsed_ns"] * 1000
    out["process_cpu"] = out["cpu_ns"] / out["elapsed_ns"]
    total = out["machine_total_ticks"].where(out["machine_total_ticks"] > 0)
    out["machine_cpu"] = out["machine_busy_ticks"] / total
    out.attrs["header"] = machine.attrs["header"]
    return out


def _pair_up(path: Path, machine: pd.DataFrame, sentences: pd.DataFrame):
    """Each BENCH-RESULT of the testee and the NDK sentences printed after it tell of the same run."""
    for r, s in zip(machine.itertuples(), sentences.itertuples()):
        if (r.direction, r.frame_bytes, r.bytes) != (s.direction, s.frame_bytes, s.total_bytes):
            raise LogFormatError(path, int(s.line), f"the NDK sentences of a {s.direction} run of "
                                                    f"{s.total_bytes} bytes do not tell the run of line {r.line}")
    if len(machine) != len(sentences):
        extra = machine if len(machine) > len(sentences) else sentences
        raise LogFormatError(path, int(extra["line"].iloc[min(len(machine), len(sentences))]),
                             f"{len(machine)} BENCH-RESULT lines but {len(sentences)} runs in NDK sentences")


def ndk_document_runs() -> pd.DataFrame:
    """The NDK testee's runs as SPRAAQ5 §4.1 prints them (a verbatim excerpt in data/logs/published)."""
    return ndk_console.parse(host_dir().parent / "published" / "spraaq5-testee-console.log")


def tcp_stack(header: dict[str, str]) -> str:
    """The Ethernet model's stack for the TCP the log's host ran: with or without timestamps."""
    value = header.get("tcp", "")
    if value.endswith("=1"):
        return "tcp4ts"
    if value.endswith("=0"):
        return "tcp4"
    raise DataError(f"the log header does not say whether TCP timestamps were on: {value!r}")


def shaped_vs_model(name: str = "shaped-100m") -> pd.DataFrame:
    """Each run across the shaped link against the model's ceiling: full-size frames of the
    host's TCP (MSS from the 1500-byte MTU) back to back on 100BASE-TX."""
    runs = testee_runs(name)
    stack = tcp_stack(runs.attrs["header"])
    ceiling = ethernet.evaluate(MAC_FRAME_BYTES, LINE_RATE_GBIT_S, stack)["goodput_gbit_s"] * 1000
    out = runs[["direction", "frame_bytes", "frames", "interval_us", "mbit_s", "process_cpu"]].copy()
    out["ceiling_mbit_s"] = ceiling
    out["measured_over_ceiling"] = out["mbit_s"] / ceiling
    out.attrs["stack"] = ethernet.STACKS[stack].name
    return out


def memcopy_logs() -> list[Path]:
    """Every memcopy log of a run of the firmware in ``data/logs/`` (not the documents' excerpts):
    the host's, QEMU's, and any a reader adds as ``data/logs/<folder>/memcopy*.log``."""
    root = host_dir().parent
    return sorted(p for p in root.glob("*/memcopy*.log") if p.parent.name != "published")


def clock_of(header: dict[str, str]) -> str:
    """What the nanoseconds of a log count: virtual time (instructions) under ``-icount``, else a wall clock."""
    return "instructions (QEMU -icount)" if "icount" in header else "wall clock"


def run_label(path: Path, header: dict[str, str]) -> str:
    """A short name for a log in a legend: its folder and file, and what its clock counts."""
    return f"{path.parent.name}/{path.stem}: {clock_of(header)}"


def copy_sizes() -> pd.DataFrame:
    """The size sweeps of every memcopy log (:func:`memcopy_logs`), one row per log and size:
    ``bytes``, ``best_mb_s``, ``bytes_per_ns`` (per instruction under QEMU), ``run`` (:func:`run_label`)."""
    frames = []
    for path in memcopy_logs():
        t = memcopy(path)
        t = t[t["sweep"] == "size"]
        frames.append(pd.DataFrame({"run": run_label(path, t.attrs["header"]), "bytes": t["bytes"],
                                    "best_mb_s": t["best_mb_s"], "bytes_per_ns": t["best_mb_s"] / 1000}))
    if not frames:
        raise DataError(f"{host_dir().parent}: no memcopy log; run `make capture` to capture one")
    return pd.concat(frames, ignore_index=True)


def tcp_loop(name: str = "tcp-loop-mps2-an386") -> pd.DataFrame:
    """The byte accounting of the TCP tester and testee over the in-memory loop (``data/logs/qemu/``):
    per direction the bytes written into the loop, read out of it, and what the protocol moves."""
    return _results(log_path(name, "qemu"), ("direction", "bytes_written", "bytes_read", "expected_bytes"), ())
