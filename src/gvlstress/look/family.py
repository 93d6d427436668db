"""Whom a look takes in besides the processes asked about: their descendants, the processes at
the other end of what they wait on, and the parent a fork came from; and how they are related.

A wait on a pipe or a socket is judged by what its other end does, a launcher by its pool's
workers, a forked child by the library threads its parent kept: so the look reads them too
(/proc, no ptrace), bounded so a busy host cannot make a look unbounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gvlstress.look.host import LIVE, Host
from gvlstress.model import ThreadDelta, ThreadSample
from gvlstress.model.fd import FdTarget
from gvlstress.model.wiring import Relatives

MAX_KIDS = 16
"""Descendants of one process looked at with it (a pool's workers, a loader child)."""
MAX_PEERS = 8
"""Processes outside the look's family taken in because they hold the other end of a wait."""


def descendants(pid: int, limit: int = MAX_KIDS, host: Host = LIVE) -> list[int]:
    """Its live descendants (zombies left out: a dead, unreaped child is its parent's evidence),
    nearest first, at most `limit`."""
    return [c for c in host.offspring(pid, True) if host.zombie_status(c) is None][:limit]


def zombies_of(pid: int, host: Host = LIVE) -> dict[int, int]:
    """Its dead, unreaped children: pid -> wait status."""
    return {c: st for c in host.offspring(pid, False) if (st := host.zombie_status(c)) is not None}


def waited_on(threads: Iterable[ThreadSample | ThreadDelta | None]) -> set[str]:
    """The pipes, sockets and pseudo-terminals these threads wait on."""
    out: set[str] = set()
    for t in threads:
        if t is None:
            continue
        if t.fd_target:
            out.add(t.fd_target)
        out.update(target for _, target in t.watched or ())
    return {t for t in out if FdTarget.parse(t).connects}


def peers_of(pids: list[int], host: Host = LIVE) -> list[int]:
    """Processes outside `pids` that hold the other end of what their main threads wait on (a
    pipe, a socket, a file lock):
    a look takes them in, so a wait is judged by what they do. (This process is never one: a
    tool cannot stop the process that runs it.)"""
    mains = [
        next((t for t in s.threads if t.tid == s.pid), None) if (s := host.sample(p)) else None for p in pids
    ]
    # a terminal's master is held by the user's terminal (an emulator, sshd, tmux): never taken
    # in (a look would stop it); one already in the look is wired all the same
    ends = host.wiring(pids, {t for t in waited_on(mains) if not FdTarget.parse(t).is_pty_slave})
    found = {h.pid for held in ends.holders.values() for h in held}
    # a file lock's holder (/proc/locks names it): what the wait is judged by, like a pipe's writer
    found |= {
        t.lock_holder for t in mains if t is not None and t.lock_holder is not None and t.lock_holder > 0
    }
    found -= {*pids, host.me()}
    return sorted(p for p in found if host.zombie_status(p) is None)[:MAX_PEERS]


def origins_of(pids: list[int], host: Host = LIVE) -> list[int]:
    """The parents that `pids` are forks of (they never exec'd): the threads a library started
    there are what a forked child may wait for. This process may be one (``run --start-method
    fork`` forks its workers from the harness)."""
    found = {parent for p in pids if (parent := host.forked_from(p)) is not None}
    return sorted(found - set(pids))


def relatives_of(
    pids: list[int], before: Mapping[int, Mapping[int, int]], tree: bool, host: Host = LIVE
) -> Relatives:
    """Parents, start times, the zombies seen both before the look (`before`) and after it, and
    (for a tree) the pipes each process holds."""
    parents: dict[int, int | None] = {}
    begun: dict[int, float] = {}
    for pid in pids:
        if (known := host.origin(pid)) is not None:
            parents[pid], begun[pid] = known
    zombies = {
        pid: {c: st for c, st in zombies_of(pid, host).items() if before.get(pid, {}).get(c) == st}
        for pid in pids
    }
    return Relatives(parents, begun, zombies, {p: host.pipe_ends(p) for p in pids} if tree else {}, tree=tree)
