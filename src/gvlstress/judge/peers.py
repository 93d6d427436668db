"""Waits on a pipe or socket, judged by whoever holds the other end (pure).

A thread blocked reading a pipe, receiving on a socket, or polling a set of them is not idle
because the wait "ends from outside": it ends when the process at the other end writes (or reads,
or connects). So the other end is found (the pipe's other holders, a unix socket's peer from
sock_diag, a loopback TCP connection's other side) and judged:

- held by no process, or only by this one with no other thread to act while a child it started
  lies dead, the wait is in a library's teardown or in multiprocessing's channel (a Connection,
  a Queue: made to talk to another process): the peer has gone (a worker that died while
  the parent kept its end of the pipe; a context flushing to an endpoint that exited). Held only
  by this one with no such sign, it is a self-pipe a signal handler may write: idle;
- held by processes that are deadlocked themselves: this wait is behind theirs;
- held by processes that are all stopped (SIGSTOP, a tracer): stalled until they continue;
- held by a live process that may act (running, waiting on something of its own), or by a
  listening socket anyone may connect to, or by a host this one cannot see: the wait is idle.

A process every thread of which waits on descriptors only it holds, or on timers, with no byte
moved over the window, cannot be woken by anything outside it: inside a library's teardown (the
stack says so) that is a wait for a peer that has gone (a messaging context flushing to an
endpoint nobody listens on).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from gvlstress.judge import patterns, vocab, words
from gvlstress.judge.case import Case, Found
from gvlstress.judge.frames import short_name
from gvlstress.judge.names import CLOSED_WAIT, HINTS, PEER_GONE, STOPPED_CHILD, Match
from gvlstress.judge.otherend import End, ends, internal_wait
from gvlstress.judge.pools import waits_for_task
from gvlstress.judge.threads import retries, waits_forever
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.evidence import (
    AnswererGone,
    BehindHungPeer,
    Fact,
    InChannel,
    InTeardown,
    NoHolder,
    OwnEndOnly,
    PeerEnd,
    PeerWaits,
)
from gvlstress.model.wiring import Wiring

TEARDOWN = frozenset(
    {"term", "terminate", "shutdown", "destroy", "close", "drop", "del", "exit", "atexit", "fini", "finalize"}
)
"""Words of frames in which a library takes itself down (a context's term, a pool's shutdown, a
destructor, interpreter exit)."""


def teardown_frame(capture: Capture | None, tid: int) -> str | None:
    """The innermost frame of `tid` whose name says teardown (by word: ``zmq_ctx_term``,
    ``Context.term``, ``Drop::drop``), if any."""
    if capture is None:
        return None
    t = capture.thread(tid)
    if t is None:
        return None
    for f in [*t.native, *(t.python.frames if t.python else ())]:
        words = set(re.split(r"[^a-z]+", f.name.lower()))
        if words & TEARDOWN:
            return short_name(f.name, keep=2)
    return None


def channel_frame(capture: Capture | None, tid: int) -> str | None:
    """The innermost Python frame of `tid` when it is multiprocessing's own code (a Connection,
    a Queue, a spawn launch): a channel made to talk to another process, so an answer was due
    from one; a bare os.read() on a self-pipe says no such thing (nor does multiprocessing's
    bootstrap further out, under every spawned worker's code)."""
    if capture is None:
        return None
    t = capture.thread(tid)
    frames = t.python.frames if t is not None and t.python else ()
    f = next((x for x in frames if x.file and x.file.endswith(".py")), None)  # past native frames
    if f is None or not f.file or "/multiprocessing/" not in f.file.replace("\\", "/"):
        return None
    return f"{f.name} ({f.file.rsplit('/', 2)[-2]}/{f.file.rsplit('/', 1)[-1]})"


def judge_peer(case: Case) -> Found | None:
    """The progress thread's wait on pipes or sockets, judged by the other end; None when this
    rule has nothing to say (not such a wait, or its other end is unknown). Behind deadlocked
    peers, it takes the first one's name (`names`: each process's pattern as judged so far)."""
    f, capture, wiring, relatives = case.finding, case.capture, case.wiring, case.relatives
    others, names = case.others.findings, case.others.names
    p = f.progress_thread()
    if p is None or p.wait is None or not p.parked or not waits_forever(p):
        return None
    zombies = relatives.zombies.get(f.pid, {})
    parents = relatives.parents
    found = ends(p, f.pid, wiring)
    if not found:
        return None
    if any(e.outside for e in found):
        return None  # it can end from outside: idle, as judged already
    who = f"thread {p.tid} ({'main thread' if p.tid == f.pid else p.comm})"
    live = sorted({o for e in found for o in e.others})
    view = capture.thread(p.tid) if capture else None
    by_design = (
        (
            vocab.idle_reason(view, p.wait.kind)
            or ("a pool worker waiting for a task" if waits_for_task(view.python) else None)
        )
        if view is not None
        else None
    )
    if live:
        return _live_peers(f, p, who, found, live, others, by_design, zombies, parents, names or {})
    return _no_peer(f, p, who, found, capture, wiring, zombies)


def _stopped_for_good(pid: int, parents: Mapping[int, int | None], names: Mapping[int, Match | None]) -> bool:
    """A process stopped as part of its parent's hang: the child a `STOPPED_CHILD` waits for."""
    parent = parents.get(pid)
    named = names.get(parent) if parent is not None else None
    return named is not None and named.pattern == STOPPED_CHILD


def _live_peers(
    f: ProbeFinding,
    p: ThreadDelta,
    who: str,
    found: tuple[End, ...],
    live: list[int],
    others: Mapping[int, ProbeFinding],
    by_design: str | None,
    zombies: Mapping[int, int],
    parents: Mapping[int, int | None],
    names: Mapping[int, Match | None],
) -> tuple[ProbeFinding, Match | None]:
    """The other end is held by live processes: behind them if they are deadlocked, stalled if
    they are stopped or only inherited the end, else the wait stands (idle: they may act)."""
    assert p.wait is not None
    judged = [others.get(o) for o in live]
    hung = [j for j in judged if j is not None and j.kind is ProbeKind.DEADLOCK]
    if (
        by_design is None
        and hung
        and all(j in hung or _stopped_for_good(o, parents, names) for o, j in zip(live, judged, strict=True))
    ):
        first = hung[0]
        assert first is not None
        behind = BehindHungPeer(who, p.wait.detail, tuple(e.words for e in found))
        line = words.word(behind)
        children = [o for o in live if parents.get(o) == f.pid]
        dead = [j.pid for j in hung]
        still = [o for o in live if o not in dead]  # stopped as part of their parent's hang
        reason = (
            f"blocked behind its child {children[0]}, which is deadlocked: {first.reason}"
            if children == live and len(live) == 1
            else f"blocked behind process(es) {', '.join(map(str, dead))}, deadlocked themselves"
            + (f" (and {', '.join(map(str, still))}, stopped in their hang)" if still else "")
            + f": {first.reason}"
        )
        theirs = names.get(first.pid)
        return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, line, *first.chain)), (
            Match(theirs.pattern, theirs.hint, (behind, *theirs.facts)) if theirs else None
        )
    if all(j is not None and j.kind is ProbeKind.STOPPED for j in judged):
        line = (
            f"{who} waits in {p.wait.detail} for process(es) {', '.join(map(str, live))}, which hold the other "
            "end and are stopped (SIGSTOP or a tracer): `kill -CONT` resumes them"
        )
        return replace(f, kind=ProbeKind.STALLED, reason=f"{f.reason}; {line}", chain=(*f.chain, line)), None
    peers = ", ".join(
        f"{o} ({j.kind.value})" if j else f"{o} (not looked at)"  # their own lines say why
        for o, j in zip(live, judged, strict=True)
    )
    line = (
        f"{who} waits in {p.wait.detail} for process(es) {peers}, which hold the other end and may still act"
    )
    if zombies and all(
        parents.get(o) not in (f.pid, None) and not _descends(o, f.pid, parents) for o in live
    ):
        # the child it started is dead; the other end lives on in a process that inherited it
        line = (
            f"{who} waits in {p.wait.detail}; its child {_dead(zombies)} has exited, and the other end is held "
            f"only by process(es) {peers}, not its children (they inherited the descriptor, e.g. a background "
            "server started by the child): they may never write or close it"
        )
        return replace(f, kind=ProbeKind.STALLED, reason=line, chain=(*f.chain, line)), None
    return replace(f, reason=f"{f.reason}; {line}", chain=(*f.chain, line)), None


def _no_peer(
    f: ProbeFinding,
    p: ThreadDelta,
    who: str,
    found: tuple[End, ...],
    capture: Capture | None,
    wiring: Wiring,
    zombies: Mapping[int, int],
) -> tuple[ProbeFinding, Match | None] | None:
    """Only this process holds the other ends, or nobody does: a peer that has gone, unless one
    of its own threads may still act or nothing says an answer was due from anyone else."""
    assert p.wait is not None
    rest = [t for t in f.threads if t.tid != p.tid]
    down = teardown_frame(capture, p.tid)
    if any(not internal_wait(t, f.pid, wiring, timers=down is not None) for t in rest):
        return None
    dead = _dead(zombies)
    lines: list[Fact] = [PeerWaits(who, p.wait.detail), *(PeerEnd(e.words) for e in found)]
    if any(e.own for e in found):
        lines.append(OwnEndOnly(len(rest)))
    else:
        lines.append(NoHolder())
    if dead:
        lines.append(AnswererGone(dead))
    if down:
        lines.append(InTeardown(down))
        retrying = [t for t in rest if retries(t, f.window_s)]
        if retrying and not dead:
            # a thread of the library keeps waking on its timer: it retries something (a
            # reconnect to a peer that is not there yet): a peer that comes ends the wait, one
            # that has gone never will, and one look cannot tell which
            t = retrying[0]
            reason = (
                f"{who} waits in the library's teardown ({down}) while its thread {t.tid} ({t.comm}) retries on "
                f"a timer ({t.voluntary_ctxt} wake-ups over {f.window_s:.1f}s, nothing moved): a peer that "
                "comes (a listener at the address it connects to) would end the wait, one that has gone "
                "never will; one look cannot tell which: look again (or watch it) and see whether anything "
                "ever answers, or set the library's linger/timeout so its teardown cannot wait forever"
            )
            return replace(f, kind=ProbeKind.STALLED, reason=reason), None
    elif found and all(e.link.is_anon_inode for e in found) and not dead:
        return None  # an event loop waiting on its own wakeup: judged by the threads, not here
    views = {t.tid: t for t in capture.threads} if capture else {}
    python_waits = [
        t for t in rest if t.wait and t.wait.kind is WaitKind.LOCK and t.tid in views and views[t.tid].python
    ]
    if python_waits and not dead:
        # nothing has gone: its own Python threads wait on each other (an executor's shutdown
        # joining a worker blocked in Queue.get): the Python shape names it, the wait on its own
        # descriptors is how the main thread meets it
        shape = patterns.match(replace(f, kind=ProbeKind.DEADLOCK), capture)
        if shape is not None and shape.pattern != CLOSED_WAIT:
            reason = (
                f"{who} waits on descriptors only this process holds, for threads that wait on each other"
            )
            return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
                shape.pattern, shape.hint, (*lines, *shape.facts)
            )
    channel = channel_frame(capture, p.tid)
    view = capture.thread(p.tid) if capture is not None else None
    bare = view is not None and view.python is not None and bool(view.python.frames)
    if any(e.queued for e in found) and not dead:
        return None  # a connection waiting to be accepted: nobody has gone (`judge.cycles` follows it)
    if any(e.own for e in found) and not (down or channel) and (bare or not dead):
        # it holds the other end itself and nothing says an answer was due from another process
        # (no teardown; its Python stack shows no multiprocessing channel; a child that died was
        # to answer only by exiting, which cannot end a wait the waiter holds open itself): a
        # self-pipe a signal handler writes is idle, and with no such handler it waits for
        # itself (`judge.cycles`); with no Python stack to tell, a dead child is the peer gone
        return None
    if channel and not (dead or down):
        lines.append(InChannel(channel))
    reason = f"{who} waits for a peer that has gone: " + "; ".join(e.words for e in found)
    return replace(f, kind=ProbeKind.DEADLOCK, reason=reason), Match(
        PEER_GONE, HINTS[PEER_GONE], tuple(lines)
    )


def _descends(pid: int, ancestor: int, parents: Mapping[int, int | None]) -> bool:
    seen = 0
    while pid in parents and seen < 64:
        parent = parents[pid]
        if parent is None:
            return False
        if parent == ancestor:
            return True
        pid, seen = parent, seen + 1
    return False


def _dead(zombies: Mapping[int, int]) -> str:
    return ", ".join(f"{z} ({_status(st)})" for z, st in sorted(zombies.items()))


def _status(st: int) -> str:
    sig = st & 0x7F
    return f"signal {sig}" if sig else f"exit code {st >> 8}"
