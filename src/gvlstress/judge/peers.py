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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from gvlstress.judge import patterns, vocab
from gvlstress.judge.frames import short_name
from gvlstress.judge.names import CLOSED_WAIT, HINTS, PEER_GONE, Match
from gvlstress.judge.pools import waits_for_task
from gvlstress.judge.threads import retries, waits_forever
from gvlstress.model import Capture, ProbeFinding, ProbeKind, ThreadDelta, WaitKind
from gvlstress.model.wiring import PTY_SLAVE, Endpoint, Holder, Relatives, Wiring, pty_master

_READS = frozenset({"read", "readv", "pread64", "recvfrom", "recvmsg", "recvmmsg", "accept", "accept4"})
"""Waits for the other end to write (or, accept, to connect)."""
_WRITES = frozenset({"write", "writev", "pwrite64", "sendto", "sendmsg", "connect"})
"""Waits for the other end to read (or accept)."""


@dataclass(frozen=True)
class End:
    """The other end of one descriptor a thread waits on."""

    target: str
    """What the waiting thread's fd links to ('pipe:[1]', 'socket:[2]', 'anon_inode:[eventfd]')."""
    others: tuple[int, ...]
    """Other live processes that hold the other end."""
    own: bool
    """This process holds the other end itself (another of its threads may act)."""
    outside: str | None = None
    """Why the wait can end from outside whatever the holders do (a listening socket, a host
    this one cannot see, a terminal, a file, a timer): None when only the holders can end it."""
    words: str = ""


def _socket_end(ino: int, wiring: Wiring, pid: int) -> tuple[str | None, tuple[Holder, ...] | None, str]:
    """(why it can end from outside, holders of its peer, words) for socket inode `ino`."""
    ep: Endpoint | None = wiring.sockets.get(ino)
    if ep is None:
        return "a socket whose kind this look cannot read", None, f"socket:[{ino}]"
    if ep.listener:
        return "a listening socket: any process may connect", None, f"{ep.family} socket listening {ep.local}"
    if ep.family.startswith("tcp"):
        where = f"{ep.family} {ep.local} -> {ep.remote} ({ep.state})"
        if ep.peer is None:
            if ep.state in ("ESTABLISHED", "SYN_SENT", "SYN_RECV"):
                return f"its peer {ep.remote} is not a socket of this host", None, where
            return None, (), where
        return None, wiring.holders.get(f"socket:[{ep.peer}]"), where
    if ep.peer is None:
        return None, (), f"unix socket:[{ino}] ({ep.state}, no peer)"
    return None, wiring.holders.get(f"socket:[{ep.peer}]"), f"unix socket:[{ino}] (peer socket:[{ep.peer}])"


def end_of(target: str, direction: str, pid: int, wiring: Wiring) -> End:
    """The other end of `target` for a wait that needs the other side to 'write' or 'read'."""
    if target.startswith("pipe:"):
        want = "w" if direction == "write" else "r"
        held = wiring.holders.get(target)
        if held is None:
            return End(target, (), False, "a pipe whose holders this look did not read")
        ends = [h for h in held if want in h.mode]
        others, own = _split(ends, pid)
        side = "write" if want == "w" else "read"
        words = f"the {side} end of {target}: " + (_listed(ends) or "held by nobody")
        if not wiring.complete and not others:
            return End(
                target, (), own, "a pipe whose holders may hide in processes this look cannot read", words
            )
        if not ends:
            # the kernel ends a read of a pipe nobody can write (EOF) and a write nobody can read
            # (EPIPE) at once: a thread still blocked on it means some process holds that end,
            # one this look did not see, or one that closed it after the wait was read (a
            # pipeline's writer exiting): the wait may have ended already, never a deadlock
            return End(
                target,
                (),
                False,
                f"a pipe whose {side} end no process this look saw holds: a blocked wait means one is open "
                "somewhere (closed since the wait was read, or held outside the look)",
                words,
            )
        return End(target, others, own, None, words)
    if target.startswith("socket:["):
        ino = int(target[8:-1]) if target[8:-1].isdigit() else -1
        outside, held, words = _socket_end(ino, wiring, pid)
        if outside is not None or held is None:
            return End(
                target, (), False, outside or "a socket whose other end this look could not read", words
            )
        others, own = _split(held, pid)
        holders = _listed(held) or "nobody"
        if not wiring.complete and not others:
            return End(
                target, (), own, "a socket whose holders may hide in processes this look cannot read", words
            )
        return End(target, others, own, None, f"{words}, its other end held by {holders}")
    masters = (
        wiring.holders.get(pty_master(target[len(PTY_SLAVE) :])) if target.startswith(PTY_SLAVE) else None
    )
    if masters:
        # a pseudo-terminal: its other end is whoever holds the master (a terminal emulator, an
        # ssh server, pexpect): a write into a full tty waits for them to read, a read for them
        # to write
        others, own = _split(masters, pid)
        return End(target, others, own, None, f"the master of {target}: {_listed(masters)}")
    if target.startswith("anon_inode:") and ("eventfd" in target or "eventpoll" in target):
        return End(target, (), True, None, f"{target} (this process's own)")
    return End(target, (), False, f"{target or 'an unknown descriptor'}: ends from outside", target)


def _split(held: Iterable[Holder], pid: int) -> tuple[tuple[int, ...], bool]:
    """(the other processes holding it, whether `pid` holds it too)."""
    held = list(held)
    return tuple(sorted({h.pid for h in held if h.pid != pid})), any(h.pid == pid for h in held)


def _listed(held: Iterable[Holder]) -> str:
    return ", ".join(f"pid {h.pid} (fd {h.fd})" for h in held)


def ends(t: ThreadDelta, pid: int, wiring: Wiring) -> tuple[End, ...] | None:
    """The other ends of what `t` waits on, or None when it waits on no descriptor this judge
    can follow (a futex, a sleep, a child; or a poll whose set could not be read)."""
    w = t.wait
    if w is None:
        return None
    if w.kind is WaitKind.IO and w.fd_target and w.syscall:
        direction = "write" if w.syscall in _READS else "read" if w.syscall in _WRITES else ""
        if not direction:
            return None
        return (end_of(w.fd_target, direction, pid, wiring),)
    if w.kind is WaitKind.POLL and t.watched:
        out = []
        for fd, target in t.watched:
            f = wiring.file(pid, fd)
            direction = "read" if f is not None and f.mode == "w" else "write"
            out.append(end_of(target, direction, pid, wiring))
        return tuple(out)
    return None


def internal_wait(t: ThreadDelta, pid: int, wiring: Wiring, timers: bool) -> bool:
    """A thread that only another thread of this process can wake: a lock or GIL wait, or a wait
    on descriptors whose other ends only this process holds. With `timers`, a timed wait counts
    too (a timer that fires and finds nothing changes nothing: flat CPU, no byte moved)."""
    w = t.wait
    if w is None or not t.parked or not (timers or waits_forever(t) or w.kind is WaitKind.LOCK):
        return False
    if w.kind in (WaitKind.LOCK, WaitKind.TIMED):
        return True
    e = ends(t, pid, wiring)
    return e is not None and all(x.outside is None and not x.others for x in e)


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


def judge_peer(
    f: ProbeFinding,
    capture: Capture | None,
    wiring: Wiring,
    others: Mapping[int, ProbeFinding],
    relatives: Relatives | None = None,
    names: Mapping[int, Match | None] | None = None,
) -> tuple[ProbeFinding, Match | None] | None:
    """The progress thread's wait on pipes or sockets, judged by the other end; None when this
    rule has nothing to say (not such a wait, or its other end is unknown). Behind deadlocked
    peers, it takes the first one's name (`names`: each process's pattern as judged so far)."""
    p = f.progress_thread()
    if p is None or p.wait is None or not p.parked or not waits_forever(p):
        return None
    zombies = relatives.zombies.get(f.pid, {}) if relatives else {}
    parents = relatives.parents if relatives else {}
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
    if by_design is None and all(j is not None and j.kind is ProbeKind.DEADLOCK for j in judged):
        first = judged[0]
        assert first is not None
        line = f"{who} waits in {p.wait.detail}: " + "; ".join(e.words for e in found)
        children = [o for o in live if parents.get(o) == f.pid]
        reason = (
            f"blocked behind its child {children[0]}, which is deadlocked: {first.reason}"
            if children == live and len(live) == 1
            else f"blocked behind process(es) {', '.join(map(str, live))}, deadlocked themselves: {first.reason}"
        )
        theirs = names.get(live[0])
        return replace(f, kind=ProbeKind.DEADLOCK, reason=reason, chain=(*f.chain, line, *first.chain)), (
            Match(theirs.pattern, theirs.hint, (line, *theirs.evidence)) if theirs else None
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
    lines = [f"{who} waits in {p.wait.detail}", *(f"- {e.words}" for e in found)]
    if any(e.own for e in found):
        lines.append(
            "only this process holds the other end, so only one of its own threads could end the wait, and "
            + (
                f"each of its {len(rest)} other thread(s) waits on a lock, a timer or descriptors only this process "
                "holds, with no byte moved over the window"
                if rest
                else "it has no other thread"
            )
        )
    else:
        lines.append("no process holds the other end: nothing can ever answer")
    if dead:
        lines.append(f"dead, unreaped child(ren) {dead}: whoever was to answer has gone")
    if down:
        lines.append(f"the wait is inside the library's teardown ({down})")
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
    elif found and all(e.target.startswith("anon_inode:") for e in found) and not dead:
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
                shape.pattern, shape.hint, (*lines, *shape.evidence)
            )
    channel = channel_frame(capture, p.tid)
    if any(e.own for e in found) and not (down or channel):
        # it holds the other end itself and nothing says an answer was due from another process
        # (no teardown, not multiprocessing's channel; a child that died was to answer only by
        # exiting, which cannot end a wait the waiter holds open itself): a self-pipe a signal
        # handler writes is idle, and with no such handler it waits for itself (`judge.cycles`)
        return None
    if channel and not (dead or down):
        lines.append(
            f"the wait is in {channel}: a channel made for another process, whose end only this one holds"
        )
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
