"""TI SPRABK5 (the KeyStone II throughput guide), Section 9 (10-Gigabit Ethernet), against the Ethernet model
(:mod:`goodput.models.ethernet`), for the ethernet-framing chapter: the bits the 512-packet test counts and its
20 bytes a packet, the measured throughputs under the lane's MAC rate, and the numbers of the section's text.
"""

from __future__ import annotations

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.models import coding, ethernet
from goodput.models.ethernet import (
    VALUES,
    WIRE,
    WIRE_OVERHEAD_BYTES,
    frame,
    frame_rate_expr,
    mac_rate,
    on_the_wire_expr,
    wire_bytes_expr,
    wire_counted,
)

__all__ = ["source_checks", "TEN_GBASE_R_GBAUD", "TEN_GBASE_R_CODE", "keystone_line_rate_gbit_s",
           "keystone_ceiling_checks", "size_steps", "keystone_prose_checks", "keystone_checks"]


@checks.provider(ethernet)
def source_checks():
    """KeyStone II §9: the bits the 512-packet test counts, per packet size."""
    out = []
    t = data.load("keystone2-s9-10gbe")
    for row in t.itertuples():
        bits = 512 * 8 * (row.packet_bytes + row.per_packet_overhead_bytes)
        out.append(checks.compare(t, row.Index, "total_bits_512_packets", bits,
                                  f"{row.packet_bytes}-byte packets"))
        out.append(checks.compare(
            t, row.Index, "per_packet_overhead_bytes",
            WIRE_OVERHEAD_BYTES, f"{row.packet_bytes}-byte packets"))
    return out


#: 10GBASE-R: the line signals 10.3125 Gbaud and codes 64b/66b (:mod:`goodput.models.coding`).
TEN_GBASE_R_GBAUD, TEN_GBASE_R_CODE = 10.3125, "64b66b"


def keystone_line_rate_gbit_s() -> float:
    """The MAC rate of §9's one 10GBASE-R lane (Gbit/s): its signalling rate after 64b/66b."""
    return coding.bit_rate_gbit_s(TEN_GBASE_R_GBAUD, 1, TEN_GBASE_R_CODE)


def keystone_ceiling_checks(t) -> list:
    """§9's throughputs (``t``: ``keystone2-s9-10gbe``), which count each packet with its 20 bytes of
    preamble, SFD and gap: at most the lane's MAC rate, which frames back to back fill exactly."""
    out = []
    rate = keystone_line_rate_gbit_s()
    for row in t.itertuples():
        values = {**VALUES, frame: int(row.packet_bytes), mac_rate: sp.nsimplify(rate), wire_counted: WIRE}
        expr = 8 * on_the_wire_expr() * frame_rate_expr()  # Mbit/s of frame + 20 bytes each: the MAC rate
        out.append(checks.compare(
            t, row.Index, "throughput_mbit_s", float(expr.xreplace(values)),
            f"{row.packet_bytes}-byte packets", kind="ceiling", relation="<=", formula=(expr, values),
            note="Back-to-back packets with their 20 bytes each fill the lane: {model:g} Mbit/s as §9 counts.",
            off_note="Back-to-back packets with their 20 bytes each fill the lane at {model:g} Mbit/s as §9 "
                     "counts; {published} is more than the lane carries."))
    return out


def size_steps(sizes) -> tuple[int, int, int]:
    """The step of the run of equal steps a list of sizes starts with, the step of the run it ends with,
    and the steps between the two runs (0 if none)."""
    steps = [int(b - a) for a, b in zip(sizes, sizes[1:])]
    if not steps:
        raise ValueError("two sizes at least make a step")
    first = next((i for i, s in enumerate(steps) if s != steps[0]), len(steps))
    last = next((i for i, s in enumerate(reversed(steps)) if s != steps[-1]), len(steps))
    between = steps[first:len(steps) - last]
    return steps[0], steps[-1], sum(between)


def keystone_prose_checks(prose, t) -> list:
    """The numbers of §9's text (``prose``: ``keystone2-s9-10gbe-prose``): the lane's rate (10GBASE-R
    after 64b/66b, stated twice), the 20 bytes (preamble, SFD and gap) and the steps of the packet sizes against the
    table (``t``: ``keystone2-s9-10gbe``)."""
    out = []
    small, large, between = size_steps(list(t["packet_bytes"]))
    for r in prose.itertuples():
        how: dict = {}
        if r.item in ("maximum throughput on a single lane", "line rate the measured throughput flattens at"):
            code = coding.CODES[TEN_GBASE_R_CODE]
            values = {coding.line_rate: sp.nsimplify(TEN_GBASE_R_GBAUD), coding.lanes: 1,
                      coding.data_bits: code.data_bits, coding.coded_bits: code.coded_bits}
            model, unit, how = keystone_line_rate_gbit_s(), "Gbit/s", {"formula": (coding.bit_rate_expr(), values)}
            note = f"10GBASE-R: {TEN_GBASE_R_GBAUD:g} Gbaud after {code.name}."
        elif r.item == "per-packet overhead":
            values = {**VALUES, frame: 0, wire_counted: WIRE}
            model, unit, how = WIRE_OVERHEAD_BYTES, "bytes", {"formula": (wire_bytes_expr(), values)}
            note = "Preamble (7), SFD (1) and the minimum gap (12)."
        elif r.item == "step between the smaller packets":
            model, unit, how = small, "bytes", {"kind": "consistency"}
            note = "The table's sizes from the first go up by {model:g} bytes."
        elif r.item == "step between the larger packets":
            model, unit, how = large, "bytes", {"kind": "consistency"}
            note = (f"The table's largest sizes go up by {{model:g}} bytes (between the two runs the step is "
                    f"{between} bytes).")
        else:
            raise ValueError(f"keystone2-s9-10gbe-prose: no model for {r.item!r}")
        out.append(checks.compare(prose, r.Index, "value", model, r.place, note,
                                  quantity=r.item, unit=unit, **{"kind": "prose", **how}))
    return out


@checks.provider(ethernet)
def keystone_checks():
    """KeyStone II §9: the throughputs under the lane's rate, and the numbers of the text."""
    t = data.load("keystone2-s9-10gbe")
    return keystone_ceiling_checks(t) + keystone_prose_checks(data.load("keystone2-s9-10gbe-prose"), t)
