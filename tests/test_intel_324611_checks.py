"""Intel 324611's figures outside the pcie-reads chapter: §3.1's full-duplex rate (line-coding), and
§2, §5 and §6 (pcie-measured): each reproduced or flagged, and a wrong figure caught."""

import zlib

import pandas as pd
import pytest
from mutations import edited_cell, reprinted, with_printed

from goodput import checks
from goodput.core import data
from goodput.core.errors import LogFormatError
from goodput.logs import dma_demo, kbuild
from goodput.models import pcie_crc
from goodput.models import pcie_transactions as pt
from goodput.sources.intel_324611 import coding as intel_coding
from goodput.sources.intel_324611 import measured


def _edited(name, column, index, text):
    return edited_cell(data.load(name), index, column, text)


def test_the_full_duplex_figure_is_both_directions_of_250_mbyte_s():
    got = [c for c in checks.collect("line-coding") if c.resource == "intel-324611-s3-1"
           and c.quantity == "both directions together"]
    assert [(c.published, c.model, c.status) for c in got] == [("500", 2 * 250.0, "ok")]


def test_the_restated_byte_rates_are_one_direction_after_8b10b():
    got = {c.quantity: c for c in checks.collect("line-coding") if c.resource == "intel-324611-s3-1"}
    for quantity in ("in each direction at once (full-duplex note)", "throughput after physical layer"):
        assert (got[quantity].model, got[quantity].status) == (2.5e3 * 8 / 10 / 8, "ok")


@pytest.mark.parametrize("column", ["each_direction_mbyte_s", "after_physical_layer_mbyte_s"])
def test_a_wrong_restated_byte_rate_is_caught(column):
    got = intel_coding.intel_restated_rate_checks(_edited("intel-324611-s3-1", column, 0, "500"))
    assert sorted(c.status for c in got) == ["erratum", "ok"]


def test_a_wrong_full_duplex_figure_is_caught():
    got = intel_coding.intel_full_duplex_checks(_edited("intel-324611-s3-1", "full_duplex_mbyte_s", 0, "250"))
    assert [c.status for c in got] == ["erratum"]


# --- §2, §5 and §6: the dma-demo output, the utilization estimator, Table 3, the summary ---------------


DEMO = pt.published_log("intel-324611-s2-dma-demo.log")
MEASURED = checks.collect("pcie-measured")
#: The §2/§5/§6 checks that are not ok, by (resource, row, kind), with what shows it.
NOT_OK = {
    # Table 3 prints 110 MB/s; the demo's DMA controller measured 110.85 MByte/sec: cut, not rounded
    ("intel-324611-table3", "DMA FPGA->MEM", "consistency"): "rounding",
    # Table 3's CPU rows against §4: 4-byte writes measured 30.69 (Test 3) and 32.91 MB/s (Test 14),
    # 4-byte reads 2.56 to 2.63 MB/s (Tests 2, 4, 15)
    ("intel-324611-table3", "CPU MEM->FPGA", "consistency"): "spread",
    ("intel-324611-table3", "CPU FPGA->MEM", "consistency"): "spread",
    # §6's 'in the order of 50MB/s' (Table 3: 48) and 'in the order of 1500ns' (Test 2: 1520)
    ("intel-324611-s2-s6-figures", "§6: DMA reads, around", "consistency"): "rounding",
    ("intel-324611-s2-s6-figures", "§6: Test 2 read round trip, around", "consistency"): "rounding",
}
INTEL = [c for c in MEASURED if c.document == "Intel 324611"]


def test_every_s2_s5_s6_figure_is_checked_with_its_status():
    assert {(c.resource, c.row, c.kind): c.status for c in INTEL if c.status != "ok"} == NOT_OK
    per_resource = {r: sum(c.resource == r for c in INTEL) for r in
                    ("intel-324611-s2-utilization", "intel-324611-table3", "intel-324611-s2-s6-figures",
                     "logs/published/intel-324611-s2-dma-demo.log")}
    # 4 percentages; 2 checks per Table 3 cell; 16 figures; the buffer and its last address, 4 durations and 4
    # rates, 2 x 2 TSC-DMA,
    # the transfer's CRC, and the 3 CPU-only steps and the TSC frequency (demo_step_checks)
    assert per_resource == {"intel-324611-s2-utilization": 4, "intel-324611-table3": 8,
                            "intel-324611-s2-s6-figures": 16, "logs/published/intel-324611-s2-dma-demo.log": 19}
    by_row = {(c.resource, c.row, c.kind): c for c in INTEL}
    # 128 bytes in 128 + 20 bytes at 250 MB/s; 4 bytes in 4 + 20
    assert by_row[("intel-324611-table3", "DMA FPGA->MEM", "ceiling")].model == pytest.approx(250 * 128 / 148)
    assert by_row[("intel-324611-table3", "CPU MEM->FPGA", "ceiling")].model == pytest.approx(250 * 4 / 24)
    # 0xb7673fff - 0x97fb4000 + 1 bytes
    assert by_row[("logs/published/intel-324611-s2-dma-demo.log", "dma buf line", "consistency")].model == 527171584 / 1e6


@pytest.mark.parametrize("name, column, index, text, row, kind", [
    ("intel-324611-s2-utilization", "used_percent", 0, "20", "ALUTs", "consistency"),      # 12803 / 72176
    ("intel-324611-table3", "throughput_mbyte_s", 1, "250", "DMA FPGA->MEM", "ceiling"),    # above 216.2
    ("intel-324611-table3", "throughput_mbyte_s", 3, "3.5", "CPU FPGA->MEM", "consistency"),  # §4: 2.56-2.63
    ("intel-324611-s2-s6-figures", "value", 2, "500", "§5.5: reserved RAM", "prose"),        # 0x20000000 bytes
    ("intel-324611-s2-s6-figures", "value", 6, "500", "§6: PCIe link capacity", "calculated"),
])
def test_a_wrong_s2_s5_s6_figure_is_caught(name, column, index, text, row, kind):
    demo, ahb = measured._intel_inputs()
    tables = {n: data.load(n) for n in ("intel-324611-table3", "intel-324611-s2-utilization",
                                         "intel-324611-s2-s6-figures")}
    tables[name] = _edited(name, column, index, text)
    got = (measured.utilization_checks(tables["intel-324611-s2-utilization"])
           + measured.table3_checks(tables["intel-324611-table3"], demo, ahb["Test 3"], ahb["Test 2"],
                                    data.load("intel-324611-test14"), data.load("intel-324611-test15"),
                                    data.load("intel-324611-s4-6-s4-7-trace-figures"))
           + measured.s2_s6_figure_checks(tables["intel-324611-s2-s6-figures"], demo, tables["intel-324611-table3"],
                                          data.load("intel-324611-test14"), ahb["Test 2"],
                                          data.load("intel-324611-s4-figures")))
    assert next(c for c in got if c.row == row and c.kind == kind).status == "erratum"


def test_a_demo_output_whose_numbers_disagree_is_caught():
    text = DEMO.read_text().replace("-> 4.76 sec, 110.85", "-> 4.86 sec, 110.85").replace(
        "-> 10.93 sec, 48.23", "-> 10.93 sec, 248.23")
    got = {(c.row, c.quantity, c.kind): c.status for c in measured.dma_demo_checks(dma_demo.parse_text(text, "x.log"))}
    assert got[("FPGA->MEM, read call, DMA", "duration", "consistency")] == "erratum"
    assert got[("MEM->FPGA, write call, TSC", "rate", "ceiling")] == "erratum"
    assert got[("MEM->FPGA, TSC against DMA", "rate", "consistency")] == "erratum"


def test_the_buffers_last_address_is_its_first_plus_the_iomem_buffer_and_a_wrong_one_is_caught():
    c = next(c for c in measured.dma_demo_checks(dma_demo.parse(DEMO)) if c.quantity == "last address of the buffer")
    assert (c.published, c.status, c.verifies) == ("0xb7673fff", "ok", 1)
    wrong = DEMO.read_text().replace("0x97fb4000-0xb7673fff", "0x97fb4000-0xb7683fff")
    c = next(c for c in measured.dma_demo_checks(dma_demo.parse_text(wrong, "x.log"))
             if c.quantity == "last address of the buffer")
    assert c.status == "erratum" and c.model == 0xb7673fff


def test_modpost_counts_the_one_module_the_build_links_and_a_wrong_count_is_caught():
    build = kbuild.parse(pt.published_log(measured.BUILD_LOG))
    assert (build.compiled, build.linked, build.modpost) == (
        ["/home/irp/dma-demo-1.0/kernel-module/dma_demo.o"], ["/home/irp/dma-demo-1.0/kernel-module/dma_demo.ko"], "1")
    assert [(c.published, c.model, c.status) for c in measured.build_checks(build)] == [("1", 1, "ok")]
    text = pt.published_log(measured.BUILD_LOG).read_text()
    wrong = measured.build_checks(kbuild.parse_text(text.replace("MODPOST 1 modules", "MODPOST 2 modules"), "x.log"))
    assert [c.status for c in wrong] == ["erratum"]


@pytest.mark.parametrize("old, new, words, line", [
    ("MODPOST 1 modules", "MODPOST one modules", "not a MODPOST line", 22),
    ("MODPOST 1 modules", "MODPOST 1 modules\nMODPOST 1 modules", "a second MODPOST line", 23),
    ("MODPOST 1 modules", "", "no 'MODPOST' line", 1),
    ("LD [M] /home", "LD [M]", "not a module's compile or link line", 24),
])
def test_a_malformed_build_output_names_its_line(old, new, words, line):
    text = pt.published_log(measured.BUILD_LOG).read_text().replace(old, new)
    with pytest.raises(LogFormatError, match=words) as info:
        kbuild.parse_text(text, "build.log")
    assert info.value.line_number == line


def test_the_dma_demo_output_parses_into_its_buffer_and_results():
    demo = dma_demo.parse(DEMO)
    assert (demo.first_address, demo.last_address, demo.size_mbyte) == (0x97FB4000, 0xB7673FFF, "527.17")
    r = demo.results
    assert list(r["mbyte_s"]) == ["221.74", "31.49", "48.23", "48.24", "221.80", "110.83", "110.85"]
    assert list(r["seconds"]) == ["", "", "10.93", "10.93", "", "4.76", "4.76"]
    assert list(r["test"]) == [1, 1, 1, 1, 2, 2, 2]


GOOD = DEMO.read_text()


@pytest.mark.parametrize("old, new, words, named", [
    ("size:527.17 MByte", "size:lots MByte", "not a DMA buffer line", "dma buf:"),
    ("-> 10.93 sec, 48.23 MByte/sec.", "-> 10.93 s, 48.23 MByte/sec.", "not a result line", "-> 10.93 s"),
    ("Test 2: DMA FPGA->Mem", "Test two: DMA FPGA->Mem", "not a test heading", "Test two"),
    ("* Calculating CRC of dma_buf", "Calculating CRC of dma_buf", "a result without a step", "-> 31.49"),
    ("Test 1: DMA Mem->FPGA", "Tests: DMA Mem->FPGA", "a step outside any test", "* Initializing"),
])
def test_a_malformed_demo_output_names_its_line(old, new, words, named):
    text = GOOD.replace(old, new, 1)
    assert text != GOOD
    with pytest.raises(LogFormatError, match=words) as info:
        dma_demo.parse_text(text, "broken.log")
    assert str(info.value).startswith(f"broken.log:{info.value.line_number}: ")
    assert text.splitlines()[info.value.line_number - 1].startswith(named)


def test_a_demo_output_without_its_buffer_line_or_not_utf_8_is_refused(tmp_path):
    with pytest.raises(LogFormatError, match="no 'dma buf:' line"):
        dma_demo.parse_text(GOOD.replace("dma buf:", "buffer:"), "nobuf.log")
    bad = tmp_path / "bad.log"
    bad.write_bytes(GOOD.encode().replace(b"TSC frequency", b"TSC \xff frequency"))
    with pytest.raises(LogFormatError, match="is not UTF-8"):
        dma_demo.parse(bad)
    (tmp_path / "empty.log").write_bytes(b"")
    with pytest.raises(LogFormatError, match="the file is empty"):
        dma_demo.parse(tmp_path / "empty.log")


# --- §5.1: the DMA demo's CRC ----------------------------------------------------------------------------

def test_the_crc_is_ethernets_and_every_printed_term_is_checked():
    # the generator the checks hold the text to is Ethernet's CRC-32, as zlib computes it
    sample = bytes(range(40))
    assert pcie_crc.crc(sample, pcie_crc.LCRC_POLYNOMIAL, 32) == zlib.crc32(sample).to_bytes(4, "little")
    got = [c for c in MEASURED if c.resource == "intel-324611-s5-1-crc"]
    assert len(got) == len(data.load("intel-324611-s5-1-crc")) == 16
    assert {(c.kind, c.status, c.exact) for c in got} == {("prose", "ok", True)}
    assert [c.model for c in got if c.quantity == "polynomial term"] == [
        32, 26, 23, 22, 16, 12, 11, 10, 8, 7, 5, 4, 2, 1, 0]
    assert measured.crc_terms(0x1021, 16) == [16, 12, 5, 0]  # CRC-16-CCITT
    with pytest.raises(ValueError, match="generator"):
        measured.crc_terms(1 << 16, 16)


@pytest.mark.parametrize("index, text, row", [
    (0, "16", "CRC width"),
    (3, "24", "term 3 of the polynomial"),   # x^23
    (15, "3", "term 15 of the polynomial"),  # x^0
])
def test_a_wrong_crc_term_is_caught(index, text, row):
    wrong = edited_cell(data.load("intel-324611-s5-1-crc"), index, "exponent", text)
    got = {c.row: c.status for c in measured.crc_polynomial_checks(wrong)}
    assert got[row] == "erratum"
    assert sum(s != "ok" for s in got.values()) == 1


def test_a_term_the_generator_lacks_is_caught():
    table = data.load("intel-324611-s5-1-crc")
    extra = pd.concat([table, table.tail(1)], ignore_index=True)
    with_printed(extra, {column: [*cells, cells[-1]] for column, cells in table.attrs["printed"].items()})
    got = measured.crc_polynomial_checks(extra)
    assert (got[-1].model, got[-1].status) == (-1, "erratum")


# --- §5.4 and §5.5: the addresses of the mapping and the DMA buffer ------------------------------------------

def test_every_s5_address_is_checked_from_the_settings():
    got = {c.row: c for c in MEASURED if c.resource == "intel-324611-s5-addresses"}
    assert len(got) == len(data.load("intel-324611-s5-addresses")) == 9
    assert {(c.kind, c.status, c.exact) for c in got.values()} == {("prose", "ok", True)}
    # 1 GiB of RAM behind AHB 0x40000000; the top 512 MiB reserved
    assert got["§5.4: AHB address of the middle of the RAM"].model == 0x40000000 + 2 ** 29
    assert got["§5.5: last address of the reserved upper part of the RAM"].model == 2 ** 30 - 1
    assert got["§5.5: reserved size, power of two"].model == 29


@pytest.mark.parametrize("index, text", [
    (1, "0x50000000"),   # AHB 0x40000000 + 0x20000000
    (2, "0x60000000"),   # the AHB address, not the physical one
    (3, "32"),           # 1 GiB is 2^30
    (6, "0x3FFFFFFE"),   # the last byte of 1 GiB
])
def test_a_wrong_s5_address_is_caught(index, text):
    table = data.load("intel-324611-s5-addresses")
    wrong = reprinted(table, index, "value", text)
    got = [c.status for c in measured.s5_address_checks(wrong)]
    assert got[index] == "erratum" and got.count("erratum") == 1


def test_an_address_outside_the_mapping_is_refused():
    with pytest.raises(ValueError, match="outside the 1 GiB"):
        measured.ahb_address(2 ** 30)
    with pytest.raises(ValueError, match="outside the PCIe slave range"):
        measured.physical_address(0x80000000)


# --- §2: the CRC the dma-demo calls OK -------------------------------------------------------------------

def test_the_transfer_crc_the_demo_calls_ok_is_its_reference_and_a_wrong_one_is_caught():
    demo = dma_demo.parse(DEMO)
    assert [(c["kind"], c["crc"]) for c in demo.crcs] == [("reference", "0x1d7c118c"), ("transfer", "0x1d7c118c")]
    got = [c for c in measured.dma_demo_checks(demo) if c.quantity == "CRC the FPGA computed"]
    assert [(c.model, c.status, c.exact) for c in got] == [(0x1D7C118C, "ok", True)]
    wrong = DEMO.read_text().replace("(crc=0x1d7c118c)", "(crc=0x1d7c118d)")
    got = [c for c in measured.dma_demo_checks(dma_demo.parse_text(wrong, "x.log")) if c.quantity == "CRC the FPGA computed"]
    assert [c.status for c in got] == ["erratum"]
    # a CRC the program does not call OK is no claim that it matches
    failed = DEMO.read_text().replace("CRC [OK] (crc=0x1d7c118c)", "CRC [FAILED] (crc=0x1d7c118d)")
    assert not [c for c in measured.dma_demo_checks(dma_demo.parse_text(failed, "x.log")) if c.quantity.startswith("CRC")]


# --- §2, §3.6, §4.18, §5.5, §5.8, §6: the figures around the dma-demo's runs, and the CPU-only steps --------

FIGURES = "intel-324611-measured-figures"


def _edited_text(table, index, column, text):
    """``table`` with a text column's cell printed, and read, as ``text`` (``edited_cell`` for a string column)."""
    return edited_cell(table, index, column, text, value=text)


def _figure_checks(table):
    demo, _ = measured._intel_inputs()
    return measured.measured_figure_checks(table, demo, data.load("intel-324611-table3"),
                                           data.load("intel-324611-s2-s6-figures"))


def test_every_measured_figure_is_checked_and_holds():
    got = {c.quantity: c for c in MEASURED if c.resource == FIGURES}
    assert len(got) == len(data.load(FIGURES)) == 8
    assert {c.status for c in got.values()} == {"ok"}
    nbytes = 0xB7673FFF - 0x97FB4000 + 1
    # the steps of the -3 -4 run: two fills and a CRC at their rates, the two transfers as the TSC timed them
    steps = nbytes * (1 / 221.74e6 + 1 / 31.49e6 + 1 / 221.80e6) + 10.93 + 4.76
    assert got["run time of dma-demo with the DMA tests only, approx."].model == pytest.approx(steps)
    # without options: the same steps again for the CPU tests, their transfers at Table 3's 32 and 2.5 MB/s
    again = nbytes * (1 / 221.74e6 + 1 / 31.49e6 + 1 / 221.80e6 + 1 / 32e6 + 1 / 2.5e6)
    assert got["run time of dma-demo without parameters, approximately"].model == pytest.approx((steps + again) / 60)
    assert got["memory the kernel keeps (mem=)"].model == 512
    assert got["start of the RAM memmap= reserves"].model == 0x20000000
    assert got["minimum time of a TSC read, about"].model == pytest.approx(1 / 1.6)
    assert got["reserved RAM, slightly less than"].model == (0x3F6BFFFF - 0x20000000 + 1) / 2 ** 20
    assert got["bandwidth of the PCIe connection"].model == 250


@pytest.mark.parametrize("index, text, quantity", [
    (0, "256", "memory the kernel keeps (mem=)"),                   # 1 GiB less 512 MiB
    (1, "0x10000000", "start of the RAM memmap= reserves"),         # the reservation starts at 512 MiB
    (2, "30", "run time of dma-demo with the DMA tests only, approx."),  # its steps alone take 37 s
    (3, "500", "bandwidth of the PCIe connection"),                 # one direction
    (4, "0.5", "minimum time of a TSC read, about"),                # below one TSC period
    (5, "500", "reserved RAM, slightly less than"),                 # /proc/iomem's buffer is 502.75 MiB
    (6, "2", "run time of dma-demo without parameters, approximately"),  # the CPU reads alone take 3.5 min
    (7, "900", "latency through the AHB-PCIe core itself (simulation), about"),  # more than the 750 ns write
])
def test_a_wrong_measured_figure_is_caught(index, text, quantity):
    table = data.load(FIGURES)
    assert table.loc[index, "quantity"] == quantity
    got = {c.quantity: c.status for c in _figure_checks(_edited_text(table, index, "value", text))}
    assert got[quantity] == "erratum"
    assert sum(s != "ok" for s in got.values()) == 1


def test_the_demos_cpu_only_steps_hold_to_the_notes_claims_and_a_wrong_one_is_caught():
    settings = data.load("intel-324611-s5-s6-settings")
    got = {c.row: c for c in measured.demo_step_checks(dma_demo.parse(DEMO), settings)}
    assert {c.status for c in got.values()} == {"ok"}
    assert got["MEM->FPGA, CRC of the buffer via CPU against the transfer"].relation == "<="
    assert got["FPGA->MEM, filling the buffer via CPU against the transfer"].relation == ">="
    assert got["TSC frequency determined"].model == measured.assumed_tsc_ghz(settings) == 1.6
    wrong = GOOD.replace("-> 31.49 MByte/sec", "-> 51.49 MByte/sec").replace("-> 221.80", "-> 101.80")
    got = {c.row: c.status for c in measured.demo_step_checks(dma_demo.parse_text(wrong, "x.log"), settings)}
    assert got["MEM->FPGA, CRC of the buffer via CPU against the transfer"] == "erratum"
    assert got["FPGA->MEM, filling the buffer via CPU against the transfer"] == "erratum"
    other = GOOD.replace("TSC frequency: 1.6 GHz", "TSC frequency: 1.3 GHz")
    got = {c.row: c.status for c in measured.demo_step_checks(dma_demo.parse_text(other, "x.log"), settings)}
    assert got["TSC frequency determined"] == "unexplained"


def test_a_malformed_tsc_frequency_line_names_its_line():
    text = GOOD.replace("TSC frequency: 1.6 GHz", "TSC frequency: fast")
    with pytest.raises(LogFormatError, match="not a TSC frequency line") as info:
        dma_demo.parse_text(text, "broken.log")
    assert text.splitlines()[info.value.line_number - 1].startswith("TSC frequency")
    assert dma_demo.parse_text(GOOD.replace("TSC frequency: 1.6 GHz", ""), "x.log").tsc_ghz == ""


def test_the_settings_tables_hold_settings_only():
    # a settings table's values are what a run, a design or a link is set to: none is a cell a check compares
    compared = {(c.resource, c.cell) for c in MEASURED if c.resource}
    for name in ("intel-324611-s2-settings", "intel-324611-s3-settings", "intel-324611-s4-settings",
                 "intel-324611-s5-s6-settings"):
        table = data.load(name)
        assert table.attrs["roles"].get("value") == "setting"
        assert not {c for r, c in compared if r == name}


def test_a_run_whose_transfer_was_not_timed_is_refused():
    untimed = GOOD.replace("* Duration of the read call in user-space (measured via TSC):\n-> 4.76 sec, 110.83 MByte/sec.\n",
                           "")
    assert untimed != GOOD
    with pytest.raises(ValueError, match="x.log: test 2 has 0 transfers timed via the TSC"):
        measured.run_seconds(dma_demo.parse_text(untimed, "x.log"))
