"""`inspect --watch`'s rule (pure): what a thread did over the watch, from /proc samples."""

from __future__ import annotations

import pytest

from gvlstress.judge.activity import activity
from gvlstress.model import ProcSample, ThreadSample
from gvlstress.model.syscalls import CLK_TCK

PID = 4000


def sample(at: float, *, utime: int, stime: int, vol: int, reads: int, syscall: int | None) -> ProcSample:
    t = ThreadSample(
        tid=PID + 1,
        comm="handler",
        state="R" if syscall is None else "S",
        wchan=None,
        syscall=syscall,
        futex_addr=None,
        utime=utime,
        stime=stime,
        voluntary_ctxt=vol,
        nonvoluntary_ctxt=0,
        run_ns=int((utime + stime) / CLK_TCK * 1e9),
        syscr=reads,
        syscw=0,
    )
    return ProcSample(PID, at, (t,))


@pytest.mark.parametrize(
    ("utime", "stime", "vol", "reads", "syscall", "says"),
    [
        # recorded from poll_spin: poll(0) + waitpid(WNOHANG) in a loop, 65% of its CPU in the kernel
        (0.35, 0.65, 0, 0, None, "and making syscalls (0.7 CPU-s in the kernel, 0 reads/writes"),
        # numpy: all in user space, no sleep
        (1.0, 0.0, 0, 0, None, "with no syscall and no voluntary switch"),
        # a copy loop: reads counted
        (0.5, 0.5, 0, 90000, None, "90000 reads/writes"),
        # an idle service woken now and then
        (0.0, 0.0, 40, 0, 7, "0 reads/writes and 40 wake-ups (voluntary switches): waiting, and woken"),
    ],
)
def test_what_a_watch_says(
    utime: float, stime: float, vol: int, reads: int, syscall: int | None, says: str
) -> None:
    first = sample(0.0, utime=0, stime=0, vol=0, reads=0, syscall=syscall)
    last = sample(
        1.0, utime=round(utime * CLK_TCK), stime=round(stime * CLK_TCK), vol=vol, reads=reads, syscall=syscall
    )
    assert says in activity([first, last]).summary
