"""What Linux prints about a link, read: ``lspci -vv``, ``ethtool``, ``ip link``, ``iperf3 -J``. Each format is one
module declaring its :class:`~goodput.machine.grammar.Format` (the page's script reads pastes with the same
declaration) and what its records mean for the book's models."""

from __future__ import annotations

from . import ethtool, iperf3, iplink, lspci
from .grammar import Format, read

__all__ = ["FORMATS", "recognise", "read"]

#: Every format, in the order a text is tried against them (JSON first: its text has no line the others match).
FORMATS: dict[str, Format] = {m.FORMAT.key: m.FORMAT for m in (iperf3, lspci, ethtool, iplink)}
MODULES = {"iperf3": iperf3, "lspci": lspci, "ethtool": ethtool, "iplink": iplink}


def recognise(text: str) -> Format | None:
    """The format ``text`` is, or None."""
    return next((f for f in FORMATS.values() if f.recognises(text)), None)
