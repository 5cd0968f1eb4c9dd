"""Freescale AN3935 (PCI Express throughput of the MSC8156 and MSC8157 DSPs) against the packet model
(:mod:`goodput.models.pcie`), for the pcie-packets chapter: Tables 2-5 (the bandwidths AN3935 calculates, their
printed calculations and the packets their notes count), the calculated columns beside the measurements of
Tables 7-12, 15 and 16, Table 1's transfer rates, and every number of the text of Sections 1-8.
"""

from __future__ import annotations

import re
from dataclasses import replace

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.core.errors import DataError, ParameterError
from goodput.models import coding, pcie, pcie_crc
from goodput.models.pcie import (
    AN3935_DEVICES,
    AN3935_LABELS,
    DUPLEX_DIRECTIONS,
    GENERATIONS,
    SIZES_POW2,
    Link,
    an3935_link,
    dllp,
    dllp_count_expr,
    goodput_formula,
    goodput_gbit_s,
    header,
    link_substitution,
    mps,
    payload,
    request_count_expr,
    tlp_count_expr,
    tlp_overhead_formula,
)

__all__ = ["AN3935_MEASURED", "an3935_tables", "an3935_transfer_rate", "an3935_bit_rate",
           "an3935_transfer_rate_checks", "share_percent", "counted", "an3935_data_tlps_per_ack", "mps_code_expr",
           "mps_code", "devctl_field", "an3935_text_checks", "an3935_text", "sized", "an3935_note_checks",
           "calculation_terms", "calculation_sizes", "an3935_calculation_sizes", "an3935_calculation_checks",
           "an3935_calculations", "an3935_notes"]

#: AN3935's measured tables (Tables 7-12, 15, 16, with the calculated columns beside them), stored long:
#: one row per printed cell, its conditions in the columns device, transfer, series, lanes, mps_bytes and
#: dma_channels, the cell in gbit_s.
AN3935_MEASURED = tuple(f"an3935-table{n}" for n in (7, 8, 9, 10, 11, 12, 15, 16))


@checks.provider(pcie)
def an3935_tables():
    """AN3935 Tables 2-5, the calculated columns of Tables 7-12, 15 and 16, and Table 1's transfer rates,
    against the packet model."""
    out = []
    for number, device, kind in ((2, "MSC8156", "write"), (3, "MSC8157", "write"),
                                 (4, "MSC8156", "read"), (5, "MSC8157", "read")):
        t = data.load(f"an3935-table{number}")
        link = an3935_link(device)
        for row in t.itertuples():
            out.append(checks.compare(t, row.Index, "bandwidth_gbit_s",
                                      goodput_gbit_s(kind, link, row.bytes, duplex=True),
                                      f"{row.bytes_as_printed} bytes",
                                      formula=goodput_formula(kind, link, row.bytes, duplex=True)))

    # The calculated columns beside AN3935's measurements: each row's device, transfer, lanes and MPS
    # are the link; the quantity names the series and the conditions its printed column differs in.
    for name in AN3935_MEASURED:
        t = data.load(name)
        quantities = data.varying(t, AN3935_LABELS, within=["series"])
        for row in t[t["series"] == "calculated"].itertuples():
            link = an3935_link(row.device, row.lanes, row.mps_bytes)
            any_kind = replace(link, dllp="every-any:4")
            label = f"{row.bytes_as_printed} bytes, x{row.lanes}, MPS {row.mps_bytes}"
            model = goodput_gbit_s(row.transfer, link, row.bytes, duplex=True)
            other = goodput_gbit_s(row.transfer, any_kind, row.bytes, duplex=True)
            rule = checks.Convention(
                "Table 4's rule (one ACK + UpdateFC per 4 completions) gives {model:.2f}; this column counts them "
                "per 4 TLPs of any kind, read requests included, the document's other rule for the same transfer",
                other) if row.transfer == "read" else None
            quantity = ", ".join(filter(None, (row.series, quantities[row.Index])))
            out.append(checks.compare(t, row.Index, "gbit_s", model, label, quantity=quantity,
                                      formula=goodput_formula(row.transfer, link, row.bytes, duplex=True),
                                      convention=rule))

    out += an3935_transfer_rate_checks(data.load("an3935-table1"))
    return out


def an3935_transfer_rate(device: str) -> float:
    """The transfer rate per lane (GT/s) of the generation ``device`` implements (AN3935 Sec. 1)."""
    return GENERATIONS[AN3935_DEVICES[device]].rate_gtps


def an3935_bit_rate(device: str, lanes: int = 4, directions: int = 1) -> float:
    """The bit rate after 8b/10b of ``lanes`` lanes of ``device``, in ``directions`` directions (Eq. 1)."""
    link = an3935_link(device, lanes)
    return directions * coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes, link.code)


def an3935_transfer_rate_checks(t) -> list:
    """AN3935 Table 1 (``t``: ``an3935-table1``) prints each device's transfer rate once, in the label of its
    row: each against the rate of the generation AN3935 gives the device (:func:`an3935_transfer_rate`)."""
    return [checks.compare(t, rows.index[0], "transfer_rate_gbaud", an3935_transfer_rate(device),
                           device, kind="prose", note="PCIe gen{} signals at {{model:g}} GT/s.".format(
                               AN3935_DEVICES[device]))
            for device, rows in t.groupby("device", sort=False)]


def share_percent(part: float, whole: float) -> float:
    """``part`` as a percentage of ``whole``."""
    return 100 * part / whole


def counted(notes: str, what: str) -> int:
    """The number of ``what`` (``"TLP"``, ``"MRd"``, ``"CpID"``, ``"ACK"``, ``"FC"``) a note of AN3935
    Tables 2-5 counts: ``counted("8 TLP, 2 ACK, 2 FC", "ACK")`` is 2."""
    match = re.search(rf"(?<![\w.])(\d+) ?{re.escape(what)}\b", notes)
    if match is None:
        raise ValueError(f"the note {notes!r} counts no {what}")
    return int(match.group(1))


def an3935_data_tlps_per_ack(table) -> float:
    """The data TLPs (MWr, or CplD of a read) per ACK that a table of AN3935 Tables 2-5 counts in its
    note on the largest transfer."""
    row = table.loc[table["bytes"].idxmax()]
    data_tlps = "TLP" if "TLP" in row.notes else "CpID"
    return counted(row.notes, data_tlps) / counted(row.notes, "ACK")


def mps_code_expr() -> sp.Expr:
    """The code of a max payload size of ``MPS`` bytes in the Device Control register's Max_Payload_Size
    field: 0 for the smallest size (128 bytes), one more for each doubling."""
    return sp.log(mps / min(SIZES_POW2), 2)


def mps_code(mps_bytes: int) -> int:
    """:func:`mps_code_expr` for ``mps_bytes``: 1 for 256 bytes; an error for a size the field cannot hold."""
    code = sp.simplify(mps_code_expr().subs(mps, mps_bytes))
    if not (code.is_integer and code >= 0):
        raise ParameterError("mps_bytes", mps_bytes, "128 bytes times a power of 2")
    return int(code)


def devctl_field(devctl) -> tuple[int, int]:
    """The highest and lowest bit of the Max_Payload_Size field that ``devctl`` (the published
    ``linux-pci-regs-devctl``) gives, after checking that each of its rows encodes its size as
    :func:`mps_code_expr` does."""
    for r in devctl.itertuples():
        if mps_code(r.bytes) != r.code:
            raise ValueError(f"linux-pci-regs-devctl: code {r.code} for {r.bytes} bytes is not mps_code_expr's")
    bits = set(zip(devctl["high_bit"], devctl["low_bit"]))
    if len(bits) != 1:
        raise ValueError(f"linux-pci-regs-devctl: the field's bits differ between rows: {sorted(bits)}")
    high, low = bits.pop()
    return int(high), int(low)


#: Units of AN3935's text whose numbers are counts (of bits, bytes, packets), where one off is off.
_COUNTED_UNITS = ("bit", "bits", "bytes", "binary", "directions", "TLPs")


def an3935_text_checks(text, write_table, read_table, msc8156_sizes, msc8157_sizes, devctl=None) -> list:
    """Each number of AN3935's text (the published ``an3935-text``) recomputed from the parts it names:
    rates from the generation, sizes from the packet model, the large-transfer bandwidth and its share of the
    bit rate from the model at the largest size, the TLPs per ACK from the notes of Tables 2 and 4 (the
    ``write_table`` and ``read_table``), the range of sizes from the measured tables, the bits of the
    Max_Payload_Size field from ``devctl`` (``linux-pci-regs-devctl``, loaded if not given) and its code for
    the MPS AN3935 sets, in binary as the document prints it; the bits of a DLLP's CRC from the CRC
    :mod:`goodput.models.pcie_crc` computes (whose bytes the Intel traces' DLLPs reproduce)."""
    high, low = devctl_field(data.load("linux-pci-regs-devctl") if devctl is None else devctl)
    code = coding.CODES["8b10b"]
    link = an3935_link("MSC8156")
    sizes = link_substitution(link)
    largest = int(write_table["bytes"].max())
    large = {kind: goodput_gbit_s(kind, link, largest, duplex=True) for kind in ("write", "read")}
    full = an3935_bit_rate("MSC8156", directions=2)
    overhead = tlp_overhead_formula(link)
    kib = 1024

    def value(key: str):
        kind = key.split("-")[0]
        if key.endswith(("transfer-rate", "clock", "lane-rate")):
            return an3935_transfer_rate("MSC8157" if "msc8157" in key else "MSC8156"), None
        if key.endswith(("character-bits", "data-bits")):
            return code.data_bits, None
        if key.endswith(("symbol-bits", "coded-bits")):
            return code.coded_bits, None
        if key.endswith("-directions"):
            return DUPLEX_DIRECTIONS, None
        if key.endswith("mps-field-high-bit"):
            return high, None
        if key.endswith("mps-field-low-bit"):
            return low, None
        if key.endswith("mps-code"):  # the field's bits as printed: 001 for code 1, read back as a number
            return int(format(mps_code(link.mps), f"0{high - low + 1}b")), None
        if key == "bit-rate-share":
            return share_percent(code.data_bits, code.coded_bits), None
        if key == "header-32-bit":
            return sizes[header], None
        if key == "header-64-bit-extra":
            return link_substitution(replace(link, addr=64))[header] - sizes[header], None
        if key.endswith(("tlp-overhead", "request-overhead")):
            return float(overhead[0].subs(overhead[1])), overhead
        if key.endswith(("ack-size", "fc-size", "dllp-size")):
            return sizes[dllp], None
        if key == "dllp-crc-bits":  # the CRC pcie_crc computes, which reproduces every DLLP CRC of Intel's traces
            return 8 * len(pcie_crc.dllp_crc(bytes(4))), None
        if key.endswith("tlps-per-update"):
            return an3935_data_tlps_per_ack(write_table if kind == "write" else read_table), None
        if key.endswith("large-bandwidth"):
            return large[kind], goodput_formula(kind, link, largest, duplex=True)
        if key.endswith("-share"):
            return share_percent(large[kind], full), None
        if key.endswith("full-duplex-bit-rate"):
            return full, None
        if key == "write-one-direction-bit-rate":
            return an3935_bit_rate("MSC8156"), None
        if key.endswith(("smallest-transfer", "largest-transfer")):
            table = msc8156_sizes if key.startswith("msc8156") else msc8157_sizes
            return (table["bytes"].min(), None) if "smallest" in key else (table["bytes"].max() / kib, None)
        raise KeyError(f"an3935-text: no model for the number {key!r}")

    out = []
    prov = text.attrs["provenance"]
    for row in text.itertuples():
        model, formula = value(row.id)
        out.append(checks.check(prov["document"], f"§{row.section.split()[0]}", row.id,
                                row.quote, row.unit, text.attrs["printed"]["value"][row.Index], model,
                                resource=prov["resource"], formula=formula, kind="prose",
                                exact=row.unit in _COUNTED_UNITS))
    return out


@checks.provider(pcie)
def an3935_text():
    """AN3935's text, Sections 1-8: every number it states, recomputed through the packet model."""
    return an3935_text_checks(*(data.load(f"an3935-{name}") for name in ("text", "table2", "table4", "table7",
                                                                           "table15")))


def sized(notes: str, what: str) -> str | None:
    """The size in bytes, as printed, a note of AN3935 Tables 2-5 gives in brackets after ``what``
    (``sized("1 TLP (20), 1 ACK (8)", "ACK")`` is ``"8"``), or None where it gives none."""
    match = re.search(rf"\d+ ?{re.escape(what)} \((\d+)\)", notes)
    return match.group(1) if match else None


def _substituted(expr, link: Link, size: int) -> tuple[float, tuple]:
    """``expr`` for ``link`` and ``size`` bytes: its value, and ``(expr, values)`` for a check to print."""
    values = {**link_substitution(link), payload: size}
    values = {s: v for s, v in values.items() if s in expr.free_symbols}
    return float(expr.subs(values)), (expr, values)


def an3935_note_checks(table, device: str, kind: str) -> list:
    """Each count (and size) of packets the notes of AN3935 Table 2-5 (``table``, of ``device``'s ``kind``
    of transfer) print, recomputed by the packet model as the document counts (ACK and UpdateFC per 4 data
    TLPs, completions split at MPS, one read request per MRRS)."""
    link = an3935_link(device)
    data_tlps = tlp_count_expr(kind, link.split)
    counts = {"TLP": data_tlps} if kind == "write" else {"MRd": request_count_expr(), "CpID": data_tlps}
    counts |= {"ACK": dllp_count_expr(kind), "FC": dllp_count_expr(kind)}
    names = {"TLP": "MWr TLPs", "MRd": "read requests (MRd)", "CpID": "completions (CplD, printed CpID)",
             "ACK": "ACK DLLPs", "FC": "UpdateFC DLLPs"}
    sizes = {"TLP": tlp_overhead_formula(link), "ACK": (dllp, {dllp: link_substitution(link)[dllp]}),
             "FC": (dllp, {dllp: link_substitution(link)[dllp]})}
    prov = table.attrs["provenance"]
    out = []
    for row in table[table["notes"] != ""].itertuples():
        label = f"{row.bytes_as_printed} bytes"

        def add(quantity, unit, printed, model, formula):
            out.append(checks.check(prov["document"], prov["table"], label, quantity, unit, printed,
                                    model, resource=prov["resource"], formula=formula, kind="prose"))

        for what, expr in counts.items():
            model, formula = _substituted(expr, link, row.bytes)
            add(f"{names[what]} counted in the notes", "", str(counted(row.notes, what)), model, formula)
            if what in sizes and sized(row.notes, what) is not None:
                expr_, values = sizes[what]
                add(("TLP overhead" if what == "TLP" else f"size of each of the {names[what]}") + " in the notes",
                    "bytes", sized(row.notes, what),
                    float(expr_.subs(values)), (expr_, values))
    return out


_CALCULATION = re.compile(r"\s*(?P<rate>\d+)\s*\*\s*(?P<size>\d+ ?K?)\s*/\s*\((?P<sum>[^()]*)\)\s*\*\s*(?P<directions>\d+)\s*")
_TERM = re.compile(r"\s*(?:(?P<count>\d+)\s*\*\s*)?(?P<bytes>\d+ ?K?)\s*")


def calculation_terms(text: str) -> tuple[str, str, list[tuple[str | None, str]], str]:
    """The parts of a calculation as AN3935 Tables 2-5 print it, ``"8 * 1K / (1K + 4*20 + 8 + 8) * 2"``:
    ``(rate, size, terms, directions)`` as printed, ``terms`` the overhead added to the size, each
    ``(count or None, bytes)``: ``("8", "1K", [("4", "20"), (None, "8"), (None, "8")], "2")``."""
    match = _CALCULATION.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a calculation of the form 'rate * size / (size + overhead) * 2'")
    size, *terms = match["sum"].split("+")
    parsed = [_TERM.fullmatch(t) for t in terms]
    if _TERM.fullmatch(size) is None or not terms or None in parsed:
        raise ValueError(f"{text!r}: the sum {match['sum']!r} is not the size plus terms 'count*bytes' or 'bytes'")
    return match["rate"], match["size"].strip(), [(t["count"], t["bytes"].strip()) for t in parsed], match["directions"]


def calculation_sizes(text: str) -> tuple[str, str]:
    """The two places a calculation of AN3935 Tables 2-5 prints its transfer size, as printed: the size the
    bit rate is multiplied by and the first term of the sum it is divided by
    (``"8 * 1K / (1K + 4*20 + 8 + 8) * 2"`` -> ``("1K", "1K")``). The tables keep both in columns of their own,
    settings of the row, which :func:`an3935_calculation_sizes` holds to the calculation's text."""
    _, size, _, _ = calculation_terms(text)
    return size, _CALCULATION.fullmatch(text)["sum"].split("+")[0].strip()


def an3935_calculation_sizes(table) -> None:
    """Raise :class:`~goodput.core.errors.DataError` naming the row if a row of AN3935 Table 2-5 (``table``) keeps
    a transfer size in its columns ``calculation_size_as_printed`` and ``calculation_sum_size_as_printed``
    other than the one its calculation prints there (:func:`calculation_sizes`)."""
    prov = table.attrs["provenance"]
    for row in table.itertuples():
        printed = calculation_sizes(row.calculation_as_printed)
        kept = (row.calculation_size_as_printed, row.calculation_sum_size_as_printed)
        if kept != printed:
            raise DataError(f"{prov['resource']} {row.bytes_as_printed} bytes: the calculation "
                            f"{row.calculation_as_printed!r} prints the sizes {printed}, the columns keep {kept}")


def an3935_calculation_checks(table, device: str, kind: str) -> list:
    """The numbers in the calculations AN3935 Tables 2-5 print (``table``, of ``device``'s ``kind`` of
    transfer), recomputed by the packet model: the bit rate, the TLPs and their overhead (the terms before
    the last two; a read's second term is its read request's), the ACK and the UpdateFC DLLPs and their size
    (the last two terms), and the directions the result is multiplied by. The transfer size, printed twice,
    is the row's setting: the bandwidth check (:func:`an3935_tables`) takes it as its input."""
    link = an3935_link(device)
    values = link_substitution(link)
    data_tlps = tlp_count_expr(kind, link.split)
    tlps = data_tlps if kind == "write" else data_tlps + request_count_expr()
    per_tlp = tlp_overhead_formula(link)
    prov = table.attrs["provenance"]
    out = []
    for row in table.itertuples():
        rate, _, terms, directions = calculation_terms(row.calculation_as_printed)
        if len(terms) < 3:
            raise ValueError(f"{prov['resource']} {row.bytes_as_printed}: {row.calculation_as_printed!r} adds no "
                             "ACK and UpdateFC terms after the TLPs'")

        def add(quantity, unit, printed, model, formula=None, exact=False):
            out.append(checks.check(prov["document"], prov["table"], f"{row.bytes_as_printed} bytes",
                                    f"{quantity} in the calculation", unit, printed, model,
                                    resource=prov["resource"], formula=formula, kind="prose", exact=exact))

        add("bit rate", "Gbit/s", rate, an3935_bit_rate(device))
        (count, overhead), dllps = terms[0], terms[-2:]
        if len(terms) == 3 and count is not None:  # one term for every TLP: "4*20"
            add("TLPs" if kind == "write" else "TLPs (MRd and CplD)", "", count, *_substituted(tlps, link, row.bytes))
        add("TLP overhead", "bytes", overhead, float(per_tlp[0].subs(per_tlp[1])), per_tlp)
        if kind == "read" and len(terms) == 4:  # the completion's term, then the read request's: "20+ 20"
            add("read request overhead", "bytes", terms[1][1], float(per_tlp[0].subs(per_tlp[1])), per_tlp)
        add("directions", "", directions, DUPLEX_DIRECTIONS, exact=True)
        for name, (count, size) in zip(("ACK", "UpdateFC"), dllps):
            if count is not None:
                add(f"{name} DLLPs", "", count, *_substituted(dllp_count_expr(kind), link, row.bytes))
            add(f"{name} DLLP size", "bytes", size, values[dllp], (dllp, {dllp: values[dllp]}))
    return out


@checks.provider(pcie)
def an3935_calculations():
    """AN3935 Tables 2-5: the numbers in their printed calculations (the transfer sizes in them are the rows'
    settings, kept in columns of their own that must be the calculation's: :func:`an3935_calculation_sizes`)."""
    out = []
    for number, device, kind in ((2, "MSC8156", "write"), (3, "MSC8157", "write"),
                                 (4, "MSC8156", "read"), (5, "MSC8157", "read")):
        table = data.load(f"an3935-table{number}")
        an3935_calculation_sizes(table)
        out += an3935_calculation_checks(table, device, kind)
    return out


@checks.provider(pcie)
def an3935_notes():
    """AN3935 Tables 2-5: the packets their notes count."""
    return [c for number, device, kind in ((2, "MSC8156", "write"), (3, "MSC8157", "write"),
                                           (4, "MSC8156", "read"), (5, "MSC8157", "read"))
            for c in an3935_note_checks(data.load(f"an3935-table{number}"), device, kind)]
