"""Every printed number of the AM243x datasheet's IPC, MATHLIB and crypto tables."""

import pytest
from mutations import edited_cell

from goodput import checks
from goodput.analysis import am243x
from goodput.core import data
from goodput.sources.am243x_sdk import latency


def _edited(t, column, index, value, text):
    return edited_cell(t, index, column, text, value)


def _status(resource, kind):
    return {c.row: c.status for c in checks.collect("latency-and-bandwidth")
            if c.resource == resource and c.kind == kind}


def test_the_r5f_clock_comes_from_the_setup_table():
    assert latency.core_clock_mhz() == 800 and latency.clock_period_ns(800) == 1.25


def test_rpmsg_latencies_below_one_r5f_clock_are_errata():
    status = _status("am243x-ipc-rpmsg", "consistency")
    # one clock at 800 MHz is 1.25 ns: the printed "ns" values under it cannot be
    printed = {"r5f0-0 -> r5f0-1, 4 bytes": 0.636, "r5f0-0 -> r5f1-0, 4 bytes": 0.634,
               "r5f0-0 -> r5f1-1, 4 bytes": 0.633, "r5f0-0 -> m4f0-0, 4 bytes": 1.174,
               "r5f0-0 -> r5f0-1, 32 bytes": 0.841, "r5f0-0 -> r5f0-1, 64 bytes": 1.068,
               "r5f0-0 -> r5f0-1, 112 bytes": 1.454, "r5f0-0 -> m4f0-0, 32 bytes": 1.703,
               "r5f0-0 -> m4f0-0, 64 bytes": 2.310, "r5f0-0 -> m4f0-0, 112 bytes": 3.212}
    assert status == {row: "erratum" if v < 1.25 else "ok" for row, v in printed.items()}


def test_notify_latencies_keep_to_one_clock_at_their_printed_precision():
    status = _status("am243x-ipc-notify", "consistency")
    assert len(status) == 6 and set(status.values()) == {"ok"}


def test_a_latency_under_one_clock_is_caught():
    n, r = data.load("am243x-ipc-notify"), data.load("am243x-ipc-rpmsg")
    bad = _edited(n, "latency_us", 0, 0.0001, "0.0001")
    got = {c.row: c.status for c in latency.ipc_checks(bad, r, 800) if c.resource == "am243x-ipc-notify"}
    assert got["r5f0-0 -> m4f0-0"] == "erratum" and got["r5f0-0 -> r5f0-1"] == "ok"


def test_six_mcusdk_averages_exceed_their_maxima_and_no_clang_average_does():
    status = _status("am243x-mathlib", "consistency")
    printed = {"sin": (42, 42.798), "cos": (53, 53.736), "sincos sin": (68, 68.675995), "asin": (63, 63.538),
               "acos": (64, 64.534), "atan": (72, 72.758), "atan2": (112, 103.04)}
    expected = {f"{f}, Mathlib (mcusdk)": "erratum" if avg > mx else "ok" for f, (mx, avg) in printed.items()}
    expected.update({f"{f}, mathlib (clang)": "ok" for f in printed})
    assert status == expected
    assert list(expected.values()).count("erratum") == 6


def test_an_average_above_its_maximum_is_caught():
    t = data.load("am243x-mathlib")
    i = t.index[t["function"] == "atan2"][0]
    got = {c.row: c.status for c in latency.mathlib_checks(_edited(t, "avg_cycles_clang", i, 1191.5, "1191.500000"))}
    assert got["atan2, mathlib (clang)"] == "erratum" and got["atan2, Mathlib (mcusdk)"] == "ok"


def test_pka_signs_match_rsa_decryption_and_verifies_do_not_match_encryption():
    got = {(c.row, c.quantity): (c.status, c.model) for c in checks.collect("latency-and-bandwidth")
           if c.resource == "am243x-pka" and c.kind == "consistency"}
    # operations per second = Mbit/s x 10^6 / (8 x block bytes)
    assert got[("RSA-2048", "signs per second")] == ("ok", pytest.approx(1.294659e6 / 2048))
    assert got[("RSA-4096", "signs per second")] == ("rounding", pytest.approx(0.400659e6 / 4096))
    assert got[("RSA-2048", "verifies per second")] == ("unexplained", pytest.approx(0.554973e6 / 2048))
    assert got[("RSA-4096", "verifies per second")] == ("unexplained", pytest.approx(0.597194e6 / 4096))


def test_a_sign_rate_off_the_rsa_table_is_flagged():
    pka, rsa = data.load("am243x-pka"), data.load("am243x-rsa")
    i = pka.index[(pka["algorithm"] == "RSA") & (pka["key_bits"] == 2048)][0]
    got = {(c.row, c.quantity): c.status for c in latency.pka_rsa_checks(_edited(pka, "sign_per_s", i, 700, "700"), rsa)}
    assert got[("RSA-2048", "signs per second")] == "unexplained"
    assert got[("RSA-4096", "signs per second")] == "rounding"


def test_each_rsa_size_is_its_keys_modulus_in_bytes_and_a_wrong_one_is_an_erratum():
    rsa = data.load("am243x-rsa")
    got = {c.row: (c.status, c.model, c.kind) for c in checks.collect("latency-and-bandwidth")
           if c.resource == "am243x-rsa" and c.quantity == rsa.attrs["titles"].get("size_bytes", "size_bytes")}
    assert got == {f"RSA-{k} {op}": ("ok", k / 8, "consistency") for k in (2048, 4096)
                   for op in ("encryption", "decryption")}
    # the number held is the one the page prints, "256.00" of "256.00 B" (the census counts 256.00, not 256)
    assert {c.published for c in latency.rsa_size_checks(rsa)} == {"256.00", "512.00"}
    i = rsa.index[(rsa["key_bits"] == 4096) & (rsa["operation"] == "decryption")][0]
    bad = _edited(rsa, "size_as_printed", i, "256.00 B", "256.00 B")
    bad = {c.row: c.status for c in latency.rsa_size_checks(bad)}
    assert bad.pop("RSA-4096 decryption") == "erratum" and set(bad.values()) == {"ok"}
    assert latency.printed_size("32.00 KB") == ("32.00", 1024)
    with pytest.raises(ValueError, match="key_bits"):
        latency.rsa_block_bytes(2047)
    with pytest.raises(ValueError, match="expected a number"):
        latency.printed_size("256.00 bits")


def test_every_larger_aes_and_sha_block_takes_no_less_time():
    items = [c for c in checks.collect("latency-and-bandwidth") if c.resource in ("am243x-aes-cbc", "am243x-sha")
             and c.kind == "consistency"]
    # 4 AES series and 2 SHA series of 7 sizes: 6 steps each
    assert len(items) == 36 and {c.status for c in items} == {"ok"}
    [first] = [c for c in items if c.row == "AES-128 encryption, 1024.00 B"]
    assert first.model == pytest.approx(2 * 234.542982)


def test_a_larger_block_faster_than_twice_the_rate_is_caught():
    aes, sha = data.load("am243x-aes-cbc"), data.load("am243x-sha")
    i = sha.index[(sha["sha_bits"] == 256) & (sha["size_bytes"] == 1024)][0]
    got = {c.row: c.status for c in latency.crypto_size_checks(aes, _edited(sha, "throughput_mbit_s", i, 400.0,
                                                                          "400.000000"))}
    assert got["SHA-256, 1024.00 B"] == "erratum" and got["SHA-512, 1024.00 B"] == "ok"


def test_aes_256_is_no_faster_than_aes_128_on_the_same_operation_and_size():
    aes = data.load("am243x-aes-cbc")
    found = latency.aes_key_checks(aes)
    assert len(found) == (aes["key_bits"] == 256).sum()
    assert {(c.kind, c.relation, c.status) for c in found} == {("ceiling", "<=", "ok")}
    # one anchor per check: the same cell's size check is a consistency check
    anchors = [checks.anchor(c) for c in checks.collect("latency-and-bandwidth")]
    assert len(anchors) == len(set(anchors))


def test_an_aes_256_rate_above_aes_128s_is_an_erratum():
    aes = data.load("am243x-aes-cbc")
    row = aes.index[(aes["key_bits"] == 256) & (aes["operation"] == "decryption") & (aes["size_bytes"] == 512)][0]
    found = {c.row: c.status for c in latency.aes_key_checks(edited_cell(aes, row, "throughput_mbit_s", "240.0"))}
    assert found["AES-256 decryption, 512.00 B"] == "erratum"  # AES-128 prints 236.865693
    assert sum(s == "erratum" for s in found.values()) == 1


def test_each_rsa_rate_is_held_to_one_other_and_the_2048_bit_encryption_is_slower_than_its_decryption():
    rsa = data.load("am243x-rsa")
    got = {c.row: (c.relation, c.status) for c in latency.rsa_rate_checks(rsa)}
    # the shorter key's encryption against its decryption: a public-key operation slower than the private one
    assert got == {"RSA-2048 encryption": (">=", "unexplained"), "RSA-4096 encryption": ("<=", "ok"),
                   "RSA-2048 decryption": (">=", "ok"), "RSA-4096 decryption": ("<=", "ok")}
    [longer] = [c for c in latency.rsa_rate_checks(rsa) if c.row == "RSA-4096 encryption"]
    assert longer.model == pytest.approx(0.554973 * 512 / 256)
    # each rate has one check, and no two checks compare the same pair of cells
    assert len({c.cell for c in latency.rsa_rate_checks(rsa)}) == 4


def test_an_rsa_rate_off_its_rules_is_caught():
    rsa = data.load("am243x-rsa")
    i = rsa.index[(rsa["key_bits"] == 4096) & (rsa["operation"] == "encryption")][0]
    got = {c.row: c.status for c in latency.rsa_rate_checks(edited_cell(rsa, i, "throughput_mbit_s", "1.200000"))}
    assert got["RSA-4096 encryption"] == "erratum"  # more than twice the 2048-bit key's rate on twice the block
    j = rsa.index[(rsa["key_bits"] == 4096) & (rsa["operation"] == "decryption")][0]
    got = {c.row: c.status for c in latency.rsa_rate_checks(edited_cell(rsa, j, "throughput_mbit_s", "0.700000"))}
    assert got["RSA-4096 decryption"] == "unexplained"  # faster than the public-key operation on the same key


def test_ecdsa_rates_keep_to_the_larger_curve_and_the_verify_being_slower():
    pka = data.load("am243x-pka")
    got = {(c.row, c.quantity): (c.relation, c.status, c.model) for c in latency.ecdsa_rate_checks(pka)}
    assert got == {("ECDSA-256", "signs per second"): (">=", "ok", 586),
                   ("ECDSA-384", "verifies per second"): ("<=", "ok", 693),
                   ("ECDSA-256", "verifies per second"): ("<=", "ok", 1136),
                   ("ECDSA-384", "signs per second"): (">=", "ok", 349)}


def test_an_ecdsa_rate_off_its_rules_is_caught():
    pka = data.load("am243x-pka")
    i = pka.index[(pka["algorithm"] == "ECDSA") & (pka["key_bits"] == 384)][0]
    got = {(c.row, c.quantity): c.status
           for c in latency.ecdsa_rate_checks(edited_cell(pka, i, "verify_per_s", "700"))}
    assert got[("ECDSA-384", "verifies per second")] == "erratum"  # P-384 faster than P-256
    got = {(c.row, c.quantity): c.status
           for c in latency.ecdsa_rate_checks(edited_cell(pka, i, "sign_per_s", "300"))}
    assert got[("ECDSA-384", "signs per second")] == "unexplained"  # a sign slower than a verify
    assert got[("ECDSA-256", "signs per second")] == "ok"


def test_the_latency_box_is_each_fit_at_the_readers_size():
    # AES-128 encryption: t0 + 8 S / B at 4096 bytes, the fit's own prediction; the rate is 8 S over that time
    from goodput.render import calculations

    calc = calculations.get("latency-and-bandwidth")
    fits = am243x.crypto_fits()
    for case in calc.records():
        if case["series"] not in fits:
            continue
        h = fits[case["series"]]
        got = calc.evaluate(calc.input_values(size_bytes=4096), case)
        assert got["time_us"] == pytest.approx(h.t0_us + 8 * 4096 / h.bandwidth_mbit_s, rel=1e-12)
        assert got["rate_mbit_s"] == pytest.approx(8 * 4096 / got["time_us"], rel=1e-12)
