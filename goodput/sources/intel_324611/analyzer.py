"""Intel 324611, its analyzer traces (§3.5's two examples, §4.6's Test 3 and §4.7's Test 4), packet by packet: each
packet's bytes against its own CRC, and each annotation of the analyzer against the bytes it decodes; and the
figures the text reads off the traces. For the pcie-reads chapter (:mod:`goodput.models.pcie_transactions`).

A PCIe analyzer prints every symbol of a packet and annotates the fields it decodes from them
(``SeqNr. : 4057``, ``Address : 0xc2000000``, ``LCRC : 0x0684C516``). The traces are verbatim excerpts
(``data/logs/published/*-symbols.log``, parsed by :mod:`goodput.logs.pcie_trace`), so every byte and every
annotation is a number the document prints. Two kinds of check hold them to each other (kind
``consistency``):

- **CRC**: the LCRC of a TLP (the CRC-16 of a DLLP), computed by :mod:`goodput.models.pcie_crc` from the packet's
  bytes as printed, against the CRC bytes printed before its ``END``. It verifies every printed byte of the
  packet. Where it does not reproduce them, :func:`goodput.models.pcie_crc.repairs` names the byte or two that, as
  printed, the CRC was not computed over.
- **annotation**: each number of each annotation against the field's bits in the packet's bytes
  (:func:`goodput.logs.pcie_trace.decode`). The analyzer prints an ID as bus, device and function in
  hexadecimal without ``0x`` (``0 1c 0``); the checks write them with it (a check's printed number is read
  as decimal unless it starts ``0x``), the form the census counts them in (:data:`goodput.checks.coverage.NUMBER_RULE`).

The annotations of the packets whose symbols the conversion lost (the start of Test 4) are held to each
other by :func:`lost_packet_checks`: the CRC they print against that of the packet they describe.
Between the packets, :func:`framing_checks` holds the cycle numbers to each other and the idle bytes to
the logical idle.

Where the conversion lost a packet's first symbols but kept the analyzer's ``SeqNr.`` annotation (the
first completion of Test 4), the lost sequence-number byte is taken from that annotation, and the checks
say so; the packet's other annotations are checked against its bytes as usual.

The figures the text reads off the traces (the examples' throughputs and shares, Test 3's TLP interval, Test 4's
read timings) are checked against the parsed traces by :func:`symbol_trace_checks` and
:func:`test4_first_read_checks`.
"""

from __future__ import annotations

import re

from goodput import checks
from goodput.core import data
from goodput.logs import pcie_trace
from goodput.models import pcie_crc, pcie_transactions
from goodput.models.pcie_transactions import SYMBOL_LOGS, published_log, trace_directions

__all__ = ["TRACE_NAMES", "restored_data", "crc_check", "annotation_checks", "packet_checks", "framing_checks", "rebuilt",
           "lost_packet_checks", "acknowledged_checks", "packet_source_checks", "symbol_trace_checks",
           "test4_first_read_checks", "test4_first_read_source_checks"]


#: How the text names each trace of :data:`goodput.models.pcie_transactions.SYMBOL_LOGS`.
TRACE_NAMES = {1: "Example 1", 2: "Example 2", 3: "Test 3", 4: "Test 4"}

_NUMBER = re.compile(r"^(?:0[xX][0-9A-Fa-f]+|[0-9A-Fa-f]+)$")
#: Fields whose printed numbers are hexadecimal without ``0x`` (bus, device, function).
_BARE_HEX = ("RequesterID", "CompleterID")


def _row(p: pcie_trace.Packet) -> str:
    return f"{p.direction} {p.label or p.name} at cycle {p.label_cycle if p.label_cycle is not None else p.first_cycle}"


def restored_data(p: pcie_trace.Packet) -> tuple[bytes, str]:
    """A packet's bytes for its CRC and fields, and a note: as printed, or, for a TLP whose first symbols the
    conversion lost (the analyzer's name stands on a lost line before its first byte shown), with the lost
    bytes of its sequence-number field taken from its ``SeqNr.`` annotation. Raises ``ValueError`` for a
    packet whose bytes cannot be completed so."""
    if p.complete:
        return bytes(p.data), ""
    if p.kind != "TLP" or p.label_cycle is None or "SeqNr." not in p.fields:
        raise ValueError(f"{_row(p)}: the conversion cut into the packet and no annotation restores it")
    lost = p.first_cycle - p.label_cycle - 1  # the STP took one of the lost cycles
    if not 1 <= lost <= 2 or len(p.byte_cycles) != p.last_cycle - p.first_cycle:
        raise ValueError(f"{_row(p)}: the conversion lost more of the packet than its sequence number")
    text, cycle = p.fields["SeqNr."]
    restored = pcie_crc.sequence_field(int(text))[:lost]
    note = (f"The conversion lost the packet's first {lost + 1} symbols (STP and {lost} byte"
            f"{'s' if lost > 1 else ''} of its sequence number); {restored.hex(' ').upper()} comes from its "
            f"SeqNr. annotation ({text}, cycle {cycle}).")
    return restored + bytes(p.data), note


def _where(data: bytes, offset: int) -> str:
    """What byte ``offset`` of a TLP's bytes (sequence number first) holds, in words."""
    if offset < 2:
        return "sequence number"
    header = 16 if data[2] & 0x20 else 12
    if offset < 2 + header:
        if offset >= 2 + header - 4 and data[2] & 0x1F in (0x00, 0x01):
            return f"address byte {offset - (2 + header - 4)}"
        return f"header byte {offset - 2}"
    if offset >= len(data) - 4:
        return f"LCRC byte {offset - (len(data) - 4)}"
    return f"data byte {offset - 2 - header}"


def crc_check(trace_number: int, p: pcie_trace.Packet) -> checks.SourceCheck:
    """A packet's CRC bytes as printed against the CRC of its other bytes as printed (``consistency``); it
    verifies every printed byte of the packet."""
    data, note = restored_data(p)
    body, printed = (data[:-4], data[-4:]) if p.kind == "TLP" else (data[:4], data[4:])
    polynomial, width = ((pcie_crc.LCRC_POLYNOMIAL, 32) if p.kind == "TLP" else (pcie_crc.DLLP_CRC_POLYNOMIAL, 16))
    computed = pcie_crc.crc(body, polynomial, width)
    quantity = "LCRC" if p.kind == "TLP" else "CRC16"
    if computed != printed:
        found = pcie_crc.repairs(body, printed, polynomial, width)
        if found:
            changes = "; ".join(", ".join(f"{_where(data, i) if p.kind == 'TLP' else f'byte {i}'} 0x{x:02X} "
                                          f"where it is printed 0x{body[i]:02X}" for i, x in sorted(r.items()))
                                for r in found[:3])
            note = " ".join(filter(None, (note, (
                f"The printed {quantity} is that of this packet with {changes}"
                + (f" (and {len(found) - 3} more ways)" if len(found) > 3 else "")
                + ": the bytes printed there are not the ones the CRC was computed over."))))
        else:
            note = " ".join(filter(None, (note, f"No change of one or two printed bytes gives the printed {quantity}.")))
    return checks.check(
        "Intel 324611", f"{TRACE_NAMES[trace_number]} trace", _row(p), f"{quantity} bytes", "",
        "0x" + printed.hex().upper(), int.from_bytes(computed, "big"), note,
        f"logs/published/{SYMBOL_LOGS[trace_number]}", kind="consistency", exact=True, verifies=len(p.data))


def _printed_numbers(field: str, text: str) -> list[str]:
    """The numbers of an annotation as the checks write them: ``"0 1c 0"`` -> ``["0x0", "0x1c", "0x0"]``,
    ``"1 DWs"`` -> ``["1"]``, ``"0x63 0x00 0x0"`` as it is."""
    tokens = [t for t in text.split() if _NUMBER.match(t) and (field in _BARE_HEX or not t.isalpha())]
    if field in _BARE_HEX:
        return ["0x" + t for t in tokens]
    return [t for t in tokens if t.lower().startswith("0x") or t.isdigit()]


def annotation_checks(trace_number: int, p: pcie_trace.Packet) -> list[checks.SourceCheck]:
    """Each number of each annotation of a packet against the field's bits in its bytes (``consistency``)."""
    data, note = restored_data(p)
    decoded = pcie_trace.decode(p.kind, data)
    body, crc = (data[:-4], data[-4:]) if p.kind == "TLP" else (data[:4], data[4:])
    crc_holds = crc == (pcie_crc.lcrc(body) if p.kind == "TLP" else pcie_crc.dllp_crc(body))
    out = []
    for field, (text, cycle) in p.fields.items():
        if field not in decoded or (field == "SeqNr." and not p.complete):
            continue  # a field that prints no number, or the annotation the packet was restored from
        parts, printed = decoded[field], _printed_numbers(field, text)
        if field == "Data":
            parts = parts[:len(printed)]  # the conversion cut the list short: "0x63 0x00 0x0"
        if len(printed) != len(parts):
            raise ValueError(f"{SYMBOL_LOGS[trace_number]} cycle {cycle}: {field} {text!r} prints "
                             f"{len(printed)} numbers, the packet's bytes give {len(parts)}")
        for (part, value), shown in zip(parts, printed):
            extra = ("The analyzer prints the whole byte; its bit 7 is reserved." if field == "LowerAddress" and
                     value & 0x80 else "")
            if checks.printed_value(shown) != value:
                extra = " ".join(filter(None, (extra, f"The packet's bytes give {checks.round_like(value, shown)}"
                                               + (", and its CRC reproduces them." if crc_holds else "."))))
            out.append(checks.check(
                "Intel 324611", f"{TRACE_NAMES[trace_number]} trace", _row(p),
                f"{field} {part}".strip(), "", shown, value,
                " ".join(filter(None, (f"Annotation at cycle {cycle}.", extra, note))),
                f"logs/published/{SYMBOL_LOGS[trace_number]}", kind="consistency", exact=True))
    return out


def _crc_holds(p: pcie_trace.Packet) -> bool:
    """Whether a packet's CRC bytes as printed are the CRC of its other bytes as printed."""
    try:
        data, _ = restored_data(p)
    except ValueError:
        return False
    if p.kind == "TLP":
        return pcie_crc.lcrc(data[:-4]) == data[-4:]
    return p.kind == "DLLP" and pcie_crc.dllp_crc(data[:4]) == data[4:]


def framing_checks(trace_number: int, trace: pcie_trace.SymbolTrace) -> list[checks.SourceCheck]:
    """The numbers of a trace between and around its packets (``consistency``):

    - each run of cycle lines between ``...`` lines counts up by one a line: its last cycle number against
      its first plus its lines (verifying each number after the first; the parser refuses numbers that go
      backwards). A number skipped inside a packet whose CRC reproduces its bytes is an erratum (no line of
      symbols can be missing there); one skipped between packets is unexplained (the trace does not show
      whether a line or only its number is missing);
    - each direction's data symbols between packets are the logical idle byte (00): the parser refuses
      any other byte outside a packet where no cycle was lost, so the check verifies every one of them.
    """
    where, resource = f"{TRACE_NAMES[trace_number]} trace", f"logs/published/{SYMBOL_LOGS[trace_number]}"
    out = []
    for first, last, lines, first_text, last_text in trace.runs:
        if lines < 2:
            continue
        skipped = [c for c in trace.missing_cycles if first < c < last]
        inside = {c: next((p for p in trace.packets if p.first_cycle < c < p.last_cycle and _crc_holds(p)), None)
                  for c in skipped}
        note = ""
        if skipped:
            between = [str(c) for c, p in inside.items() if p is None]
            note = " ".join([f"The run skips cycle number{'s' if len(skipped) > 1 else ''} "
                             + ", ".join(str(c) for c in skipped) + "."]
                            + [f"{c} falls inside {_row(p)}, whose CRC reproduces its bytes: no line of symbols "
                               "is missing there, only its number." for c, p in inside.items() if p is not None]
                            + ([f"{', '.join(between)} fall{'s' if len(between) == 1 else ''} between packets: "
                                "the trace does not show whether lines or only their numbers are missing."]
                               if between else []))
        out.append(checks.check(
            "Intel 324611", where, f"cycles from {first_text}", "last cycle number of the run", "",
            last_text, first + lines - 1, note or f"{lines} lines from cycle {first_text}, one a cycle.", resource,
            kind="consistency", exact=True, verifies=lines - 1,
            otherwise="erratum" if all(p is not None for p in inside.values()) else "unexplained"))
    for direction in trace.directions:
        idle = trace.idle_symbols.get(direction, 0)
        if idle:
            out.append(checks.check(
                "Intel 324611", where, f"{direction} between packets", "idle data symbols", "",
                "00", pcie_trace.LOGICAL_IDLE,
                f"All {idle} data symbols this direction prints outside its packets are the logical idle byte.",
                resource, kind="consistency", exact=True, verifies=idle))
    return out


#: The DLLP type of each flow-control update the analyzer names (the high nibble of its first byte).
_UPDATE_FC = {"UpdateFC_P": 0x8, "UpdateFC_NP": 0x9, "UpdateFC_Cpl": 0xA}


def rebuilt(label: str, fields: dict[str, tuple[str, int]]) -> tuple[bytes, bytes, int] | None:
    """A packet whose symbols the conversion lost, rebuilt from the analyzer's annotations of it: the bytes
    its CRC covers, the CRC the annotation prints, and how many printed numbers go into the two; ``None``
    for a packet the annotations do not describe whole.

    An Ack is its sequence number; a flow-control update its VC and credits; a memory read request
    (3-dword header, no data) its sequence number, requester, tag, byte enables, address and length, with
    the traffic class 0 and no attribute, digest or poisoning set, as the annotations ``RO- NS- EP-`` and
    ``No ECRC`` say (the analyzer does not print the traffic class).
    """
    def number(name: str, base: int = 10) -> int:
        return int(fields[name][0], base if not fields[name][0].lower().startswith("0x") else 16)

    try:
        if label == "Ack":
            return bytes(2) + pcie_crc.sequence_field(number("SeqNum")), bytes.fromhex(
                f"{number('CRC16'):04x}"), 2
        if label in _UPDATE_FC:
            header, data = number("HdrFC"), number("DataFC")
            body = bytes([_UPDATE_FC[label] << 4 | number("VC"), header >> 2, (header & 0x3) << 6 | data >> 8,
                          data & 0xFF])
            return body, bytes.fromhex(f"{number('CRC16'):04x}"), 4
        if label == "MRd" and fields.get("Attr", ("",))[0] == "RO- NS- EP-" and \
                fields.get("Digest(ECRC)", ("",))[0] == "No ECRC":
            bus, device, function = (int(t, 16) for t in fields["RequesterID"][0].split())
            length = int(fields["Length"][0].split()[0])
            body = (pcie_crc.sequence_field(number("SeqNr.")) + bytes([0x00, 0x00, length >> 8 & 0x3, length & 0xFF,
                                                                       bus, device << 3 | function, number("Tag"),
                                                                       number("Last DW BE", 16) << 4
                                                                       | number("First DW BE", 16)])
                    + number("Address", 16).to_bytes(4, "big"))
            return body, bytes.fromhex(f"{number('LCRC'):08x}"), 10
    except (KeyError, ValueError):
        return None
    return None


def lost_packet_checks(trace_number: int, trace: pcie_trace.SymbolTrace) -> list[checks.SourceCheck]:
    """The annotations of each packet whose symbols the conversion lost, against each other
    (``consistency``): the CRC the analyzer prints against the CRC of the packet :func:`rebuilt` from its
    other annotations; it verifies every number that goes into the two."""
    out = []
    for cycle, label, fields in trace.unmatched_annotations:
        found = rebuilt(label, fields)
        if found is None:
            continue
        body, printed, numbers = found
        quantity = "LCRC" if len(printed) == 4 else "CRC16"
        computed = pcie_crc.lcrc(body) if quantity == "LCRC" else pcie_crc.dllp_crc(body)
        out.append(checks.check(
            "Intel 324611", f"{TRACE_NAMES[trace_number]} trace", f"{label} at cycle {cycle} (symbols lost)",
            f"{quantity} annotation against the other annotations", "", fields[quantity][0],
            int.from_bytes(computed, "big"),
            f"The conversion lost this packet's symbols; rebuilt from its annotations, its bytes are "
            f"{body.hex(' ').upper()}.", f"logs/published/{SYMBOL_LOGS[trace_number]}", kind="consistency",
            exact=True, verifies=numbers))
    return out


def acknowledged_checks(trace_number: int, trace: pcie_trace.SymbolTrace) -> list[checks.SourceCheck]:
    """The sequence number annotated on each TLP whose own sequence-number bytes the conversion cut (no
    annotation check can read it off its bytes), against the Ack that acknowledges it: the first Ack the
    other way after it carries the sequence number of the last TLP received (``consistency``)."""
    out = []
    for p in trace.packets:
        if p.kind != "TLP" or p.complete or "SeqNr." not in p.fields:
            continue
        ack = next((q for q in trace.packets if q.name == "Ack" and q.direction != p.direction
                    and q.first_cycle > p.last_cycle and "SeqNum" in q.fields), None)
        if ack is None:
            continue
        text, _ = p.fields["SeqNr."]
        out.append(checks.check(
            "Intel 324611", f"{TRACE_NAMES[trace_number]} trace", _row(p),
            "sequence number the next Ack acknowledges", "", text, int(ack.fields["SeqNum"][0]),
            f"{_row(ack)} acknowledges sequence number {ack.fields['SeqNum'][0]}, the last TLP it received.",
            f"logs/published/{SYMBOL_LOGS[trace_number]}", kind="consistency", exact=True))
    return out


def packet_checks(trace_number: int, trace: pcie_trace.SymbolTrace) -> list[checks.SourceCheck]:
    """The CRC and annotation checks of every TLP and DLLP of a parsed trace that shows its CRC."""
    out = []
    for p in trace.packets:
        if p.kind not in ("TLP", "DLLP"):
            continue
        try:
            restored_data(p)
        except ValueError:
            continue  # the conversion lost too much of it: the log's header says so
        out.append(crc_check(trace_number, p))
        out += annotation_checks(trace_number, p)
    return out


@checks.provider(pcie_transactions)
def packet_source_checks():
    """Intel 324611: every packet of the §3.5, §4.6 and §4.7 analyzer traces against its CRC and annotations."""
    traces = {n: pcie_trace.parse(published_log(name)) for n, name in SYMBOL_LOGS.items()}
    return [c for n, trace in traces.items()
            for c in packet_checks(n, trace) + framing_checks(n, trace) + lost_packet_checks(n, trace)
            + acknowledged_checks(n, trace)]


# --- the figures the text reads off the traces --------------------------------------------------------

_EXAMPLE_TRACE_NOTES = {
    (2, "net read throughput"):
        "The trace runs {cycles} symbol times ({time:g} ns) and carries {payload} bytes; the text "
        "divides by 2128 ns, which it also calls 523 x 4 ns.",
    (2, "allocated read bandwidth share"):
        "The trace's read direction carries {busy} symbols of packets, no SKP among them; the text "
        "counts one SKP there (124 symbols).",
}


@checks.provider(pcie_transactions)
def symbol_trace_checks():
    """The figures the text reads off the analyzer traces, from the parsed traces."""
    out = []
    t = data.load("intel-324611-s3-5-examples")
    for row in t.itertuples():
        if row.basis != "trace":
            continue
        trace = pcie_trace.parse(published_log(SYMBOL_LOGS[row.example]))
        s = pcie_trace.summary(trace)
        write, read = trace_directions(trace)
        model = {"net write throughput": s["payload_mbyte_s"], "net read throughput": s["payload_mbyte_s"],
                 "allocated read bandwidth share": s[f"{read}_share_percent"],
                 "allocated write bandwidth share": s[f"{write}_share_percent"]}[row.quantity]
        note = _EXAMPLE_TRACE_NOTES.get((row.example, row.quantity), "").format(
            cycles=s["cycles"], time=s["time_ns"], payload=s["payload_bytes"], busy=s[f"{read}_busy_symbols"])
        out.append(checks.compare(t, row.Index, "value", model,
                                  f"Example {row.example} trace: {row.quantity} ({row.unit})", note,
                                  quantity=row.quantity, unit=row.unit))

    t = data.load("intel-324611-s4-6-s4-7-trace-figures")
    test3 = pcie_trace.parse(published_log(SYMBOL_LOGS[3]))
    intervals = pcie_trace.tlp_intervals(test3, "MWr")
    payload = [p.payload_bytes for p in test3.packets if p.name == "MWr"]
    interval_ns = pcie_trace.SYMBOL_NS * sum(intervals) / len(intervals)
    test4 = pcie_trace.parse(published_log(SYMBOL_LOGS[4]))
    reads = pcie_trace.read_timings(test4)
    # The conversion lost the first request's symbols: the trace shows requests 2 and 3 whole.
    seen = {2: reads[0], 3: reads[1]}
    ns = pcie_trace.SYMBOL_NS
    for row in t.itertuples():
        label = f"Test {row.test}: {row.quantity} #{row.occurrence} ({row.unit})"
        if row.test == 3:
            model = interval_ns if row.quantity == "TLP interval" else 1000 * (payload[0] / interval_ns)
        else:
            timing = seen.get(row.occurrence)  # each figure belongs to the read it follows
            key = {"read to completion time": "to_completion", "completion to next request": "to_next_request",
                   "request to request": "to_next_request_start", "read throughput": "to_next_request_start"}
            value = timing and timing[key[row.quantity]]
            if value is None:
                continue  # not in the trace as converted: see the log's header
            model = value * ns if row.unit == "ns" else 1000 * 4 / (value * ns)
        out.append(checks.compare(t, row.Index, "value", model, label,
                                  quantity=row.quantity, unit=row.unit))
    return out


def test4_first_read_checks(table, trace) -> list:
    """The first occurrence of each Test 4 figure (the first read) against
    :func:`goodput.logs.pcie_trace.annotated_read_timing` of the Test 4 trace (``prose``)."""
    timing = pcie_trace.annotated_read_timing(trace)
    if timing is None:
        raise ValueError(f"{trace.path}: the analyzer's names do not show the first read")
    ns = pcie_trace.SYMBOL_NS
    payload = next(p.payload_bytes for p in trace.packets if p.name == "CplD" and p.complete)
    key = {"read to completion time": "to_completion", "completion to next request": "to_next_request",
           "request to request": "to_next_request_start", "read throughput": "to_next_request_start"}
    out = []
    for row in table[(table["test"] == 4) & (table["occurrence"] == 1)].itertuples():
        cycles = timing[key[row.quantity]]
        model = cycles * ns if row.unit == "ns" else 1000 * payload / (cycles * ns)
        out.append(checks.compare(
            table, row.Index, "value", model, f"Test 4: {row.quantity} #1 ({row.unit})",
            "The conversion lost the first read's symbols; the analyzer's names on those lines place its "
            f"request at cycle {timing['request_first']} and its completion at cycle "
            f"{timing['request_last'] + timing['to_completion'] + 1}.",
            quantity=row.quantity, unit=row.unit, kind="prose"))
    return out


@checks.provider(pcie_transactions)
def test4_first_read_source_checks():
    """Intel 324611 §4.7: the figures about the first read of the Test 4 trace, whose symbols the conversion
    lost, from the analyzer's packet names on those lines."""
    return test4_first_read_checks(data.load("intel-324611-s4-6-s4-7-trace-figures"),
                                   pcie_trace.parse(published_log(SYMBOL_LOGS[4])))
