"""RFC 5180 (IPv6 Benchmarking Methodology for Network Interconnect Devices), Appendix A.1, against the Ethernet
model (:mod:`goodput.models.ethernet`), for the ethernet-framing chapter: the theoretical maximum frame rates of
its table, in the wire convention (each frame and 20 bytes), and what each printed rate that is not the exact
one rounded is.
"""

from __future__ import annotations

import math

from goodput import checks
from goodput.core import data
from goodput.models import ethernet
from goodput.models.ethernet import VALUES, WIRE, evaluate, frame, frame_rate_expr, mac_rate, wire_counted

__all__ = ["rfc5180_checks"]


def _rate_note(printed: str, exact: float) -> str:
    """What a printed frame rate that is not ``exact`` rounded is: cut, rounded up, digits in
    another order, or none of these."""
    whole = math.floor(exact)
    if checks.classify(printed, exact) == "rounding":
        how = "cuts it to" if int(printed) == whole else "rounds it up to"
        return f"Exactly {{model:.2f}} frames/s; the RFC {how} a whole number, {{published}}."
    for near in (whole, whole + 1):
        if sorted(printed) == sorted(str(near)) and printed != str(near):
            return (f"Exactly {{model:.2f}} frames/s, {near} cut or rounded; the RFC prints {{published}}, "
                    f"the same digits in another order.")
    return "Exactly {model:.2f} frames/s; the RFC prints {published}, which is neither that cut nor rounded."


@checks.provider(ethernet)
def rfc5180_checks():
    """RFC 5180 Appendix A.1: theoretical maximum frame rates, wire convention (frame + 20 bytes)."""
    out = []
    t = data.load("rfc5180-a1-frame-rates")
    for row in t.itertuples():
        rate_gbit_s = row.line_rate_mbit_s / 1000
        fps = evaluate(row.frame_bytes, rate_gbit_s, convention=WIRE)["frames_per_s"]
        printed = t.attrs["printed"]["frames_per_s"][row.Index]
        values = {**VALUES, frame: row.frame_bytes, mac_rate: rate_gbit_s, wire_counted: WIRE}
        out.append(checks.compare(
            t, row.Index, "frames_per_s", fps,
            f"{row.frame_bytes} B at {row.line_rate_mbit_s} Mbit/s",
            off_note=_rate_note(printed, fps), formula=(10**6 * frame_rate_expr(), values)))
    return out
