"""The other end of a descriptor a thread waits on (pure): who holds it (the other holders of a
pipe, a unix socket's peer from sock_diag, a loopback TCP connection's other side, a terminal's
master), or why the wait can end from outside whatever they do (a listener, another host, a file).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gvlstress.judge.threads import waits_forever
from gvlstress.model import ThreadDelta, WaitKind
from gvlstress.model.fd import FdTarget
from gvlstress.model.wiring import Endpoint, Holder, Wiring

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
    queued: bool = False
    """Its other side is a connection still in a listener's accept queue: the holders are the
    listener's, who must accept it (nobody has gone)."""

    @property
    def link(self) -> FdTarget:
        """`target` typed (its kind, inode or path)."""
        return FdTarget.parse(self.target)


def _queued(ino: int, wiring: Wiring) -> bool:
    """Socket `ino`'s other side is a connection still in a listener's accept queue."""
    ep = wiring.sockets.get(ino)
    peer = wiring.sockets.get(ep.peer) if ep is not None and ep.peer is not None else None
    return peer is not None and peer.pending is not None


def _socket_end(ino: int, wiring: Wiring, pid: int) -> tuple[str | None, tuple[Holder, ...] | None, str]:
    """(why it can end from outside, holders of its peer, words) for socket inode `ino`."""
    ep: Endpoint | None = wiring.sockets.get(ino)
    if ep is None:
        return "a socket whose kind this look cannot read", None, f"socket:[{ino}]"
    if ep.listener:
        return "a listening socket: any process may connect", None, f"{ep.family} socket listening {ep.local}"
    queued = wiring.sockets.get(ep.peer) if ep.peer is not None else None
    if queued is not None and queued.pending is not None:  # not accepted yet: the listener's
        listening = wiring.sockets.get(queued.pending)
        at = listening.local if listening is not None and listening.local else f"socket:[{queued.pending}]"
        where = (
            f"{ep.family} {ep.local} -> {ep.remote} ({ep.state})"
            if ep.family.startswith("tcp")
            else (f"unix socket:[{ino}]")
        )
        return (
            None,
            wiring.holders.get(f"socket:[{queued.pending}]"),
            f"{where}, not accepted yet: it waits in the accept queue of the socket listening on {at}",
        )
    if ep.family.startswith("tcp"):
        where = f"{ep.family} {ep.local} -> {ep.remote} ({ep.state})"
        if ep.peer is None:
            if ep.state in ("ESTABLISHED", "SYN_SENT", "SYN_RECV"):
                return f"its peer {ep.remote} is not a socket of this host", None, where
            return None, (), where
        if queued is not None and queued.inode < 0:
            return "a connection not accepted yet by a listener this look cannot see", None, where
        return None, wiring.holders.get(f"socket:[{ep.peer}]"), where
    if ep.peer is None:
        return None, (), f"unix socket:[{ino}] ({ep.state}, no peer)"
    return None, wiring.holders.get(f"socket:[{ep.peer}]"), f"unix socket:[{ino}] (peer socket:[{ep.peer}])"


def end_of(target: str, direction: str, pid: int, wiring: Wiring) -> End:
    """The other end of `target` for a wait that needs the other side to 'write' or 'read'."""
    link = FdTarget.parse(target)
    if link.is_pipe:
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
    if link.is_socket:
        ino = link.inode if link.inode is not None else -1
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
        if _queued(ino, wiring):  # the holders are the listener's: whoever accepts it
            return End(target, others, own, None, f"{words}, which {holders} can accept", queued=True)
        return End(target, others, own, None, f"{words}, its other end held by {holders}")
    masters = wiring.holders.get(end) if link.is_pty_slave and (end := link.other_pty_end) else None
    if masters:
        # a pseudo-terminal: its other end is whoever holds the master (a terminal emulator, an
        # ssh server, pexpect): a write into a full tty waits for them to read, a read for them
        # to write
        others, own = _split(masters, pid)
        return End(target, others, own, None, f"the master of {target}: {_listed(masters)}")
    if link.is_pty_master:
        # a pty master: its other end is whoever holds the slave (the program in the terminal);
        # with the slave closed everywhere a read gets EIO at once, so a blocked one means some
        # process holds it
        slave = link.other_pty_end or ""
        slaves = wiring.holders.get(slave)
        if not slaves:
            return End(
                target, (), False, f"a terminal whose slave {slave} no process this look saw holds", target
            )
        others, own = _split(slaves, pid)
        return End(
            target, others, own, None, f"the master of {slave}, whose slave is held by {_listed(slaves)}"
        )
    if link.is_anon_inode and ("eventfd" in link.name or "eventpoll" in link.name):
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
    if w.kind is WaitKind.POLL and t.watched is not None:  # () : a set read, and empty
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
