import pytest

from goodput import checks, pcie, pcie_transactions as pt

CHECKS = checks.collect("pcie-reads")
EXPECTED = {
    ("intel-324611-test15", "4 bytes"): "erratum",
    ("logs/published/intel-324611-test2-ahb.log", "2 accesses"): "erratum",
    ("intel-324611-s3-5-examples", "Example 2 trace: net read throughput (MB/s)"): "erratum",
    ("intel-324611-s3-5-examples", "Example 2 trace: allocated read bandwidth share (%)"): "erratum",
    ("intel-324611-s3-5-examples", "Example 1 trace: net write throughput (MB/s)"): "rounding",
    ("intel-324611-s3-5-examples", "Example 1 trace: allocated read bandwidth share (%)"): "rounding",
}


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: f"{c.resource}-{c.row}-{c.quantity}")
def test_intel_figures_are_reproduced_or_flagged(check):
    assert check.status == EXPECTED.get((check.resource, check.row), "ok"), check


def test_every_trace_figure_the_converted_traces_still_show_is_checked():
    rows = {c.row for c in CHECKS if c.resource == "intel-324611-s4-6-s4-7-trace-figures"}
    assert len(rows) == 7  # the four figures about the first read need symbols the conversion lost
    assert not any("#1" in r for r in rows if r.startswith("Test 4"))
    assert sum(c.resource == "intel-324611-s3-5-examples" and "trace" in c.row for c in CHECKS) == 5


def test_every_statistic_value_and_example_figure_is_checked():
    assert sum(c.where.endswith("statistic block") for c in CHECKS) == 5 * 6
    assert sum(c.resource == "intel-324611-s3-5-examples" for c in CHECKS) == 10 + 5
    assert sum(c.resource == "intel-324611-test14" for c in CHECKS) == 13
    assert sum(c.resource == "intel-324611-test15" for c in CHECKS) == 4


def test_one_read_in_flight_is_the_serial_read_without_dllps():
    link = pcie.link_substitution(pcie.Link(gen=1, lanes=1, mps=4096, dllp="none"))
    piped = pt.pipelined_reads_expr().subs(link)
    for size in (1, 4, 64, 1024):
        one = float(piped.subs({pcie.payload: size, pt.completion_latency: 500, pt.reads_in_flight: 1}))
        assert one == pytest.approx(pt.test15_theoretical_mbyte_s(size), rel=1e-12)


def test_more_reads_in_flight_never_beat_the_completion_direction():
    link = pcie.link_substitution(pcie.Link(gen=1, lanes=1, mps=4096, dllp="none"))
    piped = pt.pipelined_reads_expr().subs(link)
    for size in (4, 256, 4096):
        wire = 1000 * pcie.goodput_gbit_s("write", pcie.Link(gen=1, lanes=1, mps=4096, dllp="none"), size) / 8
        for k in (1, 2, 8, 64):
            got = float(piped.subs({pcie.payload: size, pt.completion_latency: 500, pt.reads_in_flight: k}))
            assert got <= wire * (1 + 1e-12)


def test_example_1_counts_three_plps_for_2400_bytes():
    r = pt.evaluate_example("write", 100, 4)
    assert r["plps"] == 3 and r["time_ns"] == pytest.approx(9648)
    assert r["write_share_percent"] == pytest.approx(100)


def test_example_2_waits_500_ns_per_read():
    r = pt.evaluate_example("read", 100, 4, t_c=500.0, d=1)
    assert r["time_ns"] == pytest.approx(70800)


def test_cpu_turnaround_fitted_to_test_15_matches_the_one_in_the_test_4_trace():
    result, seen = pt.fit_test15()
    assert result.rms_residual < 0.02
    assert seen and all(abs(result.values["t_cpu"] / ns - 1) < 0.1 for ns in seen)


def test_the_authors_calculations_take_no_cpu_time():
    assert pt.evaluate_example("read", 1, 4, t_c=500.0)["time_ns"] == pytest.approx(80 + 500 + 96)
