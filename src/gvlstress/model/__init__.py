"""The shared types: frozen dataclasses that flow from probes to judging to reporters, split by
stage. Every name is re-exported here, so ``from gvlstress.model import X`` works for all of them; each is imported
when first asked for (PEP 562), so a command's start-up pays only for the types it uses."""

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
