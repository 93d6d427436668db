"""What `watch` remembers between looks, cheaply: the processes of the job's tree and when each
was found gone. One look sees only who is there; the history says who was there and went (the
server a client still retries, the worker that took a lock and died), for the chain's words."""

from __future__ import annotations

import psutil

from gvlstress.model.wiring import Exit
from gvlstress.system.redact import redact_argv

KEPT = 32
"""Exits remembered (the latest): a pool churning workers must not grow the history unbounded."""


class ExitLog:
    """The tree's processes as last listed (pid -> command) and the exits found since the start."""

    def __init__(self) -> None:
        self.known: dict[int, str] = {}
        self.exits: list[Exit] = []

    def see(self, pids: tuple[int, ...], at_s: float) -> None:
        """A new listing of the tree: the commands of new processes read once, the ones gone
        recorded (a pid that left the tree but lives on, reparented, is not an exit)."""
        for pid in set(self.known) - set(pids):
            if not psutil.pid_exists(pid):
                self.exits.append(Exit(pid, self.known[pid], round(at_s, 1)))
            del self.known[pid]
        for pid in pids:
            if pid not in self.known:
                self.known[pid] = _command(pid)
        del self.exits[:-KEPT]

    @property
    def history(self) -> tuple[Exit, ...]:
        return tuple(self.exits)


def _command(pid: int) -> str:
    try:
        argv = psutil.Process(pid).cmdline()
    except psutil.Error:
        return "?"
    text = " ".join(redact_argv(argv)) or "?"
    return text if len(text) <= 120 else text[:117] + "..."
