"""Charts and tables of the hyperlink chapter (HyperLink)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.core.symbols import ModelSymbol
from goodput.models import coding, hyperlink
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.charts import live_model
from goodput.render.controls import Slider

__all__ = ["PACKET_SIZES", "measured_points", "calculation", "explore_chart", "hyperlink_implied_overhead"]

#: Payloads per packet the curve is drawn at, bytes.
PACKET_SIZES = (8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)

#: Packet payload behind each row of Tables 23-26: reads in the memory's response burst
#: (Table 22), writes in the EDMA transfer controller's data burst: 128 B for CC0 and CC4.
#: The guide's maximum for the "CC1, CC2 and CC3" writes is the 64-byte packet figure,
#: the burst of CC3 alone (§5.3.1 gives CC1 and CC2 128 bytes; see the EDMA chapter).
_WRITE_BURST = {"CC0 and CC4": 128, "CC1, CC2 and CC3": 64}
_MEMORY = {"L2": "C66x L1/L2", "MSMC": "MSMC SRAM", "DDR3": "DDR3"}


def measured_points() -> pd.DataFrame:
    """Tables 23-26 with the packet payload each row's transfers used."""
    t = data.load("keystone2-table23-26")
    rows = []
    for r in t.itertuples():
        memory = _MEMORY[r.memory_as_printed.split()[-1]]
        packet = (_WRITE_BURST[r.edma] if r.transfer == "write" else hyperlink.read_response_bytes(memory))
        for kind, value in (("maximum achievable", r.max_achievable_gbit_s), ("measured", r.measured_gbit_s)):
            rows.append({"packet_bytes": packet, "gbit_s": value, "what": kind,
                         "series": f"{r.transfer}s, EDMA {r.edma}", "memory": memory})
    return pd.DataFrame(rows)


def calculation() -> Calculation:
    """Goodput per payload size for the reader's line rate, lanes and transfer size, and of the reader's own
    writes and reads: in packets of the master's burst, and of the answering memory's response burst."""
    p = hyperlink.PARAMETERS
    # a transfer of S bytes in packets of P: the guide's formulas take one packet's worth, S = P, which
    # any S that P divides gives too (32 KiB, the transfer size's default, for every power of two)
    per_packet = hyperlink.goodput_expr().subs(hyperlink.control, hyperlink.CONTROL_BYTES)

    def numeric(i, case):
        rate, lanes, size = i["line_rate_gbaud"], i["lanes"], i["size_bytes"]
        return {"model_gbit_s": hyperlink.goodput_gbit_s(rate, lanes, size, case["packet_bytes"]),
                "bit_rate_gbit_s": coding.bit_rate_gbit_s(rate, lanes, "8b9b"),
                "your_write_gbit_s": hyperlink.goodput_gbit_s(rate, lanes, size, min(i["burst_bytes"],
                                                                                   hyperlink.MAX_PACKET_BYTES)),
                "your_read_gbit_s": hyperlink.goodput_gbit_s(rate, lanes, size, min(i["response_bytes"],
                                                                                  i["burst_bytes"]))}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="hyperlink_packets", title="Goodput of your transfers per packet payload, one direction",
        cases=pd.DataFrame({"packet_bytes": list(PACKET_SIZES)}), shown={"packet_bytes": "payload (bytes)"},
        fields={hyperlink.packet: "packet_bytes"},
        inputs=[Slider(p["line_rate_gbaud"]), Slider(p["lanes"]), Slider(p["size_bytes"]), Slider(hyperlink.BURST),
                Slider(hyperlink.RESPONSE)],
        outputs=[Output("model_gbit_s", per_packet, "goodput", "Gbit/s"),
                 Output("bit_rate_gbit_s", coding.bit_rate_expr(coding.CODES["8b9b"]), "8b/9b bit rate", "Gbit/s"),
                 Output("your_write_gbit_s", per_packet.subs(hyperlink.packet, hyperlink.packet_for_expr(1)),
                        "your writes, in the master's bursts", "Gbit/s"),
                 Output("your_read_gbit_s", per_packet.subs(hyperlink.packet, hyperlink.packet_for_expr(0)),
                        "your reads, in the response bursts", "Gbit/s")],
        numeric=numeric, headline={"packet_bytes": 256},
        answers=Answers("model_gbit_s", transfer=hyperlink.transfer, transfers="transfers",
                        packets=hyperlink.packets_expr(), packet_name="packets",
                        line_rate=coding.line_rate * coding.lanes, line="the lanes' signalling rate"),
        # the row's payload per packet is the command's burst: writes of the transfer size in packets of it
        command=BoxCommand("hyperlink", [Word("write"), Word("--burst", "packet_bytes")],
                           {"model_gbit_s": "goodput_gbit_s"},
                           left_out={"burst_bytes": "the row's payload per packet is the command's --burst",
                                     "response_bytes": "reads are goodput hyperlink read --memory, which names the "
                                                       "memory whose burst answers"}))


def explore_chart() -> alt.VConcatChart:
    """Goodput against payload per packet, live on line rate and lanes, with Tables 23-26 on top,
    your transfers, and the calculated table."""
    calc = calculation()
    live = calc.live()
    write = ModelSymbol("write_flag", __name__)
    per_packet = calc.outputs[0].expr
    yours = live_model(
        pd.DataFrame({"transfer": ["your write", "your read"], "write_flag": [1, 0]}),
        outputs={"your_packet_bytes": hyperlink.packet_for_expr(write),
                 "your_gbit_s": per_packet.subs(hyperlink.packet, hyperlink.packet_for_expr(write))},
        sliders=list(calc.inputs),
        fields={write: "write_flag"},
        name="hyperlink_yours",
    )
    x = alt.X("packet_bytes:Q", scale=alt.Scale(type="log", base=2), title="payload per packet (bytes)")
    model = live.base.mark_line(color="black").encode(
        x=x, y=alt.Y("model_gbit_s:Q", title="goodput, one direction (Gbit/s)"),
        tooltip=["packet_bytes:Q", alt.Tooltip("model_gbit_s:Q", format=".2f", title="model (Gbit/s)")])
    roof = live.base.mark_line(color="#777", strokeDash=[5, 3]).encode(x=x, y="bit_rate_gbit_s:Q")
    points = alt.Chart(stable(measured_points())).mark_point(filled=True, size=60).encode(
        x=x, y="gbit_s:Q",
        color=alt.Color("series:N", title=None),
        shape=alt.Shape("what:N", title=None),
        tooltip=["series:N", "memory:N", "what:N", "packet_bytes:Q", "gbit_s:Q"],
    )
    mine = yours.base.mark_point(shape="diamond", size=160, filled=True, color="#c0392b").encode(
        x=alt.X("your_packet_bytes:Q", scale=alt.Scale(type="log", base=2)), y="your_gbit_s:Q",
        tooltip=["transfer:N", "your_packet_bytes:Q", alt.Tooltip("your_gbit_s:Q", format=".2f")])
    return calc.view(live, roof, model, points, mine, controls=yours.controls,
        height=280,
        title="HyperLink: model (black), 8b/9b bit rate (dashed), Tables 23-26 (points), your transfers (red)")


def hyperlink_implied_overhead() -> pd.DataFrame:
    """Bytes per packet that the guide's 'maximum achievable' figures imply, at 6.25 Gbaud x 4:
    :func:`goodput.models.hyperlink.implied_control_expr` for each row's packet payload (see
    :func:`measured_points`)."""
    implied = hyperlink.implied_control_expr().subs({coding.line_rate: 6.25, coding.lanes: 4})
    points = measured_points()
    best = points[points["what"] == "maximum achievable"].drop_duplicates(["series", "memory"])
    rows = []
    for r in best.itertuples():
        c = float(implied.subs({hyperlink.packet: r.packet_bytes, hyperlink.achieved: sp.Float(r.gbit_s)}))
        rows.append({"transfer": r.series, "memory": r.memory, "payload per packet (bytes)": r.packet_bytes,
                     "maximum achievable (Gbit/s)": f"{r.gbit_s:g}", "implied bytes per packet": f"{c:.1f}"})
    return pd.DataFrame(rows)
