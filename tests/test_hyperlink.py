import json

import pytest
import sympy as sp
from command import call
from mutations import edited_cell

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import coding, hyperlink
from goodput.render.chapters import hyperlink as hyperlink_charts
from goodput.sources.sprabk5 import hyperlink as sprabk5

CHECKS = checks.collect("hyperlink")
#: The maxima of Sec. 8.2's formulas and the percentages of Tables 24 and 26.
CALCULATED = [c for c in CHECKS if c.resource == "keystone2-s8-hyperlink-theoretical"
              or (c.resource == "keystone2-table23-26" and c.quantity.startswith("measured, share"))]
EXPECTED = {"write, 256-byte packets": "rounding", "read, 32-byte packets (MSMC SRAM)": "rounding",
            "read, 64-byte packets (DDR3)": "erratum"}


@pytest.mark.parametrize("check", CALCULATED, ids=lambda c: c.row)
def test_hyperlink_figures_are_reproduced_or_flagged(check):
    assert check.status == EXPECTED.get(check.row, "ok"), check


def test_the_four_maxima_and_twelve_percentages_are_checked():
    assert sum(c.resource == "keystone2-s8-hyperlink-theoretical" for c in CHECKS) == 4
    assert sum(c.resource == "keystone2-table23-26" for c in CALCULATED) == 12


def test_numeric_goodput_matches_the_expression():
    expr = hyperlink.goodput_expr()
    for rate, lanes, size, packet in [(6.25, 4, 32768, 256), (10, 4, 100, 16), (3.125, 1, 7, 64)]:
        exact = float(expr.subs({coding.line_rate: sp.Rational(str(rate)), coding.lanes: lanes,
                                 hyperlink.transfer: size, hyperlink.packet: packet, hyperlink.control: 8}))
        assert hyperlink.goodput_gbit_s(rate, lanes, size, packet) == pytest.approx(exact, rel=1e-12)


def test_memories_answer_in_their_table_22_bursts():
    assert [hyperlink.read_response_bytes(m) for m in ("DDR3", "MSMC SRAM", "C66x L1/L2")] == [64, 32, 16]
    with pytest.raises(ParameterError, match="memory"):
        hyperlink.read_response_bytes("SRAM")


@pytest.mark.parametrize("args, name", [((6.25, 5, 64), "lanes"), ((0, 4, 64), "line_rate_gbaud"),
                                        ((6.25, 4, 0), "size_bytes"), ((6.25, 4, 64, 512), "packet_bytes")])
def test_impossible_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError) as info:
        hyperlink.goodput_gbit_s(*args)
    assert info.value.name == name


def test_inputs_given_as_text_are_read_as_numbers_once_checked():
    r = hyperlink.evaluate("write", "6.25", "4", "1e6", "1e2")
    assert (r["line_rate_gbaud"], r["lanes"], r["size_bytes"], r["burst_bytes"]) == (6.25, 4, 10 ** 6, 100)
    assert r["packets"] == 10 ** 4 and r == hyperlink.evaluate("write", 6.25, 4, 10 ** 6, 100)


def test_maximum_achievable_reads_imply_twelve_bytes_per_packet():
    t = hyperlink_charts.hyperlink_implied_overhead()
    reads = t[t["transfer"].str.startswith("reads")]
    assert set(reads["implied bytes per packet"]) == {"12.0"}




def _cli(*args):
    return call("hyperlink", *args)


def test_cli_write_prints_goodput_and_a_breakdown_that_adds_up():
    p = _cli("write", "--size", "32768", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["goodput_gbit_s"] == pytest.approx(25 * 8 / 9 * 256 / 264)
    assert sum(r["bytes"].values()) == pytest.approx(8 * r["size_bytes"] / r["goodput_gbit_s"] * 25 / 8)


def test_cli_read_uses_the_memorys_burst():
    r = json.loads(_cli("read", "--size", "32768", "--memory", "MSMC SRAM", "--json").stdout)
    assert r["packet_bytes"] == 32 and r["packets"] == 1024


@pytest.mark.parametrize("args, words", [
    (["write", "--size", "64", "--lanes", "5"], "--lanes 5"),
    (["read", "--size", "64"], "--memory"),
    (["read", "--size", "64", "--memory", "SRAM"], "--memory SRAM"),
    (["write", "--size", "64", "--burst", "512"], "--burst 512"),
])
def test_cli_rejects_impossible_input_with_exit_2(args, words):
    p = _cli(*args)
    assert p.returncode == 2 and words in p.stderr


def test_the_implied_control_bytes_give_back_the_goodput_they_were_solved_from():
    c = hyperlink.implied_control_expr()
    for rate, lanes, packet, control in ((6.25, 4, 64, 8), (5.0, 1, 256, 12), (3.125, 2, 128, 0)):
        g = hyperlink.goodput_gbit_s(rate, lanes, packet, packet) if control == 8 else \
            float(hyperlink.goodput_expr().subs({coding.line_rate: rate, coding.lanes: lanes, hyperlink.transfer: packet,
                                                 hyperlink.packet: packet, hyperlink.control: control}))
        got = c.subs({coding.line_rate: rate, coding.lanes: lanes, hyperlink.packet: packet, hyperlink.achieved: g})
        assert float(got) == pytest.approx(control, abs=1e-9)


# --- Tables 23-26 against the text's model, and the numbers of Sec. 8.2 ------------------------------



def _of(kind, quantity):
    return {c.row: c for c in CHECKS if c.resource == "keystone2-table23-26" and c.kind == kind
            and c.quantity == quantity}


def test_tables_23_and_25_count_12_bytes_a_packet_and_table_23s_21_05_is_more_than_the_link_carries():
    found = _of("calculated", "maximum achievable")
    assert len(found) == 12 and not _of("ceiling", "maximum achievable")  # a maximum is calculated, not measured
    status = {row: c.status for row, c in found.items()}
    assert [row for row, s in status.items() if s != "convention"] == [
        f"Table 23: write {m}, EDMA CC0 and CC4" for m in ("L2", "MSMC", "DDR3")]
    assert {s for s in status.values()} == {"erratum", "convention"}
    # an EDMA write goes out in bursts of at most 128 bytes (Sec. 5.3.1): 6.25 x 4 x 8/9 x 128/136 = 20.92
    c = found["Table 23: write L2, EDMA CC0 and CC4"]
    assert c.published == "21.05" and c.model == pytest.approx(25 * 8 / 9 * 128 / 136)
    assert "7.1 bytes" in c.note and "more than the link can carry" in c.note  # 128 x (25 x 8/9 / 21.05 - 1) = 7.13
    # 25 x 8/9 x P/(P + 12): 64 -> 18.71, 32 -> 16.16, 16 -> 12.70 (printed 12.69)
    for row, p, printed in [("Table 23: write L2, EDMA CC1, CC2 and CC3", 64, "18.71"),
                            ("Table 25: read DDR3, EDMA CC0 and CC4", 64, "18.71"),
                            ("Table 25: read MSMC, EDMA CC1, CC2 and CC3", 32, "16.16"),
                            ("Table 25: read L2, EDMA CC0 and CC4", 16, "12.69")]:
        c = found[row]
        assert c.published == printed and c.model == pytest.approx(25 * 8 / 9 * p / (p + 8))
        assert f"{25 * 8 / 9 * p / (p + 12):.2f}" in c.note


def test_the_measurements_of_tables_24_and_26_keep_under_both_ceilings():
    ceiling, table = _of("ceiling", "measured"), _of("consistency", "measured")
    assert len(ceiling) == len(table) == 12
    assert {c.status for c in [*ceiling.values(), *table.values()]} == {"ok"}
    c = table["Table 26: read DDR3, EDMA CC1, CC2 and CC3"]
    assert (c.published, c.model) == ("8.63", 18.71)
    assert ceiling["Table 26: read L2, EDMA CC0 and CC4"].model == pytest.approx(25 * 8 / 9 * 16 / 24)


def test_a_measurement_above_its_maximum_or_the_link_is_caught():
    t = data.load("keystone2-table23-26")
    i = t.index[(t["transfer"] == "read") & (t["memory_as_printed"] == "Write to L2")
                & (t["edma"] == "CC0 and CC4")][0]
    found = sprabk5.measured_checks(edited_cell(t, i, "measured_gbit_s", "15.00"))  # > 12.69 and > 14.81
    assert {(c.kind, c.status) for c in found if c.status != "ok"} == {("ceiling", "erratum"),
                                                                        ("consistency", "erratum")}


@pytest.mark.parametrize("printed, status", [("18.50", "erratum"), ("17.00", "unexplained")])
def test_a_maximum_no_rule_gives_is_unexplained_and_one_the_link_cannot_carry_an_erratum(printed, status):
    t = data.load("keystone2-table23-26")
    i = t.index[(t["transfer"] == "read") & (t["memory_as_printed"] == "Write to MSMC")
                & (t["edma"] == "CC0 and CC4")][0]
    # 32-byte MSMC bursts: 25 x 8/9 x 32/40 = 17.78 with 8 bytes, 16.16 with 12; 18.50 is more than either
    found = sprabk5.maximum_checks(edited_cell(t, i, "max_achievable_gbit_s", printed))
    bad = [(c.row, c.kind, c.status) for c in found if c.status in checks.ERRATA]
    assert ("Table 25: read MSMC, EDMA CC0 and CC4", "calculated", status) in bad


def test_the_numbers_of_section_8_follow_from_the_rates_table_22_and_sections_5_3_1_and_8_1_2():
    found = [c for c in CHECKS if c.resource == "keystone2-s8-hyperlink-prose"]
    # each formula: 8/9, the packet twice, the overhead; §8's 8/9; §8.1.4's bursts again (4) and its choice
    assert len(found) == 16 + 4 * 5 + 2 + 5
    assert {c.status for c in found if c.published not in ("21.54", "35.5")} == {"ok"}
    repeats = [c for c in found if c.published == "35.5"]
    assert len(repeats) == 2 and {c.status for c in repeats} == {"rounding"}
    assert repeats[0].model == pytest.approx(10 * 4 * 8 / 9)  # 35.56, cut to 35.5
    assert sorted(c.published for c in found if "DBS" in c.quantity or "DMA" in c.quantity) == ["128"] * 5 + ["64"] * 4
    (again,) = [c for c in found if c.published == "21.54"]
    assert again.status == "rounding" and again.model == pytest.approx(25 * 8 / 9 * 256 / 264)
    assert sorted(c.published for c in found if c.quantity == "aggregate line rate") == ["25"] * 4
    formulas = {(c.row, c.quantity): c.model for c in found if c.row.endswith(" formula")}
    assert formulas[("§8.2: read from DDR3 formula", "read response burst in the sum: DDR3")] == 64
    assert formulas[("§8.2: write throughput formula", "largest packet in the sum")] == 256
    assert [formulas[key] for key in formulas if key[1] == "bits per symbol"] == [9] * 5
    assert {c.kind for c in found} == {"prose", "consistency"}


def test_a_burst_the_text_misstates_is_caught():
    t = data.load("keystone2-s8-hyperlink-prose")
    i = t.index[t["item"] == "read response burst: DDR3"][0]
    found = sprabk5.prose_checks(edited_cell(t, i, "value", "128"))
    assert [(c.quantity, c.status) for c in found if c.status != "ok" and c.published not in ("21.54", "35.5")] == [
        ("read response burst: DDR3", "erratum")]


def test_a_formula_of_section_8_2_with_a_wrong_part_is_caught():
    t = data.load("keystone2-s8-hyperlink-prose")
    place = "§8.2: read from MSMC SRAM formula"
    for item, wrong in (("bits per symbol", "10"), ("read response burst in the sum: MSMC SRAM", "64"),
                        ("data bits per symbol", "9")):
        i = t.index[(t["place"] == place) & (t["item"] == item)][0]
        (c,) = [c for c in sprabk5.prose_checks(edited_cell(t, i, "value", wrong))
                if (c.row, c.quantity) == (place, item)]
        assert c.status == "erratum", (item, c)


def test_section_8_1_4_chooses_the_burst_whose_packets_carry_writes_fastest():
    t = data.load("keystone2-s8-hyperlink-prose")
    i = t.index[t["item"] == "DBS to choose for writes"][0]
    (c,) = [c for c in sprabk5.prose_checks(t) if c.quantity == "DBS to choose for writes"]
    assert (c.status, c.kind, c.model) == ("ok", "prose", 128)
    (c,) = [c for c in sprabk5.prose_checks(edited_cell(t, i, "value", "64")) if c.quantity == "DBS to choose for writes"]
    assert c.status == "erratum"
