"""The inputs of a live figure, and what each is for the page's control panel to draw.

A figure's inputs are declared here: a :class:`Slider` over a model
:class:`~goodput.core.params.Parameter`, a :class:`Choice` among a few values, or a
:class:`LinkList` the reader composes; each gives altair its parameter (``param()``,
with altair's own widget, for JupyterLab). :func:`control` turns that declaration into
the plain description the book's script (``book/_static/goodput-live.js``) builds
the panel from:

- a set of options (declared, or a whole-number range of at most
  :data:`SEGMENTS` values) is a row of segmented buttons, or a select when longer;
- the options off/on (0 and 1) are a toggle;
- anything else is a number box with a slider beside it and the parameter's
  presets as buttons; the box refuses a typed value outside the range with the
  same words the command line uses (:meth:`Parameter.describe_range`).

Nothing here draws: the description is data, so tests can hold the panel to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import altair as alt

from goodput.core.errors import ParameterError
from goodput.core.params import Parameter

__all__ = ["Slider", "Choice", "LinkList", "SEGMENTS", "LOG_SLIDER_SPAN", "LOG_SLIDER_DEFAULT", "control",
           "grid_values"]

#: The most options shown as segmented buttons; more become a select.
SEGMENTS = 6
#: A continuous range spanning at least this factor slides on a log scale (1 Mbit/s to 100 Gbit/s)
#: when its starting value sits in the lowest :data:`LOG_SLIDER_DEFAULT` of a linear slider.
LOG_SLIDER_SPAN = 1000
LOG_SLIDER_DEFAULT = 0.2


@dataclass(frozen=True)
class Slider:
    """A range slider bound to a model :class:`~goodput.core.params.Parameter`.

    ``minimum``/``maximum``/``step``/``value`` narrow the parameter's own range
    for the page; they may not widen it.
    """

    parameter: Parameter
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    value: float | None = None
    #: Whether the page draws a slider beside the number box: not for a value typed or picked from its presets
    #: (the bytes to move, 1 byte to 1 TiB, which no slider sets to the byte).
    track: bool = True
    #: The slider's scale, ``"log"`` or ``"linear"``, where the page's own choice (:func:`_scale`, by the
    #: starting value) would not do: a limit that starts at "no limit", its far end, and is set near the other.
    scale: str | None = None

    def __post_init__(self):
        if self.scale not in (None, "log", "linear"):
            raise ValueError(f"{self.parameter.name}: a slider's scale is 'log' or 'linear', not {self.scale!r}")
        p = self.parameter
        for x in (self.minimum, self.maximum, self.value):
            if x is not None:
                p.check(x)

    @property
    def name(self) -> str:
        return self.parameter.name

    def check(self, value: float) -> float:
        """``value`` if the parameter allows it and it lies within this slider's narrower range."""
        p = self.parameter
        value = p.check(value)
        low = self.minimum if self.minimum is not None else p.minimum
        high = self.maximum if self.maximum is not None else p.maximum
        if value < low or value > high:
            raise ParameterError(p.name, value, f"from {low:g} to {high:g} {p.unit} on this page")
        return value

    def bounds(self) -> tuple[float, float]:
        """The lowest and highest value the slider reaches."""
        p = self.parameter
        low = self.minimum if self.minimum is not None else p.lowest_step(self.step)
        return low, self.maximum if self.maximum is not None else p.maximum

    def options(self) -> tuple:
        """The values the input takes where its parameter is a set of them (lanes, MPS), within this slider's
        range; empty where the parameter takes a range."""
        low, high = self.bounds()
        return tuple(v for v in self.parameter.values() if low <= v <= high)

    def param(self) -> alt.Parameter:
        p = self.parameter
        low, high = self.bounds()
        return alt.param(
            name=p.name,
            value=self.value if self.value is not None else p.default,
            bind=alt.binding_range(
                min=low,
                max=high,
                step=self.step or p.step,
                name=p.label + " ",
            ),
        )


@dataclass(frozen=True)
class Choice:
    """A drop-down bound to a parameter whose value is one of ``options``."""

    name: str
    options: Sequence[str]
    value: str
    label: str
    labels: Sequence[str] = field(default_factory=tuple)

    def param(self) -> alt.Parameter:
        return alt.param(
            name=self.name,
            value=self.value,
            bind=alt.binding_select(
                options=list(self.options),
                name=self.label + " ",
                **({"labels": list(self.labels)} if self.labels else {}),
            ),
        )


@dataclass(frozen=True)
class LinkList:
    """A list of link configurations the reader composes (adds, changes, removes), drawn as rows of
    selects: ``families`` describes what each row may be (:func:`goodput.render.chapters.choose_a_link.families`),
    ``value`` the starting list as :func:`goodput.analysis.choose.encode` writes it, ``dataset`` the chart's data
    the rows replace (each with ``extra`` columns added, the sizes a curve is drawn at; ``fill`` the columns
    each row starts from, which its own settings replace). A list ``shown`` no is not drawn: its rows follow
    the state another figure's composer of the same name sets."""

    name: str
    label: str
    families: Sequence[dict]
    value: str
    dataset: str
    extra: Mapping[str, object] = field(default_factory=dict)
    fill: Mapping[str, object] = field(default_factory=dict)
    shown: bool = True
    #: What one entry of the list is called ("link", "message"): the composer's buttons and notes say it.
    item: str = "link"
    #: A column the page adds up over the reader's rows, and what the sum is: ``{"column": ..., "text": "load the
    #: bus", "unit": "%", "limit": 100, "over": "the bus cannot carry them"}`` (over ``limit`` it says ``over``).
    total: Mapping[str, object] = field(default_factory=dict)
    #: Whether a box over the list's rows opens on the first of them (else on its headline case).
    leads: bool = True

    def param(self) -> None:
        """No altair parameter: the rows are the chart's data, not a signal."""
        return None


def grid_values(slider: Slider) -> list[float] | None:
    """The values a whole-number slider reaches when there are at most :data:`SEGMENTS` of them."""
    p = slider.parameter
    if not p.integer:
        return None
    low, high = slider.bounds()
    step = slider.step or p.step
    count = math.floor(round((high - low) / step, 9)) + 1
    if count > SEGMENTS:
        return None
    return [int(low + i * step) for i in range(count)]


def _unit_label(value: float, unit: str) -> str:
    text = f"{value:g}"
    return f"{text} {unit}" if unit else text


def _number(value: float) -> Any:
    return int(value) if float(value).is_integer() else float(value)


def _parameter_control(slider: Slider, key: str) -> dict:
    p: Parameter = slider.parameter
    value = slider.value if slider.value is not None else p.default
    low, high = slider.bounds()
    out: dict[str, Any] = {"key": key, "signal": p.name, "label": p.title, "unit": p.unit,
                           "value": _number(value), "allowed": _allowed(slider)}
    options = [(v, lab) for v, lab in p.options if low <= v <= high] if p.options else None
    if options is None:
        grid = grid_values(slider)
        options = [(v, _unit_label(v, p.unit)) for v in grid] if grid else None
    if options is not None:
        values = [v for v, _ in options]
        if sorted(values) == [0, 1] and len(options) == 2:
            # off (0) first, then on (1): the page's switch is checked for the second
            out.update(kind="toggle", options=[{"value": v, "label": lab} for v, lab in sorted(options)])
        else:
            out.update(kind="segmented" if len(options) <= SEGMENTS else "select",
                       options=[{"value": _number(v), "label": lab} for v, lab in options])
        return out
    slider_low = low
    out.update(kind="number", min=_number(p.minimum if slider.minimum is None else slider.minimum),
               max=_number(high), exclusiveMin=bool(p.exclusive_minimum and slider.minimum is None),
               integer=p.integer, step=_number(slider.step or p.step), sliderMin=_number(slider_low),
               scale=slider.scale or _scale(slider_low, high, value), track=slider.track,
               presets=[{"value": _number(v), "label": lab} for v, lab in p.presets if low <= v <= high])
    return out


def _scale(low: float, high: float, value: float) -> str:
    """``"log"`` for a wide range whose starting value a linear slider would crowd at its left end."""
    wide = low > 0 and high / low >= LOG_SLIDER_SPAN
    return "log" if wide and (value - low) / (high - low) < LOG_SLIDER_DEFAULT else "linear"


def _allowed(slider: Slider) -> str:
    """The values this control accepts, in the words of the command line's errors."""
    p = slider.parameter
    if p.options or (slider.minimum is None and slider.maximum is None):
        return p.describe_range()
    low = slider.minimum if slider.minimum is not None else p.minimum
    high = slider.maximum if slider.maximum is not None else p.maximum
    kind = "an integer" if p.integer else "a number"
    above = "above" if p.exclusive_minimum and slider.minimum is None else "from"
    return f"{kind} {above} {low:g} to {high:g} {p.unit}".rstrip()


def control(item: Slider | Choice | LinkList, prefix: str = "") -> dict:
    """The description of one control: its state key (``prefix`` + name), the chart signal it
    sets, its label, unit, value and what kind of control shows it."""
    if isinstance(item, LinkList):
        return {"key": prefix + item.name, "signal": None, "label": item.label, "unit": "", "value": item.value,
                "kind": "links", "families": list(item.families), "dataset": item.dataset, "extra": dict(item.extra),
                "fill": dict(item.fill), "shown": item.shown, "item": item.item, "total": dict(item.total),
                "leads": item.leads,
                "allowed": f"{item.item}s of the kinds offered, each with one of its settings' values"}
    if isinstance(item, Choice):
        labels = list(item.labels) or list(item.options)
        options = [{"value": v, "label": lab} for v, lab in zip(item.options, labels)]
        return {"key": prefix + item.name, "signal": item.name, "label": item.label, "unit": "",
                "value": item.value, "kind": "segmented" if len(options) <= SEGMENTS else "select",
                "options": options, "allowed": "one of " + ", ".join(map(str, item.options))}
    return _parameter_control(item, prefix + item.name)
