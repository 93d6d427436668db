"""A look never changes what it looks at: the waits a ptrace stop would end for the program are
judged from /proc alone (`judge.threads.cut_short`). Found on blind real hangs: a child blocked
writing a pty that pexpect never read ran on to its end when a stack tool stopped it, and a
System V semaphore wait returned EINTR ("Signaled while waiting") under the same stop."""

from __future__ import annotations

import pytest

from gvlstress.judge.threads import cut_short
from lookshapes import READ, WRITE, Proc, Th, proc_sample

SEMOP = "64 0x8001 0x7ffd00003000 0x1 0x0 0x0 0x0 0x7f0 0x7f1"


@pytest.mark.parametrize(
    ("thread", "hands_off"),
    [
        pytest.param(Th(1, WRITE.format(fd=1), fd="/dev/pts/3"), True, id="a write to a terminal"),
        pytest.param(Th(1, WRITE.format(fd=5), fd="/dev/ptmx"), True, id="a write to a pty master"),
        pytest.param(Th(1, WRITE.format(fd=4), fd="pipe:[9]"), True, id="a write to a pipe"),
        pytest.param(Th(1, SEMOP), True, id="a System V semaphore operation"),
        pytest.param(Th(1, READ.format(fd=0), fd="/dev/pts/3"), False, id="a read of a terminal (restarted)"),
        pytest.param(Th(1, WRITE.format(fd=3), fd="/tmp/out.log"), False, id="a write to a file"),
    ],
)
def test_which_waits_a_look_must_not_stop(thread: Th, hands_off: bool) -> None:
    sample = proc_sample(Proc(1, (thread,)), second=True)
    assert (cut_short(sample) is not None) is hands_off
