"""Parser for PCI Express analyzer symbol traces, as the Intel tutorial prints them.

A trace has a header line ``Cycle TX RX`` and then one line per symbol time::

    009:	UpdateFC_P	K	SDP	D	00	Attr	: RO- NS- EP-

a cycle number, and the symbol each direction carried (``K`` control or ``D``
data, then its name or hex byte), with the analyzer's annotations in between.
The first symbol on a line is the first column's direction (TX), the second the
other's (RX). ``...`` stands for a run of idle cycles. A line with a cycle number
and no symbols is a cycle whose symbols the document's conversion lost
(``lost_cycles``); a gap in the cycle numbers without ``...`` is a cycle that was
not printed (``missing_cycles``): it counts in the trace's time but holds no
symbol. Other lines (titles, page headers, ``#`` headers) are skipped. Where a lost cycle's line still
shows the analyzer's name of a packet (``MRd``, ``Cp1D``, ``Ack``...), the packet's start is kept in
``annotated_starts``.

:func:`parse` turns the symbols into packets per direction — TLPs (``STP`` to
``END``), DLLPs (``SDP`` to ``END``) and SKP ordered sets (``COM`` and its
``SKP``\\ s) — decoded from their bytes: TLP type and payload length from the
header, DLLP type from its first byte. A packet that runs into lost cycles is
kept and marked ``complete=False``. Each packet keeps its bytes as printed (``data``) and the analyzer's
annotations printed beside it: its name (``label``) and its fields (``fields``: ``SeqNr.``, ``Address``,
``LCRC``...); annotations of packets whose symbols were lost go to ``unmatched_annotations``.
:func:`decode` reads the same fields from a packet's bytes. The runs of cycle lines between ``...`` lines
(``runs``) and the data symbols between packets (``idle_symbols``) are kept for the checks of the
numbering and of the logical idle. It raises :class:`~goodput.core.errors.LogFormatError`
with file and line for an unknown symbol, a line with more than two symbols,
cycle numbers that go backwards, a data symbol outside any packet where no cycle
was lost, and a trace that ends inside a packet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from goodput.core.errors import LogFormatError
from goodput.logs.text import log_lines, read_log

__all__ = [
    "Packet", "SymbolTrace", "parse", "parse_text", "summary", "SYMBOL_NS", "tlp_intervals", "read_timings", "tally",
    "annotated_read_timing", "decode", "DLLP_FIELDS",
]

SYMBOL_NS = 4.0  #: one symbol time at 2.5 GT/s with 8b/10b
LOGICAL_IDLE = 0x00  #: the data byte a lane sends between packets (the specification's logical idle)

_HEADER = re.compile(r"""
    ^Cycle\s+(?P<first>TX|Tx)\s+(?P<second>RX|Rx)\s*$   # names the two symbol columns
    """, re.VERBOSE)
_CYCLE = re.compile(r"""
    ^(?P<cycle>\d{3,6}):                                 # cycle number
    (?P<rest>.*)$                                        # symbols and annotations
    """, re.VERBOSE)
_SYMBOL = re.compile(r"""
    (?<![\w.])
    (?:(?P<k>K)\s+(?P<control>STP|SDP|END|COM|SKP)        # a control symbol, by name
      |(?P<d>D)\s+(?P<byte>[0-9A-F]{2}))                  # or a data symbol, by its hex byte
    (?![\w.])""", re.VERBOSE)
_SYMBOL_LIKE = re.compile(r"(?<![\w.:])[KD]\s+(?P<value>[0-9A-Za-z]{2,4})(?![\w.])")
_GAP = re.compile(r"^\.\.\.\s*$")
_ANNOTATED_START = re.compile(r"""
    ^\s*(?P<name>MWr|MRd|Cp[l1]D|Ack|UpdateFC_(?:P|NP|Cpl)|SKIP)\s*$   # the analyzer's name of a packet
    """, re.VERBOSE)
_ANNOTATED_NAMES = {"Cp1D": "CplD", "SKIP": "SKP"}
_LABEL = re.compile(r"""
    ^(?P<name>MWr|MRd|Cp[l1]D|Ack|Nak|UpdateFC_(?:P|NP|Cpl)|SKIP)$   # the analyzer's name of a packet
    """, re.VERBOSE)
_FIELD = re.compile(r"""
    ^(?P<field>[A-Za-z][\w.() ]*?)\s*       # a field's name: SeqNr., First DW BE, Digest(ECRC)
    :(?:\s*:)?\s*                            # its colon (printed twice in places)
    (?P<value>\S.*?)\s*$                     # its value as printed: 4057, 0 1c 0, 0x00 0x00 0x0, No ECRC
    """, re.VERBOSE)
#: The fields the analyzer annotates DLLPs with; every other field is a TLP's.
DLLP_FIELDS = ("SeqNum", "CRC16", "VC", "HdrFC", "DataFC")

_DLLP_TYPES = {0x00: "Ack", 0x10: "Nak", 0x20: "PM", 0x30: "Vendor"}
_FC = {0x4: "InitFC1", 0xC: "InitFC2", 0x8: "UpdateFC", 0x5: "InitFC1", 0xD: "InitFC2", 0x9: "UpdateFC",
       0x6: "InitFC1", 0xE: "InitFC2", 0xA: "UpdateFC"}
_FC_CLASS = {0: "P", 1: "NP", 2: "Cpl"}
_TLP_TYPES = {(0, 0x00): "MRd", (1, 0x00): "MRd", (2, 0x00): "MWr", (3, 0x00): "MWr",
              (0, 0x0A): "Cpl", (2, 0x0A): "CplD", (0, 0x04): "CfgRd0", (2, 0x04): "CfgWr0"}


@dataclass
class Packet:
    """One packet on one direction of the link."""

    direction: str            # the column's name, "TX" or "RX"
    kind: str                 # "TLP", "DLLP" or "SKP"
    name: str                 # MWr, MRd, CplD, Ack, UpdateFC_P, SKP, or "?" if its bytes were lost
    first_cycle: int
    last_cycle: int
    symbols: int              # symbol times the packet occupies, framing included
    payload_bytes: int = 0    # data carried by a TLP
    complete: bool = True     # False if lost cycles cut into it
    #: the data symbols' bytes between the framing symbols, as printed (a TLP's sequence-number field,
    #: header, data and LCRC; a DLLP's 4 bytes and CRC), and the cycle of each
    data: tuple[int, ...] = ()
    byte_cycles: tuple[int, ...] = ()
    #: the analyzer's name of the packet as printed (``Cp1D``, ``SKIP``), ``""`` if none, and its cycle
    label: str = ""
    label_cycle: int | None = None
    #: the analyzer's annotations of the packet's fields: field name (``SeqNr.``, ``Address``,
    #: ``CRC16``...) to ``(text as printed, cycle)``
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass
class SymbolTrace:
    """Packets of both directions, the cycles the trace spans, and the cycles it lost."""

    path: str
    directions: tuple[str, str]
    first_cycle: int
    last_cycle: int
    packets: list[Packet] = field(default_factory=list)
    lost_cycles: list[int] = field(default_factory=list)     # printed without their symbols
    missing_cycles: list[int] = field(default_factory=list)  # numbers skipped, no "..." before
    #: (cycle, packet name) where a line whose symbols were lost still shows the analyzer's name of the
    #: packet that starts there (``Cp1D`` read as ``CplD``, ``SKIP`` as ``SKP``)
    annotated_starts: list[tuple[int, str]] = field(default_factory=list)
    #: the analyzer's annotations of packets whose symbols the conversion lost: (cycle, name as printed,
    #: fields as :attr:`Packet.fields` holds them)
    unmatched_annotations: list[tuple[int, str, dict[str, tuple[str, int]]]] = field(default_factory=list)
    #: the runs of cycle lines between ``...`` lines: (first cycle, last cycle, lines printed, the first
    #: cycle's number as printed, the last's)
    runs: list[tuple[int, int, int, str, str]] = field(default_factory=list)
    #: data symbols between packets (the logical idle, :data:`LOGICAL_IDLE`), by direction
    idle_symbols: dict[str, int] = field(default_factory=dict)

    @property
    def cycles(self) -> int:
        return self.last_cycle - self.first_cycle + 1


def parse(path) -> SymbolTrace:
    """Parse the symbol trace at ``path``."""
    path = Path(path)
    return parse_text(read_log(path), str(path))


class _Assembler:
    """Builds the packets of one direction from its symbols, cycle by cycle."""

    def __init__(self, trace: SymbolTrace, direction: str):
        self.trace, self.direction = trace, direction
        self.open: dict | None = None
        self.lost_since_packet = False

    def lost(self, cycle: int):
        self.lost_since_packet = True
        if self.open is not None:
            self.open["complete"] = False
            self.open["symbols"] += 1
            self.open["last"] = cycle

    def symbol(self, cycle: int, kind: str, value: str, path: str, line: int):
        p = self.open
        if kind == "K" and value in ("STP", "SDP", "COM"):
            if p is not None:
                if p["kind"] == "SKP":
                    self._close()
                else:
                    raise LogFormatError(path, line, f"{self.direction}: {value} inside a {p['kind']} "
                                                     f"that started at cycle {p['first']}")
            self.open = {"kind": {"STP": "TLP", "SDP": "DLLP", "COM": "SKP"}[value], "first": cycle,
                         "last": cycle, "symbols": 1, "bytes": [], "cycles": [], "complete": True}
            return
        if p is None:
            if kind == "D" and int(value, 16) == LOGICAL_IDLE:
                self.trace.idle_symbols[self.direction] = self.trace.idle_symbols.get(self.direction, 0) + 1
                return
            if self.lost_since_packet:
                # the rest of a packet whose start the conversion lost
                self.open = {"kind": "TLP" if value != "END" else "DLLP", "first": cycle, "last": cycle,
                             "symbols": 1, "bytes": [], "cycles": [], "complete": False}
                if value == "END":
                    self._close()
                elif kind == "D":
                    self.open["bytes"].append(int(value, 16))
                    self.open["cycles"].append(cycle)
                return
            raise LogFormatError(path, line, f"{self.direction}: {kind} {value} outside any packet")
        p["last"], p["symbols"] = cycle, p["symbols"] + 1
        if p["kind"] == "SKP":
            if kind == "K" and value == "SKP":
                return
            p["last"], p["symbols"] = p["last"], p["symbols"] - 1
            self._close()
            self.symbol(cycle, kind, value, path, line)
            return
        if kind == "K" and value == "END":
            self._close()
        elif kind == "D":
            p["bytes"].append(int(value, 16))
            p["cycles"].append(cycle)
        else:
            raise LogFormatError(path, line, f"{self.direction}: K {value} inside a {p['kind']}")

    def _close(self):
        p, self.open = self.open, None
        self.lost_since_packet = False
        name, payload = "?", 0
        b = p["bytes"]
        if p["kind"] == "SKP":
            name = "SKP"
        elif p["kind"] == "DLLP" and p["complete"] and b:
            name = _DLLP_TYPES.get(b[0] & 0xF0) or (
                f"{_FC.get(b[0] >> 4, 'FC')}_{_FC_CLASS.get((b[0] >> 4) & 0x3, '?')}")
        elif p["kind"] == "TLP" and p["complete"] and len(b) >= 6:
            fmt, typ = b[2] >> 5, b[2] & 0x1F
            name = _TLP_TYPES.get((fmt, typ), f"TLP(fmt={fmt},type={typ:#x})")
            if fmt & 0x2:
                payload = 4 * (((b[4] & 0x3) << 8) | b[5])
        self.trace.packets.append(Packet(self.direction, p["kind"], name, p["first"], p["last"],
                                         p["symbols"], payload, p["complete"], tuple(b), tuple(p["cycles"])))


def parse_text(text: str, path: str = "<text>") -> SymbolTrace:
    """Parse a symbol trace given as text; ``path`` names it in errors."""
    directions = None
    trace = None
    sides: tuple[_Assembler, _Assembler] | None = None
    previous = None
    after_gap = False
    last_line = 0
    notes: list[tuple[int, int, str]] = []  # (cycle, side of the symbols it stands on, text)
    run = None  # the run of cycle lines under way: [first, last, lines, first as printed, last as printed]
    for number, raw in enumerate(log_lines(text), start=1):
        line = raw.rstrip()
        if directions is None:
            m = _HEADER.match(line.strip())
            if m:
                directions = (m["first"].upper(), m["second"].upper())
            continue
        if _GAP.match(line.strip()):
            after_gap = True
            run = None
            continue
        m = _CYCLE.match(line.strip())
        if not m:
            continue
        last_line = number
        cycle = int(m["cycle"])
        if trace is None:
            trace = SymbolTrace(path, directions, cycle, cycle)
            sides = (_Assembler(trace, directions[0]), _Assembler(trace, directions[1]))
        elif cycle <= previous:
            raise LogFormatError(path, number, f"cycle {cycle} does not follow cycle {previous}")
        elif cycle > previous + 1 and not after_gap:
            trace.missing_cycles.extend(range(previous + 1, cycle))
        after_gap = False
        if run is None:
            run = [cycle, cycle, 0, m["cycle"], m["cycle"]]
            trace.runs.append(run)
        run[1:3], run[4] = (cycle, run[2] + 1), m["cycle"]
        rest = m["rest"]
        notes += _annotations(cycle, rest)
        symbols = [("K", s["control"]) if s["k"] else ("D", s["byte"]) for s in _SYMBOL.finditer(rest)]
        candidates = list(_SYMBOL_LIKE.finditer(rest))
        if len(candidates) > len(symbols):
            bad = next(c for c in candidates if not _SYMBOL.fullmatch(c.group(0)))
            raise LogFormatError(path, number, f"unknown symbol {bad.group(0)!r}")
        if len(symbols) > 2:
            raise LogFormatError(path, number, f"{len(symbols)} symbols in one cycle; a line holds two")
        if len(symbols) == 2:
            for side, (kind, value) in zip(sides, symbols):
                side.symbol(cycle, kind, value, path, number)
        else:
            trace.lost_cycles.append(cycle)
            for side in sides:
                side.lost(cycle)
            named = _ANNOTATED_START.match(rest) if not symbols else None
            if named:
                trace.annotated_starts.append((cycle, _ANNOTATED_NAMES.get(named["name"], named["name"])))
        trace.last_cycle = previous = cycle
    if directions is None:
        raise LogFormatError(path, 1, "no 'Cycle TX RX' header line")
    if trace is None:
        raise LogFormatError(path, last_line or 1, "no cycles")
    for side in sides:
        if side.open is not None:
            if side.open["complete"]:
                raise LogFormatError(path, last_line, f"{side.direction}: trace ends inside a "
                                                      f"{side.open['kind']} that started at cycle {side.open['first']}")
            side._close()
    trace.packets.sort(key=lambda p: (p.first_cycle, p.direction))
    trace.runs = [tuple(r) for r in trace.runs]
    _attach(trace, notes)
    return trace


def _annotations(cycle: int, rest: str) -> list[tuple[int, int, str]]:
    """The annotations on one line: the text between its symbols, each with its side (0 before the first
    symbol, 1 after it, -1 on a line with no symbol)."""
    spans = [m.span() for m in _SYMBOL.finditer(rest)]
    if not spans:
        return [(cycle, -1, rest.strip())] if rest.strip() else []
    cuts = [0] + [x for span in spans for x in span] + [len(rest)]
    out = []
    for k in range(0, len(cuts), 2):
        text = re.sub(r"\s+", " ", rest[cuts[k]:cuts[k + 1]]).strip()
        if text:
            out.append((cycle, 0 if k == 0 else 1, text))
    return out


def _family(label: str) -> str:
    return {"SKIP": "SKP"}.get(label, "TLP" if label in ("MWr", "MRd", "CplD", "Cp1D") else "DLLP")


def _attach(trace: SymbolTrace, notes: list[tuple[int, int, str]]) -> None:
    """Give each packet the analyzer's name and field annotations printed beside it.

    A name stands on the line where its packet starts (or, where the conversion lost the start, on a lost
    line just before the packet's first symbol shown). A field belongs to the packet of its kind (a DLLP's
    for :data:`DLLP_FIELDS`, else a TLP's) that started last at or before its line, named or not, as the
    analyzer prints a packet's fields on the lines after its start. Annotations of packets the trace does
    not show (a name on lost lines with no packet after it) go to ``unmatched_annotations``.
    """
    lost = set(trace.lost_cycles)
    fields = []
    starts: list[tuple[int, str, dict]] = []  # (cycle, kind, where its fields go)
    for cycle, side, text in notes:
        named = _LABEL.match(text)
        if not named:
            found = _FIELD.match(text)
            if found:
                fields.append((cycle, found["field"], found["value"]))
            continue
        label = named["name"]
        family = _family(label)
        here = [p for p in trace.packets if p.kind == family and not p.label and p.first_cycle == cycle]
        if len(here) > 1 and side >= 0:
            here = [p for p in here if p.direction == trace.directions[side]]
        if not here:
            here = [p for p in trace.packets if p.kind == family and not p.label and not p.complete
                    and p.first_cycle > cycle and all(c in lost for c in range(cycle, p.first_cycle))]
        if here:
            here[0].label, here[0].label_cycle = label, cycle
        else:
            trace.unmatched_annotations.append((cycle, label, {}))
            starts.append((cycle, family, trace.unmatched_annotations[-1][2]))
    for p in trace.packets:
        starts.append((p.label_cycle if p.label_cycle is not None else p.first_cycle, p.kind, p.fields))
    starts.sort(key=lambda s: s[0])
    for cycle, name, value in fields:
        family = "DLLP" if name in DLLP_FIELDS else "TLP"
        owner = [target for start, kind, target in starts if kind == family and start <= cycle]
        if owner:
            owner[-1].setdefault(name, (value, cycle))


def summary(trace: SymbolTrace) -> dict:
    """Payload throughput (MB/s) and the share of each direction's symbol times that packets used."""
    time_ns = trace.cycles * SYMBOL_NS
    out = {"cycles": trace.cycles, "time_ns": time_ns, "lost_cycles": len(trace.lost_cycles),
           "missing_cycles": len(trace.missing_cycles)}
    payload = sum(p.payload_bytes for p in trace.packets if p.kind == "TLP")
    out["payload_bytes"] = payload
    out["payload_mbyte_s"] = 1000 * payload / time_ns
    for d in trace.directions:
        busy = sum(p.symbols for p in trace.packets if p.direction == d)
        out[f"{d}_busy_symbols"] = busy
        out[f"{d}_share_percent"] = 100 * busy / trace.cycles
        out[f"{d}_packets"] = [p.name for p in trace.packets if p.direction == d]
    return out


def tlp_intervals(trace: SymbolTrace, name: str) -> list[int]:
    """Cycles between the starts of consecutive TLPs named ``name`` whose starts were seen."""
    starts = [p.first_cycle for p in trace.packets if p.kind == "TLP" and p.name == name and p.complete]
    return [b - a for a, b in zip(starts, starts[1:])]


def read_timings(trace: SymbolTrace) -> list[dict]:
    """Per complete read request: its cycles, and those of the completion that follows it.

    ``to_completion`` is the symbol times from the end of the request to the
    start of the next completion in the other direction; ``to_next_request``
    from the end of that completion to the start of the next request. ``None``
    where the trace does not show the packet whole.
    """
    requests = [p for p in trace.packets if p.kind == "TLP" and p.name == "MRd"]
    completions = [p for p in trace.packets if p.kind == "TLP" and p.name in ("CplD", "Cpl", "?")
                   and p.direction != (requests[0].direction if requests else None)]
    out = []
    for i, r in enumerate(requests):
        c = next((c for c in completions if c.first_cycle > r.last_cycle), None)
        nxt = requests[i + 1] if i + 1 < len(requests) else None
        ok_c = c is not None and c.complete
        out.append({
            "request_first": r.first_cycle, "request_last": r.last_cycle,
            "to_completion": (c.first_cycle - r.last_cycle - 1) if ok_c else None,
            "to_next_request": (nxt.first_cycle - c.last_cycle - 1) if ok_c and nxt is not None else None,
            "to_next_request_start": (nxt.first_cycle - r.first_cycle) if nxt is not None else None,
        })
    return out


def tally(trace: SymbolTrace) -> dict[tuple[str, str], list[int]]:
    """The symbol times of each packet, by direction and packet name (``("TX", "Ack")``), in trace order:
    the counts and sizes a text reads off the trace. A packet the conversion cut into is left out."""
    out: dict[tuple[str, str], list[int]] = {}
    for p in trace.packets:
        if p.complete:
            out.setdefault((p.direction, p.name), []).append(p.symbols)
    return out


def annotated_read_timing(trace: SymbolTrace) -> dict | None:
    """:func:`read_timings`' figures for the first read of a trace whose conversion lost the symbols of
    its request and the start of its completion, from the analyzer's names on those lines
    (``annotated_starts``): the request starts at its ``MRd`` line and is as long as the trace's whole
    ``MRd``\\ s; the completion starts at its ``CplD`` line and ends where the first TLP of the other
    direction from there ends. ``None`` if the trace does not show these."""
    starts = trace.annotated_starts
    request = next((c for c, n in starts if n == "MRd"), None)
    completion = next((c for c, n in starts if n == "CplD" and request is not None and c > request), None)
    whole = [p for p in trace.packets if p.kind == "TLP" and p.name == "MRd" and p.complete]
    if request is None or completion is None or not whole:
        return None
    request_last = request + whole[0].symbols - 1
    direction = whole[0].direction
    tail = next((p for p in trace.packets if p.kind == "TLP" and p.direction != direction
                 and p.first_cycle >= completion), None)
    following = next((p for p in whole if p.first_cycle > request), None)
    if tail is None or following is None:
        return None
    return {"request_first": request, "request_last": request_last,
            "to_completion": completion - request_last - 1,
            "to_next_request": following.first_cycle - tail.last_cycle - 1,
            "to_next_request_start": following.first_cycle - request}


def _id(high: int, low: int) -> list[tuple[str, int]]:
    """A requester's or completer's ID as bus, device and function, as the analyzer prints it."""
    return [("bus", high), ("device", low >> 3), ("function", low & 0x7)]


def decode(kind: str, data: bytes) -> dict[str, list[tuple[str, int]]]:
    """What a packet's bytes say, field by field, named as the analyzer annotates them (:attr:`Packet.fields`):
    each field a list of ``(part, value)``, one per number the analyzer prints for it (``""`` for a field
    of one number; ``bus``, ``device``, ``function`` of an ID; ``byte 0``... of the data).

    ``data`` is a TLP's or DLLP's bytes between its framing symbols (:attr:`Packet.data`): a TLP's
    sequence-number field, header, data and LCRC (3- or 4-dword header by its format; a memory request's or
    a completion's fields), or a DLLP's 4 bytes and CRC (an Ack's or Nak's sequence number, a flow-control
    update's credits). The LCRC and CRC16 are the bytes as sent, read first byte first.
    """
    b = bytes(data)
    if kind == "DLLP":
        if len(b) != 6:
            raise ValueError(f"a DLLP is 6 bytes with its CRC, not {len(b)}")
        out = {"CRC16": [("", int.from_bytes(b[4:6], "big"))]}
        if b[0] & 0xF0 in (0x00, 0x10):  # Ack, Nak
            out["SeqNum"] = [("", ((b[2] & 0xF) << 8) | b[3])]
        elif (b[0] >> 4) in _FC:
            out.update(VC=[("", b[0] & 0x7)], HdrFC=[("", ((b[1] & 0x3F) << 2) | (b[2] >> 6))],
                       DataFC=[("", ((b[2] & 0xF) << 8) | b[3])])
        return out
    if len(b) < 2 + 12 + 4:
        raise ValueError(f"a TLP is at least 18 bytes with its sequence number and LCRC, not {len(b)}")
    h = b[2:]
    fmt, typ = h[0] >> 5, h[0] & 0x1F
    header = 16 if fmt & 0x1 else 12
    length = ((h[2] & 0x3) << 8) | h[3] or 1024
    out = {"SeqNr.": [("", ((b[0] & 0xF) << 8) | b[1])], "Length": [("", length)],
           "LCRC": [("", int.from_bytes(b[-4:], "big"))]}
    if typ in (0x00, 0x01):  # memory read or write request
        out.update(RequesterID=_id(h[4], h[5]), Tag=[("", h[6])], **{"Last DW BE": [("", h[7] >> 4)],
                   "First DW BE": [("", h[7] & 0xF)]},
                   Address=[("", int.from_bytes(h[header - 4:header], "big") & ~0x3)])
    elif typ == 0x0A:  # completion
        out.update(CompleterID=_id(h[4], h[5]), BCM=[("", (h[6] >> 4) & 0x1)],
                   ByteCount=[("", ((h[6] & 0xF) << 8) | h[7])], RequesterID=_id(h[8], h[9]), Tag=[("", h[10])],
                   LowerAddress=[("", h[11])])
    if fmt & 0x2:
        payload = h[header:header + 4 * length]
        out["Data"] = [(f"byte {i}", x) for i, x in enumerate(payload)]
    return out
