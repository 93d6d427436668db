"""A hung wave's symptoms beside the ones genvarloader #263 reported, one by one, so a reader can
see whether the run reproduced *that* hang or another (the report puts them side by side)."""

from __future__ import annotations

from gvlstress.judge import names
from gvlstress.model import Symptom, Verdict, WaitKind, WaveResult
from gvlstress.system.proctree import signal_name

REPORTED = {
    "parked": "threads parked on futexes",
    "cpu": "~0 CPU",
    "executor": "the executor wedged (futures never complete, no error raised)",
    "zombie": "a dead worker never reaped (a zombie)",
}
"""What the reporter of #263 saw (py-spy, top, ps)."""


def issue_263(wave: WaveResult) -> tuple[Symptom, ...]:
    """The reported symptoms beside this wave's (empty for a wave that did not hang)."""
    if not wave.verdict.is_hang:
        return ()
    probes = [w.probe for w in wave.workers if w.verdict.is_hang and w.probe is not None]
    threads = [t for p in probes for t in p.threads]
    on_futex = sum(1 for t in threads if t.parked and t.wait is not None and t.wait.kind is WaitKind.LOCK)
    cpu = sum(p.cpu_s for p in probes)
    window = max((p.window_s for p in probes), default=0.0)
    wedged = any(w.diagnosis and w.diagnosis.pattern == names.EXECUTOR_WEDGED for w in wave.workers)
    dead = [w for w in wave.workers if w.verdict is Verdict.CRASH]
    return (
        Symptom(
            "parked",
            REPORTED["parked"],
            f"{on_futex} of {len(threads)} threads of the hung workers parked on a futex",
            bool(threads) and on_futex >= len(threads) // 2,
        ),
        Symptom(
            "cpu",
            REPORTED["cpu"],
            f"{cpu:.2f} CPU-s over {window:.1f} s in all hung workers" if probes else "not probed",
            bool(probes) and cpu <= 0.05 * max(window, 1e-9) * max(len(probes), 1),
        ),
        Symptom(
            "executor",
            REPORTED["executor"],
            "yes: a dead worker's future stayed pending, no BrokenProcessPool"
            if wedged
            else "no: the workers themselves hung; the executor would have seen them exit",
            wedged,
        ),
        Symptom(
            "zombie",
            REPORTED["zombie"],
            ", ".join(f"worker {w.pid} ({signal_name(w.signal)})" for w in dead) + " unreaped"
            if wedged and dead
            else "none",
            wedged and bool(dead),
        ),
    )
