import numpy as np
import pytest

from goodput.analysis import am243x
from goodput.core import fit


@pytest.mark.parametrize("dof, want", [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042)])
def test_student_t_quantiles_match_the_tables(dof, want):
    assert fit.student_t_quantile(0.975, dof) == pytest.approx(want, abs=0.001)


def test_hockney_recovers_a_known_line_and_its_intervals_cover_it():
    rng = np.random.default_rng(7)
    sizes = np.array([512, 1024, 2048, 4096, 8192, 16384, 32768], dtype=float)
    times = 12.5 + 8 * sizes / 1500 + rng.normal(0, 0.2, sizes.size)
    h = fit.hockney(sizes, times)
    assert h.t0_ci_us[0] < 12.5 < h.t0_ci_us[1]
    assert h.bandwidth_ci_mbit_s[0] < 1500 < h.bandwidth_ci_mbit_s[1]
    assert h.half_size_bytes == pytest.approx(h.t0_us * h.bandwidth_mbit_s / 8, rel=1e-5)
    assert np.allclose(h.predict_us(sizes) + h.residuals_us, times)


@pytest.mark.parametrize("sizes, times", [([1, 2], [1, 2]), ([1, 1, 1], [1, 2, 3]), ([1, 2, 3], [3, 2, 1]),
                                          ([0, 1, 2], [1, 2, 3])])
def test_hockney_refuses_what_it_cannot_fit(sizes, times):
    with pytest.raises(ValueError):
        fit.hockney(sizes, times)


def test_every_crypto_series_fits_within_two_microseconds():
    fits = am243x.crypto_fits()
    assert len(fits) == 6
    for name, h in fits.items():
        assert h.points == 7 and np.abs(h.residuals_us).max() < 2, name
        assert 1000 < h.bandwidth_mbit_s < 3000 and 10 < h.t0_us < 25, name


def test_rpmsg_to_the_m4f_costs_more_per_message_and_per_byte():
    fits = am243x.rpmsg_fits()
    r5, m4 = fits["r5f0-0 -> r5f0-1"], fits["r5f0-0 -> m4f0-0"]
    assert m4.t0_us > r5.t0_us and m4.bandwidth_mbit_s < r5.bandwidth_mbit_s


def test_the_notify_rows_of_cores_the_am243x_does_not_have_are_found():
    t = am243x.absent_cores()
    assert t["row"].tolist() == ["r5f0-0 -> a530-0", "r5f0-0 -> a530-1"]
    assert set(t["printed"]) == {"0.00 us"}


def test_sign_and_verify_rates_follow_from_their_parts():
    from goodput import checks
    status = {c.row: c.status for c in checks.collect("latency-and-bandwidth")
              if c.resource == "am243x-pka" and c.kind == "calculated"}
    assert status == {"RSA-2048": "rounding", "RSA-4096": "ok", "ECDSA-256": "ok", "ECDSA-384": "rounding"}


def test_rsa_decryption_matches_a_pka_signature_and_encryption_does_not_match_a_verify():
    t = am243x.rsa_times().set_index(["key (bits)", "operation"])
    for key in (2048, 4096):
        assert t.loc[(key, "decryption"), "ratio"] == pytest.approx(1, abs=0.02)
        assert t.loc[(key, "encryption"), "ratio"] > 10


def test_linear_least_squares_agrees_with_lapack_and_refuses_a_singular_design():
    import numpy as np

    sizes = [16.0, 64.0, 256.0, 1024.0, 4096.0]
    times = [3.1, 3.9, 5.2, 12.8, 40.3]
    (a, b), residuals = fit.linear_least_squares([[1.0] * 5, sizes], times)
    (a_ref, b_ref), *_ = np.linalg.lstsq(np.column_stack([np.ones(5), sizes]), times, rcond=None)
    assert (a, b) == (pytest.approx(a_ref, rel=1e-12), pytest.approx(b_ref, rel=1e-12))
    assert residuals == pytest.approx(np.array(times) - (a + b * np.array(sizes)), abs=1e-12)
    with pytest.raises(ValueError, match="do not determine"):
        fit.linear_least_squares([[1.0] * 3, [2.0] * 3], [1.0, 2.0, 3.0])
