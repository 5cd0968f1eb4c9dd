"""The RapidIO Interconnect Specification, Part 6 (LP-Serial Physical Layer, revisions 1.3, 3.2 and 4.1), against
the Serial RapidIO packet model (:mod:`goodput.models.srio`), for the srio chapter: the largest packet field by
field (§2.5, Table 2-3), the 64b/67b link's largest packet (§5.6), the control symbol and packet sizes Annex D
assumes, and each lane rate's data rate with the line code of its Baud Rate Class (§1.2).
"""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding, srio
from goodput.models.srio import (
    ADDRESS_BITS,
    CLASSES,
    DOUBLE_WORD,
    KINDS,
    LINE_RATES_GBAUD,
    MAX_PAYLOAD_BYTES,
    Q,
    align,
    baud_class,
    fields,
    link_crc,
    link_form,
    packet_bytes,
)

__all__ = ["spec_checks", "lane_rate_checks"]


def _largest_packet() -> dict:
    """The fields of the largest packet RapidIO 1.x to 3.x build with 16-bit device IDs: a 256-byte write
    with a 66-bit address, by the names the specification's Table 2-3 gives them."""
    f = fields("nwrite", MAX_PAYLOAD_BYTES, 16, max(ADDRESS_BITS))
    logical = dict(KINDS["nwrite"].logical_fields)
    return {"Header": f["ackID, prio, tt, ftype"], "Source ID": f["source ID"], "Destination ID": f["destination ID"],
            "Trans/wrsize": logical["transaction + wrsize"], "srcTID": logical["srcTID"], "Address": f["address"],
            "Payload": MAX_PAYLOAD_BYTES, "CRC": f["CRC"],
            "Total": packet_bytes("nwrite", MAX_PAYLOAD_BYTES, 16, max(ADDRESS_BITS))}


@checks.provider(srio)
def spec_checks() -> list:
    """RapidIO Part 6: the largest packet field by field, the 64b/67b link's largest packet, and the
    control symbol and packet sizes Annex D assumes."""
    t = data.load("rapidio-part6-sizes")
    largest = _largest_packet()
    by_idle = {c.idle: c for c in CLASSES}
    out = []
    for row in t.itertuples():
        label, formula, note = f"rev. {row.revision} {row.where}: {row.item}", None, ""
        if row.item in largest:
            model = largest[row.item]
        elif row.where == "§5.6":
            c = by_idle["IDLE3"]
            values = {Q: int(row.packet_bytes), link_crc: c.link_crc_bytes, align: c.align_bytes}
            model = int(link_form().xreplace({k: sp.Integer(v) for k, v in values.items()}))
            formula = (link_form(), values)
            note = (f"The {int(row.packet_bytes)}-byte packet with its 4-byte link CRC-32 is "
                    f"{int(row.packet_bytes) + c.link_crc_bytes} bytes, padded to a multiple of {c.align_bytes}.")
        elif row.item.startswith("delimited control symbol"):
            idle = row.item[row.item.index("(") + 1:-1]
            model = (by_idle[idle] if idle in by_idle else CLASSES[-1]).control_symbol_bytes
        elif row.item.startswith("write request"):
            f = fields("nwrite", DOUBLE_WORD, 8, 34)
            model = packet_bytes("nwrite", DOUBLE_WORD, 8, 34) - DOUBLE_WORD - f["pad"]
        else:  # read response
            f = fields("nread", DOUBLE_WORD, 8)
            model = packet_bytes("nread", DOUBLE_WORD, 8) - DOUBLE_WORD - f["pad"]
        out.append(checks.compare(t, row.Index, "bytes", model, label, note=note, formula=formula))
    return out


@checks.provider(srio)
def lane_rate_checks() -> list:
    """Part 6 §1.2: each lane rate's data rate, with the line code its Baud Rate Class takes."""
    t = data.load("rapidio-part6-lane-rates")
    out = []
    for row in t.itertuples():
        if row.line_rate_gbaud > max(LINE_RATES_GBAUD):
            continue  # RapidIO 4.x's 25.78125 Gbaud: beyond this chapter
        c = baud_class(row.line_rate_gbaud)
        code = coding.CODES[c.code]
        values = {coding.line_rate: sp.nsimplify(row.line_rate_gbaud), coding.lanes: 1,
                  coding.data_bits: code.data_bits, coding.coded_bits: code.coded_bits}
        model = coding.bit_rate_gbit_s(row.line_rate_gbaud, 1, c.code)
        out.append(checks.compare(t, row.Index, "data_rate_gbit_s", model,
                                  f"{row.line_rate_gbaud:g} Gbaud, {code.name} (class {c.number})",
                                  formula=(coding.bit_rate_expr(), values)))
    return out
