"""Copy as command: every box whose chapter has a ``goodput`` command writes the command line whose JSON
holds the box's values, and the command's defaults are the box's (one default per parameter)."""

import contextlib
import io
import json

import pytest
from calc_points import points
from tiers import fast_first

from goodput import cli
from goodput.models import cli_spec
from goodput.render import calculations
from goodput.render.box_command import command_text

#: The chapters whose box has no command yet, and why: what the book would need for one.
WITHOUT_COMMAND = {
}

WITH_COMMAND = [c for c in calculations.CHAPTERS if c not in WITHOUT_COMMAND]
#: The same, the quick loop's one first: the line codes' box, the cheapest to build and run (the chooser's, first in
#: book order, takes a second).
QUICK_FIRST = sorted(WITH_COMMAND, key=lambda c: c != "line-coding")

#: A chapter whose box shares its command with another chapter's, and opens on its own source's case: the
#: command starts from the other chapter's values.
OPENS_ON_ITS_OWN_CASE = {
    "pcie-measured": "opens on AN3935's link and the timings fitted to its table; goodput pcie on pcie-packets' link",
    "choose-a-link": "the page's list starts with the book's eight links, the command's with none (--links)",
    "pcie-reads": "opens on the tutorial's PCIe 1.1 x1 with MPS and MRRS of 4096; goodput pcie on pcie-packets' link",
}


def run_json(argv: list[str]) -> dict | None:
    """The command's JSON; None where it refuses the values (and says why on stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main([*argv, "--json"])
    except SystemExit as exc:
        assert exc.code == 2 and "error:" in err.getvalue(), (command_text(argv), err.getvalue())
        return None
    assert status == 0, (command_text(argv), out.getvalue())
    return json.loads(out.getvalue())


def json_value(result: dict, key: str, case: dict):
    """The value at ``key`` of the command's JSON: ``a.b`` for a nested one, ``{column}`` the row's value, ``a[column]``
    the item of the list ``a`` whose ``column`` is the row's."""
    for part in key.format(**case).split("."):
        if part.endswith("]"):
            name, column = part[:-1].split("[")
            result = next(item for item in result[name] if item[column] == case[column])
        else:
            result = result[part]
    return result


def some_cases(calc) -> list[dict]:
    """The box's first case, the headline and the last: a few of a long table's rows."""
    records = calc.records()
    picked = {0, calc.headline_case(), len(records) - 1}
    return [records[i] for i in sorted(picked)]


@pytest.mark.slow  # it builds every chapter's calculation, some seconds; make test runs it
def test_every_box_has_a_command_or_says_why_not():
    for chapter in calculations.CHAPTERS:
        calc = calculations.get(chapter)
        assert (calc.command is None) == (chapter in WITHOUT_COMMAND), chapter


@pytest.mark.parametrize("chapter", fast_first(QUICK_FIRST))
@pytest.mark.parametrize("point", fast_first(["defaults", "low", "high", "third"]))
def test_the_command_of_a_box_prints_the_boxs_values(chapter, point):
    """state -> command -> JSON = the box's values, at each point of the sliders and a few cases."""
    calc = calculations.get(chapter)
    inputs = calc.input_values(**points(calc)[point])
    by_name = {o.name: o for o in calc.outputs}
    for case in some_cases(calc):
        argv = calc.command_argv(inputs, case)
        result = run_json(argv)
        values = calc.evaluate(inputs, case)
        if result is None:  # the command refuses a link that cannot be (a frame too short for its headers):
            # the box shows it carrying nothing
            assert values[calc.answers.goodput] == 0, command_text(argv)
            continue
        for output, key in calc.command.outputs.items():
            o = by_name[output]
            got = json_value(result, key, case)
            if o.labels:
                assert got == o.labels[int(values[output])], (command_text(argv), output)
            else:
                assert got == pytest.approx(values[output], rel=1e-9, abs=1e-12), (command_text(argv), output)


#: Options a command needs one of, though argparse requires none (SPI's transfer: --words or --bytes; CAN's frame:
#: --bytes, or --message for each of a list).
ONE_OF = {"spi": {"--bytes"}, "can": {"--bytes"}}


def _required_only(calc, case: dict) -> list[str]:
    """The box's starting values as the command with only the words it cannot do without: its positional
    words and required options."""
    command = calc.command
    required = {f[0] for f, o in cli_spec.COMMANDS[command.command][2] if o.get("required")}
    required |= ONE_OF.get(command.command, set())
    values = calc.defaults()

    def value_of(source):
        return values[source] if source in values else case[source]

    kept = [w for w in command.resolved(calc.input_names(), list(calc.cases.columns))
            if not w.flag.startswith("-") or w.flag in required]
    return [command.command] + [t for w in kept for t in w.words(value_of)]


@pytest.mark.parametrize("chapter", fast_first([c for c in QUICK_FIRST if c not in OPENS_ON_ITS_OWN_CASE]))
def test_the_commands_defaults_are_the_boxs(chapter):
    """The box's starting values written in full print what the command prints with only what it requires."""
    calc = calculations.get(chapter)
    case = calc.records()[calc.headline_case()]
    argv = calc.command_argv(calc.defaults(), case)
    bare = _required_only(calc, case)
    assert len(bare) < len(argv), command_text(argv)
    assert run_json(argv) == run_json(bare), (command_text(argv), command_text(bare))


def test_a_value_the_command_has_no_word_for_is_refused():
    calc = calculations.get("pcie-packets")
    with pytest.raises(ValueError, match="no word for"):
        calc.command_argv({**calc.defaults(), "header_dwords": 5}, calc.records()[0])


def test_a_box_input_the_command_lacks_is_refused_where_it_is_declared():
    from dataclasses import replace

    calc = calculations.get("srio")
    with pytest.raises(ValueError, match="has no option for the box's input 'id_bits'"):
        replace(calc, command=replace(calc.command, command="coding"))


def test_goodput_pcie_read_gives_a_reads_latency_and_reads_in_flight_worked_by_hand():
    """Gen 3 x4 moves a byte in 8 bits / (8 GT/s x 4 lanes x 128/130) = 0.25390625 ns. A read of 1024 bytes with MPS
    256 and MRRS 512 is 2 requests of 20 bytes (12 of header, 8 of framing) and 4 completions of 256 + 20 bytes:
    1144 bytes on the wire, 290.46875 ns, plus the completer's 500 ns: 790.46875 ns, so 1024 B / 790.46875 ns =
    1295.43 MB/s one at a time; four in flight would need more than the completions' direction carries,
    1024 / (1104 x 0.25390625 ns) = 3653.07 MB/s."""
    one = run_json(["pcie", "read", "--gen", "3", "--lanes", "4", "--mps", "256", "--mrrs", "512", "--size", "1024"])
    assert one["read_latency_ns"] == pytest.approx(790.46875, rel=1e-12)
    assert one["reads_mbyte_s"] == pytest.approx(1024 / 790.46875 * 1000, rel=1e-12)
    four = run_json(["pcie", "read", "--gen", "3", "--lanes", "4", "--mps", "256", "--mrrs", "512", "--size", "1024",
                     "--in-flight", "4"])
    assert four["reads_mbyte_s"] == pytest.approx(1024 / (1104 * 0.25390625) * 1000, rel=1e-12)
