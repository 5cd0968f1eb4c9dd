"""KeyStone II memory buses and EDMA: which port, memory or transfer controller bounds a copy.

A port moves ``w / 8`` bytes per transfer, ``k`` transfers per clock of ``f / d``
(a divider of the CPU clock ``f``): its bandwidth is ``w / 8 * f / d * k`` MB/s
with ``f`` in MHz. DDR3 runs on its own clock and is written with its data rate
``r`` in MT/s: ``w_DDR / 8 * r``.

A copy is bounded by the lowest of the bus, its source and its destination
(:func:`bound_expr`, a sympy ``Min``). The guide's multi-TC scenarios (§5.2)
have ``n`` transfer controllers each moving the same amount of data in both
directions between two endpoints, so the model counts, per byte of the copy, how
many bytes each endpoint carries (its *load*):

- a TC moves ``T / n`` of the aggregate ``T``; the slowest one finishes last, so
  the TCs bound ``T`` at ``n`` times the slowest TC's bandwidth;
- an endpoint that is both source and destination of a TC (MSMC to MSMC, DDR3A to
  DDR3A) carries every byte of it twice, once read and once written: that is the
  guide's "cannot read and write at the same time, so the throughput is halved";
- two TCs between the same CorePac L2 memories share the CorePac's slave port,
  so the transfers take turns ("only one TC transfer is done at a time");
- DDR3A and DDR3B are separate endpoints with a load of their own each.

The CorePac's slave (SDMA) port is taken as 128 bits at CPU/3: the width and clock
the guide itself multiplies in scenarios 1 and 2; Table 2's L2 figure is the
memory behind that port.

The transfer controllers, a copy's cases and the numbers of the copies ``goodput bus`` asks about
(:func:`evaluate`, :func:`copy_limits`) are :mod:`goodput.models.bus_numeric`'s, which computes with the
functions ``tools/gen_cli_spec.py`` prints from these expressions and imports neither sympy nor pandas;
:func:`limits` computes any case from its expressions.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

import sympy as sp

from goodput.core import data
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import DataError, ParameterError
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.core.symbols import lambdify, maker
from goodput.models import bus_numeric
from goodput.models.bus_numeric import (
    ALIKE,
    PORTS,
    TC,
    TRANSFER_CONTROLLERS,
    Case,
    clocks,
    copy_limits,
    copy_loads,
    endpoint_port,
    evaluate,
    limits_of,
    shared_bridges,
)

symbol = maker(__name__)

__all__ = ["cpu_clock", "ddr3_rate", "ddr3_width", "tc_count", "tc_width", "tc_divider", "width", "clock",
           "divider", "transfers", "PARAMETERS", "TC", "TRANSFER_CONTROLLERS", "ENDPOINTS", "FIFO_BYTES",
           "port_bandwidth_expr", "ddr3_bandwidth_expr", "endpoint_bandwidth_expr", "Case", "table_cases",
           "limit_exprs", "copy_limit_exprs", "copy_limits", "evaluate", "bound_expr", "clock_values", "limits",
           "bound_mb_s", "binding", "shared_bridges", "array_commands_expr", "transfer_guidance", "port_rows",
           "KEYSTONE_SETTINGS", "section_settings", "burst_bytes"]

cpu_clock = symbol("f_CPU", positive=True)  #: CPU (Main PLL) clock, MHz
ddr3_rate = symbol("r_DDR", positive=True)  #: DDR3 data rate, MT/s
ddr3_width = symbol("w_DDR", positive=True, integer=True)  #: DDR3 data bus width, bits
tc_count = symbol("n_TC", positive=True, integer=True)  #: number of transfer controllers in a copy
tc_width = symbol("w_TC", positive=True, integer=True)  #: a TC's bus width, bits
tc_divider = symbol("d_TC", positive=True, integer=True)  #: a TC's clock divider of the CPU clock
width = symbol("w", positive=True, integer=True)  #: a port's width, bits
clock = symbol("f", positive=True)  #: a clock, MHz
divider = symbol("d", positive=True, integer=True)  #: divider of that clock
transfers = symbol("k", positive=True, integer=True)  #: transfers per clock (2 for DDR)

FIFO_BYTES = 1024  #: every TC's FIFO (§5.3.1)

PARAMETERS = by_name(
    Parameter("cpu_clock_mhz", cpu_clock, "MHz", 1, 2000, default=1200, step=50,
              label="CPU clock (MHz)"),
    Parameter("ddr3_mtps", ddr3_rate, "MT/s", 1, 2133, default=1600, step=1,
              label="DDR3 data rate (MT/s)",
              presets=tuple((r, f"DDR3-{r}") for r in (800, 1066, 1333, 1600, 1866, 2133))),
    Parameter("ddr3_width_bits", ddr3_width, "bits", 16, 64, default=64, step=16,
              label="DDR3 bus width (bits)", integer=True),
    Parameter("tcs", tc_count, "transfer controllers", 1, 14, default=2, step=1,
              label="transfer controllers", integer=True),
    Parameter("tc_width_bits", tc_width, "bits", 8, 1024, default=128, step=8,
              label="TC bus width (bits)", integer=True),
    Parameter("tc_clock_divider", tc_divider, "", 1, 8, default=3, step=1,
              label="TC clock = CPU clock /", integer=True),
)


def port_bandwidth_expr() -> sp.Expr:
    """Bandwidth of a port (MB/s): ``w`` bits per transfer, ``k`` transfers per cycle of ``f / d`` MHz."""
    return width / 8 * clock / divider * transfers


def ddr3_bandwidth_expr() -> sp.Expr:
    """DDR3 bandwidth (MB/s) from its bus width and data rate (two transfers per memory clock)."""
    return port_bandwidth_expr().subs({width: ddr3_width, clock: ddr3_rate / 2, divider: 1, transfers: 2})


def _on_cpu_clock(bits: int, div: int) -> sp.Expr:
    return port_bandwidth_expr().subs({width: bits, clock: cpu_clock, divider: div, transfers: 1})


def tc_bandwidth_expr(tc: TC) -> sp.Expr:
    """Bandwidth (MB/s) of a transfer controller's bus: its width at its divider of the CPU clock."""
    return _on_cpu_clock(tc.width_bits, tc.clock_divider)

#: Endpoint bandwidths (MB/s), by the port that bounds each (:data:`goodput.models.bus_numeric.PORTS`). MSMC SRAM:
#: 256 bits at the CPU clock (Table 2); a CorePac's slave port: 128 bits at CPU/3 (§5.2.1-5.2.2); DDR3A and
#: DDR3B: the EMIF (Table 2).
ENDPOINTS = dict(zip(PORTS, (
    _on_cpu_clock(256, 1),  # MSMC SRAM
    _on_cpu_clock(128, 3),  # CorePac slave port
    ddr3_bandwidth_expr(),  # DDR3A
    ddr3_bandwidth_expr(),  # DDR3B
), strict=True))


def endpoint_bandwidth_expr(endpoint: str) -> sp.Expr:
    """Bandwidth (MB/s) of an endpoint: ``"MSMC SRAM"``, ``"DDR3A"``, ``"DDR3B"``, ``"CorePac<k> L2"``."""
    return ENDPOINTS[endpoint_port(endpoint)]


def table_cases() -> list[Case]:
    """The TC combinations of Tables 6-15, with the endpoints §5.2 gives each TC."""
    t = data.load("keystone2-table6-15")
    out = []
    for row in t.itertuples():
        names = tuple(re.findall(r"TC\d+", row.tcs_as_printed))
        pairs = []
        for i, _ in enumerate(names):
            a = row.endpoint_a.replace("CorePac L2 (one per TC)", f"CorePac{i} L2")
            pairs.append((a, row.endpoint_b))
        out.append(Case(f"Table {row.table}: {row.tcs_as_printed}", names, tuple(pairs)))
    return out


def tcs_limit_expr(names) -> sp.Expr:
    """The most the transfer controllers ``names`` move together (MB/s): equal shares each, so the slowest
    finishes last."""
    return len(names) * sp.Min(*[tc_bandwidth_expr(TRANSFER_CONTROLLERS[n]) for n in names])


def alike_tcs_limit_expr() -> sp.Expr:
    """The most ``n_TC`` alike transfer controllers move together (MB/s): ``w_TC`` bits at CPU/``d_TC`` each."""
    return tc_count * port_bandwidth_expr().subs({width: tc_width, clock: cpu_clock, divider: tc_divider,
                                                  transfers: 1})


def endpoint_limit_expr(endpoint: str, load) -> sp.Expr:
    """The most a copy moves (MB/s) when ``endpoint`` carries ``load`` bytes per byte of it."""
    return endpoint_bandwidth_expr(endpoint) / sp.Rational(load.numerator, load.denominator)


def limit_exprs(case: Case) -> dict[str, sp.Expr]:
    """Each bound on the aggregate throughput (MB/s) of ``case``, by what imposes it."""
    return limits_of(case.loads(), tcs_limit_expr(case.tcs), endpoint_limit_expr)


def copy_limit_exprs(endpoint_a: str, endpoint_b: str) -> dict[str, sp.Expr]:
    """Limits (MB/s) of ``n_TC`` alike TCs copying between ``endpoint_a`` and ``endpoint_b``
    (either way or both: an endpoint carries every byte once, or twice if it is both ends)."""
    return limits_of(copy_loads(endpoint_a, endpoint_b), alike_tcs_limit_expr(), endpoint_limit_expr)


def bound_expr(case: Case) -> sp.Expr:
    """The copy's theoretical maximum: the lowest of its limits."""
    return sp.Min(*limit_exprs(case).values())


def clock_values(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits) -> dict:
    """The values of the clock symbols ``f_CPU``, ``r_DDR`` and ``w_DDR`` at the given clocks, as their
    parameters allow them."""
    return dict(zip((cpu_clock, ddr3_rate, ddr3_width), clocks(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)))


@lru_cache(maxsize=None)
def _numeric(expr: sp.Expr):
    return lambdify((cpu_clock, ddr3_rate, ddr3_width), expr, "math")


def limits(case: Case, cpu_clock_mhz: float = DEFAULT, ddr3_mtps: float = DEFAULT,
           ddr3_width_bits: int = DEFAULT) -> dict[str, float]:
    """Each limit of ``case`` in MB/s at the given clocks."""
    v = clock_values(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)
    return {name: float(_numeric(e)(v[cpu_clock], v[ddr3_rate], v[ddr3_width]))
            for name, e in limit_exprs(case).items()}


def bound_mb_s(case: Case, **clocks) -> float:
    """Theoretical maximum aggregate throughput of ``case`` (MB/s)."""
    return min(limits(case, **clocks).values())


def binding(case: Case, **clocks) -> list[str]:
    """The limits equal to the bound (more than one when they tie)."""
    values = limits(case, **clocks)
    low = min(values.values())
    return [name for name, v in values.items() if math.isclose(v, low, rel_tol=1e-12)]


# --- §5.3: transfer geometry -------------------------------------------------------------

acnt = symbol("A", positive=True, integer=True)  #: bytes in one array (ACNT)
offset = symbol("o", nonnegative=True, integer=True)  #: start address modulo the burst
burst = symbol("D", positive=True, integer=True)  #: data burst size (DBS), bytes


def array_commands_expr() -> sp.Expr:
    """Read (or write) commands a TC issues for one array of ``A`` bytes starting ``o`` bytes
    past a ``D``-byte boundary: commands never exceed ``D`` bytes or cross a ``D`` boundary."""
    return sp.ceiling((offset + acnt) / burst)


@lru_cache(maxsize=1)
def _commands():
    return lambdify((acnt, offset, burst), array_commands_expr(), "math")


def _side(start: int, acnt_bytes: int, bcnt: int, index: int, chunk: int) -> tuple[int, int]:
    """(units touched, bytes) of BCNT arrays at ``start + b * index`` split at ``chunk`` boundaries."""
    if index == acnt_bytes:  # a linear transfer: one array of ACNT x BCNT bytes
        return int(_commands()(acnt_bytes * bcnt, start % chunk, chunk)), acnt_bytes * bcnt
    touched = sum(int(_commands()(acnt_bytes, (start + b * index) % chunk, chunk)) for b in range(bcnt))
    return touched, acnt_bytes * bcnt


def transfer_guidance(acnt_bytes: int, bcnt: int = 1, src_index: int | None = None,
                      dst_index: int | None = None, src_address: int = 0, dst_address: int = 0,
                      tc: str = "TC0", msmc_subbank_bytes: int = 32) -> dict:
    """§5.3 as numbers: commands issued, how full they are, the MSMC sub-bank use, the rules broken.

    ``src_index``/``dst_index`` default to ``acnt_bytes`` (a linear transfer).
    """
    for name, value in (("acnt_bytes", acnt_bytes), ("bcnt", bcnt)):
        if int(value) != value or value < 1 or value > 65535:
            raise ParameterError(name, value, "an integer from 1 to 65535")
    if tc not in TRANSFER_CONTROLLERS:
        raise ParameterError("tc", tc, "one of TC0 to TC13")
    src_index = acnt_bytes if src_index is None else src_index
    dst_index = acnt_bytes if dst_index is None else dst_index
    for name, value in (("src_index", src_index), ("dst_index", dst_index)):
        if int(value) != value or not -32768 <= value <= 32767:
            raise ParameterError(name, value, "an integer from -32768 to 32767 (BIDX is 16 bits, signed)")
    for name, value in (("src_address", src_address), ("dst_address", dst_address)):
        if int(value) != value or value < 0:
            raise ParameterError(name, value, "a non-negative integer")
    t = TRANSFER_CONTROLLERS[tc]
    reads, total = _side(src_address, acnt_bytes, bcnt, src_index, t.dbs_bytes)
    writes, _ = _side(dst_address, acnt_bytes, bcnt, dst_index, t.dbs_bytes)
    ideal = math.ceil(total / t.dbs_bytes) if src_index == acnt_bytes else bcnt * math.ceil(acnt_bytes / t.dbs_bytes)
    banks, _ = _side(src_address, acnt_bytes, bcnt, src_index, msmc_subbank_bytes)
    size = acnt_bytes * (bcnt if src_index == acnt_bytes and dst_index == acnt_bytes else 1)
    rules = []
    if size <= t.width_bits // 8:
        rules.append(f"{'ACNT x BCNT' if size > acnt_bytes else 'ACNT'} ({size} B) is not larger than "
                     f"the TC's bus width ({t.width_bits // 8} B)")
    if size <= t.dbs_bytes:
        rules.append(f"it is not larger than the TC's default burst size ({t.dbs_bytes} B)")
    if size <= FIFO_BYTES:
        rules.append(f"it is not larger than the TC's FIFO ({FIFO_BYTES} B)")
    for side, index in (("source", src_index), ("destination", dst_index)):
        if index != acnt_bytes:
            rules.append(f"the {side} is not linear (index {index} != ACNT {acnt_bytes})")
            if index % 2:
                rules.append(f"the {side} index is odd")
    for side, address in (("source", src_address), ("destination", dst_address)):
        if address % t.dbs_bytes:
            rules.append(f"the {side} address is not aligned to the {t.dbs_bytes}-byte burst")
    return {"tc": tc, "acnt_bytes": acnt_bytes, "bcnt": bcnt, "src_index": src_index, "dst_index": dst_index,
            "bytes": total, "read_commands": reads, "write_commands": writes, "ideal_commands": ideal,
            "command_fill": total / (t.dbs_bytes * max(reads, writes)),
            "msmc_subbank_use": total / (msmc_subbank_bytes * banks), "rules_broken": rules}


# --- the guide's ports, settings and bursts, as the chapter and the checks read them ----------

def port_rows():
    """Rows of Tables 1 and 2: (table, row, port name, check label, ``w / 8 * f / d * k`` from its
    comment, and the numbers put in it)."""
    for name, what in (("keystone2-table1", "master"), ("keystone2-table2", "memory")):
        t = data.load(name)
        for row in t.itertuples():
            values = {width: row.width_bits, clock: row.clock_mhz, divider: row.clock_divider,
                      transfers: getattr(row, "transfers_per_clock", 1)}
            model = float(port_bandwidth_expr().subs(values))
            port = getattr(row, what)
            label = f"{port} ({row.width_bits} bits x {row.clock_as_printed})"
            devices = getattr(row, "devices", "all")
            if devices != "all":
                port, label = f"{port} ({devices})", f"{label}, {devices}"
            yield t, row, port, label, model, values


#: The published table of the settings SPRABK5's text states, each with its section.
KEYSTONE_SETTINGS = "keystone2-settings"


def section_settings(section: str, t=None):
    """The rows of the settings table (``t``, or the published :data:`KEYSTONE_SETTINGS`) that ``section`` prints:
    ``section`` its heading or its number (``"5.1"``); :class:`DataError` if it prints none."""
    t = data.load(KEYSTONE_SETTINGS) if t is None else t
    mine = t[(t["section"] == section) | t["section"].str.startswith(section + " ")]
    if mine.empty:
        raise DataError(f"{t.attrs.get('provenance', {}).get('resource', KEYSTONE_SETTINGS)}: no settings of "
                        f"section {section!r}")
    return mine


def burst_bytes(ccs, which: str = "one") -> int:
    """The data burst size of the transfer controllers of channel controllers ``ccs`` (Sec. 5.3.1):
    the ``"smallest"``, the ``"largest"``, or the ``"one"`` they share (an error if they differ)."""
    sizes = {t.dbs_bytes for t in TRANSFER_CONTROLLERS.values() if t.cc in set(ccs)}
    if not sizes:
        raise ParameterError("ccs", ccs, "channel controllers 0 to 4")
    if which == "one" and len(sizes) != 1:
        raise ValueError(f"channel controllers {sorted(set(ccs))} have bursts of {sorted(sizes)} bytes")
    return {"smallest": min, "largest": max, "one": min}[which](sizes)


# --- goodput bus: run by goodput.models.bus_numeric, without sympy ---------------------------------------

_ENDPOINTS = "one of MSMC SRAM, DDR3A, DDR3B, CorePac<k> L2"

COMMAND = Command(
    "bus", help="which port, memory or transfer controller bounds a KeyStone II EDMA copy",
    description="Theoretical maximum of a copy between two KeyStone II endpoints by EDMA transfer controllers: the "
                "lowest of the TCs' buses, the source and the destination (SPRABK5 §3-5). Name the TCs (--tc TC0 "
                "--tc TC1) or describe alike ones (--tcs, --tc-width, --tc-divider; default 2 x 128 bits at CPU/3).",
    arguments=(Arg("--from", dest="endpoint_a", required=True, metavar="ENDPOINT", help="source: " + _ENDPOINTS),
               Arg("--to", dest="endpoint_b", required=True, metavar="ENDPOINT", help="destination: " + _ENDPOINTS),
               Arg("--tc", dest="tc_names", action="append", default=[], metavar="TCn",
                   help="a transfer controller by the guide's number, TC0 to TC13 (repeat for more)"),
               *(Arg(option, dest=name, metavar="N",
                     help=f"{PARAMETERS[name].label}: {PARAMETERS[name].describe_range()}")
                 for option, name in ALIKE.items()),
               Ranged("--cpu-clock", PARAMETERS["cpu_clock_mhz"]),
               Ranged("--ddr3-mtps", PARAMETERS["ddr3_mtps"]),
               Ranged("--ddr3-width", PARAMETERS["ddr3_width_bits"])),
    run=bus_numeric.run, lines=bus_numeric.lines)
