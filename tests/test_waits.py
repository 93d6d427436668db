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
