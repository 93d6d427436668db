"""Shape: a child that holds both ends of the pipe that is its stdin (Kludex/zuvloop#6's bug, with
subprocess: both ends inheritable, close_fds=False). `cat` reads a pipe only it could write; the
parent waits for `cat` to exit.

Why it matters: the parent's wait is for a child, the child's for a pipe; only following the
pipe's write end to the reader itself shows that nothing will ever end either: a self-wait in
the child, and the parent behind it.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)

import os
import subprocess


def main() -> None:
    r, w = os.pipe()
    os.set_inheritable(r, True)
    os.set_inheritable(w, True)
    cat = subprocess.Popen(["cat"], stdin=r, stdout=subprocess.DEVNULL, close_fds=False)
    os.close(r)
    os.close(w)  # the parent lets go of both ends; cat keeps the write end of its own stdin
    print(f"child {cat.pid}", flush=True)
    print("ready", flush=True)
    cat.wait()


if __name__ == "__main__":
    main()
