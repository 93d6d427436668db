"""Shape: an apply_async callback calls pool.apply on the same multiprocessing.Pool.

Why it matters: callbacks run on the pool's result handler thread, the only thread that delivers
results, so the callback waits for a result only it could deliver (and the main thread's apply
behind it); on CPython 3.8+ the pool's worker handler then spins on the result pipe nobody
reads, so the process burns a core while nothing moves (a livelock, not "busy"). A helper
thread prints `ready` once /proc shows both the main thread and the result handler in futex
waits (bounded: exit 3), then exits.
"""

import multiprocessing
import threading

import handshake


def square(x: int) -> int:
    return x * x


def main() -> None:
    tids: list[int] = [threading.get_native_id()]
    with multiprocessing.get_context("spawn").Pool(2) as pool:

        def on_done(result: int) -> None:
            tids.append(threading.get_native_id())  # the result handler thread
            pool.apply(square, (result,))  # waits for a result only this thread delivers

        pool.apply_async(square, (3,), callback=on_done)
        handshake.ready_once_in(handshake.FUTEX, lambda: tids if len(tids) == 2 else [], count=2)
        pool.apply(square, (4,))


if __name__ == "__main__":
    main()
