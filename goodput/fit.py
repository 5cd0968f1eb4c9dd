"""Fitting the free parameters of a model to measured points, with residuals.

Small on purpose: least squares on relative (log) residuals, so small and large
transfers weigh the same, found by a grid over the bounds and then golden-section
refinement one parameter at a time. The models stay sympy expressions; this only
chooses their free values.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

__all__ = ["Bound", "Fit", "fit"]


@dataclass(frozen=True)
class Bound:
    """A free parameter and the range it is searched in."""

    name: str
    low: float
    high: float
    unit: str


@dataclass(frozen=True)
class Fit:
    """Best values of the free parameters, and how well the model then matches."""

    values: dict[str, float]
    units: dict[str, str]
    residuals: np.ndarray  # measured / model - 1, one per point
    rms_residual: float

    @property
    def worst_residual(self) -> float:
        return float(np.max(np.abs(self.residuals)))

    def describe(self) -> str:
        fitted = ", ".join(f"{k} = {v:.4g} {self.units[k]}" for k, v in self.values.items())
        return (f"{fitted}; rms residual {self.rms_residual:.1%}, worst {self.worst_residual:.1%} "
                f"over {len(self.residuals)} points")


def fit(model: Callable[..., np.ndarray], measured: Sequence[float], bounds: Sequence[Bound],
        grid_points: int = 41, sweeps: int = 4) -> Fit:
    """Parameter values within ``bounds`` minimising ``sum(log(measured / model(*values))**2)``.

    ``model(*values)`` returns the prediction for every measured point.
    """
    y = np.asarray(measured, dtype=float)
    if np.any(y <= 0) or any(b.low >= b.high for b in bounds):
        raise ValueError("fit needs positive measurements and low < high for every bound")

    def cost(values) -> float:
        predicted = np.asarray(model(*values), dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            c = float(np.sum(np.log(y / predicted) ** 2))
        return c if math.isfinite(c) else math.inf

    grids = [np.linspace(b.low, b.high, grid_points) for b in bounds]
    best = min(itertools.product(*grids), key=cost)
    best = list(best)
    step = [(b.high - b.low) / (grid_points - 1) for b in bounds]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(sweeps):
        for i, b in enumerate(bounds):
            lo, hi = max(b.low, best[i] - step[i]), min(b.high, best[i] + step[i])

            def along(v, i=i):
                trial = list(best)
                trial[i] = v
                return cost(trial)

            for _ in range(60):
                c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
                if along(c) <= along(d):
                    hi = d
                else:
                    lo = c
            best[i] = (lo + hi) / 2
        step = [s / 4 for s in step]
    residuals = y / np.asarray(model(*best), dtype=float) - 1
    return Fit({b.name: v for b, v in zip(bounds, best)}, {b.name: b.unit for b in bounds},
               residuals, float(np.sqrt(np.mean(residuals ** 2))))
