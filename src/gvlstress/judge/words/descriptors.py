"""Waits on descriptors worded (`model.evidence.descriptors`): a peer that has gone or is hung
itself, an event loop nothing can wake, a file lock retried against itself."""

from __future__ import annotations

from typing import assert_never

from gvlstress.model.evidence.descriptors import (
    AnswererGone,
    BehindHungPeer,
    DescriptorFact,
    HoldsFileLock,
    InChannel,
    InTeardown,
    LoopNoTimer,
    LoopOthersForever,
    LoopWatchesNothing,
    LoopWatchesOwn,
    NoHolder,
    NoWakingSignal,
    OnlyItReleases,
    OwnEndOnly,
    PeerEnd,
    PeerWaits,
    RetriesLock,
    WakeupLost,
)


def word(fact: DescriptorFact) -> str:
    """The sentence of one fact."""
    match fact:
        case BehindHungPeer(who, detail, ends):
            return f"{who} waits in {detail}: " + "; ".join(ends)
        case PeerWaits(who, detail):
            return f"{who} waits in {detail}"
        case PeerEnd(words):
            return f"- {words}"
        case OwnEndOnly(others):
            return (
                "only this process holds the other end, so only one of its own threads could end the wait, and "
                + (
                    f"each of its {others} other thread(s) waits on a lock, a timer or descriptors only this process "
                    "holds, with no byte moved over the window"
                    if others
                    else "it has no other thread"
                )
            )
        case NoHolder():
            return "no process holds the other end: nothing can ever answer"
        case AnswererGone(dead):
            return f"dead, unreaped child(ren) {dead}: whoever was to answer has gone"
        case InTeardown(frame):
            return f"the wait is inside the library's teardown ({frame})"
        case InChannel(frame):
            return (
                f"the wait is in {frame}: a channel made for another process, whose end only this one holds"
            )
        case LoopNoTimer(tid, detail, timers):
            return (
                f"thread {tid} runs an asyncio event loop (BaseEventLoop._run_once) and waits in "
                f"{detail} with no timeout: no timer is scheduled"
                + (f" (sched_count {timers})" if timers is not None else "")
            )
        case LoopWatchesOwn(watched):
            return (
                f"it watches only {watched}, whose other end no other process holds (the loop's own wake-up "
                "pipe): no I/O can arrive"
            )
        case LoopWatchesNothing():
            return (
                "its selector watches no descriptor at all, not even the loop's own wake-up pipe (something "
                "unregistered it: a forked child that closed its copy of the loop shares the parent's epoll set): "
                "nothing, not even call_soon_threadsafe, can wake it"
            )
        case LoopOthersForever(others):
            return (
                f"the process's {others} other thread(s) wait forever themselves: none can call call_soon_threadsafe"
                if others
                else "it is the process's only thread: nothing else can call call_soon_threadsafe"
            )
        case NoWakingSignal():
            return "it catches no signal that could wake it (SIGINT aside)"
        case WakeupLost():
            return (
                "so every task of the loop waits for something nothing will produce: a wake-up was lost (a notify "
                "or a result taken by a waiter that was being cancelled, a cancellation swallowed)"
            )
        case RetriesLock(tid, comm, wakeups, window_s):
            return (
                f"thread {tid} ({comm}) retries on a timer inside a lock's acquire ({wakeups} wake-ups "
                f"over {window_s:.1f}s, nothing moved)"
            )
        case HoldsFileLock(pid, target, fd, again):
            which = (
                f"and has the same file open again on fd {again}: a lock taken through that second open waits "
                "for the first"
                if again is not None
                else "and no other process on this host holds or waits for a file lock (/proc/locks): the lock "
                "it retries can only be one it holds itself (a second open of the file, taken and closed at each "
                "try)"
            )
            return f"process {pid} holds a file lock on {target} through fd {fd}, {which}"
        case OnlyItReleases(others):
            return (
                "that lock is released only by this process, and no other thread of it is left to release it "
                + (
                    "(every other thread waits on a lock of its own)"
                    if others
                    else "(it has no other thread)"
                )
            )
        case _:
            assert_never(fact)
