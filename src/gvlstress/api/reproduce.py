"""The standalone reproducer of a shrunk setting: what it carries, its files, and its own hang
rate, measured by running it (a plain Python program: no gvlstress in its processes)."""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gvlstress.campaign import stats
from gvlstress.campaign.shards import clean_launches
from gvlstress.campaign.shrink import HARNESS_ONLY
from gvlstress.model import Rate, RunResult
from gvlstress.model.shrink import Measured, Reproduction, Step
from gvlstress.probes import tools
from gvlstress.reporters import reproducer, shrunk
from gvlstress.reporters.files import write_atomic
from gvlstress.scenario import Scenario
from gvlstress.supervisor import worker_spec
from gvlstress.supervisor.amplifiers import squeeze_cpus
from gvlstress.system import watchdog
from gvlstress.targets.base import TargetPlan
from gvlstress.targets.standalone import recipe

FILES = ("shrink/reproduce.py", "shrink/scenario.toml", "shrink/run.sh")
_NOT_A_SETTING = ("name", "description", "source", "report_dir", "keep_core", "core_limit", "waves")
TIMEOUT_FLOOR_S = 10.0
MAX_LAUNCHES = 50
MEASURE_GRACE_S = 30.0
"""Beyond the reproducer's own launches x timeout: interpreter start, the last kills."""


def timeout_for(minimal: Scenario, steps: tuple[Step, ...], run: RunResult) -> float:
    """A launch's deadline in the reproducer: three times the slowest clean launch seen (of the
    run and of every step); when none ended clean, three times the longest the run's hangs took
    to be caught (a launch's start-up and batches up to its hang: a loader slow to import, numba
    compiling its kernels, say, is not taken for a hang); at least TIMEOUT_FLOOR_S, at most the scenario's
    own timeout."""
    clean = [w.wall_s for w in run.waves if not w.verdict.is_hang] + [s.batch_s for s in steps if s.batch_s]
    seen = clean or [w.detect_s for w in run.waves if w.verdict.is_hang and w.detect_s]
    return round(min(minimal.timeout, max(TIMEOUT_FLOOR_S, 3 * max(seen, default=0.0))), 1)


def launches_for(rate: float) -> int:
    """Enough launches to see one hang at `rate` with 95% confidence (3 at least)."""
    if rate >= 1:
        return 3
    return max(3, min(MAX_LAUNCHES, clean_launches(max(rate, 0.02))))


def setting(minimal: Scenario, launches: int) -> dict[str, Any]:
    """The minimal scenario's fields that differ from the defaults (its TOML and run line)."""
    base, now = Scenario().to_dict(), minimal.to_dict()
    out = {k: v for k, v in now.items() if k not in _NOT_A_SETTING and v != base[k]}
    out = {"name": "shrunk", "waves": launches, **out}
    out.pop("options", None)
    if minimal.options:
        out["options"] = dict(minimal.options)
    return out


def reproduction(
    minimal: Scenario, plan: TargetPlan, evidence: str, timeout: float, launches: int, source: str
) -> Reproduction | None:
    """What the reproducer carries (None when the target's worker half cannot be written out)."""
    how = recipe(plan)
    if how is None:
        return None
    spec = worker_spec(minimal, plan, 0, 0)
    off = {"chaos": None, "delays": None, "gang": 0, "cpu_quota": None, "memory_limit": None}
    left = tuple(f"--{n.replace('_', '-')}" for n in HARNESS_ONLY if getattr(minimal, n) != off[n])
    return Reproduction(
        recipe=how,
        workers=minimal.workers,
        iterations=minimal.iterations,
        duration=minimal.duration,
        start_method=minimal.start_method,
        env=dict(spec.env),
        inherited={"RAYON_NUM_THREADS": str(minimal.inherit_rayon)} if minimal.inherit_rayon else {},
        seed=minimal.seed,
        timeout_s=timeout,
        launches=launches,
        python=plan.python or sys.executable,
        result_bytes=minimal.result_bytes,
        switch_interval=minimal.switch_interval,
        affinity=squeeze_cpus(minimal.squeeze) if minimal.squeeze else None,
        burners=minimal.burners,
        warm_parent=minimal.warm_parent,
        preload=tuple(m for m in plan.preload if not m.startswith("gvlstress")) if minimal.preload else (),
        kill_worker=minimal.kill_worker,
        not_carried=left,
        scenario=setting(minimal, launches),
        source=source,
        evidence=evidence,
    )


def write(rep: Reproduction, run_dir: Path) -> tuple[str, ...]:
    """reproduce.py (executable), scenario.toml and run.sh under RUN_DIR/shrink/."""
    py, toml, sh = (run_dir / f for f in FILES)
    write_atomic(py, reproducer.render_python(rep))
    py.chmod(0o755)
    write_atomic(toml, shrunk.render_toml(rep))
    write_atomic(sh, shrunk.render_sh(rep))
    sh.chmod(0o755)
    return FILES


def measure(rep: Reproduction, script: Path, original: Rate, launches: int) -> Measured:
    """Run the reproducer `launches` times in a subprocess of its own (its deadline: every
    launch's timeout and a grace) and read its tally."""
    started = time.monotonic()
    with watchdog.guarding(), tempfile.TemporaryDirectory(prefix="gvlstress-measure-") as scratch:
        watchdog.remove_on_death(scratch)
        tally_path = Path(scratch) / "tally.json"
        argv = [rep.python, str(script), "--launches", str(launches), "--json", str(tally_path)]
        deadline = launches * (rep.timeout_s + 5) + MEASURE_GRACE_S
        out = tools.run(argv, deadline)
        took = time.monotonic() - started
        try:
            tally = json.loads(tally_path.read_text())
        except (OSError, ValueError):
            why = out.error or "it wrote no tally"
            tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or [""]
            return Measured(stats.rate(0, 0), seconds=took, error=f"{why} {tail[0]}".strip()[:500])
    k, n = int(tally["hung"]), int(tally["launches"])
    p = stats.fisher_exact(k, n - k, original.k, original.n - original.k)
    errors = int(tally.get("error", 0)) + int(tally.get("crashed", 0))
    return Measured(stats.rate(k, n), errors, took, p)


def evidence_line(step: Step | None, original: Rate) -> str:
    kept = f"the step that kept this setting hung {step.hangs} of {step.launches} launches; " if step else ""
    return f"gvlstress saw: {kept}the original run hung {original.k} of {original.n} waves."


def with_measure(rep: Reproduction, measured: Measured | None) -> Reproduction:
    if measured is None or measured.error:
        return rep
    line = f"{rep.evidence} Run alone, this file hung {measured.rate.k} of {measured.rate.n} launches."
    return dataclasses.replace(rep, evidence=line)
