"""A race is a probability: hang rates with honest intervals.

A rate of k in n with its interval is `model.rate.rate` (re-exported here): every layer that
shows one builds it the same way. Here: exact tests, Poisson rates, their ratio and the SPRT.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gvlstress.model.rate import Rate
from gvlstress.model.rate import rate as rate  # re-exported: campaigns, bench and tests ask here


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Two-sided p-value of Fisher's exact test for the 2x2 table [[a, b], [c, d]].

    Rows are two runs, columns hung / not hung. Sums the hypergeometric probabilities of every
    table with the same margins that is no more likely than the observed one.
    """
    if min(a, b, c, d) < 0:
        raise ValueError("counts must be >= 0")
    row1, col1, n = a + b, a + c, a + b + c + d
    if n == 0:
        return 1.0
    total = math.comb(n, col1)

    def prob(x: int) -> float:
        return math.comb(row1, x) * math.comb(n - row1, col1 - x) / total

    observed = prob(a)
    lo, hi = max(0, col1 - (n - row1)), min(row1, col1)
    p = sum(q for x in range(lo, hi + 1) if (q := prob(x)) <= observed * (1 + 1e-7))
    return min(1.0, p)


def poisson_rate(k: int, exposure: float, confidence: float = 0.95) -> tuple[float, float, float]:
    """Events per unit of exposure with its exact (Garwood) interval: (rate, low, high)."""
    from scipy.stats import chi2  # exact statistics from a well-kept library

    if exposure <= 0:
        return 0.0, 0.0, math.inf
    a = 1 - confidence
    low = chi2.ppf(a / 2, 2 * k) / 2 if k > 0 else 0.0
    high = chi2.ppf(1 - a / 2, 2 * k + 2) / 2
    return k / exposure, float(low) / exposure, float(high) / exposure


def hazard(hangs: int, batches: int) -> Rate:
    """Hangs per batch with its interval: the one definition every campaign uses (a wave ends at
    its first hang, so this is hung waves per batch run)."""
    return rate(hangs, max(batches, 1))


def per_cpu_minute(hangs: int, cpu_minutes: float) -> tuple[float, float, float] | None:
    """Hangs per CPU-minute of the workers, exact 95% (rate, low, high); None when no CPU was
    used at all (nothing to divide by), the same answer everywhere it is asked."""
    return poisson_rate(hangs, cpu_minutes) if cpu_minutes > 0 else None


def rate_ratio(
    k1: int, t1: float, k2: int, t2: float, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Ratio of two Poisson rates (k1/t1) / (k2/t2) with its exact conditional interval.

    Given n = k1 + k2 events, k1 is Binomial(n, p) with p = t1 R / (t1 R + t2) for the true
    ratio R; the Clopper-Pearson interval of p (scipy) maps to R = p / (1 - p) * t2 / t1.
    With k2 = 0 the ratio is infinite and only its lower bound says anything.
    """
    from scipy.stats import binomtest

    if t1 <= 0 or t2 <= 0 or k1 + k2 == 0:
        return math.nan, 0.0, math.inf
    ci = binomtest(k1, k1 + k2).proportion_ci(confidence_level=confidence, method="exact")

    def to_ratio(p: float) -> float:
        return math.inf if p >= 1 else p / (1 - p) * t2 / t1

    ratio = math.inf if k2 == 0 else (k1 / t1) / (k2 / t2)
    return ratio, to_ratio(float(ci.low)), to_ratio(float(ci.high))


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential probability ratio test of a Bernoulli rate: H0 p = p0 against H1 p = p1
    (p1 > p0) with error rates alpha (accepting H1 when H0 holds) and beta (the reverse).

    After k events in n trials the log-likelihood ratio is k ln(p1/p0) + (n-k) ln((1-p1)/(1-p0));
    it decides H1 at or above ln((1-beta)/alpha) and H0 at or below ln(beta/(1-alpha)), usually
    long before a fixed-size test of the same error rates would have its sample (fishtest's way).
    """

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.p0 < self.p1 < 1 and 0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("need 0 < p0 < p1 < 1 and 0 < alpha, beta < 0.5")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, k: int, n: int) -> float:
        return k * math.log(self.p1 / self.p0) + (n - k) * math.log((1 - self.p1) / (1 - self.p0))

    def decide(self, k: int, n: int) -> str | None:
        """'H1', 'H0', or None (go on)."""
        z = self.llr(k, n)
        if z >= self.upper:
            return "H1"
        if z <= self.lower:
            return "H0"
        return None

    def first_decision(self, outcomes: list[bool]) -> tuple[str | None, int]:
        """Run the test over `outcomes` in order: (decision or None, trials used)."""
        k = 0
        for n, event in enumerate(outcomes, start=1):
            k += event
            if (d := self.decide(k, n)) is not None:
                return d, n
        return None, len(outcomes)

    def expected_trials(self) -> tuple[float, float]:
        """Wald's approximate average sample number under H0 and under H1."""
        a, b = self.upper, self.lower
        step1, step0 = math.log(self.p1 / self.p0), math.log((1 - self.p1) / (1 - self.p0))
        mean0 = self.p0 * step1 + (1 - self.p0) * step0
        mean1 = self.p1 * step1 + (1 - self.p1) * step0
        n0 = ((1 - self.alpha) * b + self.alpha * a) / mean0
        n1 = ((1 - self.beta) * a + self.beta * b) / mean1
        return n0, n1

    def fixed_trials(self, limit: int = 1_000_000) -> int:
        """Trials a fixed-size test with the same error rates needs: the least n with a cut c
        such that P(X >= c | p0) <= alpha and P(X < c | p1) <= beta (exact binomial, scipy)."""
        from scipy.stats import binom

        def works(n: int) -> bool:
            c = int(binom.isf(self.alpha, n, self.p0)) + 1
            while c > 0 and binom.sf(c - 2, n, self.p0) <= self.alpha:
                c -= 1  # the least cut that keeps P(X >= c | p0) <= alpha
            return bool(
                binom.sf(c - 1, n, self.p0) <= self.alpha and binom.cdf(c - 1, n, self.p1) <= self.beta
            )

        prev, n = 0, 1
        while n <= limit:  # coarse steps up, then the first n in the last step
            if works(n):
                return next(m for m in range(prev + 1, n + 1) if works(m))
            prev, n = n, (n + 1 if n < 64 else int(n * 1.05) + 1)
        raise ValueError("no fixed-size test within the limit")
