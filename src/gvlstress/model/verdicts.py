"""Verdicts: what happened to a worker (or a wave, a run), and how counts read."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """What happened to a worker (or, as its worst worker, a wave or a run).

    ``cancelled`` is a worker the harness stopped while it was still healthy, because a sibling
    hung or crashed or the run was interrupted: it is neither a pass nor a failure of its own.
    ``idle``, ``busy`` and ``stopped`` are said by ``inspect`` only (it has no progress signal).
    """

    OK = "ok"
    IDLE = "idle"
    BUSY = "busy"
    STOPPED = "stopped"
    CANCELLED = "cancelled"
    SLOW = "slow"
    ERROR = "error"
    CRASH = "crash"
    STALLED = "stalled"
    LIVELOCK = "livelock"
    DEADLOCK = "deadlock"

    @property
    def severity(self) -> int:
        """Order used to pick a wave's verdict: its worst worker's."""
        return _SEVERITY[self]

    @property
    def is_hang(self) -> bool:
        return self in (Verdict.DEADLOCK, Verdict.LIVELOCK, Verdict.STALLED)

    @property
    def is_failure(self) -> bool:
        return self in (Verdict.CRASH, Verdict.ERROR)


_SEVERITY = {v: i for i, v in enumerate(Verdict)}

IN_RUN: dict[Verdict, str] = {
    Verdict.OK: "every batch done, no heartbeat quiet past the stall floor",
    Verdict.SLOW: "went quiet past the stall threshold, then progressed (or was still beating at the timeout)",
    Verdict.DEADLOCK: "the thread calling the target waits for something nothing can end: everything that "
    "could end its wait is blocked too, its pool lost the task, or its peer has gone",
    Verdict.LIVELOCK: "no progress, CPU burning: named at the stall when the judge can say what the spin "
    "waits for, else at the timeout",
    Verdict.STALLED: "no progress at the timeout without either signature (a read that never returns): the "
    "wait is named",
    Verdict.CRASH: "the process died: exit code, signal and stderr tail kept",
    Verdict.ERROR: "the target raised: the traceback kept (a bounded record)",
    Verdict.CANCELLED: "healthy, but stopped by the harness because a sibling hung or crashed, or on Ctrl-C",
}
"""What each verdict means for a worker in ``run`` (a wave's verdict is its worst worker's)."""

IN_INSPECT: dict[Verdict, str] = {
    Verdict.IDLE: "the main thread waits on I/O, a sleep, a child, a timed wait, or on threads or processes "
    "that can still end the wait; the report says on what",
    Verdict.BUSY: "burning CPU with no named cause (real work and an unexplained spin look alike); the "
    "activity line tells 'making syscalls' from 'no syscall'",
    Verdict.STOPPED: "state T: SIGSTOP or a tracer (kill -CONT)",
    Verdict.STALLED: "really ambiguous: a closed wait set where a thread has no stack to say whether it is "
    "idle by design, a futex in shared memory another process may post, a pipe whose other end lives on "
    "in a process that inherited it",
    Verdict.DEADLOCK: "a wait nothing can end: a closed wait set, a pool that lost a task, a peer that has "
    "gone; a closed set no shape explains is still a hang, named by the end of its wait-for chain ('a wait no thread or process left can end')",
    Verdict.LIVELOCK: "a spin whose cause is named: the GIL's holder spinning for threads that need the GIL, "
    "a fork spinning for threads it did not copy",
}
"""What each verdict means for a process ``inspect`` looked at over its window (no heartbeat, so
it says less, never guessing)."""


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 wave', '3 waves', '1 batch', '2 batches': counts read as a person writes them."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or (word + 'es' if word.endswith(('s', 'sh', 'ch', 'x')) else word + 's')}"


def worst(verdicts: list[Verdict] | tuple[Verdict, ...]) -> Verdict:
    """The most severe verdict, ``ok`` for none."""
    return max(verdicts, key=lambda v: v.severity, default=Verdict.OK)
