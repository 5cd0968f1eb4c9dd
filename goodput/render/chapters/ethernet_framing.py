"""Charts of the ethernet-framing chapter (Ethernet framing)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.core.symbols import ModelSymbol
from goodput.machine.grammar import Setting
from goodput.models import ethernet
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.charts import live_model
from goodput.render.controls import Slider
from goodput.render.vega import is_value, vega_expr

__all__ = ["FRAME_SIZES", "VLAN", "CONVENTION", "calculation", "explore_chart", "keystone_chart"]

#: The chart's frame sizes: the standard ones up to 1518 bytes, then jumbo frames (9018 bytes for a
#: 9000-byte MTU, 9216 as most switches allow) up to the model's largest frame.
FRAME_SIZES = (64, 96, 128, 192, 256, 384, 512, 768, 1024, 1280, 1518, 2048, 3072, 4096, 6144, 9018, 9216,
               12288, ethernet.MAX_FRAME_BYTES)
SHOWN_STACKS = ("raw", "udp4", "tcp4", "tcp4ts", "tcp6ts")
VLAN = ethernet.PARAMETERS["vlan_bytes"]
CONVENTION = ethernet.PARAMETERS["convention"]


def _your_goodput(inputs, case) -> dict:
    key = {s.name: s.key for s in ethernet.STACKS.values()}[case["stack"]]
    vlan_tag = inputs["vlan_bytes"] == ethernet.VLAN_TAG_BYTES
    counted = ethernet.counted_bytes(inputs["frame_bytes"], inputs["convention"])
    if inputs["frame_bytes"] < ethernet.frame_bytes_for(0, key, vlan_tag):
        # the frame cannot hold this stack's headers: no payload
        return {"your_goodput_gbit_s": 0.0, "counted_bytes": counted}
    return {"your_goodput_gbit_s": ethernet.evaluate(inputs["frame_bytes"], inputs["mac_rate_gbit_s"], key,
                                                     vlan_tag, inputs["convention"])["goodput_gbit_s"],
            "counted_bytes": counted}


def calculation() -> Calculation:
    """Payload goodput of back-to-back frames of your size above each protocol stack (0 where the
    frame cannot hold the stack's headers), in the convention chosen: the bytes counted per frame
    (frame + 20 on the wire, the frame alone for payload over frame) stand beside it."""
    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="ethernet_your_frame", title="Your frame above each protocol stack",
        cases=pd.DataFrame([{"stack": ethernet.STACKS[k].name, "stack_bytes": ethernet.STACKS[k].header_bytes}
                            for k in SHOWN_STACKS]),
        shown={"stack": "stack", "stack_bytes": "stack headers (bytes)"},
        fields={ethernet.stack: "stack_bytes"},
        inputs=[Slider(ethernet.PARAMETERS["mac_rate_gbit_s"], maximum=100.0), Slider(VLAN), Slider(CONVENTION),
                Slider(ethernet.PARAMETERS["frame_bytes"])],
        outputs=[Output("your_goodput_gbit_s", sp.Max(0, ethernet.payload_goodput_expr().subs(ethernet.VALUES)),
                        "payload goodput", "Gbit/s", 4),
                 Output("counted_bytes", ethernet.wire_bytes_expr().subs(ethernet.VALUES),
                        "bytes counted per frame", "bytes", 0)],
        numeric=_your_goodput,
        answers=Answers("your_goodput_gbit_s", rate=10 ** 6 * ethernet.frame_rate_expr().subs(ethernet.VALUES),
                        transfers="frames", line_rate=ethernet.mac_rate, line="the MAC rate"),
        command=BoxCommand("ethernet", [Word("--stack", "stack", {s.name: s.key for s in ethernet.STACKS.values()}),
                                        Word("--vlan", when=("vlan_bytes", ethernet.VLAN_TAG_BYTES)),
                                        Word("--frame-only", when=("convention", ethernet.FRAME_ONLY))],
                           {"your_goodput_gbit_s": "goodput_gbit_s", "counted_bytes": "counted_bytes"}),
        machine=(Setting("mac_rate_gbit_s", "ethtool", "speed_mbit_s", per=1000),))


def explore_chart() -> alt.VConcatChart:
    """Payload goodput per protocol stack against frame size (up to the largest jumbo frame), live
    on MAC rate, VLAN tag and convention; your frame size on every stack, as points and in the
    calculated table."""
    cases = pd.DataFrame([{"frame_bytes": f, "stack": ethernet.STACKS[k].name,
                           "stack_bytes": ethernet.STACKS[k].header_bytes}
                          for k in SHOWN_STACKS for f in FRAME_SIZES])
    headers = ethernet.headers_expr().subs(ethernet.VALUES)
    most = headers.subs(ethernet.vlan, ethernet.VLAN_TAG_BYTES)  # with a VLAN tag: every curve's smallest frame
    cases = cases[[f >= int(most.subs(ethernet.stack, s)) for f, s in zip(cases["frame_bytes"], cases["stack_bytes"])]]
    calc = calculation()
    yours_live = calc.live()
    live = live_model(
        cases,
        outputs={"goodput_gbit_s": ethernet.payload_goodput_expr().subs(ethernet.VALUES)},
        sliders=[s for s in calc.inputs if s.name != "frame_bytes"],  # the curves run over frame sizes
        fields={ethernet.frame: "frame_bytes", ethernet.stack: "stack_bytes"},
        name="ethernet_frames",
    )
    # the reader's frame: one point per stack at the frame-size slider
    yours = yours_live.base.transform_calculate(your_frame_bytes="frame_bytes")
    x = alt.X("frame_bytes:Q", scale=alt.Scale(type="log", base=2), title="frame size, MAC header to FCS (bytes)")
    color = alt.Color("stack:N", sort=[ethernet.STACKS[k].name for k in SHOWN_STACKS], title=None)
    lines = live.base.mark_line(point=True).encode(
        x=x, y=alt.Y("goodput_gbit_s:Q", title="payload goodput (Gbit/s)"), color=color,
        tooltip=["stack:N", "frame_bytes:Q", alt.Tooltip("goodput_gbit_s:Q", format=".3f")])
    # a frame too small for a stack's headers carries no payload of it: no point drawn
    your_frame = ModelSymbol("your_frame_bytes", __name__, positive=True)
    points = yours.transform_filter(
        vega_expr(sp.Ge(your_frame, headers), fields={your_frame: "your_frame_bytes", ethernet.stack: "stack_bytes"},
                  params={ethernet.vlan: VLAN.name})
    ).mark_point(shape="diamond", size=140, filled=True).encode(
        x=alt.X("your_frame_bytes:Q", scale=alt.Scale(type="log", base=2)), y="your_goodput_gbit_s:Q", color=color,
        tooltip=["stack:N", "your_frame_bytes:Q", alt.Tooltip("your_goodput_gbit_s:Q", format=".3f")])
    return calc.view(yours_live, lines, points,
                     height=260, title="Payload goodput above each protocol stack; diamonds: your frame size")


def keystone_chart() -> alt.LayerChart:
    """KeyStone II §9: measured, the line-rate model, and the fitted Packet DMA model."""
    t = data.load("keystone2-s9-10gbe")
    _, curve, _ = ethernet.fit_keystone_10gbe()
    frame = pd.DataFrame({
        "packet_bytes": t["packet_bytes"], "measured": t["throughput_mbit_s"] / 1000,
        "line rate (frame + 20 bytes at 10 Gbit/s)": 10.0, "line rate and Packet DMA (fit)": curve})
    long = frame.melt("packet_bytes", var_name="series", value_name="gbit_s")
    x = alt.X("packet_bytes:Q", scale=alt.Scale(type="log", base=2), title="packet size (bytes)")
    base = alt.Chart(stable(long)).encode(x=x, y=alt.Y("gbit_s:Q", title="Gbit/s, 20 bytes per packet counted"),
                                  color=alt.Color("series:N", title=None))
    return alt.layer(
        base.transform_filter(f"!({is_value('series', 'measured')})").mark_line(strokeDash=[5, 3]),
        base.transform_filter(is_value("series", "measured")).mark_point(filled=True, size=60),
    ).properties(width=520, height=240, title="10GbE, 512 packets (KeyStone II §9)")
