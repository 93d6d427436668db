"""Kill and reap process trees by pid, with deadlines.

Descendants are listed *before* anything is killed: once a parent dies its children are
re-parented and can no longer be found from it.
"""

from __future__ import annotations

import contextlib
import os
import signal

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
    for pid in pids:
        for child in descendants(pid):
            victims[child.pid] = child
        try:
            victims[pid] = psutil.Process(pid)
        except psutil.NoSuchProcess:
            continue
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
    _, left = psutil.wait_procs(others, timeout=timeout)
    return [p.pid for p in left if alive(p.pid)]


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
