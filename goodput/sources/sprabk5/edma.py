"""TI SPRABK5 (the KeyStone II throughput guide), Sections 2-5 (the memory buses and the EDMA) and the EDMA
bursts of Section 6, against the bus model (:mod:`goodput.models.bus`), for the keystone-memory-edma chapter:
Tables 1 and 2's port bandwidths and their worked formulas, the bandwidths the text works out, Tables 3 and 4's
read latencies, Tables 6-15's copies under the model's bounds, and the widths, clocks, sizes and bursts the text
states against the tables.
"""

from __future__ import annotations

import re

import pandas as pd
import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.core.symbols import maker
from goodput.models import bus
from goodput.models.bus import (
    TRANSFER_CONTROLLERS,
    binding,
    bound_expr,
    bound_mb_s,
    burst_bytes,
    clock,
    clock_values,
    divider,
    port_bandwidth_expr,
    port_rows,
    section_settings,
    table_cases,
    transfers,
    width,
)

symbol = maker(__name__)

__all__ = ["core_clock", "memory_clock", "source_checks", "MB_S_IN", "calculation_checks", "edma_ceiling_checks",
           "read_latency_checks", "read_floor_expr", "READ_ENDPOINTS", "read_floor_checks", "baseline_counts",
           "transfer_kib", "prose_checks", "section_label", "pcie_edma_checks", "MEMORY_ITEMS", "port_rate",
           "memory_prose_checks", "fabric_checks", "measured_checks"]

core_clock = symbol("f_core", positive=True)  #: clock of the core that times a read, MHz
memory_clock = symbol("f_mem", positive=True)  #: clock of the memory the read reaches, MHz


@checks.provider(bus)
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
            formula=(bound_expr(case), clock_values(1200, 1600, 64))))
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
            relation="<=", formula=(bound_expr(case), clock_values(1200, 1600, 64)),
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


def baseline_counts() -> dict[str, int]:
    """How Sec. 5.1 programs its baseline transfers (§5.1's rows of
    :data:`goodput.models.bus.KEYSTONE_SETTINGS`): ACNT, BCNT and CCNT."""
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


def section_label(section: str) -> str:
    """A row's label for the section a transcription names, by its number and what follows the heading in
    brackets (the heading's words would name another section with the same heading too):
    ``"6.3.1 PCIe Read Throughput (Figure 10)"`` -> ``"§6.3.1 (Figure 10)"``."""
    number, _, rest = section.partition(" ")
    bracket = re.search(r"\([^()]*\)\s*$", rest)
    return " ".join(filter(None, (f"§{number}", bracket.group(0).strip() if bracket else "")))


def pcie_edma_checks(t) -> list:
    """The EDMA data burst sizes Sec. 6's PCIe text states (``t``: ``keystone2-s6-edma-prose``) against the
    transfer controllers' bursts of Sec. 5.3.1 (:func:`goodput.models.bus.burst_bytes`)."""
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


@checks.provider(bus)
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
