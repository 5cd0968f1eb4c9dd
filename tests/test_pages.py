from goodput import checks, data, pages


def test_errata_page_lists_exactly_the_erratum_checks(monkeypatch):
    fake = checks.SourceCheck("line-coding", "AN3935", "Table 9", "x4 MPS 256", "write bandwidth",
                              "Gbit/s", "7.2", 7.5, 0.05, checks.classify("7.2", 7.5), "an example")
    real = checks.collect()
    monkeypatch.setattr(checks, "collect", lambda chapter=None: real + [fake])
    text = pages.errata_markdown()
    errata = [c for c in real if c.status == "erratum"] + [fake]
    assert sum(line.count("printed **") for line in text.splitlines()) == len(errata)
    assert "Table 9" in text and "an example" in text
    assert text.startswith(f"{len(errata)} published numbers")


def test_errata_page_says_so_when_there_is_none(monkeypatch):
    clean = [c for c in checks.collect() if c.status != "erratum"]
    monkeypatch.setattr(checks, "collect", lambda chapter=None: clean)
    assert pages.errata_markdown().startswith("No source check disagrees")


def test_rounding_section_lists_the_truncated_hyperlink_figure():
    text = pages.rounding_markdown()
    assert "35.5" in text and "HyperLink" in text


def test_sources_page_names_every_document_and_table():
    text = pages.sources_markdown()
    for doc in data.documents().values():
        assert doc["title"] in text
    for name in data.names():
        assert f"`{name}`" in text
    assert "{doc}`/notebooks/line-coding` (6)" in text  # AN3935 Table 1: six checks


def test_sources_page_lists_every_log_with_its_source():
    text = pages.logs_markdown()
    for name in ("intel-324611-test3-ahb.log", "intel-324611-example1-symbols.log"):
        assert name in text
    assert text.count("Intel 324611") >= 10
