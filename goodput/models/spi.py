"""SPI: N words of W bits at a clock f, with the gap the controller leaves between words.

The clocks alone take ``N * W / f``. The AM243x datasheet reports, from a scope,
that its MCSPI adds 160 ns and one bit time between consecutive words; with
that gap ``g`` the transfer takes ``N * W / f + (N - 1) * (g + 1 / f)``. A controller fed by DMA
in continuous mode sends the words back to back: ``c = 0`` drops the whole spacing term. What a
driver adds on top (polling, interrupts, DMA set-up) is not in the model: the
chapter shows which measured rows it explains and which it cannot.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.core.symbols import lambdify, maker
from goodput.models.quick import COMMANDS

symbol = maker(__name__)

__all__ = ["numeric",
           "words", "word_bits", "clock", "gap", "spaced", "setup", "transfer", "GAP_NS", "DMA_SETUP_US", "PARAMETERS",
           "clock_time_expr", "transfer_time_expr", "throughput_expr", "total_time_expr", "total_throughput_expr",
           "transfer_throughput_expr", "words_expr", "transfer_time_us", "evaluate", "evaluate_transfer"]

words = symbol("N", positive=True, integer=True)  #: words in one transfer
word_bits = symbol("W", positive=True, integer=True)  #: bits per word
clock = symbol("f_SPI", positive=True)  #: SPI clock, MHz
gap = symbol("g", nonnegative=True)  #: gap between words besides one bit time, ns
spaced = symbol("c", nonnegative=True, integer=True)  #: 1: words spaced by the gap and a bit time; 0: back to back
setup = symbol("t_0", nonnegative=True)  #: a fixed cost each transfer pays (a DMA or driver set-up), us
transfer = symbol("B", positive=True, integer=True)  #: bytes of one transfer

GAP_NS = 160  #: the AM243x MCSPI's gap between words, besides one bit time (a scope measurement)
#: The fixed part of the AM243x MCSPI's DMA transfers, to the microsecond: the least-squares fit of the
#: datasheet's DMA rows over the clocks-and-gaps model (the chapter's fit; a test holds it to it).
DMA_SETUP_US = 3148

PARAMETERS = by_name(
    Parameter("words", words, "words", 1, 1 << 20, default=400, step=1, label="words", integer=True),
    Parameter("word_bits", word_bits, "bits", 4, 32, default=8, step=1, label="word width (bits)",
              integer=True),
    Parameter("clock_mhz", clock, "MHz", 0.001, 200, default=50, step=1, label="SPI clock (MHz)"),
    Parameter("gap_ns", gap, "ns", 0, 10000, default=GAP_NS, step=10, label="gap between words (ns)"),
    Parameter("spaced", spaced, "", 0, 1, default=1, step=1, label="between words", integer=True,
              options=((0, "nothing (continuous DMA)"), (1, "the gap and a bit time"))),
    Parameter("setup_us", setup, "us", 0, 100000, default=0, step=0.1, label="fixed cost per transfer (us)",
              presets=((0, "none"), (DMA_SETUP_US, "AM243x DMA set-up, fitted"))),
    Parameter("transfer_bytes", transfer, "bytes", 1, 1 << 20, default=400, step=1, label="transfer (bytes)",
              integer=True, presets=((4, "4 B"), (64, "64 B"), (400, "400 B, the datasheet's"), (4096, "4 KiB"))),
)


def clock_time_expr() -> sp.Expr:
    """Time (us) the clocks of ``N`` words of ``W`` bits take at ``f`` MHz."""
    return words * word_bits / clock


def transfer_time_expr() -> sp.Expr:
    """Time (us) of the transfer with a gap of ``g`` ns and one bit time between words (``c = 1``), or
    with the words back to back (``c = 0``)."""
    return clock_time_expr() + spaced * (words - 1) * (gap / 1000 + 1 / clock)


def throughput_expr() -> sp.Expr:
    """Payload bits per microsecond (Mbit/s)."""
    return words * word_bits / transfer_time_expr()


def total_time_expr() -> sp.Expr:
    """Time (us) of the transfer with the fixed cost ``t_0`` every transfer pays besides (0 unless a set-up time is
    known: the AM243x's DMA rows fit one of about 3 ms)."""
    return setup + transfer_time_expr()


def total_throughput_expr() -> sp.Expr:
    """Payload bits per microsecond (Mbit/s) with the fixed cost counted."""
    return words * word_bits / total_time_expr()


def transfer_throughput_expr() -> sp.Expr:
    """Data bits per microsecond (Mbit/s) of a transfer of ``B`` bytes in ``N`` words, its fixed cost counted: the
    padding of a last word not full is no data."""
    return 8 * transfer / total_time_expr()


def words_expr() -> sp.Expr:
    """Words of ``W`` bits a transfer of ``B`` bytes takes, the last one padded."""
    return sp.ceiling(8 * transfer / word_bits)


@lru_cache(maxsize=None)
def numeric(name: str):
    """The model's time (us) of a transfer as a plain function of (words, word bits, clock MHz, gap ns, spaced,
    set-up us): ``"clock"`` (the clocks alone), ``"transfer"`` (with the gaps) or ``"total"`` (with the set-up)."""
    expr = {"clock": clock_time_expr(), "transfer": transfer_time_expr(), "total": total_time_expr()}[name]
    return lambdify((words, word_bits, clock, gap, spaced, setup), expr, "math")


def _checked(n, w, f, g, c, t0=0):
    p = PARAMETERS
    return (p["words"].check(n), p["word_bits"].check(w), p["clock_mhz"].check(f), p["gap_ns"].check(g),
            p["spaced"].check(c), p["setup_us"].check(t0))


def transfer_time_us(n_words: int, bits: int, clock_mhz: float = DEFAULT, gap_ns: float = DEFAULT,
                     spaced: int = DEFAULT) -> float:
    return numeric("transfer")(*_checked(n_words, bits, clock_mhz, gap_ns, spaced))


def evaluate(n_words: int, bits: int, clock_mhz: float = DEFAULT, gap_ns: float = DEFAULT,
             spaced: int = DEFAULT, setup_us: float = DEFAULT) -> dict:
    """One transfer as a JSON-ready dict: clock time, gaps, the fixed cost, total time, throughput, efficiency
    (the throughput and the efficiency with the fixed cost counted)."""
    if bits == 0:
        raise ParameterError("word_bits", bits, PARAMETERS["word_bits"].describe_range())
    args = _checked(n_words, bits, clock_mhz, gap_ns, spaced, PARAMETERS["setup_us"].check(setup_us))
    wire, clocks, total = numeric("transfer")(*args), numeric("clock")(*args), numeric("total")(*args)
    # the clocks' time over the whole time, as goodput spi computes it: never above 1, even in floats (the same or a
    # larger time), so the goodput is never above the clock
    efficiency = clocks / total
    throughput = efficiency * args[2]
    return {"words": args[0], "word_bits": args[1], "clock_mhz": args[2], "gap_ns": args[3], "spaced": args[4],
            "setup_us": args[5], "clock_time_us": clocks, "gap_time_us": wire - clocks, "transfer_time_us": wire,
            "total_time_us": total,
            "goodput_mbit_s": throughput, "goodput_gbit_s": throughput / 1000, "efficiency": efficiency}


@lru_cache(maxsize=None)
def _transfer_numeric(name: str):
    expr = {"words": words_expr()}[name]
    return lambdify((transfer, word_bits, clock, gap, spaced, setup), expr, "math")


def evaluate_transfer(transfer_bytes: int, bits: int, clock_mhz: float = DEFAULT, gap_ns: float = DEFAULT,
                      spaced: int = DEFAULT, setup_us: float = DEFAULT) -> dict:
    """A transfer of ``transfer_bytes`` in words of ``bits``: :func:`evaluate` of its words (the last padded,
    :func:`words_expr`), its goodput the transfer's own bytes over the time (:func:`transfer_throughput_expr`)."""
    p = PARAMETERS
    b, w = p["transfer_bytes"].check(transfer_bytes), p["word_bits"].check(bits)
    args = (b, w, p["clock_mhz"].check(clock_mhz), p["gap_ns"].check(gap_ns), p["spaced"].check(spaced),
            p["setup_us"].check(setup_us))
    r = evaluate(int(_transfer_numeric("words")(*args)), *args[1:])
    # the transfer's own bits' clock time over the whole time (transfer_throughput_expr over the clock), as
    # evaluate does it: never above 1 in floats either
    efficiency = numeric("clock")(1, 8 * b, *args[2:]) / r["total_time_us"]
    throughput = efficiency * args[2]
    return {**r, "transfer_bytes": b, "goodput_mbit_s": throughput, "goodput_gbit_s": throughput / 1000,
            "efficiency": efficiency}


# --- goodput spi ---------------------------------------------------------------------------------

COMMAND = Command(
    "spi", help="time and throughput of an SPI transfer",
    description="Time of N words of W bits at a clock f, with a gap of GAP ns plus one bit time between words (the "
                "AM243x MCSPI's, by default), or back to back (--continuous).",
    arguments=(Arg("--words", dest="words", metavar="N", default=None,
                   help=f"words: {PARAMETERS['words'].describe_range()} (or --bytes)"),
               Arg("--bytes", dest="transfer_bytes", metavar="B", default=None,
                   help=f"or the transfer's bytes, in words of W bits, the last padded: "
                        f"{PARAMETERS['transfer_bytes'].describe_range()}"),
               Ranged("--bits", PARAMETERS["word_bits"], "W", required=True),
               Ranged("--clock-mhz", PARAMETERS["clock_mhz"], "MHZ"),
               Ranged("--gap-ns", PARAMETERS["gap_ns"], "NS",
                      "gap between words besides one bit time (refused with --continuous)"),
               Arg("--continuous", action="store_true",
                   help="words back to back, no gap and no extra bit time (a controller in continuous DMA mode)"),
               Ranged("--setup-us", PARAMETERS["setup_us"], "US",
                      f"a fixed cost each transfer pays, a DMA or driver set-up (the AM243x DMA's: {DMA_SETUP_US})")),
    run=lambda args: _quick_run(args),
    lines=lambda args, r: _quick_lines(args, r))


def _quick_run(args) -> dict:
    """What ``goodput spi`` computes: the quick command's run (:mod:`goodput.models.quick`), written once there."""
    return COMMANDS["spi"][0](args)


def _quick_lines(args, r: dict) -> list[str]:
    """What ``goodput spi`` prints: the quick command's lines (:mod:`goodput.models.quick`), written once there."""
    return COMMANDS["spi"][1](args, r)
