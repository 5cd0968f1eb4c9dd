"""TI SPRABK5 (the KeyStone II throughput guide), Section 8 (HyperLink), against the HyperLink model
(:mod:`goodput.models.hyperlink`), for the hyperlink chapter: the maximum throughputs §8.2 calculates, Tables
23 and 25's maxima against the packets each EDMA sends, Tables 24 and 26's measurements under their ceilings and
their percentages, and the numbers of the section's text.
"""

from __future__ import annotations

import re

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import bus, coding, hyperlink
from goodput.models.hyperlink import (
    CONTROL_BYTES,
    MAX_PACKET_BYTES,
    achieved,
    control,
    goodput_expr,
    goodput_gbit_s,
    implied_control_expr,
    packet,
    per_packet_gbit_s,
    read_response_bytes,
    transfer,
)

__all__ = ["source_checks", "DBS_BYTES", "TABLE_MEMORIES", "TABLE_RATE_GBAUD", "TABLE_LANES", "INTRO_RATE_GBAUD",
           "INTRO_LANES", "edma_bursts", "table_packet_bytes", "TABLE_CONTROL_BYTES", "maximum_checks",
           "measured_checks", "aggregate_rate_expr", "prose_checks", "table_checks"]


@checks.provider(hyperlink)
def source_checks():
    """The maximum throughputs §8.2 calculates, and the percentages of Tables 24 and 26."""
    out = []
    t = data.load("keystone2-s8-hyperlink-theoretical")
    for row in t.itertuples():
        # The text's formulas take one packet's worth: S = P.
        model = goodput_gbit_s(row.line_rate_gbaud, row.lanes, row.packet_bytes, row.packet_bytes)
        printed = t.attrs["printed"]["throughput_gbit_s"][row.Index]
        note = ""
        status = checks.classify(printed, model)
        if status == "rounding":
            note = "The product is {model:.4f}; the guide cuts it to {published} where rounding gives {rounded}."
        elif status == "erratum":
            note = (f"{row.line_rate_gbaud * row.lanes:g} x 8/9 x {row.packet_bytes} / "
                    f"({row.packet_bytes} + {CONTROL_BYTES}) is {{model:.2f}}, not {{published}}: the text's own "
                    "formula does not give its figure.")
        label = f"{row.transfer}, {row.packet_bytes}-byte packets" + (
            f" ({row.memory})" if row.memory != "any" else "")
        out.append(checks.compare(
            t, row.Index, "throughput_gbit_s", model, label, note,
            formula=(goodput_expr(), {coding.line_rate: row.line_rate_gbaud, coding.lanes: row.lanes,
                                      transfer: row.packet_bytes, packet: row.packet_bytes, control: CONTROL_BYTES})))
    t = data.load("keystone2-table23-26")
    for row in t.itertuples():
        out.append(checks.compare(
            t, row.Index, "measured_percent",
            100 * row.measured_gbit_s / row.max_achievable_gbit_s,
            f"Table {row.table.split('/')[1]}: {row.transfer} {row.memory_as_printed.split()[-1]}, EDMA {row.edma}"))
    return out


#: The data burst size (bytes) of each EDMA channel controller's transfer controllers, as the guide's
#: Sec. 5.3.1 states it (:data:`goodput.models.bus.TRANSFER_CONTROLLERS`). A write goes out in packets of it.
DBS_BYTES = {t.cc: t.dbs_bytes for t in bus.TRANSFER_CONTROLLERS.values()}
#: The memories as the rows of Tables 23-26 name them, by their names in Table 22.
TABLE_MEMORIES = {"L2": "C66x L1/L2", "MSMC": "MSMC SRAM", "DDR3": "DDR3"}
TABLE_RATE_GBAUD, TABLE_LANES = 6.25, 4  # Tables 23-26: 6.25 Gbaud x 4 lanes
INTRO_RATE_GBAUD, INTRO_LANES = 10, 4  # Sec. 8's introduction: 'most Keystone DSP's' at 10 Gbaud, 4 lanes


def edma_bursts(group: str) -> list[int]:
    """The data burst sizes of an EDMA group as Tables 23-26 name it (``"CC1, CC2 and CC3"``)."""
    numbers = [int(n) for n in re.findall(r"CC(\d+)", group)]
    if not numbers or any(n not in DBS_BYTES for n in numbers):
        raise ParameterError("edma", group, "EDMA channel controllers CC0 to CC4")
    return [DBS_BYTES[n] for n in numbers]


def table_packet_bytes(transfer_: str, memory_as_printed: str, group: str, largest: bool) -> int:
    """Payload per packet of a row of Tables 23-26: a read's in the answering memory's response burst
    (Table 22, at most the master's burst), a write's in the EDMA transfer controller's burst; of the group's
    bursts the ``largest`` (what its fastest member can do) or the smallest (what each member can do)."""
    bursts = edma_bursts(group)
    burst = max(bursts) if largest else min(bursts)
    if transfer_ == "write":
        return min(burst, MAX_PACKET_BYTES)
    return min(read_response_bytes(TABLE_MEMORIES[memory_as_printed.split()[-1]]), burst)


#: The overhead per packet Tables 23 and 25 evidently allow: it reproduces their 64-, 32- and 16-byte figures.
TABLE_CONTROL_BYTES = 12


def maximum_checks(t) -> list:
    """Tables 23 and 25's 'maximum achievable' (``t``: ``keystone2-table23-26``) against the text's model at
    6.25 Gbaud x 4: the goodput of the packet each of its EDMAs sends (the tables evidently count
    :data:`TABLE_CONTROL_BYTES` a packet, not 8: a convention). A maximum no rule reproduces is unexplained,
    unless it is more than even the largest packet its row allows can carry: then it is an erratum."""
    out = []
    for r in t.itertuples():
        most = table_packet_bytes(r.transfer, r.memory_as_printed, r.edma, largest=True)
        ceiling = per_packet_gbit_s(TABLE_RATE_GBAUD, TABLE_LANES, most)
        each = table_packet_bytes(r.transfer, r.memory_as_printed, r.edma, largest=False)
        model = per_packet_gbit_s(TABLE_RATE_GBAUD, TABLE_LANES, each)
        values = {coding.line_rate: sp.nsimplify(TABLE_RATE_GBAUD), coding.lanes: TABLE_LANES, transfer: each,
                  packet: each, control: CONTROL_BYTES}
        twelve = per_packet_gbit_s(TABLE_RATE_GBAUD, TABLE_LANES, each, TABLE_CONTROL_BYTES)
        rule = checks.Convention(
            f"Tables 23 and 25 evidently count {TABLE_CONTROL_BYTES} bytes a packet, not the {CONTROL_BYTES} of "
            f"Sec. 8.1.2 (the rule reproduces their 64-, 32- and 16-byte figures)", twelve)
        why = f"{_why_packet(r, each, largest=False)}: the text's formula gives {{model:.2f}} Gbit/s"
        above = r.max_achievable_gbit_s > ceiling
        if checks.classify(t.attrs["printed"]["max_achievable_gbit_s"][r.Index], twelve) == "erratum":
            off = (f"{why}, and with {TABLE_CONTROL_BYTES} bytes a packet {twelve:.2f}: {{published}} implies "
                   f"{_implied(r.max_achievable_gbit_s, each):.1f} bytes a packet of {each} bytes, and no burst the "
                   f"guide names gives it with {CONTROL_BYTES} or {TABLE_CONTROL_BYTES}.")
            if above:
                off += (f" No packet its row allows is larger than {most} bytes, and with {CONTROL_BYTES} control "
                        f"bytes each those carry at most {ceiling:.2f} Gbit/s: the maximum is more than the link "
                        "can carry.")
        else:
            off = f"{why}; {{published}} implies {_implied(r.max_achievable_gbit_s, each):.1f} bytes a packet."
        out.append(checks.compare(
            t, r.Index, "max_achievable_gbit_s", model, _label_23_26(r, 0),
            formula=(goodput_expr(), values), convention=rule, otherwise="erratum" if above else "unexplained",
            note=why + ".", off_note=off))
    return out


def measured_checks(t) -> list:
    """Tables 24 and 26's measurements (``t``: ``keystone2-table23-26``): each at most the text's formula for
    the largest packet its row allows (``ceiling``) and at most the 'maximum achievable' of its row
    (``consistency``)."""
    out = []
    for r in t.itertuples():
        label = _label_23_26(r, 1)
        most = table_packet_bytes(r.transfer, r.memory_as_printed, r.edma, largest=True)
        values = {coding.line_rate: sp.nsimplify(TABLE_RATE_GBAUD), coding.lanes: TABLE_LANES, transfer: most,
                  packet: most, control: CONTROL_BYTES}
        out.append(checks.compare(
            t, r.Index, "measured_gbit_s", per_packet_gbit_s(TABLE_RATE_GBAUD, TABLE_LANES, most),
            label, kind="ceiling", relation="<=", formula=(goodput_expr(), values),
            note=f"{_why_packet(r, most, largest=True)}: at most {{model:.2f}} Gbit/s.",
            off_note=f"{_why_packet(r, most, largest=True)}: the text's formula allows at most {{model:.2f}} "
                     "Gbit/s; {published} is more than the link carries."))
        out.append(checks.compare(
            t, r.Index, "measured_gbit_s", r.max_achievable_gbit_s, label, kind="consistency",
            relation="<=", note=f"At most Table {r.table.split('/')[0]}'s maximum achievable, {{model:g}} Gbit/s.",
            off_note=f"More than Table {r.table.split('/')[0]}'s maximum achievable, {{model:g}} Gbit/s."))
    return out


def _label_23_26(r, which: int) -> str:
    """A row of Tables 23-26 as the maximum (``which = 0``: Table 23 or 25) or the measurement (1) names it."""
    table = r.table.split("/")[which]
    return f"Table {table}: {r.transfer} {r.memory_as_printed.split()[-1]}, EDMA {r.edma}"


def _why_packet(r, packet_bytes: int, largest: bool) -> str:
    if r.transfer == "read":
        return (f"{TABLE_MEMORIES[r.memory_as_printed.split()[-1]]} answers in {packet_bytes}-byte bursts "
                "(Table 22), each a packet")
    which = ("the data burst" if len(set(edma_bursts(r.edma))) == 1
             else "the largest data burst" if largest else "the smallest data burst")
    return f"A write goes out in {packet_bytes}-byte packets, {which} of EDMA {r.edma} (Sec. 5.3.1)"


def _implied(gbit_s: float, packet_bytes: int) -> float:
    """Control bytes a packet that ``gbit_s`` of whole ``packet_bytes`` packets implies at the tables' rate."""
    return float(implied_control_expr().subs({coding.line_rate: TABLE_RATE_GBAUD, coding.lanes: TABLE_LANES,
                                              packet: packet_bytes, achieved: sp.Float(gbit_s)}))


def aggregate_rate_expr() -> sp.Expr:
    """The line rate of all lanes together (Gbaud): the '25 Gbps' the text's formulas start from."""
    return coding.line_rate * coding.lanes


def prose_checks(t) -> list:
    """The numbers of Sec. 8's text (``t``: ``keystone2-s8-hyperlink-prose``): the introduction's 35.5 Gbit/s
    repeated, the DMA bursts of Sec. 8.1.2 and 8.1.4 (against Sec. 5.3.1's data burst sizes), the burst Sec. 8.1.4
    chooses for writes (the one whose packets carry them fastest), and in Sec. 8.2
    the aggregate line rate each formula starts from, the maximum write throughput the text repeats, the
    bursts it says each memory answers in (against Table 22) and the overhead and packet size of writes
    (against Sec. 8.1.2); in each formula the 8b/9b code, the packet (against Table 22 or Sec. 8.1.2, in the
    product and in the sum) and the overhead added to it."""
    out = []
    rate = {coding.line_rate: sp.nsimplify(TABLE_RATE_GBAUD), coding.lanes: TABLE_LANES}
    for r in t.itertuples():
        unit = "bytes"
        if r.item == "theoretic throughput (again)":
            code = coding.CODES["8b9b"]
            values = {coding.line_rate: INTRO_RATE_GBAUD, coding.lanes: INTRO_LANES,
                      coding.data_bits: code.data_bits, coding.coded_bits: code.coded_bits}
            model = coding.bit_rate_gbit_s(INTRO_RATE_GBAUD, INTRO_LANES, "8b9b")
            how, unit = {"kind": "prose", "formula": (coding.bit_rate_expr(), values)}, "Gbit/s"
            note = (f"The introduction's {INTRO_RATE_GBAUD:g} Gbaud x {INTRO_LANES} x "
                    f"{code.data_bits}/{code.coded_bits} again: " "{model:.4f}, cut to "
                    "{published} where rounding gives {rounded}.")
        elif r.item in ("smaller DMA write limit", "smaller DBS", "larger DMA write limit", "larger DBS"):
            model = (min if r.item.startswith("smaller") else max)(DBS_BYTES.values())
            how = {"kind": "consistency"}
            note = (f"Sec. 5.3.1: the data burst size is {DBS_BYTES[3]} bytes for EDMA CC3's transfer controllers, "
                    f"{DBS_BYTES[0]} for all others; the {r.item.split()[0]} is {{model:g}}.")
        elif r.item == "DBS to choose for writes":
            # the burst whose packets (at most the largest packet) carry writes fastest
            model = max(set(DBS_BYTES.values()),
                        key=lambda d: per_packet_gbit_s(TABLE_RATE_GBAUD, TABLE_LANES, min(d, MAX_PACKET_BYTES)))
            how = {"kind": "prose", "exact": True}
            note = (f"Of Sec. 5.3.1's data burst sizes, each a write packet of at most {MAX_PACKET_BYTES} bytes, "
                    "the one with the best goodput: {model:g} bytes.")
        elif r.item == "aggregate line rate":
            model = float(aggregate_rate_expr().xreplace(rate))
            how, unit = {"kind": "prose", "formula": (aggregate_rate_expr(), rate)}, "Gbaud"
            note = f"{TABLE_RATE_GBAUD:g} Gbaud on each of {TABLE_LANES} lanes: {{model:g}} Gbaud before 8b/9b."
        elif r.item == "maximum write throughput":
            values = {**rate, transfer: MAX_PACKET_BYTES, packet: MAX_PACKET_BYTES, control: CONTROL_BYTES}
            model = per_packet_gbit_s(TABLE_RATE_GBAUD, TABLE_LANES, MAX_PACKET_BYTES)
            how, unit = {"kind": "prose", "formula": (goodput_expr(), values)}, "Gbit/s"
            note = "The write formula's result again: {model:.4f}, cut to {published} where rounding gives {rounded}."
        elif r.item in ("data bits per symbol", "bits per symbol"):
            code = coding.CODES["8b9b"]
            model = code.data_bits if r.item.startswith("data") else code.coded_bits
            how, unit = {"kind": "prose", "exact": True}, "bits"
            note = f"HyperLink's {code.name} code: {code.data_bits} data bits in {code.coded_bits} line bits."
        elif r.item.startswith(("read response burst: ", "read response burst in the sum: ")):
            memory = r.item.split(": ", 1)[1]
            model = read_response_bytes(memory)
            how = {"kind": "consistency"}
            note = f"Table 22 gives {memory} a maximum read response of {{model:g}} bytes."
        elif r.item == "overhead per packet":
            model, how = CONTROL_BYTES, {"kind": "consistency"}
            note = "Sec. 8.1.2 adds {model:g} bytes of overhead to each packet."
        elif r.item in ("largest packet", "largest packet in the sum"):
            model, how = MAX_PACKET_BYTES, {"kind": "consistency"}
            note = "Sec. 8.1.2 limits a packet's payload to {model:g} bytes."
        else:
            raise ValueError(f"keystone2-s8-hyperlink-prose: no model for {r.item!r}")
        out.append(checks.compare(t, r.Index, "value", model, r.place, note,
                                  quantity=r.item, unit=unit, **how))
    return out


@checks.provider(hyperlink)
def table_checks():
    """Tables 23-26: the maxima against the text's model, the measurements under their ceilings."""
    t = data.load("keystone2-table23-26")
    return maximum_checks(t) + measured_checks(t) + prose_checks(data.load("keystone2-s8-hyperlink-prose"))
