import itertools
import json
import math
from dataclasses import replace

import pytest
import sympy as sp
from command import call
from tiers import fast_first

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import bus, coding, pcie
from goodput.sources.sprabk5 import pcie as sprabk5

CHECKS = checks.collect("pcie-packets")
LARGE = ("1 K", "2 K", "4 K", "8 K", "16 K", "32 K")
NOT_OK = {
    ("intel-324611-table1", "1 byte, 3DW", "throughput"): "erratum",
    ("intel-324611-table1", "4 bytes, 3DW", "throughput"): "rounding",
    **{("an3935-table10", f"{s} bytes, x4, MPS 128", "calculated, MPS 128"): "convention" for s in ("512",) + LARGE},
    **{("an3935-table12", f"{s} bytes, x4, MPS 256", "calculated"): "convention" for s in LARGE},
}


@pytest.mark.parametrize("resource", sorted({c.resource for c in CHECKS}))
def test_packet_model_reproduces_each_calculated_number(resource):
    want = {c: NOT_OK.get((c.resource, c.row, c.quantity), "ok") for c in CHECKS if c.resource == resource}
    wrong = [f"{c.row} | {c.quantity}: {c.status}, expected {w} ({c.note})" for c, w in want.items() if c.status != w]
    assert wrong == []


def test_an3935_read_conventions_follow_from_counting_dllps_per_tlp_of_any_kind():
    for name, mps_bytes in (("an3935-table10", 128), ("an3935-table12", 256)):
        t = data.load(name)
        column = t[(t["series"] == "calculated") & (t["mps_bytes"] == mps_bytes)]
        assert len(column) == 13
        for row in column.itertuples():
            link = pcie.an3935_link(row.device, row.lanes, row.mps_bytes)
            any_kind = pcie.Link(**{**link.__dict__, "dllp": "every-any:4"})
            other = pcie.goodput_gbit_s(row.transfer, any_kind, row.bytes, duplex=True)
            assert checks.classify(t.attrs["printed"]["gbit_s"][row.Index], other) == "ok", (name, row.bytes)


def test_every_calculated_cell_of_an3935_is_checked():
    cells = {2: 13, 3: 13, 4: 13, 5: 13, 9: 26, 10: 26, 11: 13, 12: 13, 15: 39, 16: 39}
    for n, count in cells.items():
        assert sum(c.resource == f"an3935-table{n}" and c.kind == "calculated" for c in CHECKS) == count, n
    assert sum(c.resource == "intel-324611-table1" for c in CHECKS) == 52
    assert sum(c.resource == "keystone2-s6-3-pcie-theoretical" for c in CHECKS) == 2


LINKS = [
    pcie.Link(gen=1, lanes=4, mps=256, mrrs=256, dllp="every:4"),
    pcie.Link(gen=2, lanes=1, mps=128, mrrs=512, addr=64, ecrc=True, dllp="none", skp="max"),
    pcie.Link(gen=3, lanes=8, mps=512, mrrs=256, addr=64, dllp="spec", skp="min"),
    pcie.Link(gen=5, lanes=16, mps=256, mrrs=4096, dllp="spec", skp="4/1538", split="rcb", rcb=128),
]


@pytest.mark.parametrize("link", fast_first(LINKS), ids=lambda link: f"gen{link.gen}x{link.lanes}-{link.dllp}")
@pytest.mark.parametrize("kind, duplex", [("write", False), ("write", True), ("read", False), ("read", True)])
def test_numeric_model_matches_the_sympy_expression(link, kind, duplex):
    policy, n = link.dllp_policy()
    expr = pcie.goodput_expr(kind, policy, duplex, link.split)
    values = dict(zip(pcie._SYMBOLS, pcie._values(link, 1)))
    for size in (1, 8, 100, 256, 257, 1500, 4096, 65536):
        values[pcie.payload] = size
        exact = float(expr.subs({s: sp.nsimplify(v) for s, v in values.items()}))
        assert pcie.goodput_gbit_s(kind, link, size, duplex) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("link", LINKS, ids=lambda link: f"gen{link.gen}x{link.lanes}-{link.dllp}")
@pytest.mark.parametrize("kind, duplex", [("write", False), ("read", True)])
def test_byte_breakdown_adds_up_to_the_signalling_rate(link, kind, duplex):
    for size in (8, 300, 4096):
        r = pcie.evaluate(kind, link, size, duplex)
        line = sum(r["bytes"].values())
        directions = 2 if duplex else 1
        signalling = link.generation.rate_gtps * link.lanes * directions
        assert r["goodput_gbit_s"] == pytest.approx(signalling * size / line, rel=1e-12)
        assert r["efficiency"] == pytest.approx(r["goodput_gbit_s"] / signalling, rel=1e-12)
        assert all(v >= 0 for v in r["bytes"].values())


def test_generation_slider_expression_gives_each_generations_bit_rate():
    expr = pcie.generation_bit_rate_expr()
    for g in pcie.GENERATIONS.values():
        got = float(expr.subs({pcie.generation: g.number, coding.lanes: 8}))
        assert got == pytest.approx(coding.bit_rate_gbit_s(g.rate_gtps, 8, g.code), rel=1e-15)


def test_splitting_by_mps_and_mrrs_counts_tlps():
    link = pcie.Link(gen=1, lanes=1, mps=128, mrrs=256, dllp="none")
    assert pcie.evaluate("write", link, 1000)["tlps"] == 8
    assert pcie.evaluate("read", link, 1000)["tlps"] == 8
    rcb = pcie.Link(gen=1, lanes=1, mps=256, mrrs=512, dllp="none", split="rcb", rcb=64)
    assert pcie.evaluate("read", rcb, 1000)["tlps"] == 16


@pytest.mark.parametrize(
    "changes, name",
    [({"lanes": 0}, "lanes"), ({"lanes": 3}, "lanes"), ({"gen": 7}, "gen"), ({"mps": 100}, "mps"),
     ({"mrrs": 64}, "mrrs"), ({"addr": 48}, "addr"), ({"dllp": "every:0"}, "dllp"),
     ({"dllp": "sometimes"}, "dllp"), ({"skp": "5/4"}, "skp"), ({"split": "half"}, "split"),
     ({"dllp": "every:\u00b2"}, "dllp"), ({"skp": "\u00b2/4"}, "skp"), ({"dllp": "every:" + "1" * 5000}, "dllp"),
     ({"skp": "1/" + "1" * 5000}, "skp"), ({"skp": "97/100", "dllp": "spec"}, "skp")],
)
def test_impossible_links_are_rejected_naming_the_parameter(changes, name):
    with pytest.raises(ParameterError) as info:
        pcie.goodput_gbit_s("write", pcie.Link(**changes), 64)
    assert info.value.name == name


@pytest.mark.parametrize("gen, lanes", [(1, 1), (2, 4), (5, 16)])
def test_skp_and_spec_dllps_that_leave_tlps_no_time_are_refused_and_a_sliver_is_not(gen, lanes):
    link = pcie.Link(gen=gen, lanes=lanes, dllp="spec")
    share = 1 - float(pcie.dllp_share_expr("spec").subs(pcie.link_substitution(link)))
    tight = math.floor(share * 10 ** 6)  # SKP symbols per million that leave a sliver for TLPs
    assert pcie.evaluate("write", replace(link, skp=f"{tight}/1000000"), 100)["goodput_gbit_s"] > 0
    for skp in (f"{tight + 1}/1000000", "999999/1000000"):
        with pytest.raises(ParameterError, match="no time for TLPs") as info:
            pcie.goodput_gbit_s("write", replace(link, skp=skp), 100)
        assert info.value.name == "skp"


@pytest.mark.parametrize("size", [0, -5, 1.5, True, 2 ** 33])
def test_impossible_sizes_are_rejected(size):
    with pytest.raises(ParameterError, match="size"):
        pcie.goodput_gbit_s("write", pcie.Link(), size)


# --- the pcie-bench model (Neugebauer et al., SIGCOMM 2018), written out as its paper and code state it

def _pcie_bench(kind, gen, lanes, mps, mrrs, size):
    g = pcie.GENERATIONS[gen]
    raw = coding.bit_rate_gbit_s(g.rate_gtps, lanes, g.code)
    ack, fc = pcie.latency_limits(gen, lanes, mps)
    tlp_bw = raw * (1 - 8 / ack - 8 / fc - 4 / 1538)
    if kind == "write":
        return tlp_bw * size / (size + math.ceil(size / mps) * (8 + 4 + 12))
    rx = size + math.ceil(size / mps) * (8 + 4 + 8)
    return tlp_bw * size / rx


GRID = list(itertools.product([1, 2, 3, 4, 5], [1, 2, 4, 8, 16], [128, 256, 512]))


@pytest.mark.parametrize("gen, lanes, mps", GRID)
def test_agrees_with_pcie_bench_but_for_the_dllp_share_of_wide_links(gen, lanes, mps):
    link = pcie.Link(gen=gen, lanes=lanes, mps=mps, mrrs=512, rcb=64, addr=64, dllp="spec", skp="4/1538")
    ack, fc = pcie.latency_limits(gen, lanes, mps)
    for kind in ("write", "read"):
        for size in (64, 100, 256, 1000, 1500, 4096):
            ours = pcie.goodput_gbit_s(kind, link, size)
            theirs = _pcie_bench(kind, gen, lanes, mps, 512, size)
            if lanes == 1:
                assert ours == pytest.approx(theirs, rel=1e-12)
            else:
                # pcie-bench charges 8 bytes per Ack/UpdateFC interval against each lane;
                # a DLLP is striped over all lanes, so it costs 8 / lanes byte-times.
                per_share = ours / (1 - 4 / 1538 - 8 / (lanes * ack) - 8 / (lanes * fc))
                assert ours - theirs == pytest.approx(per_share * (8 / ack + 8 / fc) * (1 - 1 / lanes),
                                                      rel=1e-9)




def test_cli_prints_inputs_goodput_efficiency_and_breakdown():
    p = call("pcie", "write", "--gen", "1", "--lanes", "4", "--mps", "256", "--size", "1024", "--duplex", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["gen"] == 1 and r["lanes"] == 4 and r["size_bytes"] == 1024 and r["duplex"] is True
    assert round(r["goodput_gbit_s"], 2) == 14.63
    assert set(r["bytes"]) == {"payload", "tlp_overhead", "dllp", "skp", "encoding"}
    assert 0 < r["efficiency"] < 1


@pytest.mark.parametrize("args, words", [
    (["--lanes", "3"], "--lanes 3: lanes must be one of 1, 2, 4"),
    (["--gen", "9"], "--gen 9: gen must be one of 1, 2, 3, 4, 5, 6"),
    (["--dllp", "every:x"], "--dllp every:x"),
])
def test_cli_rejects_bad_links_with_exit_2(args, words):
    p = call("pcie", "write", "--size", "64", *args)
    assert p.returncode == 2 and words in p.stderr


def test_gen6_flit_mode_has_no_per_tlp_framing_and_no_dllp_bytes():
    link = pcie.Link(gen=6, lanes=8, mps=256, addr=64, dllp="every:4")
    for size in (64, 256, 1000, 4096):
        n = math.ceil(size / 256)
        want = 64 * 8 * (236 / 256) * size / (size + n * 16)
        assert pcie.goodput_gbit_s("write", link, size) == pytest.approx(want, rel=1e-12)
        assert pcie.evaluate("write", link, size)["bytes"]["dllp"] == 0


def test_gen6_rejects_an_skp_rate_it_does_not_model():
    with pytest.raises(ParameterError, match="flit mode"):
        pcie.goodput_gbit_s("write", pcie.Link(gen=6, skp="min"), 64)


def test_the_byte_sizes_of_a_link_are_one_expression_for_numbers_and_for_sliders():
    for gen in (1, 3, 5, 6):
        for addr, dwords in ((32, 3), (64, 4)):
            for ecrc in (False, True):
                values = pcie.link_substitution(pcie.Link(gen=gen, addr=addr, ecrc=ecrc))
                symbolic = pcie.size_exprs(pcie.generation, sp.Symbol("h"), sp.Symbol("e"))
                for sym, expr in symbolic.items():
                    assert expr.subs({pcie.generation: gen, sp.Symbol("h"): dwords, sp.Symbol("e"): int(ecrc)}) \
                        == values[sym], (gen, addr, ecrc, sym)


def test_flit_mode_counts_236_or_242_bytes_of_each_flit_as_data():
    tlp, dlp = (pcie.evaluate("write", pcie.Link(gen=6, lanes=16, flit=f), 4096) for f in ("tlp", "dlp"))
    assert coding.bit_rate_gbit_s(64.0, 16, pcie.Link(gen=6, flit="tlp").code) == 64 * 16 * 236 / 256 == 944
    assert coding.bit_rate_gbit_s(64.0, 16, pcie.Link(gen=6, flit="dlp").code) == 64 * 16 * 242 / 256 == 968
    # the same TLPs on the wire; only what a flit is said to carry changes
    assert dlp["goodput_gbit_s"] / tlp["goodput_gbit_s"] == pytest.approx(242 / 236, rel=1e-12)
    assert pcie.Link(gen=3, flit="dlp").code == "128b130b"  # the convention is flit mode's alone
    with pytest.raises(ParameterError, match="flit"):
        pcie.evaluate("write", pcie.Link(gen=6, flit="both"), 64)


def test_the_flit_convention_on_the_command_line():
    tlp = json.loads(call("pcie", "write", "--gen", "6", "--lanes", "16", "--size", "4096", "--json").stdout)
    dlp = json.loads(call("pcie", "write", "--gen", "6", "--lanes", "16", "--size", "4096", "--flit", "dlp",
                          "--json").stdout)
    assert dlp["goodput_gbit_s"] / tlp["goodput_gbit_s"] == pytest.approx(242 / 236, rel=1e-12)
    bad = call("pcie", "write", "--gen", "6", "--size", "64", "--flit", "x")
    assert bad.returncode == 2 and "--flit x: flit must be one of tlp, dlp" in bad.stderr


# --- SPRABK5 Sec. 6: the PCIe protocol numbers of the text ---------------------------------------------

def keystone_prose(prose=None):
    return sprabk5.keystone_prose_checks(data.load("keystone2-s6-pcie-prose") if prose is None else prose,
                                         data.load("keystone2-s6-pcie-rates"))


def test_every_pcie_number_of_the_keystone_text_is_checked_and_reproduced_by_independent_arithmetic():
    found = {(c.row, c.quantity): c for c in keystone_prose()}
    assert len(found) == len(data.load("keystone2-s6-pcie-prose"))
    assert all(c.status == "ok" and c.kind == "prose" for c in found.values()), found
    model = {key: c.model for key, c in found.items()}
    assert model[("§6.1.1", "smallest TLP overhead")] == 1 + 2 + 12 + 4 + 1  # STP, sequence, 3 DW, LCRC, END
    assert model[("§6.1.1", "largest TLP overhead")] == 1 + 2 + 16 + 4 + 4 + 1  # 4 DW and ECRC
    assert model[("§6", "signalling rate of both links (again)")] == 2 * 5.0
    assert model[("§6.3", "bits per symbol in the formula")] == 10
    assert model[("§6.2", "largest payload the PCIe v2 specification permits")] == 4096


@pytest.mark.parametrize("item, wrong", [("largest TLP overhead", "24"), ("size of the DLLP after each TLP", "6"),
                                         ("signalling rate of a PCIe v2 link", "2.5"),
                                         ("data bits per symbol in the formula", "9")])
def test_a_wrong_pcie_number_in_the_keystone_text_is_an_erratum(item, wrong):
    from mutations import edited_cell

    prose = data.load("keystone2-s6-pcie-prose")
    index = prose.index[prose["item"] == item][0]
    (c,) = [c for c in keystone_prose(edited_cell(prose, index, "value", wrong)) if c.quantity == item]
    assert c.status == "erratum"


def test_a_pcie_number_of_the_keystone_text_without_a_model_is_refused():
    prose = data.load("keystone2-s6-pcie-prose")
    prose.loc[prose.index[0], "item"] = "mystery"
    with pytest.raises(KeyError, match="mystery"):
        keystone_prose(prose)


# --- SPRABK5 Sec. 6: the payload sizes the text derives from the peripheral's limits ---------------------

def keystone_payloads(table=None):
    table = data.load("keystone2-s6-pcie-payloads") if table is None else table
    return sprabk5.keystone_payload_checks(table, sprabk5.keystone_payload_limits(table["section"]),
                                           data.load("keystone2-s6-pcie-rates"), bus.burst_bytes([3]))


def test_the_keystone_payload_sizes_follow_from_the_limits_the_text_states():
    found = keystone_payloads()
    assert len(found) == len(data.load("keystone2-s6-pcie-payloads")) == 8
    assert {c.status for c in found} == {"ok"} and {c.kind for c in found} == {"prose"}
    assert sorted(c.model for c in found) == [64] * 3 + [128] * 5
    assert sprabk5.packet_payload_expr().subs({sprabk5.sender_limit: 128, sprabk5.receiver_limit: 256}) == 128


def test_the_largest_payload_has_the_best_goodput_up_to_any_limit():
    link = sprabk5.keystone_link(2)
    for limit in (128, 256, 512):
        assert sprabk5.best_payload_bytes("write", link, limit) == limit
        assert sprabk5.best_payload_bytes("read", link, limit) == limit
    with pytest.raises(ParameterError, match="limit"):
        sprabk5.best_payload_bytes("write", link, 100)


@pytest.mark.parametrize("rule, wrong", [("best", "64"), ("inbound from a KeyStone sender", "256"),
                                         ("with EDMA3's burst", "128")])
def test_a_wrong_keystone_payload_size_is_an_erratum(rule, wrong):
    from mutations import edited_cell

    table = data.load("keystone2-s6-pcie-payloads")
    index = table.index[table["rule"] == rule][0]
    found = [c for c in keystone_payloads(edited_cell(table, index, "value", wrong)) if c.status != "ok"]
    assert [(c.quantity, c.status) for c in found] == [(table.loc[index, "item"], "erratum")]


def test_a_keystone_payload_size_without_a_rule_is_refused():
    table = data.load("keystone2-s6-pcie-payloads")
    table.loc[table.index[0], "rule"] = "mystery"
    with pytest.raises(KeyError, match="mystery"):
        keystone_payloads(table)
