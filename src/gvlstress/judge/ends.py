"""Each judged process's wait-for chain, followed to its end (pure).

The rules decide a verdict and name a pattern; this module states, for every process of a look,
where its wait leads: through the processes it is blocked behind (each waiting forever itself)
to an end of one kind (`model.waitfor.End`), with that end's objects. A pattern's end kind is
fixed by what the pattern is (a lock-order inversion is a cycle, a dead holder a gone party); a
closed wait no pattern names ends in *nobody*, with what was checked; a healthy wait ends in
what outside may still end it (the timer, the peer, the process holding the other end), so a
hang and a healthy wait never read alike.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from gvlstress.judge import names, otherend
from gvlstress.judge.threads import (
    WAKING_SIGNALS,
    caught_signals,
    retries,
    shared_futex_waiters,
    waits_forever,
    wake_signals,
)
from gvlstress.model import ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.waitfor import End, Link, WaitFor
from gvlstress.model.wiring import Relatives, Wiring

END_OF: dict[str, End] = {
    **dict.fromkeys(
        (
            names.POOL_EXHAUSTION,
            names.LOCK_ACROSS,
            names.LOCK_ORDER,
            names.GIL_HELD,
            names.GIL_LOCK_INVERSION,
            names.PY_LOCK_ORDER,
            names.JOIN_BEFORE_DRAIN,
            names.PIPE_CYCLE,
            names.WAIT_CYCLE,
            names.IMPORT_LOCK,
            names.THREAD_POOL_EXHAUSTION,
            names.GIL_SPIN,
            names.NESTED_MONITOR,
        ),
        End.CYCLE,
    ),
    **dict.fromkeys(
        (
            names.SIGNAL_HANDLER_LOCK,
            names.SELF_LOCK,
            names.LOOP_SELF_WAIT,
            names.SELF_FD,
            names.RESULTS_SELF_WAIT,
        ),
        End.SELF,
    ),
    **dict.fromkeys(
        (
            names.FORK_AFTER_INIT,
            names.FORK_HELD_LOCK,
            names.FORK_HANDLER,
            names.EXECUTOR_WEDGED,
            names.LOST_TASK,
            names.LOST_RESULTS,
            names.PEER_GONE,
            names.DEAD_LOCK_HOLDER,
            names.RESPAWN_LOOP,
            names.FEEDER_DROPPED,
            names.MUTEX_OWNER_GONE,
            names.EXIT_FINALIZER_WAIT,
        ),
        End.GONE,
    ),
    **dict.fromkeys(
        (
            names.LOST_WAKEUP,
            names.LOOP_LOST_WAKEUP,
            names.QUEUE_JOIN,
            names.JOIN_BLOCKED,
            names.EXIT_HANG,
            names.EXIT_DESTRUCTOR,
            names.CLOSED_WAIT,
            names.FOREVER_PARTY,
            names.LIVELOCK,
            names.STOPPED_CHILD,
        ),
        End.NOBODY,
    ),
}
"""Where each pattern a look can name ends: the kind is what the pattern *is*."""


class Judged(Protocol):
    """What this module reads of a judgement (`judge.across.Judgement`)."""

    @property
    def finding(self) -> ProbeFinding: ...
    @property
    def named(self) -> names.Match | None: ...
    @property
    def behind(self) -> int | None: ...
    @property
    def hung(self) -> bool: ...


def wait_chains(judged: Mapping[int, Judged], wiring: Wiring, relatives: Relatives) -> dict[int, WaitFor]:
    """The chain of every judged process that was still there (an exit has none), with what a
    watch's history saw exit where the end is a gone party or one look cannot tell."""
    out = {}
    for pid in judged:
        chain = wait_chain(pid, judged, wiring, relatives)
        if chain is None:
            continue
        undecided = chain.end is End.OUTSIDE and judged[pid].finding.kind is ProbeKind.STALLED
        if relatives.exited and (chain.end is End.GONE or undecided):
            chain = replace(chain, parties=(*chain.parties, *_exits(relatives)))
        elif relatives.exited and chain.end is End.NOBODY:
            chain = _gone_sharer(
                chain, judged[chain.through[-1] if chain.through else pid].finding, relatives
            )
        out[pid] = chain
    return out


def _gone_sharer(chain: WaitFor, last: ProbeFinding, relatives: Relatives) -> WaitFor:
    """A wait nothing left can end, on a semaphore or lock in shared memory (a futex without
    FUTEX_PRIVATE_FLAG: only a process sharing it posts it), in a tree where a watch saw a process
    exit: the party that was to post it has gone (killed at a barrier, crashed holding the lock)."""
    shared = [t for t in shared_futex_waiters(last.threads) if t.parked]
    if not shared:
        return chain
    t = shared[0]
    why = (
        f"thread {t.tid} of process {last.pid} waits on futex {t.futex_addr:#x} in memory shared between "
        "processes (a multiprocessing semaphore, lock or condition): only another process can post it, none "
        "left does, and a process of the tree has exited"
    )
    return replace(chain, end=End.GONE, parties=(*chain.parties, why, *_exits(relatives)))


def _exits(relatives: Relatives) -> tuple[str, ...]:
    """The latest exits a watch saw, for a reader to tell who went (a peer, a worker, a server)."""
    return tuple(
        f"seen by watch: process {x.pid} ({x.command}) exited, found gone {x.at_s:g}s into the watch"
        for x in relatives.exited[-3:]
    )


def wait_chain(
    pid: int, judged: Mapping[int, Judged], wiring: Wiring, relatives: Relatives
) -> WaitFor | None:
    """One process's chain: through whoever it is behind, to the end of the last one's wait."""
    j = judged[pid]
    f = j.finding
    if f.kind is ProbeKind.GONE:
        return None
    own = _link(f)
    culprit = j.behind
    if culprit is not None and culprit != pid and culprit in judged:
        then = wait_chain(culprit, {p: x for p, x in judged.items() if p != pid}, wiring, relatives)
        if then is not None and then.end.hang:
            return WaitFor(
                then.end,
                (own, *then.links),
                then.parties,
                then.checked,
                (culprit, *then.through),
                j.named.pattern if j.named else then.pattern,
            )
    if j.hung and j.named is not None:
        end = j.named.end or END_OF.get(j.named.pattern, End.NOBODY)
        checked = _checked(f, relatives) if end is End.NOBODY else ()
        return WaitFor(end, (own,), j.named.evidence[:6], checked, pattern=j.named.pattern)
    if j.hung:
        return WaitFor(End.NOBODY, (own,), (f.reason,), _checked(f, relatives))
    if f.kind in (ProbeKind.BUSY, ProbeKind.LIVELOCK):
        hot = sorted((t for t in f.threads if t.cpu_s > 0), key=lambda t: -t.cpu_s)[:3]
        return WaitFor(
            End.WORKING,
            (),
            tuple(f"thread {t.tid} ({t.comm}) used {t.cpu_s:.2f} CPU-s over {f.window_s:.2f}s" for t in hot)
            or (f.reason,),
        )
    if f.kind is ProbeKind.STALLED:
        return WaitFor(End.OUTSIDE, (own,), (f"one look cannot tell whether it ends: {f.reason}",))
    return WaitFor(End.OUTSIDE, (own,), _outside(f, wiring, judged))


def _link(f: ProbeFinding) -> Link:
    t = f.progress_thread()
    if t is None:
        return Link(f.pid, None, f.reason)
    return Link(f.pid, t.tid, t.wait.detail if t.wait else f"state {t.state}")


def _checked(f: ProbeFinding, relatives: Relatives) -> tuple[str, ...]:
    """What an end in nobody rests on: the other threads, timers, signal handlers, children and
    descriptors, each found unable to end the wait."""
    p = f.progress_thread()
    others = [t for t in f.threads if p is None or t.tid != p.tid]
    blocked = [t for t in others if t.parked and t.wait is not None and t.wait.kind is WaitKind.LOCK]
    timed = [t for t in others if t.wait is not None and t.wait.kind in (WaitKind.TIMED, WaitKind.SLEEP)]
    out = [
        f"threads: {len(others)} other thread(s), {len(blocked)} of them in an untimed wait themselves"
        + (f", {len(f.idle)} idle by design" if f.idle else "")
        if others
        else "threads: no other thread exists"
    ]
    out.append(
        "timers: "
        + (
            "none armed (no thread in a timed wait or a sleep)"
            if not timed
            else f"{len(timed)} thread(s) in a timed wait, none of which can end it"
        )
    )
    caught = caught_signals(f, (*WAKING_SIGNALS, signal.SIGCHLD))
    out.append(
        "signal handlers: "
        + (
            ", ".join(caught) + " caught (only a signal from outside would run it)"
            if caught
            else "none that wakes a wait"
        )
    )
    kids = [c for c, parent in relatives.parents.items() if parent == f.pid]
    out.append(f"children: {len(kids)} in the look" if kids else "children: none")
    return tuple(out)


def _outside(f: ProbeFinding, wiring: Wiring, judged: Mapping[int, Judged]) -> tuple[str, ...]:
    """What may still end a healthy wait, stated with its object (so it never reads like a hang)."""
    if f.kind is ProbeKind.STOPPED:
        return ("SIGCONT from outside: the process is stopped (job control, a debugger)",)
    t = f.progress_thread()
    if t is None or t.wait is None:
        return (f.reason,)
    return (_what_ends(t, f, wiring, judged),)


def _what_ends(t: ThreadDelta, f: ProbeFinding, wiring: Wiring, judged: Mapping[int, Judged]) -> str:
    w = t.wait
    assert w is not None
    if retries(t, f.window_s):
        return (
            f"a retry loop: thread {t.tid} woke {t.voluntary_ctxt} times over {f.window_s:.1f}s in a timed wait "
            f"({w.detail}) and moved nothing: one look cannot tell whether what it retries (a lock file, a "
            "connection, a condition polled) will ever succeed; look again, or watch it, and see whether it does"
        )
    if w.forever:
        return f"only a kill from outside: thread {t.tid} sleeps with no timer left in any job's life ({w.detail})"
    if w.kind in (WaitKind.SLEEP, WaitKind.TIMED) or (w.kind is WaitKind.POLL and not waits_forever(t)):
        return f"a timer: thread {t.tid} waits with a timeout ({w.detail}), and wakes by itself"
    if w.kind is WaitKind.CHILD:
        return f"a child's exit: thread {t.tid} waits for {'any child' if (w.child or -1) <= 0 else f'child {w.child}'}"
    if w.kind is WaitKind.SEMAPHORE:
        s = w.sem
        last = (
            f"; its last operator, process {s.last_pid}, is alive and may post it"
            if s and s.last_alive
            else ""
        )
        return f"a semop() by another process on the System V semaphore it waits on{last}"
    if w.kind is WaitKind.FILE_LOCK:
        holder = w.lock_holder
        return f"the holder of a file lock ({f'process {holder}' if holder and holder > 0 else 'holder unknown'}) releasing it"
    found = otherend.ends(t, f.pid, wiring)
    if found:
        doing = _doing(sorted({o for e in found for o in e.others}), judged)
        return "; ".join(e.words or e.target for e in found) + (f" ({doing})" if doing else "")
    if w.kind is WaitKind.LOCK and (sigs := wake_signals(f)) and not [x for x in f.threads if x.tid != t.tid]:
        return f"a signal handler ({', '.join(sigs)} caught{_kids(f)}) ending the wait of thread {t.tid} ({w.detail})"
    if w.kind is WaitKind.LOCK:
        return f"another thread releasing what thread {t.tid} waits for ({w.detail}): " + (
            f.chain[-1] if f.chain else f.reason
        )
    return f"{w.detail}: {f.reason}"


def _kids(f: ProbeFinding) -> str:
    """', and N live children, whose exit sends it': why a caught SIGCHLD may still come."""
    last = f.samples[-1] if f.samples else None
    n = last.children if last is not None else None
    return f"; {n} live child(ren), whose exit sends a SIGCHLD" if n else ""


def _doing(pids: list[int], judged: Mapping[int, Judged]) -> str:
    """What the processes at the other end are doing, as the look judged them (the reader's next
    question, and what tells a slow peer from a stuck one): 'pid 12 waits in accept4() on fd 3'."""
    out = []
    for pid in pids[:3]:
        j = judged.get(pid)
        if j is None:
            continue
        f = j.finding
        t = f.progress_thread()
        if f.kind in (ProbeKind.BUSY, ProbeKind.LIVELOCK):
            out.append(f"pid {pid} is working ({f.cpu_s:.2f} CPU-s over {f.window_s:.1f}s)")
        elif t is not None and t.wait is not None:
            out.append(f"pid {pid} waits in {t.wait.detail}")
    return "; ".join(out)
