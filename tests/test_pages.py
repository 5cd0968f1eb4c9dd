from goodput import checks, data, pages


def test_errata_page_lists_exactly_the_erratum_checks(monkeypatch):
    fake = checks.SourceCheck("line-coding", "AN3935", "Table 9", "x4 MPS 256", "write bandwidth",
                              "Gbit/s", "7.2", 7.5, 0.05, checks.classify("7.2", 7.5), "an example", "an3935-table9")
    real = checks.collect()
    monkeypatch.setattr(checks, "collect", lambda chapter=None: real + [fake])
    table = pages.errata_table()
    errata = [c for c in real if c.status == "erratum"] + [fake]
    assert table._repr_html_().count('#check-') == len(errata)
    last = table.frame.iloc[-1]
    assert (last["where"], last["cells"], last["printed"], last["correct"], last["why"]) == (
        "Table 9, write bandwidth (Gbit/s)", "x4 MPS 256", "7.2", "7.5", "an example")
    assert pages.errata_summary().startswith(f"{len(errata)} published numbers")


def test_errata_page_says_so_when_there_is_none(monkeypatch):
    clean = [c for c in checks.collect() if c.status != "erratum"]
    monkeypatch.setattr(checks, "collect", lambda chapter=None: clean)
    assert pages.errata_summary().startswith("No source check disagrees")
    assert len(pages.errata_table()) == 0


def test_rounding_section_lists_the_truncated_hyperlink_figure():
    table = pages.errata_table("rounding").frame
    row = table[table["where"].str.startswith("§8 HyperLink Throughput")].iloc[0]
    assert (row["printed"], row["correct"]) == ("35.5", "35.6")  # 4 x 10 x 8/9 = 35.56


def test_sources_page_gives_every_document_a_heading_with_its_citation_and_its_tables():
    text = pages.sources_markdown()
    for key in data.documents():
        assert f"({pages.source_label(key)})=\n## {pages.source_heading(key)}\n" in text
        assert data.citation(key) in text
    for name in data.names():
        assert f"`{name}`" in text
    assert "{doc}`/notebooks/line-coding` (6)" in text  # AN3935 Table 1: six checks
    sprabk5 = text.index("## TI SPRABK5: Throughput Performance Guide for KeyStone II Devices")
    assert sprabk5 < text.index("`keystone2-table1`") < text.index("## RapidIO Part 6")


def test_sources_page_gives_every_log_a_heading_with_its_source():
    text = pages.logs_markdown()
    for name in ("intel-324611-test3-ahb.log", "intel-324611-example1-symbols.log", "memcopy.log"):
        assert f"\n### {name}\n" in text
    assert text.count("Copied verbatim from {ref}`Intel 324611 <source-intel-324611>`, §") == 10
    assert "{ref}`TI SPRAAQ5 <source-spraaq5>`, §4.1 Procedure to Execute the Benchmarks" in text
    assert text.index("## Log excerpts from the documents") < text.index("## Logs of our runs")
    assert "build-times.log" not in text  # the status page's
