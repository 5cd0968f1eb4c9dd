"""Charts and tables of the can-fd chapter (CAN FD, and classical CAN beside it)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters, data
from goodput.core.params import DEFAULT
from goodput.core.precision import stable
from goodput.core.symbols import maker
from goodput.machine.grammar import Setting
from goodput.models import can
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import LinkList, Slider
from goodput.render.vega import matches, vega_expr

__all__ = ["budget_table", "calculation", "message_list", "MESSAGE_PERIODS_MS", "classical_fields_table", "explore_chart", "messages_per_s_expr"]


symbol = maker(__name__)

#: What each step of the budget adds, by :func:`goodput.models.can.budget_bits_exprs`' key.
_STEPS = {"datasheet": "the datasheet's bit counts",
          "intermission": f"+ {can.INTERMISSION_BITS} bits of intermission",
          "no_stuffing": "+ stuff count and fixed stuff bits (no dynamic stuffing)",
          "worst_stuffing": "+ every dynamic stuff bit a worst-case pattern needs"}


def budget_table() -> pd.DataFrame:
    """From the datasheet's bit counts to its measured messages/s, one step at a time, and the share
    of the worst-case stuff bits the measured time implies."""
    t = data.load("am243x-mcan")
    rows = []
    for r in t.itertuples():
        values = {can.data_bytes: 64, can.extended: int("EXTENDED" in r.frame_type),
                  can.arbitration_rate: r.arbitration_mbit_s, can.data_rate: r.data_mbit_s}
        steps = [(_STEPS[key], float(can.phase_time_expr(*bits).subs(values)))
                 for key, bits in can.budget_bits_exprs().items()]
        measured_us = 1e6 / r.messages_per_s
        for what, us in steps + [("measured", measured_us)]:
            rows.append({"frame": r.frame_type, "step": what, "us per message": round(us, 2),
                         "messages/s": round(1e6 / us), "share": ""})
        share = float(can.implied_stuffing_expr().subs({**values, can.frame_time: measured_us}))
        rows.append({"frame": r.frame_type, "step": "implied share of the worst-case stuff bits",
                     "us per message": "", "messages/s": "", "share": f"{share:.0%}"})
    return pd.DataFrame(rows)


def classical_fields_table() -> pd.DataFrame:
    """The stuffed fields of a classical frame (:data:`goodput.models.can.CLASSICAL_FIELDS`) and their sum, the
    run a transmitter stuffs: bits with each identifier format."""
    fields = [*can.CLASSICAL_FIELDS, ("SOF to the end of the CRC sequence", can.classical_stuffed_bits_expr())]
    return pd.DataFrame([{"field": name, **{f"{label} identifier": sp.sstr(bits.subs(can.extended, x))
                                            for x, label in ((0, "11-bit"), (1, "29-bit"))}}
                         for name, bits in fields])


def messages_per_s_expr() -> sp.Expr:
    """Messages/s of a CAN FD frame, or of a classical one where ``c`` = 1: the model's two expressions."""
    return sp.Piecewise((can.classical_messages_per_s_expr(), sp.Eq(can.classical, 1)),
                        (can.messages_per_s_expr(), True))


#: The periods a message of the reader's list may have (ms): what CAN matrices use.
MESSAGE_PERIODS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
#: The frame each kind of message is (the case columns ``c`` and ``frame``), by its key in the list.
_FRAMES = {"fd": (0, "CAN FD", can.DATA_LENGTHS, 64), "classical": (1, "classical", can.CLASSICAL_DATA_LENGTHS, 8)}
_FORMATS = ((0, "standard"), (1, "extended"))

listed = symbol("listed", nonnegative=True, integer=True)  #: 1 for a message of the reader's list, 0 for a case
message_period = symbol(r"T_{\mathrm{msg}}", positive=True)  #: a listed message's own period, ms


def message_list() -> LinkList:
    """The reader's messages, each a CAN FD or classical frame with its data length, identifier and period: rows of
    the box's table beside the cases, each with the share of the bus it takes, and their sum."""
    families = [{"key": key, "title": title, "index": c, "maxSize": 0, "note": "",
                 "columns": {"c": c, "frame": title},
                 "settings": [
                     {"name": "data_bytes", "label": "data bytes", "default": default,
                      "options": [{"value": n, "label": f"{n} byte{'' if n == 1 else 's'}"} for n in lengths]},
                     {"name": "x", "label": "identifier", "default": 0, "column": "format",
                      "options": [{"value": x, "label": name} for x, name in _FORMATS]},
                     {"name": "message_period_ms", "label": "period", "default": 10,
                      "options": [{"value": t, "label": f"every {t} ms"} for t in MESSAGE_PERIODS_MS]}]}
                for key, (c, title, lengths, default) in _FRAMES.items()]
    return LinkList("messages", "your messages", families, "", "rows", extra={"listed": 1},
                    fill={"message_period_ms": 10}, item="message", leads=False,
                    total={"column": "load_percent", "text": "bus's time", "unit": "%", "limit": 100,
                           "over": "the bus cannot carry them at these periods"})


def calculation() -> Calculation:
    """Messages per second for each data length and identifier format, CAN FD and classical, for the
    reader's bit rates and stuffing; how many such messages, each sent once a period, fit in the share of
    the bus the reader allows; and the share of the bus each message of the reader's list takes, at its own period."""
    rows = pd.DataFrame([{"data_bytes": n, "x": x, "format": "extended" if x else "standard",
                          "c": c, "frame": "classical" if c else "CAN FD", "listed": 0, "message_period_ms": 10}
                         for c, lengths in ((0, can.DATA_LENGTHS), (1, can.CLASSICAL_DATA_LENGTHS))
                         for x in (0, 1) for n in lengths])
    p = can.PARAMETERS
    # a case at the period the reader sets, a message of their list at its own
    load = can.load_percent_expr(10 ** 6 / can.message_rate).subs(
        can.period, sp.Piecewise((message_period, sp.Eq(listed, 1)), (can.period, True)))

    def numeric(inputs, case):
        if case["c"]:
            r = can.evaluate(case["data_bytes"], bool(case["x"]), inputs["arbitration_mbit_s"],
                             stuffing_share=inputs["stuffing"], classical_frame=True)
        else:
            r = can.evaluate(case["data_bytes"], bool(case["x"]), inputs["arbitration_mbit_s"], inputs["data_mbit_s"],
                             inputs["stuffing"])
        period = case["message_period_ms"] if case["listed"] else inputs["period_ms"]
        return {"messages_per_s": r["messages_per_s"], "goodput_mbit_s": r["goodput_mbit_s"],
                "fit": can.messages_in_load(r["messages_per_s"], inputs["period_ms"], inputs["bus_load_percent"]),
                "load_percent": can.bus_load_of([(case["data_bytes"], period, bool(case["x"]), bool(case["c"]))],
                                                inputs["arbitration_mbit_s"], DEFAULT if case["c"] else inputs["data_mbit_s"],
                                                inputs["stuffing"])["load_percent"]}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="can_frames", title="CAN FD and classical CAN messages per second",
        cases=rows, shown={"frame": "frame", "format": "identifier", "data_bytes": "data bytes"},
        fields={can.data_bytes: "data_bytes", can.extended: "x", can.classical: "c", listed: "listed",
                message_period: "message_period_ms"},
        inputs=[Slider(p["arbitration_mbit_s"]), Slider(p["data_mbit_s"]), Slider(p["stuffing"]),
                Slider(p["period_ms"]), Slider(p["bus_load_percent"])],
        outputs=[Output("messages_per_s", messages_per_s_expr(), "messages", "per s", 1, symbol=can.message_rate),
                 Output("goodput_mbit_s", can.data_goodput_expr(can.message_rate), "data", "Mbit/s", 4),
                 Output("fit", can.messages_that_fit_expr(), "messages a period in the load (the whole number fit)", "",
                        2),
                 Output("load_percent", load, "share of the bus, one such message a period", "%", 3)],
        numeric=numeric,
        row_filter=vega_expr(sp.Or(can.data_bytes >= 8, sp.Eq(listed, 1)),
                             fields={can.data_bytes: "data_bytes", listed: "listed"}),
        composed=message_list(),
        headline={"data_bytes": 64}, answers=Answers("goodput_mbit_s"),
        command=BoxCommand("can", [Word("--bytes", "data_bytes"), Word("--extended", when=("x", 1)),
                                   Word("--classical", when=("c", 1)),
                                   Word("--data-mbit-s", "data_mbit_s", when=("c", 0))],
                           {"messages_per_s": "messages_per_s", "goodput_mbit_s": "goodput_mbit_s"}),
        # ip -details link show of a CAN interface: its bit rates (a classical one has no data bit rate)
        machine=(Setting("arbitration_mbit_s", "iplink", "bitrate", per=1e6),
                 Setting("data_mbit_s", "iplink", "dbitrate", per=1e6, optional=True)))


def explore_chart() -> alt.VConcatChart:
    """Messages/s against data length for both identifier formats, CAN FD (circles) and classical (squares),
    live on rates and stuffing, above the calculated table (8 data bytes and up)."""
    calc = calculation()
    live = calc.live()
    x = alt.X("data_bytes:Q", title="data bytes per frame")
    lines = live.base.mark_line(point=True).encode(
        x=x, y=alt.Y("messages_per_s:Q", scale=alt.Scale(type="log"), title="messages per second"),
        color=alt.Color("format:N", title="identifier"),
        shape=alt.Shape("frame:N", title="frame", sort=["CAN FD", "classical"]), detail="frame:N",
        tooltip=["frame:N", "format:N", "data_bytes:Q", alt.Tooltip("messages_per_s:Q", format=".0f")])
    t = data.load("am243x-mcan")
    # the measured rates carry their bit rates, so they show where the sliders sit at them; at 64 data
    # bytes, the payload the datasheet's data-phase bits fit (its conditions do not state one)
    measured = alt.Chart(stable(pd.DataFrame({
        "data_bytes": 64, "measured_per_s": t["messages_per_s"],
        "format": ["extended" if "EXT" in f else "standard" for f in t["frame_type"]],
        "arbitration_mbit_s": t["arbitration_mbit_s"], "data_mbit_s": t["data_mbit_s"]}))).transform_filter(
        matches({"arbitration_mbit_s": "arbitration_mbit_s", "data_mbit_s": "data_mbit_s"})).mark_point(
        shape="diamond", size=150, filled=True).encode(x=x, y="measured_per_s:Q", color="format:N",
                                                       tooltip=["format:N", "measured_per_s:Q",
                                                                "arbitration_mbit_s:Q", "data_mbit_s:Q"])
    rates = ", ".join(sorted({f"{a:g}/{d:g}" for a, d in zip(t["arbitration_mbit_s"], t["data_mbit_s"])}))
    return calc.view(live, lines, measured,
        height=260, title=f"CAN FD: model for the sliders (lines), AM243x measured at {rates} Mbit/s (diamonds)")
