"""The 95% interval of a mean over duplicate sets, clustered by seed.

The games of one set share their walls, so they are not independent: the set is the unit.
Each set gives one value (a bot's mean over its seats in the set's four games, or the
difference of two bots' means: paired by set), and the interval is Student's t over those
values.  With a handful of sets it is wide, as it should be; it is checked against
simulations whose truth is known (tests/arena/test_interval.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Student's t, 97.5th percentile, for 1-30 degrees of freedom; above, a series in 1/df.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)
_Z975 = 1.959964


def t975(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom."""
    if df < 1:
        raise ValueError("an interval needs at least two values")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975  # Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5): within 1e-4 above 30
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean and its 95% interval (low == high == mean when there is one value only)."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_data(self) -> dict[str, float | int | None]:
        known = self.n > 1
        return {"mean": self.mean, "low": self.low if known else None, "high": self.high if known else None,
                "sets": self.n}


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of the per-set values and its 95% t interval."""
    n = len(values)
    if n == 0:
        raise ValueError("no sets yet")
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean, 1)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)
