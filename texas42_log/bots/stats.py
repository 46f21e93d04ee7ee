"""The statistics of a duplicate arena: means with Student-t intervals, and
McNemar's exact test. Standard library only (no SciPy for two formulas).

Pure: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

__all__ = ["Interval", "mean_interval", "t_quantile", "mcnemar_exact"]


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its confidence interval (``low``, ``high``) over ``n`` values."""

    mean: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return {
            "mean": round(self.mean, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "n": self.n,
        }


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom: exact for
    1 and 2, else the Cornish–Fisher expansion around the normal quantile (0.004
    under the tables' 3.182 at 3 degrees of freedom, within 0.0005 from 5 on)."""
    if not 0 < p < 1 or df < 1:
        raise ValueError("a quantile needs 0 < p < 1 and at least one degree of freedom")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_interval(values: list[float], confidence: float = 0.95) -> Interval:
    """The mean of ``values`` with its two-sided Student-t confidence interval
    (a single value has an interval of no width: nothing to estimate it from)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean, 1)
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half, n)


def mcnemar_exact(b: int, c: int) -> float:
    """McNemar's exact two-sided p-value for ``b`` and ``c`` discordant pairs: the
    chance, were both bots equal, of a split at least this uneven (binomial, ½)."""
    if b < 0 or c < 0:
        raise ValueError("counts are not negative")
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))
