"""From your machine: the page reads a paste with the formats goodput.machine declares, as Python reads it, and sets
the box's inputs from it; a paste it cannot read changes nothing and says why."""

from __future__ import annotations

import json

import pytest

from goodput.errors import LogFormatError
from goodput.machine import FORMATS
from goodput.machine.grammar import settings_of
from goodput.machine.report import read_source
from goodput.render import calculations

from browser import WIDTHS, errors, live_ready, opened, settle, state
from test_machine import fixture

pytestmark = pytest.mark.book

#: Each chapter whose box reads a paste, and the fixtures of the formats it reads.
PASTES = {
    "pcie-packets": ["lspci-tree-fsl-p2020.txt", "lspci-tree-asus-p6t6.txt", "lspci-cap-exp-lnkcap2.txt"],
    "pcie-reads": ["lspci-cap-exp-lnkcap2.txt"],
    "tcp-goodput": ["ethtool-veth.txt", "ethtool-virtual.txt", "iplink-host.txt"],
    "ethernet-framing": ["ethtool-veth.txt"],
    "can-fd": ["iplink-host.txt"],
}
SPEC = "() => JSON.parse(document.querySelector('.goodput-yours script.goodput-yours-spec').textContent).machine"


def _python(calc, text: str) -> dict:
    try:
        found = settings_of(calc.machine, FORMATS, text, lambda _name, _value: True)
    except LogFormatError as exc:
        return {"error": str(exc).removeprefix("<paste>:")}
    return {k: found[k] for k in ("format", "record", "line", "more")} | {"values": found["values"]}


def _page(page, machine, text: str) -> dict:
    found = page.evaluate("([machine, text]) => window.goodputLive.readPaste(machine, text)", [machine, text])
    if "error" in found:
        return {"error": found["error"].removeprefix("line ")}  # "line 1: ..." as Python's "<paste>:1: ..."
    return {k: found[k] for k in ("format", "record", "line", "more")} | {"values": found["values"]}


def test_every_chapter_that_reads_a_paste_is_tried_here():
    assert set(PASTES) == {c for c in calculations.CHAPTERS if calculations.get(c).machine}


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
                assert _page(page, machine, text) == _python(calc, text), (chapter, name)
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


TOUR = {("notebooks/pcie-packets.html", width): (a_pasted_lspci_sets_the_link_and_a_paste_it_cannot_read_changes_nothing,)
        for width in WIDTHS}
