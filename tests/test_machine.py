"""What Linux prints, read (goodput.machine) and answered (goodput from): every fixture in data/machine/ gives the
fields a person reads in it, the ceilings are the chapters' models, and bad input is refused naming its file
and line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from command import call
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, mutated_log, parse_or_refuse

from goodput.logs import bench
from goodput.machine import FORMATS, lspci, read, recognise
from goodput.machine.grammar import measured
from goodput.machine.report import read_source, report
from goodput.models import can, pcie, tcp, usb
from goodput.render import calculations

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "machine"
#: The book's own firmware logs a reader may paste as measurements.
FIRMWARE_LOGS = Path(__file__).resolve().parent.parent / "data" / "logs" / "host"


def fixture(name: str) -> str:
    return str(FIXTURES / name)


def records(name: str):
    text, source = read_source(fixture(name))
    return read(recognise(text), text, source)


def test_every_fixture_names_its_source_and_the_command_that_printed_it():
    for path in sorted(FIXTURES.iterdir()):
        head = [line for line in path.read_text().splitlines() if line.startswith("# ")]
        keys = {line[2:].split(":")[0] for line in head}
        assert {"host", "tool", "command", "date", "source"} <= keys, path.name


@pytest.mark.parametrize("name, key", [
    ("lspci-tree-fsl-p2020.txt", "lspci"), ("lspci-tree-asus-p6t6.txt", "lspci"),
    ("lspci-cap-exp-lnkcap2.txt", "lspci"), ("ethtool-veth.txt", "ethtool"), ("ethtool-virtual.txt", "ethtool"),
    ("iplink-host.txt", "iplink"), ("iperf3-loopback.json", "iperf3"), ("iperf3-shaped-100m.json", "iperf3"),
    ("../logs/host/shaped-100m-tester.log", "tcp-bench"), ("../logs/host/loopback-testee.log", "tcp-bench"),
    ("lsusb-t-gregkh-desktop.txt", "lsusb"), ("lsusb-t-pi-cluster.txt", "lsusb"),
    ("iplink-can-fd-pi-hats.txt", "iplink"), ("iplink-can-c_can-ros-canopen.txt", "iplink")])
def test_each_fixture_is_recognised_as_what_printed_it(name, key):
    text, _ = read_source(fixture(name))
    assert recognise(text).key == key


def test_the_p2020_listing_gives_each_link_as_lspci_prints_it():
    """The Freescale P2020 board: three root ports (x4 capable, each trained x1 to its x1 device) and three devices.
    The TI USB 3.0 controller is capable of 5 GT/s but the P2020's port of 2.5: gen 1 is what the link can do, not
    a fault; its MPS of 128 is below the 1024 it could take."""
    found, skipped = lspci.links(records("lspci-tree-fsl-p2020.txt"))
    assert skipped == []
    by = {l["address"]: l for l in found}
    usb = by["0002:01:00.0"]
    assert (usb["generation"], usb["lanes"], usb["mps"], usb["mrrs"], usb["rcb"], usb["cap_mps"]) == (1, 1, 128, 512, 64, 1024)
    assert (usb["cap_generation"], usb["cap_lanes"], usb["other_end"]) == (1, 1, "0002:00:00.0")
    assert not any("trained below" in w for w in usb["warnings"])
    assert any("MPS 128 of the 1024" in w for w in usb["warnings"])
    port = by["0000:04:00.0"]
    assert (port["lanes"], port["cap_lanes"], port["rcb"]) == (1, 1, 128)  # x4 port, x1 device: x1 is the link's


def test_a_link_trained_below_both_ends_is_named():
    """The ASUS P6T6's PCIe switch: 03:00.0 trained x8 where it and its port can do x16, and 03:02.0 at 2.5 GT/s
    where both can do 5."""
    found, skipped = lspci.links(records("lspci-tree-asus-p6t6.txt"))
    by = {l["address"]: l for l in found}
    assert by["03:00.0"]["warnings"][0] == "trained below both ends' capability: x8 of its x16"
    assert by["03:02.0"]["warnings"][0] == "trained below both ends' capability: gen 1 of its gen 2"
    assert sum("Width x0" in s["why"] for s in skipped) == 2 and len(skipped) == 40


def test_mrrs_below_mps_is_named():
    found, _ = lspci.links(records("lspci-cap-exp-lnkcap2.txt"))
    port = next(l for l in found if l["address"] == "00:1c.0")
    assert (port["generation"], port["lanes"], port["mps"], port["mrrs"]) == (3, 4, 256, 128)
    assert "MRRS 128 is below MPS 256" in port["warnings"][0]


def test_the_pcie_ceiling_is_the_packets_chapters_model():
    r = report([fixture("lspci-tree-fsl-p2020.txt")])
    usb = next(l for l in r["links"] if l["address"] == "0002:01:00.0")
    link = pcie.Link(gen=1, lanes=1, mps=128, mrrs=512, rcb=64)
    assert usb["ceiling"]["write_gbit_s"] == pytest.approx(pcie.goodput_gbit_s("write", link, 65536), rel=1e-12)
    assert usb["ceiling"]["read_gbit_s"] == pytest.approx(pcie.goodput_gbit_s("read", link, 65536), rel=1e-12)


def test_ethtool_gives_the_speed_and_a_virtual_nic_says_it_has_none():
    (veth,) = records("ethtool-veth.txt")
    assert veth.values == {"speed_mbit_s": 10000, "duplex": "Full", "link": "yes"}
    r = report([fixture("ethtool-virtual.txt")])
    assert r["links"] == [] and "no speed printed" in r["files"][0]["skipped"][0]["why"]


def test_ip_link_gives_each_interfaces_mtu_and_passes_over_the_loopback():
    r = report([fixture("iplink-host.txt")])
    mtus = {l["interface"]: l["mtu_bytes"] for l in r["links"]}
    assert "lo" not in mtus and all(576 <= m <= 65535 for m in mtus.values())
    assert "the loopback" in r["files"][0]["skipped"][0]["why"]


def test_a_can_interface_gives_its_bit_rates():
    text = ("4: can0: <NOARP,UP,LOWER_UP,ECHO> mtu 72 qdisc pfifo_fast state UP mode DEFAULT group default qlen 10\n"
            "    link/can  promiscuity 0 minmtu 0 maxmtu 0 \n"
            "    can <FD> state ERROR-ACTIVE (berr-counter tx 0 rx 0) restart-ms 0 \n"
            "          bitrate 500000 sample-point 0.750 \n"
            "          dbitrate 4000000 dsample-point 0.800 \n")
    (r,) = read(FORMATS["iplink"], text)
    assert r.values == {"mtu": 72, "link_type": "can", "can_fd": True, "bitrate": 500000, "sample_point": 0.75,
                        "dbitrate": 4000000}


def test_a_paste_says_what_its_record_shows_worth_knowing():
    """The notes a box gives with a pasted device (both readers evaluate them): the P2020's first root port trained
    x1 of its x4 (its device is x1) with MPS 128 of 256; the Sunrise Point port's MRRS 128 is below its MPS 256."""
    calc = calculations.get("pcie-packets")
    notes = {name: calc.machine_values(read_source(fixture(name))[0])["notes"]
             for name in ("lspci-tree-fsl-p2020.txt", "lspci-cap-exp-lnkcap2.txt", "lspci-tree-asus-p6t6.txt")}
    assert notes == {
        "lspci-tree-fsl-p2020.txt": ["trained x1 where this end can take x4 (a link trains to the lesser of its ends)",
                                     "MPS 128 of the 256 it could take: each TLP carries no more"],
        "lspci-cap-exp-lnkcap2.txt": ["MRRS 128 is below MPS 256: reads come in requests smaller than a payload"],
        "lspci-tree-asus-p6t6.txt": []}


def test_a_measurement_is_a_share_of_the_tcp_ceiling_at_its_link_rate_and_mtu():
    """The book's shaped 100 Mbit/s link: iperf3's MSS of 1448 is MTU 1500 less 40 bytes of IP and TCP headers and
    12 of timestamps, so the ceiling is the TCP chapter's stream at 100 Mbit/s, MTU 1500, 12 option bytes."""
    r = report([fixture("iperf3-shaped-100m.json")], rate_mbit_s=100)
    (m,) = r["measurements"]
    ceiling = tcp.goodputs(1 << 24, 100, 1500, 20, 12)["stream_mbit_s"]
    assert m["ceiling"]["tcp_stream_mbit_s"] == pytest.approx(ceiling, rel=1e-12)
    assert (m["size"], m["unit"]) == (131072, "Mbit/s")  # iperf3's writes: its blksize
    assert m["value"] == pytest.approx(94029692.9623636 / 1e6, rel=1e-12)  # end.sum_received.bits_per_second
    assert m["share"] == pytest.approx(m["value"] / ceiling, rel=1e-12)
    assert 0.5 < m["share"] <= 1.01
    # the options given override what the MSS implies
    (m,) = report([fixture("iperf3-shaped-100m.json")], rate_mbit_s=100, tcp_options_bytes=0)["measurements"]
    assert m["ceiling"]["tcp_stream_mbit_s"] == pytest.approx(tcp.goodputs(1 << 24, 100, 1500, 20, 0)["stream_mbit_s"])
    r = report([fixture("iperf3-loopback.json")])
    assert "no line rate" in r["measurements"][0]["note"]


def test_the_firmware_log_gives_each_run_as_the_books_own_parser_reads_it():
    """A pasted tcp_tester log is read by the declaration the page uses; each run's rate is what the book's full
    parser of these logs (goodput.logs.bench) gives, at the frame size it ran."""
    path = FIRMWARE_LOGS / "shaped-100m-tester.log"
    r = report([str(path)], rate_mbit_s=100, tcp_options_bytes=12)
    runs = bench.results(path)
    assert len(r["measurements"]) == len(runs) == 8
    for m, (_, run) in zip(r["measurements"], runs.iterrows()):
        assert m["label"] == f"tcp_tester {run['direction']}" and m["size"] == run["frame_bytes"]
        assert m["line"] == run["line"]
        assert m["value"] == pytest.approx(8000 * run["bytes"] / run["elapsed_ns"], rel=1e-12)
        # the capture ran with timestamps (its header says so): the stream's ceiling with them, within 0.1 %
        assert m["share"] == pytest.approx(1, abs=1e-3)


def test_a_paced_run_and_a_udp_run_are_passed_over_with_the_reason():
    r = report([str(FIRMWARE_LOGS / "shaped-100m-paced-tester.log")], rate_mbit_s=100)
    assert r["measurements"] == [] and len(r["files"][0]["skipped"]) == 16
    assert {s["why"] for s in r["files"][0]["skipped"]} == {"a paced run: its ceiling is one frame a period, not the link's"}
    udp = '{"start": {"connecting_to": {"host": "h"}, "test_start": {"protocol": "UDP", "blksize": 1448}}, "end": {}}'
    (record,) = read(FORMATS["iperf3"], udp)
    assert measured(FORMATS["iperf3"], [record]) == ([], [{"record": "h", "line": 1, "why": "a UDP run: the book's chart is TCP's"}])


def test_a_run_of_no_time_is_refused_naming_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("r.log").write_text("BENCH-CONFIG bench=tcp_tester frames=1\n"
                             "BENCH-RESULT bench=tcp_tester direction=send frame_bytes=8 frames=1 interval_us=0 bytes=8 "
                             "elapsed_ns=0\n")
    p = call("from", "r.log", "--rate-mbit-s", "100")
    assert p.returncode == 2 and "r.log:2: elapsed_ns 0: a run takes time" in p.stderr, p.stderr


def test_the_tcp_box_takes_a_pasted_run_its_options_and_its_share():
    """The TCP chapter's box: iperf3's MSS sets the options it leaves at the box's MTU (one that does not fit is
    left as it was), and the run's share of the stream's ceiling is the command's."""
    calc = calculations.get("tcp-goodput")
    text, _ = read_source(fixture("iperf3-shaped-100m.json"))
    found = calc.machine_values(text, {"line_rate_mbit_s": 100})
    assert found["values"] == {"tcp_options_bytes": 12} and found["dropped"] == {}
    (m,) = found["measured"]
    share = calc.measured_share({"line_rate_mbit_s": 100, **found["values"]}, m["size"], m["value"])
    (run,) = report([fixture("iperf3-shaped-100m.json")], rate_mbit_s=100)["measurements"]
    assert share["share"] == pytest.approx(run["share"], rel=1e-12)
    # at MTU 9000 an MSS of 1448 would leave 7512 bytes of options: not a value the box takes
    found = calc.machine_values(text, {"mtu_bytes": 9000})
    assert found["values"] == {} and found["dropped"] == {"tcp_options_bytes": 7512}


def test_a_superspeed_device_gets_the_usb_chapters_ceiling_for_its_generation():
    """Greg Kroah-Hartman's desktop (linux-usb, 2021): a 10000M disk is Gen 2, a 5000M one behind a hub Gen 1; each
    gets the USB chapter's bulk ceiling for a MiB at its generation."""
    r = report([fixture("lsusb-t-gregkh-desktop.txt")])
    gen2, gen1 = r["links"]
    assert (gen2["generation"], gen1["generation"]) == (2, 1)
    for link in (gen2, gen1):
        assert link["ceiling"]["goodput_gbit_s"] == pytest.approx(
            usb.goodput_gbit_s(generation=link["generation"], transfer_bytes=1 << 20), rel=1e-12)
    assert gen1["warnings"] and not gen2["warnings"]


def test_real_can_interfaces_give_their_bit_rates_and_the_can_chapters_ceiling():
    """Two pasted in public issues: an MCP2518FD at 1 and 8 Mbit/s (CAN FD), a c_can at 1 Mbit/s (classical)."""
    (fd,) = report([fixture("iplink-can-fd-pi-hats.txt")])["links"]
    assert (fd["arbitration_mbit_s"], fd["data_mbit_s"], fd["can_fd"]) == (1, 8, True)
    assert fd["ceiling"]["messages_per_s"] == pytest.approx(can.evaluate(64, False, 1, 8)["messages_per_s"])
    (classic,) = report([fixture("iplink-can-c_can-ros-canopen.txt")])["links"]
    assert (classic["arbitration_mbit_s"], classic["can_fd"]) == (1, False) and "data_mbit_s" not in classic


def test_goodput_from_reads_standard_input_and_prints_json(monkeypatch):
    raw = Path(fixture("lspci-cap-exp-lnkcap2.txt")).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))  # as `lspci -vv | goodput from -` hands it
    p = call("from", "-", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["files"][0]["file"] == "<stdin>" and len(r["links"]) == 4


@pytest.mark.parametrize("text, words", [
    ("hello\nworld\n", "x.txt:1: none of iperf3 -J, lspci -vv, ethtool IFACE, ip link show, lsusb -t, the book's TCP firmware"),
    ("00:01.0 PCI bridge: X\n\t\tLnkSta:\tSpeed 2.5GT/s, Width x3\n", "x.txt:2: trained width 3 is not one there is"),
    ("00:01.0 PCI bridge: X\n\t\tLnkSta:\tSpeed 7GT/s, Width x4\n", "x.txt:2: trained speed (GT/s) 7 is not one"),
    ('{"start": {"test_start": {"protocol": "SCTP"}}}', "x.txt:1: protocol SCTP is not one there is"),
    ("# host: a header alone\n", "x.txt:1: nothing in it"),
])
def test_bad_input_is_refused_naming_the_file_and_line(tmp_path, monkeypatch, text, words):
    monkeypatch.chdir(tmp_path)
    Path("x.txt").write_text(text)
    p = call("from", "x.txt")
    assert p.returncode == 2 and p.stdout == "" and words in p.stderr, p.stderr


def test_an_mtu_the_model_does_not_take_is_refused_naming_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("e.txt").write_text("Settings for eth1:\n\tSpeed: 1000Mb/s\n\tDuplex: Full\n")
    Path("i.txt").write_text("3: eth1: <BROADCAST,UP> mtu 100 qdisc noop state DOWN\n    link/ether 00:00:00:00:00:01\n")
    p = call("from", "e.txt", "i.txt")
    assert p.returncode == 2 and "e.txt:1: the model takes no such link: mtu_bytes" in p.stderr, p.stderr


def test_bytes_that_are_not_utf8_and_a_paste_too_long_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("b.txt").write_bytes(b"00:01.0 PCI bridge\n\xff\n")
    p = call("from", "b.txt")
    assert p.returncode == 2 and "b.txt:2: byte 0xff is not UTF-8" in p.stderr
    Path("big.txt").write_text("x" * (5 << 20))
    p = call("from", "big.txt")
    assert p.returncode == 2 and "big.txt:1: over 4 MB" in p.stderr


SEEDS = sorted([*FIXTURES.iterdir(), FIRMWARE_LOGS / "shaped-100m-tester.log"])


@FUZZ
@given(data=st.data())
def test_mutated_outputs_are_read_or_refused_naming_one_of_their_lines(data, tmp_path_factory):
    parse_or_refuse(lambda path: report([str(path)]), mutated_log(data, SEEDS),
                    tmp_path_factory.getbasetemp() / "mutated.txt")


def test_the_formats_are_data_the_page_can_read():
    """Each declaration is plain JSON and its patterns read alike in Python and JavaScript: no named group,
    no look-behind, no inline flag."""
    for fmt in FORMATS.values():
        spec = json.loads(json.dumps(fmt.spec()))
        for pattern in [spec["detect"], spec["record"], *(f["pattern"] for f in spec["fields"])]:
            assert "(?P" not in pattern and "(?<" not in pattern and "(?i" not in pattern, pattern
