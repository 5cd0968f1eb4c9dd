"""Charts and tables of the pcie-packets chapter: the packet model, live in the page.

The sliders move quantities a reader thinks in (generation, lanes, MPS, header
size, ECRC, ACKs per TLP); powers of two slide over their exponent. The model's
expressions are re-written in those slider symbols here, by substitution only.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import sympy as sp

from goodput.core import chapters
from goodput.core.params import Parameter, by_name
from goodput.core.symbols import maker
from goodput.machine import lspci
from goodput.machine.grammar import Setting
from goodput.models import coding, pcie
from goodput.render.box_command import BoxCommand, Word
from goodput.render.calculation import Answers, Calculation, Output
from goodput.render.charts import live_model
from goodput.render.controls import Slider
from goodput.render.vega import column, lookup

__all__ = ["SLIDERS", "slider_values_to_link", "slider_substitution", "live_exprs", "calculation", "explore_chart", "breakdown_chart",
           "explore_sizes", "pcie_generations_table", "dllp_share_table"]

symbol = maker(__name__)

header_dwords = symbol("h", positive=True, integer=True)
ecrc_on = symbol("e", nonnegative=True, integer=True)
skp_policy = symbol("k", nonnegative=True, integer=True)
flit_bytes = symbol(r"F_{\mathrm{flit}}", positive=True, integer=True)  #: bytes of a flit counted as data

#: Flit mode's conventions as the control offers them: bytes of a 256-byte flit counted as data.
FLIT_BYTES = {coding.CODES[code].data_bits // 8: name for name, code in pcie.FLIT_CONVENTIONS.items()}

#: SKP policies as the breakdown's control offers them, by number (the order of the buttons).
SKP_CHOICES = ("none", "min", "max")


def _powers(low: int, high: int, unit: str = " B") -> tuple:
    return tuple((2 ** k, f"{2 ** k}{unit}") for k in range(low, high + 1))


SLIDERS = by_name(
    *(pcie.LINK_PARAMETERS[name] for name in ("generation", "lanes", "mps", "mrrs")),
    Parameter("header_dwords", header_dwords, "dwords", 3, 4, default=3 if pcie.READER_LINK.addr == 32 else 4, step=1,
              label="TLP header", integer=True,
              options=((3, "3 DW (32-bit address)"), (4, "4 DW (64-bit address)"))),
    Parameter("ecrc", ecrc_on, "", 0, 1, default=int(pcie.READER_LINK.ecrc), step=1, label="ECRC", integer=True,
              options=((0, "off"), (1, "on"))),
    Parameter("ack_group", pcie.group, "TLPs", 1, 32, default=pcie.READER_LINK.dllp_policy()[1], step=1,
              label="TLPs per ACK + UpdateFC", integer=True, presets=((1, "1"), (4, "4"), (8, "8"))),
    Parameter("skp", skp_policy, "", 0, 2, default=SKP_CHOICES.index(pcie.READER_LINK.skp), step=1, label="SKP ordered sets", integer=True,
              options=tuple(enumerate(("none", "fewest allowed", "most allowed")))),
    Parameter("flit_bytes", flit_bytes, "bytes", min(FLIT_BYTES), max(FLIT_BYTES),
              default=coding.CODES[pcie.FLIT_CONVENTIONS[pcie.READER_LINK.flit]].data_bits // 8,
              step=1, label="gen6 flit: bytes of 256 counted as data",
              integer=True, options=tuple((n, f"{n} ({'TLP' if name == 'tlp' else 'TLP + DLP'} bytes)")
                                          for n, name in FLIT_BYTES.items())),
    Parameter("size_bytes", pcie.payload, "bytes", 8, 32768, default=1024, step=1,
              label="transfer for the breakdown", integer=True, options=_powers(3, 15)),
)


def slider_values_to_link(values: dict) -> tuple[pcie.Link, int]:
    """The :class:`~goodput.models.pcie.Link` and breakdown size that a set of control values stands for."""
    v = {name: SLIDERS[name].check(values.get(name, p.default)) for name, p in SLIDERS.items()}
    link = pcie.Link(gen=v["generation"], lanes=v["lanes"], mps=v["mps"], mrrs=v["mrrs"],
                     addr=32 if v["header_dwords"] == 3 else 64, ecrc=bool(v["ecrc"]),
                     dllp=f"every:{v['ack_group']}",
                     # flit mode's SKP rate is not modelled: the control counts none there (skp_share_expr)
                     skp="none" if v["generation"] in pcie.FLIT_MODE else SKP_CHOICES[v["skp"]],
                     flit=FLIT_BYTES[v["flit_bytes"]])
    return link.checked(), v["size_bytes"]


def skp_share_expr() -> sp.Expr:
    """SKP ordered sets' share of the link's time for generation ``g`` and the policy control ``k``
    (:data:`SKP_CHOICES`), from :data:`goodput.models.pcie.SKP_POLICIES`; flit mode (gen 6) has none here."""
    branches = []
    for number, policy in enumerate(SKP_CHOICES[1:], start=1):
        share = pcie.generation_piecewise(
            lambda c: sp.Rational(*pcie.SKP_POLICIES[policy].get(c.key, (0, 1))))
        branches.append((share, sp.Eq(skp_policy, number)))
    return sp.Piecewise(*branches, (0, True))


def slider_substitution(skp: bool = True) -> dict:
    """The link's byte counts and bit rate in the sliders' symbols (generation, header DWs, ECRC, flit
    bytes); SKP ordered sets' share of the time for the SKP control, or none (a model without them)."""
    return {pcie.bit_rate: pcie.generation_bit_rate_expr(flit_bytes),
            **pcie.size_exprs(pcie.generation, header_dwords, ecrc_on),
            pcie.skp: skp_share_expr() if skp else 0}


def live_exprs() -> dict[str, sp.Expr]:
    """Write and read goodput per direction, and the write's byte breakdown, in the slider symbols.

    Reads are counted as AN3935 counts them (Eq. 4-5), with both directions
    reading, so each direction also carries the other's read requests; alone,
    a read stream's completions cost exactly what writes of the same size do.
    """
    subs = slider_substitution()
    out = {
        "write_gbit_s": pcie.goodput_expr("write", "every").subs(subs),
        # Reads per direction with both directions reading: each also carries the other's requests.
        "read_gbit_s": (pcie.goodput_expr("read", "every", duplex=True) / 2).subs(subs),
    }
    code = {coding.data_bits: pcie.generation_piecewise(lambda c: c.data_bits, flit_bytes),
            coding.coded_bits: pcie.generation_piecewise(lambda c: c.coded_bits, flit_bytes)}
    for name, expr in pcie.breakdown_exprs("write", "every").items():
        out[f"{name}_bytes"] = expr.subs(subs).subs(code)
    return out


def explore_sizes() -> pd.DataFrame:
    """Transfer sizes the goodput curve is drawn at: powers of two and halfway points, 8 B to 32 KiB."""
    sizes = sorted({2 ** k for k in range(3, 16)} | {3 * 2 ** k for k in range(2, 14)})
    return pd.DataFrame({"size_bytes": sizes})


def _sliders(names) -> list[Slider]:
    return [Slider(SLIDERS[n]) for n in names]


def calculation() -> Calculation:
    """Write and read goodput per transfer size on the reader's link (the sliders)."""
    exprs = live_exprs()
    sizes = explore_sizes()
    sizes["tabled"] = [s >= 64 and s & (s - 1) == 0 for s in sizes["size_bytes"]]

    def numeric(inputs, case):
        link, _ = slider_values_to_link(inputs)
        return {"write_gbit_s": pcie.goodput_gbit_s("write", link, case["size_bytes"]),
                "read_gbit_s": pcie.goodput_gbit_s("read", link, case["size_bytes"], duplex=True) / 2,
                "bit_rate_gbit_s": coding.bit_rate_gbit_s(link.generation.rate_gtps, link.lanes,
                                                          link.code)}

    return Calculation(
        chapter=chapters.rendered_by(__name__).id, name="pcie_sizes", title="Goodput of back-to-back transfers, one direction",
        cases=sizes, shown={"size_bytes": "bytes"}, fields={pcie.payload: "size_bytes"},
        inputs=_sliders(["generation", "lanes", "mps", "mrrs", "header_dwords", "ecrc", "ack_group", "skp", "flit_bytes"]),
        outputs=[Output("write_gbit_s", exprs["write_gbit_s"], "writes", "Gbit/s"),
                 Output("read_gbit_s", exprs["read_gbit_s"], "reads, both ways", "Gbit/s"),
                 Output("bit_rate_gbit_s", pcie.generation_bit_rate_expr(flit_bytes), "bit rate after the line code",
                        "Gbit/s")],
        numeric=numeric, row_filter=column("tabled"), headline={"size_bytes": 1024},
        answers=Answers("write_gbit_s", transfer=pcie.payload, transfers="writes",
                        packets=pcie.tlp_count_expr("write"), packet_name="TLPs",
                        line_rate=pcie.transfer_rate_expr() * coding.lanes, line="the lanes' signalling rate"),
        command=BoxCommand("pcie", [Word("write"), Word("--gen", "generation"), Word("--size", "size_bytes"),
                                    Word("--addr", "header_dwords", {3: 32, 4: 64}),
                                    Word("--ecrc", when=("ecrc", 1)),
                                    Word("--dllp", "ack_group", form="every:{}"),
                                    # flit mode counts no SKP: the command refuses a rate for it
                                    Word("--skp", "skp", dict(enumerate(SKP_CHOICES)),
                                         when=("generation", tuple(g for g in pcie.GENERATIONS
                                                                   if g not in pcie.FLIT_MODE))),
                                    # what counts as data in a flit: gen 6 alone has flits (the command refuses it else)
                                    Word("--flit", "flit_bytes", {236: "tlp", 242: "dlp"},
                                         when=("generation", tuple(pcie.FLIT_MODE)))],
                           {"write_gbit_s": "goodput_gbit_s"}),
        machine=lspci_settings())


def lspci_settings(*extra: str) -> tuple[Setting, ...]:
    """What ``lspci -vv`` sets in a PCIe box: the link as trained (its speed is the generation), MPS and MRRS as
    programmed, and ``extra`` fields of the same name (``rcb``)."""
    return (Setting("generation", "lspci", "speed_gts", tuple(lspci.GENERATIONS.items())),
            Setting("lanes", "lspci", "lanes"), Setting("mps", "lspci", "mps"), Setting("mrrs", "lspci", "mrrs"),
            *(Setting(name, "lspci", name) for name in extra))


def explore_chart() -> alt.VConcatChart:
    """Write and read goodput against transfer size, recomputed from the sliders in the page,
    above the calculated table (powers of two from 64 bytes)."""
    calc = calculation()
    live = calc.live()
    folded = live.base.transform_fold(["write_gbit_s", "read_gbit_s"], as_=["transfer", "gbit_s"])
    x = alt.X("size_bytes:Q", scale=alt.Scale(type="log", base=2), title="transfer size (bytes)")
    lines = folded.mark_line(point=True).encode(
        x=x,
        y=alt.Y("gbit_s:Q", title="payload goodput, one direction (Gbit/s)"),
        color=alt.Color("transfer:N", title=None,
                        scale=alt.Scale(domain=["write_gbit_s", "read_gbit_s"], range=["#1f77b4", "#d62728"]),
                        legend=alt.Legend(labelExpr=lookup("label", {"write_gbit_s": "writes",
                                                                       "read_gbit_s": "reads, both ways"}))),
        tooltip=[alt.Tooltip("size_bytes:Q", title="bytes"), alt.Tooltip("transfer:N"),
                 alt.Tooltip("gbit_s:Q", format=".3f", title="Gbit/s")],
    )
    ceiling = live.base.mark_rule(strokeDash=[4, 3], color="#555").encode(y="bit_rate_gbit_s:Q")
    # the box above has the same nine controls: under the chart they keep it in the first two screens
    return calc.view(live, lines, ceiling, height=260, controls_below=True,
                     title="Goodput of back-to-back transfers (dashed: bit rate after the line code)")


def breakdown_chart() -> alt.LayerChart:
    """Where the line bytes of one write go, for the transfer size on its slider."""
    exprs = live_exprs()
    parts = [k for k in exprs if k.endswith("_bytes")]
    live = live_model(
        pd.DataFrame({"case": ["one write"]}),
        outputs={k: exprs[k] for k in parts},
        sliders=_sliders(["generation", "mps", "header_dwords", "ecrc", "ack_group", "skp", "flit_bytes", "size_bytes"]),
        fields={},
        name="pcie_breakdown",
    )
    labels = {"payload_bytes": "payload", "tlp_overhead_bytes": "TLP headers and framing",
              "dllp_bytes": "ACK and UpdateFC DLLPs", "skp_bytes": "SKP ordered sets",
              "encoding_bytes": "line code"}
    bar = live.base.transform_fold(parts, as_=["part", "line_bytes"]).transform_calculate(
        share=column("line_bytes")
    ).mark_bar().encode(
        x=alt.X("line_bytes:Q", stack="normalize", title="share of the line bytes of one write",
                axis=alt.Axis(format="%")),
        y=alt.Y("case:N", title=None),
        color=alt.Color("part:N", sort=parts, title=None,
                        legend=alt.Legend(labelExpr=lookup("label", labels))),
        order=alt.Order("part_order:Q"),
        tooltip=[alt.Tooltip("part:N"), alt.Tooltip("line_bytes:Q", format=".1f", title="line bytes")],
    ).transform_calculate(part_order=lookup("part", {k: i for i, k in enumerate(parts)}, 0))
    return live.figure(bar, height=60,
                       title="Where the line bytes of one write go (the same on any number of lanes: each "
                             "lane carries its share of every part)")


def pcie_generations_table(sizes=(64, 256, 1500, 4096), lanes: int = 4) -> pd.DataFrame:
    """Write goodput per generation at a few sizes: MPS 256, spec DLLP rates, fewest SKPs.

    Gen6 runs in flit mode: DLLPs ride in the flits and its SKP rate is not modelled.
    """
    rows = []
    for gen in pcie.GENERATIONS.values():
        flit = gen.number in pcie.FLIT_MODE
        link = pcie.Link(gen=gen.number, lanes=lanes, mps=256, addr=64, dllp="none" if flit else "spec",
                         skp="none" if flit else "min")
        bits = coding.bit_rate_gbit_s(gen.rate_gtps, lanes, gen.code)
        row = {"link": f"gen{gen.number} x{lanes}" + (" (flit mode)" if flit else ""),
               "bit rate (Gbit/s)": f"{bits:.4g}"}
        for size in sizes:
            g = pcie.goodput_gbit_s("write", link, size)
            row[f"{size} B (Gbit/s)"] = f"{g:.4g} ({g / bits:.0%})"
        rows.append(row)
    return pd.DataFrame(rows)


def dllp_share_table(gen: int = 3, mps: int = 256) -> pd.DataFrame:
    """Share of link time spent on ACK + UpdateFC at the specification's rates, per width.

    Two ways: striped over the lanes (this model, :func:`goodput.models.pcie.dllp_share_expr`), and
    charged per lane (pcie-bench: the same expression on one lane, the limits of the wide link).
    """
    share = pcie.dllp_share_expr("spec")
    rows = []
    for lanes in (1, 2, 4, 8, 16):
        values = pcie.link_substitution(pcie.Link(gen=gen, lanes=lanes, mps=mps, dllp="spec"))
        rows.append({
            "link": f"gen{gen} x{lanes}, MPS {mps}",
            "L_ack, L_fc (symbol times)": f"{values[pcie.ack_limit]:g}, {values[pcie.fc_limit]:g}",
            "DLLP share, striped (this model)": f"{float(share.subs(values)):.2%}",
            "DLLP share, per lane (pcie-bench)": f"{float(share.subs({**values, coding.lanes: 1})):.2%}",
        })
    return pd.DataFrame(rows)
