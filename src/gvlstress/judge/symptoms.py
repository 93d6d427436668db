"""A hung wave's symptoms beside the ones a known hang's reporter saw, one by one, so a reader can
see whether the run reproduced *that* hang or another (the report puts them side by side).

Which hang, and what its reporter wrote for each symptom, is the loader's record
(`LoaderFacts.known_hang`), passed in as data; this module holds only the rules, each a pure
function of the wave: what the wave showed of that symptom, and whether it matches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gvlstress.judge import names
from gvlstress.model import ProbeFinding, Symptom, Verdict, WaitKind, WaveResult, WorkerOutcome
from gvlstress.system.proctree import signal_name


@dataclass(frozen=True)
class _Hung:
    """What every rule reads of a hung wave."""

    probes: tuple[ProbeFinding, ...]
    wedged: bool
    dead: tuple[WorkerOutcome, ...]


def _parked(h: _Hung) -> tuple[str, bool]:
    threads = [t for p in h.probes for t in p.threads]
    on_futex = sum(1 for t in threads if t.parked and t.wait is not None and t.wait.kind is WaitKind.LOCK)
    return (
        f"{on_futex} of {len(threads)} threads of the hung workers parked on a futex",
        bool(threads) and on_futex >= len(threads) // 2,
    )


def _cpu(h: _Hung) -> tuple[str, bool]:
    cpu = sum(p.cpu_s for p in h.probes)
    window = max((p.window_s for p in h.probes), default=0.0)
    return (
        f"{cpu:.2f} CPU-s over {window:.1f} s in all hung workers" if h.probes else "not probed",
        bool(h.probes) and cpu <= 0.05 * max(window, 1e-9) * max(len(h.probes), 1),
    )


def _executor(h: _Hung) -> tuple[str, bool]:
    return (
        "yes: a dead worker's future stayed pending, no BrokenProcessPool"
        if h.wedged
        else "no: the workers themselves hung; the executor would have seen them exit",
        h.wedged,
    )


def _zombie(h: _Hung) -> tuple[str, bool]:
    return (
        ", ".join(f"worker {w.pid} ({signal_name(w.signal)})" for w in h.dead) + " unreaped"
        if h.wedged and h.dead
        else "none",
        h.wedged and bool(h.dead),
    )


RULES: dict[str, Callable[[_Hung], tuple[str, bool]]] = {
    "parked": _parked,
    "cpu": _cpu,
    "executor": _executor,
    "zombie": _zombie,
}
"""Each symptom a known hang may name: threads parked on futexes, ~0 CPU, the executor wedged
(a dead worker's future pending, no error), a dead worker never reaped."""


def beside(wave: WaveResult, reported: tuple[tuple[str, str], ...]) -> tuple[Symptom, ...]:
    """The `reported` symptoms (rule, what the reporter saw) beside this wave's; empty for a
    wave that did not hang. A rule gvlstress does not have is said, never matched."""
    if not wave.verdict.is_hang:
        return ()
    hung = _Hung(
        probes=tuple(w.probe for w in wave.workers if w.verdict.is_hang and w.probe is not None),
        wedged=any(w.diagnosis and w.diagnosis.pattern == names.EXECUTOR_WEDGED for w in wave.workers),
        dead=tuple(w for w in wave.workers if w.verdict is Verdict.CRASH),
    )
    out = []
    for name, what in reported:
        rule = RULES.get(name)
        seen, matches = rule(hung) if rule is not None else (f"no rule {name!r} in gvlstress", False)
        out.append(Symptom(name, what, seen, matches))
    return tuple(out)
