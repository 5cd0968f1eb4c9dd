"""TI SPRABK5 (the KeyStone II throughput guide), Section 7 (SRIO), against the Serial RapidIO packet model
(:mod:`goodput.models.srio`), for the srio chapter: the packet overheads the text states, the lane rates and the
line code it names, every measured throughput of Tables 16-21 under what the packet model carries, and the PHY
rates the text and captions give those tables.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd
import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding, srio
from goodput.models.srio import (
    CLASSES,
    KINDS,
    MAX_PAYLOAD_BYTES,
    PARAMETERS,
    acks,
    address_bits,
    addressed,
    baud_class,
    class_values,
    control_symbols,
    fields,
    fixed_logical,
    goodput_gbit_s,
    id_bits,
    measured,
    overhead_bytes,
    stream_rate_expr,
    transfer,
    transfer_wire_expr,
)

__all__ = ["source_checks", "keystone_rate_checks", "keystone_rates", "TABLE_KINDS", "ceiling_mbit_s",
           "ceiling_formula", "least_line_rate_gbaud", "measured_ceiling_checks", "phy_rate_checks", "table_checks"]


@checks.provider(srio)
def source_checks():
    """The packet overheads §7 states, from the packet fields with 16-bit device IDs."""
    t = data.load("keystone2-s7-srio-overheads")
    out = []
    for row in t.itertuples():
        kind = "type11" if row.transaction == "Type 11" else "nwrite"
        if row.packets == "payload below 256 bytes":
            sizes = range(8, MAX_PAYLOAD_BYTES, 8)
            values = {overhead_bytes(kind, p) for p in sizes}
            model = max(values)
            unpadded = {overhead_bytes(kind, p) - fields(kind, p)["pad"] for p in sizes}
            note = (f"Every payload of 8 to 248 bytes costs {sorted(values)} bytes: a small packet "
                    f"(one CRC) is padded by 2 bytes to a whole 32-bit word, a larger one carries a "
                    f"second CRC instead. Without the pad the small ones would cost {min(unpadded)}: "
                    "the guide's {published} leaves out the padding.")
        else:
            model = overhead_bytes(kind, MAX_PAYLOAD_BYTES)
            note = ""
        out.append(checks.compare(t, row.Index, "overhead_bytes", model,
                                  f"{row.transaction}, {row.packets}", off_note=note))
    return out


def keystone_rate_checks(rates, prose) -> list:
    """SPRABK5 Sec. 7's RapidIO lane rates (``rates``: ``keystone2-s7-srio-lane-rates``, the line rates it
    lists in order) against those RapidIO 1.x defines (the lowest Baud Rate Class), and the numbers of the line
    code it names (``prose``: ``keystone2-s7-srio-prose``) against that class's code."""
    spec = sorted(CLASSES[0].rates_gbaud)
    if len(rates) != len(spec):
        raise ValueError(f"keystone2-s7-srio-lane-rates: {len(rates)} rates, RapidIO 1.x defines {len(spec)}")
    out = []
    for n, (row, rate) in enumerate(zip(rates.itertuples(), spec), start=1):
        out.append(checks.compare(rates, row.Index, "line_rate_gbaud", rate, f"RapidIO 1.x rate {n}",
                                  kind="prose", note="The lowest Baud Rate Class's rate number "
                                  f"{n}: {{model:g}} Gbaud."))
    code = coding.CODES[CLASSES[0].code]
    for row in prose.itertuples():
        if row.item == "data bits of the line code":
            model = code.data_bits
        elif row.item == "line bits of the line code":
            model = code.coded_bits
        else:
            raise KeyError(f"keystone2-s7-srio-prose: no model for {row.item!r}")
        out.append(checks.compare(prose, row.Index, "value", model, "RapidIO 1.x", quantity=row.item,
                                  unit=row.unit, kind="prose", exact=True,
                                  note=f"RapidIO 1.x codes its lanes with {code.name}."))
    return out


@checks.provider(srio)
def keystone_rates():
    """SPRABK5 Sec. 7: the lane rates and the line code its text names."""
    return keystone_rate_checks(data.load("keystone2-s7-srio-lane-rates"), data.load("keystone2-s7-srio-prose"))


#: The transaction of Tables 16-21 as :data:`~goodput.models.srio.KINDS` names it.
TABLE_KINDS = {"NWRITE": "nwrite", "NREAD": "nread", "Type 11": "type11"}


def ceiling_mbit_s(transaction: str, line_rate_gbaud: float, lanes: int, size_bytes: int) -> float:
    """The most the packet model carries (Mbit/s) of back-to-back ``transaction``s (as Tables 16-21 name
    them) of ``size_bytes`` on ``lanes`` at ``line_rate_gbaud``: 16-bit device IDs, 34-bit addresses, one
    control symbol a packet, nothing between packets."""
    return 1000 * goodput_gbit_s(TABLE_KINDS[transaction], line_rate_gbaud, lanes, size_bytes)


def ceiling_formula(transaction: str, line_rate_gbaud: float, lanes: int, size_bytes: int) -> tuple:
    """``(expr, values)`` of :func:`ceiling_mbit_s`: :func:`~goodput.models.srio.transfer_goodput_expr` in
    Mbit/s, with the values of the rate's Baud Rate Class put in."""
    k = KINDS[TABLE_KINDS[transaction]]
    expr = _ceiling_expr(baud_class(line_rate_gbaud).number)
    values = {coding.line_rate: sp.nsimplify(line_rate_gbaud), coding.lanes: int(lanes), transfer: int(size_bytes),
              id_bits: PARAMETERS["id_bits"].default, control_symbols: PARAMETERS["control_symbols"].default,
              address_bits: PARAMETERS["address_bits"].default, fixed_logical: k.fixed_logical_bytes,
              addressed: int(k.addressed), acks: k.acks_in_data_direction}
    return expr, values


@lru_cache(maxsize=None)
def _ceiling_expr(class_number: int) -> sp.Expr:
    """:func:`~goodput.models.srio.transfer_goodput_expr` in Mbit/s with a Baud Rate Class's values put in (one
    a class: every check of Tables 16-21 prints one of them)."""
    return 1000 * (stream_rate_expr() * transfer / transfer_wire_expr()).subs(class_values(class_number))


def least_line_rate_gbaud(transaction: str, lanes: int, size_bytes: int, mbit_s: float,
                          line_rate_gbaud: float) -> float:
    """The lowest line rate of ``line_rate_gbaud``'s Baud Rate Class at which the packet model carries
    ``mbit_s`` of ``transaction``s of ``size_bytes`` on ``lanes``: the goodput is proportional to the
    rate within a class."""
    return line_rate_gbaud * mbit_s / ceiling_mbit_s(transaction, line_rate_gbaud, lanes, size_bytes)


def _table_row(r) -> str:
    return f"Table {r.table}, {r.transaction} {r.lanes}x, {r.memory}, {r.payload_bytes} bytes"


def measured_ceiling_checks(t) -> list:
    """Each measured throughput of Tables 16-21 (``t``, as :func:`~goodput.models.srio.measured` loads it) at
    most what the packet model carries for its transaction, size, lanes and PHY rate (:func:`ceiling_mbit_s`)."""
    out = []
    for r in t.itertuples():
        model = ceiling_mbit_s(r.transaction, r.phy_gbaud, r.lanes, r.payload_bytes)
        out.append(checks.compare(
            t, r.Index, "throughput_mbit_s", model, _table_row(r), kind="ceiling", relation="<=",
            formula=ceiling_formula(r.transaction, r.phy_gbaud, r.lanes, r.payload_bytes),
            note=f"Back-to-back {KINDS[TABLE_KINDS[r.transaction]].name} packets of at most {MAX_PAYLOAD_BYTES} "
                 "bytes, each with its header, CRC, padding and control symbol, carry at most {model:.2f} Mbit/s.",
            off_note="The packet model carries at most {model:.2f} Mbit/s here: {published} is more than the "
                     "lanes can carry."))
    return out


def phy_rate_checks(places, t) -> list:
    """The PHY rates the text and captions state for Tables 16-21 (``places``, as
    ``keystone2-s7-srio-phy-rates`` loads it) against that table's measurements (``t``): each at least the
    lowest rate at which the packet model carries the table's every value (:func:`least_line_rate_gbaud`,
    in the class of the stated rate); and the SRIO rate each sentence gives, its PHY rate after 8b/10b."""
    out = []
    for p in places.itertuples():
        rows = t[t["table"] == p.table]
        needs = [(least_line_rate_gbaud(r.transaction, r.lanes, r.payload_bytes, r.throughput_mbit_s, p.phy_gbaud),
                  r) for r in rows.itertuples()]
        need, worst = max(needs, key=lambda n: n[0])
        out.append(checks.compare(
            places, p.Index, "phy_gbaud", need, p.place, kind="consistency", relation=">=",
            note=f"Table {p.table}'s fastest value for its rate, {worst.throughput_mbit_s:g} Mbit/s "
                 f"({worst.lanes}x, {worst.memory}, {worst.payload_bytes} bytes), needs at least {{model:.3f}} Gbaud.",
            off_note=f"At {{published}} Gbaud the packet model carries at most "
                     f"{ceiling_mbit_s(worst.transaction, p.phy_gbaud, worst.lanes, worst.payload_bytes):.0f} "
                     f"Mbit/s of {worst.transaction} on {worst.lanes}x with {worst.payload_bytes}-byte transfers; "
                     f"Table {p.table} prints {worst.throughput_mbit_s:g} ({worst.memory}), which needs at least "
                     "{model:.3f} Gbaud: the rate the text before the table states is the one measured."))
        if pd.notna(p.srio_gbit_s):  # a sentence gives the SRIO rate too
            code = coding.CODES[baud_class(p.phy_gbaud).code]
            values = {coding.line_rate: sp.nsimplify(p.phy_gbaud), coding.lanes: 1,
                      coding.data_bits: code.data_bits, coding.coded_bits: code.coded_bits}
            out.append(checks.compare(
                places, p.Index, "srio_gbit_s",
                coding.bit_rate_gbit_s(p.phy_gbaud, 1, baud_class(p.phy_gbaud).code), p.place, kind="prose",
                formula=(coding.bit_rate_expr(), values),
                note=f"The PHY rate after {code.name}."))
    return out


@checks.provider(srio)
def table_checks():
    """Tables 16-21: every measured value under its ceiling, and the rates their text and captions state."""
    return _table_checks()


@lru_cache(maxsize=1)
def _table_checks() -> tuple:
    t = measured()
    return tuple(measured_ceiling_checks(t) + phy_rate_checks(data.load("keystone2-s7-srio-phy-rates"), t))
