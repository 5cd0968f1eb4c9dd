"""The AM243x datasheet's size sweeps, fitted with one tool: time = fixed cost + bytes / bandwidth.

SA2UL AES-CBC and SHA print throughput against data size; turned into time per
operation (8 S / throughput) each series is a straight line in S whose slope is
the engine's bandwidth and whose intercept is what every operation costs before
a byte moves (:func:`goodput.core.fit.hockney`). IPC RPMsg prints latency against
message size: the same fit. :func:`absent_cores` lists the rows that time a core the device does not have; the
checks that hold what the datasheet prints to its own clocks and samples are
:mod:`goodput.sources.am243x_sdk.latency`'s.
"""

from __future__ import annotations

import pandas as pd

from goodput.core import data
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.fit import Hockney, hockney, hockney_size
from goodput.core.params import DEFAULT, Parameter, by_name

__all__ = [
    "PARAMETERS", "crypto_series", "crypto_fits", "rpmsg_fits", "fits", "fit_table", "absent_cores", "rsa_times",
    "evaluate_operation", "COMMAND",
]

PARAMETERS = by_name(
    Parameter("size_bytes", hockney_size, "bytes", 1, 1 << 20, default=4096, step=1, integer=True,
              label="operation size (bytes)",
              presets=((64, "64 B"), (1024, "1 KiB"), (4096, "4 KiB"), (65536, "64 KiB"))),
)


def crypto_series() -> pd.DataFrame:
    """AES-CBC and SHA rows as (series, size, throughput, time per operation)."""
    aes = data.load("am243x-aes-cbc")
    sha = data.load("am243x-sha")
    frames = [
        pd.DataFrame({"series": [f"AES-{k} {op}" for k, op in zip(aes["key_bits"], aes["operation"])],
                      "size_bytes": aes["size_bytes"], "throughput_mbit_s": aes["throughput_mbit_s"]}),
        pd.DataFrame({"series": [f"SHA-{k}" for k in sha["sha_bits"]], "size_bytes": sha["size_bytes"],
                      "throughput_mbit_s": sha["throughput_mbit_s"]}),
    ]
    out = pd.concat(frames, ignore_index=True)
    out["time_us"] = 8 * out["size_bytes"] / out["throughput_mbit_s"]
    return out


def crypto_fits() -> dict[str, Hockney]:
    return {name: hockney(g["size_bytes"], g["time_us"]) for name, g in crypto_series().groupby("series", sort=False)}


def rpmsg_fits() -> dict[str, Hockney]:
    """RPMsg latency against message size per core pair (latencies read as microseconds)."""
    t = data.load("am243x-ipc-rpmsg")
    out = {}
    for (local, remote), g in t.groupby(["local_core", "remote_core"], sort=False):
        if g["message_bytes"].nunique() >= 3:
            out[f"{local} -> {remote}"] = hockney(g["message_bytes"], g["latency_as_printed_ns"])
    return out


def fits() -> pd.DataFrame:
    """Every fit as a row: engine, series, fixed cost (us), bandwidth (Mbit/s), and the sizes it was fitted over
    (beyond them a time is the fit's extrapolation)."""
    crypto = crypto_series().groupby("series", sort=False)["size_bytes"]
    rpmsg = data.load("am243x-ipc-rpmsg")
    rpmsg = rpmsg.groupby(rpmsg["local_core"] + " -> " + rpmsg["remote_core"], sort=False)["message_bytes"]
    rows = []
    for kind, found, sizes in (("SA2UL", crypto_fits(), crypto), ("IPC RPMsg", rpmsg_fits(), rpmsg)):
        low, high = sizes.min(), sizes.max()
        rows += [{"engine": kind, "series": name, "t0_us": h.t0_us, "bandwidth_mbit_s": h.bandwidth_mbit_s,
                  "fitted_over": f"{low[name]:g} to {high[name]:g}"} for name, h in found.items()]
    return pd.DataFrame(rows)


def fit_table() -> pd.DataFrame:
    """Every fit: fixed cost and bandwidth with 95 % intervals, half-bandwidth size, residuals."""
    rows = []
    for kind, fits in (("SA2UL", crypto_fits()), ("IPC RPMsg", rpmsg_fits())):
        for name, h in fits.items():
            rows.append({"engine": kind, "series": name, "points": h.points,
                         "fixed cost (us)": f"{h.t0_us:.2f} [{h.t0_ci_us[0]:.2f}, {h.t0_ci_us[1]:.2f}]",
                         "bandwidth (Mbit/s)": f"{h.bandwidth_mbit_s:.0f} [{h.bandwidth_ci_mbit_s[0]:.0f}, "
                                               f"{h.bandwidth_ci_mbit_s[1]:.0f}]",
                         "half bandwidth at (bytes)": round(h.half_size_bytes),
                         "worst residual (us)": round(float(abs(h.residuals_us).max()), 3)})
    return pd.DataFrame(rows)


def absent_cores() -> pd.DataFrame:
    """IPC Notify rows that time a message to a core the AM243x does not have (the A53s of the AM64x,
    whose datasheet the table is shared with): they print 0.00 us, which no check of a number can refuse at
    that precision, and measure nothing. The numbers the chapter's checks find impossible are its
    problems table."""
    n = data.load("am243x-ipc-notify")
    return pd.DataFrame([{"table": "IPC Notify", "row": f"{r.local_core} -> {r.remote_core}",
                          "printed": f"{n.attrs['printed']['latency_us'][r.Index]} us",
                          "why it measures nothing": "the AM243x has no A53 core to answer"}
                         for r in n[n["remote_core"].str.startswith("a53")].itertuples()])


def rsa_times() -> pd.DataFrame:
    """RSA encryption and decryption turned back into time per operation, next to the PKA's time
    for the operation with the same key: verify (public key) for encryption, sign (private key)
    for decryption."""
    t = data.load("am243x-rsa")
    pka = data.load("am243x-pka")
    pka = pka[pka["algorithm"] == "RSA"].set_index("key_bits")
    rows = []
    for r in t.itertuples():
        ms = 8 * r.size_bytes / r.throughput_mbit_s / 1000
        same_key = "verify_per_s" if r.operation == "encryption" else "sign_per_s"
        pka_ms = 1000 / pka.loc[r.key_bits, same_key]
        rows.append({"key (bits)": r.key_bits, "operation": r.operation, "bytes": r.size_bytes,
                     "Mbit/s": r.throughput_mbit_s, "ms per operation": round(ms, 3),
                     "same key in the PKA": same_key.split("_")[0], "PKA (ms)": round(pka_ms, 3),
                     "ratio": round(ms / pka_ms, 2)})
    return pd.DataFrame(rows)


# --- goodput am243x -------------------------------------------------------------------------------

def evaluate_operation(operation: str, size_bytes: int = DEFAULT) -> dict:
    """One fitted operation (an SA2UL crypto series, an RPMsg core pair) at ``size_bytes``: its fit's fixed cost and
    bandwidth, the time it takes and the throughput that gives, as a JSON-ready dict."""
    n = PARAMETERS["size_bytes"].check(size_bytes)
    row = fits().set_index("series")
    if operation not in row.index:
        raise ParameterError("operation", operation, "one of " + ", ".join(row.index))
    found = {**crypto_fits(), **rpmsg_fits()}[operation]
    time_us = float(found.predict_us(n))
    return {"operation": operation, "engine": row.loc[operation, "engine"], "size_bytes": n,
            "t0_us": found.t0_us, "bandwidth_mbit_s": found.bandwidth_mbit_s,
            "fitted_over_bytes": row.loc[operation, "fitted_over"], "time_us": time_us,
            "rate_mbit_s": 8 * n / time_us}


COMMAND = Command(
    "am243x", help="an AM243x operation's time and throughput from the datasheet's fitted timings",
    description="Time and throughput of an AM243x operation of SIZE bytes (SA2UL encryption and hashing, RPMsg "
                "between two cores) from the fit of the datasheet's measured times: a fixed cost plus the bytes at "
                "a bandwidth. Beyond the sizes it was fitted over, a time is the fit's extrapolation.",
    arguments=(Arg("operation", help="the datasheet's series, e.g. 'AES-128 encryption', 'r5f0-0 -> r5f0-1'"),
               Ranged("--size", PARAMETERS["size_bytes"], "BYTES", "operation size (bytes)")),
    run=lambda args: evaluate_operation(args.operation, args.size_bytes),
    lines=lambda args, r: [f"{r['operation']} ({r['engine']}) of {r['size_bytes']} bytes: {r['time_us']:.5g} us, "
                           f"{r['rate_mbit_s']:.5g} Mbit/s ({r['t0_us']:.4g} us fixed + bytes at "
                           f"{r['bandwidth_mbit_s']:.5g} Mbit/s; fitted over {r['fitted_over_bytes']} bytes)"])
