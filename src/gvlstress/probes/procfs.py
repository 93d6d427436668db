"""Per-thread facts from ``/proc/PID/task/TID``: state, wchan, syscall + futex address, CPU ticks.

Needs no ptrace attach (only the same-user access rule), so it works where py-spy is denied,
and it sees every OS thread, including rayon's pool threads that py-spy cannot list.
Parsers are pure functions over file text so they can be tested on recorded samples.
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

from gvlstress.model import ProcSample, ThreadSample

CLK_TCK = os.sysconf("SC_CLK_TCK")

# Syscall numbers that mean "waiting on a futex", per architecture. Elsewhere: unsupported,
# and futex addresses are left out (the verdict then rests on states and CPU alone).
FUTEX_SYSCALLS: dict[str, frozenset[int]] = {
    "x86_64": frozenset({202, 449}),  # futex, futex_waitv
    "aarch64": frozenset({98, 449}),
}
SYSCALL_NAMES: dict[str, dict[int, str]] = {
    "x86_64": {
        0: "read",
        1: "write",
        7: "poll",
        23: "select",
        35: "nanosleep",
        61: "wait4",
        202: "futex",
        230: "clock_nanosleep",
        232: "epoll_wait",
        270: "pselect6",
        271: "ppoll",
        281: "epoll_pwait",
        449: "futex_waitv",
    },
    "aarch64": {
        63: "read",
        64: "write",
        73: "ppoll",
        98: "futex",
        101: "nanosleep",
        115: "clock_nanosleep",
        22: "epoll_pwait",
        260: "wait4",
        449: "futex_waitv",
    },
}
MACHINE = platform.machine()


def futex_syscalls(machine: str = MACHINE) -> frozenset[int]:
    return FUTEX_SYSCALLS.get(machine, frozenset())


def syscall_name(nr: int | None, machine: str = MACHINE) -> str | None:
    if nr is None:
        return None
    return SYSCALL_NAMES.get(machine, {}).get(nr, f"syscall {nr}")


def parse_stat(text: str) -> tuple[str, str, int, int]:
    """(comm, state, utime, stime) from a ``stat`` line; comm may hold spaces and parens."""
    open_paren = text.index("(")
    close_paren = text.rindex(")")
    comm = text[open_paren + 1 : close_paren]
    rest = text[close_paren + 2 :].split()
    if len(rest) < 13:
        raise ValueError(f"short stat line: {text[:80]!r}")
    return comm, rest[0], int(rest[11]), int(rest[12])


def parse_status(text: str) -> tuple[int | None, int | None]:
    """(voluntary, nonvoluntary) context switches from a ``status`` file."""
    vol = nonvol = None
    for line in text.splitlines():
        key, _, value = line.partition(":")
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
    parts = text.split()
    if not parts or parts[0] == "running":
        return None, None
    try:
        nr = int(parts[0])
    except ValueError:
        return None, None
    if nr < 0:
        return None, None
    addr = None
    if nr in futex_syscalls(machine) and len(parts) > 1:
        try:
            addr = int(parts[1], 16)
        except ValueError:
            addr = None
    return nr, addr


def parse_schedstat(text: str) -> int | None:
    """Nanoseconds on CPU from a ``schedstat`` file (its first field); None when absent."""
    parts = text.split()
    if not parts or not parts[0].isdigit():
        return None
    return int(parts[0])


def parse_wchan(text: str) -> str | None:
    text = text.strip()
    return None if text in ("", "0") else text


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
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
    nr, addr = parse_syscall(_read(task_dir / "syscall") or "")
    return ThreadSample(
        tid=int(task_dir.name),
        comm=comm,
        state=state,
        wchan=parse_wchan(_read(task_dir / "wchan") or ""),
        syscall=nr,
        futex_addr=addr,
        utime=utime,
        stime=stime,
        voluntary_ctxt=vol,
        nonvoluntary_ctxt=nonvol,
        run_ns=parse_schedstat(_read(task_dir / "schedstat") or ""),
    )


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
    return ProcSample(pid=pid, at=at, threads=threads)
