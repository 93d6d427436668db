"""Shape: the GIL's holder spins waiting for threads that need the GIL (the fixture's gil_spin).

Why it matters: one thread burns a core holding the GIL, in the fixture's native code, while
the rayon threads it waits for sit in take_gil (they call back into Python): no futex cycle,
the holder never parks. Its stack stays in one loop and moves no byte; what it spins on is named
from the waiters' frames (duckdb#16501 has this shape in a real library).
Prints `ready` (from a forked watcher, as the holder never gives up the GIL) once the holder is
in no syscall (running, or preempted in user space) and four threads wait on futexes, for ten polls in a row (a bounded /proc poll).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

from __future__ import annotations

import os
import time

os.environ["RAYON_NUM_THREADS"] = "4"  # the shape needs four waiters, whatever the suite inherited

import gvlstress_native

FUTEX = {"x86_64": "202", "aarch64": "98"}.get(os.uname().machine, "202")


def calls(pid: int) -> list[str]:
    out = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                out.append(fh.read().split()[0])
        except (OSError, IndexError):
            continue
    return out


def watch(parent: int) -> None:
    run, deadline = 0, time.monotonic() + 60
    while run < 10 and time.monotonic() < deadline:
        seen = calls(parent)
        # the holder is on a CPU ("running") or preempted in user space ("-1": in no syscall)
        spinning = seen.count("running") + seen.count("-1")
        run = run + 1 if spinning >= 1 and seen.count(FUTEX) >= 4 else 0
        time.sleep(0.05)  # the polling interval of a bounded /proc poll
    print(
        "ready" if run >= 10 else f"never spun (syscalls last seen: {' '.join(sorted(calls(parent)))})",
        flush=True,
    )


def main() -> None:
    if os.fork() == 0:
        watch(os.getppid())
        os._exit(0)
    gvlstress_native.Loader(seed=1, fault="gil_spin", fault_rate=1.0).next_batch()


if __name__ == "__main__":
    main()
