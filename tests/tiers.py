"""Which cases of a parametrized test ``make test-fast`` runs: the first few; ``make test`` runs them all.

A family of cases that compares a model two ways at many points costs seconds in the quick loop and
finds what its first cases find unless the change is at one of the others; ``make test`` runs every case
before anything lands.
"""

from __future__ import annotations

import pytest


def fast_first(cases, n: int = 1) -> list:
    """``cases`` with all but the first ``n`` marked ``slow`` (left out of make test-fast)."""
    cases = list(cases)
    if not 1 <= n <= len(cases):
        raise ValueError(f"fast_first: n={n} of {len(cases)} cases; keep at least one and at most all in the quick loop")
    return [*cases[:n], *(pytest.param(c, marks=pytest.mark.slow) for c in cases[n:])]
