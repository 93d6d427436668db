"""Shape: a child blocked writing a large buffered stdout into a pipe its parent has not read yet
(the parent sleeps: a slow reader, not a hang).

Why it matters: a ptrace stop of the writer (any stack tool's attach) interrupts its write(), the
kernel returns the bytes written so far, and CPython's buffered stdout then exits 0 with the
output cut at the pipe's 64 KiB: a look would change what it looks at, and lose data. The child
must be judged from /proc alone and still be blocked, with nothing lost, after any look.
Prints `child PID` and `ready` once the child is in write() (a bounded /proc poll).
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import subprocess
import sys
import time

CHILD = "import sys; sys.stdout.write('x' * (1 << 20)); sys.stdout.flush()"
WRITE = {"x86_64": "1", "aarch64": "64"}


def main() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE)
    nr = WRITE.get(__import__("os").uname().machine, "1")
    for _ in range(600):
        with open(f"/proc/{child.pid}/syscall") as fh:
            if fh.read().split()[0] == nr:
                break
        time.sleep(0.05)  # a bounded /proc poll for the child's blocked write
    print(f"child {child.pid}", flush=True)
    print("ready", flush=True)
    if sys.argv[1:2] == ["drain"]:  # the reader comes back: every byte must arrive
        out = child.stdout.read() if child.stdout else b""
        print(f"read {len(out)}", flush=True)
        return
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
