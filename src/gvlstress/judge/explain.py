"""Explanation: a finding plus stacks -> a Diagnosis a reader can check, and the stacks grouped
for reading (identical native stack, Python stack and wait: shown once).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from gvlstress.judge import names, patterns, vocab, words
from gvlstress.judge.frames import collapse_recursion
from gvlstress.model import (
    Capture,
    Diagnosis,
    ProbeFinding,
    ProbeKind,
    ThreadView,
    Verdict,
    WaitGroup,
    WaitKind,
)
from gvlstress.model.evidence import (
    Busiest,
    ChainStep,
    Fact,
    FutexWaiters,
    GilFree,
    GilHeld,
    GilUnknown,
    IdleByDesign,
    OffFutex,
    Parked,
)
from gvlstress.model.waitfor import WaitFor


def explain(
    verdict: Verdict,
    finding: ProbeFinding | None,
    capture: Capture | None,
    progress: str,
    named: names.Match | None = None,
    waitfor: WaitFor | None = None,
) -> Diagnosis:
    """The evidence behind a verdict: the wait chain, idle threads, futex groups, the GIL.
    `named` is the judge's name for it (`judge.across`); this only words it. (Without one, a
    deadlock is named from its own stacks and a spin described from its busiest frames, for
    verdicts that did not come from a look: a wave's end.)"""
    missing: list[str] = []
    if capture is None:
        missing.append("no stacks captured")
    else:
        for run in (capture.pyspy, capture.native):
            if not run.ok:
                missing.append(f"{run.tool}: {run.error}")
    if finding is None or not finding.threads:
        return Diagnosis(
            verdict,
            f"{verdict.value}: {progress}; no /proc sample",
            (),
            missing=tuple(missing),
            waitfor=waitfor,
        )
    pid = finding.pid
    views = {t.tid: t for t in capture.threads} if capture else {}
    facts: list[Fact] = [
        Parked(finding.n_parked, len(finding.threads), finding.cpu_s, finding.window_s, progress),
        *(ChainStep(step) for step in finding.chain),
    ]
    groups = []
    for g in finding.futex_groups:
        members = [views[t] for t in g.tids if t in views]
        blocked = Counter(vocab.where(m) for m in members).most_common(1)
        blocked_in = blocked[0][0] if blocked else "futex wait"
        roles = Counter(vocab.role(m, pid) for m in members)
        names = tuple(f"{n} {r}{'s' if n > 1 else ''}" for r, n in roles.most_common())
        groups.append(WaitGroup(addr=g.addr, tids=g.tids, blocked_in=blocked_in, names=names))
        facts.append(FutexWaiters(g.addr, g.tids, names, blocked_in))
    outside = [t for t in finding.threads if t.futex_addr is None]
    for t in outside[:5]:
        v = views.get(t.tid)
        at = vocab.where(v) if v else (t.wait.detail if t.wait else t.state)
        facts.append(OffFutex(t.tid, t.comm, t.state, at))
    if finding.idle:
        facts.append(IdleByDesign(finding.idle))
    gil_owner = next((t.tid for t in capture.threads if t.owns_gil), None) if capture else None
    if capture and capture.pyspy.ok:
        facts.append(
            GilHeld(gil_owner, vocab.where(views[gil_owner]))
            if gil_owner is not None and gil_owner in views
            else GilFree()
        )
    else:
        facts.append(GilUnknown())
    busy = sorted((t for t in finding.threads if t.cpu_s > 0), key=lambda t: -t.cpu_s)[:3]
    if busy:
        facts.append(Busiest(tuple((t.tid, t.cpu_s) for t in busy)))
    own = patterns.match(finding, capture) if verdict is Verdict.DEADLOCK else None
    # named beyond this process's stacks (a rule across processes): its finding says what
    across = named is not None and (own is None or own.pattern != named.pattern)
    if named is None and verdict is Verdict.DEADLOCK:
        named = own or patterns.closed_wait(capture)
    elif named is None and verdict is Verdict.LIVELOCK:
        named = patterns.livelock(finding, capture)
    if named is not None:
        facts = [*named.facts, *facts]
    if verdict is Verdict.DEADLOCK and groups and not across:
        top = groups[0]
        where_ = f"{len(top.tids)} thread(s) parked on futex {top.addr:#x} in {top.blocked_in}"
        where_ += f", {len(groups) - 1} other wait address(es)" if len(groups) > 1 else ""
    else:
        where_ = finding.reason
        if verdict is Verdict.STALLED and finding.kind is ProbeKind.WAITING:
            where_ += f" ({progress})"
    summary = f"{verdict.value} ({named.pattern}): {where_}" if named else f"{verdict.value}: {where_}"
    return Diagnosis(
        verdict,
        summary,
        words.evidence(tuple(facts)),
        tuple(groups),
        gil_owner,
        tuple(missing),
        pattern=named.pattern if named else None,
        hint=named.hint if named else None,
        waitfor=waitfor,
        facts=tuple(facts),
    )


@dataclass(frozen=True)
class StackGroup:
    """Threads with one native stack, one Python stack and one wait: shown once."""

    tids: tuple[int, ...]
    who: str
    """'16 rayon pool threads', '1 main thread, 1 Python thread'."""
    shown: ThreadView
    """The member with the shallowest stack (rayon's join recursion folded for the key)."""
    depth_varies: bool
    holds_gil: bool
    idle: str | None


def stack_groups(cap: Capture) -> tuple[StackGroup, ...]:
    """Group a capture's threads by (native stack, Python stack with lines, wait).

    Threads of one stack that wait on different futexes stay apart (two Python threads in the
    same function, each waiting on the other's lock, are the evidence of an inversion), except
    idle-by-design threads, which wait on a condvar each and mean nothing apart.
    """
    groups: dict[tuple[object, ...], list[ThreadView]] = defaultdict(list)
    idle: dict[int, str | None] = {}
    for t in cap.threads:
        kind = WaitKind.LOCK if t.futex_addr is not None else WaitKind.OTHER
        idle[t.tid] = vocab.idle_reason(t, kind)
        native = collapse_recursion(tuple(f.name for f in t.native))
        python = tuple((f.name, f.file, f.line) for f in (t.python.frames if t.python else ()))
        addr = None if idle[t.tid] else t.futex_addr
        groups[(native, python, t.syscall, addr)].append(t)
    out = []
    for members in sorted(groups.values(), key=lambda m: (-len(m), m[0].tid)):
        roles = Counter(vocab.role(m, cap.pid) for m in members)
        out.append(
            StackGroup(
                tids=tuple(m.tid for m in members),
                who=", ".join(f"{n} {r}{'s' if n > 1 else ''}" for r, n in roles.most_common()),
                shown=min(members, key=lambda m: len(m.native)),
                depth_varies=len({len(m.native) for m in members}) > 1,
                holds_gil=any(m.owns_gil for m in members),
                idle=idle[members[0].tid],
            )
        )
    return tuple(out)
