"""AN3935's measured tables held to their ceilings and to each other (pcie-measured), and the numbers of its
text recomputed (pcie-packets): the statuses of the real checks, and a deliberately wrong cell caught."""

import re

import pytest
from mutations import edited_cell, reprinted

from goodput import checks
from goodput.checks import coverage
from goodput.core import data
from goodput.core.errors import DataError, ParameterError
from goodput.sources.an3935 import measured

MEASURED = checks.collect("pcie-measured")
AN3935 = [c for c in MEASURED if c.document == "AN3935"]


def edited(name, where, value):
    """Table ``name`` with the measured cell ``where`` (column: value, ...) printed as ``value``."""
    t = data.load(name)
    rows = t[t["series"] == "measured"]
    for column, wanted in where.items():
        rows = rows[rows[column] == wanted]
    assert len(rows) == 1, where
    return edited_cell(t, rows.index[0], "gbit_s", value)


def tables(**changed):
    return [changed.get(f"t{n}", data.load(f"an3935-table{n}")) for n in (7, 8, 9, 10, 11, 12)]


def find(found, resource, row, quantity, kind):
    (c,) = [c for c in found if (c.resource, c.row, c.quantity, c.kind) == (resource, row, quantity, kind)]
    return c


# --- Tables 9-12 --------------------------------------------------------------------------------------

READS_ABOVE = {
    ("an3935-table10", s, q) for s, q in ((s, f"measured, MPS {m}") for s in ("8 K", "16 K", "32 K") for m in (256, 128))
} | {("an3935-table12", s, "measured, 4 in flight") for s in ("16 K", "32 K")} \
  | {("an3935-table12", s, "measured, 8 in flight") for s in ("8 K", "16 K", "32 K")}


def test_tables_9_to_12_every_measured_cell_has_a_ceiling_and_a_consistency_check():
    for n, cells in ((9, 26), (10, 26), (11, 39), (12, 39)):
        for kind in ("ceiling", "consistency"):
            assert sum(c.resource == f"an3935-table{n}" and c.kind == kind for c in AN3935) == cells, (n, kind)


def _tables_9_to_12_status(check) -> str:
    key = (check.resource, check.row.split(" bytes")[0], check.quantity)
    if check.kind == "ceiling" and key in READS_ABOVE:
        return "erratum"
    if (check.resource, check.row, check.kind) == ("an3935-table10", "16 bytes, x4, MPS 128", "consistency"):
        return "spread"  # 1.14 with MPS 128 against 1.13 with MPS 256, the same single TLP
    return "ok"


@pytest.mark.parametrize("table", [9, 10, 11, 12])
def test_tables_9_to_12_statuses(table):
    wrong = [f"{c.row} | {c.quantity} | {c.kind}: {c.status}, expected {_tables_9_to_12_status(c)} ({c.note})"
             for c in AN3935 if c.resource == f"an3935-table{table}" and c.status != _tables_9_to_12_status(c)]
    assert wrong == []


def test_read_ceiling_is_eq_4_without_dllps_and_the_one_way_read_keeps_to_its_own():
    c = find(AN3935, "an3935-table12", "32 K bytes, x4, MPS 256", "measured, 8 in flight", "ceiling")
    assert c.model == pytest.approx(16 * 256 / (256 + 20 + 20))  # 13.84: one MRd and one CplD per 256 bytes
    assert float(c.published) == 14.09 > 16 * 256 / (256 + 20 + 20)
    assert float(c.published) < 16 * 256 / (256 + 20)  # the completions alone: 14.84
    assert "one direction only" in c.note
    w = find(AN3935, "an3935-table11", "32 K bytes, x4, MPS 256", "measured, 8 in flight", "ceiling")
    assert w.model == pytest.approx(16 * 256 / (256 + 20)) and w.status == "ok"


@pytest.mark.slow
def test_a_write_above_its_ceiling_is_an_erratum():
    t11 = edited("an3935-table11", {"dma_channels": 1, "bytes": 32768}, "14.90")  # ceiling 14.84
    found = measured.an3935_mps_back_to_back_checks(*tables(t11=t11))
    c = find(found, "an3935-table11", "32 K bytes, x4, MPS 256", "measured, 1 in flight", "ceiling")
    assert c.status == "erratum"


def test_fewer_requests_in_flight_faster_than_more_is_an_erratum():
    t12 = edited("an3935-table12", {"dma_channels": 1, "bytes": 1024}, "12.00")  # 4 in flight: 11.01
    found = measured.an3935_mps_back_to_back_checks(*tables(t12=t12))
    assert find(found, "an3935-table12", "1 K bytes, x4, MPS 256", "measured, 1 in flight",
                "consistency").status == "erratum"


@pytest.mark.slow
def test_one_measurement_printed_twice_differently_is_an_erratum():
    t10 = edited("an3935-table10", {"mps_bytes": 256, "bytes": 1024}, "12.50")  # Table 8 x4: 12.40
    found = measured.an3935_mps_back_to_back_checks(*tables(t10=t10))
    c = find(found, "an3935-table10", "1 K bytes, x4, MPS 256", "measured, MPS 256", "consistency")
    assert c.status == "erratum" and c.model == 12.40
    t11 = edited("an3935-table11", {"dma_channels": 8, "bytes": 64}, "5.25")  # Table 7 x4: 5.28
    found = measured.an3935_mps_back_to_back_checks(*tables(t11=t11))
    assert find(found, "an3935-table11", "64 bytes, x4, MPS 256", "measured, 8 in flight",
                "consistency").status == "erratum"


@pytest.mark.slow
def test_the_mps_spread_is_the_other_tables_same_traffic_measured_twice():
    spread = measured.an3935_same_wire_spread(data.load("an3935-table9"))
    assert spread.amount == pytest.approx(max(8.52 - 8.36, 5.28 - 5.12, 3.01 - 2.92, 1.51 - 1.46, 0.80 - 0.77))
    assert "Table 9" in spread.evidence
    # within it: the MPS-128 column above the MPS-256 one by 0.07; beyond it: by 0.27
    for value, want in (("1.20", "spread"), ("1.40", "erratum")):
        t10 = edited("an3935-table10", {"mps_bytes": 128, "bytes": 16}, value)
        found = measured.an3935_mps_back_to_back_checks(*tables(t10=t10))
        assert find(found, "an3935-table10", "16 bytes, x4, MPS 128", "measured, MPS 128",
                    "consistency").status == want


def test_an3935_measured_anchors_are_unique():
    anchors = [checks.anchor(c) for c in AN3935]
    assert len(anchors) == len(set(anchors))


# --- Tables 7, 8, 15, 16 ------------------------------------------------------------------------------

WIDTH_ERRATA = {("an3935-table7", s, "measured, x1") for s in ("64", "128", "256", "512", "1 K", "2 K")} \
    | {("an3935-table8", s, "measured, x4") for s in ("8 K", "16 K", "32 K")} \
    | {("an3935-table8", s, "measured, x1") for s in ("2 K", "4 K", "8 K", "16 K", "32 K")}


def test_tables_by_width_every_measured_cell_has_a_ceiling_and_the_narrower_columns_a_consistency_check():
    for n in (7, 8, 15, 16):
        assert sum(c.resource == f"an3935-table{n}" and c.kind == "ceiling" for c in AN3935) == 39, n
        assert sum(c.resource == f"an3935-table{n}" and c.kind == "consistency" for c in AN3935) == 26, n


def _by_width_status(check) -> str:
    key = (check.resource, check.row.split(" bytes")[0], check.quantity)
    return "erratum" if check.kind == "ceiling" and key in WIDTH_ERRATA else "ok"


@pytest.mark.parametrize("table", [7, 8, 15, 16])
def test_tables_by_width_statuses(table):
    wrong = [f"{c.row} | {c.quantity} | {c.kind}: {c.status}, expected {_by_width_status(c)} ({c.note})"
             for c in AN3935 if c.resource == f"an3935-table{table}" and c.status != _by_width_status(c)]
    assert wrong == []


def test_x1_writes_above_the_x1_ceiling_and_one_above_the_bare_bit_rate():
    bare = 2 * 2.5 * 0.8  # x1 at 2.5 GT/s after 8b/10b, both directions: 4 Gbit/s
    c = find(AN3935, "an3935-table7", "256 bytes, x1, MPS 256", "measured, x1", "ceiling")
    assert c.model == pytest.approx(bare * 256 / (256 + 20))
    assert float(c.published) > bare and "bit rate of both directions" in c.note
    c = find(AN3935, "an3935-table7", "512 bytes, x1, MPS 256", "measured, x1", "ceiling")
    assert bare * 512 / (512 + 2 * 20) < float(c.published) < bare and "bit rate" not in c.note
    c = find(AN3935, "an3935-table15", "32K bytes, x4, MPS 256", "measured, x4", "ceiling")
    assert c.model == pytest.approx(2 * 5 * 4 * 0.8 * 256 / 276) and c.status == "ok"


def test_a_narrower_link_faster_than_a_wider_one_is_an_erratum():
    t16 = edited("an3935-table16", {"lanes": 2, "bytes": 512}, "25.00")  # x4: 24.64
    found = measured.an3935_link_width_checks(t16)
    assert find(found, "an3935-table16", "512 bytes, x2, MPS 256", "measured, x2", "consistency").status == "erratum"
    assert find(found, "an3935-table16", "512 bytes, x2, MPS 256", "measured, x2", "ceiling").status == "erratum"
    assert find(found, "an3935-table16", "512 bytes, x1, MPS 256", "measured, x1", "consistency").status == "ok"


# --- the text ----------------------------------------------------------------------------------------

from goodput.sources.an3935 import packets  # noqa: E402

PROSE = [c for c in checks.collect("pcie-packets") if c.resource == "an3935-text"]


def text_checks(text):
    return packets.an3935_text_checks(text, *(data.load(f"an3935-table{n}") for n in (2, 4, 7, 15)))


def test_every_number_of_the_text_is_checked_and_reproduced():
    text = data.load("an3935-text")
    assert [c.row for c in PROSE] == list(text["id"])
    assert all(c.status == "ok" for c in PROSE), [c for c in PROSE if c.status != "ok"]


def test_the_texts_numbers_from_independent_arithmetic():
    model = {c.row: c.model for c in PROSE}
    full = 2 * 4 * 2.5 * 8 / 10  # x4 at 2.5 GT/s, 8b/10b, both directions: 16
    write = full * 32768 / (32768 + 128 * 20 + 32 * 8 + 32 * 8)  # Table 2's 32 K row
    read = full * 32768 / (32768 + 256 * 20 + 32 * 8 + 32 * 8)  # Table 4's
    assert model["write-large-bandwidth"] == pytest.approx(write) and round(write, 2) == 14.63
    assert model["write-share"] == pytest.approx(100 * write / full) and round(100 * write / full) == 91
    assert model["read-share"] == pytest.approx(100 * read / full) and round(100 * read / full) == 85
    assert model["minimum-tlp-overhead"] == 2 + 4 + 1 + 1 + 12  # sequence, LCRC, STP, END, 3-DW header
    assert model["write-tlps-per-update"] == 128 / 32 and model["read-tlps-per-update"] == 128 / 32
    assert model["msc8156-largest-transfer"] == 32768 / 1024 == model["msc8157-largest-transfer"]


@pytest.mark.parametrize("key, wrong", [("write-share", "93"), ("header-32-bit", "16"), ("read-large-bandwidth", "13.47"),
                                        ("msc8157-clock", "2.5"), ("read-tlps-per-update", "8"),
                                        ("equation-1-coded-bits", "8"), ("equation-2-directions", "4"),
                                        ("mps-field-high-bit", "6"), ("summary-mps-field-low-bit", "4"),
                                        ("summary-mps-code", "010"), ("summary-mps-code", "000"),
                                        ("dllp-crc-bits", "32")])
def test_a_wrong_number_in_the_text_is_an_erratum(key, wrong):
    text = data.load("an3935-text")
    i = text.index[text["id"] == key][0]
    bad = reprinted(text, i, "value", wrong)
    (c,) = [c for c in text_checks(bad) if c.row == key]
    assert c.status == "erratum"


def test_a_number_of_the_text_without_a_model_is_refused():
    text = data.load("an3935-text")
    bad = text.copy()
    bad.at[bad.index[0], "id"] = "mystery"
    with pytest.raises(KeyError, match="mystery"):
        text_checks(bad)


def test_a_note_of_tables_2_to_5_counts_packets_and_a_note_without_the_count_is_refused():
    assert packets.counted("128 MRd, 128 CpID, 32 ACK, 32 FC", "ACK") == 32
    assert packets.counted("1 MRd, 1 CpID, 1ACK, 1 FC", "ACK") == 1
    assert packets.counted("1 TLP (20), 1 ACK (8), 1 FC (8)", "TLP") == 1
    with pytest.raises(ValueError, match="counts no ACK"):
        packets.counted("8 TLP, 2 FC", "ACK")


# --- the notes of Tables 2-5 ---------------------------------------------------------------------------

NOTES = [c for c in checks.collect("pcie-packets") if c.quantity.endswith("in the notes")]


def test_every_count_in_the_notes_of_tables_2_to_5_is_checked_and_reproduced():
    # rows with notes: 8, 512 and 1 K to 32 K; writes count TLP, ACK, FC (and the 8-byte row their sizes),
    # reads MRd, CplD, ACK, FC
    assert {n: sum(c.resource == f"an3935-table{n}" for c in NOTES) for n in (2, 3, 4, 5)} == \
        {2: 8 * 3 + 3, 3: 8 * 3 + 3, 4: 8 * 4, 5: 8 * 4}
    assert all(c.status == "ok" for c in NOTES), [c for c in NOTES if c.status != "ok"]
    largest = {c.quantity: c.model for c in NOTES if c.resource == "an3935-table4" and c.row == "32 K bytes"}
    assert largest == {"read requests (MRd) counted in the notes": 32768 / 256,
                       "completions (CplD, printed CpID) counted in the notes": 32768 / 256,
                       "ACK DLLPs counted in the notes": 32768 / 256 / 4, "UpdateFC DLLPs counted in the notes": 32}


def test_a_wrong_count_in_the_notes_is_an_erratum():
    t = data.load("an3935-table4")
    bad = t.copy()
    i = bad.index[bad["bytes"] == 2048][0]
    bad.at[i, "notes"] = "8 MRd, 8 CpID, 4 ACK, 2 FC"
    found = {c.quantity: c.status for c in packets.an3935_note_checks(bad, "MSC8156", "read") if c.row == "2 K bytes"}
    assert found["ACK DLLPs counted in the notes"] == "erratum"
    assert found["UpdateFC DLLPs counted in the notes"] == "ok"


# --- the calculations of Tables 2-5 --------------------------------------------------------------------

CALCULATIONS = [c for c in checks.collect("pcie-packets") if c.quantity.endswith("in the calculation")]


def test_every_number_in_the_calculations_of_tables_2_to_5_is_checked_and_reproduced():
    # per row: bit rate, TLP overhead, ACK and UpdateFC sizes, the directions; from 512 bytes up (7 rows) the
    # TLPs, and from 2 K up (5 rows) the ACK and UpdateFC counts too (printed as "2*8"); a read's rows up to
    # 256 bytes (6) add the read request's overhead ("20+ 20")
    per_table = 13 * 5 + 7 * 1 + 5 * 2
    assert {n: sum(c.resource == f"an3935-table{n}" for c in CALCULATIONS) for n in (2, 3, 4, 5)} == \
        {2: per_table, 3: per_table, 4: per_table + 6, 5: per_table + 6}
    assert all(c.status == "ok" for c in CALCULATIONS), [c for c in CALCULATIONS if c.status != "ok"]
    got = {c.quantity: (c.published, c.model) for c in CALCULATIONS if (c.resource, c.row) == ("an3935-table5", "32 K bytes")}
    assert got["bit rate in the calculation"] == ("16", 4 * 5 * 0.8)
    assert got["TLPs (MRd and CplD) in the calculation"] == ("256", 2 * 32768 / 256)
    assert got["ACK DLLPs in the calculation"] == ("32", 32768 / 256 / 4)
    assert got["directions in the calculation"] == ("2", 2)
    small = {c.quantity: (c.published, c.model) for c in CALCULATIONS if (c.resource, c.row) == ("an3935-table4", "8 bytes")}
    assert small["read request overhead in the calculation"] == ("20", 2 + 4 + 1 + 1 + 12)  # seq, LCRC, STP, END, 3DW


def test_a_wrong_direction_count_or_read_request_overhead_in_a_calculation_is_an_erratum():
    t = data.load("an3935-table4")
    bad = t.copy()
    bad.at[bad.index[bad["bytes"] == 64][0], "calculation_as_printed"] = "8 * 64 / (64 + 20+ 24 + 8 + 8) * 4"
    found = {c.quantity: c.status for c in packets.an3935_calculation_checks(bad, "MSC8156", "read") if c.row == "64 bytes"}
    assert found["directions in the calculation"] == "erratum"
    assert found["read request overhead in the calculation"] == "erratum"
    assert found["TLP overhead in the calculation"] == "ok"
    bad.at[bad.index[bad["bytes"] == 64][0], "calculation_as_printed"] = "8 * 64 / (64 + 20+ 20 + 8 + 8) * 1"
    found = {c.quantity: c.status for c in packets.an3935_calculation_checks(bad, "MSC8156", "read") if c.row == "64 bytes"}
    assert found["directions in the calculation"] == "erratum"  # a count: one off is off


def test_the_parts_of_a_calculation_as_printed():
    assert packets.calculation_terms("8 * 1K / (1K + 4*20 + 8 + 8) * 2") == \
        ("8", "1K", [("4", "20"), (None, "8"), (None, "8")], "2")
    assert packets.calculation_terms("16 * 8 / (8 + 20+ 20 + 8 + 8) * 2")[2] == [(None, "20"), (None, "20"), (None, "8"), (None, "8")]
    for bad in ("8 * 1K / 1K + 4*20 * 2", "8 * 1K / (1K + 4*x + 8) * 2", "8 * 1K / (1K) * 2"):
        with pytest.raises(ValueError, match=re.escape(repr(bad))):
            packets.calculation_terms(bad)


@pytest.mark.parametrize("number", [2, 3, 4, 5])
def test_the_transfer_sizes_kept_beside_a_calculation_are_the_ones_it_prints(number):
    t = data.load(f"an3935-table{number}")
    packets.an3935_calculation_sizes(t)  # the committed columns agree
    assert packets.calculation_sizes("8 * 1K / (1K + 4*20 + 8 + 8) * 2") == ("1K", "1K")
    assert {"calculation_size_as_printed", "calculation_sum_size_as_printed"} <= set(coverage.setting_columns(t))
    bad = t.copy()
    bad.at[bad.index[bad["bytes"] == 64][0], "calculation_sum_size_as_printed"] = "32"
    with pytest.raises(DataError, match=r"an3935-table\d 64 bytes: .*\('64', '64'\).*\('64', '32'\)"):
        packets.an3935_calculation_sizes(bad)


def test_a_wrong_count_in_a_calculation_is_an_erratum():
    t = data.load("an3935-table2")
    bad = t.copy()
    bad.at[bad.index[bad["bytes"] == 1024][0], "calculation_as_printed"] = "8 * 1K / (1K + 6*20 + 8 + 8) * 2"
    found = {c.quantity: c.status for c in packets.an3935_calculation_checks(bad, "MSC8156", "write") if c.row == "1 K bytes"}
    # (a count one off would be "rounding": the verdicts read every printed number as rounded to its last digit)
    assert found["TLPs in the calculation"] == "erratum" and found["bit rate in the calculation"] == "ok"
    bad.at[bad.index[bad["bytes"] == 8][0], "calculation_as_printed"] = "16 * 8 / (8 + 20 + 8 + 8) * 2"
    found = {c.quantity: c.status for c in packets.an3935_calculation_checks(bad, "MSC8156", "write") if c.row == "8 bytes"}
    assert found["bit rate in the calculation"] == "erratum"


def test_the_max_payload_size_field_follows_linux_and_a_table_that_does_not_is_refused():
    devctl = data.load("linux-pci-regs-devctl")
    assert packets.devctl_field(devctl) == (7, 5)
    assert [packets.mps_code(b) for b in devctl["bytes"]] == list(devctl["code"]) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ParameterError):
        packets.mps_code(384)
    bad = devctl.copy()
    bad.loc[bad.index[2], "code"] = 3
    with pytest.raises(ValueError, match="code 3 for 512 bytes"):
        packets.devctl_field(bad)


def test_a_transfer_rate_table_1_misstates_is_caught():

    t = data.load("an3935-table1")
    assert [(c.row, c.published, c.status) for c in packets.an3935_transfer_rate_checks(t)] == [
        ("MSC8156", "2.5", "ok"), ("MSC8157", "5.0", "ok")]
    found = packets.an3935_transfer_rate_checks(edited_cell(t, t.index[t["device"] == "MSC8157"][0],
                                                             "transfer_rate_gbaud", "2.5"))
    assert [(c.row, c.status) for c in found if c.status != "ok"] == [("MSC8157", "erratum")]
