"""The same result on every machine: what a committed notebook shows or hands to a chart carries
no more significant digits than :data:`goodput.core.precision.SIGNIFICANT_DIGITS`, and every fit gives
the same digits whichever SIMD kernels numpy and OpenBLAS pick."""

from __future__ import annotations

import functools
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from goodput.core.precision import SIGNIFICANT_DIGITS, numbers_in, significant_digits, stable

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOURCES = sorted((ROOT / "data" / "published").glob("*.csv")) + sorted((ROOT / "data" / "logs").rglob("*.log"))

# What another CPU looks like to numpy and OpenBLAS (no AVX2 or AVX-512 kernels, a Prescott BLAS).
OTHER_CPU = {"OPENBLAS_CORETYPE": "Prescott", "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL"}


# --- the helper ---------------------------------------------------------------------------------

@pytest.mark.parametrize("printed, digits", [
    ("3.6622612843652895", 17), ("0.0120", 2), ("26.215000", 5), ("-1.5e-05", 2), ("67108864", 0),
    ("1520.00", 0), ("1e6", 0), (".25", 2), ("2631578.95", 9),
])
def test_significant_digits_counts_what_a_number_as_printed_claims(printed, digits):
    assert significant_digits(printed) == digits


def test_significant_digits_refuses_what_is_not_a_number():
    with pytest.raises(ValueError, match="not a number"):
        significant_digits("x1.5")


def test_numbers_in_text_skips_identifiers_versions_and_addresses():
    text = "altair-viz-84d670e8 vega-lite 6.4.1 at 127.0.0.1: 2.3770299200169522 Gbit/s, 64 B, -0.5"
    assert numbers_in(text) == ["2.3770299200169522", "64", "-0.5"]


def test_stable_rounds_floats_and_keeps_whole_numbers_and_text():
    assert stable(3.6622612843652895) == 3.66226
    assert stable(2631578.947368421) == 2631580.0
    assert stable(67108864.0) == 67108864.0
    assert stable(float("nan")) != stable(float("nan"))
    assert stable({"a": [1 / 3, "x", 7], "b": (2 / 3,)}) == {"a": [0.333333, "x", 7], "b": (0.666667,)}
    frame = stable(pd.DataFrame({"n": [1, 2], "x": [1 / 7, 22 / 7], "s": ["a", "b"]}, index=[0.5, 1 / 3]))
    assert frame["x"].tolist() == [0.142857, 3.14286] and frame["n"].dtype.kind == "i"
    assert frame.index.tolist() == [0.5, 0.333333] and frame["s"].tolist() == ["a", "b"]
    assert stable(np.array([[1 / 3]]))[0, 0] == 0.333333


def test_stable_refuses_zero_digits():
    with pytest.raises(ValueError, match="at least one significant digit"):
        stable(1.5, digits=0)


# --- every committed output ---------------------------------------------------------------------

def _vega_spec(html: str) -> dict | None:
    """The Vega-Lite spec altair's HTML output passes to vegaEmbed, or None for other HTML."""
    if "vegaEmbed" not in html:
        return None
    start = html.rfind("})({")  # altair calls its embedding function with the spec; other scripts end "})();"
    if start < 0:
        return None
    spec, _ = json.JSONDecoder().raw_decode(html, start + 3)
    return spec


def _json_numbers(value) -> list[str]:
    if isinstance(value, float):
        return [repr(value)] if math.isfinite(value) else []
    if isinstance(value, dict):
        return [n for v in value.values() for n in _json_numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _json_numbers(v)]
    return []


def _output_numbers(output: dict) -> list[tuple[str, str]]:
    """(mime type, number as printed) of one cell output: text, tables, chart data."""
    found = []
    if "text" in output:
        found += [("stream", n) for n in numbers_in("".join(output["text"]))]
    for mime, value in output.get("data", {}).items():
        if mime == "application/vnd.jupyter.widget-view+json":
            continue  # the widget's id and version; its state is not compared by nbval
        if mime == "text/plain" and "text/html" in output.get("data", {}):
            continue  # the same cells as the HTML, for a front end that shows no HTML
        if not isinstance(value, str) and "json" in mime:
            found += [(mime, n) for n in _json_numbers(value)]
            continue
        text = "".join(value) if isinstance(value, list) else str(value)
        if mime == "text/html":  # a check's note explains a printed digit with the model's value to that
            text = _NOTE_CELL.sub("", text)  # digit (exactly 148809.52 frames/s, cut to 148809): words, not data
        spec = _vega_spec(text) if mime == "text/html" else None
        found += [(mime, n) for n in (_json_numbers(spec) if spec is not None else numbers_in(text))]
        if mime == "text/html":  # a live figure's description: its controls and its table's cases
            found += [(mime, n) for block in _json_blocks(text) for n in _json_numbers(block)]
    return found


#: The note cell of a check table's row (goodput.render.tables.checks_table).
_NOTE_CELL = re.compile(r'<td data-label="note"[^>]*>.*?</td>', re.S)


def _json_blocks(html: str) -> list:
    """The JSON of every ``<script type="application/json">`` in ``html``."""
    out, tag = [], '<script type="application/json"'
    start = html.find(tag)
    while start >= 0:
        body = html.index(">", start) + 1
        out.append(json.loads(html[body:html.index("</script>", body)]))
        start = html.find(tag, body)
    return out


@functools.cache
def _declared() -> frozenset[float]:
    """Every value a model's parameters declare (bounds, default, options, presets): inputs a reader
    is offered as given (25.78125 Gbaud is 25GBASE-R's line rate), not numbers a CPU computed."""
    import importlib
    import pkgutil

    import goodput
    from goodput.core.params import Parameter

    found = set()
    for info in pkgutil.walk_packages(goodput.__path__, "goodput."):
        if info.name.endswith("__main__"):
            continue  # running it is the command line
        for value in vars(importlib.import_module(info.name)).values():
            for p in (value.values() if isinstance(value, dict) else [value]):
                if isinstance(p, Parameter):
                    found |= {p.minimum, p.maximum, p.default, p.step}
                    found |= {v for v, _ in (*p.options, *p.presets)}
    return frozenset(float(v) for v in found)


@functools.cache
def _as_printed() -> frozenset[float]:
    """Every number a source prints, as transcribed into data/published or captured in data/logs:
    the book shows those as printed, whatever their digits (1.294659 Mbit/s, 2631578.95 ns)."""
    return frozenset(float(n) for path in SOURCES for n in numbers_in(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_outputs_carry_no_more_digits_than_are_stable(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    too_precise = [f"cell {i} {mime}: {number}"
                   for i, cell in enumerate(cells) for output in cell.get("outputs", [])
                   for mime, number in _output_numbers(output)
                   if significant_digits(number) > SIGNIFICANT_DIGITS
                   and float(number) not in _as_printed() | _declared()]
    assert not too_precise, (f"{len(too_precise)} numbers with more than {SIGNIFICANT_DIGITS} significant "
                             f"digits (round them where they are made, with goodput.core.precision.stable): "
                             + "; ".join(too_precise[:12]))


def test_the_scan_finds_chart_data_table_cells_and_printed_text():
    html = ('<div id="altair-viz-1"></div><script>vegaEmbed(el, spec);})({"datasets": {"d": '
            '[{"x": 1, "y": 3.6622612843652895}]}, "params": [{"value": 0.25}]}, {"mode": "vega-lite"});</script>')
    output = {"data": {"text/html": [html], "text/plain": ["   x  1.294659\n"]}}
    assert _output_numbers(output) == [("text/html", "3.6622612843652895"), ("text/html", "0.25")]
    assert _output_numbers({"data": {"text/plain": ["   x  1.294659\n"]}}) == [("text/plain", "1.294659")]
    assert _output_numbers({"text": ["94595.84 kbit/s\n"]}) == [("stream", "94595.84")]


# --- fits solved the same way everywhere --------------------------------------------------------

FITS = """
import json
from goodput.analysis import am243x
from goodput.models import ethernet, pcie_latency, pcie_transactions, srio
from goodput.render.chapters import spi
out = {}
fit, curve, saturation = ethernet.fit_keystone_10gbe()
out["ethernet"] = [fit.values, fit.residuals.tolist(), curve.tolist(), saturation]
out["srio"] = [[f.result.values, f.result.residuals.tolist()] for f in srio.fits()]
out["srio-hockney"] = repr(srio.hockney_fit(19, 4, "L2"))
for kind in ("write", "read"):
    fit, curves = pcie_latency.fit_an3935(kind)
    out["pcie-" + kind] = [fit.values, fit.residuals.tolist()]
out["test15"] = pcie_transactions.fit_test15()[0].values
out["crypto"] = {k: repr(h) for k, h in am243x.crypto_fits().items()}
out["spi"] = spi.dma_overhead()
print(json.dumps(out, sort_keys=True))
"""


def _fits(env: dict[str, str]) -> dict:
    run = subprocess.run([sys.executable, "-c", FITS], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, **env}, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.slow
def test_every_fit_gives_the_same_digits_with_another_cpus_simd_kernels():
    here, other = _fits({}), _fits(OTHER_CPU)
    assert here.keys() == other.keys()
    for name in here:
        assert here[name] == other[name], name


def test_how_to_read_states_the_rule_the_book_follows():
    text = (ROOT / "book" / "how-to-read.md").read_text(encoding="utf-8")
    assert f"at most {SIGNIFICANT_DIGITS} significant digits" in text


def test_the_scan_leaves_a_check_tables_notes_and_reads_its_other_cells():
    html = ('<table><tr><td data-label="model">148810</td><td data-label="note"><span>Exactly 148809.52 '
            'frames/s, cut</span></td><td data-label="x">3.6622612843652895</td></tr></table>')
    assert _output_numbers({"data": {"text/html": [html]}}) == [("text/html", "148810"),
                                                                ("text/html", "3.6622612843652895")]
