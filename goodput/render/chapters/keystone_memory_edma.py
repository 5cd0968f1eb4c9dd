"""Charts and tables of the keystone-memory-edma chapter (KeyStone memory and EDMA).

Every limit of :mod:`goodput.models.bus` is linear in one of three rates: the CPU clock
``f``, the DDR3 rate ``w_DDR * r`` or the TCs' total ``n_TC * w_TC * f / d_TC``.
:func:`linear_parts` splits a limit into its coefficients on those three; a chart
row carries each coefficient as a whole numerator and denominator (16/3 stays 16/3,
not a rounded 5.33333) and the page multiplies them out again, printed from the
same sympy expressions, so a control move recomputes every limit in Vega.
"""

from __future__ import annotations

import itertools

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters, data
from goodput.core.precision import stable
from goodput.core.symbols import maker
from goodput.models import bus
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.charts import live_model
from goodput.render.controls import Choice, Slider
from goodput.render.vega import column, is_value, matches, vega_expr

__all__ = ["BASIS", "linear_parts", "scenario_rows", "scenario_chart", "scenario_table", "measured_share_table",
           "port_table", "copy_rows", "calculation", "copy_chart", "COPY_ENDPOINTS", "guidance_frame", "index_chart"]

#: The three rates every limit is a multiple of.
BASIS = (bus.cpu_clock, bus.ddr3_width * bus.ddr3_rate,
         bus.tc_count * bus.tc_width * bus.cpu_clock / bus.tc_divider)
#: A row's coefficient on each rate of :data:`BASIS`: (column, numerator, denominator).
symbol = maker(__name__)
_PARTS = tuple((name, symbol(f"{name}_n", integer=True), symbol(f"{name}_d", integer=True))
               for name in ("a_f", "a_DDR", "a_TC"))
_FIELDS = {sym: str(sym) for _, n, d in _PARTS for sym in (n, d)}
_VALUE = sum(n / d * rate for (_, n, d), rate in zip(_PARTS, BASIS))

COPY_ENDPOINTS = ("CorePac0 L2", "CorePac1 L2", "MSMC SRAM", "DDR3A", "DDR3B")


def linear_parts(expr: sp.Expr) -> tuple[sp.Rational, sp.Rational, sp.Rational]:
    """Exact coefficients of ``expr`` on :data:`BASIS`; raises if ``expr`` is not such a multiple."""
    for i, rate in enumerate(BASIS):
        coeff = sp.nsimplify(sp.simplify(expr / rate), rational=True)
        if not coeff.free_symbols:
            parts = [sp.Integer(0)] * 3
            parts[i] = sp.Rational(coeff)
            return tuple(parts)
    raise ValueError(f"{expr} is not a multiple of one of {BASIS}")


def _limit_rows(key: dict, limits: dict[str, sp.Expr]) -> list[dict]:
    rows = []
    for name, expr in limits.items():
        shown = "CorePac slave port" if name.startswith("CorePac") else name
        row = {**key, "limit": shown, "endpoint": name}
        for (part_name, _, _), part in zip(_PARTS, linear_parts(expr)):
            row[f"{part_name}_n"], row[f"{part_name}_d"] = int(part.p), int(part.q)
        rows.append(row)
    return rows


def scenario_rows() -> pd.DataFrame:
    """One row per (Tables 6-15 case, limit), with the measured throughput of the case."""
    t = data.load("keystone2-table6-15")
    rows = []
    for case, r in zip(bus.table_cases(), t.itertuples()):
        rows += _limit_rows({"case": case.label, "measured_mb_s": r.measured_mb_s}, bus.limit_exprs(case))
    return pd.DataFrame(rows)


def _sliders(*names):
    return [Slider(bus.PARAMETERS[n]) for n in names]


_LIMIT, _BOUND = symbol("L", positive=True), symbol("L_min", positive=True)
#: A limit binds when it is the lowest of its case's, up to the rounding of the sum that made it.
_BINDS = sp.Le(_LIMIT, _BOUND * (1 + sp.Rational(1, 10**9)))


def _binding(chart: alt.Chart, group: str) -> alt.Chart:
    return (chart.transform_joinaggregate(bound_mb_s="min(limit_mb_s)", groupby=[group])
            .transform_calculate(binds=vega_expr(_BINDS, fields={_LIMIT: "limit_mb_s", _BOUND: "bound_mb_s"})))


def scenario_chart() -> alt.LayerChart:
    """Every case of Tables 6-15: its limits at the sliders' clocks, the binding ones filled,
    and the measured throughput as a bar."""
    tc_n = _PARTS[2][1]
    live = live_model(scenario_rows(), outputs={"limit_mb_s": _VALUE.subs(tc_n, 0)},
                      sliders=_sliders("cpu_clock_mhz", "ddr3_mtps", "ddr3_width_bits"),
                      fields={sym: col for sym, col in _FIELDS.items() if not str(sym).startswith("a_TC")},
                      name="edma_scenarios")
    base = _binding(live.base, "case")
    y = alt.Y("case:N", sort=None, title=None)
    measured = base.transform_filter(is_value("limit", "transfer controllers")).mark_bar(
        color="#ccc").encode(y=y, x=alt.X("measured_mb_s:Q", title="MB/s"),
                             tooltip=["case:N", "measured_mb_s:Q"])
    limits = base.mark_point(size=70).encode(
        y=y, x=alt.X("limit_mb_s:Q", scale=alt.Scale(domain=[0, 40000], clamp=True)),
        color=alt.Color("limit:N", title="limit"),
        fill=alt.condition(column("binds"), alt.Color("limit:N"), alt.value("white")),
        tooltip=["case:N", "limit:N", alt.Tooltip("limit_mb_s:Q", format=".0f"),
                 alt.Tooltip("bound_mb_s:Q", format=".0f", title="bound")])
    return live.figure(measured, limits,
                       title="Tables 6-15: limits (points; filled = binding) and measured (bars)")


def scenario_table() -> pd.DataFrame:
    """Tables 6-15 with the model's bound, what binds it, and the Table 5 bridges the TCs share."""
    t = data.load("keystone2-table6-15")
    rows = []
    for case, r in zip(bus.table_cases(), t.itertuples()):
        shared = bus.shared_bridges(case.tcs)
        rows.append({"case": case.label, "endpoints": f"{r.endpoint_a} <-> {r.endpoint_b}",
                     "bound by": ", ".join(bus.binding(case)), "model (MB/s)": f"{bus.bound_mb_s(case):.0f}",
                     "guide (MB/s)": r.theoretical_mb_s, "measured (MB/s)": r.measured_mb_s,
                     "measured / model": f"{r.measured_mb_s / bus.bound_mb_s(case):.1%}",
                     "shared bridges": "; ".join(f"{b}: {', '.join(u)}" for b, u in shared.items())})
    return pd.DataFrame(rows)


def measured_share_table() -> pd.DataFrame:
    """Measured throughput as a share of the model's bound, per pair of endpoints (Tables 6-15)."""
    t = data.load("keystone2-table6-15")
    frame = pd.DataFrame({
        "endpoints": [f"{r.endpoint_a} <-> {r.endpoint_b}" for r in t.itertuples()],
        "share": [r.measured_mb_s / bus.bound_mb_s(c) for c, r in zip(bus.table_cases(), t.itertuples())]})
    out = frame.groupby("endpoints", sort=False)["share"].agg(["count", "min", "max"]).reset_index()
    out.columns = ["endpoints", "cases", "lowest measured / model", "highest measured / model"]
    for c in out.columns[2:]:
        out[c] = [f"{v:.1%}" for v in out[c]]
    return out


def port_table() -> pd.DataFrame:
    """Tables 1 and 2 as printed beside ``w / 8 * f / d * k`` for each row."""
    rows = []
    for t, r, port, _, model, _ in bus.port_rows():
        rows.append({"table": t.attrs["provenance"]["table"], "port": port,
                     "w (bits)": r.width_bits, "clock": r.clock_as_printed, "k": getattr(r, "transfers_per_clock", 1),
                     "w/8 f/d k (MB/s)": f"{model:.0f}", "table value": r.max_bandwidth_mb_s,
                     "worked formula's result": r.comment_result_mb_s})
    return pd.DataFrame(rows)


def copy_rows() -> pd.DataFrame:
    """One row per (source, destination, limit) of a copy by alike TCs."""
    rows = []
    for a, b in itertools.product(COPY_ENDPOINTS, repeat=2):
        rows += _limit_rows({"endpoint_a": a, "endpoint_b": b}, bus.copy_limit_exprs(a, b))
    return pd.DataFrame(rows)


def calculation() -> Calculation:
    """Every limit of a copy by alike TCs between each pair of endpoints, live on TCs and clocks;
    the page's table shows the pair chosen in the drop-downs."""
    choices = [Choice("endpoint_a", COPY_ENDPOINTS, "MSMC SRAM", "source"),
               Choice("endpoint_b", COPY_ENDPOINTS, "DDR3A", "destination")]

    def numeric(inputs, case):
        return {"limit_mb_s": bus.copy_limits(case["endpoint_a"], case["endpoint_b"], **inputs)[case["endpoint"]]}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="edma_copy", title="The limits of your copy (MB/s)",
        cases=copy_rows(), shown={"endpoint_a": "source", "endpoint_b": "destination", "limit": "limit"},
        fields=_FIELDS,
        inputs=_sliders("tcs", "tc_width_bits", "tc_clock_divider", "cpu_clock_mhz", "ddr3_mtps", "ddr3_width_bits"),
        outputs=[Output("limit_mb_s", _VALUE, "limit", "MB/s", 1)], numeric=numeric, choices=choices,
        row_filter=matches({"endpoint_a": "endpoint_a", "endpoint_b": "endpoint_b"}), answers=Answers("limit_mb_s"),
        command=BoxCommand("bus", [Word("--from", "endpoint_a"), Word("--to", "endpoint_b")],
                           {"limit_mb_s": "limits_mb_s.{endpoint}"}))


def copy_chart() -> alt.VConcatChart:
    """A copy you set up: endpoints from the drop-downs, TCs and clocks from the sliders; its limits
    as bars and in the calculated table."""
    calc = calculation()
    live = calc.live()
    base = _binding(live.base.transform_filter(
        matches({"endpoint_a": "endpoint_a", "endpoint_b": "endpoint_b"})), "endpoint_a")
    bars = base.mark_bar().encode(
        y=alt.Y("limit:N", sort=None, title=None),
        x=alt.X("limit_mb_s:Q", title="MB/s"),
        color=alt.condition(column("binds"), alt.value("#c0392b"), alt.value("#999")),
        tooltip=["limit:N", alt.Tooltip("limit_mb_s:Q", format=".0f"), alt.Tooltip("bound_mb_s:Q", format=".0f")])
    # eight controls, the box's own just above: under the chart, which they would push a screen down
    return calc.view(live, bars, title="Your copy: its limits (red = the one that binds)", controls_below=True)


def guidance_frame(acnt_sizes=(8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192),
                   bcnt: int = 128, tc: str = "TC0") -> pd.DataFrame:
    """§5.3.2's experiment on the model: MSMC sub-bank use and command fill for linear,
    ACNT + power-of-two and odd source indexes, against ACNT."""
    rows = []
    for acnt in acnt_sizes:
        for name, index in (("linear (index = ACNT)", acnt), ("index = ACNT + 64", acnt + 64),
                            ("odd index (ACNT + 1)", acnt + 1)):
            g = bus.transfer_guidance(acnt, bcnt, src_index=index, tc=tc)
            rows.append({"acnt_bytes": acnt, "index": name, "msmc_subbank_use": g["msmc_subbank_use"],
                         "read_commands_per_kib": 1024 * g["read_commands"] / g["bytes"]})
    return pd.DataFrame(rows)


def index_chart() -> alt.Chart:
    """Share of each touched 32-byte MSMC sub-bank that a source read uses, against ACNT."""
    return alt.Chart(stable(guidance_frame())).mark_line(point=True).encode(
        x=alt.X("acnt_bytes:Q", scale=alt.Scale(type="log", base=2), title="ACNT (bytes)"),
        y=alt.Y("msmc_subbank_use:Q", title="MSMC sub-bank use", axis=alt.Axis(format="%")),
        color=alt.Color("index:N", title=None),
        tooltip=["index:N", "acnt_bytes:Q", alt.Tooltip("msmc_subbank_use:Q", format=".1%"),
                 alt.Tooltip("read_commands_per_kib:Q", format=".1f")],
    ).properties(width=460, height=240, title="Source reads from MSMC SRAM, BCNT = 128 (model)")
