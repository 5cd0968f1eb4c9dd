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


# --- Hockney: time = fixed cost + bytes / bandwidth -------------------------------------------

def student_t_quantile(p: float, dof: int) -> float:
    """Quantile ``p`` (0.5 < p < 1) of Student's t with ``dof`` degrees of freedom, by bisection on
    its CDF, which is integrated with Simpson's rule (no scipy needed)."""
    if not 0.5 < p < 1 or dof < 1:
        raise ValueError("student_t_quantile needs 0.5 < p < 1 and dof >= 1")
    scale = math.exp(math.lgamma((dof + 1) / 2) - math.lgamma(dof / 2)) / math.sqrt(dof * math.pi)

    def cdf(t: float) -> float:
        x = np.linspace(0.0, t, 4001)
        y = scale * (1 + x * x / dof) ** (-(dof + 1) / 2)
        h = t / 4000
        return 0.5 + h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())

    lo, hi = 0.0, 1.0
    while cdf(hi) < p:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
    return (lo + hi) / 2


@dataclass(frozen=True)
class Hockney:
    """``t = t0 + 8 S / B``: a fixed cost (us) and a bandwidth (Mbit/s), fitted by least squares,
    with 95 % confidence intervals and the residuals of every point."""

    t0_us: float
    bandwidth_mbit_s: float
    t0_ci_us: tuple[float, float]
    bandwidth_ci_mbit_s: tuple[float, float]
    residuals_us: np.ndarray
    points: int

    @property
    def half_size_bytes(self) -> float:
        """Size at which half the bandwidth is reached (the fixed cost equals the time on the wire)."""
        return self.t0_us * self.bandwidth_mbit_s / 8

    def predict_us(self, size_bytes) -> np.ndarray:
        return self.t0_us + 8 * np.asarray(size_bytes, dtype=float) / self.bandwidth_mbit_s


def hockney(size_bytes: Sequence[float], time_us: Sequence[float]) -> Hockney:
    """Fit ``t = t0 + 8 S / B`` to times (us) of transfers of ``S`` bytes."""
    s = np.asarray(size_bytes, dtype=float)
    t = np.asarray(time_us, dtype=float)
    if len(s) != len(t) or len(s) < 3:
        raise ValueError("hockney needs at least three (size, time) points, as many sizes as times")
    if np.any(s <= 0) or np.any(t <= 0) or len(set(s)) < 2:
        raise ValueError("hockney needs positive sizes and times, and at least two different sizes")
    design = np.column_stack([np.ones_like(s), s])
    (a, b), *_ = np.linalg.lstsq(design, t, rcond=None)
    residuals = t - design @ np.array([a, b])
    dof = len(s) - 2
    sigma2 = float(residuals @ residuals) / dof
    cov = sigma2 * np.linalg.inv(design.T @ design)
    q = student_t_quantile(0.975, dof)
    da, db = q * math.sqrt(cov[0, 0]), q * math.sqrt(cov[1, 1])
    if b <= 0:
        raise ValueError("the times do not grow with size: no bandwidth to fit")
    bw = (float(8 / (b + db)), float(8 / (b - db)) if b - db > 0 else math.inf)
    return Hockney(float(a), 8 / float(b), (float(a - da), float(a + da)), bw, residuals, len(s))


__all__ += ["student_t_quantile", "Hockney", "hockney"]
