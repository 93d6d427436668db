"""Pure classification: two /proc samples of a process with no progress -> a finding.

Deadlock is claimed only on strong evidence: every thread asleep in both samples, no CPU tick
between them, and threads parked on futexes. A healthy worker mid-batch looks the same from its
main thread (it waits on a rayon latch), so the pool threads' CPU is what tells them apart.
"""

from __future__ import annotations

from collections import defaultdict

from gvlstress.model import FutexGroup, ProbeFinding, ProbeKind, ProcSample, ThreadDelta
from gvlstress.probes.procfs import CLK_TCK, futex_syscalls

# A process using at least this share of one CPU without making progress is burning, not parked.
LIVELOCK_CPU_SHARE = 0.2
_ASLEEP = frozenset({"S", "D", "I"})


def thread_deltas(first: ProcSample, second: ProcSample) -> tuple[ThreadDelta, ...]:
    """Threads present in both samples, with CPU used between them (later state)."""
    before = {t.tid: t for t in first.threads}
    out = []
    for t in second.threads:
        b = before.get(t.tid)
        if b is None:
            continue
        cpu = max(0, t.ticks - b.ticks) / CLK_TCK
        # A thread that was running at the first sample was not parked, whatever it does now.
        state = t.state if b.state in _ASLEEP else b.state
        out.append(
            ThreadDelta(
                tid=t.tid,
                comm=t.comm,
                state=state,
                wchan=t.wchan,
                syscall=t.syscall,
                futex_addr=t.futex_addr,
                cpu_s=cpu,
                voluntary_ctxt=_diff(b.voluntary_ctxt, t.voluntary_ctxt),
                nonvoluntary_ctxt=_diff(b.nonvoluntary_ctxt, t.nonvoluntary_ctxt),
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
    n = len(threads)
    if n and len(parked) == n and on_futex > 0:
        kind = ProbeKind.DEADLOCK
        reason = (
            f"all {n} threads asleep with no CPU over {window:.2f}s; {on_futex} parked on "
            f"{len(groups)} futex address(es)"
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
    return ProbeFinding(pid, kind, window, cpu, threads, groups, reason)
