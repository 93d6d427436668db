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
set is a deadlock when every thread has a stack and none waits where another process or a signal
handler could end it (named by its end when no pattern names it); otherwise it is ``stalled``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gvlstress.judge import names, patterns, vocab
from gvlstress.judge.chain import follow, who
from gvlstress.judge.finalize import is_native_join
from gvlstress.judge.frames import span
from gvlstress.judge.threads import (
    LIVELOCK_CPU_SHARE,
    PARKED_CPU_SHARE,
    futex_groups,
    shared_futex_waiters,
    thread_deltas,
    wake_signals,
    wants_cpu,
)
from gvlstress.model import (
    Capture,
    ProbeFinding,
    ProbeKind,
    ProcSample,
    ThreadDelta,
    ThreadView,
    Verdict,
    WaitKind,
)
from gvlstress.model.syscalls import futex_syscalls

# Signals whose handler may end a wait from outside (a daemon waiting for SIGTERM is idle).


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


def _running_gil_owner(
    threads: tuple[ThreadDelta, ...], views: Mapping[int, ThreadView], window: float
) -> ThreadDelta | None:
    """The thread py-spy saw holding the GIL and running Python code, if it used CPU over the
    window: threads that wake on a short switch interval's tick look parked to /proc, and only
    the stacks tell a GIL deadlock (the owner blocked in native code) from busy Python threads
    taking turns."""
    for t in threads:
        py = views[t.tid].python if t.tid in views else None
        if py is not None and py.owns_gil and py.active and t.cpu_s > PARKED_CPU_SHARE * window:
            return t
    return None


def _verdict(
    f: ProbeFinding, views: Mapping[int, ThreadView], capture: Capture | None, progress: bool
) -> ProbeFinding:
    threads, window, pid = f.threads, f.window_s, f.pid
    if not threads:
        return replace(f, kind=ProbeKind.GONE, reason="no thread could be read")
    if all(t.state in EXITED for t in threads):  # whatever it waited on before, it has exited
        return replace(f, kind=ProbeKind.GONE, reason="it exited (a zombie its parent has not reaped yet)")
    p = f.progress_thread() or threads[0]
    stopped = [t for t in threads if t.wait and t.wait.kind is WaitKind.STOPPED]
    if stopped and (p in stopped or len(stopped) == len(threads)):
        how = p.wait.detail if p.wait else "stopped"
        return replace(
            f, kind=ProbeKind.STOPPED, reason=f"{len(stopped)}/{len(threads)} threads {how} (state {p.state})"
        )
    burning = sum(t.cpu_s for t in threads if not t.parked)
    # on a crowded host a spinner gets a sliver of a CPU, but it is runnable all the time
    if burning >= LIVELOCK_CPU_SHARE * window or any(not t.parked and wants_cpu(t, window) for t in threads):
        busy = sorted(threads, key=lambda t: -t.cpu_s)[:3]
        top = ", ".join(f"{t.tid} ({t.comm}) {t.cpu_s:.2f}s" for t in busy)
        kind = ProbeKind.LIVELOCK if progress else ProbeKind.BUSY
        lead = "no progress but " if progress else ""
        return replace(
            f, kind=kind, reason=f"{lead}{burning:.2f} CPU-s burnt in {window:.2f}s; busiest: {top}"
        )
    outside = ProbeKind.WAITING if progress else ProbeKind.IDLE
    wait = p.wait
    pv = views.get(p.tid)
    gil_waiter = wait is not None and wait.kind is WaitKind.TIMED and pv is not None and vocab.is_gil_wait(pv)
    if wait is not None and wait.kind.external and not gil_waiter:
        return replace(f, kind=outside, reason=f"{who(p, views, pid)} waits in {wait.detail}", chain=())
    if wait is not None and wait.kind is WaitKind.LOCK and pv is not None and vocab.waits_on_shared_lock(pv):
        return replace(
            f,
            kind=outside,
            reason=f"{who(p, views, pid)} waits for a multiprocessing lock shared with other processes "
            f"({wait.detail}): another process ends that wait",
            chain=(),
        )
    if wait is None or not (wait.kind is WaitKind.LOCK or gil_waiter):
        return replace(
            f,
            kind=ProbeKind.STALLED,
            reason=f"{who(p, views, pid)} is {wait.detail if wait else p.state} while the process uses "
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
            reason=f"{who(p, views, pid)} waits on a futex that {who(o, views, pid)} can still end "
            f"({o.wait.detail if o.wait else o.state})",
        )
    runner = _running_gil_owner(threads, views, window)
    if runner is not None:  # a thread that runs Python code ends every GIL wait, in its turn
        return replace(
            f,
            kind=outside,
            reason=f"{who(runner, views, pid)} holds the GIL and runs Python code "
            f"({runner.cpu_s:.2f} CPU-s in {window:.2f}s): the threads waiting for it get their turns",
        )
    moved = _moved_during(f, p)
    if moved:  # what the two samples show is not one frozen state: no final judgement from it
        return replace(f, kind=ProbeKind.STALLED, reason=f"{moved}: one look cannot call it frozen")
    parked = sum(1 for t in threads if t.parked)
    closed = (
        f"{parked}/{len(threads)} threads parked ({f.cpu_s * 1000:.1f} ms CPU in all over {window:.2f}s); "
        f"every thread that could end {who(p, views, pid)}'s wait is blocked too"
    )
    shared = _shared_waiters(threads, views)
    if progress and shared:
        # a semaphore or lock in shared memory names no owner: a live process that maps it may
        # post it (a holder at work), whatever the watch's quiet says; the rules across the look
        # decide it (a dead holder, no other mapper, mappers that all wait themselves)
        return replace(
            f,
            kind=ProbeKind.STALLED,
            reason=closed + f"; but {len(shared)} thread(s) wait on a futex shared with other processes "
            f"({span(tuple(t.tid for t in shared))}): another process may end the wait",
        )
    if progress:
        return replace(f, kind=ProbeKind.DEADLOCK, reason=closed)
    return _closed_without_progress(f, p, views, capture, closed)


def _moved_during(f: ProbeFinding, p: ThreadDelta) -> str:
    """Why the process was not frozen over the window, or "": a thread started or ended between
    the samples (the waiter in ``Thread.start()``, or taking the GIL from a thread that exits), or
    the waiting thread itself made read or write calls. A deadlocked set does neither."""
    tids = [{t.tid for t in s.threads} for s in f.samples]
    if tids and any(t != tids[0] for t in tids):
        every = set().union(*tids)
        born, ended = len(every - tids[0]), len(every - tids[-1])
        return f"{born} thread(s) started and {ended} ended during the look"
    if p.calls:
        return f"thread {p.tid} made {p.calls} read/write calls during the look"
    return ""


def _closed_without_progress(
    f: ProbeFinding, p: ThreadDelta, views: Mapping[int, ThreadView], capture: Capture | None, closed: str
) -> ProbeFinding:
    """A closed wait set with no progress signal (``inspect``): a deadlock when a known shape
    names it, or when every thread has a stack and none waits where another process or a signal
    handler could end it (named by its end); otherwise stalled or idle, and why."""
    threads, pid = f.threads, f.pid
    if capture is None:
        return replace(f, kind=ProbeKind.STALLED, reason=closed + "; no stacks, so no cycle can be shown")
    named = patterns.match(replace(f, kind=ProbeKind.DEADLOCK), capture)
    waking = wake_signals(f)
    if (named is None or named.pattern == names.LOST_WAKEUP) and waking:
        return replace(
            f,
            kind=ProbeKind.IDLE,
            reason=f"{who(p, views, pid)} waits on a condition no thread can notify, but the process "
            f"catches {', '.join(waking)}: a signal handler may end the wait",
        )
    if named is None:
        unseen = [t for t in threads if t.tid not in views]
        if unseen:
            return replace(
                f,
                kind=ProbeKind.STALLED,
                reason=closed
                + f"; no known shape names the cycle, and {len(unseen)} thread(s) have no stack "
                "to say whether they are idle by design",
            )
        shared = _shared_waiters(threads, views)
        if shared:
            return replace(
                f,
                kind=ProbeKind.STALLED,
                reason=closed + f"; but {len(shared)} thread(s) wait on a futex shared with other processes "
                f"({span(tuple(t.tid for t in shared))}): another process may end the wait",
            )
        # closed within the process, flat CPU, stacks of every thread: a hang even unnamed
        return replace(f, kind=ProbeKind.DEADLOCK, reason=closed + f"; {names.CLOSED_WAIT}")
    return replace(f, kind=ProbeKind.DEADLOCK, reason=closed + f"; {named.pattern}")


def _shared_waiters(threads: tuple[ThreadDelta, ...], views: Mapping[int, ThreadView]) -> list[ThreadDelta]:
    """Threads waiting on a futex in shared memory, but for pthread joins (their stacks say so)."""
    return [t for t in shared_futex_waiters(threads) if not (t.tid in views and is_native_join(views[t.tid]))]


EXITED = frozenset({"Z", "X"})
"""Thread states of a process that has exited: a zombie, or dead and being reaped. Its last wait
is history (a pipe read the exit ended, seen just before), never a hang."""

INSPECT_VERDICT = {
    ProbeKind.DEADLOCK: Verdict.DEADLOCK,
    ProbeKind.BUSY: Verdict.BUSY,
    ProbeKind.LIVELOCK: Verdict.LIVELOCK,
    ProbeKind.IDLE: Verdict.IDLE,
    ProbeKind.WAITING: Verdict.IDLE,
    ProbeKind.STOPPED: Verdict.STOPPED,
    ProbeKind.STALLED: Verdict.STALLED,
    ProbeKind.GONE: Verdict.STALLED,
}
"""``inspect`` has no progress signal: what each finding is called there. It judges a burning
process ``busy`` (`judge`); a finding is ``livelock`` there only when a rule named the spin and
what it waits for."""
