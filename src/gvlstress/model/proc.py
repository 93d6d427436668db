"""What /proc shows of a process, and what a probe of it found."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gvlstress.model.fd import FdTarget


@dataclass(frozen=True, slots=True)
class ThreadSample:
    """One thread as ``/proc/PID/task/TID`` showed it at one instant."""

    tid: int
    comm: str
    state: str
    wchan: str | None
    syscall: int | None
    """Syscall number the thread is blocked in; None when running or unreadable."""
    futex_addr: int | None
    """First argument of a futex syscall: threads on one address wait on one lock or latch."""
    utime: int
    stime: int
    voluntary_ctxt: int | None
    nonvoluntary_ctxt: int | None
    run_ns: int | None = None
    """Precise CPU time from ``schedstat`` (None where the kernel does not provide it)."""
    args: tuple[int, ...] = ()
    """The blocked syscall's six arguments (fd, futex op and timeout pointer, wait4's pid...)."""
    fd_target: str | None = None
    """What the fd of a blocked read/write/accept... links to (``pipe:[123]``, ``socket:[4]``)."""
    lock_holder: int | None = None
    """A flock/fcntl wait: the pid /proc/locks names as holding the file's lock (-1: an OFD lock,
    whose holder the kernel does not name)."""
    syscr: int | None = None
    """Read-type syscalls so far (``/proc/.../io``): with ``syscw``, the syscall activity."""
    syscw: int | None = None
    rchar: int | None = None
    """Bytes read so far by any read-type syscall (``/proc/.../io``): with ``wchar``, whether a
    busy thread moves data at all (a spin moves none)."""
    wchar: int | None = None
    minflt: int | None = None
    """Minor page faults so far (``stat`` field 10): touching new memory, as real work does."""
    watched: tuple[tuple[int, str], ...] | None = None
    """A poll/select/epoll wait's descriptors and what each links to (None: not such a wait, or
    its memory could not be read)."""
    sysv: SysvSem | None = None
    """A semop wait: the System V semaphore, its value and its last operator."""
    sleep_left_s: float | None = None
    """A nanosleep/clock_nanosleep: the seconds its timer has left at most (read from the sleeper's
    memory; None: not a sleep, or unreadable). ``sleep infinity`` has billions of years left."""
    queued_ns: int | None = None
    """Time spent runnable but waiting for a CPU (``schedstat``'s second field): a spinner on a
    loaded host gets little CPU, but is runnable all the time."""
    mutex_owner: int | None = None
    """A wait to lock a glibc pthread mutex: the thread id its owner field names (probes.mutexes)."""
    mutex_owner_pid: int | None = None
    """That thread's process; 0 when no such thread exists any more (it exited holding it)."""

    @property
    def ticks(self) -> int:
        return self.utime + self.stime

    @property
    def link(self) -> FdTarget:
        """`fd_target` typed (its kind, inode or path); the empty text's when there is none."""
        return FdTarget.parse(self.fd_target or "")


@dataclass(frozen=True)
class ProcSample:
    """All threads of one process at one instant (monotonic seconds)."""

    pid: int
    at: float
    threads: tuple[ThreadSample, ...]
    sigcgt: int = 0
    """Signals the process catches (a daemon waiting for SIGTERM is idle, not deadlocked)."""
    sigblk: int = 0
    """Signals its main thread blocks (``SigBlk``): a handler of one of them cannot run there."""
    sigpnd: int = 0
    """Signals sent and not yet delivered (``SigPnd`` of its main thread and the process's
    ``ShdPnd``): one pending that it catches and blocks came and cannot run its handler."""
    pgrp: int = 0
    """Its process group (``stat`` field 5; 0: not read)."""
    children: int | None = None
    """Its live children (not zombies), from ``/proc/PID/task/*/children``: a child's exit sends
    it a SIGCHLD, which a handler may turn into a wake-up. None: not read (a core file)."""
    stopped_by: str | None = None
    """The terminal (its path) whose job control stopped it: it read, wrote or set that terminal,
    its controlling one, from a background process group (SIGTTIN, SIGTTOU). None: not stopped,
    or stopped by a signal someone sent."""


@dataclass(frozen=True, slots=True)
class SysvSem:
    """A System V semaphore a thread waits on in semop()."""

    semid: int
    semnum: int
    value: int
    last_pid: int
    """The last process that operated on it (semctl GETPID): at 0, the one that took it."""
    last_alive: bool


FOREVER_S = 7 * 86400.0
"""A sleep with more than a week left is no timer a job waits out: it waits forever."""


class WaitKind(StrEnum):
    RUNNING = "running"
    STOPPED = "stopped"
    LOCK = "lock"
    """An untimed futex wait: a lock, a latch, a condition variable; only another thread ends it."""
    TIMED = "timed"
    """A futex wait with a timeout: it wakes by itself (Event.wait(1.0), a GIL waiter's 5 ms)."""
    IO = "io"
    POLL = "poll"
    SLEEP = "sleep"
    CHILD = "child"
    SIGNAL = "signal"
    DISK = "disk"
    FILE_LOCK = "file lock"
    SEMAPHORE = "semaphore"
    """System V semop(): another process's semop ends it (a semaphore has no owner)."""
    """flock/fcntl: a lock on a file, released by whoever holds it (often another process)."""
    OTHER = "other"

    @property
    def external(self) -> bool:
        """Ends by itself or from outside the process: never part of a closed wait cycle."""
        return self in _EXTERNAL


_EXTERNAL = frozenset(
    {
        WaitKind.TIMED,
        WaitKind.IO,
        WaitKind.POLL,
        WaitKind.SLEEP,
        WaitKind.CHILD,
        WaitKind.SIGNAL,
        WaitKind.DISK,
        WaitKind.FILE_LOCK,
        WaitKind.SEMAPHORE,
    }
)


@dataclass(frozen=True, slots=True)
class Wait:
    kind: WaitKind
    syscall: str | None
    detail: str
    """Human words: 'read() on fd 3 (pipe:[30468])', 'futex 0x55d0 (no timeout)'."""
    addr: int | None = None
    child: int | None = None
    """wait4/waitid: the pid waited for (-1: any child)."""
    fd_target: str | None = None
    lock_holder: int | None = None
    left_s: float | None = None
    """A sleep: the seconds its timer has left at most (None: unknown)."""
    sem: SysvSem | None = None
    """A System V semaphore wait: which, its value, its last operator."""
    owner: int | None = None
    """A pthread mutex's lock wait: the thread that holds it (glibc's owner field)."""
    owner_pid: int | None = None
    """That thread's process (0: the thread exited holding the mutex)."""

    @property
    def forever(self) -> bool:
        """A sleep whose timer will not fire within any job's life (``sleep infinity``)."""
        return self.kind is WaitKind.SLEEP and self.left_s is not None and self.left_s >= FOREVER_S

    @property
    def link(self) -> FdTarget:
        """`fd_target` typed (its kind, inode or path); the empty text's when there is none."""
        return FdTarget.parse(self.fd_target or "")


@dataclass(frozen=True, slots=True)
class ThreadDelta:
    """One thread across two samples: what decides parked vs burning."""

    tid: int
    comm: str
    state: str
    """State at the second sample."""
    wchan: str | None
    syscall: int | None
    futex_addr: int | None
    cpu_s: float
    voluntary_ctxt: int | None
    nonvoluntary_ctxt: int | None
    state_first: str = "S"
    """State at the first sample."""
    parked: bool = False
    """Asleep at a sample and (almost) no CPU in between (see diagnose.thread_deltas)."""
    args: tuple[int, ...] = ()
    fd_target: str | None = None
    lock_holder: int | None = None
    wait: Wait | None = None
    """What it waits on (waits.classify); None only in records older than that field."""
    watched: tuple[tuple[int, str], ...] | None = None
    """A poll/select/epoll wait's descriptors and their targets (see ThreadSample)."""
    calls: int | None = None
    """Read- and write-type syscalls made over the window (None where /proc/.../io is unreadable)."""
    moved: int | None = None
    """Bytes read and written over the window (rchar + wchar deltas; None where unreadable)."""
    faults: int | None = None
    """Minor page faults over the window."""
    runnable_s: float | None = None
    """Seconds it ran or waited to run over the window (None without schedstat)."""
    sleep_left_s: float | None = None
    """A sleep's timer: seconds left at most (see ThreadSample)."""
    sysv: SysvSem | None = None
    """A semop wait's semaphore (see ThreadSample)."""
    mutex_owner: int | None = None
    """A pthread mutex's lock wait: its owner's thread id (see ThreadSample)."""
    mutex_owner_pid: int | None = None

    @property
    def link(self) -> FdTarget:
        """`fd_target` typed (its kind, inode or path); the empty text's when there is none."""
        return FdTarget.parse(self.fd_target or "")


@dataclass(frozen=True)
class FutexGroup:
    """Threads blocked on one futex address (one lock, condvar or latch)."""

    addr: int
    tids: tuple[int, ...]


class ProbeKind(StrEnum):
    """What two ``/proc`` samples (and, once taken, the stacks) say about a process.

    With a progress signal (``run``: the heartbeat went quiet) burning CPU is ``livelock`` and a
    wait that ends from outside is ``waiting``; without one (``inspect``) they are ``busy`` and
    ``idle``, since one look cannot tell a livelock from work or a hang from a quiet service.
    """

    DEADLOCK = "deadlock"
    LIVELOCK = "livelock"
    WAITING = "waiting"
    STALLED = "stalled"
    STOPPED = "stopped"
    BUSY = "busy"
    IDLE = "idle"
    GONE = "gone"


@dataclass(frozen=True)
class ProbeFinding:
    """The /proc verdict for one process, with the evidence that decided it."""

    pid: int
    kind: ProbeKind
    window_s: float
    cpu_s: float
    """CPU seconds all threads used during the window."""
    threads: tuple[ThreadDelta, ...]
    futex_groups: tuple[FutexGroup, ...]
    reason: str
    samples: tuple[ProcSample, ...] = field(default=(), metadata={"file_only": True})
    """The two raw samples (written as proc.json next to the report, not into run.json)."""
    progress_tid: int | None = None
    """The thread that must make progress (run: the one calling the target; inspect: main)."""
    chain: tuple[str, ...] = ()
    """How the wait of that thread was followed, one line per step (evidence)."""
    idle: tuple[str, ...] = ()
    """Threads recognised as idle by design, as 'tid: what' (listed, never evidence)."""

    def progress_thread(self) -> ThreadDelta | None:
        """The thread that must make progress (its main thread when none was named)."""
        tid = self.progress_tid if self.progress_tid is not None else self.pid
        return next((t for t in self.threads if t.tid == tid), None)

    @property
    def n_parked(self) -> int:
        return sum(1 for t in self.threads if t.parked)

    @property
    def n_futex(self) -> int:
        return sum(len(g.tids) for g in self.futex_groups)
