"""A rate with its interval: k events in n trials (shared by every layer that reports one)."""

from __future__ import annotations

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
