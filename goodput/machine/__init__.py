"""What Linux prints about a link, read: ``lspci -vv``, ``ethtool``, ``ip link``, ``lsusb -t``, and the measurements ``iperf3 -J``
and the book's TCP firmware print. Each format is one module declaring its :class:`~goodput.machine.grammar.Format`
(the page's script reads pastes with the same declaration) and what its records mean for the book's models: a
link's ``links``, or a measurement's :class:`~goodput.machine.grammar.Measure`."""

from __future__ import annotations

from goodput.machine import ethtool, firmware, iperf3, iplink, lspci, lsusb
from goodput.machine.grammar import Format, read

__all__ = ["FORMATS", "recognise", "read"]

#: Every format, in the order a text is tried against them (JSON first: its text has no line the others match).
FORMATS: dict[str, Format] = {m.FORMAT.key: m.FORMAT for m in (iperf3, lspci, ethtool, iplink, lsusb, firmware)}
#: The module of each format that reads links (a measurement's format has its Measure instead).
MODULES = {"lspci": lspci, "ethtool": ethtool, "iplink": iplink, "lsusb": lsusb}


def recognise(text: str) -> Format | None:
    """The format ``text`` is, or None."""
    return next((f for f in FORMATS.values() if f.recognises(text)), None)
