"""Builders for the rules over a look (`judge.across`): processes, their threads over a window
(two /proc samples, three looks at their stacks), the pipes and sockets between them.

A test names only what its shape is about: every field has a plain default. Native frames are
written ``name@module`` (the module as eu-stack or pystack print it), so a library is known by
its module even where its symbols are stripped (``??@/x/lib.so``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gvlstress.judge.across import Judged, judge_look
from gvlstress.judge.verdict import judge
from gvlstress.model import (
    Capture,
    Frame,
    NativeThread,
    ProbeKind,
    ProcSample,
    PyThread,
    StackSample,
    ThreadSample,
    ThreadView,
    ToolRun,
)
from gvlstress.model.look import Look, Looked
from gvlstress.model.proc import SysvSem
from gvlstress.model.stacks import Local
from gvlstress.model.wiring import Churn, Endpoint, Exit, Holder, OpenFile, Relatives, SharedLock, Wiring
from gvlstress.probes.procfs import parse_syscall_args

WINDOW = 2.0
LOCK = "202 0x{addr:x} 0x189 0x0 0x0 0x0 0xffffffff 0x7f0 0x7f1"
MUTEX = "202 0x{addr:x} 0x80 0x2 0x0 0x0 0xffffffff 0x7f0 0x7f1"
"""A plain pthread mutex's lock wait: FUTEX_WAIT_PRIVATE on the value 2."""
SHARED_LOCK = "202 0x{addr:x} 0x109 0x0 0x0 0x0 0xffffffff 0x7f0 0x7f1"
TIMED = "202 0x{addr:x} 0x189 0x0 0x7ffd00001000 0x0 0xffffffff 0x7f0 0x7f1"
READ = "0 0x{fd:x} 0x7f2e180d68d0 0x4 0x0 0x0 0x0 0x7f0 0x7f1"
WRITE = "1 0x{fd:x} 0x7f2e180d68d0 0xa00009 0x0 0x0 0x0 0x7f0 0x7f1"
POLL = "7 0x7f0000001000 0x{n:x} 0x{timeout:x} 0x0 0x0 0x0 0x7f0 0x7f1"
EPOLL = "232 0x{epfd:x} 0x7f0000001000 0x400 0x{timeout:x} 0x0 0x0 0x7f0 0x7f1"
SLEEP = "230 0x1 0x1 0x7ffe144b26d0 0x0 0x0 0x0 0x7f0 0x7f1"
ACCEPT = "288 0x{fd:x} 0x7ffd8ea856b0 0x7ffd8ea856a4 0x80000 0x0 0x0 0x7f0 0x7f1"
FOREVER = 0xFFFFFFFF
LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"
PYTHON = "/usr/lib/libpython3.11.so.1.0"
STARTED = (f"start_thread@{LIBC}", f"__clone3@{LIBC}")
"""The outermost frames of every thread a library started (innermost first)."""
PY_STARTED = (f"pythread_wrapper@{PYTHON}", *STARTED)


@dataclass(frozen=True)
class Th:
    """One thread over the window."""

    tid: int
    syscall: str | None = None
    """The /proc syscall line (None: running)."""
    state: str = "S"
    cpu_ms: float = 0.0
    vol: int = 0
    comm: str = "python3"
    fd: str | None = None
    """What the fd of an I/O wait links to."""
    watched: tuple[tuple[int, str], ...] | None = None
    """A poll/epoll wait's descriptors."""
    moved: int = 0
    """Bytes read and written over the window."""
    native: tuple[str, ...] = ()
    """``name@module``, innermost first."""
    py: tuple[tuple[str, str, int], ...] = ()
    """(function, file, line), innermost first."""
    gil: bool = False
    later_py: tuple[tuple[str, str, int], ...] | None = None
    """Its Python frames at the later looks (default: as at the first)."""
    later_native: tuple[str, ...] | None = None
    """Its native frames at the last look (default: as at the first)."""
    left_s: float | None = None
    """A sleep's timer: the seconds it has left (read from its memory by the probe)."""
    sysv: SysvSem | None = None
    """A semop wait's System V semaphore (value, last operator)."""
    holder: int | None = None
    """A file-lock wait's holder (/proc/locks: the pid, -1 for an OFD lock)."""
    owner: int | None = None
    """A pthread mutex wait's owner thread (glibc's owner field, `probes.mutexes`)."""
    owner_pid: int | None = None
    """That thread's process (0: no such thread any more)."""


@dataclass(frozen=True)
class Proc:
    pid: int
    threads: tuple[Th, ...]
    parent: int | None = 1
    started: float = 0.0
    forked_from: int | None = None
    files: tuple[OpenFile, ...] = ()
    zombies: Mapping[int, int] = field(default_factory=dict)
    """Dead, unreaped children: pid -> wait status."""
    progress: bool = False
    """A run worker (the heartbeat went quiet) rather than a process inspect looks at."""
    sigcgt: int = 1 << 1
    """The signals it catches (SIGINT, as every Python program)."""
    sigblk: int = 0
    """The signals its main thread blocks."""
    sigpnd: int = 0
    """The signals sent to it and not yet delivered (pending)."""
    pipes: Mapping[str, str] = field(default_factory=dict)
    """The pipes it holds: 'pipe:[N]' -> 'r', 'w' or 'rw' (``--tree``)."""
    locals: tuple[Local, ...] = ()
    """The Python locals the look took (a feeder's `obj`, an event loop's timers)."""
    pgrp: int = 0
    """Its process group (0: not read)."""
    stopped_by: str | None = None
    """The terminal whose job control stopped it (see `model.ProcSample`)."""
    children: int | None = 0
    """Its live children, as /proc counts them (None: not read)."""


def frames(names: tuple[str, ...]) -> tuple[Frame, ...]:
    out = []
    for n in names:
        name, _, module = n.partition("@")
        out.append(Frame(name, module=module or None))
    return tuple(out)


def py_frames(py: tuple[tuple[str, str, int], ...]) -> tuple[Frame, ...]:
    return tuple(Frame(name, file, line) for name, file, line in py)


def proc_sample(p: Proc, second: bool) -> ProcSample:
    """Its first /proc sample, or its second one a WINDOW later."""
    return sample_at(p, WINDOW if second else 0.0)


def sample_at(p: Proc, elapsed: float) -> ProcSample:
    """Its /proc sample `elapsed` seconds into the window: every counter (CPU, switches, bytes)
    grows at the rate its thread's figure over WINDOW says."""
    share = elapsed / WINDOW
    threads = []
    for t in p.threads:
        nr, args = parse_syscall_args(t.syscall or "running")
        threads.append(
            ThreadSample(
                tid=t.tid,
                comm=t.comm,
                state=t.state,
                wchan=None,
                syscall=nr,
                futex_addr=args[0] if nr == 202 and args else None,
                utime=0,
                stime=0,
                voluntary_ctxt=round(t.vol * share),
                nonvoluntary_ctxt=0,
                run_ns=int(t.cpu_ms * 1e6 * share),
                args=args,
                fd_target=t.fd,
                syscr=0,
                syscw=0,
                rchar=round(t.moved * share),
                wchar=0,
                minflt=0,
                watched=t.watched,
                queued_ns=0,
                sleep_left_s=t.left_s,
                sysv=t.sysv,
                lock_holder=t.holder,
                mutex_owner=t.owner,
                mutex_owner_pid=t.owner_pid,
            )
        )
    return ProcSample(
        p.pid,
        elapsed,
        tuple(threads),
        p.sigcgt,
        p.sigblk,
        p.sigpnd,
        pgrp=p.pgrp,
        children=p.children,
        stopped_by=p.stopped_by,
    )


def python_threads(p: Proc, later: bool) -> tuple[PyThread, ...]:
    out = []
    for t in p.threads:
        py = t.later_py if later and t.later_py is not None else t.py
        if py or t.gil:
            name = "MainThread" if t.tid == p.pid else f"Thread-{t.tid}"
            out.append(PyThread(t.tid, name, t.gil, t.syscall is None, py_frames(py)))
    return tuple(out)


def _futex_addr(t: Th) -> int | None:
    """The futex a thread waits on, as the capture merges it from /proc (its syscall line)."""
    if t.syscall is None:
        return None
    nr, args = parse_syscall_args(t.syscall)
    return args[0] if nr == 202 and args else None


def capture(p: Proc) -> Capture:
    py = {t.tid: t for t in python_threads(p, later=False)}
    views = tuple(
        ThreadView(
            t.tid,
            t.comm,
            t.state,
            None,
            _futex_addr(t),
            None,
            t.cpu_ms / 1000,
            0,
            0,
            py.get(t.tid),
            frames(t.native),
        )
        for t in p.threads
    )
    last = tuple(
        NativeThread(t.tid, None, frames(t.later_native if t.later_native is not None else t.native))
        for t in p.threads
    )
    resamples = (
        StackSample(0.7, python_threads(p, later=True)),
        StackSample(1.4, python_threads(p, later=True)),
        StackSample(1.9, python_threads(p, later=True), last),
    )
    return Capture(
        p.pid,
        views,
        ToolRun("py-spy", True, 0.1),
        ToolRun("pystack", True, 0.3),
        forked_from=p.forked_from,
        resamples=resamples,
        locals=p.locals,
    )


@dataclass(frozen=True)
class World:
    """Processes looked at together, and what connects them."""

    procs: tuple[Proc, ...]
    sockets: Mapping[int, Endpoint] = field(default_factory=dict)
    holders: Mapping[str, tuple[Holder, ...]] = field(default_factory=dict)
    tree: bool = True
    shared: Mapping[tuple[int, int], SharedLock] = field(default_factory=dict)
    """The shared lock each (pid, futex address) waits on."""
    churn: Mapping[int, Churn] = field(default_factory=dict)
    exited: tuple[Exit, ...] = ()
    """What a watch saw exit before the look (its history)."""
    flock_takers: frozenset[int] | None = None
    """Every pid holding or waiting for a flock on the host (/proc/locks)."""

    def judged(self) -> Judged:
        return judge_look(self.look())

    def look(self) -> Look:
        findings = {}
        for p in self.procs:
            a, b = proc_sample(p, False), proc_sample(p, True)
            findings[p.pid] = judge(a, b, progress_tid=p.pid, progress=p.progress)
        captures = {p.pid: capture(p) for p in self.procs}
        relatives = Relatives(
            parents={p.pid: p.parent for p in self.procs},
            started={p.pid: p.started for p in self.procs},
            zombies={p.pid: p.zombies for p in self.procs},
            pipes={p.pid: p.pipes for p in self.procs if p.pipes},
            tree=self.tree,
            churn=self.churn,
            exited=self.exited,
        )
        wiring = Wiring(
            {p.pid: p.files for p in self.procs},
            self.sockets,
            self.holders,
            shared=self.shared,
            flock_takers=self.flock_takers,
        )
        progress = frozenset(p.pid for p in self.procs if p.progress)
        looked = {p: Looked(f, captures[p], ()) for p, f in findings.items()}
        return Look(looked, relatives, wiring, progress, tuple(findings))

    def named(self, pid: int) -> tuple[ProbeKind, str | None]:
        """The verdict of `pid` and its pattern as the report names it (a closed wait set that
        no rule across processes named is named from its own stacks, as `explain` does)."""
        j = self.judged()[pid]
        return j.finding.kind, j.named.pattern if j.named else None


def held(target: str, *by: tuple[int, int, str]) -> dict[str, tuple[Holder, ...]]:
    """{target: holders} from (pid, fd, mode) triples."""
    return {target: tuple(Holder(pid, fd, mode) for pid, fd, mode in by)}
