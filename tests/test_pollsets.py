"""The descriptors a poll, select or epoll wait watches (`probes.pollsets`): each parser on
recorded text and bytes, then on this process's own epoll instance, pollfd array and fd_set,
read live through /proc (an empty epoll set reads as empty, not as unknown)."""

from __future__ import annotations

import ctypes
import os
import select
from pathlib import Path

from gvlstress.probes.pollsets import parse_epoll_fdinfo, parse_fdset, parse_pollfds, watched_fds

EPOLL_FDINFO = (
    "pos:\t0\nflags:\t02\nmnt_id:\t15\nino:\t1057\n"
    "tfd:        5 events:       19 data:                5  pos:0 ino:4a8f sdev:8\n"
    "tfd:        7 events:       19 data:                7  pos:0 ino:4a90 sdev:8\n"
)


def test_an_epoll_set_is_read_from_its_tfd_lines() -> None:
    assert parse_epoll_fdinfo(EPOLL_FDINFO) == (5, 7)
    assert parse_epoll_fdinfo("pos:\t0\nflags:\t02\nmnt_id:\t15\nino:\t1057\n") == ()


def test_a_pollfd_array_skips_ignored_entries() -> None:
    raw = b"".join(fd.to_bytes(4, "little", signed=True) + b"\x01\x00\x00\x00" for fd in (3, -1, 9))
    assert parse_pollfds(raw, 3) == (3, 9)
    assert parse_pollfds(raw, 1) == (3,)


def test_a_select_bitmap_gives_its_set_bits() -> None:
    assert parse_fdset(bytes([0b00101000, 0b00000001]), 16) == (3, 5, 8)
    assert parse_fdset(bytes([0xFF]), 2) == (0, 1)


def test_this_processs_epoll_set_read_live_and_empty_when_nothing_is_registered() -> None:
    me = Path(f"/proc/{os.getpid()}")
    r, w = os.pipe()
    ep, empty = select.epoll(), select.epoll()
    try:
        ep.register(r, select.EPOLLIN)
        got = watched_fds(os.getpid(), "epoll_wait", (ep.fileno(),), me)
        nothing = watched_fds(os.getpid(), "epoll_wait", (empty.fileno(),), me)
    finally:
        ep.close()
        empty.close()
        os.close(r)
        os.close(w)
    assert got is not None
    assert [fd for fd, _ in got] == [r]
    assert got[0][1].startswith("pipe:[")
    assert nothing == ()


def test_this_processs_pollfd_array_read_live_from_its_memory() -> None:
    r, w = os.pipe()
    array = (ctypes.c_int32 * 4)(r, 1, w, 4)  # two struct pollfd: (fd, events | revents << 16)
    try:
        got = watched_fds(os.getpid(), "poll", (ctypes.addressof(array), 2), Path(f"/proc/{os.getpid()}"))
    finally:
        os.close(r)
        os.close(w)
    assert got is not None
    assert [fd for fd, _ in got] == [r, w]
