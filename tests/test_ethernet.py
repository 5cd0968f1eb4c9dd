import json

import pytest

from goodput import checks, ethernet
from goodput.errors import ParameterError

from command import call

CHECKS = checks.collect("ethernet-framing")


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: f"{c.row}-{c.quantity}")
def test_keystone_10gbe_table_is_reproduced(check):
    assert check.status == "ok", check


def test_every_row_of_the_512_packet_table_is_checked():
    assert len(CHECKS) == 2 * 15


def test_wire_overhead_is_preamble_sfd_and_gap():
    assert ethernet.wire_bytes_expr().subs(ethernet.VALUES).subs(ethernet.frame, 0) == 20


def test_numeric_goodput_matches_the_expression():
    expr = ethernet.payload_goodput_expr().subs(ethernet.VALUES)
    for frame, stack, vlan in [(64, "raw", False), (1518, "tcp4ts", True), (9018, "udp6", False)]:
        exact = float(expr.subs({ethernet.frame: frame, ethernet.mac_rate: 10,
                                 ethernet.vlan: 4 if vlan else 0,
                                 ethernet.stack: ethernet.STACKS[stack].header_bytes}))
        assert ethernet.evaluate(frame, 10, stack, vlan)["goodput_gbit_s"] == pytest.approx(exact, rel=1e-12)


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
