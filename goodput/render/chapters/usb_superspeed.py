"""Charts and tables of the usb-superspeed chapter (USB 3.x SuperSpeed bulk)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.machine import lsusb
from goodput.machine.grammar import Setting
from goodput.models import coding, usb
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Slider
from goodput.render.vega import vega_expr

__all__ = ["PACKET_SIZES", "generations_table", "breakdown_table", "published_context", "calculation",
           "explore_chart"]

#: Packet payloads the chart and the calculated table run over (the table shows 64 bytes and up).
PACKET_SIZES = (8, 16, 32, 64, 128, 256, 512, 1024)
#: The long transfer the chapter's tables assume: the default transfer size, burst and link commands.
_LONG = {name: usb.PARAMETERS[name].default for name in ("transfer_bytes", "burst", "link_commands")}


def _long(generation: int, packet_bytes: int = usb.MAX_PACKET_BYTES) -> dict:
    return usb.evaluate(packet_bytes, generation, _LONG["transfer_bytes"], _LONG["burst"], _LONG["link_commands"])


def generations_table() -> pd.DataFrame:
    """What differs between the generations: signalling rate, line code, data packet header, SKP rule."""
    rows = []
    for g in usb.GENERATIONS.values():
        code = coding.CODES[g.code]
        rows.append({"generation": g.name, "signalling rate (Gbaud)": g.rate_gbaud,
                     "line code": f"{code.name} (k = {code.data_bits}, n = {code.coded_bits})",
                     "H, data packet header (symbols)": g.dph_symbols,
                     "SKP ordered sets": g.skp_rule,
                     "b_SKP (line bits)": g.skp_line_bits, "Y_SKP (symbols)": g.skp_interval_symbols})
    return pd.DataFrame(rows)


def breakdown_table() -> pd.DataFrame:
    """Byte times per data packet by kind, 1024-byte packets in a long transfer, both generations."""
    columns = {}
    for g in usb.GENERATIONS.values():
        r = _long(g.number)
        total = sum(r["bytes"].values())
        columns[f"{g.name} (byte times per packet)"] = [round(v / r["packets"], 2) for v in r["bytes"].values()]
        columns[f"{g.name} (share)"] = [f"{v / total:.2%}" for v in r["bytes"].values()]
        kinds = list(r["bytes"])
    return pd.DataFrame({"what": kinds, **columns})


def published_context() -> pd.DataFrame:
    """The specification's statements of an effective bandwidth, beside the model's ceiling for a long
    transfer of 1024-byte packets (not checks: each is a bound on what an application gets)."""
    t = data.load(usb.SPEC_TABLE)
    printed = t.attrs["printed"]
    rows = []
    for row in t.itertuples():
        if row.quantity == usb.RAW:
            continue
        r = _long(row.generation)
        in_megabytes = printed["throughput_mbyte_s"][row.Index] != ""
        value, unit, model = ((printed["throughput_mbyte_s"][row.Index], "MB/s", r["goodput_mbyte_s"]) if in_megabytes
                              else (printed["throughput_gbyte_s"][row.Index], "GB/s", r["goodput_gbyte_s"]))
        rows.append({"revision": row.revision, "generation": usb.GENERATIONS[row.generation].name,
                     "the specification says": f"{printed['qualifier'][row.Index]}: {value} {unit}".strip(": "),
                     "model ceiling": f"{stable(model, 4):g} {unit}",
                     "printed / model": f"{float(value) / model:.0%}"})
    return pd.DataFrame(rows)


def calculation() -> Calculation:
    """Goodput per packet payload for both generations, for the reader's transfer size, burst and
    link commands."""
    p = usb.PARAMETERS
    cases = pd.DataFrame([{"generation": g.number, "gen": g.name, "packet_bytes": size}
                          for g in usb.GENERATIONS.values() for size in PACKET_SIZES])
    exprs = usb.transfer_exprs()
    outputs = [Output("goodput_gbit_s", exprs["goodput_gbit_s"], "goodput", "Gbit/s", 4),
               Output("efficiency", exprs["efficiency"], "share of the signalling rate", "", 4),
               Output("after_code_gbit_s", exprs["after_code_gbit_s"], "after the line code alone", "Gbit/s", 4)]

    def numeric(inputs, case):
        r = usb.evaluate(case["packet_bytes"], case["generation"], inputs["transfer_bytes"], inputs["burst"],
                         inputs["link_commands"])
        return {o.name: r[o.name] for o in outputs}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="usb_packets", title="USB SuperSpeed bulk goodput per packet payload",
        cases=cases, shown={"gen": "generation", "packet_bytes": "packet payload (bytes)"},
        fields={usb.generation: "generation", usb.payload: "packet_bytes"},
        inputs=[Slider(p["transfer_bytes"]), Slider(p["burst"]), Slider(p["link_commands"]), Slider(p["burst_wait_ns"])],
        outputs=outputs, numeric=numeric, row_filter=vega_expr(usb.payload >= 64, fields={usb.payload: "packet_bytes"}),
        headline={"generation": 1, "packet_bytes": usb.MAX_PACKET_BYTES},
        answers=Answers("goodput_gbit_s", transfer=usb.transfer, transfers="transfers", packets=usb.packets_expr(),
                        packet_name="data packets", fixed=usb.bursts_expr() * usb.burst_wait / 10 ** 9,
                        latency_name="one transfer, with the waits after its bursts"),
        command=BoxCommand("usb", [Word("--gen", "generation"), Word("--packet", "packet_bytes"),
                                   Word("--no-link-commands", when=("link_commands", 0))],
                           {"goodput_gbit_s": "goodput_gbit_s", "efficiency": "efficiency",
                            "after_code_gbit_s": "after_code_gbit_s"}),
        # lsusb -t: the first SuperSpeed device's link picks the generation's case
        machine=(Setting("generation", "lsusb", "device_speed_mbit_s", values=tuple(lsusb.GENERATIONS.items()),
                         case=True),))


def explore_chart() -> alt.VConcatChart:
    """Goodput against packet payload for both generations, live on transfer size, burst and link
    commands; dashed, the rate after the line code alone; under it the calculated table."""
    calc = calculation()
    live = calc.live()
    x = alt.X("packet_bytes:Q", scale=alt.Scale(type="log", base=2), title="packet payload (bytes)")
    color = alt.Color("gen:N", title="generation")
    lines = live.base.mark_line(point=True).encode(
        x=x, y=alt.Y("goodput_gbit_s:Q", title="goodput (Gbit/s)"), color=color,
        tooltip=["gen:N", "packet_bytes:Q", alt.Tooltip("goodput_gbit_s:Q", format=".4f"),
                 alt.Tooltip("efficiency:Q", format=".2%")])
    after_code = live.base.mark_line(strokeDash=[5, 3]).encode(x=x, y="after_code_gbit_s:Q", color=color)
    return calc.view(live, after_code, lines, height=280,
                     title="USB SuperSpeed bulk: goodput per packet payload (points), the rate after the line "
                           "code alone (dashed)")
