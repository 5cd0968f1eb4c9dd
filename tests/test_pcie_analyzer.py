"""Every packet of the Intel tutorial's analyzer traces against its CRC and its annotations, and a wrong
byte or annotation in a trace caught."""

from collections import Counter

import pytest

from goodput import checks
from goodput.logs import pcie_trace
from goodput.models import pcie_transactions as pt
from goodput.sources.intel_324611 import analyzer

CHECKS = checks.collect("pcie-reads")
PACKETS = [c for c in CHECKS if c.resource.endswith("-symbols.log") and c.where.endswith(" trace")
           and c.kind == "consistency"]
CRCS = [c for c in PACKETS if c.quantity in ("LCRC bytes", "CRC16 bytes")]
FRAMING = [c for c in PACKETS if c.quantity in ("last cycle number of the run", "idle data symbols")]


def _text(n):
    return pt.published_log(pt.SYMBOL_LOGS[n]).read_text(encoding="utf-8")


def _checks_of(n, text):
    return analyzer.packet_checks(n, pcie_trace.parse_text(text, pt.SYMBOL_LOGS[n]))


def _edited(n, old, new):
    text = _text(n)
    assert text.count(old) == 1, old
    return _checks_of(n, text.replace(old, new))


def _by_row(found):
    return {(c.row, c.quantity): c for c in found}


def test_every_tlp_and_dllp_shown_whole_has_a_crc_check_that_verifies_its_printed_bytes():
    shown = sum(1 for n, name in pt.SYMBOL_LOGS.items() for p in pcie_trace.parse(pt.published_log(name)).packets
                if p.kind in ("TLP", "DLLP") and (p.complete or p.label))
    assert len(CRCS) == shown == 45
    for c in CRCS:
        assert c.verifies == (22 if "MWr" in c.row or "Cp" in c.row else 18 if "MRd" in c.row else 6) - (
            1 if c.row == "TX Cp1D at cycle 57406" else 0)


def test_the_crcs_reproduce_but_for_five_writes_whose_address_or_data_bytes_they_were_not_computed_over():
    wrong = {(c.where, c.row) for c in CRCS if c.status != "ok"}
    assert wrong == {("Example 1 trace", "RX MWr at cycle 0"), ("Example 1 trace", "RX MWr at cycle 24"),
                     ("Example 1 trace", "RX MWr at cycle 48"), ("Test 3 trace", "RX MWr at cycle 57316"),
                     ("Test 3 trace", "RX MWr at cycle 57346")}
    assert all(c.status == "erratum" and "not the ones the CRC was computed over" in c.note
               for c in CRCS if c.status != "ok")
    assert Counter(c.status for c in CRCS) == {"ok": 40, "erratum": 5}


def test_the_annotations_match_their_bytes_but_for_the_sequence_numbers_of_example_1s_acks():
    notes = [c for c in PACKETS if c not in CRCS and c not in FRAMING]
    wrong = sorted((c.row, c.published, c.model) for c in notes if c.status != "ok")
    assert wrong == [("TX Ack at cycle 17", "4057", 4056.0), ("TX Ack at cycle 39", "4058", 4057.0),
                     ("TX Ack at cycle 64", "4059", 4058.0)]
    assert all("its CRC reproduces them" in c.note for c in notes if c.status != "ok")


def test_the_completion_whose_first_byte_the_conversion_lost_is_completed_from_its_seqnr_annotation():
    got = _by_row(c for c in PACKETS if c.where == "Test 4 trace")
    crc = got[("TX Cp1D at cycle 57406", "LCRC bytes")]
    assert crc.status == "ok" and "06 comes from its SeqNr. annotation" in crc.note
    assert ("TX Cp1D at cycle 57406", "SeqNr.") not in got  # the annotation the byte came from
    wrong = _edited(4, "57407:\tSeqNr. : 1713", "57407:\tSeqNr. : 1969")  # 0x7B1: another first byte
    assert _by_row(wrong)[("TX Cp1D at cycle 57406", "LCRC bytes")].status == "erratum"


def test_a_wrong_byte_of_a_tlp_is_caught_by_its_lcrc_and_by_the_annotation_of_its_field():
    good = _by_row(_checks_of(2, _text(2)))
    assert good[("RX MRd at cycle 0", "LCRC bytes")].status == "ok"
    got = _by_row(_edited(2, "00007:\t\tD 00 D 00\tAddress", "00007:\t\tD 00 D 01\tAddress"))
    assert got[("RX MRd at cycle 0", "LCRC bytes")].status == "erratum"
    assert got[("RX MRd at cycle 0", "RequesterID bus")].status == "erratum"  # the byte at cycle 7
    got = _by_row(_edited(2, "00014:\t\tD 00 D 00\t\n", "00014:\t\tD 00 D 04\t\n"))
    assert got[("RX MRd at cycle 0", "LCRC bytes")].status == "erratum"
    assert got[("RX MRd at cycle 0", "Address")].status == "erratum"
    assert got[("RX MRd at cycle 0", "LCRC")].status == "ok"  # the annotation still prints the bytes


@pytest.mark.slow
def test_a_wrong_byte_of_a_dllp_is_caught_by_its_crc_and_a_wrong_annotation_by_its_check():
    got = _by_row(_edited(1, "012:\tHdrFC : 54\tD\t87", "012:\tHdrFC : 54\tD\t47"))
    assert got[("TX UpdateFC_P at cycle 9", "CRC16 bytes")].status == "erratum"
    assert got[("TX UpdateFC_P at cycle 9", "HdrFC")].status == "erratum"
    assert got[("TX UpdateFC_P at cycle 9", "DataFC")].status == "ok"
    got = _by_row(_edited(3, "57363:\tHdrFC : 93", "57363:\tHdrFC : 92"))
    assert got[("TX UpdateFC_P at cycle 57360", "HdrFC")].status == "erratum"
    assert got[("TX UpdateFC_P at cycle 57360", "CRC16 bytes")].status == "ok"
    got = _by_row(_edited(2, "00326:\tCompleterID : 2 0 0", "00326:\tCompleterID : 2 1 0"))
    assert got[("TX CplD at cycle 323", "CompleterID device")].status == "erratum"
    got = _by_row(_edited(1, "Data\t: 0x01 0x00 0x00 0x00", "Data\t: 0x01 0x00 0x05 0x00"))
    assert got[("RX MWr at cycle 24", "Data byte 2")].status == "erratum"


def test_an_annotation_that_prints_more_numbers_than_its_field_holds_is_refused():
    with pytest.raises(ValueError, match="prints 4 numbers"):
        _edited(1, "RequesterID : 0 1c 0", "RequesterID : 0 1c 0 7")


def test_a_check_shows_a_hexadecimal_number_as_printed_and_its_value_in_the_same_digits():
    crc = next(c for c in CRCS if c.row == "RX MWr at cycle 0" and c.where == "Example 1 trace")
    assert crc.published == "0x0684C516" and checks.round_like(crc.model, crc.published) == "0xDADBAE33"
    assert checks.printed_value("0x0684C516") == 0x0684C516 and checks.printed_tolerance("0x1f") == 0.5


def test_the_cycle_numbers_count_up_by_one_but_where_example_2_skips_them():
    off = {(c.row, c.status) for c in FRAMING if c.status != "ok"}
    # 00171 and 00332 are missing inside an Ack (8 symbols) and a CplD (24 symbols) that are whole;
    # 00496-00500 are missing between 00495 and 00501, both idle or packet lines
    assert off == {("cycles from 00144", "erratum"), ("cycles from 00322", "erratum"),
                   ("cycles from 00495", "unexplained")}
    runs = [c for c in FRAMING if c.quantity == "last cycle number of the run"]
    assert sum(c.verifies for c in runs) == sum(
        lines - 1 for name in pt.SYMBOL_LOGS.values() for *_, lines, _, _ in
        [r[:3] + r[3:] for r in pcie_trace.parse(pt.published_log(name)).runs])


def test_a_skipped_cycle_number_is_caught_and_a_wrong_idle_byte_refused():
    assert _text(3).count("57405:") == 1
    got = _by_row(analyzer.framing_checks(3, pcie_trace.parse_text(_text(3).replace("57405:", "57407:"),
                                                                       "test3.log")))
    assert got[("cycles from 57286", "last cycle number of the run")].status in checks.ERRATA
    with pytest.raises(pcie_trace.LogFormatError, match="outside any packet"):
        pcie_trace.parse_text(_text(3).replace("57315:\t\t\tD\t00\tD\t00", "57315:\t\t\tD\t00\tD\t01"), "test3.log")


def test_the_idle_checks_verify_every_data_symbol_outside_a_packet():
    for n, name in pt.SYMBOL_LOGS.items():
        trace = pcie_trace.parse(pt.published_log(name))
        printed = _text(n).count("D 00") + _text(n).count("D\t00")
        inside = sum(p.data.count(0) for p in trace.packets)
        idle = [c for c in FRAMING if c.quantity == "idle data symbols" and c.where == f"{analyzer.TRACE_NAMES[n]} trace"]
        assert sum(c.verifies for c in idle) == printed - inside


def test_the_annotations_of_packets_whose_symbols_were_lost_agree_with_each_other_and_a_wrong_one_is_caught():
    lost = [c for c in PACKETS if c.row.endswith("(symbols lost)")]
    assert [(c.row, c.status, c.verifies) for c in lost] == [
        ("MRd at cycle 57258 (symbols lost)", "ok", 10), ("Ack at cycle 57302 (symbols lost)", "ok", 2),
        ("UpdateFC_NP at cycle 57362 (symbols lost)", "ok", 4)]
    for old, new, row in (("Address : 0xc2000000\n57266", "Address : 0xc2000004\n57266", "MRd at cycle 57258"),
                          ("HdrFC : 242", "HdrFC : 243", "UpdateFC_NP at cycle 57362")):
        text = _text(4)
        assert text.count(old) == 1
        got = analyzer.lost_packet_checks(4, pcie_trace.parse_text(text.replace(old, new), "test4.log"))
        assert next(c for c in got if c.row.startswith(row)).status == "erratum"


def test_a_cut_tlps_sequence_number_is_the_one_its_ack_acknowledges_and_a_wrong_one_is_caught():
    got = [(n, c.row, c.published, c.status) for n, name in pt.SYMBOL_LOGS.items()
           for c in analyzer.acknowledged_checks(n, pcie_trace.parse(pt.published_log(name)))]
    assert got == [(4, "TX Cp1D at cycle 57406", "1713", "ok")]
    text = _text(4)
    old = "SeqNr. : 1713\t"
    assert text.count(old) == 1
    wrong = analyzer.acknowledged_checks(4, pcie_trace.parse_text(text.replace(old, "SeqNr. : 1712\t"), "test4.log"))
    assert [(c.row, c.status) for c in wrong] == [("TX Cp1D at cycle 57406", "erratum")]


def test_each_annotation_check_holds_a_number_the_census_reads_on_its_line():
    """The census counts what an annotation prints by coverage's rule; each annotation check publishes one of
    those numbers (an ID's bus, device and function, printed in hex without 0x, are hex numbers to both)."""
    import re

    from goodput.checks import coverage
    lines = {}
    for n, name in pt.SYMBOL_LOGS.items():
        for line in _text(n).splitlines():
            m = re.match(r"^\s*(\d+):", line)
            if m:
                lines.setdefault((analyzer.TRACE_NAMES[n] + " trace", int(m.group(1))), []).append(line)
    annotations = [c for c in PACKETS if c.note.startswith("Annotation at cycle")]
    ids = [c for c in annotations if c.quantity.startswith(("RequesterID", "CompleterID"))]
    assert len(ids) == 3 * 23 and {c.published for c in ids} == {"0x0", "0x1c", "0x2"}
    for c in annotations:
        cycle = int(re.match(r"Annotation at cycle (\d+)", c.note).group(1))
        read = {coverage.key(x) for line in lines[(c.where, cycle)] for x in coverage.numbers(line)}
        assert coverage.key(c.published) in read, (c.where, cycle, c.quantity, c.published)
