"""Native pools whose tasks wait on futures of their own pool (`judge.taskpools`), as a table:
an IO pool of one thread reading through itself is a self-wait, a pool whose every worker waits
inside a task a cycle; a pool with one idle worker, and rayon's sleeping workers, are neither."""

from __future__ import annotations

import pytest

from gvlstress.judge import names
from gvlstress.model.waitfor import End
from lookshapes import LIBC, LOCK, Proc, Th, World

P = 700
ARROW = "/venv/lib/python3.11/site-packages/pyarrow/libarrow.so.1100"
STDCXX = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30"
POOL_RUN = (
    "std::thread::_State_impl<std::thread::_Invoker<std::tuple<arrow::internal::ThreadPool::"
    "LaunchWorkersUnlocked(int)::{lambda()#1}> > >::_M_run()"
)
START = (f"execute_native_thread_routine@{STDCXX}", f"start_thread@{LIBC}", f"__clone3@{LIBC}")
COND = (f"__futex_abstimed_wait_common@{LIBC}", f"pthread_cond_wait@@GLIBC_2.3.2@{LIBC}")
FUTURE = (*COND, f"std::condition_variable::wait()@{STDCXX}", f"arrow::FutureImpl::Wait()@{ARROW}")
IN_TASK = (
    *FUTURE,
    f"arrow::dataset::ParquetFileFormat::GetReader()@{ARROW}",
    f"arrow::internal::FnOnce<void ()>::operator()()@{ARROW}",
    f"{POOL_RUN}@{ARROW}",
    *START,
)
IDLE_IN_LOOP = (*COND, f"std::condition_variable::wait()@{STDCXX}", f"{POOL_RUN}@{ARROW}", *START)
MAIN = (*FUTURE, f"arrow::dataset::AsyncScanner::CountRows()@{ARROW}", f"__libc_start_main@{LIBC}")
RAYON = "/venv/lib/python3.11/site-packages/loader/_native.so"
RAYON_IDLE = (
    f"syscall@{LIBC}",
    f"std::sys::pal::unix::futex::futex_wait@{RAYON}",
    f"rayon_core::sleep::Sleep::sleep@{RAYON}",
    f"rayon_core::registry::WorkerThread::wait_until_cold@{RAYON}",
    f"rayon_core::registry::main_loop@{RAYON}",
    f"std::sys::backtrace::__rust_begin_short_backtrace@{RAYON}",
    f"std::sys::pal::unix::thread::Thread::new::thread_start@{RAYON}",
    f"start_thread@{LIBC}",
)


def pool(*workers: tuple[str, ...]) -> World:
    """The main thread waits on a future; each of `workers` is a thread with that native stack."""
    threads = [Th(P, LOCK.format(addr=0xA0), native=MAIN, comm="python")]
    threads += [
        Th(P + i, LOCK.format(addr=0xB0 + 0x10 * i), native=w, comm="worker")
        for i, w in enumerate(workers, 1)
    ]
    return World((Proc(P, tuple(threads)),))


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            pool(IN_TASK),
            (names.THREAD_POOL_EXHAUSTION, End.SELF),
            id="the only worker of an IO pool waits inside a task for a future of its own pool",
        ),
        pytest.param(
            pool(IN_TASK, IN_TASK),
            (names.THREAD_POOL_EXHAUSTION, End.CYCLE),
            id="every worker of the pool waits inside a task: exhausted by its own tasks",
        ),
        pytest.param(
            pool(IN_TASK, IDLE_IN_LOOP),
            (names.CLOSED_WAIT, End.NOBODY),
            id="look-alike: one worker idle in the pool's loop would run the queued work",
        ),
        pytest.param(
            pool(RAYON_IDLE, RAYON_IDLE),
            (names.CLOSED_WAIT, End.NOBODY),
            id="look-alike: rayon's workers asleep in its loop wait on no future",
        ),
    ],
)
def test_a_pool_that_waits_on_itself_is_told_from_one_that_can_still_run(
    world: World, expected: tuple[str, End]
) -> None:
    j = world.judged()[P]
    assert j.named is not None
    assert j.waitfor is not None
    assert (j.named.pattern, j.waitfor.end) == expected
