"""The watched job: a command started in its own process group (given the terminal, as a shell
gives it) or a running process attached to with ``--pid``; signalled, read from /proc, ended with
its tree. What to watch (`WatchPlan`) comes parsed from the CLI."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from gvlstress.errors import UsageError
from gvlstress.look.windows import RUN_WINDOW_S
from gvlstress.model.watch import HangAction, TreeReading
from gvlstress.probes import progress as counters
from gvlstress.probes.linematch import Matcher
from gvlstress.supervisor.events import StopFlag
from gvlstress.supervisor.jobio import Output, TakeTerminal, no_sigttou, our_terminal
from gvlstress.system import proctree, watchdog


@dataclass(frozen=True)
class WatchPlan:
    """What to watch and what to do, parsed and checked by the CLI."""

    command: tuple[str, ...] = ()
    pid: int | None = None
    stall_s: float = 60.0
    heartbeat: Path | None = None
    progress_regex: str | None = None
    on_hang: HangAction = HangAction.KEEP
    hang_signal: int = signal.SIGQUIT
    window_s: float = RUN_WINDOW_S


class Job:
    """The watched job: started here (its own process group, the terminal's foreground), or an
    existing process attached to."""

    def __init__(self, plan: WatchPlan) -> None:
        self.plan = plan
        self.popen: subprocess.Popen[bytes] | None = None
        self.outputs: list[Output] = []
        self._tty: int | None = None
        self.matcher: Matcher | None = None
        self._pidfd: int | None = None
        if plan.pid is not None:
            self.pid = plan.pid
            with contextlib.suppress(OSError, AttributeError):
                self._pidfd = os.pidfd_open(self.pid)
            return
        pipe = subprocess.PIPE if plan.progress_regex else None
        argv = list(plan.command)
        if restricted_ptrace():  # the stack tools are our children, not the job's ancestors
            argv = [sys.executable, "-m", "gvlstress.system.ptracer", str(os.getpid()), "--", *argv]
        tty = our_terminal()
        try:
            self.popen = subprocess.Popen(
                argv,
                stdout=pipe,
                stderr=pipe,
                process_group=0,
                # before any thread of ours starts: a preexec_fn is safe then
                preexec_fn=None if tty is None else TakeTerminal(tty),
            )
        except OSError as exc:
            raise UsageError(
                f"cannot start {plan.command[0]!r}: {exc.strerror}", hint="check the command after --"
            ) from None
        self.pid = self.popen.pid
        watchdog.watch(self.pid)
        with contextlib.suppress(OSError, AttributeError):  # Linux 5.3+: wait on it, not in 50 ms polls
            self._pidfd = os.pidfd_open(self.pid)
        if self.popen.stdout is not None and self.popen.stderr is not None and plan.progress_regex:
            self.matcher = Matcher(plan.progress_regex)
            self.outputs = [
                Output(self.popen.stdout, sys.stdout.buffer, self.matcher),
                Output(self.popen.stderr, sys.stderr.buffer, self.matcher),
            ]
        self._foreground(tty)

    @property
    def ours(self) -> bool:
        """Started here (not attached to with ``--pid``)."""
        return self.popen is not None

    def _foreground(self, tty: int | None) -> None:
        """Give the job the terminal `tty` (gvlstress's when the job started, or now), as a
        shell does. The child took it already, before its exec: this records it, and is the
        same call if the child has not got there yet."""
        if tty is None:
            return
        with no_sigttou(), contextlib.suppress(OSError):
            os.tcsetpgrp(tty, self.pid)
            self._tty = tty

    def resume(self) -> bool:
        """A job stopped by job control (it read or wrote the terminal from a background
        group): given the terminal if gvlstress has it, then continued (SIGCONT to its group),
        as a shell's ``fg``. False when the terminal is not ours to give."""
        if self.popen is None:
            return False
        if self._tty is None:
            self._foreground(our_terminal())
        if self._tty is None:
            return False
        with no_sigttou(), contextlib.suppress(OSError):
            os.tcsetpgrp(self._tty, self.pid)
        self.signal(signal.SIGCONT)
        return True

    def terminal_device(self) -> int | None:
        """The device of the terminal this watch may give the job (None: it has none to give):
        only a stop by that terminal's job control is one a shell's ``fg`` would end."""
        if self.popen is None:
            return None
        tty = self._tty if self._tty is not None else our_terminal()
        if tty is None:
            return None
        try:
            return os.fstat(tty).st_rdev
        except OSError:
            return None

    def release_terminal(self) -> None:
        """The terminal back to gvlstress's group (at the end, or after a hang kept for a human:
        then Ctrl-C reaches watch, which passes it on and ends the job's tree)."""
        if self._tty is not None:
            with no_sigttou(), contextlib.suppress(OSError):
                os.tcsetpgrp(self._tty, os.getpgrp())
            self._tty = None

    def ended(self, timeout: float = 0.0, wake: StopFlag | None = None) -> int | None:
        """Its exit code once it has ended (negative: the signal that killed it), waiting up to
        `timeout` (cut short when `wake` is set); an attached process's is not ours to read (0
        once it is gone)."""
        if timeout > 0 and (self._pidfd is not None or self.popen is None):
            fds = [fd for fd in (self._pidfd, wake.fileno() if wake is not None else None) if fd is not None]
            select.select(fds, [], [], timeout)  # a pidfd turns readable once its process has ended
            timeout = 0.0
        if self.popen is not None:
            try:
                return self.popen.wait(timeout) if timeout > 0 else self.popen.poll()
            except subprocess.TimeoutExpired:
                return None
        gone = not os.path.exists(f"/proc/{self.pid}") or counters.counters(self.pid) is None
        return 0 if gone else None

    def signal(self, sig: int) -> None:
        """Send `sig` to the job's process group (the job itself when attached)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self.popen is not None:
                os.killpg(self.pid, sig)
            else:
                os.kill(self.pid, sig)

    def kill_tree(self) -> None:
        """SIGKILL the job and every descendant, then reap it."""
        proctree.kill_trees([self.pid])
        self.signal(signal.SIGKILL)
        if self.popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(5)

    def reading(self, pids: tuple[int, ...]) -> TreeReading:
        r = counters.reading(pids)
        beat = None
        if self.plan.heartbeat is not None:
            with contextlib.suppress(OSError):
                beat = self.plan.heartbeat.stat().st_mtime
        return replace(
            r,
            output_lines=sum(o.lines for o in self.outputs),
            matched_lines=sum(o.matched for o in self.outputs),
            heartbeat_mtime=beat,
        )

    def close(self) -> None:
        self.release_terminal()
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        for o in self.outputs:
            o.thread.join(timeout=2)
        if self.matcher is not None:
            self.matcher.close()


def restricted_ptrace() -> bool:
    """Yama allows ptrace of descendants only, and this user has no way around it (not root)."""
    try:
        with open("/proc/sys/kernel/yama/ptrace_scope") as fh:
            scope = int(fh.read().strip() or 0)
    except (OSError, ValueError):
        return False
    return scope == 1 and os.geteuid() != 0
