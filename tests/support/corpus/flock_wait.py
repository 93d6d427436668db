"""Shape: a process waiting in flock() for a lock its parent holds (a classic cross-process wait).

Why it matters: the wait is on a file, ended by another process: idle, not a hang, and it must be
named with the file and the holder's pid (/proc/locks), not "syscall 73". The parent takes the
lock on DIR/data.lock (DIR: the first argument), starts the child, prints `holder <pid>`, `child <pid>` and `ready` once the child's thread
is in flock (a bounded /proc poll), then sleeps.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import fcntl
import os
import subprocess
import sys
import time

FLOCK = "73"  # x86_64


def main() -> None:
    path = os.path.join(sys.argv[1], "data.lock")
    with open(path, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        code = "import fcntl, sys; fcntl.flock(open(sys.argv[1], 'w'), fcntl.LOCK_EX)"
        child = subprocess.Popen([sys.executable, "-c", code, path])
        print(f"holder {os.getpid()}", flush=True)
        print(f"child {child.pid}", flush=True)
        deadline = time.monotonic() + 10.0
        while True:
            try:
                with open(f"/proc/{child.pid}/syscall") as fh:
                    if fh.read().split()[0] == FLOCK:
                        break
            except (OSError, IndexError):
                pass
            if time.monotonic() > deadline:
                print("child never waited in flock", file=sys.stderr, flush=True)
                child.kill()
                sys.exit(3)
            time.sleep(0.02)
        print("ready", flush=True)
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    main()
