"""``inspect``'s window: a progress signal from activity over time.

Measured from the first sample taken after the first stack dump when there is one: a native
stack tool holds the process stopped while it reads (a second or more on a crowded host), so
counting from before it would call a spinner that was held still most of the window idle."""

from __future__ import annotations

from gvlstress.judge import vocab
from gvlstress.judge.forks import library_of, short_lib
from gvlstress.judge.frames import short_name
from gvlstress.judge.threads import LIVELOCK_CPU_SHARE, RUNNABLE_SHARE, cpu_between
from gvlstress.model import Activity, Capture, Frame, ProcSample, ThreadActivity, ThreadView
from gvlstress.model.syscalls import CLK_TCK, syscall_name

KERNEL_SHARE = 0.05
"""A busy thread spending at least this share of its CPU in the kernel is making syscalls (a
pure spin or computation stays in user space: page faults and ticks cost ~1%)."""


def makes_syscalls(t: ThreadActivity) -> bool:
    """Any sign of syscalls: reads/writes counted, voluntary sleeps, or kernel time."""
    return bool(t.syscalls) or t.voluntary_ctxt > 0 or t.kernel_s >= KERNEL_SHARE * t.cpu_s > 0


def _where(capture: Capture, tid: int) -> list[tuple[str, Frame | None]]:
    """Where `tid` was at each look of the capture (one entry per look that saw it): its innermost
    Python line, else its innermost named native frame; and that native frame when the look
    had native stacks (a thread at one Python line may still move inside the C it called)."""
    out = []
    looks: list[ThreadView | None] = [capture.thread(tid)]
    for s in capture.resamples:
        py = next((p for p in s.python if p.tid == tid), None)
        nat = next((n.frames for n in s.native if n.tid == tid), ())
        looks.append(ThreadView.of(tid, py, nat) if py or nat else None)
    for v in looks:
        if v is None:
            continue
        line = vocab.python_line(v) if v.python is not None else ""
        native = next((f for f in v.native if f.name not in ("", "??", "???")), None)
        if line or native:
            out.append((line or short_name(native.name if native else "", keep=2), native))
    return out


def which(capture: Capture | None, tid: int, faults: int) -> str:
    """What the stacks say of a busy thread: computation (its stack moved between looks, in Python
    or in the native code it called, or it faults in new pages), a spin (the same place at every
    look, touching no new memory, outside any library), or what the looks cannot say (its stack
    was seen once; or it stayed in one function of a native library, where a tight kernel and a
    spin look alike)."""
    seen = _where(capture, tid) if capture is not None else []
    if len(seen) < 2:
        return "its stack was seen at one look only: the looks cannot say whether it spins or computes"
    places = [place for place, _ in seen]
    if len(set(places)) > 1:
        return f"computation: its stack moved between looks ({places[0]} -> {places[-1]})"
    natives = [f for _, f in seen if f is not None]
    names = [short_name(f.name, keep=2) for f in natives]
    if len(set(names)) > 1:
        return f"computation: its native stack moved between looks ({names[0]} -> {names[-1]})"
    if faults > 0:
        return f"computation in one place ({places[0]}): it keeps touching new memory ({faults} page faults)"
    lib = next((short_lib(x) for f in natives if (x := library_of(f)) is not None), None)
    if lib is not None:
        return (
            f"in one function of {lib} at all {len(seen)} looks ({names[0]}), touching no new memory: "
            "a tight kernel or a spin in it; the looks cannot tell which"
        )
    return f"a spin: at all {len(seen)} looks it was at {places[0]}, and it touched no new memory"


def activity(samples: list[ProcSample], stops: int = 0, capture: Capture | None = None) -> Activity:
    """Per-thread CPU, context switches, syscalls and waits across a watch.

    `stops` is how often the look's own stack tools stopped the process meanwhile: each ptrace
    stop costs a thread up to two voluntary switches (stopped, then a blocked syscall restarted),
    which are not the thread's doing.

    It tells "busy and making syscalls" (I/O, a service at work) from "burning CPU with no
    syscall and no voluntary switch", and with the `capture`'s looks, a spin from computation
    (`which`).
    """
    if len(samples) < 2:
        return Activity(0.0, len(samples), (), "too few samples to watch (the process exited)")
    watched = samples[1:] if len(samples) >= 3 else samples  # from after the first stack dump
    first, last = watched[0], watched[-1]
    seconds = max(last.at - first.at, 1e-9)
    out = []
    runnable: set[int] = set()
    faults: dict[int, int] = {}
    for t in last.threads:
        seen = [s_t for s in watched for s_t in s.threads if s_t.tid == t.tid]
        a = seen[0]
        cpu, _ = cpu_between(a, t)
        calls = None
        if None not in (a.syscr, a.syscw, t.syscr, t.syscw):
            # a read blocked across a stop is restarted and counted again: not the thread's doing
            calls = max(0, (t.syscr or 0) + (t.syscw or 0) - (a.syscr or 0) - (a.syscw or 0) - stops)
        kernel = max(0, t.stime - a.stime) / CLK_TCK
        faults[t.tid] = max(0, (t.minflt or 0) - (a.minflt or 0))
        if None not in (a.run_ns, a.queued_ns, t.run_ns, t.queued_ns):
            wanted = ((t.run_ns or 0) + (t.queued_ns or 0) - (a.run_ns or 0) - (a.queued_ns or 0)) / 1e9
            if wanted >= RUNNABLE_SHARE * seconds:  # wanted a CPU all along: a crowded host
                runnable.add(t.tid)
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
                voluntary_ctxt=max(0, (t.voluntary_ctxt or 0) - (a.voluntary_ctxt or 0) - 2 * stops),
                nonvoluntary_ctxt=(t.nonvoluntary_ctxt or 0) - (a.nonvoluntary_ctxt or 0),
                syscalls=calls,
                waits_seen=tuple(waits),
                kernel_s=kernel,
            )
        )
    hot = [t for t in out if t.cpu_s >= LIVELOCK_CPU_SHARE * seconds or t.tid in runnable]
    spinning = [t for t in hot if not makes_syscalls(t)]
    calls = sum(t.syscalls or 0 for t in out)
    cpu = sum(t.cpu_s for t in out)
    switches = sum(t.voluntary_ctxt for t in out)
    kernel = sum(t.kernel_s for t in out)
    if spinning:
        busiest = max(spinning, key=lambda t: t.cpu_s)
        summary = (
            f"watched {seconds:.1f}s: {len(spinning)} thread(s) ({', '.join(str(t.tid) for t in spinning[:4])}) "
            f"burned {sum(t.cpu_s for t in spinning):.1f} CPU-s with no syscall and no voluntary switch; "
            f"thread {busiest.tid}: {which(capture, busiest.tid, faults.get(busiest.tid, 0))}"
        )
    elif hot:
        caught = sorted({w for t in hot for w in t.waits_seen})
        busiest = max(hot, key=lambda t: t.cpu_s)
        summary = (
            f"watched {seconds:.1f}s: busy ({cpu:.1f} CPU-s) and making syscalls ({kernel:.1f} CPU-s in the "
            f"kernel, {calls} reads/writes, {switches} voluntary switches"
            + (f"; caught in {', '.join(caught[:4])}" if caught else "")
            + f"); thread {busiest.tid}: {which(capture, busiest.tid, faults.get(busiest.tid, 0))}"
        )
    elif calls or switches:
        summary = (
            f"watched {seconds:.1f}s: little CPU ({cpu:.2f} CPU-s), {calls} reads/writes and {switches} "
            "wake-ups (voluntary switches): waiting, and woken now and then"
        )
    elif cpu >= 0.01 * seconds:
        summary = (
            f"watched {seconds:.1f}s: a little CPU ({cpu:.2f} CPU-s), no syscall, no wake-up: no thread "
            "ran or wanted to run for most of the window"
        )
    else:
        summary = f"watched {seconds:.1f}s: no CPU, no syscall, no wake-up in any thread"
    return Activity(seconds, len(samples), tuple(out), summary)
