"""The census of the numbers the documents print (tools/census.py, data/census/) and the coverage counts the
status page shows (goodput.checks.coverage; goodput.render.status_coverage writes them): the committed census is
what the documents' text gives, the counting rule holds on small texts, and made-up checks and transcriptions give
the counts worked out by hand."""

from __future__ import annotations

import dataclasses
import difflib
import re
from pathlib import Path

import census as census_tool  # tools/census.py (pytest puts tools/ on the path)
import pandas as pd
import pytest

from goodput import checks
from goodput.checks import coverage
from goodput.core import data
from goodput.core.errors import DataError
from goodput.render import status_coverage

ROOT = Path(__file__).resolve().parent.parent
#: The documents' plain-text conversions: beside the clone, as CI has them.
SEEDS = ROOT.parent / "shared" / "seeds"


# --- the committed census ----------------------------------------------------------------------

@pytest.mark.slow
def test_the_committed_census_is_what_tools_census_counts_in_the_documents():
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} is absent, so the census cannot be recounted (CI has the documents beside the clone)")
    for name, text in zip(("sections.csv", "numbers.csv"), census_tool.census(SEEDS)):
        committed = (coverage.census_dir() / name).read_text(encoding="utf-8")
        if committed != text:
            diff = "".join(list(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                                     f"data/census/{name}", "recounted"))[:40])
            pytest.fail(f"data/census/{name} is not what tools/census.py counts; run it again and commit:\n{diff}")


def test_every_document_in_the_census_is_one_of_the_data_packages_sources():
    assert set(coverage.census().sections["document"]) <= set(data.documents())


def test_the_census_has_the_five_documents_in_the_tools_order():
    assert list(coverage.census().sections["document"].drop_duplicates()) == [d.key for d in census_tool.DOCUMENTS]


def test_each_documents_sections_follow_one_another_and_count_the_numbers_listed_in_them():
    found = coverage.census()
    for document, rows in found.sections.groupby("document", sort=False):
        assert (rows["first_line"].iloc[1:].to_numpy() == rows["last_line"].iloc[:-1].to_numpy() + 1).all(), document
        lines = found.numbers.loc[found.numbers["document"] == document, "line"]
        for row in rows.itertuples():
            assert row.numbers == lines.between(row.first_line, row.last_line).sum(), (document, row.section)
        assert lines.between(rows["first_line"].min(), rows["last_line"].max()).all(), document


def test_every_section_is_covered_or_says_why_not():
    covered = coverage.census().sections["covered"]
    assert covered.map(lambda c: c == "yes" or (c.startswith("no: ") and len(c) > 4)).all()


@pytest.mark.slow
def test_every_transcription_of_a_counted_document_names_a_section_of_the_census():
    counted = set(coverage.census().sections["document"])
    unplaced = [t.name for t in coverage.transcriptions()
                if t.document in counted and not coverage.sections_named(t.document, t.where)]
    assert unplaced == []


# --- the counting rule ------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("a rate of 250 MByte/s", ["250"]),
    ("2.91 Gbps and 0.80", ["2.91", "0.80"]),
    ("94,595 kbit/s, then 1,613,824 bits", ["94,595", "1,613,824"]),
    ("frames of 8192, 16384, 32768", ["8192", "16384", "32768"]),
    ("flags: 0x0105 WRITE", ["0x0105"]),
    ("a x4 link, not x 4 lanes", ["x4", "4"]),
    ("a 4K transfer at 1.2GHz, 97% busy", ["4K", "1.2GHz", "97%"]),
    ("001:\tD 00 D 0F\tSeqNr. : 4057", ["001", "D 00", "D 0F", "4057"]),
    # an analyzer's ID annotation prints bus, device and function in hex without 0x: read as the hex they are
    ("003:\tD 00 D 40\tRequesterID : 0 1c 0", ["003", "D 00", "D 40", "0x0", "0x1c", "0x0"]),
    ("\tCompleterID : 2 0 0\tD 4A\tD 00", ["0x2", "0x0", "0x0", "D 4A", "D 00"]),
    ("70 800ns", ["70", "800ns"]),
    ("the range 0x40000000-0x7FFFFFFF, DDR3-1600", ["0x40000000", "0x7FFFFFFF"]),  # a range's both ends
])
def test_the_rule_counts_each_form_of_number_once(text, expected):
    assert coverage.numbers(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Table 3. MSC8157 PCI Express Calculated Bandwidth for x4 Write Transfers", []),   # a caption
    ("**Table 1. Theoretical Bandwidth of Core**", []),
    ("Figure 2. Example 3 TLPs and 1 ACK", []),
    ("Table 10\tMay E\tPayload", []),                                                  # a garbled caption
    ("see Table 16, Figure 5, Section 6.1.1, §4.4, Example 1, Test 14 and Eqn. 2", []),  # references
    ("Tables 9 and 10 show 12800 MB/s", ["12800"]),
    ("the results in the Sections 4.16 and 4.17 show a gain of 3", ["3"]),
    ("run test 12 with 10 iterations", ["10"]),
    ("For details refer to [7], p. 11-9. Then 2 more", ["2"]),                           # a page of a manual
    ("[Table 7](#) holds 7 rows", ["7"]),
    ("1. Connect both boards", []),                                                     # list numbering
    ("- 2. Configure 4 lanes", ["4"]),
    ("6. 6. Build (F7)", []),
    ("Copyright © 2010, Intel Corporation. All rights reserved.", []),                   # footers
    ("see www.ti.com/sc/docs/stdterms.htm, http://www.intel.com/performance or support.asia@freescale.com", []),
    ("MSC8156, TMS320C6678, AM243x, 66AK2H12, DDR3-1600, r5f0-0, 8b/10b, EDMA0, C66x, p-256", []),  # names
    ("Rev. 1, 11/2011", []),                                                            # revisions, dates
    ("Revision 001, November 2010, revision R2P4", []),
    ("Linux 2.6.31.12 at 146.252.161.171, MAC 00-0e-99-02-90-7a", []),                  # versions, addresses
    ("00000000-0000ffff : reserved", []),
    ("b7703000-b7705000 r--p 0013e000 08:02 708893 /lib/libc-2.10.1.so", []),             # identifiers
    ("0804e000-08071000 rw-p 00000000 00:00 0 [heap]", []),
    ("515 $ sudo cat /proc/4491/maps", []),
    ("40000000-400fffff : PCI Bus 0000:08 and 0000:08:00.0", []),
    ("Assign the interrupt to IRQ 0 at 250 MB/s", ["250"]),
    ("538 $ ./dma-demo -3 -4", ["3", "4"]),
    (r"cd C:\CCStudio_v3.3\ndk_1_92\packages\ti\ndk\lib\c64plus then 2 files", ["2"]),   # a Windows path
    ("Code Composer Studio v 3.3 or NDK v1.92, 4 boards", ["4"]),                        # versions
    ("Visual C++ 2005 Express Service Pack 1 (Windows Server 2003 R2), 2005 frames", ["2005"]),  # products
    ("Microsoft Visual Studio C++ 2005 Express Edition, 2005 frames", ["2005"]),
    (r"C:\Program Files\Microsoft Visual Studio 8\Common7\Tools\vsvars32.bat 3 times", ["3"]),  # spaces in a path
    (r"cd C:\CCStudio v3.3\ndk 1 92\packages\ti\ndk\example\dsk6455\bin", []),
    ("as many 1s and 0s as 3s", ["3s"]),
    ("EDMA0/1/2/4 and DDR3A/B over TeraNet 3A, a Type 11 message to Device 2 of core 1 and 2 on 10GbE", []),
    ("C66x Core\t19200 at Level 3 of 12 levels", ["19200", "12"]),                      # names, not a count
    ("Building modules, stage 2.", []),
    ("between TeraNets 3A and 3C, to Mailbox 0/1 and then Mailbox 1", []),                 # names by number
    ("Input media : USB 2.0, -Wl,--diag_suppress=10063 -b 60M", ["60M"]),             # a version, a diagnostic
    ("a splitter (Spectrum Digital #701204), the project pcie 8156 at 5 Gbps", ["5"]),   # a part, a project
    ("any address allowed to be cached (MAR.PC==1) in 2 cycles", ["2"]),                 # a register bit's state
    ("3. Subtract 2 from 1 to get the time of 4 runs", ["4"]),                            # the steps by number
    ("a rate of 8 MB/s and 10 /s, not 1/2 of 4/8", ["8", "10", "1", "2", "4", "8"]),
    ("IEEE Standard 1149.1-1990", []),
    ("EDMA0 at CPU/3<sup>(1)</sup> as in [4], RAM[0] = 0;", ["3", "0"]),               # footnotes, citations
    ("<td>12,803</td> <table border=\"1\">", ["12,803"]),                                # HTML
    (r"$(128\text{bits})/(8\text{bit}/\text{byte}) \times (1200\text{M}) = 19200\text{MB}/\text{s}$",
     ["128", "8", "1200", "19200"]),
])
def test_the_rule_leaves_out_what_is_not_a_printed_number(text, expected):
    assert coverage.numbers(text) == expected


def test_a_text_of_several_lines_is_read_line_by_line():
    assert coverage.numbers("1. first step\n2. costs 5 ms\nTable 4. Rates 9") == ["5"]


@pytest.mark.parametrize("number, expected", [
    ("94,595", "94595"), ("1.2GHz", "1.2"), ("x4", "4"), ("97%", "97"), ("2.00", "2.00"), ("0x0F", "0x0f"),
    ("D 0F", "d 0f"),
])
def test_a_numbers_key_keeps_its_printed_digits_and_drops_the_rest(number, expected):
    assert coverage.key(number) == expected


def test_a_key_of_what_the_rule_does_not_count_is_an_error():
    with pytest.raises(ValueError, match="not a number"):
        coverage.key("MSC8156")


@pytest.mark.parametrize("text, expected", [
    ("Tables 6-15", {("Table", str(n)) for n in range(6, 16)}),
    ("§2, §4-5 text", {("§", "2"), ("§", "4"), ("§", "5")}),
    ("5.2.1-5.2.6 Scenarios 1-6", set()),
    ("§5.2.1-5.2.3", {("§", "5.2.1"), ("§", "5.2.2"), ("§", "5.2.3")}),
    ("§3.5 Examples 1 and 2", {("§", "3.5"), ("Example", "1"), ("Example", "2")}),
    ("Test 3: TLP interval #1 (ns)", {("Test", "3")}),
])
def test_names_reads_the_parts_a_where_names(text, expected):
    assert coverage.names(text) == expected


# --- cutting a document into sections ---------------------------------------------------------

SAMPLE = census_tool.Document(
    key="AN3935", file="", front="Title page", headings=("Contents",), renamed={"Results 2": "2 Results"},
    furniture=(r"^Sample note, Rev\. 1 page \d+$",), not_covered={"Title page": "title page", "Contents": "contents"},
    aliases={"2.1 Details": ("Detail",)})

SAMPLE_TEXT = "\n".join([
    "A sample note",                 # 1  title page
    "Contents",                      # 2
    "1\tIntroduction ..... 2",       # 3  a line of the contents, not a heading (tab)
    "1 Introduction",                # 4
    "It moves 12 bytes.",            # 5
    "Table 1. Rates at 5 Gbps",      # 6  caption: not counted
    "8\t2.91",                       # 7
    "4 Byte * 4ns = 16ns",           # 8  not a heading: '*' and '='
    "9 Nine bytes",                  # 9  not a heading: 9 does not follow 1
    "Sample note, Rev. 1 page 3",    # 10 a footer
    "Results 2",                     # 11 the garbled heading of section 2
    "Example 1: 100 writes",         # 12 the head of an example: not counted
    "100 writes take 9648ns",        # 13
    "2.1 Details",                   # 14
    "Figure 3. Trace",               # 15
])


def test_the_tool_cuts_at_headings_that_follow_one_another():
    cut = census_tool.cut(SAMPLE, SAMPLE_TEXT)
    assert [(s.heading, s.first_line, s.last_line, s.covered) for s in cut] == [
        ("Title page", 1, 1, "no: title page"), ("Contents", 2, 3, "no: contents"),
        ("1 Introduction", 4, 10, "yes"), ("2 Results", 11, 13, "yes"), ("2.1 Details", 14, 15, "yes")]
    assert [(s.captions, s.numbers) for s in cut[2:]] == [
        (["Table 1"], [(5, "12"), (7, "8"), (7, "2.91"), (8, "4"), (8, "4ns"), (8, "16ns"), (9, "9")]),
        (["Example 1"], [(13, "100"), (13, "9648ns")]),
        (["Figure 3"], [])]


def test_the_tool_writes_one_row_per_section_and_one_per_number(tmp_path, monkeypatch):
    (tmp_path / "sample.txt").write_text(SAMPLE_TEXT, encoding="utf-8")
    monkeypatch.setattr(census_tool, "DOCUMENTS", (dataclasses.replace(SAMPLE, file="sample.txt"),))
    sections, numbers = census_tool.census(tmp_path)
    assert sections.splitlines()[0] == ",".join(coverage.SECTION_COLUMNS)
    assert sections.splitlines()[5] == "AN3935,2.1 Details,yes,Figure 3,Detail,14,15,0"
    assert numbers.splitlines()[1:4] == ["AN3935,3,1", "AN3935,3,2", "AN3935,5,12"]  # the contents' too
    assert len(numbers.splitlines()) == 1 + 2 + 7 + 2


def test_a_table_the_conversion_printed_three_times_is_counted_once():
    table = "<table><tr><td>ALUTs</td><td>12,803</td><td>18%</td></tr><tr><td>RAM</td><td>4</td></tr></table>"
    text = "\n".join(["# Datasheet", f"<p>Estimate</p> {table}\t\tALUTs\t12,803\t18%\tRAM\t4\t<p>RAM (2x)</p>",
                      "ALUTs\t12,803\t18%", "RAM\t4", "<p>again</p> " + table])
    doc = census_tool.Document(key="AM243x MCU+ SDK", file="", front="Title page", markdown=True)
    (section,) = census_tool.cut(doc, text)
    # the HTML and the run of its cells on line 2 are the rows of lines 3-4 again; "2x" after them is the text's;
    # the table on line 5 is not printed again below it, so it counts
    assert section.numbers == [(2, "2x"), (3, "12,803"), (3, "18%"), (4, "4"), (5, "12,803"), (5, "18%"), (5, "4")]


def test_a_heading_in_another_parts_cond_block_is_not_covered():
    doc = census_tool.Document(key="AM243x MCU+ SDK", file="", front="Title page", markdown=True, part="SOC_AM243X")
    text = "\n".join(["# Datasheet", "\\cond SOC_AM64X", "### AM64X-EVM", "12 ms", "\\endcond",
                      "\\cond SOC_AM243X", "### AM243X-EVM", "13 ms", "\\endcond"])
    cut = census_tool.cut(doc, text)
    assert [(s.heading, s.covered, [n for _, n in s.numbers]) for s in cut] == [
        ("Datasheet", "yes", []), ("AM64X-EVM", "no: for the AM64x only", ["12"]), ("AM243X-EVM", "yes", ["13"])]


# --- the coverage counts, from a made-up census -----------------------------------------------

def made_census() -> coverage.Census:
    """AN3935 in four sections: the contents (not covered), 1 (Table 1), 2 (Tables 2 and 3) and 2.1."""
    sections = pd.DataFrame([
        ["AN3935", "Contents", "no: contents", "", "", 1, 9, 1],
        ["AN3935", "1 Bit Rates", "yes", "Table 1", "", 10, 19, 3],
        ["AN3935", "2 Calculating Bandwidth", "yes", "Table 2; Table 3", "", 20, 29, 3],
        ["AN3935", "2.1 Write Transfer Estimates", "yes", "", "Writes", 30, 39, 2],
    ], columns=coverage.SECTION_COLUMNS)
    numbers = pd.DataFrame([
        ["AN3935", 2, "7"],
        ["AN3935", 11, "2.91"], ["AN3935", 12, "14"], ["AN3935", 13, "8"],
        ["AN3935", 21, "8"], ["AN3935", 22, "8"], ["AN3935", 23, "5.82"],
        ["AN3935", 31, "5.82"], ["AN3935", 32, "7"],
    ], columns=coverage.NUMBER_COLUMNS)
    return coverage.Census(sections, numbers)


def made_check(status: str, document="AN3935", where="", row="", published="1", quantity="bandwidth",
               resource="") -> checks.SourceCheck:
    """A check with the fields named; any other field of SourceCheck empty (or zero)."""
    given = dict(document=document, where=where, row=row, published=published, quantity=quantity, status=status,
                 resource=resource, chapter="pcie-packets", unit="Gbit/s", model=float(published), tolerance=0.005)
    return checks.SourceCheck(**{f.name: given.get(f.name, f.default if f.default is not dataclasses.MISSING
                                                   else (0.0 if f.type in (float, "float") else ""))
                                 for f in dataclasses.fields(checks.SourceCheck)})


FIRST, LAST = checks.STATUSES[0], checks.STATUSES[-1]
MADE_CHECKS = [
    made_check(FIRST, where="Table 1", row="8 bytes", published="2.91", resource="an3935-table1"),
    made_check(LAST, where="Table 1", row="8 bytes", published="2.91", resource="an3935-table1"),  # the same cell
    made_check(FIRST, where="§2 text", row="x4", published="5.82"),      # named itself, and 2.1 under it
    made_check(FIRST, where="§2 text", row="x2", published="7"),         # printed in 2.1 only
    made_check(LAST, where="Table 9", row="any", published="1"),         # no such table: elsewhere
    made_check(FIRST, document="RFC 5180", where="Appendix A.1", row="64 B", published="14880"),
]
MADE_COPIES = [
    coverage.Transcription("AN3935", "an3935-table1", ("Table 1",), ("2.91", "8", "8", "8"),
                           (("size", "8 bytes", ("", "8 bytes 2.91")), ("bandwidth", "2.91", ("", "8 bytes 2.91")))),  # the 2.91 is checked
    coverage.Transcription("AN3935", "an3935-s2", ("§2",), ("8", "5.82", "5.82", "99")),
    coverage.Transcription("AN3935", "stray", ("Appendix Z",), ("7",)),
]


def test_place_finds_a_checks_section_by_caption_number_value_and_heading():
    made = made_census()
    assert coverage.place("AN3935", ["8 bytes", "Table 1"], "2.91", made) == "1 Bit Rates"
    assert coverage.place("AN3935", ["x4", "§2 text"], "5.82", made) == "2 Calculating Bandwidth"
    assert coverage.place("AN3935", ["x2", "§2 text"], "7", made) == "2.1 Write Transfer Estimates"
    assert coverage.place("AN3935", ["Writes, 8 bytes"], "", made) == "2.1 Write Transfer Estimates"
    assert coverage.place("AN3935", ["Table 9"], "1", made) == coverage.ELSEWHERE
    assert coverage.place("AN3935", ["the contents"], "7", made) == coverage.ELSEWHERE  # not covered


def test_a_check_that_names_two_sections_printing_its_value_goes_where_its_words_point():
    made = made_census()
    # "Tables 2 and 3" and "Writes" name 2 and 2.1; both print 5.82; 2.1 also names "Writes" and
    # "Write Transfer Estimates", which share words with the text.
    assert coverage.place("AN3935", ["write transfer estimates, Table 2 and Writes"], "5.82", made) \
        == "2.1 Write Transfer Estimates"
    assert coverage.place("AN3935", ["Table 2; Writes"], "5.82", made) == "2.1 Write Transfer Estimates"
    assert coverage.place("AN3935", ["§2 and §2.1"], "5.82", made) == coverage.ELSEWHERE  # a tie


def test_cells_counts_a_cell_checked_several_ways_once():
    assert len(coverage.cells(MADE_CHECKS)) == len(MADE_CHECKS) - 1
    assert coverage.cells(MADE_CHECKS)["verifies"].tolist() == [1] * (len(MADE_CHECKS) - 1)


def test_a_table_cell_checked_under_two_row_labels_counts_once():
    table = data.load("spraaq5-s6-throughput")
    first = checks.compare(table, 0, "cpu_load_percent", 0.0, "a row")
    other = checks.compare(table, 0, "cpu_load_percent", 0.0, "a row, against another row",
                           kind="consistency")
    assert first.cell == other.cell != "" and first.row != other.row
    assert len(coverage.cells([first, other])) == 1
    assert len(coverage.cells([first, dataclasses.replace(other, cell="another | cell")])) == 2


def test_a_check_that_verifies_many_printed_numbers_counts_them_all_and_a_cell_counts_its_most():
    crc = dataclasses.replace(MADE_CHECKS[0], quantity="LCRC bytes", published="0x0684C516", verifies=22)
    again = dataclasses.replace(crc, verifies=4)  # the same cell, checked another way
    made = [*MADE_CHECKS, crc, again]
    got = coverage.cells(made)
    assert len(got) == len(MADE_CHECKS) and got["verifies"].sum() == len(MADE_CHECKS) - 1 + 22
    rows = coverage.by_section("AN3935", made, made_census(), MADE_COPIES).set_index("section")
    before = coverage.by_section("AN3935", MADE_CHECKS, made_census(), MADE_COPIES).set_index("section")
    assert rows.at["1 Bit Rates", "checked"] == before.at["1 Bit Rates", "checked"] + 22
    assert "every byte of the packet" in coverage.CHECKED_RULE
    said = status_coverage.summary_markdown(coverage.by_document(made, made_census(), MADE_COPIES))
    assert coverage.CHECKED_RULE in said


def test_a_check_verifies_at_least_one_printed_number():
    for wrong in (0, -1, 2.5):
        with pytest.raises(ValueError, match="at least 1"):
            checks.check("Intel 324611", "Test 3 trace", "RX MWr", "LCRC bytes", "", "0x01", 1,
                         verifies=wrong)


def test_transcribed_counts_each_printed_number_at_most_once_in_the_sections_named():
    got = coverage.transcribed(MADE_COPIES, made_census())
    assert dict(zip(got["section"], got["transcribed"])) == {
        "1 Bit Rates": 2,                   # 2.91 and one 8: the section prints 8 once
        "2 Calculating Bandwidth": 2,       # an 8 and the first 5.82 of "§2" (which names 2.1 too)
        "2.1 Write Transfer Estimates": 1,  # the second 5.82; 99 is printed nowhere; "stray" names no section
    }


def test_a_tables_number_counts_first_in_the_section_its_row_names():
    row_21 = coverage.Transcription("AN3935", "an3935-s2", ("§2",), ("5.82",), (), ((("5.82",), ("§2.1", "5.82")),))
    log = dataclasses.replace(row_21, rows=())          # a log: no rows, the document's order
    for copy, section in ((row_21, "2.1 Write Transfer Estimates"), (log, "2 Calculating Bandwidth")):
        got = coverage.transcribed([copy], made_census())
        assert dict(zip(got["section"], got["transcribed"])) == {
            "1 Bit Rates": 0, "2 Calculating Bandwidth": 0, "2.1 Write Transfer Estimates": 0, section: 1}


@pytest.mark.parametrize("cells, expected", [
    ([("value", "64"), ("quote", "Avoid 64 byte payload size")], ("64",)),           # the sentence quoted
    ([("value", "64"), ("quote", "64 KB, lower limit of 64 KB")], ("64", "64")),      # it prints two 64s
    ([("bytes", "8"), ("bytes_as_printed", "8"), ("notes", "1 TLP (8)")], ("8", "1", "8")),  # notes: a column
    ([("bytes", "8"), ("calculation_as_printed", "8 * 8 / (8 + 20)")], ("8", "8", "8", "8", "20")),
    ([("value", "1200"), ("as_printed", "1.2 GHz")], ("1200", "1.2")),                 # another form, counted
])
def test_a_rows_copy_of_its_own_cells_transcribes_no_second_number(cells, expected):
    assert sorted(coverage.row_numbers(cells)) == sorted(expected)


def test_by_section_counts_printed_checked_transcribed_and_each_status():
    got = coverage.by_section("AN3935", MADE_CHECKS, made_census(), MADE_COPIES)
    assert list(got.columns) == ["section", "printed", *coverage.SETTINGS_COLUMNS, "checked", "transcribed",
                                 *checks.STATUSES]
    rows = {r["section"]: r for r in got.to_dict("records")}
    assert list(rows) == ["1 Bit Rates", "2 Calculating Bandwidth", "2.1 Write Transfer Estimates", coverage.ELSEWHERE]
    assert [(r["printed"], r["checked"], r["transcribed"]) for r in rows.values()] == [
        (3, 1, 2), (3, 1, 2), (2, 1, 1), (0, 1, 0)]
    assert [(r["settings"], r["results"], r["remaining"]) for r in rows.values()] == [
        (1, 2, 1), (0, 3, 2), (0, 2, 1), (0, 0, 0)]
    first_last = [(r[FIRST], r[LAST]) for r in rows.values()]
    if FIRST != LAST:
        assert first_last == [(1, 1), (1, 0), (1, 0), (0, 1)]
    assert sum(sum(r[s] for s in checks.STATUSES) for r in rows.values()) == 5


def test_another_documents_section_of_the_same_name_does_not_change_a_sections_counts():
    made = made_census()
    other = made.sections[made.sections["section"] == "1 Bit Rates"].assign(document="SPRAAQ5", numbers=1)
    both = coverage.Census(pd.concat([made.sections, other], ignore_index=True),
                           pd.concat([made.numbers, pd.DataFrame([["SPRAAQ5", 11, "3"]], columns=coverage.NUMBER_COLUMNS)],
                                     ignore_index=True))
    alone = coverage.by_section("AN3935", MADE_CHECKS, made, MADE_COPIES)
    pd.testing.assert_frame_equal(coverage.by_section("AN3935", MADE_CHECKS, both, MADE_COPIES), alone)


def test_by_document_counts_only_covered_sections_and_leaves_uncounted_documents_empty():
    got = coverage.by_document(MADE_CHECKS, made_census(), MADE_COPIES).set_index("document")
    assert list(got.index) == ["AN3935", "RFC 5180"]  # in the data package's order
    assert (got.at["AN3935", "printed"], got.at["AN3935", "checked"], got.at["AN3935", "transcribed"]) == (8, 4, 5)
    assert (got.at["AN3935", "settings"], got.at["AN3935", "results"], got.at["AN3935", "remaining"]) == (1, 7, 4)
    assert pd.isna(got.at["RFC 5180", "printed"]) and pd.isna(got.at["RFC 5180", "transcribed"])
    assert all(pd.isna(got.at["RFC 5180", c]) for c in coverage.SETTINGS_COLUMNS)
    assert got.at["RFC 5180", "checked"] == 1 and got.loc["RFC 5180", list(checks.STATUSES)].sum() == 1


@pytest.fixture(scope="module")
def counted_sections():
    """:func:`coverage.by_section` of every document of the committed census, with every check."""
    return coverage.every_section()


@pytest.mark.slow
def test_the_status_pages_counts_are_the_checks_and_the_census_counted_directly(counted_sections):
    items = checks.collect()
    got = coverage.by_document(items, sections=counted_sections).set_index("document")
    for document, row in got.iterrows():
        mine = [c for c in items if c.document == document]
        assert row[list(checks.STATUSES)].sum() == len(mine), document
        most = {}
        for c in mine:
            cell = (c.resource, c.cell) if c.resource and c.cell else (c.resource or c.where, c.row, c.quantity, c.unit)
            most[cell] = max(most.get(cell, 0), c.verifies)
        assert row["checked"] == sum(most.values()), document
    found = coverage.census().sections
    for document, rows in found[found["covered"] == "yes"].groupby("document"):
        assert got.at[document, "printed"] == rows["numbers"].sum()
        assert 0 < got.at[document, "transcribed"] <= got.at[document, "printed"]


def test_the_status_page_shows_a_block_per_document_with_its_sections():
    shown = status_coverage.sections_html(MADE_CHECKS, made_census(), MADE_COPIES)
    assert shown.count("<details") == 1
    assert ("<summary>AN3935: 8 printed (1 settings, 7 results), 4 checked, 4 results unchecked, 5 transcribed"
            "</summary>") in shown
    assert shown.count("<tr>") == 1 + 4 and "Not counted: Contents (contents)." in shown


# --- the ledger of results no check checks ---------------------------------------------------------

MADE_LEDGER = pd.DataFrame([
    ["AN3935", "2.1 Write Transfer Estimates", 1, "not yet", "the 7 of the text"],
    ["AN3935", "1 Bit Rates", 1, "uncheckable", "the 14 of Table 1: a count nothing else prints"],
    ["AN3935", "2 Calculating Bandwidth", 2, "not yet", "the 8s of Table 2"],
], columns=coverage.UNCHECKED_COLUMNS)


@pytest.mark.slow
def test_the_ledger_accounts_for_every_remaining_result_of_every_section(counted_sections):
    ledger = coverage.unchecked()
    wrong = {d: coverage.unaccounted(sections, d, ledger) for d, sections in counted_sections.items()}
    said = "\n".join(f"{d}:\n{w.to_string()}" for d, w in wrong.items() if not w.empty)
    assert not said, f"data/census/unchecked.csv disagrees with the counts:\n{said}"


def test_unaccounted_names_a_section_whose_ledger_rows_are_not_its_remaining_results():
    sections = coverage.by_section("AN3935", MADE_CHECKS, made_census(), MADE_COPIES)
    assert coverage.unaccounted(sections, "AN3935", MADE_LEDGER).empty
    short = MADE_LEDGER.drop(index=2)                      # section 2's two remaining results unaccounted
    long = MADE_LEDGER.assign(numbers=[1, 2, 2])          # section 1 has one remaining, not two
    assert coverage.unaccounted(sections, "AN3935", short).values.tolist() == [["2 Calculating Bandwidth", 2, 0]]
    assert coverage.unaccounted(sections, "AN3935", long).values.tolist() == [["1 Bit Rates", 1, 2]]


@pytest.mark.parametrize("row, error", [
    ("AN3935,9 No Such Section,1,not yet,why", "has no covered section '9 No Such Section'"),
    ("AN3935,Contents,1,not yet,why", "has no covered section 'Contents'"),
    ("AN3935,1 Bit Rates,0,not yet,why", "numbers '0' is not a positive whole number"),
    ("AN3935,1 Bit Rates,-1,not yet,why", "numbers '-1' is not a positive whole number"),
    ("AN3935,1 Bit Rates,1,someday,why", "kind 'someday' is not one of"),
    ("AN3935,1 Bit Rates,1,not yet,  ", "no reason given"),
    ("AN3935,2.1 Write Transfer Estimates,1,not yet,the 7 of the text", "the same reason twice"),
])
def test_a_wrong_ledger_row_is_an_error_naming_the_file_and_line(tmp_path, row, error):
    path = tmp_path / "unchecked.csv"
    path.write_text(MADE_LEDGER.to_csv(index=False) + row + "\n")
    with pytest.raises(DataError, match=rf"unchecked\.csv:5: .*{re.escape(error)}"):
        coverage.unchecked(made_census(), path)


def test_a_ledger_read_back_is_the_ledger_written(tmp_path):
    path = tmp_path / "unchecked.csv"
    path.write_text(MADE_LEDGER.to_csv(index=False))
    pd.testing.assert_frame_equal(coverage.unchecked(made_census(), path), MADE_LEDGER)


def test_the_status_page_lists_a_documents_ledger_rows_in_its_sections_order_and_sums_their_kinds():
    shown = status_coverage.sections_html(MADE_CHECKS, made_census(), MADE_COPIES, MADE_LEDGER)
    listed = re.findall(r"<li>(.*?)</li>", shown)
    assert listed == ["<strong>1 Bit Rates</strong> (1 uncheckable): the 14 of Table 1: a count nothing else prints",
                      "<strong>2 Calculating Bandwidth</strong> (2 not yet): the 8s of Table 2",
                      "<strong>2.1 Write Transfer Estimates</strong> (1 not yet): the 7 of the text"]
    documents = coverage.by_document(MADE_CHECKS, made_census(), MADE_COPIES)
    said = status_coverage.summary_markdown(documents, MADE_LEDGER)
    assert "(1 uncheckable: nothing the document prints" in said and "; 3 not yet: a check could be" in said


# --- settings apart from results ----------------------------------------------------------------

def test_a_tables_settings_are_its_keys_their_printed_form_and_the_columns_its_schema_calls_settings():
    aes = data.load("am243x-aes-cbc")
    assert coverage.setting_columns(aes) == ["key_bits", "operation", "size_as_printed", "size_bytes"]
    rndis = data.load("am243x-rndis-iperf")
    assert coverage.setting_columns(rndis) == ["id", "start_s", "end_s"]  # the interval's bounds by their role


def test_settings_count_a_key_once_where_it_is_printed_and_never_a_checked_cell():
    made = made_census()
    got = coverage.settings(MADE_COPIES, MADE_CHECKS, made)
    assert dict(zip(got["section"], got["settings"]))["1 Bit Rates"] == 1  # the 8 of "8 bytes", not the 2.91
    unchecked = coverage.settings(MADE_COPIES, [], made)
    assert dict(zip(unchecked["section"], unchecked["settings"]))["1 Bit Rates"] == 2


def test_a_setting_counts_first_in_the_section_its_row_names():
    """Sections 2 and 2.1 both print a 5.82; a row that names the writes gives its 5.82 to 2.1."""
    made = made_census()
    row = ("rate", "5.82", ("", "Writes at 5.82"))
    copy = coverage.Transcription("AN3935", "both", ("§2",), ("5.82",), (row,))
    got = coverage.settings([copy], [], made).set_index("section")["settings"]
    assert (got["2 Calculating Bandwidth"], got["2.1 Write Transfer Estimates"]) == (0, 1)
    plain = coverage.Transcription("AN3935", "both", ("§2",), ("5.82",), (("rate", "5.82", ("", "at 5.82")),))
    got = coverage.settings([plain], [], made).set_index("section")["settings"]
    assert (got["2 Calculating Bandwidth"], got["2.1 Write Transfer Estimates"]) == (1, 0)  # the first, as before
    by_column = coverage.Transcription("AN3935", "both", ("§2",), ("5.82",), (("rate", "5.82", ("§2.1", "x4")),))
    got = coverage.settings([by_column], [], made).set_index("section")["settings"]
    assert (got["2 Calculating Bandwidth"], got["2.1 Write Transfer Estimates"]) == (0, 1)  # its section column


def test_a_row_that_names_its_section_counts_there_by_number_first_and_nowhere_else():
    made = made_census()

    def counted(row):
        copy = coverage.Transcription("AN3935", "t", ("§1", "§2"), (row[1],), (row,))
        return coverage.settings([copy], [], made).set_index("section")["settings"].to_dict()

    # 2.1 by its number, 2 by its heading's words: the number wins, whatever the document's order
    assert counted(("rate", "5.82", ("§2.1 Calculating Bandwidth", ""))) == {
        "1 Bit Rates": 0, "2 Calculating Bandwidth": 0, "2.1 Write Transfer Estimates": 1}
    # 2.1 prints no 8: a row that says it is printed there counts in no other section the table names
    assert counted(("size", "8", ("§2.1", ""))) == {
        "1 Bit Rates": 0, "2 Calculating Bandwidth": 0, "2.1 Write Transfer Estimates": 0}
    # a row that names none of the table's sections may count in any of them (the first printing its 8)
    assert counted(("size", "8", ("", "8 bytes")))["1 Bit Rates"] == 1


def test_a_keys_printed_form_is_a_setting_whatever_the_keys_name():
    frame = pd.DataFrame({"bytes": [1024], "bytes_as_printed": ["1 K"], "rate": [1.5]})
    frame.attrs["keys"] = ["bytes"]
    assert coverage.setting_columns(frame) == ["bytes", "bytes_as_printed"]


def test_a_number_a_check_holds_is_no_setting_and_counts_once_however_many_tables_hold_it():
    """Section 1 prints 2.91, 14 and 8 once each. A setting column of another table holds the 14 a check
    holds; two tables' cells hold the one printed 2.91."""
    made = made_census()
    copy = coverage.Transcription("AN3935", "s1", ("Table 1",), ("14", "8"), (("rate", "14", ("", "14")),))
    held = [made_check(FIRST, where="Table 1", row="x8", published="14", resource="an3935-other")]
    assert coverage.settings([copy], [], made).set_index("section").at["1 Bit Rates", "settings"] == 1
    assert coverage.settings([copy], held, made).set_index("section").at["1 Bit Rates", "settings"] == 0
    twice = [made_check(FIRST, where="Table 1", row="8 bytes", published="2.91", resource=r) for r in ("a", "b")]
    got = coverage.by_section("AN3935", twice, made, []).set_index("section").loc["1 Bit Rates"]
    assert (got["printed"], got["checked"], got["remaining"]) == (3, 2, 2)  # two cells, one printed number


@pytest.mark.slow
def test_a_result_number_a_check_compares_is_not_counted_as_a_setting():
    """The AM243x UDP table keys its rows by the rate offered, but prints "Max" rates the link reached:
    those the ceiling check compares are results, the others settings."""
    copies = [t for t in coverage.transcriptions() if t.name == "am243x-cpsw-udp"]
    compared = [c for c in checks.collect("tcp-goodput")
                if c.resource == "am243x-cpsw-udp" and c.quantity == "offered rate"]
    assert compared, "the UDP table's Max rates are checked against their ceiling"
    assert all((c.quantity, c.published) in {(title, text) for title, text, _ in copies[0].settings} for c in compared)
    with_checks = coverage.settings(copies, compared)["settings"].sum()
    without = coverage.settings(copies, [])["settings"].sum()
    assert with_checks < without

