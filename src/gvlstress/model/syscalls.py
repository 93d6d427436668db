"""The machine's syscall numbers and clock: data both the probes (reading /proc) and the judges
(naming a wait) need, kept here so judging imports no probe."""

from __future__ import annotations

import os
import platform

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
        2: "open",
        7: "poll",
        16: "ioctl",
        17: "pread64",
        18: "pwrite64",
        19: "readv",
        20: "writev",
        23: "select",
        24: "sched_yield",
        34: "pause",
        35: "nanosleep",
        42: "connect",
        43: "accept",
        44: "sendto",
        45: "recvfrom",
        46: "sendmsg",
        47: "recvmsg",
        61: "wait4",
        64: "semop",
        69: "msgsnd",
        70: "msgrcv",
        72: "fcntl",
        73: "flock",
        128: "rt_sigtimedwait",
        130: "rt_sigsuspend",
        202: "futex",
        219: "restart_syscall",
        220: "semtimedop",
        230: "clock_nanosleep",
        232: "epoll_wait",
        247: "waitid",
        257: "openat",
        270: "pselect6",
        271: "ppoll",
        281: "epoll_pwait",
        288: "accept4",
        299: "recvmmsg",
        437: "openat2",
        441: "epoll_pwait2",
        449: "futex_waitv",
    },
    "aarch64": {
        22: "epoll_pwait",
        25: "fcntl",
        29: "ioctl",
        32: "flock",
        56: "openat",
        63: "read",
        64: "write",
        65: "readv",
        66: "writev",
        67: "pread64",
        72: "pselect6",
        73: "ppoll",
        95: "waitid",
        98: "futex",
        189: "msgsnd",
        188: "msgrcv",
        193: "semop",
        192: "semtimedop",
        101: "nanosleep",
        115: "clock_nanosleep",
        124: "sched_yield",
        128: "restart_syscall",
        133: "rt_sigsuspend",
        137: "rt_sigtimedwait",
        202: "accept",
        203: "connect",
        206: "sendto",
        207: "recvfrom",
        211: "sendmsg",
        212: "recvmsg",
        242: "accept4",
        260: "wait4",
        437: "openat2",
        441: "epoll_pwait2",
        449: "futex_waitv",
    },
}
FD_SYSCALLS = frozenset(
    {
        "read",
        "write",
        "pread64",
        "pwrite64",
        "readv",
        "writev",
        "connect",
        "accept",
        "accept4",
        "sendto",
        "recvfrom",
        "sendmsg",
        "recvmsg",
        "recvmmsg",
    }
)
"""Syscalls whose first argument is the file descriptor they block on."""
POLL_SYSCALLS = frozenset(
    {"poll", "ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait", "epoll_pwait2"}
)
"""Waits on a set of descriptors: which ones is read from the process's memory (poll, select)
or from the epoll descriptor's fdinfo."""
FILE_LOCK_SYSCALLS = frozenset({"flock", "fcntl"})
"""Waits for a file lock (flock, fcntl F_SETLKW): its first argument is the locked file's fd."""
MACHINE = platform.machine()


def futex_syscalls(machine: str = MACHINE) -> frozenset[int]:
    return FUTEX_SYSCALLS.get(machine, frozenset())


def syscall_number(name: str, machine: str = MACHINE) -> int | None:
    """The number of syscall `name` here (None: this machine has no such syscall, or is unknown)."""
    return next((nr for nr, n in SYSCALL_NAMES.get(machine, {}).items() if n == name), None)


def restarted(nr: int | None, wchan: str | None, machine: str = MACHINE) -> int | None:
    """The syscall a ``restart_syscall`` resumes, where the kernel says which: ``poll()``
    interrupted by a signal or a ptrace stop (a stack tool's) resumes as ``restart_syscall``
    with its arguments still in the registers, asleep in ``poll_schedule_timeout``; ``ppoll``,
    ``select`` and ``epoll_wait`` restart as themselves. Else `nr` unchanged."""
    if syscall_name(nr, machine) == "restart_syscall" and wchan and wchan.startswith("poll_schedule_timeout"):
        return syscall_number("poll", machine) or nr
    return nr


def syscall_name(nr: int | None, machine: str = MACHINE) -> str | None:
    if nr is None:
        return None
    return SYSCALL_NAMES.get(machine, {}).get(nr, f"syscall {nr}")
