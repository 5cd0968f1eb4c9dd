"""ipywidgets panels: what only a live kernel can add to a chapter.

A panel shows the model's formula with the reader's values substituted (LaTeX,
printed by sympy) and the results, or a chapter's calculated table (:func:`calculation_panel`),
recomputed by the model's numeric functions whenever a widget changes. The sliders take their
ranges from the model's :class:`~goodput.core.params.Parameter` declarations, like the altair
sliders do.

Every panel is a :class:`KernelPanel`: in JupyterLab it is the live panel, and says
first what it does that the book's page cannot (:attr:`KernelPanel.LEAD`): run the
model in Python and, for a chapter's calculation, export the workbook with the
panel's values. The HTML book, which has no kernel, leaves the widget out
(``_config.yml`` gives its view no priority there) and shows the panel's note
instead, so no control in the book moves without computing.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Callable

import ipywidgets as widgets
import sympy as sp

from goodput.core.params import Parameter
from goodput.models import coding, pcie
from goodput.render import workbook
from goodput.render.calculation import Calculation
from goodput.render.formula import substituted_latex

__all__ = ["KernelPanel", "slider_for", "calculation_panel", "coding_panel", "pcie_panel"]


class KernelPanel(widgets.VBox):
    """A column of widgets that runs the model in Python, and what to show where nothing can run it.

    ``children`` are the panel's controls and results; ``export``, if given, writes the chapter's
    workbook at the panel's values and returns its path (the panel offers it as a button).
    """

    NOTE = ("This panel runs the chapter's Python model in a kernel: open the notebook in JupyterLab "
            "(make lab) to use it. In the book, the live figure computes the same model in the page.")
    #: What the panel says above its controls in JupyterLab.
    LEAD = ("Python panel: these controls run the chapter's model in this notebook's kernel, with goodput's "
            "own Python functions (the ones the command line and the source checks use); the live figure "
            "computes the same model in the page, from its printed Vega expressions.")
    #: What it adds when it can export the workbook.
    EXPORT = ("Export the workbook writes the chapter's workbook, live spreadsheet formulas, with the values "
              "set here in its Inputs sheet (the book's download holds the starting values).")

    def __init__(self, children=(), export: Callable[[], Path] | None = None, **kwargs):
        lead = self.LEAD + (" " + self.EXPORT if export is not None else "")
        top = [widgets.HTML(f'<p class="goodput-panel-lead">{html.escape(lead)}</p>')]
        if export is not None:
            top.append(_export_row(export))
        super().__init__([*top, *children], **kwargs)

    def _repr_mimebundle_(self, **kwargs):
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = self.NOTE
        bundle["text/html"] = (f'<div class="admonition note goodput-kernel-panel"><p class="admonition-title">'
                               f'Python panel</p><p>{html.escape(self.NOTE)}</p></div>')
        return bundle


def _export_row(export: Callable[[], Path]):
    """A button that calls ``export`` and links the file it wrote (JupyterLab downloads it)."""
    from IPython.display import FileLink, display

    button = widgets.Button(description="Export the workbook", icon="download",
                            tooltip="Write the chapter's .xlsx with the values set in this panel",
                            layout=widgets.Layout(width="auto"))
    result = widgets.Output()

    def click(_button):
        result.clear_output()
        with result:
            path = export()
            display(FileLink(os.path.relpath(path), result_html_prefix="Written: "))

    button.on_click(click)
    return widgets.HBox([button, result])


def slider_for(p: Parameter, value: float | None = None, maximum: float | None = None,
               minimum: float | None = None):
    """An ipywidgets control over parameter ``p``'s allowed values: a drop-down of its options,
    else a slider over its range (``minimum``/``maximum`` narrow it)."""
    value = value if value is not None else p.default
    if p.options:
        return widgets.Dropdown(options=[(label, v) for v, label in p.options], value=value,
                                description=p.title, style={"description_width": "initial"})
    low = minimum if minimum is not None else p.lowest_step()
    high = maximum if maximum is not None else p.maximum
    kind = widgets.IntSlider if p.integer else widgets.FloatSlider
    return kind(
        value=value, min=low, max=high, step=p.step, description=p.label,
        style={"description_width": "initial"}, continuous_update=True,
        layout=widgets.Layout(width="480px"),
    )


def calculation_panel(calc: Calculation) -> KernelPanel:
    """A chapter's calculated table as a panel: one slider per input of ``calc`` and the table under them,
    recomputed in Python, and a button that exports the chapter's workbook at the sliders' values."""
    sliders = {s.name: slider_for(s.parameter, calc.defaults()[s.name], s.bounds()[1], s.bounds()[0])
               for s in calc.inputs}
    out = widgets.HTML()

    def values() -> dict[str, float]:
        # a float slider reports 50 as 49.99999999999999 once dragged: its value to the step's digits
        return {k: float(f"{w.value:.12g}") for k, w in sliders.items()}

    def update(_change=None):
        frame = calc.table_frame(**values())
        out.value = frame.to_html(index=False, escape=True, border=0)

    for w in sliders.values():
        w.observe(update, names="value")
    update()

    def export() -> Path:
        return workbook.export(calc.chapter, workbook.yours(calc.chapter), values())

    return KernelPanel([widgets.HTML(f"<b>{html.escape(calc.title)}</b>"), *sliders.values(), out], export=export)


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
    return KernelPanel([code_w, rate_w, lanes_w, out])


def _dropdown(parameter, value=None):
    """A dropdown of a parameter's options, its labels shown, starting at ``value`` (else its default)."""
    return widgets.Dropdown(options=[(label, v) for v, label in parameter.options],
                            value=parameter.default if value is None else value, description=parameter.label)


def pcie_panel(kind: str = "write", gen: int | None = None, lanes: int | None = None, mps: int | None = None,
               size: int = 1024):
    """A PCIe transfer: the link (the model's settings, :data:`goodput.models.pcie.LINK_PARAMETERS`; their defaults
    where not given) and size in, goodput and the line bytes of one transfer out."""
    p = pcie.LINK_PARAMETERS
    gen_w, lanes_w, mps_w = _dropdown(p["generation"], gen), _dropdown(p["lanes"], lanes), _dropdown(p["mps"], mps)
    kind_w = widgets.ToggleButtons(options=["write", "read"], value=kind)
    size_w = widgets.IntText(value=size, description="bytes")
    dllp_w = widgets.Dropdown(options=["every:4", "every:1", "spec", "none"], value="every:4",
                              description="DLLPs")
    duplex_w = widgets.Checkbox(value=False, description="both directions")
    out = widgets.HTML()

    def update(_change=None):
        try:
            link = pcie.Link(gen=gen_w.value, lanes=lanes_w.value, mps=mps_w.value, dllp=dllp_w.value)
            r = pcie.evaluate(kind_w.value, link, size_w.value, duplex=duplex_w.value)
        except ValueError as exc:
            out.value = f"<p style='color:#b00'>{exc}</p>"
            return
        rows = "".join(f"<tr><td>{k}</td><td style='text-align:right'>{v:.1f}</td></tr>"
                       for k, v in r["bytes"].items())
        out.value = (f"<p><b>{r['goodput_gbit_s']:.4g} Gbit/s</b> in {r['tlps']} TLPs; "
                     f"efficiency {r['efficiency']:.2%} of the signalling rate.</p>"
                     f"<table><tr><th>line bytes per transfer</th><th></th></tr>{rows}</table>")

    for w in (gen_w, lanes_w, mps_w, kind_w, size_w, dllp_w, duplex_w):
        w.observe(update, names="value")
    update()
    return KernelPanel([kind_w, widgets.HBox([gen_w, lanes_w, mps_w]),
                         widgets.HBox([size_w, dllp_w, duplex_w]), out])
