"""What the page's control panel draws for each input: the kind follows the parameter's declaration."""

import pytest
import sympy as sp

from goodput.core.errors import ParameterError
from goodput.core.params import Parameter
from goodput.models import coding, srio, tcp
from goodput.render import calculations
from goodput.render.chapters import pcie_packets as pcie_charts
from goodput.render.controls import SEGMENTS, Choice, Slider, control

x = sp.Symbol("x")


def test_a_set_of_options_is_segmented_buttons_or_a_select_when_long():
    lanes = control(Slider(pcie_charts.SLIDERS["lanes"]))
    assert lanes["kind"] == "segmented" and lanes["value"] == 4
    assert [(o["value"], o["label"]) for o in lanes["options"]] == [(1, "x1"), (2, "x2"), (4, "x4"), (8, "x8"),
                                                                    (16, "x16"), (32, "x32")]
    size = control(Slider(pcie_charts.SLIDERS["size_bytes"]))
    assert size["kind"] == "select" and len(size["options"]) == 13 > SEGMENTS
    assert size["options"][0] == {"value": 8, "label": "8 B"}


def test_off_and_on_is_a_toggle():
    ecrc = control(Slider(pcie_charts.SLIDERS["ecrc"]))
    assert ecrc["kind"] == "toggle" and [o["label"] for o in ecrc["options"]] == ["off", "on"]


def test_a_short_whole_number_range_is_segmented_with_units():
    ids = control(Slider(srio.PARAMETERS["id_bits"]))
    assert ids["kind"] == "segmented" and [o["label"] for o in ids["options"]] == ["8 bits", "16 bits"]
    ip = control(Slider(tcp.PARAMETERS["ip_header_bytes"]))
    assert [o["label"] for o in ip["options"]] == ["IPv4, 20 B", "IPv6, 40 B"]


def test_a_continuous_value_is_a_number_box_with_slider_presets_and_range():
    rate = control(Slider(coding.PARAMETERS["line_rate_gbaud"], maximum=32.0))
    assert rate["kind"] == "number" and rate["unit"] == "Gbaud" and rate["label"] == "line rate per lane"
    assert rate["min"] == 0.001 and rate["max"] == 32 and rate["exclusiveMin"] is False
    assert rate["sliderMin"] == 0.0625 and rate["step"] == 0.0625 and rate["scale"] == "linear"
    assert {p["value"] for p in rate["presets"]} >= {2.5, 5.0, 8.0, 16.0, 32.0}
    assert all(p["value"] <= 32 for p in rate["presets"]), "a preset beyond the page's range"
    assert rate["allowed"] == "a number from 0.001 to 32 Gbaud"


def test_a_wide_range_with_a_low_start_slides_on_a_log_scale():
    line = control(Slider(tcp.PARAMETERS["line_rate_mbit_s"], maximum=10000))
    assert line["scale"] == "log" and [p["label"] for p in line["presets"]] == ["10M", "100M", "1G", "10G"]
    mtu = control(Slider(tcp.PARAMETERS["mtu_bytes"]))
    assert mtu["scale"] == "linear"


def test_a_choice_and_a_prefixed_key():
    choice = control(Choice("code", ["8b10b", "8b9b"], "8b10b", "highlight", ["8b/10b", "8b/9b"]), prefix="read-")
    assert choice["key"] == "read-code" and choice["signal"] == "code" and choice["kind"] == "segmented"
    assert [o["label"] for o in choice["options"]] == ["8b/10b", "8b/9b"]


def test_every_chapters_controls_have_a_kind_a_value_it_allows_and_unique_keys():
    for chapter in calculations.CHAPTERS:
        calc = calculations.get(chapter)
        described = calc.your_link().spec()["controls"]
        keys = [c["key"] for c in described]
        assert len(keys) == len(set(keys)), chapter
        for c, item in zip(described, (*calc.inputs, *calc.choices)):
            assert c["kind"] in ("segmented", "select", "toggle", "number"), c
            if "options" in c:
                assert c["value"] in [o["value"] for o in c["options"]], c
            if isinstance(item, Slider):
                assert item.check(c["value"]) == c["value"]


def test_a_parameter_with_options_refuses_any_other_value():
    p = pcie_charts.SLIDERS["lanes"]
    assert p.check(16) == 16 and p.check("8") == 8
    with pytest.raises(ParameterError, match="one of 1, 2, 4, 8, 16, 32 lanes"):
        p.check(3)


def test_a_declaration_with_options_or_presets_outside_its_range_is_refused():
    with pytest.raises(ValueError, match="option 64 is outside"):
        Parameter("n", x, "lanes", 1, 32, default=1, step=1, label="n", integer=True, options=((64, "x64"),))
    with pytest.raises(ValueError, match="preset 0 is outside"):
        Parameter("r", x, "Gbaud", 0, 10, default=1, step=1, label="r", exclusive_minimum=True,
                  presets=((0, "none"),))
    with pytest.raises(ValueError, match="default 3 is not one of its options"):
        Parameter("n", x, "lanes", 1, 32, default=3, step=1, label="n", integer=True,
                  options=((1, "x1"), (2, "x2")))


def test_a_label_drops_the_unit_the_control_shows_beside_the_value():
    assert coding.PARAMETERS["line_rate_gbaud"].title == "line rate per lane"
    assert pcie_charts.SLIDERS["ack_group"].title == "TLPs per ACK + UpdateFC"


def test_a_slider_can_ask_for_a_log_scale_and_the_choosers_latency_does():
    calc = calculations.get("choose-a-link")
    latency = next(s for s in calc.inputs if s.name == "latency_us")
    assert control(latency)["scale"] == "log"
    assert control(Slider(latency.parameter))["scale"] == "linear"  # its default, 10^6 us, sits at the far end
    with pytest.raises(ValueError, match="'log' or 'linear'"):
        Slider(latency.parameter, scale="logarithmic")
