"""Nothing the harness started outlives it, even when it is SIGKILLed.

Why a separate process: a SIGKILLed harness runs no cleanup, and a death signal
(PR_SET_PDEATHSIG) covers only its direct children (workers), not the workers' own children
nor capture tools that run in sessions of their own. So each run starts a tiny watchdog in its
own session, holding the read end of a pipe. The harness registers every process it starts
(workers, tools) by writing its pid; the watchdog also records their descendants every
POLL_S. When the pipe closes without a goodbye (the harness died), it records the trees once
more (workers freeze on the harness's death, PR_SET_PDEATHSIG=SIGSTOP, so a child started a
moment ago is still attached to one), SIGKILLs every recorded process still alive (matched by
start time, so a reused pid is never hit), then exits. A normal end says goodbye first and
nothing is killed.

Run as ``python -m gvlstress.watchdog``; stdlib and psutil only.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator

import psutil

POLL_S = 0.2
BYE = b"bye\n"


class Watchdog:
    """The harness side: register pids, say goodbye at a normal end."""

    def __init__(self) -> None:
        read, self._write = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gvlstress.watchdog", str(os.getpid())],
            stdin=read,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a kill of the harness's process group spares it
            pass_fds=(),
        )
        os.close(read)
        self._lock = threading.Lock()

    def watch(self, pid: int) -> None:
        with self._lock, contextlib.suppress(OSError):
            os.write(self._write, f"{pid}\n".encode())

    def remove_on_death(self, path: str) -> None:
        """A scratch directory the watchdog deletes if the harness dies before it does."""
        with self._lock, contextlib.suppress(OSError):
            os.write(self._write, f"rm {path}\n".encode())

    def close(self) -> None:
        """A normal end: the watchdog exits without killing anything."""
        with self._lock:
            with contextlib.suppress(OSError):
                os.write(self._write, BYE)
            with contextlib.suppress(OSError):
                os.close(self._write)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)


_current: Watchdog | None = None


def remove_on_death(path: str) -> None:
    """Register a scratch directory for deletion should the harness die (no-op when unwatched)."""
    if _current is not None:
        _current.remove_on_death(path)


def active() -> bool:
    """Is a watchdog guarding this run (so workers may freeze, not die, with the harness)?"""
    return _current is not None and _current.proc.poll() is None


def watch(pid: int) -> None:
    """Register a process the harness started (no-op outside a watched run)."""
    if _current is not None:
        _current.watch(pid)


@contextlib.contextmanager
def guarding() -> Iterator[Watchdog | None]:
    """Run the block under a watchdog (nested uses share the outer one)."""
    global _current
    if _current is not None:
        yield _current
        return
    try:
        dog = Watchdog()
    except OSError:  # cannot start one: the run goes on with PR_SET_PDEATHSIG alone
        yield None
        return
    _current = dog
    try:
        yield dog
    finally:
        _current = None
        dog.close()


# -- the watchdog process ---------------------------------------------------------------------


def _record(seen: dict[int, float], pid: int) -> None:
    try:
        p = psutil.Process(pid)
        seen.setdefault(pid, p.create_time())
        for c in p.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                seen.setdefault(c.pid, c.create_time())
    except psutil.Error:
        pass


def _kill(seen: dict[int, float]) -> None:
    for pid, created in seen.items():
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            p = psutil.Process(pid)
            if abs(p.create_time() - created) < 0.01:
                p.send_signal(signal.SIGKILL)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the harness's to handle
    harness = int(argv[0]) if argv else os.getppid()
    seen: dict[int, float] = {}
    roots: set[int] = set()
    scratch: list[str] = []
    buf = b""
    fd = sys.stdin.fileno()
    while True:
        ready, _, _ = select.select([fd], [], [], POLL_S)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:  # the harness died (or closed without a goodbye): clean up
                break
            buf += chunk
            if BYE in buf:
                return 0
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if line.strip().isdigit():
                    roots.add(int(line))
                elif line.startswith(b"rm /"):
                    scratch.append(os.fsdecode(line[3:]))
        for pid in roots:
            _record(seen, pid)
        if not psutil.pid_exists(harness):
            break
    for pid in roots:  # workers froze on the harness's death: their trees are intact now
        _record(seen, pid)
    _kill(seen)
    for path in scratch:
        shutil.rmtree(path, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
