"""What a thread waits on, from /proc facts alone (pure).

Two things decide a verdict that a single snapshot shows alike: an untimed futex wait (a lock, a
latch, a condition nobody may signal) and a wait that ends by itself or from outside the process
(a read on a pipe, a poll, a sleep, a child's exit, a timed wait). The syscall number and its
arguments say which; wchan stands in where the syscall file is unreadable or reads
``restart_syscall`` (a ptrace tool attached earlier interrupted the wait).
"""

from __future__ import annotations

from gvlstress.model import ThreadDelta, Wait, WaitKind
from gvlstress.model.proc import FOREVER_S
from gvlstress.model.syscalls import FD_SYSCALLS, FILE_LOCK_SYSCALLS, futex_syscalls, syscall_name

_BY_SYSCALL: dict[str, WaitKind] = {
    **dict.fromkeys(FD_SYSCALLS, WaitKind.IO),
    **dict.fromkeys(
        ("poll", "ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait", "epoll_pwait2"), WaitKind.POLL
    ),
    **dict.fromkeys(("nanosleep", "clock_nanosleep"), WaitKind.SLEEP),
    **dict.fromkeys(("wait4", "waitid"), WaitKind.CHILD),
    **dict.fromkeys(("pause", "rt_sigsuspend", "rt_sigtimedwait"), WaitKind.SIGNAL),
    "sched_yield": WaitKind.RUNNING,
}
# wchan (kernel function) -> kind, for when the syscall view is missing or says restart_syscall.
_BY_WCHAN: tuple[tuple[str, WaitKind], ...] = (
    ("futex", WaitKind.LOCK),
    ("pipe_read", WaitKind.IO),
    ("pipe_write", WaitKind.IO),
    ("inet_csk_accept", WaitKind.IO),
    ("sk_wait", WaitKind.IO),
    ("unix_stream", WaitKind.IO),
    ("wait_woken", WaitKind.IO),
    ("poll", WaitKind.POLL),
    ("ep_poll", WaitKind.POLL),
    ("do_select", WaitKind.POLL),
    ("nanosleep", WaitKind.SLEEP),
    ("do_wait", WaitKind.CHILD),
    ("sigsuspend", WaitKind.SIGNAL),
    ("do_sigtimedwait", WaitKind.SIGNAL),
)
GIL_LIKE_SWITCHES_PER_S = 50.0
"""A timed futex waiter that wakes this often with ~no CPU re-waits on a condition in a loop
(CPython's GIL waiter wakes every 5 ms): it is blocked, not about to time out and go on."""


def _pid(v: int) -> int:
    """A pid_t argument: 32 bits, signed (a shell's wait4(-1) shows as 0xffffffff)."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def classify(t: ThreadDelta, window_s: float = 0.5) -> Wait:
    """The wait of one thread over a probe window."""
    if t.state in ("T", "t"):
        how = "stopped by a signal" if t.state == "T" else "stopped by a tracer"
        return Wait(WaitKind.STOPPED, None, how)
    if not t.parked:
        return Wait(WaitKind.RUNNING, None, f"running ({t.cpu_s:.2f} CPU-s in the window)")
    if t.state == "D":
        return Wait(
            WaitKind.DISK, syscall_name(t.syscall), f"uninterruptible sleep in {t.wchan or 'the kernel'}"
        )
    name = syscall_name(t.syscall)
    if t.syscall is not None and t.syscall in futex_syscalls():
        timed = len(t.args) > 3 and t.args[3] != 0
        rate = (t.voluntary_ctxt or 0) / max(window_s, 1e-9)
        if timed and rate < GIL_LIKE_SWITCHES_PER_S:
            return Wait(
                WaitKind.TIMED, name, f"timed futex wait on {t.futex_addr or 0:#x}", addr=t.futex_addr
            )
        what = "no timeout" if not timed else f"re-waiting {rate:.0f}x/s, like a GIL waiter"
        return Wait(
            WaitKind.LOCK,
            name,
            f"futex {t.futex_addr or 0:#x} ({what}{_held_by(t)})",
            addr=t.futex_addr,
            owner=t.mutex_owner,
            owner_pid=t.mutex_owner_pid,
        )
    if name in FILE_LOCK_SYSCALLS and t.args:
        target = f" ({t.fd_target})" if t.fd_target else ""
        holder = (
            f", held by pid {t.lock_holder}"
            if t.lock_holder and t.lock_holder > 0
            else ", held through another open file (OFD lock: no pid)"
            if t.lock_holder == -1
            else ""
        )
        return Wait(
            WaitKind.FILE_LOCK,
            name,
            f"{name}() for a lock on fd {t.args[0]}{target}{holder}",
            fd_target=t.fd_target,
            lock_holder=t.lock_holder,
        )
    if name in ("semop", "semtimedop") and t.args:
        timed = name == "semtimedop" and len(t.args) > 3 and t.args[3] != 0
        s = t.sysv
        what = (
            f"System V semaphore {s.semid}#{s.semnum} (value {s.value}, last operated on by pid {s.last_pid}"
            + ("" if s.last_alive else ", which has exited")
            + ")"
            if s is not None
            else f"System V semaphore set {t.args[0]}"
        )
        kind = WaitKind.TIMED if timed else WaitKind.SEMAPHORE
        return Wait(kind, name, f"{name}() on {what}" + (" with a timeout" if timed else ""), sem=s)
    if name in ("open", "openat", "openat2") and t.wchan and "wait_for_partner" in t.wchan:
        # a FIFO's open blocks until a process opens its other end: anyone may, from anywhere
        return Wait(WaitKind.IO, name, f"{name}() of a FIFO, until a process opens its other end")
    if name is not None and name in _BY_SYSCALL:
        kind = _BY_SYSCALL[name]
        if kind is WaitKind.IO and t.args:
            target = f" ({t.fd_target})" if t.fd_target else ""
            return Wait(kind, name, f"{name}() on fd {t.args[0]}{target}", fd_target=t.fd_target)
        if kind is WaitKind.CHILD and t.args:
            pid = _pid(t.args[0])
            who = f"child {pid}" if pid > 0 else "any child"
            return Wait(kind, name, f"{name}() for {who}", child=pid)
        if kind is WaitKind.SLEEP and t.sleep_left_s is not None:
            return Wait(kind, name, f"{name}() ({_left(t.sleep_left_s)})", left_s=t.sleep_left_s)
        return Wait(kind, name, f"{name}()")
    if name is None or name == "restart_syscall":
        for needle, kind in _BY_WCHAN:
            if t.wchan and needle in t.wchan:
                if kind is WaitKind.LOCK and name == "restart_syscall":
                    # only timed waits restart after a ptrace stop; untimed futex waits stay put
                    return Wait(WaitKind.TIMED, name, f"timed futex wait (per wchan {t.wchan})")
                if kind is WaitKind.LOCK:  # timeout unknown without the syscall view
                    return Wait(kind, name, f"futex wait (per wchan {t.wchan})")
                return Wait(kind, name, f"{kind.value} wait (per wchan {t.wchan})")
    if name == "restart_syscall":
        # The kernel restarts waits with a deadline this way (a sleep, a timed futex), and
        # poll() (read back as poll by the probe, `syscalls.restarted`): our own earlier attach
        # interrupted it, and it still ends by itself.
        return Wait(
            WaitKind.TIMED,
            name,
            "a timed wait (sleep, poll or futex) resumed after a ptrace stop (restart_syscall)",
        )
    return Wait(WaitKind.OTHER, name, f"{name or 'unknown'} ({t.wchan or t.state})")


def _left(seconds: float) -> str:
    """A sleep's timer in words: 'at most 16 s left', 'forever: 292 billion years left'."""
    if seconds >= FOREVER_S:
        years = seconds / (365.25 * 86400)
        return f"forever: {years:.3g} years left" if years < 1e6 else f"forever: {years:.2e} years left"
    return f"at most {seconds:.0f} s left"


def _held_by(t: ThreadDelta) -> str:
    """Who holds the pthread mutex a lock wait is on, as glibc's owner field names it."""
    owner, pid = t.mutex_owner, t.mutex_owner_pid
    if owner is None:
        return ""
    if owner == t.tid:
        return "; a pthread mutex this thread holds itself"
    if pid == 0:
        return f"; a pthread mutex held by thread {owner}, which has exited"
    return f"; a pthread mutex held by thread {owner}" + (f" of pid {pid}" if pid else "")
