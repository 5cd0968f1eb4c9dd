"""The symbol-trace parser, on the tutorial's four traces and on traces broken on purpose."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutations import FUZZ, mutated_log, parse_or_refuse

from goodput.core.errors import LogFormatError
from goodput.logs import pcie_trace

LOGS = Path(__file__).resolve().parent.parent / "data" / "logs" / "published"
EXAMPLE1 = LOGS / "intel-324611-example1-symbols.log"
TRACES = sorted(LOGS.glob("*-symbols.log"))


def test_every_published_symbol_trace_parses_into_packets():
    assert len(TRACES) == 4
    for path in TRACES:
        trace = pcie_trace.parse(path)
        assert trace.directions == ("TX", "RX") and trace.packets


def test_example_1_is_three_writes_and_six_dllps_back():
    trace = pcie_trace.parse(EXAMPLE1)
    s = pcie_trace.summary(trace)
    assert s["RX_packets"] == ["MWr"] * 3 and sorted(s["TX_packets"]) == ["Ack"] * 3 + ["UpdateFC_P"] * 3
    assert s["cycles"] == 72 and s["payload_bytes"] == 12
    assert s["TX_busy_symbols"] == 6 * 8 and s["RX_busy_symbols"] == 3 * 24
    assert all(p.complete for p in trace.packets)


def test_tlp_header_decoding_gives_type_and_length():
    trace = pcie_trace.parse(LOGS / "intel-324611-example2-symbols.log")
    names = [p.name for p in trace.packets if p.kind == "TLP"]
    assert names.count("MRd") == 3 and names.count("CplD") == 3
    assert {p.payload_bytes for p in trace.packets if p.name == "CplD"} == {4}
    assert {p.payload_bytes for p in trace.packets if p.name == "MRd"} == {0}


def test_lost_and_missing_cycles_are_reported_not_guessed():
    test4 = pcie_trace.parse(LOGS / "intel-324611-test4-symbols.log")
    assert test4.lost_cycles[0] == test4.first_cycle and len(test4.lost_cycles) == 48
    assert any(not p.complete for p in test4.packets)
    example2 = pcie_trace.parse(LOGS / "intel-324611-example2-symbols.log")
    assert example2.lost_cycles == [] and 171 in example2.missing_cycles


GOOD = EXAMPLE1.read_text()


def _broken(old, new):
    text = GOOD.replace(old, new, 1)
    assert text != GOOD
    return text


@pytest.mark.parametrize("text, words", [
    (_broken("001:\tD 00 D 0F", "001:\tD 00 K XYZ"), "unknown symbol"),
    (_broken("001:\tD 00 D 0F", "001:\tD 00 D 0F D 01"), "3 symbols"),
    (_broken("002:\tD 00 D D9", "000:\tD 00 D D9"), "does not follow"),
    (_broken("000:\tD 00 K STP", "000:\tD 00 D 00"), "outside any packet"),
    (GOOD.split("071:")[0], "ends inside"),
    (GOOD.replace("Cycle\tTX\tRX", "Cycles"), "no 'Cycle TX RX' header"),
])
def test_malformed_traces_raise_log_format_error_naming_file_and_line(text, words):
    with pytest.raises(LogFormatError, match=words) as info:
        pcie_trace.parse_text(text, "broken.log")
    assert str(info.value).startswith(f"broken.log:{info.value.line_number}: ")


#: Mutations favour the characters symbols are made of, so that edits make near-symbols.
SYMBOL_CHARACTERS = st.sampled_from(list("KD0F \t:.X9")) | st.characters(codec="utf-8")


@FUZZ
@given(data=st.data())
def test_mutated_traces_parse_or_raise_log_format_error_naming_one_of_their_lines(data, tmp_path_factory):
    raw = mutated_log(data, TRACES, SYMBOL_CHARACTERS)
    trace = parse_or_refuse(pcie_trace.parse, raw, tmp_path_factory.getbasetemp() / "mutated.log")
    if trace is not None:
        pcie_trace.summary(trace)
        pcie_trace.read_timings(trace)


def test_a_data_symbol_must_be_a_hex_byte():
    with pytest.raises(LogFormatError, match="unknown symbol"):
        pcie_trace.parse_text(GOOD.replace("001:\tD 00 D 0F", "001:\tD 00 D END", 1), "bad.log")


def test_the_analyzers_names_on_lost_lines_mark_packet_starts():
    test4 = pcie_trace.parse(LOGS / "intel-324611-test4-symbols.log")
    assert test4.annotated_starts == [(57258, "MRd"), (57278, "SKP"), (57302, "Ack"), (57362, "UpdateFC_NP"),
                                      (57406, "CplD")]
    assert pcie_trace.parse(EXAMPLE1).annotated_starts == []
    assert pcie_trace.annotated_read_timing(pcie_trace.parse(EXAMPLE1)) is None


# --- the bytes of each packet and the analyzer's annotations of them ---------------------------------


def test_a_packet_keeps_its_bytes_and_their_cycles_as_printed():
    first = pcie_trace.parse(EXAMPLE1).packets[0]
    assert (first.name, first.first_cycle) == ("MWr", 0)
    assert bytes(first.data).hex().upper() == "0FD94000000100E0000FC2000000000000000684C516"
    assert first.byte_cycles == tuple(range(1, 23))


def test_annotations_go_to_the_packet_of_their_kind_that_started_last():
    trace = pcie_trace.parse(EXAMPLE1)
    mwr, update, ack = trace.packets[:3]
    assert (mwr.label, mwr.fields["SeqNr."], mwr.fields["LCRC"]) == ("MWr", ("4057", 1), ("0x0684C516", 13))
    assert update.label == "UpdateFC_P" and {k: v[0] for k, v in update.fields.items()} == {
        "VC": "0", "HdrFC": "54", "DataFC": "1973", "CRC16": "0xefc7"}
    assert ack.fields == {"SeqNum": ("4057", 19), "CRC16": ("0x40de", 21)}
    # a completion the analyzer's name of which the conversion lost still gets its fields, not the request's
    example2 = pcie_trace.parse(LOGS / "intel-324611-example2-symbols.log")
    cpl = next(p for p in example2.packets if p.first_cycle == 323)
    assert cpl.label == "" and cpl.fields["SeqNr."] == ("1714", 324)
    assert all("CompleterID" not in p.fields for p in example2.packets if p.name == "MRd")


def test_a_packet_whose_start_was_lost_is_named_from_the_lost_line_and_lost_packets_keep_their_annotations():
    test4 = pcie_trace.parse(LOGS / "intel-324611-test4-symbols.log")
    first = test4.packets[0]
    assert (first.complete, first.label, first.label_cycle, first.first_cycle) == (False, "Cp1D", 57406, 57408)
    assert [(c, n) for c, n, _ in test4.unmatched_annotations] == [
        (57258, "MRd"), (57278, "SKIP"), (57302, "Ack"), (57362, "UpdateFC_NP")]
    assert test4.unmatched_annotations[0][2]["LCRC"] == ("0xF14A69F2", 57271)


def test_every_analyzer_name_is_the_packet_its_bytes_decode_to():
    names = {"Cp1D": "CplD", "SKIP": "SKP"}
    for path in TRACES:
        for p in pcie_trace.parse(path).packets:
            if p.label and p.complete:
                assert names.get(p.label, p.label) == p.name, (path.name, p.first_cycle)


def test_decode_reads_each_field_from_its_bits():
    trace = pcie_trace.parse(EXAMPLE1)
    mwr = pcie_trace.decode("TLP", bytes(trace.packets[0].data))
    assert mwr["SeqNr."] == [("", 4057)] and mwr["Length"] == [("", 1)]
    assert mwr["RequesterID"] == [("bus", 0), ("device", 0x1C), ("function", 0)]
    assert mwr["Address"] == [("", 0xC2000000)] and mwr["LCRC"] == [("", 0x0684C516)]
    assert (mwr["First DW BE"], mwr["Last DW BE"]) == ([("", 0xF)], [("", 0)])
    assert mwr["Data"] == [(f"byte {i}", 0) for i in range(4)]
    update = pcie_trace.decode("DLLP", bytes(trace.packets[1].data))
    assert update == {"CRC16": [("", 0xEFC7)], "VC": [("", 0)], "HdrFC": [("", 54)], "DataFC": [("", 1973)]}
    ack = pcie_trace.decode("DLLP", bytes(trace.packets[2].data))
    assert ack == {"CRC16": [("", 0x40DE)], "SeqNum": [("", 4056)]}
    with pytest.raises(ValueError, match="6 bytes"):
        pcie_trace.decode("DLLP", bytes(4))
    with pytest.raises(ValueError, match="at least 18"):
        pcie_trace.decode("TLP", bytes(10))
