"""``ip link show`` and ``ip -details link show``: each interface's MTU, and for a CAN interface its bit rates
(``bitrate``, ``dbitrate``), sample point and whether it sends CAN FD frames."""

from __future__ import annotations

from goodput.machine.grammar import Field, Format, Record, passed_over

__all__ = ["FORMAT", "links"]

FORMAT = Format(
    "iplink", "ip link show", detect=r"^[0-9]+: [^:\s]+: <[^>]*> mtu [0-9]+",
    record=r"^[0-9]+: ([^:@\s]+)(?:@[^:\s]*)?: <",
    fields=(
        Field("mtu", r"> mtu ([0-9]+)", "int", what="MTU"),
        Field("link_type", r"link/([a-z0-9]+)", "text", what="link type"),
        Field("can_fd", r"\n\s+can <[^>]*FD", "present", what="CAN FD"),
        # each on a line of its own in ip -details (dbitrate has its own field)
        Field("bitrate", r"\n\s+bitrate ([0-9]+)", "int", what="CAN bit rate"),
        Field("sample_point", r"\n\s+bitrate [0-9]+ sample-point ([0-9.]+)", "number", what="CAN sample point"),
        Field("dbitrate", r"\n\s+dbitrate ([0-9]+)", "int", what="CAN FD data bit rate"),
    ))


def links(records: list[Record]) -> tuple[list[dict], list[str]]:
    """Each interface: an Ethernet one's MTU, a CAN one's bit rates (Mbit/s); the loopback passed over."""
    out, skipped = [], []
    for r in records:
        v = r.values
        if v.get("link_type") == "loopback":
            skipped.append(passed_over(r, "the loopback, no wire"))
            continue
        link = {"interface": r.name, "line": r.line, "link_type": v.get("link_type", ""), "warnings": []}
        if "mtu" in v:
            link["mtu_bytes"] = v["mtu"]
        if v.get("link_type") == "can":
            if "bitrate" not in v:
                skipped.append(passed_over(r, "a CAN interface without its bit rate (ip -details shows it)"))
                continue
            link.update(arbitration_mbit_s=v["bitrate"] / 1e6, can_fd=v["can_fd"])
            if "dbitrate" in v:
                link["data_mbit_s"] = v["dbitrate"] / 1e6
        out.append(link)
    return out, skipped
