import json

import pytest
import sympy as sp
from command import call
from mutations import edited_cell
from tiers import fast_first

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import coding, srio
from goodput.render import calculations
from goodput.render.chapters import srio as srio_charts
from goodput.sources.sprabk5 import srio as sprabk5

CHECKS = checks.collect("srio")


def _checks_of(resource):
    return [c for c in CHECKS if c.resource == resource]


def test_the_guides_20_and_16_bytes_follow_from_the_fields_and_its_18_is_an_erratum():
    status = {c.row: c.status for c in _checks_of("keystone2-s7-srio-overheads")}
    assert status == {"DirectIO, 256-byte payload": "ok", "DirectIO, payload below 256 bytes": "erratum",
                      "Type 11, every packet": "ok"}
    note = [c.note for c in CHECKS if c.status == "erratum" and "pad" in c.note][0]
    assert "18" in note


def test_the_specifications_largest_packet_control_symbols_and_small_packets_all_follow_from_the_fields():
    found = _checks_of("rapidio-part6-sizes")
    assert len(found) == 15 and {c.status for c in found} == {"ok"}
    by_row = {c.row.split(": ", 1)[1]: c for c in found}
    assert by_row["Total"].published == "276" and by_row["Address"].published == "8"
    assert by_row["maximum packet on a 64b/67b link"].formula == "=8*CEILING((4 + 280)/8, 1)"


def test_the_lane_rates_of_part_6_follow_from_the_code_each_class_takes():
    found = _checks_of("rapidio-part6-lane-rates")
    assert [c.published for c in found] == ["1", "2", "2.5", "4", "5", "9.85", "11.94"]  # 25.78125 (4.x): not modelled
    assert {c.status for c in found} == {"ok"}
    assert "64/67" in found[-1].formula and "8/10" in found[0].formula


def test_fullers_10_bytes_of_swrite_overhead_lack_the_second_crc_of_a_256_byte_packet():
    (c,) = _checks_of("fuller2005-s4-6-swrite")
    # 2 (ackID .. ftype) + 1 + 1 (8-bit IDs) + 4 (34-bit address field) + 2 + 2 (two CRCs past 80 bytes)
    assert (c.status, c.published, c.model) == ("erratum", "10", 2 + 1 + 1 + 4 + 2 + 2)
    assert "at most 72 bytes" in c.note and f"{256 / 268:.1%}" in c.note and f"{256 / 272:.1%}" in c.note


@pytest.mark.parametrize("payload, ids, crc, pad", [
    (8, 16, 2, 2), (64, 16, 2, 2), (72, 16, 4, 0), (256, 16, 4, 0), (8, 8, 2, 0), (256, 8, 4, 2)])
def test_an_nwrite_packet_is_padded_to_32_bit_words_after_one_or_two_crcs(payload, ids, crc, pad):
    header = 2 + 2 * ids // 8 + 6
    assert srio.wire_bytes("nwrite", payload, ids) == header + payload + crc + pad + 4
    assert srio.wire_bytes("nwrite", payload, ids) % 4 == 0


def test_an_nread_response_carries_the_acknowledgement_of_its_request():
    assert srio.wire_bytes("nread", 256) == srio.wire_bytes("type11", 256) + 4


def test_numeric_wire_bytes_equal_the_expression_in_every_class():
    for number, rate in ((1, 3.125), (2, 6.25), (3, 10.3125)):
        expr = srio.wire_bytes_expr(number)
        for key, k in srio.KINDS.items():
            for p in (8, 64, 72, 128, 256) if k.whole_double_words else (0, 8, 60, 64, 66, 72, 128, 256):
                for ids in (8, 16):
                    for x in (34, 50, 66):
                        logical = k.fixed_logical_bytes + (x - 2) // 8 * k.addressed
                        exact = expr.subs({srio.payload: p, srio.id_bits: ids,
                                           srio.control_symbols: 1 + k.acks_in_data_direction,
                                           srio.logical_header: logical})
                        assert srio.wire_bytes(key, p, ids, 1, x, rate) == int(exact)


@pytest.mark.parametrize("rate", fast_first([3.125, 6.25, 10.3125, 12.5]))
def test_transfer_goodput_expression_matches_evaluate_on_the_table_sizes(rate):
    expr = srio.transfer_goodput_expr()
    for key, k in srio.KINDS.items():
        for size in srio_charts.SIZES:
            if size > k.max_bytes:
                continue
            for x in (34, 66):
                exact = expr.subs({coding.line_rate: sp.nsimplify(rate), coding.lanes: 4, srio.transfer: size,
                                   srio.id_bits: 16, srio.control_symbols: 1, srio.address_bits: x,
                                   srio.fixed_logical: k.fixed_logical_bytes, srio.addressed: int(k.addressed),
                                   srio.acks: k.acks_in_data_direction})
                assert srio.goodput_gbit_s(key, rate, 4, size, address_bits_=x) == pytest.approx(float(exact),
                                                                                                  rel=1e-12)


@pytest.mark.parametrize("size", fast_first([255, 257, 4097, 1, 100, 300, 511, 700, 1000], n=3))
def test_transfer_goodput_expression_matches_evaluate_between_multiples_of_256(size):
    expr = srio.transfer_goodput_expr()
    k = srio.KINDS["nwrite"]
    exact = expr.subs({coding.line_rate: sp.Rational(5), coding.lanes: 4, srio.transfer: size, srio.id_bits: 16,
                       srio.control_symbols: 1, srio.address_bits: 34, srio.fixed_logical: k.fixed_logical_bytes,
                       srio.addressed: 1, srio.acks: 0})
    assert srio.goodput_gbit_s("nwrite", 5, 4, size) == pytest.approx(float(exact), rel=1e-12)


def test_a_partial_last_packet_pays_its_own_overhead():
    r = srio.evaluate("nwrite", 3.125, 1, 300)
    assert r["packets"] == 2
    assert r["bytes"]["payload"] + r["bytes"]["packet overhead"] + r["bytes"]["control symbols"] == 300 + 2 * 20


def test_no_measured_throughput_exceeds_the_packet_model():
    t = srio.measured()
    kinds = {"NWRITE": "nwrite", "NREAD": "nread", "Type 11": "type11"}
    for r in t.itertuples():
        model = srio.goodput_gbit_s(kinds[r.transaction], r.phy_gbaud, r.lanes, r.payload_bytes)
        assert r.throughput_mbit_s / 1000 < model, r


def test_tables_16_to_21_hold_six_columns_of_every_size():
    t = data.load("keystone2-table16-21")
    assert sorted(t["table"].unique()) == [16, 17, 18, 19, 20, 21]
    counts = t.groupby("table").size().to_dict()
    assert counts == {16: 66, 17: 66, 18: 66, 19: 66, 20: 54, 21: 54}


@pytest.mark.slow
def test_nwrites_below_the_knee_take_one_fixed_time_per_transaction():
    fits = [f for f in srio.fits() if f.transaction == "NWRITE"]
    assert len(fits) == 12
    for f in fits:
        assert f.form == "overlapped"
        assert f.t0_ns == pytest.approx(305.2, abs=8)
        assert f.result.rms_residual < 0.03


@pytest.mark.slow
def test_nreads_fit_a_serial_time_and_messages_an_overlapped_one():
    for f in srio.fits():
        if f.transaction == "NREAD":
            assert f.form == "serial" and 900 < f.t0_ns < 1400
        if f.transaction == "Type 11":
            assert f.form == "overlapped" and f.result.rms_residual < 0.01


@pytest.mark.slow
def test_fitted_bandwidth_never_beats_the_packet_model():
    kinds = {"NWRITE": "nwrite", "NREAD": "nread", "Type 11": "type11"}
    for f in srio.fits():
        assert f.bandwidth_gbit_s < srio.goodput_gbit_s(kinds[f.transaction], f.phy_gbaud, f.lanes, 256)


@pytest.mark.parametrize("args, name", [
    (("nwrite", 3.125, 3, 64), "lanes"), (("nwrite", 3.125, 0, 64), "lanes"), (("nwrite", 0, 4, 64), "line_rate"),
    (("nwrite", 3.125, 4, 0), "size_bytes"), (("type11", 3.125, 4, 8192), "size_bytes"),
    (("nwrite", 3.125, 4, 64, 12), "id_bits"), (("nwrite", 4, 4, 64, 16, 1, True), "line_rate_gbaud"),
    (("nwrite", 3.125, 4, -5), "size_bytes"), (("xwrite", 3.125, 4, 64), "kind"),
    (("swrite", 3.125, 4, 100), "size_bytes"), (("swrite", 3.125, 4, 4), "size_bytes"),
    (("nwrite", 3.125, 4, 64, 16, 1, False, 48), "address_bits"), (("nwrite", 3.125, 4, 64, 16, 1, False, 64),
                                                                   "address_bits"),
    (("nwrite", 3.125, 32, 64), "lanes"), (("nwrite", 3.125, 12, 64), "lanes"), (("nwrite", 13, 4, 64), "line_rate"),
    (("nwrite", 8, 4, 64, 16, 1, True), "line_rate_gbaud"), (("nwrite", 25.78125, 4, 64), "line_rate_gbaud"),
])
def test_impossible_srio_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError, match=name):
        srio.evaluate(*args)


@pytest.mark.parametrize("kind, payload", [("nwrite", 264), ("swrite", 12), ("swrite", 0), ("swrite", 264)])
def test_wire_bytes_rejects_a_payload_above_256_and_an_swrite_of_part_of_a_double_word(kind, payload):
    with pytest.raises(ParameterError, match="payload_bytes"):
        srio.wire_bytes(kind, payload)


def run(*args):
    return call("srio", *args)


def test_goodput_srio_json_echoes_inputs_and_breaks_down_the_bytes():
    p = run("nwrite", "--size", "8192", "--rate-gbaud", "5", "--lanes", "4", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["kind"], out["size_bytes"], out["lanes"], out["line_rate_gbaud"], out["packets"]) == (
        "nwrite", 8192, 4, 5.0, 32)
    # 4 lanes x 5 Gbaud x 8/10, less K,R,R,R per 5000 characters; 256 of every 276 bytes are payload
    assert out["goodput_gbit_s"] == pytest.approx(16 * (1 - 4 / 5000) * 256 / 276)
    assert out["efficiency"] == pytest.approx(out["goodput_gbit_s"] / 20)
    assert out["bytes"]["packet overhead"] + out["bytes"]["control symbols"] == 32 * 20


@pytest.mark.parametrize("args, words", [
    (["nwrite", "--size", "64", "--lanes", "3"], "--lanes 3: lanes must be one of 1, 2, 4, 8, 16 lanes"),
    (["swrite", "--size", "100"], "--size 100: size_bytes must be a multiple of 8 bytes for SWRITE"),
    (["nwrite", "--size", "64", "--address-bits", "32"], "--address-bits 32: address_bits must be one of 34, 50, 66"),
    (["nwrite", "--size", "64", "--rate-gbaud", "8", "--strict"], "--rate-gbaud 8: "),
    (["nwrite", "--size", "64", "--rate-gbaud", "25.78125"], "from 0.001 to 12.5 Gbaud"),
    (["nread", "--size", "64", "--rate-gbaud", "4", "--strict"], "--rate-gbaud 4"),
    (["type11", "--size", "5000"], "--size 5000: size_bytes must be at most 4096"),
    (["nwrite", "--size", "64", "--id-bits", "32"], "--id-bits 32"),
])
def test_goodput_srio_rejects_bad_input_with_exit_2(args, words):
    p = run(*args)
    assert p.returncode == 2 and words in p.stderr, p.stderr


# --- SWRITE, address widths, RapidIO 3.x ------------------------------------------------------------

def test_the_largest_packet_is_276_bytes():
    header = 2  # ackID, VC, CRF, prio, tt, ftype: 16 bits
    ids = 2 * 16 // 8
    transaction_size_tid = 1 + 1
    address = (32 + 29 + 1 + 2) // 8  # extended address, double-word address, wdptr, xamsbs
    crcs = 2 + 2  # past 80 bytes a second CRC
    total = header + ids + transaction_size_tid + address + 256 + crcs
    assert total == 276 and total % 4 == 0  # no pad
    assert srio.packet_bytes("nwrite", 256, 16, 66) == total
    assert srio.fields("nwrite", 256, 16, 66)["address"] == address


@pytest.mark.parametrize("x, address, nwrite_packet", [
    (34, 4, 24),  # 2 + 4 IDs + 2 + 4 + 8 payload + 2 CRC = 22 -> 24
    (50, 6, 24),  # 2 + 4 + 2 + 6 + 8 + 2 = 24
    (66, 8, 28),  # 2 + 4 + 2 + 8 + 8 + 2 = 26 -> 28
])
def test_the_address_field_grows_by_two_bytes_for_each_16_bits_of_extended_address(x, address, nwrite_packet):
    assert srio.fields("swrite", 8, 16, x)["address"] == address
    assert srio.packet_bytes("nwrite", 8, 16, x) == nwrite_packet


@pytest.mark.parametrize("payload, ids, x, packet", [
    # 2 + 2 IDs + 4 address + payload + CRC(s), padded to 4 bytes
    (8, 8, 34, 20),      # 2 + 2 + 4 + 8 + 2 = 18 -> 20
    (8, 16, 34, 20),     # 2 + 4 + 4 + 8 + 2 = 20
    (72, 8, 34, 84),     # 80 before the CRC: one CRC, 82 -> 84
    (80, 8, 34, 92),     # 88 before the CRC: two, 92
    (256, 8, 34, 268),   # 2 + 2 + 4 + 256 + 4
    (256, 16, 34, 272),  # 270 -> 272: the 2 bytes saved against NWRITE go to the pad
    (256, 16, 66, 276),  # 2 + 4 + 8 + 256 + 4 = 274 -> 276
])
def test_an_swrite_packet_has_no_transaction_size_or_tid(payload, ids, x, packet):
    assert srio.packet_bytes("swrite", payload, ids, x) == packet
    assert srio.wire_bytes("swrite", payload, ids, 1, x) == packet + 4  # a Control Symbol 24 and its delimiter


def test_an_swrite_saves_two_header_bytes_which_a_32_bit_pad_may_take_back():
    for ids in (8, 16):
        for p in range(8, 257, 8):
            nwrite, swrite = srio.fields("nwrite", p, ids), srio.fields("swrite", p, ids)
            assert nwrite["logical header"] - swrite["logical header"] == 2
            saved = srio.packet_bytes("nwrite", p, ids) - srio.packet_bytes("swrite", p, ids)
            assert saved in (0, 4)


def test_efficiency_at_256_bytes_on_each_class():
    coded = {3.125: 3.125 * 8 / 10, 6.25: 6.25 * 8 / 10, 10.3125: 10.3125 * 64 / 67}
    clock = {3.125: 4 / 5000, 6.25: 9 / 5000, 10.3125: 7 / 5000}
    wire = {  # SWRITE, 16-bit IDs, 34-bit address: 270-byte packet padded to 272
        3.125: 272 + 4,          # + Control Symbol 24 with its delimiter
        6.25: 272 + 8,           # + Control Symbol 48 between two delimiters
        10.3125: 280 + 8,        # 272 + link CRC-32 = 276, padded to 280; + Control Symbol 64
    }
    for rate in coded:
        r = srio.evaluate("swrite", rate, 4, 256, 16)
        assert r["goodput_gbit_s"] == pytest.approx(4 * coded[rate] * (1 - clock[rate]) * 256 / wire[rate])
        assert r["efficiency"] == pytest.approx(r["goodput_gbit_s"] / (4 * rate))
    assert srio.evaluate("nwrite", 10.3125, 1, 256, 16, address_bits_=66)["goodput_gbit_s"] == pytest.approx(
        10.3125 * 64 / 67 * (1 - 7 / 5000) * 256 / (280 + 8))  # 276 + 4 = 280, a multiple of 8


def test_the_line_rate_picks_the_class():
    assert [srio.baud_class(r).number for r in srio.LINE_RATES_GBAUD] == [1, 1, 1, 1, 2, 3, 3]
    assert srio.baud_class(5.5).number == 2 and srio.baud_class(8).number == 3  # between two: the higher
    assert {srio.baud_class(r).code for r in (10.3125, 12.5)} == {"64b67b"}
    # an NWRITE of 8 bytes at 10.3125 Gbaud: 2 + 4 + 6 + 8 + 2 = 22 -> 24; + 4 link CRC = 28 -> 32; + 8
    assert srio.wire_bytes("nwrite", 8, 16, 1, 34, 10.3125) == 40
    f = srio.fields("nwrite", 8, 16, 34, 10.3125)
    assert (f["pad"], f["link CRC-32 + pad"], f["start-of-packet symbol"]) == (2, 8, 8)


def test_the_clock_compensation_bytes_are_the_share_each_class_spends():
    for rate, units in ((3.125, 4), (6.25, 9), (10.3125, 7)):
        r = srio.evaluate("nwrite", rate, 16, 4096)
        line = r["bytes"]["payload"] + r["bytes"]["packet overhead"] + r["bytes"]["control symbols"]
        assert r["bytes"]["clock compensation"] == pytest.approx(line * units / (5000 - units))


def test_the_live_expression_follows_the_class_across_the_rate_slider():
    expr = srio.transfer_goodput_expr()
    for rate in (1.0, 5.0, 5.5, 6.25, 7.0, 10.3125, 12.5):
        exact = expr.subs({coding.line_rate: sp.nsimplify(rate), coding.lanes: 2, srio.transfer: 256, srio.id_bits: 8,
                           srio.control_symbols: 1, srio.address_bits: 50, srio.fixed_logical: 0, srio.addressed: 1,
                           srio.acks: 0})
        assert srio.goodput_gbit_s("swrite", rate, 2, 256, 8, address_bits_=50) == pytest.approx(float(exact))


def test_strict_accepts_every_rate_of_rapidio_1_to_3():
    for rate in (1.25, 2.5, 3.125, 5, 6.25, 10.3125, 12.5):
        assert srio.evaluate("swrite", rate, 1, 8, strict=True)["line_rate_gbaud"] == rate


def test_goodput_srio_swrite_over_a_16x_port_at_10_gbaud_with_66_bit_addresses():
    p = run("swrite", "--size", "4096", "--rate-gbaud", "10.3125", "--lanes", "16", "--address-bits", "66",
            "--id-bits", "8", "--strict", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["kind"], out["lanes"], out["address_bits"], out["baud_class"], out["code"], out["packets"]) == (
        "swrite", 16, 66, 3, "64b67b", 16)
    # 2 + 2 + 8 + 256 + 4 = 272; + 4 link CRC-32 = 276 -> 280; + 8 control symbol = 288 per 256 bytes
    assert out["goodput_gbit_s"] == pytest.approx(16 * 10.3125 * 64 / 67 * (1 - 7 / 5000) * 256 / 288)
    assert out["bytes"]["control symbols"] == 16 * 8
    text = run("swrite", "--size", "4096", "--rate-gbaud", "10.3125", "--lanes", "16", "--address-bits", "66")
    assert text.returncode == 0 and "64b/67b, 66-bit addresses" in text.stdout


# --- Tables 16-21: every measured value under its ceiling, the rates the text states ----------------



def test_every_measured_value_of_tables_16_to_21_keeps_under_the_packet_models_ceiling():
    found = [c for c in _checks_of("keystone2-table16-21") if c.kind == "ceiling"]
    assert len(found) == 4 * 11 * 6 + 2 * 9 * 6  # four tables of 11 sizes, two of 9, six columns each
    assert {c.status for c in found} == {"ok"} and {c.relation for c in found} == {"<="}
    by_row = {c.row: c for c in found}
    # the closest: an NWRITE of 2048 bytes on two lanes at 3.125 Gbaud, 8 packets of 256 bytes, each
    # 2 + 2 + 2 + 2 + 4 (header) + 256 + 4 (two CRCs) + 4 (control symbol) = 276 bytes, 2 x 2.5 Gbit/s less
    # 4 clock compensation characters in 5000
    c = by_row["Table 16, NWRITE 2x, L2, 2048 bytes"]
    assert c.published == "4619.7"
    assert c.model == pytest.approx(1000 * 2 * 2.5 * (1 - 4 / 5000) * 256 / 276)
    assert c.formula.startswith("=")


@pytest.mark.slow
def test_a_measured_value_above_the_ceiling_is_an_erratum():
    t = srio.measured()
    i = t[(t["table"] == 18) & (t["lanes"] == 4) & (t["memory"] == "L2") & (t["payload_bytes"] == 8192)].index[0]
    # 4 lanes of 4 Gbit/s carry 16 Gbit/s before any header: 15000 is above 16000 * 256 / 276
    found = sprabk5.measured_ceiling_checks(edited_cell(t, i, "throughput_mbit_s", "15000"))
    wrong = [c for c in found if c.status != "ok"]
    assert [(c.row, c.status) for c in wrong] == [("Table 18, NWRITE 4x, L2, 8192 bytes", "erratum")]
    assert "more than the lanes can carry" in wrong[0].note


def test_only_table_19s_caption_states_a_rate_its_values_cannot_have_been_measured_at():
    found = [c for c in _checks_of("keystone2-s7-srio-phy-rates") if c.kind == "consistency"]
    assert len(found) == 19
    assert {c.row: c.status for c in found if c.status != "ok"} == {"Table 19 caption": "erratum"}
    (c,) = [c for c in found if c.row == "Table 19 caption"]
    # 3460.41 Mbit/s of 8192-byte NREADs on one lane: a response packet of 256 bytes is 2 + 2 + 2 + 2 (header,
    # no address) + 256 + 4 (two CRCs) bytes, with its control symbol and the acknowledgement of its request
    # 4 + 4 more: 276; 3.125 Gbaud * 8/10 * (1 - 4/5000) * 256/276 = 2.317 Gbit/s at most
    assert c.published == "3.125" and c.relation == ">="
    assert c.model == pytest.approx(3.125 * 3460.41 / (1000 * 2.5 * (1 - 4 / 5000) * 256 / 276))
    assert "3460.41" in c.note


def test_a_caption_rate_too_low_for_its_table_is_caught():
    places = data.load("keystone2-s7-srio-phy-rates")
    i = places.index[places["place"] == "Table 18 caption"][0]
    found = sprabk5.phy_rate_checks(edited_cell(places, i, "phy_gbaud", "3.125"), srio.measured())
    assert {c.row: c.status for c in found if c.status != "ok"} == {"Table 18 caption": "erratum",
                                                                     "Table 19 caption": "erratum"}


def test_the_srio_rates_the_text_gives_are_the_phy_rates_after_8b10b():
    found = [c for c in _checks_of("keystone2-s7-srio-phy-rates") if c.kind == "prose"]
    # the stray copy of Table 17's sentence, Tables 16, 17 (3.125 Gbaud), 18, 19 (5), 20 (3.125), 21 (5)
    assert [(c.published, c.status) for c in found] == [("2.5", "ok")] * 3 + [("4", "ok")] * 2 + [("2.5", "ok"),
                                                                                                   ("4", "ok")]


def test_a_wrong_srio_rate_in_the_text_is_caught():
    places = data.load("keystone2-s7-srio-phy-rates")
    i = places.index[places["place"] == "text before Table 18"][0]
    found = sprabk5.phy_rate_checks(edited_cell(places, i, "srio_gbit_s", "3.2"), srio.measured())
    assert [(c.row, c.status) for c in found if c.kind == "prose" and c.status != "ok"] == [
        ("text before Table 18", "erratum")]


def test_the_lane_rates_and_code_sec_7_names_are_rapidio_1x():
    found = [c for c in CHECKS if c.resource in ("keystone2-s7-srio-lane-rates", "keystone2-s7-srio-prose")
             and c.kind == "prose"]
    assert [(c.published, c.model) for c in found] == [
        ("1.25", 1.25), ("2.5", 2.5), ("3.125", 3.125), ("5", 5.0), ("8", 8), ("10", 10)]
    assert {c.status for c in found} == {"ok"}


def test_a_lane_rate_or_code_sec_7_misstates_is_caught():
    rates, prose = data.load("keystone2-s7-srio-lane-rates"), data.load("keystone2-s7-srio-prose")
    found = sprabk5.keystone_rate_checks(edited_cell(rates, 2, "line_rate_gbaud", "3.75"), prose)
    assert [(c.row, c.status) for c in found if c.status != "ok"] == [("RapidIO 1.x rate 3", "erratum")]
    found = sprabk5.keystone_rate_checks(rates, edited_cell(prose, 1, "value", "9"))
    assert [(c.quantity, c.status) for c in found if c.status != "ok"] == [("line bits of the line code", "erratum")]
    with pytest.raises(ValueError, match="4 rates|3 rates"):
        sprabk5.keystone_rate_checks(rates.iloc[:3], prose)


def test_one_transfers_latency_is_its_time_on_the_link_and_its_fixed_time():
    """An NREAD of 256 bytes at 3.125 Gbaud x4: its response, 256 + 20 bytes of packet and control symbol plus the
    clock compensation, at the goodput's rate; 800 ns in the target before it answers comes on top, and the box and
    the command answer the same."""
    calc = calculations.get("srio")
    case = next(r for r in calc.records() if r["size_bytes"] == 256 and r["transaction"].startswith("NREAD"))
    goodput = srio.goodput_gbit_s("nread", 3.125, 4, 256)
    on_link = 8 * 256 / goodput  # ns: Gbit/s is bits a ns
    inputs = calc.input_values(response_ns=800)
    assert calc.answer_values(inputs, case)["answer_transfer_s"] == pytest.approx((on_link + 800) / 1e9, rel=1e-12)
    r = json.loads(call("srio", "nread", "--size", "256", "--response-ns", "800", "--json").stdout)
    assert r["latency_ns"] == pytest.approx(on_link + 800, rel=1e-12)
