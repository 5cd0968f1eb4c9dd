"""The AM243x datasheet's size sweeps, fitted with one tool: time = fixed cost + bytes / bandwidth.

SA2UL AES-CBC and SHA print throughput against data size; turned into time per
operation (8 S / throughput) each series is a straight line in S whose slope is
the engine's bandwidth and whose intercept is what every operation costs before
a byte moves (:func:`goodput.fit.hockney`). IPC RPMsg prints latency against
message size: the same fit. Its checks hold what the datasheet prints to its own clocks and samples;
:func:`absent_cores` lists the rows that time a core the device does not have.
"""

from __future__ import annotations

import pandas as pd

from . import checks, data
from .errors import ParameterError
from .fit import Hockney, hockney

__all__ = ["crypto_series", "crypto_fits", "rpmsg_fits", "fit_table", "absent_cores", "rsa_times",
           "source_checks"]


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


@checks.provider("latency-and-bandwidth")
def source_checks():
    """Sign-and-verify rates: one sign and one verify in turn take the sum of their times."""
    t = data.load("am243x-pka")
    return [checks.compare(
        "latency-and-bandwidth", t, row.Index, "sign_and_verify_per_s",
        1 / (1 / row.sign_per_s + 1 / row.verify_per_s), f"{row.algorithm}-{row.key_bits}",
        off_note=f"1 / (1/{row.sign_per_s} + 1/{row.verify_per_s}) is {{model:.2f}} per second; the table "
                 "prints {published}, cut to a whole number.") for row in t.itertuples()]


# --- IPC latencies: at least one clock period of the measuring core (issue 18) -------------------

def core_clock_mhz() -> float:
    """The measuring core's clock (the R5F's), from the datasheet's setup table: ``"800 MHz"`` -> 800."""
    t = data.load("am243x-setup").set_index("item")
    value, unit = str(t.loc["Core Operating Speed", "value"]).split()
    if unit != "MHz":
        raise ValueError(f"am243x-setup: core speed {value} {unit!r}, expected MHz")
    return float(value)


def clock_period_ns(clock_mhz: float) -> float:
    """One clock period (ns) of a core clocked at ``clock_mhz``."""
    return 1000 / clock_mhz


def ipc_checks(notify, rpmsg, clock_mhz: float) -> list:
    """Each IPC latency (tables ``am243x-ipc-notify`` and ``am243x-ipc-rpmsg``, or edited copies) against
    one clock period of the core that measured it: no message between cores takes less."""
    period_ns = clock_period_ns(clock_mhz)
    out = []
    for t, column, scale, unit in ((notify, "latency_us", 1000, "us"), (rpmsg, "latency_as_printed_ns", 1, "ns")):
        for row in t.itertuples():
            label = f"{row.local_core} -> {row.remote_core}" + (
                f", {row.message_bytes} bytes" if hasattr(row, "message_bytes") else "")
            zero = float(t.attrs["printed"][column][row.Index]) == 0
            out.append(checks.compare(
                "latency-and-bandwidth", t, row.Index, column, period_ns / scale, label,
                kind="consistency", relation=">=",
                note=(f"One clock period of the {clock_mhz:g} MHz core that measured it, {{model:g}} {unit}, is "
                      "within half a unit of the last printed digit of {published}, so the precision cannot show it "
                      "wrong; but the AM243x has no A53 core to answer: the row (shared with the AM64x's "
                      "datasheet, whose A53 cores it names) measures nothing.") if zero else
                     f"At least one clock period of the {clock_mhz:g} MHz core that measured it, "
                     f"{{model:g}} {unit}.",
                off_note=f"One clock period of the {clock_mhz:g} MHz core that measured it is {{model:g}} {unit}; "
                         f"a one-way message between cores in {{published}} {unit} is less than one clock"
                         + (": the unit must be us (IPC Notify, with no payload, takes about a microsecond)."
                            if unit == "ns" else ".")))
    return out


@checks.provider("latency-and-bandwidth")
def ipc_source_checks():
    """IPC Notify and RPMsg latencies against one clock period of the measuring R5F."""
    return ipc_checks(data.load("am243x-ipc-notify"), data.load("am243x-ipc-rpmsg"), core_clock_mhz())


__all__ += ["core_clock_mhz", "clock_period_ns", "ipc_checks"]


# --- MATHLIB: an average of the same samples is at most their maximum (issue 18) -----------------

MATHLIB_LIBRARIES = {"mcusdk": "Mathlib (mcusdk)", "clang": "mathlib (clang)"}


def mathlib_checks(t) -> list:
    """Each printed average cycle count of the ``am243x-mathlib`` table (or an edited copy) against the
    maximum over the same 500 samples: an average is at most the maximum. Rows without cycles
    ("sincos cos", timed with "sincos sin") print only their error."""
    out = []
    for row in t.itertuples():
        for lib, name in MATHLIB_LIBRARIES.items():
            avg, mx = f"avg_cycles_{lib}", f"max_cycles_{lib}"
            if not t.attrs["printed"][avg][row.Index] or not t.attrs["printed"][mx][row.Index]:
                continue
            out.append(checks.compare(
                "latency-and-bandwidth", t, row.Index, avg, getattr(row, mx), f"{row.function}, {name}",
                kind="consistency", relation="<=",
                note="The average of 500 samples is at most their maximum, {model:g} cycles.",
                off_note="An average of {published} cycles over 500 samples whose maximum is {model:g}: no "
                         "average exceeds the largest value it averages."))
    return out


@checks.provider("latency-and-bandwidth")
def mathlib_source_checks():
    """MATHLIB: each average cycle count against the maximum of the same samples."""
    return mathlib_checks(data.load("am243x-mathlib"))


__all__ += ["MATHLIB_LIBRARIES", "mathlib_checks"]


# --- PKA rates against the RSA table's times for the same key (issue 18) -------------------------

def operations_per_s(size_bytes: float, throughput_mbit_s: float) -> float:
    """Operations per second of a throughput printed for blocks of ``size_bytes``: rate / bits per block."""
    return throughput_mbit_s * 1e6 / (8 * size_bytes)


def pka_rsa_checks(pka, rsa) -> list:
    """The PKA's RSA signs and verifies per second (``am243x-pka``) against the RSA table's decryption and
    encryption with the same key (``am243x-rsa``), turned into operations per second: a signature is the
    private-key operation decryption is, a verification the public-key one encryption is. The two come from
    different applications, so a mismatch is ``unexplained``, not an erratum."""
    out = []
    for row in pka[pka["algorithm"] == "RSA"].itertuples():
        for column, operation, key in (("sign_per_s", "decryption", "private"),
                                       ("verify_per_s", "encryption", "public")):
            r = rsa[(rsa["key_bits"] == row.key_bits) & (rsa["operation"] == operation)].iloc[0]
            rate = operations_per_s(r["size_bytes"], r["throughput_mbit_s"])
            tp = rsa.attrs["printed"]["throughput_mbit_s"][r.name]
            near = checks.classify(pka.attrs["printed"][column][row.Index], rate) != "erratum"
            out.append(checks.compare(
                "latency-and-bandwidth", pka, row.Index, column, rate, f"{row.algorithm}-{row.key_bits}",
                kind="consistency", otherwise="unexplained",
                note=f"RSA {operation} ({key} key) of {r['size_as_printed']} at {tp} Mbit/s is "
                     "{model:.2f} per second; the table prints {published}, cut to a whole number." if near else
                     f"RSA {operation} ({key} key) of {r['size_as_printed']} at {tp} "
                     "Mbit/s is {model:.2f} operations per second; the PKA table prints {published} for the "
                     "same key. The RSA test (test_sa2ul_rsa) may time more than the PKA operation "
                     "(padding, set-up), which the datasheet does not say."))
    return out


@checks.provider("latency-and-bandwidth")
def pka_rsa_source_checks():
    """The PKA's RSA sign and verify rates against the RSA table's decryption and encryption."""
    return pka_rsa_checks(data.load("am243x-pka"), data.load("am243x-rsa"))


__all__ += ["operations_per_s", "pka_rsa_checks"]


# --- RSA: an operation works on a block the size of the key's modulus (issue 18) -------------------

BITS_PER_BYTE = 8


def rsa_block_bytes(key_bits: int) -> float:
    """The bytes one RSA encryption or decryption takes in and gives out with a key of ``key_bits``: a number
    below the modulus, written in as many bytes as the modulus (PKCS #1's k octets)."""
    if key_bits <= 0 or key_bits % BITS_PER_BYTE:
        raise ParameterError("key_bits", key_bits, f"a positive multiple of {BITS_PER_BYTE}")
    return key_bits / BITS_PER_BYTE


def rsa_size_checks(rsa) -> list:
    """Each size the RSA table (``am243x-rsa``, or an edited copy) prints for an operation against the block of
    its row's key (:func:`rsa_block_bytes`; ``consistency``, exact: whole bytes)."""
    return [checks.compare(
        "latency-and-bandwidth", rsa, row.Index, "size_bytes", rsa_block_bytes(row.key_bits),
        f"RSA-{row.key_bits} {row.operation}", kind="consistency", exact=True,
        note=f"One {row.operation} works on a block as long as the {row.key_bits}-bit modulus: {{model:.0f}} bytes.",
        off_note=f"A {row.key_bits}-bit key's block is {{model:.0f}} bytes, the modulus's length; the table prints "
                 f"{row.size_as_printed}.")
        for row in rsa.itertuples()]


@checks.provider("latency-and-bandwidth")
def rsa_size_source_checks():
    """SA2UL RSA: each operation's size against its key's modulus."""
    return rsa_size_checks(data.load("am243x-rsa"))


__all__ += ["BITS_PER_BYTE", "rsa_block_bytes", "rsa_size_checks"]


# --- SA2UL AES and SHA: a larger block takes no less time (issue 18) ------------------------------

def most_rate_for(size_bytes: float, smaller_bytes: float, smaller_rate: float) -> float:
    """The highest rate a block of ``size_bytes`` can show when one of ``smaller_bytes`` ran at
    ``smaller_rate``: the larger block takes at least as long, so its rate is at most
    ``smaller_rate * size_bytes / smaller_bytes``."""
    return smaller_rate * size_bytes / smaller_bytes


def crypto_size_checks(aes, sha) -> list:
    """Each AES-CBC and SHA throughput (tables ``am243x-aes-cbc``, ``am243x-sha``, or edited copies) against
    the most the next smaller block of its series allows: the datasheet prints no times, only rates, and
    a block of more bytes cannot take less time than a smaller one."""
    out = []
    for t, keys, name in ((aes, ["key_bits", "operation"], lambda r: f"AES-{r.key_bits} {r.operation}"),
                          (sha, ["sha_bits"], lambda r: f"SHA-{r.sha_bits}")):
        for _, g in t.groupby(keys, sort=False):
            g = g.sort_values("size_bytes")
            rows = list(g.itertuples())
            for smaller, row in zip(rows, rows[1:]):
                out.append(checks.compare(
                    "latency-and-bandwidth", t, row.Index, "throughput_mbit_s",
                    most_rate_for(row.size_bytes, smaller.size_bytes, smaller.throughput_mbit_s),
                    f"{name(row)}, {row.size_as_printed}", kind="consistency", relation="<=",
                    note=f"At most {{model:.2f}} Mbit/s: {row.size_as_printed} take no less time than "
                         f"{smaller.size_as_printed} at {t.attrs['printed']['throughput_mbit_s'][smaller.Index]} Mbit/s.",
                    off_note=f"{row.size_as_printed} at {{published}} Mbit/s would take less time than "
                             f"{smaller.size_as_printed} at {t.attrs['printed']['throughput_mbit_s'][smaller.Index]} "
                             "Mbit/s: at most {model:.2f} Mbit/s."))
    return out


@checks.provider("latency-and-bandwidth")
def crypto_size_source_checks():
    """SA2UL AES-CBC and SHA rates: a larger block takes no less time than the next smaller one."""
    return crypto_size_checks(data.load("am243x-aes-cbc"), data.load("am243x-sha"))


__all__ += ["most_rate_for", "crypto_size_checks"]


# --- SA2UL AES: a 256-bit key takes more rounds than a 128-bit one (issue 18) --------------------

#: AES's rounds per block by key length in bits (FIPS 197, Table 4): the engine does more work per block for
#: a longer key.
AES_ROUNDS = {128: 10, 192: 12, 256: 14}


def aes_key_checks(aes) -> list:
    """Each AES-CBC throughput with a longer key (table ``am243x-aes-cbc``, or an edited copy) against the same
    operation on the same size with the shortest key the table measures (``ceiling``, ``<=``): a longer key
    takes more rounds per block on the same engine (:data:`AES_ROUNDS`), so it can be no faster."""
    out = []
    shortest = int(aes["key_bits"].min())
    base = aes[aes["key_bits"] == shortest].set_index(["operation", "size_bytes"])
    for row in aes[aes["key_bits"] > shortest].itertuples():
        if AES_ROUNDS[row.key_bits] <= AES_ROUNDS[shortest]:
            continue
        ref = base.loc[(row.operation, row.size_bytes)]
        out.append(checks.compare(
            "latency-and-bandwidth", aes, row.Index, "throughput_mbit_s", float(ref["throughput_mbit_s"]),
            f"AES-{row.key_bits} {row.operation}, {row.size_as_printed}",  # the cell's row, as crypto_size_checks
            kind="ceiling", relation="<=",
            note=f"At most AES-{shortest}'s {{model:g}} Mbit/s for the same {row.operation} of "
                 f"{row.size_as_printed}: {AES_ROUNDS[row.key_bits]} rounds a block, not {AES_ROUNDS[shortest]}.",
            off_note=f"Faster than AES-{shortest} on the same {row.operation} of {row.size_as_printed} "
                     "({model:g} Mbit/s), with "
                     f"{AES_ROUNDS[row.key_bits]} rounds a block instead of {AES_ROUNDS[shortest]} on the same engine."))
    return out


@checks.provider("latency-and-bandwidth")
def aes_key_source_checks():
    """SA2UL AES-CBC: a 256-bit key no faster than a 128-bit one on the same operation and size."""
    return aes_key_checks(data.load("am243x-aes-cbc"))


__all__ += ["AES_ROUNDS", "aes_key_checks"]
