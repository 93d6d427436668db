"""What connects processes: their open pipes and sockets, who holds the other end, and how many
bytes wait in between. A wait on a pipe or socket is judged by the process at its other end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gvlstress.model.fd import PTY_SLAVE as PTY_SLAVE  # re-exported: the judge and probes ask here
from gvlstress.model.fd import FdTarget
from gvlstress.model.fd import pty_master as pty_master


@dataclass(frozen=True, slots=True)
class OpenFile:
    """One open descriptor of a process."""

    fd: int
    target: str
    """What the fd links to: ``pipe:[123]``, ``socket:[456]``, ``anon_inode:[eventfd]``, a path
    (typed by `model.fd.FdTarget.parse`)."""
    mode: str
    """'r', 'w' or 'rw' (fdinfo flags)."""
    queued: int | None = None
    """Bytes waiting to be read (FIONREAD on a duplicate of the fd); None when not asked or not
    allowed."""
    ino: int | None = None
    """The file's inode (fdinfo ``ino``): two descriptors on one file share it."""
    flock: bool = False
    """Its open file description holds a flock or OFD lock (an fdinfo ``lock:`` line): a second
    open of the same file does not, and a lock taken through it waits for this one."""
    nonblocking: bool = False
    """O_NONBLOCK is set on its open file description (fdinfo flags): a signal's wakeup fd
    (``signal.set_wakeup_fd``) must be; a blocking write end never is one."""

    @property
    def link(self) -> FdTarget:
        """`target` typed (its kind, inode or path)."""
        return FdTarget.parse(self.target)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One socket, as the kernel's tables show it (no attach needed)."""

    inode: int
    family: str
    """'unix', 'tcp' or 'tcp6'."""
    state: str
    """'ESTABLISHED', 'LISTEN', 'SYN_SENT', 'CLOSE', ... (unix sockets too: their state field)."""
    local: str = ""
    remote: str = ""
    peer: int | None = None
    """The inode of the socket at the other end, where this host has it (a unix socket's peer
    from sock_diag; a loopback TCP connection's other side); None when the other end is not here."""
    rqueue: int | None = None
    """Bytes received and not yet read."""
    wqueue: int | None = None
    """Bytes written and not yet acknowledged (TCP), or queued to the peer (unix)."""
    listener: bool = False
    """A listening socket: anyone may connect, so a wait on it ends from outside."""
    pending: int | None = None
    """A connection not accepted yet (no process holds it): the inode of the listening socket
    whose accept queue it waits in, where this host has it. Its inode is a stand-in (< 0)."""


@dataclass(frozen=True)
class Holder:
    """A process holding a pipe or socket open, and how."""

    pid: int
    fd: int
    mode: str


@dataclass(frozen=True)
class SharedLock:
    """A futex in memory that processes share (a multiprocessing Lock, Semaphore or Queue lock: a
    POSIX semaphore in /dev/shm), as the host shows it: a semaphore names no owner, so its holder
    is found by elimination among the processes that map it."""

    key: str
    """'device:inode+offset': the same lock in every process, whatever address it is mapped at."""
    path: str
    """The backing file ('/dev/shm/sem.mp-... ', '(deleted)' once unlinked)."""
    mappers: tuple[int, ...]
    """Every process on this host that maps the file."""
    count: int | None = None
    """The semaphore's value (0: taken), read from memory; None where it could not be read."""
    waiters: int | None = None
    """Threads the semaphore counts as waiting."""
    complete: bool = True
    """Every process's maps could be read (else a mapper may be missing)."""


@dataclass(frozen=True)
class Churn:
    """A process's children over a look's window: a pool replacing workers that die."""

    samples: int
    seconds: float
    born: tuple[int, ...]
    """Children first seen after the first sample."""
    gone: tuple[int, ...]
    """Children seen at one sample and no longer at a later one (exited and reaped)."""
    statuses: tuple[int, ...] = ()
    """Wait statuses of the dead, unreaped children caught at a sample (256: exit code 1)."""


@dataclass(frozen=True)
class Wiring:
    """The pipes and sockets that matter to a look: per process its descriptors, the sockets'
    endpoints, and every process on the host holding each waited-on pipe or socket."""

    files: Mapping[int, tuple[OpenFile, ...]] = field(default_factory=dict)
    sockets: Mapping[int, Endpoint] = field(default_factory=dict)
    """By socket inode."""
    holders: Mapping[str, tuple[Holder, ...]] = field(default_factory=dict)
    """By target ('pipe:[123]', 'socket:[456]'): every process on the host that holds it."""
    complete: bool = True
    """Every process on the host could be read (else a holder may be missing: never claim
    "nobody else holds it")."""
    shared: Mapping[tuple[int, int], SharedLock] = field(default_factory=dict)
    flock_takers: frozenset[int] | None = None
    """Every process on the host holding or waiting for a flock or OFD lock (/proc/locks; an OFD
    lock counts as -1); None where it was not read."""
    """The shared lock each (pid, futex address) that a thread waits on without
    FUTEX_PRIVATE_FLAG lives in, where a file backs it."""

    def file(self, pid: int, fd: int) -> OpenFile | None:
        return next((f for f in self.files.get(pid, ()) if f.fd == fd), None)


@dataclass(frozen=True)
class Exit:
    """A process of a watched job's tree that `watch` saw exit before a look (its history)."""

    pid: int
    command: str
    """Its command line as first seen (redacted, clipped)."""
    at_s: float
    """Seconds into the watch when it was found gone."""


@dataclass(frozen=True)
class Relatives:
    """How the processes of one look are related, for the rules that cross processes."""

    parents: Mapping[int, int | None] = field(default_factory=dict)
    started: Mapping[int, float] = field(default_factory=dict)
    """Start time of each process (seconds since boot): a pool worker started after its
    siblings replaced one that exited."""
    zombies: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    """Each process's dead, unreaped children seen at both ends of the window: pid -> wait status."""
    pipes: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    """Pipes each process holds: 'pipe:[inode]' -> 'r', 'w' or 'rw' (``--tree``)."""
    tree: bool = False
    """Every descendant of the processes judged was looked at (``--tree``, or ``run``'s look at
    a quiet worker and its children): a rule may then say "no worker exists"."""
    churn: Mapping[int, Churn] = field(default_factory=dict)
    """Each process's children coming and going over the window (only where any did)."""
    exited: tuple[Exit, ...] = ()
    """Processes of the tree `watch` saw exit before this look, oldest first (its cheap history:
    a peer that went, a lock taker that died; empty for a single look)."""

    def descendants(self, pid: int) -> list[int]:
        """Every process of the look below `pid`, nearest first (a pool's workers are its
        launcher's children under fork and spawn, its forkserver's under forkserver)."""
        out: list[int] = []
        level = [pid]
        while level:
            level = sorted(c for c, p in self.parents.items() if p in level and c not in out and c != pid)
            out += level
        return out
