"""The command starts without sympy, pandas or altair; its quick subcommands (goodput.models.quick) print what
their models print, and the subcommands run by a model's numbers (goodput.<model>_numeric) print what
they print with the functions lambdified from the model's expressions.

goodput/models/cli_spec.py and goodput/models/quick_spec.py are written by tools/gen_cli_spec.py from the models; these
tests hold them to what the tool writes now, the numeric functions in quick_spec to the models' own, each
quick subcommand's output to the same subcommand run through its model's COMMAND in this process, and
each numeric module's subcommand to the same with quick_spec's section made again from the model and
its functions lambdified.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import json
import subprocess
import sys

import gen_cli_spec
import pytest
from command import call

from goodput import cli
from goodput.core.symbols import lambdify
from goodput.models import cli_spec, coding, ethernet, pcie, quick, quick_spec, spi

HEAVY = ("sympy", "pandas", "altair", "numpy")


def _imported_by(*args: str) -> set[str]:
    """The heavy packages ``python -m goodput args...`` has imported when it exits, in a new interpreter."""
    code = ("import runpy, sys\n"
            "try:\n"
            "    runpy.run_module('goodput', run_name='__main__', alter_sys=True)\n"
            "except SystemExit:\n"
            "    pass\n"
            f"sys.stderr.write('\\nimported:' + ' '.join(m for m in {HEAVY!r} if m in sys.modules))\n")
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    return set(p.stderr.rpartition("\nimported:")[2].split())


@pytest.mark.parametrize("args", [
    ["--help"],
    ["pcie", "--help"],
    ["ethernet", "--frame", "64", "--rate-gbit-s", "10", "--json"],
    ["ethernet", "--frame", "1518", "--stack", "tcp4ts"],
    ["pcie", "write", "--gen", "3", "--lanes", "8", "--size", "4096", "--json"],
    ["pcie", "read", "--gen", "2", "--size", "1500", "--dllp", "spec"],
    ["pcie", "write", "--gen", "9", "--size", "64"],  # refused: the error path too
    ["coding", "--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "4", "--json"],
    ["spi", "--words", "400", "--bits", "8", "--clock-mhz", "50"],
], ids=" ".join)
def test_the_command_and_its_quick_subcommands_import_no_sympy_pandas_or_altair(args):
    assert _imported_by(*args) == set()


#: The README's command line of each subcommand that its model's numbers run (goodput.<model>_numeric).
README = {
    "usb": ["usb", "--json"],
    "tcp": ["tcp", "--message", "8192", "--rate-mbit-s", "1000", "--window", "65535", "--rtt-us", "1000", "--json"],
    "can": ["can", "--bytes", "64", "--extended", "--arb-mbit-s", "1", "--data-mbit-s", "5", "--stuffing", "0.5"],
    "srio": ["srio", "nwrite", "--rate-gbaud", "5", "--lanes", "4", "--size", "8192", "--json"],
    "hyperlink": ["hyperlink", "read", "--rate-gbaud", "6.25", "--lanes", "4", "--size", "32768", "--memory", "DDR3",
                  "--json"],
    "bus": ["bus", "--from", "MSMC SRAM", "--to", "DDR3A", "--tc", "TC0", "--tc", "TC1", "--json"],
    "choose": ["choose", "--rate-mbyte-s", "100", "--size", "4096", "--latency-us", "50"],
}


def _imported_after_each(*argvs: list[str]) -> list[set[str]]:
    """The heavy packages imported once each of ``python -m goodput argv...`` has run, one after the other in
    one new interpreter (a package the first imported is still there after the second)."""
    code = ("import runpy, sys\n"
            f"for argv in {argvs!r}:\n"
            "    sys.argv[1:] = argv\n"
            "    try:\n"
            "        runpy.run_module('goodput', run_name='__main__', alter_sys=True)\n"
            "    except SystemExit:\n"
            "        pass\n"
            f"    sys.stderr.write('\\nimported:' + ' '.join(m for m in {HEAVY!r} if m in sys.modules) + '\\n')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return [set(part.split("\n")[0].split()) for part in p.stderr.split("\nimported:")[1:]]


def test_the_subcommands_a_models_numbers_run_import_no_sympy_pandas_or_altair():
    argvs = list(README.values())
    found = _imported_after_each(*argvs, ["usb", "--gen", "3"], ["tcp", "--message", "100", "--ipv6", "--mtu", "1000"])
    assert found == [set()] * (len(argvs) + 2), dict(zip(map(" ".join, argvs), found))


def test_each_subcommand_runs_its_quick_version_its_models_numbers_or_its_models_command():
    for name, (module, _texts, _arguments) in cli_spec.COMMANDS.items():
        run, lines = cli._implementation(name, module)
        if name in quick.COMMANDS:
            assert (run, lines) == quick.COMMANDS[name]
            continue
        model = importlib.import_module(f"goodput.{module}")
        command = getattr(model, "COMMAND", None) or importlib.import_module(
            f"goodput.{module.removesuffix('_numeric')}").COMMAND
        assert (run, lines) == (command.run, command.lines)
        assert (module.rpartition(".")[2] == f"{name}_numeric") == (name in gen_cli_spec.NUMERIC), name


@pytest.mark.slow  # 1.2 s: every model's expressions printed again
def test_the_generated_modules_are_what_the_generator_writes_from_the_models_now():
    for path, text in gen_cli_spec.render().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale: run python tools/gen_cli_spec.py"


def test_every_quick_subcommand_is_a_model_subcommand_of_the_spec():
    assert set(quick.COMMANDS) <= set(cli_spec.COMMANDS) and set(quick.COMMANDS) == set(gen_cli_spec.QUICK)
    assert set(gen_cli_spec.NUMERIC) <= set(cli_spec.COMMANDS) and not set(gen_cli_spec.NUMERIC) & set(quick.COMMANDS)
    assert set(README) == set(gen_cli_spec.NUMERIC)


# --- the numeric functions printed from the models, against the models' own lambdified functions ---

def test_ethernet_functions_agree_with_the_model_over_a_grid():
    grid = itertools.product((64, 65, 100, 1518, 9018, 16000), (0.001, 0.1, 1.0, 2.5, 10.0, 400.0),
                             (0, ethernet.VLAN_TAG_BYTES), (0, 28, 72), (ethernet.WIRE, ethernet.FRAME_ONLY))
    for values in grid:
        for name in ("line", "payload", "frames", "counted"):
            assert getattr(quick_spec, f"ethernet_{name}")(*values) == ethernet._numeric(name)(*values), (name, values)
    for vlan_tag, stack in itertools.product((False, True), ethernet.STACKS.values()):
        assert quick_spec.ethernet_headers(ethernet.VLAN_TAG_BYTES if vlan_tag else 0, stack.header_bytes) \
            == ethernet._frame_headers(stack, vlan_tag)


def _links():
    for gen, lanes, addr, ecrc, dllp, skp, split, flit in itertools.product(
            pcie.GENERATIONS, (1, 4, 32), (32, 64), (False, True), ("none", "spec", "every:3", "every-any:2"),
            ("none", "min", "4/1538"), ("mps", "rcb"), ("tlp", "dlp")):
        link = pcie.Link(gen=gen, lanes=lanes, mps=512, mrrs=256, rcb=128, addr=addr, ecrc=ecrc, dllp=dllp,
                         skp=skp, split=split, flit=flit)
        try:
            yield link.checked()
        except ValueError:  # not a link the model takes (min SKP in flit mode, x32 with spec limits...)
            continue


@pytest.mark.slow
def test_pcie_functions_agree_with_the_model_over_a_grid():
    checked = 0
    for link, size, kind, duplex in itertools.product(_links(), (1, 100, 4096, 10 ** 6), ("write", "read"),
                                                      (False, True)):
        policy = link.dllp_policy()[0]
        values = pcie._values(link, size)
        goodput, parts, tlps, names = pcie._numeric(kind, policy, duplex, link.split)
        variant = (kind, policy, duplex, link.split)
        assert getattr(quick_spec, gen_cli_spec.pcie_function_name("goodput", *variant))(*values) == goodput(*values)
        assert list(getattr(quick_spec, gen_cli_spec.pcie_function_name("parts", *variant))(*values)) \
            == list(parts(*values))
        assert getattr(quick_spec, f"pcie_tlps_{kind}_{link.split}")(*values) == tlps(*values)
        name = policy.replace("-", "_")
        assert getattr(quick_spec, f"pcie_time_share_{name}")(*values) == pcie._time_share(policy)(*values)
        assert getattr(quick_spec, f"pcie_dllp_share_{name}")(*values) == pcie._dllp_share(policy)(*values)
        checked += 1
    assert checked > 1000


def test_pcie_sizes_and_the_bit_rate_agree_with_the_model():
    for gen, dwords, ecrc_on in itertools.product(pcie.GENERATIONS, (3, 4), (0, 1)):
        sizes = pcie.size_exprs(gen, dwords, ecrc_on)
        assert quick_spec.pcie_sizes(gen, dwords, ecrc_on) == tuple(
            int(sizes[s]) for s in (pcie.header, pcie.cpl_header, pcie.framing, pcie.ecrc, pcie.dllp))


def test_line_code_and_spi_functions_agree_with_the_models_over_a_grid():
    for rate, lanes, code in itertools.product((0.001, 2.5, 3.125, 8.0, 10.3125, 64.0), (1, 3, 32),
                                               coding.CODES.values()):
        bits = (code.data_bits, code.coded_bits)
        assert quick_spec.coding_bit_rate(rate, lanes, *bits) == coding.bit_rate_gbit_s(rate, lanes, code.key)
        assert quick_spec.coding_byte_rate(rate, lanes, *bits) == coding.byte_rate_gbyte_s(rate, lanes, code.key)
        assert quick_spec.coding_efficiency(*bits) == coding.efficiency(code.key)
    for values in itertools.product((1, 2, 400, 1 << 20), (4, 8, 32), (0.001, 50, 200), (0, 160, 10000), (0, 1),
                                    (0, 3148)):
        for name in ("clock", "transfer", "total"):
            assert getattr(quick_spec, f"spi_{name}")(*values) == spi.numeric(name)(*values), (name, values)
        # the goodput, the clocks' time over the whole time times the clock, is the model's throughput expression
        throughput = lambdify((spi.words, spi.word_bits, spi.clock, spi.gap, spi.spaced, spi.setup),
                                 spi.total_throughput_expr(), "math")(*values)
        assert spi.evaluate(*values)["goodput_mbit_s"] == pytest.approx(throughput, rel=1e-12), values


# --- each quick subcommand against the same subcommand through its model's COMMAND ----------------

def _through_the_model(name: str, module: str):
    command = importlib.import_module(f"goodput.{module}").COMMAND
    return command.run, command.lines


LONG = "1" * 5000

ETHERNET = [
    [*frame, *rate, *stack, *flags]
    for frame in (["--frame", "64"], ["--frame", "65"], ["--frame", "1518"], ["--frame", "16000"])
    for rate in ([], ["--rate-gbit-s", "0.1"], ["--rate-gbit-s", "2.5"], ["--rate-gbit-s", "400"])
    for stack in ([], ["--stack", "tcp4ts"], ["--stack", "udp6"])
    for flags in ([], ["--vlan"], ["--frame-only"], ["--vlan", "--frame-only"])
] + [
    ["--frame", "63"], ["--frame", "16001"], ["--frame", "1e3"], ["--frame", "64.5"], ["--frame", "\u0663"],
    ["--frame", "64", "--stack", "tcp6ts"], ["--frame", "100", "--stack", "ipx"], ["--frame", "100", "--stack", ""],
    ["--frame", "100", "--rate-gbit-s", "0"], ["--frame", "100", "--rate-gbit-s", "nan"],
    ["--frame", "1518", "--rate-gbit-s", "5e-324"], ["--frame", "1518", "--rate-gbit-s", LONG], ["--frame", LONG],
]

PCIE = [
    [kind, *gen, *lanes, "--size", size, *more]
    for kind in ("write", "read")
    for gen in ([], ["--gen", "2"], ["--gen", "3"], ["--gen", "6"])
    for lanes in ([], ["--lanes", "8"])
    for size in ("1", "1500", "4096", "1e6")
    for more in ([], ["--duplex"], ["--dllp", "spec"], ["--dllp", "every-any:2", "--skp", "max"],
                 ["--addr", "64", "--ecrc", "--mps", "128", "--mrrs", "4096"], ["--split", "rcb", "--rcb", "128"],
                 ["--dllp", "none", "--skp", "4/1538", "--flit", "dlp", "--duplex"])
] + [
    ["write", "--size", "0"], ["write", "--size", "4294967297"], ["write", "--size", "1_000"],
    ["write", "--size", LONG], ["write", "--size", "100", "--gen", "7"], ["write", "--size", "100", "--gen", "x"],
    ["write", "--size", "100", "--gen", "\u0663"], ["write", "--size", "100", "--lanes", "3"],
    ["write", "--size", "100", "--mps", "100"], ["read", "--size", "100", "--mrrs", "64"],
    ["read", "--size", "100", "--rcb", "32"], ["write", "--size", "100", "--addr", "48"],
    ["write", "--size", "100", "--flit", "both"], ["write", "--size", "100", "--split", "half"],
    ["write", "--size", "100", "--dllp", "every:0"], ["write", "--size", "100", "--dllp", "every:1025"],
    ["write", "--size", "100", "--dllp", "every:\u00b2"], ["write", "--size", "100", "--dllp", "every:" + LONG],
    ["write", "--size", "100", "--skp", "9/8"], ["write", "--size", "100", "--skp", "\u00b2/4"],
    ["write", "--size", "100", "--skp", "1/" + LONG], ["write", "--size", "100", "--gen", "6", "--skp", "min"],
    ["write", "--size", "100", "--skp", "999/1000", "--dllp", "spec"],
    ["write", "--size", "100", "--skp", "97/100", "--dllp", "spec"],
    ["write", "--size", "100", "--gen", "6", "--dllp", "spec", "--lanes", "32"],
    ["write", "--size", "100", "--lanes", "32", "--dllp", "spec"], ["erase", "--size", "100"], ["write"],
]


CODING = [
    ["--code", code, *rate, *lanes]
    for code in ("8b10b", "8b9b", "64b66b", "128b130b", "flit256dlp")
    for rate in (["--rate-gbaud", r] for r in ("0.001", "2.5", "10.3125", "64"))
    for lanes in ([], ["--lanes", "4"], ["--lanes", "32"])
] + [
    ["--code", "xyz", "--rate-gbaud", "2.5"], ["--code", "", "--rate-gbaud", "2.5"], ["--code", "8b10b"],
    ["--code", "8b10b", "--rate-gbaud", "-1"], ["--code", "8b10b", "--rate-gbaud", "64.1"],
    ["--code", "8b10b", "--rate-gbaud", "nan"], ["--code", "8b10b", "--rate-gbaud", "1e400"],
    ["--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "0"],
    ["--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "1_6"],
    ["--code", "8b10b", "--rate-gbaud", "2.5", "--lanes", "3.5"], ["--code", "xyz", "--rate-gbaud", "-1"],
]

SPI = [
    ["--words", words, "--bits", bits, *clock, *gap, *continuous]
    for words in ("1", "400", "1048576")
    for bits in ("4", "8", "32")
    for clock in ([], ["--clock-mhz", "0.001"], ["--clock-mhz", "48"], ["--clock-mhz", "200"])
    for gap in ([], ["--gap-ns", "0"], ["--gap-ns", "10000"])
    for continuous in ([], ["--continuous"])
] + [["--words", "400", "--bits", "8", "--setup-us", setup] for setup in ("0", "3148", "0.5", "-1", "100001")] + [
    ["--words", "0", "--bits", "8"], ["--words", "4", "--bits", "0"], ["--words", "4", "--bits", "33"],
    ["--words", "4", "--bits", "8", "--clock-mhz", "1e-320"], ["--words", "4", "--bits", "8", "--gap-ns", "-1"],
    ["--words", "4.5", "--bits", "8"], ["--words", "4", "--bits", "\u0663"], ["--words", "4"],
]


def _quick_and_model_agree(monkeypatch, argv) -> bool:
    outputs = []
    for how in (cli._implementation, _through_the_model):
        monkeypatch.setattr(cli, "_implementation", how)
        outputs += [(call(*argv, "--json"), call(*argv))]
    (quick_json, quick_text), (model_json, model_text) = outputs
    return (vars(quick_json) == vars(model_json) and vars(quick_text) == vars(model_text)
            and bool(quick_json.stdout.startswith("{") if quick_json.returncode == 0 else quick_json.stderr))


# one test a subcommand, every case of its grid run (a test a case cost more than the cases)
@pytest.mark.slow
@pytest.mark.parametrize("name, grid", [("coding", CODING), ("pcie", PCIE), ("ethernet", ETHERNET), ("spi", SPI)],
                         ids=["coding", "pcie", "ethernet", "spi"])
def test_a_quick_subcommand_prints_and_refuses_what_its_model_does(name, grid, monkeypatch):
    assert len(grid) > 20
    assert [" ".join(argv) for argv in grid if not _quick_and_model_agree(monkeypatch, [name, *argv])] == []


def test_the_comparison_sees_a_quick_subcommand_that_differs_from_its_model(monkeypatch):
    argv = ("ethernet", "--frame", "64", "--json")
    run, lines = quick.COMMANDS["ethernet"]
    monkeypatch.setitem(quick.COMMANDS, "ethernet", (lambda args: {**run(args), "efficiency": 0.5}, lines))
    changed = call(*argv).stdout
    monkeypatch.setattr(cli, "_implementation", _through_the_model)
    assert json.loads(changed) != json.loads(call(*argv).stdout)


# --- each subcommand a model's numbers run, against the same with the model's functions lambdified --------

@functools.cache
def _from_the_model(section: str) -> tuple[dict, dict]:
    """quick_spec's ``section`` made again from the model: its constants, and each of its functions
    lambdified from the model's expression (:func:`goodput.core.symbols.lambdify`, as the models did)."""
    constants, functions = gen_cli_spec.SECTIONS[section]()
    return constants, {name: lambdify(list(args.values()), expr, "math") for name, args, expr in functions}


def _lambdified(monkeypatch, section: str) -> None:
    constants, functions = _from_the_model(section)
    monkeypatch.setattr(quick_spec, section.upper(), constants)
    for name, f in functions.items():
        monkeypatch.setattr(quick_spec, name, f)


def _both_ways(monkeypatch, argv) -> tuple:
    """What ``argv`` prints (``--json`` and lines) with quick_spec as written, then lambdified from the model."""
    printed = (call(*argv, "--json"), call(*argv))
    with monkeypatch.context() as m:
        _lambdified(m, argv[0])
        return printed, (call(*argv, "--json"), call(*argv))


USB = [
    [*gen, *packet, *transfer, *burst, *flags]
    for gen in ([], ["--gen", "2"])
    for packet in ([], ["--packet", "1"], ["--packet", "333"])
    for transfer in ([], ["--transfer", "1"], ["--transfer", "4096"], ["--transfer", "16777216"])
    for burst in ([], ["--burst", "1"], ["--burst", "7"])
    for flags in ([], ["--no-link-commands"])
] + [["--gen", "3"], ["--gen", "1.5"], ["--packet", "0"], ["--packet", "1025"], ["--transfer", "0"],
     ["--burst", "17"], ["--burst", LONG]]

TCP = [
    ["--message", message, *rate, *mtu, *flags]
    for message in ("1", "1460", "1461", "8192", "16777216")
    for rate in ([], ["--rate-mbit-s", "10.5"], ["--rate-mbit-s", "100000"])
    for mtu in ([], ["--mtu", "576"], ["--mtu", "1280"], ["--mtu", "9000"])
    for flags in ([], ["--ipv6"], ["--timestamps"], ["--vlan"], ["--ipv6", "--timestamps", "--vlan"])
] + [["--message", "0"], ["--message", "1e3"], ["--message", "100", "--mtu", "575"],
     ["--message", "100", "--mtu", "1279", "--ipv6"], ["--message", "100", "--rate-mbit-s", "0"],
     ["--message", LONG]]

CAN = [
    ["--bytes", n, *x, *arb, *data, *stuffing]
    for n in ("0", "8", "12", "64")
    for x in ([], ["--extended"])
    for arb in ([], ["--arb-mbit-s", "0.125"], ["--arb-mbit-s", "0.001"])
    for data in ([], ["--data-mbit-s", "2"], ["--data-mbit-s", "12"])
    for stuffing in ([], ["--stuffing", "0.37"], ["--stuffing", "1"])
] + [
    ["--bytes", n, "--classical", *x, *arb, *stuffing]
    for n in ("0", "5", "8")
    for x in ([], ["--extended"])
    for arb in ([], ["--arb-mbit-s", "0.333"])
    for stuffing in ([], ["--stuffing", "0.37"], ["--stuffing", "0.123456789"], ["--stuffing", "1"])
] + [["--bytes", "9"], ["--bytes", "12", "--classical"], ["--bytes", "8", "--classical", "--data-mbit-s", "5"],
     ["--bytes", "8", "--stuffing", "1.5"], ["--bytes", "8", "--arb-mbit-s", "2"], ["--bytes", "x"], ["--bytes", LONG]]

SRIO = [
    [kind, *rate, *lanes, "--size", size, *more]
    for kind in ("nwrite", "swrite", "nread", "type11")
    for rate in ([], ["--rate-gbaud", "1.25"], ["--rate-gbaud", "6.25"], ["--rate-gbaud", "10.3125"],
                 ["--rate-gbaud", "4"])
    for lanes in ([], ["--lanes", "1"], ["--lanes", "16"])
    for size in ("8", "264", "4096", "1048576")
    for more in ([], ["--id-bits", "8", "--address-bits", "66"], ["--control-symbols", "0"], ["--strict"])
] + [["nwrite", "--size", "0"], ["nwrite", "--size", "100", "--lanes", "3"], ["swrite", "--size", "100"],
     ["type11", "--size", "4097"], ["nwrite", "--size", "100", "--id-bits", "12"],
     ["nwrite", "--size", "100", "--address-bits", "40"], ["nwrite", "--size", "100", "--rate-gbaud", "12.6"],
     ["nwrite", "--size", "100", "--control-symbols", "5"], ["nwrite", "--size", LONG], ["erase", "--size", "100"]]

HYPERLINK = [
    [kind, *rate, *lanes, "--size", size, *burst, *memory]
    for kind, memories in (("write", [[]]), ("read", [["--memory", m] for m in ("DDR3", "MSMC SRAM", "C66x L1/L2")]))
    for rate in ([], ["--rate-gbaud", "0.001"], ["--rate-gbaud", "3.125"], ["--rate-gbaud", "12.5"])
    for lanes in ([], ["--lanes", "1"], ["--lanes", "3"])
    for size in ("1", "100", "32768", "4294967296")
    for burst in ([], ["--burst", "16"], ["--burst", "100"])
    for memory in memories
] + [["read", "--size", "100"], ["read", "--size", "100", "--memory", "SRAM"], ["write", "--size", "0"],
     ["write", "--size", "100", "--lanes", "5"], ["write", "--size", "100", "--rate-gbaud", "13"],
     ["write", "--size", "100", "--burst", "300"], ["write", "--size", LONG], ["erase", "--size", "100"]]

_CLOCKS = ([], ["--cpu-clock", "333.3", "--ddr3-mtps", "1066", "--ddr3-width", "32"], ["--ddr3-width", "16"])

BUS = [
    ["--from", a, "--to", b, *tcs, *clocks]
    for a in ("MSMC SRAM", "DDR3A", "CorePac0 L2")
    for b in ("MSMC SRAM", "DDR3B", "CorePac3 L2")
    for tcs in ([], ["--tc", "TC0"], ["--tc", "TC2", "--tc", "TC3"], ["--tc", "TC13", "--tc", "TC4", "--tc", "TC7"],
                [arg for i in range(14) for arg in ("--tc", f"TC{i}")], ["--tcs", "3", "--tc-width", "256"],
                ["--tcs", "14", "--tc-width", "1000", "--tc-divider", "7"])
    for clocks in _CLOCKS
] + [["--from", "SRAM", "--to", "DDR3A"], ["--from", "MSMC SRAM", "--to", "DDR3C"],
     ["--from", "CorePac\u0663 L2", "--to", "DDR3A"], ["--from", "DDR3A", "--to", "DDR3B", "--tc", "TC14"],
     ["--from", "DDR3A", "--to", "DDR3B", "--tc", "TC1", "--tc", "TC1"],
     ["--from", "DDR3A", "--to", "DDR3B", "--tc", "TC1", "--tcs", "2"],
     ["--from", "DDR3A", "--to", "DDR3B", "--tcs", "15"], ["--from", "DDR3A", "--to", "DDR3B", "--ddr3-width", "48"],
     ["--from", "DDR3A", "--to", "DDR3B", "--cpu-clock", "0"],
     ["--from", "DDR3A", "--to", "DDR3B", "--cpu-clock", LONG], ["--from", "DDR3A"]]

CHOOSE = [
    ["--rate-mbyte-s", rate, "--size", size, *latency]
    for rate in ("0.01", "100", "5000", "1e6")
    for size in ("1", "100", "4096", "1048576")
    for latency in ([], ["--latency-us", "0.5"], ["--latency-us", "50"])
] + [["--rate-mbyte-s", "0", "--size", "4096"], ["--rate-mbyte-s", "100", "--size", "0"],
     ["--rate-mbyte-s", "100", "--size", "1048577"], ["--rate-mbyte-s", "100", "--size", "4096", "--latency-us", "0"],
     ["--rate-mbyte-s", "100", "--size", "4096", "--latency-us", "x"], ["--rate-mbyte-s", LONG, "--size", "1"],
     ["--size", "4096"]]

GRIDS = {"usb": USB, "tcp": TCP, "can": CAN, "srio": SRIO, "hyperlink": HYPERLINK, "bus": BUS, "choose": CHOOSE}


def _printed_and_model_agree(monkeypatch, argv) -> bool:
    (printed_json, printed), (model_json, model) = _both_ways(monkeypatch, [a for a in argv if a != "--json"])
    return (vars(printed_json) == vars(model_json) and vars(printed) == vars(model)
            and bool(printed_json.stdout.startswith("{") if printed_json.returncode == 0 else printed_json.stderr))


@pytest.mark.parametrize("name", list(GRIDS))
def test_a_models_numbers_print_what_its_lambdified_expressions_give_on_its_readme_line(name, monkeypatch):
    assert _printed_and_model_agree(monkeypatch, README[name])


# one test a subcommand, every case of its grid run (a test a case cost more than the cases)
@pytest.mark.slow
@pytest.mark.parametrize("name", list(GRIDS))
def test_a_models_numbers_print_and_refuse_what_its_lambdified_expressions_give(name, monkeypatch):
    assert len(GRIDS[name]) > 20
    assert [" ".join(argv) for argv in GRIDS[name] if not _printed_and_model_agree(monkeypatch, [name, *argv])] == []


def test_every_numeric_subcommand_has_a_grid():
    assert set(GRIDS) == set(gen_cli_spec.NUMERIC)


def test_the_comparison_sees_a_generated_function_that_differs_from_the_models(monkeypatch):
    argv = ("tcp", "--message", "8192", "--json")
    _from_the_model("tcp")
    stream = quick_spec.tcp_stream
    monkeypatch.setattr(quick_spec, "tcp_stream", lambda *args: stream(*args) * (1 + 1e-15))
    (printed, _), (model, _) = _both_ways(monkeypatch, argv)
    assert json.loads(printed.stdout) != json.loads(model.stdout)
