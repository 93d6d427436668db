"""The watchdog's clean-up of multiprocessing's named semaphores (`system.watchdog`) leaves one
that a live process maps: glibc's sem_open maps a temporary file and links it to its name after,
so the creator's maps never show the name; the inode is what they share. (It used to unlink
another run's semaphore a moment after its creation: that run's spawned worker then failed in
SemLock._rebuild.) Live, in this process: a semaphore made with sem_open, kept while mapped,
unlinked once closed."""

from __future__ import annotations

import ctypes
import os
import time
from pathlib import Path

from gvlstress.system.watchdog import _maps_inode, _semaphores


def test_a_maps_lines_inode_is_read() -> None:
    line = b"7fa310a06000-7fa310a07000 rw-s 00000000 00:1b 127426      /dev/shm/sem.hz6SM7 (deleted)\n"
    assert _maps_inode(line) == 127426
    assert _maps_inode(b"garbage\n") == 0


def test_a_fresh_semaphore_this_process_maps_survives_and_an_unmapped_one_goes() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sem_open.restype = ctypes.c_void_p
    libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
    libc.sem_close.argtypes = [ctypes.c_void_p]
    name = f"mp-gvlstress-test-{os.getpid()}"
    path = Path("/dev/shm") / f"sem.{name}"
    since = time.time() - 1.0
    handle = libc.sem_open(f"/{name}".encode(), os.O_CREAT | os.O_EXCL, 0o600, 1)
    assert handle, os.strerror(ctypes.get_errno())
    try:
        _semaphores(since)
        assert path.exists()  # mapped here, under a temporary name: kept
        libc.sem_close(handle)
        handle = None
        _semaphores(since)
        assert not path.exists()  # nobody maps it any more: unlinked
    finally:
        if handle:
            libc.sem_close(handle)
        path.unlink(missing_ok=True)
