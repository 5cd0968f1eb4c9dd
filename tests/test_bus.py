import itertools
import json

import pytest
import sympy as sp
from command import call
from mutations import edited_cell

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import bus, bus_numeric
from goodput.render.chapters import keystone_memory_edma as bus_charts
from goodput.sources.sprabk5 import edma as sprabk5

CHECKS = checks.collect("keystone-memory-edma")
CALCULATED = [c for c in CHECKS if c.kind == "calculated"]
ERRATA = {
    ("Table 1", "EDMA4(Single TC) (256 bits x 1200M/2)", "result of the comment's formula"),
    ("Table 2", "DSP L2 (256 bits x 1200M/2)", "maximum bandwidth"),
    ("Table 2", "DSP L2 (256 bits x 1200M/2)", "result of the comment's formula"),
    ("§2, §4-5 text", "§2.1: CorePac load/store to L1D (128 bits per cycle)", "result as printed"),
    ("Tables 6-15", "Table 11: TC0 and TC1", "total transfer efficiency"),
    ("Tables 6-15", "Table 11: TC2 and TC6", "total transfer efficiency"),
    ("Tables 6-15", "Table 11: TC10 and TC11", "total transfer efficiency"),
}


@pytest.mark.parametrize("check", CALCULATED, ids=lambda c: f"{c.where}-{c.row}-{c.quantity}")
def test_every_section_3_to_5_figure_is_reproduced_or_an_erratum(check):
    expected = "erratum" if (check.where, check.row, check.quantity) in ERRATA else "ok"
    assert check.status == expected, check


def test_every_table_6_to_15_maximum_and_efficiency_is_checked():
    rows = len(data.load("keystone2-table6-15"))
    assert rows == 30
    assert sum(c.resource == "keystone2-table6-15" for c in CALCULATED) == 2 * rows
    assert {c.status for c in CHECKS if c.quantity.startswith("theoretical")} == {"ok"}


def test_an_endpoint_that_is_both_ends_halves_and_two_ddr3s_do_not():
    msmc = bus.copy_limits("MSMC SRAM", "MSMC SRAM", tcs=2, tc_width_bits=256, tc_clock_divider=2)
    assert msmc["MSMC SRAM"] == 19200
    same = bus.copy_limits("DDR3A", "DDR3A", tcs=2)
    apart = bus.copy_limits("DDR3A", "DDR3B", tcs=2)
    assert same["DDR3A"] == 6400 and apart["DDR3A"] == apart["DDR3B"] == 12800


def test_two_tcs_between_the_same_corepacs_take_turns_at_their_slave_ports():
    same_pair = bus.Case("x", ("TC0", "TC1"), (("CorePac0 L2", "CorePac1 L2"),) * 2)
    one_each = bus.Case("y", ("TC0", "TC1"), (("CorePac0 L2", "MSMC SRAM"), ("CorePac1 L2", "MSMC SRAM")))
    assert bus.bound_mb_s(same_pair) == 6400
    assert bus.bound_mb_s(one_each) == 12800


def test_the_slowest_tc_sets_the_pace_of_a_mixed_group():
    case = bus.Case("z", ("TC0", "TC2"), (("MSMC SRAM", "DDR3A"),) * 2)
    assert bus.limits(case)["transfer controllers"] == 2 * 6400


def test_limits_scale_with_the_clocks():
    case = bus.table_cases()[0]
    assert bus.bound_mb_s(case, cpu_clock_mhz=600) == pytest.approx(bus.bound_mb_s(case) / 2)
    ddr = [c for c in bus.table_cases() if c.label == "Table 9: TC0 and TC1"][0]
    assert bus.limits(ddr, ddr3_mtps=800, ddr3_width_bits=32)["DDR3A"] == 3200
    assert bus.binding(ddr, cpu_clock_mhz=300) == ["transfer controllers", "MSMC SRAM"]


def test_numeric_limits_equal_the_expressions_over_a_grid():
    for case in bus.table_cases():
        for f, r, w in [(1200, 1600, 64), (1000, 1333, 32), (350, 2133, 16)]:
            values = bus.limits(case, cpu_clock_mhz=f, ddr3_mtps=r, ddr3_width_bits=w)
            for name, expr in bus.limit_exprs(case).items():
                exact = expr.subs({bus.cpu_clock: f, bus.ddr3_rate: r, bus.ddr3_width: w})
                assert values[name] == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.slow
def test_the_commands_printed_limits_equal_the_models_for_every_copy_it_can_ask_about():
    """goodput bus asks about transfer controllers that each copy between the same two endpoints: its limits
    come from functions printed for each number and buses of TCs and each endpoint at load 1 or 2."""
    orders = [[f"TC{i}" for i in range(14)], ["TC2", "TC0", "TC1", *(f"TC{i}" for i in range(3, 14))],
              [f"TC{i}" for i in range(2, 12)], ["TC0", "TC1", "TC12", "TC13"]]
    endpoints = ("MSMC SRAM", "DDR3B", "CorePac4 L2")
    for order in orders:
        for n in range(1, len(order) + 1):
            for a, b in itertools.product(endpoints, repeat=2):
                case = bus.Case("copy", tuple(order[:n]), ((a, b),) * n)
                for clocks in ((1200, 1600, 64), (333.3, 1066, 32)):
                    assert bus_numeric.named_limits(case, *clocks) == bus.limits(case, *clocks), (case, clocks)
    with pytest.raises(ValueError, match="loads"):  # a case the printed functions do not cover
        bus_numeric.named_limits(next(c for c in bus.table_cases() if set(c.loads().values()) - {1, 2}))


def test_each_limit_splits_exactly_into_the_charts_three_rates():
    exprs = [e for c in bus.table_cases() for e in bus.limit_exprs(c).values()]
    exprs += [e for a in bus_charts.COPY_ENDPOINTS for b in bus_charts.COPY_ENDPOINTS
              for e in bus.copy_limit_exprs(a, b).values()]
    for e in exprs:
        a, b, c = bus_charts.linear_parts(e)
        rebuilt = a * bus_charts.BASIS[0] + b * bus_charts.BASIS[1] + c * bus_charts.BASIS[2]
        assert sp.simplify(sp.nsimplify(rebuilt) - e) == 0, e
    with pytest.raises(ValueError, match="not a multiple"):
        bus_charts.linear_parts(bus.cpu_clock + bus.ddr3_rate)


def test_tc8_and_tc9_share_bridges_that_table_5_lists():
    assert bus.shared_bridges(["TC7", "TC8", "TC9"]) == {"Br_SES0": ["TC8", "TC9"], "Br_SMS0": ["TC8", "TC9"]}
    assert bus.shared_bridges(["TC0", "TC1"]) == {}


def test_every_tc_port_of_table_5_reaches_one_teranet_one_msmc_and_one_ddr3_bridge():
    t = data.load("keystone2-table5")
    marked = t[t["mark"] == "X"].groupby("master")["bridge_to"].apply(sorted)
    assert len(marked) == 28
    for targets in marked:
        assert len(targets) == 3 and "MSMC SRAM" in targets and "DDR3" in targets


def test_the_tc_list_follows_the_guides_numbering():
    tc = bus.TRANSFER_CONTROLLERS
    assert len(tc) == 14
    assert (tc["TC12"].cc, tc["TC12"].tc, tc["TC12"].width_bits) == (4, 0, 256)
    assert (tc["TC10"].cc, tc["TC10"].dbs_bytes) == (3, 64)
    assert (tc["TC7"].cc, tc["TC7"].tc, tc["TC7"].clock_divider) == (2, 1, 3)


def test_a_linear_aligned_transfer_issues_full_bursts():
    g = bus.transfer_guidance(1024, 8)
    assert g["read_commands"] == g["write_commands"] == g["ideal_commands"] == 64
    assert g["command_fill"] == 1 and g["msmc_subbank_use"] == 1
    assert g["rules_broken"] == []


def test_a_misaligned_source_costs_an_extra_burst():
    g = bus.transfer_guidance(1024, 1, src_address=64)
    assert g["read_commands"] == 9 and g["write_commands"] == 8
    assert any("not aligned" in r for r in g["rules_broken"])


def test_an_odd_index_uses_msmc_sub_banks_worst():
    def use(index):
        return bus.transfer_guidance(64, 128, src_index=index)["msmc_subbank_use"]
    assert use(64) == 1 and use(128) == 1
    assert use(65) < use(96) <= 1


@pytest.mark.parametrize("kwargs, name", [
    ({"acnt_bytes": 0}, "acnt_bytes"), ({"acnt_bytes": 16, "bcnt": 0}, "bcnt"),
    ({"acnt_bytes": 16, "src_index": 40000}, "src_index"), ({"acnt_bytes": 16, "tc": "TC14"}, "tc"),
    ({"acnt_bytes": 16, "dst_address": -1}, "dst_address"),
])
def test_transfer_guidance_rejects_impossible_geometry(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        bus.transfer_guidance(**kwargs)


@pytest.mark.parametrize("kwargs, name", [
    ({"tcs": 0}, "tcs"), ({"ddr3_width_bits": 48}, "ddr3_width_bits"), ({"cpu_clock_mhz": 0}, "cpu_clock_mhz"),
    ({"tc_width_bits": 0}, "tc_width_bits"),
])
def test_copy_limits_reject_impossible_parameters(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        bus.copy_limits("MSMC SRAM", "DDR3A", **kwargs)


def test_a_case_rejects_an_unknown_endpoint_or_tc():
    with pytest.raises(ParameterError, match="endpoint"):
        bus.Case("x", ("TC0",), (("DDR3C", "MSMC SRAM"),))
    with pytest.raises(ParameterError, match="tc"):
        bus.Case("x", ("TC14",), (("DDR3A", "MSMC SRAM"),))


def test_a_transfer_controller_named_twice_is_refused_not_counted_twice():
    with pytest.raises(ParameterError, match="TC2 is named twice") as info:
        bus.evaluate("DDR3A", "DDR3B", ("TC2", "TC2"))
    assert info.value.name == "tc_names"
    with pytest.raises(ParameterError, match="TC2 is named twice"):
        bus.Case("x", ("TC2", "TC3", "TC2"), (("DDR3A", "DDR3B"),) * 3)


def test_a_corepac_is_numbered_in_ascii_digits():
    assert bus.evaluate("CorePac3 L2", "DDR3A")["bound_mb_s"] == 6400
    with pytest.raises(ParameterError) as info:
        bus.evaluate("CorePac\u0663 L2", "DDR3A")
    assert info.value.name == "endpoint_a"


def run(*args):
    return call("bus", *args)


def test_goodput_bus_json_gives_limits_bound_and_bridges():
    p = run("--from", "MSMC SRAM", "--to", "DDR3B", "--tc", "TC7", "--tc", "TC8", "--tc", "TC9", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["tcs"] == ["TC7", "TC8", "TC9"] and out["endpoint_b"] == "DDR3B"
    assert out["bound_mb_s"] == 12800 and out["binding"] == ["DDR3B"]
    assert out["goodput_gbit_s"] == pytest.approx(102.4)
    assert out["efficiency"] == pytest.approx(12800 / 19200)
    assert out["shared_bridges"] == {"Br_SES0": ["TC8", "TC9"], "Br_SMS0": ["TC8", "TC9"]}


def test_goodput_bus_text_names_the_binding_limit():
    p = run("--from", "DDR3A", "--to", "DDR3A", "--tcs", "3")
    assert p.returncode == 0, p.stderr
    assert "at most 6400 MB/s" in p.stdout and "bound by DDR3A" in p.stdout


@pytest.mark.parametrize("args, words", [
    (["--from", "DDR3C", "--to", "DDR3A"], "--from DDR3C: endpoint_a must be"),
    (["--from", "DDR3A", "--to", "DDR3A", "--tcs", "0"], "--tcs 0: tcs must be an integer from 1 to 14"),
    (["--from", "DDR3A", "--to", "DDR3A", "--ddr3-width", "48"], "--ddr3-width 48"),
    (["--from", "DDR3A", "--to", "DDR3A", "--tc", "TC99"], "--tc TC99"),
    (["--from", "DDR3A", "--to", "DDR3A", "--tc", "TC1", "--tcs", "3"], "either --tc"),
])
def test_goodput_bus_rejects_bad_input_with_exit_2(args, words):
    p = run(*args)
    assert p.returncode == 2 and words in p.stderr, p.stderr


# --- Tables 3-4 and 6-15 against their own numbers and the bounds; the numbers of Sec. 2-5's text -------



def _more(kind, resource):
    return [c for c in CHECKS if c.kind == kind and c.resource == resource]


def test_every_measurement_of_tables_6_to_15_keeps_under_its_bound_and_its_rows_maximum():
    ceiling, own = _more("ceiling", "keystone2-table6-15"), _more("consistency", "keystone2-table6-15")
    assert len(ceiling) == len(own) == 30
    assert {c.status for c in ceiling + own} == {"ok"} and {c.relation for c in ceiling + own} == {"<="}
    (c,) = [c for c in ceiling if c.row == "Table 6: TC0 and TC1"]
    assert (c.published, c.model) == ("6201", 6400)  # two 128-bit TCs at 1200/3 MHz, one direction each: 6400


def test_a_measurement_above_its_rows_maximum_is_caught():
    t = data.load("keystone2-table6-15")
    found = sprabk5.edma_ceiling_checks(edited_cell(t, 0, "measured_mb_s", "6500"))
    assert {(c.row, c.kind, c.status) for c in found if c.status != "ok"} == {
        ("Table 6: TC0 and TC1", "ceiling", "erratum"), ("Table 6: TC0 and TC1", "consistency", "erratum")}


def test_a_burst_read_never_stalls_longer_than_a_single_read():
    three, four = _more("consistency", "keystone2-table3"), _more("consistency", "keystone2-table4")
    assert len(three) == 7 + 6 and len(four) == 5  # KeyStone I prints N/A for DDR3B
    assert {c.status for c in three + four} == {"ok"}
    (c,) = [c for c in four if "DDR 3B" in c.row]
    assert (c.published, c.model) == ("23", 197)


def test_a_burst_read_slower_than_its_single_read_is_caught():
    t = data.load("keystone2-table4")
    i = t.index[(t["source"] == "L2 Cache Hit") & (t["access"] == "burst read")][0]
    found = sprabk5.read_latency_checks(edited_cell(t, i, "cycles", "24"))
    assert [(c.row, c.status) for c in found if c.status != "ok"] == [("Table 4: L2 Cache Hit, KeyStone II", "erratum")]


def test_the_text_of_sections_2_to_5_against_table_1():
    found = {c.quantity: c for c in CHECKS
             if c.resource == "keystone2-s2-s5-prose" and c.quantity not in sprabk5.MEMORY_ITEMS}
    assert {q: c.status for q, c in found.items()} == {
        "width of the ARM CorePac's interfaces": "erratum", "width of the wide data switch fabric": "ok",
        "width of the narrow data switch fabric": "ok", "size of the baseline transfers": "ok",
        "bus width of EDMACC0 and EDMACC4 TCs": "ok", "bus width of the other TCs": "ok",
        "width of the narrow TC of the example": "ok", "clock divider of the narrow TC of the example": "ok",
        "width of the narrow TC in the formula": "ok", "CPU clock in the formula": "ok",
        "clock divider of the narrow TC in the formula": "ok",
        "clock divider of the wide data switch fabric": "erratum", "clock divider of the narrow data switch fabric": "ok"}
    assert found["width of the ARM CorePac's interfaces"].model == 256  # Table 1: 256 bits x 1200M/2
    # Sec. 2.3's DSP/3 for both fabrics; Table 1 clocks the 256-bit TCs at 1200M/2, the 128-bit ones at 1200M/3
    assert (found["clock divider of the wide data switch fabric"].model,
            found["clock divider of the narrow data switch fabric"].model) == (2, 3)
    assert (found["clock divider of the narrow TC in the formula"].model, found["CPU clock in the formula"].model) \
        == (3, 1200)  # Table 1: EDMA1-3 at 1200M/3
    assert found["size of the baseline transfers"].model == 1024 * 128 / 1024


def test_table_1s_256_bit_tcs_at_cpu_2_are_faster_than_the_fabric_section_2_3_puts_them_on():
    found = {c.row: c for c in _more("consistency", "keystone2-table1")}
    assert len(found) == 6  # EDMA0 (twice: its footnote's devices), EDMA1 to EDMA4
    flagged = {row: c.published for row, c in found.items() if c.status != "ok"}
    assert flagged == {"EDMA0(Single TC) (256 bits x 1200M/2), all but 66AK2E and AM5K2E": "19200",
                       "EDMA4(Single TC) (256 bits x 1200M/2)": "19200"}
    assert {c.model for c in found.values()} == {256 / 8 * 1200 / 3, 128 / 8 * 1200 / 3}


def test_a_text_width_that_disagrees_with_table_1_is_caught():
    prose = data.load("keystone2-s2-s5-prose")
    i = prose.index[prose["item"] == "bus width of the other TCs"][0]
    found = sprabk5.prose_checks(edited_cell(prose, i, "value", "32"), data.load("keystone2-table1"))
    assert sorted((c.quantity, c.status) for c in found if c.status != "ok") == sorted([
        ("width of the ARM CorePac's interfaces", "erratum"), ("clock divider of the wide data switch fabric", "erratum"),
        ("bus width of the other TCs", "erratum")])


def test_a_divider_or_clock_of_sec_5s_example_that_disagrees_with_table_1_is_caught():
    prose = data.load("keystone2-s2-s5-prose")
    for item, wrong in (("clock divider of the narrow TC in the formula", "2"), ("CPU clock in the formula", "1000"),
                        ("clock divider of the narrow data switch fabric", "4")):
        i = prose.index[prose["item"] == item][0]
        found = sprabk5.prose_checks(edited_cell(prose, i, "value", wrong), data.load("keystone2-table1"))
        assert sorted((c.quantity, c.status) for c in found if c.status != "ok") == sorted([
            ("width of the ARM CorePac's interfaces", "erratum"), ("clock divider of the wide data switch fabric",
                                                                   "erratum"), (item, "erratum")])


def test_the_bursts_sec_6_gives_the_edmas_are_those_of_sec_5_3_1():
    found = [c for c in CHECKS if c.resource == "keystone2-s6-edma-prose"]
    assert len(found) == 8 and {c.status for c in found} == {"ok"}
    assert sorted(c.published for c in found) == ["128"] * 4 + ["64"] * 4


def test_a_burst_sec_6_misstates_is_caught():
    t = data.load("keystone2-s6-edma-prose")
    i = t.index[t["item"] == "data burst size of EDMA3"][0]  # the first: Figure 10's sentence
    found = sprabk5.pcie_edma_checks(edited_cell(t, i, "value", "128"))
    assert [(c.quantity, c.status) for c in found if c.status != "ok"] == [("data burst size of EDMA3", "erratum")]


def test_burst_bytes_of_channel_controllers():
    assert bus.burst_bytes([3]) == 64 and bus.burst_bytes([0, 4]) == 128
    assert (bus.burst_bytes(range(5), "smallest"), bus.burst_bytes(range(5), "largest")) == (64, 128)
    with pytest.raises(ValueError):
        bus.burst_bytes([2, 3])
    with pytest.raises(ParameterError):
        bus.burst_bytes([7])


def test_the_widths_clocks_and_ddr3_rates_of_the_text_are_table_2s():
    found = [c for c in CHECKS if c.resource == "keystone2-s2-s5-prose" and c.quantity in sprabk5.MEMORY_ITEMS]
    assert len(found) == 16 and {c.status for c in found} == {"ok"}
    rates = [c for c in found if c.unit == "MT/s"]
    assert len(rates) == 6 and {c.model for c in rates} == {800 * 2}  # 800M x 2, Table 2's DDR3 rows
    assert {c.model for c in found if c.unit == "GHz"} == {1.2}  # MSMC RAM at 1200M


def test_a_ddr3_rate_the_text_misstates_is_caught():
    prose = data.load("keystone2-s2-s5-prose")
    i = prose.index[prose["item"] == "DDR3 data rate of the tests"][0]
    found = sprabk5.memory_prose_checks(edited_cell(prose, i, "value", "1333"), data.load("keystone2-table2"))
    assert [(c.quantity, c.status) for c in found if c.status != "ok"] == [("DDR3 data rate of the tests", "erratum")]


def test_a_single_read_waits_at_least_one_clock_of_the_memory_it_reaches():
    found = [c for c in CHECKS if c.kind == "ceiling" and c.resource in ("keystone2-table3", "keystone2-table4")]
    assert len(found) == 11 + 5  # Table 3: no L1D hit (a hit does not stall), no KeyStone I DDR3B (N/A)
    assert {c.status for c in found} == {"ok"} and {c.relation for c in found} == {">="}
    by_row = {c.row: c for c in found}
    assert by_row["Table 3: MSMC RAM (SL2), KeyStone I"].model == 2  # 1.2 GHz DSP, MSMC at 600 MHz
    assert by_row["Table 4: DDR 3A RAM (SL3), KeyStone II"].model == pytest.approx(1.75)  # 1.4 GHz ARM, 800 MHz


def test_a_single_read_faster_than_its_memory_is_caught():
    t = data.load("keystone2-table3")
    i = t.index[(t["source"] == "L2 SRAM") & (t["generation"] == "KeyStone II") & (t["access"] == "single read")][0]
    found = sprabk5.read_floor_checks(edited_cell(t, i, "stalls", "1"), data.load("keystone2-table2"),
                                      bus.section_settings("3.1"))
    assert [(c.row, c.status) for c in found if c.status != "ok"] == [("Table 3: L2 SRAM, KeyStone II", "erratum")]


def test_the_texts_calculations_are_checked_as_printed_in_the_unit_printed():
    t = data.load("keystone2-s2-s5-calculations")
    found = {c.row: c for c in sprabk5.calculation_checks(t)}
    core = found["§2.1: CorePac load/store to L1D (128 bits per cycle)"]
    assert (core.published, core.unit, core.model, core.status) == ("16", "GB/s", 128 / 8 * 1200 / 1000, "erratum")
    assert {c.status for row, c in found.items() if c is not core} == {"ok"}
    start = found["§5.2.5: DDR3 bandwidth the halving starts from"]
    assert (start.published, start.model) == ("12800", 64 / 8 * 800 * 2)
    i = t.index[t["what"] == "DDR3 bandwidth the halving starts from"][0]
    bad = edited_cell(t, i, "value_as_printed", "6400", value="6400")  # a text column
    wrong = {c.row: c.status for c in sprabk5.calculation_checks(bad)}
    assert wrong["§5.2.5: DDR3 bandwidth the halving starts from"] == "erratum"
