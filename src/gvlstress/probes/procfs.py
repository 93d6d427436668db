"""Per-thread facts from ``/proc/PID/task/TID``: state, wchan, syscall + futex address, CPU ticks.

Needs no ptrace attach (only the same-user access rule), so it works where py-spy is denied,
and it sees every OS thread, including rayon's pool threads that py-spy cannot list.
Parsers are pure functions over file text so they can be tested on recorded samples.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from gvlstress.model import ProcSample, ThreadSample
from gvlstress.model.fd import FdTarget
from gvlstress.model.syscalls import (
    FD_SYSCALLS,
    FILE_LOCK_SYSCALLS,
    MACHINE,
    POLL_SYSCALLS,
    futex_syscalls,
    restarted,
    syscall_name,
)
from gvlstress.probes.filelocks import lock_holder
from gvlstress.probes.mutexes import held_by
from gvlstress.probes.pollsets import watched_fds
from gvlstress.probes.progress import terminal_stop
from gvlstress.probes.sleeps import SLEEPS, sleep_left
from gvlstress.probes.sysv import semaphore
from gvlstress.probes.wiring import master_of
from gvlstress.system.redact import redact_path, redact_text

PROBE_WINDOW_S = 0.5
"""Gap between the two /proc samples of a probe (CPU and context-switch deltas need both)."""


def _digits(text: str) -> bool:
    """ASCII digits only ('²'.isdigit() is true, and int('²') raises)."""
    return text.isascii() and text.isdigit()


def parse_stat(text: str) -> tuple[str, str, int, int]:
    """(comm, state, utime, stime) from a ``stat`` line; comm may hold spaces and parens."""
    open_paren = text.index("(")
    close_paren = text.rindex(")")
    comm = text[open_paren + 1 : close_paren]
    rest = text[close_paren + 2 :].split()
    if len(rest) < 13 or not _digits(rest[11]) or not _digits(rest[12]):
        raise ValueError(f"not a stat line: {text[:80]!r}")
    return comm, rest[0], int(rest[11]), int(rest[12])


def parse_minflt(text: str) -> int | None:
    """Minor page faults (field 10) from a ``stat`` line; None when it does not parse."""
    rest = text[text.rfind(")") + 2 :].split()
    return int(rest[7]) if len(rest) > 7 and _digits(rest[7]) else None


def parse_status(text: str) -> tuple[int | None, int | None]:
    """(voluntary, nonvoluntary) context switches from a ``status`` file."""
    vol = nonvol = None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        value = value.strip()
        if not _digits(value):
            continue
        if key == "voluntary_ctxt_switches":
            vol = int(value)
        elif key == "nonvoluntary_ctxt_switches":
            nonvol = int(value)
    return vol, nonvol


def parse_syscall(text: str, machine: str = MACHINE) -> tuple[int | None, int | None]:
    """(syscall number, futex address) from a ``syscall`` file.

    'running' and '-1 ...' (blocked outside a syscall) give (None, None); the futex address is
    the first argument when the number is a futex call on this architecture.
    """
    nr, args = parse_syscall_args(text)
    addr = args[0] if nr is not None and nr in futex_syscalls(machine) and args else None
    return nr, addr


def parse_syscall_args(text: str) -> tuple[int | None, tuple[int, ...]]:
    """(syscall number, its six arguments) from a ``syscall`` file (``nr a0..a5 sp pc``)."""
    parts = text.split()
    if not parts or parts[0] == "running":
        return None, ()
    try:
        nr = int(parts[0])
        args = tuple(int(p, 16) for p in parts[1:7])
    except ValueError:
        return None, ()
    if nr < 0:
        return None, ()
    return nr, args


def parse_sigcgt(text: str, key_wanted: str = "SigCgt") -> int:
    """The mask of signals a process catches (``SigCgt`` of its status file; ``SigBlk``: the
    ones its main thread blocks; ``SigPnd``/``ShdPnd``: the ones sent, not yet delivered); 0 if
    unknown."""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key == key_wanted:
            try:
                return int(value.strip(), 16)
            except ValueError:
                return 0
    return 0


def parse_schedstat(text: str) -> int | None:
    """Nanoseconds on CPU from a ``schedstat`` file (its first field); None when absent."""
    parts = text.split()
    if not parts or not _digits(parts[0]):
        return None
    return int(parts[0])


def parse_queued(text: str) -> int | None:
    """Nanoseconds runnable but waiting for a CPU (``schedstat``'s second field)."""
    parts = text.split()
    return int(parts[1]) if len(parts) > 1 and _digits(parts[1]) else None


PF_KTHREAD = 0x00200000
"""The kernel-thread bit of a ``stat`` line's flags (field 9)."""


def is_kernel_thread(pid: int, proc: Path = Path("/proc")) -> bool:
    """A kernel thread (kthreadd's children): no user memory, no user stack, nothing to inspect."""
    text = _read(proc / str(pid) / "stat")
    if text is None:
        return False
    fields = text[text.rfind(")") + 2 :].split()
    return len(fields) > 6 and _digits(fields[6]) and bool(int(fields[6]) & PF_KTHREAD)


def parse_wchan(text: str) -> str | None:
    text = text.strip()
    return None if text in ("", "0") else text


def _read(path: Path) -> str | None:
    try:  # a thread name is any bytes: one that is not UTF-8 is shown escaped, never dropped
        return path.read_text(errors="backslashreplace")
    except OSError:
        return None


def sample_thread(task_dir: Path) -> ThreadSample | None:
    """One thread, or None if it vanished while being read."""
    stat = _read(task_dir / "stat")
    if stat is None:
        return None
    try:
        comm, state, utime, stime = parse_stat(stat)
    except ValueError:
        return None
    vol, nonvol = parse_status(_read(task_dir / "status") or "")
    blocked = _read(task_dir / "syscall") or ""
    nr, args = parse_syscall_args(blocked)
    wchan = parse_wchan(_read(task_dir / "wchan") or "")
    nr = restarted(nr, wchan)  # a poll() an earlier look's ptrace stop interrupted: still that poll
    addr = args[0] if nr is not None and nr in futex_syscalls() and args else None
    io = parse_io(_read(task_dir / "io") or "")
    fd_target, holder = None, None
    name = syscall_name(nr)
    watched = None
    if name in POLL_SYSCALLS and args:
        watched = watched_fds(int(task_dir.parent.parent.name), name, args, task_dir.parent.parent)
    if nr is not None and args and (name in FD_SYSCALLS or name in FILE_LOCK_SYSCALLS):
        fd = task_dir.parent.parent / "fd" / str(args[0])
        link = _readlink(fd)
        fd_target = redact_path(link) if link else None
        if link == "/dev/ptmx":  # a pty master: which pty it is, so its slave's holders are found
            fd_target = master_of(task_dir.parent.parent / "fdinfo" / str(args[0])) or fd_target
        if name in FILE_LOCK_SYSCALLS:
            holder = lock_holder(fd, int(task_dir.parent.parent.name))
    left = sleep_left(task_dir.parent.parent / "mem", name, args) if name in SLEEPS and args else None
    sem = semaphore(task_dir.parent.parent / "mem", args) if name in ("semop", "semtimedop") else None
    owner, owner_in = held_by(task_dir, blocked, args) if addr is not None else (None, None)
    return ThreadSample(
        tid=int(task_dir.name),
        comm=redact_text(comm),
        state=state,
        wchan=wchan,
        syscall=nr,
        futex_addr=addr,
        utime=utime,
        stime=stime,
        voluntary_ctxt=vol,
        nonvoluntary_ctxt=nonvol,
        run_ns=parse_schedstat(sched := _read(task_dir / "schedstat") or ""),
        queued_ns=parse_queued(sched),
        args=args,
        fd_target=fd_target,
        lock_holder=holder,
        syscr=io.get("syscr"),
        syscw=io.get("syscw"),
        rchar=io.get("rchar"),
        wchar=io.get("wchar"),
        minflt=parse_minflt(stat),
        watched=watched,
        sleep_left_s=left,
        sysv=sem,
        mutex_owner=owner,
        mutex_owner_pid=owner_in,
    )


IO_KEYS = ("rchar", "wchar", "syscr", "syscw")


def parse_io(text: str) -> dict[str, int]:
    """Bytes moved and read/write-type syscalls made, from an ``io`` file (empty where it is
    unreadable: another user's process without ptrace rights)."""
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in IO_KEYS and _digits(value.strip()):
            out[key] = int(value)
    return out


def _readlink(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def live_children(pid: int, tids: list[str], proc: Path = Path("/proc")) -> int | None:
    """How many children of `pid` live (not zombies): each thread's ``children`` file names those
    it forked. None where the kernel has no such file (CONFIG_PROC_CHILDREN)."""
    kids: set[str] = set()
    for tid in tids:
        text = _read(proc / str(pid) / "task" / tid / "children")
        if text is None and tid == str(pid):
            return None  # no such file in this kernel (a thread that just ended has none either)
        kids.update((text or "").split())
    alive = 0
    for kid in kids:
        stat = _read(proc / kid / "stat") or ""
        alive += bool(stat) and stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] not in ("Z", "X")
    return alive


def sample(pid: int, proc: Path = Path("/proc")) -> ProcSample | None:
    """Every thread of `pid` now; None when the process is gone."""
    task_root = proc / str(pid) / "task"
    at = time.monotonic()
    try:
        tids = sorted(os.listdir(task_root), key=int)
    except (FileNotFoundError, ProcessLookupError, NotADirectoryError):
        return None
    threads = tuple(t for t in (sample_thread(task_root / tid) for tid in tids) if t is not None)
    if not threads:
        return None
    status = _read(proc / str(pid) / "status") or ""
    stat = _read(proc / str(pid) / "stat") or ""
    fields = stat[stat.rfind(")") + 2 :].split()
    by = terminal_stop(pid, fields, str(proc)) if any(t.state == "T" for t in threads) else None
    return ProcSample(
        pid=pid,
        at=at,
        threads=threads,
        sigcgt=parse_sigcgt(status),
        sigblk=parse_sigcgt(status, "SigBlk"),
        sigpnd=parse_sigcgt(status, "SigPnd") | parse_sigcgt(status, "ShdPnd"),
        pgrp=int(fields[2]) if len(fields) > 2 and _digits(fields[2]) else 0,
        children=live_children(pid, tids, proc),
        stopped_by=redact_path(_readlink(proc / str(pid) / "fd" / str(by[1])) or "a terminal")
        if by
        else None,
    )


def sample_pairs(pids: list[int], window: float) -> dict[int, tuple[ProcSample | None, ProcSample | None]]:
    """Two samples of every pid, `window` seconds apart (the CPU and switch deltas need both)."""
    if not pids:
        return {}
    first = {pid: sample(pid) for pid in pids}
    time.sleep(window)  # the measurement window itself, not a synchronisation
    return {pid: (first[pid], sample(pid)) for pid in pids}


def watch(pid: int, seconds: float, every: float = 0.25) -> list[ProcSample]:
    """Samples of `pid` every `every` seconds for `seconds` (fewer if it exits)."""
    out = []
    end = time.monotonic() + seconds
    while True:
        s = sample(pid)
        if s is None:
            break
        out.append(s)
        if time.monotonic() >= end:
            break
        time.sleep(min(every, max(0.0, end - time.monotonic())))  # the sampling interval itself
    return out


def pipe_ends(pid: int, proc: Path = Path("/proc")) -> dict[str, str]:
    """Pipes `pid` holds open: 'pipe:[inode]' -> 'r', 'w' or 'rw' (fd links, fdinfo flags)."""
    out: dict[str, str] = {}
    fd_dir = proc / str(pid) / "fd"
    try:
        fds = os.listdir(fd_dir)
    except OSError:
        return out
    for fd in fds:
        target = _readlink(fd_dir / fd)
        if not target or not FdTarget.parse(target).is_pipe:
            continue
        flags = 0
        for line in (_read(proc / str(pid) / "fdinfo" / fd) or "").splitlines():
            if line.startswith("flags:"):
                with contextlib.suppress(ValueError, IndexError):
                    flags = int(line.split()[1], 8)
        mode = "w" if flags & 3 == 1 else ("rw" if flags & 3 == 2 else "r")
        have = out.get(target, "")
        out[target] = (
            "".join(
                sorted(set(have + mode) & {"r", "w"}),
            )
            if have
            else mode
        )
    return out


def zombie_status(pid: int, proc: Path = Path("/proc")) -> int | None:
    """The wait status of `pid` if it is a zombie (dead, unreaped: /proc's stat field 52, its
    exit_code), else None. Read without reaping: the parent owns that."""
    text = _read(proc / str(pid) / "stat")
    if text is None:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    try:
        return int(fields[49]) if fields and fields[0] == "Z" and len(fields) > 49 else None
    except ValueError:
        return None


def forked_from(pid: int, proc: Path = Path("/proc")) -> int | None:
    """The parent pid if `pid` is a fork of it that did not exec (same executable, same
    command line), else None."""
    stat = _read(proc / str(pid) / "stat")
    if stat is None:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    if len(fields) < 2 or not _digits(fields[1]) or int(fields[1]) <= 1:
        return None
    ppid = int(fields[1])
    mine, theirs = proc / str(pid), proc / str(ppid)
    exe, cmd = _readlink(mine / "exe"), _read(mine / "cmdline")
    same = exe is not None and cmd and exe == _readlink(theirs / "exe") and cmd == _read(theirs / "cmdline")
    return ppid if same else None
