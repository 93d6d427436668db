"""A rate with its interval: k events in n trials (shared by every layer that reports one).

Wilson score interval for k of n (well behaved at k = 0 and small n); for k = 0 the exact
one-sided 95% upper bound 1 - 0.05**(1/n) (about 3/n, the "rule of three").
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    k: int
    n: int
    low: float
    high: float

    @property
    def p(self) -> float:
        return self.k / self.n if self.n else 0.0

    def __str__(self) -> str:
        if self.n == 0:
            return "no runs"
        if self.k == 0:
            return f"0/{self.n} (< {100 * self.high:.1f}% at 95%)"
        return f"{self.k}/{self.n} = {100 * self.p:.0f}% [{100 * self.low:.0f}-{100 * self.high:.0f}%]"


Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion k/n."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def zero_upper(n: int, confidence: float = 0.95) -> float:
    """Exact upper bound on the rate after 0 events in n trials (~3/n at 95%)."""
    return 1.0 - (1.0 - confidence) ** (1.0 / n) if n > 0 else 1.0


def rate(k: int, n: int) -> Rate:
    """k of n with its 95% interval (Wilson; the exact one-sided bound when k is 0)."""
    low, high = wilson(k, n)
    if k == 0 and n > 0:
        low, high = 0.0, zero_upper(n)
    return Rate(k, n, low, high)
