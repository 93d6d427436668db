"""Nothing the harness started outlives it, even when it is SIGKILLed.

Why a separate process: a SIGKILLed harness runs no cleanup, and a death signal
(PR_SET_PDEATHSIG) covers only its direct children (workers), not the workers' own children
nor capture tools that run in sessions of their own. So each run starts a tiny watchdog in its
own session, holding the read end of a pipe. The harness registers every process it starts
(workers, tools, a watched job) by writing its pid; the watchdog also records their descendants
(every POLL_S; every GROUP_POLL_S while each registered process leads a process group of its
own, as watch's job and the tools do, whose whole group is killed at the end anyway; and only
when a process was born on the host since the last look, which /proc/loadavg's last pid says).
When the pipe closes without a goodbye (the harness died), it records the trees once more
(workers freeze on the harness's death, PR_SET_PDEATHSIG=SIGSTOP, so a child started a moment
ago is still attached to one), SIGKILLs the process group of each registered group leader and
every recorded process still alive (matched by start time, so a reused pid is never hit); then
every process started since the run began that carries the run's owner token in its
environment (what left every tree, e.g. a daemonized grandchild, even one started a moment
before the death); then it empties and removes the run's cgroups, deletes its scratch
directories and the run's multiprocessing semaphores that no live process maps any more (a kill
of the harness's process group takes the resource tracker that would have unlinked them), and
exits. A normal end says goodbye first and nothing is killed.

Run as ``python -m gvlstress.system.watchdog HARNESS_PID TOKEN SINCE``; stdlib, psutil and the
harness's own process and cgroup helpers only.
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
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

from gvlstress.system import cgroups as cgroups_mod
from gvlstress.system import proctree

POLL_S = 0.2
"""How often the pipe and the harness are checked, and the trees recorded while a registered
process shares its group with others (a worker: only the recording finds its children)."""
GROUP_POLL_S = 2.0
"""How often the trees are recorded while every registered process leads a group of its own:
what stays in the group dies with the group, what inherited the environment with the token, so
the recording is the third net, for a process that left both (one scan of every process's
parent each time: at POLL_S it was most of what `gvlstress watch` cost on a quiet job)."""
BYE = b"bye\n"


class Watchdog:
    """The harness side: register pids, cgroups and scratch, say goodbye at a normal end."""

    def __init__(self) -> None:
        self.since = proctree.boot_ticks()
        self.token = f"{os.getpid()}-{self.since}-{os.urandom(4).hex()}"
        read, self._write = os.pipe()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gvlstress.system.watchdog",
                str(os.getpid()),
                self.token,
                str(self.since),
            ],
            stdin=read,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a kill of the harness's process group spares it
            pass_fds=(),
        )
        os.close(read)
        self._lock = threading.Lock()

    def _send(self, line: str) -> None:
        with self._lock, contextlib.suppress(OSError):
            os.write(self._write, f"{line}\n".encode())

    def watch(self, pid: int) -> None:
        self._send(str(pid))

    def remove_on_death(self, path: str) -> None:
        """A scratch directory the watchdog deletes if the harness dies before it does."""
        self._send(f"rm {path}")

    def cgroup(self, path: str) -> None:
        """A wave's cgroup the watchdog empties and removes if the harness dies first."""
        self._send(f"cg {path}")

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


def watch_cgroup(path: str) -> None:
    """Register a wave's cgroup (no-op outside a watched run)."""
    if _current is not None:
        _current.cgroup(path)


def owner() -> tuple[str, int] | None:
    """The run's owner token and the boot tick it started at (None outside a watched run)."""
    return (_current.token, _current.since) if _current is not None else None


def helpers() -> set[int]:
    """Long-lived processes of this harness that carry its token and must outlive a wave: the
    watchdog, multiprocessing's resource tracker and fork server."""
    out = {_current.proc.pid} if _current is not None else set()
    with contextlib.suppress(Exception):
        from multiprocessing import forkserver, resource_tracker

        for pid in (
            getattr(resource_tracker._resource_tracker, "_pid", None),
            getattr(forkserver._forkserver, "_forkserver_pid", None),
        ):
            if isinstance(pid, int):
                out.add(pid)
    return out


@contextlib.contextmanager
def guarding() -> Iterator[Watchdog | None]:
    """Run the block under a watchdog (nested uses share the outer one). Everything started
    inside is born with the run's owner token in its environment."""
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
    before = os.environ.get(proctree.OWNER_VAR)
    os.environ[proctree.OWNER_VAR] = dog.token
    try:
        yield dog
    finally:
        if before is None:
            os.environ.pop(proctree.OWNER_VAR, None)
        else:
            os.environ[proctree.OWNER_VAR] = before
        _current = None
        dog.close()


# -- the watchdog process ---------------------------------------------------------------------


def _stat(pid: int, proc: str = "/proc") -> tuple[int, int, int] | None:
    """(parent, process group, start ticks) of a live process; None when it is gone or a zombie."""
    try:
        fd = os.open(f"{proc}/{pid}/stat", os.O_RDONLY)  # not open(): a third of the syscalls
        try:
            text = os.read(fd, 4096)
        finally:
            os.close(fd)
        fields = text[text.rindex(b")") + 2 :].split()
        if fields[0] == b"Z":
            return None
        return int(fields[1]), int(fields[2]), int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


def _last_pid(proc: str = "/proc") -> int | None:
    """The pid most recently handed out on this host (processes and threads alike): while it
    stays the same, nobody was born, so no tree can have grown."""
    try:
        with open(f"{proc}/loadavg") as fh:
            return int(fh.read().split()[-1])
    except (OSError, ValueError, IndexError):
        return None


class Trees:
    """The registered processes and every descendant seen so far, each with its start ticks."""

    def __init__(self, proc: str = "/proc") -> None:
        self.proc = proc
        self.roots: dict[int, bool] = {}
        """pid -> it leads a process group of its own."""
        self.seen: dict[int, int] = {}
        self._last_pid: int | None = None
        self._scanned_at = -1e9
        self._fresh = False

    def add(self, pid: int) -> None:
        st = _stat(pid, self.proc)
        if st is None or pid in self.roots:
            return
        self.roots[pid] = st[1] == pid
        self.seen.setdefault(pid, st[2])
        self._fresh = True

    def due(self, now: float) -> bool:
        every = GROUP_POLL_S if self.roots and all(self.roots.values()) else POLL_S
        return bool(self.roots) and now - self._scanned_at >= every

    def record(self, now: float, force: bool = False) -> None:
        """Walk every registered tree from one scan of every process's parent; skipped when no
        process was born since the last walk (nothing new to find) unless `force`."""
        last = _last_pid(self.proc)
        self._scanned_at = now
        if not force and not self._fresh and last is not None and last == self._last_pid:
            return
        self._last_pid, self._fresh = last, False
        children: dict[int, list[tuple[int, int]]] = {}
        started: dict[int, int] = {}
        try:
            entries = os.listdir(self.proc)
        except OSError:
            return
        for e in entries:
            if e.isdigit() and (st := _stat(int(e), self.proc)) is not None:
                children.setdefault(st[0], []).append((int(e), st[2]))
                started[int(e)] = st[2]
        # from every recorded process still alive (still the one seen), not only the roots: a
        # registered worker that ended leaves its recorded children, whose own children count
        todo = [p for p, start in self.seen.items() if started.get(p) == start]
        while todo:
            for pid, start in children.get(todo.pop(), ()):
                if pid not in self.seen:
                    self.seen[pid] = start
                    todo.append(pid)

    def kill(self) -> None:
        """SIGKILL each group leader's group, then every recorded process still the one seen."""
        for pid, leads in self.roots.items():
            st = _stat(pid, self.proc)
            if leads and (st is None or st[2] == self.seen.get(pid)):  # a reused pid leads no group of ours
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        for pid, start in self.seen.items():
            st = _stat(pid, self.proc)
            if st is not None and st[2] == start:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)


def _semaphores(since_wall: float) -> None:
    """Unlink multiprocessing's named semaphores made since the run began that no live process
    maps: the resource tracker that would have unlinked them died with the harness's group. A
    mapping is matched by inode, not by name: glibc's sem_open maps a temporary file and links it
    to its name after, so its creator's maps never show the name (another run's semaphore, made
    a moment ago and mapped only by its creator, must survive)."""
    shm = "/dev/shm"
    try:
        names = [n for n in os.listdir(shm) if n.startswith("sem.mp-")]
    except OSError:
        return
    fresh: dict[int, str] = {}
    for n in names:
        with contextlib.suppress(OSError):
            st = os.stat(os.path.join(shm, n))
            if st.st_ctime >= since_wall:
                fresh[st.st_ino] = n
    if not fresh:
        return
    mapped: set[int] = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/maps", "rb") as fh:
                for line in fh:
                    if b"/dev/shm/" in line:
                        mapped.add(_maps_inode(line))
    for ino, n in fresh.items():
        if ino not in mapped:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(shm, n))


def _maps_inode(line: bytes) -> int:
    """The inode column of a /proc/PID/maps line (0 where it cannot be read)."""
    fields = line.split()
    return int(fields[4]) if len(fields) > 4 and fields[4].isdigit() else 0


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the harness's to handle
    harness = int(argv[0]) if argv else os.getppid()
    token = argv[1] if len(argv) > 1 else None
    since = int(argv[2]) if len(argv) > 2 else proctree.boot_ticks()
    since_wall = time.time() - (proctree.boot_ticks() - since) / os.sysconf("SC_CLK_TCK") - 1.0
    trees = Trees()
    scratch: list[str] = []
    cgroups: list[str] = []
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
                    trees.add(int(line))
                elif line.startswith(b"rm /"):
                    scratch.append(os.fsdecode(line[3:]))
                elif line.startswith(b"cg /"):
                    cgroups.append(os.fsdecode(line[3:]))
        now = time.monotonic()
        if trees.due(now):
            trees.record(now)
        if not psutil.pid_exists(harness):
            break
    trees.record(time.monotonic(), force=True)  # workers froze on the harness's death: trees intact
    trees.kill()
    if token is not None:  # whatever left every tree, however recently it did
        proctree.sweep_owned(token, since, keep=set())
    for path in cgroups:
        cgroups_mod.kill_and_remove(Path(path))
    for path in scratch:
        shutil.rmtree(path, ignore_errors=True)
    _semaphores(since_wall)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
