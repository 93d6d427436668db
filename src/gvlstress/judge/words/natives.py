"""Native waits worded (`model.evidence.natives`): a wait at interpreter exit, a pthread mutex
relocked, copied by fork(), locked in a ring or left by a thread that exited, the GIL's holder
spinning for threads that need the GIL."""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.frames import span
from gvlstress.model.evidence.natives import (
    DestructorWaits,
    EndersWait,
    FinalizerWaitsLock,
    ForeignOwnerMutex,
    GilHolderSpins,
    LibThreadsWaitGil,
    MainFinalizing,
    MainTearingDown,
    MutexHeldBy,
    MutexOwnerGone,
    MutexRing,
    NativeFact,
    NoEnderLeft,
    NoPythonThreadRuns,
    NotRecursive,
    OnlyOwnerUnlocks,
    PrivateMutexCopied,
    RelocksOwnMutex,
)


def word(fact: NativeFact) -> str:
    """The sentence of one fact."""
    match fact:
        case MainFinalizing(pid, stage, past):
            where = (
                f"in libc's exit handlers ({stage}), past Py_FinalizeEx: the interpreter is gone and C++ static "
                "destructors and atexit handlers run"
                if past
                else f"in {stage} (Py_FinalizeEx): the program has ended and the interpreter is freeing what is left"
            )
            return f"the main thread {pid} is {where}; no Python frame remains on its stack"
        case DestructorWaits(freeing, joins, joined, at, addr):
            whom = f"thread {joined[0]} ({joined[1]}), the only other one," if joined else "a thread"
            waits = f"joins {whom} in {at}" if joins else f"waits in {at}"
            return (f"a destructor ({freeing}) " if freeing else "it ") + f"{waits} (futex {addr:#x})"
        case EndersWait(threads):
            return "the thread(s) that could end it wait themselves: " + "; ".join(
                f"{tid} ({comm}) in {where}" for tid, comm, where in threads
            )
        case NoEnderLeft():
            return "no other thread is left to end that wait"
        case MainTearingDown(pid, stage):
            return (
                f"the main thread {pid} is in {stage} (Py_FinalizeEx): the program has ended and the interpreter is "
                "tearing its modules down, past the point where any other thread may run Python again"
            )
        case FinalizerWaitsLock(at, addr):
            return (
                f"Python code run from there (a __del__ or a finalizer) waits, untimed, to acquire a Python lock in "
                f"{at} (futex {addr:#x})"
            )
        case NoPythonThreadRuns(natives):
            return (
                "only another Python thread could release it, and none runs again: daemon threads stop at their "
                "next bytecode once finalization starts, the others were joined before it"
                + (f" ({natives} native thread(s) left hold no Python lock)" if natives else "")
            )
        case RelocksOwnMutex(who, addr):
            return (
                f"{who} waits to lock the pthread mutex at {addr:#x}, and the mutex's owner field names this same "
                "thread: it locked it and, without unlocking, locks it again"
            )
        case NotRecursive():
            return (
                "a mutex that is not recursive never grants a second lock to its owner: only this thread "
                "could unlock it, and it waits"
            )
        case ForeignOwnerMutex(who, addr, owner, owner_pid):
            return (
                f"{who} waits to lock the process-private pthread mutex at {addr:#x}, whose owner field names "
                f"thread {owner} of another process, {owner_pid}"
            )
        case PrivateMutexCopied():
            return (
                "a private mutex is never shared: this one is a copy, made by fork() while that thread held "
                "it, and the thread did not come along into this process, so nothing here can unlock it"
            )
        case MutexHeldBy(who, addr, owner):
            return f"{who} waits for the pthread mutex at {addr:#x}, held by thread {owner}"
        case MutexRing():
            return "each holder waits for the next one's mutex, round to the first: none can unlock"
        case MutexOwnerGone(who, addr, owner):
            return (
                f"{who} waits for the pthread mutex at {addr:#x}, whose owner field "
                f"names thread {owner}, and no thread {owner} exists any more"
            )
        case OnlyOwnerUnlocks():
            return (
                "a mutex is unlocked only by the thread that locked it: one that exited holding it left "
                "it locked for good"
            )
        case GilHolderSpins(tid, role, lib, loop, cpu_s, looks, called_from):
            return (
                f"thread {tid} ({role}) holds the GIL at every look over the window and spins in "
                f"{lib} ({loop}): {cpu_s:.2f} CPU-s, no byte moved, the same stack at {looks} looks"
                + (f", called from {called_from}" if called_from else "")
            )
        case LibThreadsWaitGil(tids, lib, at):
            return (
                f"{len(tids)} thread(s) started by {lib} ({span(tids)}) wait for the "
                f"GIL in {at}: they call back into Python, and the spinning thread "
                "waits for their work while holding the GIL they need"
            )
        case _:
            assert_never(fact)
