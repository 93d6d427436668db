"""What connects processes: their open pipes and sockets, who holds the other end, and how many
bytes wait in between. A wait on a pipe or socket is judged by the process at its other end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class OpenFile:
    """One open descriptor of a process."""

    fd: int
    target: str
    """What the fd links to: ``pipe:[123]``, ``socket:[456]``, ``anon_inode:[eventfd]``, a path."""
    mode: str
    """'r', 'w' or 'rw' (fdinfo flags)."""
    queued: int | None = None
    """Bytes waiting to be read (FIONREAD on a duplicate of the fd); None when not asked or not
    allowed."""


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


@dataclass(frozen=True)
class Holder:
    """A process holding a pipe or socket open, and how."""

    pid: int
    fd: int
    mode: str


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

    def file(self, pid: int, fd: int) -> OpenFile | None:
        return next((f for f in self.files.get(pid, ()) if f.fd == fd), None)


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
