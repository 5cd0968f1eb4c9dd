"""Fitting the free parameters of a model to measured points, with residuals.

Small on purpose: least squares on symmetric relative residuals, so small and large
transfers weigh the same, found by a grid over the bounds and then golden-section
refinement one parameter at a time. The models stay sympy expressions; this only
chooses their free values.

Every fit here is solved the same way on every machine: the costs and the linear
least squares use only the operations IEEE 754 rounds exactly (+, -, *, /, sqrt)
and exactly rounded sums (:func:`math.fsum`), never libm's logarithm or a BLAS or
LAPACK kernel chosen for the CPU. The results are then rounded once, by
:func:`goodput.core.precision.stable`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import sympy as sp

from goodput.core.precision import stable
from goodput.core.symbols import maker

symbol = maker(__name__)

__all__ = [
    "Bound", "Fit", "fit", "linear_least_squares", "student_t_quantile", "hockney_size", "hockney_fixed",
    "hockney_bandwidth", "hockney_time_expr", "hockney_rate_expr", "Hockney", "hockney",
]


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
    """Parameter values within ``bounds`` minimising ``sum(r**2)`` over the points, where
    ``r = sqrt(m / p) - sqrt(p / m)`` for a measured ``m`` and a predicted ``p``.

    ``r`` is the logarithmic residual ``log(m / p)`` to within its cube over 24 (0.004 % at a
    10 % residual), symmetric in ``m`` and ``p`` as the logarithm is, and computed exactly
    rounded on every CPU. ``model(*values)`` returns the prediction for every measured point.
    The values and residuals returned are rounded by :func:`goodput.core.precision.stable`.
    """
    y = [float(v) for v in np.asarray(measured, dtype=float)]
    if any(not v > 0 for v in y) or any(b.low >= b.high for b in bounds):
        raise ValueError("fit needs positive measurements and low < high for every bound")

    def cost(values) -> float:
        predicted = np.asarray(model(*values), dtype=float).tolist()
        if any(not (p > 0 and math.isfinite(p)) for p in predicted):
            return math.inf
        return math.fsum((math.sqrt(m / p) - math.sqrt(p / m)) ** 2 for m, p in zip(y, predicted))

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
    best = stable(best)
    residuals = stable(np.asarray(y) / np.asarray(model(*best), dtype=float) - 1)
    rms = math.sqrt(math.fsum(r * r for r in residuals.tolist()) / len(residuals))
    return Fit({b.name: v for b, v in zip(bounds, best)}, {b.name: b.unit for b in bounds},
               residuals, stable(rms))


def linear_least_squares(columns: Sequence[Sequence[float]], y: Sequence[float]) -> tuple[list[float], np.ndarray]:
    """Coefficients ``c`` minimising ``|sum(c_j * columns[j]) - y|``, and the residuals, unrounded.

    Solved from the normal equations with exactly rounded sums and Gaussian elimination with
    partial pivoting, in plain floating point: the same digits on every CPU. Meant for the
    small, well-conditioned designs of this book (a constant and a size); it refuses a design
    whose columns do not determine the coefficients.
    """
    x = [[float(v) for v in c] for c in columns]
    t = [float(v) for v in y]
    if not x or any(len(c) != len(t) for c in x) or len(t) < len(x):
        raise ValueError("linear_least_squares needs as many values per column as points, and at least "
                         "as many points as columns")
    n = len(x)
    a = [[math.fsum(p * q for p, q in zip(x[i], x[j])) for j in range(n)]
         + [math.fsum(p * q for p, q in zip(x[i], t))] for i in range(n)]
    for k in range(n):
        pivot = max(range(k, n), key=lambda i: abs(a[i][k]))
        if a[pivot][k] == 0:
            raise ValueError("linear_least_squares: the columns do not determine the coefficients")
        a[k], a[pivot] = a[pivot], a[k]
        for i in range(k + 1, n):
            f = a[i][k] / a[k][k]
            a[i] = [u - f * v for u, v in zip(a[i], a[k])]
    coef = [0.0] * n
    for k in reversed(range(n)):
        coef[k] = (a[k][n] - math.fsum(a[k][j] * coef[j] for j in range(k + 1, n))) / a[k][k]
    residuals = np.array([yi - math.fsum(coef[j] * x[j][i] for j in range(n)) for i, yi in enumerate(t)])
    return coef, residuals


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


hockney_size = symbol("S", positive=True)  #: bytes of one transfer
hockney_fixed = symbol("t_0", nonnegative=True)  #: fixed cost of a transfer, us
hockney_bandwidth = symbol("B", positive=True)  #: bandwidth, Mbit/s


def hockney_time_expr() -> sp.Expr:
    """Time (us) of a transfer of ``S`` bytes: the fixed cost ``t_0`` and the bytes at ``B``."""
    return hockney_fixed + 8 * hockney_size / hockney_bandwidth


def hockney_rate_expr() -> sp.Expr:
    """What a transfer of ``S`` bytes achieves (Mbit/s): its bits over its time."""
    return 8 * hockney_size / hockney_time_expr()


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
        return stable(self.t0_us * self.bandwidth_mbit_s / 8)

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
    (a, b), residuals = linear_least_squares([[1.0] * len(s), s], t)
    if b <= 0:
        raise ValueError("the times do not grow with size: no bandwidth to fit")
    dof = len(s) - 2
    sigma2 = math.fsum(r * r for r in residuals.tolist()) / dof
    # The inverse of the 2 x 2 matrix X^T X, in closed form: [[sum s^2, -sum s], [-sum s, n]] / det.
    n, s1, s2 = len(s), math.fsum(s.tolist()), math.fsum((s * s).tolist())
    det = n * s2 - s1 * s1
    q = student_t_quantile(0.975, dof)
    da, db = q * math.sqrt(sigma2 * s2 / det), q * math.sqrt(sigma2 * n / det)
    bw = (8 / (b + db), 8 / (b - db) if b - db > 0 else math.inf)
    return Hockney(*stable((a, 8 / b, (a - da, a + da), bw, residuals)), len(s))
