"""What a parked thread waits on, in words (`judge.waits.classify`): arguments read as the kernel
passed them."""

from __future__ import annotations

import pytest

from gvlstress.judge.waits import classify
from gvlstress.model import ThreadDelta, WaitKind


def wait4(arg: int) -> ThreadDelta:
    return ThreadDelta(1, "sh", "S", None, 61, None, 0.0, 0, 0, parked=True, args=(arg, 0, 0, 0, 0, 0))


@pytest.mark.parametrize(
    ("arg", "child", "words"),
    [
        (0xFFFFFFFF, -1, "wait4() for any child"),  # a shell's wait4(-1): an int in a 64-bit register
        (0xFFFFFFFFFFFFFFFF, -1, "wait4() for any child"),
        (4242, 4242, "wait4() for child 4242"),
    ],
)
def test_a_child_wait_reads_its_pid_as_a_signed_pid_t(arg: int, child: int, words: str) -> None:
    w = classify(wait4(arg))
    assert (w.kind, w.child, w.detail) == (WaitKind.CHILD, child, words)


@pytest.mark.parametrize("syscall", [2, 257])
def test_an_open_of_a_fifo_waits_for_a_process_to_open_its_other_end(syscall: int) -> None:
    """open()/openat() of a FIFO sleeps in wait_for_partner until a reader (or writer) opens it:
    a wait on whoever opens the path, not an unknown syscall."""
    t = ThreadDelta(1, "py", "S", "wait_for_partner", syscall, None, 0.0, 0, 0, parked=True, args=(0, 0, 1))
    w = classify(t)
    assert w.kind is WaitKind.IO
    assert "of a FIFO, until a process opens its other end" in w.detail
    elsewhere = ThreadDelta(1, "py", "S", "pipe_read", syscall, None, 0.0, 0, 0, parked=True, args=(0, 0, 1))
    assert classify(elsewhere).kind is WaitKind.OTHER  # an open that sleeps elsewhere stays unknown
