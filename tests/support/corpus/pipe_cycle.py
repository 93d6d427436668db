"""Shape: three processes in a ring, each blocked in read() on a pipe only the previous one
holds for writing (and that one is reading too). A deadlock across processes: each read is an
ordinary outside wait when a process is looked at alone. The parent closes every end it made
and waits for its children. Prints `children PIDS`, then `ready` once all three are in read()
(a /proc poll).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import subprocess
import sys
import time

N = 3
CHILD = "import os, sys; os.read(int(sys.argv[1]), 1)"


def in_read(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/syscall") as fh:
            return fh.read().split()[0] == "0"
    except (OSError, IndexError):
        return False


def main() -> None:
    pipes = [os.pipe() for _ in range(N)]
    kids = []
    for i in range(N):
        r, _ = pipes[i]
        _, w = pipes[(i + 1) % N]  # the next one's pipe: only this child can write it
        kids.append(subprocess.Popen([sys.executable, "-c", CHILD, str(r)], pass_fds=(r, w)))
    for r, w in pipes:
        os.close(r)
        os.close(w)
    print("children " + " ".join(str(k.pid) for k in kids), flush=True)
    end = time.monotonic() + 60
    while not all(in_read(k.pid) for k in kids) and time.monotonic() < end:
        time.sleep(0.01)  # polling /proc for the children's reads
    print("ready", flush=True)
    for k in kids:
        k.wait()


if __name__ == "__main__":
    main()
