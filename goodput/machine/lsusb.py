"""``lsusb -t``: the tree of USB buses, hubs and devices, each line an interface with the speed its device's link
runs at (``5000M``: SuperSpeed, USB 3.2 Gen 1; ``10000M``: SuperSpeed Plus, Gen 2).

Each line of the tree is a record: a root hub (``/:  Bus 02.Port 1: Dev 1, Class=root_hub, ...``) or one interface
of a device (``|__ Port 2: Dev 3, If 0, Class=Mass Storage, Driver=uas, 5000M``). A device with several interfaces
has a line for each; :func:`links` reports it once. A device's line does not name its bus: the root hub line above
it does. usbutils 016 and later pad the numbers (``Bus 002.Port 001: Dev 003``) and print ``Driver=[none]`` where
older ones print ``Driver=,``; a link of more than one lane ends ``/x2`` (``10000M/x2``). ``lsusb -tv`` adds lines
(``ID 1d6b:0003 ...``) under each, which are no record's.
"""

from __future__ import annotations

from goodput.machine.grammar import Field, Format, Record, passed_over

__all__ = ["FORMAT", "SPEEDS_MBIT_S", "GENERATIONS", "links"]

#: The speeds the kernel reports for a USB link (Mbit/s): Low, Full, High Speed, then SuperSpeed (Plus).
SPEEDS_MBIT_S = (1.5, 12, 480, 5000, 10000, 20000)
#: The SuperSpeed generation of a one-lane link by its speed (Mbit/s): the generations the book models.
GENERATIONS = {5000: 1, 10000: 2}
#: What the speeds below SuperSpeed are called.
_SLOW = {1.5: "Low Speed", 12: "Full Speed", 480: "High Speed"}


FORMAT = Format(
    "lsusb", "lsusb -t",
    detect=r"^[ \t]*(?:/: +Bus [0-9]+\.|\|__ )Port [0-9]+: Dev [0-9]+, (?:If [0-9]+, )?Class=",
    # a root hub's line is named by its bus ("Bus 02.Port 1: Dev 1"), a device interface's by its port, device
    # and interface ("Port 2: Dev 3, If 0"): the tree's own words
    record=r"^[ \t]*(?:/: +|\|__ )((?:Bus [0-9]+\.)?Port [0-9]+: Dev [0-9]+(?:, If [0-9]+)?)",
    fields=(
        # every field is read from the record's first line ([^\n]* keeps to it): -v adds lines under it
        Field("bus", r"^[ \t]*/: +Bus ([0-9]+)\.", "int", what="bus number"),
        Field("port", r"^[^\n]*?Port ([0-9]+): Dev", "int", what="port"),
        Field("dev", r"^[^\n]*?: Dev ([0-9]+)", "int", what="device number"),
        Field("interface", r"^[^\n]*?, If ([0-9]+),", "int", what="interface number"),
        Field("class", r"^[^\n]*?, Class=([^,\n]*),", "text", what="class"),
        Field("driver", r"^[^\n]*?, Driver=([^,/\n]*)", "text", what="driver"),
        Field("hub_ports", r"^[^\n]*?, Driver=[^,/\n]*/([0-9]+)p,", "int", what="hub ports"),
        Field("indent", r"^([ \t]*)\|__ ", "text", what="indent in the tree"),
        Field("speed_mbit_s", r"^[^\n]*, ([0-9.]+)M", "number", SPEEDS_MBIT_S, "speed (Mbit/s)"),
        # more than one lane: "/x2" (as many each way), "/Tx2+Rx1" otherwise
        Field("lanes", r"^[^\n]*, [0-9.]+M/([A-Za-z0-9+]+)", "text", what="lanes"),
        # the speed of a device's one-lane link (no root hub, no hub, no "/x2"): what a box takes a generation from
        Field("device_speed_mbit_s", r"^[ \t]*\|__ [^\n]*, Class=(?!Hub,|root_hub,)[^\n]*, ([0-9.]+)M(?:\n|$)",
              "number", what="device speed (Mbit/s)"),
    ))


def _speed(mbit_s: float) -> str:
    return f"{mbit_s:g} Mbit/s"


def _bus_name(bus: int | None) -> str:
    return "" if bus is None else f"Bus {bus:02d} "


def links(records: list[Record]) -> tuple[list[dict], list[dict]]:
    """Each SuperSpeed device, once however many interfaces it has: its generation and speed, with what to know
    about its link; and a note on each root hub, hub and slower device passed over. A device's bus is that of the
    root hub line above it (none where the paste starts below one)."""
    out, skipped = [], []
    seen: dict[tuple, dict | None] = {}  # (bus, dev) -> its link, or None where it was passed over
    bus = None
    parents: list[tuple[int, Record]] = []  # the hubs above the line read, with their indent
    for r in records:
        v = r.values
        if "bus" in v or v.get("class") == "root_hub":
            bus, parents = v.get("bus"), []
            skipped.append(passed_over(r, "a root hub, not a device"))
            continue
        indent = len(v.get("indent", ""))
        parents = [(i, p) for i, p in parents if i < indent]
        key = (bus, v.get("dev"))
        if key in seen:  # another interface of a device already read
            link = seen[key]
            if link is not None and "interface" in v:
                link["interfaces"].append(v["interface"])
            continue
        driver = v.get("driver", "")
        name = (f"{_bus_name(bus)}Port {v.get('port', '?')} Dev {v.get('dev', '?')}, {v.get('class', 'no class')} "
                f"({driver if driver not in ('', '[none]') else 'no driver'})")
        speed = v.get("speed_mbit_s")
        seen[key] = None
        if v.get("class", "").lower() == "hub":
            parents.append((indent, r))
            skipped.append(passed_over(r, f"a hub ({_speed(speed) if speed else 'no speed'}), not a device: "
                                          "its link carries the devices behind it"))
        elif speed is None:
            skipped.append(passed_over(r, "no speed printed"))
        elif speed in _SLOW:
            skipped.append(passed_over(r, f"{_SLOW[speed]} ({_speed(speed)}): the book models SuperSpeed"))
        elif "lanes" in v:
            skipped.append(passed_over(r, f"{_speed(speed)} over more than one lane ({v['lanes']}): USB 3.2 Gen 1x2 "
                                          "or Gen 2x2, which the book's model does not cover"))
        elif speed not in GENERATIONS:
            skipped.append(passed_over(r, f"USB 3.2 Gen 2x2 ({_speed(speed)}), which the book's model does not "
                                          "cover"))
        else:
            warnings = []
            if parents:
                hub = parents[-1][1]
                warnings.append(f"behind a hub (Dev {hub.values.get('dev', '?')}, "
                                f"{_speed(hub.values['speed_mbit_s']) if 'speed_mbit_s' in hub.values else 'no speed'}"
                                "): the hub's link to the host is shared with its other devices")
            link = {"device": name, "line": r.line, "bus": bus, "dev": v.get("dev"),
                    "generation": GENERATIONS[speed], "speed_mbit_s": int(speed),
                    "interfaces": [v["interface"]] if "interface" in v else [], "warnings": warnings}
            seen[key] = link
            out.append(link)
    return out, skipped
