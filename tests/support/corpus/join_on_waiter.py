"""Shape: main joins a thread that waits in Condition.wait() nobody will notify.

Why it matters: the join is only where the hang shows; its root is the lost wakeup in the
joined thread. The verdict must name the wakeup (with its line), not the join. A watcher
thread prints `ready` once main and the waiter are both parked in futex waits, then exits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import sys
import threading
import time

FUTEX = "202"  # x86_64


def parked(tids: list[int]) -> bool:
    try:
        return all(open(f"/proc/self/task/{t}/syscall").read().split()[0] == FUTEX for t in tids)
    except (OSError, IndexError):
        return False


def main() -> None:
    cond = threading.Condition()
    started = threading.Event()
    tids: list[int] = [threading.get_native_id()]

    def waiter() -> None:
        tids.append(threading.get_native_id())
        started.set()
        with cond:
            cond.wait()  # the notify this waits for was never sent

    def watcher() -> None:
        started.wait(10)
        deadline = time.monotonic() + 10.0
        while not parked(tids):
            if time.monotonic() > deadline:
                print("never parked", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)
        print("ready", flush=True)

    t = threading.Thread(target=waiter, name="waiter")
    t.start()
    threading.Thread(target=watcher, daemon=True).start()
    t.join()


if __name__ == "__main__":
    main()
