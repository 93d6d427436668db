"""Cycles of waits across processes, through any descriptor or child (pure).

A process is *stuck* when every thread of it is parked with no CPU over the window in a wait only
a known party can end: an untimed lock (another thread of its own), a read, write or poll on a
pipe, a Unix socket or a loopback TCP connection whose other end only processes of the look hold
(itself among them), a wait for a child of the look to exit, a file lock a process of the look
holds. Such a process waits *for* those processes. A set of stuck processes that wait only for
one another (a strongly connected set with no wait leading out of it) can never move: each waits
for the next, which waits too. That is a deadlock across processes, whatever the protocol was
(two ends of a socket pair both sending into full buffers, both reading; a parent waiting for a
child's exit while the child reads a pipe only the parent could write or close; a client and a
server each waiting for the other's bytes), and its end is named with its members and objects.

What keeps a set open, so no cycle is claimed: a thread running or burning CPU, a timed wait or a
sleep (a timer may change things), a descriptor whose other end is outside the look (a listener,
another host, a terminal, a file), a wait whose other end is unknown, bytes waiting to be read
on a descriptor a member reads (it is about to move).
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gvlstress.judge import names, words
from gvlstress.judge.otherend import ends
from gvlstress.judge.threads import (
    WAKING_SIGNALS,
    WRITES,
    caught_signals,
    private_futex,
    stranded_signals,
    waits_forever,
)
from gvlstress.model import ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    ChildrenExited,
    CycleParked,
    Fact,
    FdWaiterBehindLock,
    HoldsOtherEnd,
    OnlySelfCanEnd,
    PartyWait,
    WaitsForever,
    WaitsForFdWaiter,
)
from gvlstress.model.fd import FdTarget
from gvlstress.model.waitfor import End
from gvlstress.model.wiring import Relatives, Wiring

CANDIDATES = frozenset({ProbeKind.IDLE, ProbeKind.WAITING, ProbeKind.STALLED})
"""Verdicts a cycle may replace: a wait judged to end from elsewhere, before the elsewhere was
followed round."""


@dataclass(frozen=True)
class Step:
    """One thread's wait and the processes that could end it."""

    pid: int
    tid: int
    how: str
    parties: frozenset[int]
    child: bool = False
    """A wait for a child's exit."""
    sink: bool = False
    """A wait nothing but a kill ends: a sleep with no timer left in any job's life, pause()
    with no handler of a waking signal."""
    fd: bool = False
    """A blocking read, write or file lock (not a poll, not a lock between its own threads)."""
    no_wakeup: bool = False
    """A blocking read or write on what cannot be a signal's wakeup fd: TCP sockets, pty masters,
    connections waiting in a listener's accept queue."""
    writes: bool = False
    """A blocking write (it waits for a reader; a signal's wakeup fd is only ever read)."""


def waits_of(f: ProbeFinding, wiring: Wiring, relatives: Relatives) -> list[Step] | None:
    """The waits of every thread of `f`, each with the processes that could end it; None when
    some thread can end its wait by itself or from outside (running, timed, outside ends)."""
    out: list[Step] = []
    # a process that handles a signal a program sends (or SIGINT, SIGCHLD) may be woken by one
    caught = bool(caught_signals(f, (*WAKING_SIGNALS, signal.SIGCHLD, signal.SIGINT)))
    stranded = stranded_signals(f)
    if stranded and not caught_signals(f):
        # what it waits for came and is blocked: Python's own SIGINT is Ctrl-C, no wake-up
        caught = False
    for t in f.threads:
        step = _sink(f.pid, t, caught, stranded) or _step(f.pid, t, wiring, relatives)
        if step is None:
            return None
        out.append(step)
    return out


def _sink(pid: int, t: ThreadDelta, caught: bool, stranded: list[str]) -> Step | None:
    """A thread that waits for nothing a process can give: a sleep of more than a week, or
    pause()/sigsuspend() (or a poll/select/epoll on no descriptor, with no timeout) in a process
    that catches no signal a program sends to wake it (or whose signal came and waits, blocked,
    in its mask)."""
    w = t.wait
    if w is None or not t.parked:
        return None
    if w.forever:
        return Step(pid, t.tid, w.detail, frozenset(), sink=True)
    nothing = w.kind is WaitKind.POLL and t.watched == () and waits_forever(t)  # select([], [], [])
    if (nothing or (w.kind is WaitKind.SIGNAL and w.syscall in ("pause", "rt_sigsuspend"))) and not caught:
        why = (
            f"{', '.join(stranded)}, which it handles, came and is blocked in its mask: its handler "
            "cannot run, only a kill or Ctrl-C ends it"
            if stranded
            else "no handler of a waking signal: only a kill ends it"
        )
        if nothing:
            why = f"it watches no descriptor and has no timeout, as pause(); {why}"
        return Step(pid, t.tid, f"{w.detail} ({why})", frozenset(), sink=True)
    return None


def _step(pid: int, t: ThreadDelta, wiring: Wiring, relatives: Relatives) -> Step | None:
    w = t.wait
    if w is None or not t.parked:
        return None
    if w.kind is WaitKind.LOCK:
        if w.owner_pid:  # a mutex names its owner: a mutex in shared memory may be another's
            return Step(pid, t.tid, w.detail, frozenset({w.owner_pid}))
        return Step(pid, t.tid, w.detail, frozenset({pid}))
    if w.kind is WaitKind.CHILD:
        kids = {c for c, p in relatives.parents.items() if p == pid}
        want = {w.child} if w.child and w.child > 0 else kids
        return Step(pid, t.tid, w.detail, frozenset(want), child=True) if want and want <= kids else None
    if w.kind is WaitKind.FILE_LOCK:
        holder = w.lock_holder
        return Step(pid, t.tid, w.detail, frozenset({holder}), fd=True) if holder and holder > 0 else None
    if w.kind not in (WaitKind.IO, WaitKind.POLL):
        return None  # a sleep, a timed wait, a signal wait, disk: it may end by itself
    if w.kind is WaitKind.POLL and not waits_forever(t):
        return None
    found = ends(t, pid, wiring)
    if not found or any(e.outside is not None for e in found):
        return None
    writing = w.kind is WaitKind.IO and (w.syscall or "") in WRITES
    if not writing and any(_queued(wiring, pid, e.target) for e in found):
        return None  # bytes wait for this reader: it is about to move (a writer waits on a full buffer)
    parties = frozenset(o for e in found for o in e.others) | ({pid} if any(e.own for e in found) else set())
    words = "; ".join(e.words for e in found)
    how = f"{w.detail} ({words})" if words else w.detail
    io = w.kind is WaitKind.IO
    no_wakeup = io and all(
        _tcp(wiring, e.target) or e.link.is_pty_master or e.queued or _blocking_writers(wiring, pid, e.target)
        for e in found
    )
    return Step(pid, t.tid, how, parties, fd=io, no_wakeup=no_wakeup, writes=writing) if parties else None


def _blocking_writers(wiring: Wiring, pid: int, target: str) -> bool:
    """Every write end of the pipe `target` that `pid` holds is blocking: none of them is a
    signal's wakeup fd (``signal.set_wakeup_fd`` refuses a blocking descriptor), so a read of it
    is no wait for Ctrl-C."""
    link = FdTarget.parse(target)
    ends = [f for f in wiring.files.get(pid, ()) if f.target == target and "w" in f.mode]
    return link.is_pipe and bool(ends) and not any(f.nonblocking for f in ends)


def _tcp(wiring: Wiring, target: str) -> bool:
    link = FdTarget.parse(target)
    ep = wiring.sockets.get(link.inode) if link.is_socket and link.inode is not None else None
    return ep is not None and ep.family.startswith("tcp")


def _queued(wiring: Wiring, pid: int, target: str) -> bool:
    for f in wiring.files.get(pid, ()):
        if f.target == target and f.queued:
            return True
    link = FdTarget.parse(target)
    if link.is_socket:
        ep = wiring.sockets.get(link.inode) if link.inode is not None else None
        return ep is not None and bool(ep.rqueue)
    return False


def find_cycles(
    judged: Mapping[int, tuple[ProbeFinding, names.Match | None]], wiring: Wiring, relatives: Relatives
) -> dict[int, tuple[ProbeFinding, names.Match]]:
    """Every set of stuck processes that wait only for one another, each member judged a
    deadlock and named with the whole cycle; and every stuck process whose waits lead to a
    process that waits forever on nothing (a sleep with no end, pause() with no handler).

    A process whose waits lead only to a *hung* process keeps its own verdict: a pool worker
    waiting for tasks from a deadlocked launcher is idle by design, and the hang is the
    launcher's (a parent behind its hung child is `judge.across`'s, with the child's stacks)."""
    steps: dict[int, list[Step]] = {}
    for pid, (f, named) in judged.items():
        if f.kind not in CANDIDATES or named is not None:
            continue
        got = waits_of(f, wiring, relatives)
        if got:
            steps[pid] = got
    hung = {p for p, (f, _) in judged.items() if f.kind is ProbeKind.DEADLOCK}
    waits_for = {p: frozenset(q for s in st for q in s.parties if q != p) for p, st in steps.items()}
    sinks = {p for p, st in steps.items() if not waits_for[p] and any(s.sink for s in st)}
    # keep only processes whose every party is itself stuck (or hung), until nothing changes
    stuck = set(steps)
    changed = True
    while changed:
        changed = False
        for p in list(stuck):
            if p not in sinks and (not waits_for[p] or not waits_for[p] <= stuck | hung):
                stuck.discard(p)
                changed = True
    out: dict[int, tuple[ProbeFinding, names.Match]] = {}
    for group in _components(stuck - sinks, waits_for):
        if len(group) < 2:
            continue
        _cycle(sorted(group), steps, judged, out)
    for p in sorted(set(steps) - set(out)):
        dead = tuple(sorted(relatives.zombies.get(p, {})))
        found = _self_wait(p, steps[p], judged[p][0], dead)
        if found is not None:
            out[p] = found
    for p in sorted(stuck - sinks - set(out)):
        c = _culprit(p, waits_for, sinks)
        if c is None or any(s.child for s in steps[p]):
            # a parent waiting for a child that sleeps forever by design (an init process, a
            # supervisor of `sleep infinity`) keeps its verdict: only a descriptor or a file lock
            # that a forever-sleeper keeps is a wait nothing in the tree will end
            continue
        sink = judged[c][0]
        facts: list[Fact] = [
            PartyWait(s.pid, s.tid, s.how, tuple(sorted(s.parties - {p})))
            for s in steps[p]
            if s.parties - {p}
        ]
        how = "; ".join(s.how for s in steps[c] if s.sink)
        facts.append(WaitsForever(c, _comm(sink), how))
        match = names.Match(names.FOREVER_PARTY, names.HINTS[names.FOREVER_PARTY], tuple(facts))
        reason = f"waits for process {c} ({_comm(sink)}), which waits forever itself"
        chain = words.evidence(match.facts)
        out[p] = (replace(judged[p][0], kind=ProbeKind.DEADLOCK, reason=reason, chain=chain), match)
    return out


def _self_wait(
    p: int, steps: list[Step], f: ProbeFinding, dead: tuple[int, ...]
) -> tuple[ProbeFinding, names.Match] | None:
    """A process that waits only for itself: every thread parked in a wait no other process can end
    (a read, write or file lock whose other end only it holds, or a lock of its own), at least one
    of them on a descriptor or file lock, and no handler of a signal a program sends (a self-pipe
    written by a handler, SIGCHLD's included, is a wait that ends from outside)."""
    if not steps or any(s.parties != {p} for s in steps) or not any(s.fd for s in steps):
        return None
    if caught_signals(f, (*WAKING_SIGNALS, signal.SIGCHLD)):
        return None
    if any(t.wait and t.wait.kind is WaitKind.LOCK and not private_futex(t) for t in f.threads):
        return None  # a futex in shared memory: another process may wake it (a multiprocessing lock)
    locked = any(t.wait and t.wait.kind is WaitKind.FILE_LOCK for t in f.threads)
    no_wakeup = all(s.no_wakeup for s in steps if s.fd)
    writes = all(s.writes for s in steps if s.fd)
    if caught_signals(f, (signal.SIGINT,)) and not (locked or dead or no_wakeup or writes):
        # Python catches SIGINT, and its handler writes a wakeup fd (signal.set_wakeup_fd): a
        # read of its own pipe may be a wait for Ctrl-C; one left after its child died, a TCP
        # connection to itself, a terminal, a connection not accepted yet, or a write (a handler
        # writes a wakeup fd, it never reads one) is not
        return None
    facts: list[Fact] = [OnlySelfCanEnd(p, s.tid, s.how) for s in steps]
    if dead:
        facts.append(ChildrenExited(dead))
    closing: Fact = HoldsOtherEnd(p, _comm(f))
    # the thread that must progress waits on a lock while another thread waits on the descriptor:
    # two threads wait for one another (a server thread reading a connection whose other end the
    # main thread keeps, while the main thread waits for the server thread to stop)
    main = f.progress_thread()
    cycle = (
        main is not None
        and main.wait is not None
        and main.wait.kind is WaitKind.LOCK
        and any(s.fd and s.tid != main.tid for s in steps)
    )
    if cycle and main is not None:
        closing = WaitsForFdWaiter(main.tid, p)
    elif (
        main is not None
        and any(s.fd and s.tid == main.tid for s in steps)
        and any(not s.fd and s.tid != main.tid for s in steps)
    ):
        # the thread that must progress waits on its own descriptor, and the thread that would
        # write it waits on a lock of this process: one only the waiters can release
        cycle = True
        closing = FdWaiterBehindLock(main.tid, p)
    facts.append(closing)
    match = names.Match(
        names.SELF_FD, names.HINTS[names.SELF_FD], tuple(facts), end=End.CYCLE if cycle else None
    )
    reason = "waits on a descriptor whose other end only it holds"
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=words.evidence(match.facts)), match


def _comm(f: ProbeFinding) -> str:
    main = f.progress_thread()
    return main.comm if main is not None else "?"


def _culprit(p: int, waits_for: Mapping[int, frozenset[int]], sinks: set[int]) -> int | None:
    """The nearest process `p`'s waits lead to that waits forever on nothing (breadth first)."""
    seen = {p}
    level = sorted(waits_for.get(p, frozenset()))
    while level:
        for q in level:
            if q in sinks:
                return q
        seen.update(level)
        level = sorted({r for q in level for r in waits_for.get(q, frozenset())} - seen)
    return None


def _cycle(
    members: list[int],
    steps: Mapping[int, list[Step]],
    judged: Mapping[int, tuple[ProbeFinding, names.Match | None]],
    out: dict[int, tuple[ProbeFinding, names.Match]],
) -> None:
    facts: list[Fact] = [
        PartyWait(s.pid, s.tid, s.how, tuple(sorted(s.parties)))
        for p in members
        for s in steps[p]
        if s.parties - {p}
    ]
    facts.append(CycleParked(tuple(members)))
    match = names.Match(names.WAIT_CYCLE, names.HINTS[names.WAIT_CYCLE], tuple(facts))
    lines = words.evidence(match.facts)
    reason = "cycle of waits across processes " + " <-> ".join(map(str, members))
    for p in members:
        f = judged[p][0]
        # the cycle replaces what the member's wait was said to end in (a peer that "may still act")
        out[p] = (replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=lines), match)


def _components(nodes: set[int], edges: Mapping[int, frozenset[int]]) -> list[set[int]]:
    """Strongly connected components of the stuck processes (Tarjan's, iteratively small)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on: set[int] = set()
    out: list[set[int]] = []

    def visit(v: int) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, frozenset()) & nodes):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            out.append(group)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out
