"""Event loops (pure): what one look can and cannot tell of an asyncio loop that waits.

A suspended coroutine has no thread stack: py-spy and pystack show only the loop's own frames
(``BaseEventLoop._run_once`` in ``select``), never which task awaits what. What a look *can* read
is what the loop could still be woken by: the timeout of its ``epoll_wait`` (its next timer; -1:
none), the descriptors it watches (the other end of each), the other threads of the process
(``call_soon_threadsafe``), the signals it catches (``add_signal_handler``), and, with the
locals, how many timers ``_run_once`` scheduled. So:

- a loop with no timer, watching only descriptors no other process holds (its own wake-up
  pipe), in a process no other thread of which can act and that catches no waking signal, can
  never run again: whatever its tasks await was lost (a notify or a result consumed by a waiter
  that was being cancelled, a cancellation swallowed): a deadlock, named;
- a loop waiting on a timer, or on a descriptor another process holds, is idle: one look cannot
  tell a lost wake-up behind a timer from a healthy wait, and the reason says what it waits for
  and when it wakes next (``watch``, with a progress signal over time, is the tool for that one).
"""

from __future__ import annotations

from dataclasses import replace

from gvlstress.judge import vocab
from gvlstress.judge.case import Case, Found
from gvlstress.judge.names import HINTS, LOOP_LOST_WAKEUP, Match
from gvlstress.judge.otherend import ends, internal_wait
from gvlstress.judge.threads import waits_forever, wake_signals
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    LoopNoTimer,
    LoopOthersForever,
    LoopWatchesNothing,
    LoopWatchesOwn,
    NoWakingSignal,
    WakeupLost,
)

LOCALS = {("asyncio/base_events.py", "_run_once"): ("timeout", "sched_count")}
"""The event loop's turn: its next timeout and the timers it has scheduled."""


def _loop_thread(f: ProbeFinding, capture: Capture) -> ThreadDelta | None:
    """The thread running an asyncio event loop's turn, parked in its selector."""
    for t in f.threads:
        view = capture.thread(t.tid)
        if (
            view is not None
            and t.parked
            and t.wait is not None
            and t.wait.kind is WaitKind.POLL
            and vocab.python_at(view, "asyncio/base_events.py", "_run_once", depth=6)
        ):
            return t
    return None


def _local(capture: Capture, tid: int, name: str) -> str | None:
    return next(
        (v.value for v in capture.locals if v.tid == tid and v.function == "_run_once" and v.name == name),
        None,
    )


def judge_loop(case: Case) -> Found | None:
    """An event loop that nothing can wake (a deadlock, named), or one waiting on a timer or a
    peer (idle, with what it waits for); None when no loop waits here."""
    f, capture, wiring = case.finding, case.capture, case.wiring
    if capture is None or f.kind not in (ProbeKind.IDLE, ProbeKind.WAITING, ProbeKind.STALLED):
        return None
    t = _loop_thread(f, capture)
    if t is None or t.wait is None:
        return None
    found = ends(t, f.pid, wiring)
    if found is None or any(e.outside is not None or e.others for e in found):
        return None  # a peer may write: judged by the other end (`peers`)
    timers = _local(capture, t.tid, "sched_count")
    if not waits_forever(t) or (timers is not None and timers not in ("0", "None")):
        nxt = _local(capture, t.tid, "timeout")
        when = f" (next wake-up in {float(nxt):.0f}s)" if nxt and nxt[:1].isdigit() else ""
        line = (
            f"thread {t.tid} runs an asyncio event loop that waits for a timer{when}: one look cannot tell "
            "whether what its tasks await will still come (a wake-up lost behind a timer looks the same); "
            "if its progress never resumes after the timer fires, it did not"
        )
        return replace(f, reason=f"{f.reason}; {line}", chain=(*f.chain, line)), None
    others = [x for x in f.threads if x.tid != t.tid]
    able = [x for x in others if not internal_wait(x, f.pid, wiring, timers=False)]
    if able:
        return None  # another thread may call call_soon_threadsafe
    caught = wake_signals(f)
    if caught:
        line = f"the event loop waits with nothing scheduled, but the process catches {', '.join(caught)}"
        return replace(f, kind=ProbeKind.IDLE, reason=f"{f.reason}; {line}: a signal may wake it"), None
    watched = ", ".join(e.target for e in found)
    evidence = (
        LoopNoTimer(t.tid, t.wait.detail, timers),
        LoopWatchesOwn(watched) if watched else LoopWatchesNothing(),
        LoopOthersForever(len(others)),
        NoWakingSignal(),
        WakeupLost(),
    )
    reason = "an event loop with no timer and nothing left that can wake it"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
        LOOP_LOST_WAKEUP, HINTS[LOOP_LOST_WAKEUP] if watched else EMPTIED_HINT, evidence
    )


EMPTIED_HINT = (
    "the loop's epoll set was emptied under it: a process forked while the loop ran shares its epoll "
    "instance, and closing the loop there unregisters the parent's descriptors; in the child, leave the "
    "inherited loop unclosed (os._exit, or exec), or start workers with spawn/forkserver, never fork "
    "from a running loop"
)
