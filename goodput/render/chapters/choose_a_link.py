"""Charts and tables of the choose-a-link chapter: every link of the book on one axis, and the solver.

The comparison chart draws each configuration the reader composes (:class:`~goodput.render.controls.LinkList`)
as a curve of goodput against transfer size, evaluated in the page from :func:`goodput.analysis.choose.goodput_expr`
printed to Vega; the measured points of the chapters' published tables and our own runs sit on the same
axes. The solver is the chapter's calculation: every link of the reader's list (the same composer's) and,
apart, every configuration of :data:`goodput.analysis.choose.CATALOG`, at the reader's transfer size, against the
goodput and time required.
"""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import numpy as np
import pandas as pd
import sympy as sp

from goodput.analysis import choose, hostbench
from goodput.core import chapters, data
from goodput.core.params import Parameter
from goodput.core.precision import stable
from goodput.core.symbols import ModelSymbol
from goodput.models import pcie
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.controls import Choice, LinkList, Slider
from goodput.render.live import LiveFigure
from goodput.render.vega import bytes_label, column, vega_expr

__all__ = ["SIZES", "DEFAULT_LINKS", "FROM_LIST", "FROM_CATALOG", "families", "curve_rows", "links_control",
           "solver_links", "config_of", "listed_cases", "derating_points", "derating", "derating_table", "EXPECT",
           "derating_expr", "measured", "comparison_chart",
           "calculation", "solver_chart", "headline"]

#: Transfer sizes a curve is drawn at: powers of two and the halfway points, 1 byte to 1 MiB.
SIZES = sorted({2 ** k for k in range(21)} | {3 * 2 ** k for k in range(19)})

#: The configurations the chart starts with: one or two of each family.
DEFAULT_LINKS = (
    choose.config("pcie", generation=3, lanes=4), choose.config("pcie", generation=2, lanes=1),
    choose.config("srio", line_rate_gbaud=5, lanes=4), choose.config("hyperlink"),
    choose.config("usb", generation=1), choose.config("ethernet", line_rate_mbit_s=1000),
    choose.config("spi"), choose.config("can"),
)

#: The chart's data: one row per configuration, each drawn at every size in :data:`SIZES`.
DATASET = "links"

_FIELDS = {choose.size: "size_bytes", choose.family: "family", **choose.settings()}


def families() -> list[dict]:
    """What each row of the composer may be: family key, title, index, settings and their options."""
    return [{"key": f.key, "title": f.title, "index": i, "maxSize": int(f.max_size), "note": f.note,
             "settings": [{"name": s.name, "label": s.label, "default": s.default,
                           "options": [{"value": v, "label": lab} for v, lab in s.options]} for s in f.settings]}
            for i, f in enumerate(choose.FAMILIES.values())]


def curve_rows(configs) -> list[dict]:
    """The chart's rows for ``configs``: each configuration's columns, its place in the list (the legend's
    order), its sizes and the largest it takes (what the page's script builds from the composer's rows, the
    same way)."""
    return [{**c.row(), "order": i, "max_size": int(c.family.max_size), "size_bytes": SIZES}
            for i, c in enumerate(configs)]


def links_control(configs=DEFAULT_LINKS) -> LinkList:
    """The composer of the comparison chart, starting with ``configs``."""
    return LinkList("links", "links compared", families(), choose.encode(configs), DATASET,
                    {"size_bytes": SIZES})


def _source(name: str) -> str:
    p = data.provenance(name)
    return f"{p['document']} {p['table']}"


def measured() -> pd.DataFrame:
    """Measured goodput of the book's tables and our runs, on the chart's axes: family, transfer size
    (bytes), MB/s (one direction), source and what was measured; ``config`` the chooser's configuration of
    the same link and operation (:func:`goodput.analysis.choose.encode`), where it has one, for :func:`derating`."""
    frames = []
    for name in ("an3935-table9", "an3935-table10"):
        t = data.load(name)
        t = t[t["series"] == "measured"]
        gens = [pcie.AN3935_DEVICES[d] for d in t["device"]]
        # AN3935 ran both directions at once and counts both (the pcie-measured chapter's duplex model): one
        # direction carries half; its reads are a DMA engine's, many in flight, which the chooser does not model
        frames.append(pd.DataFrame({
            "family": "pcie", "size_bytes": t["bytes"], "mbyte_s": t["gbit_s"] * 125 / 2, "source": _source(name),
            "what": [f"{d} (PCIe gen {g}) x{lanes:g} {kind}s, MPS {mps:g}, one direction of two"
                     for d, g, lanes, kind, mps in zip(t["device"], gens, t["lanes"], t["transfer"], t["mps_bytes"])],
            "config": [choose.encode([choose.config("pcie", generation=g, lanes=lanes, mps=mps)]) if kind == "write"
                       else "" for g, lanes, kind, mps in zip(gens, t["lanes"], t["transfer"], t["mps_bytes"])]}))
    t = data.load("intel-324611-test14")
    frames.append(pd.DataFrame({"family": "pcie", "size_bytes": t["sequential_write_bytes"],
                                "mbyte_s": t["measured_mbyte_s"], "source": _source("intel-324611-test14"),
                                "what": data.provenance("intel-324611-test14")["title"], "config": ""}))
    t = data.load("keystone2-table16-21")
    t = t[t["transaction"] == "NWRITE"]
    frames.append(pd.DataFrame({
        "family": "srio", "size_bytes": t["payload_bytes"], "mbyte_s": t["throughput_mbit_s"] / 8,
        "source": _source("keystone2-table16-21"),
        "what": [f"NWRITE {r:g} Gbaud x{n:g} to {m}" for r, n, m in zip(t["phy_gbaud"], t["lanes"], t["memory"])],
        "config": [choose.encode([choose.config("srio", line_rate_gbaud=r, lanes=n, transaction=0)])
                   for r, n in zip(t["phy_gbaud"], t["lanes"])]}))
    t = data.load("spraaq5-s6-throughput")
    frames.append(pd.DataFrame({
        "family": "ethernet", "size_bytes": t["frame_bytes"], "mbyte_s": t["throughput_kbit_s"] / 8000,
        "source": _source("spraaq5-s6-throughput"),
        "what": [f"NDK TCP {op.lower()} on {dev}, {rate:g} Mbit/s"
                 for op, dev, rate in zip(t["operation"], t["device"], t["line_rate_mbit_s"])],
        "config": [choose.encode([choose.config("ethernet", line_rate_mbit_s=rate, stack=0)])
                   for rate in t["line_rate_mbit_s"]]}))
    t = hostbench.shaped_vs_model()
    frames.append(pd.DataFrame({"family": "ethernet", "size_bytes": t["frame_bytes"], "mbyte_s": t["mbit_s"] / 8,
                                "source": "our run: shaped-100m logs",
                                "what": [f"our firmware, TCP {d} over a shaped 100 Mbit/s link" for d in t["direction"]],
                                "config": choose.encode([choose.config("ethernet", line_rate_mbit_s=100, stack=0)])}))
    t = data.load("am243x-mcspi")
    t = t[t["mode"] != "dma"]
    size = t["words"] * t["word_bits"] // 8
    frames.append(pd.DataFrame({"family": "spi", "size_bytes": size, "mbyte_s": size / t["transfer_time_us"],
                                "source": _source("am243x-mcspi"),
                                "what": [f"MCSPI {m}, {w:g}-bit words" for m, w in zip(t["mode"], t["word_bits"])],
                                # 50 MHz, 160 ns and a bit time between words (the table's conditions)
                                "config": [choose.encode([choose.config("spi", clock_mhz=50, word_bits=w, spaced=1)])
                                           for w in t["word_bits"]]}))
    out = pd.concat(frames, ignore_index=True)
    out["mbyte_s"] = np.round(out["mbyte_s"].astype(float), 4)
    return stable(out)


def derating_points() -> pd.DataFrame:
    """The measured points the chooser models the same link and operation of: each with the chooser's goodput
    for it (MB/s) and the measured share of it."""
    t = measured()
    t = t[t["config"] != ""].copy()
    t["model_mbyte_s"] = [choose.goodput_mbyte_s(choose.decode(c)[0], int(n)) for c, n in zip(t["config"], t["size_bytes"])]
    t["ratio"] = t["mbyte_s"] / t["model_mbyte_s"]
    return stable(t.reset_index(drop=True))


def derating() -> dict[str, dict]:
    """Per family of the chooser, what the book measured over what the model gives for the same links: the
    median share (the solver's expectation multiplies the model by it), the lowest and highest, how many
    points and their sources. A family with no such point is not in it."""
    out = {}
    for key, g in derating_points().groupby("family", sort=False):
        out[key] = {"ratio": float(np.median(g["ratio"])), "low": float(g["ratio"].min()),
                    "high": float(g["ratio"].max()), "points": len(g), "sources": list(dict.fromkeys(g["source"]))}
    return stable({k: out[k] for k in choose.FAMILIES if k in out})


def derating_table() -> pd.DataFrame:
    """:func:`derating` as the chapter shows it, a row per family, "not derated" where it has no point."""
    found = derating()
    rows = []
    for key, f in choose.FAMILIES.items():
        d = found.get(key)
        rows.append({"link": f.title, "measured / model": f"{d['ratio']:.1%}" if d else "not derated",
                     "range": f"{d['low']:.1%} to {d['high']:.1%}" if d else "",
                     "points": d["points"] if d else 0,
                     "from": "; ".join(d["sources"]) if d else "no measurement of its own on these axes"})
    return pd.DataFrame(rows)


def comparison_chart(configs=DEFAULT_LINKS, height: int = 360, with_measured: bool = True,
                     title: str = "Goodput against transfer size, every link you add",
                     controls_below: bool = False) -> LiveFigure:
    """The comparison: goodput (log) and efficiency against transfer size (log) for the composed links,
    recomputed in the page from the model's expressions; the measured points on the same axes. The list of
    links is composed above the chart, or under it (``controls_below``) where the chart opens a page."""
    fields = _FIELDS
    goodput = vega_expr(choose.goodput_expr(), fields=fields)
    efficiency = vega_expr(100 * choose.efficiency_expr(), fields=fields)
    base = alt.Chart(alt.Data(values=curve_rows(configs), name=DATASET)).transform_flatten(
        ["size_bytes"]).transform_filter(f"{column('size_bytes')} <= {column('max_size')}").transform_calculate(
        goodput_mbyte_s=goodput, efficiency_percent=efficiency)
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)",
              axis=alt.Axis(values=[1, 16, 256, 4096, 65536, 1 << 20], labelExpr=bytes_label()))
    # the legend lists the links in the composer's order (a link added keeps the others' colours); its
    # columns and label width are the column's (live.chart_for_column, and one column on a phone)
    color = alt.Color("link:N", title=None, sort=alt.EncodingSortField("order", op="min"))
    tooltip = [alt.Tooltip("link:N"), alt.Tooltip("size_bytes:Q", title="bytes"),
               alt.Tooltip("goodput_mbyte_s:Q", title="MB/s", format=".4~g"),
               alt.Tooltip("efficiency_percent:Q", title="efficiency (%)", format=".3~f")]
    curves = base.mark_line(point=alt.OverlayMarkDef(size=14)).encode(
        x=x, y=alt.Y("goodput_mbyte_s:Q", scale=alt.Scale(type="log"), title="goodput (MB/s)"),
        color=color, tooltip=tooltip)
    layers = [curves]
    controls: list = [links_control(configs)]
    if with_measured:
        shown = Choice("measured", ("shown", "hidden"), "shown", "measured points")
        points = alt.Chart(stable(measured().drop(columns="config"))).transform_filter(
            f"{shown.name} == 'shown'").mark_point(
            shape="diamond", filled=True, size=36, color="#444", opacity=0.7).encode(
            x=x, y="mbyte_s:Q", tooltip=[alt.Tooltip("source:N"), alt.Tooltip("what:N"),
                                         alt.Tooltip("size_bytes:Q", title="bytes"),
                                         alt.Tooltip("mbyte_s:Q", title="MB/s measured", format=".4~g")])
        layers.append(points)
        controls.append(shown)
    return LiveFigure.of_layers(layers, controls, title, {"height": height}, figure_id="figure-compare",
                                controls_below=controls_below)


# --- the solver -----------------------------------------------------------------------------------

#: Where a row of the solver comes from: the reader's list (the composer's links) or the book's catalogue.
FROM_LIST, FROM_CATALOG = "your list", "the book's catalogue"
listed = ModelSymbol("listed", __name__)  #: 1 for a link of the reader's list, 0 for one of the catalogue


def _fill() -> dict[str, int]:
    """What a row of the solver holds in each setting's column its family has not: 1 (its own settings replace it)."""
    return {col: 1 for col in choose.settings().values()}


def _cases() -> pd.DataFrame:
    return pd.DataFrame([{"link": c.label, "source": FROM_CATALOG, "listed": 0, "family": c.row()["family"],
                          **_fill(), **c.settings} for c in choose.CATALOG])


def config_of(case) -> choose.Config:
    """The configuration a row of the solver stands for: its family's and its settings' columns."""
    family = list(choose.FAMILIES.values())[int(case["family"])]
    return choose.config(family.key, **{s.name: case[s.name] for s in family.settings})


def listed_cases(text: str) -> list[dict]:
    """The solver's rows for the reader's list ``text`` (as the page's address keeps it), as the page's script
    builds them from the composer: the list's fill, the link, its place, its settings and the list's columns."""
    control = solver_links()
    return [{**control.fill, **c.row(), "row_index": f"your-{i + 1}", "order": i,
             "max_size": int(c.family.max_size), **control.extra} for i, c in enumerate(choose.decode(text))]


def solver_links(configs=DEFAULT_LINKS) -> LinkList:
    """The reader's list as the solver takes it: the comparison's composer (the same state key), each link a row
    beside the catalogue's, marked as the reader's."""
    return replace(links_control(configs), extra={"source": FROM_LIST, "listed": 1}, fill=_fill(), shown=False)


expect = ModelSymbol("expect", __name__)  #: 1: the model derated by what the book measured; 0: the model alone
#: How the solver answers: with the model's ceiling, or with what the book's measurements of the same links
#: make of it (:func:`derating`).
EXPECT = Parameter("expect", expect, "", 0, 1, default=0, step=1, integer=True, label="answer with",
                   options=((0, "the model's ceiling"), (1, "an expectation: the model x the book's measured share")))


def derating_expr() -> sp.Expr:
    """What the solver multiplies a family's goodput by: 1 for the ceiling; for the expectation, the family's
    measured share (:func:`derating`), or 1 where the book measured none of its links."""
    found = derating()
    keys = list(choose.FAMILIES)
    share = sp.Piecewise(*[(sp.Float(str(d["ratio"])), sp.Eq(choose.family, keys.index(k))) for k, d in found.items()],
                         (1, True))
    return 1 + expect * (share - 1)


def calculation() -> Calculation:
    """Every link of the reader's list and every configuration the book studies at the reader's transfer size,
    against what is required: as the model's ceiling, or derated by what the book measured."""
    p = choose.PARAMETERS
    found = derating()

    def numeric(inputs, case):
        c = config_of(case)
        n, rate, limit = inputs["size_bytes"], inputs["rate_mbyte_s"], inputs["latency_us"]
        share = found[c.key]["ratio"] if inputs["expect"] and c.key in found else 1.0
        g, t = share * c.family.numeric(c.settings, n), choose.time_us(c, n) / share
        parts = choose.breakdown_us(c, n)
        return {"derating": share, "goodput_mbyte_s": g, "margin_percent": 100 * (g / rate - 1), "time_us": t,
                **{f"part_{i}": parts.get(name, 0.0) for i, name in enumerate(choose.PARTS)},
                "meets": float(g >= rate and t <= limit),
                # the latency binds where the derated time is over the limit: the model's over limit x share
                "binding": float(choose.LIMITS.index(choose.binding(c, n, rate, limit * share))),
                "listed": float(case["listed"])}

    share = ModelSymbol("share", __name__)
    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="choose", title="Which links carry your requirement: yours first, then the book's",
        cases=_cases(), shown={"link": "link", "source": "from"},
        fields={**{sym: col for sym, col in _FIELDS.items() if sym != choose.size}, listed: "listed"},
        # the latency limit starts at "no limit", the far end of a millionfold range: on a log scale 200 us is mid-way
        inputs=[Slider(p["rate_mbyte_s"]), Slider(p["size_bytes"]), Slider(p["latency_us"], scale="log"),
                Slider(EXPECT)],
        outputs=[Output("derating", derating_expr(), "share of the model", "", 4, symbol=share),
                 *(Output(f"part_{i}", choose.part_expr(name), name, "us", 3, symbol=choose.part_times[name],
                          hidden=True) for i, name in enumerate(choose.PARTS)),
                 Output("time_us", sp.Add(*choose.part_times.values()) / share, "one transfer", "us", 4,
                        symbol=choose.transfer_time),
                 Output("goodput_mbyte_s", choose.size / choose.transfer_time, "goodput", "MB/s", 2,
                        symbol=choose.achieved),
                 Output("margin_percent", 100 * (choose.achieved / choose.required_rate - 1), "margin", "%", 1),
                 Output("meets", choose.meets_expr(), "meets it", "", labels=("no", "yes")),
                 Output("binding", choose.binding_expr(), "binding limit", "", labels=choose.LIMITS),
                 Output("listed", listed, "of your list", "", hidden=True)],
        formula_column=False,
        # the reader's links first, the catalogue's after them; in each, those that meet it, by margin
        numeric=numeric, order=(("listed", "descending"), ("meets", "descending"), ("margin_percent", "descending")),
        selector=choose.family, answers=Answers("goodput_mbyte_s", transfer=choose.size, transfers="transfers"),
        composed=solver_links(),
        # a row of the catalogue is the command's configuration of its name (the reader's, one of "yours")
        command=BoxCommand("choose", [Word("--latency-us", "latency_us", unless=("latency_us", p["latency_us"].default)),
                                      Word("--expect", when=("expect", 1)), Word("--links", "links", unless=("links", ""))],
                           {name: f"configurations[link].{key}" for name, key in (
                               ("derating", "derating"), ("time_us", "time_us"), ("goodput_mbyte_s", "goodput_mbyte_s"),
                               ("margin_percent", "margin_percent"), ("binding", "binding"))}))


def solver_chart() -> LiveFigure:
    """The solver's answer as dots: each link of the reader's list (diamonds) and each configuration of the
    catalogue, its goodput at the reader's transfer size against the rate required (the rule), coloured by
    whether it meets the requirement; the table under it."""
    calc = calculation()
    live = calc.live()
    # a link of the reader's list is its own row, "yours: ...", beside the catalogue's of the same settings
    y = alt.Y("entry:N", sort=alt.EncodingSortField("goodput_mbyte_s", order="descending"), title=None,
              axis=alt.Axis(labelLimit=230))
    dots = live.base.mark_point(size=90, opacity=1, filled=True).encode(
        x=alt.X("goodput_mbyte_s:Q", scale=alt.Scale(type="log"), title="goodput (MB/s)"),
        y=y, color=alt.Color("verdict:N", title=None, scale=alt.Scale(domain=["meets it", "does not"],
                                                                       range=["#2a9d8f", "#999999"])),
        # the title says which are yours: a second legend beside the verdict's does not fit a phone
        shape=alt.Shape("source:N", legend=None, scale=alt.Scale(domain=[FROM_LIST, FROM_CATALOG],
                                                                 range=["diamond", "circle"])),
        tooltip=["link:N", alt.Tooltip("source:N", title="from"),
                 alt.Tooltip("goodput_mbyte_s:Q", format=".4~g", title="MB/s"),
                 alt.Tooltip("time_us:Q", format=".4~g", title="us per transfer")],
    ).transform_calculate(verdict=f"{column('meets')} == 1 ? 'meets it' : 'does not'",
                          entry=f"{column('listed')} == 1 ? 'yours: ' + {column('link')} : {column('link')}")
    rule = alt.Chart(pd.DataFrame({"x": [0]})).mark_rule(color="#c0392b", strokeDash=[4, 3], size=2).encode(
        x="required:Q").transform_calculate(required="rate_mbyte_s")
    return calc.view(live, dots, rule, height=alt.Step(18),
                     title="Your links (diamonds) and the book's configurations at your transfer size: goodput against "
                           "the rate you need (red line)")


def binding_sentence(found: dict) -> str:
    """The landing page's sentence on the overhead that binds most configurations (``found`` is
    :func:`headline`'s): one overhead named once when it binds most at both sizes."""
    small = f"{found['small_binding_count']} of {found['small_count']} configurations at {found['small_bytes']} bytes"
    large = f"{found['large_binding_count']} of {found['large_count']} at {found['large_bytes'] // 1024} KiB"
    if found["small_binding"] == found["large_binding"]:
        return f"The overhead that costs most is the {found['small_binding']}, at both sizes: for {small} and {large}."
    return (f"The overhead that costs most is the {found['small_binding']} for {small}, and the "
            f"{found['large_binding']} for {large}.")


def headline(size_small: int = 64, size_large: int = 65536) -> dict:
    """What the landing page says the book finds, at a small and at a large transfer: the lowest and highest
    share of its raw rate a configuration of :data:`goodput.analysis.choose.CATALOG` delivers (percent, stable digits;
    configurations that add nothing to the data at that size are left out) and the overhead that binds most
    of them."""
    out: dict = {}
    for name, n in (("small", size_small), ("large", size_large)):
        shares, limits = [], []
        for c in choose.CATALOG:
            parts = choose.breakdown_us(c, n)
            limit = choose.binding(c, n)
            if limit != choose.RAW_RATE:
                shares.append((parts["data"] / sum(parts.values()), c.label))
                limits.append(limit)
        low, high = min(shares), max(shares)
        common = max(dict.fromkeys(limits), key=limits.count)
        out.update({f"{name}_bytes": n, f"{name}_lowest_percent": 100 * low[0], f"{name}_lowest": low[1],
                    f"{name}_highest_percent": 100 * high[0], f"{name}_highest": high[1],
                    f"{name}_binding": common, f"{name}_binding_count": limits.count(common),
                    f"{name}_count": len(limits)})
    return stable(out)
