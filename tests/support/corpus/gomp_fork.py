"""Shape: fork after an OpenMP (GNU libgomp) team ran; the child starts a parallel region.

Why it matters: a fork-after-pool hang that is not rayon's (numpy/scikit-learn/torch builds link
libgomp): the child inherits the pool's bookkeeping but not its threads, and its GOMP_parallel
waits forever for workers that do not exist. libgomp is called through ctypes (a C callback that
does nothing). The parent prints `child <pid>` and `ready` once the child's only thread is on a
futex for 5 polls in a row (bounded), then sleeps. Exits 4 where libgomp is not installed.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import ctypes
import os
import sys
import time

FUTEX = "202"  # x86_64


def parked(pid: int) -> bool:
    """Every thread of `pid` in a futex wait."""
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                if fh.read().split()[0] != FUTEX:
                    return False
    except (OSError, IndexError):
        return False
    return True


def main() -> None:
    try:
        gomp = ctypes.CDLL("libgomp.so.1")
    except OSError:
        print("no libgomp.so.1", file=sys.stderr, flush=True)
        sys.exit(4)
    callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(lambda _data: None)
    gomp.GOMP_parallel.argtypes = [type(callback), ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
    gomp.GOMP_parallel(callback, None, 4, 0)  # the team's threads now exist, idle in the pool
    pid = os.fork()
    if pid == 0:
        gomp.GOMP_parallel(callback, None, 4, 0)  # waits for pool threads the fork did not copy
        os._exit(0)
    deadline = time.monotonic() + 20.0
    stable = 0
    while stable < 5:
        if time.monotonic() > deadline:
            print("child never parked", file=sys.stderr, flush=True)
            sys.exit(3)
        stable = stable + 1 if parked(pid) else 0
        time.sleep(0.05)
    print(f"child {pid}", flush=True)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
