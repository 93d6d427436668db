"""Shape: the main thread in libc's sleep() (a C-level sleep, no Python frame on top).

Why it matters: a ptrace attach (py-spy, pystack) interrupts the sleep, and the kernel resumes
it as restart_syscall with an uninformative wchan: the second and third `inspect` must still
see the sleep the first one saw. A helper thread checks (/proc, bounded) that main is in
clock_nanosleep, prints `ready`, then exits.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import ctypes
import os
import sys
import threading
import time

SLEEPS = {"35", "230"}  # nanosleep, clock_nanosleep (x86_64)


def main() -> None:
    main_tid = threading.get_native_id()

    def helper() -> None:
        deadline = time.monotonic() + 10.0
        while True:
            try:
                with open(f"/proc/self/task/{main_tid}/syscall") as fh:
                    if fh.read().split()[0] in SLEEPS:
                        break
            except (OSError, IndexError):
                pass
            if time.monotonic() > deadline:
                print("main never slept", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)
        print("ready", flush=True)

    threading.Thread(target=helper, daemon=True).start()
    ctypes.CDLL(None).sleep(100000)


if __name__ == "__main__":
    main()
