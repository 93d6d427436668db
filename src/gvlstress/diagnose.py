"""Pure judging: /proc samples, then stacks, of a process -> what it is doing and why.

A hung process and an idle one look alike in one snapshot (every thread asleep). What separates
them is the thread that must make progress (``run``: the one calling the target; ``inspect``:
the main thread) and what it waits for:

- in a read, poll, sleep, child wait or timed wait: it waits on something outside the process
  (``waiting`` in ``run``, judged at the launch timeout; ``idle`` in ``inspect``);
- on a lock, latch or the GIL: follow the wait to whatever can end it (the pool threads of its
  rayon region, the GIL owner, the other Python threads, else every thread). If all of them are
  blocked the same way (threads idle by design aside) the wait set is closed: a ``deadlock``.
  If one of them is in I/O, a sleep or running, the process is ``waiting`` on that thread.

``judge`` does this from /proc alone; ``decide`` again once stacks are captured (they say what the
thread waits in and which threads are idle by design). Without a progress signal, a closed wait
set is called a deadlock only when a named pattern explains it.
"""

from __future__ import annotations

import signal
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gvlstress import patterns, vocab
from gvlstress.model import (
    Activity,
    Capture,
    Diagnosis,
    FutexGroup,
    ProbeFinding,
    ProbeKind,
    ProcSample,
    ThreadActivity,
    ThreadDelta,
    ThreadSample,
    ThreadView,
    Verdict,
    WaitGroup,
    WaitKind,
)
from gvlstress.probes.procfs import CLK_TCK, futex_syscalls, syscall_name
from gvlstress.waits import classify

# A process using at least this share of one CPU without making progress is burning, not parked.
LIVELOCK_CPU_SHARE = 0.2
# A parked thread uses at most this share of one CPU over the window (GIL waiters: ~0.5%).
PARKED_CPU_SHARE = 0.02
_ASLEEP = frozenset({"S", "D", "I"})
# Signals whose handler may end a wait from outside (a daemon waiting for SIGTERM is idle).
_WAKING_SIGNALS = (
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGQUIT,
)


def cpu_between(a: ThreadSample, b: ThreadSample) -> tuple[float, bool]:
    """CPU seconds a thread used between two samples, and whether the figure is precise.

    schedstat counts nanoseconds; utime/stime are sampled at clock ticks and can charge a
    whole tick to a thread that ran for microseconds.
    """
    if a.run_ns is not None and b.run_ns is not None:
        return max(0, b.run_ns - a.run_ns) / 1e9, True
    return max(0, b.ticks - a.ticks) / CLK_TCK, False


def is_parked(state_first: str, state: str, cpu_s: float, precise: bool, window: float) -> bool:
    """Asleep at a sample and using at most PARKED_CPU_SHARE of one CPU over the window.

    A GIL waiter wakes every 5 ms (a few microseconds each time) and may be caught running
    once; a thread running at both samples, or doing real work, is not parked.
    """
    allowance = PARKED_CPU_SHARE * window if precise else max(1.0 / CLK_TCK, PARKED_CPU_SHARE * window)
    return (state in _ASLEEP or state_first in _ASLEEP) and cpu_s <= allowance + 1e-9


def thread_deltas(first: ProcSample, second: ProcSample) -> tuple[ThreadDelta, ...]:
    """Threads present in both samples, with CPU used between them and what they wait on."""
    before = {t.tid: t for t in first.threads}
    window = max(second.at - first.at, 1e-9)
    out = []
    for t in second.threads:
        b = before.get(t.tid)
        if b is None:
            continue
        cpu, precise = cpu_between(b, t)
        parked = is_parked(b.state, t.state, cpu, precise, window)
        # A parked thread caught awake at the second sample (a GIL waiter's 5 ms tick) is
        # still waiting where the first sample saw it.
        w = b if parked and t.syscall is None and b.syscall is not None else t
        delta = ThreadDelta(
            tid=t.tid,
            comm=t.comm,
            state=t.state,
            state_first=b.state,
            wchan=w.wchan,
            syscall=w.syscall,
            futex_addr=w.futex_addr,
            cpu_s=cpu,
            voluntary_ctxt=_diff(b.voluntary_ctxt, t.voluntary_ctxt),
            nonvoluntary_ctxt=_diff(b.nonvoluntary_ctxt, t.nonvoluntary_ctxt),
            parked=parked,
            args=w.args,
            fd_target=w.fd_target,
        )
        out.append(replace(delta, wait=classify(delta, window)))
    return tuple(out)


def _diff(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else b - a


def futex_groups(threads: tuple[ThreadDelta, ...], machine_futex: frozenset[int]) -> tuple[FutexGroup, ...]:
    """Threads blocked on each futex address, biggest group first."""
    groups: dict[int, list[int]] = defaultdict(list)
    for t in threads:
        if t.futex_addr is not None and t.syscall in machine_futex:
            groups[t.futex_addr].append(t.tid)
    return tuple(
        FutexGroup(addr=a, tids=tuple(sorted(tids)))
        for a, tids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    )


# -- following a wait ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Chain:
    """Where the wait of the progress thread leads."""

    closed: bool
    """Everything that could end the wait is blocked too (idle-by-design threads aside)."""
    lines: tuple[str, ...]
    opener: ThreadDelta | None = None
    """The first thread that can still end it (in I/O, a sleep, running)."""
    idle: tuple[str, ...] = ()


def _name(t: ThreadDelta, views: Mapping[int, ThreadView], pid: int) -> str:
    v = views.get(t.tid)
    who = vocab.role(v, pid) if v else ("main thread" if t.tid == pid else "thread")
    return f"thread {t.tid} ({who}, {t.comm})"


def _is_blocked(t: ThreadDelta, v: ThreadView | None) -> bool:
    """Waits the way a deadlock's threads do: an untimed futex, or the GIL (a 5 ms timed wait
    in a loop), or rayon's sleep (a pool thread with no job)."""
    kind = t.wait.kind if t.wait else WaitKind.OTHER
    if kind is WaitKind.LOCK:
        return True
    return kind is WaitKind.TIMED and v is not None and vocab.is_gil_wait(v)


def _targets(
    p: ThreadDelta,
    threads: tuple[ThreadDelta, ...],
    views: Mapping[int, ThreadView],
    capture: Capture | None,
    pid: int,
) -> tuple[str, list[ThreadDelta], bool]:
    """What the progress thread waits for, and the threads that can end that wait.

    The third value says the candidates are complete (a native view covered every thread), so
    an empty list means the threads it waits for do not exist (e.g. after fork).
    """
    others = [t for t in threads if t.tid != p.tid]
    pv = views.get(p.tid)
    if pv is None:
        return "a futex", others, False
    native_complete = bool(
        capture and capture.native.ok and all(views[t.tid].native for t in others if t.tid in views)
    )
    if vocab.has(pv, vocab.LATCH):
        pool = [t for t in others if (v := views.get(t.tid)) is not None and vocab.is_pool_thread(v)]
        unknown = [t for t in others if (v := views.get(t.tid)) is None or not v.native]
        return "its rayon jobs (the pool threads)", pool + unknown, native_complete
    if vocab.is_gil_wait(pv):
        owner = [t for t in others if (v := views.get(t.tid)) is not None and v.owns_gil]
        return "the GIL", owner or others, bool(owner)
    if vocab.has(pv, vocab.TOKIO_PARK):
        rt = [t for t in others if (v := views.get(t.tid)) is not None and vocab.is_tokio_thread(v)]
        return "its tokio runtime", rt, native_complete
    if vocab.python_frames(pv) and (vocab.is_lock_acquire(pv) or vocab.python_waits(pv)):
        py = [t for t in others if (v := views.get(t.tid)) is not None and v.python is not None]
        return "a Python lock, condition or thread", py, True
    return "a futex", others, False


def follow(
    p: ThreadDelta,
    threads: tuple[ThreadDelta, ...],
    views: Mapping[int, ThreadView],
    capture: Capture | None,
    pid: int,
) -> Chain:
    """Follow the progress thread's lock wait to the threads that could end it."""
    label, candidates, complete = _targets(p, threads, views, capture, pid)
    lines = [f"{_name(p, views, pid)} waits for {label}: {p.wait.detail if p.wait else 'futex'}"]
    if not candidates:
        if complete:
            lines.append(f"no thread in the process can end that wait (none of {label} exists)")
            return Chain(True, tuple(lines))
        lines.append("no other thread exists that could end the wait")
        return Chain(True, tuple(lines))
    idle: list[str] = []
    blocked: list[ThreadDelta] = []
    # When the wait is *for* a pool (its rayon jobs, its tokio runtime), that pool's idle threads
    # are what it waits on: judged like any other. Otherwise idle-by-design threads are no evidence.
    targeted = label.startswith(("its rayon", "its tokio"))
    for t in candidates:
        v = views.get(t.tid)
        kind = t.wait.kind if t.wait else WaitKind.OTHER
        why = vocab.idle_reason(v, kind) if v else vocab.idle_by_comm(t.comm, kind)
        if why and not targeted:
            idle.append(f"{t.tid}: {why}")
            continue
        if _is_blocked(t, v):
            blocked.append(t)
            continue
        lines.append(f"{_name(t, views, pid)} can still end it: {t.wait.detail if t.wait else t.state}")
        return Chain(False, tuple(lines), opener=t, idle=tuple(idle))
    if blocked:
        where_ = Counter((t.wait.detail.split(" (")[0] if t.wait else "futex") for t in blocked)
        lines.append(
            f"{len(blocked)} thread(s) that could end it are blocked themselves ("
            + ", ".join(f"{n} in {w}" for w, n in where_.most_common(3))
            + ")"
        )
    return Chain(True, tuple(lines), idle=tuple(idle))


# -- the verdict ----------------------------------------------------------------------------


def judge(
    first: ProcSample | None,
    second: ProcSample | None,
    *,
    progress_tid: int | None = None,
    progress: bool = True,
    futex_nrs: frozenset[int] | None = None,
) -> ProbeFinding:
    """What two /proc samples of one process show (stacks may refine it: `decide`).

    `progress` says a progress signal exists (``run``: the heartbeat went quiet); without one
    (``inspect``) burning is ``busy`` and an outside wait ``idle``.
    """
    nrs = futex_syscalls() if futex_nrs is None else futex_nrs
    if first is None or second is None:
        pid = second.pid if second is not None else (first.pid if first is not None else -1)
        return ProbeFinding(pid, ProbeKind.GONE, 0.0, 0.0, (), (), "process exited while probed")
    pid = second.pid
    window = max(second.at - first.at, 1e-9)
    threads = thread_deltas(first, second)
    groups = futex_groups(threads, nrs)
    base = ProbeFinding(
        pid,
        ProbeKind.STALLED,
        window,
        sum(t.cpu_s for t in threads),
        threads,
        groups,
        "",
        (first, second),
        progress_tid=progress_tid if progress_tid is not None else pid,
    )
    return _verdict(base, {}, None, progress)


def decide(finding: ProbeFinding, capture: Capture | None, *, progress: bool = True) -> ProbeFinding:
    """The finding again, now with stacks: what the progress thread waits in, which threads
    are idle by design, and (without a progress signal) whether a named pattern explains it."""
    if capture is None or finding.kind in (
        ProbeKind.GONE,
        ProbeKind.STOPPED,
        ProbeKind.BUSY,
        ProbeKind.LIVELOCK,
    ):
        return finding
    views = {t.tid: t for t in capture.threads if t.native or t.python}
    if not views:
        return finding
    return _verdict(finding, views, capture, progress)


def _verdict(
    f: ProbeFinding, views: Mapping[int, ThreadView], capture: Capture | None, progress: bool
) -> ProbeFinding:
    threads, window, pid = f.threads, f.window_s, f.pid
    if not threads:
        return replace(f, kind=ProbeKind.GONE, reason="no thread could be read")
    p = next((t for t in threads if t.tid == f.progress_tid), None) or next(
        (t for t in threads if t.tid == pid), threads[0]
    )
    stopped = [t for t in threads if t.wait and t.wait.kind is WaitKind.STOPPED]
    if stopped and (p in stopped or len(stopped) == len(threads)):
        how = p.wait.detail if p.wait else "stopped"
        return replace(
            f, kind=ProbeKind.STOPPED, reason=f"{len(stopped)}/{len(threads)} threads {how} (state {p.state})"
        )
    if f.cpu_s >= LIVELOCK_CPU_SHARE * window:
        busy = sorted(threads, key=lambda t: -t.cpu_s)[:3]
        top = ", ".join(f"{t.tid} ({t.comm}) {t.cpu_s:.2f}s" for t in busy)
        kind = ProbeKind.LIVELOCK if progress else ProbeKind.BUSY
        lead = "no progress but " if progress else ""
        return replace(
            f, kind=kind, reason=f"{lead}{f.cpu_s:.2f} CPU-s burnt in {window:.2f}s; busiest: {top}"
        )
    outside = ProbeKind.WAITING if progress else ProbeKind.IDLE
    wait = p.wait
    pv = views.get(p.tid)
    gil_waiter = wait is not None and wait.kind is WaitKind.TIMED and pv is not None and vocab.is_gil_wait(pv)
    if wait is not None and wait.kind.external and not gil_waiter:
        return replace(f, kind=outside, reason=f"{_name(p, views, pid)} waits in {wait.detail}", chain=())
    if wait is None or not (wait.kind is WaitKind.LOCK or gil_waiter):
        return replace(
            f,
            kind=ProbeKind.STALLED,
            reason=f"{_name(p, views, pid)} is {wait.detail if wait else p.state} while the process uses "
            f"{f.cpu_s:.2f} CPU-s in {window:.2f}s",
        )
    chain = follow(p, threads, views, capture, pid)
    f = replace(f, chain=chain.lines, idle=chain.idle)
    if not chain.closed:
        assert chain.opener is not None
        o = chain.opener
        return replace(
            f,
            kind=outside,
            reason=f"{_name(p, views, pid)} waits on a futex that {_name(o, views, pid)} can still end "
            f"({o.wait.detail if o.wait else o.state})",
        )
    parked = sum(1 for t in threads if t.parked)
    closed = (
        f"{parked}/{len(threads)} threads parked ({f.cpu_s * 1000:.1f} ms CPU in all over {window:.2f}s); "
        f"every thread that could end {_name(p, views, pid)}'s wait is blocked too"
    )
    if progress:
        return replace(f, kind=ProbeKind.DEADLOCK, reason=closed)
    # inspect: no progress signal, so a closed wait set needs a known shape to be a deadlock
    if capture is None:
        return replace(f, kind=ProbeKind.STALLED, reason=closed + "; no stacks, so no cycle can be shown")
    named = patterns.match(replace(f, kind=ProbeKind.DEADLOCK), capture)
    if named is None:
        return replace(f, kind=ProbeKind.STALLED, reason=closed + "; no known shape names the cycle")
    sigcgt = f.samples[-1].sigcgt if f.samples else 0
    waking = [signal.Signals(s).name for s in _WAKING_SIGNALS if sigcgt & (1 << (s - 1))]
    if named.pattern == patterns.LOST_WAKEUP and waking:
        return replace(
            f,
            kind=ProbeKind.IDLE,
            reason=f"{_name(p, views, pid)} waits on a condition no thread can notify, but the process "
            f"catches {', '.join(waking)}: a signal handler may end the wait",
        )
    return replace(f, kind=ProbeKind.DEADLOCK, reason=closed + f"; {named.pattern}")


INSPECT_VERDICT = {
    ProbeKind.DEADLOCK: Verdict.DEADLOCK,
    ProbeKind.BUSY: Verdict.BUSY,
    ProbeKind.LIVELOCK: Verdict.BUSY,
    ProbeKind.IDLE: Verdict.IDLE,
    ProbeKind.WAITING: Verdict.IDLE,
    ProbeKind.STOPPED: Verdict.STOPPED,
    ProbeKind.STALLED: Verdict.STALLED,
    ProbeKind.GONE: Verdict.STALLED,
}
"""``inspect`` has no progress signal: what each finding is called there."""


# -- explanation: a finding plus stacks -> a Diagnosis a reader can check --------------------


def explain(
    verdict: Verdict,
    finding: ProbeFinding | None,
    capture: Capture | None,
    progress: str,
    named: patterns.Match | None = None,
) -> Diagnosis:
    """The evidence behind a verdict: the wait chain, idle threads, futex groups, the GIL.
    `named` is a pattern found beyond this process (``inspect --tree``)."""
    missing: list[str] = []
    if capture is None:
        missing.append("no stacks captured")
    else:
        for run in (capture.pyspy, capture.native):
            if not run.ok:
                missing.append(f"{run.tool}: {run.error}")
    if finding is None or not finding.threads:
        return Diagnosis(verdict, f"{verdict.value}: {progress}; no /proc sample", (), missing=tuple(missing))
    pid = finding.pid
    views = {t.tid: t for t in capture.threads} if capture else {}
    evidence = [
        f"{finding.n_parked}/{len(finding.threads)} threads asleep with no CPU; "
        f"{finding.cpu_s:.2f} CPU-s used by all threads over {finding.window_s:.2f}s; {progress}",
        *finding.chain,
    ]
    groups = []
    for g in finding.futex_groups:
        members = [views[t] for t in g.tids if t in views]
        blocked = Counter(vocab.where(m) for m in members).most_common(1)
        blocked_in = blocked[0][0] if blocked else "futex wait"
        roles = Counter(vocab.role(m, pid) for m in members)
        names = tuple(f"{n} {r}{'s' if n > 1 else ''}" for r, n in roles.most_common())
        groups.append(WaitGroup(addr=g.addr, tids=g.tids, blocked_in=blocked_in, names=names))
        who = ", ".join(names) or f"{len(g.tids)} thread{'s' if len(g.tids) > 1 else ''}"
        evidence.append(f"futex {g.addr:#x}: {who} (tids {vocab.span(g.tids)}) wait in {blocked_in}")
    outside = [t for t in finding.threads if t.futex_addr is None]
    for t in outside[:5]:
        v = views.get(t.tid)
        at = vocab.where(v) if v else (t.wait.detail if t.wait else t.state)
        evidence.append(f"thread {t.tid} ({t.comm}) {t.state}, not on a futex: {at}")
    if finding.idle:
        evidence.append(f"idle by design (not evidence): {'; '.join(finding.idle[:6])}")
    gil_owner = next((t.tid for t in capture.threads if t.owns_gil), None) if capture else None
    if capture and capture.pyspy.ok:
        evidence.append(
            f"GIL held by thread {gil_owner} ({vocab.where(views[gil_owner])})"
            if gil_owner in views
            else "no thread holds the GIL"
        )
    else:
        evidence.append("GIL owner unknown (py-spy view missing)")
    busy = sorted((t for t in finding.threads if t.cpu_s > 0), key=lambda t: -t.cpu_s)[:3]
    if busy:
        evidence.append("busiest threads: " + ", ".join(f"{t.tid} {t.cpu_s:.2f}s" for t in busy))
    if named is not None:
        pass
    elif verdict is Verdict.DEADLOCK:
        named = patterns.match(finding, capture) or patterns.unrecognised(capture)
    elif verdict is Verdict.LIVELOCK:
        named = patterns.livelock(finding, capture)
    if named is not None:
        evidence = [*named.evidence, *evidence]
    if verdict is Verdict.DEADLOCK and groups:
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
        tuple(evidence),
        tuple(groups),
        gil_owner,
        tuple(missing),
        pattern=named.pattern if named else None,
        hint=named.hint if named else None,
    )


# -- stacks, grouped for reading ---------------------------------------------------------------


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
        native = vocab.collapse_recursion(tuple(f.name for f in t.native))
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


# -- process trees (inspect --tree) ------------------------------------------------------------


_WRITES = ("write", "writev", "sendmsg", "sendto", "pwrite64")


def link_tree(
    findings: Mapping[int, ProbeFinding],
    parents: Mapping[int, int | None],
    pipes: Mapping[int, Mapping[str, str]],
) -> dict[int, tuple[ProbeFinding, patterns.Match | None]]:
    """Link a parent's wait for a child to what the child does.

    A parent waiting in wait4() for a child whose thread is blocked writing to a pipe that only
    the waiting parent (or the child itself) holds for reading is a cycle across processes: the
    parent waits for the child's exit, the child for the parent to read (the multiprocessing
    join-before-get). Both are then deadlocked; any other wait is annotated, not changed.
    """
    out: dict[int, tuple[ProbeFinding, patterns.Match | None]] = {
        pid: (f, None) for pid, f in findings.items()
    }
    for pid, f in findings.items():
        p = next((t for t in f.threads if t.tid == f.progress_tid), None)
        if p is None or p.wait is None or p.wait.kind is not WaitKind.CHILD:
            continue
        kids = [c for c, parent in parents.items() if parent == pid and c in findings]
        if p.wait.child is not None and p.wait.child > 0:
            kids = [c for c in kids if c == p.wait.child]
        for c in kids:
            child = findings[c]
            writer = next(
                (
                    t
                    for t in child.threads
                    if t.wait
                    and t.wait.kind is WaitKind.IO
                    and t.wait.syscall in _WRITES
                    and (t.wait.fd_target or "").startswith("pipe:")
                ),
                None,
            )
            line = f"process {pid} waits in {p.wait.detail} for child {c}, which is {child.kind.value}: {child.reason}"
            if writer is None or writer.wait is None:
                out[pid] = (replace(out[pid][0], chain=(*out[pid][0].chain, line)), out[pid][1])
                continue
            pipe = writer.wait.fd_target or ""
            readers = [q for q, held in pipes.items() if "r" in held.get(pipe, "")]
            if not readers or not set(readers) <= {pid, c}:
                out[pid] = (replace(out[pid][0], chain=(*out[pid][0].chain, line)), out[pid][1])
                continue
            evidence = (
                f"process {pid} waits in {p.wait.detail} for child {c} to exit",
                f"child {c}'s thread {writer.tid} is blocked in {writer.wait.detail}: the pipe is full",
                f"only processes {', '.join(map(str, sorted(readers)))} hold {pipe} open for reading, and none "
                "of them reads it: the parent waits for the child, the child for the parent",
            )
            named = patterns.Match(
                patterns.JOIN_BEFORE_DRAIN, patterns.HINTS[patterns.JOIN_BEFORE_DRAIN], evidence
            )
            reason = (
                f"cycle across processes: {pid} waits for {c} to exit, {c} waits for {pid} to read {pipe}"
            )
            for q in (pid, c):
                fq = out[q][0]
                out[q] = (
                    replace(fq, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*fq.chain, *evidence)),
                    named,
                )
    return out


# -- inspect --watch: a progress signal from activity over time ---------------------------------


def activity(samples: list[ProcSample]) -> Activity:
    """Per-thread CPU, context switches, syscalls and waits across a watch.

    It tells "busy and making syscalls" (I/O, a service at work) from "burning CPU with no
    syscall and no voluntary switch" (a spin, or pure computation: the stacks say which).
    """
    if len(samples) < 2:
        return Activity(0.0, len(samples), (), "too few samples to watch (the process exited)")
    first, last = samples[0], samples[-1]
    seconds = last.at - first.at
    out = []
    for t in last.threads:
        seen = [s_t for s in samples for s_t in s.threads if s_t.tid == t.tid]
        a = seen[0]
        cpu, _ = cpu_between(a, t)
        calls = None
        if None not in (a.syscr, a.syscw, t.syscr, t.syscw):
            calls = (t.syscr or 0) + (t.syscw or 0) - (a.syscr or 0) - (a.syscw or 0)
        waits: list[str] = []
        for x in seen:
            name = syscall_name(x.syscall)
            if name and name not in waits:
                waits.append(name)
        out.append(
            ThreadActivity(
                tid=t.tid,
                comm=t.comm,
                cpu_s=cpu,
                voluntary_ctxt=(t.voluntary_ctxt or 0) - (a.voluntary_ctxt or 0),
                nonvoluntary_ctxt=(t.nonvoluntary_ctxt or 0) - (a.nonvoluntary_ctxt or 0),
                syscalls=calls,
                waits_seen=tuple(waits),
            )
        )
    hot = [t for t in out if t.cpu_s >= LIVELOCK_CPU_SHARE * seconds]
    spinning = [t for t in hot if not t.syscalls and t.voluntary_ctxt == 0]
    calls = sum(t.syscalls or 0 for t in out)
    cpu = sum(t.cpu_s for t in out)
    if spinning:
        summary = (
            f"watched {seconds:.1f}s: {len(spinning)} thread(s) ({', '.join(str(t.tid) for t in spinning[:4])}) "
            f"burned {sum(t.cpu_s for t in spinning):.1f} CPU-s with no syscall and no voluntary switch: a spin "
            "(livelock) or pure computation; the stacks show which"
        )
    elif hot:
        summary = (
            f"watched {seconds:.1f}s: busy ({cpu:.1f} CPU-s) and making syscalls ({calls} reads/writes, "
            f"{sum(t.voluntary_ctxt for t in out)} voluntary switches): working, not spinning"
        )
    elif calls or any(t.voluntary_ctxt for t in out):
        summary = f"watched {seconds:.1f}s: little CPU ({cpu:.2f} CPU-s) but {calls} syscalls and wake-ups: waiting, and served"
    else:
        summary = f"watched {seconds:.1f}s: no CPU, no syscall, no wake-up in any thread"
    return Activity(seconds, len(samples), tuple(out), summary)
