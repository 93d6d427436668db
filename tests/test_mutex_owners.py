"""Pthread mutexes followed to their owners: glibc's owner field read from memory
(`probes.mutexes`, on recorded bytes and on live mutexes of this process's own threads) and the
shapes it decides (`judge.mutexes`), each beside its healthy look-alike."""

from __future__ import annotations

import ctypes
import os
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model.waitfor import End
from gvlstress.probes import mutexes, procfs
from lookshapes import LOCK, MUTEX, SLEEP, Proc, Th, World

P = 500
M1, M2 = 0x7F0000001000, 0x7F0000002000


def raw(lock: int, count: int, owner: int, nusers: int, kind: int) -> bytes:
    return struct.pack("<IIiIi", lock, count, owner, nusers, kind) + bytes(20)


@pytest.mark.parametrize(
    ("data", "owner"),
    [
        (raw(2, 0, 4242, 1, 0), 4242),  # plain mutex, locked with waiters
        (raw(1, 0, 4242, 1, 0), 4242),  # locked, no waiter counted yet
        (raw(2, 0, 4242, 1, 2), 4242),  # error-checking
        (raw(2, 3, 4242, 1, 1), 4242),  # recursive, locked three times
        (raw(4242 | 1 << 31, 1, 4242, 1, 144), 4242),  # robust, process-shared: the word is the owner
        (raw(4242 | 1 << 31, 1, 4242, 1, 32), 4242),  # priority inheritance
        (raw(0, 0, 0, 0, 0), None),  # unlocked
        (raw(2, 0, 0, 0, 0), None),  # a futex word with no owner beside it (Rust's, parking_lot's)
        (raw(2, 0, 4242, 0, 0), None),  # no user counted: not a locked glibc mutex
        (raw(7, 0, 4242, 1, 0), None),  # a counter, not a lock word
        (raw(4243 | 1 << 31, 1, 4242, 1, 16), None),  # robust, but the word names someone else
        (raw(2, 0, 4242, 1, 5), None),  # no such kind
        (raw(2, 0, 1 << 23, 1, 0), None),  # no such thread id
        (raw(2, 0, 4242, 1, 0)[:12], None),  # short read
    ],
)
def test_a_mutex_names_its_owner_only_when_it_reads_as_a_locked_glibc_mutex(
    data: bytes, owner: int | None
) -> None:
    assert mutexes.parse_mutex(data) == owner


@pytest.mark.parametrize(
    ("op", "mutex"),
    [(0x80, True), (0x0, True), (0x86, True), (0x8D, True), (0x89, False), (0x189, False), (0x81, False)],
)
def test_only_a_lock_wait_is_read_as_a_mutex(op: int, mutex: bool) -> None:
    # FUTEX_WAIT and FUTEX_LOCK_PI(2) are a mutex's; FUTEX_WAIT_BITSET a condvar's or a semaphore's
    assert mutexes.waits_on_mutex((M1, op, 2)) is mutex


LIBC = ctypes.CDLL(None)


def _attr(*calls: Callable[[ctypes.Array[ctypes.c_char]], object]) -> ctypes.Array[ctypes.c_char]:
    mutex, attr = ctypes.create_string_buffer(64), ctypes.create_string_buffer(64)
    LIBC.pthread_mutexattr_init(attr)
    for call in calls:
        call(attr)
    LIBC.pthread_mutex_init(mutex, attr)
    return mutex


KINDS: dict[str, Callable[[], ctypes.Array[ctypes.c_char]]] = {
    "plain": lambda: ctypes.create_string_buffer(64),
    "error-checking": lambda: _attr(lambda a: LIBC.pthread_mutexattr_settype(a, 2)),
    "robust": lambda: _attr(lambda a: LIBC.pthread_mutexattr_setrobust(a, 1)),
    "priority-inheritance": lambda: _attr(lambda a: LIBC.pthread_mutexattr_setprotocol(a, 1)),
}


@contextmanager
def _blocked_on(mutex: ctypes.Array[ctypes.c_char]) -> Iterator[int]:
    """A thread of this process blocked locking `mutex`, which this thread holds: its tid."""
    LIBC.pthread_mutex_lock(mutex)
    tids: list[int] = []

    def lock() -> None:
        tids.append(threading.get_native_id())
        LIBC.pthread_mutex_lock(mutex)

    waiter = threading.Thread(target=lock, daemon=True)
    waiter.start()
    try:
        yield tids[0] if _wait_for_futex(tids) else 0
    finally:
        LIBC.pthread_mutex_unlock(mutex)
        waiter.join(timeout=10)
        LIBC.pthread_mutex_unlock(mutex)  # the waiter got it and ended: release it


def _wait_for_futex(tids: list[int]) -> bool:
    """The waiter is in its futex call (a /proc poll with a deadline)."""
    event = threading.Event()
    for _ in range(500):
        if tids and _syscall(tids[0])[0] == 202:
            return True
        event.wait(0.01)
    return False


def _syscall(tid: int) -> tuple[int | None, tuple[int, ...]]:
    try:
        with open(f"/proc/self/task/{tid}/syscall") as fh:
            return procfs.parse_syscall_args(fh.read())
    except OSError:
        return None, ()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_live_mutex_names_the_thread_that_holds_it(kind: str) -> None:
    mutex = KINDS[kind]()
    with _blocked_on(mutex) as waiter:
        assert waiter, "the waiter never blocked"
        _, args = _syscall(waiter)
        assert mutexes.mutex_owner(os.getpid(), args) == threading.get_native_id()
        assert mutexes.owner_pid(threading.get_native_id()) == os.getpid()


def test_a_waiter_read_twice_the_same_names_the_owner_and_one_that_moved_names_none() -> None:
    # the syscall line is read again after the mutex: a thread that left the wait in between may
    # hold the mutex itself by then, and its own id would read as a self-deadlock
    with _blocked_on(KINDS["plain"]()) as waiter:
        task = Path(f"/proc/{os.getpid()}/task/{waiter}")
        line = (task / "syscall").read_text()
        _, args = procfs.parse_syscall_args(line)
        me = threading.get_native_id()
        assert mutexes.held_by(task, line, args) == (me, os.getpid())
        assert mutexes.held_by(task, "running", args) == (None, None)


def test_a_live_condition_wait_names_no_owner() -> None:
    cond = threading.Condition()
    tids: list[int] = []

    def wait() -> None:
        tids.append(threading.get_native_id())
        with cond:
            cond.wait(timeout=10)

    t = threading.Thread(target=wait, daemon=True)
    t.start()
    try:
        assert _wait_for_futex(tids)
        _, args = _syscall(tids[0])
        assert mutexes.mutex_owner(os.getpid(), args) is None
    finally:
        with cond:
            cond.notify_all()
        t.join(timeout=10)


def test_a_thread_that_no_longer_exists_has_no_process() -> None:
    t = threading.Thread(target=lambda: tids.append(threading.get_native_id()))
    tids: list[int] = []
    t.start()
    t.join()
    gone = threading.Event()
    for _ in range(500):  # join() returns before the kernel has reaped the thread: poll /proc
        if not os.path.exists(f"/proc/self/task/{tids[0]}"):
            break
        gone.wait(0.01)
    assert mutexes.owner_pid(tids[0]) == 0


def _judged(*threads: Th) -> tuple[ProbeKind, str | None, End | None]:
    j = World((Proc(P, threads),)).judged()[P]
    return j.finding.kind, j.named.pattern if j.named else None, j.waitfor.end if j.waitfor else None


def mutex_wait(tid: int, addr: int, owner: int, owner_pid: int = P) -> Th:
    return Th(tid, MUTEX.format(addr=addr), owner=owner, owner_pid=owner_pid)


@pytest.mark.parametrize(
    ("threads", "expected"),
    [
        pytest.param(
            (mutex_wait(P, M1, P),),
            (ProbeKind.DEADLOCK, names.SELF_LOCK, End.SELF),
            id="the main thread locks a mutex it holds",
        ),
        pytest.param(
            (Th(P, LOCK.format(addr=0x9000)), mutex_wait(P + 1, M1, P + 2), mutex_wait(P + 2, M2, P + 1)),
            (ProbeKind.DEADLOCK, names.LOCK_ORDER, End.CYCLE),
            id="two threads each wait for the other's mutex, main joins them",
        ),
        pytest.param(
            (mutex_wait(P, M1, P + 7, owner_pid=0),),
            (ProbeKind.DEADLOCK, names.MUTEX_OWNER_GONE, End.GONE),
            id="the owner exited holding it",
        ),
        pytest.param(
            (mutex_wait(P, M1, P + 1), mutex_wait(P + 1, M2, P + 1)),
            (ProbeKind.DEADLOCK, names.SELF_LOCK, End.SELF),
            id="main waits behind a thread that relocked its own mutex",
        ),
        pytest.param(
            (mutex_wait(P, M1, 4242, owner_pid=4240),),
            (ProbeKind.DEADLOCK, names.FORK_HELD_LOCK, End.GONE),
            id="a private mutex owned by a thread of another process: a copy fork() made while it was held",
        ),
        pytest.param(
            (mutex_wait(P, M1, P + 1), Th(P + 1, SLEEP)),
            (ProbeKind.IDLE, None, End.OUTSIDE),
            id="look-alike: the holder is alive and sleeping",
        ),
        pytest.param(
            (mutex_wait(P, M1, P + 1), Th(P + 1, None, state="R", cpu_ms=1900)),
            (ProbeKind.BUSY, None, End.WORKING),
            id="look-alike: the holder computes",
        ),
        pytest.param(
            (Th(P, None, state="R", cpu_ms=1900), mutex_wait(P + 1, M1, P + 1)),
            (ProbeKind.BUSY, None, End.WORKING),
            id="a worker thread relocked, the main thread still computes: not the process's hang",
        ),
    ],
)
def test_a_mutex_wait_is_followed_to_its_owner(
    threads: tuple[Th, ...], expected: tuple[ProbeKind, str | None, End | None]
) -> None:
    assert _judged(*threads) == expected


SHARED_MUTEX = "202 0x{addr:x} 0x0 0x{word:x} 0x0 0x0 0xffffffff 0x7f0 0x7f1"
"""A robust process-shared mutex's lock wait (no FUTEX_PRIVATE_FLAG; the word is the owner's id)."""
Q = 600


@pytest.mark.parametrize(
    ("b_thread", "expected"),
    [
        pytest.param(
            Th(Q, SHARED_MUTEX.format(addr=M2, word=P | 1 << 31), owner=P, owner_pid=P),
            (ProbeKind.DEADLOCK, names.WAIT_CYCLE),
            id="each process waits for a shared mutex the other's thread holds",
        ),
        pytest.param(
            Th(Q, SLEEP), (ProbeKind.STALLED, None), id="look-alike: the other holds it and sleeps (no alarm)"
        ),
    ],
)
def test_a_shared_mutex_is_followed_to_the_process_that_holds_it(
    b_thread: Th, expected: tuple[ProbeKind, str | None]
) -> None:
    a = Proc(P, (Th(P, SHARED_MUTEX.format(addr=M1, word=Q | 1 << 31), owner=Q, owner_pid=Q),))
    j = World((a, Proc(Q, (b_thread,), parent=P))).judged()[P]
    assert (j.finding.kind, j.named.pattern if j.named else None) == expected
