"""``lsusb -t`` (goodput.machine.lsusb) and ``ip -details link show`` of CAN interfaces (goodput.machine.iplink) read
from real outputs found in public posts (data/machine/lsusb-t-*.txt, iplink-can-*.txt): the fields are what a
person reads in the text, each device is reported once however many interfaces it has, and bad input is refused
naming its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, mutated_log, parse_or_refuse

from goodput.core.errors import LogFormatError
from goodput.machine import iplink, lsusb
from goodput.machine.grammar import read
from goodput.machine.report import read_source

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "machine"
HEADER_LINES = 6  # host, kernel, tool, command, date, source: the output starts on line 7


def records(fmt, name: str):
    text, source = read_source(str(FIXTURES / name))
    return read(fmt, text, source)


def by_line(recs):
    return {r.line: r for r in recs}


# --- lsusb -t -------------------------------------------------------------------------------------------------------

def test_each_lsusb_fixture_is_recognised_as_lsusb_and_names_where_it_came_from():
    for name in ("lsusb-t-gregkh-desktop.txt", "lsusb-t-pi-cluster.txt"):
        head = (FIXTURES / name).read_text().splitlines()[:HEADER_LINES]
        assert [line.split(":")[0] for line in head] == ["# host", "# kernel", "# tool", "# command", "# date",
                                                         "# source"], name
        assert head[3] == "# command: lsusb -t"
        text, _ = read_source(str(FIXTURES / name))
        assert lsusb.FORMAT.recognises(text)
        assert not iplink.FORMAT.recognises(text)


def test_pi_cluster_tree_every_line_is_a_record_with_what_it_prints():
    recs = records(lsusb.FORMAT, "lsusb-t-pi-cluster.txt")
    assert len(recs) == 7  # seven lines of tree, each a root hub or one interface
    assert [r.line for r in recs] == list(range(7, 14))
    root, disk = recs[0], recs[1]
    assert root.name == "Bus 02.Port 1: Dev 1"
    assert root.values == {"bus": 2, "port": 1, "dev": 1, "class": "root_hub", "driver": "xhci_hcd",
                           "hub_ports": 4, "speed_mbit_s": 5000}
    assert disk.name == "Port 1: Dev 2, If 0"
    assert disk.values == {"port": 1, "dev": 2, "interface": 0, "class": "Mass Storage", "driver": "uas",
                           "indent": "    ", "speed_mbit_s": 5000, "device_speed_mbit_s": 5000}
    assert disk.lines["speed_mbit_s"] == 8
    assert recs[2].values["speed_mbit_s"] == 480 and recs[2].values["bus"] == 1
    # the keyboard and mouse: Low Speed, printed 1.5M
    assert [r.values["speed_mbit_s"] for r in recs[4:]] == [1.5, 1.5, 1.5]
    assert [r.values["interface"] for r in recs[4:]] == [0, 1, 0]
    assert recs[4].values["indent"] == " " * 8


def test_pi_cluster_links_the_uas_disk_at_gen_1_and_passes_over_the_rest():
    found, skipped = lsusb.links(records(lsusb.FORMAT, "lsusb-t-pi-cluster.txt"))
    assert found == [{"device": "Bus 02 Port 1 Dev 2, Mass Storage (uas)", "line": 8, "bus": 2, "dev": 2,
                      "generation": 1, "speed_mbit_s": 5000, "interfaces": [0], "warnings": []}]
    why = {s["line"]: s["why"] for s in skipped}
    assert why == {7: "a root hub, not a device", 9: "a root hub, not a device",
                   10: "a hub (480 Mbit/s), not a device: its link carries the devices behind it",
                   11: "Low Speed (1.5 Mbit/s): the book models SuperSpeed",
                   13: "Low Speed (1.5 Mbit/s): the book models SuperSpeed"}  # Dev 3's If 1 (line 12): once


def test_gregkh_desktop_tree_reads_every_line_and_the_two_lane_root_hub():
    recs = records(lsusb.FORMAT, "lsusb-t-gregkh-desktop.txt")
    assert len(recs) == 39
    roots = [r for r in recs if r.values.get("class") == "root_hub"]
    assert [r.values["bus"] for r in roots] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert [r.values["speed_mbit_s"] for r in roots] == [10000, 480, 10000, 480, 10000, 480, 10000, 480, 10000, 480]
    lines = by_line(recs)
    assert lines[30].name == "Bus 06.Port 1: Dev 1" and lines[30].values["lanes"] == "x2"  # 10000M/x2
    assert "lanes" not in lines[7].values
    assert lines[14].values == {"port": 3, "dev": 3, "interface": 0, "class": "Mass Storage", "driver": "uas",
                                "indent": "    ", "speed_mbit_s": 10000, "device_speed_mbit_s": 10000}
    # a device's one-lane speed (what the USB box takes a generation from): no root hub, no hub, no two lanes
    assert "device_speed_mbit_s" not in lines[30].values and "device_speed_mbit_s" not in lines[7].values
    assert lines[35].values["driver"] == "usb-storage" and lines[35].values["indent"] == " " * 12
    # the audio device's eight interfaces, listed in the order lsusb found them
    audio = [r for r in recs if r.name.startswith("Port 5: Dev 3, If ")]
    assert [r.values["interface"] for r in audio] == [3, 1, 6, 4, 2, 0, 7, 5]
    assert [r.line for r in audio] == list(range(21, 29))


def test_gregkh_desktop_links_one_gen_2_and_one_gen_1_device():
    found, skipped = lsusb.links(records(lsusb.FORMAT, "lsusb-t-gregkh-desktop.txt"))
    assert [(l["device"], l["line"], l["generation"], l["speed_mbit_s"]) for l in found] == [
        ("Bus 08 Port 3 Dev 3, Mass Storage (uas)", 14, 2, 10000),
        ("Bus 04 Port 1 Dev 13, Mass Storage (usb-storage)", 35, 1, 5000)]
    assert found[0]["warnings"] == []
    assert found[1]["warnings"] == ["behind a hub (Dev 12, 5000 Mbit/s): the hub's link to the host is shared with "
                                    "its other devices"]
    why = {s["line"]: s["why"] for s in skipped}
    assert sum(w == "a root hub, not a device" for w in why.values()) == 10
    assert why[13] == "a hub (5000 Mbit/s), not a device: its link carries the devices behind it"
    assert why[21] == "High Speed (480 Mbit/s): the book models SuperSpeed"  # Dev 3's first line, If 3
    assert why[9] == "Full Speed (12 Mbit/s): the book models SuperSpeed"
    # each device once: Dev 2 on bus 9 (two interfaces), Dev 3 on bus 7 (eight), Dev 5 (three), Dev 18 (four)
    assert {10, 19, 20, 22, 23, 24, 25, 26, 27, 28, 41, 42, 43}.isdisjoint(why)
    assert len(skipped) == 39 - 2 - 13 == 24  # every line but the links' and the 13 repeated interfaces'


def test_a_device_on_another_bus_with_the_same_number_is_another_device():
    # Dev 2 is on buses 9, 8 and 7 of the desktop's tree: three devices, none taken for another's interface
    found, skipped = lsusb.links(records(lsusb.FORMAT, "lsusb-t-gregkh-desktop.txt"))
    dev2 = [s["line"] for s in skipped if ": Dev 2," in s["record"]]
    assert dev2 == [9, 13, 16]


def test_newer_usbutils_pads_the_numbers_and_lsusb_tv_adds_id_lines():
    # the opening lines of a usbutils 016+ ``lsusb -tv`` pasted in github.com/markbolhuis/libeizo/issues/10 (Frexxxy)
    text = ("/:  Bus 001.Port 001: Dev 001, Class=root_hub, Driver=xhci_hcd/12p, 480M\n"
            "    ID 1d6b:0002 Linux Foundation 2.0 root hub\n"
            "    |__ Port 006: Dev 002, If 0, Class=Wireless, Driver=btusb, 12M\n"
            "        ID 0bda:8922 Realtek Semiconductor Corp. \n"
            "    |__ Port 006: Dev 002, If 1, Class=Wireless, Driver=btusb, 12M\n"
            "        ID 0bda:8922 Realtek Semiconductor Corp. \n"
            "/:  Bus 002.Port 001: Dev 001, Class=root_hub, Driver=xhci_hcd/5p, 20000M/x2\n"
            "    ID 1d6b:0003 Linux Foundation 3.0 root hub\n")
    assert lsusb.FORMAT.recognises(text)
    recs = read(lsusb.FORMAT, text)
    assert [(r.name, r.line) for r in recs] == [("Bus 001.Port 001: Dev 001", 1), ("Port 006: Dev 002, If 0", 3),
                                                ("Port 006: Dev 002, If 1", 5), ("Bus 002.Port 001: Dev 001", 7)]
    assert recs[3].values == {"bus": 2, "port": 1, "dev": 1, "class": "root_hub", "driver": "xhci_hcd",
                              "hub_ports": 5, "speed_mbit_s": 20000, "lanes": "x2"}
    found, skipped = lsusb.links(recs)
    assert found == []
    assert [s["line"] for s in skipped] == [1, 3, 7]


def test_superspeed_plus_over_two_lanes_or_at_20000_is_passed_over_not_modelled():
    # the disk line of the Pi's tree as a USB 3.2 Gen 2x2 device would print it, both ways kernels have
    for speed, why in (("20000M", "USB 3.2 Gen 2x2 (20000 Mbit/s), which the book's model does not cover"),
                       ("10000M/x2", "10000 Mbit/s over more than one lane (x2): USB 3.2 Gen 1x2 or Gen 2x2, which "
                                     "the book's model does not cover")):
        text = ("/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M\n"
                f"    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, {speed}\n")
        found, skipped = lsusb.links(read(lsusb.FORMAT, text))
        assert found == []
        assert skipped[1] == {"record": "Port 1: Dev 2, If 0", "line": 2, "why": why}


def test_a_speed_no_usb_link_runs_at_is_refused_naming_the_line():
    text, source = read_source(str(FIXTURES / "lsusb-t-pi-cluster.txt"))
    bad = text.replace("Driver=uas, 5000M", "Driver=uas, 7000M")
    assert bad != text
    with pytest.raises(LogFormatError) as err:
        read(lsusb.FORMAT, bad, source)
    assert err.value.line_number == 8
    assert err.value.path == source
    assert "speed (Mbit/s) 7000 is not one there is" in str(err.value)


def test_a_text_without_a_tree_line_is_refused():
    with pytest.raises(LogFormatError) as err:
        read(lsusb.FORMAT, "Bus 002 Device 002: ID 174c:55aa ASMedia Technology Inc.\n")
    assert err.value.line_number == 1


def _lsusb_links(path):
    text, source = read_source(str(path))
    return lsusb.links(read(lsusb.FORMAT, text, source))


@FUZZ
@given(data=st.data())
def test_mutated_lsusb_trees_are_read_or_refused_naming_one_of_their_lines(data, tmp_path_factory):
    seeds = [FIXTURES / "lsusb-t-gregkh-desktop.txt", FIXTURES / "lsusb-t-pi-cluster.txt"]
    parse_or_refuse(_lsusb_links, mutated_log(data, seeds), tmp_path_factory.getbasetemp() / "mutated-lsusb.txt")


def test_lsusb_patterns_are_ones_javascript_reads_alike():
    # no named groups, no look-behind, no inline flags; one group in each pattern (the record's: its name)
    import re
    for pattern in (lsusb.FORMAT.detect, lsusb.FORMAT.record, *(f.pattern for f in lsusb.FORMAT.fields)):
        assert "(?P<" not in pattern and "(?<" not in pattern and not re.search(r"\(\?[aiLmsux]", pattern)
    assert re.compile(lsusb.FORMAT.record).groups == 1
    assert all(re.compile(f.pattern).groups == 1 for f in lsusb.FORMAT.fields)


# --- ip -details link show, CAN -------------------------------------------------------------------------------------

def test_can_fd_interface_bit_rates_sample_point_and_fd():
    (can0,) = records(iplink.FORMAT, "iplink-can-fd-pi-hats.txt")
    assert can0.name == "can0" and can0.line == 7
    assert can0.values == {"mtu": 72, "link_type": "can", "can_fd": True, "bitrate": 1000000, "sample_point": 0.75,
                           "dbitrate": 8000000}
    assert can0.lines["bitrate"] == 10 and can0.lines["sample_point"] == 10 and can0.lines["dbitrate"] == 13
    found, skipped = iplink.links([can0])
    assert skipped == []
    assert found == [{"interface": "can0", "line": 7, "link_type": "can", "warnings": [], "mtu_bytes": 72,
                      "arbitration_mbit_s": 1.0, "can_fd": True, "data_mbit_s": 8.0}]


def test_classical_can_interface_with_statistics_has_no_data_bit_rate():
    (can0,) = records(iplink.FORMAT, "iplink-can-c_can-ros-canopen.txt")
    assert can0.name == "can0" and can0.line == 7
    assert can0.values == {"mtu": 16, "link_type": "can", "can_fd": False, "bitrate": 1000000, "sample_point": 0.75}
    assert can0.lines["bitrate"] == 10
    found, skipped = iplink.links([can0])
    assert skipped == []
    assert found == [{"interface": "can0", "line": 7, "link_type": "can", "warnings": [], "mtu_bytes": 16,
                      "arbitration_mbit_s": 1.0, "can_fd": False}]


def test_can_fixtures_are_ip_link_and_not_lsusb():
    for name in ("iplink-can-fd-pi-hats.txt", "iplink-can-c_can-ros-canopen.txt"):
        text, _ = read_source(str(FIXTURES / name))
        assert iplink.FORMAT.recognises(text) and not lsusb.FORMAT.recognises(text)
