"""The errata page as a table, and the links between its rows and the chapters' check tables
(the HTML as Python writes it; the built book and the browser: test_errata_browser.py)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from goodput import checks
from goodput.core import chapters
from goodput.render import pages, tables

STATUSES = checks.ERRATA
ID = re.compile(r"[a-z][a-z0-9-]*")


@pytest.fixture(scope="module")
def every_check():
    return checks.collect()


@pytest.fixture(scope="module")
def errata():
    """The errata page's tables (running every check takes seconds: once for the module)."""
    return {status: pages.errata_table(status) for status in STATUSES}


def _row(table, where_starts):
    found = [i for i, w in enumerate(table.frame["where"]) if w.startswith(where_starts)]
    assert len(found) == 1, found
    return found[0]


def test_a_checks_anchor_names_its_published_table_row_quantity_and_unit():
    c = checks.SourceCheck("pcie-packets", "AN3935", "Table 12", "1 K bytes, x4, MPS 256", "calculated",
                           "Gbit/s", "13.47", 13.6533, 0.005, "erratum", "", "an3935-table12")
    assert checks.anchor(c) == "check-an3935-table12-1-k-bytes-x4-mps-256-calculated-gbit-s"
    assert checks.group_anchor([c]) == "erratum-an3935-table12-1-k-bytes-x4-mps-256-calculated-gbit-s"


def test_every_checks_anchor_is_an_html_id_and_no_two_checks_share_one(every_check):
    ids = [checks.anchor(c) for c in every_check]
    assert all(ID.fullmatch(i) for i in ids)
    assert len(set(ids)) == len(ids)


def test_an3935_table_12_follows_the_documents_other_ack_rule_and_is_not_an_erratum(errata):
    table = tables.checks_table("pcie-packets", only_problems=True)
    rows = table.frame[table.frame["row"].str.endswith("x4, MPS 256") & (table.frame["where"] == "Table 12")]
    sizes = ["1 K", "2 K", "4 K", "8 K", "16 K", "32 K"]
    assert rows["row"].tolist() == [f"{s} bytes, x4, MPS 256" for s in sizes]
    assert set(rows["status"]) == {"convention"} and set(rows["published"]) == {"13.47"}
    # one ACK and one UpdateFC per 4 TLPs of any kind: 4 MRd + 4 CplD (20 bytes each) and 2 + 2 DLLPs per 1 KiB
    other = 16 * 1024 / (1024 + 8 * 20 + 2 * 8 + 2 * 8)
    assert all(f"which gives {other:.2f}." in note for note in rows["note"])
    # its calculated column, that is: its measured cells above their ceilings are errata of their own
    assert not any("table12" in a and a.endswith("-calculated-gbit-s") for t in errata.values() for a in t.ids)
    assert any("table12" in a and a.endswith("-ceiling") for a in errata["erratum"].ids)


def test_the_six_statistics_of_one_mistyped_delay_are_one_row(errata):
    table = errata["erratum"]
    i = _row(table, "Test 2 statistic block")
    assert table.cells["cells"][i].count("<a ") == 6
    # the timestamps put access 2 at 1620 ns, and its 4 bytes in 1620 ns are 2469135.80 B/s
    assert table.frame["printed"][i] == "1520.00, 2631578.95"
    assert table.frame["correct"][i] == f"1620.00, {4 / 1620e-9:.2f}"


def test_the_keystone_table_11_efficiencies_are_one_row_each_with_its_own_reason(errata):
    table = errata["erratum"]
    rows = table.frame[table.frame["cells"].str.startswith("Table 11:")]
    # Table 11 prints 84, 80 and 95 %; its own bandwidths give 4341, 4108 and 3954 MB/s of 6400
    assert rows["printed"].tolist() == ["84", "80", "95"]
    assert rows["correct"].tolist() == [f"{100 * b / 6400:.2f}" for b in (4341, 4108, 3954)]
    assert len(set(rows["why"])) == 3


@pytest.mark.parametrize("status", STATUSES)
def test_every_check_of_a_status_is_listed_once_on_its_table_with_a_link_to_its_chapters_row(
        status, errata, every_check):
    table = errata[status]
    html = table._repr_html_()
    links = re.findall(r'href="\.\./notebooks/([a-z0-9-]+)\.html#(check-[a-z0-9-]+)"', html)
    want = [(c.chapter, checks.anchor(c)) for c in every_check if c.status == status]
    assert sorted(links) == sorted(want)
    assert len(set(table.ids)) == len(table.ids) == len(table)
    assert all(f'<tr id="{i}">' in html for i in table.ids)


@pytest.mark.parametrize("status", STATUSES)
def test_an_errata_row_links_its_chapter(status, errata, every_check):
    table = errata[status]
    for c, text, cell in zip(checks.groups(x for x in every_check if x.status == status),
                             table.frame["chapter"], table.cells["chapter"]):
        assert cell == f'<a href="../notebooks/{c[0].chapter}.html">{text}</a>'
        assert chapters.get(c[0].chapter).title.startswith(text)


def test_a_rounding_check_is_one_unit_of_the_printed_digit_away_or_within_its_stated_approximation(every_check):
    for c in (c for c in every_check if c.status == "rounding"):
        unit = float(Decimal(1).scaleb(Decimal(c.published).as_tuple().exponent))
        off = abs(c.model - float(c.published))
        assert off <= unit * (1 + 1e-9) or "around" in c.row, c


def test_a_correct_value_keeps_three_digits_where_the_printed_precision_would_not(errata):
    table = errata["erratum"].frame
    row = table[table["cells"] == "SD (SBL SD performance): appimage read into memory"].iloc[0]
    assert (row["printed"], row["correct"]) == ("15", "6.48")  # the table's own step takes 6.48 ms


def test_every_flagged_row_of_a_chapters_check_table_links_its_errata_row(errata, every_check):
    targets = {i for table in errata.values() for i in table.ids}
    for chapter in dict.fromkeys(c.chapter for c in every_check if c.status in checks.ERRATA):
        html = tables.checks_table(chapter)._repr_html_()
        rows = re.findall(r'<tr id="(check-[a-z0-9-]+)">(.*?)</tr>', html, flags=re.S)
        back = [(a, m.group(1)) for a, body in rows
                if (m := re.search(r'href="\.\./book/errata\.html#([a-z0-9-]+)"', body))]
        flagged = [c for c in every_check if c.chapter == chapter and c.status in checks.ERRATA]
        assert [a for a, _ in back] == [checks.anchor(c) for c in flagged], chapter
        assert {g for _, g in back} <= targets
        assert all(g.startswith(c.status + "-") for c, (_, g) in zip(flagged, back))


def test_selecting_columns_of_a_check_table_keeps_its_ids_and_moves_the_link_to_the_printed_value():
    table = tables.checks_table("srio", only_problems=True)
    shown = table[["row", "published", "model", "note"]]
    assert list(shown.columns) == ["row", "published", "model", "note"]
    html = shown._repr_html_()
    assert html.count('<tr id="check-') == len(table) == 3  # Sec. 7's 18 bytes, Fuller's 10, Table 19's caption
    assert re.search(r'data-label="published"[^>]*><span><a href="\.\./book/errata\.html#erratum-[a-z0-9-]+">18</a>', html)
    with_status = table[["row", "status"]]._repr_html_()
    assert ">erratum</a>" in with_status and "<a href" not in with_status.split('data-label="row"')[1][:60]


def test_a_second_table_of_the_same_checks_can_leave_the_ids_to_the_first():
    html = tables.checks_table("srio", only_problems=True, anchors=False)._repr_html_()
    assert "<tr id=" not in html and "../book/errata.html#" in html


def test_a_check_table_reads_as_text_too():
    table = tables.checks_table("can-fd", resource="linux-can-length")
    assert table["published"].tolist() == table.frame["published"].tolist()
    text = table.to_markdown()
    assert text.splitlines()[0].startswith("| document") and "<" not in text
    assert "<tr" not in repr(table) and "document" in repr(table)
    assert len(table) == 8


def test_table_html_refuses_ids_or_cells_that_do_not_match_the_rows():
    frame = tables.checks_table("spi").frame
    with pytest.raises(ValueError, match="one entry per row"):
        tables.LinkedTable(frame, ids=["a"])
    with pytest.raises(ValueError, match="one entry per row"):
        tables.LinkedTable(frame, cells={"row": ["<b>x</b>"]})


def test_every_check_of_a_chapter_folds_into_a_block_without_ids_that_its_problems_table_carries():
    folded = tables.every_check("srio")
    html = folded._repr_html_()
    n = len(checks.collect("srio"))
    assert html.startswith('<details class="goodput-folded"') and html.rstrip().endswith("</details>")
    assert f"<summary>Every check of this chapter, one per row ({n})</summary>" in html
    assert html.count("<tr>") == n + 1 and "<tr id=" not in html  # the head and one row per check
    assert repr(folded).startswith(f"Every check of this chapter, one per row ({n})\n")


def test_a_check_table_of_one_kind_shows_only_that_kind_and_refuses_an_unknown_one():
    table = tables.checks_table("tcp-goodput", kind="calculated")
    want = [c for c in checks.collect("tcp-goodput") if c.kind == "calculated"]
    assert len(table) == len(want) > 0
    with pytest.raises(ValueError, match="kind 'measured' is none of"):
        tables.checks_table("tcp-goodput", kind="measured")
