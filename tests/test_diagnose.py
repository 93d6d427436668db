"""Classification on constructed samples: each verdict, and no deadlock claim without evidence."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gvlstress.judge.verdict import judge
from gvlstress.model import ProbeKind, ProcSample, ThreadSample
from gvlstress.model.syscalls import CLK_TCK

FUTEX = frozenset({202})


def thread(tid: int, state: str = "S", ticks: int = 100, futex: int | None = 0xAB0) -> ThreadSample:
    return ThreadSample(
        tid=tid,
        comm="python3",
        state=state,
        wchan="futex_wait_queue" if futex else None,
        syscall=202 if futex else (7 if state == "S" else None),
        futex_addr=futex,
        utime=ticks,
        stime=0,
        voluntary_ctxt=5,
        nonvoluntary_ctxt=1,
    )


def proc(at: float, *threads: ThreadSample) -> ProcSample:
    return ProcSample(pid=42, at=at, threads=threads)


def test_all_parked_on_futexes_is_a_deadlock_with_groups() -> None:
    a = proc(0.0, thread(1, futex=0x10), *[thread(i, futex=0x20) for i in range(2, 6)])
    b = proc(0.5, thread(1, futex=0x10), *[thread(i, futex=0x20) for i in range(2, 6)])
    f = judge(a, b, futex_nrs=FUTEX)
    assert f.kind is ProbeKind.DEADLOCK
    assert f.cpu_s == 0.0
    assert [(g.addr, len(g.tids)) for g in f.futex_groups] == [(0x20, 4), (0x10, 1)]


def test_cpu_burning_without_progress_is_a_livelock() -> None:
    a = proc(0.0, thread(1), thread(2, state="R", ticks=100, futex=None))
    b = proc(0.5, thread(1), thread(2, state="R", ticks=100 + CLK_TCK // 2, futex=None))
    f = judge(a, b, futex_nrs=FUTEX)
    assert f.kind is ProbeKind.LIVELOCK
    assert f.cpu_s > 0.4


def test_a_gil_waiter_waking_for_one_tick_still_counts_as_parked() -> None:
    # CPython's take_gil waits 5 ms at a time: a waiter may run once and use a tick
    a = proc(0.0, thread(1), thread(2, state="R"))
    b = proc(0.5, thread(1), thread(2, ticks=101))
    assert judge(a, b, futex_nrs=FUTEX).kind is ProbeKind.DEADLOCK


def test_two_ticks_on_a_thread_refuse_a_deadlock() -> None:
    a = proc(0.0, thread(1), thread(2))
    b = proc(0.5, thread(1), thread(2, ticks=102))
    assert judge(a, b, futex_nrs=FUTEX).kind is not ProbeKind.DEADLOCK


def test_precise_cpu_tells_a_gil_waiter_from_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # schedstat: 2.5 ms in 0.5 s is a waiter waking on the GIL's 5 ms timer; 40 ms is work
    waiter = [replace(thread(i), run_ns=10_000_000) for i in (1, 2)]
    a = proc(0.0, *waiter)
    b = proc(0.5, replace(waiter[0], run_ns=12_500_000), replace(waiter[1], run_ns=12_400_000))
    assert judge(a, b, futex_nrs=FUTEX).kind is ProbeKind.DEADLOCK
    busy = proc(0.5, replace(waiter[0], run_ns=50_000_000), waiter[1])
    assert judge(a, busy, futex_nrs=FUTEX).kind is not ProbeKind.DEADLOCK


def test_sixteen_gil_waiters_with_a_few_ticks_are_still_a_deadlock() -> None:
    # tick accounting charges a few of them a tick; together they are not burning (< 20% of a CPU)
    a = proc(0.0, *[thread(i) for i in range(1, 17)])
    b = proc(0.5, *[thread(i, ticks=101 if i % 4 == 0 else 100) for i in range(1, 17)])
    assert judge(a, b, futex_nrs=FUTEX).kind is ProbeKind.DEADLOCK


def test_parked_in_a_poll_is_waiting_not_deadlocked() -> None:
    # e.g. waiting on a socket: asleep and flat, but no lock or latch involved
    a = proc(0.0, thread(1, futex=None), thread(2, futex=None))
    b = proc(0.5, thread(1, futex=None), thread(2, futex=None))
    f = judge(a, b, progress_tid=1, futex_nrs=FUTEX)
    assert f.kind is ProbeKind.WAITING
    assert "poll()" in f.reason


def test_thread_running_at_both_samples_is_not_parked() -> None:
    # runnable but starved by the scheduler (oversubscription): no CPU, yet not asleep
    a = proc(0.0, thread(1), thread(2, state="R"))
    b = proc(0.5, thread(1), thread(2, state="R"))
    f = judge(a, b, progress_tid=1, futex_nrs=FUTEX)
    assert f.kind is ProbeKind.WAITING
    assert "thread 2" in f.reason
    assert "running" in f.reason


def test_gone_process() -> None:
    assert judge(proc(0.0, thread(1)), None, futex_nrs=FUTEX).kind is ProbeKind.GONE


def test_without_syscall_rights_wchan_still_shows_the_futex_waits() -> None:
    # Yama ptrace_scope=1 and a non-descendant: /proc/.../syscall unreadable, wchan readable
    def blind(tid: int) -> ThreadSample:
        return replace(thread(tid, futex=None), syscall=None, wchan="futex_wait_queue")

    f = judge(proc(0.0, blind(1), blind(2)), proc(0.5, blind(1), blind(2)), futex_nrs=FUTEX)
    assert f.kind is ProbeKind.DEADLOCK
    assert "per wchan" in f.chain[0]
    assert f.futex_groups == ()
