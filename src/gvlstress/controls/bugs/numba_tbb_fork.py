"""Numba's TBB threading layer spins in its fork handler: a Python thread (not the main one) ran
a `parallel=True` function, so TBB has a second master that stays alive; then the main thread
calls os.fork(). Numba's pthread_atfork prepare handler (tbbpool prepare_fork) terminates the
TBB scheduler blocking, and tbb::internal::market::release loops on sched_yield() waiting for
the other master's reference to go: the process never gets to fork
(https://github.com/numba/numba/issues/5983, "opening subprocess hangs on repeated
`sched_yield`", open; related https://github.com/numba/numba/pull/6208). numba 0.51.2 wheels
exist for CPython <= 3.8; libtbb.so.2 is in the venv's lib, which the loader must be told about
(this program sets LD_LIBRARY_PATH and runs itself again). The app (a child of this program)
forks; this program watches it through /proc.
Control: numba 0.54.1 with oneTBB 2021.4: its handler gives up ("Unable to join threads to shut
down before fork()") and the fork goes on."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import _ready


def app() -> None:
    import numba as module  # type: ignore[import-not-found,import-untyped,unused-ignore]

    numba: Any = module
    numba.config.THREADING_LAYER = "tbb"

    @numba.njit(parallel=True)  # type: ignore[misc,untyped-decorator,unused-ignore]
    def total(n: int) -> float:
        s = 0.0
        for i in numba.prange(n):
            s += i
        return s

    assert total(100) == 4950.0
    assert numba.threading_layer() == "tbb"
    ran = threading.Event()

    def worker() -> None:  # e.g. a dask or ThreadPoolExecutor thread running the kernel
        total(1000)
        ran.set()
        threading.Event().wait()

    threading.Thread(target=worker, name="worker", daemon=True).start()
    ran.wait()
    pid = os.fork()  # numba 0.51 / TBB 2020: spins in prepare_fork
    if pid == 0:
        os._exit(0 if total(1000) == 499500.0 else 1)
    _, status = os.waitpid(pid, 0)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)  # 3.8: no waitstatus_to_exitcode


def main() -> None:
    lib = os.path.join(sys.prefix, "lib")
    if lib not in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep):
        os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in (lib, os.environ.get("LD_LIBRARY_PATH")) if p
        )
        os.execv(sys.executable, [sys.executable, *sys.argv])  # the loader reads it at start only
    if _ready.is_app() or _ready.control():
        app()
        return
    proc = _ready.app()
    # spinning mostly in the kernel (sched_yield), not compiling in user space
    spinning, in_kernel = _ready.Spinning(proc.pid), _ready.InKernel(proc.pid)
    _ready.settled(
        lambda: spinning() & in_kernel(), "spinning in the fork handler", timeout=60, stable=5, interval=0.2
    )
    _ready.announce(proc.pid)
    _ready.forever()


if __name__ == "__main__":
    main()
