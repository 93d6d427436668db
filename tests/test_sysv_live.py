"""System V semaphores on real processes: the probe reads which semaphore a semop() waits on, its
value and its last operator (semctl GETPID), and a wait whose taker died holding it (no
SEM_UNDO) is a dead party, while one whose taker lives and will post it is idle."""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import wait_for
from gvlstress.model import ThreadSample
from gvlstress.probes import procfs
from test_real_processes import inspect, shape

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]
IPC_RMID = 0


@contextmanager
def holder(mode: str) -> Iterator[int]:
    """The corpus program in `mode`, once ready; its semaphore set removed on the way out."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    with shape("sysv_holder", mode) as (proc, lines):
        semid = int(next(x for x in lines if x.startswith("sem ")).split()[1])
        try:
            yield proc.pid
        finally:
            libc.semctl(semid, 0, IPC_RMID)


def test_the_probe_reads_the_semaphore_and_its_last_operator() -> None:
    def in_semop(pid: int) -> ThreadSample | None:
        sample = procfs.sample(pid)
        main = next((t for t in sample.threads if t.tid == pid), None) if sample else None
        return main if main is not None and main.sysv is not None else None

    with holder("dead") as pid:
        main = wait_for(lambda: in_semop(pid), 30, "the main thread blocked in semop()")
    assert (main.sysv.semnum, main.sysv.value, main.sysv.last_alive) == (0, 0, False)
    assert main.sysv.last_pid > 0


def test_a_semaphore_whose_taker_died_is_a_dead_party(report_dir: Path) -> None:
    with holder("dead") as pid:
        code, data = inspect(pid, report_dir)
    (p,) = data["processes"]
    assert (code, p["diagnosis"]["pattern"]) == (
        1,
        "a lock shared between processes is held by a process that died",
    )
    assert p["diagnosis"]["waitfor"]["end"] == "dead or gone party"


def test_a_semaphore_whose_taker_lives_is_idle(report_dir: Path) -> None:
    with holder("alive") as pid:
        code, data = inspect(pid, report_dir)
    (p,) = data["processes"]
    assert (code, p["diagnosis"]["verdict"]) == (0, "idle"), p["diagnosis"]["summary"]
    assert p["diagnosis"]["waitfor"]["end"] == "may still end from outside"
