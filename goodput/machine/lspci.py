"""``lspci -vv``: each PCI Express device's link as trained and as capable, and its payload and read request sizes.

A whole listing holds bridges, devices without a PCI Express capability and root ports with nothing behind them
(``Width x0``): those are no error, only not a link (:func:`links` says which were passed over and why).
"""

from __future__ import annotations

from goodput.machine.grammar import Field, Format, Note, Record, passed_over
from goodput.models import pcie

__all__ = ["FORMAT", "GENERATIONS", "links"]

#: A generation by the transfer rate lspci prints (GT/s).
GENERATIONS = {g.rate_gtps: g.number for g in pcie.GENERATIONS.values()}
_RATES = tuple(GENERATIONS)
_SIZES = tuple(pcie.SIZES_POW2)
_ADDRESS = r"(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]"

FORMAT = Format(
    "lspci", "lspci -vv", detect=r"^\s+(?:LnkSta|LnkCap|DevCtl):", record=rf"^({_ADDRESS}) ",
    fields=(
        Field("device", rf"^{_ADDRESS} ([^\n]*)", "text", what="device"),
        Field("speed_gts", r"LnkSta:[^\n]*Speed ([0-9.]+)GT/s", "number", _RATES, "trained speed (GT/s)"),
        Field("lanes", r"LnkSta:[^\n]*Width x([0-9]+)", "int", (0, *pcie.LANES), "trained width"),
        Field("downgraded", r"LnkSta:[^\n]*downgraded", "present", what="downgraded"),
        Field("cap_speed_gts", r"LnkCap:[^\n]*Speed ([0-9.]+)GT/s", "number", _RATES, "capable speed (GT/s)"),
        Field("cap_lanes", r"LnkCap:[^\n]*Width x([0-9]+)", "int", pcie.LANES, "capable width"),
        Field("cap_mps", r"DevCap:[^\n]*MaxPayload ([0-9]+) bytes", "int", _SIZES, "largest payload it can take"),
        # DevCtl's sizes are on one of the lines after it (where lspci wraps them)
        Field("mps", r"DevCtl:[^\n]*(?:\n[^\n]*){0,2}?MaxPayload ([0-9]+) bytes", "int", _SIZES, "max payload size"),
        Field("mrrs", r"MaxReadReq ([0-9]+) bytes", "int", _SIZES, "max read request size"),
        Field("rcb", r"RCB ([0-9]+) bytes", "int", tuple(pcie.RCBS), "read completion boundary"),
        Field("tags10", r"DevCtl2:[^\n]*10BitTagReq([+-])", "flag", what="10-bit tags"),
        # a bridge's bus behind it: the device there is the other end of its link
        Field("secondary_bus", r"Bus: primary=[0-9a-f]+, secondary=([0-9a-f]+)", "text", what="secondary bus"),
    ),
    # what one device's output says, as the page tells a reader who pasted it (links() holds a link to both ends)
    notes=(
        Note("lanes", "cap_lanes", "trained x{lanes} where this end can take x{cap_lanes} (a link trains to the "
                                   "lesser of its ends)"),
        Note("speed_gts", "cap_speed_gts", "trained at {speed_gts} GT/s where this end can take {cap_speed_gts} GT/s "
                                           "(a link trains to the lesser of its ends)"),
        Note("mrrs", "mps", "MRRS {mrrs} is below MPS {mps}: reads come in requests smaller than a payload"),
        Note("mps", "cap_mps", "MPS {mps} of the {cap_mps} it could take: each TLP carries no more"),
    ))


def _bus(address: str) -> tuple[str, str]:
    """The domain and bus of an address (``0000:05:00.0`` -> ``("0000", "05")``; no domain is 0000)."""
    parts = address.split(":")
    return ("0000", parts[0]) if len(parts) == 2 else (parts[0], parts[1])


def _other_ends(records: list[Record]) -> dict[str, Record]:
    """For each device, the other end of its link where the listing shows it: a bridge and the first device on the
    bus behind it."""
    behind = {(_bus(r.name)[0], r.values["secondary_bus"]): r for r in records if "secondary_bus" in r.values}
    out = {}
    for r in records:
        bridge = behind.get(_bus(r.name))
        if bridge is not None and "cap_lanes" in r.values:
            out[r.name] = bridge
            out.setdefault(bridge.name, r)
    return out


def links(records: list[Record]) -> tuple[list[dict], list[str]]:
    """Each record that is a trained PCI Express link, as the book's settings (generation, lanes, MPS, MRRS, RCB)
    with what it could do and what looks wrong; and a note on each record passed over. A link trains to the lower
    of its two ends' capabilities: where the listing shows the other end, that is what it is held to."""
    out, skipped = [], []
    other = _other_ends(records)
    for r in records:
        v = r.values
        if "lanes" not in v or "speed_gts" not in v:
            skipped.append(passed_over(r, "no PCI Express link status"))
            continue
        if v["lanes"] == 0:
            skipped.append(passed_over(r, "no link trained (Width x0)"))
            continue
        link = {"address": r.name, "line": r.line, "device": v.get("device", ""),
                "generation": GENERATIONS[v["speed_gts"]], "lanes": v["lanes"],
                **{k: v[k] for k in ("mps", "mrrs", "rcb", "cap_mps", "tags10") if k in v}}
        ends = [v] + ([other[r.name].values] if r.name in other else [])
        speeds = [e["cap_speed_gts"] for e in ends if "cap_speed_gts" in e]
        widths = [e["cap_lanes"] for e in ends if "cap_lanes" in e]
        if speeds:
            link["cap_generation"] = GENERATIONS[min(speeds)]
        if widths:
            link["cap_lanes"] = min(widths)
        if r.name in other:
            link["other_end"] = other[r.name].name
        link["warnings"] = _warnings(link, v.get("downgraded", False))
        out.append(link)
    return out, skipped


def _warnings(link: dict, downgraded: bool) -> list[str]:
    w = []
    below = []
    if link.get("cap_lanes", link["lanes"]) > link["lanes"]:
        below.append(f"x{link['lanes']} of its x{link['cap_lanes']}")
    if link.get("cap_generation", link["generation"]) > link["generation"]:
        below.append(f"gen {link['generation']} of its gen {link['cap_generation']}")
    # lspci's own "downgraded" compares with this end's capability alone: where the other end is known, it is not asked
    if below or (downgraded and "other_end" not in link):
        ends = "both ends'" if "other_end" in link else "its"
        w.append(f"trained below {ends} capability: " + (", ".join(below) if below else "lspci says downgraded"))
    if "mps" in link and "mrrs" in link and link["mrrs"] < link["mps"]:
        w.append(f"MRRS {link['mrrs']} is below MPS {link['mps']}: reads come in requests smaller than a payload")
    if "mps" in link and link.get("cap_mps", 0) > link["mps"]:
        w.append(f"MPS {link['mps']} of the {link['cap_mps']} it could take: each TLP carries no more (set by the "
                 "boot firmware or the kernel, at most the smallest on its path)")
    return w
