"""A retry of a file lock the process already holds through another open of the file (pure).

A flock (or an OFD lock) belongs to an open file description, not to a process: a second
``open()`` of a file the process has locked is another description, and a lock taken through it
waits for the first, which only this process can release. A library that polls for such a lock
(filelock, portalocker: ``LOCK_NB`` and a sleep between tries) never blocks in ``flock()``, so
one look sees only a thread waking on a timer; the facts that tell are the process's own
descriptors (``/proc/PID/fdinfo``: the inode of each, and a ``lock:`` line on the one whose
description holds the lock), the retrying thread's stack (inside a lock's acquire), no other
thread left that could release the first lock, and either the second open itself or, where the
library opens the file afresh at each try (filelock), no other process on the host holding or
waiting for any file lock (the lock it retries can then only be its own).
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge import names, words
from gvlstress.judge.case import Case, Found
from gvlstress.judge.threads import private_futex, retries, wake_signals
from gvlstress.model import Capture, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import HoldsFileLock, OnlyItReleases, RetriesLock
from gvlstress.model.wiring import OpenFile


def judge_relock(case: Case) -> Found | None:
    """A process retrying a file lock it holds itself through another open: a self-wait; None
    when the facts do not show one (no second open of a locked file, a thread that could still
    release it, a retry that is not inside a lock's acquire)."""
    f, capture, wiring = case.finding, case.capture, case.wiring
    if f.kind not in (ProbeKind.IDLE, ProbeKind.WAITING, ProbeKind.STALLED) or capture is None:
        return None
    files = wiring.files.get(f.pid, ())
    held = next((x for x in files if x.flock), None)
    if held is None or wake_signals(f):
        return None
    again = _reopened(files, held)
    tries = [
        t for t in f.threads if retries(t, f.window_s) and _short(t) and _in_lock_acquire(capture, t.tid)
    ]
    rest = [t for t in f.threads if t not in tries]
    if not tries or any(not _stuck(t) for t in rest):
        return None
    alone = wiring.flock_takers is not None and wiring.flock_takers <= {f.pid}
    if again is None and not alone:
        return None  # the lock it retries may be one another process holds: it may release it
    t = tries[0]
    facts = (
        RetriesLock(t.tid, t.comm, t.voluntary_ctxt, f.window_s),
        HoldsFileLock(f.pid, held.target, held.fd, again.fd if again is not None else None),
        OnlyItReleases(bool(rest)),
    )
    match = names.Match(names.SELF_FD, names.HINTS[names.SELF_FD], facts)
    lines = words.evidence(facts)
    reason = f"retries a file lock it holds itself through another open of {held.target}"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, *lines)), match


def _reopened(files: tuple[OpenFile, ...], held: OpenFile) -> OpenFile | None:
    """Another open of the file `held` locks (its own description, without the lock)."""
    return next((x for x in files if x.fd != held.fd and x.ino == held.ino and not x.flock), None)


def _in_lock_acquire(capture: Capture, tid: int) -> bool:
    """The thread's Python stack is inside a lock's acquire (a function or module named for a
    lock: filelock's ``acquire``, portalocker's ``lock``, fasteners' ``_do_open``...)."""
    view = capture.thread(tid)
    frames = view.python.frames if view is not None and view.python else ()
    return any(_lockish(f.name) for f in frames[:8] if f.file and f.file.endswith(".py"))


def _short(t: ThreadDelta) -> bool:
    """Its timed wait is a retry's tick (at most RETRY_TICK_S left where the sleep's timer was
    read), not a long sleep a stack tool's stops woke now and then."""
    left = t.wait.left_s if t.wait is not None else None
    return left is None or left <= RETRY_TICK_S


RETRY_TICK_S = 1.0
"""The longest pause between two tries of a lock that this rule calls a retry loop."""


def _lockish(name: str) -> bool:
    name = name.lower()
    return "lock" in name or "acquire" in name


def _stuck(t: ThreadDelta) -> bool:
    """Parked in a wait only this process's own threads could end (a private futex)."""
    w = t.wait
    return bool(t.parked and w is not None and w.kind is WaitKind.LOCK and private_futex(t))
