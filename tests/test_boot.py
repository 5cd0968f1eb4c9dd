import pytest
from mutations import edited_cell

from goodput import checks
from goodput.analysis import boot
from goodput.core import data
from goodput.sources.am243x_sdk import boot as boot_source


def test_totals_add_up_and_the_sd_note_and_xip_averages_are_flagged():
    status = {c.row: c.status for c in checks.collect("boot-and-memory")}
    assert status == {"OSPI: total of the steps": "ok", "SD: total of the steps": "ok",
                      # 22.15 ms is 'around 20 ms' to the nearest 10 ms; 15 ms is no rounding of 6.48 ms
                      "OSPI (AM243X-EVM): Board_driversOpen, 'around'": "rounding",
                      "SD (SBL SD performance): appimage read into memory": "erratum",
                      # one run per row printed: how much a run varies is unknown
                      "FIR: 1 of 10 iterations not cached": "unexplained",
                      "MEMCPY: 1 of 10 iterations not cached": "unexplained",
                      # 246.53 ms among 4 non-M4F cores is at most 61.6 ms each; the SD appimage's one R5F
                      # takes all 57.09 ms, no ~1.5 ms; 34 KB at 12.5 MB/s take 2.79 ms <= 6.48 ms
                      "OSPI (AM243X-EVM): each CPU but the M4F": "ok", "SD (SBL SD performance): each CPU but the M4F": "erratum",
                      "SD: File read from SD Card, at the read speed": "ok",
                      # uncached runs take no fewer cycles than cached ones
                      "FIR: not cached": "ok", "MEMCPY: not cached": "ok",
                      # the images the ROM and the OSPI CPU load read, at the medium's stated speed
                      boot_source.note_row("OSPI", f"{boot_source.ROM_STEP}, at the medium's speed"): "ok",
                      boot_source.note_row("OSPI", f"{boot_source.CPU_LOAD}, at the medium's speed"): "ok",
                      boot_source.note_row("SD", f"{boot_source.ROM_STEP}, at the medium's speed"): "unexplained",
                      # the cached run is the least of the ten the 1-in-10 row averages
                      "FIR: fully cached": "ok", "MEMCPY: fully cached": "ok",
                      # the SD note: its CPU load (57.09 ms) is faster than the OSPI boot's (246.53 ms)
                      "SD (SBL SD performance): CPU load, 'faster in this case'": "ok"}


def test_what_if_takes_out_the_phy_tuning_and_the_version_check():
    t = boot.what_if().set_index("change")
    total = t.loc["as measured", "boot time (ms)"]
    assert total == 302.7
    assert t.loc["both", "saved (ms)"] == pytest.approx(22.15 + 9.01)
    assert t.loc["both", "boot time (ms)"] == round(total - 22.15 - 9.01, 2)


def test_uncached_flash_takes_about_twice_the_cycles_and_one_in_ten_its_share():
    t = boot.xip().set_index("benchmark")
    assert 1.9 < t.loc["FIR", "not cached / cached"] < 2.3
    assert 2.0 < t.loc["MEMCPY", "not cached / cached"] < 2.3
    for bench in ("FIR", "MEMCPY"):
        assert abs(float(t.loc[bench, "measured / averaged - 1"].rstrip("%"))) < 1


def test_steps_leave_out_the_printed_total():
    assert boot.TOTAL not in set(boot.steps()["step"])
    assert len(boot.steps("OSPI")) == 7 and len(boot.steps("SD")) == 8


def test_the_sd_read_speed_bounds_the_file_read_and_a_faster_read_is_caught():
    from goodput.core import data
    b, n, s = data.load("am243x-sbl-boot"), data.load("am243x-sbl-notes"), data.load("am243x-sbl-setup")
    [read] = [c for c in boot_source.sbl_note_checks(b, n, s) if c.kind == "ceiling"]
    assert read.model == pytest.approx(34 * 1024 / 12.5e6 * 1000)
    i = b.index[(b["boot"] == "SD") & (b["step"] == "SBL : File read from SD Card")][0]
    bad = edited_cell(b, i, "time_ms", "1.20")
    [read] = [c for c in boot_source.sbl_note_checks(bad, n, s) if c.kind == "ceiling"]
    assert read.status == "erratum"


def test_a_per_cpu_time_above_the_shared_cpu_load_is_caught():
    from goodput.core import data
    b, n, s = data.load("am243x-sbl-boot"), data.load("am243x-sbl-notes"), data.load("am243x-sbl-setup")
    i = n.index[(n["boot"] == "OSPI") & (n["what"] == "each CPU but the M4F")][0]
    bad = edited_cell(n, i, "value_ms", "70")
    got = {c.row: c.status for c in boot_source.sbl_note_checks(b, bad, s)}
    assert got["OSPI (AM243X-EVM): each CPU but the M4F"] == "erratum"
    assert boot_source.cores(s, "SD") == ["r5f0-0"] and len(boot_source.cores(s, "OSPI")) == 5


def test_xip_uncached_runs_take_at_least_their_cached_cycles():
    t = data.load("am243x-xip")
    found = boot_source.xip_checks(t)
    assert [c.row for c in found] == ["FIR: not cached", "MEMCPY: not cached"]
    assert {(c.kind, c.relation, c.status) for c in found} == {("ceiling", ">=", "ok")}
    assert [c.model for c in found] == list(t.loc[t["caching"] == boot_source.CACHED, "cycles"].astype(float))


def test_an_uncached_run_faster_than_the_cached_one_is_an_erratum():
    t = data.load("am243x-xip")
    fir = t.index[(t["benchmark"] == "FIR") & (t["caching"] == boot_source.UNCACHED)][0]
    found = boot_source.xip_checks(edited_cell(t, fir, "cycles", "26749"))  # one cycle under the cached 26750
    assert [c.status for c in found] == ["erratum", "ok"]


def test_the_rom_and_ospi_cpu_load_read_their_images_no_faster_than_the_medium_allows():
    found = {c.row: c for c in boot_source.image_load_checks(data.load("am243x-sbl-boot"), data.load("am243x-sbl-setup"))}
    # octal DDR at 166.667 MHz moves 2 bytes a clock; the SD card 12.5 x 10^6 bytes a second
    rom, load, sd = (found[boot_source.note_row(b, f"{s}, at the medium's speed")] for b, s in (
        ("OSPI", boot_source.ROM_STEP), ("OSPI", boot_source.CPU_LOAD), ("SD", boot_source.ROM_STEP)))
    assert rom.model == pytest.approx(256 * 1024 / (166.667e6 * 2) * 1000) and rom.status == "ok"
    assert load.model == pytest.approx(146 * 1024 / (166.667e6 * 2) * 1000) and load.status == "ok"
    # the SD ROM step: the 300 KB SBL at 12.5 MBps needs 24.6 ms, the table prints the OSPI ROM step's 12.00
    assert sd.model == pytest.approx(300 * 1024 / 12.5e6 * 1000) and sd.status == "unexplained"
    assert "same 12.00 ms as the OSPI boot's" in sd.note
    assert len(found) == 3 and {c.kind for c in found.values()} == {"ceiling"}
    with pytest.raises(ValueError, match="boot media clock"):
        boot.media_bytes_s("166.667 MHz (Hexa DDR mode)")


def test_an_ospi_rom_step_faster_than_its_flash_is_caught():
    t = data.load("am243x-sbl-boot")
    i = t.index[(t["boot"] == "OSPI") & (t["step"] == boot_source.ROM_STEP)][0]
    got = {c.row: c.status for c in boot_source.image_load_checks(edited_cell(t, i, "time_ms", "0.50"),
                                                            data.load("am243x-sbl-setup"))}
    assert got[boot_source.note_row("OSPI", f"{boot_source.ROM_STEP}, at the medium's speed")] == "erratum"
    assert got[boot_source.note_row("OSPI", f"{boot_source.CPU_LOAD}, at the medium's speed")] == "ok"


def test_a_cached_run_above_its_one_in_ten_average_is_caught():
    t = data.load("am243x-xip")
    got = {c.row: (c.status, c.model) for c in boot_source.xip_least_checks(t)}
    assert got == {"FIR: fully cached": ("ok", 29552), "MEMCPY: fully cached": ("ok", 1759)}
    i = t.index[(t["benchmark"] == "MEMCPY") & (t["caching"] == boot_source.CACHED)][0]
    got = {c.row: c.status for c in boot_source.xip_least_checks(edited_cell(t, i, "cycles", "1760"))}
    assert got == {"FIR: fully cached": "ok", "MEMCPY: fully cached": "erratum"}


def test_an_sd_cpu_load_slower_than_the_ospi_one_contradicts_its_note():
    t = data.load("am243x-sbl-boot")
    [c] = boot_source.sd_cpu_load_checks(t)
    assert (c.model, c.relation, c.kind, c.status) == (246.53, "<=", "prose", "ok")
    i = t.index[(t["boot"] == "SD") & (t["step"] == boot_source.CPU_LOAD)][0]
    [bad] = boot_source.sd_cpu_load_checks(edited_cell(t, i, "time_ms", "257.09"))
    assert bad.status == "erratum"


def test_the_least_read_of_an_image_from_ospi_flash_worked_by_hand():
    # Octal DDR at 166.667 MHz: 8 lines x 2 transfers a clock = 2 bytes a clock, 333.334 MB/s; the datasheet's
    # 146 KB application (149,504 bytes) then takes at least 149504 / 333.334e6 s = 0.4485 ms to read
    from goodput.render import calculations

    calc = calculations.get("boot-and-memory")
    case = next(c for c in calc.records() if c["mode"] == "Octal DDR")
    got = calc.evaluate(calc.defaults(), case)
    assert got["rate_mbyte_s"] == pytest.approx(166.667 * 2, rel=1e-12)
    assert got["least_ms"] == pytest.approx(1000 * 149504 / 333.334e6, rel=1e-12)
    # the same rate as the stated clock's, which the image-load checks use
    assert got["rate_mbyte_s"] * 1e6 == pytest.approx(boot.media_bytes_s("166.667 MHz (Octal DDR mode)"))
    quad_sdr = next(c for c in calc.records() if c["mode"] == "Quad SDR")
    assert calc.evaluate(calc.defaults(), quad_sdr)["least_ms"] == pytest.approx(4 * got["least_ms"], rel=1e-12)
