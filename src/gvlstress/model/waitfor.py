"""The wait-for chain of a judged process: who waits on what, followed to where it ends.

Every process a look judges gets one (`judge.ends` builds it): its waiting thread's wait, the
processes the chain passed through (each waiting forever itself), and the end, one of a few
kinds, stated with its objects. A hang and a healthy wait never read alike: a hang's chain ends
in a cycle, a self-wait, a gone party or nobody; a healthy wait's in something outside that may
still end it (a timer, a peer, a signal), or in work.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class End(StrEnum):
    """How a wait-for chain ends."""

    CYCLE = "cycle"
    """These threads or processes wait for one another (locks, pipes, sockets, children)."""
    SELF = "self-wait"
    """A thread waits for something only it can release (a lock it holds, its own loop)."""
    GONE = "dead or gone party"
    """The holder, writer, reader, peer or worker that would end it has exited or never existed."""
    NOBODY = "nobody can end it"
    """Nothing in the tree can end it and no timer, thread or outside end is armed (the checks say which)."""
    OUTSIDE = "may still end from outside"
    """A timer, a peer, a signal or a process outside the look may still end it: no hang."""
    WORKING = "no wait: it works"
    """It burns CPU or moves bytes: no wait to follow."""

    @property
    def hang(self) -> bool:
        """An end nothing can leave."""
        return self in (End.CYCLE, End.SELF, End.GONE, End.NOBODY)


@dataclass(frozen=True)
class Link:
    """One wait of the chain: a thread of a process, and what it waits on."""

    pid: int
    tid: int | None
    waits: str
    """The wait with its object: 'read() on fd 3 (pipe:[30468])', 'futex 0x7f1c (no timeout)'."""


@dataclass(frozen=True)
class WaitFor:
    """A process's wait-for chain: its links, the processes it passed through, and its end."""

    end: End
    links: tuple[Link, ...]
    """From the judged process's waiting thread to the last wait before the end."""
    parties: tuple[str, ...]
    """The end's objects: the cycle's members and what they wait on, the gone party, the self-held
    lock, what outside may end it."""
    checked: tuple[str, ...] = ()
    """For an end in nobody: what was checked and found unable to end it (threads, timers, children,
    descriptors from outside)."""
    through: tuple[int, ...] = ()
    """Processes the chain passed through, each waiting forever itself (nearest first)."""
    pattern: str | None = None
    """The catalogue's pattern that matched, when one did (the chain is its explanation)."""
