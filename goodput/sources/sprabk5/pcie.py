"""TI SPRABK5 (the KeyStone II throughput guide), Section 6 (PCIe), against the packet model
(:mod:`goodput.models.pcie`), for the pcie-packets chapter: §6.3's theoretical throughputs, the protocol
numbers of the section's text, and the payload sizes the text derives from the peripheral's limits.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.core.symbols import maker
from goodput.models import bus, coding, pcie
from goodput.models.pcie import (
    SIZES_POW2,
    Link,
    dllp,
    goodput_formula,
    goodput_gbit_s,
    link_substitution,
    tlp_overhead_formula,
)

symbol = maker(__name__)

__all__ = ["keystone_link", "keystone_theoretical", "keystone_prose_checks", "keystone_prose", "sender_limit",
           "receiver_limit", "packet_payload_expr", "best_payload_bytes", "KEYSTONE_PAYLOAD_RULES",
           "keystone_payload_checks", "KEYSTONE_LIMITS_FROM", "keystone_payload_limits", "keystone_payloads"]


def keystone_link(lanes: int) -> Link:
    """The KeyStone II PCIe link of SPRABK5 Sec. 6: gen2 ('PCIe v2'), ``lanes`` lanes (the guide's 'links'),
    128-byte payloads, 32-bit addresses, no ECRC, no DLLPs counted."""
    return Link(gen=2, lanes=lanes, mps=128, dllp="none")


@checks.provider(pcie)
def keystone_theoretical():
    """SPRABK5 §6.3: the theoretical throughput of each packet size, against the packet model."""
    t = data.load("keystone2-s6-3-pcie-theoretical")
    out = []
    for row in t.itertuples():
        link = keystone_link(row.lanes)
        out.append(checks.compare(t, row.Index, "throughput_gbit_s", goodput_gbit_s("write", link, row.packet_bytes),
                                  f"{row.packet_bytes}-byte packets",
                                  formula=goodput_formula("write", link, row.packet_bytes)))
    return out


def keystone_prose_checks(prose, rates) -> list:
    """The PCIe protocol numbers of SPRABK5 Sec. 6's text (``prose``: ``keystone2-s6-pcie-prose``) recomputed
    by the packet model on the guide's link (:func:`keystone_link`, its lanes from ``rates``:
    ``keystone2-s6-pcie-rates``): the rates from the generation, the TLP overhead from the smallest header
    (3 DW, no ECRC) to the largest (4 DW with ECRC), the DLLP's size, the largest payload size the model
    allows, the 8b/10b code of the formula."""
    link = keystone_link(int(rates["links"].iloc[0]))
    rate = {coding.line_rate: sp.nsimplify(link.generation.rate_gtps), coding.lanes: link.lanes}
    code = coding.CODES[link.code]
    sizes = link_substitution(link)
    out = []
    for r in prose.itertuples():
        formula, note = None, ""
        if r.item.startswith("signalling rate of a "):
            model, note = link.generation.rate_gtps, f"PCIe gen{link.gen} signals at {{model:g}} GT/s on each lane."
        elif r.item.startswith("signalling rate of both"):
            formula = (coding.line_rate * coding.lanes, rate)
            note = (f"{link.lanes} lanes at {link.generation.rate_gtps:g} GT/s; the guide calls the raw rate "
                    "'gigabits per second'.")
        elif r.item.startswith("largest TLP overhead"):
            formula = tlp_overhead_formula(replace(link, addr=64, ecrc=True))
            note = "A 4-DW header (64-bit address) with ECRC."
        elif "TLP overhead" in r.item:
            formula = tlp_overhead_formula(link)
            note = "Framing, sequence number and LCRC around a 3-DW header, no ECRC."
        elif "DLLP" in r.item:
            formula = (dllp, {dllp: sizes[dllp]})
        elif r.item.startswith("largest payload"):
            model, note = max(SIZES_POW2), "The largest Max_Payload_Size the model allows."
        elif r.item.startswith("data bits per symbol"):
            model = code.data_bits
        elif r.item.startswith("bits per symbol"):
            model = code.coded_bits
        else:
            raise KeyError(f"keystone2-s6-pcie-prose: no model for {r.item!r}")
        if formula is not None:
            model = float(sp.sympify(formula[0]).xreplace({k: sp.sympify(v) for k, v in formula[1].items()}))
        out.append(checks.compare(prose, r.Index, "value", model, f"§{r.section.split()[0]}",
                                  note, quantity=r.item, unit=r.unit, formula=formula, kind="prose",
                                  exact=r.unit in ("bits", "bytes")))  # sizes are counts: one off is off
    return out


@checks.provider(pcie)
def keystone_prose():
    """SPRABK5 Sec. 6: the PCIe protocol numbers of its text, through the packet model."""
    return keystone_prose_checks(data.load("keystone2-s6-pcie-prose"), data.load("keystone2-s6-pcie-rates"))


sender_limit = symbol(r"P_{\mathrm{tx}}", positive=True, integer=True)  #: most payload the sender puts in a TLP, bytes
receiver_limit = symbol(r"P_{\mathrm{rx}}", positive=True, integer=True)  #: most payload the receiver takes, bytes


def packet_payload_expr() -> sp.Expr:
    """The largest payload a TLP carries, bytes: the smaller of what the sending side hands over at once (its
    Max_Payload_Size, or the DMA burst that feeds it) and what the receiving side takes."""
    return sp.Min(sender_limit, receiver_limit)


def best_payload_bytes(kind: str, link: Link, limit: int) -> int:
    """The payload (1 to ``limit`` bytes, one TLP each; ``limit`` a Max_Payload_Size the model allows) whose
    ``kind`` transfers have the highest goodput on ``link``: the largest, since a TLP's overhead does not grow
    with its payload."""
    if limit not in SIZES_POW2:
        raise ParameterError("limit", limit, "one of " + ", ".join(str(a) for a in SIZES_POW2))
    sizes = range(1, limit + 1)
    return max(sizes, key=lambda size: (goodput_gbit_s(kind, replace(link, mps=limit), size), size))


#: How :func:`keystone_payload_checks` models each ``rule`` of ``keystone2-s6-pcie-payloads``.
KEYSTONE_PAYLOAD_RULES = ("best", "inbound from a KeyStone sender", "with EDMA3's burst")


def keystone_payload_checks(t, limits, rates, edma3_burst_bytes: int) -> list:
    """The payload sizes SPRABK5 Sec. 6's text derives (``t``: ``keystone2-s6-pcie-payloads``) from the KeyStone II
    PCIe peripheral's payload limits the same section states (``limits``: the section's settings, by section, as
    :func:`keystone_payload_limits` gives them; items ``largest outbound payload`` and ``largest inbound
    payload``): the payload with the best goodput (:func:`best_payload_bytes`, at most the outbound limit, on
    :func:`keystone_link` with the lanes of ``rates``), the largest inbound payload from another KeyStone device and the payload an EDMA3 burst of
    ``edma3_burst_bytes`` (Sec. 5.3.1) gives (:func:`packet_payload_expr`)."""
    link = keystone_link(int(rates["links"].iloc[0]))
    out = []
    for r in t.itertuples():
        stated = limits[r.section].set_index("item")["value"]
        outbound = int(stated["largest outbound payload"])
        formula = None
        if r.rule == "best":
            model = best_payload_bytes(r.kind, link, outbound)
            note = (f"Of the payloads a packet can carry, up to the outbound limit of {outbound} bytes, the largest "
                    f"has the best {r.kind} goodput: {{model:g}} bytes.")
        elif r.rule == "inbound from a KeyStone sender":
            sender = int(stated.get("largest outbound payload of a KeyStone device", outbound))
            values = {sender_limit: sender, receiver_limit: int(stated["largest inbound payload"])}
            formula = (packet_payload_expr(), values)
            note = ("The smaller of a KeyStone sender's outbound limit and the peripheral's inbound limit: "
                    "{model:g} bytes.")
        elif r.rule == "with EDMA3's burst":
            formula = (packet_payload_expr(), {sender_limit: edma3_burst_bytes, receiver_limit: outbound})
            note = "The smaller of the EDMA3 TC's data burst (Sec. 5.3.1) and the outbound limit: {model:g} bytes."
        else:
            raise KeyError(f"keystone2-s6-pcie-payloads: no model for rule {r.rule!r}; "
                           f"known: {', '.join(KEYSTONE_PAYLOAD_RULES)}")
        if formula is not None:
            model = int(formula[0].subs(formula[1]))
        out.append(checks.compare(t, r.Index, "value", model, f"§{r.section.split()[0]}", note,
                                  quantity=r.item, unit=r.unit, formula=formula, kind="prose", exact=True))
    return out


#: The sections of ``keystone2-s6-pcie-payloads`` that rely on the payload limits another section states
#: (§6.3.1 on §6.1.2's); every other section's limits are its own rows of ``keystone2-settings``.
KEYSTONE_LIMITS_FROM = {"6.3.1 PCIe Read Throughput": "6.1.2 Packet Size Considerations"}


def keystone_payload_limits(sections, settings=None) -> dict:
    """The payload limits of each of ``sections``: the rows of ``settings`` (the published ``keystone2-settings``,
    or a copy) of the section that states them (itself, or the one :data:`KEYSTONE_LIMITS_FROM` names)."""
    return {s: bus.section_settings(KEYSTONE_LIMITS_FROM.get(s, s), settings) for s in dict.fromkeys(sections)}


@checks.provider(pcie)
def keystone_payloads():
    """SPRABK5 Sec. 6: the payload sizes its text derives from the peripheral's limits, through the model."""
    payloads = data.load("keystone2-s6-pcie-payloads")
    return keystone_payload_checks(payloads, keystone_payload_limits(payloads["section"]),
                                   data.load("keystone2-s6-pcie-rates"), bus.burst_bytes([3]))
