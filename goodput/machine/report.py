"""``goodput from FILE...``: what Linux printed about a link, read, with the ceiling the book's model gives for those
settings, any measurement's share of it, and what looks wrong.

Each file (or ``-``, standard input) may be any of the formats of :mod:`goodput.machine`; a header of ``# `` lines,
as the book's captured outputs have, is passed over. ``ethtool`` and ``ip link`` outputs of one interface are
joined (the speed of the one, the MTU of the other), and an ``iperf3 -J`` run is measured against the TCP ceiling
of the Ethernet link the files give (or ``--rate-mbit-s``), as is a TCP run of the book's firmware.
"""

from __future__ import annotations

import os
import sys

from goodput.core import chapters, resources
from goodput.core.errors import GoodputError, LogFormatError, ParameterError
from goodput.logs.text import log_lines
from goodput.machine import FORMATS, MODULES, read, recognise
from goodput.machine.grammar import MAX_PASTE_BYTES, measured
from goodput.models import can, pcie, tcp, usb  # the chapters' models: only goodput from loads this module

__all__ = ["report", "lines", "read_source", "fixture", "PCIE_SIZE_BYTES", "USB_TRANSFER_BYTES", "DEFAULT_MTU_BYTES"]

#: The transfer the PCI Express ceiling is given for: large enough that the link, not the transfer, sets it.
PCIE_SIZE_BYTES = 65536
#: The bulk transfer the USB ceiling is given for (the USB chapter's starting one: a MiB).
USB_TRANSFER_BYTES = 1 << 20
#: The MTU an Ethernet link is taken to have where no ``ip link`` output says.
DEFAULT_MTU_BYTES = 1500
#: The book's own captured outputs (tools/capture_machine.sh), each with a header naming its source.
FIXTURES = resources.path("data", "machine")


def fixture(name: str) -> str:
    """The path of the book's captured output ``name`` (``lspci-tree-fsl-p2020.txt``) relative to where the process
    runs (``../data/machine/...`` from a notebook), so that what is printed of it is the same on every machine."""
    path = FIXTURES / name
    try:
        return os.path.relpath(path)
    except ValueError:  # on another drive
        return str(path)


def read_source(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-``: standard input) and the name errors give it; a header of ``# `` lines removed."""
    if path == "-":
        raw, source = sys.stdin.buffer.read(MAX_PASTE_BYTES + 1), "<stdin>"
    else:
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_PASTE_BYTES + 1)
        except OSError as exc:
            raise GoodputError(f"{path}: {exc.strerror or exc}") from None
        source = path
    if len(raw) > MAX_PASTE_BYTES:
        raise LogFormatError(source, 1, f"over {MAX_PASTE_BYTES >> 20} MB: no output these tools print is that long")
    raw = raw.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark before the text is no part of it
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise LogFormatError(source, line, f"byte {raw[exc.start]:#04x} is not UTF-8") from None
    body = log_lines(text)
    skip = 0
    while skip < len(body) and body[skip].startswith("# "):
        skip += 1
    if skip == len(body):
        raise LogFormatError(source, 1, "nothing in it (a header alone, or an empty file)")
    # the header's lines stay as blank ones: a line number the reader gets is the file's own
    return "\n".join([""] * skip + body[skip:]), source


def report(paths: list[str], rate_mbit_s: float | None = None, tcp_options_bytes: int | None = None) -> dict:
    """Every link and measurement in ``paths``, with the model's ceilings and the measurements' shares. A
    measurement's ceiling is the TCP stream's at ``rate_mbit_s`` (else the line rate ethtool's output gives), the MTU
    ``ip link``'s output gives (else 1500) and ``tcp_options_bytes`` (else what the run's MSS implies, else none)."""
    if tcp_options_bytes is not None:
        tcp.PARAMETERS["tcp_options_bytes"].check(tcp_options_bytes)
    files, links, measurements = [], [], []
    for path in paths:
        text, source = read_source(path)
        fmt = recognise(text)
        if fmt is None:
            raise LogFormatError(source, 1, f"none of {', '.join(f.title for f in FORMATS.values())}: no line any of "
                                            f"them prints was found")
        records = read(fmt, text, source)
        entry = {"file": source, "format": fmt.title}
        if fmt.measure:
            found, skipped = measured(fmt, records, source)
            for m in found:
                m.update(file=source, format=fmt.title, unit=fmt.measure.unit)
            entry.update(measurements=found, skipped=skipped)
            measurements += found
        else:
            found, skipped = MODULES[fmt.key].links(records)
            for link in found:
                link["kind"] = {"lspci": "pcie", "ethtool": "ethernet", "lsusb": "usb"}.get(fmt.key, "")
                link["file"] = source
            entry.update(links=found, skipped=skipped)
            links += found
        files.append(entry)
    links = _joined(links)
    for link in links:
        try:
            link["ceiling"] = _ceiling(link)
        except ParameterError as exc:  # a value the format allows that the model does not (an MTU of 64 KiB)
            raise LogFormatError(link["file"], link["line"], f"the model takes no such link: {exc}") from None
    for m in measurements:
        try:
            m.update(_share(m, links, rate_mbit_s, tcp_options_bytes))
        except ParameterError as exc:
            raise LogFormatError(m["file"], m["line"], f"the model takes no such run: {exc}") from None
    return {"files": files, "links": links, "measurements": measurements}


def _joined(links: list[dict]) -> list[dict]:
    """``ip link``'s interfaces joined to ``ethtool``'s of the same name (its MTU, its kind): one link each."""
    by_name = {l["interface"]: l for l in links if l["kind"] == "ethernet"}
    out = []
    for link in links:
        if "interface" in link and link["kind"] == "" and link["interface"] in by_name:
            if "mtu_bytes" in link:
                by_name[link["interface"]]["mtu_bytes"] = link["mtu_bytes"]
            continue
        if link["kind"] == "" and link.get("link_type") == "can":
            link["kind"] = "can"
        elif link["kind"] == "" and link.get("link_type") == "ether":
            link["kind"] = "ethernet-mtu"  # an MTU, no speed: no ceiling without ethtool's
        out.append(link)
    return out


def _ceiling(link: dict) -> dict:
    kind = link["kind"]
    if kind == "pcie":
        settings = {k: link[k] for k in ("mps", "mrrs", "rcb") if k in link}
        values = pcie.Link(gen=link["generation"], lanes=link["lanes"], **settings)
        return {"size_bytes": PCIE_SIZE_BYTES,
                "write_gbit_s": pcie.goodput_gbit_s("write", values, PCIE_SIZE_BYTES),
                "read_gbit_s": pcie.goodput_gbit_s("read", values, PCIE_SIZE_BYTES),
                "chapter": chapters.presenting(pcie.__name__).id}
    if kind == "usb":
        r = usb.evaluate(generation=link["generation"], transfer_bytes=USB_TRANSFER_BYTES)
        return {"transfer_bytes": USB_TRANSFER_BYTES, "goodput_gbit_s": r["goodput_gbit_s"],
                "goodput_mbyte_s": r["goodput_mbyte_s"], "chapter": chapters.presenting(usb.__name__).id}
    if kind == "ethernet":
        return _tcp_ceiling(link["line_rate_mbit_s"], link.get("mtu_bytes", DEFAULT_MTU_BYTES))
    if kind == "can":
        r = can.evaluate(64, False, link["arbitration_mbit_s"], link.get("data_mbit_s", can.PARAMETERS["data_mbit_s"].default)) \
            if link.get("can_fd") else can.evaluate(8, False, link["arbitration_mbit_s"], classical_frame=True)
        return {"data_bytes": r["data_bytes"], "messages_per_s": r["messages_per_s"],
                "goodput_mbit_s": r["goodput_mbit_s"], "stuffing": "worst case", "chapter": chapters.presenting(can.__name__).id}
    return {}


def _tcp_ceiling(rate_mbit_s: float, mtu_bytes: int, options_bytes: int = 0) -> dict:
    values = tcp.goodputs(tcp.PARAMETERS["message_bytes"].maximum, rate_mbit_s, mtu_bytes,
                          tcp.IP_HEADER_BYTES[4], options_bytes)
    return {"tcp_stream_mbit_s": values["stream_mbit_s"], "line_rate_mbit_s": rate_mbit_s, "mtu_bytes": mtu_bytes,
            "tcp_options_bytes": options_bytes, "chapter": chapters.presenting(tcp.__name__).id}


def _share(m: dict, links: list[dict], rate_mbit_s: float | None, options_bytes: int | None) -> dict:
    """A TCP run's share of the stream ceiling of the Ethernet link the files (or ``--rate-mbit-s``) give, at the
    MTU ``ip link`` gives and the options ``--tcp-options`` gives or the run's MSS implies (an MSS 12 bytes short
    of MTU - 40 is the timestamps option's): what the TCP chapter's box does with the same pastes."""
    ethernet = [l for l in links if l["kind"] == "ethernet"]
    rate = rate_mbit_s if rate_mbit_s is not None else (ethernet[0]["line_rate_mbit_s"] if ethernet else None)
    if rate is None:
        return {"note": "no line rate: give ethtool's output of the interface too, or --rate-mbit-s"}
    mtu = ethernet[0].get("mtu_bytes", DEFAULT_MTU_BYTES) if ethernet else DEFAULT_MTU_BYTES
    ip = tcp.IP_HEADER_BYTES[4]
    options = options_bytes
    if options is None:
        mss = m["values"].get("mss_bytes")
        implied = tcp.options_of_mss(mtu, ip, mss) if mss is not None else 0
        options = implied if tcp.PARAMETERS["tcp_options_bytes"].allows(implied) else 0
    ceiling = _tcp_ceiling(rate, mtu, options)
    return {"ceiling": ceiling, "share": m["value"] / ceiling["tcp_stream_mbit_s"]}


def lines(r: dict) -> list[str]:
    """What ``goodput from`` prints."""
    out = []
    for f in r["files"]:
        found = f"{len(f['measurements'])} run(s)" if "measurements" in f else f"{len(f['links'])} link(s)"
        out.append(f"{f['file']}: {f['format']}: {found}" + (f", {len(f['skipped'])} passed over" if f["skipped"] else ""))
        reasons: dict[str, list[str]] = {}
        for s in f["skipped"]:  # grouped by the reason
            reasons.setdefault(s["why"], []).append(s["record"])
        out += [f"  passed over, {why}: {', '.join(names[:6])}{', ...' if len(names) > 6 else ''} ({len(names)})"
                for why, names in reasons.items()]
    for link in r["links"]:
        out += _link_lines(link)
    for m in r["measurements"]:
        head = f"measured by {m['format']}, {m['label']}: {m['value']:.4g} {m['unit']} in writes of {m['size']} bytes"
        if "share" in m:
            c = m["ceiling"]
            out.append(f"{head}: {m['share']:.1%} of the {c['tcp_stream_mbit_s']:.4g} Mbit/s TCP ceiling at "
                       f"{c['line_rate_mbit_s']:g} Mbit/s, MTU {c['mtu_bytes']}"
                       + (f", {c['tcp_options_bytes']} option bytes" if c["tcp_options_bytes"] else ""))
        else:
            out.append(f"{head} ({m['note']})")
    return out


def _link_lines(link: dict) -> list[str]:
    kind, c = link["kind"], link.get("ceiling", {})
    if kind == "pcie":
        cap = (f" (both ends capable of gen {link['cap_generation']} x{link['cap_lanes']})"
               if "cap_generation" in link and "cap_lanes" in link else "")
        sizes = ", ".join(f"{k.upper()} {link[k]}" for k in ("mps", "mrrs") if k in link)
        out = [f"{link['address']} {link['device']}",
               f"  PCIe gen {link['generation']} x{link['lanes']}{cap}; {sizes}: writes of "
               f"{c['size_bytes'] // 1024} KiB {c['write_gbit_s']:.4g} Gbit/s, reads {c['read_gbit_s']:.4g} Gbit/s"]
    elif kind == "usb":
        out = [f"{link['device']}: USB 3.2 Gen {link['generation']} ({link['speed_mbit_s']:g} Mbit/s): bulk transfers "
               f"of {c['transfer_bytes'] >> 20} MiB {c['goodput_gbit_s']:.4g} Gbit/s ({c['goodput_mbyte_s']:.4g} MB/s)"]
    elif kind == "ethernet":
        out = [f"{link['interface']}: Ethernet {link['line_rate_mbit_s']} Mb/s {link['duplex']}, MTU "
               f"{c['mtu_bytes']}: TCP stream {c['tcp_stream_mbit_s']:.4g} Mbit/s"]
    elif kind == "can":
        frame = f"CAN FD {link['arbitration_mbit_s']:g}/{link.get('data_mbit_s', 0):g}" if link.get("can_fd") \
            else f"classical CAN {link['arbitration_mbit_s']:g}"
        out = [f"{link['interface']}: {frame} Mbit/s: {c['messages_per_s']:.5g} {c['data_bytes']}-byte messages/s "
               f"(worst-case stuffing)"]
    else:
        out = [f"{link['interface']}: MTU {link.get('mtu_bytes', '?')} (no speed: give ethtool's output too)"]
    return out + [f"  ! {w}" for w in link.get("warnings", [])]


# --- goodput from -----------------------------------------------------------------------------

def run(args) -> dict:
    return report(args.files, args.rate_mbit_s, args.tcp_options_bytes)
