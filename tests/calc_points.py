"""Input points the calculation tests try on every chapter: the defaults, every input at the
low end of its slider, every input at the high end, and a point a third of the way up."""

from __future__ import annotations


def _on_step(slider, x):
    p = slider.parameter
    if p.options:  # the option nearest x
        return min(p.values(), key=lambda v: (abs(v - x), v))
    low, _ = slider.bounds()
    step = slider.step or p.step
    value = low + round((x - low) / step) * step
    return int(round(value)) if p.integer else round(value, 9)


def points(calc) -> dict[str, dict[str, float]]:
    low = {s.name: s.bounds()[0] for s in calc.inputs}
    high = {s.name: s.bounds()[1] for s in calc.inputs}
    third = {s.name: _on_step(s, low[s.name] + (high[s.name] - low[s.name]) / 3) for s in calc.inputs}
    return {"defaults": calc.defaults(), "low": low, "high": high, "third": third}
