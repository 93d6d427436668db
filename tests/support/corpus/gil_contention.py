"""Shape (extra): two threads spinning in pure Python, contending for the GIL; main sleeps.

Why it matters: answers what a GIL waiter looks like. At any instant one spinner holds the
GIL (state R, "running") and the other waits in take_gil() -> pthread_cond_timedwait, a
futex wait WITH a timeout (the 5 ms switch interval), so it is blocked-looking but healthy
and keeps context-switching. `ready` is printed once both spinners signalled that they
are inside their loops.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import threading
import time


def spin(started: threading.Event) -> None:
    x = 0
    started.set()
    while True:
        for i in range(10_000):
            x = (x + i * i) % 1_000_003


def main() -> None:
    evs = [threading.Event() for _ in range(2)]
    for n, ev in enumerate(evs):
        threading.Thread(target=spin, args=(ev,), name=f"spinner-{n}", daemon=True).start()
    for ev in evs:
        ev.wait()
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
