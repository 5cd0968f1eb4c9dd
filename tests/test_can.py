import json

import pytest
import sympy as sp
from command import call
from mutations import edited_cell
from tiers import fast_first

from goodput import checks
from goodput.core import data
from goodput.core.errors import GoodputError, ParameterError
from goodput.models import can
from goodput.render import tables
from goodput.render.chapters import can_fd as can_charts
from goodput.sources.am243x_sdk import can as can_source


def test_the_datasheets_bit_counts_are_the_fields_without_stuffing_and_intermission():
    items = [c for c in checks.collect("can-fd") if c.resource == "am243x-mcan" and c.quantity.endswith("phase bits")]
    assert len(items) == 4 and {c.status for c in items} == {"ok"}
    assert can_source.datasheet_bits(64, False) == (27, 538) and can_source.datasheet_bits(64, True) == (46, 538)


def test_crc_17_up_to_16_bytes_and_crc_21_beyond_with_their_fixed_stuff_bits():
    assert can.frame_bits(16, False, 0)[1] - 8 * 16 == 1 + 4 + 4 + 17 + 6  # no dynamic stuff bits
    assert can.frame_bits(20, False, 0)[1] - 8 * 20 == 1 + 4 + 4 + 21 + 7


def test_the_measured_rates_lie_between_no_and_worst_case_stuffing():
    for ext, measured in ((False, 6666), (True, 5780)):
        assert can.evaluate(64, ext, 1, 5, 1)["messages_per_s"] < measured < can.evaluate(64, ext, 1, 5, 0)[
            "messages_per_s"]


@pytest.mark.slow
def test_the_budget_ends_at_the_measured_rate_and_names_a_share():
    t = can_charts.budget_table()
    measured = t[t["step"] == "measured"]["messages/s"].tolist()
    assert measured == [6666, 5780]
    assert t[t["step"].str.startswith("implied")]["share"].str.endswith("%").all()


def test_numeric_time_equals_the_expression():
    expr = can.frame_time_expr()
    for n, x, ra, rd, s in [(64, 0, 1, 5, 0), (8, 1, 0.5, 2, 1), (0, 0, 1, 8, 0.5), (20, 1, 1, 4, 0.25)]:
        exact = expr.subs({can.data_bytes: n, can.extended: x, can.arbitration_rate: ra, can.data_rate: rd,
                           can.stuffing: sp.Rational(str(s))})
        assert can.evaluate(n, bool(x), ra, rd, s)["frame_time_us"] == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("args, name", [((9,), "data_bytes"), ((65,), "data_bytes"), ((8, False, 0), "arbitration"),
                                        ((8, False, 1, 20), "data_mbit_s"), ((8, False, 1, 5, 2), "stuffing")])
def test_impossible_can_parameters_are_rejected(args, name):
    with pytest.raises(ParameterError, match=name):
        can.evaluate(*args)


def test_goodput_can_json_and_a_length_no_dlc_can_say():
    p = call("can", "--bytes", "64", "--json")  # worst-case stuffing unless told otherwise: 169.6 us
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["frame_time_us"] == pytest.approx(169.6)
    p = call("can", "--bytes", "64", "--stuffing", "0", "--json")
    assert json.loads(p.stdout)["frame_time_us"] == pytest.approx(139.8)
    p = call("can", "--bytes", "9")
    assert p.returncode == 2 and "--bytes 9: data_bytes must be a CAN FD data length" in p.stderr


def _greedy_stuff_bits(arbitration_bits: int, total_bits: int) -> tuple[int, int]:
    """A bit stuffer fed the worst pattern (each bit equal to the last one sent): the stuff bits it
    inserts after the first ``arbitration_bits`` bits and up to the end of ``total_bits``."""
    sent, run, stuffed = None, 0, [0, 0]
    for i in range(total_bits):
        bit = 0 if sent is None else sent  # equal to the last bit on the wire: the worst case
        run = run + 1 if bit == sent else 1
        sent = bit
        if run == 5:  # five equal bits: a stuff bit of the other value, which starts the next run
            stuffed[i >= arbitration_bits] += 1
            sent, run = 1 - bit, 1
    return stuffed[0], stuffed[1]


@pytest.mark.parametrize("x", [0, 1])
@pytest.mark.parametrize("n", can.DATA_LENGTHS)
def test_worst_case_stuffing_runs_from_sof_to_the_end_of_the_data_as_a_bit_stuffer_does(n, x):
    arb = int(can.arbitration_field_bits_expr().subs(can.extended, x))
    data_field = 1 + 4 + 8 * n  # ESI, DLC, data: the dynamically stuffed bits after BRS
    expected = _greedy_stuff_bits(arb, arb + data_field)
    got = tuple(int(e.subs({can.extended: x, can.data_bytes: n})) for e in can.stuff_bits_exprs())
    assert got == expected


def test_an_extended_64_byte_frame_needs_one_stuff_bit_more_than_two_separate_runs_would():
    assert _greedy_stuff_bits(36, 36 + 517) == (8, 130)  # separate runs: floor(35/4) + floor(516/4) = 8 + 129


def test_a_29_bit_identifier_adds_one_worst_case_stuff_bit_to_the_data_phase():
    data_phase = can.stuff_bits_exprs()[1]
    for n in can.DATA_LENGTHS:
        standard, extended = (data_phase.subs({can.extended: x, can.data_bytes: n}) for x in (0, 1))
        assert extended - standard == 1


@pytest.mark.slow
def test_the_implied_stuffing_share_gives_back_the_frame_time_it_was_solved_from():
    for n, x, s in ((64, 0, 0.25), (8, 1, 1.0), (20, 0, 0.0)):
        values = {can.data_bytes: n, can.extended: x, can.arbitration_rate: 1, can.data_rate: 5}
        t = can.evaluate(n, bool(x), 1, 5, s)["frame_time_us"]
        assert float(can.implied_stuffing_expr().subs({**values, can.frame_time: t})) == pytest.approx(s, abs=1e-12)


def test_the_budget_steps_add_up_to_the_model_with_no_and_with_worst_stuffing():
    steps = can.budget_bits_exprs()
    assert list(steps) == ["datasheet", "intermission", "no_stuffing", "worst_stuffing"]
    values = {can.data_bytes: 64, can.extended: 1}
    for key, share in (("no_stuffing", 0), ("worst_stuffing", 1)):
        assert tuple(float(e.subs(values)) for e in steps[key]) == can.frame_bits(64, True, share)
    nominal_ds, _ = (e.subs(values) for e in steps["datasheet"])
    assert steps["intermission"][0].subs(values) - nominal_ds == can.INTERMISSION_BITS


# --- classical CAN -------------------------------------------------------------------------------

#: The fields of a classical frame SOF to the end of the CRC sequence, typed here from CAN 2.0 (Bosch 1991)
#: apart from the model: the stuffed run.
_STANDARD = {"SOF": 1, "identifier": 11, "RTR": 1, "IDE": 1, "r0": 1, "DLC": 4}
_EXTENDED = {"SOF": 1, "identifier A": 11, "SRR": 1, "IDE": 1, "identifier B": 18, "RTR": 1, "r1": 1, "r0": 1,
             "DLC": 4}
_CRC, _AFTER_CRC = 15, {"CRC delimiter": 1, "ACK slot": 1, "ACK delimiter": 1, "EOF": 7, "intermission": 3}


def _classical_frame_bits(n: int, x: int) -> tuple[int, int]:
    """(bits with no stuff bit, bits with the worst case) of a classical frame, counted bit by bit."""
    stuffed = sum((_EXTENDED if x else _STANDARD).values()) + 8 * n + _CRC
    plain = stuffed + sum(_AFTER_CRC.values())
    return plain, plain + sum(_greedy_stuff_bits(0, stuffed))


@pytest.mark.parametrize("x", [0, 1])
@pytest.mark.parametrize("n", range(9))
def test_a_classical_frame_has_the_bits_a_bit_stuffer_counts_from_sof_to_the_end_of_the_crc(n, x):
    plain, worst = _classical_frame_bits(n, x)
    assert can.classical_frame_bits(n, bool(x), 0) == plain
    assert can.classical_frame_bits(n, bool(x), 1) == worst
    assert can.classical_frame_bits(n, bool(x), 0.5) == (plain + worst) / 2


@pytest.mark.parametrize("x, g", [(0, 34), (1, 54)])
def test_the_worst_classical_frame_is_davis_burns_bril_and_lukkiens(x, g):
    # C = g + 8s + 13 + floor((g + 8s - 1)/4) bit times (Real-Time Systems 35(3), 2007), 13 = CRC delimiter,
    # ACK slot and delimiter, EOF and the 3-bit intermission
    for n in range(9):
        assert can.classical_frame_bits(n, bool(x), 1) == g + 8 * n + 13 + (g + 8 * n - 1) // 4


@pytest.mark.parametrize("x", [0, 1])
@pytest.mark.parametrize("n", range(9))
def test_stuffing_the_crc_delimiter_too_as_linux_does_adds_no_stuff_bit(n, x):
    stuffed = sum((_EXTENDED if x else _STANDARD).values()) + 8 * n + _CRC
    assert sum(_greedy_stuff_bits(0, stuffed + 1)) == sum(_greedy_stuff_bits(0, stuffed))


@pytest.mark.parametrize("s", [0, 1])
@pytest.mark.parametrize("x", [0, 1])
@pytest.mark.parametrize("n", can.DATA_LENGTHS)
def test_a_can_fd_frame_has_the_bits_linux_can_frame_bits_counts(n, x, s):
    # include/linux/can/length.h (v6.5): header 22 or 41 bits (SOF to DLC) plus the data, stuffed as one
    # run; CRC field 28 (CRC-17) or 33 (CRC-21) with its fixed stuff bits; footer 9; intermission 3
    run = (41 if x else 22) + 8 * n
    kernel = run + s * ((run - 1) // 4) + (28 if n <= 16 else 33) + 9 + 3
    assert sum(can.frame_bits(n, bool(x), s)) == kernel
    assert float(can.bits_expr().subs({can.data_bytes: n, can.extended: x, can.stuffing: s})) == kernel


def test_the_kernels_published_lengths_are_the_model_with_no_and_with_worst_stuffing():
    items = [c for c in checks.collect("can-fd") if c.resource == "linux-can-length"]
    published = data.load("linux-can-length")
    assert [c.published for c in items] == list(published.attrs["printed"]["bits"])
    assert len(items) == 8 and {c.status for c in items} == {"ok"}
    shown = tables.checks_table("can-fd", resource="linux-can-length")
    assert shown["published"].tolist() == [c.published for c in items]
    with pytest.raises(KeyError, match="no checks of 'nope'"):
        tables.checks_table("can-fd", resource="nope")


def test_a_classical_frame_takes_its_bits_at_the_nominal_rate():
    r = can.evaluate(8, True, 0.125, stuffing_share=1, classical_frame=True)
    assert r["frame_time_us"] == pytest.approx(160 / 0.125) and r["messages_per_s"] == pytest.approx(781.25)
    assert r["data_phase_bits"] == 0 and r["nominal_bits"] == 160 and r["classical"]
    assert r["efficiency"] == pytest.approx(64 / 160)
    expr = can.classical_frame_time_expr()
    for n, x, ra, s in [(0, 0, 1, 0), (8, 1, 0.5, 1), (3, 0, 0.25, 0.5)]:
        exact = expr.subs({can.data_bytes: n, can.extended: x, can.arbitration_rate: ra,
                           can.stuffing: sp.Rational(str(s))})
        assert can.evaluate(n, bool(x), ra, stuffing_share=s, classical_frame=True)["frame_time_us"] == \
            pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("kwargs, name", [({"n": 9}, "data_bytes"), ({"n": 12}, "data_bytes"), ({"n": -1}, "data_bytes"),
                                          ({"n": 8, "data_mbit_s": 5}, "data_mbit_s"),
                                          ({"n": 8, "arbitration_mbit_s": 0}, "arbitration"),
                                          ({"n": 8, "stuffing_share": -0.1}, "stuffing")])
def test_impossible_classical_parameters_are_rejected(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        can.evaluate(classical_frame=True, **kwargs)


def test_goodput_can_classical_and_what_it_refuses():
    p = call("can", "--classical", "--bytes", "8", "--stuffing", "0", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["classical"] and r["frame_time_us"] == pytest.approx(111) and "data_mbit_s" not in r
    # the worst case by default: the kernel's 135 bits with bitstuffing
    assert json.loads(call("can", "--classical", "--bytes", "8", "--json").stdout)["frame_time_us"] == pytest.approx(135)
    p = call("can", "--classical", "--bytes", "8", "--extended", "--stuffing", "1")
    assert p.returncode == 0 and "160 bits at 1 Mbit/s; 160 us, 6250 messages/s" in p.stdout
    p = call("can", "--classical", "--bytes", "8", "--data-mbit-s", "5")  # even the default rate, typed
    assert p.returncode == 2 and "--data-mbit-s 5: data_mbit_s must be left out for a classical CAN frame" in p.stderr
    p = call("can", "--classical", "--bytes", "12")
    assert p.returncode == 2 and "--bytes 12: data_bytes must be a classical CAN data length" in p.stderr
    p = call("can", "--bytes", "64", "--data-mbit-s", "2", "--json")  # CAN FD still takes it
    assert p.returncode == 0 and json.loads(p.stdout)["data_mbit_s"] == 2


def test_the_calculated_table_puts_classical_frames_beside_can_fd():
    calc = can_charts.calculation()
    inputs = calc.input_values(arbitration_mbit_s=0.5, data_mbit_s=2, stuffing=1)
    cases = {(r["frame"], r["format"], r["data_bytes"]): r for r in calc.records()}
    classical = calc.evaluate(inputs, cases["classical", "extended", 8])["messages_per_s"]
    assert classical == pytest.approx(0.5e6 / 160)  # the kernel's worst case at 500 kbit/s
    fd = calc.evaluate(inputs, cases["CAN FD", "extended", 8])["messages_per_s"]
    assert fd == pytest.approx(can.evaluate(8, True, 0.5, 2, 1)["messages_per_s"])
    assert {r["data_bytes"] for r in cases.values() if r["frame"] == "classical"} == set(range(9))


@pytest.mark.parametrize("size", fast_first([65, 1, 7, 8, 9, 13, 47, 63, 64, 100, 129, 1000]))
def test_a_transfer_is_full_frames_and_one_padded_frame(size):
    values = {can.transfer: size, can.extended: 1, can.arbitration_rate: sp.Rational(1, 2), can.data_rate: 2,
              can.stuffing: sp.Rational(1, 2)}
    expr = float(can.transfer_time_expr().subs(values))
    assert can.transfer_time_us(size, True, 0.5, 2, 0.5) == pytest.approx(expr, rel=1e-12)
    frames = -(-size // 64)
    assert can.transfer_time_us(size, True, 0.5, 2, 0.5) >= frames * can.evaluate(0, True, 0.5, 2, 0.5)["frame_time_us"]


def test_a_transfer_of_nothing_is_refused():
    with pytest.raises(ParameterError, match="size_bytes"):
        can.transfer_time_us(0)


# --- the MCAN message rates ------------------------------------------------------------------------

def test_mcan_rates_keep_under_the_frame_ceiling_but_no_bit_count_reproduces_them():
    got = {(c.row, c.kind): (c.status, c.model) for c in checks.collect("can-fd")
           if c.resource == "am243x-mcan" and c.quantity == "throughput"}
    std, ext = "standard identifier, 64 data bytes", "extended identifier, 64 data bytes"
    # no stuffing: 17 + 10 + 3 (+19 extended) nominal bits; 1 + 4 + 512 + 4 + 21 + 1 + 6 data-phase bits
    assert got[(std, "ceiling")][0] == "ok" and got[(std, "ceiling")][1] == pytest.approx(1e6 / (30 + 549 / 5))
    assert got[(ext, "ceiling")][0] == "ok" and got[(ext, "ceiling")][1] == pytest.approx(1e6 / (49 + 549 / 5))
    # the datasheet's own counts: 27 (46) bits at 1 Mbit/s and 538 at 5 Mbit/s
    assert got[(std, "calculated")] == ("unexplained", pytest.approx(1e6 / (27 + 538 / 5)))
    assert got[(ext, "calculated")] == ("unexplained", pytest.approx(1e6 / (46 + 538 / 5)))


def test_a_message_rate_above_what_the_frame_allows_is_caught():
    t = data.load("am243x-mcan")
    bad = edited_cell(t, 0, "messages_per_s", "7400", value=7400)
    got = {(c.row, c.kind): c.status for c in can_source.mcan_rate_checks(bad)}
    assert got[("standard identifier, 64 data bytes", "ceiling")] == "erratum"
    assert got[("extended identifier, 64 data bytes", "ceiling")] == "ok"


def test_the_typical_stuffing_preset_is_what_the_measured_rates_imply():
    # the mean of the shares AM243x's two measured CAN FD rates imply, to two decimals: a preset with provenance
    shares = [float(can.implied_stuffing_expr().subs({can.data_bytes: 64, can.extended: x, can.frame_time: 1e6 / rate,
                                                      can.arbitration_rate: 1, can.data_rate: 5}))
              for x, rate in ((0, 6666), (1, 5780))]
    assert [round(s, 2) for s in shares] == [0.34, 0.42]
    assert can.TYPICAL_STUFFING == round(sum(shares) / 2, 2)
    t = data.load("am243x-mcan")
    assert sorted(t["messages_per_s"]) == [5780, 6666]


def test_a_bound_takes_the_worst_case_stuffing_unless_told_otherwise():
    p = can.PARAMETERS["stuffing"]
    assert p.default == 1 and [label for _, label in p.presets] == ["none", "typical (AM243x measured)", "worst case"]
    assert can.evaluate(64, False, 1, 5)["messages_per_s"] == can.evaluate(64, False, 1, 5, 1)["messages_per_s"]
    out = json.loads(call("can", "--bytes", "64", "--json").stdout)
    assert out["messages_per_s"] == pytest.approx(can.evaluate(64, False, 1, 5, 1)["messages_per_s"])


def test_25_eight_byte_messages_every_10_ms_fit_in_70_percent_of_a_500_kbit_s_bus():
    """A classical 8-byte frame with an 11-bit identifier and worst-case stuffing is 135 bits: 270 us at
    500 kbit/s. A 10 ms period holds 10,000 / 270 = 37.04 of them; 70 % of it, 25.9: 25 whole messages."""
    r = can.evaluate(8, False, 0.5, stuffing_share=1, classical_frame=True)
    assert r["frame_time_us"] == pytest.approx(270)
    assert can.messages_that_fit(r["messages_per_s"], 10, 70) == 25
    assert can.messages_that_fit(r["messages_per_s"], 10, 100) == 37
    assert float(can.messages_that_fit_expr().subs({can.message_rate: r["messages_per_s"], can.period: 10,
                                                    can.bus_load: 70})) == pytest.approx(0.7 * 10_000 / 270)
    calc = can_charts.calculation()
    case = next(c for c in calc.records() if (c["c"], c["x"], c["data_bytes"]) == (1, 0, 8))
    assert calc.evaluate(calc.input_values(arbitration_mbit_s=0.5), case)["fit"] == pytest.approx(25.93, abs=0.005)


def test_goodput_can_says_how_many_messages_fit_and_refuses_a_period_of_zero():
    p = call("can", "--classical", "--bytes", "8", "--arb-mbit-s", "0.5", "--period-ms", "10", "--load-percent", "70",
             "--json")
    r = json.loads(p.stdout)
    assert (r["messages_that_fit"], r["period_ms"], r["bus_load_percent"]) == (25, 10, 70)
    assert r["messages_in_load"] == pytest.approx(25.93, abs=0.005)
    assert "25 such messages, each once every 10 ms, in 70 % of the bus" in call(
        "can", "--classical", "--bytes", "8", "--arb-mbit-s", "0.5").stdout
    for option, value, words in (("--period-ms", "0", "period_ms must be a number from 0.01 to 10000 ms"),
                                 ("--load-percent", "0", "bus_load_percent must be a number from 0.1 to 100 %")):
        bad = call("can", "--bytes", "8", option, value)
        assert bad.returncode == 2 and words in bad.stderr, bad.stderr


# --- the bus load of a list of messages -----------------------------------------------------------

def _load(*argv):
    p = call("can", *argv, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_two_classical_messages_load_the_bus_as_worked_by_hand():
    """A classical data frame of 8 bytes with an 11-bit identifier and no stuff bits: SOF 1, identifier 11, RTR,
    IDE and r0 3, DLC 4, data 64, CRC 15 and its delimiter 1, ACK slot and delimiter 2, end of frame 7, and 3 bits of
    intermission: 111 bits, 222 us at 500 kbit/s. Sent every 10 ms it takes 2.22 % of the bus; two of them 4.44 %."""
    r = _load("--message", "8:10:classical", "--message", "8:10:classical", "--arb-mbit-s", "0.5", "--stuffing", "0")
    assert [m["frame_time_us"] for m in r["messages"]] == [pytest.approx(222), pytest.approx(222)]
    assert [m["load_percent"] for m in r["messages"]] == [pytest.approx(2.22), pytest.approx(2.22)]
    assert r["load_percent"] == pytest.approx(4.44) and r["carried"]


def test_a_load_over_100_percent_is_an_answer():
    """The same frame every 0.2 ms: 222 us of every 200, 111 %: the bus cannot carry it, and says so."""
    r = _load("--message", "8:0.2:classical", "--arb-mbit-s", "0.5", "--stuffing", "0")
    assert r["load_percent"] == pytest.approx(111) and not r["carried"]


def test_the_load_is_the_models_expression():
    expr = can.load_percent_expr()
    assert float(expr.subs({can.frame_time: 222, can.period: 10})) == pytest.approx(2.22, rel=1e-15)
    r = can.bus_load_of([(64, 1, False, False), (8, 10, True, True)])
    assert r["messages"][0]["load_percent"] == pytest.approx(
        float(expr.subs({can.frame_time: can.evaluate(64)["frame_time_us"], can.period: 1})), rel=1e-12)


@pytest.mark.parametrize("message, words", [
    ("8:0:classical", "--message '8:0:classical': period_ms must be a number from 0.01"),
    ("9:10", "--message '9:10': data_bytes must be a CAN FD data length"),
    ("8x10", "--message '8x10': write BYTES:PERIOD_MS"),
    ("8:10:fd", "--message '8:10:fd': write BYTES:PERIOD_MS"),
])
def test_a_message_the_bus_cannot_have_is_refused_naming_it(message, words):
    p = call("can", "--message", message)
    assert p.returncode == 2 and p.stdout == "" and words in p.stderr, p.stderr


def test_an_empty_list_says_what_to_give():
    with pytest.raises(GoodputError, match="at least one message"):
        can.bus_load_of([])
