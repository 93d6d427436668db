"""The descriptors a thread's poll, select or epoll wait watches (the wait's other ends are
followed from them): an epoll instance's set from its fdinfo ``tfd:`` lines, a poll()'s
``struct pollfd`` array and select()'s bitmaps from the waiter's memory (``/proc/PID/mem``, read
rights only, no stop). Parsers are pure over recorded bytes and text; `watched_fds` reads them
live. An empty tuple is a set read and empty; None is a set that could not be read."""

from __future__ import annotations

import os
from pathlib import Path

from gvlstress.model.fd import FdTarget


def _digits(text: str) -> bool:
    """ASCII digits only ('²'.isdigit() is true, and int('²') raises)."""
    return text.isascii() and text.isdigit()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="backslashreplace")
    except OSError:
        return None


def _readlink(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


MAX_WATCHED = 256
"""Descriptors read from one poll/select/epoll wait (a server's thousands are not needed)."""


def parse_epoll_fdinfo(text: str) -> tuple[int, ...]:
    """The descriptors an epoll instance watches, from its fdinfo ``tfd:`` lines."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) > 1 and parts[0] == "tfd:" and _digits(parts[1]):
            out.append(int(parts[1]))
    return tuple(out[:MAX_WATCHED])


def parse_pollfds(raw: bytes, nfds: int) -> tuple[int, ...]:
    """fds of a ``struct pollfd`` array (int fd; short events; short revents); negative fds are
    ignored entries."""
    out = []
    for i in range(min(nfds, len(raw) // 8, MAX_WATCHED)):
        fd = int.from_bytes(raw[i * 8 : i * 8 + 4], "little", signed=True)
        if fd >= 0:
            out.append(fd)
    return tuple(out)


def parse_fdset(raw: bytes, nfds: int) -> tuple[int, ...]:
    """fds set in a select() bitmap of `nfds` bits."""
    return tuple(fd for fd in range(min(nfds, len(raw) * 8, 1024)) if raw[fd // 8] >> (fd % 8) & 1)[
        :MAX_WATCHED
    ]


def _peek(proc_dir: Path, addr: int, size: int) -> bytes | None:
    """`size` bytes of the process's memory at `addr` (needs ptrace read rights; no stop)."""
    if addr == 0 or size <= 0:
        return None
    try:
        with open(proc_dir / "mem", "rb", buffering=0) as fh:
            fh.seek(addr)
            return fh.read(size)
    except (OSError, OverflowError, ValueError):
        return None


def watched_fds(
    pid: int, name: str, args: tuple[int, ...], proc_dir: Path
) -> tuple[tuple[int, str], ...] | None:
    """The descriptors a poll/select/epoll wait watches, each with what it links to."""
    fds: tuple[int, ...] | None = None
    if name.startswith("epoll"):
        text = _read(proc_dir / "fdinfo" / str(args[0]))
        fds = parse_epoll_fdinfo(text) if text is not None else None
    elif name in ("poll", "ppoll") and len(args) > 1:
        raw = _peek(proc_dir, args[0], 8 * min(args[1], MAX_WATCHED))
        fds = parse_pollfds(raw, args[1]) if raw is not None else None
    elif name in ("select", "pselect6") and len(args) > 3:
        nfds = min(args[0], 1024)
        seen: set[int] = set()
        for ptr in args[1:4]:
            raw = _peek(proc_dir, ptr, (nfds + 7) // 8)
            seen.update(parse_fdset(raw, nfds) if raw is not None else ())
        fds = tuple(sorted(seen))
    if fds is None:
        return None
    return tuple((fd, _shown(_readlink(proc_dir / "fd" / str(fd)))) for fd in fds)


def _shown(link: str | None) -> str:
    """An fd's target as the report may show it (paths redacted; '?' if it closed)."""
    if link is None:
        return "?"
    return FdTarget.parse(link).shown
