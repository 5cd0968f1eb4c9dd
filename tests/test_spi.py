import json

import pytest
import sympy as sp
from command import call
from mutations import edited_cell, reprinted

from goodput import checks
from goodput.core.errors import ParameterError
from goodput.models import spi
from goodput.render.chapters import spi as spi_charts
from goodput.sources.am243x_sdk import spi as spi_source


def test_the_datasheets_64_us_and_every_throughput_are_reproduced():
    items = [c for c in checks.collect("spi") if c.kind in ("prose", "consistency") and c.quantity != "number of words"]
    assert len(items) == 10 and {c.status for c in items} == {"ok"}


def test_gaps_follow_every_word_but_the_last():
    r = spi.evaluate(400, 8, 50, 160)
    assert r["clock_time_us"] == pytest.approx(64)
    assert r["gap_time_us"] == pytest.approx(399 * (0.160 + 0.020))
    assert spi.evaluate(1, 32, 50)["gap_time_us"] == 0


def test_numeric_time_equals_the_expression():
    expr = spi.transfer_time_expr()
    for n, w, f, g, c in [(400, 8, 50, 160, 1), (7, 13, 33.3, 0, 1), (1, 32, 1, 5000, 1), (400, 8, 50, 160, 0)]:
        exact = expr.subs({spi.words: n, spi.word_bits: w, spi.clock: sp.Rational(str(f)), spi.gap: g, spi.spaced: c})
        assert spi.transfer_time_us(n, w, f, g, c) == pytest.approx(float(exact), rel=1e-12)


def test_continuous_mode_sends_the_words_back_to_back():
    r = spi.evaluate(400, 8, 50, 160, spaced=0)
    assert r["transfer_time_us"] == 400 * 8 / 50 == r["clock_time_us"] and r["efficiency"] == 1
    assert spi.evaluate(400, 8, 50, 0)["transfer_time_us"] == pytest.approx(64 + 399 / 50)  # gap 0 keeps the bit time
    assert json.loads(call("spi", "--words", "400", "--bits", "8", "--continuous", "--json").stdout)[
        "transfer_time_us"] == 64


def test_the_model_sorts_the_measured_rows():
    verdicts = list(spi_charts.measured_vs_model()["explained by the gap model?"])
    assert verdicts.count("yes, within 5%") == 3
    assert sum(v.startswith("no: DMA") for v in verdicts) == 3
    assert sum(v.startswith("no: faster") for v in verdicts) == 2


def test_dma_adds_a_fixed_and_a_per_word_cost():
    d = spi_charts.dma_overhead()
    assert 3000 < d["fixed_us"] < 3300 and 0.3 < d["per_word_us"] < 0.8 and d["worst_residual_us"] < 0.1


@pytest.mark.parametrize("args, name", [((400, 0), "word_bits"), ((0, 8), "words"), ((400, 8, 0), "clock_mhz"),
                                        ((400, 8, 50, -1), "gap_ns")])
def test_impossible_spi_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError, match=name):
        spi.evaluate(*args)


def test_goodput_spi_json_and_a_zero_word_width():
    p = call("spi", "--words", "100", "--bits", "32", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["transfer_time_us"] == pytest.approx(64 + 99 * 0.18)
    p = call("spi", "--words", "100", "--bits", "0")
    assert p.returncode == 2 and "--bits 0: word_bits must be" in p.stderr


# --- every printed number of the MCSPI section ------------------------------------------------------

def _spi_checks(resource, kind):
    return {c.row: c.status for c in checks.collect("spi") if c.resource == resource and c.kind == kind}


def test_mcspi_rates_are_the_bytes_over_the_time_and_the_64_us_is_prose():
    assert set(_spi_checks("am243x-mcspi", "consistency").values()) == {"ok"}
    assert _spi_checks("am243x-mcspi-notes", "prose") == {"400 bytes at 50 MHz": "ok"}


def test_three_mcspi_times_are_below_what_the_stated_gap_allows():
    status = _spi_checks("am243x-mcspi", "ceiling")
    # 50 MHz: a bit is 0.02 us; N words of W bits and N - 1 gaps of 0.16 us + 0.02 us
    least = {8: 400 * 8 * 0.02 + 399 * 0.18, 16: 200 * 16 * 0.02 + 199 * 0.18, 32: 100 * 32 * 0.02 + 99 * 0.18}
    printed = {(8, "polled"): 154.63, (8, "interrupt"): 134.37, (8, "dma"): 3499.32,
               (16, "polled"): 97.66, (16, "interrupt"): 101.27, (16, "dma"): 3355.45,
               (32, "polled"): 81.76, (32, "interrupt"): 84.83, (32, "dma"): 3283.49}
    expected = {f"{8 * 400 // w} x {w} bits, {mode}": "ok" if t >= least[w] else "erratum"
                for (w, mode), t in printed.items()}
    assert status == expected
    assert sorted(r for r, s in status.items() if s == "erratum") == [
        "100 x 32 bits, polled", "200 x 16 bits, polled", "400 x 8 bits, interrupt"]


def test_a_time_below_the_clocks_and_gaps_and_a_wrong_word_count_are_caught():
    from goodput.core import data
    t = data.load("am243x-mcspi")
    ok = {c.row: c.status for c in spi_source.mcspi_time_checks(t) if c.kind == "ceiling"}
    assert ok["400 x 8 bits, polled"] == "ok"
    i = t.index[(t["word_bits"] == 8) & (t["mode"] == "polled")][0]
    bad = reprinted(edited_cell(t, i, "transfer_time_us", "100.00"), i, "words", "300")
    got = {(c.row, c.kind): c.status for c in spi_source.mcspi_time_checks(bad)}
    assert got[("400 x 8 bits, polled", "ceiling")] == "erratum"
    assert got[("8-bit words", "consistency")] == "erratum"
    assert got[("16-bit words", "consistency")] == "ok"


def test_the_dma_set_up_preset_is_the_chapters_fit():
    assert spi.DMA_SETUP_US == round(spi_charts.dma_overhead()["fixed_us"])
    assert (spi.DMA_SETUP_US, "AM243x DMA set-up, fitted") in spi.PARAMETERS["setup_us"].presets
    assert spi.PARAMETERS["setup_us"].default == 0


def test_a_fixed_cost_per_transfer_adds_to_its_time_and_a_padded_word_carries_no_data():
    # 400 bytes in 8-bit words at 50 MHz with the 160 ns gap: 64 us of clocks + 399 x 0.18 us of gaps = 135.82 us
    r = spi.evaluate(400, 8)
    assert r["transfer_time_us"] == pytest.approx(135.82) and r["total_time_us"] == r["transfer_time_us"]
    with_setup = spi.evaluate(400, 8, setup_us=3148)
    assert with_setup["total_time_us"] == pytest.approx(3148 + 135.82)
    assert with_setup["goodput_mbit_s"] == pytest.approx(3200 / (3148 + 135.82))
    calc = spi_charts.calculation()
    # one byte in a 32-bit word: one word, 32 clocks at 50 MHz = 0.64 us, carrying 8 bits of data
    out = calc.evaluate(calc.input_values(transfer_bytes=1), next(c for c in calc.records() if c["word_bits"] == 32))
    assert out["words"] == 1 and out["model_us"] == pytest.approx(0.64) and out["goodput_mbit_s"] == pytest.approx(12.5)
    r = spi.evaluate_transfer(1, 32)  # the numbers the page is held to: the same transfer
    assert (r["words"], r["total_time_us"], r["goodput_mbit_s"]) == (1, pytest.approx(0.64), pytest.approx(12.5))
