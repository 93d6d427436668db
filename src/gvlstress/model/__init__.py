"""The shared types: frozen dataclasses that flow from probes to judging to reporters, split by
stage. Every name is re-exported here, so ``from gvlstress.model import X`` works for all of them; each is imported
when first asked for (PEP 562), so a command's start-up pays only for the types it uses.

Modules (one line each, from their docstrings):

- `campaign`: Campaign results: sequential tests, hunts, plans, compared runs, sweeps, Slurm
  jobs.
- `controls`: Controls and their results: selftest's controls, the real-bug catalogue's entries,
  and how each fared on this host (`gvlstress selftest`...
- `cores`: Kept hangs: a core of a hung worker written before it was killed, and what judging
  one offline can and cannot say.
- `diagnosis`: Why a worker (or a process) is judged what it is, with evidence a reader can
  check.
- `evidence`: Evidence as facts: what a rule or the explanation found, held as its objects
  (tids, addresses, pids, frames), never as prose; `judge.words` words...
- `fd`: What a descriptor links to, typed: readlink's text for /proc/PID/fd/N parsed into its
  kind.
- `inspect`: `gvlstress inspect` and `doctor`: live processes looked at (never killed), this
  host checked.
- `live`: What the live display shows of a wave while it runs.
- `loader`: What a loader knows about itself: the record a target fills in (`targets.base`),
  kept in run.json under ``target.loader`` so that the judge, the...
- `look`: One look at a set of processes: what the caller knows of them going in, and the one
  value the look pipeline (`gvlstress.look`) hands the judge...
- `proc`: What /proc shows of a process, and what a probe of it found.
- `profile`: A host profile: what shapes thread scheduling (and so a race's odds) on one host,
  and the record of recreating it on another.
- `rate`: A rate with its interval: k events in n trials (shared by every layer that reports
  one).
- `run`: A run: its waves, their workers, and what a campaign adds (shards, hosts, explored
  settings).
- `shrink`: Shrinking a hang: the steps a search took from a run that hung to the smallest
  setting that still hangs at the stated rate, and the standalone...
- `stacks`: Stacks: frames, the three views of a thread merged by id, one process's capture.
- `syscalls`: The machine's syscall numbers and clock: data both the probes (reading /proc) and
  the judges (naming a wait) need, kept here so judging imports no...
- `verdicts`: Verdicts: what happened to a worker (or a wave, a run), and how counts read.
- `waitfor`: The wait-for chain of a judged process: who waits on what, followed to where it
  ends.
- `watch`: `gvlstress watch`: a long job's progress as /proc counts it, the quiet spells it had,
  and how the watch ended.
- `wiring`: What connects processes: their open pipes and sockets, who holds the other end, and
  how many bytes wait in between.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.model.campaign import HuntResult, Plan, SequentialResult
    from gvlstress.model.diagnosis import Diagnosis, WaitGroup
    from gvlstress.model.inspect import Activity, Check, Inspected, InspectResult, ThreadActivity
    from gvlstress.model.loader import KnownHang, LoaderFacts, PoolCap
    from gvlstress.model.proc import (
        FutexGroup,
        ProbeFinding,
        ProbeKind,
        ProcSample,
        ThreadDelta,
        ThreadSample,
        Wait,
        WaitKind,
    )
    from gvlstress.model.rate import Rate
    from gvlstress.model.run import (
        ArmStats,
        AuditItem,
        HostFacts,
        HostShard,
        RunResult,
        Shard,
        Summary,
        Symptom,
        TargetFacts,
        WaveResult,
        WorkerOutcome,
    )
    from gvlstress.model.stacks import (
        Capture,
        Frame,
        NativeThread,
        PyThread,
        StackSample,
        ThreadView,
        ToolRun,
    )
    from gvlstress.model.verdicts import IN_INSPECT, IN_RUN, Verdict, plural, worst

_WHERE = {
    "Activity": "inspect",
    "ArmStats": "run",
    "AuditItem": "run",
    "Capture": "stacks",
    "Check": "inspect",
    "Diagnosis": "diagnosis",
    "Frame": "stacks",
    "FutexGroup": "proc",
    "HostFacts": "run",
    "HostShard": "run",
    "HuntResult": "campaign",
    "IN_INSPECT": "verdicts",
    "IN_RUN": "verdicts",
    "InspectResult": "inspect",
    "Inspected": "inspect",
    "KnownHang": "loader",
    "LoaderFacts": "loader",
    "NativeThread": "stacks",
    "Plan": "campaign",
    "PoolCap": "loader",
    "ProbeFinding": "proc",
    "ProbeKind": "proc",
    "ProcSample": "proc",
    "PyThread": "stacks",
    "Rate": "rate",
    "RunResult": "run",
    "SequentialResult": "campaign",
    "Shard": "run",
    "StackSample": "stacks",
    "Summary": "run",
    "Symptom": "run",
    "TargetFacts": "run",
    "ThreadActivity": "inspect",
    "ThreadDelta": "proc",
    "ThreadSample": "proc",
    "ThreadView": "stacks",
    "ToolRun": "stacks",
    "Verdict": "verdicts",
    "Wait": "proc",
    "WaitGroup": "diagnosis",
    "WaitKind": "proc",
    "WaveResult": "run",
    "WorkerOutcome": "run",
    "plural": "verdicts",
    "worst": "verdicts",
}

__all__ = [
    "IN_INSPECT",
    "IN_RUN",
    "Activity",
    "ArmStats",
    "AuditItem",
    "Capture",
    "Check",
    "Diagnosis",
    "Frame",
    "FutexGroup",
    "HostFacts",
    "HostShard",
    "HuntResult",
    "InspectResult",
    "Inspected",
    "KnownHang",
    "LoaderFacts",
    "NativeThread",
    "Plan",
    "PoolCap",
    "ProbeFinding",
    "ProbeKind",
    "ProcSample",
    "PyThread",
    "Rate",
    "RunResult",
    "SequentialResult",
    "Shard",
    "StackSample",
    "Summary",
    "Symptom",
    "TargetFacts",
    "ThreadActivity",
    "ThreadDelta",
    "ThreadSample",
    "ThreadView",
    "ToolRun",
    "Verdict",
    "Wait",
    "WaitGroup",
    "WaitKind",
    "WaveResult",
    "WorkerOutcome",
    "plural",
    "worst",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value
