"""The AM243x MCU+ SDK datasheet's latency and throughput tables checked against themselves, for the
latency-and-bandwidth chapter (:mod:`goodput.analysis.am243x`): SA2UL PKA sign-and-verify rates against their sign
and verify rates, and its RSA rates against the RSA table's; IPC Notify and RPMsg latencies against one clock period
of the measuring R5F (its clock from the setup table); MATHLIB averages against their maxima; the RSA table's sizes
against the key's modulus and its rates against each other; SA2UL AES-CBC and SHA rates against the next smaller
block and AES-256 against AES-128; ECDSA rates against each other."""

from __future__ import annotations

from goodput import checks
from goodput.analysis import am243x
from goodput.core import data
from goodput.core.errors import ParameterError

__all__ = ["source_checks", "core_clock_mhz", "clock_period_ns", "ipc_checks", "ipc_source_checks",
           "MATHLIB_LIBRARIES", "mathlib_checks", "mathlib_source_checks", "operations_per_s", "pka_rsa_checks",
           "pka_rsa_source_checks", "BITS_PER_BYTE", "rsa_block_bytes", "SIZE_UNITS", "printed_size",
           "rsa_size_checks", "rsa_size_source_checks", "rate_in_same_time", "most_rate_for", "crypto_size_checks",
           "crypto_size_source_checks", "AES_ROUNDS", "aes_key_checks", "aes_key_source_checks", "RSA_KEYS",
           "rsa_rate_checks", "rsa_rate_source_checks", "ecdsa_rate_checks", "ecdsa_rate_source_checks"]


@checks.provider(am243x)
def source_checks():
    """Sign-and-verify rates: one sign and one verify in turn take the sum of their times."""
    t = data.load("am243x-pka")
    return [checks.compare(
        t, row.Index, "sign_and_verify_per_s",
        1 / (1 / row.sign_per_s + 1 / row.verify_per_s), f"{row.algorithm}-{row.key_bits}",
        off_note=f"1 / (1/{row.sign_per_s} + 1/{row.verify_per_s}) is {{model:.2f}} per second; the table "
                 "prints {published}, cut to a whole number.") for row in t.itertuples()]


# --- IPC latencies: at least one clock period of the measuring core -------------------------------

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
                t, row.Index, column, period_ns / scale, label,
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


@checks.provider(am243x)
def ipc_source_checks():
    """IPC Notify and RPMsg latencies against one clock period of the measuring R5F."""
    return ipc_checks(data.load("am243x-ipc-notify"), data.load("am243x-ipc-rpmsg"), core_clock_mhz())


# --- MATHLIB: an average of the same samples is at most their maximum -----------------------------

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
                t, row.Index, avg, getattr(row, mx), f"{row.function}, {name}",
                kind="consistency", relation="<=",
                note="The average of 500 samples is at most their maximum, {model:g} cycles.",
                off_note="An average of {published} cycles over 500 samples whose maximum is {model:g}: no "
                         "average exceeds the largest value it averages."))
    return out


@checks.provider(am243x)
def mathlib_source_checks():
    """MATHLIB: each average cycle count against the maximum of the same samples."""
    return mathlib_checks(data.load("am243x-mathlib"))


# --- PKA rates against the RSA table's times for the same key -------------------------------------

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
                pka, row.Index, column, rate, f"{row.algorithm}-{row.key_bits}",
                kind="consistency", otherwise="unexplained",
                note=f"RSA {operation} ({key} key) of {r['size_as_printed']} at {tp} Mbit/s is "
                     "{model:.2f} per second; the table prints {published}, cut to a whole number." if near else
                     f"RSA {operation} ({key} key) of {r['size_as_printed']} at {tp} "
                     "Mbit/s is {model:.2f} operations per second; the PKA table prints {published} for the "
                     "same key. The RSA test (test_sa2ul_rsa) may time more than the PKA operation "
                     "(padding, set-up), which the datasheet does not say."))
    return out


@checks.provider(am243x)
def pka_rsa_source_checks():
    """The PKA's RSA sign and verify rates against the RSA table's decryption and encryption."""
    return pka_rsa_checks(data.load("am243x-pka"), data.load("am243x-rsa"))


# --- RSA: an operation works on a block the size of the key's modulus -------------------------------

BITS_PER_BYTE = 8


def rsa_block_bytes(key_bits: int) -> float:
    """The bytes one RSA encryption or decryption takes in and gives out with a key of ``key_bits``: a number
    below the modulus, written in as many bytes as the modulus (PKCS #1's k octets)."""
    if key_bits <= 0 or key_bits % BITS_PER_BYTE:
        raise ParameterError("key_bits", key_bits, f"a positive multiple of {BITS_PER_BYTE}")
    return key_bits / BITS_PER_BYTE


#: The units the RSA table prints a size in, in bytes.
SIZE_UNITS = {"B": 1, "KB": 1024}


def printed_size(text: str) -> tuple[str, float]:
    """A size as the crypto tables print it, split into its number as printed and the bytes its unit holds:
    ``"256.00 B"`` -> ``("256.00", 1)``, ``"32.00 KB"`` -> ``("32.00", 1024)``."""
    number, _, unit = str(text).strip().partition(" ")
    if unit.strip() not in SIZE_UNITS:
        raise ValueError(f"size {text!r}: expected a number and one of {', '.join(SIZE_UNITS)}")
    checks.printed_value(number)  # refuses what is no number
    return number, SIZE_UNITS[unit.strip()]


def rsa_size_checks(rsa) -> list:
    """Each size the RSA table (``am243x-rsa``, or an edited copy) prints for an operation, as printed
    (``"256.00 B"``: the number 256.00 in bytes), against the block of its row's key (:func:`rsa_block_bytes`;
    ``consistency``, exact: whole bytes)."""
    prov = rsa.attrs["provenance"]
    out = []
    for row in rsa.itertuples():
        text = rsa.attrs["printed"]["size_as_printed"][row.Index]
        number, unit_bytes = printed_size(text)
        block = rsa_block_bytes(row.key_bits) / unit_bytes
        out.append(checks.check(
            prov["document"], prov["table"], f"RSA-{row.key_bits} {row.operation}", "size",
            "bytes" if unit_bytes == 1 else f"{unit_bytes:g} bytes", number, block, resource=prov["resource"],
            kind="consistency", exact=True, cell=f"{row.Index} | size_as_printed",
            note=f"One {row.operation} works on a block as long as the {row.key_bits}-bit modulus: {{model:.0f}} "
                 "bytes.",
            off_note=f"A {row.key_bits}-bit key's block is {{model:.0f}} bytes, the modulus's length; the table prints "
                     f"{text}."))
    return out


@checks.provider(am243x)
def rsa_size_source_checks():
    """SA2UL RSA: each operation's size against its key's modulus."""
    return rsa_size_checks(data.load("am243x-rsa"))


# --- SA2UL AES and SHA: a larger block takes no less time ------------------------------------------

def rate_in_same_time(size_bytes: float, other_bytes: float, other_rate: float) -> float:
    """The rate a block of ``size_bytes`` shows when it takes as long as one of ``other_bytes`` did at
    ``other_rate``: ``other_rate * size_bytes / other_bytes``."""
    return other_rate * size_bytes / other_bytes


def most_rate_for(size_bytes: float, smaller_bytes: float, smaller_rate: float) -> float:
    """The highest rate a block of ``size_bytes`` can show when one of ``smaller_bytes`` ran at
    ``smaller_rate``: the larger block takes at least as long (:func:`rate_in_same_time`)."""
    return rate_in_same_time(size_bytes, smaller_bytes, smaller_rate)


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
                    t, row.Index, "throughput_mbit_s",
                    most_rate_for(row.size_bytes, smaller.size_bytes, smaller.throughput_mbit_s),
                    f"{name(row)}, {row.size_as_printed}", kind="consistency", relation="<=",
                    note=f"At most {{model:.2f}} Mbit/s: {row.size_as_printed} take no less time than "
                         f"{smaller.size_as_printed} at {t.attrs['printed']['throughput_mbit_s'][smaller.Index]} Mbit/s.",
                    off_note=f"{row.size_as_printed} at {{published}} Mbit/s would take less time than "
                             f"{smaller.size_as_printed} at {t.attrs['printed']['throughput_mbit_s'][smaller.Index]} "
                             "Mbit/s: at most {model:.2f} Mbit/s."))
    return out


@checks.provider(am243x)
def crypto_size_source_checks():
    """SA2UL AES-CBC and SHA rates: a larger block takes no less time than the next smaller one."""
    return crypto_size_checks(data.load("am243x-aes-cbc"), data.load("am243x-sha"))


# --- SA2UL AES: a 256-bit key takes more rounds than a 128-bit one --------------------------------

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
            aes, row.Index, "throughput_mbit_s", float(ref["throughput_mbit_s"]),
            f"AES-{row.key_bits} {row.operation}, {row.size_as_printed}",  # the cell's row, as crypto_size_checks
            kind="ceiling", relation="<=",
            note=f"At most AES-{shortest}'s {{model:g}} Mbit/s for the same {row.operation} of "
                 f"{row.size_as_printed}: {AES_ROUNDS[row.key_bits]} rounds a block, not {AES_ROUNDS[shortest]}.",
            off_note=f"Faster than AES-{shortest} on the same {row.operation} of {row.size_as_printed} "
                     "({model:g} Mbit/s), with "
                     f"{AES_ROUNDS[row.key_bits]} rounds a block instead of {AES_ROUNDS[shortest]} on the same engine."))
    return out


@checks.provider(am243x)
def aes_key_source_checks():
    """SA2UL AES-CBC: a 256-bit key no faster than a 128-bit one on the same operation and size."""
    return aes_key_checks(data.load("am243x-aes-cbc"))


# --- RSA and ECDSA rates against each other: a longer key, and more work, take no less time ---------------

#: The RSA table's operations by the key they use: encryption the public one, decryption the private one.
RSA_KEYS = {"encryption": "public", "decryption": "private"}


def rsa_rate_checks(rsa) -> list:
    """The four rates of the RSA table (``am243x-rsa``, or an edited copy; ``consistency``), each held to one
    of its others by one of two rules, no pair compared twice:

    - a longer key takes no less time on the same operation: each of its multiplications works on longer
      numbers, and there are no fewer of them (the public exponent is the same; the private one is as long as
      the modulus). So the shorter key's rate is at least the longer key's turned into its block
      (:func:`rate_in_same_time`), and the longer key's at most the shorter key's so turned.
    - a public-key operation (encryption) takes no more time than the private-key one (decryption) on the
      same key and block: a public exponent is short, a private one as long as the modulus. The page does not
      print the exponents, but its PKA table shows the same engine verifying (public key) 14 and 29 times
      faster than it signs (private key); a rate against this rule is ``unexplained``.

    The rows are matched to the rules so that each rate has one: encryption of the shorter key against its
    decryption, encryption of the longer key against the shorter key's, decryption of the shorter key
    against the longer key's, and decryption of the longer key against its encryption."""
    printed = rsa.attrs["printed"]["throughput_mbit_s"]
    rows = {(r.key_bits, r.operation): r for r in rsa.itertuples()}
    keys = sorted({k for k, _ in rows})
    if len(keys) != 2 or len(rows) != 4:
        raise ValueError("am243x-rsa: expected an encryption and a decryption for each of two keys")
    short, long_ = keys
    out = []

    def label(r):
        return f"RSA-{r.key_bits} {r.operation}"

    def by_key(r, other):
        """``r`` against ``other``, the same operation with the other key."""
        bound = rate_in_same_time(r.size_bytes, other.size_bytes, other.throughput_mbit_s)
        longer = r.key_bits > other.key_bits
        return checks.compare(
            rsa, r.Index, "throughput_mbit_s", bound, label(r), kind="consistency",
            relation="<=" if longer else ">=",
            note=f"{'At most' if longer else 'At least'} {{model:.6f}} Mbit/s: {r.size_as_printed} with a "
                 f"{r.key_bits}-bit key take {'no less' if longer else 'no more'} time than {other.size_as_printed} "
                 f"with a {other.key_bits}-bit key at {printed[other.Index]} Mbit/s.",
            off_note=f"{r.size_as_printed} with a {r.key_bits}-bit key at {{published}} Mbit/s would take "
                     f"{'less' if longer else 'more'} time than {other.size_as_printed} with a {other.key_bits}-bit key "
                     f"at {printed[other.Index]} Mbit/s: {'at most' if longer else 'at least'} {{model:.6f}} Mbit/s.")

    def by_exponent(r, other):
        """``r`` against ``other``, the other operation with the same key and block."""
        public = RSA_KEYS[r.operation] == "public"
        return checks.compare(
            rsa, r.Index, "throughput_mbit_s", other.throughput_mbit_s, label(r),
            kind="consistency", relation=">=" if public else "<=", otherwise="unexplained",
            note=f"{'At least' if public else 'At most'} the {other.operation}'s {{model:g}} Mbit/s on the same "
                 f"key and block: the {RSA_KEYS[r.operation]} exponent is the "
                 f"{'shorter' if public else 'longer'}, as the PKA table's verifies and signs show.",
            off_note=f"{'Slower' if public else 'Faster'} than the {other.operation} with the same "
                     f"{r.key_bits}-bit key and block ({{model:g}} Mbit/s): a {RSA_KEYS[r.operation]}-key operation "
                     f"{'with a short exponent' if public else 'with an exponent as long as the modulus'} should take "
                     f"{'less' if public else 'more'} time, as the same engine's PKA table shows (it verifies "
                     "faster than it signs). The page does not say which exponents the RSA test uses.")

    out.append(by_exponent(rows[(short, "encryption")], rows[(short, "decryption")]))
    out.append(by_key(rows[(long_, "encryption")], rows[(short, "encryption")]))
    out.append(by_key(rows[(short, "decryption")], rows[(long_, "decryption")]))
    out.append(by_exponent(rows[(long_, "decryption")], rows[(long_, "encryption")]))
    return out


@checks.provider(am243x)
def rsa_rate_source_checks():
    """SA2UL RSA: each rate against another of the table's (a longer key, a private key take no less time)."""
    return rsa_rate_checks(data.load("am243x-rsa"))


def ecdsa_rate_checks(pka) -> list:
    """The four ECDSA signs and verifies per second of the PKA table (``am243x-pka``, or an edited copy;
    ``consistency``), each held to one of its others by one of two rules, no pair compared twice:

    - a larger curve takes no less time for the same operation: a scalar multiplication over P-384 has more
      bits to step through than over P-256, each step on longer numbers (``erratum`` if not);
    - a verify takes no less time than a sign on the same curve: it inverts as a sign does and multiplies two
      points by scalars where a sign multiplies one (a slow random number for the sign could undo this, which
      the page does not say: ``unexplained`` if not).

    Matched so that each rate has one: the smaller curve's sign against the larger curve's, the larger curve's
    verify against the smaller curve's, the smaller curve's verify against its sign and the larger curve's
    sign against its verify."""
    e = pka[pka["algorithm"] == "ECDSA"]
    if e["key_bits"].nunique() != 2 or len(e) != 2:
        raise ValueError("am243x-pka: expected one ECDSA row for each of two curves")
    small, large = (e[e["key_bits"] == k].iloc[0] for k in sorted(e["key_bits"]))
    names = {"sign_per_s": "signs", "verify_per_s": "verifies"}
    printed = pka.attrs["printed"]
    out = []

    def by_curve(r, other, column):
        larger = r["key_bits"] > other["key_bits"]
        return checks.compare(
            pka, r.name, column, float(other[column]), f"ECDSA-{r['key_bits']}",
            kind="consistency", relation="<=" if larger else ">=",
            note=f"{'At most' if larger else 'At least'} the {{model:g}} {names[column]} a second of P-"
                 f"{other['key_bits']}: a {'larger' if larger else 'smaller'} curve takes "
                 f"{'no less' if larger else 'no more'} time.",
            off_note=f"{'More' if larger else 'Fewer'} {names[column]} a second on P-{r['key_bits']} ({{published}}) "
                     f"than on P-{other['key_bits']} ({{model:g}}): a {'larger' if larger else 'smaller'} curve "
                     f"would be {'faster' if larger else 'slower'} on the same engine.")

    def by_work(r, column):
        verify = column == "verify_per_s"
        other = "sign_per_s" if verify else "verify_per_s"
        return checks.compare(
            pka, r.name, column, float(r[other]), f"ECDSA-{r['key_bits']}",
            kind="consistency", relation="<=" if verify else ">=", otherwise="unexplained",
            note=f"{'At most' if verify else 'At least'} the {{model:g}} {names[other]} a second on the same curve: "
                 "a verify multiplies two points by scalars, a sign one.",
            off_note=f"{'More verifies than signs' if verify else 'Fewer signs than verifies'} a second on P-"
                     f"{r['key_bits']} ({printed[column][r.name]} against {printed[other][r.name]}): a verify "
                     "multiplies two points by scalars, a sign one; only a slow random number for each sign, "
                     "which the page does not mention, would make a sign the slower.")

    out.append(by_curve(small, large, "sign_per_s"))
    out.append(by_curve(large, small, "verify_per_s"))
    out.append(by_work(small, "verify_per_s"))
    out.append(by_work(large, "sign_per_s"))
    return out


@checks.provider(am243x)
def ecdsa_rate_source_checks():
    """SA2UL PKA ECDSA: each sign and verify rate against another (a larger curve, a verify take no less time)."""
    return ecdsa_rate_checks(data.load("am243x-pka"))
