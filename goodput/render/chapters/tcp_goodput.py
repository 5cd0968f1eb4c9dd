"""Charts and tables of the tcp-goodput chapter (TCP goodput)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.machine.grammar import Setting
from goodput.models import ethernet, tcp
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider
from goodput.render.measured import Measured
from goodput.render.vega import matches, vega_expr

__all__ = ["MESSAGE_SIZES", "calculation", "explore_chart", "ndk_table", "ndk_load_chart", "cpsw_table", "udp_table"]

MESSAGE_SIZES = (64, 128, 256, 512, 1024, 1460, 1461, 2048, 2920, 2921, 4096, 8192, 16384, 32768, 65536)


def calculation() -> Calculation:
    """Per-write and stream goodput against message size for the reader's link, headers and VLAN tag, and what
    the receive window allows a round trip: the lower of the wire's and the window's binds."""
    p = tcp.PARAMETERS

    def numeric(i, case):
        rates = tcp.goodputs(case["message_bytes"], i["line_rate_mbit_s"], i["mtu_bytes"], i["ip_header_bytes"],
                             i["tcp_options_bytes"], i["vlan_bytes"])
        bound = tcp.window_bound(rates["per_write_mbit_s"], i["window_bytes"], i["rtt_us"])
        return {**rates, "window_mbit_s": bound["window_limit_mbit_s"], "goodput_mbit_s": bound["bound_goodput_mbit_s"],
                "binding": int(bound["binding"] == "window")}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="tcp_messages", title="TCP goodput per message (write) size",
        cases=pd.DataFrame({"message_bytes": list(MESSAGE_SIZES)}), shown={"message_bytes": "message (bytes)"},
        fields={tcp.message: "message_bytes"},
        inputs=[Slider(p["line_rate_mbit_s"], maximum=10000), Slider(p["mtu_bytes"]),
                Slider(p["ip_header_bytes"]), Slider(p["tcp_options_bytes"]), Slider(p["vlan_bytes"]),
                Slider(p["window_bytes"]), Slider(p["rtt_us"])],
        # the wire's goodput stands for itself in the lower limit (its pieces divide by zero in the branch not taken)
        outputs=[Output("per_write_mbit_s", tcp.message_goodput_expr(), "writes keeping their boundaries", "Mbit/s",
                        symbol=tcp.wire_goodput),
                 Output("stream_mbit_s", tcp.stream_goodput_expr(), "full-segment stream", "Mbit/s"),
                 Output("window_mbit_s", tcp.window_limit_expr(), "window a round trip", "Mbit/s"),
                 Output("goodput_mbit_s", tcp.bound_goodput_expr(), "writes, the lower limit", "Mbit/s"),
                 Output("binding", tcp.window_binds_expr(), "binding limit", "", labels=("the wire", "the window"))],
        numeric=numeric, headline={"message_bytes": 8192},
        answers=Answers("goodput_mbit_s", transfer=tcp.message, transfers="writes", packets=tcp.segments_expr(),
                        packet_name="segments (frames)", line_rate=tcp.line_rate, line="the line rate"),
        command=BoxCommand("tcp", [Word("--message", "message_bytes"),
                                   Word("--ipv6", when=("ip_header_bytes", tcp.IP_HEADER_BYTES[6])),
                                   Word("--vlan", when=("vlan_bytes", ethernet.VLAN_TAG_BYTES))],
                           {"per_write_mbit_s": "goodput_mbit_s", "stream_mbit_s": "stream_goodput_mbit_s",
                            "window_mbit_s": "window_limit_mbit_s", "goodput_mbit_s": "bound_goodput_mbit_s"}),
        machine=(Setting("line_rate_mbit_s", "ethtool", "speed_mbit_s"), Setting("mtu_bytes", "iplink", "mtu"),
                 # the options an iperf3 run's MSS leaves at the box's MTU (its timestamps: 12 bytes)
                 Setting("tcp_options_bytes", "iperf3", "mss_bytes", optional=True, expr=tcp.options_of_mss_expr(),
                         symbol=tcp.reported_mss)),
        # a run of iperf3 or of the book's firmware: a point against the stream's ceiling at the box's settings
        measured=Measured("stream_mbit_s", tcp.message, ("iperf3", "tcp-bench"),
                          say=("line_rate_mbit_s", "mtu_bytes", "tcp_options_bytes")))


def explore_chart() -> alt.VConcatChart:
    """Goodput against message size for the sliders: writes that keep their boundaries, and the
    stream ceiling; the NDK's 8192-byte runs when the line rate is 100 Mbit/s; the calculated table."""
    calc = calculation()
    live = calc.live()
    x = alt.X("message_bytes:Q", scale=alt.Scale(type="log", base=2), title="message (write) size, bytes")
    per_write = live.base.mark_line(point=True, color="black").encode(
        x=x, y=alt.Y("per_write_mbit_s:Q", title="goodput (Mbit/s)"),
        tooltip=["message_bytes:Q", alt.Tooltip("per_write_mbit_s:Q", format=".3f"),
                 alt.Tooltip("stream_mbit_s:Q", format=".3f")])
    stream = live.base.mark_line(color="#777", strokeDash=[5, 3]).encode(x=x, y="stream_mbit_s:Q")
    # the receive window's limit, where it is below the line rate (above it, it would only stretch the axis)
    window = live.base.transform_filter(vega_expr(tcp.window_limit_expr() < tcp.line_rate, params={
        s.parameter.symbol: s.name for s in calc.inputs})).mark_rule(color="#d62728", strokeDash=[2, 2]).encode(
        y="window_mbit_s:Q", tooltip=[alt.Tooltip("window_mbit_s:Q", format=".3f", title="window a round trip (Mbit/s)")])
    t = data.load("spraaq5-s6-throughput")
    # the NDK's runs carry their line rate: they show where the line-rate slider sits at it
    ndk = alt.Chart(stable(pd.DataFrame({"message_bytes": t["frame_bytes"], "line_rate_mbit_s": t["line_rate_mbit_s"],
                                  "mbit_s": t["throughput_kbit_s"] / 1000, "operation": t["operation"],
                                  "device": t["device"]}))).transform_filter(
        matches({"line_rate_mbit_s": "line_rate_mbit_s"})).mark_point(filled=True, opacity=0.6).encode(
        x=x, y="mbit_s:Q", color=alt.Color("operation:N", title=f"NDK, {data.single(t, 'frame_bytes')} B"),
        tooltip=["device:N", "operation:N", "mbit_s:Q", "message_bytes:Q", "line_rate_mbit_s:Q"])
    # seven controls, the box's own just above: under the chart, which they would push a screen down
    return calc.view(live, stream, window, per_write, ndk, *calc.measured_layers(x), height=280,
                     controls_below=True,
                     title="TCP: writes keeping their boundaries (black), full-segment stream (dashed), the receive "
                           "window a round trip (red, where it is below the line rate); yours, pasted in the box "
                           "(purple diamonds)")


def _conditions(t: pd.DataFrame) -> str:
    """The frame size and line rate the NDK's runs share, as a title says them."""
    return f"{data.single(t, 'frame_bytes')}-byte frames at {data.single(t, 'line_rate_mbit_s')} Mbit/s"


def _ceilings(frame_bytes: int, line_rate_mbit_s: float) -> dict[str, float]:
    """The per-write and stream ceilings (kbit/s) of frames of ``frame_bytes`` at ``line_rate_mbit_s``."""
    per_write = tcp.evaluate(frame_bytes, line_rate_mbit_s)
    return {"per_write": 1000 * per_write["goodput_mbit_s"], "stream": 1000 * per_write["stream_goodput_mbit_s"]}


def ndk_table() -> pd.DataFrame:
    """Every NDK run against the per-write and the stream ceilings of its frame size and line rate."""
    t = data.load("spraaq5-s6-throughput")
    c = [_ceilings(m, r) for m, r in zip(t["frame_bytes"], t["line_rate_mbit_s"])]
    return pd.DataFrame({
        "device": t["device"], "driver": t["architecture"], "L2 (KB)": t["l2_cache_kbytes"],
        "operation": t["operation"], "kbit/s": t["throughput_kbit_s"], "CPU load (%)": t["cpu_load_percent"],
        "/ per-write ceiling": [f"{v / x['per_write']:.2%}" for v, x in zip(t["throughput_kbit_s"], c)],
        "/ stream ceiling": [f"{v / x['stream']:.2%}" for v, x in zip(t["throughput_kbit_s"], c)]})


def ndk_load_chart() -> alt.LayerChart:
    """The NDK's throughput against CPU load for every device, driver and L2 cache size."""
    t = data.load("spraaq5-s6-throughput")
    frame = pd.DataFrame({"device": t["device"] + " " + t["clock_mhz"].astype(str) + " MHz",
                          "driver": t["architecture"], "l2": t["l2_cache_kbytes"], "operation": t["operation"],
                          "mbit_s": t["throughput_kbit_s"] / 1000, "cpu": t["cpu_load_percent"]})
    c = _ceilings(data.single(t, "frame_bytes"), data.single(t, "line_rate_mbit_s"))
    rules = pd.DataFrame({"mbit_s": [c["per_write"] / 1000, c["stream"] / 1000],
                          "ceiling": ["per-write ceiling", "stream ceiling"]})
    points = alt.Chart(stable(frame)).mark_point(filled=True, size=90).encode(
        x=alt.X("cpu:Q", title="CPU load (%)"),
        y=alt.Y("mbit_s:Q", scale=alt.Scale(zero=False), title="throughput (Mbit/s)"),
        color=alt.Color("device:N", title=None), shape=alt.Shape("operation:N", title=None),
        tooltip=["device:N", "driver:N", "l2:Q", "operation:N", "mbit_s:Q", "cpu:Q"])
    lines = alt.Chart(stable(rules)).mark_rule(strokeDash=[4, 3], color="#555").encode(
        y="mbit_s:Q", tooltip=["ceiling:N", alt.Tooltip("mbit_s:Q", format=".3f")])
    return alt.layer(lines, points).properties(
        width=520, height=280, title=f"NDK, {_conditions(t)}: throughput against CPU load")


def cpsw_table() -> pd.DataFrame:
    """The AM243x CPSW iperf results against the stream ceilings with and without TCP timestamps."""
    t = data.load("am243x-cpsw-tcp-iperf")
    plain = tcp.evaluate(1 << 20, 100)["stream_goodput_mbit_s"]
    stamped = tcp.evaluate(1 << 20, 100, timestamps=True)["stream_goodput_mbit_s"]
    return pd.DataFrame({
        "board": t["board"], "direction": t["direction"], "Mbit/s": t.attrs["printed"]["bandwidth_mbit_s"],
        "CPU load (%)": t.attrs["printed"]["cpu_load_percent"],
        "/ ceiling without timestamps": [f"{v / plain:.2%}" for v in t["bandwidth_mbit_s"]],
        "/ ceiling with timestamps": [f"{v / stamped:.2%}" for v in t["bandwidth_mbit_s"]]})


def udp_table() -> pd.DataFrame:
    """The AM243x UDP runs against what the wire can carry for their datagram size."""
    t = data.load("am243x-cpsw-udp")
    rows = []
    for r in t.itertuples():
        u = tcp.udp_evaluate(r.packet_bytes, 100)
        rows.append({"device": f"{r.board} {r.direction}", "datagram payload (bytes)": r.packet_bytes,
                     "IP fragments": u["fragments"], "ceiling at 100 Mbit/s": round(u["goodput_mbit_s"], 1),
                     "offered (Mbit/s)": ("max " if r.offered_as == "max" else "") + f"{r.offered_mbit_s:g}",
                     "offered / that ceiling": f"{r.offered_mbit_s / u['goodput_mbit_s']:.0%}",
                     "CPU load (%)": t.attrs["printed"]["cpu_load_percent"][r.Index] or "-",
                     "loss (%)": t.attrs["printed"]["loss_percent"][r.Index] or "-"})
    return pd.DataFrame(rows)
