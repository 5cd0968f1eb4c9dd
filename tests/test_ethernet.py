import json
import math
from fractions import Fraction

import pytest
from command import call
from mutations import edited_cell

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import ethernet
from goodput.render.chapters import ethernet_framing
from goodput.sources.sprabk5 import ethernet as sprabk5

CHECKS = checks.collect("ethernet-framing")
KEYSTONE = [c for c in CHECKS if c.resource == "keystone2-s9-10gbe" and c.kind == "calculated"]
KEYSTONE_MORE = [c for c in CHECKS if c.resource.startswith("keystone2-s9-10gbe") and c not in KEYSTONE]
RFC5180 = [c for c in CHECKS if c.resource == "rfc5180-a1-frame-rates"]


@pytest.mark.parametrize("check", KEYSTONE, ids=lambda c: f"{c.row}-{c.quantity}")
def test_keystone_10gbe_table_is_reproduced(check):
    assert check.status == "ok", check


def test_every_row_of_the_512_packet_table_is_checked():
    assert len(KEYSTONE) == 2 * 15
    assert len(CHECKS) == len(KEYSTONE) + len(KEYSTONE_MORE) + len(RFC5180)


def test_wire_overhead_is_preamble_sfd_and_gap():
    assert ethernet.wire_bytes_expr().subs(ethernet.VALUES).subs({ethernet.frame: 0, ethernet.wire_counted: 1}) == 20


def test_numeric_goodput_matches_the_expression():
    expr = ethernet.payload_goodput_expr().subs(ethernet.VALUES)
    for frame, stack, vlan in [(64, "raw", False), (1518, "tcp4ts", True), (9018, "udp6", False),
                               (16000, "tcp6ts", True)]:
        for convention in (ethernet.WIRE, ethernet.FRAME_ONLY):
            exact = float(expr.subs({ethernet.frame: frame, ethernet.mac_rate: 10,
                                     ethernet.vlan: 4 if vlan else 0, ethernet.wire_counted: convention,
                                     ethernet.stack: ethernet.STACKS[stack].header_bytes}))
            r = ethernet.evaluate(frame, 10, stack, vlan, convention)
            assert r["goodput_gbit_s"] == pytest.approx(exact, rel=1e-12)


def test_small_payloads_are_padded_to_the_minimum_frame():
    assert ethernet.frame_bytes_for(1, "udp4") == 64
    assert ethernet.frame_bytes_for(1472, "udp4") == 1518


@pytest.mark.parametrize("args, name", [((63,), "frame_bytes"), ((64, 0), "mac_rate_gbit_s"),
                                        ((64, 10, "tcp6ts"), "frame_bytes"), ((100, 10, "sctp"), "stack")])
def test_impossible_frames_are_rejected(args, name):
    with pytest.raises(ParameterError) as info:
        ethernet.evaluate(*args)
    assert info.value.name == name


def test_packet_dma_fit_explains_the_small_packets_and_saturates_where_the_table_does():
    result, curve, saturation = ethernet.fit_keystone_10gbe()
    assert result.rms_residual < 0.05
    assert 414 < saturation < 464  # the table's last unsaturated and first saturated sizes


def test_saturation_solves_the_balance_of_wire_time_and_dma_time():
    expr = ethernet.saturation_frame_expr().subs(ethernet.VALUES).subs(
        {ethernet.mac_rate: 10, ethernet.packet_time: 270, ethernet.dma_rate: 5})
    frame = float(expr)
    assert 8 * (frame + 20) / 10 == pytest.approx(270 + frame / 5)


def test_cli_json_and_errors():
    p = call("ethernet", "--frame", "1518", "--stack", "tcp4", "--json")
    r = json.loads(p.stdout)
    assert r["goodput_gbit_s"] == pytest.approx(10 * 1460 / 1538)
    bad = call("ethernet", "--frame", "60")
    assert bad.returncode == 2 and "--frame 60" in bad.stderr


def test_the_frame_headers_are_one_expression_for_the_model_and_the_chart():
    for key, s in ethernet.STACKS.items():
        for tag in (False, True):
            headers = ethernet.headers_expr().subs({**ethernet.VALUES, ethernet.vlan: 4 if tag else 0,
                                                    ethernet.stack: s.header_bytes})
            assert ethernet.frame_bytes_for(0, key, tag) == max(ethernet.MIN_FRAME_BYTES, int(headers))


# --- frame rates, by arithmetic done here --------------------------------------------------------

@pytest.mark.parametrize("frame, rate_gbit_s, frames_per_s", [
    (64, 10, 14_880_952.38),  # 10e9 / ((64 + 20) * 8)
    (64, 1, 1_488_095.24),
    (1518, 10, 812_743.82),  # 10e9 / (1538 * 8)
    (1522, 1, 81_063.55),  # 1e9 / (1542 * 8), a VLAN-tagged full frame
    (4096, 1, 30_369.29),  # 1e9 / (4116 * 8)
    (9018, 10, 138_304.93),  # 10e9 / (9038 * 8): a 9000-byte MTU
    (9216, 10, 135_339.97),  # 10e9 / (9236 * 8)
    (16000, 100, 780_274.66),  # 100e9 / (16020 * 8)
])
def test_frame_rates_are_the_mac_rate_over_frame_plus_20_bytes(frame, rate_gbit_s, frames_per_s):
    assert ethernet.evaluate(frame, rate_gbit_s)["frames_per_s"] == pytest.approx(frames_per_s, abs=0.005)


def _rfc5180_cells():
    t = data.load("rfc5180-a1-frame-rates")
    printed = t.attrs["printed"]["frames_per_s"]
    return [(int(f), int(r), printed[i]) for i, (f, r) in enumerate(zip(t["frame_bytes"], t["line_rate_mbit_s"]))]


def test_every_cell_of_rfc5180_appendix_a1_is_checked_against_the_wire_convention():
    cells = _rfc5180_cells()
    assert len(cells) == len(RFC5180) == 12 * 4
    assert {f for f, _, _ in cells} == {64, 128, 256, 512, 1024, 1280, 1518, 1522, 2048, 4096, 8192, 9216}
    assert {r for _, r, _ in cells} == {10, 100, 1000, 10000}
    for (frame, rate, printed), c in zip(cells, RFC5180):
        assert c.published == printed and c.row == f"{frame} B at {rate} Mbit/s"
        assert c.model == pytest.approx(rate * 10**6 / (8 * (frame + 20)), rel=1e-12)
        assert c.formula.startswith("=") and str(frame) in c.formula


def test_rfc5180_cuts_its_rates_and_gets_4096_byte_frames_wrong_at_1_and_10_gbit_s():
    """The statuses come from the printed precision (goodput.checks); here they are worked out by
    exact arithmetic: an erratum is more than one frame/s off, rounding is a cut fraction above a half."""
    wrong = set()
    for (frame, rate, printed), c in zip(_rfc5180_cells(), RFC5180):
        exact = Fraction(rate * 10**6, 8 * (frame + 20))
        off = abs(exact - int(printed))
        expected = "ok" if off <= Fraction(1, 2) else "rounding" if off <= 1 else "erratum"
        assert c.status == expected, c
        if expected == "erratum":
            wrong.add((frame, rate))
        elif (frame, rate) != (9216, 1000):
            assert int(printed) == math.floor(exact), c  # every other cell is cut, not rounded
    assert int(dict(((f, r), p) for f, r, p in _rfc5180_cells())[(9216, 1000)]) == 13_534  # 13,533.997 rounded
    assert wrong == {(4096, 1000), (4096, 10000)}
    # 4096 B at 1 Gbit/s: 1e9 / (8 * 4116) = 30,369.29; the RFC prints 30,396, the digits 6 and 9 swapped
    assert 10**9 // (8 * 4116) == 30_369
    # 4096 B at 10 Gbit/s: 1e10 / (8 * 4116) = 303,692.91; the RFC prints 303,691, neither cut nor rounded
    assert 10**10 // (8 * 4116) == 303_692
    notes = {c.row: c.note for c in RFC5180 if c.status == "erratum"}
    assert "another order" in notes["4096 B at 1000 Mbit/s"] and "30369.29" in notes["4096 B at 1000 Mbit/s"]
    assert "303692.91" in notes["4096 B at 10000 Mbit/s"]


# --- the two conventions -------------------------------------------------------------------------

def test_the_convention_is_one_symbol_multiplying_preamble_sfd_and_gap():
    wire = ethernet.wire_bytes_expr().subs(ethernet.VALUES)
    assert wire.subs(ethernet.wire_counted, 1) - ethernet.frame == 20
    assert wire.subs(ethernet.wire_counted, 0) == ethernet.frame
    p = ethernet.PARAMETERS["convention"]
    assert p.symbol is ethernet.wire_counted and p.default == 1 and p.values() == (0, 1)
    assert "payload over frame" in dict(p.options)[0] and "wire" in dict(p.options)[1]


@pytest.mark.parametrize("frame, payload", [(64, 46), (1518, 1500), (1522, 1500), (9018, 9000), (9216, 9198)])
def test_payload_over_frame_and_over_the_wire(frame, payload):
    vlan = frame == 1522
    wire = ethernet.evaluate(frame, 10, vlan_tag=vlan)
    only = ethernet.evaluate(frame, 10, vlan_tag=vlan, convention=0)
    assert (wire["convention"], only["convention"]) == ("wire", "frame")
    assert wire["efficiency"] == pytest.approx(payload / (frame + 20), rel=1e-12)
    assert only["efficiency"] == pytest.approx(payload / frame, rel=1e-12)
    assert only["frames_per_s"] == pytest.approx(10e9 / (8 * frame), rel=1e-12)
    assert only["frame_gbit_s"] == pytest.approx(10, rel=1e-12)  # frames fill the line: no gaps counted
    assert (wire["counted_bytes"], only["counted_bytes"]) == (frame + 20, frame)
    assert sum(wire["bytes"].values()) == frame + 20 and sum(only["bytes"].values()) == frame
    assert only["bytes"]["gap"] == only["bytes"]["preamble_sfd"] == 0


def test_the_research_notes_percentages_at_10_gbit_s():
    # links-research.md 4.2 (derived there): 64-byte frames 71.88 % of the frame, 54.76 % of the wire
    assert round(100 * ethernet.evaluate(64, 10, convention=0)["efficiency"], 2) == 71.88
    assert round(100 * ethernet.evaluate(64, 10)["efficiency"], 2) == 54.76
    assert round(ethernet.evaluate(9018, 10)["goodput_gbit_s"], 3) == 9.958


# --- jumbo frames --------------------------------------------------------------------------------

def test_jumbo_frames_reach_16000_bytes_and_no_further():
    assert ethernet.MAX_FRAME_BYTES == 16000
    for frame in (9018, 9022, 9216, 12288, 16000):
        assert ethernet.evaluate(frame, 10)["frame_bytes"] == frame
    for frame in (16001, 65536, 9216.5):
        with pytest.raises(ParameterError) as info:
            ethernet.evaluate(frame, 10)
        assert info.value.name == "frame_bytes" and "16000" in str(info.value)


def test_the_chart_and_the_frame_control_reach_the_jumbo_frames():
    sizes = ethernet_framing.FRAME_SIZES
    assert {1518, 9018, 9216, 16000} <= set(sizes) and max(sizes) == 16000 and list(sizes) == sorted(sizes)
    calc = ethernet_framing.calculation()
    frame = next(s for s in calc.inputs if s.name == "frame_bytes")
    assert frame.bounds() == (64, 16000)
    assert calc.input_values(frame_bytes=16000)["frame_bytes"] == 16000
    layers = ethernet_framing.explore_chart().chart.to_dict()["layer"]
    curves = next(layer["data"]["values"] for layer in layers
                  if layer.get("data", {}).get("name") == "ethernet_frames")
    assert {9018, 9216, 16000} <= {row["frame_bytes"] for row in curves}


def test_the_calculated_table_names_its_convention_and_counts_its_bytes():
    calc = ethernet_framing.calculation()
    assert "convention" in {s.name for s in calc.inputs}
    counted = next(o for o in calc.outputs if o.name == "counted_bytes")
    assert counted.title == "bytes counted per frame"
    wire = calc.table_frame(frame_bytes=1518)
    only = calc.table_frame(frame_bytes=1518, convention=0)
    assert set(wire[counted.heading]) == {"1538"} and set(only[counted.heading]) == {"1518"}
    raw = calc.numeric(calc.input_values(frame_bytes=1518, convention=0), {"stack": "raw Ethernet"})
    assert raw["your_goodput_gbit_s"] == pytest.approx(10 * 1500 / 1518, rel=1e-12)


# --- goodput ethernet ----------------------------------------------------------------------------

def test_cli_frame_only_takes_the_payload_over_frame_convention():
    p = call("ethernet", "--frame", "9018", "--stack", "tcp4", "--frame-only", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["convention"] == "frame" and r["counted_bytes"] == 9018
    assert r["goodput_gbit_s"] == pytest.approx(10 * (9018 - 18 - 40) / 9018)
    text = call("ethernet", "--frame", "9018", "--frame-only").stdout
    assert "frame bytes only (payload over frame)" in text.splitlines()[0]
    wire = call("ethernet", "--frame", "1522", "--vlan", "--rate-gbit-s", "1").stdout.splitlines()[0]
    assert "VLAN tag" in wire and "(wire)" in wire and "81063.6 frames/s" in wire


@pytest.mark.parametrize("args, words", [
    (["--frame", "16001"], "--frame 16001: frame_bytes must be an integer from 64 to 16000 bytes"),
    (["--frame", "9216.5"], "--frame 9216.5"),
    (["--frame", "1518", "--frame-only", "yes"], "unrecognized arguments: yes"),
])
def test_cli_refuses_frames_beyond_the_jumbo_limit_and_stray_words(args, words):
    p = call("ethernet", *args)
    assert p.returncode == 2 and words in p.stderr, p.stderr


@pytest.mark.parametrize("convention", [2, -1, 0.5, "wire"])
def test_a_convention_other_than_0_or_1_is_refused(convention):
    with pytest.raises(ParameterError) as info:
        ethernet.evaluate(1518, 10, convention=convention)
    assert info.value.name == "convention" and "one of 0, 1" in str(info.value)


# --- KeyStone II §9: the measurements under the lane's rate, the numbers of the text ------------------



def test_every_throughput_of_section_9_keeps_to_the_lanes_10_gbit_s():
    found = [c for c in KEYSTONE_MORE if c.kind == "ceiling"]
    assert len(found) == 15 and {c.status for c in found} == {"ok"}
    assert {c.model for c in found} == {10000.0}  # 10.3125 Gbaud x 64/66, in Mbit/s
    assert [c.published for c in found].count("10000") == 7


def test_a_throughput_above_the_lane_is_caught():
    t = data.load("keystone2-s9-10gbe")
    found = sprabk5.keystone_ceiling_checks(edited_cell(t, 8, "throughput_mbit_s", "10012"))
    assert [(c.row, c.status) for c in found if c.status != "ok"] == [("464-byte packets", "erratum")]


def test_the_numbers_of_section_9s_text_follow_from_10gbase_r_and_the_table():
    found = {c.quantity: c for c in KEYSTONE_MORE if c.resource == "keystone2-s9-10gbe-prose"}
    assert {q: (c.published, c.status) for q, c in found.items()} == {
        "maximum throughput on a single lane": ("10", "ok"), "per-packet overhead": ("20", "ok"),
        "step between the smaller packets": ("50", "ok"), "step between the larger packets": ("1500", "ok"),
        "line rate the measured throughput flattens at": ("10", "ok")}
    assert "1000 bytes" in found["step between the larger packets"].note  # 564 -> 1564


def test_a_step_the_text_misstates_is_caught():
    prose = data.load("keystone2-s9-10gbe-prose")
    found = sprabk5.keystone_prose_checks(edited_cell(prose, 2, "value", "64"), data.load("keystone2-s9-10gbe"))
    assert [(c.quantity, c.status) for c in found if c.status != "ok"] == [
        ("step between the smaller packets", "erratum")]


def test_size_steps_finds_both_runs_and_what_lies_between():
    assert sprabk5.size_steps([64, 114, 164, 1164, 2664, 4164]) == (50, 1500, 1000)
    assert sprabk5.size_steps([1, 2, 3]) == (1, 1, 0)
    with pytest.raises(ValueError):
        sprabk5.size_steps([1])
