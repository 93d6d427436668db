"""pathos' ProcessPool (on `multiprocess`, the dill-based fork of multiprocessing) whose worker is
SIGKILLed mid-task (as the OOM killer would): multiprocess/pool.py is CPython's pool.py renamed,
so it replaces the worker and loses the task as bpo-22393 does, and map() waits forever
(https://github.com/uqfoundation/pathos/issues/230 "Subprocess killed by OOM killer leaves the
script hanging forever", open; https://github.com/uqfoundation/pathos/issues/265). The app (a
child of this program) runs the pool; this program kills the worker and watches through /proc.
Control: billiard's Pool (Celery's fork of multiprocessing) with the same work and the same kill:
it fails the lost job with WorkerLostError."""

from __future__ import annotations

import threading
import time

import _ready

TASKS = 4


def work(i: int) -> int:
    time.sleep(0.5)
    return i


def main() -> None:
    if _ready.is_app():
        from pathos.multiprocessing import ProcessPool  # type: ignore[import-not-found,import-untyped,unused-ignore]

        ProcessPool(2).map(work, range(TASKS))  # never returns
        return
    if _ready.control():
        import billiard  # type: ignore[import-not-found,import-untyped,unused-ignore]

        pool = billiard.Pool(2, lost_worker_timeout=1)
        threading.Thread(
            target=_ready.kill_in_task, args=(lambda: [p.pid for p in pool._pool],), daemon=True
        ).start()
        try:
            pool.map(work, range(TASKS))
        except Exception as exc:  # an ExceptionWithTraceback carrying billiard's WorkerLostError
            if "WorkerLostError" not in f"{type(exc).__name__} {exc}":
                raise
            return
        finally:
            pool.terminate()
            pool.join()
        raise SystemExit("control: no WorkerLostError")
    app = _ready.app()
    victim = _ready.kill_in_task(lambda: _ready.children(app.pid))
    _ready.settled(lambda: _ready.task_lost(app.pid, victim), "lost the task", stable=10)
    _ready.announce(app.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
