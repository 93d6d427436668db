"""What watch does about the job's stopped processes (state T).

Where watch has a terminal to give, it stands where a shell would: a stop by that terminal's job
control (a read or a write of it from a background group), or a signal's stop of the job's own
process (a Ctrl-Z's SIGTSTP, a ``kill -TTIN $$``), is one a shell's ``fg`` ends, and watch
resumes it, at most `RESUMES` times. Any other stop (a process of the job stopped by another one,
a job-control stop on a terminal of the job's own) is the job's business: watch never continues
it (that would change the program it watches), reports it once, and its looks judge it with the
rest of the tree: a stop nobody in the tree will end is a hang like any other wait.
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass, field
from typing import Protocol

from gvlstress.model.watch import Stop

RESUMES = 3
"""How often a job stopped by job control is resumed before it is only reported (a process
that keeps reading the terminal from a group of its own would be stopped again at once)."""


class Stoppable(Protocol):
    """The watched job as this module uses it (`job.Job`)."""

    pid: int

    @property
    def ours(self) -> bool: ...

    def resume(self) -> bool: ...

    def terminal_device(self) -> int | None: ...


@dataclass
class Stops:
    """One watch's stops: how often it resumed the job, which sets of stopped it reported."""

    resumed: int = 0
    reported: set[tuple[int, ...]] = field(default_factory=set)

    def handle(self, job: Stoppable, stops: tuple[Stop, ...]) -> str | None:
        """Resume what watch's terminal stopped, else report the stopped once: the summary to
        report, or None when these were reported already."""
        mine = job.terminal_device()
        fg = tuple(s.pid for s in stops if mine is not None and _shells(s, mine, job))
        if fg and self.resumed < RESUMES and job.resume():
            self.resumed += 1
            for pid in fg:  # a descendant in a group of its own is not in the job's group
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGCONT)
            return (
                f"{_pids(fg)} stopped as a shell's job would be (by watch's terminal, or the job's "
                "process by a signal): resumed it, as `fg` would (the terminal given to the job's "
                "group, then SIGCONT)"
            )
        key = tuple(sorted(s.pid for s in stops))
        if key in self.reported:
            return None
        self.reported.add(key)
        return "; ".join(_words(s, s.pid in fg, job) for s in stops) + (
            "; watch continues only a stop by the terminal it gave the job: its looks judge the "
            "stopped with the rest of the tree"
        )


def _shells(s: Stop, mine: int, job: Stoppable) -> bool:
    """A stop a shell in watch's place ends with ``fg``: by its terminal's job control, or of
    the job's own process by a signal (the job stopped whole: a Ctrl-Z)."""
    return s.terminal == mine or (s.terminal is None and s.pid == job.pid and job.ours)


def _pids(pids: tuple[int, ...]) -> str:
    return ("pid " if len(pids) == 1 else "pids ") + ", ".join(map(str, pids))


def _words(s: Stop, fg: bool, job: Stoppable) -> str:
    """One stopped process: what stopped it, and how to continue it."""
    if fg:
        how = "stopped as a shell's job would be, resumed too often: left stopped"
    elif s.terminal is None:
        how = "stopped by a signal (SIGSTOP, SIGTSTP...): left to whoever stopped it"
    else:
        how = (
            "stopped by the job control of a terminal that is not watch's to give (a read or a write of "
            "it from a background group): left stopped (where that terminal is the one watch runs in, "
            "run watch in its foreground)"
        )
    cont = f"kill -CONT -- -{job.pid}" if job.ours and s.pid == job.pid else f"kill -CONT {s.pid}"
    return f"pid {s.pid} {how}; continue it with `{cont}`"
