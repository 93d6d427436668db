"""`gvlstress sweep`: one run per cell of a grid (workers x threads x amplifiers), a hazard table.

Which configuration makes a race frequent is a measurement, not a guess: the lock-order
yardstick (hangs per 1000 batches from 1 x 2 to 5 x 16) is one sweep. Pure parts here (the
grid, the amplifier presets, each cell's numbers from its run, as `model.campaign.SweepCell`);
the API runs the cells and the reporters draw the table and the heatmap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gvlstress.campaign import stats
from gvlstress.errors import UsageError
from gvlstress.model import RunResult
from gvlstress.model.campaign import SweepCell
from gvlstress.scenario import Scenario, check_setting

AMPLIFIERS: Mapping[str, Mapping[str, Any]] = {
    "none": {},
    "chaos": {"chaos": 1},
    "squeeze": {"squeeze": 1},
    "burners": {"burners": 2},
    "quota": {"cpu_quota": 0.5},
    "chaos+burners": {"chaos": 1, "burners": 2},
    "chaos+squeeze": {"chaos": 1, "squeeze": 1},
    "gang": {"gang": 30},
    "chaos+gang": {"chaos": 1, "gang": 30},
    "delays": {"delays": 1},
    "switch": {"switch_interval": 0.0001},
}
"""Named amplifier settings a sweep axis can take (the values of `run`'s options)."""


def parse_list(text: str, option: str, setting: str) -> tuple[int, ...]:
    """'1,2,5' -> (1, 2, 5): distinct, at most 12 values, each within the bound `run` enforces
    for `setting` (a sweep never starts what a run would refuse)."""
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise UsageError(
            f"{option} {text!r}: expected whole numbers separated by commas (e.g. 2,4,8)"
        ) from None
    if not values or len(values) > 12 or len(set(values)) != len(values):
        raise UsageError(f"{option} {text!r}: 1 to 12 distinct numbers")
    for v in values:
        check_setting(setting, v, f"{option} {v}")
    return values


def parse_amplifiers(text: str) -> tuple[str, ...]:
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    unknown = [n for n in names if n not in AMPLIFIERS]
    if unknown or not names or len(set(names)) != len(names):
        raise UsageError(
            f"--amplifiers {text!r}: unknown or repeated {unknown or names}",
            hint=f"choose from {', '.join(AMPLIFIERS)}",
        )
    return names


def cells(
    base: Scenario, workers: tuple[int, ...], rayon: tuple[int, ...], amplifiers: tuple[str, ...]
) -> list[tuple[int, int, str, Scenario]]:
    """The grid in order (amplifier, workers, threads), each with its scenario."""
    out = []
    for amp in amplifiers:
        for w in workers:
            for r in rayon:
                name = f"{base.name}-w{w}-r{r}-{amp}"
                out.append(
                    (w, r, amp, dataclasses.replace(base, name=name, workers=w, rayon=r, **AMPLIFIERS[amp]))
                )
    return out


def measure(workers: int, rayon: int, amplifier: str, run: RunResult) -> SweepCell:
    """A cell's numbers from its run."""
    hung, batches, cpu = run.hung, run.batches, run.cpu_minutes
    return SweepCell(
        workers=workers,
        rayon=rayon,
        amplifier=amplifier,
        run_dir=run.run_dir,
        waves=len(run.waves),
        hung=hung,
        batches=batches,
        cpu_minutes=cpu,
        hazard=stats.hazard(hung, batches),
        per_cpu_minute=stats.per_cpu_minute(hung, cpu),
    )
