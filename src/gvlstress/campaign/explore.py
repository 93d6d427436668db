"""`hunt --explore`: spread waves over settings and move them toward the most race-prone one.

A rare race's frequency depends on knobs a user cannot guess (threads per pool, workers, which
amplifier). Each setting ("arm") is a Poisson process of hangs over the CPU-minutes its workers
burn; Thompson sampling draws each arm's rate from its Gamma posterior and runs the next wave
on the arm with the highest draw, so waves drift to the arm with the most hangs per CPU-minute
while every arm keeps a chance in proportion to how plausibly it is the best. Pure functions:
the picking and ranking are tested with fixed seeds and recorded waves.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gvlstress.campaign import stats
from gvlstress.model import ArmStats, WaveResult
from gvlstress.scenario import Scenario

PRIOR_SHAPE = 1.0
PRIOR_CPU_MIN = 0.05
"""Gamma(1, 0.05) prior on hangs per CPU-minute: mean 20, so an untried arm looks promising
until a few clean waves say otherwise; weak enough that one hang outweighs it."""

GANG_MS = 30
"""The gang's slice when explored: a few batches of a fast loader, well under a stall threshold."""
SWITCH_US = 100
"""--switch-interval of the explored arm: 50x more forced GIL hand-offs than CPython's 5 ms."""
MAX_RAYON = 64
MAX_WORKERS = 16
DRAWS = 4000
"""Monte Carlo draws for each arm's probability of being the best (fixed seed: reproducible)."""


@dataclass(frozen=True)
class Arm:
    """One setting: the scenario fields it changes and the `run`/`hunt` flags that say so."""

    label: str
    changes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def flags(self) -> str:
        """The command-line flags that select this setting (appended to the hunt's command)."""
        names = {
            "rayon": "--rayon",
            "workers": "--workers",
            "chaos": "--chaos",
            "squeeze": "--squeeze",
            "burners": "--burners",
            "cpu_quota": "--cpu-quota",
            "gang": "--gang",
            "delays": "--delays",
            "switch_interval": "--switch-interval",
        }
        return " ".join(
            f"{names[k]} {v:g}" if isinstance(v, float) else f"{names[k]} {v}"
            for k, v in self.changes.items()
        )

    def apply(self, base: Scenario) -> Scenario:
        return dataclasses.replace(base, **dict(self.changes))


def arms(base: Scenario, cpus: int, quota_ok: bool, delays_ok: bool = False) -> tuple[Arm, ...]:
    """The settings to explore around `base`: thread count up and down, workers up and down
    (workers per core), each amplifier not already on (the gang when there are workers to take
    turns; the delay layer where it is installed), and the combinations that starve a thread
    inside its window."""
    rayon = base.rayon or cpus
    out = [Arm("as given")]
    if rayon * 2 <= MAX_RAYON:
        out.append(Arm(f"rayon={rayon * 2}", {"rayon": rayon * 2}))
    if rayon >= 4:
        out.append(Arm(f"rayon={rayon // 2}", {"rayon": rayon // 2}))
    if base.workers * 2 <= MAX_WORKERS:
        out.append(Arm(f"workers={base.workers * 2}", {"workers": base.workers * 2}))
    if base.workers >= 2:  # fewer workers per core: a race inside one process needs its threads at once
        out.append(Arm(f"workers={base.workers // 2}", {"workers": base.workers // 2}))
    seed = base.seed or 1
    amp: list[Arm] = []
    if base.chaos is None:
        amp.append(Arm("chaos", {"chaos": seed}))
    if base.squeeze is None:
        amp.append(Arm("squeeze=1", {"squeeze": 1}))
    if not base.burners:
        amp.append(Arm(f"burners={cpus}", {"burners": cpus}))
    if base.cpu_quota is None and quota_ok:
        cores = max(0.5, round(0.5 * cpus, 1))
        amp.append(Arm(f"cpu-quota={cores:g}", {"cpu_quota": cores}))
    if not base.gang and base.workers >= 2:
        amp.append(Arm(f"gang={GANG_MS}", {"gang": GANG_MS}))
    if base.delays is None and delays_ok and base.start_method == "spawn":
        amp.append(Arm("delays", {"delays": seed}))
    if base.switch_interval is None:  # GIL hand-offs inside a lock's window: 50x more often
        amp.append(Arm(f"switch={SWITCH_US}us", {"switch_interval": SWITCH_US / 1e6}))
    out += amp
    if base.chaos is None and not base.gang and base.workers >= 2:
        out.append(Arm(f"chaos+gang={GANG_MS}", {"chaos": seed, "gang": GANG_MS}))
    if base.chaos is None and base.squeeze is None:
        out.append(Arm("chaos+squeeze=1", {"chaos": seed, "squeeze": 1}))
    if base.chaos is None and not base.burners:
        out.append(Arm(f"chaos+burners={cpus}", {"chaos": seed, "burners": cpus}))
    return tuple(out)


def _exposure(wave: WaveResult) -> tuple[int, float, int]:
    """(hung, CPU-minutes, batches) of one wave."""
    cpu = sum(w.cpu_s or 0.0 for w in wave.workers) / 60
    return int(wave.verdict.is_hang), cpu, sum(w.iterations for w in wave.workers)


def tally(waves: Sequence[WaveResult], labels: Sequence[str]) -> list[tuple[int, float, int, int]]:
    """Per arm (in `labels` order): (hangs, CPU-minutes, batches, waves)."""
    out = {label: [0, 0.0, 0, 0] for label in labels}
    for wave in waves:
        if wave.setting in out:
            hung, cpu, batches = _exposure(wave)
            row = out[wave.setting]
            row[0] += hung
            row[1] += cpu
            row[2] += batches
            row[3] += 1
    return [(int(r[0]), float(r[1]), int(r[2]), int(r[3])) for r in out.values()]


def pick(rng: random.Random, seen: Sequence[tuple[int, float, int, int]]) -> int:
    """The next arm: any arm not yet tried (in order), else the Thompson draw's argmax."""
    for i, (_, _, _, waves) in enumerate(seen):
        if waves == 0:
            return i
    draws = [rng.gammavariate(PRIOR_SHAPE + h, 1.0 / (PRIOR_CPU_MIN + cpu)) for h, cpu, _, _ in seen]
    return max(range(len(draws)), key=draws.__getitem__)


def rank(waves: Sequence[WaveResult], candidates: Sequence[Arm]) -> tuple[ArmStats, ...]:
    """Every arm's evidence, best first by posterior mean hangs per CPU-minute; arms never run
    come last with no probability of being best (a prior is not evidence)."""
    seen = tally(waves, [a.label for a in candidates])
    tried = [i for i, row in enumerate(seen) if row[3] > 0]
    rng = random.Random(0)
    wins = [0] * len(candidates)
    for _ in range(DRAWS if tried else 0):
        draws = {
            i: rng.gammavariate(PRIOR_SHAPE + seen[i][0], 1.0 / (PRIOR_CPU_MIN + seen[i][1])) for i in tried
        }
        wins[max(draws, key=draws.__getitem__)] += 1
    given = next((i for i, a in enumerate(candidates) if not a.changes), None)

    def vs_given(h: int, cpu: float, n: int) -> tuple[float, float, float] | None:
        if given is None or n == 0 or seen[given][3] == 0:
            return None
        x = stats.rate_ratio(h, cpu, seen[given][0], seen[given][1])
        return None if x[0] != x[0] else x  # nan: neither hung

    rows = [
        ArmStats(
            label=arm.label,
            flags=arm.flags,
            waves=n,
            hangs=h,
            batches=b,
            cpu_minutes=cpu,
            per_cpu_minute=stats.per_cpu_minute(h, cpu),
            hazard=stats.hazard(h, b),
            p_best=wins[i] / DRAWS,
            vs_given=vs_given(h, cpu, n),
        )
        for i, (arm, (h, cpu, b, n)) in enumerate(zip(candidates, seen, strict=True))
    ]

    def key(r: ArmStats) -> tuple[bool, float]:
        return r.waves == 0, -(PRIOR_SHAPE + r.hangs) / (PRIOR_CPU_MIN + r.cpu_minutes)

    return tuple(sorted(rows, key=key))
