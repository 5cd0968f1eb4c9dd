import numpy as np
import pytest

from goodput.core import fit
from goodput.models import pcie, pcie_latency

LINK = pcie.an3935_link("MSC8156")
SIZES = np.array([8, 64, 256, 1024, 4096, 32768])


def test_latency_bound_model_never_beats_the_packet_model():
    for kind in ("write", "read"):
        ceiling = np.array([pcie.goodput_gbit_s(kind, LINK, int(s), duplex=True) for s in SIZES])
        for ts, tl, k in [(0, 0, 1), (100, 300, 1), (100, 300, 8), (500, 5000, 4)]:
            got = pcie_latency.latency_bound_gbit_s(kind, LINK, SIZES, ts, tl, k, duplex=True)
            assert np.all(got <= ceiling * (1 + 1e-12))


def test_no_latency_gives_the_packet_model_and_latency_halves_a_transfer_that_takes_as_long():
    ceiling = pcie.goodput_gbit_s("write", LINK, 1024, duplex=True)
    assert pcie_latency.latency_bound_gbit_s("write", LINK, [1024], 0, 0, 1, duplex=True)[0] == pytest.approx(ceiling)
    wire_ns = 8 * 1024 / (ceiling / 2)
    half = pcie_latency.latency_bound_gbit_s("write", LINK, [1024], wire_ns, 0, 1, duplex=True)[0]
    assert half == pytest.approx(ceiling / 2)


def test_in_flight_transfers_hide_only_the_overlappable_latency():
    one = pcie_latency.latency_bound_gbit_s("read", LINK, [64], 100, 1000, 1, duplex=True)[0]
    eight = pcie_latency.latency_bound_gbit_s("read", LINK, [64], 100, 1000, 8, duplex=True)[0]
    serial_only = pcie_latency.latency_bound_gbit_s("read", LINK, [64], 100, 0, 1, duplex=True)[0]
    assert one < eight <= serial_only


@pytest.mark.slow
def test_numeric_latency_model_matches_its_expression():
    expr = pcie_latency.latency_bound_expr("read", "every", duplex=True).subs(
        {**pcie.link_substitution(LINK), pcie_latency.credits: 8})
    for size in (8, 300, 4096):
        exact = float(expr.subs({pcie.payload: size, pcie_latency.serial_time: 120,
                                 pcie_latency.latency_time: 300, pcie_latency.outstanding: 4}))
        got = pcie_latency.latency_bound_gbit_s("read", LINK, [size], 120, 300, 4, duplex=True)[0]
        assert got == pytest.approx(exact, rel=1e-12)


@pytest.mark.slow
def test_fit_recovers_the_parameters_that_made_the_data():
    ks = (1, 4, 8)

    def model(ts, tl):
        return np.concatenate([pcie_latency.latency_bound_gbit_s("write", LINK, SIZES, ts, tl, k, duplex=True)
                               for k in ks])

    synthetic = model(150.0, 700.0)
    result = fit.fit(model, synthetic, pcie_latency.BOUNDS)
    assert result.values["t_s"] == pytest.approx(150.0, rel=1e-3)
    assert result.values["t_l"] == pytest.approx(700.0, rel=1e-3)
    assert result.rms_residual < 1e-4


def test_fit_rejects_impossible_input():
    with pytest.raises(ValueError):
        fit.fit(lambda a: np.ones(2), [1.0, -1.0], [fit.Bound("a", 0, 1, "")])
    with pytest.raises(ValueError):
        fit.fit(lambda a: np.ones(1), [1.0], [fit.Bound("a", 2, 1, "")])


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["write", "read"])
def test_latency_fit_explains_an3935_far_better_than_the_packet_model_alone(kind):
    result, curves = pcie_latency.fit_an3935(kind)
    rows, link = pcie_latency.an3935_back_to_back(kind)
    runs = pcie_latency.an3935_runs(rows)
    assert list(runs) == list(curves) == [1, 4, 8] and link == LINK
    measured = np.concatenate([runs[k]["gbit_s"].to_numpy() for k in curves])
    ceiling = np.array([pcie.goodput_gbit_s(kind, LINK, int(s), duplex=True) for k in curves
                        for s in runs[k]["bytes"]])
    packet_only_rms = float(np.sqrt(np.mean((measured / ceiling - 1) ** 2)))
    assert result.rms_residual < packet_only_rms / 2
    assert 0 < result.values["t_s"] < 2000 and 0 < result.values["t_l"] < 10000


def test_reads_in_flight_stop_at_the_non_posted_credits_and_writes_do_not():
    eight = pcie_latency.latency_bound_gbit_s("read", LINK, [64], 100, 5000, 8, duplex=True, np_credits=8)[0]
    sixteen = pcie_latency.latency_bound_gbit_s("read", LINK, [64], 100, 5000, 16, duplex=True, np_credits=8)[0]
    assert sixteen == eight
    w8 = pcie_latency.latency_bound_gbit_s("write", LINK, [64], 0, 5000, 8, duplex=True, np_credits=8)[0]
    w16 = pcie_latency.latency_bound_gbit_s("write", LINK, [64], 0, 5000, 16, duplex=True, np_credits=8)[0]
    assert w16 > w8
