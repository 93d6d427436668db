"""Shape: a process reads the master of a pty whose child has exited, but it still holds the
slave itself, so no hang-up (EIO) ever comes: a self-wait through a terminal.

The child (`true`, its output on the slave) is reaped before the read. Prints `ready` once the
read waits (a helper thread reads /proc).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import subprocess
import sys
import threading
import time


def _ready_once_in(syscall: str) -> None:
    """Print `ready` from a helper thread once the main thread sleeps in `syscall` (/proc,
    bounded): the look then finds the wait in place."""
    main_tid = threading.get_native_id()

    def watch() -> None:
        deadline = time.monotonic() + 10.0
        while True:
            try:
                with open(f"/proc/self/task/{main_tid}/syscall") as fh:
                    if fh.read().split()[0] == syscall:
                        break
            except (OSError, IndexError):
                pass
            if time.monotonic() > deadline:
                print("main never waited", file=sys.stderr, flush=True)
                os._exit(3)
            time.sleep(0.02)
        print("ready", flush=True)

    threading.Thread(target=watch, daemon=True).start()


def main() -> None:
    master, slave = os.openpty()
    subprocess.run(["true"], stdout=slave, stderr=slave, check=True, timeout=30)
    _ready_once_in("0")  # recvfrom/read on x86_64
    os.read(master, 1024)  # the slave is still open here: no EOF, no EIO


if __name__ == "__main__":
    main()
