"""``ethtool IFACE``: the speed and duplex an Ethernet interface negotiated. A virtual interface that knows no speed
prints ``Unknown!``: no speed is read, and :func:`links` says so."""

from __future__ import annotations

from goodput.machine.grammar import Field, Format, Record, passed_over

__all__ = ["FORMAT", "SPEEDS_MBIT_S", "links"]

#: The speeds an Ethernet interface negotiates (Mb/s), up to the 100 Gbit/s the TCP chapter models.
SPEEDS_MBIT_S = (10, 100, 1000, 2500, 5000, 10000, 20000, 25000, 40000, 50000, 56000, 100000)

FORMAT = Format(
    "ethtool", "ethtool IFACE", detect=r"^Settings for [^:\s]+:", record=r"^Settings for ([^:\s]+):",
    fields=(
        Field("speed_mbit_s", r"Speed: ([0-9]+)Mb/s", "int", SPEEDS_MBIT_S, "speed (Mb/s)"),
        Field("duplex", r"Duplex: ([A-Za-z]+)", "text", what="duplex"),
        Field("link", r"Link detected: (yes|no)", "text", what="link detected"),
    ))


def links(records: list[Record]) -> tuple[list[dict], list[str]]:
    """Each interface with a speed: its line rate (Mbit/s) and duplex; a note on those without."""
    out, skipped = [], []
    for r in records:
        v = r.values
        if "speed_mbit_s" not in v:
            skipped.append(passed_over(r, "no speed printed (a virtual interface, or no link)"))
            continue
        warnings = [] if v.get("duplex", "Full") == "Full" else [f"{v['duplex']} duplex: both directions share the line"]
        if v.get("link") == "no":
            warnings.append("no link detected")
        out.append({"interface": r.name, "line": r.line, "line_rate_mbit_s": v["speed_mbit_s"],
                    "duplex": v.get("duplex", ""), "warnings": warnings})
    return out, skipped
