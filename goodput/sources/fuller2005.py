"""Sam Fuller, *RapidIO: The Embedded System Interconnect* (Wiley, 2005), §4.6 (the streaming write), against the
Serial RapidIO packet model (:mod:`goodput.models.srio`), for the srio chapter: an SWRITE's header and CRC bytes,
and its 'over 95%' of payload.
"""

from __future__ import annotations

from goodput import checks
from goodput.core import data
from goodput.models import srio
from goodput.models.srio import CLASSES, DOUBLE_WORD, fields, packet_bytes

__all__ = ["swrite_checks"]


@checks.provider(srio)
def swrite_checks() -> list:
    """Fuller §4.6: an SWRITE's header and CRC bytes, and his 'over 95%'."""
    t = data.load("fuller2005-s4-6-swrite")
    out = []
    for row in t.itertuples():
        p = int(row.payload_bytes)

        def header_and_crc(ids: int) -> int:
            return packet_bytes("swrite", p, ids) - p - fields("swrite", p, ids)["pad"]

        def share(ids: int, symbols: int = 0) -> str:
            return f"{p / (packet_bytes('swrite', p, ids) + symbols * CLASSES[0].control_symbol_bytes):.1%}"

        small = max(q for q in range(DOUBLE_WORD, p + 1, DOUBLE_WORD) if fields("swrite", q, 8)["CRC"] == 2)
        note = (f"Field by field a {p}-byte SWRITE carries {{model:g}} bytes of header and CRC with 8-bit device "
                f"IDs ({header_and_crc(16)} with 16-bit): past 80 bytes a packet has a second CRC. {{published}} is "
                f"the count of an SWRITE of at most {small} bytes. 'Over 95%' holds for the packet with 8-bit IDs "
                f"({share(8)} of its bytes are payload), not with 16-bit IDs ({share(16)}), nor once its "
                f"start-of-packet control symbol is counted ({share(8, 1)}).")
        out.append(checks.compare(t, row.Index, "overhead_bytes", header_and_crc(8),
                                  f"{row.transaction}, {p}-byte payload, 8-bit device IDs", note=note))
    return out
