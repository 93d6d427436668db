"""A GIL waiter at a short switch interval wakes thousands of times a second to re-check its
wait: parked, not spinning. The rule (`judge.threads.polls`) as a table, and its effect on the
verdict from two /proc samples (real deadlocks under `--switch-interval`: tests/test_amplify.py)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gvlstress.judge.threads import polls, thread_deltas
from gvlstress.judge.verdict import decide, judge
from gvlstress.model import Capture, ProbeKind, ProcSample, PyThread, ThreadSample, ThreadView, ToolRun
from gvlstress.model.syscalls import futex_syscalls, restarted

FUTEX = min(futex_syscalls())
TIMED = (0x1000, 0x189, 0, 0x7FFD0000, 0, 0xFFFFFFFF)  # FUTEX_WAIT_BITSET with a deadline
UNTIMED = (0x1000, 0x189, 0, 0, 0, 0xFFFFFFFF)


def sample(syscall: int | None = FUTEX, args: tuple[int, ...] = TIMED, state: str = "S") -> ThreadSample:
    return ThreadSample(2, "python3", state, "futex_do_wait", syscall, 0x1000, 0, 0, 0, 0, 0, args)


@pytest.mark.parametrize(
    ("view", "cpu_s", "precise", "voluntary", "involuntary", "expected"),
    [
        (sample(), 0.041, True, 3518, 4, True),  # measured: 100 us switch interval, 12 us a wake
        (sample(), 0.041, True, 3518, 400, False),  # preempted often: it runs, it does not wait
        (sample(), 0.300, True, 3518, 4, False),  # 85 us a wake: real work between waits
        (sample(args=UNTIMED), 0.041, True, 3518, 4, False),  # a condvar ping-pong is not a tick
        (sample(syscall=None), 0.041, True, 3518, 4, False),  # caught running: nothing to go on
        (sample(syscall=7), 0.041, True, 3518, 4, False),  # poll(): not a futex tick
        (sample(), 0.041, False, 3518, 4, False),  # tick-sampled CPU is too coarse
        (sample(), 0.041, True, 0, 0, False),
        (sample(), 0.041, True, 3518, None, False),
    ],
)
def test_a_timed_futex_waiter_on_its_tick_polls(
    view: ThreadSample, cpu_s: float, precise: bool, voluntary: int, involuntary: int | None, expected: bool
) -> None:
    assert polls(view, cpu_s, precise, voluntary, involuntary) is expected


def proc(
    at: float, threads: Sequence[tuple[int, str, int | None, tuple[int, ...], int, int, int]]
) -> ProcSample:
    """(tid, state, syscall, args, run_ns, voluntary, involuntary) per thread."""
    return ProcSample(
        pid=1,
        at=at,
        threads=tuple(
            ThreadSample(
                tid, "python3", st, "futex_do_wait" if sc else None, sc, 0x1000, 0, 0, v, n, ns, args
            )
            for tid, st, sc, args, ns, v, n in threads
        ),
    )


def test_four_gil_waiters_ticking_at_100_us_beside_a_blocked_holder_are_a_deadlock_not_a_livelock() -> None:
    first = proc(
        0.0, [(1, "S", FUTEX, UNTIMED, 0, 10, 0)] + [(t, "S", FUTEX, TIMED, 0, 0, 0) for t in (2, 3, 4, 5)]
    )
    second = proc(
        0.5,
        [(1, "S", FUTEX, UNTIMED, 0, 10, 0)]
        + [
            (t, "S" if t != 3 else "R", FUTEX if t != 3 else None, TIMED, 41_000_000, 3500, 5)
            for t in (2, 3, 4, 5)
        ],
    )
    deltas = thread_deltas(first, second)
    assert all(d.parked for d in deltas)  # the one caught running keeps the first sample's wait
    finding = judge(first, second)
    assert finding.kind is ProbeKind.DEADLOCK, finding.reason
    # the same CPU from threads that are preempted, not waiting: a spin
    spin = proc(
        0.5,
        [(1, "S", FUTEX, UNTIMED, 0, 10, 0)] + [(t, "R", None, (), 41_000_000, 0, 300) for t in (2, 3, 4, 5)],
    )
    assert judge(first, spin).kind is ProbeKind.LIVELOCK


def stacks(owner: int, active: bool) -> Capture:
    """py-spy's view: thread `owner` holds the GIL, running Python code if `active`."""
    views = tuple(
        ThreadView(
            tid,
            "python3",
            "S",
            None,
            None,
            "futex_do_wait",
            0.0,
            None,
            None,
            PyThread(tid, None, tid == owner, active and tid == owner, ()),
            (),
        )
        for tid in (1, 2, 3, 4, 5)
    )
    return Capture(1, views, ToolRun("py-spy", True, 0.1), ToolRun("native", False, 0.0))


@pytest.mark.parametrize(
    ("owner", "active", "kind"),
    [
        (1, False, ProbeKind.DEADLOCK),  # the owner blocked in native code: nobody gets a turn
        (2, True, ProbeKind.WAITING),  # a ticking thread runs Python in its turn: busy, not hung
        (2, False, ProbeKind.DEADLOCK),
    ],
)
def test_the_stacks_tell_busy_python_threads_taking_turns_from_a_gil_deadlock(
    owner: int, active: bool, kind: ProbeKind
) -> None:
    first = proc(
        0.0, [(1, "S", FUTEX, UNTIMED, 0, 10, 0)] + [(t, "S", FUTEX, TIMED, 0, 0, 0) for t in (2, 3, 4, 5)]
    )
    second = proc(
        0.5,
        [(1, "S", FUTEX, UNTIMED, 0, 10, 0)]
        + [(t, "S", FUTEX, TIMED, 41_000_000, 3500, 5) for t in (2, 3, 4, 5)],
    )
    found = judge(first, second)
    assert found.kind is ProbeKind.DEADLOCK  # /proc alone cannot tell
    decided = decide(found, stacks(owner, active))
    assert decided.kind is kind, decided.reason
    if kind is ProbeKind.WAITING:
        assert "holds the GIL and runs Python code" in decided.reason


@pytest.mark.parametrize(
    ("nr", "wchan", "machine", "expected"),
    [
        # poll() stopped by a stack tool's ptrace resumes as restart_syscall, args in place: a poll
        (219, "poll_schedule_timeout.constprop.0", "x86_64", 7),
        # a timed futex or a sleep resumed so: left as it is (its arguments are not a poll's)
        (219, "futex_do_wait", "x86_64", 219),
        (219, "hrtimer_nanosleep", "x86_64", 219),
        # ppoll restarts as itself
        (271, "poll_schedule_timeout.constprop.0", "x86_64", 271),
        # aarch64 has no poll(): its restart_syscall (128) stays what it is
        (128, "poll_schedule_timeout", "aarch64", 128),
    ],
    ids=["poll", "timed-futex", "sleep", "ppoll", "no-poll-syscall"],
)
def test_a_restarted_poll_is_read_as_the_poll_it_resumes(
    nr: int, wchan: str, machine: str, expected: int
) -> None:
    assert restarted(nr, wchan, machine) == expected
