"""The shared types: frozen dataclasses that flow from probes to judging to reporters, split by
stage. Every name is re-exported here, so ``from gvlstress.model import X`` works for all of them."""

from __future__ import annotations

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
from gvlstress.model.stacks import Capture, Frame, NativeThread, PyThread, StackSample, ThreadView, ToolRun
from gvlstress.model.verdicts import IN_INSPECT, IN_RUN, Verdict, plural, worst

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
