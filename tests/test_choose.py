"""The comparison of every link: each family held to its chapter's numbers, the solver, the command."""

from __future__ import annotations

import json

import pytest
from command import run

from goodput.analysis import choose
from goodput.core.errors import ParameterError
from goodput.models import can, hyperlink, pcie, spi, srio, tcp, usb
from goodput.render.chapters import choose_a_link as page

SIZES = (1, 7, 64, 100, 255, 256, 300, 1000, 1500, 4096, 9000, 65536, 1 << 20)


@pytest.mark.parametrize("c", choose.CATALOG, ids=lambda c: c.label)
def test_every_configuration_gives_its_chapters_goodput(c):
    for n in SIZES:
        assert choose.goodput_mbyte_s(c, n) == pytest.approx(c.family.numeric(c.settings, n), rel=1e-9)


def test_the_families_numbers_are_the_chapters_own_functions():
    """Spot values straight from each chapter's numeric function, in MB/s."""
    def mb(key, n, **values):
        return choose.goodput_mbyte_s(choose.config(key, **values), n)

    assert mb("pcie", 4096, generation=2, lanes=4) == pytest.approx(
        125 * pcie.goodput_gbit_s("write", pcie.Link(gen=2, lanes=4), 4096))
    assert mb("srio", 300, line_rate_gbaud=5, lanes=4, transaction=1) == pytest.approx(
        125 * srio.goodput_gbit_s("nread", 5, 4, 300))
    assert mb("hyperlink", 1000) == pytest.approx(125 * hyperlink.goodput_gbit_s(12.5, 4, 1000))
    assert mb("usb", 65536, generation=1) == pytest.approx(125 * usb.goodput_gbit_s(generation=1, transfer_bytes=65536))
    assert mb("ethernet", 1460, line_rate_mbit_s=100) == pytest.approx(tcp.evaluate(1460, 100)["goodput_mbit_s"] / 8)
    assert mb("ethernet", 2000, stack=2) == pytest.approx(tcp.udp_evaluate(2000, 1000)["goodput_mbit_s"] / 8)
    assert mb("spi", 400, word_bits=8) == pytest.approx(400 / spi.transfer_time_us(400, 8, 50, 160, 1))
    assert mb("can", 100) == pytest.approx(100 / can.transfer_time_us(100, False, 1, 5))


def test_the_parts_of_a_transfer_add_up_to_its_time():
    for c in choose.CATALOG:
        for n in (64, 4096):
            parts = choose.breakdown_us(c, n)
            assert sum(parts.values()) == pytest.approx(choose.time_us(c, n))
            assert all(v >= -1e-12 for v in parts.values())
            assert n / parts["data"] >= choose.goodput_mbyte_s(c, n)


def test_the_solver_sorts_what_meets_first_and_names_the_binding_limit():
    rows = choose.solve(100, 4096, 50)
    meets = [r["meets"] for r in rows]
    assert meets == sorted(meets, reverse=True) and any(meets) and not all(meets)
    for r in rows:
        c = choose.config(r["family"], **r["settings"])
        assert r["goodput_mbyte_s"] == pytest.approx(c.family.numeric(c.settings, 4096), rel=1e-9)
        assert r["margin"] == pytest.approx(r["goodput_mbyte_s"] / 100 - 1)
        assert r["meets"] == (r["goodput_mbyte_s"] >= 100 and r["time_us"] <= 50)
    slow = next(r for r in rows if r["link"] == "Ethernet 100 Mbit/s, TCP/IPv4")
    assert slow["binding"] == choose.RAW_RATE  # 12.5 MB/s of raw rate cannot carry 100 MB/s
    late = next(r for r in rows if r["link"] == "Ethernet 1 Gbit/s, TCP/IPv4")
    assert choose.solve(100, 4096, 30)[[x["link"] for x in choose.solve(100, 4096, 30)].index(late["link"])][
        "binding"] == choose.LATENCY  # 4 KiB take 34.6 us at 1 Gbit/s
    small = choose.binding(choose.config("pcie", generation=3, lanes=4), 64)
    large = choose.binding(choose.config("pcie", generation=2, lanes=4), 65536)
    assert small.startswith("TLP headers") and large == "line code"


def test_configurations_round_trip_through_text_and_bad_text_is_named():
    text = choose.encode(choose.CATALOG)
    assert choose.decode(text) == list(choose.CATALOG)
    with pytest.raises(ParameterError, match="lanes"):
        choose.decode("pcie:3:3:256:0")
    with pytest.raises(ParameterError, match="family"):
        choose.decode("wifi:1")
    with pytest.raises(ParameterError, match="links"):
        choose.decode("srio:5")


def test_impossible_requirements_are_refused():
    with pytest.raises(ParameterError, match="rate_mbyte_s"):
        choose.solve(0, 64)
    with pytest.raises(ParameterError, match="size_bytes"):
        choose.solve(10, 0)
    with pytest.raises(ParameterError, match="size_bytes"):
        choose.goodput_mbyte_s(choose.CATALOG[0], (1 << 20) + 1)


def test_goodput_choose_prints_and_writes_json():
    p = run("choose", "--rate-mbyte-s", "100", "--size", "4096", "--latency-us", "50")
    assert p.returncode == 0, p.stderr
    assert "configurations meet it" in p.stdout and "binding limit" in p.stdout
    p = run("choose", "--rate-mbyte-s", "1", "--size", "64", "--json")
    r = json.loads(p.stdout)
    assert r["size_bytes"] == 64 and len(r["configurations"]) == len(choose.CATALOG)
    assert r["meeting"] == sum(c["meets"] for c in r["configurations"])


def test_goodput_choose_refuses_bad_arguments_with_usage():
    p = run("choose", "--rate-mbyte-s", "-1", "--size", "64")
    assert p.returncode == 2 and "rate_mbyte_s" in p.stderr
    p = run("choose", "--size", "64")
    assert p.returncode == 2 and "--rate-mbyte-s" in p.stderr


def test_the_chart_rows_are_what_the_page_script_builds():
    rows = page.curve_rows(page.DEFAULT_LINKS)
    assert [r["link"] for r in rows] == [c.label for c in page.DEFAULT_LINKS]
    fam = {f["key"]: f for f in page.families()}
    for c, r in zip(page.DEFAULT_LINKS, rows):
        f = fam[c.key]
        labels = [next(o["label"] for o in s["options"] if o["value"] == c.settings[s["name"]]) for s in f["settings"]]
        assert r["link"] == f["title"] + " " + ", ".join(labels)  # the rule goodput-live.js follows
        assert r["family"] == f["index"] and r["size_bytes"] == page.SIZES
    assert [r["order"] for r in rows] == list(range(len(rows)))


def test_the_measured_points_name_their_source():
    m = page.measured()
    assert set(m["family"]) <= set(choose.FAMILIES)
    assert m["source"].str.len().min() > 0 and (m["mbyte_s"] > 0).all()
    assert {"AN3935 Table 9", "our run: shaped-100m logs"} <= set(m["source"])


def test_the_pcie_family_offers_every_width_the_model_takes():
    # the chooser took x1 to x16 while the packet model and the command take x32 too
    lanes = next(s for s in choose.FAMILIES["pcie"].settings if s.name == "lanes")
    assert [v for v, _ in lanes.options] == list(pcie.LANES)
    assert choose.decode("pcie:3:32:256:0")[0].row()["lanes"] == 32


def test_goodput_choose_answers_over_the_links_of_a_page_address_first():
    # the page's links= list, replayed: a PCIe gen 4 x8 is none of the catalogue's
    text = "pcie:4:8:256:0,can:0.5:2"
    mine = choose.decode(text)
    assert mine[0] not in choose.CATALOG
    p = run("choose", "--rate-mbyte-s", "400", "--size", "65536", "--latency-us", "200", "--links", text, "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    want = choose.solve(400, 65536, 200, mine)
    assert [r["link"] for r in got["yours"]] == [r["link"] for r in want] == [c.label for c in mine]
    assert [r["goodput_mbyte_s"] for r in got["yours"]] == pytest.approx([r["goodput_mbyte_s"] for r in want])
    assert got["yours_meeting"] == 1 and got["yours"][0]["meets"] and not got["yours"][1]["meets"]
    assert len(got["configurations"]) == len(choose.CATALOG)
    text_out = run("choose", "--rate-mbyte-s", "400", "--size", "65536", "--links", text).stdout
    assert text_out.splitlines()[0].endswith("1 of your 2 links meet it")


def test_goodput_choose_with_an_empty_list_says_what_to_add_and_refuses_a_bad_one():
    p = run("choose", "--rate-mbyte-s", "400", "--size", "65536", "--links", "")
    assert p.returncode == 0, p.stderr
    assert "your list (--links) has no links; give each as its family and settings, e.g. pcie:4:8:256:0" in p.stdout
    bad = run("choose", "--rate-mbyte-s", "400", "--size", "65536", "--links", "pcie:4:8")
    assert bad.returncode == 2 and "pcie and its 4 settings" in bad.stderr and bad.stdout == ""


def test_pcie_reads_are_the_read_chapters_model_not_the_writes():
    # gen 2 x4: 5 GT/s x 4 x 8/10 = 16 Gbit/s, 0.5 ns a byte. A 4096-byte read with MRRS 512 and MPS 256: 8
    # requests of 8 + 12 bytes, 16 completions of 256 + 8 + 12: 160 + 4416 bytes, 2288 ns, and 500 ns in the
    # completer: 4096 bytes in 2788 ns, 1469.15 MB/s; writes of the same size take 2240 ns, 1828.57 MB/s
    read = choose.config("pcie", generation=2, lanes=4, transaction=1)
    write = choose.config("pcie", generation=2, lanes=4)
    assert choose.goodput_mbyte_s(read, 4096) == pytest.approx(4096 / 2.788, rel=1e-12)
    assert choose.goodput_mbyte_s(write, 4096) == pytest.approx(1828.5714285714, rel=1e-10)
    assert choose.breakdown_us(read, 4096)["completer's 500 ns"] == pytest.approx(0.5)
    assert choose.binding(read, 4096) == "completer's 500 ns"


def test_a_pcie_point_is_one_direction_and_its_share_is_worked_by_hand():
    # AN3935 Table 9: MSC8156 (gen 1) x4 writes of 128 bytes, MPS 256, both directions at once: 8.52 Gbit/s in
    # all, 532.5 MB/s each way. The model: 128 + 20 (header, framing) + 16 (an ACK and an UpdateFC for the one
    # TLP) = 164 byte times at 1000 MB/s after the line code: 780.49 MB/s. Measured over model: 68.23 %.
    p = page.derating_points()
    row = p[(p["family"] == "pcie") & (p["size_bytes"] == 128) & p["what"].str.contains("MPS 256")].iloc[0]
    assert row["mbyte_s"] == pytest.approx(532.5)
    assert row["model_mbyte_s"] == pytest.approx(1000 * 128 / 164, rel=1e-5)
    assert row["ratio"] == pytest.approx(532.5 / (1000 * 128 / 164), rel=1e-5)


def test_each_family_is_derated_by_the_median_share_of_its_named_points():
    found = page.derating()
    # SPI: the six MCSPI rows (polled and interrupt, 8-, 16- and 32-bit words); the median of six is the mean
    # of the middle two
    p = page.derating_points()
    spi = sorted(p[p["family"] == "spi"]["ratio"])
    assert len(spi) == 6 and found["spi"]["points"] == 6
    assert found["spi"]["ratio"] == pytest.approx((spi[2] + spi[3]) / 2, rel=1e-5)
    assert found["spi"]["sources"] == ["AM243x MCU+ SDK MCSPI performance"]
    # AN3935's reads are a DMA engine's, many in flight; the chooser's reads are one at a time: not compared
    assert not p[p["family"] == "pcie"]["config"].str.endswith(":1").any()
    assert set(found) == {"pcie", "srio", "ethernet", "spi"}  # USB, HyperLink and CAN FD: none on these axes
    table = page.derating_table().set_index("link")
    assert table.loc["USB", "measured / model"] == "not derated"


def test_the_solver_answers_with_the_ceiling_or_the_derated_expectation():
    calc = page.calculation()
    share = page.derating()["pcie"]["ratio"]
    case = next(c for c in calc.records() if c["link"] == "PCIe gen 3, x4, MPS 256, writes")
    ceiling = calc.evaluate(calc.input_values(size_bytes=65536), case)
    expected = calc.evaluate(calc.input_values(size_bytes=65536, expect=1), case)
    assert expected["goodput_mbyte_s"] == pytest.approx(share * ceiling["goodput_mbyte_s"], rel=1e-12)
    assert expected["time_us"] == pytest.approx(ceiling["time_us"] / share, rel=1e-12)
    # a family the book measured none of keeps its ceiling
    usb = next(c for c in calc.records() if c["family"] == list(choose.FAMILIES).index("usb"))
    assert calc.evaluate(calc.input_values(expect=1), usb)["derating"] == 1
