"""Charts and tables of the line-coding chapter."""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters
from goodput.models import coding
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Choice, Slider
from goodput.render.formula import substituted_latex
from goodput.render.vega import matches

__all__ = ["codes_table", "efficiency_latex", "calculation", "explore_chart", "efficiency_table", "common_links_table"]

SELECTED = "#c0392b"
OTHER = "#8fb8de"


def codes_table() -> pd.DataFrame:
    """One row per line code: key, name, bits in and out, where it is used."""
    return pd.DataFrame(
        [
            {"code": c.key, "name": c.name, "data_bits": c.data_bits,
             "coded_bits": c.coded_bits, "used_by": c.used_by}
            for c in coding.CODES.values()
        ]
    )


def efficiency_latex() -> str:
    """Each code's efficiency, derived from the general ``k/n`` by substitution (LaTeX)."""
    general = coding.efficiency_expr()
    lines = []
    for c in coding.CODES.values():
        exact = coding.efficiency_expr(c)
        numbers = substituted_latex(general, {coding.data_bits: c.data_bits, coding.coded_bits: c.coded_bits})
        lines.append(rf"\eta_{{\text{{{c.label}}}}} &= {numbers} = {sp.latex(exact)} "
                     rf"\approx {float(exact):.6f}")
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


def calculation(code: str = "8b10b") -> Calculation:
    """Each line code's data rate for the reader's line rate and lanes."""
    coding.get_code(code)
    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="line_codes", title="Data rate left after each line code",
        cases=codes_table(), shown={"name": "code"},
        fields={coding.data_bits: "data_bits", coding.coded_bits: "coded_bits"},
        inputs=[Slider(coding.PARAMETERS["line_rate_gbaud"], maximum=32.0),
                Slider(coding.PARAMETERS["lanes"], maximum=16)],
        outputs=[Output("goodput_gbit_s", coding.bit_rate_expr(), "data bit rate", "Gbit/s", 4),
                 Output("efficiency", coding.efficiency_expr(), "efficiency", "", 6),
                 Output("signalling_rate_gbaud", coding.line_rate * coding.lanes, "signalling rate", "Gbaud", 4)],
        numeric=lambda i, case: {
            "goodput_gbit_s": coding.bit_rate_gbit_s(i["line_rate_gbaud"], i["lanes"], case["code"]),
            "efficiency": coding.efficiency(case["code"]),
            "signalling_rate_gbaud": i["line_rate_gbaud"] * i["lanes"]},
        choices=[Choice("code", list(coding.CODES), code, "highlight", [c.name for c in coding.CODES.values()])],
        answers=Answers("goodput_gbit_s"),
        command=BoxCommand("coding", [Word("--code", "code")],
                           {"goodput_gbit_s": "goodput_gbit_s", "efficiency": "efficiency",
                            "signalling_rate_gbaud": "signalling_rate_gbaud"}),
    )


def explore_chart(code: str = "8b10b") -> alt.VConcatChart:
    """Goodput of every line code for the reader's line rate and lane count, live in the page,
    above the calculated table."""
    calc = calculation(code)
    live = calc.live()
    y = alt.Y("name:N", sort=None, title=None)
    tooltip = [
        alt.Tooltip("name:N", title="code"),
        alt.Tooltip("used_by:N", title="used by"),
        alt.Tooltip("efficiency:Q", format=".4f"),
        alt.Tooltip("goodput_gbit_s:Q", title="goodput (Gbit/s)", format=".4f"),
    ]
    bars = live.base.mark_bar().encode(
        y=y,
        x=alt.X("goodput_gbit_s:Q", title="data bit rate, one direction (Gbit/s)"),
        color=alt.condition(matches({"code": "code"}), alt.value(SELECTED), alt.value(OTHER)),
        tooltip=tooltip,
    )
    ceiling = live.base.mark_rule(strokeDash=[4, 3], color="#555").encode(
        x="signalling_rate_gbaud:Q",
        tooltip=[alt.Tooltip("signalling_rate_gbaud:Q", title="signalling rate (Gbaud)")],
    )
    labels = live.base.mark_text(align="left", dx=4).encode(
        y=y, x="goodput_gbit_s:Q", text=alt.Text("goodput_gbit_s:Q", format=".4~f"),
    ).properties(name="goodput_labels")
    return calc.view(live, bars, ceiling, labels, height=170,
                     title="Data rate left after the line code (dashed: signalling rate)")


def efficiency_table() -> pd.DataFrame:
    """Each line code's efficiency and its two overhead figures, from the model's expressions."""
    rows = []
    for c in coding.CODES.values():
        eff = coding.efficiency_expr(c)
        rows.append({
            "code": c.name,
            "k data bits": c.data_bits,
            "n line bits": c.coded_bits,
            "efficiency k/n": f"{sp.nsimplify(eff)} = {float(eff):.6f}",
            "overhead, share of line": f"{100 * float(coding.line_overhead_expr(c)):.4g} %",
            "overhead, per data bit": f"{100 * float(coding.payload_overhead_expr(c)):.4g} %",
            "used by": c.used_by,
        })
    return pd.DataFrame(rows)


def common_links_table() -> pd.DataFrame:
    """Goodput of the links in :data:`goodput.models.coding.COMMON_LINKS`."""
    rows = []
    for link in coding.COMMON_LINKS:
        r = coding.link_rates(link.code, link.line_rate_gbaud, link.lanes)
        rows.append({
            "link": link.name,
            "code": coding.CODES[link.code].name,
            "signalling (Gbaud)": f"{r['signalling_rate_gbaud']:g}",
            "data (Gbit/s)": f"{r['goodput_gbit_s']:.6g}",
            "data (MB/s)": f"{1000 * r['goodput_gbyte_s']:.6g}",
            "left on the table (Gbit/s)": f"{r['signalling_rate_gbaud'] - r['goodput_gbit_s']:.4g}",
        })
    return pd.DataFrame(rows)
