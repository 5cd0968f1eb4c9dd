from dataclasses import replace

from goodput import checks
from goodput.core import data
from goodput.render import pages


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


def test_the_errata_page_lists_only_errata_and_the_unexplained_and_counts_the_rest():
    every = checks.collect()
    listed = [c for status in checks.ERRATA for t in [pages.errata_table(status)]
              for c in every if c.status == status and f"#{checks.anchor(c)}\"" in t._repr_html_()]
    assert len(listed) == sum(c.status in checks.ERRATA for c in every)
    rounding = sum(c.status == "rounding" for c in every)
    assert f"{rounding} are off by up to one unit in their last digit" in pages.elsewhere_summary()


def test_the_count_of_the_rest_names_only_the_statuses_there_are(monkeypatch):
    only = [c for c in checks.collect() if c.status in ("ok", "rounding")][:3]
    monkeypatch.setattr(checks, "collect", lambda chapter=None: [replace(only[0], status="spread")] + only)
    text = pages.elsewhere_summary()
    assert "1 differ from other measurements" in text and "convention" not in text
    monkeypatch.setattr(checks, "collect", lambda chapter=None: [c for c in only if c.status == "ok"])
    assert pages.elsewhere_summary() == "Every other published number is reproduced as printed."


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
    assert text.count("Copied verbatim from {ref}`Intel 324611 <source-intel-324611>`, §") == 12
    assert "{ref}`TI SPRAAQ5 <source-spraaq5>`, §4.1 Procedure to Execute the Benchmarks" in text
    assert text.index("## Log excerpts from the documents") < text.index("## Logs of our runs")
    assert "build-times.log" not in text  # the status page's
