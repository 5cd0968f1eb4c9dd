import json

import pytest
import sympy as sp

from goodput import checks, coding, data, srio
from goodput.errors import ParameterError
from goodput.render import srio as srio_charts

from command import call


CHECKS = checks.collect("srio")


def test_the_guides_20_and_16_bytes_follow_from_the_fields_and_its_18_is_an_erratum():
    status = {c.row: c.status for c in CHECKS}
    assert status == {"DirectIO, 256-byte payload": "ok", "DirectIO, payload below 256 bytes": "erratum",
                      "Type 11, every packet": "ok"}
    note = [c.note for c in CHECKS if c.status == "erratum"][0]
    assert "pad" in note and "18" in note


@pytest.mark.parametrize("payload, ids, crc, pad", [
    (8, 16, 2, 2), (64, 16, 2, 2), (72, 16, 4, 0), (256, 16, 4, 0), (8, 8, 2, 0), (256, 8, 4, 2)])
def test_an_nwrite_packet_is_padded_to_32_bit_words_after_one_or_two_crcs(payload, ids, crc, pad):
    header = 2 + 2 * ids // 8 + 6
    assert srio.wire_bytes("nwrite", payload, ids) == header + payload + crc + pad + 4
    assert srio.wire_bytes("nwrite", payload, ids) % 4 == 0


def test_an_nread_response_carries_the_acknowledgement_of_its_request():
    assert srio.wire_bytes("nread", 256) == srio.wire_bytes("type11", 256) + 4


def test_numeric_wire_bytes_equal_the_expression():
    expr = srio.wire_bytes_expr()
    for key, k in srio.KINDS.items():
        for p in (0, 8, 60, 64, 66, 72, 128, 256):
            for ids in (8, 16):
                exact = expr.subs({srio.payload: p, srio.id_bits: ids, srio.control_symbols: 1,
                                   srio.logical_header: k.logical_header_bytes})
                assert srio.wire_bytes(key, p, ids) == int(exact) + 4 * k.acks_in_data_direction


def test_transfer_goodput_expression_matches_evaluate_on_the_table_sizes():
    expr = srio.transfer_goodput_expr()
    for key, k in srio.KINDS.items():
        for size in srio_charts.SIZES:
            if size > k.max_bytes:
                continue
            exact = expr.subs({coding.line_rate: sp.Rational(5), coding.lanes: 4, srio.transfer: size,
                               srio.id_bits: 16, srio.control_symbols: 1,
                               srio.logical_header: k.logical_header_bytes, srio.acks: k.acks_in_data_direction})
            assert srio.goodput_gbit_s(key, 5, 4, size) == pytest.approx(float(exact), rel=1e-12)


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


def test_nwrites_below_the_knee_take_one_fixed_time_per_transaction():
    fits = [f for f in srio.fits() if f.transaction == "NWRITE"]
    assert len(fits) == 12
    for f in fits:
        assert f.form == "overlapped"
        assert f.t0_ns == pytest.approx(305.2, abs=8)
        assert f.result.rms_residual < 0.03


def test_nreads_fit_a_serial_time_and_messages_an_overlapped_one():
    for f in srio.fits():
        if f.transaction == "NREAD":
            assert f.form == "serial" and 900 < f.t0_ns < 1400
        if f.transaction == "Type 11":
            assert f.form == "overlapped" and f.result.rms_residual < 0.01


def test_fitted_bandwidth_never_beats_the_packet_model():
    kinds = {"NWRITE": "nwrite", "NREAD": "nread", "Type 11": "type11"}
    for f in srio.fits():
        assert f.bandwidth_gbit_s < srio.goodput_gbit_s(kinds[f.transaction], f.phy_gbaud, f.lanes, 256)


@pytest.mark.parametrize("args, name", [
    (("nwrite", 3.125, 3, 64), "lanes"), (("nwrite", 3.125, 0, 64), "lanes"), (("nwrite", 0, 4, 64), "line_rate"),
    (("nwrite", 3.125, 4, 0), "size_bytes"), (("type11", 3.125, 4, 8192), "size_bytes"),
    (("nwrite", 3.125, 4, 64, 12), "id_bits"), (("nwrite", 4, 4, 64, 16, 1, True), "line_rate_gbaud"),
    (("nwrite", 3.125, 4, -5), "size_bytes"), (("swrite", 3.125, 4, 64), "kind"),
])
def test_impossible_srio_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError, match=name):
        srio.evaluate(*args)


def test_wire_bytes_rejects_a_payload_above_256():
    with pytest.raises(ParameterError, match="payload_bytes"):
        srio.wire_bytes("nwrite", 264)


def run(*args):
    return call("srio", *args)


def test_goodput_srio_json_echoes_inputs_and_breaks_down_the_bytes():
    p = run("nwrite", "--size", "8192", "--rate-gbaud", "5", "--lanes", "4", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["kind"], out["size_bytes"], out["lanes"], out["line_rate_gbaud"], out["packets"]) == (
        "nwrite", 8192, 4, 5.0, 32)
    assert out["goodput_gbit_s"] == pytest.approx(16 * 256 / 276)
    assert out["efficiency"] == pytest.approx(out["goodput_gbit_s"] / 20)
    assert out["bytes"]["packet overhead"] + out["bytes"]["control symbols"] == 32 * 20


@pytest.mark.parametrize("args, words", [
    (["nwrite", "--size", "64", "--lanes", "3"], "--lanes 3: lanes must be 1, 2 or 4"),
    (["nread", "--size", "64", "--rate-gbaud", "4", "--strict"], "--rate-gbaud 4"),
    (["type11", "--size", "5000"], "--size 5000: size_bytes must be at most 4096"),
    (["nwrite", "--size", "64", "--id-bits", "32"], "--id-bits 32"),
])
def test_goodput_srio_rejects_bad_input_with_exit_2(args, words):
    p = run(*args)
    assert p.returncode == 2 and words in p.stderr, p.stderr
