"""Shape: a native destructor that joins a thread at interpreter exit, the thread waiting for a
stop it never gets (the fixture's `Prefetcher(stop_on_drop=False)`, a Rust Drop).

Why it matters: the main thread hangs inside Py_FinalizeEx with no Python frame left, and its
join waits on the joined thread's id word, a futex without FUTEX_PRIVATE_FLAG (it looks like
shared memory): `inspect` must still exit 1, named. The child cannot announce itself once it
finalizes, so this parent starts it, polls /proc (bounded) until both of its threads wait on
futexes, prints `look PID` and `ready`, and waits. `control` runs the healthy drop, which must exit.
"""

# ruff: noqa: T201  (printing the handshake is the protocol)

import os
import subprocess
import sys
import time

FUTEX = "202"  # x86_64
CHILD = "import gvlstress_native as g; keep = g.Prefetcher(stop_on_drop={}); print('up', flush=True)"


def parked(pid: int) -> bool:
    calls = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/syscall") as fh:
                calls.append(fh.read().split()[0])
    except (OSError, IndexError):
        return False
    return len(calls) == 2 and all(c == FUTEX for c in calls)


def main() -> None:
    control = sys.argv[1:2] == ["control"]
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(control)], stdout=subprocess.PIPE)
    assert child.stdout is not None
    if child.stdout.readline() != b"up\n":
        sys.exit(3)
    if control:
        sys.exit(child.wait(timeout=60))
    deadline, run = time.monotonic() + 30.0, 0
    while run < 5:  # the main thread reaches its join after the script's last line: poll
        if time.monotonic() > deadline:
            print("never parked", file=sys.stderr, flush=True)
            os._exit(3)
        run = run + 1 if parked(child.pid) else 0
        time.sleep(0.05)
    print(f"look {child.pid}", flush=True)
    print("ready", flush=True)
    child.wait()


if __name__ == "__main__":
    main()
