"""Shape: a lost wakeup -- main thread in Condition.wait() (no timeout) that nobody notifies.

Why it matters: structurally this looks like an idle worker (a futex wait with no timeout,
no lock cycle), yet it is a real hang of the main thread. A helper thread first checks
(via /proc/self/task/TID/syscall, bounded) that main is parked, prints `ready`, then
itself parks in a second, never-notified Condition.wait(), so the process ends with two
threads each in an untimed Condition.wait.
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


def main() -> None:
    cond = threading.Condition()
    other = threading.Condition()
    main_tid = threading.get_native_id()

    def helper() -> None:
        deadline = time.monotonic() + 10.0
        stable = 0
        while stable < 5:
            if time.monotonic() > deadline:
                print("main never parked", file=sys.stderr, flush=True)
                os._exit(3)
            stable = stable + 1 if in_futex(main_tid) else 0
            time.sleep(0.02)
        print("ready", flush=True)
        with other:
            other.wait()

    with cond:
        threading.Thread(target=helper, name="lw-helper", daemon=True).start()
        cond.wait()  # nobody will ever notify


if __name__ == "__main__":
    main()
