"""How many digits the book keeps: the same output on every machine.

numpy and OpenBLAS choose SIMD kernels per CPU, and libm's transcendental
functions are not correctly rounded, so the last digits of a computed value can
differ between the machine that wrote a notebook and the one that checks it.
What a notebook shows or hands to a chart is therefore rounded once, where it
is made, to :data:`SIGNIFICANT_DIGITS` significant digits, with :func:`stable`.

Whole numbers (byte counts, sizes, cycle counts) pass unchanged, whatever their
length: they come from integer arithmetic and are the same everywhere. So does
anything that is not a float (text, integers, booleans).

:func:`significant_digits` counts the digits of a number as printed; the tests
use it to hold every committed notebook output to the rule.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["SIGNIFICANT_DIGITS", "stable", "significant_digits", "numbers_in"]

#: Significant digits of every non-integer value a notebook shows or hands to a chart. Fitted
#: values agree across CPUs to about 1e-8 relative even before the fits were made deterministic;
#: six digits leave a margin of two and are more than any source document prints.
SIGNIFICANT_DIGITS = 6


def _round(x: float, digits: int) -> float:
    if not math.isfinite(x) or x.is_integer():
        return x
    return float(f"{x:.{digits - 1}e}")


def stable(value: Any, digits: int = SIGNIFICANT_DIGITS) -> Any:
    """``value`` with every non-integer float rounded to ``digits`` significant digits.

    Takes a float, a numpy array or scalar, a pandas Series or DataFrame (every column and the
    index), or a dict, list or tuple of these; returns the same kind. Anything else is returned
    as it is.
    """
    if digits < 1:
        raise ValueError(f"stable needs at least one significant digit, not {digits}")
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        return _round(value, digits)
    if isinstance(value, np.floating):
        return type(value)(_round(float(value), digits))
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            return np.array([_round(float(x), digits) for x in value.ravel()],
                            dtype=value.dtype).reshape(value.shape)
        if value.dtype.kind == "O":
            return np.array([stable(x, digits) for x in value.ravel()], dtype=object).reshape(value.shape)
        return value
    if isinstance(value, pd.DataFrame):
        out = value.copy()
        for i in range(out.shape[1]):
            if out.dtypes.iloc[i].kind in "fO":
                out.isetitem(i, stable(out.iloc[:, i].to_numpy(), digits))
        out.index = stable(out.index, digits)
        return out
    if isinstance(value, pd.Series):
        return pd.Series(stable(value.to_numpy(), digits) if value.dtype.kind in "fO" else value.to_numpy(),
                         index=stable(value.index, digits), name=value.name)
    if isinstance(value, pd.Index):
        return pd.Index(stable(value.to_numpy(), digits), name=value.name) if value.dtype.kind == "f" else value
    if isinstance(value, dict):
        return {k: stable(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(stable(v, digits) for v in value)
    return value


# A number as it is printed: sign, digits with an optional fraction, optional exponent. Not part
# of a longer word or dotted string (identifiers, hex ids, versions like 1.14.0, addresses).
_NUMBER = re.compile(r"""
    (?<![\w.])                 # not inside a word, a version or an address
    [-+]?
    (?P<whole>\d*)             # digits before the point
    (?:\.(?P<fraction>\d*))?   # the fraction, if any
    (?:[eE][-+]?\d+)?          # an exponent
    (?![\w.])
""", re.VERBOSE)


def significant_digits(text: str) -> int:
    """Significant digits of the number ``text`` as printed; 0 for a whole number.

    Leading zeros and trailing zeros of the fraction do not count (``0.0120`` has 2,
    ``26.215000`` has 5); a whole number has none to count (``67108864``, ``1520.00``, ``1e6``).
    """
    match = _NUMBER.fullmatch(text.strip())
    if not match or not (match.group("whole") or match.group("fraction")):
        raise ValueError(f"not a number: {text!r}")
    if float(text).is_integer():
        return 0
    fraction = (match.group("fraction") or "").rstrip("0")
    return len((match.group("whole") + fraction).lstrip("0"))


def numbers_in(text: str) -> list[str]:
    """Every number printed in ``text``, as printed."""
    return [m.group(0) for m in _NUMBER.finditer(text) if m.group("whole") or m.group("fraction")]
