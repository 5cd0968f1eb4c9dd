"""Every model subcommand of ``goodput`` on command lines drawn from its own options: a result, or one refusal.

The options are read from the parser itself (:func:`goodput.cli.build_parser`), so a subcommand or an option
added later is drawn here without a new test. Each option gets a value from a pool of the usual and the hostile:
its default, a number that is whole only once rounded to a float (``4.0000000000000001``), ``-inf``, ``nan``,
``1e999``, other scripts' digits, an empty word, a value of its choices. A command line is answered with status 0,
its output on stdout alone (with ``--json``: one object, every number finite, an efficiency at most 1), or refused
with status 2, nothing on stdout and a message on stderr whose last line names the error; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os

import pytest
from command import call
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goodput import cli
from goodput.models import cli_spec, spi

#: Command lines drawn: each runs in this process, a few milliseconds to a few tens of them.
EXAMPLES = settings(max_examples=min(300, int(os.environ.get("GOODPUT_FUZZ_EXAMPLES", "1000"))), deadline=None,
                    derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])

#: Values any option may be given besides its own default and choices.
HOSTILE = ("0", "1", "-1", "4", "64", "1500", "-inf", "nan", "inf", "1e999", "-1e5", "", "abc", "\u0663",
           "1_000", "0x10", " 4", "4.5")


def _options(name: str) -> tuple[list[argparse.Action], list[argparse.Action]]:
    """The positionals and the options of subcommand ``name``, as its parser declares them."""
    parser = cli.build_parser(name)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    actions = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
    return [a for a in actions if not a.option_strings], [a for a in actions if a.option_strings]


def _values(action: argparse.Action) -> list[str]:
    """What an option is drawn from: its choices, its default (and the same with a tail a float rounds away)."""
    own = [str(c) for c in action.choices or ()]
    if isinstance(action.default, str) and action.default:
        own.append(action.default)
        if action.default.isdigit():
            own.append(action.default + ".0000000000000001")
    return own + list(HOSTILE)


@st.composite
def command_lines(draw) -> tuple[list[str], dict]:
    """A subcommand and its words, and what the test must know of them (an option given twice, a whole number
    that is not one as written)."""
    name = draw(st.sampled_from(sorted(cli_spec.COMMANDS)))
    positionals, options = _options(name)
    words, told = [name], {"twice": None, "not_whole": []}
    for p in positionals:
        words.append(draw(st.sampled_from([str(c) for c in p.choices] if p.choices else list(HOSTILE))))
    for o in options:
        if not (o.required or draw(st.booleans())):
            continue
        flag = o.option_strings[0]
        if o.nargs == 0:  # a flag
            words.append(flag)
            continue
        value = draw(st.sampled_from(_values(o)))
        words += [flag, value]
        if value.endswith(".0000000000000001") and "an integer" in (o.help or ""):
            told["not_whole"].append(flag)
        if o.nargs is None and not isinstance(o, argparse._AppendAction) and draw(st.integers(0, 9)) == 0:
            words += [flag, draw(st.sampled_from(_values(o)))]
            told["twice"] = flag
    return words, told


@pytest.mark.slow
@EXAMPLES
@given(line=command_lines())
def test_every_subcommand_answers_or_refuses_any_command_line_of_its_options(line):
    words, told = line
    for argv in (words, [*words, "--json"]):
        p = call(*argv)
        assert "Traceback" not in p.stderr, (argv, p.stderr)
        if p.returncode == 0:
            assert p.stdout and p.stderr == "", (argv, p.stderr)
            assert told["twice"] is None and not told["not_whole"], (argv, "accepted")
            if argv[-1] == "--json":
                result = json.loads(p.stdout)
                if "efficiency" in result:
                    assert result["efficiency"] <= 1, (argv, result["efficiency"])
            continue
        assert p.returncode == 2 and p.stdout == "", (argv, p.returncode, p.stdout)
        last = p.stderr.rstrip("\n").splitlines()[-1]
        assert last.startswith(f"goodput {argv[0]}: error: ") or last.startswith("goodput: error: "), (argv, p.stderr)
        if told["twice"]:
            assert "given twice" in last or "error:" in last


def test_an_option_given_twice_is_refused_naming_both_values():
    p = call("pcie", "write", "--size", "64", "--lanes", "4", "--lanes", "8")
    assert p.returncode == 2 and p.stderr.splitlines()[-1] == (
        "goodput pcie: error: --lanes given twice (4 and 8): give it once")


@pytest.mark.parametrize("argv, flag", [
    (["pcie", "write", "--size", "64", "--lanes", "4.0000000000000001"], "--lanes"),
    (["spi", "--words", "4.0000000000000001", "--bits", "8"], "--words"),
    (["usb", "--burst", "4.0000000000000001"], "--burst"),
    (["srio", "nwrite", "--size", "256", "--lanes", "4.0000000000000001"], "--lanes"),
])
def test_a_whole_number_only_once_rounded_is_not_an_integer(argv, flag):
    p = call(*argv)
    assert p.returncode == 2 and f"error: {flag} 4.0000000000000001: " in p.stderr, p.stderr


@pytest.mark.parametrize("argv, words", [
    (["spi", "--words", "10", "--bits", "8", "--gap-ns", "-inf"], "--gap-ns -inf: gap_ns must be"),
    (["spi", "--words", "10", "--bits", "8", "--gap-ns", "-1e5"], "--gap-ns -1e5: gap_ns must be"),
    (["tcp", "--message", "-nan"], "--message -nan: "),
])
def test_a_value_with_a_minus_sign_is_the_options_value_and_refused_by_name(argv, words):
    p = call(*argv)
    assert p.returncode == 2 and words in p.stderr, p.stderr


@pytest.mark.parametrize("argv, words", [
    (["pcie", "write", "--gen", "3", "--size", "4096", "--flit", "dlp"], "--flit dlp: what counts as data in a flit"),
    (["hyperlink", "write", "--size", "100", "--memory", "DDR3"], "--memory DDR3: the memory that answers a read"),
    (["spi", "--words", "10", "--bits", "8", "--continuous", "--gap-ns", "100"], "--gap-ns 100: the gap between"),
])
def test_an_option_the_run_would_not_apply_is_refused_as_a_conflict(argv, words):
    p = call(*argv)
    assert p.returncode == 2 and p.stdout == "" and words in p.stderr, p.stderr


def test_the_json_echoes_only_what_was_applied():
    """Back to back, no gap; below gen 6, no flit convention; a write, no memory."""
    spi = json.loads(call("spi", "--words", "10", "--bits", "8", "--continuous", "--json").stdout)
    pcie = json.loads(call("pcie", "write", "--gen", "3", "--size", "64", "--json").stdout)
    flits = json.loads(call("pcie", "write", "--gen", "6", "--size", "64", "--flit", "dlp", "--json").stdout)
    assert "gap_ns" not in spi and "flit" not in pcie and flits["flit"] == "dlp"


@pytest.mark.parametrize("bits", range(4, 33, 3))
def test_back_to_back_words_are_exactly_the_clock(bits):
    """An SPI transfer with no gap and no fixed cost carries its clock exactly: the efficiency is 1, not
    1.0000000000000002, and the goodput is the clock (12 of 144 such lines were above it)."""
    for clock in ("3.3", "0.1", "7", "48", "50", "33.333"):
        for words in ("1", "3", "7", "1000"):
            r = json.loads(call("spi", "--words", words, "--bits", str(bits), "--clock-mhz", clock, "--continuous",
                                "--json").stdout)
            assert r["efficiency"] == 1 and r["goodput_mbit_s"] == float(clock), (bits, clock, words, r)
    r = json.loads(call("spi", "--bytes", "400", "--bits", "7", "--clock-mhz", "3.3", "--json").stdout)
    assert r["efficiency"] <= 1 and r["goodput_mbit_s"] <= 3.3
    # the library gives what the command gives: a transfer of whole words back to back is its clock exactly
    for clock in (3.3, 0.1, 33.333):
        words = spi.evaluate(7, bits, clock, spaced=0)
        whole = spi.evaluate_transfer(bits, 8, clock, spaced=0)  # bytes in 8-bit words: none padded
        assert (words["efficiency"], words["goodput_mbit_s"]) == (1, clock)
        assert (whole["efficiency"], whole["goodput_mbit_s"]) == (1, clock)
