"""A lock held across a wait for a thread pool's results (`judge.pystack.lock_across_pool`), as a
table: every busy worker waits, inside its task, for one lock, and the only other thread waits
for their results: a cycle. Workers on two locks, or another thread that may hold the lock, are
not."""

from __future__ import annotations

import pytest

from gvlstress.judge import names
from gvlstress.model import ProbeKind
from gvlstress.model.waitfor import End
from lookshapes import LOCK, PYTHON, SLEEP, Proc, Th, World

P = 800
THREADING = "/usr/lib/python3.11/threading.py"
POOL = "/usr/lib/python3.11/concurrent/futures/thread.py"
ACQUIRE = (f"PyThread_acquire_lock_timed@{PYTHON}", f"rlock_acquire@{PYTHON}")
RESULT = (
    ("Condition.wait", THREADING, 327),
    ("Future.result", "/usr/lib/python3.11/concurrent/futures/_base.py", 451),
    ("Node.row_count", "/srv/tree.py", 20),
    ("main", "/srv/tree.py", 40),
)
TASK = (
    ("cached_property.__get__", "/usr/lib/python3.11/functools.py", 995),
    ("count", "/srv/tree.py", 12),
    ("_WorkItem.run", POOL, 58),
    ("_worker", POOL, 83),
    ("Thread.run", THREADING, 982),
)
IDLE = (("_worker", POOL, 81), ("Thread.run", THREADING, 982))


def pool(*workers: tuple[tuple[tuple[str, str, int], ...], int], extra: tuple[Th, ...] = ()) -> World:
    """Main waits for a result; each worker is (its frames, the futex it waits on)."""
    threads = [Th(P, LOCK.format(addr=0xA0), py=RESULT)]
    threads += [
        Th(P + i, LOCK.format(addr=addr), py=py, native=ACQUIRE) for i, (py, addr) in enumerate(workers, 1)
    ]
    return World((Proc(P, (*threads, *extra)),))


@pytest.mark.parametrize(
    ("world", "expected"),
    [
        pytest.param(
            pool((TASK, 0xB0), (TASK, 0xB0)),
            (ProbeKind.DEADLOCK, names.LOCK_ACROSS, End.CYCLE),
            id="every busy worker waits for one lock the result's waiter alone can hold",
        ),
        pytest.param(
            pool((TASK, 0xB0), (IDLE, 0xC0)),
            (ProbeKind.DEADLOCK, names.LOCK_ACROSS, End.CYCLE),
            id="an idle worker beside the busy one holds no lock: the same cycle",
        ),
        pytest.param(
            pool((TASK, 0xB0), (TASK, 0xD0)),
            None,
            id="look-alike: the workers wait on two locks: not one held across the wait",
        ),
    ],
)
def test_a_lock_held_across_a_wait_for_the_pool_that_needs_it_is_a_cycle(
    world: World, expected: tuple[ProbeKind, str, End] | None
) -> None:
    j = world.judged()[P]
    got = (j.finding.kind, j.named.pattern if j.named else None, j.waitfor.end if j.waitfor else None)
    if expected is None:
        assert got[1] != names.LOCK_ACROSS, got
    else:
        assert got == expected


def test_another_thread_that_sleeps_may_hold_the_lock_and_the_process_is_no_hang() -> None:
    j = pool(
        (TASK, 0xB0), extra=(Th(P + 9, SLEEP, left_s=5.0, py=(("tick", "/srv/tree.py", 50),)),)
    ).judged()[P]
    assert j.finding.kind is not ProbeKind.DEADLOCK
