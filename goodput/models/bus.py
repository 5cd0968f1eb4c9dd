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

import pandas as pd
import sympy as sp

from goodput.models import bus_numeric
from goodput import checks
from goodput.core import data
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
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import DataError, ParameterError
from goodput.core.params import DEFAULT, Parameter
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["cpu_clock", "ddr3_rate", "ddr3_width", "tc_count", "tc_width", "tc_divider", "width", "clock",
           "divider", "transfers", "PARAMETERS", "TC", "TRANSFER_CONTROLLERS", "ENDPOINTS", "FIFO_BYTES",
           "port_bandwidth_expr", "ddr3_bandwidth_expr", "endpoint_bandwidth_expr", "Case", "table_cases",
           "limit_exprs", "copy_limit_exprs", "copy_limits", "evaluate", "bound_expr", "limits", "bound_mb_s", "binding", "shared_bridges",
           "array_commands_expr", "transfer_guidance", "port_rows", "MB_S_IN", "calculation_checks",
           "KEYSTONE_SETTINGS", "section_settings",
           "edma_ceiling_checks", "read_latency_checks",
           "core_clock", "memory_clock", "read_floor_expr", "READ_ENDPOINTS", "read_floor_checks",
           "baseline_counts", "transfer_kib", "prose_checks", "fabric_checks", "burst_bytes", "pcie_edma_checks",
           "section_label", "MEMORY_ITEMS", "port_rate", "memory_prose_checks", "measured_checks"]

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
core_clock = symbol("f_core", positive=True)  #: clock of the core that times a read, MHz
memory_clock = symbol("f_mem", positive=True)  #: clock of the memory the read reaches, MHz

FIFO_BYTES = 1024  #: every TC's FIFO (§5.3.1)

PARAMETERS = {
    p.name: p
    for p in (
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
}


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


def _values(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits) -> dict:
    return dict(zip((cpu_clock, ddr3_rate, ddr3_width), clocks(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)))


@lru_cache(maxsize=None)
def _numeric(expr: sp.Expr):
    return lambdify((cpu_clock, ddr3_rate, ddr3_width), expr, "math")


def limits(case: Case, cpu_clock_mhz: float = DEFAULT, ddr3_mtps: float = DEFAULT,
           ddr3_width_bits: int = DEFAULT) -> dict[str, float]:
    """Each limit of ``case`` in MB/s at the given clocks."""
    v = _values(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)
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


# --- source checks -----------------------------------------------------------------------

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


@checks.provider
def source_checks():
    """Tables 1 and 2 (value and worked formula), the §2-5 text, Tables 6-15 (maximum, efficiency)."""
    out = []
    for t, row, _, label, model, values in port_rows():
        note = f"{row.width_bits} / 8 x {row.clock_as_printed} is {{model:g}} MB/s, not {{published}}"
        for column, where in (("max_bandwidth_mb_s", "the table's value"),
                              ("comment_result_mb_s", "the result of its worked formula")):
            out.append(checks.compare(t, row.Index, column, model, label,
                                      off_note=note + f" ({where}).", formula=(port_bandwidth_expr(), values)))
    out += calculation_checks(data.load("keystone2-s2-s5-calculations"))
    t = data.load("keystone2-table6-15")
    for case, row in zip(table_cases(), t.itertuples()):
        binds = " and ".join(binding(case))
        out.append(checks.compare(
            t, row.Index, "theoretical_mb_s", bound_mb_s(case), case.label,
            f"Bound by the {binds}.",
            off_note=f"The lowest limit is the {binds}: {{model:g}} MB/s, not {{published}}.",
            formula=(bound_expr(case), _values(1200, 1600, 64))))
        out.append(checks.compare(
            t, row.Index, "efficiency_percent",
            100 * row.measured_mb_s / row.theoretical_mb_s, case.label,
            off_note=f"{row.measured_mb_s} / {row.theoretical_mb_s} is {{model:.1f}}%, not {{published}}%."))
    return out


#: A unit the text prints a bandwidth in, in MB/s.
MB_S_IN = {"MB/s": 1, "GB/s": 1000}


def calculation_checks(t) -> list:
    """The bandwidths the text of Sec. 2, 4 and 5 works out (``t``: ``keystone2-s2-s5-calculations`` or a copy),
    each as printed and in the unit printed (Sec. 2.1's '16 GB/second'), against the port model on the width,
    clock and transfers its calculation names."""
    out = []
    for row in t.itertuples():
        values = {width: row.width_bits, clock: row.clock_mhz, divider: 1, transfers: row.transfers_per_clock}
        scale = MB_S_IN[row.unit_as_printed]
        model = row.factor * float(port_bandwidth_expr().subs(values)) / scale
        out.append(checks.compare(
            t, row.Index, "value_as_printed", model, f"§{row.section.split()[0]}: {row.what}",
            quantity=t.attrs["titles"]["value_mb_s"], unit=row.unit_as_printed,
            off_note=f"{row.width_bits} bits per cycle at {row.clock_mhz:g} MHz (the clock of Table 1) is "
                     f"{{model:g}} {row.unit_as_printed}, not {{published}}: the text's figure is 128 bits per cycle "
                     "at 1 GHz.",
            formula=(row.factor * port_bandwidth_expr() / scale, values)))
    return out


def edma_ceiling_checks(t) -> list:
    """Tables 6-15's measurements (``t``: ``keystone2-table6-15``): each at most the model's bound for its
    transfer controllers and endpoints (``ceiling``) and at most the table's own theoretical maximum on its
    row (``consistency``)."""
    out = []
    for case, row in zip(table_cases(), t.itertuples()):
        binds = " and ".join(binding(case))
        out.append(checks.compare(
            t, row.Index, "measured_mb_s", bound_mb_s(case), case.label, kind="ceiling",
            relation="<=", formula=(bound_expr(case), _values(1200, 1600, 64)),
            note=f"At most the bound of the {binds}, {{model:g}} MB/s.",
            off_note=f"More than the bound of the {binds}, {{model:g}} MB/s: more than the copy can move."))
        out.append(checks.compare(
            t, row.Index, "measured_mb_s", row.theoretical_mb_s, case.label,
            kind="consistency", relation="<=", note="At most the row's theoretical maximum, {model:g} MB/s.",
            off_note="More than the row's own theoretical maximum, {model:g} MB/s."))
    return out


def read_latency_checks(t) -> list:
    """Tables 3 and 4 (``t``: ``keystone2-table3`` or ``keystone2-table4``, stored long): a burst read's
    stalls per read at most a single read's from the same source, for each device family, since the burst
    overlaps its misses (one a cycle, prefetch on) and a single read waits out the whole latency."""
    value = "stalls" if "stalls" in t.columns else "cycles"
    table = t.attrs["provenance"]["table"]
    out = []
    for (source, generation), g in t.groupby(["source", "generation"], sort=False):
        by_access = {r.access: r for r in g.itertuples()}
        single, burst = by_access.get("single read"), by_access.get("burst read")
        if single is None or burst is None or pd.isna(getattr(single, value)) or pd.isna(getattr(burst, value)):
            continue  # N/A: KeyStone I has no DDR3B
        out.append(checks.compare(
            t, burst.Index, value, getattr(single, value), f"{table}: {source}, {generation}",
            kind="consistency", relation="<=", note="At most the single read's {model:g}.",
            off_note="More than the single read's {model:g}: a burst read waits longer per read than one alone."))
    return out


def read_floor_expr() -> sp.Expr:
    """The least a read can wait (cycles of the core that times it): one clock period of the memory it
    reaches, ``f_core / f_mem``."""
    return core_clock / memory_clock


#: The rows of Table 2 whose clock a single read of Tables 3 and 4 reaches, by how the table's source starts
#: (the DSP's L2 cache hit reaches its L2 too; the ARM's L1 and L2 are its own caches).
READ_ENDPOINTS = {"L2 SRAM": "DSP L2", "MSMC RAM": "MSMC RAM", "DDR 3A": "DDR3A RAM", "DDR 3B": "DDR3B RAM"}


def _read_endpoint(source: str, core: str) -> str | None:
    """Table 2's memory a single read of ``source`` reaches, timed by ``core`` ("DSP" or "ARM"); None for
    the core's own cache."""
    if source == "L2 Cache Hit":
        return "DSP L2" if core == "DSP" else None
    for k, memory in READ_ENDPOINTS.items():
        if source.startswith(k):
            return memory
    return None


def read_floor_checks(t, t2, conditions) -> list:
    """The single reads of Tables 3 and 4 (``t``: ``keystone2-table3`` or ``keystone2-table4``): each at least one
    clock period of the memory it reaches (:func:`read_floor_expr`), that memory's clock from Table 2 (``t2``)
    or, for the KeyStone I MSMC, from the test set-up (``conditions``: §3.1's rows of ``keystone2-settings``), in cycles
    of the core that timed it (the set-up's DSP or ARM clock); a read the core's own cache serves at least one
    cycle of that core. The DSP's L1D hit is not checked: Table 3 counts stalls, and a hit does not stall."""
    value = "stalls" if "stalls" in t.columns else "cycles"
    table = t.attrs["provenance"]["table"]
    core = "DSP" if value == "stalls" else "ARM"
    stated = conditions.set_index("item")["value"]
    rows = {r.memory: r for r in t2.itertuples()}
    out = []
    for r in t.itertuples():
        reading = getattr(r, value)
        if r.access != "single read" or pd.isna(reading) or (core == "DSP" and r.source.startswith("L1D")):
            continue
        if core == "DSP":
            core_mhz = 1000 * stated[f"DSP clock of the {r.generation} tests"]
        else:
            core_mhz = 1000 * stated["ARM clock of the ARM tests"]
        memory = _read_endpoint(r.source, core)
        if memory is None:
            memory_mhz, what = core_mhz, f"one cycle of the {core}"
        elif memory == "MSMC RAM" and r.generation == "KeyStone I":
            memory_mhz, what = stated["MSMC clock of the KeyStone I tests"], "one clock of the KeyStone I MSMC"
        else:
            m = rows[memory]
            memory_mhz, what = m.clock_mhz / m.clock_divider, f"one clock of Table 2's {memory} ({m.clock_as_printed})"
        values = {core_clock: core_mhz, memory_clock: memory_mhz}
        out.append(checks.compare(
            t, r.Index, value, float(read_floor_expr().subs(values)),
            f"{table}: {r.source}, {r.generation}", kind="ceiling", relation=">=",
            formula=(read_floor_expr(), values),
            note=f"At least {what}: {{model:.3g}} cycles of the {core}.",
            off_note=f"Less than {what}, {{model:.3g}} cycles of the {core}: faster than the memory can answer."))
    return out


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


def baseline_counts() -> dict[str, int]:
    """How Sec. 5.1 programs its baseline transfers (§5.1's rows of :data:`KEYSTONE_SETTINGS`): ACNT, BCNT and
    CCNT."""
    t = section_settings("5.1").set_index("item")["value"]
    return {k: int(t[k]) for k in ("ACNT", "BCNT", "CCNT")}


def transfer_kib(counts: dict) -> float:
    """The size (KB of 1024 bytes) of an EDMA transfer of ``ACNT x BCNT x CCNT`` bytes."""
    return counts["ACNT"] * counts["BCNT"] * counts["CCNT"] / 1024


def _port(t1, master: str, devices: str = "all"):
    """Table 1's row of ``master`` (for ``devices``)."""
    rows = t1[(t1["master"] == master) & (t1["devices"] == devices)]
    if len(rows) != 1:
        raise ValueError(f"keystone2-table1: no single row for {master!r} ({devices})")
    return rows.iloc[0]


def prose_checks(prose, t1) -> list:
    """The numbers of Sec. 2-5's text (``prose``: ``keystone2-s2-s5-prose``) against Table 1 (``t1``) and
    Sec. 5.1's counts: the interface and fabric widths and clocks, the baseline size, the TC bus widths, and
    the narrow TC of Sec. 5's example (its width and divider, in the text and in the formula, and the clock), and
    the clock dividers of Sec. 2.3's data switch fabrics against Table 1's TCs of their widths."""
    edma0 = _port(t1, "EDMA0(Single TC)", "all but 66AK2E and AM5K2E")
    narrow = _port(t1, "EDMA1(Single TC)")
    arm = _port(t1, "ARM A15 Core")
    out = []
    for r in prose.itertuples():
        how: dict = {"kind": "consistency"}
        if r.item == "width of the ARM CorePac's interfaces":
            model = arm.width_bits
            note = ("Table 1 computes the ARM A15 core's bandwidth from {model:g} bits at 1200M/2, the width "
                    "and clock Sec. 2.1 gives the C66x CorePac's IDMA; the text gives the ARM CorePac's "
                    "interfaces {published} bits: one of the two is wrong.")
        elif r.item == "width of the wide data switch fabric":
            model, note = edma0.width_bits, "Table 1's EDMA0 and EDMA4 TCs are {model:g} bits wide."
        elif r.item == "width of the narrow data switch fabric":
            model, note = narrow.width_bits, "Table 1's EDMA1, EDMA2 and EDMA3 TCs are {model:g} bits wide."
        elif r.item == "size of the baseline transfers":
            counts = baseline_counts()
            model, how = transfer_kib(counts), {"kind": "prose"}
            note = ("Sec. 5.1's ACNT x BCNT x CCNT = " + " x ".join(map(str, counts.values()))
                    + " bytes, {model:g} KB of 1024 bytes.")
        elif r.item == "bus width of EDMACC0 and EDMACC4 TCs":
            model, note = edma0.width_bits / 8, "Table 1's EDMA0 and EDMA4 TCs: {model:g} bytes."
        elif r.item == "bus width of the other TCs":
            model, note = narrow.width_bits / 8, "Table 1's EDMA1 to EDMA3 TCs: {model:g} bytes."
        elif r.item.startswith("width of the narrow TC"):
            model, note = narrow.width_bits, "Table 1's EDMA1, EDMA2 and EDMA3 TCs are {model:g} bits wide."
        elif r.item.startswith("clock divider of the narrow TC"):
            model, how = narrow.clock_divider, {"kind": "consistency", "exact": True}  # a divider is a count
            note = "Table 1 clocks EDMA1, EDMA2 and EDMA3 at the CPU clock / {model:g}."
        elif r.item == "CPU clock in the formula":
            model, note = narrow.clock_mhz, "Table 1's CPU clock: {model:g} MHz."
        elif r.item.startswith("clock divider of the") and r.item.endswith("data switch fabric"):
            tc = edma0 if "wide" in r.item else narrow  # the TCs on it: Table 1's of the fabric's width
            model, how = tc.clock_divider, {"kind": "consistency", "exact": True}  # a divider is a count
            note = (f"Table 1 clocks the {tc.width_bits}-bit TCs on this fabric at the CPU clock / {{model:g}}."
                    if tc.clock_divider == r.value else
                    f"Table 1 clocks the {tc.width_bits}-bit TCs that Sec. 2.3 puts on this fabric at the CPU "
                    "clock / {model:g}, not DSP/{published}: the text and the table disagree (fabric_checks "
                    "shows the table's bandwidths need its divider).")
        elif r.item in MEMORY_ITEMS:
            continue  # memory_prose_checks: against Table 2
        else:
            raise ValueError(f"keystone2-s2-s5-prose: no model for {r.item!r}")
        out.append(checks.compare(prose, r.Index, "value", float(model),
                                  f"§{r.section.split()[0]}", note, quantity=r.item, unit=r.unit, **how))
    return out


def burst_bytes(ccs, which: str = "one") -> int:
    """The data burst size of the transfer controllers of channel controllers ``ccs`` (Sec. 5.3.1):
    the ``"smallest"``, the ``"largest"``, or the ``"one"`` they share (an error if they differ)."""
    sizes = {t.dbs_bytes for t in TRANSFER_CONTROLLERS.values() if t.cc in set(ccs)}
    if not sizes:
        raise ParameterError("ccs", ccs, "channel controllers 0 to 4")
    if which == "one" and len(sizes) != 1:
        raise ValueError(f"channel controllers {sorted(set(ccs))} have bursts of {sorted(sizes)} bytes")
    return {"smallest": min, "largest": max, "one": min}[which](sizes)


def section_label(section: str) -> str:
    """A row's label for the section a transcription names, by its number and what follows the heading in
    brackets (the heading's words would name another section with the same heading too):
    ``"6.3.1 PCIe Read Throughput (Figure 10)"`` -> ``"§6.3.1 (Figure 10)"``."""
    number, _, rest = section.partition(" ")
    bracket = re.search(r"\([^()]*\)\s*$", rest)
    return " ".join(filter(None, (f"§{number}", bracket.group(0).strip() if bracket else "")))


def pcie_edma_checks(t) -> list:
    """The EDMA data burst sizes Sec. 6's PCIe text states (``t``: ``keystone2-s6-edma-prose``) against the
    transfer controllers' bursts of Sec. 5.3.1 (:func:`burst_bytes`)."""
    out = []
    for r in t.itertuples():
        ccs = [int(n) for n in r.ccs.split()]
        which = r.item.split()[0] if r.item.split()[0] in ("smallest", "largest") else "one"
        names = "every EDMA" if len(ccs) == len({tc.cc for tc in TRANSFER_CONTROLLERS.values()}) else \
            "EDMA" + "/".join(map(str, ccs))
        out.append(checks.compare(
            t, r.Index, "value", burst_bytes(ccs, which), section_label(r.section),
            quantity=r.item,
            kind="consistency",
            note=f"Sec. 5.3.1: the {'' if which == 'one' else which + ' '}data burst size of {names}'s transfer "
                 "controllers is {model:g} bytes."))
    return out


#: The items of ``keystone2-s2-s5-prose`` that :func:`memory_prose_checks` holds to Table 2: each the memory
#: row of Table 2 it speaks of and what of it.
MEMORY_ITEMS = {
    "width of the DDR3A interface": ("DDR3A RAM", "width"),
    "width of the DDR3B interface": ("DDR3B RAM", "width"),
    "width of the EMIF data bus": ("DDR3A RAM", "width"),
    "width of the DDR3 bus Table 2 assumes": ("DDR3A RAM", "width"),
    "DDR3 data rate Table 2 assumes": ("DDR3A RAM", "rate"),
    "width of an MSMC SRAM bank": ("MSMC RAM", "width"),
    "MSMC clock": ("MSMC RAM", "clock"),
    "DDR3 data rate": ("DDR3A RAM", "rate"),
    "width of the DDR3 bus of the tests": ("DDR3A RAM", "width"),
    "DDR3 data rate of the tests": ("DDR3A RAM", "rate"),
    "width of the DDR3 bus of the 80% example": ("DDR3A RAM", "width"),
    "DDR3 data rate of the 80% example": ("DDR3A RAM", "rate"),
    "width of the DDR3 bus in the 80% formula": ("DDR3A RAM", "width"),
    "DDR3 data rate in the 80% formula": ("DDR3A RAM", "rate"),
}


def port_rate(width_bits: int, clock_mhz: float, divider: int, per_clock: int) -> dict[str, float]:
    """A port of Table 1 or 2 as the text names it: its width (bits), its clock (GHz, the clock over its
    divider) and its rate (transfers per microsecond: MT/s)."""
    clock_ = clock_mhz / divider
    return {"width": width_bits, "clock": clock_ / 1000, "rate": clock_ * per_clock}


def memory_prose_checks(prose, t2) -> list:
    """The widths, clocks and DDR3 rates Sec. 2-5's text states (``prose``: ``keystone2-s2-s5-prose``, the
    items of :data:`MEMORY_ITEMS`) against the rows of Table 2 (``t2``) they speak of (:func:`port_rate`)."""
    rows = {r.memory: r for r in t2.itertuples()}
    out = []
    for r in prose.itertuples():
        if r.item not in MEMORY_ITEMS:
            continue
        memory, what = MEMORY_ITEMS[r.item]
        m = rows[memory]
        model = port_rate(m.width_bits, m.clock_mhz, m.clock_divider, m.transfers_per_clock)[what]
        formula = {"width": "", "clock": f" ({m.clock_as_printed})",
                   "rate": f" ({m.clock_as_printed}: {m.transfers_per_clock} transfers a clock)"}[what]
        out.append(checks.compare(
            prose, r.Index, "value", model, f"§{r.section}", quantity=r.item, unit=r.unit,
            kind="consistency", note=f"Table 2's {memory}{formula}: {{model:g}} {r.unit}."))
    return out


def fabric_checks(t1, prose) -> list:
    """Table 1's EDMA transfer controllers (``t1``) against the data switch fabric Sec. 2.3 puts them on
    (``prose``: ``keystone2-s2-s5-prose``): a TC's bandwidth at most one port of the fabric of its width,
    at the fabric's clock (1200 MHz over its divider)."""
    stated = {r.item: r.value for r in prose.itertuples()}
    fabrics = {int(stated[f"width of the {k} data switch fabric"]): (k, int(stated[f"clock divider of the {k} data "
                                                                                   "switch fabric"]))
               for k in ("wide", "narrow")}
    out = []
    for t, row, port, label, _, values in port_rows():
        if t.attrs["provenance"]["resource"] != t1.attrs["provenance"]["resource"]:
            continue  # Table 2's rows: memories
        if not port.startswith("EDMA") or row.width_bits not in fabrics:
            continue
        kind, d = fabrics[row.width_bits]
        fabric = {width: row.width_bits, clock: row.clock_mhz, divider: d, transfers: 1}
        model = float(port_bandwidth_expr().subs(fabric))
        out.append(checks.compare(
            t1, row.Index, "max_bandwidth_mb_s", model, label, kind="consistency",
            relation="<=", formula=(port_bandwidth_expr(), fabric),
            note=f"At most one port of Sec. 2.3's {kind} fabric, {row.width_bits} bits at DSP/{d}: {{model:g}} MB/s.",
            off_note=f"Sec. 2.3 puts the {row.width_bits}-bit TCs on the {kind} data switch fabric at DSP/{d}, "
                     "whose port carries {model:g} MB/s at 1200 MHz; the table's {published} needs the TC at "
                     f"1200M/{row.clock_divider}, as its formula has it: the text and the table disagree."))
    return out


@checks.provider
def measured_checks():
    """Tables 3-4 and 6-15 against their own numbers and the model's bounds, the numbers of Sec. 2-5's text,
    and the EDMA bursts of Sec. 6's."""
    return (edma_ceiling_checks(data.load("keystone2-table6-15"))
            + read_latency_checks(data.load("keystone2-table3")) + read_latency_checks(data.load("keystone2-table4"))
            + read_floor_checks(data.load("keystone2-table3"), data.load("keystone2-table2"),
                                section_settings("3.1"))
            + read_floor_checks(data.load("keystone2-table4"), data.load("keystone2-table2"),
                                section_settings("3.1"))
            + prose_checks(data.load("keystone2-s2-s5-prose"), data.load("keystone2-table1"))
            + fabric_checks(data.load("keystone2-table1"), data.load("keystone2-s2-s5-prose"))
            + pcie_edma_checks(data.load("keystone2-s6-edma-prose"))
            + memory_prose_checks(data.load("keystone2-s2-s5-prose"), data.load("keystone2-table2")))


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
