"""Shape: a pure-Python lock-order inversion (the textbook deadlock), main blocked in join().

Why it matters: this is the true positive the judge must catch. Thread "inv-ab" holds lock
a and waits for b; thread "inv-ba" holds b and waits for a. A Barrier makes sure both hold
their first lock before either asks for its second, so it deadlocks every time. The main
thread then joins them, so it is blocked too (join waits on the thread's tstate lock).
A short-lived watcher thread prints `ready` once all three are parked in futex waits
(polled from /proc/self/task/TID/syscall, bounded to 10 s), then exits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import sys
import threading
import time

FUTEX = 202  # x86_64


def in_futex(tid: int) -> bool:
    try:
        with open(f"/proc/self/task/{tid}/syscall") as fh:
            return fh.read().split()[0] == str(FUTEX)
    except (OSError, IndexError):
        return False


def wait_parked(tids: list[int], label: str) -> None:
    deadline = time.monotonic() + 10.0
    stable = 0
    while stable < 5:
        if time.monotonic() > deadline:
            print(f"{label}: threads never parked", file=sys.stderr, flush=True)
            os._exit(3)
        stable = stable + 1 if all(in_futex(t) for t in tids) else 0
        time.sleep(0.02)


def main() -> None:
    a = threading.Lock()
    b = threading.Lock()
    barrier = threading.Barrier(2)
    tids: dict[str, int] = {}
    about_to_block = threading.Semaphore(0)

    def worker(first: threading.Lock, second: threading.Lock) -> None:
        tids[threading.current_thread().name] = threading.get_native_id()
        with first:
            barrier.wait()
            about_to_block.release()  # handshake: the next call blocks forever
            with second:
                pass

    t1 = threading.Thread(target=worker, args=(a, b), name="inv-ab")
    t2 = threading.Thread(target=worker, args=(b, a), name="inv-ba")
    t1.start()
    t2.start()
    about_to_block.acquire()
    about_to_block.acquire()
    main_tid = threading.get_native_id()

    def watcher() -> None:
        wait_parked([main_tid, tids["inv-ab"], tids["inv-ba"]], "lock_inversion")
        print(f"tids main={main_tid} inv-ab={tids['inv-ab']} inv-ba={tids['inv-ba']}", flush=True)
        print("ready", flush=True)

    threading.Thread(target=watcher, name="watcher", daemon=True).start()
    t1.join()
    t2.join()


if __name__ == "__main__":
    main()
