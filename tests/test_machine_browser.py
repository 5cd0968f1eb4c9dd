"""From your machine: the page reads a paste with the formats goodput.machine declares, as Python reads it, and sets
the box's inputs from it; a paste it cannot read changes nothing and says why."""

from __future__ import annotations

import json

import pytest
from browser import WIDTHS, errors, live_ready, marks, opened, operate, settle, state, view_index
from test_machine import fixture

from goodput.core.errors import LogFormatError
from goodput.machine.report import read_source
from goodput.render import calculations
from goodput.render.measured import MEASURED_COLOR

pytestmark = pytest.mark.book

#: Each chapter whose box reads a paste, and the fixtures of the formats it reads.
PASTES = {
    "pcie-packets": ["lspci-tree-fsl-p2020.txt", "lspci-tree-asus-p6t6.txt", "lspci-cap-exp-lnkcap2.txt"],
    "pcie-reads": ["lspci-cap-exp-lnkcap2.txt"],
    "tcp-goodput": ["ethtool-veth.txt", "ethtool-virtual.txt", "iplink-host.txt", "iperf3-shaped-100m.json",
                    "iperf3-loopback.json", "../logs/host/shaped-100m-tester.log",
                    "../logs/host/shaped-100m-paced-tester.log"],
    "ethernet-framing": ["ethtool-veth.txt"],
    "can-fd": ["iplink-host.txt", "iplink-can-fd-pi-hats.txt", "iplink-can-c_can-ros-canopen.txt"],
    "usb-superspeed": ["lsusb-t-gregkh-desktop.txt", "lsusb-t-pi-cluster.txt"],
}
SPEC = "() => JSON.parse(document.querySelector('.goodput-yours script.goodput-yours-spec').textContent).machine"


def _found(found: dict) -> dict:
    """What both readers give: the record and values read, and the runs a measurement holds."""
    out = {k: found[k] for k in ("format", "record", "line", "more", "values", "dropped", "notes")}
    for key in ("measured", "skipped"):
        if key in found:
            out[key] = [{k: m[k] for k in ("record", "line", "label", "value", "size", "why") if k in m}
                        for m in found[key]]
    return out


def _python(calc, text: str) -> dict:
    try:
        found = calc.machine_values(text, allowed=lambda _name, _value: True)
    except LogFormatError as exc:
        return {"error": str(exc).removeprefix("<paste>:")}
    return _found(found)


def _page(page, machine, text: str, inputs: dict) -> dict:
    found = page.evaluate("([machine, text, inputs]) => window.goodputLive.readPaste(machine, text, inputs)",
                          [machine, text, inputs])
    if "error" in found:
        return {"error": found["error"].removeprefix("line ")}  # "line 1: ..." as Python's "<paste>:1: ..."
    return _found(found)


def test_every_chapter_that_reads_a_paste_is_tried_here():
    assert set(PASTES) == {c for c in calculations.CHAPTERS if calculations.get(c).machine}
    assert set(MEASURED) == {c for c in calculations.CHAPTERS if calculations.get(c).measured}


def test_the_page_reads_each_fixture_as_python_does(browser, book_url):
    """Each chapter's declaration (as its box's spec holds it), each fixture of its formats: the page's reader and
    Python's give the same record and values, or the same refusal. One page runs the page's reader for all."""
    with opened(browser, book_url + "notebooks/pcie-packets.html") as (page, log):
        live_ready(page)
        assert page.evaluate(SPEC) == json.loads(json.dumps(calculations.get("pcie-packets").machine_spec()))
        for chapter, names in PASTES.items():
            calc = calculations.get(chapter)
            machine = json.loads(json.dumps(calc.machine_spec()))
            for name in names:
                text, _ = read_source(fixture(name))
                python = _python(calc, text)
                found = _page(page, machine, text, calc.defaults())
                for p, q in zip(python.get("measured", []), found.get("measured", [])):  # a rate: to the last bit
                    assert q.pop("value") == pytest.approx(p.pop("value"), rel=1e-12), (chapter, name)
                assert found == python, (chapter, name)
        assert errors(log) == []


def a_pasted_lspci_sets_the_link_and_a_paste_it_cannot_read_changes_nothing(page, log):
    """Run by tests/test_page_tour_browser.py on the PCIe packets chapter at both widths: the P2020 listing pasted
    whole sets the box's link from its first trained link (lspci's own warning is its line 1) and says how many
    more it holds; a paste of nothing lspci prints, and one with a width no link has, change nothing and say why."""
    text, _ = read_source(fixture("lspci-tree-fsl-p2020.txt"))
    text = text.lstrip("\n")  # as a reader pastes it: no header; lspci's own warning stays, its line 1
    box = page.locator(".goodput-yours")
    box.locator("details.goodput-yours-machine summary").click()
    area = box.locator("textarea.goodput-machine-paste")
    assert area.bounding_box()["width"] <= box.bounding_box()["width"]
    area.fill(text)
    status = box.locator(".goodput-machine-status")
    status.filter(has_text="Read from").wait_for(timeout=5000)
    settle(page)
    s = state(page)
    assert (s["generation"], s["lanes"], s["mps"], s["mrrs"]) == (1, 1, 128, 512)
    assert status.inner_text().startswith("Read from lspci -vv, 0000:04:00.0 (line 2): PCIe generation 1, lanes 1,")
    assert status.inner_text().endswith("The paste holds 5 more: paste one alone to take it instead.")
    area.fill("this is no output of lspci\n")
    status.filter(has_text="Not read").wait_for(timeout=5000)
    assert "none of lspci -vv" in status.inner_text() and "Nothing changed" in status.inner_text()
    assert {k: state(page)[k] for k in ("generation", "lanes", "mps", "mrrs")} == {
        "generation": 1, "lanes": 1, "mps": 128, "mrrs": 512}
    area.fill(text.replace("Width x1", "Width x3", 1))
    status.filter(has_text="trained width 3").wait_for(timeout=5000)
    assert "trained width 3 is not one there is" in status.inner_text()
    assert errors(log) == []


def _said(x: float) -> str:
    """A number as the box's sentences write it (four significant digits)."""
    return f"{float(f'{x:.4g}'):g}"


def _shares(page, calc) -> list[dict]:
    """The measured points the chart draws (each point's and label's datum once), and Python's share of each at the
    page's state."""
    s = state(page)
    inputs = {name: s[name] for name in calc.input_names()}
    drawn = {(d["label"], d["size"]): d for d in marks(page, view_index(page, "tcp_options_bytes"), "share")}
    return [{**d, "python": calc.measured_share(inputs, d["size"], d["value"])} for d in drawn.values()]


def a_pasted_run_is_a_point_on_the_chart_with_its_share_of_the_ceiling(page, log):
    """Run by tests/test_page_tour_browser.py on the TCP chapter at both widths: the shaped link's iperf3 run pasted
    sets the options its MSS leaves (12, timestamps) and is drawn on the chart with its share of the stream's
    ceiling at the box's settings, the share following the line rate; the firmware's log gives its 8 runs; a paced
    run's log changes nothing and says why; the runs can be removed."""
    calc = calculations.get("tcp-goodput")
    for key, value in (("mtu_bytes", 1500), ("ip_header_bytes", 20), ("vlan_bytes", 0)):  # the run's own link
        operate(page, key, value, ".goodput-yours")
    box = page.locator(".goodput-yours")
    box.locator("details.goodput-yours-machine summary").click()
    area = box.locator("textarea.goodput-machine-paste")
    status = box.locator(".goodput-machine-status")
    yours = box.locator(".goodput-measured")
    area.fill(read_source(fixture("iperf3-shaped-100m.json"))[0].lstrip("\n"))
    status.filter(has_text="Read from iperf3 -J").wait_for(timeout=5000)
    settle(page)
    assert state(page)["tcp_options_bytes"] == 12
    assert status.inner_text() == "Read from iperf3 -J: 1 run; TCP options 12 bytes, drawn on the chart."
    for rate in (100, 1000):
        operate(page, "line_rate_mbit_s", rate)
        (point,) = _shares(page, calc)
        share, ceiling = point["python"]["share"], point["python"]["ceiling"]
        assert point["share"] == pytest.approx(share, rel=1e-9) and point["ceiling"] == pytest.approx(ceiling, rel=1e-9)
        assert yours.inner_text().startswith(
            f"You measured 94.03 Mbit/s (iperf3 -J, 10.77.0.2, transfers of 131072 bytes): {100 * share:.1f}% of the "
            f"{_said(ceiling)} Mbit/s full-segment stream ceiling at line rate {rate} Mbit/s, MTU 1500 bytes, "
            "TCP options 12 bytes."), yours.inner_text()
    assert yours.bounding_box()["x"] + yours.bounding_box()["width"] <= box.bounding_box()["x"] + box.bounding_box()["width"] + 1
    # the sentence is marked in the points' colour, which the page takes from the chart's declaration
    assert yours.evaluate("e => getComputedStyle(e).borderLeftColor") == "rgb({}, {}, {})".format(
        *(int(MEASURED_COLOR[i:i + 2], 16) for i in (1, 3, 5)))
    operate(page, "line_rate_mbit_s", 100)
    area.fill(read_source(fixture("../logs/host/shaped-100m-tester.log"))[0].lstrip("\n"))
    status.filter(has_text="Read from the book's TCP firmware").wait_for(timeout=5000)
    settle(page)
    points = _shares(page, calc)
    assert len(points) == 8 and all(p["share"] == pytest.approx(p["python"]["share"], rel=1e-9) for p in points)
    low, high = (f"{100 * f(p['python']['share'] for p in points):.1f}%" for f in (min, max))
    assert f": {low} to {high} of the" in yours.inner_text() or f": {low} of the" in yours.inner_text()
    assert yours.inner_text().startswith("Your 8 runs measured")
    area.fill(read_source(fixture("../logs/host/shaped-100m-paced-tester.log"))[0].lstrip("\n"))
    status.filter(has_text="Not read").wait_for(timeout=5000)
    assert "a paced run: its ceiling is one frame a period, not the link's, and the paste holds no other run" in \
        status.inner_text() and "Nothing changed" in status.inner_text()
    assert len(_shares(page, calc)) == 8
    box.locator("button.goodput-measured-clear").click()
    settle(page)
    assert yours.is_hidden() and _shares(page, calc) == []
    assert errors(log) == []


def a_pasted_lsusb_picks_the_generation_of_its_first_superspeed_device(page, log):
    """Run by tests/test_page_tour_browser.py on the USB chapter at both widths: Greg Kroah-Hartman's desktop tree
    pasted whole picks the case of its first SuperSpeed device (a 10000M disk: Gen 2) at the packet payload the box
    showed; the Raspberry Pi's picks Gen 1; its slower devices, hubs and root hubs are no device's link."""
    calc = calculations.get("usb-superspeed")
    box = page.locator(".goodput-yours")
    box.locator("details.goodput-yours-machine summary").click()
    area = box.locator("textarea.goodput-machine-paste")
    status = box.locator(".goodput-machine-status")
    for name, generation in (("lsusb-t-gregkh-desktop.txt", 2), ("lsusb-t-pi-cluster.txt", 1)):
        text = read_source(fixture(name))[0].lstrip("\n")  # as a reader pastes it: no header
        line = calc.machine_values(text)["line"]
        area.fill(text)
        status.filter(has_text=f"generation {generation}").wait_for(timeout=5000)
        settle(page)
        assert f"(line {line}): generation {generation}." in status.inner_text(), status.inner_text()
        row = next(i for i, r in enumerate(calc.records())
                   if r["generation"] == generation and r["packet_bytes"] == 1024)
        assert box.get_attribute("data-row") == str(row)
    assert errors(log) == []


#: Each chapter whose box draws a pasted measurement on its chart.
MEASURED = {"tcp-goodput": a_pasted_run_is_a_point_on_the_chart_with_its_share_of_the_ceiling}

TOUR = {**{("notebooks/pcie-packets.html", width): (a_pasted_lspci_sets_the_link_and_a_paste_it_cannot_read_changes_nothing,)
           for width in WIDTHS},
        **{(f"notebooks/{chapter}.html", width): (tour,) for chapter, tour in MEASURED.items() for width in WIDTHS},
        **{("notebooks/usb-superspeed.html", width): (a_pasted_lsusb_picks_the_generation_of_its_first_superspeed_device,)
           for width in WIDTHS}}
