"""The watched job's side of the terminal and of its output, and what ``--pid`` may name.

The job takes the terminal as a shell's child does (`TakeTerminal`, in the child before its
exec); its output passes through watch when watch must read it (`Output`: counted, matched by
`probes.linematch`, the job's pipe closed once watch's own reader is gone); ``--pid`` is
checked before anything is read (`check_pid`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from typing import IO

from gvlstress.errors import UsageError
from gvlstress.probes import procfs
from gvlstress.probes import progress as counters
from gvlstress.probes.linematch import Matcher


class Output:
    """The job's stdout or stderr passed through unchanged, its lines counted (and matched, in
    a bounded matcher of its own: `probes.linematch`). When the reader of watch's own stream is
    gone (``watch ... | head -1``), the job's end of the pipe is closed too, so its next write
    fails as it would without watch (SIGPIPE, EPIPE)."""

    def __init__(self, src: IO[bytes], dst: IO[bytes], matcher: Matcher | None) -> None:
        self.lines = 0
        self.matched = 0
        self.reader_gone = False
        self._src, self._dst, self._matcher = src, dst, matcher
        self.thread = threading.Thread(target=self._pump, name="gvlstress-output", daemon=True)
        self.thread.start()

    def _pump(self) -> None:
        partial = b""
        fd = self._src.fileno()
        while chunk := os.read(fd, 65536):
            try:
                self._dst.write(chunk)
                self._dst.flush()
            except BrokenPipeError:
                self._reader_gone()
                return
            except OSError:
                pass  # a full disk under a redirected stream: the job's output is not ours to stop
            partial += chunk
            *done, partial = partial.split(b"\n")
            self.lines += len(done)
            if self._matcher is not None and done:
                self.matched += self._matcher.count(done)
            partial = partial[-65536:]

    def _reader_gone(self) -> None:
        """watch's stream has no reader: it goes to /dev/null (the interpreter's last flush must
        not fail), and the job's end of the pipe is closed under it."""
        self.reader_gone = True
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._dst.fileno())
            os.close(devnull)
        with contextlib.suppress(OSError):
            self._src.close()


def our_terminal() -> int | None:
    """fd 0 when it is a terminal whose foreground group is gvlstress's (it may give it away)."""
    try:
        return 0 if os.isatty(0) and os.tcgetpgrp(0) == os.getpgrp() else None
    except OSError:
        return None


@contextlib.contextmanager
def no_sigttou() -> Iterator[None]:
    """SIGTTOU blocked meanwhile: a process outside the foreground group may then set it
    (tcsetpgrp), where it would otherwise be stopped. A mask, not a handler: it is per thread
    and needs no main thread."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTTOU})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class TakeTerminal:
    """In the child, after its setpgid and before its exec: make its own group the terminal's
    foreground, as a shell's child does, so a job that reads the terminal at once is not
    stopped (SIGTTIN) before the parent could hand it over. The mask is restored before the
    exec (a blocked signal stays blocked across it)."""

    def __init__(self, tty: int) -> None:
        self.tty = tty

    def __call__(self) -> None:
        with no_sigttou(), contextlib.suppress(OSError):
            os.tcsetpgrp(self.tty, os.getpgrp())


def _real_uid(pid: int) -> int | None:
    """The process's real user id (``/proc/PID/status``), None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_pid(pid: int, uid: int | None = None, euid: int | None = None, me: int | None = None) -> None:
    """``--pid`` names a live user process, not this watch itself, that this user owns (root
    may name any). Each refusal is a usage error (exit 2) that says why. `uid`, `euid`, `me`:
    this process's (the defaults), or a caller's to check for."""
    uid = os.getuid() if uid is None else uid
    euid = os.geteuid() if euid is None else euid
    me = os.getpid() if me is None else me
    if pid <= 0 or counters.counters(pid) is None:
        raise UsageError(f"--pid {pid}: no live process with that pid", hint="check the pid (ps -ef)")
    if pid == me:
        raise UsageError(
            f"--pid {pid}: that is this watch itself",
            hint="name the job's pid, or run it as `watch -- COMMAND`",
        )
    if procfs.is_kernel_thread(pid):
        raise UsageError(
            f"--pid {pid}: a kernel thread (no user memory or stack: nothing of it can hang as a job does)",
            hint="name a user process (ps -ef shows kernel threads in [brackets])",
        )
    owner = _real_uid(pid)
    if euid != 0 and owner != uid:
        raise UsageError(
            f"--pid {pid}: process of user {owner}, not yours (uid {uid}): watch reads its /proc counters "
            "and, at a stall, its stacks",
            hint="watch your own processes, or run as root",
        )
