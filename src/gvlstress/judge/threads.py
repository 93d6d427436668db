"""Per-thread facts across two /proc samples: CPU used, parked or not, what each waits on, and the
threads grouped by futex address.
"""

from __future__ import annotations

import signal
from collections import defaultdict
from dataclasses import replace

from gvlstress.judge.waits import classify
from gvlstress.model import FutexGroup, ProbeFinding, ProcSample, ThreadDelta, ThreadSample, WaitKind
from gvlstress.model.syscalls import CLK_TCK, futex_syscalls, syscall_name

# A process using at least this share of one CPU without making progress is burning, not parked.
LIVELOCK_CPU_SHARE = 0.2


FUTEX_PRIVATE_FLAG = 128
"""futex(2)'s flag for a futex private to one process; without it, processes share the word
(a semaphore or process-shared mutex in shared memory)."""

RUNNABLE_SHARE = 0.6
"""A thread runnable (on a CPU, or queued for one) this share of the window wants the CPU all
along: a spinner on a crowded host, even when it got little CPU."""

# A parked thread uses at most this share of one CPU over the window (GIL waiters: ~0.5%).
PARKED_CPU_SHARE = 0.02


_ASLEEP = frozenset({"S", "D", "I"})

POLL_WAKE_CPU_S = 50e-6
"""A thread that blocks to switch (at most 1 in 20 switches involuntary) and runs at most this
long per wake is a waiter on a timer tick (a GIL waiter at a short ``--switch-interval``: ~12 us
every 100 us), parked whatever its share of a CPU; a spinner is preempted or yields, and
``sched_yield`` counts as an involuntary switch."""


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


def polls(
    sample: ThreadSample, cpu_s: float, precise: bool, voluntary: int | None, involuntary: int | None
) -> bool:
    """A timed futex waiter that wakes on its tick and sleeps again (see POLL_WAKE_CPU_S): a GIL
    waiter at a short switch interval. Untimed waits (a condvar ping-pong) never count."""
    if not precise or not voluntary or involuntary is None or sample.syscall not in futex_syscalls():
        return False
    timed = len(sample.args) > 3 and sample.args[3] != 0
    return timed and involuntary * 20 <= voluntary and cpu_s <= POLL_WAKE_CPU_S * voluntary


def wants_cpu(t: ThreadDelta, window: float) -> bool:
    """The thread used at least LIVELOCK_CPU_SHARE of a CPU over the window, or was runnable
    RUNNABLE_SHARE of it (a spinner on a crowded host gets little CPU but always wants it). The
    one rule for "burning": the verdict, the spin rules and the look's second native look use it."""
    runnable = t.runnable_s if t.runnable_s is not None else t.cpu_s
    return t.cpu_s >= LIVELOCK_CPU_SHARE * window or runnable >= RUNNABLE_SHARE * window


def wants_cpu_between(first: ProcSample | None, now: ProcSample | None) -> bool:
    """Some thread wanted a CPU between the two samples (`wants_cpu`)."""
    if first is None or now is None:
        return False
    span = max(now.at - first.at, 1e-9)
    return any(wants_cpu(t, span) for t in thread_deltas(first, now))


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
        voluntary = _diff(b.voluntary_ctxt, t.voluntary_ctxt)
        involuntary = _diff(b.nonvoluntary_ctxt, t.nonvoluntary_ctxt)
        # A waiter caught awake at the second sample (a GIL waiter's tick), or resumed in
        # restart_syscall after a stack tool's ptrace stop, still waits where the first sample
        # saw it, if it is parked at all.
        resumed = t.syscall is not None and syscall_name(t.syscall) == "restart_syscall"
        waiting = b if (t.syscall is None or resumed) and b.syscall is not None else t
        parked = is_parked(b.state, t.state, cpu, precise, window) or (
            (t.state in _ASLEEP or b.state in _ASLEEP)
            and polls(waiting, cpu, precise, voluntary, involuntary)
        )
        w = waiting if parked else t
        delta = ThreadDelta(
            tid=t.tid,
            comm=t.comm,
            state=t.state,
            state_first=b.state,
            wchan=w.wchan,
            syscall=w.syscall,
            futex_addr=w.futex_addr,
            cpu_s=cpu,
            voluntary_ctxt=voluntary,
            nonvoluntary_ctxt=involuntary,
            parked=parked,
            args=w.args,
            fd_target=w.fd_target,
            lock_holder=w.lock_holder,
            mutex_owner=w.mutex_owner,
            mutex_owner_pid=w.mutex_owner_pid,
            sleep_left_s=w.sleep_left_s,
            sysv=w.sysv,
            watched=w.watched,
            calls=_diff2(b.syscr, b.syscw, t.syscr, t.syscw),
            moved=_diff2(b.rchar, b.wchar, t.rchar, t.wchar),
            faults=_diff(b.minflt, t.minflt),
            runnable_s=None
            if (q := _diff2(b.run_ns, b.queued_ns, t.run_ns, t.queued_ns)) is None
            else q / 1e9,
        )
        out.append(replace(delta, wait=classify(delta, window)))
    return tuple(out)


def _diff(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else b - a


def _diff2(a1: int | None, a2: int | None, b1: int | None, b2: int | None) -> int | None:
    """(b1 + b2) - (a1 + a2), or None when any is unknown."""
    if a1 is None or a2 is None or b1 is None or b2 is None:
        return None
    return b1 + b2 - a1 - a2


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


WRITES = frozenset({"write", "writev", "pwrite64", "sendto", "sendmsg"})
"""System calls that write a descriptor: a thread blocked in one waits for its reader."""


def cut_short(sample: ProcSample | None) -> ThreadSample | None:
    """A thread whose wait a ptrace stop (every stack tool's attach) would end for the program:
    a write into a pipe, a socket or a terminal (the kernel returns the bytes written so far, and
    a program that does not loop on a short write goes on as if it had written everything: seen,
    CPython's buffered stdout of a child whose parent does not read it exited 0 with its output
    cut at 64 KiB; a child blocked writing a pty pexpect never reads ran on to its end), or a
    System V semaphore or message queue operation (never restarted: EINTR, which sysv_ipc raises
    as "Signaled while waiting"). Such a process is judged from /proc alone: a look must not
    change what it looks at."""
    if sample is None:
        return None
    for t in sample.threads:
        link = t.link
        name = syscall_name(t.syscall)
        if name in WRITES and (link.is_pipe or link.is_socket or link.is_terminal):
            return t
        if name in _SYSV:
            return t
    return None


_SYSV = frozenset({"semop", "semtimedop", "msgsnd", "msgrcv"})


RETRY_WAKEUPS = 3
"""Wake-ups over a window of a thread parked in a timed wait, with no byte moved, that make it a
retry loop (a reconnect timer, a poll of a lock file) rather than one long timer."""


def retries(t: ThreadDelta, window_s: float) -> bool:
    """A thread that keeps waking on a timer and moves nothing: it retries something whose
    success one look cannot foresee."""
    w = t.wait
    timed = w is not None and (
        w.kind in (WaitKind.TIMED, WaitKind.SLEEP) or (w.kind is WaitKind.POLL and not waits_forever(t))
    )
    return timed and t.parked and (t.voluntary_ctxt or 0) >= RETRY_WAKEUPS and not t.moved


_INFINITE = {0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF}


def waits_forever(t: ThreadDelta) -> bool:
    """A wait with no deadline: an untimed futex, a read/write, or a poll whose timeout is
    infinite (poll/epoll: -1; ppoll/select: a NULL timeout pointer)."""
    w = t.wait
    if w is None:
        return False
    if w.kind in (WaitKind.LOCK, WaitKind.IO):
        return True
    if w.kind is not WaitKind.POLL or not w.syscall:
        return False
    at = {
        "poll": 2,
        "epoll_wait": 3,
        "epoll_pwait": 3,
        "ppoll": 2,
        "select": 4,
        "pselect6": 4,
        "epoll_pwait2": 3,
    }
    i = at.get(w.syscall)
    if i is None or len(t.args) <= i:
        return False
    arg = t.args[i]
    return arg == 0 if w.syscall in ("ppoll", "select", "pselect6", "epoll_pwait2") else arg in _INFINITE


WAKING_SIGNALS = (
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGQUIT,
)
"""Signals a program installs a handler for to be woken (SIGINT is Python's own, always caught)."""


def caught_signals(f: ProbeFinding, signals: tuple[signal.Signals, ...] = WAKING_SIGNALS) -> list[str]:
    """The names of `signals` the process catches (its ``SigCgt`` at the last sample), but for
    those its only thread blocks: their handlers cannot run (a mask inherited across fork and
    exec keeps a child's pause() from its own alarm)."""
    last = f.samples[-1] if f.samples else None
    if last is None:
        return []
    mask = last.sigcgt & ~last.sigblk if len(last.threads) == 1 else last.sigcgt
    return [signal.Signals(s).name for s in signals if mask & (1 << (s - 1))]


def wake_signals(f: ProbeFinding) -> list[str]:
    """The signals the process catches that may still come and run a handler: the waking ones,
    and SIGCHLD while a child of it lives (its exit sends one: a handler that sets an Event, an
    event loop's ``add_signal_handler(SIGCHLD)``), or where its children were not read."""
    last = f.samples[-1] if f.samples else None
    kids = last.children if last is not None else None
    return caught_signals(
        f, (*WAKING_SIGNALS, signal.SIGCHLD) if kids is None or kids > 0 else WAKING_SIGNALS
    )


def stranded_signals(f: ProbeFinding) -> list[str]:
    """Signals the process catches that were sent and wait, blocked, in its only thread's mask
    (``SigCgt & SigBlk & SigPnd``): the one it pauses for came and its handler cannot run (an alarm
    fired into a mask inherited across fork and exec). A thread that blocks it on purpose takes
    it with sigwait(), not pause()."""
    last = f.samples[-1] if f.samples else None
    if last is None or len(last.threads) != 1:
        return []
    mask = last.sigcgt & last.sigblk & last.sigpnd
    return [signal.Signals(s).name for s in signal.valid_signals() if 0 < s < 65 and mask & (1 << (s - 1))]


def private_futex(t: ThreadDelta) -> bool:
    """The thread's futex wait is process-private (FUTEX_PRIVATE_FLAG in its op): only a thread of
    its own process can wake it (a multiprocessing lock in shared memory is not private)."""
    return len(t.args) > 1 and bool(t.args[1] & FUTEX_PRIVATE_FLAG)


def shared_futex_waiters(threads: tuple[ThreadDelta, ...]) -> list[ThreadDelta]:
    """Threads in a futex wait without FUTEX_PRIVATE_FLAG: a futex in shared memory (a POSIX
    named semaphore, a process-shared mutex), which a thread of another process can wake. (A
    pthread join waits on the joined thread's id word without the flag too: the caller drops
    those, from their stacks.)"""
    return [
        t
        for t in threads
        if t.wait is not None
        and t.wait.kind is WaitKind.LOCK
        and t.futex_addr is not None
        and len(t.args) > 1
        and not private_futex(t)
    ]
