"""ipywidgets panels: what only a live kernel can add to a chapter.

A panel shows the model's formula with the reader's values substituted (LaTeX,
printed by sympy) and the results, recomputed by the model's numeric functions
whenever a widget changes. The sliders take their ranges from the model's
:class:`~goodput.params.Parameter` declarations, like the altair sliders do.
"""

from __future__ import annotations

import ipywidgets as widgets
import sympy as sp

from .. import coding
from ..params import Parameter
from .formula import substituted_latex

__all__ = ["slider_for", "coding_panel"]


def slider_for(p: Parameter, value: float | None = None, maximum: float | None = None):
    """An ipywidgets slider over parameter ``p``'s allowed range."""
    low = p.minimum + p.step if p.exclusive_minimum else p.minimum
    high = maximum if maximum is not None else p.maximum
    kind = widgets.IntSlider if p.integer else widgets.FloatSlider
    return kind(
        value=value if value is not None else p.default,
        min=low, max=high, step=p.step, description=p.label,
        style={"description_width": "initial"}, continuous_update=True,
        layout=widgets.Layout(width="480px"),
    )


def _coding_latex(code_key: str, rate: float, n_lanes: int) -> str:
    code = coding.CODES[code_key]
    expr = coding.bit_rate_expr()
    numbers = substituted_latex(expr, {
        coding.line_rate: float(rate), coding.lanes: int(n_lanes),
        coding.data_bits: code.data_bits, coding.coded_bits: code.coded_bits,
    })
    value = coding.bit_rate_gbit_s(rate, n_lanes, code_key)
    return f"$$B = {sp.latex(expr)} = {numbers} = {value:.6g}\\ \\mathrm{{Gbit/s}}$$"


def coding_panel(code: str = "8b10b", line_rate_gbaud: float = 2.5, lanes: int = 1):
    """Line rate, lanes and code in; formula with values, bit rate and byte rate out."""
    rate_w = slider_for(coding.PARAMETERS["line_rate_gbaud"], line_rate_gbaud, maximum=32.0)
    lanes_w = slider_for(coding.PARAMETERS["lanes"], lanes, maximum=16)
    code_w = widgets.Dropdown(
        options=[(c.name, c.key) for c in coding.CODES.values()], value=code,
        description="line code",
    )
    out = widgets.HTMLMath()

    def update(_change=None):
        r = coding.link_rates(code_w.value, rate_w.value, lanes_w.value)
        out.value = (
            _coding_latex(code_w.value, rate_w.value, lanes_w.value)
            + f"<p>{1000 * r['goodput_gbyte_s']:.6g} MB/s per direction; "
            f"efficiency {r['efficiency']:.4%} of {r['signalling_rate_gbaud']:g} Gbaud.</p>"
        )

    for w in (rate_w, lanes_w, code_w):
        w.observe(update, names="value")
    update()
    return widgets.VBox([code_w, rate_w, lanes_w, out])
