"""The handshake every catalogue trigger uses: poll /proc (bounded) until the hang is in
place, then print `look <pid>` (the process to inspect) and `ready`. Standalone: a trigger may
run in a venv that has no gvlstress."""

# ruff: noqa: T201  (printing the handshake is the protocol)

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import threading
import time
from collections.abc import Callable

NO_RUNTIME = 4
"""Exit code of a trigger whose runtime this host lacks (the catalogue reports a skip)."""
FUTEX = {"x86_64": "202", "aarch64": "98"}.get(os.uname().machine, "202")


def syscalls(pid: int) -> list[str]:
    """The syscall number (or 'running') of each thread of `pid`; [] if it is gone."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                out.append(fh.read().split()[0])
    except (OSError, IndexError):
        return []
    return out


def settled(check: Callable[[], bool], what: str, timeout: float = 30.0, stable: int = 5) -> None:
    """Wait until `check()` holds for `stable` polls in a row; exit 3 after `timeout`."""
    deadline = time.monotonic() + timeout
    run = 0
    while run < stable:
        if time.monotonic() > deadline:
            print(f"never {what}", file=sys.stderr, flush=True)
            os._exit(3)
        run = run + 1 if check() else 0
        time.sleep(0.05)


def parked(pid: int, threads: int | None = None) -> bool:
    """Every thread of `pid` in a futex wait (and, given `threads`, exactly that many)."""
    calls = syscalls(pid)
    return bool(calls) and all(c == FUTEX for c in calls) and (threads is None or len(calls) == threads)


def announce(look: int) -> None:
    print(f"look {look}", flush=True)
    print("ready", flush=True)


def forever() -> None:
    while True:
        time.sleep(3600)


def control() -> bool:
    """Run the fixed variant (the documented workaround) instead of the trigger."""
    return sys.argv[1:2] == ["control"]


def in_futex(pid: int) -> int:
    """How many threads of `pid` are in a futex wait."""
    return _count(syscalls(pid), FUTEX)


def _count(calls: list[str], nr: str) -> int:
    return sum(1 for c in calls if c == nr)


def fork_or_spawn(work: Callable[[], object]) -> None:
    """The fork-after-a-pool triggers: `work` (a module-level function) in a forked child, which
    hangs, announced once parked; in control, in a spawn child, which must finish (exit code)."""
    if control():
        p = mp.get_context("spawn").Process(target=work)
        p.start()
        p.join(timeout=120)
        sys.exit(0 if p.exitcode == 0 else 1)
    pid = os.fork()
    if pid == 0:
        work()
        os._exit(0)
    settled(lambda: parked(pid), "parked")
    announce(pid)
    forever()


def held_lock(hold_s: float | None) -> threading.Lock:
    """A lock a daemon thread holds for `hold_s` seconds (None: forever), returned once held."""

    lock = threading.Lock()
    held = threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            threading.Event().wait(hold_s)

    threading.Thread(target=holder, name="holder", daemon=True).start()
    held.wait()
    return lock


def reap_or_announce(pid: int) -> None:
    """After a fork: in control, exit with the child's exit code; else announce the child once
    its one thread is parked, and wait."""
    if control():
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    settled(lambda: parked(pid, threads=1), "parked")
    announce(pid)
    forever()
