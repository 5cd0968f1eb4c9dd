"""Freescale AN3935 (PCI Express throughput of the MSC8156 and MSC8157 DSPs), the measured cells of Tables 7-12,
15 and 16, for the pcie-measured chapter (whose model is :mod:`goodput.models.pcie_latency`): each against the most
the document's own packet model (:mod:`goodput.models.pcie`) lets its link carry with no DLLPs (``ceiling``), and
against the document's other measurements of the same link (``consistency``).
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from goodput import checks
from goodput.core import data
from goodput.models import coding, pcie, pcie_latency

__all__ = ["an3935_mps_back_to_back", "an3935_link_widths", "an3935_label", "an3935_ceiling", "an3935_line_rate",
           "an3935_ceiling_checks", "an3935_column", "an3935_order_checks", "an3935_reprint_checks",
           "an3935_same_wire_spread", "AN3935_ONE_TLP_BYTES", "an3935_mps_back_to_back_checks",
           "an3935_link_width_checks"]


# --- source checks: AN3935's measured tables against the packet model's ceilings and each other -------

def an3935_label(row) -> str:
    """How a check names a row of AN3935's long tables: ``"1 K bytes, x4, MPS 256"``."""
    return f"{row.bytes_as_printed} bytes, x{row.lanes}, MPS {row.mps_bytes}"


def _measured(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["series"] == "measured"]


def _quantities(table: pd.DataFrame) -> pd.Series:
    """Per row, its series and the conditions its printed column differs in: ``"measured, MPS 128"``."""
    varying = data.varying(table, pcie.AN3935_LABELS, within=["series"])
    return pd.Series([", ".join(filter(None, (s, v))) for s, v in zip(table["series"], varying)], index=table.index)


def an3935_ceiling(row, requests: bool = True) -> tuple[float, tuple]:
    """``(Gbit/s, formula)``: the most AN3935's own model lets a row's link carry, with no DLLPs at all, both
    directions counted as the document counts them (Eq. 2-5). ``requests=False`` leaves a read's requests out
    of its completions' direction: a read in one direction only sends them the other way."""
    link = replace(pcie.an3935_link(row.device, row.lanes, row.mps_bytes), dllp="none")
    if requests:
        return (pcie.goodput_gbit_s(row.transfer, link, row.bytes, duplex=True),
                pcie.goodput_formula(row.transfer, link, row.bytes, duplex=True))
    return (2 * pcie.goodput_gbit_s(row.transfer, link, row.bytes),
            pcie.goodput_formula(row.transfer, link, row.bytes, scale=2))


def an3935_line_rate(row) -> float:
    """The bit rate of a row's link after 8b/10b, both directions counted (AN3935 Table 1 times 2)."""
    link = pcie.an3935_link(row.device, row.lanes, row.mps_bytes)
    return 2 * coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes, link.code)


def _above_ceiling_note(row) -> str:
    """Why a measured value above its ceiling is there, as far as the document's own numbers tell."""
    if row.transfer == "read" and row.gbit_s <= an3935_ceiling(row, requests=False)[0]:
        return ("Above the most the document's read model (Eq. 4-5: each direction carries its read requests "
                "beside the completions) allows with no DLLPs at all. The measurement reads in one direction "
                "only, so the completions' direction carries no requests; without them the value keeps to its "
                "ceiling: Eq. 4-5 do not fit the reads the document measured.")
    if row.gbit_s > an3935_line_rate(row):
        return ("Above the bit rate of both directions of this link (Table 1 times two), with no packet "
                "overhead at all: no transfer on this link can be measured this fast.")
    return "Above the most this link carries by the document's own model with no DLLPs at all."


def an3935_ceiling_checks(table: pd.DataFrame) -> list[checks.SourceCheck]:
    """Each measured cell of an AN3935 table against the most its link carries with no DLLPs (``<=``)."""
    quantities = _quantities(table)
    out = []
    for row in _measured(table).itertuples():
        ceiling, formula = an3935_ceiling(row)
        out.append(checks.compare(
            table, row.Index, "gbit_s", ceiling, an3935_label(row), quantity=quantities[row.Index],
            note="At most the document's own model of this link with no DLLPs (Eq. 2-5).",
            off_note=_above_ceiling_note(row), formula=formula, kind="ceiling", relation="<="))
    return out


def an3935_column(table: pd.DataFrame, **conditions) -> pd.DataFrame:
    """The measured rows of one printed column (``lanes=2``, ``dma_channels=4``), indexed as in ``table``,
    in order of size."""
    rows = _measured(table)
    for column, value in conditions.items():
        rows = rows[rows[column] == value]
    if rows.empty or rows["bytes"].duplicated().any():
        raise ValueError(f"{table.attrs['provenance']['resource']}: {conditions} is not one printed column")
    return rows.sort_values("bytes")


def an3935_order_checks(table: pd.DataFrame, column: str, lower, higher, why: str,
                        spread: checks.Spread | None = None) -> list[checks.SourceCheck]:
    """Each cell of the measured column ``column == lower`` at most the cell of the same size in the column
    ``column == higher`` (``why`` says why, the document's claim; ``spread`` what run-to-run variation
    forgives)."""
    low, high = an3935_column(table, **{column: lower}), an3935_column(table, **{column: higher})
    if list(low["bytes"]) != list(high["bytes"]):
        raise ValueError(f"{table.attrs['provenance']['resource']}: {column} {lower} and {higher} differ in sizes")
    quantities = _quantities(table)
    other = pcie.AN3935_LABELS[column].format(higher)
    return [checks.compare(table, a.Index, "gbit_s", b.gbit_s, an3935_label(a), quantity=quantities[a.Index],
                           note=f"At most the {other} column's {{model:.2f}}: {why}", kind="consistency",
                           relation="<=", spread=spread)
            for a, b in zip(low.itertuples(), high.itertuples())]


def an3935_reprint_checks(table: pd.DataFrame, first: pd.DataFrame, column: dict, first_column: dict,
                          why: str) -> list[checks.SourceCheck]:
    """Each cell of the measured column ``column`` of ``table`` equal to the same size in ``first_column`` of
    the table ``first`` that printed the same measurement before (``why`` says why it is the same)."""
    again, before = an3935_column(table, **column), an3935_column(first, **first_column)
    if list(again["bytes"]) != list(before["bytes"]):
        raise ValueError("the two printings differ in sizes")
    quantities = _quantities(table)
    where = first.attrs["provenance"]["table"]
    return [checks.compare(table, a.Index, "gbit_s", b.gbit_s, an3935_label(a), quantity=quantities[a.Index],
                           note=f"The same measurement as {where}'s: {why}", kind="consistency")
            for a, b in zip(again.itertuples(), before.itertuples())]


#: The most bytes one TLP carries under either MPS AN3935 measures with: such a transfer is the same on the wire.
AN3935_ONE_TLP_BYTES = 128


def an3935_same_wire_spread(table: pd.DataFrame) -> checks.Spread:
    """The run-to-run variation an AN3935 MPS table shows: transfers of up to 128 bytes are one TLP under
    MPS 256 and MPS 128 alike, so its two measured columns measure the same traffic there twice."""
    a, b = an3935_column(table, mps_bytes=256), an3935_column(table, mps_bytes=128)
    pairs = [(x, y) for x, y in zip(a.itertuples(), b.itertuples()) if x.bytes <= AN3935_ONE_TLP_BYTES]
    amount = max(abs(x.gbit_s - y.gbit_s) for x, y in pairs)
    where = table.attrs["provenance"]["table"]
    return checks.Spread(amount, f"{where} measures transfers of {pairs[0][0].bytes_as_printed} to "
                                 f"{pairs[-1][0].bytes_as_printed} bytes, one TLP under either MPS, twice (MPS 256 "
                                 f"and 128), and the two runs differ by up to {amount:.2f} Gbit/s")


_EIGHT_CHANNELS = ("x4, MPS 256 and 8 DMA channels back to back: Sec. 7.3 says every test before it activated "
                   "8 DMA channels")
_RUN_TOGETHER = (" The conversion ran Tables 7, 9 and 11 together; their reconstruction used this equality, "
                 "which the intact Tables 8, 10 and 12 show in the same way.")
_MPS_WHY = ("Sec. 7.2 says a smaller MPS lowers bandwidth (more TLPs, more overhead); up to 128 bytes the "
            "traffic is the same.")
_CHANNELS_WHY = ("Sec. 7.3: requests issued back to back fill the time a single one waits, so more in flight "
                 "never carry less.")


def an3935_mps_back_to_back_checks(t7, t8, t9, t10, t11, t12) -> list[checks.SourceCheck]:
    """Tables 9-12 (MPS, back to back): their measured cells against their ceilings, the MPS-128 column
    against the MPS-256 one, each back-to-back column against the one with more in flight, and the columns
    Tables 7 and 8 print again."""
    out = []
    for table in (t9, t10, t11, t12):
        out += an3935_ceiling_checks(table)
    for table, other, widths in ((t9, t10, t7), (t10, t9, t8)):
        out += an3935_reprint_checks(table, widths, {"mps_bytes": 256}, {"lanes": 4}, _EIGHT_CHANNELS + "."
                                     + (_RUN_TOGETHER if table is t9 else ""))
        out += an3935_order_checks(table, "mps_bytes", 128, 256, _MPS_WHY, spread=an3935_same_wire_spread(other))
    for table, widths in ((t11, t7), (t12, t8)):
        out += an3935_order_checks(table, "dma_channels", 1, 4, _CHANNELS_WHY)
        out += an3935_order_checks(table, "dma_channels", 4, 8, _CHANNELS_WHY)
        out += an3935_reprint_checks(table, widths, {"dma_channels": 8}, {"lanes": 4}, _EIGHT_CHANNELS + "."
                                     + (_RUN_TOGETHER if table is t11 else ""))
    return out


@checks.provider(pcie_latency)
def an3935_mps_back_to_back():
    """AN3935 Tables 9-12: every measured cell, held to its ceiling and to the other columns."""
    return an3935_mps_back_to_back_checks(*(data.load(f"an3935-table{n}") for n in (7, 8, 9, 10, 11, 12)))


_WIDTH_WHY = ("Sec. 7.1 and 8: a wider link sends TLPs and DLLPs faster, and every other setting of the column "
              "is the same.")


def an3935_link_width_checks(*tables: pd.DataFrame) -> list[checks.SourceCheck]:
    """Tables 7, 8, 15 and 16 (by link width): every measured cell against its ceiling, and each column at
    most the next wider one."""
    out = []
    for table in tables:
        out += an3935_ceiling_checks(table)
        out += an3935_order_checks(table, "lanes", 1, 2, _WIDTH_WHY)
        out += an3935_order_checks(table, "lanes", 2, 4, _WIDTH_WHY)
    return out


@checks.provider(pcie_latency)
def an3935_link_widths():
    """AN3935 Tables 7, 8, 15 and 16: every measured cell, held to its ceiling and to the wider link's."""
    return an3935_link_width_checks(*(data.load(f"an3935-table{n}") for n in (7, 8, 15, 16)))
