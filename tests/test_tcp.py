import json
from collections import Counter

import pytest
import sympy as sp
from command import call
from mutations import edited_cell, reprinted

from goodput import checks
from goodput.core import data
from goodput.core.errors import ParameterError
from goodput.models import ethernet, tcp
from goodput.sources.am243x_sdk import tcp as am243x_tcp
from goodput.sources.spraaq5 import tcp as ndk_tcp


def test_an_8192_byte_write_makes_six_segments_and_the_ndks_94595():
    r = tcp.evaluate(8192, 100)
    assert (r["mss_bytes"], r["segments"]) == (1460, 6)
    assert sum(r["bytes"].values()) == 8192 + 6 * 78
    assert int(1000 * r["goodput_mbit_s"]) == 94595


def test_every_ndk_receive_run_at_the_link_ceiling_is_checked_and_only_truncated():
    items = _s6_checks("calculated")
    t = data.load("spraaq5-s6-throughput")
    assert len(items) == int(((t["operation"] == "Receive") & (t["throughput_kbit_s"] == 94595)).sum()) == 11
    assert {c.status for c in items} == {"rounding"}


def test_no_ndk_run_beats_the_stream_ceiling_and_no_receive_run_the_per_write_one():
    t = data.load("spraaq5-s6-throughput")
    r = tcp.evaluate(8192, 100)
    assert (t["throughput_kbit_s"] < 1000 * r["stream_goodput_mbit_s"]).all()
    receive = t[t["operation"] == "Receive"]["throughput_kbit_s"]
    assert (receive <= 1000 * r["goodput_mbit_s"]).all()


@pytest.mark.parametrize("m, segments", [(1, 1), (1460, 1), (1461, 2), (2920, 2), (2921, 3), (65536, 45)])
def test_segments_follow_the_mss(m, segments):
    assert tcp.evaluate(m, 100)["segments"] == segments


def test_a_tiny_write_is_padded_to_a_64_byte_frame():
    r = tcp.evaluate(1, 100)
    assert r["bytes"]["padding"] == 64 - (14 + 20 + 20 + 1 + 4)
    assert sum(r["bytes"].values()) == 64 + 20


def test_timestamps_and_ipv6_shrink_the_mss():
    assert tcp.evaluate(8192, 100, timestamps=True)["mss_bytes"] == 1448
    assert tcp.evaluate(8192, 100, ip_version=6)["mss_bytes"] == 1440


def test_numeric_goodput_equals_the_expression():
    expr = tcp.message_goodput_expr()
    for m, u, h, o, v in [(8192, 1500, 20, 0, 0), (1461, 1500, 40, 12, 4), (3, 576, 20, 0, 4),
                          (65536, 9000, 20, 12, 0)]:
        exact = expr.subs({tcp.message: m, tcp.mtu: u, tcp.ip_header: h, tcp.tcp_options: o, tcp.line_rate: 100,
                           ethernet.vlan: v})
        r = tcp.evaluate(m, 100, u, 4 if h == 20 else 6, o == 12, vlan=v == 4)
        assert r["goodput_mbit_s"] == pytest.approx(float(exact), rel=1e-12)
    assert sp.simplify(tcp.stream_goodput_expr().subs(tcp.mtu, 1500).subs(
        {tcp.ip_header: 20, tcp.tcp_options: 0, tcp.line_rate: 100, ethernet.vlan: 0})
        - sp.Rational(146000, 1538)) == 0


@pytest.mark.parametrize("kwargs, name", [
    ({"message_bytes": 0}, "message_bytes"), ({"mtu_bytes": 100}, "mtu_bytes"), ({"ip_version": 5}, "ip_version"),
    ({"line_rate_mbit_s": 0}, "line_rate_mbit_s"), ({"ip_version": 6, "mtu_bytes": 1000}, "mtu_bytes")])
def test_impossible_tcp_parameters_are_rejected(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        tcp.evaluate(**kwargs)


def run(*args):
    return call("tcp", *args)


def test_goodput_tcp_json_echoes_inputs_and_breaks_down_the_bytes():
    p = run("--message", "8192", "--rate-mbit-s", "100", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["message_bytes"], out["segments"], out["ip_version"], out["timestamps"]) == (8192, 6, 4, False)
    assert out["goodput_gbit_s"] == pytest.approx(8192 / 8660 * 0.1)
    assert out["efficiency"] == pytest.approx(8192 / 8660)


@pytest.mark.parametrize("args, words", [
    (["--message", "0"], "--message 0: message_bytes must be an integer from 1 to 16777216 bytes"),
    (["--message", "100", "--mtu", "100"], "--mtu 100"),
    (["--message", "100", "--ipv6", "--mtu", "1000"], "at least 1280 bytes for IPv6"),
])
def test_goodput_tcp_rejects_bad_input_with_exit_2(args, words):
    p = run(*args)
    assert p.returncode == 2 and words in p.stderr, p.stderr


def test_every_rndis_rate_follows_from_its_transfer():
    items = [c for c in checks.collect("tcp-goodput") if c.resource == "am243x-rndis-iperf" and c.kind == "calculated"]
    assert len(items) == 11 and {c.status for c in items} == {"ok"}
    # an interval's check verifies its transfer too; the whole run's transfer is the sum check's
    assert [c.verifies for c in items] == [2] * 10 + [1]


def test_an_rndis_transfer_off_its_bandwidth_is_caught():
    t = data.load("am243x-rndis-iperf")
    i = t.index[t["id"] == 3][0]
    got = {c.row: c.status for c in am243x_tcp.rndis_rate_checks(edited_cell(t, i, "transfer_mbytes", "4.52"))}
    assert got.pop("RNDIS iperf 3-4 s") == "erratum" and set(got.values()) == {"ok"}


@pytest.mark.parametrize("payload, fragments, wire", [(256, 1, 322), (1472, 1, 1538), (1473, 2, 1622),
                                                      (1500, 2, 1624), (2952, 2, 3076), (2953, 3, 3160)])
def test_udp_datagrams_fragment_at_the_mtu(payload, fragments, wire):
    r = tcp.udp_evaluate(payload)
    assert (r["fragments"], r["wire_bytes"]) == (fragments, wire)


def test_udp_refuses_ipv6_fragmentation():
    with pytest.raises(ParameterError, match="ip_version"):
        tcp.udp_evaluate(100, ip_version=6)


def test_rndis_packs_a_full_segment_into_four_bulk_packets_of_thirteen_per_microframe():
    r = tcp.rndis_evaluate(1460)
    assert (r["rndis_message_bytes"], r["bulk_packets_per_frame"]) == (1558, 4)
    assert r["bulk_ceiling_mbit_s"] == pytest.approx(425.984)
    assert r["goodput_mbit_s"] == pytest.approx(13 / 4 * 8000 * 1460 * 8 / 1e6)
    with pytest.raises(ParameterError, match="mss_bytes"):
        tcp.rndis_evaluate(0)


# --- VLAN tags ----------------------------------------------------------------------------------

def test_a_vlan_tag_adds_4_bytes_to_every_frame_and_leaves_the_mss_alone():
    r = tcp.evaluate(8192, 100, vlan=True)
    assert (r["mss_bytes"], r["segments"], r["vlan"]) == (1460, 6, True)
    assert r["bytes"]["vlan_tag"] == 6 * 4
    assert sum(r["bytes"].values()) == 8192 + 6 * (78 + 4)  # 8684 byte times for 8192 bytes
    assert r["goodput_mbit_s"] == pytest.approx(100 * 8192 / 8684, rel=1e-12)
    assert r["stream_goodput_mbit_s"] == pytest.approx(100 * 1460 / 1542, rel=1e-12)
    assert tcp.evaluate(8192, 100)["bytes"]["vlan_tag"] == 0


def test_a_tagged_tiny_write_needs_less_padding_to_reach_64_bytes():
    tagged = tcp.evaluate(1, 100, vlan=True)
    assert tagged["bytes"]["padding"] == 64 - (14 + 4 + 20 + 20 + 1 + 4)
    assert sum(tagged["bytes"].values()) == 64 + 20  # the tag fills what padding filled before
    big = tcp.evaluate(9000 - 40, 1000, 9000, vlan=True)
    assert sum(big["bytes"].values()) == 9000 + 18 + 4 + 20  # one 9022-byte jumbo frame


def test_the_segment_frame_is_ethernets_expression_with_the_vlan_symbol_in_it():
    wire = tcp.segment_wire_expr()
    assert ethernet.vlan in wire.free_symbols
    full = {tcp.ip_header: 20, tcp.tcp_options: 0, tcp._payload: 1460}
    assert wire.subs({**full, ethernet.vlan: 4}) == 1460 + 40 + 14 + 4 + 4 + 20
    assert wire.subs({**full, ethernet.vlan: 0}) == 1538


def test_tagged_udp_datagrams_take_4_more_bytes_per_fragment_unless_it_was_padded():
    assert tcp.udp_evaluate(1472, vlan=True)["wire_bytes"] == 1538 + 4
    # 1481 datagram bytes: 1480 in a full fragment, 1 in a frame of 14 + 4 + 20 + 1 + 4 bytes, padded to 64
    assert tcp.udp_evaluate(1473, vlan=True)["wire_bytes"] == 1622 + 4
    assert tcp.udp_evaluate(2952, vlan=True)["wire_bytes"] == 3076 + 2 * 4


def test_goodputs_take_only_an_untagged_or_a_4_byte_tag():
    assert tcp.goodputs(8192, 100, vlan_bytes=4)["per_write_mbit_s"] == pytest.approx(100 * 8192 / 8684)
    for bad in (2, 8, -4):
        with pytest.raises(ParameterError, match="vlan_bytes"):
            tcp.goodputs(8192, 100, vlan_bytes=bad)


def test_the_chapters_calculation_has_a_vlan_control():
    from goodput.render.chapters import tcp_goodput

    calc = tcp_goodput.calculation()
    inputs = calc.input_values(vlan_bytes=4)
    case = {"message_bytes": 8192}
    assert calc.evaluate(inputs, case)["per_write_mbit_s"] == pytest.approx(100 * 8192 / 8684, rel=1e-12)
    assert calc.numeric(inputs, case)["per_write_mbit_s"] == pytest.approx(100 * 8192 / 8684, rel=1e-12)


def test_goodput_tcp_vlan_option():
    p = run("--message", "8192", "--vlan", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["vlan"] is True and out["bytes"]["vlan_tag"] == 24
    assert out["goodput_gbit_s"] == pytest.approx(8192 / 8684 * 0.1)
    assert "over IPv4 on a VLAN at 100 Mbit/s" in run("--message", "8192", "--vlan").stdout
    bad = run("--message", "8192", "--vlan", "4")
    assert bad.returncode == 2 and "unrecognized arguments: 4" in bad.stderr


# --- SPRAAQ5 §6.1-6.3: every row against the link's ceiling and a whole CPU ---------------------

def _s6_checks(kind):
    return [c for c in checks.collect("tcp-goodput") if c.resource == "spraaq5-s6-throughput" and c.kind == kind]


def test_every_s6_row_is_under_the_100_mbit_stream_ceiling():
    items = _s6_checks("ceiling")
    assert len(items) == 6 + 6 + 8 + 8 + 6  # the five tables' rows as printed
    assert {c.status for c in items} == {"ok"}
    # 1460 data bytes in 1460 + 40 + 18 + 20 byte times at 100 Mbit/s
    assert {round(c.model, 3) for c in items} == {round(100_000 * 1460 / 1538, 3)}
    assert max(float(c.published) for c in items) == 94759


def test_every_s6_cpu_load_is_at_most_a_whole_cpu():
    items = [c for c in _s6_checks("consistency") if ", against L2 " not in c.row]  # not cache_load_checks
    assert len(items) == 34 and {c.status for c in items} == {"ok"} and {c.model for c in items} == {100}


def test_an_s6_row_above_the_line_ceiling_or_a_whole_cpu_is_an_erratum():
    t = reprinted(reprinted(data.load("spraaq5-s6-throughput"), 3, "throughput_kbit_s", "94950"), 5, "cpu_load_percent", "101")
    got = {(c.row, c.kind): c.status for c in ndk_tcp.throughput_table_checks(t)}
    assert got[("§6.1.1 TMS320DM642 EVM, NIMU, L2 64 KB, transmit", "ceiling")] == "erratum"
    assert got[("§6.1.1 TMS320DM642 EVM, NIMU, L2 256 KB, transmit", "consistency")] == "erratum"
    assert list(got.values()).count("erratum") == 2


# --- SPRAAQ5 §4.1: the testee's example output --------------------------------------------------

def _console_runs():
    from goodput.logs import ndk_console
    return ndk_console.parse(ndk_tcp.published_console_log())


def test_the_testee_excerpts_runs_have_the_periods_of_the_testers_order():
    assert ndk_tcp.frame_periods(_console_runs()) == [0, 10, 10, 30, 0, 10, 10, 30]


def test_the_testee_excerpt_is_checked_run_by_run_and_one_paced_rate_beats_its_pace():
    items = [c for c in checks.collect("tcp-goodput") if c.resource == "logs/published/spraaq5-testee-console.log"
             and c.quantity != "frames"]  # the transmit runs' frame counts: the test below
    assert len(items) == 8 * 3
    off = [(c.row, c.quantity) for c in items if c.status != "ok"]
    # 5000 frames of 8192 bytes one every 10 ms: 40,960,000 bytes in no less than 49.99 s, 6554.9 kbit/s
    assert off == [("log line 29: transmit 8192 bytes, one frame every 10 ms", "rate")]
    assert {c.status for c in items if (c.row, c.quantity) in off} == {"erratum"}
    rate = next(c for c in items if c.row.startswith("log line 29") and c.quantity == "rate")
    assert rate.model == pytest.approx(8 * 8192 * 5000 / (4999 * 10)) and rate.published == "6556"
    totals = [c for c in items if c.quantity == "total"]
    assert {c.model for c in totals} == {5000 * 8192, 5000 * 65536}


def test_a_testee_run_with_a_wrong_total_rate_or_load_is_an_erratum():
    runs = _console_runs()
    runs.loc[0, "total_bytes"] = 40968192  # a frame more than 5000
    runs.loc[4, "kbit_s"] = 95000
    runs.loc[7, "cpu_load_percent"] = 101
    bad = [(c.row.split(":")[0], c.quantity) for c in ndk_tcp.console_checks(runs) if c.status == "erratum"]
    assert set(bad) == {("log line 12", "total"), ("log line 26", "rate"), ("log line 37", "CPU load"),
                        ("log line 29", "rate")}


def test_each_transmit_run_of_the_testee_sent_the_frames_noncopytcp_asks_for_and_one_more_is_an_erratum():
    runs = _console_runs()
    found = ndk_tcp.console_frames_checks(runs)
    assert len(found) == (runs["direction"] == "transmit").sum() == 4
    assert {(c.published, c.model, c.status, c.kind) for c in found} == {("5000", 5000, "ok", "consistency")}
    assert {c.row for c in found} == {c.row for c in checks.collect("tcp-goodput") if c.quantity == "frames"
                                      and c.resource == "logs/published/spraaq5-testee-console.log"}
    transmit = runs.index[runs["direction"] == "transmit"][0]
    runs.loc[transmit, "frames"] = 5001
    assert [c.status for c in ndk_tcp.console_frames_checks(runs)] == ["erratum", "ok", "ok", "ok"]


# --- SPRAAQ5's prose about its runs ---------------------------------------------------------------

def test_spraaq5s_prose_agrees_with_its_tables_but_for_the_testees_256k_at_594_mhz():
    items = [c for c in checks.collect("tcp-goodput") if c.document == "SPRAAQ5" and c.kind == "prose"]
    # §6 list: 1 clock + 3, 4, 3 L2 sizes; five cache figures (3, 3, 4, 4, 3 sizes + 8 KB frames) and five
    # frame-size figures (one L2 size), each of the ten with its clock; the setup's 4 packet sizes and 2 periods;
    # §7's DM642 L2 floor; the testee's L2 line
    assert len(items) == (3 + 10) + (17 + 5 + 5 + 10) + 6 + 1 + 1
    off = {c.row: (c.status, c.published, c.model) for c in items if c.status != "ok"}
    assert off == {"DSP Operating at 594 MHz": ("unexplained", "256", 128)}
    sizes = {c.published for c in items if c.quantity == "packet size"}
    assert {int(s) * 1024 for s in sizes} == {8192, 16384, 32768, 65536}


def test_prose_that_names_a_cache_or_clock_the_table_lacks_is_an_erratum():
    t = data.load("spraaq5-s6-throughput")
    t = t[~((t["device"] == "TMS320DM642 EVM") & (t["l2_cache_kbytes"] == 256))].copy()
    t.loc[t["device"] == "TMS320DM642 EVM", "clock_mhz"] = 700
    bad = {(c.where, c.row, c.quantity) for c in ndk_tcp.prose_checks(t) if c.status == "erratum"}
    assert bad == {("§6 platform list", "TMS320DM642 EVM: L2 size 1 of 3", "L2 cache"),
                   ("§6 platform list", "TMS320DM642 EVM: L2 size 2 of 3", "L2 cache"),
                   ("§6 platform list", "TMS320DM642 EVM: L2 size 3 of 3", "L2 cache"),
                   ("§6.1.1 Figure 2 caption", "TMS320DM642 EVM, NIMU, Figure 2: L2 size 3 of 3", "L2 cache"),
                   ("§6.1.1 Figure 3 caption", "TMS320DM642 EVM, NIMU, Figure 3", "L2 cache"),
                   ("§6.1.2 Figure 4 caption", "TMS320DM642 EVM, LL, Figure 4: L2 size 3 of 3", "L2 cache"),
                   ("§6.1.2 Figure 5 caption", "TMS320DM642 EVM, LL, Figure 5", "L2 cache"),
                   ("§6 platform list", "TMS320DM642 EVM", "DSP clock"),
                   *{(f"§6.1.{s} Figure {f} caption", f"TMS320DM642 EVM, {a}, Figure {f}", "DSP clock")
                     for s, a, f in ((1, "NIMU", 2), (1, "NIMU", 3), (2, "LL", 4), (2, "LL", 5))}}


def test_a_dm642_floor_above_the_least_cache_that_reaches_the_best_throughput_is_an_erratum():
    (floor,) = [c for c in checks.collect("tcp-goodput") if c.where == "§7 Conclusion"]
    assert (floor.published, floor.model, floor.relation, floor.status) == ("64", 64, "<=", "ok")
    t = data.load("spraaq5-s6-throughput").copy()
    at_64 = (t["device"] == "TMS320DM642 EVM") & (t["l2_cache_kbytes"] == 64) & (t["operation"] == "Receive")
    t.loc[at_64, "throughput_kbit_s"] = 94000  # now it reaches the best only with 128 KB: 64 is still below that
    (c,) = [c for c in ndk_tcp.prose_checks(t) if c.where == "§7 Conclusion"]
    assert (c.model, c.status) == (128, "ok")
    t = data.load("spraaq5-s6-throughput").copy()
    t.loc[t["device"] == "TMS320DM642 EVM", "l2_cache_kbytes"] //= 2  # it reaches the best with 64 // 2 KB
    (c,) = [c for c in ndk_tcp.prose_checks(t) if c.where == "§7 Conclusion"]
    assert (c.model, c.status) == (32, "erratum") and "less than the 64 KB" in c.note


def test_a_wrong_number_in_the_published_prose_table_is_an_erratum():
    prose, t = data.load("spraaq5-prose"), data.load("spraaq5-s6-throughput")

    def row(place, quantity, occurrence=1, device=None):
        hit = prose[(prose["place"] == place) & (prose["quantity"] == quantity) & (prose["occurrence"] == occurrence)
                    & ((prose["device"] == device) if device else True)]
        (i,) = hit.index
        return i

    wrong = prose
    for i, text in ((row("platform list", "DSP clock", device="TMS320DM6437 EVM"), "495"),  # 594 MHz
                    (row("Figure 6 caption", "L2 cache", 2), "16"),  # 32, 64, 128 and 256 KB
                    (row("setup", "frame period", 2), "20"),  # 10 and 30 ms
                    (row("Conclusion", "L2 cache"), "128")):  # below 64 KB it cannot
        wrong = edited_cell(wrong, i, "value", text)
    assert {(c.where, c.row) for c in ndk_tcp.prose_checks(t) if c.status == "erratum"} == set()
    bad = {(c.where, c.row, c.published) for c in ndk_tcp.prose_checks(t, wrong) if c.status == "erratum"}
    assert bad == {("§6 platform list", "TMS320DM6437 EVM", "495"),
                   ("§6.2.1 Figure 6 caption", "TMS320C6455 DSK, NIMU, Figure 6: L2 size 2 of 4", "16"),
                   ("§6 setup", "rate 20 ms per packet", "20"),
                   ("§7 Conclusion", "TMS320DM642 EVM: the L2 size below which it cannot reach the best throughput",
                    "128")}


def test_a_prose_row_no_check_reads_is_an_error_naming_the_table_and_row():
    prose = data.load("spraaq5-prose").copy()
    prose.loc[0, "quantity"] = "core voltage"
    with pytest.raises(ValueError, match="spraaq5-prose row 0: the platform list's 'core voltage' has no check"):
        ndk_tcp.prose_checks(data.load("spraaq5-s6-throughput"), prose)


def test_the_tester_excerpt_announces_nonCopyTCP_h_runs():
    items = [c for c in checks.collect("tcp-goodput") if c.resource == "logs/published/spraaq5-tester-console.log"]
    assert len(items) == 9 + 7  # nine runs, seven of them paced
    assert {c.status for c in items} == {"ok"}
    assert {c.model for c in items if c.quantity == "frames"} == {5000}


def test_a_tester_run_of_other_frames_or_an_other_period_is_an_erratum():
    from goodput.logs import ndk_console
    runs = ndk_console.parse_tester(ndk_tcp.published_console_log().with_name("spraaq5-tester-console.log"))
    runs.loc[0, "frames"] = 4000
    runs.loc[2, "period_ms"] = 20
    bad = {(c.row.split(":")[0], c.quantity) for c in ndk_tcp.tester_checks(runs) if c.status == "erratum"}
    assert bad == {("log line 8", "frames"), ("log line 11", "frame period")}

# --- AM243x CPSW iperf: every printed number ----------------------------------------------------------

def _cpsw(resource):
    return [c for c in checks.collect("tcp-goodput") if c.resource == resource]


def test_cpsw_tcp_rows_keep_under_the_100_mbit_s_stream_ceiling_and_loads_under_100_percent():
    items = _cpsw("am243x-cpsw-tcp-iperf")
    ceilings = [c for c in items if c.kind == "ceiling"]
    # 1460 bytes of data in 1460 + 20 + 20 + 14 + 4 + 8 + 12 = 1538 byte times
    assert len(ceilings) == 8 and all(c.model == pytest.approx(100 * 1460 / 1538) for c in ceilings)
    assert {c.status for c in items} == {"ok"}
    loads = {c.row: c.published for c in items if c.kind == "consistency"}
    assert loads == {"am64x/243x EVM, RX": "45.37", "am64x/243x EVM, TX": "57.42",
                     "am64x/243x EVM, bidirectional": "93.94", "am243x-lp, RX": "31.01",
                     "am243x-lp, TX": "34.92", "am243x-lp, bidirectional": "63.28"}


def test_cpsw_udp_loads_and_losses_are_shares_and_the_158_mbit_s_maximum_is_unexplained():
    items = _cpsw("am243x-cpsw-udp")
    status = {(c.row, c.kind): c.status for c in items}
    # 25 printed rows, two of them "-": 23 loads and 23 losses
    assert sum(1 for c in items if c.kind == "consistency") == 46
    assert {s for (r, k), s in status.items() if k == "consistency"} == {"ok"}
    assert [(r, s) for (r, k), s in status.items() if k == "ceiling"] == [
        ("RX am64x/243x EVM, 1500 B, max 158 Mbit/s", "unexplained")]
    # 1508 bytes in fragments of 1480 + 28: (1480 + 20 + 14 + 4 + 20) + (28 + 20 + 14 + 4 + 20) byte times
    [c] = [c for c in items if c.kind == "ceiling"]
    assert c.model == pytest.approx(100 * 1500 / (1538 + 86))


def test_a_tcp_rate_above_its_ceiling_and_a_load_above_100_percent_are_caught():
    t = data.load("am243x-cpsw-tcp-iperf")
    bad = reprinted(edited_cell(t, 0, "bandwidth_mbit_s", "96.1"), 1, "cpu_load_percent", "101.5")
    got = {(c.row, c.kind): c.status for c in am243x_tcp.cpsw_tcp_checks(bad)}
    assert got[("am64x/243x EVM, RX", "ceiling")] == "erratum"
    assert got[("am64x/243x EVM, TX", "consistency")] == "erratum"
    assert got[("am64x/243x EVM, TX", "ceiling")] == "ok"
    u = data.load("am243x-cpsw-udp")
    bad = reprinted(u, 0, "loss_percent", "141")
    got = {(c.row, c.quantity): c.status for c in am243x_tcp.cpsw_udp_checks(bad)}
    assert got[("TX am64x/243x EVM, 1500 B, 25 Mbit/s", "packet loss")] == "erratum"
    assert got[("TX am64x/243x EVM, 1500 B, 25 Mbit/s", "CPU load")] == "ok"


def test_rndis_rates_keep_under_the_bulk_ceiling_and_the_total_is_its_intervals():
    items = _cpsw("am243x-rndis-iperf")
    ceilings = [c for c in items if c.kind == "ceiling"]
    # 44 + 14 + 20 + 20 + 1460 = 1558 bytes: 4 bulk packets; 13 packets per 125 us microframe
    assert len(ceilings) == 11 and all(c.model == pytest.approx(13 * 8000 / 4 * 1460 * 8 / 1e6) for c in ceilings)
    assert {c.status for c in ceilings} == {"ok"}
    [total] = [c for c in items if c.kind == "consistency"]
    assert total.model == pytest.approx(2 * 4.25 + 8 * 4.12) and total.status == "ok"


def test_an_rndis_total_off_its_intervals_is_caught():
    t = data.load("am243x-rndis-iperf")
    i = t.index[t["id"] == 10][0]
    bad = edited_cell(t, i, "transfer_mbytes", "43.5")
    [total] = [c for c in am243x_tcp.rndis_checks(bad) if c.kind == "consistency"]
    assert total.status == "erratum"


def test_a_larger_l2_cache_loads_the_cpu_no_more_within_the_tables_stated_error():
    t = data.load("spraaq5-s6-throughput")
    found = {c.row: c for c in ndk_tcp.cache_load_checks(t)}
    assert len(found) == len(t) - t.groupby(["device", "architecture", "operation"]).ngroups
    statuses = Counter(c.status for c in found.values())
    assert statuses == {"ok": 21, "spread": 2, "unexplained": 1}
    # DM642, LL, transmit: 36 % with 256 KB against 32 % with 128 KB, more than both ±1 % errors
    assert found["§6.1.2 TMS320DM642 EVM, LL, L2 256 KB, transmit, against L2 128 KB"].status == "unexplained"
    assert found["§6.3 TMS320DM6437 EVM, LL, L2 128 KB, receive, against L2 64 KB"].status == "spread"


def test_a_cpu_load_that_rises_with_the_cache_beyond_the_error_is_caught():
    t = data.load("spraaq5-s6-throughput")
    row = t.index[(t["device"] == "TMS320C6455 DSK") & (t["architecture"] == "LL") & (t["operation"] == "Transmit")
                  & (t["l2_cache_kbytes"] == 256)][0]
    found = {c.row: c.status for c in ndk_tcp.cache_load_checks(edited_cell(t, row, "cpu_load_percent", "24"))}
    assert found["§6.2.2 TMS320C6455 DSK, LL, L2 256 KB, transmit, against L2 128 KB"] == "unexplained"  # 24 > 21 + 2


# --- the receive window a round trip, beside the wire ----------------------------------------------

def test_an_unscaled_window_a_millisecond_allows_524_mbit_s():
    # 65,535 bytes = 524,280 bits a round trip of 1000 us: 524.28 bits a microsecond, 524.28 Mbit/s
    assert tcp.window_limit_mbit_s(65535, 1000) == pytest.approx(524.28, rel=1e-15)
    assert float(tcp.window_limit_expr().subs({tcp.window: 65535, tcp.rtt: 1000})) == pytest.approx(524.28, rel=1e-15)


def test_the_window_binds_on_gigabit_ethernet_and_the_wire_on_fast_ethernet():
    fast = tcp.evaluate(8192, 100)
    assert fast["binding"] == "wire" and fast["bound_goodput_mbit_s"] == fast["goodput_mbit_s"]
    giga = tcp.evaluate(8192, 1000)  # the wire allows 945.96 Mbit/s, the window 524.28
    assert giga["binding"] == "window" and giga["bound_goodput_mbit_s"] == pytest.approx(524.28, rel=1e-15)
    assert giga["goodput_mbit_s"] == pytest.approx(8192 * 1000 / 8660, rel=1e-12)
    # a window scaled to 256 KiB lets the wire bind again: 2,097,152 bits a millisecond
    assert tcp.evaluate(8192, 1000, window_bytes=1 << 18)["binding"] == "wire"


def test_goodput_tcp_reports_the_window_and_refuses_a_round_trip_of_zero():
    p = run("--message", "8192", "--rate-mbit-s", "1000", "--window", "65535", "--rtt-us", "1000", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert (r["window_bytes"], r["rtt_us"], r["binding"]) == (65535, 1000, "window")
    assert r["window_limit_mbit_s"] == pytest.approx(524.28) and r["bound_goodput_mbit_s"] == pytest.approx(524.28)
    assert "the window binds" in run("--message", "8192", "--rate-mbit-s", "1000").stdout
    bad = run("--message", "8192", "--rtt-us", "0")
    assert bad.returncode == 2 and "rtt_us must be a number from 1 to 10000000 us" in bad.stderr
