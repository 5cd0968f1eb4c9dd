import json

import pytest
import sympy as sp
from command import call

from goodput import checks
from goodput.core.errors import ParameterError
from goodput.models import coding, usb
from goodput.render import calculations
from goodput.render.chapters import usb_superspeed as usb_charts

# The specification's sizes, typed here from USB 3.2 rev. 1.1 so the tests do not read them from the model.
HPSTART, PACKET_HEADER, CRC16, LCW = 4, 12, 2, 2  # section 7.2.1.1: a header packet
LENGTH_REPLICAS = 2 + 2  # the non-deferred Gen 2 DPH, Figure 7-4
DPPSTART, CRC32, DPPEND = 4, 4, 4  # section 7.2.1.2: around the data
LINK_COMMAND = 4 + 2 + 2  # section 7.2.2.1: LCSTART, the command word twice


def test_a_gen1_1024_byte_packet_is_1056_symbols_and_its_goodput_is_worked_by_hand():
    r = usb.evaluate(1024, 1, 1024, 1, 0)
    assert HPSTART + PACKET_HEADER + CRC16 + LCW == 20
    assert r["link_symbols"] == 20 + (DPPSTART + 1024 + CRC32 + DPPEND) == 1056
    assert r["goodput_gbit_s"] == pytest.approx(5 * 0.8 * 1024 / 1056 * 354 / 356, rel=1e-12)


def test_a_gen2_1024_byte_packet_is_1060_symbols_in_132_bit_blocks_with_a_196_bit_skp_per_40():
    r = usb.evaluate(1024, 2, 1024, 1, 0)
    assert r["link_symbols"] == 20 + LENGTH_REPLICAS + 1036 == 1060
    line_bits = 1060 / 16 * 132 + 1060 / (40 * 16) * 196
    assert r["line_bytes"] == pytest.approx(line_bits / 8, rel=1e-12)
    assert r["goodput_gbit_s"] == pytest.approx(10 * 128 / 132 * 1024 / 1060 * 5280 / 5476, rel=1e-12)


@pytest.mark.parametrize("generation, link_commands, printed", [(1, 0, "3.857"), (2, 0, "9.032")])
def test_long_transfers_of_data_packets_alone_give_the_research_notes_figures(generation, link_commands, printed):
    r = usb.evaluate(1024, generation, 1 << 20, 16, link_commands)
    assert f"{r['goodput_gbit_s']:.3f}" == printed


def test_every_ack_and_each_bursts_request_cost_lgood_and_lcrd_in_the_data_direction():
    r = usb.evaluate(1024, 1, 16 * 1024, 16, 1)  # one burst of 16 packets: 16 ACKs and one request
    per_packet = 20 + 1036
    assert r["packets"] == 16 and r["bursts"] == 1
    assert r["link_symbols"] == 16 * per_packet + (16 + 1) * 2 * LINK_COMMAND
    assert r["goodput_gbit_s"] == pytest.approx(4 * 16 * 1024 / (16 * 1072 + 16) * 354 / 356, rel=1e-12)


def test_a_short_last_packet_and_a_partial_burst_are_counted():
    r = usb.evaluate(1024, 1, 1500, 1, 1)  # 1024 + 476 bytes, one request per packet
    assert (r["packets"], r["bursts"]) == (2, 2)
    assert r["link_symbols"] == 2 * (20 + 12) + 1500 + (2 + 2) * 16
    assert usb.evaluate(1024, 1, 17 * 1024, 16)["bursts"] == 2


def test_the_other_direction_carries_an_ack_per_packet_and_per_burst_and_lgood_lcrd_per_header():
    r = usb.evaluate(1024, 2, 1 << 20, 16, 1)
    acks = 1024 + 64
    assert r["return_share"] == pytest.approx((20 * acks + 16 * 1024) / r["link_symbols"], rel=1e-12)


@pytest.mark.parametrize("generation", [1, 2])
def test_the_byte_times_by_kind_add_up_to_the_transfer(generation):
    r = usb.evaluate(300, generation, 100000, 3, 1)
    assert sum(r["bytes"].values()) == pytest.approx(r["line_bytes"], rel=1e-12)
    assert r["bytes"]["data"] == 100000
    assert r["efficiency"] == pytest.approx(100000 / r["line_bytes"], rel=1e-12)


def test_the_breakdown_expressions_add_up_to_the_line_bytes_expression():
    total = sp.Add(*usb.breakdown_exprs().values())
    w = usb.line_bytes_expr().subs(usb.link_symbols, usb.link_symbols_expr())
    assert sp.simplify(total - w) == 0


def test_the_line_codes_are_codings():
    for g in usb.GENERATIONS.values():
        c = coding.CODES[g.code]
        assert usb.evaluate(1024, g.number)["after_code_gbit_s"] == pytest.approx(
            coding.bit_rate_gbit_s(g.rate_gbaud, 1, g.code), rel=1e-12)
        assert usb.generation_values(g.number)[coding.data_bits] == c.data_bits
    assert [g.code for g in usb.GENERATIONS.values()] == ["8b10b", "128b132b"]


def test_numeric_goodput_equals_the_expression():
    expr = usb.goodput_expr().subs(usb.line_bytes, usb.line_bytes_expr()).subs(usb.link_symbols,
                                                                                 usb.link_symbols_expr())
    for g, p, s, b, a in [(1, 1024, 1 << 20, 16, 1), (2, 1, 1, 1, 0), (2, 333, 100001, 7, 1), (1, 64, 4096, 5, 0)]:
        exact = expr.subs(usb.generation_values(g)).subs({usb.payload: p, usb.transfer: s, usb.burst: b,
                                                          usb.link_commands: a})
        assert usb.goodput_gbit_s(p, g, s, b, a) == pytest.approx(float(exact), rel=1e-12)


def test_the_specifications_raw_throughputs_are_reproduced_and_its_bounds_are_not_checks():
    items = checks.collect("usb-superspeed")
    assert [c.published for c in items] == ["500", "500", "1.2"]
    assert {c.status for c in items} == {"ok"}
    context = usb_charts.published_context()
    assert list(context["generation"]) == ["Gen 1", "Gen 1", "Gen 2"]


@pytest.mark.parametrize("args, name", [((0,), "packet_bytes"), ((1025,), "packet_bytes"), ((1024, 3), "generation"),
                                        ((1024, 1, 0), "transfer_bytes"), ((1024, 1, 4096, 17), "burst"),
                                        ((1024, 1, 4096, 0), "burst"), ((1024, 1, 4096, 16, 2), "link_commands"),
                                        ((10.5,), "packet_bytes")])
def test_impossible_usb_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError, match=name):
        usb.evaluate(*args)


def test_goodput_usb_json_text_and_bad_input():
    p = call("usb", "--gen", "2", "--packet", "1024", "--transfer", "1024", "--burst", "1", "--no-link-commands",
             "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["link_symbols"] == 1060 and out["goodput_gbit_s"] == pytest.approx(9.032346982, rel=1e-9)
    p = call("usb")
    assert p.returncode == 0 and "1048576 bytes in 1024 packets" in p.stdout and "Gen 1" in p.stdout
    p = call("usb", "--gen", "3")
    assert p.returncode == 2 and "--gen 3: generation must be one of 1, 2" in p.stderr
    p = call("usb", "--packet", "2048")
    assert p.returncode == 2 and "--packet 2048: packet_bytes must be an integer from 1 to 1024 bytes" in p.stderr


def test_the_chapters_calculation_gives_the_model_for_each_generation_and_packet():
    calc = calculations.get("usb-superspeed")
    inputs = calc.defaults()
    assert inputs == {"transfer_bytes": 1 << 20, "burst": 16, "link_commands": 1, "burst_wait_ns": 0}
    case = calc.records()[calc.headline_case()]
    assert (case["generation"], case["packet_bytes"]) == (1, 1024)
    assert calc.evaluate(inputs, case)["goodput_gbit_s"] == pytest.approx(
        4 * 1024 * 16 / (16 * 1072 + 16) * 354 / 356, rel=1e-12)
    assert len(calc.table_frame()) == 2 * len(usb_charts.PACKET_SIZES)


def test_one_transfers_latency_is_its_time_on_the_link_and_a_wait_after_each_burst():
    """1 MiB on Gen 1 in 1024-byte packets, bursts of 16: 1024 packets, 64 bursts. Its time on the link is its bits
    over the goodput; 1 us of waiting after each burst adds 64 us, and the box answers the same."""
    calc = calculations.get("usb-superspeed")
    case = calc.records()[calc.headline_case()]
    on_link = 8 * (1 << 20) / (usb.evaluate(1024, 1)["goodput_gbit_s"] * 1e9)
    inputs = calc.input_values(burst_wait_ns=1000)
    assert calc.answer_values(inputs, case)["answer_transfer_s"] == pytest.approx(on_link + 64e-6, rel=1e-12)
    assert calc.answer_values(calc.defaults(), case)["answer_transfer_s"] == pytest.approx(on_link, rel=1e-12)
