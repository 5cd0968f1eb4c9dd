"""The AM243x MCU+ SDK datasheet's MCSPI section (its performance table and its notes) checked against
:mod:`goodput.models.spi`, for the spi chapter: the notes' 64 us of clocks for 400 bytes at 50 MHz, each measured
throughput recomputed from its time, each measured time against the least the clock and the stated gap between
words allow, and each word count against the stated 400-byte transfer."""

from __future__ import annotations

from goodput import checks
from goodput.core import data
from goodput.core.params import DEFAULT
from goodput.models import spi
from goodput.models.spi import (
    PARAMETERS,
    clock,
    clock_time_expr,
    gap,
    spaced,
    transfer_time_expr,
    transfer_time_us,
    word_bits,
    words,
)

__all__ = ["TRANSFER_BYTES", "words_for", "mcspi_time_checks", "source_checks", "mcspi_time_source_checks"]


@checks.provider(spi)
def source_checks():
    """The 64 us of clocks for 400 bytes at 50 MHz, and each throughput recomputed from its time."""
    out = []
    t = data.load("am243x-mcspi-notes")
    for row in t.itertuples():
        model = spi.numeric("clock")(row.bytes, 8, row.clock_mhz, 0, 1, 0)
        out.append(checks.compare(t, row.Index, "value_us", model, f"{row.bytes} bytes at {row.clock_mhz:g} MHz",
                                  kind="prose",
                                  formula=(clock_time_expr(), {words: row.bytes, word_bits: 8, clock: row.clock_mhz})))
    t = data.load("am243x-mcspi")
    for row in t.itertuples():
        model = row.words * row.word_bits / row.transfer_time_us
        out.append(checks.compare(
            t, row.Index, "throughput_mbit_s", model, f"{row.words} x {row.word_bits} bits, {row.mode}",
            kind="consistency",
            off_note=f"{row.words * row.word_bits} bits in {row.transfer_time_us} us is {{model:.3f}} Mbit/s, "
                     "not {published}."))
    return out


TRANSFER_BYTES = 400  #: the datasheet's transfer length, the same for every word width


def words_for(transfer_bytes: int, bits: int) -> float:
    """Words a transfer of ``transfer_bytes`` takes at ``bits`` per word."""
    return 8 * transfer_bytes / bits


def mcspi_time_checks(t, clock_mhz: float = DEFAULT, gap_ns: float = DEFAULT) -> list:
    """Each measured transfer time against the least the clock and the stated gap between words allow
    (``relation=">="``), and each word count against the stated 400-byte transfer length.

    ``t`` is the ``am243x-mcspi`` table (or an edited copy of it)."""
    out = []
    f, g = PARAMETERS["clock_mhz"].check(clock_mhz), PARAMETERS["gap_ns"].check(gap_ns)
    for row in t.itertuples():
        least = transfer_time_us(row.words, row.word_bits, f, g, 1)
        clocks_only = spi.numeric("clock")(row.words, row.word_bits, f, g, 1, 0)
        out.append(checks.compare(
            t, row.Index, "transfer_time_us", least, f"{row.words} x {row.word_bits} bits, {row.mode}",
            kind="ceiling", relation=">=",
            note=f"{row.words} words of {row.word_bits} bits at {f:g} MHz with {g:g} ns and one bit time after "
                 "every word but the last take at least {model:.2f} us.",
            off_note=f"{row.words} words of {row.word_bits} bits at {f:g} MHz with the {g:g} ns and one bit time "
                     "the notes say the hardware adds after every word but the last take at least {model:.2f} us; "
                     f"the driver measured {{published}} us, which only the clocks alone ({clocks_only:g} us, "
                     "no gap at all) allow: the time and the note on the gap cannot both hold.",
            formula=(transfer_time_expr(), {words: row.words, word_bits: row.word_bits, clock: f, gap: g,
                                            spaced: 1})))
    for index in t.drop_duplicates("word_bits").index:
        row = t.loc[index]
        out.append(checks.compare(
            t, index, "words", words_for(TRANSFER_BYTES, row["word_bits"]),
            f"{row['word_bits']}-bit words",
            kind="consistency",
            note=f"{TRANSFER_BYTES} bytes in {row['word_bits']}-bit words.",
            off_note=f"{TRANSFER_BYTES} bytes in {row['word_bits']}-bit words are {{model:g}} words, not "
                     "{published}."))
    return out


@checks.provider(spi)
def mcspi_time_source_checks():
    """The MCSPI transfer times against the clock and the stated gap; the word counts against 400 bytes."""
    return mcspi_time_checks(data.load("am243x-mcspi"))
