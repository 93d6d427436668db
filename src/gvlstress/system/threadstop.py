"""Stop one thread of another process, not the process: `PTRACE_SEIZE` + `PTRACE_INTERRUPT`
on its thread id, `PTRACE_DETACH` to resume it.

Why ptrace: SIGSTOP stops a whole thread group, and scheduling policy or affinity only lowers a
thread (an idle-class thread still runs whenever its CPU is free); a ptrace-stop holds exactly
one thread however idle the machine is, which is the strict starvation rr's chaos mode needs.
Why it is safe to leave: a tracee is detached by the kernel when its tracer thread exits, so a
stopped thread resumes by itself if the harness dies, however it dies (no PTRACE_O_EXITKILL).

ptrace requests are only valid from the thread that seized: every call of a `ThreadStopper`
must come from the thread that made it (checked). Its stop notifications are consumed at once,
so a `waitpid` elsewhere in the harness (multiprocessing polls its children) never sees them.
"""

from __future__ import annotations

import ctypes
import errno
import os
import threading
import time

PTRACE_GETREGS = 12
PTRACE_GETFPREGS = 14
PTRACE_DETACH = 17
PTRACE_SEIZE = 0x4206
PTRACE_INTERRUPT = 0x4207
PTRACE_EVENT_STOP = 128
WALL = 0x40000000
"""`__WALL`: wait for clone children (threads) too."""
STOP_DEADLINE_S = 0.5
"""How long a seized thread may take to enter its stop before the stop is given up."""

_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
_libc.ptrace.restype = ctypes.c_long


def _ptrace(request: int, tid: int, data: int = 0) -> int:
    """0, or the errno of a failed request."""
    if _libc.ptrace(request, tid, None, ctypes.c_void_p(data)) == -1:
        return ctypes.get_errno()
    return 0


class ThreadStopper:
    """Threads held in a ptrace-stop by the calling thread; `resume_all` before anyone else
    attaches (py-spy, pystack) and before the process is killed or captured."""

    def __init__(self) -> None:
        self._owner = threading.get_ident()
        self.held: dict[int, float] = {}
        """tid -> when it was stopped (monotonic)."""
        self._pending: dict[int, int] = {}
        """tid -> a signal that arrived as it was stopped, re-delivered on resume."""
        self.refused: dict[int, str] = {}
        """Why a thread could not be stopped (EPERM: no ptrace rights here), by errno name."""

    def _mine(self) -> None:
        if threading.get_ident() != self._owner:
            raise RuntimeError("ptrace requests must come from the thread that seized")

    def stop(self, tid: int) -> bool:
        """Hold `tid` in a ptrace-stop; False if it could not be (gone, traced already, no rights)."""
        self._mine()
        if tid in self.held:
            return True
        err = _ptrace(PTRACE_SEIZE, tid)
        if err:
            self.refused[tid] = errno.errorcode.get(err, str(err))
            return False
        if _ptrace(PTRACE_INTERRUPT, tid) or not self._wait_stop(tid):
            _ptrace(PTRACE_DETACH, tid)
            return False
        self.held[tid] = time.monotonic()
        return True

    def _wait_stop(self, tid: int) -> bool:
        """Consume the stop notification (polled: a wait never blocks past its deadline). A
        signal that arrived first stops the thread too; its number is kept to re-deliver."""
        deadline = time.monotonic() + STOP_DEADLINE_S
        while time.monotonic() < deadline:
            try:
                got, status = os.waitpid(tid, WALL | os.WNOHANG)
            except ChildProcessError:
                return False
            if got == tid:
                if not os.WIFSTOPPED(status):
                    return False  # it exited
                sig = os.WSTOPSIG(status)
                if status >> 16 != PTRACE_EVENT_STOP:
                    self._pending[tid] = sig  # a signal-delivery-stop: hand the signal back on detach
                return True
            time.sleep(0.0002)
        return False

    def registers(self, tid: int, request: int = PTRACE_GETREGS, size: int = 216) -> bytes | None:
        """A held thread's registers as the kernel lays them out (PTRACE_GETREGS: x86_64's
        ``user_regs_struct``; PTRACE_GETFPREGS, 512 bytes: its FPU state), or None."""
        self._mine()
        if tid not in self.held:
            return None
        buf = ctypes.create_string_buffer(size)
        return None if _ptrace(request, tid, ctypes.addressof(buf)) else buf.raw

    def resume(self, tid: int) -> None:
        """Let `tid` run again (a signal it got while stopped is delivered now)."""
        self._mine()
        if self.held.pop(tid, None) is not None:
            _ptrace(PTRACE_DETACH, tid, self._pending.pop(tid, 0))

    def resume_all(self) -> None:
        for tid in list(self.held):
            self.resume(tid)
