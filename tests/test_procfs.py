"""/proc parsers on recorded text (incl. junk), and the sampler against live processes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import all_parked_on_futex, wait_for
from gvlstress.model import syscalls
from gvlstress.probes import filelocks, procfs

# Recorded from a hung fixture worker (x86_64): a rayon pool thread parked in a futex wait.
STAT = (
    "4382 (weird ) (name) S 4379 4373 4373 0 -1 4194368 77 0 0 0 12 3 0 0 20 0 17 0 "
    "1693113 1325027328 3456 18446744073709551615 1 1 0 0 0 0 0 4096 16384 0 0 0 -1 1 0 0 0 0 0"
)
STATUS = (
    "Name:\tpython3.11\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t41\nnonvoluntary_ctxt_switches:\t7\n"
)
SYSCALL_FUTEX = "202 0x7f8266051fb8 0x80 0x0 0x0 0x0 0x0 0x7f8265e4fa48 0x7f8266a1c8e5\n"


def test_parse_stat_handles_parens_and_spaces_in_comm() -> None:
    comm, state, utime, stime = procfs.parse_stat(STAT)
    assert (comm, state, utime, stime) == ("weird ) (name", "S", 12, 3)


@pytest.mark.parametrize("junk", ["", "garbage", "1 (x) S 1 2", "no parens at all 1 2 3"])
def test_parse_stat_rejects_junk(junk: str) -> None:
    with pytest.raises(ValueError, match=r"."):
        procfs.parse_stat(junk)


def test_parse_status_context_switches() -> None:
    assert procfs.parse_status(STATUS) == (41, 7)
    assert procfs.parse_status("junk\n:\n") == (None, None)


def test_parse_syscall_futex_address_on_x86_64_and_aarch64() -> None:
    assert procfs.parse_syscall(SYSCALL_FUTEX, "x86_64") == (202, 0x7F8266051FB8)
    assert procfs.parse_syscall("98 0xffff9c0010 0x89 0x0", "aarch64") == (98, 0xFFFF9C0010)
    # Same number on another architecture is not a futex: no address claimed.
    assert procfs.parse_syscall(SYSCALL_FUTEX, "riscv64") == (202, None)


@pytest.mark.parametrize("text", ["running\n", "-1 0x7ffd 0x7f1\n", "", "zz 0x1", "202 nothex"])
def test_parse_syscall_not_blocked_or_junk(text: str) -> None:
    nr, addr = procfs.parse_syscall(text, "x86_64")
    assert addr is None
    assert nr in (None, 202)


def test_parse_schedstat() -> None:
    assert procfs.parse_schedstat("10384277 5240507 483\n") == 10384277
    assert procfs.parse_schedstat("") is None
    assert procfs.parse_schedstat("junk 1 2") is None


def test_parse_wchan() -> None:
    assert procfs.parse_wchan("futex_wait_queue\n") == "futex_wait_queue"
    assert procfs.parse_wchan("0") is None


def test_sample_live_thread_blocked_on_a_futex() -> None:
    # GIVEN a thread of this process blocked on a threading.Event (a futex wait)
    event = threading.Event()
    t = threading.Thread(target=event.wait, daemon=True)
    t.start()
    try:
        tid = t.native_id

        def blocked() -> object:
            s = procfs.sample(os.getpid())
            assert s is not None
            return next((x for x in s.threads if x.tid == tid and x.futex_addr is not None), None)

        # WHEN /proc is sampled, THEN that thread shows a futex wait with an address
        if not syscalls.futex_syscalls():
            pytest.skip(f"futex syscall numbers unknown on {syscalls.MACHINE}")
        thread = wait_for(blocked, 10, "the waiting thread to show up in a futex syscall")
        assert thread.state == "S"
        assert thread.syscall in syscalls.futex_syscalls()
    finally:
        event.set()
        t.join(5)


@pytest.mark.slow
def test_sample_of_a_vanished_process_is_none() -> None:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait(10)
    assert procfs.sample(p.pid) is None


@pytest.mark.slow
def test_sample_hung_fixture_shows_every_thread_parked() -> None:
    # GIVEN the native fixture deadlocked in the foreground with a 4-thread pool
    proc = subprocess.Popen(
        [sys.executable, "-m", "gvlstress_native", "--fault", "lock_across_par_iter", "--rayon", "4"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith(f"pid {proc.pid}")
        # THEN /proc shows main + 4 pool threads, all asleep in futex waits
        wait_for(lambda: all_parked_on_futex(proc.pid, 5), 20, "the fixture to park every thread")
        sample = procfs.sample(proc.pid)
        assert sample is not None
        assert len(sample.threads) == 5
    finally:
        proc.kill()
        proc.wait(10)


LOCKS = """1: FLOCK  ADVISORY  WRITE 17825 fe:00:10012343 0 EOF
1: -> FLOCK  ADVISORY  WRITE 17827 fe:00:10012343 0 EOF
2: POSIX  ADVISORY  WRITE 999 00:2a:123 0 EOF
3: OFDLCK ADVISORY  READ  -1 08:01:456 0 EOF
4: LEASE  junk
"""


def test_parse_locks_reads_holders_waiters_and_ofd_locks() -> None:
    locks = filelocks.parse_locks(LOCKS)
    assert [(lk.kind, lk.pid, lk.major, lk.minor, lk.inode, lk.blocked) for lk in locks] == [
        ("FLOCK", 17825, 0xFE, 0, 10012343, False),
        ("FLOCK", 17827, 0xFE, 0, 10012343, True),
        ("POSIX", 999, 0, 0x2A, 123, False),
        ("OFDLCK", -1, 8, 1, 456, False),
    ]


def test_a_locked_description_and_a_second_open_of_its_file_read_from_fdinfo(tmp_path: Path) -> None:
    import fcntl

    from gvlstress.probes.wiring import open_files

    with open(tmp_path / "f.lock", "w") as first, open(tmp_path / "f.lock", "w") as second:
        fcntl.flock(first, fcntl.LOCK_EX)
        dup = os.dup(first.fileno())
        try:
            files = {f.fd: f for f in open_files(os.getpid(), queues=False)}
        finally:
            os.close(dup)
        a, b, c = files[first.fileno()], files[second.fileno()], files[dup]
    assert a.ino == b.ino == c.ino == (tmp_path / "f.lock").stat().st_ino
    assert (a.flock, b.flock, c.flock) == (
        True,
        False,
        True,
    )  # the lock is the description's: a dup shares it


def test_lock_holder_of_a_live_flock(tmp_path: Path) -> None:
    import fcntl

    with open(tmp_path / "f.lock", "w") as fh:
        fd_link = Path(f"/proc/self/fd/{fh.fileno()}")
        assert filelocks.lock_holder(fd_link, waiter=-2) is None  # nothing locked yet
        fcntl.flock(fh, fcntl.LOCK_EX)
        assert filelocks.lock_holder(fd_link, waiter=-2) == os.getpid()


def test_a_pipes_write_end_reads_non_blocking_only_when_it_is() -> None:
    """fdinfo's flags give O_NONBLOCK per open file description: the signal wakeup fd's mark
    (recorded flags first, then this process's own pipe, live)."""
    from gvlstress.probes.wiring import nonblocking, open_files

    assert nonblocking("pos:\t0\nflags:\t04001\nmnt_id:\t15\n") is True
    assert nonblocking("pos:\t0\nflags:\t01\nmnt_id:\t15\n") is False
    assert nonblocking("") is False
    r, w = os.pipe()
    try:
        os.set_blocking(w, False)
        files = {f.fd: f for f in open_files(os.getpid(), queues=False)}
    finally:
        os.close(r)
        os.close(w)
    assert files[w].nonblocking is True
    assert files[r].nonblocking is False


def test_the_signals_a_thread_blocks_read_from_status_recorded_and_live() -> None:
    """``SigBlk`` (recorded, then this process's own after blocking SIGUSR2 here): a handler of a
    blocked signal cannot run, so its pause() is no wait for it."""
    import signal
    import threading

    from gvlstress.probes.procfs import parse_sigcgt

    assert parse_sigcgt("SigBlk:\t0000000000001000\nSigCgt:\t0000000000004002\n", "SigBlk") == 1 << 12
    assert parse_sigcgt("SigBlk:\t0000000000001000\n") == 0  # no SigCgt line: unknown
    seen: list[str] = []

    def blocked() -> None:  # a thread of its own, so the mask of the test runner is untouched
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
        seen.append(Path(f"/proc/self/task/{threading.get_native_id()}/status").read_text())

    t = threading.Thread(target=blocked)
    t.start()
    t.join(10)
    assert parse_sigcgt(seen[0], "SigBlk") & (1 << (signal.SIGUSR2 - 1))


def test_a_signal_sent_and_blocked_reads_as_pending_recorded_and_live() -> None:
    """``SigPnd`` (recorded, then a thread of this process that blocks SIGUSR2 and sends it to
    itself, then takes it with sigtimedwait): a caught signal pending and blocked came and cannot
    run its handler (a child's pause() whose alarm fired into an inherited mask)."""
    import signal
    import threading

    from gvlstress.probes.procfs import parse_sigcgt

    assert parse_sigcgt("SigPnd:\t0000000000000000\nShdPnd:\t0000000000002000\n", "ShdPnd") == 1 << 13
    seen: list[str] = []
    taken: list[object] = []

    def pending() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR2)
        seen.append(Path(f"/proc/self/task/{threading.get_native_id()}/status").read_text())
        taken.append(signal.sigtimedwait({signal.SIGUSR2}, 5))  # taken here: never delivered

    t = threading.Thread(target=pending)
    t.start()
    t.join(10)
    assert parse_sigcgt(seen[0], "SigPnd") == 1 << (signal.SIGUSR2 - 1)
    assert taken
    assert taken[0] is not None
