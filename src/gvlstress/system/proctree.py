"""Kill and reap process trees by pid, with deadlines.

Descendants are listed *before* anything is killed: once a parent dies its children are
re-parented and can no longer be found from it. Parents are killed *before* their descendants:
a hung worker reading a pipe whose writer is its child would otherwise see EOF when the child
dies first, and finish in the moment before its own SIGKILL (a hang turned into "slow").
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

import psutil


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return []


def kill_trees(pids: list[int], timeout: float = 5.0) -> list[int]:
    """SIGKILL every pid and its descendants; return pids still alive after `timeout`.

    Our own direct children are signalled but not reaped here: their owner (multiprocessing's
    Process.join) must collect the exit status, or it is lost.
    """
    victims: dict[int, psutil.Process] = {}
    below: list[psutil.Process] = []
    for pid in pids:
        below.extend(descendants(pid))
        try:
            victims[pid] = psutil.Process(pid)
        except psutil.NoSuchProcess:
            continue
    for child in below:  # after every root: nothing a root waits on dies while it can still run
        victims.setdefault(child.pid, child)
    for proc in victims.values():
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            proc.send_signal(signal.SIGKILL)
    me = os.getpid()
    others = []
    for proc in victims.values():
        try:
            if proc.ppid() != me:
                others.append(proc)
        except psutil.NoSuchProcess:
            continue
    # Dead once a zombie: its descriptors are closed and its memory freed; who reaps it (an init
    # that reaps every second or two, in some containers) is no reason to wait.
    end = time.monotonic() + timeout
    left = [p.pid for p in others]
    pause = 0.001
    while (left := [pid for pid in left if alive(pid)]) and time.monotonic() < end:
        time.sleep(pause)  # a /proc poll with a deadline
        pause = min(pause * 2, 0.05)
    return left


def alive(pid: int) -> bool:
    """True if `pid` exists and is not a zombie."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def exit_status(code: int | None) -> tuple[int | None, int | None]:
    """multiprocessing exitcode -> (exit code, signal number)."""
    if code is None:
        return None, None
    if code < 0:
        return None, -code
    return code, None


def signal_name(signum: int | None) -> str:
    if signum is None:
        return "-"
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


OWNER_VAR = "GVLSTRESS_OWNER"
"""Set in the environment of everything a harness starts (workers, tools, helpers): every
descendant inherits it, daemonized or not, so `sweep_owned` finds what a tree walk cannot."""


def boot_ticks() -> int:
    """Clock ticks since boot now, on the clock of /proc/PID/stat's start time."""
    try:
        with open("/proc/uptime") as fh:
            return int(float(fh.read().split()[0]) * os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0


def _start_ticks(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read()
        return int(text[text.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def owned(token: str, since: int, var: str = OWNER_VAR) -> list[int]:
    """Processes started at or after `since` (boot ticks) whose environment carries `var=token`."""
    needle = f"{var}={token}".encode()
    out = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        pid = int(entry)
        started = _start_ticks(pid)
        if started is None or started < since:
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                env = fh.read()
        except OSError:
            continue
        if needle in env.split(b"\0"):
            out.append(pid)
    return out


def sweep_owned(token: str, since: int, keep: set[int], var: str = OWNER_VAR) -> list[int]:
    """SIGKILL every process carrying `var=token` started since `since`, but those in `keep` and
    their descendants: what escaped a wave's process tree (a child that daemonized, a tool's
    double-forked grandchild; never one of our own children, which their owners reap). The
    pids killed."""
    spare = set(keep)
    for pid in keep:
        spare.update(p.pid for p in descendants(pid))
    victims = [p for p in owned(token, since, var) if p not in spare]
    for pid in victims:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return victims
