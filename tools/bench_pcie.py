"""Benchmark: evaluate the PCIe packet model for a million configurations at once.

Usage: .venv/bin/python tools/bench_pcie.py [N]

Draws N random configurations (generation 1-5, x1-x16, MPS and MRRS 128-4096,
3DW/4DW headers, ECRC on or off, sizes 1 B to 64 KiB, ACK + UpdateFC every 1-8
TLPs), evaluates write and read goodput with the numpy function that
``sympy.lambdify`` makes from the model's expression, checks a sample against
:func:`goodput.models.pcie.goodput_gbit_s`, and prints one JSON object with the times.
Not a test: nothing fails on time.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import sympy as sp

from goodput.models import coding, pcie


def main(n: int) -> dict:
    rng = np.random.default_rng(2026)
    gen = rng.integers(1, 6, n)
    lanes = 2 ** rng.integers(0, 5, n)
    mps = 2 ** rng.integers(7, 13, n)
    mrrs = 2 ** rng.integers(7, 13, n)
    header = np.where(rng.random(n) < 0.5, 12, 16)
    ecrc = np.where(rng.random(n) < 0.2, 4, 0)
    size = rng.integers(1, 65537, n)
    group = rng.integers(1, 9, n)
    rates = np.array([0] + [g.rate_gtps for g in pcie.GENERATIONS.values()])
    eff = np.array([0] + [coding.efficiency(g.code) for g in pcie.GENERATIONS.values()])
    bit_rate = rates[gen] * lanes * eff[gen]

    t0 = time.perf_counter()
    funcs = {kind: sp.lambdify(pcie._SYMBOLS, pcie.goodput_expr(kind, "every"), "numpy")
             for kind in ("write", "read")}
    t_lambdify = time.perf_counter() - t0
    args = dict(zip(pcie._SYMBOLS, (size, mps, mrrs, 64, header, 12, 8, ecrc, 8, group, 1, 1, 0.0,
                                    bit_rate, lanes, 8, 10)))
    timings = {}
    results = {}
    for kind, f in funcs.items():
        t0 = time.perf_counter()
        results[kind] = f(*args.values())
        timings[kind] = time.perf_counter() - t0
    # spot-check against the scalar, validated path
    for i in rng.integers(0, n, 200):
        link = pcie.Link(gen=int(gen[i]), lanes=int(lanes[i]), mps=int(mps[i]), mrrs=int(mrrs[i]),
                         addr=32 if header[i] == 12 else 64, ecrc=bool(ecrc[i]), dllp=f"every:{group[i]}")
        for kind in ("write", "read"):
            want = pcie.goodput_gbit_s(kind, link, int(size[i]))
            assert abs(results[kind][i] - want) <= 1e-9 * want, (kind, i)
    t0 = time.perf_counter()
    for i in range(2000):
        link = pcie.Link(gen=int(gen[i]), lanes=int(lanes[i]), mps=int(mps[i]), mrrs=int(mrrs[i]),
                         addr=32 if header[i] == 12 else 64, ecrc=bool(ecrc[i]), dllp=f"every:{group[i]}")
        pcie.goodput_gbit_s("write", link, int(size[i]))
    scalar_us = (time.perf_counter() - t0) / 2000 * 1e6
    return {"configurations": n, "lambdify_s": round(t_lambdify, 3),
            "write_numpy_s": round(timings["write"], 3), "read_numpy_s": round(timings["read"], 3),
            "scalar_call_us": round(scalar_us, 1), "checked_against_scalar": 200}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)))
