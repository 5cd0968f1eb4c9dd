"""The boxes' answers in the reader's terms (goodput.render.answers, Calculation.answers): hand-worked numbers a
person can check on paper, and the page's texts (its Vega dataflow, run by vl-convert) equal to Python's."""

import json
import re

import pytest
import sympy as sp
import vl_convert as vlc
from calc_points import points
from tiers import fast_first

from goodput.core.errors import ParameterError
from goodput.render import answers, calculations
from goodput.render.calculation import Answers, Calculation
from goodput.render.live import YourLink

CHAPTERS = list(calculations.CHAPTERS)
MIB = 2 ** 20


def _case(calc, **values):
    return next(c for c in calc.records() if all(c[k] == v for k, v in values.items()))


# --- hand-worked -------------------------------------------------------------------------------------

def test_64_mib_at_one_gbit_s_takes_half_a_second():
    # 64 MiB = 67,108,864 bytes = 536,870,912 bits; at 10^9 bit/s that is 0.536870912 s
    t = answers.time_to_move_expr("Gbit/s").subs({answers.goodput: 1, answers.move: 64 * MIB})
    assert float(t) == pytest.approx(0.536870912, rel=1e-15)
    # at 100 MB/s (8 * 10^8 bit/s) it is 0.67108864 s
    t = answers.time_to_move_expr("MB/s").subs({answers.goodput: 100, answers.move: 64 * MIB})
    assert float(t) == pytest.approx(0.67108864, rel=1e-15)


def test_64_mib_over_pcie_gen_3_x4_in_1024_byte_writes():
    """Gen 3 x4: 8 GT/s x 4 lanes x 128/130 = 31.5077 Gbit/s after the line code. A 1024-byte write with MPS 256 is
    4 TLPs of 256 + 12 (3DW header) + 8 (STP, sequence number, LCRC) bytes, plus one ACK and one UpdateFC
    (8 bytes each) per 4 TLPs: 1024 + 80 + 16 = 1120 bytes on the wire for 1024 of data."""
    calc = calculations.get("pcie-packets")
    inputs = calc.input_values(generation=3, lanes=4, mps=256)
    got = calc.answer_values(inputs, _case(calc, size_bytes=1024), move_bytes=64 * MIB)
    line = 8e9 * 4 * 128 / 130
    goodput = line * 1024 / 1120
    assert got["answer_bit_s"] == pytest.approx(goodput, rel=1e-12)
    assert got["answer_time_s"] == pytest.approx(8 * 64 * MIB / goodput, rel=1e-12)  # 18.637 ms
    assert got["answer_time_s"] == pytest.approx(0.0186368, rel=1e-6)
    assert got["answer_transfers_per_s"] == pytest.approx(goodput / (8 * 1024), rel=1e-12)
    assert got["answer_packets_per_s"] == pytest.approx(4 * goodput / (8 * 1024), rel=1e-12)
    # the share of the raw 32 Gbaud: 128/130 x 1024/1120
    assert got["answer_efficiency"] == pytest.approx(128 / 130 * 1024 / 1120, rel=1e-12)
    assert calc.answer_texts(inputs, _case(calc, size_bytes=1024), 64 * MIB)["answer_time_s"] == "18.64 ms"
    # one write holds the link for 1120 byte times: 1120 x 8 / 31.5077 Gbit/s = 284.37 ns
    assert got["answer_transfer_s"] == pytest.approx(1120 * 8 / line, rel=1e-12)
    assert calc.answer_texts(inputs, _case(calc, size_bytes=1024))["answer_transfer_s"] == "284.4 ns"


def test_one_read_of_64_bytes_on_pcie_1_1_x1_takes_916_ns():
    """2.5 GT/s x 8/10 = 2 Gbit/s: 4 ns a byte. The request is 8 + 12 bytes, the completion 64 + 8 + 12: 104 bytes
    on the wire, 416 ns, and the completer's 500 ns between them. One read in flight: 64 bytes every 916 ns."""
    calc = calculations.get("pcie-reads")
    inputs = calc.defaults()
    got = calc.answer_values(inputs, _case(calc, size_bytes=64))
    assert got["answer_transfer_s"] == pytest.approx(916e-9, rel=1e-12)
    assert got["answer_transfers_per_s"] == pytest.approx(1 / 916e-9, rel=1e-12)
    assert calc.answer_texts(inputs, _case(calc, size_bytes=64))["answer_transfer_s"] == "916 ns"
    # two in flight: the data comes twice as often, each read still takes 916 ns; four would come every 229 ns,
    # but a completion holds the link for 84 x 4 = 336 ns, so the completions' direction allows one every 336 ns
    two = calc.answer_values(calc.input_values(reads_in_flight=2), _case(calc, size_bytes=64))
    assert two["answer_transfer_s"] == pytest.approx(916e-9, rel=1e-12)
    assert two["answer_transfers_per_s"] == pytest.approx(2 / 916e-9, rel=1e-12)
    four = calc.answer_values(calc.input_values(reads_in_flight=4), _case(calc, size_bytes=64))
    assert four["answer_transfer_s"] == pytest.approx(916e-9, rel=1e-12)
    assert four["answer_transfers_per_s"] == pytest.approx(1 / 336e-9, rel=1e-12)


def test_frames_per_second_of_full_frames_on_10_gigabit_ethernet():
    """1518-byte frames take 1518 + 8 (preamble, SFD) + 12 (gap) = 1538 byte times: 10^10 / (8 x 1538) =
    812,743.8 frames a second, whatever the stack above them."""
    calc = calculations.get("ethernet-framing")
    inputs = calc.input_values(mac_rate_gbit_s=10, frame_bytes=1518, vlan_bytes=0, convention=1)
    for stack in ("raw", "TCP/IPv4"):
        case = next((c for c in calc.records() if c["stack"] in (stack,)), None)
        if case is None:
            continue
        got = calc.answer_values(inputs, case)
        assert got["answer_transfers_per_s"] == pytest.approx(1e10 / (8 * 1538), rel=1e-12)
        assert calc.answer_texts(inputs, case)["answer_transfers_per_s"] == "812,744"


def test_segments_a_second_of_8_kib_writes_over_fast_ethernet():
    """MSS 1500 - 20 - 20 = 1460: an 8192-byte write is 5 full segments and one of 892 bytes. A full one
    takes 1460 + 40 (IP, TCP) + 18 (MAC header, FCS) + 20 (preamble, SFD, gap) = 1538 byte times, the last
    892 + 78 = 970: 8660 in all. At 100 Mbit/s: 10^8 / (8 x 8660) = 1443.4 writes and 6 x that segments a second."""
    calc = calculations.get("tcp-goodput")
    inputs = calc.input_values(line_rate_mbit_s=100, mtu_bytes=1500, ip_header_bytes=20, tcp_options_bytes=0,
                               vlan_bytes=0)
    got = calc.answer_values(inputs, _case(calc, message_bytes=8192))
    assert got["answer_transfers_per_s"] == pytest.approx(1e8 / (8 * 8660), rel=1e-12)
    assert got["answer_packets_per_s"] == pytest.approx(6e8 / (8 * 8660), rel=1e-12)
    assert got["answer_efficiency"] == pytest.approx(8192 / 8660, rel=1e-12)


def test_a_goodput_in_the_readers_unit():
    # 14.629 Gbit/s is 1,828.6 MB/s (divided by 8, times 1000) and 14,629 Mbit/s
    assert answers.rate_text(14.629e9, "gbit_s") == "14.629 Gbit/s"
    assert answers.rate_text(14.629e9, "mbyte_s") == "1,828.6 MB/s"
    assert answers.rate_text(14.629e9, "mbit_s") == "14,629 Mbit/s"


def test_times_and_counts_read_as_a_person_writes_them():
    assert answers.time_text(0.0186368) == "18.64 ms"
    assert answers.time_text(2.5) == "2.5 s"
    assert answers.time_text(9.8e-7) == "980 ns"
    assert answers.time_text(12.5e-6) == "12.5 µs"
    assert answers.time_text(2265.0) == "37.75 min"
    assert answers.time_text(7200.0) == "2 h"
    assert answers.time_text(123456.0) == "1.429 days"
    assert answers.time_text(8.8e7) == "1,019 days"
    assert answers.count_text(812743.8) == "812,744"
    assert answers.count_text(452.49) == "452.5"


# --- declarations ---------------------------------------------------------------------------------

def test_every_chapter_with_a_box_answers_in_the_readers_terms():
    for chapter in CHAPTERS:
        calc = calculations.get(chapter)
        assert calc.answers is not None, f"{chapter}: its box declares no answers"
        assert [a.name for a in calc.answer_outputs()][:2] == ["answer_bit_s", "answer_time_s"], chapter
        assert [c.name for c in calc.box_controls()][-2:] == ["unit", "move_bytes"], chapter


def test_the_box_spec_carries_the_answers_and_their_controls_apart():
    spec = YourLink(calculations.get("spi"), "x").spec()
    assert [c["key"] for c in spec["table"]["columns"] if c["kind"] == "answer"] == [
        "cell_answer_bit_s", "cell_answer_time_s", "cell_answer_transfers_per_s", "cell_answer_transfer_s",
        "cell_answer_efficiency"]
    assert spec["answerControls"] == ["unit", "move_bytes"]
    assert [c["key"] for c in spec["controls"]][-2:] == ["unit", "move_bytes"]


def test_the_unit_opens_on_the_models_own():
    assert answers.unit_choice("Gbit/s").value == "gbit_s"
    assert answers.unit_choice("MB/s").value == "mbyte_s"
    assert answers.unit_choice("Mbit/s").value == "mbit_s"
    assert answers.unit_choice("kbit/s").value == "mbit_s"
    with pytest.raises(ValueError, match="not a rate unit"):
        answers.unit_choice("us")


def test_bytes_to_move_outside_the_range_are_refused():
    calc = calculations.get("pcie-packets")
    case = calc.records()[calc.headline_case()]
    for bad in (0, -1, 2.5, 2 ** 41):
        with pytest.raises(ParameterError, match="move_bytes"):
            calc.answer_values(calc.defaults(), case, move_bytes=bad)


def test_answers_whose_goodput_is_no_rate_or_whose_symbols_are_unknown_are_refused():
    calc = calculations.get("spi")
    with pytest.raises(ValueError, match="not an output"):
        Calculation(**{**calc.__dict__, "answers": Answers("model_us")})
    stray = sp.Symbol("stray", positive=True)
    with pytest.raises(ValueError, match="uses stray"):
        Calculation(**{**calc.__dict__, "answers": Answers("goodput_mbit_s", transfer=stray)})


# --- the page ---------------------------------------------------------------------------------------

def _page_answers(calc, inputs: dict, move_bytes: int, unit: str) -> dict[int, dict[str, str]]:
    """Each row's answers as the box's Vega dataflow writes them (run by vl-convert)."""
    spec = YourLink(calc, "x").spec()["table"]["vega"]
    values = {**inputs, "move_bytes": move_bytes, "unit": unit}
    names = [a.name for a in calc.answer_outputs()]
    text = " + '|' + ".join([f"datum.cell_{n}" for n in names])
    spec = {**spec, "signals": [{**s, "value": values.get(s["name"], s["value"])} for s in spec["signals"]],
            "marks": [{"type": "text", "from": {"data": "rows"},
                       "encode": {"enter": {"text": {"signal": f"datum.row_index + '|' + {text}"}}}}]}
    out = {}

    def walk(node):
        for item in node.get("items", []):
            if isinstance(item, dict):
                if "|" in str(item.get("text", "")):
                    row, *cells = str(item["text"]).split("|")
                    out[int(row)] = dict(zip(names, cells))
                walk(item)

    walk(vlc.vega_to_scenegraph(spec)["scenegraph"])
    return out


#: The defaults and 64 MiB in the model's own unit, every row of every chapter; the tour (tests/test_page_tour_browser.py)
#: sets each box's unit and a gigabyte to move in the browser, and holds its answers to these functions.
STATES = [("defaults", 64 * MIB, None)]


@pytest.mark.parametrize("chapter", fast_first(CHAPTERS, 2))
@pytest.mark.parametrize("state", STATES, ids=lambda s: s[0])
def test_the_box_writes_the_answers_python_computes(chapter, state):
    point, move_bytes, unit = state
    calc = calculations.get(chapter)
    inputs = calc.input_values(**points(calc)[point])
    unit = unit or answers.unit_choice(calc.goodput_unit()).value
    page = _page_answers(calc, inputs, move_bytes, unit)
    assert len(page) == len(calc.cases)
    for case in calc.records():
        want = calc.answer_texts(inputs, case, move_bytes, unit)
        shown = page[case["row_index"]]
        assert shown.keys() == want.keys()
        for name in want:
            assert same_answer(shown[name], want[name]), (chapter, name, shown[name], want[name], json.dumps(case, default=str))


def same_answer(page: str, python: str) -> bool:
    """The page's text is Python's, or (a value on a tie of its last digit, 0.78125 ns, which the page's float
    arithmetic and sympy's reach from either side) the same unit and one unit of the last digit apart."""
    if page == python:
        return True
    (a, unit_a), (b, unit_b) = (re.fullmatch(r"([-\d,.]+)(.*)", t).groups() for t in (page, python))
    places = max(len(x.split(".")[1]) if "." in x else 0 for x in (a, b))
    return unit_a == unit_b and abs(float(a.replace(",", "")) - float(b.replace(",", ""))) <= 1.01 * 10 ** -places
