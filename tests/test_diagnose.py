"""Classification on constructed samples: each verdict, and no deadlock claim without evidence."""

from __future__ import annotations

from gvlstress.diagnose import judge
from gvlstress.model import ProbeKind, ProcSample, ThreadSample
from gvlstress.probes.procfs import CLK_TCK

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
    f = judge(a, b, FUTEX)
    assert f.kind is ProbeKind.DEADLOCK
    assert f.cpu_s == 0.0
    assert [(g.addr, len(g.tids)) for g in f.futex_groups] == [(0x20, 4), (0x10, 1)]


def test_cpu_burning_without_progress_is_a_livelock() -> None:
    a = proc(0.0, thread(1), thread(2, state="R", ticks=100, futex=None))
    b = proc(0.5, thread(1), thread(2, state="R", ticks=100 + CLK_TCK // 2, futex=None))
    f = judge(a, b, FUTEX)
    assert f.kind is ProbeKind.LIVELOCK
    assert f.cpu_s > 0.4


def test_one_tick_of_cpu_is_enough_to_refuse_a_deadlock() -> None:
    a = proc(0.0, thread(1), thread(2))
    b = proc(0.5, thread(1), thread(2, ticks=101))
    assert judge(a, b, FUTEX).kind is not ProbeKind.DEADLOCK


def test_parked_but_not_on_futexes_is_only_stalled() -> None:
    # e.g. blocked reading a pipe: asleep and flat, but no lock or latch involved
    a = proc(0.0, thread(1, futex=None), thread(2, futex=None))
    b = proc(0.5, thread(1, futex=None), thread(2, futex=None))
    assert judge(a, b, FUTEX).kind is ProbeKind.STALLED


def test_thread_running_at_first_sample_is_not_parked() -> None:
    a = proc(0.0, thread(1), thread(2, state="R"))
    b = proc(0.5, thread(1), thread(2))
    assert judge(a, b, FUTEX).kind is ProbeKind.STALLED


def test_gone_process() -> None:
    assert judge(proc(0.0, thread(1)), None, FUTEX).kind is ProbeKind.GONE
