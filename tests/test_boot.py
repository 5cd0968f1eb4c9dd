import pytest

from goodput import boot, checks


def test_totals_add_up_and_the_sd_note_and_xip_averages_are_flagged():
    status = {c.row: c.status for c in checks.collect("boot-and-memory")}
    assert status == {"OSPI: total of the steps": "ok", "SD: total of the steps": "ok",
                      # 22.15 ms is 'around 20 ms' to the nearest 10 ms; 15 ms is no rounding of 6.48 ms
                      "OSPI: Board_driversOpen, 'around'": "rounding",
                      "SD: appimage read into memory": "erratum",
                      # one run per row printed: how much a run varies is unknown
                      "FIR: 1 of 10 iterations not cached": "unexplained",
                      "MEMCPY: 1 of 10 iterations not cached": "unexplained"}


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
