"""What a descriptor links to, typed: readlink's text for /proc/PID/fd/N parsed into its kind.

The text is ``pipe:[123]``, ``socket:[456]``, ``anon_inode:[eventfd]`` or a path.

The text stays what the model stores and run.json keeps (`OpenFile.target`, `Wait.fd_target`,
the keys of `Wiring.holders`); `FdTarget.parse` reads it wherever a layer needs its kind, so the
prefixes are spelled here only. The kernel names its pseudo-files ``KIND:[INODE]`` (pipes,
sockets, namespaces) or ``anon_inode:NAME`` (an eventfd, an epoll, a timerfd, with or without
brackets), and every real file by its absolute path (``/dev/pts/3``, ``/tmp/x (deleted)``): a
path always starts with ``/``, so a file named ``pipe:[1]`` is never taken for a pipe.
``ptmx:[N]`` is ours, not the kernel's: the key the master of /dev/pts/N is held under.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from gvlstress.system.redact import redact_path

PTY_SLAVE = "/dev/pts/"
_PTY_MASTER = "ptmx:["


def pty_master(index: str) -> str:
    """The key the master of pseudo-terminal /dev/pts/INDEX is held under in `Wiring.holders`
    (an fd on /dev/ptmx whose fdinfo says ``tty-index: INDEX``)."""
    return f"{_PTY_MASTER}{index}]"


class FdKind(enum.Enum):
    PIPE = "pipe"
    SOCKET = "socket"
    ANON_INODE = "anon_inode"
    """An eventfd, an epoll instance, a timerfd, a signalfd, a pidfd, inotify, io_uring..."""
    PTY_MASTER = "ptmx"
    """``ptmx:[N]``: the master of /dev/pts/N (a key of ours, never a link the kernel gives)."""
    PATH = "path"
    """A file by its absolute path, a pseudo-terminal's slave (/dev/pts/N) and /dev/ptmx too."""
    OTHER = "other"
    """Anything else: a namespace (``net:[4026531992]``), ``?`` for a closed fd, the empty text."""


_BRACKETED = re.compile(r"\[([0-9]+)\]")
_PSEUDO = re.compile(r"([A-Za-z_][\w-]*):(.*)", re.S)


@dataclass(frozen=True, slots=True)
class FdTarget:
    """One descriptor's target, typed: its kind, and the inode, name or pty index in it."""

    kind: FdKind
    text: str
    """The link as read (what the model stores and `Wiring.holders` is keyed by)."""
    inode: int | None = None
    """The inode in brackets: ``pipe:[123]`` -> 123 (pipes, sockets, namespaces)."""
    name: str = ""
    """An anonymous inode's name (``eventfd``), a namespace's kind (``net``), a file's path."""
    pty: str | None = None
    """The pseudo-terminal's index: N of /dev/pts/N (its slave) or of ``ptmx:[N]`` (its master)."""

    @classmethod
    def parse(cls, link: str) -> FdTarget:
        """The target of readlink's `link` (or of a `pty_master` key); never raises."""
        if link.startswith("/"):
            pty = link[len(PTY_SLAVE) :] if link.startswith(PTY_SLAVE) else None
            return cls(FdKind.PATH, link, name=link, pty=pty)
        if link.startswith(_PTY_MASTER):
            return cls(FdKind.PTY_MASTER, link, pty=link[len(_PTY_MASTER) : -1])
        m = _PSEUDO.fullmatch(link)
        if m is None:
            return cls(FdKind.OTHER, link)
        prefix, rest = m.groups()
        number = _BRACKETED.fullmatch(rest)
        inode = int(number.group(1)) if number else None
        if prefix == "pipe":
            return cls(FdKind.PIPE, link, inode)
        if prefix == "socket":
            return cls(FdKind.SOCKET, link, inode)
        if prefix == "anon_inode":
            bare = rest[1:-1] if rest.startswith("[") and rest.endswith("]") else rest
            return cls(FdKind.ANON_INODE, link, name=bare)
        return cls(FdKind.OTHER, link, inode, name=prefix)

    def __str__(self) -> str:
        return self.text

    @property
    def is_pipe(self) -> bool:
        return self.kind is FdKind.PIPE

    @property
    def is_socket(self) -> bool:
        return self.kind is FdKind.SOCKET

    @property
    def is_anon_inode(self) -> bool:
        return self.kind is FdKind.ANON_INODE

    @property
    def is_pty_master(self) -> bool:
        return self.kind is FdKind.PTY_MASTER

    @property
    def is_pty_slave(self) -> bool:
        return self.kind is FdKind.PATH and self.pty is not None

    @property
    def is_terminal(self) -> bool:
        """Either end of a pseudo-terminal, a /dev/tty* or /dev/ptmx: a write into it waits for
        whoever reads the terminal."""
        return (
            self.is_pty_master
            or self.is_pty_slave
            or (self.kind is FdKind.PATH and self.text.startswith(("/dev/tty", "/dev/ptmx")))
        )

    @property
    def connects(self) -> bool:
        """A pipe, a socket or a pseudo-terminal's end: another process may hold its other end."""
        return self.is_pipe or self.is_socket or self.is_pty_slave or self.is_pty_master

    @property
    def other_pty_end(self) -> str | None:
        """The key of a pseudo-terminal's other end: the master's (``ptmx:[N]``) for its slave,
        the slave's path for its master; None for anything else."""
        if self.is_pty_slave and self.pty is not None:
            return pty_master(self.pty)
        if self.is_pty_master and self.pty is not None:
            return PTY_SLAVE + self.pty
        return None

    @property
    def shown(self) -> str:
        """The target as a report may show it: a path redacted (it may name a secret), a pipe,
        socket or anonymous inode as it is."""
        if self.is_pipe or self.is_socket or self.is_anon_inode:
            return self.text
        return redact_path(self.text)
