"""TI KeyStone HyperLink transfers in numbers: :func:`evaluate` and ``goodput hyperlink``, without sympy.

The model is :mod:`goodput.models.hyperlink`, which re-exports what is here. Its parameters, the 8b/9b code and
its numeric functions come from :mod:`goodput.models.quick_spec`, which ``tools/gen_cli_spec.py`` writes from
the models (each function printed from one of :mod:`goodput.models.hyperlink`'s expressions, as
:func:`goodput.core.symbols.lambdify` prints it), and the memories' read bursts from Table 22, read without
pandas: the command imports neither sympy, pandas nor the model. The generated names are looked up when
called, so that the tool can import the model while it writes them.
"""

from __future__ import annotations

from goodput.core import data
from goodput.core.command import report_lines
from goodput.core.errors import GoodputError, ParameterError
from goodput.core.params import DEFAULT
from goodput.models import quick_spec as spec

__all__ = ["MAX_PACKET_BYTES", "CONTROL_BYTES", "read_response_bytes", "goodput_gbit_s", "per_packet_gbit_s",
           "evaluate", "run", "lines"]

MAX_PACKET_BYTES = 256
CONTROL_BYTES = 8


def read_response_bytes(memory: str) -> int:
    """Burst in which ``memory`` answers a HyperLink read (Table 22)."""
    sizes = {row["memory"]: row["max_read_response_bytes"] for row in data.rows("keystone2-table22")}
    if memory not in sizes:
        raise ParameterError("memory", memory, "one of " + ", ".join(sizes))
    return int(sizes[memory])


def goodput_gbit_s(line_rate_gbaud: float, lanes: int, size_bytes: int, packet_bytes: int = DEFAULT) -> float:
    """Goodput (Gbit/s) of ``size_bytes`` transfers in packets of ``packet_bytes`` over HyperLink."""
    return spec.hyperlink_goodput(*_checked(line_rate_gbaud, lanes, size_bytes, packet_bytes), CONTROL_BYTES)


def per_packet_gbit_s(line_rate_gbaud: float, lanes: int, packet_bytes: int,
                      control_bytes: int = CONTROL_BYTES) -> float:
    """Goodput (Gbit/s) of back-to-back packets of ``packet_bytes`` with ``control_bytes`` each: the text's
    formula, :func:`goodput.models.hyperlink.goodput_expr` with ``S = P``."""
    return spec.hyperlink_goodput(line_rate_gbaud, lanes, packet_bytes, packet_bytes, control_bytes)


def _checked(line_rate_gbaud, lanes, size_bytes, packet_bytes) -> tuple:
    """The four inputs as the parameters allow them (numbers, not the text they were given as)."""
    names = ("line_rate_gbaud", "lanes", "size_bytes", "packet_bytes")
    return tuple(spec.HYPERLINK["parameters"][n].check(v)
                 for n, v in zip(names, (line_rate_gbaud, lanes, size_bytes, packet_bytes)))


def evaluate(kind: str, line_rate_gbaud: float, lanes: int, size_bytes: int,
             burst_bytes: int = MAX_PACKET_BYTES, memory: str | None = None) -> dict:
    """A write (packets of the master's burst, at most 256 B) or a read (packets of the answering
    memory's burst, Table 22) as a JSON-ready dict: inputs, goodput, efficiency, line bytes by kind."""
    if kind not in ("write", "read"):
        raise ParameterError("kind", kind, "write or read")
    burst = spec.HYPERLINK["parameters"]["burst_bytes"].check(burst_bytes)
    if kind == "write" and memory is not None:
        raise GoodputError(f"--memory {memory}: the memory that answers a read; a write goes in packets of the "
                           "master's burst (--burst)")
    if kind == "read":
        if memory is None:
            raise GoodputError("a read needs --memory, the memory that answers it: DDR3, 'MSMC SRAM' "
                               "or 'C66x L1/L2' (Table 22)")
        packet_bytes = min(read_response_bytes(memory), burst)
    else:
        packet_bytes = burst
    rate, n, size, packet_bytes = _checked(line_rate_gbaud, lanes, size_bytes, packet_bytes)
    g = goodput_gbit_s(rate, n, size, packet_bytes)
    packets = int(spec.hyperlink_packets(size, packet_bytes))
    coded = size + CONTROL_BYTES * packets
    _name, data_bits, coded_bits = spec.CODING["codes"]["8b9b"]
    return {"kind": kind, "line_rate_gbaud": rate, "lanes": n, "size_bytes": size,
            "burst_bytes": burst, "memory": memory, "packet_bytes": packet_bytes, "packets": packets,
            "goodput_gbit_s": g, "efficiency": g / (rate * n),
            "bytes": {"payload": float(size), "control": float(CONTROL_BYTES * packets),
                      "encoding": coded * (coded_bits / data_bits - 1)}}


# --- goodput hyperlink (its arguments: goodput.models.hyperlink.COMMAND) ---------------------------------

def run(args) -> dict:
    return evaluate(args.kind, args.line_rate_gbaud, args.lanes, args.size_bytes, args.burst_bytes, args.memory)


def lines(args, r: dict) -> list[str]:
    return report_lines(
        f"HyperLink {r['kind']} of {r['size_bytes']} bytes over {r['lanes']} x {r['line_rate_gbaud']:g} Gbaud in "
        f"{r['packets']} packets of {r['packet_bytes']} bytes", r)
