"""Intel 324611 §2, §3.6, §4.18, §5 and §6, around the DMA demo: the FPGA's utilization, the dma-demo's build and
output, Table 3, the CRC of §5.1, the addresses of §5.4 and §5.5, and the figures around the demo's runs.

Checked against the packet model (:mod:`goodput.models.pcie`) on the tutorial's link, the link CRC
(:mod:`goodput.models.pcie_crc`), the document's own settings and the §4 measurements, for the pcie-measured
chapter (:mod:`goodput.models.pcie_latency`).
"""

from __future__ import annotations

import math
import re

import pandas as pd
import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.logs import ahb_trace, dma_demo, kbuild
from goodput.models import coding, pcie, pcie_crc, pcie_latency
from goodput.models import pcie_transactions as pt
from goodput.sources.intel_324611 import theory
from goodput.sources.intel_324611.ahb_logs import AHB_LOGS

__all__ = ["INTEL_DMA_LINK", "INTEL_RAM_GIB", "INTEL_AHB_PCIE_BASE", "INTEL_RESERVED_MIB", "INTEL_RESERVED",
           "INTEL_IOMEM_BUFFER", "DMA_KIND", "CPU_ACCESS_BYTES", "ram_kib", "share_percent", "seconds_for",
           "dma_ceiling_mbyte_s", "cpu_ceiling_mbyte_s", "utilization_checks", "BUILD_LOG", "build_checks",
           "buffer_end_check", "dma_demo_checks", "table3_checks", "s2_s6_figure_checks", "crc_terms",
           "crc_polynomial_checks", "crc_polynomial_source_checks", "ahb_address", "physical_address",
           "s5_address_checks", "s5_address_source_checks", "intel_dma_source_checks", "setting", "assumed_tsc_ghz",
           "run_seconds", "full_run_seconds", "demo_step_checks", "measured_figure_checks",
           "intel_measured_figure_source_checks"]


# --- §2, §5 and §6: the DMA demo and Table 3 ----------------------------------------------------------

#: The tutorial's DMA transfers at their best: PCIe 1.1 x1, 128-byte payloads and read requests (§3.3, §5.9),
#: no DLLP and no gap, the ceiling no measured DMA rate may pass.
INTEL_DMA_LINK = pcie.Link(gen=1, lanes=1, mps=128, mrrs=128, dllp="none")
#: Settings of §2 and §5.4: the Hpe_IRP's RAM, the base of the FPGA's AHB range that it forwards over PCIe
#: to physical address 0, and the upper part of the RAM the kernel reserves for the DMA buffer.
INTEL_RAM_GIB = 1
INTEL_AHB_PCIE_BASE = 0x40000000
INTEL_RESERVED_MIB = 512
#: The physical addresses §5.5 reserves for the DMA buffer (the upper 512 MiB of 1 GiB), as it prints them,
#: and the part of them /proc/iomem shows as the DMA Demo Buffer (Figure 18).
INTEL_RESERVED = (0x20000000, 0x3FFFFFFF)
INTEL_IOMEM_BUFFER = (0x20000000, 0x3F6BFFFF)
#: Which way the DMA demo's tests move data: Mem->FPGA the DMA controller reads main memory,
#: FPGA->Mem it writes it.
DMA_KIND = {"MEM->FPGA": "read", "FPGA->MEM": "write"}
#: Bytes of each CPU access in the tutorial's CPU tests (32-bit words).
CPU_ACCESS_BYTES = ahb_trace.BYTES_PER_ACCESS


def ram_kib(address_bits: int) -> float:
    """KiB a RAM with ``address_bits`` byte-address bits holds (an AHB RAM's ``ram_addr_width_g``)."""
    return 2 ** address_bits / 1024


def share_percent(used: float, available: float) -> float:
    """``used`` as a percentage of ``available``."""
    return 100 * used / available


def seconds_for(nbytes: float, mbyte_s: float) -> float:
    """Seconds ``nbytes`` bytes take at ``mbyte_s`` (10^6 bytes a second): the duration a rate stands for."""
    return nbytes / (mbyte_s * 1e6)


def dma_ceiling_mbyte_s(kind: str) -> float:
    """The most a DMA transfer of ``kind`` can move on the tutorial's link (MB/s): 128-byte payloads back
    to back, no DLLP."""
    return 1000 * pcie.goodput_gbit_s(kind, INTEL_DMA_LINK, INTEL_DMA_LINK.mps) / 8


def cpu_ceiling_mbyte_s(kind: str) -> float:
    """The most the CPU's 4-byte accesses can move by the tutorial's own model (MB/s): writes back to back
    (Table 1), reads one at a time with its 500 ns from request to completion (§3.5, Test 15)."""
    if kind == "write":
        return 1000 * pcie.goodput_gbit_s("write", pt.INTEL_LINK, CPU_ACCESS_BYTES) / 8
    return theory.test15_theoretical_mbyte_s(CPU_ACCESS_BYTES)


def _dma_formula(kind):
    return pcie.goodput_formula(kind, INTEL_DMA_LINK, INTEL_DMA_LINK.mps, scale=sp.Rational(1000, 8))


def utilization_checks(table) -> list:
    """The utilization estimator's percentages (``intel-324611-s2-utilization``) against used / available
    on the same row (``consistency``)."""
    return [checks.compare(table, row.Index, "used_percent",
                           share_percent(row.used, row.available), row.resource,
                           f"{row.used} of {row.available}.", kind="consistency")
            for row in table.itertuples()]


#: The verbatim output of building the dma-demo and its kernel module (§2).
BUILD_LOG = "intel-324611-s2-build.log"


def build_checks(build: kbuild.KernelBuild) -> list:
    """The modules kbuild's ``MODPOST`` line says it post-processed (§2's build of the dma-demo) against the
    modules the same build links (``LD [M]`` lines; ``consistency``)."""
    return [checks.check(
        "Intel 324611", "§2 build output", f"MODPOST line (line {build.modpost_line})",
        "modules post-processed", "", build.modpost, len(build.linked),
        "The modules the build links: " + (", ".join(f.rsplit("/", 1)[-1] for f in build.linked) or "none") + ".",
        f"logs/published/{BUILD_LOG}", kind="consistency", exact=True)]


def buffer_end_check(demo: dma_demo.DmaDemo) -> checks.SourceCheck:
    """The last address of the buffer the dma-demo maps (§2) against its first plus the size of the DMA Demo
    Buffer /proc/iomem shows (§5.5, Figure 18): the program maps the part of the reservation the kernel module
    provides, whole (``consistency``). Its first address is where the kernel put the mapping; nothing printed
    fixes it."""
    first, last = INTEL_IOMEM_BUFFER
    return checks.check(
        "Intel 324611", "§2 dma-demo output", "dma buf line, last address", "last address of the buffer", "",
        f"{demo.last_address:#010x}", demo.first_address + (last - first + 1) - 1,
        f"From {demo.first_address:#x}, the {last - first + 1:#x} bytes of /proc/iomem's DMA Demo Buffer "
        f"({first:#x}-{last:#x}, Figure 18).", "logs/published/intel-324611-s2-dma-demo.log",
        kind="consistency", exact=True)


def dma_demo_checks(demo: dma_demo.DmaDemo) -> list:
    """The ``dma-demo`` output of §2 against itself and the link: the buffer's size against its addresses,
    each duration against the buffer and its rate, the time the program measured (TSC) at least the time
    the DMA controller was busy, each DMA rate against the link's ceiling, and a CRC the program calls OK
    against the reference CRC the CPU computed."""
    resource = "logs/published/intel-324611-s2-dma-demo.log"
    nbytes = dma_demo.buffer_bytes(demo)
    out = [checks.check("Intel 324611", "§2 dma-demo output", "dma buf line", "buffer size", "MB",
                        demo.size_mbyte, nbytes / 1e6,
                        f"Addresses {demo.first_address:#x} to {demo.last_address:#x}, 10^6 bytes a MB.",
                        resource, kind="consistency"),
           buffer_end_check(demo)]
    timed = demo.results[demo.results["seconds"] != ""]
    for _, rows in timed.groupby("test", sort=False):
        direction = rows["title"].iloc[0].removeprefix("DMA ").upper()
        kind = DMA_KIND[direction]
        by = {("TSC" if "TSC" in r.step else "DMA"): r for r in rows.itertuples()}
        for who, r in by.items():
            row = f"{direction}, {'write' if kind == 'read' else 'read'} call, {who}"
            out.append(checks.check(
                "Intel 324611", "§2 dma-demo output", row, "duration", "s", r.seconds,
                seconds_for(nbytes, float(r.mbyte_s)), f"The buffer's {nbytes} bytes at {r.mbyte_s} MByte/sec.",
                resource, kind="consistency"))
            out.append(checks.check(
                "Intel 324611", "§2 dma-demo output", row, "rate", "MB/s", r.mbyte_s,
                dma_ceiling_mbyte_s(kind), f"DMA {kind}s of {INTEL_DMA_LINK.mps}-byte payloads back to back, no DLLP: "
                "the link's most.", resource, _dma_formula(kind), kind="ceiling", relation="<="))
        if {"TSC", "DMA"} <= set(by):
            tsc, busy = by["TSC"], by["DMA"]
            row = f"{direction}, TSC against DMA"
            out.append(checks.check(
                "Intel 324611", "§2 dma-demo output", row, "duration", "s", tsc.seconds,
                float(busy.seconds), f"The program's time includes the controller's busy time ({busy.seconds} s) "
                "and the interrupt after it (§5.2).", resource, kind="consistency", relation=">="))
            out.append(checks.check(
                "Intel 324611", "§2 dma-demo output", row, "rate", "MB/s", tsc.mbyte_s,
                float(busy.mbyte_s), f"The same bytes over a time at least the controller's, at its "
                f"{busy.mbyte_s} MByte/sec at most.", resource, kind="consistency", relation="<="))
    references = {c["test"]: c for c in demo.crcs if c["kind"] == "reference"}
    # rows named by the transfer, not by the demo's test number, which the tutorial's §4 tests would claim
    titles = dict(zip(demo.results["test"], demo.results["title"]))
    for c in demo.crcs:
        ref = references.get(c["test"])
        if c["kind"] != "transfer" or c["verdict"] != "OK" or ref is None:
            continue
        out.append(checks.check(
            "Intel 324611", "§2 dma-demo output", f"{titles[c['test']]} transfer (line {c['line']})",
            "CRC the FPGA computed", "", c["crc"], int(ref["crc"], 16),
            f"The program calls it OK: the CPU's ref_crc ({ref['crc']}, line {ref['line']}).", resource,
            kind="consistency", exact=True))
    return out


def table3_checks(table, demo: dma_demo.DmaDemo, test3: ahb_trace.AhbTrace, test2: ahb_trace.AhbTrace,
                  test14, test15, trace_figures) -> list:
    """Table 3 (``intel-324611-table3``): each rate against its ceiling on the link (``ceiling``), the DMA
    rows against the dma-demo output they come from, the CPU rows against §4's measurements of 4-byte
    accesses, within the spread of those measurements (``consistency``)."""
    out = []
    busy = {r.title.removeprefix("DMA ").upper(): r for r in demo.results.itertuples() if "FPGA)" in r.step}
    writes4 = {"Test 3 average": ahb_trace.rate_from(4, float(test3.printed["average elapsed Time"])) / 1e6,
               "Test 14, 4 bytes": float(test14.loc[test14["sequential_write_bytes"] == 4, "measured_mbyte_s"].iloc[0])}
    test4 = trace_figures[(trace_figures["test"] == 4) & (trace_figures["quantity"] == "read throughput")]
    reads4 = {"Test 2": float(test2.printed["average throughput"]) / 1e6,
              **{f"Test 4 read {r.occurrence}": r.value for r in test4.itertuples()},
              "Test 15, 4 bytes": float(test15.loc[test15["payload_bytes"] == 4, "measured_mbyte_s"].iloc[0])}
    for row in table.itertuples():
        kind = DMA_KIND[row.direction]
        label = f"{row.initiator} {row.direction}"
        if row.initiator == "DMA":
            out.append(checks.compare(table, row.Index, "throughput_mbyte_s",
                                      dma_ceiling_mbyte_s(kind), label,
                                      f"DMA {kind}s of {INTEL_DMA_LINK.mps}-byte payloads back to back, no DLLP.",
                                      formula=_dma_formula(kind), kind="ceiling", relation="<="))
            source = busy[row.direction]
            out.append(checks.compare(table, row.Index, "throughput_mbyte_s",
                                      float(source.mbyte_s), label,
                                      f"The dma-demo's DMA controller measured {source.mbyte_s} MByte/sec (§2).",
                                      kind="consistency"))
            continue
        cpu_kind = "write" if row.direction == "MEM->FPGA" else "read"
        out.append(checks.compare(
            table, row.Index, "throughput_mbyte_s", cpu_ceiling_mbyte_s(cpu_kind), label,
            f"{CPU_ACCESS_BYTES}-byte writes back to back (Table 1)." if cpu_kind == "write" else
            f"{CPU_ACCESS_BYTES}-byte reads one at a time, {theory.INTEL_EXAMPLES[2]['t_c']:g} ns from request to "
            "completion (the document's theory, Test 15).",
            kind="ceiling", relation="<="))
        seen = writes4 if cpu_kind == "write" else reads4
        name = "Test 3 average" if cpu_kind == "write" else "Test 15, 4 bytes"
        evidence = ", ".join(f"{k} {v:.4g}" for k, v in seen.items())
        out.append(checks.compare(
            table, row.Index, "throughput_mbyte_s", seen[name], label,
            f"Against §4's {name} ({seen[name]:.4g} MB/s).", kind="consistency",
            spread=checks.Spread(max(seen.values()) - min(seen.values()),
                                 f"§4's measurements of {CPU_ACCESS_BYTES}-byte CPU {cpu_kind}s differ by as much "
                                 f"({evidence} MB/s)")))
    return out


def s2_s6_figure_checks(table, demo: dma_demo.DmaDemo, table3, test14, test2: ahb_trace.AhbTrace,
                        s4_figures) -> list:
    """The figures of §2, §5.5 and §6 (``intel-324611-s2-s6-figures``), each against what the text derives
    it from: an address range, a power of two, Table 3, Test 14, the prefetch figures of §4.17, Test 2."""
    out = []
    stated = {r.quantity: r.value for r in table.itertuples()}
    t3 = {(r.initiator, r.direction): r.throughput_mbyte_s for r in table3.itertuples()}
    s4 = {r.quantity: r.value for r in s4_figures.itertuples()}
    mib = 2 ** 20

    def span(first_last):
        return first_last[1] - first_last[0] + 1

    rules = {
        # quantity: (kind, value, note, extra keywords)
        "AHB RAM size (ram_addr_width_g = 13)": ("prose", ram_kib(13), "2^13 bytes, 1024 bytes a KiB.", {}),
        "DMA buffer more than": ("consistency", dma_demo.buffer_bytes(demo) / 1e6,
                                 f"The dma-demo's buffer is {demo.size_mbyte} MByte (§2).", {"relation": "<="}),
        "reserved RAM": ("prose", span(INTEL_RESERVED) / mib,
                         "Physical {:#x} to {:#x}.".format(*INTEL_RESERVED), {}),
        "reserved RAM, in bytes": ("prose", span(INTEL_RESERVED), "The reserved range, {:#x} bytes.".format(
            span(INTEL_RESERVED)), {}),
        "reserved RAM, in MB": ("prose", span(INTEL_RESERVED) / 1e6, "The reserved range, 10^6 bytes a MB.", {}),
        "DMA Demo Buffer in /proc/iomem": ("prose", span(INTEL_IOMEM_BUFFER) / 1e6,
                                           "The range {:#x}-{:#x} of Figure 18; 'about' read as to the "
                                           "nearest MB.".format(*INTEL_IOMEM_BUFFER), {}),
        "PCIe link capacity": ("calculated", _link_capacity()[0], "After 8b/10b, one direction (§3.1).", {}),
        "CPU writes": ("consistency", t3[("CPU", "MEM->FPGA")], "Table 3.", {}),
        "CPU reads": ("consistency", t3[("CPU", "FPGA->MEM")], "Table 3.", {}),
        "write combining writes": ("consistency", float(test14["measured_mbyte_s"].max()),
                                   "The highest measured rate of Test 14.", {}),
        "prefetching reads": ("consistency", ahb_trace.rate_from(s4["bytes prefetched"], s4["prefetch time"]) / 1e6,
                              "§4.17's bytes in its time.", {}),
        "DMA writes": ("consistency", t3[("DMA", "FPGA->MEM")], "Table 3: the controller writes main memory.", {}),
        "DMA reads": ("consistency", t3[("DMA", "MEM->FPGA")], "Table 3: the controller reads main memory; "
                      "'in the order of' read as to the nearest 10 MB/s.", {"approximate": 10}),
        "bytes to set up a DMA transfer": ("prose", 4 * CPU_ACCESS_BYTES,
                                           "Four registers (source, destination, length, flags) of "
                                           f"{CPU_ACCESS_BYTES} bytes.", {}),
        "Test 2 read round trip": ("consistency", float(test2.printed["average elapsed Time"]),
                                   "Test 2's statistic block; 'in the order of' read as to the nearest 100 ns.",
                                   {"approximate": 100}),
        "write latency estimate": ("prose", stated["Test 2 read round trip"] / 2, "Half the round trip it states.",
                                   {}),
    }
    for row in table.itertuples():
        kind, value, note, extra = rules[row.quantity]
        label = f"§{row.section}: {row.quantity}" + (", around" if "approximate" in extra else "")
        formula = None
        if row.quantity == "PCIe link capacity":
            formula = _link_capacity()[1]
        out.append(checks.compare(table, row.Index, "value", value, label, note,
                                  quantity=row.quantity, unit=row.unit, kind=kind, formula=formula,
                                  exact=row.unit in theory.COUNT_UNITS, **extra))
    return out


def crc_terms(polynomial: int, width: int) -> list[int]:
    """The exponents of a CRC's generator, highest first: ``width`` (the term a generator written as
    ``polynomial`` leaves out) and each set bit of ``polynomial``."""
    if not 0 < polynomial < 1 << width:
        raise ValueError(f"a {width}-bit CRC's generator without its top term is 1 to {(1 << width) - 1}, "
                         f"not {polynomial:#x}")
    return [width] + [k for k in range(width - 1, -1, -1) if polynomial >> k & 1]


def crc_polynomial_checks(table) -> list:
    """§5.1's CRC (``intel-324611-s5-1-crc``) against the link CRC of :mod:`goodput.models.pcie_crc`, the 32-bit CRC
    Ethernet uses as the text says: the width (its bytes, 8 bits each) and each printed term against the
    generator's term in the same place, highest first (``prose``, exact); a term the generator lacks is
    held to -1."""
    width = 8 * len(pcie_crc.lcrc(pcie_crc.sequence_field(0) + bytes(12)))
    terms = crc_terms(pcie_crc.LCRC_POLYNOMIAL, width)
    out, place = [], 0
    for row in table.itertuples():
        if row.quantity == "CRC width":
            value, label, note = width, "CRC width", "The link CRC's bits."
        else:
            value = terms[place] if place < len(terms) else -1
            label = f"term {place + 1} of the polynomial"
            note = (f"The generator {pcie_crc.LCRC_POLYNOMIAL:#010x} with its top term: "
                    + " + ".join(f"x^{k}" for k in terms) + ".")
            place += 1
        out.append(checks.compare(table, row.Index, "exponent", value, label, note,
                                  quantity=row.quantity, unit="", kind="prose", exact=True))
    return out


@checks.provider(pcie_latency)
def crc_polynomial_source_checks():
    """Intel 324611 §5.1: the DMA demo's 32-bit CRC and its Ethernet polynomial."""
    return crc_polynomial_checks(data.load("intel-324611-s5-1-crc"))


def ahb_address(physical: int) -> int:
    """The AHB address at which the FPGA reaches physical address ``physical`` of the CPU's RAM."""
    ram = INTEL_RAM_GIB * 2 ** 30
    if not 0 <= physical < ram:
        raise ValueError(f"physical address {physical:#x} is outside the {INTEL_RAM_GIB} GiB of RAM")
    return INTEL_AHB_PCIE_BASE + physical


def physical_address(ahb: int) -> int:
    """The physical address an AHB access to ``ahb`` reaches (the inverse of :func:`ahb_address`)."""
    ram = INTEL_RAM_GIB * 2 ** 30
    if not INTEL_AHB_PCIE_BASE <= ahb < INTEL_AHB_PCIE_BASE + ram:
        raise ValueError(f"AHB address {ahb:#x} is outside the PCIe slave range "
                         f"{INTEL_AHB_PCIE_BASE:#x}-{INTEL_AHB_PCIE_BASE + ram - 1:#x}")
    return ahb - INTEL_AHB_PCIE_BASE


_AHB_IN_QUANTITY = re.compile(r"0x[0-9A-Fa-f]+")


def s5_address_checks(table) -> list:
    """The addresses §5.4 and §5.5 derive (``intel-324611-s5-addresses``), each from the settings
    :data:`INTEL_RAM_GIB`, :data:`INTEL_AHB_PCIE_BASE` and :data:`INTEL_RESERVED_MIB` (``prose``, exact): the
    middle of the RAM and its AHB address, the physical address an AHB address names, the RAM's and the
    reservation's size as a power of two and in hexadecimal, and the reserved range's ends."""
    ram = INTEL_RAM_GIB * 2 ** 30
    reserved = INTEL_RESERVED_MIB * 2 ** 20
    rules = {
        "middle of the RAM": (ram // 2, f"Half of {INTEL_RAM_GIB} GiB."),
        "AHB address of the middle of the RAM": (
            ahb_address(ram // 2), f"The AHB's PCIe range starts at {INTEL_AHB_PCIE_BASE:#x} for physical 0."),
        "physical address an AHB access to": (
            None, f"Less the AHB's PCIe range base, {INTEL_AHB_PCIE_BASE:#x}."),
        "RAM size, power of two": (math.log2(ram), f"{INTEL_RAM_GIB} GiB in bytes, as a power of two."),
        "RAM size, hexadecimal": (ram, f"{INTEL_RAM_GIB} GiB in bytes."),
        "first address of the reserved upper": (ram - reserved, f"The top {INTEL_RESERVED_MIB} MiB of "
                                                f"{INTEL_RAM_GIB} GiB."),
        "last address of the reserved upper": (ram - 1, f"The last byte of {INTEL_RAM_GIB} GiB."),
        "reserved size, power of two": (math.log2(reserved), f"{INTEL_RESERVED_MIB} MiB in bytes, as a power of two."),
        "reserved size, hexadecimal": (reserved, f"{INTEL_RESERVED_MIB} MiB in bytes."),
    }
    out = []
    for row in table.itertuples():
        key = next(k for k in rules if row.quantity.startswith(k))
        value, note = rules[key]
        if value is None:
            value = physical_address(int(_AHB_IN_QUANTITY.search(row.quantity).group(), 16))
        out.append(checks.compare(table, row.Index, "value", value, f"§{row.section}: {row.quantity}",
                                  note, quantity=row.quantity, unit="", kind="prose", exact=True))
    return out


@checks.provider(pcie_latency)
def s5_address_source_checks():
    """Intel 324611 §5.4 and §5.5: the addresses and sizes of the address mapping and the DMA buffer."""
    return s5_address_checks(data.load("intel-324611-s5-addresses"))


def _intel_inputs():
    demo = dma_demo.parse(pt.published_log("intel-324611-s2-dma-demo.log"))
    ahb = {t: ahb_trace.parse(pt.published_log(AHB_LOGS[t])) for t in ("Test 2", "Test 3")}
    return demo, ahb


@checks.provider(pcie_latency)
def intel_dma_source_checks():
    """Intel 324611 §2, §5.5, §5.9 and §6: the utilization estimator, the dma-demo output, Table 3 and the
    summary's figures."""
    demo, ahb = _intel_inputs()
    table3 = data.load("intel-324611-table3")
    test14 = data.load("intel-324611-test14")
    return (utilization_checks(data.load("intel-324611-s2-utilization")) + dma_demo_checks(demo)
            + build_checks(kbuild.parse(pt.published_log(BUILD_LOG)))
            + table3_checks(table3, demo, ahb["Test 3"], ahb["Test 2"], test14, data.load("intel-324611-test15"),
                            data.load("intel-324611-s4-6-s4-7-trace-figures"))
            + s2_s6_figure_checks(data.load("intel-324611-s2-s6-figures"), demo, table3, test14, ahb["Test 2"],
                                  data.load("intel-324611-s4-figures")))


# --- the figures around the dma-demo's runs -----------------------------------------------------------

#: Which steps of the dma-demo's output the CPU does alone (no DMA, no PCIe): filling the buffer and the CRC.
_CPU_STEPS = ("Initializing dma_buf via CPU", "Calculating CRC of dma_buf via CPU")
_GHZ = re.compile(r"(?P<ghz>\d+(?:\.\d+)?)\s*GHz")


def setting(table, section: str, item: str) -> str:
    """The value a settings table (``intel-324611-s*-settings``) prints for ``item`` of ``section``."""
    found = table[(table["section"] == section) & (table["item"] == item)]
    if len(found) != 1:
        raise ValueError(f"{table.attrs['provenance']['resource']}: no single row {item!r} in §{section}")
    return str(found["value"].iloc[0])


def assumed_tsc_ghz(settings) -> float:
    """The TSC frequency dma-demo assumes when told to skip its calibration (§5.8, Table 2's ``-c``), GHz."""
    text = setting(settings, "5.8", "TSC frequency the -c option assumes")
    m = _GHZ.fullmatch(text)
    if not m:
        raise ValueError(f"{settings.attrs['provenance']['resource']}: {text!r} is not a frequency in GHz")
    return float(m["ghz"])


def _steps(demo: dma_demo.DmaDemo):
    """Per test of the output, its CPU-only steps and its transfer timed in user space (via the TSC)."""
    out = {}
    for test, rows in demo.results.groupby("test", sort=False):
        cpu = [r for r in rows.itertuples() if r.step.startswith(_CPU_STEPS)]
        tsc = [r for r in rows.itertuples() if "TSC" in r.step and r.seconds != ""]
        if len(tsc) != 1:
            raise ValueError(f"{demo.path}: test {test} has {len(tsc)} transfers timed via the TSC, not one")
        out[test] = (rows["title"].iloc[0].removeprefix("DMA ").upper(), cpu, tsc[0])
    return out


def run_seconds(demo: dma_demo.DmaDemo) -> float:
    """Seconds the steps of a dma-demo run take at least: each CPU-only step (the buffer's bytes at its rate)
    and each transfer as the TSC timed it; the calibration, the checks and the printing are not counted."""
    nbytes = dma_demo.buffer_bytes(demo)
    return sum(sum(seconds_for(nbytes, float(r.mbyte_s)) for r in cpu) + float(tsc.seconds)
               for _, cpu, tsc in _steps(demo).values())


def full_run_seconds(demo: dma_demo.DmaDemo, table3) -> float:
    """Seconds dma-demo takes at least without options (§5.7's four tests): the DMA tests of ``demo``, and the
    CPU tests doing the same CPU-only steps with the transfer at Table 3's CPU rate for its direction."""
    nbytes = dma_demo.buffer_bytes(demo)
    cpu_rates = {r.direction: float(r.throughput_mbyte_s) for r in table3.itertuples() if r.initiator == "CPU"}
    again = sum(sum(seconds_for(nbytes, float(r.mbyte_s)) for r in cpu) + seconds_for(nbytes, cpu_rates[direction])
                for direction, cpu, _ in _steps(demo).values())
    return run_seconds(demo) + again


def demo_step_checks(demo: dma_demo.DmaDemo, settings) -> list:
    """The dma-demo output's CPU-only steps against §5.7's note (``consistency``): the CPU fills the buffer
    faster than the DMA controller moves it (the CPU's bandwidth to its RAM is the greater), yet computes the
    CRC slower than the transfer that has the FPGA compute it; and the TSC frequency the program measured
    against the one it assumes without calibration (§5.8, Table 2)."""
    resource = "logs/published/intel-324611-s2-dma-demo.log"
    out = []
    for direction, cpu, tsc in _steps(demo).values():
        for r in cpu:
            filling = r.step.startswith(_CPU_STEPS[0])
            out.append(checks.check(
                "Intel 324611", "§2 dma-demo output",
                f"{direction}, {'filling the buffer' if filling else 'CRC of the buffer'} via CPU against the transfer",
                "rate", "MB/s", r.mbyte_s, float(tsc.mbyte_s),
                (f"The same buffer's transfer ({tsc.mbyte_s} MByte/sec via TSC): the CPU's bandwidth to its RAM "
                 "is the greater (§5.7)." if filling else
                 f"The transfer that has the FPGA compute the CRC ({tsc.mbyte_s} MByte/sec via TSC) is the more "
                 "efficient (§5.7)."), resource, kind="consistency", relation=">=" if filling else "<="))
    if demo.tsc_ghz:
        out.append(checks.check(
            "Intel 324611", "§2 dma-demo output", "TSC frequency determined", "frequency", "GHz",
            demo.tsc_ghz, assumed_tsc_ghz(settings),
            "The frequency dma-demo assumes when its calibration is skipped (-c, §5.8 Table 2).", resource,
            kind="consistency", otherwise="unexplained"))
    return out


def _link_capacity():
    """PCIe 1.1 x1's bytes a second after 8b/10b, one direction (MB/s), and its formula."""
    link = pt.INTEL_LINK
    rate = link.generation.rate_gtps
    c = coding.CODES["8b10b"]
    formula = (sp.Rational(1000, 8) * coding.bit_rate_expr(),
               {coding.line_rate: rate, coding.lanes: link.lanes, coding.data_bits: c.data_bits,
                coding.coded_bits: c.coded_bits})
    return 1000 * coding.byte_rate_gbyte_s(rate, link.lanes, "8b10b"), formula


def measured_figure_checks(table, demo: dma_demo.DmaDemo, table3, figures) -> list:
    """The figures of ``intel-324611-measured-figures``, each against what it follows from: §2's kernel
    parameters against the reservation of §5.5, §2's and §5.8's run times against the steps of §2's output
    (and Table 3's CPU rates for the CPU tests), §3.6's bandwidth against 8b/10b on the link, §4.18's TSC read
    against one period of the TSC, §5.5's 'slightly less than' against /proc/iomem's buffer, and §6's core
    latency against the write latency §6 estimates (``intel-324611-s2-s6-figures``)."""
    ram, reserved, mib = INTEL_RAM_GIB * 2 ** 30, INTEL_RESERVED_MIB * 2 ** 20, 2 ** 20
    write_ns = float(figures.loc[figures["quantity"] == "write latency estimate", "value"].iloc[0])
    capacity, capacity_formula = _link_capacity()
    tsc_ns = 1 / float(demo.tsc_ghz)
    buffer_mib = (INTEL_IOMEM_BUFFER[1] - INTEL_IOMEM_BUFFER[0] + 1) / mib
    rules = {
        "memory the kernel keeps (mem=)": (
            (ram - reserved) / mib, f"The RAM below the reservation: {INTEL_RAM_GIB} GiB less the upper "
            f"{INTEL_RESERVED_MIB} MiB (§5.5).", {}),
        "start of the RAM memmap= reserves": (
            ram - reserved, f"The upper {INTEL_RESERVED_MIB} MiB of {INTEL_RAM_GIB} GiB start there (§5.5).",
            {"exact": True}),
        "run time of dma-demo with the DMA tests only, approx.": (
            run_seconds(demo), "At least its steps in the output (-3 -4): the CPU-only ones at their rates and "
            "the transfers as the TSC timed them.", {"relation": ">="}),
        "bandwidth of the PCIe connection": (capacity, "After 8b/10b, one direction (§3.1).", {}),
        "minimum time of a TSC read, about": (
            tsc_ns, f"One period of the TSC at the {demo.tsc_ghz} GHz dma-demo determined (§2).",
            {"relation": ">="}),
        "reserved RAM, slightly less than": (
            buffer_mib, "The DMA Demo Buffer of /proc/iomem, {:#x}-{:#x} (Figure 18).".format(*INTEL_IOMEM_BUFFER),
            {"relation": ">="}),
        "run time of dma-demo without parameters, approximately": (
            full_run_seconds(demo, table3) / 60, "At least §2's run and the CPU tests' steps, their transfers at "
            "Table 3's CPU rates; 'approximately' read as to the nearest minute.", {"approximate": 1}),
        "latency through the AHB-PCIe core itself (simulation), about": (
            write_ns, f"A part of the write's path takes no longer than the whole write, {write_ns:g} ns by §6's "
            "estimate.",
            {"relation": "<="}),
    }
    out = []
    for row in table.itertuples():
        value, note, extra = rules[row.quantity]
        calculated = row.quantity == "bandwidth of the PCIe connection"
        out.append(checks.compare(
            table, row.Index, "value", value, f"§{row.section}: {row.quantity}", note,
            quantity=row.quantity, unit=row.unit if pd.notna(row.unit) else "",
            kind="calculated" if calculated else "consistency",
            formula=capacity_formula if calculated else None, **extra))
    return out


@checks.provider(pcie_latency)
def intel_measured_figure_source_checks():
    """Intel 324611 §2, §3.6, §4.18, §5.5, §5.8 and §6: the figures around the dma-demo's runs, and the
    output's CPU-only steps against §5.7."""
    demo, _ = _intel_inputs()
    settings = data.load("intel-324611-s5-s6-settings")
    return (demo_step_checks(demo, settings)
            + measured_figure_checks(data.load("intel-324611-measured-figures"), demo,
                                     data.load("intel-324611-table3"), data.load("intel-324611-s2-s6-figures")))
