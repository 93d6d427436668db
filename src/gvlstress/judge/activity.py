"""``inspect --watch``: a progress signal from activity over time."""

from __future__ import annotations

from gvlstress.judge.threads import LIVELOCK_CPU_SHARE, cpu_between
from gvlstress.model import Activity, ProcSample, ThreadActivity
from gvlstress.model.syscalls import syscall_name


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
