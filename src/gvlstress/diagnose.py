"""Pure classification: two /proc samples of a process with no progress -> a finding.

Deadlock is claimed only on strong evidence: every thread asleep in both samples, no CPU tick
between them, and threads parked on futexes. A healthy worker mid-batch looks the same from its
main thread (it waits on a rayon latch), so the pool threads' CPU is what tells them apart.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from gvlstress import patterns
from gvlstress.model import (
    Capture,
    Diagnosis,
    Frame,
    FutexGroup,
    ProbeFinding,
    ProbeKind,
    ProcSample,
    ThreadDelta,
    ThreadSample,
    ThreadView,
    Verdict,
    WaitGroup,
)
from gvlstress.probes import procfs
from gvlstress.probes.procfs import CLK_TCK, futex_syscalls

# A process using at least this share of one CPU without making progress is burning, not parked.
LIVELOCK_CPU_SHARE = 0.2
# A parked thread uses at most this share of one CPU over the window (GIL waiters: ~0.5%).
PARKED_CPU_SHARE = 0.02
_ASLEEP = frozenset({"S", "D", "I"})


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
    """Threads present in both samples, with CPU used between them (later state)."""
    before = {t.tid: t for t in first.threads}
    window = max(second.at - first.at, 1e-9)
    out = []
    for t in second.threads:
        b = before.get(t.tid)
        if b is None:
            continue
        cpu, precise = cpu_between(b, t)
        out.append(
            ThreadDelta(
                tid=t.tid,
                comm=t.comm,
                state=t.state,
                state_first=b.state,
                wchan=t.wchan,
                syscall=t.syscall,
                futex_addr=t.futex_addr,
                cpu_s=cpu,
                voluntary_ctxt=_diff(b.voluntary_ctxt, t.voluntary_ctxt),
                nonvoluntary_ctxt=_diff(b.nonvoluntary_ctxt, t.nonvoluntary_ctxt),
                parked=is_parked(b.state, t.state, cpu, precise, window),
            )
        )
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


def judge(
    first: ProcSample | None, second: ProcSample | None, futex_nrs: frozenset[int] | None = None
) -> ProbeFinding:
    """Deadlock, livelock or stalled, from two samples of one process."""
    nrs = futex_syscalls() if futex_nrs is None else futex_nrs
    if first is None or second is None:
        pid = second.pid if second is not None else (first.pid if first is not None else -1)
        return ProbeFinding(pid, ProbeKind.GONE, 0.0, 0.0, (), (), "process exited while probed")
    pid = second.pid
    window = max(second.at - first.at, 1e-9)
    threads = thread_deltas(first, second)
    groups = futex_groups(threads, nrs)
    cpu = sum(t.cpu_s for t in threads)
    parked = [t for t in threads if t.parked]
    on_futex = sum(len(g.tids) for g in groups)
    by_wchan = ""
    if not on_futex and threads and all(t.syscall is None for t in threads):
        # /proc/PID/task/*/syscall needs attach rights (Yama scope 1 refuses them to a
        # non-descendant); wchan needs only read rights and still says "futex".
        on_futex = sum(1 for t in threads if t.wchan and "futex" in t.wchan)
        by_wchan = " (per wchan; syscall view denied, so no addresses)" if on_futex else ""
    n = len(threads)
    burning = cpu >= LIVELOCK_CPU_SHARE * window
    if n and len(parked) == n and not burning and on_futex > 0:
        kind = ProbeKind.DEADLOCK
        reason = (
            f"all {n} threads parked ({cpu * 1000:.1f} ms CPU in all over {window:.2f}s); {on_futex} wait on "
            + (f"futexes{by_wchan}" if by_wchan else f"{len(groups)} futex address(es)")
        )
    elif cpu >= LIVELOCK_CPU_SHARE * window:
        busy = sorted(threads, key=lambda t: -t.cpu_s)[:3]
        top = ", ".join(f"{t.tid} ({t.comm}) {t.cpu_s:.2f}s" for t in busy)
        kind = ProbeKind.LIVELOCK
        reason = f"no progress but {cpu:.2f} CPU-s burnt in {window:.2f}s; busiest: {top}"
    else:
        awake = [t for t in threads if not t.parked]
        what = ", ".join(f"{t.tid} ({t.comm}) {t.state}" for t in awake[:3]) or "none"
        kind = ProbeKind.STALLED
        reason = (
            f"no progress, {cpu:.2f} CPU-s in {window:.2f}s, {len(parked)}/{n} threads parked, "
            f"{on_futex} on futexes; not parked: {what}"
        )
    return ProbeFinding(pid, kind, window, cpu, threads, groups, reason, (first, second))


# -- explanation: a finding plus stacks -> a Diagnosis a reader can check --------------------

# Frames that say "this thread sleeps" without saying on what: skipped when naming a wait.
_PLUMBING = re.compile(
    r"^(syscall|__?futex\w*|futex_wait\w*|__lll_lock_wait\w*|pthread_cond_\w*|__pthread_\w*|"
    r"___pthread_\w*|__GI_\w*|atomic_\w*|load|get|wait<.*>|"
    r"std::sys::(pal::unix::futex|sync::condvar::futex::Condvar|sync::mutex::futex::Mutex::lock$)\S*|"
    r"std::sys::sync::condvar::\S*|std::sync::(poison::)?condvar::Condvar::wait\S*|"
    r"std::thread::(park\S*|local::\S*)|std::sys::pal::unix::thread_parking\S*|"
    r"std::sys::sync::thread_parking::\S*|lock(<.*>)?)$"
)
_POOL_FRAMES = (
    "rayon_core::registry::ThreadBuilder::run",
    "rayon_core::registry::main_loop",
    "rayon_core::registry::WorkerThread::wait_until_cold",
)


def telling_frame(frames: tuple[Frame, ...]) -> str | None:
    """The innermost frame that says what a thread waits for (not libc/futex plumbing)."""
    for f in frames:
        if not _PLUMBING.match(f.name) and f.name not in ("??", ""):
            return f.name
    return None


def is_pool_frame(f: Frame) -> bool:
    """A frame only rayon's pool threads have: eu-stack names it fully, gdb's inlined frames
    by short name with the rayon-core source file, and the spawn closure by its generic."""
    if f.name.startswith(_POOL_FRAMES):
        return True
    if f.name in ("main_loop", "wait_until_cold") and f.file and f.file.endswith("registry.rs"):
        return True
    return "rayon_core::registry::" in f.name and ("spawn" in f.name or "ThreadBuilder" in f.name)


def role(t: ThreadView, pid: int) -> str:
    """Who a thread is: main, a rayon pool thread, another Python thread, or a native thread."""
    if t.tid == pid:
        return "main thread"
    if any(is_pool_frame(f) for f in t.native):
        return "rayon pool thread"
    if t.python is not None:
        return "Python thread"
    return "native thread"


def where(t: ThreadView) -> str:
    """Where a thread sits, from the best view available."""
    if t.native and (name := telling_frame(t.native)):
        return name
    if t.python and t.python.frames:
        top = t.python.frames[0]
        return telling_frame(t.python.frames) or top.name
    return t.wchan or t.syscall or t.state


def _span(tids: tuple[int, ...]) -> str:
    if len(tids) > 3 and tids[-1] - tids[0] == len(tids) - 1:
        return f"{tids[0]}-{tids[-1]}"
    if len(tids) > 6:
        return ", ".join(map(str, tids[:4])) + f", ... ({len(tids)} in all)"
    return ", ".join(map(str, tids))


def collapse_recursion(names: tuple[str, ...], longest: int = 6) -> tuple[str, ...]:
    """Fold directly repeated runs of frames (rayon's join recursion) into one copy.

    Pool threads stuck in the same place differ only in how deep work stealing recursed;
    folded, their stacks compare equal and group together.
    """
    out = list(names)
    changed = True
    while changed:
        changed = False
        for size in range(1, longest + 1):
            i = 0
            while i + 2 * size <= len(out):
                if out[i : i + size] == out[i + size : i + 2 * size]:
                    del out[i + size : i + 2 * size]
                    changed = True
                else:
                    i += 1
    return tuple(out)


def explain(
    verdict: Verdict, finding: ProbeFinding | None, capture: Capture | None, progress: str
) -> Diagnosis:
    """The evidence behind a verdict: states, CPU, futex groups with their frames, the GIL."""
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
        f"{finding.cpu_s:.2f} CPU-s used by all threads over {finding.window_s:.2f}s; {progress}"
    ]
    groups = []
    for g in finding.futex_groups:
        members = [views[t] for t in g.tids if t in views]
        blocked = Counter(where(m) for m in members).most_common(1)
        blocked_in = blocked[0][0] if blocked else "futex wait"
        roles = Counter(role(m, pid) for m in members)
        names = tuple(f"{n} {r}{'s' if n > 1 else ''}" for r, n in roles.most_common())
        groups.append(WaitGroup(addr=g.addr, tids=g.tids, blocked_in=blocked_in, names=names))
        who = ", ".join(names) or f"{len(g.tids)} threads"
        evidence.append(f"futex {g.addr:#x}: {who} (tids {_span(g.tids)}) wait in {blocked_in}")
    outside = [t for t in finding.threads if t.futex_addr is None]
    for t in outside[:5]:
        v = views.get(t.tid)
        at = where(v) if v else (t.wchan or procfs.syscall_name(t.syscall) or t.state)
        evidence.append(f"thread {t.tid} ({t.comm}) {t.state}, not on a futex: {at}")
    gil_owner = next((t.tid for t in capture.threads if t.owns_gil), None) if capture else None
    if capture and capture.pyspy.ok:
        evidence.append(
            f"GIL held by thread {gil_owner} ({where(views[gil_owner])})"
            if gil_owner in views
            else "no thread holds the GIL"
        )
    else:
        evidence.append("GIL owner unknown (py-spy view missing)")
    busy = sorted((t for t in finding.threads if t.cpu_s > 0), key=lambda t: -t.cpu_s)[:3]
    if busy:
        evidence.append("busiest threads: " + ", ".join(f"{t.tid} {t.cpu_s:.2f}s" for t in busy))
    named = patterns.match(finding, capture) if verdict in (Verdict.DEADLOCK, Verdict.LIVELOCK) else None
    if named is not None:
        evidence = [*named.evidence, *evidence]
    if groups:
        top = groups[0]
        where_ = f"{len(top.tids)} thread(s) parked on futex {top.addr:#x} in {top.blocked_in}"
        where_ += f", {len(groups) - 1} other wait address(es)" if len(groups) > 1 else ""
    else:
        where_ = finding.reason
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
